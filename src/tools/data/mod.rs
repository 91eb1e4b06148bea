//! Data: the games and positions Lull learns from and plays from, made, stored and converted.
//! Self-play games ([`datagen`]); the training data formats, 32-byte packed positions
//! ([`packed`]) and game shards ([`gameformat`]); `lull data`'s conversions between them
//! ([`convert`]: convert, merge and shuffle; [`shard`]: import, export and a data directory's
//! status); OpenBench's data generation, its openings ([`genfens`]) and its games
//! ([`obpgn`]); and Polyglot opening books (`lull book`, [`book`]).

pub mod book;
pub mod convert;
pub mod datagen;
pub mod gameformat;
pub mod genfens;
pub mod obpgn;
pub mod packed;
pub mod shard;

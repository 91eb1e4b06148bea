//! Lull: a UCI chess engine built around the quiescence search of the literature.
//!
//! The library exposes every piece a Rust user (or a student) may want to call directly:
//! [`position::Position`] (board, history, UCI move notation), [`eval::evaluate`] and the NNUE
//! evaluation [`nnue`], the static exchange evaluator [`search::see`](mod@search::see), the
//! searcher [`search::Searcher`] with its [`search::QSearchOptions`], the transposition
//! table [`tt::TranspositionTable`], [`perft`], the option table [`options`], the Polyglot
//! book library [`book`] and the front ends in [`protocol`]: one engine session
//! ([`protocol::session::Session`]) behind the UCI and XBoard skins ([`protocol::uci`],
//! [`protocol::xboard`]). The search reports structured iterations; all protocol text is
//! written in [`protocol`].
//!
//! For experiments, [`research`] is the small entry point: build an engine with options,
//! search a position to a depth or a node budget and read the result, the principal variation
//! and the quiescence statistics, or run the quiescence search alone and get its tree
//! (`examples/compare_quiescence.rs`, `examples/quiescence_tree.rs`).
//!
//! Cargo features: `syzygy` (on by default; GPL crates) probes Syzygy tablebases; `tools` (on
//! by default) adds the `lull` command and its tools (the `tools` module). The engine
//! alone, `default-features = false`, depends on none of the tools' crates (clap, indicatif,
//! tiny_http, plotters).

pub mod bench;
pub mod book;
pub mod epd;
pub mod eval;
pub mod lines;
pub mod nnue;
pub mod options;
pub mod params;
pub mod perft;
pub mod position;
pub mod protocol;
#[deny(missing_docs)]
pub mod research;
pub mod san;
pub mod search;
pub mod skill;
pub mod tablebase;
pub mod time;
#[cfg(feature = "tools")]
pub mod tools;
pub mod tt;
pub mod wdl;

pub use cozy_chess;

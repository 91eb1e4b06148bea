//! Testing: is the engine right, and how fast? The bench signature and speed
//! ([`bench`](mod@bench)), the move generator's leaf counts ([`perft`]) and test suites such
//! as Win At Chess solved ([`solve`]).

pub mod bench;
pub mod perft;
pub mod solve;

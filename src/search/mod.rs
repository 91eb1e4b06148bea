//! The search: iterative deepening over a negamax alpha-beta search ([`alphabeta`]) that ends
//! in a quiescence search ([`qsearch`]), run by one or more threads sharing the
//! transposition table (Lazy SMP).
//!
//! [`Engine`] is the entry point for library users: it owns the threads' [`Searcher`]s and the
//! table, and [`Engine::search`] returns a [`SearchResult`]. Progress goes out as structured
//! [`SearchReport`]s to an optional sink: the search writes no protocol text, the front ends
//! (`crate::protocol`) format the reports as UCI `info` lines or XBoard thinking lines.

pub mod alphabeta;
mod clock;
pub mod control;
pub mod correction;
pub mod engine;
pub mod iterate;
mod lmr;
mod movelist;
pub mod movepick;
pub mod ordering;
pub mod pruning;
mod pv;
pub mod qsearch;
pub mod report;
mod reward;
mod root;
pub mod searcher;
pub mod see;
pub mod settings;
mod shared;
pub mod stack;
pub mod stats;
mod syzygy;
pub mod trace;
pub mod why;

pub use control::Control;
pub use engine::Engine;
pub use report::{
    shown_centipawns, IterationReport, QuiesceResult, ReportSink, RootLine, ScoreBound,
    SearchReport, SearchResult,
};
pub use searcher::Searcher;
pub use see::{see, see_ge};
pub use settings::{NullMoveQs, PruningOptions, QSearchOptions, SearchOptions};
pub use stats::SearchStats;
pub use trace::{QEnd, QPrune, QTrace};

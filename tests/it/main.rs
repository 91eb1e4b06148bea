//! The integration tests, in one test binary (one link of the optimised library instead of one
//! per file): a module per subject. Run one subject with a filter on its module path, e.g.
//! `cargo test --profile ci --test it tactics::` or `cargo test --profile ci --test it soak::`.
//!
//! The modules that drive the `lull` binary or call `lull::tools` need the `tools` feature
//! (on by default); without it (`cargo test --no-default-features`) the engine's own tests
//! run: the architecture checks, the dependency tree, the examples, perft, the evaluation and
//! the quiescence search. The property tests of bad input are their own binary
//! (`tests/proptest/`): they count every panic of their process.

mod architecture;
mod dependencies;
mod eval;
mod examples;
mod perft;
mod qsearch;
#[cfg(feature = "tools")]
mod rules;

#[cfg(feature = "tools")]
mod book;
#[cfg(feature = "tools")]
mod clients;
#[cfg(feature = "tools")]
mod common;
#[cfg(feature = "tools")]
mod docs;
#[cfg(feature = "tools")]
mod explore;
#[cfg(feature = "tools")]
mod explore_bounds;
#[cfg(feature = "tools")]
mod explore_browser;
#[cfg(feature = "tools")]
mod explore_interactions;
#[cfg(feature = "tools")]
mod explore_tour;
#[cfg(feature = "tools")]
mod explore_tree_api;
#[cfg(feature = "tools")]
mod gui_options;
#[cfg(feature = "tools")]
mod memory_limit;
#[cfg(feature = "tools")]
mod nnue;
#[cfg(feature = "tools")]
mod nnue_tools;
#[cfg(feature = "tools")]
mod no_data_lost;
#[cfg(feature = "tools")]
mod openbench;
#[cfg(feature = "tools")]
mod qtree;
#[cfg(feature = "tools")]
mod report;
#[cfg(feature = "tools")]
mod report_figures;
#[cfg(feature = "tools")]
mod search_output;
#[cfg(feature = "tools")]
mod shards;
#[cfg(feature = "tools")]
mod soak;
#[cfg(feature = "tools")]
mod spsa;
#[cfg(feature = "tools")]
mod syzygy;
#[cfg(feature = "tools")]
mod tactics;
#[cfg(feature = "tools")]
mod tools;
#[cfg(feature = "tools")]
mod uci_protocol;
#[cfg(feature = "tools")]
mod wdl;
#[cfg(feature = "tools")]
#[path = "support/webdriver.rs"]
mod webdriver;
#[cfg(feature = "tools")]
mod xboard;
#[cfg(feature = "tools")]
mod xboard_gui;

//! Lull: a UCI chess engine built around the quiescence search of the literature.
//!
//! The library exposes every piece a Rust user (or a student) may want to call directly:
//! [`position::Position`] (board, history, UCI move notation), [`eval::evaluate`], the static
//! exchange evaluator [`search::see`], the searcher [`search::Searcher`] with its
//! [`search::QSearchOptions`], the transposition table [`tt::TranspositionTable`], [`perft`]
//! and the UCI and XBoard front ends [`uci`] and [`xboard`].

pub mod bench;
pub mod book;
pub mod epd;
pub mod eval;
pub mod options;
pub mod params;
pub mod perft;
pub mod position;
pub mod san;
pub mod search;
pub mod time;
pub mod tools;
pub mod tt;
pub mod uci;
pub mod xboard;

pub use cozy_chess;

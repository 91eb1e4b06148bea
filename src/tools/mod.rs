//! The `lull` commands other than the protocols, one module each: `lull bench` and `lull
//! perft` (the command-line side of [`crate::bench`] and [`crate::perft`]), `lull solve` (run
//! a test suite such as Win At Chess), `lull horizon` (show the horizon effect by searching
//! one position with and without the quiescence search), `lull qtree` (draw a quiescence
//! search tree), `lull datagen` (self-play training positions), `lull tune` (fit the
//! evaluation weights to them), `lull spsa` (tune the search's numbers by self-play), `lull data` (pack, merge and shuffle training data, in the
//! 32-byte records of [`packed`]), `lull train` (train the network of docs/nnue.md), `lull
//! book` (build and probe Polyglot books), `lull explore` (a local web page showing the horizon
//! effect, the quiescence tree and its statistics), `lull report` (measure the quiescence search
//! against the literature's figures and write an HTML report) and [`genfens`]
//! (OpenBench's opening generator, run from command lines given as arguments). Each tool
//! owns its command-line arguments (a clap `Args` type) and a `run` that carries the command
//! out; the work itself is done by library functions that return their results as data, plus
//! the text rendering the command prints, so that tests and other programs can use them.
//!
//! This module also holds what the tools share: the two ways of writing a score, word
//! wrapping, and (in [`cli`] and [`progress`]) the command-line helpers.

pub mod atomic;
pub mod bench;
pub mod book;
pub mod cli;
pub mod data;
pub mod datagen;
pub mod explore;
pub mod gameformat;
pub mod genfens;
pub mod horizon;
pub mod obpgn;
pub mod packed;
pub mod perft;
pub mod progress;
pub mod qtree;
pub mod report;
pub mod shard;
pub mod solve;
pub mod spsa;
pub mod train;
pub mod tune;
pub mod wdl;
pub mod why;

use crate::params::{INFINITY, MATE, MATE_BOUND, TB_BOUND, TB_WIN};
use crate::protocol::uci::uci_score;

/// A score as UCI writes it: `cp 35`, `mate 3`, `mate -2` (mate in moves).
pub fn uci_score_text(score: i32) -> String {
    uci_score(score)
}

/// A score for people, signed: `+35`, `-120`, `0`, `+inf`/`-inf` for the open window, mate
/// scores as `+M3` / `-M3` (mate that many plies from the root of the search) and tablebase
/// scores as `+TB3` / `-TB3` (a tablebase win or loss reached that many plies from the root).
/// A bound beyond the mate scores but short of infinity (a window given by hand) is written
/// as its number.
pub fn signed_score_text(score: i32) -> String {
    let plies = |band_top: i32| band_top - score.abs();
    let sign = if score < 0 { '-' } else { '+' };
    match score.abs() {
        a if a >= INFINITY => format!("{sign}inf"),
        a if a > MATE => format!("{score:+}"),
        a if a >= MATE_BOUND => format!("{sign}M{}", plies(MATE)),
        a if (TB_BOUND..=TB_WIN).contains(&a) => format!("{sign}TB{}", plies(TB_WIN)),
        0 => "0".to_string(),
        _ => format!("{score:+}"),
    }
}

/// Joins words into lines of at most `width` characters (a longer word gets its own line).
pub fn wrap_words(words: &[String], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for w in words {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_at_the_width() {
        let words: Vec<String> = ["Qxb7", "Rb8", "Qxa7", "Ra8", "Qb7"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(wrap_words(&words, 12), ["Qxb7 Rb8", "Qxa7 Ra8 Qb7"]);
        assert_eq!(wrap_words(&[], 12), [""]);
        assert_eq!(uci_score_text(35), "cp 35");
    }

    #[test]
    fn the_two_score_styles_differ() {
        assert_eq!(uci_score_text(-120), "cp -120");
        assert_eq!(signed_score_text(-120), "-120");
        assert_eq!(uci_score_text(MATE - 3), "mate 2");
        assert_eq!(signed_score_text(MATE - 3), "+M3");
        assert_eq!(signed_score_text(35), "+35");
    }

    /// Scores and window bounds at the edges of the mate range, of the tablebase range and of
    /// infinity, as they are: a bound beyond the mate scores (`--beta 32100`, infinity less
    /// one) read as a mate in a negative number of plies (`+M-100`, `+M-499`), and a
    /// tablebase win as centipawns (`+31869`).
    #[test]
    fn scores_at_the_edges_are_written_as_what_they_are() {
        for (score, text) in [
            (INFINITY, "+inf"),
            (-INFINITY, "-inf"),
            (INFINITY + 7, "+inf"),
            (INFINITY - 1, "+32499"),
            (-(INFINITY - 1), "-32499"),
            (MATE + 100, "+32100"),
            (MATE + 1, "+32001"),
            (MATE, "+M0"),
            (-MATE, "-M0"),
            (MATE - 1, "+M1"),
            (-(MATE - 2), "-M2"),
            (MATE_BOUND, "+M128"),
            (-MATE_BOUND, "-M128"),
            (TB_WIN, "+TB0"),
            (TB_WIN - 2, "+TB2"),
            (-(TB_WIN - 5), "-TB5"),
            (TB_BOUND, "+TB128"),
            (TB_BOUND - 1, "+31742"),
            (-(TB_BOUND - 1), "-31742"),
            (1, "+1"),
            (-1, "-1"),
            (0, "0"),
        ] {
            assert_eq!(signed_score_text(score), text, "{score}");
        }
    }
}

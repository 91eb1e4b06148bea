//! The `lull` commands other than the protocols, grouped by the job they serve, one module a
//! command:
//!
//! - [`testing`]: is the engine right and fast? `lull bench` and `lull perft` (the
//!   command-line side of [`crate::bench`] and [`crate::perft`]) and `lull solve` (run a test
//!   suite such as Win At Chess).
//! - [`teaching`]: what does the search do, and why? `lull horizon` (the horizon effect: one
//!   position searched with and without the quiescence search), `lull why` (why the search
//!   missed a line), `lull qtree` (a quiescence search tree, drawn), `lull explore` (a local
//!   web page showing the horizon effect, the quiescence tree and its statistics) and `lull
//!   report` (the quiescence search measured against the literature's figures, in HTML).
//! - [`data`]: the games and positions Lull learns from and plays from. `lull datagen`
//!   (self-play training positions), `lull data` (convert, merge and shuffle training data in
//!   the 32-byte records of [`data::packed`] or the game shards of [`data::gameformat`];
//!   import, export and status), OpenBench's opening generator ([`data::genfens`], run from
//!   command lines given as arguments) and its games ([`data::obpgn`]), and `lull book`
//!   (build and probe Polyglot books).
//! - [`training`]: the numbers fitted to that data. `lull train` (the network of
//!   docs/nnue.md), `lull tune` (the evaluation weights), `lull spsa` (the search's numbers,
//!   by self-play) and `lull wdl fit` (the win/draw/loss model).
//! - [`common`]: what tools of several groups share: the one way a tool writes a file
//!   ([`common::atomic`]) and the progress bar ([`common::progress`]).
//!
//! Each tool owns its command-line arguments (a clap `Args` type) and a `run` that carries
//! the command out; the work itself is done by library functions that return their results
//! as data, plus the text rendering the command prints, so that tests and other programs can
//! use them. [`cli`] holds the command-line helpers every tool uses, and this module the two
//! ways of writing a score and word wrapping.

pub mod cli;
pub mod common;
pub mod data;
pub mod teaching;
pub mod testing;
pub mod training;

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

//! The testers' tools behind `lull solve` (run a test suite such as Win At Chess),
//! `lull horizon` (show the horizon effect by searching one position with and without the
//! quiescence search), `lull datagen` (self-play training positions) and `lull tune` (fit
//! the evaluation weights to them). Each tool is a library function that returns its results as data, plus
//! the text rendering the command prints, so that tests and other programs can use them.

pub mod datagen;
pub mod horizon;
pub mod qtree;
pub mod solve;
pub mod tune;

use crate::protocol::uci::uci_score;

/// A score as UCI writes it: `cp 35`, `mate 3`, `mate -2`.
pub fn score_text(score: i32) -> String {
    uci_score(score)
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
        assert_eq!(score_text(35), "cp 35");
    }
}

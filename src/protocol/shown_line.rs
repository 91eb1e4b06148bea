//! The rule both protocols keep: the last line a search prints before its move (UCI
//! `info … pv`, XBoard thinking output) starts with that move, and in UCI with the ponder
//! move after it. A GUI takes the score and the line of a move from the last line before it
//! (fastchess warns when the two disagree, and would comment the move with another move's
//! score). Several paths can leave another line last: an iteration stopped after it found a
//! better move, `MultiPV` (its last line is the worst), `Skill Level` (it may play a weaker
//! line), a ponder move found in the table behind a one-move PV, a book move (no search at
//! all). So the front end remembers the line it printed last, and before the move prints
//! the move's own line when that one does not show it.

use std::sync::{Arc, Mutex};

use cozy_chess::Move;

use super::uci::info_lines;
use crate::position::{move_to_uci, Position};
use crate::search::{SearchReport, SearchResult};

/// Whether `line` (a printed PV) starts with `best`, and with `ponder` after it if there is
/// one.
pub fn line_shows(line: &[Move], best: Move, ponder: Option<Move>) -> bool {
    line.first() == Some(&best) && ponder.is_none_or(|p| line.get(1) == Some(&p))
}

/// The PV of the last line a search printed, kept between the report sink and the answer
/// (both run on the search thread).
#[derive(Debug, Default)]
pub struct ShownLine(Mutex<Vec<Move>>);

impl ShownLine {
    /// Nothing printed yet.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Notes the lines of a report as printed.
    pub fn record(&self, report: &SearchReport) {
        if let SearchReport::Iteration(r) = report {
            if let Some(last) = r.lines.last() {
                let mut shown = self.0.lock().unwrap_or_else(|e| e.into_inner());
                shown.clone_from(&last.pv);
            }
        }
    }

    /// The UCI lines to print before `bestmove` so that the last `info … pv` line is the
    /// move's (none when it already is). See [`uci_final_lines`].
    pub fn uci_lines(&self, pos: &Position, result: &SearchResult, show_wdl: bool) -> Vec<String> {
        let Some(best) = result.best_move else {
            return Vec::new();
        };
        let shown = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if line_shows(&shown, best, result.ponder_move) {
            return Vec::new();
        }
        uci_final_lines(pos, result, show_wdl)
    }
}

/// The `info` line of the move `result` plays: its line with its score and the search's
/// final counts (`multipv 1`), or [`uci_move_line`] when no iteration gave the move a score.
pub fn uci_final_lines(pos: &Position, result: &SearchResult, show_wdl: bool) -> Vec<String> {
    match (result.final_report(), result.best_move) {
        (Some(report), _) => info_lines(pos, &SearchReport::Iteration(report), show_wdl),
        (None, Some(best)) => vec![uci_move_line(pos, best)],
        (None, None) => Vec::new(),
    }
}

/// `info depth 0 pv <move>`: the line of a move played without a search (a book move, the
/// first legal move when the search failed).
pub fn uci_move_line(pos: &Position, mv: Move) -> String {
    format!(
        "info depth 0 pv {}",
        move_to_uci(pos.board(), mv, pos.chess960())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{IterationReport, RootLine, ScoreBound};

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn report(lines: &[&[&str]]) -> SearchReport {
        let lines: Vec<RootLine> = lines
            .iter()
            .map(|l| RootLine {
                score: 10,
                pv: l.iter().map(|m| mv(m)).collect(),
            })
            .collect();
        SearchReport::Iteration(IterationReport {
            depth: 3,
            seldepth: 3,
            score: 10,
            nodes: 100,
            nps: 1000,
            bound: ScoreBound::Exact,
            time_ms: 100,
            hashfull: 0,
            tbhits: 0,
            pv: lines[0].pv.clone(),
            lines,
        })
    }

    fn result(best: &str, ponder: Option<&str>, pv: &[&str], pv_depth: i32) -> SearchResult {
        SearchResult {
            best_move: Some(mv(best)),
            ponder_move: ponder.map(mv),
            score: 25,
            depth: 4,
            pv_depth,
            pv: pv.iter().map(|m| mv(m)).collect(),
            nodes: 5000,
            clock_ms: 50,
            ..SearchResult::default()
        }
    }

    #[test]
    fn the_move_gets_its_own_line_only_when_the_last_one_is_another() {
        let pos = Position::startpos();
        let shown = ShownLine::new();
        // Nothing printed: the move's line.
        let r = result("e2e4", Some("e7e5"), &["e2e4", "e7e5"], 4);
        assert_eq!(
            shown.uci_lines(&pos, &r, false),
            [
                "info depth 4 seldepth 4 multipv 1 score cp 25 nodes 5000 nps 100000 hashfull 0 \
              tbhits 0 time 50 pv e2e4 e7e5"
            ]
        );
        // The last line printed starts with the move and the ponder move: nothing more.
        shown.record(&report(&[&["e2e4", "e7e5", "g1f3"]]));
        assert!(shown.uci_lines(&pos, &r, false).is_empty());
        // MultiPV: the last line printed is the third.
        shown.record(&report(&[&["e2e4", "e7e5"], &["d2d4"], &["c2c4"]]));
        assert_eq!(shown.uci_lines(&pos, &r, false).len(), 1);
        // A ponder move from the table behind a one-move PV: the line shows both.
        shown.record(&report(&[&["e2e4"]]));
        let r = result("e2e4", Some("c7c5"), &["e2e4"], 4);
        let lines = shown.uci_lines(&pos, &r, false);
        assert!(lines[0].ends_with(" pv e2e4 c7c5"), "{lines:?}");
        // A move of a stopped iteration that failed high: a lower bound, one ply deeper.
        let mut r = result("d2d4", None, &["d2d4", "d7d5"], 5);
        r.bound = ScoreBound::Lower;
        let lines = shown.uci_lines(&pos, &r, false);
        assert!(
            lines[0].starts_with("info depth 5 seldepth 5 multipv 1 score cp 25 lowerbound "),
            "{lines:?}"
        );
        assert!(lines[0].ends_with(" pv d2d4 d7d5"), "{lines:?}");
        // No iteration gave the move a score: the move alone, at depth 0.
        let r = result("g1f3", None, &[], 0);
        assert_eq!(shown.uci_lines(&pos, &r, false), ["info depth 0 pv g1f3"]);
        // No move (mate or stalemate): nothing.
        let none = SearchResult::default();
        assert!(shown.uci_lines(&pos, &none, false).is_empty());
    }
}

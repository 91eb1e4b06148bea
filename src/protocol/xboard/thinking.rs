//! The thinking output of a search: CECP's scores and thinking lines, and [`Thinking`], which
//! shows a search's reports as they come and sends its move when it ends.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use cozy_chess::Board;

use super::analysis::Status;
use super::moves::{game_end_claim, xboard_move};
use super::{lock, Mode, Shared};
use crate::params::{MATE, MATE_BOUND};
use crate::position::Position;
use crate::protocol::say;
use crate::protocol::shown_line::line_shows;
use crate::san::line_to_san;
use crate::search::{shown_centipawns, IterationReport, ScoreBound, SearchReport, SearchResult};

/// CECP's mate score base: mate in N moves is reported as `MATE_SCORE + N`.
pub const MATE_SCORE: i32 = 100_000;

/// One search as CECP shows it, on the search thread: its thinking lines (and the status of
/// `.`) as its iterations end, and its move when it ends, if that move is still wanted. What
/// the search is for, and whether its move is wanted, it reads from [`Shared`], which the
/// command loop changes (a ponder hit, a search ended without its move).
pub(super) struct Thinking {
    shared: Arc<Mutex<Shared>>,
    /// `post`: thinking output while playing (analysis always shows it).
    post: Arc<AtomicBool>,
    /// The last completed iteration, for `.`.
    status: Arc<Mutex<Option<Status>>>,
    /// The board searched.
    board: Board,
    /// The board before the expected reply of a ponder search (otherwise the board searched).
    before: Board,
    /// The number of legal moves of the position searched.
    total_moves: usize,
    /// Whether castling goes out as Chess960 writes it.
    chess960: bool,
}

impl Thinking {
    /// The output of a search of `pos` in `mode`. The status of `.` is cleared until the
    /// search's first iteration ends.
    pub fn new(
        pos: &Position,
        mode: Mode,
        shared: Arc<Mutex<Shared>>,
        post: Arc<AtomicBool>,
        status: Arc<Mutex<Option<Status>>>,
        chess960: bool,
    ) -> Self {
        let board = pos.board().clone();
        // The board before the expected reply of a ponder search.
        let before = match mode {
            Mode::Ponder(_) => {
                let mut b = pos.clone();
                b.undo();
                b.board().clone()
            }
            _ => board.clone(),
        };
        *lock(&status) = None;
        Self {
            shared,
            post,
            status,
            board,
            before,
            total_moves: pos.legal_moves().len(),
            chess960,
        }
    }

    /// Shows one report of the search (its report sink): the thinking lines of an iteration
    /// with an exact score, when they are to be shown, and the status of `.`.
    pub fn report(&self, r: &SearchReport) {
        let mode = {
            let mut s = lock(&self.shared);
            if s.mode == Mode::Think && self.post.load(Ordering::Relaxed) {
                if let SearchReport::Iteration(r) = r {
                    // The lines of an exact report are shown, the last one last.
                    if let Some(last) = r.lines.last().filter(|_| r.bound == ScoreBound::Exact) {
                        s.shown.clone_from(&last.pv);
                    }
                }
            }
            s.mode
        };
        let show = match mode {
            Mode::Analyze => true,
            Mode::Think | Mode::Ponder(_) => self.post.load(Ordering::Relaxed),
        };
        let r = match r {
            SearchReport::Iteration(r) if r.bound == ScoreBound::Exact => r,
            // A finished game: one line that says so, and a status for `.`.
            SearchReport::NoLegalMove { score } => {
                *lock(&self.status) = Some(Status {
                    centis: 0,
                    nodes: 0,
                    depth: 0,
                    total_moves: 0,
                    best: String::new(),
                });
                if show {
                    let end = if *score < 0 { "checkmate" } else { "stalemate" };
                    say(&format!("0 {} 0 0 ({end})", cecp_score(*score)));
                }
                return;
            }
            _ => return,
        };
        // The nodes and the time of the whole search (a ponder search's: since it
        // began pondering), so that nodes / time is its speed.
        let nodes = r.nodes;
        let pv = line_to_san(&self.board, &r.pv);
        *lock(&self.status) = Some(Status {
            centis: r.time_ms / 10,
            nodes,
            depth: r.depth,
            total_moves: self.total_moves,
            best: pv.first().cloned().unwrap_or_default(),
        });
        if !show {
            return;
        }
        // A ponder search's PV starts after the expected reply: shown first, in
        // parentheses, as other engines do. With MultiPV one line per root line.
        let prefix = match mode {
            Mode::Ponder(reply) => Some(format!(
                "({})",
                line_to_san(&self.before, &[reply]).join(" ")
            )),
            _ => None,
        };
        for line in &r.lines {
            let mut words: Vec<String> = prefix.iter().cloned().collect();
            words.extend(line_to_san(&self.board, &line.pv));
            say(&thinking_line(line.score, r, nodes, &words));
        }
    }

    /// The search ended (`pos` is the position searched; no result when the search failed):
    /// sends its move, with its thinking, unless the move is no longer wanted.
    pub fn finish(&self, pos: &Position, result: Option<&SearchResult>) {
        if result.is_none() {
            say("# the search failed (internal error); tables cleared");
        }
        let mut s = lock(&self.shared);
        if s.mode == Mode::Think && !s.discarded {
            // A move always comes with its thinking when `post` is on, and the last line
            // shown is the move's (see `shown_line`): after a ponder hit the next
            // iteration may not end before the time does (the lines shown while
            // pondering were those of the reply's search), a stopped iteration may have
            // found another move, and with MultiPV the last line is the worst.
            let report = result
                .filter(|r| r.best_move.is_some_and(|m| !line_shows(&s.shown, m, None)))
                .and_then(|r| r.final_report());
            if let Some(r) = report.filter(|_| self.post.load(Ordering::Relaxed)) {
                // The whole search's nodes and time, as on every thinking line.
                let pv = line_to_san(pos.board(), &r.pv).join(" ");
                say(&format!(
                    "{} {} {} {} {pv}",
                    r.depth,
                    cecp_score(r.score),
                    r.time_ms / 10,
                    r.nodes,
                ));
            }
            // The search's move, or any legal move if the search failed.
            let best = result
                .and_then(|r| r.best_move)
                .or_else(|| pos.legal_moves().first().copied());
            if let Some(mv) = best {
                s.sent = Some(mv);
                say(&format!(
                    "move {}",
                    xboard_move(pos.board(), mv, self.chess960)
                ));
                let mut after = pos.clone();
                after.play(mv);
                if let Some(claim) = game_end_claim(&after) {
                    say(&claim);
                }
            }
        }
        s.done = true;
    }
}

/// A CECP score: centipawns (a tablebase win as 20000 less its plies, see
/// [`shown_centipawns`]), or 100000 + N for mate in N moves, -100000 - N for mated in N.
pub fn cecp_score(score: i32) -> i32 {
    if score >= MATE_BOUND {
        MATE_SCORE + (MATE - score + 1) / 2
    } else if score <= -MATE_BOUND {
        -MATE_SCORE - (MATE + score + 1) / 2
    } else {
        shown_centipawns(score)
    }
}

/// A thinking line: `ply score time nodes pv` (time in centiseconds, PV in SAN) of one
/// line of an iteration, with `score` and `nodes` as shown.
pub fn thinking_line(score: i32, r: &IterationReport, nodes: u64, pv_san: &[String]) -> String {
    let mut line = format!(
        "{} {} {} {}",
        r.depth,
        cecp_score(score),
        r.time_ms / 10,
        nodes
    );
    for mv in pv_san {
        line.push(' ');
        line.push_str(mv);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_cecp() {
        assert_eq!(cecp_score(35), 35);
        assert_eq!(cecp_score(-120), -120);
        assert_eq!(cecp_score(MATE - 1), MATE_SCORE + 1);
        assert_eq!(cecp_score(MATE - 5), MATE_SCORE + 3);
        assert_eq!(cecp_score(-(MATE - 2)), -MATE_SCORE - 1);
        assert_eq!(cecp_score(-MATE), -MATE_SCORE);
        assert_eq!(cecp_score(crate::params::TB_WIN - 3), 19997);
    }
}

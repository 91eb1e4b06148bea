//! Why a line was not found: what the main search did, iteration by iteration, at the nodes of
//! a given line of moves (`lull why`).
//!
//! The line is a sequence of moves from the root (the key move of a tactic and its answers).
//! Its positions are known by their Zobrist keys, one per ply; wherever the search stands on
//! one of them at that ply, it notes what became of the node (a TT cutoff, reverse futility,
//! a null-move cutoff, the quiescence search at the horizon, a draw) and what became of the
//! line's next move there (pruned by late-move pruning, futility or SEE; searched with a
//! reduction; searched, with its score and window; or never reached because an earlier move
//! cut the node off). The notes are the search's own decisions: nothing is searched twice.

use cozy_chess::Move;

use crate::tt::Bound;

/// At most this many events are kept; a deep search visits the nodes of a line many times
/// (re-searches, aspiration windows), and the first ones tell the story.
pub const WHY_EVENT_LIMIT: usize = 20_000;

/// What happened at a node of the line, or to the line's next move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhyKind {
    /// The node was at the horizon: the quiescence search (or the static evaluation with
    /// `QSearch` off) gave this score.
    Horizon {
        /// The score from the side to move.
        score: i32,
    },
    /// A draw by rule (repetition, fifty moves, material).
    Draw,
    /// Mate distance pruning: no score here could beat a mate found nearer the root.
    MateDistance,
    /// A transposition-table entry ended the node.
    TtCutoff {
        /// The stored score.
        score: i32,
        /// Its bound.
        bound: Bound,
        /// The depth it was searched to.
        depth: i32,
    },
    /// Razoring: far below alpha, the quiescence search could not lift the node to it.
    Razored {
        /// The evaluation used.
        eval: i32,
        /// The margin.
        margin: i32,
    },
    /// Reverse futility pruning: the evaluation minus a margin stood above beta.
    ReverseFutility {
        /// The evaluation used.
        eval: i32,
        /// The margin.
        margin: i32,
    },
    /// Null-move pruning: passing still failed high.
    NullMove {
        /// The reduced search's score after the null move.
        score: i32,
    },
    /// ProbCut: a capture beat the raised beta in a shallow search.
    ProbCut {
        /// The shallow search's score of the capture.
        score: i32,
    },
    /// The line's move was dropped by late-move pruning.
    LateMovePruned {
        /// Quiet moves tried before it.
        quiets_tried: i32,
        /// The limit at this depth.
        limit: i32,
    },
    /// The line's move was dropped by futility pruning.
    Futility {
        /// The evaluation.
        eval: i32,
        /// The margin.
        margin: i32,
    },
    /// The line's move was dropped by history pruning (a late quiet move whose history says
    /// such moves fail here).
    HistoryPruned {
        /// Its history (from-to plus the two continuation histories).
        history: i32,
        /// The limit it fell below.
        limit: i32,
    },
    /// The line's move was dropped by SEE pruning (it loses material on its square).
    SeePruned,
    /// The line's move was searched with a reduced depth first.
    Reduced {
        /// Plies of reduction.
        r: i32,
        /// Its position in the move order (1 = first).
        order: usize,
        /// The reduced search's score.
        score: i32,
    },
    /// The line's move was searched to the full depth.
    Searched {
        /// Its position in the move order (1 = first).
        order: usize,
        /// The score.
        score: i32,
    },
    /// An earlier move cut the node off: the line's move was never tried.
    CutBefore {
        /// The move that cut.
        by: Move,
        /// Its score.
        score: i32,
    },
    /// The node's result.
    Result {
        /// The score returned.
        score: i32,
        /// The best move, if any beat alpha.
        best: Option<Move>,
    },
}

/// One note.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WhyEvent {
    /// The iteration (root depth).
    pub iteration: i32,
    /// The node's distance from the root.
    pub ply: usize,
    /// The depth left at the node.
    pub depth: i32,
    /// The window at the node.
    pub alpha: i32,
    /// The window at the node.
    pub beta: i32,
    /// What happened.
    pub kind: WhyKind,
}

/// The line being watched, and what the search did on it.
#[derive(Clone, Debug, Default)]
pub struct WhyTrace {
    /// Keys of the line's positions: the root, then after each move.
    keys: Vec<u64>,
    /// The line's moves.
    moves: Vec<Move>,
    /// The iteration being searched.
    pub(crate) iteration: i32,
    /// The notes, in the order the search made them.
    pub events: Vec<WhyEvent>,
    /// Whether notes were dropped at [`WHY_EVENT_LIMIT`].
    pub truncated: bool,
}

impl WhyTrace {
    /// A trace of the line whose positions have these keys (root first; one more key than
    /// moves).
    pub fn new(keys: Vec<u64>, moves: Vec<Move>) -> Self {
        debug_assert_eq!(keys.len(), moves.len() + 1);
        Self {
            keys,
            moves,
            ..Self::default()
        }
    }

    /// Whether the position with `key` at `ply` is on the line.
    #[inline]
    pub(crate) fn on_line(&self, ply: usize, key: u64) -> bool {
        self.keys.get(ply) == Some(&key)
    }

    /// The line's move at `ply`, if the line goes on there.
    pub(crate) fn line_move(&self, ply: usize) -> Option<Move> {
        self.moves.get(ply).copied()
    }

    /// Notes an event.
    pub(crate) fn note(&mut self, ply: usize, depth: i32, alpha: i32, beta: i32, kind: WhyKind) {
        if self.events.len() >= WHY_EVENT_LIMIT {
            self.truncated = true;
            return;
        }
        self.events.push(WhyEvent {
            iteration: self.iteration,
            ply,
            depth,
            alpha,
            beta,
            kind,
        });
    }
}

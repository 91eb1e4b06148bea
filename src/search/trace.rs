//! The record of a traced quiescence search (`lull qtree`, the tests): why each node ended,
//! why a move was not searched, and the events of the tree in the order they happen.

use cozy_chess::Move;
use serde::Serialize;

/// Why a quiescence node ended (for `lull qtree` and the tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum QEnd {
    /// The search was stopped (time, nodes, `stop`).
    Stopped,
    /// Draw by repetition or insufficient material.
    Draw,
    /// The q-ply cap (or the ply limit) was reached: static evaluation.
    PlyCap,
    /// The q-node budget was spent: static evaluation.
    NodeCap,
    /// Mate distance pruning closed the window.
    MateDistance,
    /// A transposition-table bound ended the node.
    TtCutoff,
    /// The Syzygy WDL tables gave the result (`params::TB_PROBE_IN_QSEARCH`).
    Tablebase,
    /// Stand pat reached beta.
    StandPat,
    /// A move failed high; `after` is how many moves had been searched.
    BetaCutoff {
        /// Number of moves searched, the cutting one included.
        after: u32,
    },
    /// Every move was searched or pruned without a cutoff.
    AllSearched,
    /// No forcing move to try: the stand pat stands.
    Quiet,
    /// In check with no legal move.
    Mate,
    /// Not in check, no legal move.
    Stalemate,
}

/// Why a move was not searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum QPrune {
    /// Delta pruning: even winning the victim cannot reach alpha.
    Delta,
    /// Its static exchange value is below the threshold.
    See,
    /// Only recaptures are searched at this q-ply.
    NotRecapture,
}

/// One event of a traced quiescence search (recorded by
/// [`Engine::quiesce`](super::Engine::quiesce)): a node is an `Enter` … `Exit` pair with its
/// children nested in between.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QTrace {
    /// A node starts: the move that led to it, the window, its q-ply, whether in check.
    Enter {
        /// The move that led here (`None` at the root of the quiescence search).
        mv: Option<Move>,
        /// Alpha at entry.
        alpha: i32,
        /// Beta at entry.
        beta: i32,
        /// Plies past the horizon.
        qply: i32,
        /// Side to move in check.
        in_check: bool,
    },
    /// The stand-pat score of the current node.
    StandPat(i32),
    /// A move of the current node that was not searched.
    Pruned {
        /// The move.
        mv: Move,
        /// Why.
        reason: QPrune,
    },
    /// The current node ends.
    Exit {
        /// Its score.
        score: i32,
        /// Why it ended.
        end: QEnd,
    },
}

/// The recorder of a traced quiescence search: off (no events) unless a caller started it.
#[derive(Default)]
pub(super) struct QTraceRecorder {
    /// The events so far, when tracing.
    pub(super) events: Option<Vec<QTrace>>,
    /// The move about to be searched: the next `Enter` names it.
    pub(super) next_move: Option<Move>,
    /// Events recorded at most.
    limit: usize,
    /// Whether events were dropped at the limit.
    pub(super) truncated: bool,
}

impl QTraceRecorder {
    /// Records up to `limit` events from now on (nothing when `limit` is 0).
    pub(super) fn start(&mut self, limit: usize) {
        *self = Self {
            events: (limit > 0).then(Vec::new),
            next_move: None,
            limit,
            truncated: false,
        };
    }

    /// Whether tracing is on.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        self.events.is_some()
    }

    /// Records one event when tracing is on (up to the limit).
    #[inline]
    pub(super) fn event(&mut self, event: QTrace) {
        if let Some(t) = &mut self.events {
            if t.len() < self.limit {
                t.push(event);
            } else {
                self.truncated = true;
            }
        }
    }

    /// Records that `mv` was not searched, and why.
    #[inline]
    pub(super) fn pruned(&mut self, mv: Move, reason: QPrune) {
        if self.is_on() {
            self.event(QTrace::Pruned { mv, reason });
        }
    }
}

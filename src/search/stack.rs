//! The search stack: what each ply of the current line remembers for the plies below it
//! (Stockfish's `Stack`, Viridithas's `StackFrame`), and the NNUE accumulators of the
//! current line ([`NnueStack`]). The searcher's make-move hooks and its one static
//! evaluation (`Searcher::evaluate`), which drive the accumulators, are in `searcher.rs`.
//!
//! Why the accumulators live here and not in [`Position`]: a `Position` is cloned, played
//! and undone everywhere (tools, books, perft, SAN) and knows nothing of networks; the
//! search alone evaluates, and it already indexes everything by ply. The frames are indexed
//! by the distance from the root, so undoing a move costs nothing (the parent's frame is
//! still there). Making a move brings the new ply's frame up to date at once
//! (`Searcher::make_move`, `Searcher::make_null`): a copy-update from the parent's frame,
//! from the parent board to the child's (the boards come from the position's history). It
//! is done there, not when the node first evaluates, because the make-move hook has just
//! prefetched the child's TT bucket, and the child's first step waits for that bucket: the
//! update's arithmetic fills the wait (3–9 % more nodes a second on `lull bench` than
//! updating on first evaluation, paired runs). The evaluation ([`NnueStack::evaluate`])
//! still catches up any stale frame itself, so correctness never depends on the hook. A
//! null move changes no piece: its frame is a copy of the parent's.
//! With `Use NNUE` off the stack holds no network and every hook is one predictable branch.

use std::sync::Arc;

use crate::nnue::{Accumulator, Network};
use crate::params::MAX_PLY;
use crate::position::Position;

use super::ordering::{QuietContext, NO_CONT};

/// What one ply of the current line remembers.
#[derive(Clone, Copy, Debug)]
pub struct StackFrame {
    /// Static evaluation of the node at this ply (`-INFINITY` in check), for "improving".
    pub static_eval: i32,
    /// The evaluation of the node at this ply before correction (what the TT keeps).
    pub raw_eval: i32,
    /// Continuation key (piece, to) of the move made at this ply ([`NO_CONT`] for a null
    /// move), for the counter-move and continuation histories of the plies below.
    pub cont_key: usize,
    /// Whether the move into this ply was a null move (no two null moves in a row).
    pub after_null: bool,
    /// The move the node at this ply leaves out (the TT move, while a singular extension
    /// tests whether any other move comes close to it).
    pub excluded: Option<cozy_chess::Move>,
    /// Double extensions on the line down to this ply (they are capped: no line runs away).
    pub double_extensions: u8,
    /// The move made at this ply when it is quiet (`None` for a capture, a promotion or a
    /// null move): the child that fails low rewards it (the prior counter-move bonus).
    pub quiet_move: Option<cozy_chess::Move>,
    /// The pawn-history row of the node at this ply (set when the node starts).
    pub pawn_row: usize,
}

impl StackFrame {
    /// A frame before anything was searched.
    pub const EMPTY: Self = Self {
        static_eval: 0,
        raw_eval: 0,
        cont_key: NO_CONT,
        after_null: false,
        excluded: None,
        double_extensions: 0,
        quiet_move: None,
        pawn_row: 0,
    };
}

/// One frame per ply, two more than [`MAX_PLY`] so that a node may write its child's frame.
pub struct SearchStack {
    frames: [StackFrame; MAX_PLY + 2],
}

impl Default for SearchStack {
    fn default() -> Self {
        Self::new()
    }
}

impl SearchStack {
    /// An empty stack.
    pub fn new() -> Self {
        Self {
            frames: [StackFrame::EMPTY; MAX_PLY + 2],
        }
    }

    /// Empties every frame (a new search).
    pub fn clear(&mut self) {
        self.frames = [StackFrame::EMPTY; MAX_PLY + 2];
    }

    /// The two moves before the node at `ply` (the opponent's, then our own), as
    /// continuation keys.
    #[inline]
    pub fn quiet_context(&self, ply: usize) -> QuietContext {
        QuietContext {
            prev1: if ply >= 1 {
                self.frames[ply - 1].cont_key
            } else {
                NO_CONT
            },
            prev2: if ply >= 2 {
                self.frames[ply - 2].cont_key
            } else {
                NO_CONT
            },
            prev4: if ply >= 4 {
                self.frames[ply - 4].cont_key
            } else {
                NO_CONT
            },
            pawn: self.frames[ply].pawn_row,
        }
    }
}

impl std::ops::Index<usize> for SearchStack {
    type Output = StackFrame;

    #[inline]
    fn index(&self, ply: usize) -> &StackFrame {
        &self.frames[ply]
    }
}

impl std::ops::IndexMut<usize> for SearchStack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut StackFrame {
        &mut self.frames[ply]
    }
}

/// One NNUE accumulator per ply of the current line (see the module header), with the
/// network they belong to. Without a network (`Use NNUE` off) it is empty and inactive.
#[derive(Default)]
pub struct NnueStack {
    /// The network of this search; `None` when the hand-crafted evaluation is used.
    net: Option<Arc<Network>>,
    /// One frame per ply from the root, allocated for the network's hidden size.
    frames: Vec<Accumulator>,
    /// The game ply (undo depth) of the search root: frame `i` is the position `i` moves
    /// (or null moves) after it.
    root: usize,
    /// Frames `0..=fresh` hold the accumulators of the current line's positions.
    fresh: usize,
}

impl NnueStack {
    /// Starts a search at `root`: with a network, computes the root's accumulator from
    /// scratch (allocating the frames if the hidden size changed); without one, the stack
    /// stays inactive. False when the frames cannot be allocated (a memory limit): the stack
    /// is then inactive, and the caller leaves a helper out or lets the main thread search
    /// with the hand-crafted evaluation rather than abort.
    pub fn start(&mut self, net: Option<Arc<Network>>, root: &Position) -> bool {
        self.net = net;
        let Some(net) = &self.net else {
            return true;
        };
        if self.frames.len() != MAX_PLY + 2 || self.frames[0].hidden() != net.hidden() {
            self.frames = Vec::new();
            let frames = (0..MAX_PLY + 2)
                .map(|_| Accumulator::try_zeroed(net.hidden()))
                .collect::<Option<Vec<_>>>();
            match frames {
                Some(frames) => self.frames = frames,
                None => {
                    self.net = None;
                    return false;
                }
            }
        }
        net.refresh(root.board(), &mut self.frames[0]);
        self.root = root.game_ply();
        self.fresh = 0;
        true
    }

    /// Whether the search evaluates with the network.
    #[inline(always)]
    pub fn is_active(&self) -> bool {
        self.net.is_some()
    }

    /// The network's evaluation of `pos` (a position of the current line), from the side to
    /// move's view, after bringing its frame up to date. 0 when inactive.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let ply = pos.game_ply().saturating_sub(self.root);
        let fresh = ply < self.frames.len() && self.catch_up(pos, ply);
        let Some(net) = self.net.as_deref() else {
            return 0;
        };
        if fresh {
            net.output(&self.frames[ply], pos.board())
        } else {
            // Deeper than any search goes, or the line's boards are missing: from scratch.
            net.evaluate(pos.board())
        }
    }

    /// Brings the frames up to `pos` (at `ply` from the root); false when the boards
    /// of the line are not all there.
    #[inline]
    fn catch_up(&mut self, pos: &Position, ply: usize) -> bool {
        let Some(net) = self.net.as_deref() else {
            return false;
        };
        while self.fresh < ply {
            let k = self.fresh + 1;
            let (Some(parent), Some(child)) =
                (pos.board_back(ply + 1 - k), pos.board_back(ply - k))
            else {
                return false;
            };
            let (done, rest) = self.frames.split_at_mut(k);
            net.update(&done[k - 1], parent, child, &mut rest[0]);
            self.fresh = k;
        }
        true
    }

    /// A move or null move led to `pos`: its frame is brought up to date at once, while
    /// the TT bucket that the node will probe first is on its way from memory (the caller
    /// prefetched it): the update's arithmetic hides the wait for the bucket. A null move
    /// changes no piece: its frame is a copy of the parent's.
    #[inline]
    pub fn played(&mut self, pos: &Position) {
        let ply = pos.game_ply().saturating_sub(self.root);
        self.fresh = self.fresh.min(ply.saturating_sub(1));
        if ply < self.frames.len() {
            self.catch_up(pos, ply);
        }
    }
}

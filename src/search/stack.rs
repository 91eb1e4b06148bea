//! The search stack: what each ply of the current line remembers for the plies below it
//! (Stockfish's `Stack`, Viridithas's `StackFrame`).

use crate::params::MAX_PLY;

use super::ordering::{QuietContext, NO_CONT};

/// What one ply of the current line remembers.
#[derive(Clone, Copy, Debug)]
pub struct StackFrame {
    /// Static evaluation of the node at this ply (`-INFINITY` in check), for "improving".
    pub static_eval: i32,
    /// Continuation key (piece, to) of the move made at this ply ([`NO_CONT`] for a null
    /// move), for the counter-move and continuation histories of the plies below.
    pub cont_key: usize,
    /// Whether the move into this ply was a null move (no two null moves in a row).
    pub after_null: bool,
}

impl StackFrame {
    /// A frame before anything was searched.
    pub const EMPTY: Self = Self {
        static_eval: 0,
        cont_key: NO_CONT,
        after_null: false,
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

//! The principal variation of each ply of the current line ([`PvTable`], the triangular
//! table): a node that raises alpha copies its child's line behind its move.

use cozy_chess::Move;

use crate::params::MAX_PLY;
use crate::position::Position;

/// One line per ply: row `ply` is the best line found from the node at `ply`.
pub(super) struct PvTable {
    lines: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    pub(super) fn new() -> Self {
        Self {
            lines: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            len: [0; MAX_PLY + 1],
        }
    }

    /// Empties the line of the node at `ply` (as the node starts).
    #[inline]
    pub(super) fn clear(&mut self, ply: usize) {
        self.len[ply.min(MAX_PLY)] = 0;
    }

    /// Copies the child's line behind `mv` into the line of `ply`.
    #[inline]
    pub(super) fn update(&mut self, ply: usize, mv: Move) {
        if ply >= MAX_PLY {
            return;
        }
        self.lines[ply][0] = Some(mv);
        let child_len = self.len[ply + 1].min(MAX_PLY - 1);
        for i in 0..child_len {
            self.lines[ply][i + 1] = self.lines[ply + 1][i];
        }
        self.len[ply] = child_len + 1;
    }

    /// The root's line, checked for legality move by move from `pos` (truncated at the
    /// first illegal move).
    pub(super) fn root_line(&self, pos: &Position) -> Vec<Move> {
        let mut board = pos.board().clone();
        let mut pv = Vec::new();
        for mv in self.lines[0][..self.len[0]].iter().flatten() {
            if !board.is_legal(*mv) {
                break;
            }
            board.play_unchecked(*mv);
            pv.push(*mv);
        }
        pv
    }
}

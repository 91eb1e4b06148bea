//! What one thread knows of the root while it searches ([`RootState`]): the moves it
//! searches, the depth of the iteration, the best move so far, the effort spent on each move,
//! the line of the last iteration and what the tablebases made of the root.

use cozy_chess::Move;

use crate::params::MATE_BOUND;

use super::report::ScoreBound;

/// The root of one thread's search.
#[derive(Default)]
pub(super) struct RootState {
    /// The root moves searched (with `MultiPV`, those of the current line).
    pub(super) moves: Vec<Move>,
    /// Depth of the iteration being searched (extensions stop at twice this ply).
    pub(super) depth: i32,
    /// Deepest ply reached in this iteration.
    pub(super) seldepth: usize,
    /// Best root move and score found so far in the current iteration, and whether that
    /// score is exact or (a fail high of the root window) a lower bound.
    pub(super) best: Option<(Move, i32, ScoreBound)>,
    /// Nodes spent on each root move in the current iteration (for the time manager).
    pub(super) nodes: Vec<(Move, u64)>,
    /// The PV of the last completed iteration (shown with a fail-low bound).
    pub(super) last_pv: Vec<Move>,
    /// Pieces up to which the search probes the tablebases in this search (0: not at all).
    pub(super) tb_limit: usize,
    /// The root's tablebase score when the root moves were ranked by DTZ.
    pub(super) tb_score: Option<i32>,
}

impl RootState {
    /// Adds `nodes` to the effort spent on root move `mv` in this iteration.
    pub(super) fn add_nodes(&mut self, mv: Move, nodes: u64) {
        match self.nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += nodes,
            None => self.nodes.push((mv, nodes)),
        }
    }

    /// Share of this iteration's root nodes spent on `mv` (0..=1).
    pub(super) fn effort(&self, mv: Move) -> f64 {
        let total: u64 = self.nodes.iter().map(|(_, n)| n).sum();
        let best = self
            .nodes
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |(_, n)| *n);
        best as f64 / total.max(1) as f64
    }

    /// The score to show for a root line: the root's tablebase score when its moves were
    /// ranked by DTZ and the search found no mate.
    pub(super) fn shown_score(&self, score: i32) -> i32 {
        match self.tb_score {
            Some(tb) if score.abs() < MATE_BOUND => tb,
            _ => score,
        }
    }
}

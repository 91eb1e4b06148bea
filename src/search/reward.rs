//! What a search result teaches the tables: the history bonus of a cutoff, the quiet moves
//! rewarded outside the move loop (a TT cutoff, the opponent's move into a node where nothing
//! raised alpha), and the correction history's lesson from a node's result.

use cozy_chess::Move;

use crate::params::*;
use crate::position::Position;
use crate::tt::Bound;

use super::ordering::cont_key;
use super::searcher::Searcher;

impl Searcher {
    /// The history bonus of a cutoff at `depth` (the malus of the moves it refuted).
    #[inline]
    pub(super) fn history_bonus(&self, depth: i32) -> i32 {
        let t = &self.options.tunables;
        (t[Tunable::HistoryBonusPerDepth] * depth - HISTORY_BONUS_BASE)
            .min(t[Tunable::HistoryBonusMax])
    }

    /// Step 19. The opponent's quiet move that led to the node at `ply`, where no move
    /// of ours raised alpha, gains the bonus of a cutoff at `depth` in its histories.
    pub(super) fn reward_prior_quiet(&mut self, pos: &Position, ply: usize, depth: i32) {
        if let Some(prev) = self.stack[ply - 1].quiet_move {
            let (key, ctx) = (
                self.stack[ply - 1].cont_key,
                self.stack.quiet_context(ply - 1),
            );
            let bonus = self.history_bonus(depth);
            let them = !pos.side_to_move();
            self.tables.update_quiet(them, prev, key, ctx, bonus);
        }
    }

    /// Step 4. A TT cutoff that fails high: a quiet TT move gains in the histories the bonus
    /// of a cutoff at `depth`, as if it had been searched and had cut (Stockfish's TT-cutoff
    /// bonus).
    #[inline]
    pub(super) fn reward_tt_cutoff(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        tt_move: Option<Move>,
    ) {
        let Some(mv) = tt_move.filter(|&m| !pos.is_capture(m) && m.promotion.is_none()) else {
            return;
        };
        let us = pos.side_to_move();
        // (A TT move is checked for legality only by the picker: this one must at least be
        // a move of our own piece.)
        let Some(piece) = pos
            .board()
            .piece_on(mv.from)
            .filter(|_| pos.board().colors(us).has(mv.from))
        else {
            return;
        };
        let bonus = self.history_bonus(depth);
        let ctx = self.stack.quiet_context(ply);
        self.tables
            .update_quiet(us, mv, cont_key(us, piece, mv.to), ctx, bonus);
    }

    /// Step 21. A node's result (`score` with its `bound`) against its static evaluation
    /// teaches the correction history: not after a capture or promotion as best move (the
    /// evaluation was not wrong about the quiet position), no mate or tablebase score, and
    /// only when the bound says the error points the way it does.
    pub(super) fn learn_correction(
        &mut self,
        pos: &Position,
        depth: i32,
        best_move: Option<Move>,
        (score, bound): (i32, Bound),
        static_eval: i32,
    ) {
        let noisy = best_move.is_some_and(|m| pos.is_capture(m) || m.promotion.is_some());
        let wrong_way = (bound == Bound::Lower && score <= static_eval)
            || (bound == Bound::Upper && score >= static_eval);
        if noisy || wrong_way || score.abs() >= TB_BOUND {
            return;
        }
        self.correction
            .update(pos.board(), depth, score - static_eval);
    }
}

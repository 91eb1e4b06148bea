//! The Syzygy tablebases in the search: the root's moves ranked by the DTZ tables before the
//! first iteration (`setup_tablebases`), and below the root the WDL probe of both searches
//! (`probe_wdl`), which the main search acts on in its step of the tablebases
//! (`tablebase_step`).

use crate::params::{DRAW, INFINITY, MAX_DEPTH, TB_STORE_EXTRA_DEPTH, TB_WIN};
use crate::position::Position;
use crate::tt::Bound;

use super::pruning::Node;
use super::searcher::Searcher;

/// What the tablebases made of a node of the main search.
pub(super) enum TbStep {
    /// The tables settle the node: return this score.
    Cutoff(i32),
    /// The floor and ceiling they put on the node's score (a PV node's win or loss).
    Bounds { floor: i32, ceiling: i32 },
}

impl TbStep {
    /// No probe: neither floor nor ceiling.
    pub(super) const NONE: Self = Self::Bounds {
        floor: -INFINITY,
        ceiling: INFINITY,
    };
}

impl Searcher {
    /// Sets up the tablebases for a search of `pos`: the piece limit of the probes below the
    /// root and, on the main thread, Stockfish's root probing. When the root is covered and
    /// its moves can be ranked by DTZ, only the best-ranked moves stay (so that a won
    /// position is converted and a drawn one held) and the search itself does not probe.
    pub(super) fn setup_tablebases(&mut self, pos: &Position) {
        self.root.tb_score = None;
        self.root.tb_limit = self
            .options
            .syzygy_probe_limit
            .min(self.shared.tb.max_pieces());
        if self.root.tb_limit == 0 {
            return;
        }
        let board = pos.board();
        if board.occupied().len() as usize > self.root.tb_limit
            || crate::tablebase::has_castling_rights(board)
        {
            return;
        }
        let repeated = pos.is_repetition(usize::MAX);
        let Some(ranked) = self.shared.tb.rank_root(
            board,
            &self.root.moves,
            repeated,
            self.options.syzygy_50_move_rule,
        ) else {
            return;
        };
        if self.is_main() {
            self.shared.add_tb_hits(ranked.len() as u64);
        }
        let best = ranked[0].rank;
        self.root.moves = ranked
            .iter()
            .filter(|r| r.rank == best)
            .map(|r| r.mv)
            .collect();
        self.root.tb_score = Some(ranked[0].score);
        self.root.tb_limit = 0;
    }

    /// The WDL tables' verdict on `pos` (reached by a capture or pawn move), as a score from
    /// the side to move `ply` plies from the root and the bound it is: a win scores in the
    /// tablebase band below the mates (a lower bound), a loss the opposite (an upper bound),
    /// a draw exactly. With `Syzygy50MoveRule` a cursed win or blessed loss is a draw,
    /// nudged by 2 centipawns towards its side; without it, a win or loss. Counts the hit.
    pub(super) fn probe_wdl(&mut self, pos: &Position, ply: usize) -> Option<(i32, Bound)> {
        let wdl = self.shared.tb.probe_wdl(pos.board())?.to_i32();
        self.shared.add_tb_hits(1);
        let draw_score = i32::from(self.options.syzygy_50_move_rule);
        Some(if wdl < -draw_score {
            (-TB_WIN + ply as i32, Bound::Upper)
        } else if wdl > draw_score {
            (TB_WIN - ply as i32, Bound::Lower)
        } else {
            (DRAW + 2 * wdl * draw_score, Bound::Exact)
        })
    }

    /// The main search's step of the tablebases: right after a capture or pawn move
    /// (halfmove clock 0) with few enough pieces, the WDL tables give the exact result. A
    /// win or loss is a bound (the search may still find a mate), a draw is exact; a cutoff
    /// returns at once and is stored as deep as the search could ever go. In a PV node a
    /// win raises the floor and a loss lowers the ceiling of the score.
    pub(super) fn tablebase_step(
        &mut self,
        pos: &Position,
        node: &Node,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> TbStep {
        let mut bounds = (-INFINITY, INFINITY);
        if !node.root
            && self.root.tb_limit > 0
            && depth >= self.options.syzygy_probe_depth
            && pos.board().halfmove_clock() == 0
            && pos.board().occupied().len() as usize <= self.root.tb_limit
        {
            if let Some((score, bound)) = self.probe_wdl(pos, node.ply) {
                if bound.settles(score, alpha, beta) {
                    let eval = self.evaluate(pos);
                    let depth = (depth + TB_STORE_EXTRA_DEPTH).min(MAX_DEPTH);
                    self.shared
                        .tt
                        .store(pos.hash(), None, score, eval, depth, bound, node.ply);
                    return TbStep::Cutoff(score);
                }
                if node.pv_node {
                    if bound == Bound::Lower {
                        bounds.0 = score;
                    } else {
                        bounds.1 = score;
                    }
                }
            }
        }
        TbStep::Bounds {
            floor: bounds.0,
            ceiling: bounds.1,
        }
    }
}

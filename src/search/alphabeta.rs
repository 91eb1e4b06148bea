//! The main search: negamax alpha-beta with principal variation search (PVS), fail-soft.
//!
//! Each node reads top to bottom as numbered steps. At depth 0 it hands over to the
//! quiescence search (`qsearch.rs`).

use cozy_chess::Move;

use crate::eval::evaluate;
use crate::params::{DRAW, INFINITY, MATE, MAX_PLY};
use crate::position::Position;
use crate::tt::Bound;

use super::ordering::MoveList;
use super::Searcher;

impl Searcher {
    /// Searches `pos` to `depth` plies within the window (`alpha`, `beta`). `ply` is the
    /// distance from the root. Returns a fail-soft score from the side to move.
    pub(crate) fn negamax(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
    ) -> i32 {
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        self.pv_len[ply.min(MAX_PLY)] = 0;

        // Step 1. Check extension: a side in check gets one more ply, so that the horizon
        // never falls in the middle of a forced sequence of evasions.
        let in_check = pos.in_check();
        if in_check {
            depth += 1;
        }

        // Step 2. Horizon: resolve the captures with the quiescence search (or, with
        // `QSearch` off, take the static evaluation as the leaf value: the horizon effect).
        if depth <= 0 {
            if self.options.qs.enabled {
                return self.qsearch(pos, alpha, beta, ply, 0, None, true);
            }
            self.stats.main_nodes += 1;
            return evaluate(pos.board());
        }

        // Step 3. Count the node; poll the clock and the stop flag.
        self.stats.main_nodes += 1;
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if !root {
            // Step 4. Draws by repetition and insufficient material, the maximum ply.
            if pos.is_repetition(ply) || pos.is_insufficient_material() {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(pos.board());
            }
            // Step 5. Mate distance pruning: no score here can beat a mate found nearer the
            // root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 6. Transposition table: a deep enough entry with a usable bound ends a
        // non-PV node at once; otherwise its move is tried first.
        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                }
            {
                return e.score;
            }
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| evaluate(pos.board()), |e| e.eval)
        };

        // Step 7. Generate and order the legal moves: TT move, captures by MVV-LVA, killers,
        // history.
        let mut moves: Vec<Move> = Vec::with_capacity(64);
        pos.board().generate_moves(|pm| {
            moves.extend(pm);
            false
        });
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        // Fifty-move rule (after the mate test: a mate on the hundredth ply stands).
        if !root && pos.is_fifty_move_draw() {
            return DRAW;
        }
        if root {
            moves.retain(|m| self.root_moves.contains(m));
        }
        let mut list: MoveList = self.tables.score_main(pos, &moves, tt_move, ply);

        // Step 8. Search the moves: the first with the full window, the others with a null
        // window that is widened only when a move beats alpha (PVS).
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let us = pos.side_to_move();
        while let Some((mv, _, _)) = list.pick() {
            let quiet = !pos.is_capture(mv) && mv.promotion.is_none();
            pos.play(mv);
            let score = if searched == 0 {
                -self.negamax(pos, -beta, -alpha, depth - 1, ply + 1)
            } else {
                let s = -self.negamax(pos, -alpha - 1, -alpha, depth - 1, ply + 1);
                if s > alpha && s < beta {
                    -self.negamax(pos, -beta, -alpha, depth - 1, ply + 1)
                } else {
                    s
                }
            };
            pos.undo();
            if self.stopped {
                return 0;
            }
            searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if root {
                        self.root_best = Some((mv, score));
                    }
                    // Step 9. Beta cutoff: remember quiet refutations (killers, history)
                    // and punish the quiet moves tried before.
                    if score >= beta {
                        self.stats.main_cutoffs += 1;
                        if searched == 1 {
                            self.stats.main_first_cutoffs += 1;
                        }
                        if quiet {
                            let bonus = depth * depth;
                            self.tables.add_killer(ply, mv);
                            self.tables.update_history(us, mv, bonus);
                            for &q in &quiets_tried {
                                self.tables.update_history(us, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        if searched > 0 {
            self.stats.main_expanded += 1;
        }

        // Step 10. Store the result: exact inside the window, else the bound it proves.
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, best_score, static_eval, depth, bound, ply);
        best_score
    }
}

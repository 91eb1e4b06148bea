//! The main search: negamax alpha-beta with principal variation search (PVS), fail-soft,
//! with the selectivity of modern engines (null move, reverse futility, futility, late move
//! pruning and reductions). Each node reads top to bottom as numbered steps. At depth 0 it
//! hands over to the quiescence search (`qsearch.rs`).

use std::sync::OnceLock;

use cozy_chess::{Piece, Square};

use crate::params::*;
use crate::position::Position;
use crate::tt::Bound;

use super::movepick::{MovePicker, Picked, Stage};
use super::ordering::{cont_key, QuietsTried, NO_CONT};
use super::qsearch::QNode;
use super::see::see_ge;
use super::why::WhyKind;
use super::Searcher;

/// The captures a node searched before its cutoff (at most [`CapturesTried::CAP`]; later
/// ones are not remembered), for the capture history.
struct CapturesTried {
    list: [(Piece, Square, Piece); CapturesTried::CAP],
    len: usize,
}

impl Default for CapturesTried {
    #[inline]
    fn default() -> Self {
        Self {
            list: [(Piece::Pawn, Square::A1, Piece::Pawn); Self::CAP],
            len: 0,
        }
    }
}

impl CapturesTried {
    const CAP: usize = 32;

    #[inline]
    fn push(&mut self, capture: (Piece, Square, Piece)) {
        if self.len < Self::CAP {
            self.list[self.len] = capture;
            self.len += 1;
        }
    }

    #[inline]
    fn as_slice(&self) -> &[(Piece, Square, Piece)] {
        &self.list[..self.len]
    }
}

/// Late-move reduction table, indexed by [depth][move number], both capped at 63.
fn lmr_table() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        t
    })
}

impl Searcher {
    /// The WDL tables' verdict on `pos` (reached by a capture or pawn move), as a score from
    /// the side to move `ply` plies from the root and the bound it is: a win scores in the
    /// tablebase band below the mates (a lower bound), a loss the opposite (an upper bound),
    /// a draw exactly. With `Syzygy50MoveRule` a cursed win or blessed loss is a draw,
    /// nudged by 2 centipawns towards its side; without it, a win or loss. Counts the hit.
    pub(crate) fn probe_wdl(&mut self, pos: &Position, ply: usize) -> Option<(i32, Bound)> {
        let wdl = self.tb.probe_wdl(pos.board())?.to_i32();
        self.add_tb_hit();
        let draw_score = i32::from(self.options.syzygy_50_move_rule);
        Some(if wdl < -draw_score {
            (-TB_WIN + ply as i32, Bound::Upper)
        } else if wdl > draw_score {
            (TB_WIN - ply as i32, Bound::Lower)
        } else {
            (DRAW + 2 * wdl * draw_score, Bound::Exact)
        })
    }

    /// Notes an event of `lull why` when the node is on the watched line.
    #[inline]
    fn why_note(
        &mut self,
        on_line: bool,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        kind: WhyKind,
    ) {
        if on_line {
            if let Some(w) = self.why.as_deref_mut() {
                w.note(ply, depth, alpha, beta, kind);
            }
        }
    }

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
        // `lull why`: is this node on the line being watched (see `why.rs`)?
        let on_line = self
            .why
            .as_deref()
            .is_some_and(|w| w.on_line(ply, pos.hash()));

        // Step 1. Check extension: a side in check gets one more ply, so that the horizon
        // never falls in the middle of a forced sequence of evasions. At the horizon, resolve
        // the captures with the quiescence search (or, with `QSearch` off, take the static
        // evaluation as the leaf value: the horizon effect).
        let in_check = pos.in_check();
        if in_check {
            depth += 1;
        }

        if depth <= 0 {
            let score = if self.options.qs.enabled {
                self.qsearch(pos, alpha, beta, QNode::horizon(ply))
            } else {
                self.stats.main_nodes += 1;
                self.evaluate(pos)
            };
            self.why_note(on_line, ply, depth, alpha, beta, WhyKind::Horizon { score });
            return score;
        }

        // Step 2. Count the node; poll the clock and the stop flag. Draws by rule (repetition,
        // the fifty-move rule unless the hundredth ply mates, insufficient material), and the
        // maximum ply.
        self.stats.main_nodes += 1;
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if !root {
            if pos.is_draw(ply) {
                self.why_note(on_line, ply, depth, alpha, beta, WhyKind::Draw);
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(pos);
            }
            // Step 3. Mate distance pruning: no score here can beat a mate found nearer the
            // root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                self.why_note(on_line, ply, depth, alpha, beta, WhyKind::MateDistance);
                return alpha;
            }
        }

        // Step 4. Transposition table: a deep enough entry with a usable bound ends a
        // non-PV node at once; otherwise its move is tried first.
        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth && e.bound.settles(e.score, alpha, beta) {
                let kind = WhyKind::TtCutoff {
                    score: e.score,
                    bound: e.bound,
                    depth: e.depth,
                };
                self.why_note(on_line, ply, depth, alpha, beta, kind);
                return e.score;
            }
        }

        // Step 4b. Syzygy tablebases: right after a capture or pawn move (halfmove clock 0)
        // with few enough pieces, the WDL tables give the exact result. A win or loss is a
        // bound (the search may still find a mate), a draw is exact; a cutoff returns at once
        // and is stored as deep as the search could ever go. In a PV node a win raises the
        // floor and a loss lowers the ceiling of the score.
        let mut tb_floor = -INFINITY;
        let mut tb_ceiling = INFINITY;
        // The window as it came: a floor raised by the tables is no bound the moves proved.
        let original_alpha = alpha;
        if !root
            && self.tb_limit > 0
            && depth >= self.options.syzygy_probe_depth
            && pos.board().halfmove_clock() == 0
            && pos.board().occupied().len() as usize <= self.tb_limit
        {
            if let Some((score, bound)) = self.probe_wdl(pos, ply) {
                if bound.settles(score, alpha, beta) {
                    let eval = self.evaluate(pos);
                    let depth = (depth + TB_STORE_EXTRA_DEPTH).min(MAX_DEPTH);
                    self.tt.store(key, None, score, eval, depth, bound, ply);
                    return score;
                }
                if pv_node {
                    if bound == Bound::Lower {
                        tb_floor = score;
                        alpha = alpha.max(score);
                    } else {
                        tb_ceiling = score;
                    }
                }
            }
        }

        // Step 5. Static evaluation, and whether it improved over our previous move's
        // ("improving": prune less when things are getting worse for us).
        let static_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| self.evaluate(pos), |e| e.eval)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        // Killers of the grandchildren are stale: clear them.
        if ply + 2 <= MAX_PLY {
            self.tables.killers[ply + 2] = [None; 2];
        }

        // A TT score is a searched value: where its bound says it is more accurate than the
        // static evaluation, the pruning decisions below use it instead (`eval`).
        let eval = match entry {
            Some(e)
                if !in_check
                    && e.score.abs() < TB_BOUND
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score > static_eval,
                        Bound::Upper => e.score < static_eval,
                    } =>
            {
                e.score
            }
            _ => static_eval,
        };

        // The techniques switched on (`PruningOptions`, one UCI switch each).
        let pruning = self.options.pruning;
        if !pv_node && !in_check && !root {
            // Step 6. Reverse futility pruning: far above beta at low depth, a quiet move
            // will not bring the score below it.
            let margin = RFP_MARGIN * (depth - i32::from(improving));
            if pruning.reverse_futility
                && depth <= RFP_MAX_DEPTH
                && eval - margin >= beta
                && eval.abs() < TB_BOUND
            {
                let kind = WhyKind::ReverseFutility { eval, margin };
                self.why_note(on_line, ply, depth, alpha, beta, kind);
                return (eval + beta) / 2;
            }

            // Step 7. Null-move pruning: if passing still fails high with a reduced search,
            // a real move will too (not in pawn endings: zugzwang).
            if pruning.null_move
                && depth >= NMP_MIN_DEPTH
                && eval >= beta
                && !self.stack[ply].after_null
                && !pos.only_pawns(pos.side_to_move())
                && beta.abs() < TB_BOUND
            {
                let r = NMP_BASE_REDUCTION
                    + depth / NMP_DEPTH_DIVISOR
                    + ((eval - beta) / NMP_EVAL_DIVISOR).min(pruning.null_move_eval_reduction_max);
                if self.make_null(pos) {
                    self.stack[ply + 1].after_null = true;
                    self.stack[ply].cont_key = NO_CONT;
                    let score = -self.negamax(pos, -beta, -beta + 1, depth - 1 - r, ply + 1);
                    self.stack[ply + 1].after_null = false;
                    pos.undo();
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        let score = if score >= TB_BOUND { beta } else { score };
                        // Deep enough, verify: the same reduced search without the null move.
                        let verified = depth < NMP_VERIFY_DEPTH || {
                            self.stack[ply].after_null = true;
                            let v = self.negamax(pos, beta - 1, beta, depth - 1 - r, ply);
                            self.stack[ply].after_null = false;
                            v >= beta
                        };
                        if verified {
                            let kind = WhyKind::NullMove { score };
                            self.why_note(on_line, ply, depth, alpha, beta, kind);
                            return score;
                        }
                    }
                }
            }
        }

        // Step 8. Internal iterative reduction: without a TT move the ordering is poor;
        // search this node a ply shallower.
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH && !in_check {
            depth -= 1;
        }

        // Step 9. Move ordering, staged (see `movepick.rs`): the TT move is tried before any
        // move is generated (when it cuts off, generation is never paid for); then good
        // captures by MVV-LVA, killers, the counter-move, history, and last the captures that
        // lose material by SEE (their SEE is computed only when they come up).
        let root_filter = root.then(|| self.root_moves.clone());
        // The previous two moves, for the counter-move and continuation histories.
        let ctx = self.stack.quiet_context(ply);
        let mut picker = MovePicker::main(pos, tt_move, ply, ctx, root_filter.as_deref());
        let check_squares = pos.check_squares();

        // Step 10. Search the moves: the first with the full window, the others with a null
        // window that is widened only when a move beats alpha (PVS); late quiet moves are
        // pruned or searched with reduced depth first.
        let mut best_score = tb_floor;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut legal = 0usize;
        let mut quiets_tried = QuietsTried::new();
        // Captures searched before the cutoff, for the capture history (when it is on).
        let capture_history = self.tables.use_capture_history;
        let mut captures_tried = CapturesTried::default();
        let us = pos.side_to_move();
        // The line's move here, when this node is on the watched line.
        let line_move = if on_line {
            self.why.as_deref().and_then(|w| w.line_move(ply))
        } else {
            None
        };
        let lmp_limit = (LMP_BASE + depth * depth)
            / if improving {
                1
            } else {
                LMP_NOT_IMPROVING_DIVISOR
            };
        while let Some(Picked { mv, stage, .. }) = picker.next(pos, &self.tables) {
            legal += 1;
            let quiet = !pos.is_capture(mv) && mv.promotion.is_none();
            let killer_or_better = stage <= Stage::Killers;

            // Step 10a. Shallow pruning, once a move has secured a non-losing score.
            if !root && best_score > -TB_BOUND && !in_check {
                if quiet {
                    // Late move pruning: enough quiet moves tried at low depth; the picker
                    // drops the remaining quiet moves at once instead of yielding them.
                    if pruning.late_move_pruning
                        && depth <= LMP_MAX_DEPTH
                        && quiets_tried.len() as i32 >= lmp_limit
                    {
                        // In `TacticalMode` only this move is dropped, and only when it
                        // cannot give check.
                        let keeps_checks = pruning.late_move_pruning_keeps_checks;
                        if !keeps_checks || !pos.may_give_check(mv, &check_squares) {
                            let dropped = |m: cozy_chess::Move| {
                                if keeps_checks {
                                    m == mv
                                } else {
                                    !pos.is_capture(m)
                                        && m.promotion.is_none()
                                        && !quiets_tried.iter().any(|(q, _)| q == m)
                                }
                            };
                            if line_move.is_some_and(dropped) {
                                // The line's quiet move, not tried yet, is among those dropped.
                                let kind = WhyKind::LateMovePruned {
                                    quiets_tried: quiets_tried.len() as i32,
                                    limit: lmp_limit,
                                };
                                self.why_note(on_line, ply, depth, alpha, beta, kind);
                            }
                            if !keeps_checks {
                                picker.skip_quiets();
                            }
                            continue;
                        }
                    }
                    // Futility pruning: the eval plus a margin cannot reach alpha.
                    if pruning.futility
                        && depth <= FP_MAX_DEPTH
                        && !pv_node
                        && eval + FP_BASE + FP_PER_DEPTH * depth <= alpha
                        && !pos.may_give_check(mv, &check_squares)
                    {
                        if line_move == Some(mv) {
                            let margin = FP_BASE + FP_PER_DEPTH * depth;
                            let kind = WhyKind::Futility { eval, margin };
                            self.why_note(on_line, ply, depth, alpha, beta, kind);
                        }
                        continue;
                    }
                    // SEE pruning of quiet moves onto attacked squares (not checks: a
                    // checking sacrifice is the stuff of tactics).
                    if pruning.see
                        && depth <= SEE_QUIET_MAX_DEPTH
                        && !see_ge(pos.board(), mv, -SEE_QUIET_MARGIN * depth * depth)
                        && !pos.may_give_check(mv, &check_squares)
                    {
                        if line_move == Some(mv) {
                            self.why_note(on_line, ply, depth, alpha, beta, WhyKind::SeePruned);
                        }
                        continue;
                    }
                } else if pruning.see
                    && depth <= SEE_CAPTURE_MAX_DEPTH
                    && matches!(stage, Stage::BadCaptures | Stage::UnderPromotions)
                    && !see_ge(pos.board(), mv, -SEE_CAPTURE_MARGIN * depth * depth)
                    && !pos.may_give_check(mv, &check_squares)
                {
                    // SEE pruning of badly losing captures.
                    if line_move == Some(mv) {
                        self.why_note(on_line, ply, depth, alpha, beta, WhyKind::SeePruned);
                    }
                    continue;
                }
            }

            let mover = pos.board().piece_on(mv.from);
            let key = mover.map_or(NO_CONT, |p| cont_key(us, p, mv.to));
            // (moving piece, square, victim) of a capture, for the capture history.
            let capture = if capture_history {
                mover.zip(pos.captured(mv)).map(|(p, v)| (p, mv.to, v))
            } else {
                None
            };
            self.stack[ply].cont_key = key;
            if root {
                self.report_current_move(mv, legal, depth);
            }
            let nodes_before = if root { self.nodes() } else { 0 };
            self.make_move(pos, mv);
            let gives_check = pos.in_check();
            let new_depth = depth - 1;
            let score = if searched == 0 {
                -self.negamax(pos, -beta, -alpha, new_depth, ply + 1)
            } else {
                // Step 10b. Late move reductions for quiet moves after the first few.
                let mut r = 0;
                if pruning.late_move_reductions
                    && depth >= LMR_MIN_DEPTH
                    && searched > usize::from(pv_node)
                    && quiet
                    && !gives_check
                {
                    r = lmr_table()[depth.min(63) as usize][searched.min(63)];
                    r -= i32::from(pv_node);
                    r -= i32::from(killer_or_better);
                    r += i32::from(!improving);
                    r -= self.tables.quiet_score(us, mv, key, ctx) / LMR_HISTORY_DIVISOR;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(pos, -alpha - 1, -alpha, new_depth - r, ply + 1);
                if r > 0 && line_move == Some(mv) {
                    let order = searched + 1;
                    let kind = WhyKind::Reduced { r, order, score: s };
                    self.why_note(on_line, ply, depth, alpha, beta, kind);
                }
                if s > alpha && r > 0 {
                    s = -self.negamax(pos, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(pos, -beta, -alpha, new_depth, ply + 1);
                }
                s
            };
            pos.undo();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if line_move == Some(mv) {
                let kind = WhyKind::Searched {
                    order: searched,
                    score,
                };
                self.why_note(on_line, ply, depth, alpha, beta, kind);
            }
            if root {
                // Effort per root move, for the time manager.
                self.add_root_nodes(mv, self.nodes() - nodes_before);
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if root {
                        self.root_best = Some((mv, score));
                    }
                    // Step 11. Beta cutoff: remember quiet refutations (killers, history)
                    // and punish the quiet moves tried before.
                    if score >= beta {
                        self.stats.main_cutoff(searched);
                        let bonus = (HISTORY_BONUS_PER_DEPTH * depth - HISTORY_BONUS_BASE)
                            .min(HISTORY_BONUS_MAX);
                        if capture_history {
                            // The capture that refuted gains, the captures tried before lose.
                            if let Some(c) = capture {
                                self.tables.update_capture(us, c.0, c.1, c.2, bonus);
                            }
                            for &(piece, to, victim) in captures_tried.as_slice() {
                                self.tables.update_capture(us, piece, to, victim, -bonus);
                            }
                        }
                        if quiet {
                            self.tables.add_killer(ply, mv);
                            if ctx.prev1 != NO_CONT {
                                self.tables.counters[ctx.prev1] = Some(mv);
                            }
                            self.tables.update_quiet(us, mv, key, ctx, bonus);
                            for (q, qkey) in quiets_tried.iter() {
                                self.tables.update_quiet(us, q, qkey, ctx, -bonus);
                            }
                        }
                        if line_move.is_some_and(|m| m != mv) {
                            let kind = WhyKind::CutBefore { by: mv, score };
                            self.why_note(on_line, ply, depth, alpha, beta, kind);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv, key);
            } else if let Some(c) = capture {
                captures_tried.push(c);
            }
        }
        if legal == 0 {
            // No legal move: mate or stalemate.
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        if searched > 0 {
            self.stats.main_expanded += 1;
        } else {
            // Everything was pruned: the static evaluation stands (never a mate score).
            best_score = if in_check {
                -MATE + ply as i32
            } else {
                static_eval
            };
        }

        // A tablebase loss caps what the moves found (Step 4b).
        best_score = best_score.min(tb_ceiling);

        // Step 12. Store the result: exact inside the window, else the bound it proves.
        let kind = WhyKind::Result {
            score: best_score,
            best: best_move,
        };
        self.why_note(on_line, ply, depth, original_alpha, beta, kind);
        // (A tablebase win that no move improved on stays what the tables said: a floor.)
        let bound = if best_move.is_none() && tb_floor > -INFINITY && best_score == tb_floor {
            Bound::Lower
        } else {
            Bound::of(best_score, original_alpha, beta)
        };
        self.tt
            .store(key, best_move, best_score, static_eval, depth, bound, ply);
        best_score
    }
}

//! The main search: negamax alpha-beta with principal variation search (PVS), fail-soft,
//! with the selectivity of modern engines (null move, reverse futility, futility, late move
//! pruning and reductions). Each node reads top to bottom as numbered steps. At depth 0 it
//! hands over to the quiescence search (`qsearch.rs`).

use cozy_chess::Move;

use crate::params::*;
use crate::position::Position;
use crate::tt::{Bound, TtEntry};

use super::movepick::{MovePicker, Picked, Stage};
use super::ordering::{cont_key, pawn_row, NO_CONT};
use super::pruning::{Cut, LoopMove, MoveLoop, Node, Prune, Tried};
use super::qsearch::QNode;
use super::report::{ScoreBound, SearchReport};
use super::searcher::Searcher;
use super::syzygy::TbStep;
use super::why::WhyKind;

/// What the moves of a node found (Step 13).
struct Moves {
    /// The best score, at least the floor the search started from.
    best_score: i32,
    /// The move that raised alpha last, if any did.
    best_move: Option<Move>,
    /// Moves searched (not pruned, not the excluded move).
    searched: usize,
    /// Legal moves, the excluded move included.
    legal: usize,
}

impl Searcher {
    /// Notes an event of `lull why` when the node is on the watched line: the one place the
    /// main search records its notes.
    #[inline]
    fn note(&mut self, node: &Node, depth: i32, alpha: i32, beta: i32, kind: WhyKind) {
        if node.on_line {
            if let Some(w) = self.record.why.as_deref_mut() {
                w.note(node.ply, depth, alpha, beta, kind);
            }
        }
    }

    /// Step 6. The static evaluation of the node at `ply` (`-INFINITY` in check), corrected
    /// by the correction history; the frame keeps it and the raw one (which the TT keeps).
    #[inline]
    fn static_eval(
        &mut self,
        pos: &Position,
        entry: Option<&TtEntry>,
        in_check: bool,
        ply: usize,
    ) -> i32 {
        let (raw, corrected) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw = entry.map_or_else(|| self.evaluate(pos), |e| e.eval);
            (raw, self.correction.correct(pos.board(), raw))
        };
        self.stack[ply].static_eval = corrected;
        self.stack[ply].raw_eval = raw;
        corrected
    }

    /// Ends a node with `cut`, noting why.
    #[inline]
    fn end(&mut self, node: &Node, depth: i32, alpha: i32, beta: i32, cut: Cut) -> i32 {
        if let Some(kind) = cut.why {
            self.note(node, depth, alpha, beta, kind);
        }
        cut.score
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
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let node = Node {
            ply,
            root: ply == 0,
            pv_node,
            cut_node: cut_node && !pv_node,
            in_check: pos.in_check(),
            on_line: self
                .record
                .why
                .as_deref()
                .is_some_and(|w| w.on_line(ply, pos.hash())),
        };
        self.pv.clear(ply);

        // Step 1. Check extension: a side in check gets one more ply, so that the horizon
        // never falls in the middle of a forced sequence of evasions. At the horizon, resolve
        // the captures with the quiescence search (or, with `QSearch` off, take the static
        // evaluation as the leaf value: the horizon effect).
        if node.in_check {
            depth += 1;
        }
        if depth <= 0 {
            let score = self.horizon(pos, alpha, beta, ply);
            self.note(&node, depth, alpha, beta, WhyKind::Horizon { score });
            return score;
        }

        // Step 2. Count the node; poll the clock and the stop flag. Draws by rule (repetition,
        // the fifty-move rule unless the hundredth ply mates, insufficient material), and the
        // maximum ply.
        self.record.stats.main_nodes += 1;
        if self.poll() {
            return 0;
        }
        self.root.seldepth = self.root.seldepth.max(ply);
        self.stack[ply].pawn_row = pawn_row(pos.board());
        if !node.root {
            if pos.is_draw(ply) {
                self.note(&node, depth, alpha, beta, WhyKind::Draw);
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
                self.note(&node, depth, alpha, beta, WhyKind::MateDistance);
                return alpha;
            }
        }

        // Step 4. Transposition table: a deep enough entry with a usable bound ends a
        // non-PV node at once; otherwise its move is tried first. A node that leaves its TT
        // move out (the test of a singular extension, Step 12) is a search of the other
        // moves: the table's entry is not its own.
        let excluded = self.stack[ply].excluded;
        let key = pos.hash();
        let entry = self.shared.tt.probe(key, ply);
        let tt_move = self.first_move(&node, entry.and_then(|e| e.mv));
        if let Some(cut) = entry
            .filter(|_| excluded.is_none())
            .and_then(|e| tt_cutoff(&e, &node, depth, alpha, beta))
        {
            if cut.score >= beta {
                self.reward_tt_cutoff(pos, ply, depth, tt_move);
            }
            return self.end(&node, depth, alpha, beta, cut);
        }

        // Step 5. Syzygy tablebases (see `tablebase_step`). The window as it came is kept:
        // a floor raised by the tables is no bound the moves proved.
        let original_alpha = alpha;
        let tb_step = if excluded.is_none() {
            self.tablebase_step(pos, &node, depth, alpha, beta)
        } else {
            TbStep::NONE
        };
        let (tb_floor, tb_ceiling) = match tb_step {
            TbStep::Cutoff(score) => return score,
            TbStep::Bounds { floor, ceiling } => (floor, ceiling),
        };
        alpha = alpha.max(tb_floor);

        // Step 6. Static evaluation, and whether it improved over our previous move's
        // ("improving": prune less when things are getting worse for us). Killers of the
        // grandchildren are stale: clear them.
        let static_eval = self.static_eval(pos, entry.as_ref(), node.in_check, ply);
        let improving = !node.in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        if ply + 2 <= MAX_PLY {
            self.tables.killers[ply + 2] = [None; 2];
        }
        let eval = pruning_eval(entry.as_ref(), static_eval, node.in_check);

        // Steps 7 to 10 end a node off the PV, not in check, before any move: it is bad
        // (razoring) or good enough (reverse futility, null move, ProbCut).
        if !node.pv_node && !node.in_check && !node.root && excluded.is_none() {
            // Step 7. Razoring.
            if let Some(cut) = self.razoring(pos, ply, depth, eval, alpha) {
                return self.end(&node, depth, alpha, beta, cut);
            }
            // Step 8. Reverse futility pruning.
            if let Some(cut) = self.reverse_futility(depth, eval, beta, improving) {
                return self.end(&node, depth, alpha, beta, cut);
            }
            // Step 9. Null-move pruning.
            if let Some(cut) = self.null_move(pos, ply, depth, eval, beta, node.cut_node) {
                return self.end(&node, depth, alpha, beta, cut);
            }
            // Step 10. ProbCut.
            if let Some(cut) = self.probcut(pos, &node, depth, beta, static_eval, entry.as_ref()) {
                return self.end(&node, depth, alpha, beta, cut);
            }
        }

        // Step 11. Internal iterative reduction: without a TT move the ordering is poor;
        // search this node a ply shallower.
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH && !node.in_check {
            depth -= 1;
        }

        // Step 12. Singular extension: when the TT move is much better than every other
        // move (a search without it fails low well below its score), it is extended; when
        // even that search fails high, several moves beat beta and the node is cut (multi-cut).
        let tt_extension = match self.singular_extension(pos, &node, depth, beta, entry.as_ref()) {
            Ok(ext) => ext,
            Err(score) => return score,
        };
        self.stack[ply + 1].double_extensions =
            self.stack[ply].double_extensions + u8::from(tt_extension >= 2);

        // Step 13. The moves, best first, each pruned, or searched and maybe cutting off
        // (Steps 14 to 16, `search_moves`).
        let l = MoveLoop {
            tt_extension,
            ..self.move_loop(pos, node, depth, eval, improving, tt_move)
        };
        let Some(found) = self.search_moves(pos, &l, alpha, beta, tb_floor) else {
            return 0;
        };
        let Moves {
            mut best_score,
            best_move,
            searched,
            legal,
        } = found;

        // Step 17. No legal move: mate or stalemate. Every move pruned: the static
        // evaluation stands (never a mate score); in a singular extension's test they prove
        // nothing against singular beta.
        if legal == 0 {
            return if node.in_check {
                -MATE + ply as i32
            } else {
                DRAW
            };
        }
        if excluded.is_some() && searched == 0 {
            return alpha;
        }
        if searched > 0 {
            self.record.stats.main_expanded += 1;
        } else {
            best_score = if node.in_check {
                -MATE + ply as i32
            } else {
                static_eval
            };
        }

        // Step 18. A tablebase loss caps what the moves found (Step 5); a fail high is
        // pulled towards beta (`blend_fail_high`).
        best_score = best_score.min(tb_ceiling);
        best_score = blend_fail_high(best_score, beta, depth);

        // Step 19. No move raised alpha: the opponent's quiet move that led here refuted
        // ours, and gains in its histories (the prior counter-move bonus).
        if best_move.is_none() && searched > 0 && excluded.is_none() && ply >= 1 {
            self.reward_prior_quiet(pos, ply, depth);
        }

        // Step 20. Store the result: exact inside the window, else the bound it proves. (A
        // tablebase win that no move improved on stays what the tables said: a floor.)
        let kind = WhyKind::Result {
            score: best_score,
            best: best_move,
        };
        self.note(&node, depth, original_alpha, beta, kind);
        let bound = if best_move.is_none() && tb_floor > -INFINITY && best_score == tb_floor {
            Bound::Lower
        } else {
            Bound::of(best_score, original_alpha, beta)
        };
        if excluded.is_none() {
            let raw_eval = self.stack[ply].raw_eval;
            self.shared
                .tt
                .store(key, best_move, best_score, raw_eval, depth, bound, ply);
        }

        // Step 21. The search's verdict against the static evaluation teaches the correction
        // history.
        if !node.in_check && excluded.is_none() {
            self.learn_correction(pos, depth, best_move, (best_score, bound), static_eval);
        }
        best_score
    }

    /// Step 4, at the root: the move to try first. At the root the best move so far comes
    /// first: the one that raised alpha in this line's search (after an aspiration fail),
    /// else the previous iteration's. The TT entry may hold another MultiPV line's move, and
    /// an iteration cut short plays the best move it searched in full, which is only sound
    /// when the old best came first. Elsewhere it is the TT move.
    #[inline]
    fn first_move(&self, node: &Node, tt_move: Option<Move>) -> Option<Move> {
        if !node.root {
            return tt_move;
        }
        let first = self
            .root
            .best
            .map(|(m, _, _)| m)
            .or(self.root.last_pv.first().copied());
        first.filter(|m| self.root.moves.contains(m)).or(tt_move)
    }

    /// Step 13. The moves of the node of `l` in the window (`alpha`, `beta`), from the
    /// staged picker (`movepick.rs`: the TT move before any move is generated, then good
    /// captures, killers, the counter-move, quiet moves by history, losing captures), the
    /// best score starting at `floor`: the first move with the full window, the others with
    /// a null window that is widened only when a move beats alpha (PVS). `None` when the
    /// search was stopped.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &mut Position,
        l: &MoveLoop,
        mut alpha: i32,
        beta: i32,
        floor: i32,
    ) -> Option<Moves> {
        let (node, depth) = (l.node, l.depth);
        let root_filter = node.root.then(|| self.root.moves.clone());
        let mut picker = MovePicker::main(pos, l.tt_move, node.ply, l.ctx, root_filter.as_deref());
        let mut found = Moves {
            best_score: floor,
            best_move: None,
            searched: 0,
            legal: 0,
        };
        let mut tried = Tried::default();
        while let Some(Picked { mv, stage, .. }) = picker.next(pos, &self.tables) {
            found.legal += 1;
            if l.excluded == Some(mv) {
                continue;
            }
            let mut m = self.loop_move(pos, l, mv, stage);
            if Some(mv) == l.tt_move {
                m.extension = l.tt_extension;
            }

            // Step 14. Shallow pruning (`prune_move`), once a move has secured a non-losing
            // score.
            if !node.root && found.best_score > -TB_BOUND && !node.in_check {
                let skip = match self.prune_move(pos, l, &m, alpha, &tried, found.searched) {
                    Prune::Search => None,
                    Prune::Skip(why) => Some(why),
                    Prune::SkipQuiets(why) => {
                        picker.skip_quiets();
                        Some(why)
                    }
                };
                if let Some(why) = skip {
                    if let Some(kind) = why {
                        self.note(&node, depth, alpha, beta, kind);
                    }
                    continue;
                }
            }

            // Step 15. Make the move and search it (PVS, late move reductions).
            let score = self.search_move(pos, l, &m, alpha, beta, found.searched);
            if self.clock.stopped {
                return None;
            }
            found.searched += 1;
            if l.line_move == Some(mv) {
                let kind = WhyKind::Searched {
                    order: found.searched,
                    score,
                };
                self.note(&node, depth, alpha, beta, kind);
            }

            // Step 16. A new best move; one that beats beta is a cutoff: remember the
            // refutation, punish the moves tried before it (`reward_cutoff`).
            if score > found.best_score {
                found.best_score = score;
                if score > alpha {
                    found.best_move = Some(mv);
                    alpha = score;
                    self.pv.update(node.ply, mv);
                    if node.root {
                        let bound = if score >= beta {
                            ScoreBound::Lower
                        } else {
                            ScoreBound::Exact
                        };
                        self.root.best = Some((mv, score, bound));
                    }
                    if score >= beta {
                        self.record.stats.main_cutoff(found.searched);
                        self.reward_cutoff(l, &m, &tried);
                        if l.line_move.is_some_and(|lm| lm != mv) {
                            let kind = WhyKind::CutBefore { by: mv, score };
                            self.note(&node, depth, alpha, beta, kind);
                        }
                        break;
                    }
                }
            }
            if m.quiet {
                tried.quiets.push(mv, m.key);
            } else if let Some(c) = m.capture {
                tried.captures.push(c);
            }
        }
        Some(found)
    }

    /// Step 12. The singular extension of the TT move: `Ok(plies)` to add to its search
    /// (2 when it is singular by far and the line has double extensions left, 1 when
    /// singular, -1 when the TT score already beats beta and another move came close: a
    /// negative extension), or `Err(score)` to end the node (multi-cut). Tested only deep
    /// enough, with a TT entry from a search nearly as deep that is no upper bound, and only
    /// within twice the iteration's depth from the root. A singular move whose TT score is
    /// [`SE_DECIDED_SCORE`] or more from zero is not extended: the game is decided there.
    fn singular_extension(
        &mut self,
        pos: &mut Position,
        node: &Node,
        depth: i32,
        beta: i32,
        entry: Option<&TtEntry>,
    ) -> Result<i32, i32> {
        let Some(e) = entry else { return Ok(0) };
        let Some(tt_move) = e.mv else { return Ok(0) };
        let ply = node.ply;
        if !self.options.singular_extensions
            || node.root
            || depth < SE_MIN_DEPTH
            || self.stack[ply].excluded.is_some()
            || e.depth < depth - SE_TT_DEPTH_MARGIN
            || e.bound == Bound::Upper
            || e.score.abs() >= TB_BOUND
            || ply as i32 >= 2 * self.root.depth
        {
            return Ok(0);
        }
        let t = self.options.tunables;
        let singular_beta = e.score - t[Tunable::SeMarginPerDepth] * depth;
        self.stack[ply].excluded = Some(tt_move);
        let score = self.negamax(
            pos,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            node.cut_node,
        );
        self.stack[ply].excluded = None;
        if self.clock.stopped {
            return Err(0);
        }
        if score < singular_beta {
            if !self.options.singular_deepens || e.score.abs() >= SE_DECIDED_SCORE {
                return Ok(0);
            }
            let double = !node.pv_node
                && score < singular_beta - t[Tunable::SeDoubleMargin]
                && self.stack[ply].double_extensions < SE_DOUBLE_MAX;
            Ok(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if e.score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// Step 1, at the horizon: the quiescence search's score, or with `QSearch` off the
    /// static evaluation (and the node is counted as a main-search node).
    pub(super) fn horizon(&mut self, pos: &mut Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.options.qs.enabled {
            self.qsearch(pos, alpha, beta, QNode::horizon(ply))
        } else {
            self.record.stats.main_nodes += 1;
            self.evaluate(pos)
        }
    }

    /// What Steps 14 to 16 need to know of a move before it is played.
    #[inline]
    fn loop_move(&self, pos: &Position, l: &MoveLoop, mv: Move, stage: Stage) -> LoopMove {
        let mover = pos.board().piece_on(mv.from);
        LoopMove {
            mv,
            stage,
            quiet: !pos.is_capture(mv) && mv.promotion.is_none(),
            key: mover.map_or(NO_CONT, |p| cont_key(l.us, p, mv.to)),
            extension: 0,
            capture: if l.capture_history {
                mover.zip(pos.captured(mv)).map(|(p, v)| (p, mv.to, v))
            } else {
                None
            },
        }
    }

    /// Reports the root move about to be searched (UCI `currmove`), after the first second.
    fn report_current_move(&self, mv: Move, number: usize, depth: i32) {
        if let Some(report) = self.progress_sink() {
            report(&SearchReport::CurrMove { depth, mv, number });
        }
    }

    /// Step 15. Plays the move and searches it: the first move with the full window, the
    /// others with a null window, reduced first when late and quiet (LMR), then again at
    /// full depth and with the full window only as far as the score asks.
    #[inline(always)]
    fn search_move(
        &mut self,
        pos: &mut Position,
        l: &MoveLoop,
        m: &LoopMove,
        alpha: i32,
        beta: i32,
        searched: usize,
    ) -> i32 {
        let ply = l.node.ply;
        self.stack[ply].cont_key = m.key;
        self.stack[ply].quiet_move = m.quiet.then_some(m.mv);
        if l.node.root {
            // At the root no move is pruned: this is the move's number in the order.
            self.report_current_move(m.mv, searched + 1, l.depth);
        }
        let nodes_before = if l.node.root { self.nodes() } else { 0 };
        self.make_move(pos, m.mv);
        let gives_check = pos.in_check();
        let new_depth = l.depth - 1 + m.extension;
        let score = if searched == 0 {
            -self.negamax(
                pos,
                -beta,
                -alpha,
                new_depth,
                ply + 1,
                !l.node.pv_node && !l.node.cut_node,
            )
        } else {
            let r = self.reduction(l, m, searched, gives_check);
            let mut s = -self.negamax(pos, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if r > 0 && l.line_move == Some(m.mv) {
                let order = searched + 1;
                let kind = WhyKind::Reduced { r, order, score: s };
                self.note(&l.node, l.depth, alpha, beta, kind);
            }
            if s > alpha && r > 0 {
                s = -self.negamax(
                    pos,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !l.node.cut_node,
                );
            }
            if s > alpha && s < beta {
                s = -self.negamax(pos, -beta, -alpha, new_depth, ply + 1, false);
            }
            s
        };
        pos.undo();
        if l.node.root && !self.clock.stopped {
            // Effort per root move, for the time manager.
            self.root.add_nodes(m.mv, self.nodes() - nodes_before);
        }
        score
    }

    /// Step 16. A beta cutoff: the refuting capture gains in the capture history and the
    /// captures tried before lose; a quiet refutation becomes a killer and the counter-move
    /// and gains in the quiet histories, which the quiet moves tried before lose.
    fn reward_cutoff(&mut self, l: &MoveLoop, m: &LoopMove, tried: &Tried) {
        let bonus = self.history_bonus(l.depth);
        if l.capture_history {
            if let Some(c) = m.capture {
                self.tables.update_capture(l.us, c.0, c.1, c.2, bonus);
            }
            for &(piece, to, victim) in tried.captures.as_slice() {
                self.tables.update_capture(l.us, piece, to, victim, -bonus);
            }
        }
        if m.quiet {
            self.tables.add_killer(l.node.ply, m.mv);
            if l.ctx.prev1 != NO_CONT {
                self.tables.counters[l.ctx.prev1] = Some(m.mv);
            }
            self.tables.update_quiet(l.us, m.mv, m.key, l.ctx, bonus);
            for (q, qkey) in tried.quiets.iter() {
                self.tables.update_quiet(l.us, q, qkey, l.ctx, -bonus);
            }
        }
    }
}

/// Step 18. A fail high is pulled towards beta, the more the shallower the search: one
/// refutation's margin over beta says little (Stockfish's fail-high adjustment). Mate and
/// tablebase scores stay.
#[inline]
fn blend_fail_high(best_score: i32, beta: i32, depth: i32) -> i32 {
    if best_score >= beta && best_score.abs() < TB_BOUND && beta.abs() < TB_BOUND {
        (best_score * depth + beta) / (depth + 1)
    } else {
        best_score
    }
}

/// Step 4. A deep enough TT entry whose bound settles the window ends a node off the PV.
fn tt_cutoff(e: &TtEntry, node: &Node, depth: i32, alpha: i32, beta: i32) -> Option<Cut> {
    let settles = !node.pv_node && e.depth >= depth && e.bound.settles(e.score, alpha, beta);
    settles.then_some(Cut {
        score: e.score,
        why: Some(WhyKind::TtCutoff {
            score: e.score,
            bound: e.bound,
            depth: e.depth,
        }),
    })
}

/// Step 6. The evaluation the pruning decisions use: a TT score is a searched value, so
/// where its bound says it is more accurate than the static evaluation, it is taken instead.
fn pruning_eval(entry: Option<&TtEntry>, static_eval: i32, in_check: bool) -> i32 {
    match entry {
        Some(e) if !in_check => e.sharpen(static_eval),
        _ => static_eval,
    }
}

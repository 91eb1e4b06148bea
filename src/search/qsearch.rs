//! The quiescence search.
//!
//! A fixed-depth search stops in the middle of exchanges: after QxP it never sees PxQ and
//! scores a lost queen as a won pawn (the horizon effect). Shannon (1950) asked for a search
//! that goes on until the position is "quiescent"; Harris, Beal and Kaindl shaped it into what
//! every engine runs at depth 0 today: only forcing moves, with the static evaluation as a
//! lower bound because the side to move may always decline to capture.
//!
//! This file reads top to bottom as the node does its work, one step per idea. Every variant
//! of the literature is switchable through [`QSearchOptions`](super::QSearchOptions).

use cozy_chess::{Move, Square};
use serde::Serialize;

use crate::eval::evaluate;
use crate::params::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::position::Position;
use crate::tt::Bound;

use super::movepick::{MovePicker, Picked};
use super::see::see_value;
use super::stats::QPLY_BUCKETS;
use super::Searcher;

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

/// One event of a traced quiescence search (see [`Searcher::set_trace`]): a node is an
/// `Enter` … `Exit` pair with its children nested in between.
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

impl Searcher {
    /// Quiescence search of `pos` in the window (`alpha`, `beta`), fail-soft. A thin wrapper
    /// around [`Searcher::qsearch_node`] that records the tree when tracing is on.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn qsearch(
        &mut self,
        pos: &mut Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: i32,
        last_capture: Option<Square>,
        beal: bool,
    ) -> i32 {
        if self.trace.is_none() {
            return self.qsearch_node(pos, alpha, beta, ply, qply, last_capture, beal);
        }
        let mv = self.trace_move.take();
        let in_check = pos.in_check();
        self.trace_event(QTrace::Enter {
            mv,
            alpha,
            beta,
            qply,
            in_check,
        });
        let score = self.qsearch_node(pos, alpha, beta, ply, qply, last_capture, beal);
        let end = self.q_end;
        self.trace_event(QTrace::Exit { score, end });
        score
    }

    #[inline]
    fn trace_event(&mut self, event: QTrace) {
        if let Some(t) = &mut self.trace {
            if t.len() < self.trace_limit {
                t.push(event);
            } else {
                self.trace_truncated = true;
            }
        }
    }

    /// Quiescence search of `pos` in the window (`alpha`, `beta`), fail-soft.
    ///
    /// `ply` is the distance from the root, `qply` the distance from the horizon,
    /// `last_capture` the square of the capture that led here (for recaptures-only), and
    /// `beal` whether Beal's null-move stand pat may be used in this subtree (false inside
    /// the null-move search itself, which is an ordinary quiescence search).
    #[allow(clippy::too_many_arguments)]
    fn qsearch_node(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        qply: i32,
        last_capture: Option<Square>,
        beal: bool,
    ) -> i32 {
        let opts = self.options.qs;
        let pv_node = beta - alpha > 1;
        self.pv_len[ply.min(MAX_PLY)] = 0;

        // Step 1. Count the node (statistics: q-nodes, q-ply histogram) and poll the clock.
        self.stats.qnodes += 1;
        self.stats.qply_sum += qply as u64;
        self.stats.qply_max = self.stats.qply_max.max(qply as u64);
        self.stats.qply_hist[(qply as usize).min(QPLY_BUCKETS - 1)] += 1;
        if qply == 0 {
            self.stats.qnodes_ply0 += 1;
        }
        if self.poll() {
            self.q_end = QEnd::Stopped;
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Step 2. Draws by rule. Captures reset the repetition window, so this is cheap;
        // checks and evasions can repeat.
        if pos.is_repetition(ply) || pos.is_insufficient_material() {
            self.q_end = QEnd::Draw;
            return DRAW;
        }
        let in_check = pos.in_check();

        // Step 3. Caps against explosion: the ply limit of the PV table, the q-ply limit
        // (`QSearchMaxPly`) and the q-node budget (`QSearchMaxNodes`). A capped node is a leaf
        // scored by the static evaluation.
        let node_budget_spent =
            opts.max_nodes > 0 && self.stats.qnodes - self.qnodes_at_start > opts.max_nodes;
        if ply >= MAX_PLY - 1 || qply >= opts.max_ply || node_budget_spent {
            self.stats.q_capped += 1;
            self.q_end = if node_budget_spent {
                QEnd::NodeCap
            } else {
                QEnd::PlyCap
            };
            return evaluate(pos.board());
        }

        // Step 4. Mate distance pruning: nothing here beats a mate found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            self.q_end = QEnd::MateDistance;
            return alpha;
        }

        // Step 5. Transposition table (`QSearchTT`): any entry is deep enough (depth >= 0);
        // outside PV nodes a usable bound ends the node, and its move is tried first. Inside
        // Beal's null-move verification the scores mean something else: no TT there.
        let use_tt = opts.use_tt && (beal || opts.null_move == 0);
        let key = pos.hash();
        let mut tt_move = None;
        let mut tt_eval = None;
        if use_tt {
            self.stats.q_tt_probes += 1;
            if let Some(e) = self.tt.probe(key, ply) {
                self.stats.q_tt_hits += 1;
                tt_move = e.mv;
                if !in_check {
                    tt_eval = Some(e.eval);
                }
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if !pv_node && usable {
                    self.stats.q_tt_cutoffs += 1;
                    self.q_end = QEnd::TtCutoff;
                    return e.score;
                }
            }
        }

        // Step 6. Stand pat. Not in check, the side to move may decline every capture, so
        // the static evaluation is a lower bound: if it already reaches beta the node fails
        // high at once (fail-soft: return the evaluation itself), and it raises alpha.
        // In check there is no standing pat: every evasion is searched and none means mate.
        let static_eval;
        let mut best_score;
        if in_check {
            self.stats.evasion_nodes += 1;
            static_eval = -INFINITY;
            best_score = -MATE + ply as i32;
        } else {
            self.stats.standpat_nodes += 1;
            static_eval = tt_eval.unwrap_or_else(|| evaluate(pos.board()));
            best_score = static_eval;

            // Step 6a. Beal's null-move quiescence (`QSearchNullMove`, Beal 1990): the
            // order-2 stand pat is the value of passing, answered by the opponent's ordinary
            // (order-1) capture search. We compute it as `static_eval - threat`, where
            // threat = max(0, Q1(after null) - E(after null)) is what the opponent's captures
            // gain over its own stand pat: a piece of ours that hangs lowers our stand pat.
            // It is skipped without non-pawn material (zugzwang makes passing a lie).
            let null_here = beal
                && (opts.null_move >= 2 || (opts.null_move == 1 && qply == 0))
                && !pos.only_pawns(pos.side_to_move());
            if null_here && pos.play_null() {
                self.stats.null_standpats += 1;
                let e_null = evaluate(pos.board());
                let offset = static_eval + e_null;
                let q1 = self.qsearch(
                    pos,
                    offset - beta,
                    offset - alpha,
                    ply + 1,
                    qply + 1,
                    None,
                    false,
                );
                pos.undo();
                if self.stopped {
                    self.q_end = QEnd::Stopped;
                    return 0;
                }
                let q1 = q1.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
                let threat = (q1 - e_null).max(0);
                if threat > 0 {
                    self.stats.null_standpat_lowered += 1;
                }
                best_score = static_eval - threat;
            }

            self.trace_event(QTrace::StandPat(best_score));
            if best_score >= beta {
                self.stats.standpat_cutoffs += 1;
                self.q_end = QEnd::StandPat;
                if use_tt && tt_eval.is_none() {
                    self.tt
                        .store(key, None, best_score, static_eval, 0, Bound::Lower, ply);
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let stand_pat = best_score;

        // Step 7. Generate and order the moves (see `MovePicker::quiescence`): in check every
        // evasion, otherwise the forcing moves the options ask for, each with its SEE. No
        // legal move at all is mate or stalemate.
        let Some(mut picker) = MovePicker::quiescence(pos, tt_move, &self.tables, &opts, qply)
        else {
            if in_check {
                self.stats.q_mates += 1;
                self.q_end = QEnd::Mate;
                return -MATE + ply as i32;
            }
            self.stats.q_stalemates += 1;
            self.q_end = QEnd::Stalemate;
            return DRAW;
        };

        // Step 9. Search the moves.
        let original_alpha = alpha;
        let mut best_move = None;
        let mut searched = 0usize;
        let recaptures_only = opts.recaptures_after > 0 && qply >= opts.recaptures_after;
        let delta_margin = opts.delta_margin;
        let see_threshold = opts.see_threshold;
        while let Some(Picked {
            mv, see: exchange, ..
        }) = picker.next(pos, &self.tables)
        {
            let captured = pos.captured(mv);

            if !in_check {
                // Step 9a. Recaptures only (`QSearchRecapturesAfter`): deep in the tree, only
                // moves to the square of the last capture are searched.
                if recaptures_only && Some(mv.to) != last_capture {
                    self.stats.recapture_skips += 1;
                    self.trace_event(QTrace::Pruned {
                        mv,
                        reason: QPrune::NotRecapture,
                    });
                    continue;
                }
                // Step 9b. Delta pruning (`QSearchDelta`): if even winning the captured piece
                // with a margin cannot lift the stand pat to alpha, skip the capture. Never a
                // promotion: it changes the material balance by far more than the victim.
                if delta_margin > 0
                    && mv.promotion.is_none()
                    && captured.is_some()
                    && stand_pat + captured.map_or(0, see_value) + delta_margin <= alpha
                {
                    self.stats.delta_skips += 1;
                    self.trace_event(QTrace::Pruned {
                        mv,
                        reason: QPrune::Delta,
                    });
                    continue;
                }
                // Step 9c. SEE pruning (`QSearchSEE`): skip captures (and quiet tactical
                // moves) that lose material in the exchange on their square.
                if exchange < see_threshold {
                    self.stats.see_skips += 1;
                    self.trace_event(QTrace::Pruned {
                        mv,
                        reason: QPrune::See,
                    });
                    continue;
                }
            }
            if !in_check && captured.is_none() && mv.promotion.is_none() {
                self.stats.q_checks_searched += 1;
            }

            // Step 9d. Make the move and search the reply, one q-ply deeper.
            let next_capture = if captured.is_some() {
                Some(mv.to)
            } else {
                last_capture
            };
            if self.trace.is_some() {
                self.trace_move = Some(mv);
            }
            pos.play(mv);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1, next_capture, beal);
            pos.undo();
            if self.stopped {
                self.q_end = QEnd::Stopped;
                return 0;
            }
            searched += 1;

            // Step 9e. A better move: new PV (the quiescence line is part of the PV shown to
            // the user); at beta the node fails high.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.stats.q_cutoffs += 1;
                        if searched == 1 {
                            self.stats.q_first_cutoffs += 1;
                        }
                        self.q_end = QEnd::BetaCutoff {
                            after: searched as u32,
                        };
                        break;
                    }
                }
            }
        }
        if searched > 0 {
            self.stats.q_expanded += 1;
        }
        if best_score < beta {
            self.q_end = if picker.generated() == 0 {
                QEnd::Quiet
            } else {
                QEnd::AllSearched
            };
        }

        // Step 10. Store the result (depth 0) and return it. A node that searched nothing
        // returns its stand pat (never a mate score: only a searched position can be mate).
        if use_tt {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(key, best_move, best_score, static_eval, 0, bound, ply);
        }
        best_score
    }
}

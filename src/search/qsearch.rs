//! The quiescence search.
//!
//! A fixed-depth search stops in the middle of exchanges: after QxP it never sees PxQ and
//! scores a lost queen as a won pawn (the horizon effect). Shannon (1950) asked for a search
//! that goes on until the position is "quiescent"; Harris, Beal and Kaindl shaped it into what
//! every engine runs at depth 0 today: only forcing moves, with the static evaluation as a
//! lower bound because the side to move may always decline to capture.
//!
//! This file reads top to bottom as the node does its work, one step per idea. Every variant
//! of the literature is switchable through [`QSearchOptions`].

use cozy_chess::{Move, Piece, Square};

use crate::params::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, TB_PROBE_IN_QSEARCH};
use crate::position::Position;
use crate::tt::Bound;

use super::movepick::{MovePicker, Picked};
use super::searcher::Searcher;
use super::see::see_value;
use super::settings::{NullMoveQs, QSearchOptions};
use super::trace::{QEnd, QPrune, QTrace};

/// Where a quiescence node stands in the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QNode {
    /// Distance from the root.
    ply: usize,
    /// Distance from the horizon (plies past depth 0).
    qply: i32,
    /// The square of the capture that led here (for recaptures-only).
    last_capture: Option<Square>,
    /// Whether Beal's null-move stand pat may be used in this subtree: false inside the
    /// null-move search itself, which is an ordinary quiescence search.
    null_move_allowed: bool,
}

impl QNode {
    /// The first quiescence node, at the main search's horizon `ply` plies from the root.
    pub(crate) fn horizon(ply: usize) -> Self {
        Self {
            ply,
            qply: 0,
            last_capture: None,
            null_move_allowed: true,
        }
    }

    /// The child after a move that captured on `capture` (or captured nothing).
    fn child(self, capture: Option<Square>) -> Self {
        Self {
            ply: self.ply + 1,
            qply: self.qply + 1,
            last_capture: capture.or(self.last_capture),
            null_move_allowed: self.null_move_allowed,
        }
    }

    /// Why a move of `pos` at this node is not searched, if it is not (Steps 12 to 14 of the
    /// node, never in check): `captured` is its victim, `see` its exchange value, `stand_pat` the
    /// node's.
    #[allow(clippy::too_many_arguments)]
    fn pruned(
        self,
        opts: &QSearchOptions,
        pos: &Position,
        mv: Move,
        captured: Option<Piece>,
        see: i32,
        stand_pat: i32,
        alpha: i32,
    ) -> Option<QPrune> {
        let recaptures_only = opts.recaptures_after > 0 && self.qply >= opts.recaptures_after;
        if recaptures_only && Some(mv.to) != self.last_capture {
            // Step 12. Recaptures only (`QSearchRecapturesAfter`): deep in the tree, only
            // moves to the square of the last capture are searched.
            Some(QPrune::NotRecapture)
        } else if opts.delta_margin > 0
            && mv.promotion.is_none()
            && captured.is_some_and(|c| stand_pat + see_value(c) + opts.delta_margin <= alpha)
            && !(opts.delta_spares_checks && pos.gives_check(mv))
        {
            // Step 13. Delta pruning (`QSearchDelta`): if even winning the captured piece
            // with a margin cannot lift the stand pat to alpha, skip the capture. Never a
            // promotion: it changes the material balance by far more than the victim; with
            // `QSearchDeltaChecks`, never a check: it may mate.
            Some(QPrune::Delta)
        } else if see < opts.see_threshold {
            // Step 14. SEE pruning (`QSearchSEE`): skip captures (and quiet tactical moves)
            // that lose material in the exchange on their square.
            Some(QPrune::See)
        } else {
            None
        }
    }

    /// The child after a null move: an ordinary quiescence search without null moves.
    fn after_null(self) -> Self {
        Self {
            ply: self.ply + 1,
            qply: self.qply + 1,
            last_capture: None,
            null_move_allowed: false,
        }
    }
}

impl Searcher {
    /// Quiescence search of `pos` in the window (`alpha`, `beta`), fail-soft: the one exit of
    /// every quiescence node, which counts why it ended and records it when tracing is on.
    pub(crate) fn qsearch(&mut self, pos: &mut Position, alpha: i32, beta: i32, at: QNode) -> i32 {
        let traced = self.record.qtrace.is_on();
        if traced {
            let mv = self.record.qtrace.next_move.take();
            let in_check = pos.in_check();
            self.record.qtrace.event(QTrace::Enter {
                mv,
                alpha,
                beta,
                qply: at.qply,
                in_check,
            });
        }
        let (score, end) = self.qsearch_node(pos, alpha, beta, at);
        self.record.stats.q_exit(end);
        if traced {
            self.record.qtrace.event(QTrace::Exit { score, end });
        }
        score
    }

    /// The work of a quiescence node (see [`Searcher::qsearch`]): its score and why it ended.
    fn qsearch_node(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        at: QNode,
    ) -> (i32, QEnd) {
        let opts = self.options.qs;
        let QNode { ply, qply, .. } = at;
        let pv_node = beta - alpha > 1;
        self.pv.clear(ply);

        // Step 1. Count the node (statistics: q-nodes, q-ply histogram) and poll the clock.
        self.record.stats.q_node(qply);
        if self.poll() {
            return (0, QEnd::Stopped);
        }
        self.root.seldepth = self.root.seldepth.max(ply);

        // Step 2. Draws by rule: repetition, the fifty-move rule (not a mate on the hundredth
        // ply) and insufficient material. Captures reset the repetition window, so this is
        // cheap; checks and evasions can repeat.
        if pos.is_draw(ply) {
            return (DRAW, QEnd::Draw);
        }
        let in_check = pos.in_check();

        // Step 3. Caps against explosion: the ply limit of the PV table, the q-ply limit
        // (`QSearchMaxPly`) and the q-node budget (`QSearchMaxNodes`). A capped node is a leaf
        // scored by the static evaluation.
        let node_budget_spent = opts.max_nodes > 0 && self.record.stats.qnodes > opts.max_nodes;
        if node_budget_spent {
            return (self.evaluate(pos), QEnd::NodeCap);
        }
        if ply >= MAX_PLY - 1 || qply >= opts.max_ply {
            return (self.evaluate(pos), QEnd::PlyCap);
        }

        // Step 4. Mate distance pruning: nothing here beats a mate found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return (alpha, QEnd::MateDistance);
        }

        // Step 5. Transposition table (`QSearchTT`): outside PV nodes a usable bound ends the
        // node, and its move is tried first. Inside Beal's null-move verification the scores
        // mean something else: no TT there. With `QSearchChecks` not every q-node searches the
        // same moves: a node past the check plies (captures only) stores depth -1, the others
        // depth 0, and an entry settles only a node of its depth or less, so a captures-only
        // result never stands for a node that would have tried the mating check (Stockfish's
        // DEPTH_QS_NO_CHECKS). Main-search entries (depth >= 1) settle any q-node.
        let use_tt = opts.use_tt && (at.null_move_allowed || opts.null_move == NullMoveQs::Off);
        let tt_depth = if opts.check_plies > 0 && !in_check && qply >= opts.check_plies {
            -1
        } else {
            0
        };
        let key = pos.hash();
        let mut tt_move = None;
        // The entry when not in check: its static evaluation and, for the stand pat, its score.
        let mut tt_entry = None;
        if use_tt {
            let entry = self.shared.tt.probe(key, ply);
            self.record.stats.q_tt_probe(entry.is_some());
            if let Some(e) = entry {
                tt_move = e.mv;
                if !in_check {
                    tt_entry = Some(e);
                }
                let usable = e.depth >= tt_depth && e.bound.settles(e.score, alpha, beta);
                if !pv_node && usable {
                    return (e.score, QEnd::TtCutoff);
                }
            }
        }

        // Step 6. Syzygy tablebases (`params::TB_PROBE_IN_QSEARCH`, measured to pay, see
        // docs/measurements.md): as in the main search (Step 5), right after a capture or
        // pawn move with few enough pieces; only with `SyzygyProbeDepth` 1 (a larger value
        // asks for fewer probes, and the quiescence search is below every depth).
        if TB_PROBE_IN_QSEARCH
            && self.root.tb_limit > 0
            && self.options.syzygy_probe_depth <= 1
            && pos.board().halfmove_clock() == 0
            && pos.board().occupied().len() as usize <= self.root.tb_limit
        {
            if let Some((score, bound)) = self.probe_wdl(pos, ply) {
                if bound.settles(score, alpha, beta) {
                    return (score, QEnd::Tablebase);
                }
            }
        }

        // Step 7. Stand pat. Not in check, the side to move may decline every capture, so
        // the static evaluation is a lower bound: if it already reaches beta the node fails
        // high at once (fail-soft: return the evaluation itself), and it raises alpha.
        // In check there is no standing pat: every evasion is searched and none means mate.
        let static_eval;
        let mut best_score;
        // What delta pruning measures from (Step 13): the stand pat of the evaluation.
        let stand_pat;
        if in_check {
            self.record.stats.evasion_nodes += 1;
            static_eval = -INFINITY;
            best_score = -MATE + ply as i32;
            stand_pat = best_score;
        } else {
            self.record.stats.standpat_nodes += 1;
            static_eval = tt_entry.map_or_else(|| self.evaluate(pos), |e| e.eval);
            // The stand pat is the evaluation corrected by the correction history (the TT
            // keeps it raw).
            best_score = self.correction.correct(pos.board(), static_eval);

            // Step 8. Beal's null-move quiescence (`QSearchNullMove`): the stand pat less
            // what the opponent's captures would win if we passed (see `null_move_threat`).
            // It is skipped without non-pawn material (zugzwang makes passing a lie).
            if at.null_move_allowed
                && opts.null_move.applies_at(qply)
                && !pos.only_pawns(pos.side_to_move())
            {
                best_score -= self.null_move_threat(pos, static_eval, alpha, beta, at);
                if self.clock.stopped {
                    return (0, QEnd::Stopped);
                }
            }
            stand_pat = best_score;

            // Step 9. A TT score is a searched value: where its bound says it is nearer the
            // truth than the stand pat, it stands in its place (as the main search prunes by
            // it, Step 6 there).
            if let Some(e) = tt_entry {
                best_score = e.sharpen(best_score);
            }

            self.record.qtrace.event(QTrace::StandPat(best_score));
            if best_score >= beta {
                if use_tt && tt_entry.is_none() {
                    self.shared
                        .tt
                        .store(key, None, best_score, static_eval, 0, Bound::Lower, ply);
                }
                return (best_score, QEnd::StandPat);
            }
            alpha = alpha.max(best_score);
        }

        // Step 10. Generate and order the moves (see `MovePicker::quiescence`): in check every
        // evasion, otherwise the forcing moves the options ask for, each with its SEE. No
        // legal move at all is mate or stalemate.
        let mut picker = MovePicker::quiescence(tt_move);
        picker.generate_quiescence(pos, &self.tables, &opts, qply);
        if picker.no_legal_moves() {
            return if in_check {
                (-MATE + ply as i32, QEnd::Mate)
            } else {
                (DRAW, QEnd::Stalemate)
            };
        }

        // Step 11. Search the moves.
        let original_alpha = alpha;
        let mut best_move = None;
        let mut searched = 0usize;
        while let Some(Picked { mv, see, .. }) = picker.next(pos, &self.tables) {
            let captured = pos.captured(mv);

            if !in_check {
                // Steps 12 to 14. Recaptures only, delta pruning, SEE pruning (`QNode::pruned`).
                let pruned = at.pruned(&opts, pos, mv, captured, see, stand_pat, alpha);
                if let Some(reason) = pruned {
                    self.record.stats.q_pruned(reason);
                    self.record.qtrace.pruned(mv, reason);
                    continue;
                }
                if captured.is_none() && mv.promotion.is_none() {
                    self.record.stats.q_checks_searched += 1;
                }
            }

            // Step 15. Make the move and search the reply, one q-ply deeper.
            if self.record.qtrace.is_on() {
                self.record.qtrace.next_move = Some(mv);
            }
            self.make_move(pos, mv);
            let child = at.child(captured.map(|_| mv.to));
            let score = -self.qsearch(pos, -beta, -alpha, child);
            pos.undo();
            if self.clock.stopped {
                return (0, QEnd::Stopped);
            }
            searched += 1;

            // Step 16. A better move: new PV (the quiescence line is part of the PV shown to
            // the user); at beta the node fails high.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.pv.update(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if searched > 0 {
            self.record.stats.q_expanded += 1;
        }
        let end = if best_score >= beta {
            QEnd::BetaCutoff {
                after: searched as u32,
            }
        } else if picker.generated() == 0 {
            QEnd::Quiet
        } else {
            QEnd::AllSearched
        };

        // Step 17. Store the result (depth 0, or -1 past the check plies) and return it. A node
        // that searched nothing returns its stand pat (never a mate score: only a searched
        // position can be mate).
        if use_tt {
            let bound = Bound::of(best_score, original_alpha, beta);
            self.shared.tt.store(
                key,
                best_move,
                best_score,
                static_eval,
                tt_depth,
                bound,
                ply,
            );
        }
        (best_score, end)
    }

    /// Beal's null-move quiescence (Beal 1990): the order-2 stand pat is the value of
    /// passing, answered by the opponent's ordinary (order-1) capture search. We compute it
    /// as `static_eval - threat`, where threat = max(0, Q1(after null) - E(after null)) is
    /// what the opponent's captures gain over its own stand pat: a piece of ours that hangs
    /// lowers our stand pat. The threat is at most all our material (the king aside): a
    /// bigger gain is a mate the capture search found after the pass, which is no proof of a
    /// mate here (we need not pass), so it counts as the loss of everything and the stand pat
    /// stays an evaluation, never a score of the mate or tablebase range. Returns the threat
    /// (0 when we may not pass, or when the search was stopped).
    fn null_move_threat(
        &mut self,
        pos: &mut Position,
        static_eval: i32,
        alpha: i32,
        beta: i32,
        at: QNode,
    ) -> i32 {
        if !self.make_null(pos) {
            return 0;
        }
        self.record.stats.null_standpats += 1;
        let e_null = self.evaluate(pos);
        let offset = static_eval + e_null;
        let q1 = self.qsearch(pos, offset - beta, offset - alpha, at.after_null());
        pos.undo();
        if self.clock.stopped {
            return 0;
        }
        let q1 = q1.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        let board = pos.board();
        let ours = board.colors(board.side_to_move());
        let material: i32 = Piece::ALL
            .iter()
            .filter(|&&p| p != Piece::King)
            .map(|&p| (board.pieces(p) & ours).len() as i32 * see_value(p))
            .sum();
        let threat = (q1 - e_null).clamp(0, material);
        if threat > 0 {
            self.record.stats.null_standpat_lowered += 1;
        }
        threat
    }
}

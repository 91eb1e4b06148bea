//! The main search's decisions to prune or reduce (Steps 7 to 10, 14 and the reductions of
//! 15), each a small function that returns what it decided and why, and the facts of a node
//! that they read. The node itself, `negamax` in `alphabeta.rs`, carries them out.

use cozy_chess::{BitBoard, Color, Move, Piece, Square};

use crate::params::*;
use crate::position::Position;

use crate::tt::{Bound, TtEntry};

use super::movepick::{MovePicker, Picked, Stage};
use super::ordering::{cont_key, QuietContext, QuietsTried, NO_CONT};
use super::searcher::Searcher;
use super::see::see_ge;
use super::settings::PruningOptions;
use super::why::WhyKind;

/// The captures a node searched before its cutoff (at most [`CapturesTried::CAP`]; later
/// ones are not remembered), for the capture history.
pub(super) struct CapturesTried {
    pub(super) list: [(Piece, Square, Piece); CapturesTried::CAP],
    pub(super) len: usize,
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
    pub(super) fn push(&mut self, capture: (Piece, Square, Piece)) {
        if self.len < Self::CAP {
            self.list[self.len] = capture;
            self.len += 1;
        }
    }

    #[inline]
    pub(super) fn as_slice(&self) -> &[(Piece, Square, Piece)] {
        &self.list[..self.len]
    }
}

/// What a node is, fixed by its first steps; the step functions read it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// Distance from the root.
    pub(super) ply: usize,
    pub(super) root: bool,
    /// A node with an open window (beta - alpha > 1), on the principal variation.
    pub(super) pv_node: bool,
    /// A zero-window node that its parent expects to fail high (Stockfish's `cutNode`): the
    /// reduced searches of late moves and the null move's reply alternate it.
    pub(super) cut_node: bool,
    pub(super) in_check: bool,
    /// `lull why`: the node is on the watched line (see `why.rs`).
    pub(super) on_line: bool,
}

/// A step that ends its node: the score it returns, and what `lull why` notes of it (nothing
/// when the search was stopped).
pub(super) struct Cut {
    pub(super) score: i32,
    pub(super) why: Option<WhyKind>,
}

impl Cut {
    /// The search was stopped inside the step: the node ends, its score unused.
    const STOPPED: Self = Self {
        score: 0,
        why: None,
    };
}

/// What the move loop of a node reads and never changes (Steps 13 to 16).
pub(super) struct MoveLoop {
    pub(super) node: Node,
    pub(super) depth: i32,
    /// The evaluation the pruning decisions use (Step 6).
    pub(super) eval: i32,
    pub(super) improving: bool,
    /// Quiet moves tried before late move pruning drops the rest.
    pub(super) lmp_limit: i32,
    pub(super) check_squares: [BitBoard; 6],
    /// The watched line's move at this node, if the node is on the line.
    pub(super) line_move: Option<Move>,
    /// The previous two moves, for the counter-move and continuation histories.
    pub(super) ctx: QuietContext,
    pub(super) us: Color,
    pub(super) pruning: PruningOptions,
    pub(super) capture_history: bool,
    /// The move tried first (the TT move, at the root the best so far).
    pub(super) tt_move: Option<Move>,
    /// The TT move is a capture or a promotion.
    pub(super) tt_noisy: bool,
    /// Plies added to (or taken from) the TT move's search: its singular extension.
    pub(super) tt_extension: i32,
    /// The move the node leaves out (while a singular extension tests the others).
    pub(super) excluded: Option<Move>,
}

/// What the shallow pruning (Step 14) makes of a move; a skipped move carries what `lull
/// why` notes of it when it is the watched line's move.
pub(super) enum Prune {
    /// Search the move.
    Search,
    /// Skip this move.
    Skip(Option<WhyKind>),
    /// Skip this move and every quiet move after it (late move pruning).
    SkipQuiets(Option<WhyKind>),
}

/// The moves a node searched before its cutoff, which the cutoff punishes (Step 16).
#[derive(Default)]
pub(super) struct Tried {
    pub(super) quiets: QuietsTried,
    pub(super) captures: CapturesTried,
}

/// One move of the loop, as Steps 14 to 16 see it.
#[derive(Clone, Copy)]
pub(super) struct LoopMove {
    pub(super) mv: Move,
    pub(super) stage: Stage,
    /// Neither a capture nor a promotion.
    pub(super) quiet: bool,
    /// Its continuation key (moving piece and square).
    pub(super) key: usize,
    /// Plies added to (or taken from) its search: the singular extension of the TT move.
    pub(super) extension: i32,
    /// (moving piece, square, victim) of a capture, when the capture history is on.
    pub(super) capture: Option<(Piece, Square, Piece)>,
}

impl Prune {
    /// `Skip` when `prunes`, noting `why` when the move is on the watched line; else `Search`.
    #[inline(always)]
    fn skip_if(prunes: bool, on_line: bool, why: WhyKind) -> Self {
        if prunes {
            Self::Skip(on_line.then_some(why))
        } else {
            Self::Search
        }
    }
}

impl Searcher {
    /// Step 13. What the move loop of `node` reads: its depth, eval and trend, the late
    /// move pruning limit, the check squares, the watched line's move, the history context,
    /// the TT move (its extension is the caller's to set) and the excluded move.
    pub(super) fn move_loop(
        &self,
        pos: &Position,
        node: Node,
        depth: i32,
        eval: i32,
        improving: bool,
        tt_move: Option<Move>,
    ) -> MoveLoop {
        let ply = node.ply;
        MoveLoop {
            node,
            depth,
            eval,
            improving,
            lmp_limit: (self.options.tunables[Tunable::LmpBase] + depth * depth)
                / if improving {
                    1
                } else {
                    LMP_NOT_IMPROVING_DIVISOR
                },
            check_squares: pos.check_squares(),
            line_move: node
                .on_line
                .then(|| self.record.why.as_deref().and_then(|w| w.line_move(ply)))
                .flatten(),
            ctx: self.stack.quiet_context(ply),
            us: pos.side_to_move(),
            pruning: self.options.pruning,
            capture_history: self.tables.use_capture_history,
            tt_move,
            tt_noisy: tt_move.is_some_and(|mv| pos.is_capture(mv) || mv.promotion.is_some()),
            tt_extension: 0,
            excluded: self.stack[ply].excluded,
        }
    }

    /// Step 7. Razoring: far below alpha at low depth, only a capture could lift the node
    /// to alpha; when the quiescence search says none does, the node fails low at once.
    pub(super) fn razoring(
        &mut self,
        pos: &mut Position,
        ply: usize,
        depth: i32,
        eval: i32,
        alpha: i32,
    ) -> Option<Cut> {
        let margin = RAZOR_MARGIN_BASE + self.options.tunables[Tunable::RazorMargin] * depth;
        if !self.options.pruning.razoring
            || depth > RAZOR_MAX_DEPTH
            || alpha.abs() >= TB_BOUND
            || eval + margin >= alpha
        {
            return None;
        }
        let score = self.horizon(pos, alpha, alpha + 1, ply);
        if self.clock.stopped {
            return Some(Cut::STOPPED);
        }
        (score <= alpha).then_some(Cut {
            score,
            why: Some(WhyKind::Razored { eval, margin }),
        })
    }

    /// Step 8. Reverse futility pruning: far above beta at low depth, a quiet move will not
    /// bring the score below it.
    #[inline]
    pub(super) fn reverse_futility(
        &self,
        depth: i32,
        eval: i32,
        beta: i32,
        improving: bool,
    ) -> Option<Cut> {
        let t = &self.options.tunables;
        let margin = t[Tunable::RfpMargin] * (depth - i32::from(improving));
        let prunes = self.options.pruning.reverse_futility
            && depth <= t[Tunable::RfpMaxDepth]
            && eval - margin >= beta
            && eval.abs() < TB_BOUND;
        prunes.then_some(Cut {
            score: (eval + beta) / 2,
            why: Some(WhyKind::ReverseFutility { eval, margin }),
        })
    }

    /// Step 9. Null-move pruning: if passing still fails high with a reduced search, a real
    /// move will too (not in pawn endings: zugzwang). Deep enough, the fail high is verified
    /// by the same reduced search without the null move.
    pub(super) fn null_move(
        &mut self,
        pos: &mut Position,
        ply: usize,
        depth: i32,
        eval: i32,
        beta: i32,
        cut_node: bool,
    ) -> Option<Cut> {
        let pruning = self.options.pruning;
        if !pruning.null_move
            || depth < NMP_MIN_DEPTH
            || eval < beta
            || self.stack[ply].after_null
            || pos.only_pawns(pos.side_to_move())
            || beta.abs() >= TB_BOUND
        {
            return None;
        }
        let t = &self.options.tunables;
        let r = t[Tunable::NmpBaseReduction]
            + depth / t[Tunable::NmpDepthDivisor].max(1)
            + ((eval - beta) / t[Tunable::NmpEvalDivisor].max(1))
                .min(pruning.null_move_eval_reduction_max);
        if !self.make_null(pos) {
            return None;
        }
        self.stack[ply + 1].after_null = true;
        self.stack[ply].cont_key = NO_CONT;
        self.stack[ply].quiet_move = None;
        let score = -self.negamax(pos, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
        self.stack[ply + 1].after_null = false;
        pos.undo();
        if self.clock.stopped {
            return Some(Cut::STOPPED);
        }
        if score < beta {
            return None;
        }
        let score = if score >= TB_BOUND { beta } else { score };
        let verified = depth < NMP_VERIFY_DEPTH || {
            self.stack[ply].after_null = true;
            let v = self.negamax(pos, beta - 1, beta, depth - 1 - r, ply, false);
            self.stack[ply].after_null = false;
            v >= beta
        };
        verified.then_some(Cut {
            score,
            why: Some(WhyKind::NullMove { score }),
        })
    }

    /// Step 10. ProbCut: a capture that beats beta by a margin in a shallow search (first
    /// the quiescence search, then depth - PROBCUT_REDUCTION) would beat beta in the full
    /// search too. Only captures whose SEE can reach the raised beta from the static eval
    /// are tried (the ProbCut picker); a TT entry from nearly as deep a search that scored
    /// below the raised beta says it will not work. A cut is stored in the TT.
    pub(super) fn probcut(
        &mut self,
        pos: &mut Position,
        node: &Node,
        depth: i32,
        beta: i32,
        static_eval: i32,
        entry: Option<&TtEntry>,
    ) -> Option<Cut> {
        let ply = node.ply;
        let probcut_beta = beta + self.options.tunables[Tunable::ProbcutMargin];
        if !self.options.pruning.probcut
            || depth < PROBCUT_MIN_DEPTH
            || beta.abs() >= TB_BOUND
            || entry.is_some_and(|e| {
                e.depth >= depth - PROBCUT_TT_DEPTH_MARGIN && e.score < probcut_beta
            })
        {
            return None;
        }
        let tt_move = entry.and_then(|e| e.mv);
        let mut picker = MovePicker::probcut(pos, tt_move, probcut_beta - static_eval);
        let pc_depth = depth - PROBCUT_REDUCTION;
        while let Some(Picked { mv, .. }) = picker.next(pos, &self.tables) {
            let mover = pos.board().piece_on(mv.from);
            self.stack[ply].cont_key =
                mover.map_or(NO_CONT, |p| cont_key(pos.side_to_move(), p, mv.to));
            self.stack[ply].quiet_move = None;
            self.make_move(pos, mv);
            let (a, b) = (-probcut_beta, -probcut_beta + 1);
            let mut score = -self.negamax(pos, a, b, 0, ply + 1, !node.cut_node);
            if score >= probcut_beta && pc_depth > 0 {
                score = -self.negamax(pos, a, b, pc_depth, ply + 1, !node.cut_node);
            }
            pos.undo();
            if self.clock.stopped {
                return Some(Cut::STOPPED);
            }
            if score >= probcut_beta {
                let key = pos.hash();
                let stored_depth = pc_depth + 1;
                self.shared.tt.store(
                    key,
                    Some(mv),
                    score,
                    self.stack[ply].raw_eval,
                    stored_depth,
                    Bound::Lower,
                    ply,
                );
                return Some(Cut {
                    score,
                    why: Some(WhyKind::ProbCut { score }),
                });
            }
        }
        None
    }

    /// Step 14. Shallow pruning of one move: whether it is searched, skipped, or skipped with
    /// the remaining quiet moves (late move pruning), and what `lull why` notes when it is
    /// the watched line's move.
    #[inline(always)]
    pub(super) fn prune_move(
        &self,
        pos: &Position,
        l: &MoveLoop,
        m: &LoopMove,
        alpha: i32,
        tried: &Tried,
        searched: usize,
    ) -> Prune {
        let (depth, mv) = (l.depth, m.mv);
        let on_line = l.line_move == Some(mv);
        let gives_check = || pos.may_give_check(mv, &l.check_squares);
        let t = &self.options.tunables;
        if !m.quiet {
            // SEE pruning of badly losing captures.
            let prunes = l.pruning.see
                && depth <= SEE_CAPTURE_MAX_DEPTH
                && matches!(m.stage, Stage::BadCaptures | Stage::UnderPromotions)
                && !see_ge(
                    pos.board(),
                    mv,
                    -t[Tunable::SeeCaptureMargin] * depth * depth,
                )
                && !gives_check();
            return Prune::skip_if(prunes, on_line, WhyKind::SeePruned);
        }
        // Late move pruning: enough quiet moves tried at low depth; the picker drops the
        // remaining quiet moves at once instead of yielding them. In `TacticalMode` only this
        // move is dropped, and only when it cannot give check.
        let keeps_checks = l.pruning.late_move_pruning_keeps_checks;
        if l.pruning.late_move_pruning
            && depth <= LMP_MAX_DEPTH
            && tried.quiets.len() as i32 >= l.lmp_limit
            && (!keeps_checks || !gives_check())
        {
            let dropped = |lm: Move| {
                if keeps_checks {
                    lm == mv
                } else {
                    !pos.is_capture(lm)
                        && lm.promotion.is_none()
                        && !tried.quiets.iter().any(|(q, _)| q == lm)
                }
            };
            let why = l
                .line_move
                .is_some_and(dropped)
                .then(|| WhyKind::LateMovePruned {
                    quiets_tried: tried.quiets.len() as i32,
                    limit: l.lmp_limit,
                });
            return if keeps_checks {
                Prune::Skip(why)
            } else {
                Prune::SkipQuiets(why)
            };
        }
        // The depth this move would be searched to if the table alone reduced it: futility
        // and SEE pruning judge a late move by it, as Stockfish and Ethereal do.
        let lmr_depth = (depth - self.lmr.get(depth, searched + 1)).max(0);
        // Futility pruning: the eval plus a margin cannot reach alpha.
        let margin = t[Tunable::FpBase] + t[Tunable::FpPerDepth] * lmr_depth;
        if l.pruning.futility
            && lmr_depth <= t[Tunable::FpMaxDepth]
            && !l.node.pv_node
            && l.eval + margin <= alpha
            && !gives_check()
        {
            let why = WhyKind::Futility {
                eval: l.eval,
                margin,
            };
            return Prune::Skip(on_line.then_some(why));
        }
        // History pruning: a late quiet move whose history says such moves fail here (not
        // killers or the counter-move, not checks).
        if l.pruning.late_move_pruning && l.pruning.history_pruning && m.stage == Stage::Quiets {
            let limit = -t[Tunable::HpMargin] * lmr_depth;
            if lmr_depth <= t[Tunable::HpMaxDepth] && !gives_check() {
                let history = self.tables.quiet_score(l.us, mv, m.key, l.ctx);
                if history < limit {
                    let why = WhyKind::HistoryPruned { history, limit };
                    return Prune::Skip(on_line.then_some(why));
                }
            }
        }
        // SEE pruning of quiet moves onto attacked squares (not checks: a checking sacrifice
        // is the stuff of tactics).
        let prunes = l.pruning.see
            && depth <= SEE_QUIET_MAX_DEPTH
            && !see_ge(
                pos.board(),
                mv,
                -t[Tunable::SeeQuietMargin] * lmr_depth * lmr_depth,
            )
            && !gives_check();
        Prune::skip_if(prunes, on_line, WhyKind::SeePruned)
    }

    /// Late move reductions: plies by which a late quiet move (not a check) is searched
    /// shallower first, from the table by depth and move number, less on the PV and for
    /// killers, more when not improving, less for a good history.
    #[inline]
    pub(super) fn reduction(
        &self,
        l: &MoveLoop,
        m: &LoopMove,
        searched: usize,
        gives_check: bool,
    ) -> i32 {
        if !l.pruning.late_move_reductions
            || l.depth < LMR_MIN_DEPTH
            || searched <= usize::from(l.node.pv_node)
            || !m.quiet
            || gives_check
        {
            return 0;
        }
        let mut r = self.lmr.get(l.depth, searched);
        r -= i32::from(l.node.pv_node);
        r -= i32::from(m.stage <= Stage::Killers);
        r += i32::from(!l.improving);
        let t = &self.options.tunables;
        if l.pruning.cut_node_reductions {
            r += t[Tunable::LmrCutNode] * i32::from(l.node.cut_node);
            r += t[Tunable::LmrTtCapture] * i32::from(l.tt_noisy);
        }
        r -= self.tables.quiet_score(l.us, m.mv, m.key, l.ctx)
            / t[Tunable::LmrHistoryDivisor].max(1);
        r.clamp(0, l.depth - 2)
    }
}

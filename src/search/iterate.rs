//! Iterative deepening on one thread: depth after depth, each through an aspiration window
//! and, with `MultiPV`, once per line; the main thread reports each iteration and asks the
//! time manager whether to start another.

use std::sync::atomic::Ordering;

use crate::params::{self, MATE, MATE_BOUND, MAX_DEPTH, TM_SCORE_LOOKBACK};
use crate::position::Position;
use crate::time::SearchProgress;

use cozy_chess::Move;

use super::report::{
    IterationReport, ReportSink, RootLine, ScoreBound, SearchReport, SearchResult,
};
use super::searcher::Searcher;

impl Searcher {
    /// Iterative deepening on this thread. The main thread reports and decides when to stop.
    pub(super) fn iterate(&mut self, pos: &mut Position, searchmoves: &[Move]) -> SearchResult {
        self.reset_counters();
        self.tables.use_capture_history = self.options.capture_history;
        self.clock.stopped = false;
        self.root.seldepth = 0;
        let legal = pos.legal_moves();
        self.root.moves = if searchmoves.is_empty() {
            legal.clone()
        } else {
            legal
                .iter()
                .copied()
                .filter(|m| searchmoves.contains(m))
                .collect()
        };
        if self.root.moves.is_empty() {
            self.root.moves = legal;
        }
        self.setup_tablebases(pos);
        let mut result = SearchResult::default();
        if self.root.moves.is_empty() {
            // Checkmate or stalemate at the root: nothing to search.
            result.score = if pos.in_check() { -MATE } else { 0 };
            if let Some(report) = self.record.report.as_ref().filter(|_| self.is_main()) {
                report(&SearchReport::NoLegalMove {
                    score: result.score,
                });
            }
            return result;
        }
        result.best_move = Some(self.root.moves[0]);
        self.stack.clear();
        self.root.last_pv.clear();
        let max_depth = self
            .clock
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        // MultiPV: line k searches the root moves that are not the best of lines 0..k. Only
        // the main thread does it; helpers search every move for the best one.
        let all_root = std::mem::take(&mut self.root.moves);
        let multipv = if self.is_main() {
            self.options.multipv.clamp(1, all_root.len())
        } else {
            1
        };
        let mut prev_scores = vec![0; multipv];
        // For the time manager: how long the best move has stood, and the scores so far.
        let mut stability = 0usize;
        let mut scores: Vec<i32> = Vec::new();
        for depth in 1..=max_depth {
            // Lazy SMP: a helper leaves some iterations to the others (see SMP_SKIP_SIZE);
            // the last one is always searched, so a depth-limited search completes it.
            if !self.is_main() && depth < max_depth && self.helper_skips(depth) {
                continue;
            }
            self.root.depth = depth;
            if let Some(w) = self.record.why.as_deref_mut() {
                w.iteration = depth;
            }
            let mut lines: Vec<RootLine> = Vec::with_capacity(multipv);
            self.root.nodes.clear();
            for (k, prev_score) in prev_scores.iter_mut().enumerate() {
                self.root.moves = all_root
                    .iter()
                    .copied()
                    .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                    .collect();
                self.root.best = None;
                if k == 0 {
                    self.root.seldepth = 0;
                }
                let score = self.aspiration(pos, depth, *prev_score);
                if self.clock.stopped {
                    if k == 0 {
                        // An aborted iteration still yields a move if one was fully
                        // searched and raised alpha: it is at least as good as the previous
                        // best.
                        if let Some((mv, s, bound)) = self.root.best {
                            if Some(mv) != result.best_move {
                                result.best_found_depth = depth;
                                result.best_found_ms = self.clock.time.elapsed_ms();
                            }
                            result.best_move = Some(mv);
                            result.score = self.root.shown_score(s);
                            let pv = self.pv.root_line(pos);
                            result.pv = if pv.first() == Some(&mv) {
                                pv
                            } else {
                                vec![mv]
                            };
                            result.lines.clear();
                            result.pv_depth = depth;
                            result.bound = bound;
                        }
                    }
                    break;
                }
                *prev_score = score;
                let pv = self.pv.root_line(pos);
                let best = pv.first().copied().or(self.root.best.map(|(m, _, _)| m));
                let Some(best) = best else { break };
                lines.push(RootLine {
                    score: self.root.shown_score(score),
                    pv: if pv.is_empty() { vec![best] } else { pv },
                });
            }
            // Line 0 is complete: it is this iteration's result even if a later line was
            // cut short by the clock.
            if lines.is_empty() {
                break;
            }
            // A later line can score above an earlier one (search instability): best first.
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            let first = &lines[0];
            let best = first.pv[0];
            if Some(best) == result.best_move {
                stability += 1;
            } else {
                stability = 0;
            }
            scores.push(first.score);
            if Some(best) != result.best_move || depth == 1 {
                result.best_found_depth = depth;
                result.best_found_ms = self.clock.time.elapsed_ms();
            }
            result.best_move = Some(best);
            result.score = first.score;
            result.depth = depth;
            result.pv_depth = depth;
            result.bound = ScoreBound::Exact;
            result.seldepth = self.root.seldepth;
            result.pv = first.pv.clone();
            self.root.last_pv.clone_from(&result.pv);
            result.lines = if multipv > 1 { lines } else { Vec::new() };
            if self.is_main() {
                let before = scores[scores.len().saturating_sub(TM_SCORE_LOOKBACK + 1)];
                let progress = SearchProgress {
                    stability,
                    score_change: (result.score - before)
                        .clamp(-params::TM_SCORE_CHANGE_MAX, params::TM_SCORE_CHANGE_MAX),
                    best_move_effort: self.root.effort(best),
                };
                let last = depth == max_depth
                    || self.clock.stopped
                    || self.should_stop_after_iteration(&result, all_root.len(), &progress);
                if last {
                    // The helpers stop now, not after the report: they must not search on
                    // past the main thread's last iteration.
                    self.stop_helpers();
                }
                self.report_iteration(&result);
                // The report's sink may have stopped the search (a soft node limit).
                if last || self.shared.stop_requested() {
                    break;
                }
            }
        }
        self.root.moves = all_root;
        result.nodes = self.nodes();
        result.stats = self.record.stats.clone();
        result
    }

    /// The main thread's search is over: the helpers stop, unless the search waits for
    /// `stop` or `ponderhit` (they go on helping until then).
    fn stop_helpers(&self) {
        if !self.clock.limits.infinite && !self.shared.pondering() {
            self.shared.control.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Whether this helper thread skips the iteration at `depth` (never the main thread).
    pub(super) fn helper_skips(&self, depth: i32) -> bool {
        let i = self.thread_id.saturating_sub(1) % params::SMP_SKIP_SIZE.len();
        ((depth + params::SMP_SKIP_PHASE[i]) / params::SMP_SKIP_SIZE[i]) % 2 == 1
    }

    /// Searches the root in a narrow window around the previous score, widening it on a
    /// fail (aspiration windows); shallow iterations use the full window.
    pub(super) fn aspiration(&mut self, pos: &mut Position, depth: i32, prev: i32) -> i32 {
        let inf = params::INFINITY;
        if depth < params::ASPIRATION_MIN_DEPTH || prev.abs() >= params::TB_BOUND {
            return self.negamax(pos, -inf, inf, depth, 0, false);
        }
        let mut delta = self.options.tunables[params::Tunable::AspirationWindow];
        let mut alpha = (prev - delta).max(-inf);
        let mut beta = (prev + delta).min(inf);
        loop {
            let score = self.negamax(pos, alpha, beta, depth, 0, false);
            if self.clock.stopped {
                return score;
            }
            if score <= alpha {
                self.report_bound(pos, depth, score, ScoreBound::Upper);
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-inf);
            } else if score >= beta {
                self.report_bound(pos, depth, score, ScoreBound::Lower);
                beta = (score + delta).min(inf);
            } else {
                return score;
            }
            // (The field is public: whatever it holds, the window grows.)
            delta += (delta / self.options.aspiration_growth_divisor.max(1)).max(1);
            if delta > params::ASPIRATION_MAX_DELTA {
                alpha = -inf;
                beta = inf;
            }
        }
    }

    pub(super) fn should_stop_after_iteration(
        &self,
        result: &SearchResult,
        root_moves: usize,
        progress: &SearchProgress,
    ) -> bool {
        if self.shared.stop_requested() {
            return true;
        }
        // `go mate N`: a mate in at most N moves, and the shortest one: an iteration as deep
        // as the mate is long has searched every shorter mate too.
        if let Some(m) = self.clock.limits.mate {
            let plies = MATE - result.score;
            if result.score >= MATE_BOUND && (plies + 1) / 2 <= m && result.depth >= plies {
                return true;
            }
        }
        let pondering = self.shared.pondering();
        if pondering || self.clock.limits.infinite {
            return false;
        }
        if self.clock.ponder_pending {
            // ponderhit arrived between polls: the clock starts now.
            return false;
        }
        // Under a clock, a mate proven with plies to spare will not change: answer at once
        // and keep the time. A fixed budget (`movetime`, `depth`, `nodes`) is searched in
        // full, as Stockfish does: the deeper iterations may still find a shorter mate.
        if self.clock.limits.uses_clock()
            && result.score.abs() >= MATE_BOUND
            && result.depth >= MATE - result.score.abs() + params::TM_MATE_SPARE_PLIES
        {
            return true;
        }
        if self
            .clock
            .limits
            .nodes
            .is_some_and(|n| self.total_nodes() >= n)
        {
            return true;
        }
        if self.clock.limits.uses_clock()
            && root_moves == 1
            && result.depth >= params::TM_SINGLE_MOVE_DEPTH
        {
            return true;
        }
        self.clock.time.soft_expired_after(progress)
    }

    /// Whether progress reports go out now: on the main thread, with a sink, after
    /// `progress_after_ms`.
    pub(super) fn progress_sink(&self) -> Option<&ReportSink> {
        let sink = self.record.report.as_ref().filter(|_| self.is_main())?;
        (self.clock.time.elapsed_ms() >= self.options.progress_after_ms).then_some(sink)
    }

    /// Reports a failed aspiration search of a single-line search (UCI `lowerbound` or
    /// `upperbound`) with the root PV as it stands, after the first second.
    fn report_bound(&self, pos: &Position, depth: i32, score: i32, bound: ScoreBound) {
        if self.options.multipv > 1 {
            return;
        }
        let Some(report) = self.progress_sink() else {
            return;
        };
        // A fail high has a new PV; a fail low none, so the last iteration's is shown.
        let mut pv = self.pv.root_line(pos);
        if pv.is_empty() || bound == ScoreBound::Upper {
            pv.clone_from(&self.root.last_pv);
        }
        if pv.is_empty() {
            return;
        }
        let time_ms = self.clock.time.searched_ms();
        let nodes = self.total_nodes();
        let score = self.root.shown_score(score);
        report(&SearchReport::Iteration(IterationReport {
            depth,
            seldepth: self.root.seldepth.max(depth as usize),
            score,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            bound,
            time_ms,
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.tb_hits(),
            pv: pv.clone(),
            lines: vec![RootLine { score, pv }],
        }));
    }

    /// Sends the report of a completed iteration (with `MultiPV`, all its lines).
    pub(super) fn report_iteration(&self, r: &SearchResult) {
        let Some(report) = &self.record.report else {
            return;
        };
        let time_ms = self.clock.time.searched_ms();
        let nodes = self.total_nodes();
        let lines = if r.lines.is_empty() {
            vec![RootLine {
                score: r.score,
                pv: r.pv.clone(),
            }]
        } else {
            r.lines.clone()
        };
        report(&SearchReport::Iteration(IterationReport {
            depth: r.depth,
            seldepth: r.seldepth.max(r.depth as usize),
            score: r.score,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            bound: ScoreBound::Exact,
            time_ms,
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.tb_hits(),
            pv: r.pv.clone(),
            lines,
        }));
    }
}

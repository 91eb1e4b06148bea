//! One search thread's state ([`Searcher`]) and what every step of both searches shares:
//! the node counter and the clock (`poll`), the principal variation, the root's tablebase
//! ranking, the one static evaluation and the make-move hooks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use cozy_chess::Move;

use crate::params::{Tunable, LMR_BASE, LMR_DIVISOR, MATE_BOUND, MAX_PLY, POLL_NODES};
use crate::position::Position;
use crate::tablebase::Tablebases;
use crate::time::{Limits, TimeManager};
use crate::tt::TranspositionTable;

use super::control::Control;
use super::lmr::LmrTable;
use super::ordering::OrderingTables;
use super::report::{ReportSink, ScoreBound};
use super::settings::SearchOptions;
use super::stack::{NnueStack, SearchStack};
use super::stats::SearchStats;
use super::trace::QTrace;
use super::why::WhyTrace;

/// One search thread's state.
pub struct Searcher {
    /// The shared transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Stop and ponder flags.
    pub control: Arc<Control>,
    /// Options of this search.
    pub options: SearchOptions,
    /// Counters of the current search.
    pub stats: SearchStats,
    /// Killers and history.
    pub tables: OrderingTables,
    pub(super) pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// What each ply of the current line remembers (static eval, move, null move).
    pub(crate) stack: SearchStack,
    /// The NNUE accumulators of the current line (inactive with `Use NNUE` off).
    pub(crate) nnue: NnueStack,
    pub(super) time: TimeManager,
    pub(super) limits: Limits,
    pub(super) seldepth: usize,
    /// Depth of the iteration being searched (extensions stop at twice this ply).
    pub(super) root_depth: i32,
    pub(super) stopped: bool,
    pub(super) thread_id: usize,
    pub(super) node_counters: Arc<Vec<AtomicU64>>,
    /// This thread polls when its node count has these bits clear: every
    /// [`poll_interval`] nodes.
    pub(super) poll_mask: u64,
    pub(super) root_moves: Vec<Move>,
    /// Pondering and no `ponderhit` seen yet.
    pub(super) ponder_pending: bool,
    /// The PV of the last completed iteration (shown with a fail-low bound).
    pub(super) last_pv: Vec<Move>,
    /// Best root move and score found so far in the current iteration, and whether that
    /// score is exact or (a fail high of the root window) a lower bound.
    pub(super) root_best: Option<(Move, i32, ScoreBound)>,
    /// Nodes spent on each root move in the current iteration (for the time manager).
    pub(super) root_nodes: Vec<(Move, u64)>,
    /// Quiescence nodes at the start of the current search (for `QSearchMaxNodes`).
    pub(super) qnodes_at_start: u64,
    pub(super) report: Option<ReportSink>,
    /// Recorded quiescence tree, when tracing (`lull qtree`).
    pub(crate) trace: Option<Vec<QTrace>>,
    pub(crate) trace_move: Option<Move>,
    pub(crate) trace_limit: usize,
    pub(crate) trace_truncated: bool,
    /// The Syzygy tables (none unless `SyzygyPath` is set).
    pub(crate) tb: Arc<Tablebases>,
    /// Pieces up to which the search probes them in this search (0: not at all).
    pub(crate) tb_limit: usize,
    /// Tablebase hits of all threads in the current search.
    pub(super) tb_hits: Arc<AtomicU64>,
    /// The root's tablebase score when the root moves were ranked by DTZ.
    pub(super) root_tb_score: Option<i32>,
    /// `lull why`: the line being watched in the main search, and what happened on it.
    pub(crate) why: Option<Box<WhyTrace>>,
    /// The late-move reduction table of the options' `LmrBase` and `LmrDivisor`.
    pub(super) lmr: LmrTable,
}

/// Nodes between two polls of each of `threads` search threads (a power of two): see
/// [`POLL_NODES`].
pub fn poll_interval(threads: usize) -> u64 {
    (POLL_NODES / (threads.max(1) as u64).next_power_of_two()).max(1)
}

impl Searcher {
    /// Takes the options of the next search (rebuilding the reduction table when its
    /// tunable numbers changed).
    pub(super) fn set_options(&mut self, options: SearchOptions) {
        let (base, divisor) = (
            options.tunables[Tunable::LmrBase],
            options.tunables[Tunable::LmrDivisor],
        );
        if !self.lmr.is_for(base, divisor) {
            self.lmr = LmrTable::new(base, divisor);
        }
        self.options = options;
    }

    pub(super) fn new(
        tt: Arc<TranspositionTable>,
        control: Arc<Control>,
        thread_id: usize,
        node_counters: Arc<Vec<AtomicU64>>,
        tb: Arc<Tablebases>,
        tb_hits: Arc<AtomicU64>,
    ) -> Self {
        Self {
            tt,
            control,
            options: SearchOptions::default(),
            stats: SearchStats::default(),
            tables: OrderingTables::new(),
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            stack: SearchStack::new(),
            nnue: NnueStack::default(),
            time: TimeManager::new(&Limits::default(), cozy_chess::Color::White, 0),
            limits: Limits::default(),
            seldepth: 0,
            root_depth: 0,
            stopped: false,
            thread_id,
            node_counters,
            poll_mask: POLL_NODES - 1,
            root_moves: Vec::new(),
            ponder_pending: false,
            last_pv: Vec::new(),
            root_best: None,
            root_nodes: Vec::new(),
            qnodes_at_start: 0,
            report: None,
            trace: None,
            trace_move: None,
            trace_limit: 0,
            trace_truncated: false,
            tb,
            tb_limit: 0,
            tb_hits,
            root_tb_score: None,
            why: None,
            lmr: LmrTable::new(LMR_BASE, LMR_DIVISOR),
        }
    }

    /// Counts one tablebase hit.
    #[inline]
    pub(crate) fn add_tb_hit(&self) {
        self.tb_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// Sets up the tablebases for a search of `pos`: the piece limit of the probes below the
    /// root and, on the main thread, Stockfish's root probing. When the root is covered and
    /// its moves can be ranked by DTZ, only the best-ranked moves stay (so that a won
    /// position is converted and a drawn one held) and the search itself does not probe.
    pub(super) fn setup_tablebases(&mut self, pos: &Position) {
        self.root_tb_score = None;
        self.tb_limit = self.options.syzygy_probe_limit.min(self.tb.max_pieces());
        if self.tb_limit == 0 {
            return;
        }
        let board = pos.board();
        if board.occupied().len() as usize > self.tb_limit
            || crate::tablebase::has_castling_rights(board)
        {
            return;
        }
        let repeated = pos.is_repetition(usize::MAX);
        let Some(ranked) = self.tb.rank_root(
            board,
            &self.root_moves,
            repeated,
            self.options.syzygy_50_move_rule,
        ) else {
            return;
        };
        if self.is_main() {
            self.tb_hits
                .fetch_add(ranked.len() as u64, Ordering::Relaxed);
        }
        let best = ranked[0].rank;
        self.root_moves = ranked
            .iter()
            .filter(|r| r.rank == best)
            .map(|r| r.mv)
            .collect();
        self.root_tb_score = Some(ranked[0].score);
        self.tb_limit = 0;
    }

    /// The score to show for a root line: the root's tablebase score when its moves were
    /// ranked by DTZ and the search found no mate.
    pub(super) fn shown_score(&self, score: i32) -> i32 {
        match self.root_tb_score {
            Some(tb) if score.abs() < MATE_BOUND => tb,
            _ => score,
        }
    }

    pub(super) fn is_main(&self) -> bool {
        self.thread_id == 0
    }

    /// Nodes searched by this thread in the current search.
    pub fn nodes(&self) -> u64 {
        self.stats.nodes()
    }

    pub(super) fn total_nodes(&self) -> u64 {
        let mut total = self.nodes();
        for (i, c) in self.node_counters.iter().enumerate() {
            if i != self.thread_id {
                total += c.load(Ordering::Relaxed);
            }
        }
        total
    }

    /// Called at every node: every [`poll_interval`] nodes publishes the node count and
    /// checks the stop flag, the node limit of all threads together and (the main thread)
    /// the clock. Returns true when the search must unwind.
    #[inline]
    pub(crate) fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let nodes = self.nodes();
        if nodes & self.poll_mask == 0 {
            self.node_counters[self.thread_id].store(nodes, Ordering::Relaxed);
            if self.control.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else {
                let mut out_of_time = false;
                if self.is_main() {
                    let pondering = self.control.pondering.load(Ordering::Relaxed);
                    if self.ponder_pending && !pondering {
                        self.ponder_hit();
                    }
                    out_of_time = !pondering && self.time.hard_expired();
                }
                // Any thread may find the node limit reached: the helpers' nodes count too.
                let out_of_nodes = self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
                if out_of_time || out_of_nodes {
                    self.stopped = true;
                    self.control.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped
    }

    /// The ponder hit (the main thread saw `pondering` cleared): our clock runs from now,
    /// with the limits the front end gave at the hit, if any.
    #[cold]
    fn ponder_hit(&mut self) {
        self.ponder_pending = false;
        // Pairs with the store that cleared `pondering`, which came after the limits were set.
        std::sync::atomic::fence(Ordering::Acquire);
        let given = self
            .control
            .hit_limits
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(limits) = &given {
            self.limits = Limits {
                ponder: false,
                ..limits.clone()
            };
        }
        self.time.restart(given.as_ref());
    }

    /// Adds `nodes` to the effort spent on root move `mv` in this iteration.
    pub(crate) fn add_root_nodes(&mut self, mv: Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((mv, nodes)),
        }
    }

    /// Share of this iteration's root nodes spent on `mv` (0..=1).
    pub(super) fn root_effort(&self, mv: Move) -> f64 {
        let total: u64 = self.root_nodes.iter().map(|(_, n)| n).sum();
        let best = self
            .root_nodes
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |(_, n)| *n);
        best as f64 / total.max(1) as f64
    }

    /// Copies the child's PV behind `mv` into this ply's PV.
    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, mv: Move) {
        if ply >= MAX_PLY {
            return;
        }
        self.pv[ply][0] = Some(mv);
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// The root PV, checked for legality move by move (truncated at the first illegal move).
    pub(super) fn root_pv(&self, pos: &Position) -> Vec<Move> {
        let mut board = pos.board().clone();
        let mut pv = Vec::new();
        for mv in self.pv[0][..self.pv_len[0]].iter().flatten() {
            if !board.is_legal(*mv) {
                break;
            }
            board.play_unchecked(*mv);
            pv.push(*mv);
        }
        pv
    }
}

impl Searcher {
    /// The static evaluation of `pos` from the side to move's view: the network's with
    /// `Use NNUE` on, else the hand-crafted [`crate::eval::evaluate`]. Every evaluation of
    /// the search goes through here; `pos` must be a position of the current line.
    #[inline(always)]
    pub(crate) fn evaluate(&mut self, pos: &Position) -> i32 {
        if self.nnue.is_active() {
            self.nnue.evaluate(pos)
        } else {
            crate::eval::evaluate(pos.board())
        }
    }

    /// Plays a legal move on the current line ([`Position::play`]); undo with
    /// [`Position::undo`], which needs no hook.
    #[inline(always)]
    pub(crate) fn make_move(&mut self, pos: &mut Position, mv: Move) {
        pos.play(mv);
        self.tt.prefetch(pos.hash());
        if self.nnue.is_active() {
            self.nnue.played(pos);
        }
    }

    /// Passes on the current line ([`Position::play_null`]): false, and nothing done, in
    /// check.
    #[inline(always)]
    pub(crate) fn make_null(&mut self, pos: &mut Position) -> bool {
        let done = pos.play_null();
        if done {
            self.tt.prefetch(pos.hash());
        }
        if done && self.nnue.is_active() {
            self.nnue.played(pos);
        }
        done
    }
}

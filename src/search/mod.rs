//! The search: iterative deepening over a negamax alpha-beta search ([`alphabeta`]) that ends
//! in a quiescence search ([`qsearch`]), run by one or more threads sharing the
//! transposition table (Lazy SMP).
//!
//! [`Engine`] is the entry point for library users: it owns the threads' [`Searcher`]s and the
//! table, and [`Engine::search`] returns a [`SearchResult`]. Progress goes out as structured
//! [`SearchReport`]s to an optional sink: the search writes no protocol text, the front ends
//! (`crate::protocol`) format the reports as UCI `info` lines or XBoard thinking lines.

pub mod alphabeta;
pub mod movepick;
pub mod ordering;
pub mod qsearch;
pub mod see;
pub mod stack;
pub mod stats;
pub mod trace;
pub mod why;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use cozy_chess::Move;
use serde::Serialize;

use crate::nnue::Network;
use crate::params::{self, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, TM_SCORE_LOOKBACK};
use crate::position::Position;
use crate::tablebase::Tablebases;
use crate::time::{Limits, SearchProgress, TimeManager};
use crate::tt::TranspositionTable;

use ordering::OrderingTables;
pub use qsearch::NullMoveQs;
pub use see::{see, see_ge};
pub use stats::SearchStats;
pub use trace::{QEnd, QPrune, QTrace};

/// The quiescence-search variants of the literature, each switchable (UCI options `QSearch*`).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct QSearchOptions {
    /// `QSearch`: run the quiescence search at depth 0; off evaluates the leaf statically.
    pub enabled: bool,
    /// `QSearchMaxPly`: plies past the horizon before the quiescence search stops.
    pub max_ply: i32,
    /// `QSearchMaxNodes`: quiescence nodes per search before it stops descending (0 = no cap).
    pub max_nodes: u64,
    /// `QSearchChecks`: quiescence plies in which quiet checking moves are searched too.
    pub check_plies: i32,
    /// `QSearchSEE`: captures with a lower exchange value are skipped (centipawns).
    pub see_threshold: i32,
    /// `QSearchDelta`: delta-pruning margin in centipawns (0 = off).
    pub delta_margin: i32,
    /// `QSearchDeltaChecks`: delta pruning never skips a capture that gives check (a check
    /// can win more than its victim: the mate at the end of a sacrifice).
    pub delta_spares_checks: bool,
    /// `QSearchTT`: probe and store the transposition table in the quiescence search.
    pub use_tt: bool,
    /// `QSearchUnderpromotions`: also search under-promotions.
    pub underpromotions: bool,
    /// `QSearchPawnPushes`: also search quiet pawn pushes to the seventh rank.
    pub pawn_pushes: bool,
    /// `QSearchRecapturesAfter`: after this many q-plies only recaptures (0 = off).
    pub recaptures_after: i32,
    /// `QSearchNullMove`: Beal's null-move quiescence, off, at q-ply 0 or at every q-ply.
    pub null_move: NullMoveQs,
}

impl Default for QSearchOptions {
    fn default() -> Self {
        Self {
            enabled: true,
            max_ply: params::QS_MAX_PLY,
            max_nodes: params::QS_MAX_NODES,
            check_plies: params::QS_CHECK_PLIES,
            see_threshold: params::QS_SEE_THRESHOLD,
            delta_margin: params::QS_DELTA_MARGIN,
            delta_spares_checks: false,
            use_tt: true,
            underpromotions: false,
            pawn_pushes: false,
            recaptures_after: params::QS_RECAPTURES_AFTER,
            null_move: NullMoveQs::Off,
        }
    }
}

/// Options of the whole search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Quiescence-search variants.
    pub qs: QSearchOptions,
    /// Milliseconds kept aside per move for communication (`Move Overhead`).
    pub move_overhead: u64,
    /// `MultiPV`: how many best root moves to search and report, each with its own line.
    pub multipv: usize,
    /// `CaptureHistory`: order the main search's good captures by victim and capture history
    /// instead of MVV-LVA (off by default until a match says it gains).
    pub capture_history: bool,
    /// The main search's selectivity, one switch per technique.
    pub pruning: PruningOptions,
    /// `SyzygyProbeDepth`: the search probes the WDL tables only at this depth or more.
    pub syzygy_probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyProbeLimit`: positions with more pieces than this are not probed.
    pub syzygy_probe_limit: usize,
    /// `TacticalMode`: analysis settings for tactics and mate problems (see
    /// [`SearchOptions::effective`]); off for play.
    pub tactical: bool,
    /// `UCI_AnalyseMode`: the GUI analyses; the search runs with `TacticalMode`'s settings
    /// (either switch turns them on).
    pub analyse_mode: bool,
    /// Progress reports (`currmove`, aspiration fails as bounds) are sent only after this
    /// many milliseconds of a search (`params::PROGRESS_REPORT_MS`; not a UCI option).
    pub progress_after_ms: u64,
    /// After each failed aspiration search the window's half-width grows by 1 / this of
    /// itself (`params::ASPIRATION_GROWTH_DIVISOR`; set by `TacticalMode`, not a UCI option).
    pub aspiration_growth_divisor: i32,
}

impl SearchOptions {
    /// The options a search runs with. `TacticalMode` (Houdini's name for the same idea) trades
    /// playing strength for finding sacrifices and the shortest mate sooner. Each change is
    /// aimed at one way the play search hides the key move of a sacrifice (found with
    /// `lull why` and `lull solve --why`, docs/measurements.md):
    /// - no reverse futility: after a sacrifice the defender is material ahead, its eval far
    ///   above beta, and the node returned before the mating threat was searched;
    /// - the null move's reduction grows less with that lead (the null move stays: without
    ///   it the search is too shallow for the deep WAC positions);
    /// - late move pruning keeps quiet checks, and there is no futility pruning: a quiet move
    ///   that threatens mate gains more than any margin (after Bxf7+ Kd8 in
    ///   `r1b1k1nr/1p1n1pbp/p1pQ2p1/4p3/2B1PB2/2q2N2/P1P2PPP/1R1R2K1 w`, Ng5 was pruned);
    /// - the aspiration window doubles after each fail: the score of a sacrifice jumps from
    ///   about 0 to a mate in one iteration, through 11 re-searches when the window grows
    ///   by half;
    /// - the quiescence search tries quiet checks in its first ply, and delta pruning spares
    ///   checking captures (the mate after the sacrifice is often a check at the horizon).
    ///
    /// Such changes lost Elo in self-play when tried as defaults (docs/strength.md rows 25, 26,
    /// 30, 31), so this is an analysis mode, off for play; `lull solve --tactical` turns it on.
    pub fn effective(&self) -> SearchOptions {
        let mut o = self.clone();
        if o.tactical || o.analyse_mode {
            o.pruning.reverse_futility = false;
            o.pruning.null_move_eval_reduction_max = o
                .pruning
                .null_move_eval_reduction_max
                .min(params::TACTICAL_NMP_EVAL_REDUCTION_MAX);
            o.pruning.late_move_pruning_keeps_checks = true;
            o.pruning.futility = false;
            o.aspiration_growth_divisor = o
                .aspiration_growth_divisor
                .min(params::TACTICAL_ASPIRATION_GROWTH_DIVISOR);
            o.qs.check_plies = o.qs.check_plies.max(1);
            o.qs.delta_spares_checks = true;
        }
        o
    }
}

/// The main search's pruning and reduction techniques, each a switch (all on by default), so
/// that their effect on a position, a suite or a match can be seen one at a time. Off, a
/// technique is skipped as if its condition never held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PruningOptions {
    /// `ReverseFutility`: a node far above beta at low depth returns at once (Step 6).
    pub reverse_futility: bool,
    /// `NullMovePruning`: a node where passing still fails high returns (Step 7).
    pub null_move: bool,
    /// `FutilityPruning`: quiet moves that cannot lift the eval to alpha are skipped (10a).
    pub futility: bool,
    /// `LateMovePruning`: at low depth, quiet moves after the first few are skipped (10a).
    pub late_move_pruning: bool,
    /// `SEEPruning`: quiet moves and captures that lose material by SEE are skipped (10a).
    pub see: bool,
    /// `LateMoveReductions`: late quiet moves are searched shallower first (10b).
    pub late_move_reductions: bool,
    /// Late move pruning keeps the quiet moves that may give check (off by default; set by
    /// `TacticalMode`: the mating move of a sacrifice is often a late quiet check).
    pub late_move_pruning_keeps_checks: bool,
    /// The most plies the null move's reduction grows by with the eval's lead over beta
    /// (`NMP_EVAL_REDUCTION_MAX`; less in `TacticalMode`: after a sacrifice the defender's
    /// eval is far above beta, and the deeper reduction hides the mate it threatens).
    pub null_move_eval_reduction_max: i32,
}

impl Default for PruningOptions {
    fn default() -> Self {
        Self {
            reverse_futility: true,
            null_move: true,
            futility: true,
            late_move_pruning: true,
            see: true,
            late_move_reductions: true,
            late_move_pruning_keeps_checks: false,
            null_move_eval_reduction_max: params::NMP_EVAL_REDUCTION_MAX,
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            qs: QSearchOptions::default(),
            move_overhead: params::MOVE_OVERHEAD,
            multipv: 1,
            capture_history: false,
            pruning: PruningOptions::default(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: 7,
            tactical: false,
            analyse_mode: false,
            progress_after_ms: params::PROGRESS_REPORT_MS,
            aspiration_growth_divisor: params::ASPIRATION_GROWTH_DIVISOR,
        }
    }
}

/// Memory (address space) that must be free before another helper thread is started: the
/// search's own allocations need room once every stack is placed.
const SPAWN_HEADROOM: usize = 32 << 20;

/// Whether `bytes` of address space can still be mapped (a limit such as `ulimit -v` counts
/// every mapping: thread stacks, their signal stacks, the allocator's). Always true where
/// this cannot be asked.
fn address_space_left(bytes: usize) -> bool {
    #[cfg(unix)]
    {
        // SAFETY: a fresh private mapping that nothing else sees, unmapped at once.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return false;
            }
            libc::munmap(p, bytes);
        }
        true
    }
    #[cfg(not(unix))]
    {
        let _ = bytes;
        true
    }
}

/// Flags shared by all threads of a search and the thread that controls it.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: time limits are not applied until `ponderhit`.
    pub pondering: AtomicBool,
}

/// What the score of a report is: exact (a completed iteration) or a bound (an aspiration
/// search that failed high or low and is searched again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score of a completed iteration.
    #[default]
    Exact,
    /// The search failed high: the score is at least this (UCI `lowerbound`).
    Lower,
    /// The search failed low: the score is at most this (UCI `upperbound`).
    Upper,
}

/// One completed iteration of the main thread (or, with `bound` not `Exact`, a failed
/// aspiration search of one): everything a front end prints about it (UCI `info` lines,
/// XBoard thinking lines and status).
#[derive(Clone, Debug)]
pub struct IterationReport {
    /// Depth of the iteration.
    pub depth: i32,
    /// Deepest ply reached (at least `depth`).
    pub seldepth: usize,
    /// Score of the best line in centipawns from the side to move (mate scores near +/-
    /// [`MATE`]).
    pub score: i32,
    /// Nodes searched by all threads so far.
    pub nodes: u64,
    /// Nodes per second so far: after a ponder hit, the nodes counted since the hit over the
    /// time since the hit.
    pub nps: u64,
    /// Nodes searched before the ponder hit (0 without one): `nodes` minus this is what the
    /// time since the hit (`time_ms`) searched.
    pub ponder_nodes: u64,
    /// Exact, or the bound of a failed aspiration search.
    pub bound: ScoreBound,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition-table occupancy in permille.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads, so far.
    pub tbhits: u64,
    /// The principal variation of the best line.
    pub pv: Vec<Move>,
    /// Every line of the iteration, best first (one line without `MultiPV`; the first is
    /// `score` and `pv`).
    pub lines: Vec<RootLine>,
}

/// What the main search thread reports while it runs.
#[derive(Clone, Debug)]
pub enum SearchReport {
    /// An iteration completed, or (with a bound) an aspiration search failed.
    Iteration(IterationReport),
    /// The root move being searched, sent after `SearchOptions::progress_after_ms`.
    CurrMove {
        /// Depth of the iteration.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its number in the iteration's order, from 1.
        number: usize,
    },
    /// The root has no legal move (or none of the `searchmoves`): nothing is searched. The
    /// score is `-MATE` when the side to move is checkmated, 0 when stalemated.
    NoLegalMove {
        /// Score from the side to move.
        score: i32,
    },
}

/// Where search reports go.
pub type ReportSink = Arc<dyn Fn(&SearchReport) + Send + Sync>;

/// What a search found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SearchResult {
    /// The move to play (`None` only when the root has no legal move).
    #[serde(serialize_with = "ser_move")]
    pub best_move: Option<Move>,
    /// The expected reply (second move of the PV), for pondering.
    #[serde(serialize_with = "ser_move")]
    pub ponder_move: Option<Move>,
    /// Score in centipawns from the side to move (mate scores near +/- [`MATE`]).
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// The principal variation, including the captures the quiescence search resolved.
    #[serde(serialize_with = "ser_moves")]
    pub pv: Vec<Move>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Tablebase probes that answered (all threads; the root's ranking counts one per move).
    pub tbhits: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// The iteration in which the final best move first became best.
    pub best_found_depth: i32,
    /// Milliseconds after which the final best move first became best.
    pub best_found_ms: u64,
    /// Statistics summed over threads.
    pub stats: SearchStats,
    /// With `MultiPV` above one: the best root moves of the last completed iteration, best
    /// first, each with its score and line (the first is `best_move`, `score` and `pv`).
    pub lines: Vec<RootLine>,
}

/// One line of a MultiPV search: a root move's score and principal variation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RootLine {
    /// Score in centipawns from the side to move.
    pub score: i32,
    /// The line, starting with the root move.
    #[serde(serialize_with = "ser_moves")]
    pub pv: Vec<Move>,
}

fn ser_move<S: serde::Serializer>(mv: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match mv {
        Some(m) => s.serialize_str(&m.to_string()),
        None => s.serialize_none(),
    }
}

fn ser_moves<S: serde::Serializer>(mvs: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(mvs.iter().map(|m| m.to_string()))
}

/// What [`Engine::quiesce`] found.
#[derive(Clone, Debug)]
pub struct QuiesceResult {
    /// Score from the side to move.
    pub score: i32,
    /// The quiescence line.
    pub pv: Vec<Move>,
    /// Statistics of this quiescence search.
    pub stats: SearchStats,
    /// The recorded tree (empty unless tracing was asked for).
    pub trace: Vec<QTrace>,
    /// Whether the trace was cut at its limit.
    pub truncated: bool,
}

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
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// What each ply of the current line remembers (static eval, move, null move).
    pub(crate) stack: stack::SearchStack,
    /// The NNUE accumulators of the current line (inactive with `Use NNUE` off).
    pub(crate) nnue: stack::NnueStack,
    time: TimeManager,
    limits: Limits,
    seldepth: usize,
    stopped: bool,
    thread_id: usize,
    node_counters: Arc<Vec<AtomicU64>>,
    root_moves: Vec<Move>,
    /// Pondering and no `ponderhit` seen yet.
    ponder_pending: bool,
    /// All threads' nodes when `ponderhit` was seen (0 without one).
    ponder_nodes: u64,
    /// The PV of the last completed iteration (shown with a fail-low bound).
    last_pv: Vec<Move>,
    /// Best root move and score found so far in the current iteration.
    root_best: Option<(Move, i32)>,
    /// Nodes spent on each root move in the current iteration (for the time manager).
    root_nodes: Vec<(Move, u64)>,
    /// Quiescence nodes at the start of the current search (for `QSearchMaxNodes`).
    qnodes_at_start: u64,
    report: Option<ReportSink>,
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
    tb_hits: Arc<AtomicU64>,
    /// The root's tablebase score when the root moves were ranked by DTZ.
    root_tb_score: Option<i32>,
    /// `lull why`: the line being watched in the main search, and what happened on it.
    pub(crate) why: Option<Box<why::WhyTrace>>,
}

impl Searcher {
    fn new(
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
            stack: stack::SearchStack::new(),
            nnue: stack::NnueStack::default(),
            time: TimeManager::new(&Limits::default(), cozy_chess::Color::White, 0),
            limits: Limits::default(),
            seldepth: 0,
            stopped: false,
            thread_id,
            node_counters,
            root_moves: Vec::new(),
            ponder_pending: false,
            ponder_nodes: 0,
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
    fn setup_tablebases(&mut self, pos: &Position) {
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
    fn shown_score(&self, score: i32) -> i32 {
        match self.root_tb_score {
            Some(tb) if score.abs() < MATE_BOUND => tb,
            _ => score,
        }
    }

    fn is_main(&self) -> bool {
        self.thread_id == 0
    }

    /// Nodes searched by this thread in the current search.
    pub fn nodes(&self) -> u64 {
        self.stats.nodes()
    }

    fn total_nodes(&self) -> u64 {
        let mut total = self.nodes();
        for (i, c) in self.node_counters.iter().enumerate() {
            if i != self.thread_id {
                total += c.load(Ordering::Relaxed);
            }
        }
        total
    }

    /// Called at every node: every 1024 nodes publishes the node count and checks the
    /// stop flag, the clock and the node limit. Returns true when the search must unwind.
    #[inline]
    pub(crate) fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let nodes = self.nodes();
        if nodes & 1023 == 0 {
            self.node_counters[self.thread_id].store(nodes, Ordering::Relaxed);
            if self.control.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.is_main() {
                let pondering = self.control.pondering.load(Ordering::Relaxed);
                if self.ponder_pending && !pondering {
                    // ponderhit: our clock runs from now.
                    self.ponder_pending = false;
                    self.ponder_nodes = self.total_nodes();
                    self.time.restart();
                }
                let out_of_time = !pondering && self.time.hard_expired();
                let out_of_nodes = self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
                if out_of_time || out_of_nodes {
                    self.stopped = true;
                    self.control.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped
    }

    /// Adds `nodes` to the effort spent on root move `mv` in this iteration.
    pub(crate) fn add_root_nodes(&mut self, mv: Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((mv, nodes)),
        }
    }

    /// Share of this iteration's root nodes spent on `mv` (0..=1).
    fn root_effort(&self, mv: Move) -> f64 {
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
    fn root_pv(&self, pos: &Position) -> Vec<Move> {
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

    /// Iterative deepening on this thread. The main thread reports and decides when to stop.
    fn iterate(&mut self, pos: &mut Position, searchmoves: &[Move]) -> SearchResult {
        self.stats = SearchStats::default();
        self.tables.use_capture_history = self.options.capture_history;
        self.stopped = false;
        self.seldepth = 0;
        self.qnodes_at_start = 0;
        self.node_counters[self.thread_id].store(0, Ordering::Relaxed);
        let legal = pos.legal_moves();
        self.root_moves = if searchmoves.is_empty() {
            legal.clone()
        } else {
            legal
                .iter()
                .copied()
                .filter(|m| searchmoves.contains(m))
                .collect()
        };
        if self.root_moves.is_empty() {
            self.root_moves = legal;
        }
        self.setup_tablebases(pos);
        let mut result = SearchResult::default();
        if self.root_moves.is_empty() {
            // Checkmate or stalemate at the root: nothing to search.
            result.score = if pos.in_check() { -MATE } else { 0 };
            if let Some(report) = self.report.as_ref().filter(|_| self.is_main()) {
                report(&SearchReport::NoLegalMove {
                    score: result.score,
                });
            }
            return result;
        }
        result.best_move = Some(self.root_moves[0]);
        self.stack.clear();
        self.last_pv.clear();
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // MultiPV: line k searches the root moves that are not the best of lines 0..k. Only
        // the main thread does it; helpers search every move for the best one.
        let all_root = std::mem::take(&mut self.root_moves);
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
            if let Some(w) = self.why.as_deref_mut() {
                w.iteration = depth;
            }
            let mut lines: Vec<RootLine> = Vec::with_capacity(multipv);
            self.root_nodes.clear();
            for (k, prev_score) in prev_scores.iter_mut().enumerate() {
                self.root_moves = all_root
                    .iter()
                    .copied()
                    .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                    .collect();
                self.root_best = None;
                if k == 0 {
                    self.seldepth = 0;
                }
                let score = self.aspiration(pos, depth, *prev_score);
                if self.stopped {
                    if k == 0 {
                        // An aborted iteration still yields a move if one was fully
                        // searched and raised alpha: it is at least as good as the previous
                        // best.
                        if let Some((mv, s)) = self.root_best {
                            if Some(mv) != result.best_move {
                                result.best_found_depth = depth;
                                result.best_found_ms = self.time.elapsed_ms();
                            }
                            result.best_move = Some(mv);
                            result.score = self.shown_score(s);
                            let pv = self.root_pv(pos);
                            result.pv = if pv.first() == Some(&mv) {
                                pv
                            } else {
                                vec![mv]
                            };
                            result.lines.clear();
                        }
                    }
                    break;
                }
                *prev_score = score;
                let pv = self.root_pv(pos);
                let best = pv.first().copied().or(self.root_best.map(|(m, _)| m));
                let Some(best) = best else { break };
                lines.push(RootLine {
                    score: self.shown_score(score),
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
                result.best_found_ms = self.time.elapsed_ms();
            }
            result.best_move = Some(best);
            result.score = first.score;
            result.depth = depth;
            result.seldepth = self.seldepth;
            result.pv = first.pv.clone();
            self.last_pv.clone_from(&result.pv);
            result.lines = if multipv > 1 { lines } else { Vec::new() };
            if self.is_main() {
                self.report_iteration(&result);
                let before = scores[scores.len().saturating_sub(TM_SCORE_LOOKBACK + 1)];
                let progress = SearchProgress {
                    stability,
                    score_change: (result.score - before)
                        .clamp(-params::TM_SCORE_CHANGE_MAX, params::TM_SCORE_CHANGE_MAX),
                    best_move_effort: self.root_effort(best),
                };
                if self.stopped
                    || self.should_stop_after_iteration(&result, all_root.len(), &progress)
                {
                    break;
                }
            }
        }
        self.root_moves = all_root;
        result.nodes = self.nodes();
        result.stats = self.stats.clone();
        result
    }

    /// Whether this helper thread skips the iteration at `depth` (never the main thread).
    fn helper_skips(&self, depth: i32) -> bool {
        let i = self.thread_id.saturating_sub(1) % params::SMP_SKIP_SIZE.len();
        ((depth + params::SMP_SKIP_PHASE[i]) / params::SMP_SKIP_SIZE[i]) % 2 == 1
    }

    /// Searches the root in a narrow window around the previous score, widening it on a
    /// fail (aspiration windows); shallow iterations use the full window.
    fn aspiration(&mut self, pos: &mut Position, depth: i32, prev: i32) -> i32 {
        let inf = params::INFINITY;
        if depth < params::ASPIRATION_MIN_DEPTH || prev.abs() >= params::TB_BOUND {
            return self.negamax(pos, -inf, inf, depth, 0);
        }
        let mut delta = params::ASPIRATION_WINDOW;
        let mut alpha = (prev - delta).max(-inf);
        let mut beta = (prev + delta).min(inf);
        loop {
            let score = self.negamax(pos, alpha, beta, depth, 0);
            if self.stopped {
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

    fn should_stop_after_iteration(
        &self,
        result: &SearchResult,
        root_moves: usize,
        progress: &SearchProgress,
    ) -> bool {
        if self.control.stop.load(Ordering::Relaxed) {
            return true;
        }
        // `go mate N`: a mate in at most N moves, and the shortest one: an iteration as deep
        // as the mate is long has searched every shorter mate too.
        if let Some(m) = self.limits.mate {
            let plies = MATE - result.score;
            if result.score >= MATE_BOUND && (plies + 1) / 2 <= m && result.depth >= plies {
                return true;
            }
        }
        let pondering = self.control.pondering.load(Ordering::Relaxed);
        if pondering || self.limits.infinite {
            return false;
        }
        if self.ponder_pending {
            // ponderhit arrived between polls: the clock starts now.
            return false;
        }
        // Under a clock, a mate proven with plies to spare will not change: answer at once
        // and keep the time. A fixed budget (`movetime`, `depth`, `nodes`) is searched in
        // full, as Stockfish does: the deeper iterations may still find a shorter mate.
        if self.limits.uses_clock()
            && result.score.abs() >= MATE_BOUND
            && result.depth >= MATE - result.score.abs() + params::TM_MATE_SPARE_PLIES
        {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.total_nodes() >= n) {
            return true;
        }
        if self.limits.uses_clock()
            && root_moves == 1
            && result.depth >= params::TM_SINGLE_MOVE_DEPTH
        {
            return true;
        }
        self.time.soft_expired_after(progress)
    }

    /// Whether progress reports go out now: on the main thread, with a sink, after
    /// `progress_after_ms`.
    fn progress_sink(&self) -> Option<&ReportSink> {
        let sink = self.report.as_ref().filter(|_| self.is_main())?;
        (self.time.elapsed_ms() >= self.options.progress_after_ms).then_some(sink)
    }

    /// Reports the root move about to be searched (UCI `currmove`), after the first second.
    pub(crate) fn report_current_move(&self, mv: Move, number: usize, depth: i32) {
        if let Some(report) = self.progress_sink() {
            report(&SearchReport::CurrMove { depth, mv, number });
        }
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
        let mut pv = self.root_pv(pos);
        if pv.is_empty() || bound == ScoreBound::Upper {
            pv.clone_from(&self.last_pv);
        }
        if pv.is_empty() {
            return;
        }
        let time_ms = self.time.elapsed_ms();
        let nodes = self.total_nodes();
        let score = self.shown_score(score);
        report(&SearchReport::Iteration(IterationReport {
            depth,
            seldepth: self.seldepth.max(depth as usize),
            score,
            nodes,
            nps: nodes.saturating_sub(self.ponder_nodes) * 1000 / time_ms.max(1),
            ponder_nodes: self.ponder_nodes,
            bound,
            time_ms,
            hashfull: self.tt.hashfull(),
            tbhits: self.tb_hits.load(Ordering::Relaxed),
            pv: pv.clone(),
            lines: vec![RootLine { score, pv }],
        }));
    }

    /// Sends the report of a completed iteration (with `MultiPV`, all its lines).
    fn report_iteration(&self, r: &SearchResult) {
        let Some(report) = &self.report else {
            return;
        };
        let time_ms = self.time.elapsed_ms();
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
            nps: nodes.saturating_sub(self.ponder_nodes) * 1000 / time_ms.max(1),
            ponder_nodes: self.ponder_nodes,
            bound: ScoreBound::Exact,
            time_ms,
            hashfull: self.tt.hashfull(),
            tbhits: self.tb_hits.load(Ordering::Relaxed),
            pv: r.pv.clone(),
            lines,
        }));
    }
}

/// The search threads and their shared table: what a GUI talks to.
pub struct Engine {
    /// The shared transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Options applied to every search.
    pub options: SearchOptions,
    control: Arc<Control>,
    threads: Vec<Searcher>,
    hash_mib: usize,
    report: Option<ReportSink>,
    /// The loaded network (`EvalFile`), if any: the embedded one by default.
    network: Option<Arc<Network>>,
    /// `Use NNUE`: evaluate with `network` (never true without one).
    use_nnue: bool,
    /// The Syzygy tables of `SyzygyPath` (none by default).
    tablebases: Arc<Tablebases>,
}

impl Engine {
    /// An engine with a `hash_mib` MiB table and one thread.
    pub fn new(hash_mib: usize) -> Self {
        let mut engine = Self {
            tt: Arc::new(TranspositionTable::new(hash_mib)),
            options: SearchOptions::default(),
            control: Arc::new(Control::default()),
            threads: Vec::new(),
            hash_mib,
            report: None,
            network: Network::embedded(),
            use_nnue: false,
            tablebases: Arc::new(Tablebases::none()),
        };
        engine.use_nnue = crate::nnue::USE_NNUE_DEFAULT && engine.network.is_some();
        engine.set_threads(1);
        engine
    }

    /// Sets where the search reports go (`None`: nowhere, the search is silent).
    pub fn set_report_sink(&mut self, sink: Option<ReportSink>) {
        self.report = sink;
    }

    /// The stop and ponder flags, for another thread to control a running search.
    pub fn control(&self) -> Arc<Control> {
        Arc::clone(&self.control)
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, 256);
        let counters: Arc<Vec<AtomicU64>> = Arc::new((0..n).map(|_| AtomicU64::new(0)).collect());
        let tb_hits = Arc::new(AtomicU64::new(0));
        self.threads = (0..n)
            .map(|i| {
                Searcher::new(
                    Arc::clone(&self.tt),
                    Arc::clone(&self.control),
                    i,
                    Arc::clone(&counters),
                    Arc::clone(&self.tablebases),
                    Arc::clone(&tb_hits),
                )
            })
            .collect();
    }

    /// Resizes the transposition table (clears it). On allocation failure the engine keeps
    /// a working table of the previous size and says why.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        let mib = mib.max(1);
        // Drop the old table before allocating the new one, so memory never holds both.
        let n = self.threads.len();
        self.threads.clear();
        self.tt = Arc::new(TranspositionTable::new(1));
        let outcome = match TranspositionTable::try_new(mib) {
            Ok(tt) => {
                self.hash_mib = mib;
                self.tt = Arc::new(tt);
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(TranspositionTable::new(self.hash_mib));
                Err(e)
            }
        };
        self.set_threads(n);
        outcome
    }

    /// Table size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// Forgets everything learned (ucinewgame, Clear Hash).
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.tables.clear();
        }
    }

    /// The loaded network, if any (`EvalFile`; the embedded one by default).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Whether the search evaluates with the network (`Use NNUE`).
    pub fn use_nnue(&self) -> bool {
        self.use_nnue
    }

    /// The static evaluation of `board` in centipawns from the side to move's view, as the
    /// search sees it: the network's with `Use NNUE` on, else the hand-crafted one.
    pub fn static_eval(&self, board: &cozy_chess::Board) -> i32 {
        match (&self.network, self.use_nnue) {
            (Some(net), true) => net.evaluate(board),
            _ => crate::eval::evaluate(board),
        }
    }

    /// Sets the network; `None` unloads it and turns `Use NNUE` off. A change of the
    /// evaluation in use clears the table (its static evaluations are of the other scale).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        if self.use_nnue {
            self.tt.clear();
        }
        self.use_nnue &= network.is_some();
        self.network = network;
    }

    /// Turns the network evaluation on or off (`Use NNUE`). On without a loaded network is
    /// an error, and it stays off.
    pub fn set_use_nnue(&mut self, on: bool) -> Result<(), String> {
        if on && self.network.is_none() {
            return Err(
                "Use NNUE needs a network: set EvalFile to a .nnue file first (no network \
                 is embedded in this build)"
                    .to_string(),
            );
        }
        if on != self.use_nnue {
            self.tt.clear();
        }
        self.use_nnue = on;
        Ok(())
    }

    /// Loads the network of the `EvalFile` option: a file path; `<default>` for the embedded
    /// network (an error when none is embedded); empty for the embedded one if any, else no
    /// network (and `Use NNUE` off). A file that cannot be read or is not a valid network is
    /// an error, and the previous network stays.
    pub fn set_eval_file(&mut self, value: &str) -> Result<(), String> {
        let network = match value.trim() {
            "" => Network::embedded(),
            "<default>" => {
                Some(Network::embedded().ok_or("no network is embedded in this build (EvalFile)")?)
            }
            path => Some(Arc::new(Network::load(std::path::Path::new(path))?)),
        };
        self.set_network(network);
        Ok(())
    }

    /// The Syzygy tables in use.
    pub fn tablebases(&self) -> &Tablebases {
        &self.tablebases
    }

    /// Loads the tables of the `SyzygyPath` option (`:`-separated directories; empty for
    /// none) and returns the line that says how many were found. A directory that cannot be
    /// read is an error, and the engine then has no tables. A build without the `syzygy`
    /// feature answers a non-empty path with an error that says so.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<String, String> {
        // Whatever happens, the previous tables go: a bad path leaves none.
        self.tablebases = Arc::new(Tablebases::none());
        let tables = Tablebases::load(path)?;
        let summary = tables.summary();
        self.tablebases = Arc::new(tables);
        Ok(summary)
    }

    /// Runs only the quiescence search of `pos` in the window (`alpha`, `beta`), as the main
    /// search does at its horizon. Returns the score, the quiescence line (PV) and the
    /// statistics. With `trace_nodes > 0` the tree is recorded (at most that many events).
    pub fn quiesce(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        trace_nodes: usize,
    ) -> QuiesceResult {
        self.control.stop.store(false, Ordering::Relaxed);
        self.tt.new_search();
        let t = &mut self.threads[0];
        t.options = self.options.effective();
        t.tb_limit = 0;
        t.time = TimeManager::new(&Limits::default(), pos.side_to_move(), 0);
        t.limits = Limits::default();
        t.stats = SearchStats::default();
        t.stopped = false;
        t.seldepth = 0;
        t.qnodes_at_start = 0;
        t.trace = (trace_nodes > 0).then(Vec::new);
        t.trace_limit = trace_nodes;
        t.trace_truncated = false;
        t.trace_move = None;
        t.nnue
            .start(self.use_nnue.then(|| self.network.clone()).flatten(), pos);
        let mut p = pos.clone();
        let alpha = alpha.clamp(-params::INFINITY, params::INFINITY);
        let beta = beta
            .clamp(-params::INFINITY, params::INFINITY)
            .max(alpha + 1);
        let score = t.qsearch(&mut p, alpha, beta, qsearch::QNode::horizon(0));
        let pv = t.root_pv(pos);
        QuiesceResult {
            score,
            pv,
            stats: t.stats.clone(),
            trace: t.trace.take().unwrap_or_default(),
            truncated: t.trace_truncated,
        }
    }

    /// Searches `pos` within `limits` as [`Engine::search`] does, on one thread, watching the
    /// line `moves` (legal from `pos`, as far as they go): returns the result and what the
    /// search did at each node of the line, iteration by iteration (`lull why`).
    pub fn search_why(
        &mut self,
        pos: &Position,
        limits: &Limits,
        moves: &[Move],
    ) -> Result<(SearchResult, why::WhyTrace), String> {
        let mut p = pos.clone();
        let mut keys = vec![p.hash()];
        for (i, &mv) in moves.iter().enumerate() {
            if !p.board().is_legal(mv) {
                return Err(format!("move {} of the line is not legal", i + 1));
            }
            p.play(mv);
            keys.push(p.hash());
        }
        let threads = self.threads();
        self.set_threads(1);
        self.threads[0].why = Some(Box::new(why::WhyTrace::new(keys, moves.to_vec())));
        let result = self.search(pos, limits, &[]);
        let trace = self.threads[0].why.take().map(|w| *w).unwrap_or_default();
        self.set_threads(threads);
        Ok((result, trace))
    }

    /// Searches `pos` within `limits`, restricted to `searchmoves` if not empty. Blocks until
    /// the search ends (by its limits, or by `control().stop` from another thread).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        searchmoves: &[Move],
    ) -> SearchResult {
        self.control.stop.store(false, Ordering::Relaxed);
        self.search_keep_flags(pos, limits, searchmoves)
    }

    /// Like [`Engine::search`], but leaves the stop flag as the caller set it: a front end that
    /// clears it before starting the search thread cannot lose a `stop` sent right after `go`.
    pub fn search_keep_flags(
        &mut self,
        pos: &Position,
        limits: &Limits,
        searchmoves: &[Move],
    ) -> SearchResult {
        let start = std::time::Instant::now();
        self.tt.new_search();
        let us = pos.side_to_move();
        let tm = TimeManager::new(limits, us, self.options.move_overhead);
        let helper_limits = Limits {
            infinite: true,
            depth: limits.depth,
            ..Limits::default()
        };
        if let Some(t) = self.threads.first() {
            t.tb_hits.store(0, Ordering::Relaxed);
        }
        for (i, t) in self.threads.iter_mut().enumerate() {
            t.options = self.options.effective();
            t.tb = Arc::clone(&self.tablebases);
            t.time = tm.clone();
            t.ponder_pending = limits.ponder;
            t.ponder_nodes = 0;
            t.limits = if i == 0 {
                limits.clone()
            } else {
                helper_limits.clone()
            };
            t.report = if i == 0 { self.report.clone() } else { None };
        }
        // The network's accumulators: the main thread's now (without memory for them it
        // searches with the hand-crafted evaluation), each helper's just before it starts.
        let net = self.use_nnue.then(|| self.network.clone()).flatten();
        if let Some(main) = self.threads.first_mut() {
            main.nnue.start(net.clone(), pos);
        }
        let control = Arc::clone(&self.control);
        let (main, helpers) = self.threads.split_first_mut().expect("at least one thread");
        let mut result = std::thread::scope(|scope| {
            // A helper that cannot be started (no memory for its stack, a thread limit) is
            // left out, and so are the ones after it: the search goes on with the threads it
            // has, within its limits. `scope.spawn` would panic here, and the scope would
            // then wait for the started helpers, which only `stop` ends.
            let mut helpers = helpers.iter_mut();
            while let Some(helper) = helpers.next() {
                // A helper left out must not report nodes from an earlier search (a started
                // one clears these itself).
                helper.stats = SearchStats::default();
                helper.node_counters[helper.thread_id].store(0, Ordering::Relaxed);
                // No more helpers once the search should end (starting hundreds of threads
                // on a few busy cores takes time), nor when another stack would leave too
                // little memory for the search itself (an allocation that fails aborts).
                // The helper's copy of the position, with room for every ply it can reach,
                // is made here, so that its history never grows while it searches.
                let mut hpos = pos.clone();
                hpos.reserve_plies(MAX_PLY + 2);
                // Its accumulators too; a helper without memory for them is left out.
                let ready = helper.nnue.start(net.clone(), pos);
                let late = !limits.ponder && tm.hard_expired();
                let room = address_space_left(SPAWN_HEADROOM);
                if !ready || late || !room || control.stop.load(Ordering::Relaxed) {
                    for idle in helpers {
                        idle.stats = SearchStats::default();
                        idle.node_counters[idle.thread_id].store(0, Ordering::Relaxed);
                    }
                    break;
                }
                let builder = std::thread::Builder::new();
                #[cfg(test)]
                let builder = tests::helper_builder(builder, helper.thread_id);
                let spawned = builder.spawn_scoped(scope, move || {
                    helper.iterate(&mut hpos, searchmoves);
                });
                if spawned.is_err() {
                    for idle in helpers {
                        idle.stats = SearchStats::default();
                        idle.node_counters[idle.thread_id].store(0, Ordering::Relaxed);
                    }
                    break;
                }
            }
            let mut mpos = pos.clone();
            mpos.reserve_plies(MAX_PLY + 2);
            let r = main.iterate(&mut mpos, searchmoves);
            // UCI: in ponder or infinite mode the answer waits for `stop` or `ponderhit`.
            while !control.stop.load(Ordering::Relaxed)
                && (limits.infinite || control.pondering.load(Ordering::Relaxed))
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            control.stop.store(true, Ordering::Relaxed);
            r
        });
        let mut stats = SearchStats::default();
        for t in &self.threads {
            stats.add(&t.stats);
        }
        result.nodes = stats.nodes();
        result.stats = stats;
        result.tbhits = self.threads[0].tb_hits.load(Ordering::Relaxed);
        result.time_ms = start.elapsed().as_millis() as u64;
        if result.ponder_move.is_none() {
            result.ponder_move = result.pv.get(1).copied();
        }
        if result.ponder_move.is_none() {
            if let Some(best) = result.best_move {
                let mut p = pos.clone();
                p.play(best);
                if let Some(e) = self.tt.probe(p.hash(), 0) {
                    result.ponder_move = e.mv.filter(|m| p.board().is_legal(*m));
                }
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Helper threads from this id on fail to start (in searches run on this thread).
        static FAIL_HELPERS_FROM: Cell<usize> = const { Cell::new(usize::MAX) };
    }

    /// The builder of helper `id`: one asking for a stack larger than any address space
    /// when the test wants that helper's spawn to fail.
    pub(super) fn helper_builder(builder: std::thread::Builder, id: usize) -> std::thread::Builder {
        if id >= FAIL_HELPERS_FROM.with(Cell::get) {
            builder.stack_size(1 << 50)
        } else {
            builder
        }
    }

    #[test]
    fn a_helper_that_cannot_start_is_left_out_and_the_limits_still_hold() {
        let pos = Position::startpos();
        let mut engine = Engine::new(1);
        engine.set_threads(8);
        // A search with every helper: each counts nodes.
        let r = engine.search(&pos, &Limits::depth(6), &[]);
        assert!(r.best_move.is_some());
        // Helpers 3 to 7 cannot start: the search goes on with the main thread and helpers
        // 1 and 2, ends on its time limit, and counts no nodes of the earlier search.
        FAIL_HELPERS_FROM.with(|f| f.set(3));
        let limits = Limits {
            movetime: Some(200),
            ..Limits::default()
        };
        let start = std::time::Instant::now();
        let r = engine.search(&pos, &limits, &[]);
        let took = start.elapsed();
        FAIL_HELPERS_FROM.with(|f| f.set(usize::MAX));
        assert!(r.best_move.is_some());
        assert!(took < std::time::Duration::from_secs(2), "{took:?}");
        for t in &engine.threads[3..] {
            assert_eq!(t.stats.nodes(), 0);
        }
        for t in &engine.threads[..3] {
            assert!(t.stats.nodes() > 0);
        }
        assert_eq!(
            r.nodes,
            engine.threads.iter().map(|t| t.stats.nodes()).sum::<u64>()
        );
        // Not one helper starts: the main thread searches alone.
        FAIL_HELPERS_FROM.with(|f| f.set(1));
        let r = engine.search(&pos, &Limits::depth(5), &[]);
        FAIL_HELPERS_FROM.with(|f| f.set(usize::MAX));
        assert!(r.best_move.is_some());
        assert_eq!(r.nodes, engine.threads[0].stats.nodes());
    }
}

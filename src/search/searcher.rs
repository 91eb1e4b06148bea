//! One search thread's state ([`Searcher`]), grouped by what it holds, and what every step of
//! both searches shares: the node counter and the clock (`poll`), the one static evaluation
//! and the make-move hooks.
//!
//! A `Searcher` holds, as Stockfish's `Worker` and Viridithas' `ThreadData` do:
//! - the handles it shares with the other threads (`Shared`, `shared.rs`: the
//!   transposition table, the stop flag, the node counts, the tablebases);
//! - its limits and clock (`Clock`, `clock.rs`);
//! - what it knows of the root (`RootState`, `root.rs`);
//! - what it records and sends out (`Record`: statistics, reports, `lull why`'s notes,
//!   `lull qtree`'s trace);
//! - its own tables, kept from search to search or rebuilt for each: the ordering tables
//!   (`ordering.rs`), the correction history (`correction.rs`), the PV table (`pv.rs`), the
//!   search stack and the NNUE accumulators (`stack.rs`), the reduction table (`lmr.rs`).
//!
//! Its methods live with the steps that use them: the main search in `alphabeta.rs` and
//! `pruning.rs`, the quiescence search in `qsearch.rs`, the tablebases in `syzygy.rs`,
//! the history updates in `reward.rs`, iterative deepening and its reports in `iterate.rs`.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use cozy_chess::Move;

use crate::params::{Tunable, LMR_BASE, LMR_DIVISOR};
use crate::position::Position;
use crate::tablebase::Tablebases;
use crate::tt::TranspositionTable;

use super::clock::Clock;
use super::control::Control;
use super::correction::CorrectionHistory;
use super::lmr::LmrTable;
use super::ordering::OrderingTables;
use super::pv::PvTable;
use super::report::ReportSink;
use super::root::RootState;
use super::settings::SearchOptions;
use super::shared::Shared;
use super::stack::{NnueStack, SearchStack};
use super::stats::SearchStats;
use super::trace::QTraceRecorder;
use super::why::WhyTrace;

/// One search thread's state.
pub struct Searcher {
    /// What all threads share.
    pub(super) shared: Shared,
    /// This thread's number (0: the main thread, which reports and keeps the clock).
    pub(super) thread_id: usize,
    /// Options of this search.
    pub(super) options: SearchOptions,
    /// When this thread's search must end.
    pub(super) clock: Clock,
    /// The root of the current search.
    pub(super) root: RootState,
    /// What the search records and sends out.
    pub(super) record: Record,
    /// Killers, counter-moves and histories.
    pub(super) tables: OrderingTables,
    /// The static evaluation's learnt error.
    pub(super) correction: CorrectionHistory,
    /// The principal variation of each ply of the current line.
    pub(super) pv: PvTable,
    /// What each ply of the current line remembers (static eval, move, null move).
    pub(super) stack: SearchStack,
    /// The NNUE accumulators of the current line (inactive with `Use NNUE` off).
    pub(super) nnue: NnueStack,
    /// The late-move reduction table of the options' `LmrBase` and `LmrDivisor`.
    pub(super) lmr: LmrTable,
}

/// What one thread records and sends out while it searches: no step of the search reads it
/// to decide anything.
#[derive(Default)]
pub(super) struct Record {
    /// Counters of the current search.
    pub(super) stats: SearchStats,
    /// Where the main thread's reports go.
    pub(super) report: Option<ReportSink>,
    /// `lull why`: the line being watched in the main search, and what happened on it.
    pub(super) why: Option<Box<WhyTrace>>,
    /// `lull qtree`: the recorded quiescence tree, when tracing.
    pub(super) qtrace: QTraceRecorder,
}

impl Searcher {
    pub(super) fn new(
        tt: Arc<TranspositionTable>,
        control: Arc<Control>,
        thread_id: usize,
        node_counters: Arc<Vec<AtomicU64>>,
        tb: Arc<Tablebases>,
        tb_hits: Arc<AtomicU64>,
    ) -> Self {
        Self {
            shared: Shared {
                tt,
                control,
                node_counters,
                tb,
                tb_hits,
            },
            thread_id,
            options: SearchOptions::default(),
            clock: Clock::new(),
            root: RootState::default(),
            record: Record::default(),
            tables: OrderingTables::new(),
            correction: CorrectionHistory::new(),
            pv: PvTable::new(),
            stack: SearchStack::new(),
            nnue: NnueStack::default(),
            lmr: LmrTable::new(LMR_BASE, LMR_DIVISOR),
        }
    }

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

    /// Forgets what the tables learnt (ucinewgame).
    pub(super) fn clear_tables(&mut self) {
        self.tables.clear();
        self.correction.clear();
    }

    /// Starts the counters of a search: no node yet, here or as published.
    pub(super) fn reset_counters(&mut self) {
        self.record.stats = SearchStats::default();
        self.shared.publish_nodes(self.thread_id, 0);
    }

    pub(super) fn is_main(&self) -> bool {
        self.thread_id == 0
    }

    /// Nodes searched by this thread in the current search.
    pub fn nodes(&self) -> u64 {
        self.record.stats.nodes()
    }

    /// Nodes searched by all threads in the current search (the others' as last published).
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes() + self.shared.nodes_of_others(self.thread_id)
    }

    /// Called at every node: every [`poll_interval`](super::clock::poll_interval) nodes
    /// publishes the node count and checks the stop flag, the node limit of all threads
    /// together and (the main thread) the clock. Returns true when the search must unwind.
    #[inline]
    pub(super) fn poll(&mut self) -> bool {
        if self.clock.stopped {
            return true;
        }
        let nodes = self.nodes();
        if nodes & self.clock.poll_mask == 0 {
            self.shared.publish_nodes(self.thread_id, nodes);
            if self.shared.stop_requested() {
                self.clock.stopped = true;
            } else {
                let mut out_of_time = false;
                if self.is_main() {
                    let pondering = self.shared.pondering();
                    if self.clock.ponder_pending && !pondering {
                        self.clock.ponder_hit(&self.shared.control);
                    }
                    out_of_time = !pondering && self.clock.time.hard_expired();
                }
                // Any thread may find the node limit reached: the helpers' nodes count too.
                let out_of_nodes = self
                    .clock
                    .limits
                    .nodes
                    .is_some_and(|n| self.total_nodes() >= n);
                if out_of_time || out_of_nodes {
                    self.clock.stopped = true;
                    self.shared
                        .control
                        .stop
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }
        self.clock.stopped
    }

    /// The static evaluation of `pos` from the side to move's view: the network's with
    /// `Use NNUE` on, else the hand-crafted [`crate::eval::evaluate`]. Every evaluation of
    /// the search goes through here; `pos` must be a position of the current line.
    #[inline(always)]
    pub(super) fn evaluate(&mut self, pos: &Position) -> i32 {
        if self.nnue.is_active() {
            self.nnue.evaluate(pos)
        } else {
            crate::eval::evaluate(pos.board())
        }
    }

    /// Plays a legal move on the current line ([`Position::play`]); undo with
    /// [`Position::undo`], which needs no hook.
    #[inline(always)]
    pub(super) fn make_move(&mut self, pos: &mut Position, mv: Move) {
        pos.play(mv);
        self.shared.tt.prefetch(pos.hash());
        if self.nnue.is_active() {
            self.nnue.played(pos);
        }
    }

    /// Passes on the current line ([`Position::play_null`]): false, and nothing done, in
    /// check.
    #[inline(always)]
    pub(super) fn make_null(&mut self, pos: &mut Position) -> bool {
        let done = pos.play_null();
        if done {
            self.shared.tt.prefetch(pos.hash());
        }
        if done && self.nnue.is_active() {
            self.nnue.played(pos);
        }
        done
    }
}

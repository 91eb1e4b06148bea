//! [`Engine`]: the search threads and their shared table, what a program or a front end
//! calls. Lazy SMP: the helpers search the same root on their own threads and share only the
//! transposition table.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use cozy_chess::Move;

use crate::nnue::Network;
use crate::params::{self, MAX_PLY};
use crate::position::Position;
use crate::tablebase::Tablebases;
use crate::time::{Limits, TimeManager};
use crate::tt::TranspositionTable;

use super::clock::Clock;
use super::control::Control;
use super::qsearch::QNode;
use super::report::{QuiesceResult, ReportSink, SearchResult};
use super::searcher::Searcher;
use super::settings::SearchOptions;
use super::stats::SearchStats;
use super::why::WhyTrace;

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
    ///
    /// When the memory cannot be had the table has 1 MiB, and [`Engine::hash_mib`] says so
    /// (a caller that must tell the user sizes it with [`Engine::set_hash`], which answers
    /// with the reason).
    pub fn new(hash_mib: usize) -> Self {
        let (tt, hash_mib) = match TranspositionTable::try_new(hash_mib) {
            Ok(tt) => (tt, hash_mib.max(1)),
            Err(_) => (TranspositionTable::new(1), 1),
        };
        let mut engine = Self {
            tt: Arc::new(tt),
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

    /// Sets the number of search threads (at least one, at most [`params::MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, params::MAX_THREADS);
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
            t.clear_tables();
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

    /// The Syzygy tables, shared (for a caller that searches with the engine meanwhile).
    pub fn shared_tablebases(&self) -> Arc<Tablebases> {
        Arc::clone(&self.tablebases)
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
        t.set_options(self.options.effective());
        t.root.tb_limit = 0;
        t.root.seldepth = 0;
        t.clock = Clock::new();
        t.clock.time = TimeManager::new(&Limits::default(), pos.side_to_move(), 0);
        t.record.stats = SearchStats::default();
        t.record.qtrace.start(trace_nodes);
        t.nnue
            .start(self.use_nnue.then(|| self.network.clone()).flatten(), pos);
        let mut p = pos.clone();
        let alpha = alpha.clamp(-params::INFINITY, params::INFINITY);
        let beta = beta
            .clamp(-params::INFINITY, params::INFINITY)
            .max(alpha + 1);
        let score = t.qsearch(&mut p, alpha, beta, QNode::horizon(0));
        let pv = t.pv.root_line(pos);
        QuiesceResult {
            score,
            pv,
            stats: t.record.stats.clone(),
            trace: t.record.qtrace.events.take().unwrap_or_default(),
            truncated: t.record.qtrace.truncated,
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
    ) -> Result<(SearchResult, WhyTrace), String> {
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
        self.threads[0].record.why = Some(Box::new(WhyTrace::new(keys, moves.to_vec())));
        let result = self.search(pos, limits, &[]);
        let trace = self.threads[0]
            .record
            .why
            .take()
            .map(|w| *w)
            .unwrap_or_default();
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
        // Helpers search until the main thread stops them, or until all threads together
        // have searched the node limit.
        let helper_limits = Limits {
            infinite: true,
            depth: limits.depth,
            nodes: limits.nodes,
            ..Limits::default()
        };
        let poll_mask = super::clock::poll_interval(self.threads.len()) - 1;
        if let Some(t) = self.threads.first() {
            t.shared.tb_hits.store(0, Ordering::Relaxed);
        }
        for (i, t) in self.threads.iter_mut().enumerate() {
            t.set_options(self.options.effective());
            t.shared.tb = Arc::clone(&self.tablebases);
            t.clock.time = tm.clone();
            t.clock.ponder_pending = limits.ponder;
            t.clock.poll_mask = poll_mask;
            t.clock.limits = if i == 0 {
                limits.clone()
            } else {
                helper_limits.clone()
            };
            t.record.report = if i == 0 { self.report.clone() } else { None };
        }
        // The network's accumulators: the main thread's now (without memory for them it
        // searches with the hand-crafted evaluation), each helper's just before it starts.
        let net = self.use_nnue.then(|| self.network.clone()).flatten();
        if let Some(main) = self.threads.first_mut() {
            main.nnue.start(net.clone(), pos);
            // Without memory for the pawn history the main thread orders without it.
            main.tables.ensure_pawn_history();
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
                helper.reset_counters();
                // No more helpers once the search should end (starting hundreds of threads
                // on a few busy cores takes time), nor when another stack would leave too
                // little memory for the search itself (an allocation that fails aborts).
                // The helper's copy of the position, with room for every ply it can reach,
                // is made here, so that its history never grows while it searches.
                let mut hpos = pos.clone();
                hpos.reserve_plies(MAX_PLY + 2);
                // Its accumulators and pawn history too; a helper without memory for them is
                // left out.
                let ready =
                    helper.nnue.start(net.clone(), pos) && helper.tables.ensure_pawn_history();
                let late = !limits.ponder && tm.hard_expired();
                let room = address_space_left(SPAWN_HEADROOM);
                if !ready || late || !room || control.stop.load(Ordering::Relaxed) {
                    for idle in helpers {
                        idle.reset_counters();
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
                        idle.reset_counters();
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
            stats.add(&t.record.stats);
        }
        result.nodes = stats.nodes();
        result.stats = stats;
        result.tbhits = self.threads[0].shared.tb_hits();
        result.time_ms = start.elapsed().as_millis() as u64;
        result.clock_ms = self.threads[0].clock.time.searched_ms();
        result.hashfull = self.tt.hashfull();
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
            assert_eq!(t.nodes(), 0);
        }
        for t in &engine.threads[..3] {
            assert!(t.nodes() > 0);
        }
        assert_eq!(
            r.nodes,
            engine.threads.iter().map(|t| t.nodes()).sum::<u64>()
        );
        // Not one helper starts: the main thread searches alone.
        FAIL_HELPERS_FROM.with(|f| f.set(1));
        let r = engine.search(&pos, &Limits::depth(5), &[]);
        FAIL_HELPERS_FROM.with(|f| f.set(usize::MAX));
        assert!(r.best_move.is_some());
        assert_eq!(r.nodes, engine.threads[0].nodes());
    }
}

//! `lull solve`: runs a test suite of EPD positions (`bm` / `am`) and says which ones the
//! engine solves, how soon, and what the quiescence search did meanwhile.
//!
//! Positions are searched by `jobs` workers in parallel, one [`Engine`] each, cleared before
//! every position so that a result never depends on which positions came before. A position
//! is solved when the move played is one of its `bm` moves (if any) and none of its `am`
//! moves. A mate problem (`dm N` or `ce +MN`, as the mate-in-N collections write it) is solved
//! when the engine reports a mate in at most N moves, whatever the move. The time to solution
//! is when the final best move first became best ([`SearchResult::best_found_ms`]).
//!
//! Several EPD files make one suite (their positions are named `file:line` when they have no
//! `id`), and `--sample K --seed S` draws K positions of each file, the same ones for the
//! same seed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde::Serialize;

use crate::epd::{parse_epd, read_epd_file, EpdRecord};
use crate::options::apply_option;
use crate::params::{MATE, MATE_BOUND, MAX_DEPTH};
use crate::san::{line_to_san, move_to_san};
use crate::search::{Engine, SearchResult, SearchStats};
use crate::time::Limits;
use crate::tools::cli::{check_engine_options, fail, quiet_engine};
use crate::tools::common::atomic::{check_output, write_atomic};
use crate::tools::common::progress::progress_bar;
use crate::tools::data::datagen::Rng;
use crate::tools::teaching::why::{diagnose, Cause, Diagnosis};
use crate::tools::uci_score_text;

/// Win At Chess (300 positions), embedded: jdart1/arasan-chess @ 36774cd, `tests/wacnew.epd`,
/// with Arasan's corrections.
pub const WAC_EPD: &str = include_str!("../../../assets/wac.epd");

/// Milliseconds per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Stack size of a worker thread (the search recurses up to the maximum ply).
const WORKER_STACK: usize = 64 << 20;

/// How to run the suite.
#[derive(Clone, Debug, Serialize)]
pub struct SolveConfig {
    /// Milliseconds per position.
    pub movetime: Option<u64>,
    /// Nodes per position.
    pub nodes: Option<u64>,
    /// Depth per position.
    pub depth: Option<i32>,
    /// Search threads per engine.
    pub threads: usize,
    /// Positions searched at the same time (one engine each).
    pub jobs: usize,
    /// Hash size per engine, in MiB.
    pub hash_mib: usize,
    /// UCI options applied to every engine, as (name, value).
    pub options: Vec<(String, Option<String>)>,
}

impl Default for SolveConfig {
    fn default() -> Self {
        Self {
            movetime: None,
            nodes: None,
            depth: None,
            threads: 1,
            jobs: 1,
            hash_mib: 16,
            options: Vec::new(),
        }
    }
}

impl SolveConfig {
    /// The search limits of one position: those given, or the default move time.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits {
            movetime: self.movetime,
            nodes: self.nodes,
            depth: self.depth,
            ..Limits::default()
        };
        if limits.movetime.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
            limits.movetime = Some(DEFAULT_MOVETIME_MS);
        }
        limits
    }

    /// A short description of the limits (`movetime 1000 ms`, `depth 6`...).
    pub fn limits_text(&self) -> String {
        let l = self.limits();
        let mut parts = Vec::new();
        if let Some(ms) = l.movetime {
            parts.push(format!("movetime {ms} ms"));
        }
        if let Some(n) = l.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = l.depth {
            parts.push(format!("depth {d}"));
        }
        parts.join(", ")
    }

    /// The options as `Name=Value` words (empty: none), for the run's header.
    pub fn options_text(&self) -> String {
        let words: Vec<String> = self
            .options
            .iter()
            .map(|(name, value)| match value {
                Some(v) => format!("{name}={v}"),
                None => name.clone(),
            })
            .collect();
        words.join(" ")
    }

    /// `n` engines set up as configured, one per job.
    pub fn make_engines(&self, n: usize) -> Result<Vec<Engine>, String> {
        (0..n).map(|_| self.make_engine()).collect()
    }

    /// An engine set up as configured (hash, threads, options), silent. The search runs in
    /// this process, with no GUI or pipe to allow for: each position gets its whole move
    /// time (`Move Overhead` 0, unless an option sets it).
    pub fn make_engine(&self) -> Result<Engine, String> {
        let mut engine = quiet_engine(self.hash_mib);
        engine.options.move_overhead = 0;
        engine.set_threads(self.threads.max(1));
        for (name, value) in &self.options {
            apply_option(&mut engine, name, value.as_deref())
                .map_err(|e| format!("--option {name}: {e}"))?;
        }
        Ok(engine)
    }
}

/// The result of one position.
#[derive(Clone, Debug, Serialize)]
pub struct PositionReport {
    /// Index in the suite (0-based).
    pub index: usize,
    /// Line in the EPD text.
    pub line: usize,
    /// The `id`, or `line N`.
    pub id: String,
    /// The position.
    pub fen: String,
    /// Expected moves (`bm`) in SAN.
    pub bm: Vec<String>,
    /// Moves to avoid (`am`) in SAN.
    pub am: Vec<String>,
    /// A mate problem: the side to move mates in this many moves (`dm`, `ce +MN`).
    pub mate: Option<u32>,
    /// The move played, in SAN (`None` if the search gave no move).
    pub played: Option<String>,
    /// The move played, in UCI.
    pub played_uci: Option<String>,
    /// Whether the move played solves the position (for a mate problem: whether the score is
    /// a mate in at most the problem's number of moves).
    pub solved: bool,
    /// Score in centipawns from the side to move.
    pub score: i32,
    /// Score as UCI writes it (`cp 35`, `mate 2`).
    pub score_text: String,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Iteration in which the final best move first became best.
    pub found_depth: i32,
    /// Milliseconds after which the final best move first became best.
    pub found_ms: u64,
    /// Milliseconds of search.
    pub time_ms: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Quiescence nodes among them.
    pub qnodes: u64,
    /// The principal variation in SAN.
    pub pv: Vec<String>,
    /// Set when the search failed (an engine bug); the position then counts as not solved.
    pub error: Option<String>,
    /// The search statistics of this position (quiescence counters included).
    pub stats: SearchStats,
    /// With `--why`, for a position not solved: the line that solves it and what hid it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<WhyReport>,
}

/// Why a position was not solved (`lull solve --why`): a longer search finds the line that
/// solves it, then a search to the depth the run reached follows that line with `lull why`'s
/// trace, and [`diagnose`] says where it was lost.
#[derive(Clone, Debug, Serialize)]
pub struct WhyReport {
    /// Nodes of the longer search.
    pub line_nodes: u64,
    /// Whether the longer search solved the position (if not, there is no line to follow).
    pub line_solves: bool,
    /// Its principal variation in SAN (the line followed when it solves).
    pub line: Vec<String>,
    /// Its score, as UCI writes it.
    pub line_score: String,
    /// Where and why the line was lost at the run's depth.
    pub diagnosis: Option<Diagnosis>,
}

impl WhyReport {
    /// The line `lull solve --why` prints for a position.
    pub fn text(&self, id: &str) -> String {
        let line: Vec<&str> = self.line.iter().take(12).map(String::as_str).collect();
        match (&self.diagnosis, self.line_solves) {
            (Some(d), true) => format!(
                "{id:<10} {}: {}\n{:<10}   {}",
                line.join(" "),
                self.line_score,
                "",
                d.text
            ),
            (None, true) => format!(
                "{id:<10} {}: {} (no trace)",
                line.join(" "),
                self.line_score
            ),
            (_, false) => format!(
                "{id:<10} not solved with {} nodes either ({} {}): no line to follow",
                self.line_nodes,
                line.first().copied().unwrap_or("(none)"),
                self.line_score
            ),
        }
    }
}

impl PositionReport {
    /// The line `lull solve` prints for this position.
    pub fn line_text(&self) -> String {
        let mut expected = String::new();
        if let Some(n) = self.mate {
            expected.push_str(&format!("dm {n}"));
        } else if !self.bm.is_empty() {
            expected.push_str(&format!("bm {}", self.bm.join(" ")));
        }
        if !self.am.is_empty() {
            if !expected.is_empty() {
                expected.push(' ');
            }
            expected.push_str(&format!("am {}", self.am.join(" ")));
        }
        let status = if self.solved { "solved" } else { "FAILED" };
        let mut line = format!(
            "{:<10} {status}  {expected:<16} played {:<8} found depth {:>2} at {:>5} ms  depth {:>2}  score {}",
            self.id,
            self.played.as_deref().unwrap_or("(none)"),
            self.found_depth,
            self.found_ms,
            self.depth,
            self.score_text
        );
        if let Some(e) = &self.error {
            line.push_str(&format!("  error: {e}"));
        }
        line
    }
}

/// Totals over the suite.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSummary {
    /// Positions searched.
    pub total: usize,
    /// Positions solved.
    pub solved: usize,
    /// Ids of the positions not solved, in suite order.
    pub failed: Vec<String>,
    /// Mean time to solution over the solved positions, in milliseconds.
    pub mean_time_to_solution_ms: Option<f64>,
    /// Mean depth at which the solution was first found, over the solved positions.
    pub mean_depth_to_solution: Option<f64>,
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Search time summed over positions, in milliseconds.
    pub search_time_ms: u64,
    /// Nodes per second of search (nodes / summed search time).
    pub nps: u64,
    /// Wall-clock time of the run, in milliseconds.
    pub wall_time_ms: u64,
    /// Mate problems by their number of moves: (N, solved, total), N ascending.
    pub mates: Vec<(u32, usize, usize)>,
    /// Search statistics summed over all positions.
    pub stats: SearchStats,
}

/// A score as a mate in moves: `Some(n)` with `n > 0` when the side to move mates in `n`,
/// `n < 0` when it is mated in `-n`; `None` for a score that is no mate.
pub fn mate_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Draws `k` records at random (the same ones for the same seed), kept in file order; all of
/// them when there are no more than `k`.
pub fn sample(records: Vec<EpdRecord>, k: usize, seed: u64) -> Vec<EpdRecord> {
    if records.len() <= k {
        return records;
    }
    let mut rng = Rng::new(seed);
    let mut index: Vec<usize> = (0..records.len()).collect();
    // A partial Fisher-Yates shuffle: the first k places get k distinct records.
    for i in 0..k {
        let j = i + rng.below(index.len() - i);
        index.swap(i, j);
    }
    let mut chosen = index[..k].to_vec();
    chosen.sort_unstable();
    let mut records: Vec<Option<EpdRecord>> = records.into_iter().map(Some).collect();
    chosen
        .into_iter()
        .filter_map(|i| records[i].take())
        .collect()
}

impl SolveSummary {
    /// Sums up reports (in any order; the failed ids come out in suite order).
    pub fn from_reports(reports: &[PositionReport], wall_time_ms: u64) -> Self {
        let mut sorted: Vec<&PositionReport> = reports.iter().collect();
        sorted.sort_by_key(|r| r.index);
        let solved: Vec<&&PositionReport> = sorted.iter().filter(|r| r.solved).collect();
        let mean = |f: &dyn Fn(&PositionReport) -> f64| {
            if solved.is_empty() {
                None
            } else {
                Some(solved.iter().map(|r| f(r)).sum::<f64>() / solved.len() as f64)
            }
        };
        let mut stats = SearchStats::default();
        for r in &sorted {
            stats.add(&r.stats);
        }
        let nodes: u64 = sorted.iter().map(|r| r.nodes).sum();
        let mut mates: Vec<(u32, usize, usize)> = Vec::new();
        for r in &sorted {
            if let Some(n) = r.mate {
                match mates.iter_mut().find(|m| m.0 == n) {
                    Some(m) => {
                        m.1 += usize::from(r.solved);
                        m.2 += 1;
                    }
                    None => mates.push((n, usize::from(r.solved), 1)),
                }
            }
        }
        mates.sort_unstable();
        let search_time_ms: u64 = sorted.iter().map(|r| r.time_ms).sum();
        Self {
            total: sorted.len(),
            solved: solved.len(),
            failed: sorted
                .iter()
                .filter(|r| !r.solved)
                .map(|r| r.id.clone())
                .collect(),
            mean_time_to_solution_ms: mean(&|r| r.found_ms as f64),
            mean_depth_to_solution: mean(&|r| r.found_depth as f64),
            nodes,
            search_time_ms,
            nps: nodes * 1000 / search_time_ms.max(1),
            wall_time_ms,
            mates,
            stats,
        }
    }

    /// The summary `lull solve` prints after the positions.
    pub fn text(&self, jobs: usize) -> String {
        let pct = if self.total == 0 {
            0.0
        } else {
            100.0 * self.solved as f64 / self.total as f64
        };
        let mut out = format!("solved {} / {} ({pct:.1}%)\n", self.solved, self.total);
        for (n, solved, total) in &self.mates {
            out.push_str(&format!("  mate in {n}: {solved} / {total}\n"));
        }
        if self.failed.is_empty() {
            out.push_str("failed: none\n");
        } else {
            out.push_str(&format!("failed: {}\n", self.failed.join(" ")));
        }
        match (self.mean_time_to_solution_ms, self.mean_depth_to_solution) {
            (Some(ms), Some(d)) => out.push_str(&format!(
                "mean time to solution: {ms:.1} ms (mean depth {d:.1}) over {} solved positions\n",
                self.solved
            )),
            _ => out.push_str("mean time to solution: - (nothing solved)\n"),
        }
        out.push_str(&format!(
            "nodes {} in {:.1} s of search, nps {}; wall time {:.1} s with {jobs} job{}\n",
            self.nodes,
            self.search_time_ms as f64 / 1000.0,
            self.nps,
            self.wall_time_ms as f64 / 1000.0,
            if jobs == 1 { "" } else { "s" }
        ));
        out.push_str("search statistics, all positions:\n");
        out.push_str(&self.stats.table());
        out
    }
}

/// What the solver reports while it runs.
pub enum SolveEvent<'a> {
    /// A position has been searched (in completion order); `done` of `total` are finished.
    Finished {
        /// Positions finished so far.
        done: usize,
        /// Positions in the run.
        total: usize,
        /// The position's result.
        report: &'a PositionReport,
    },
    /// The next position in suite order is ready to be shown.
    InOrder(&'a PositionReport),
}

/// Searches one position with a cleared engine and judges the move.
pub fn solve_position(
    engine: &mut Engine,
    index: usize,
    record: &EpdRecord,
    limits: &Limits,
) -> PositionReport {
    engine.clear();
    let pos = record.position();
    let board = record.board.clone();
    let outcome = catch_unwind(AssertUnwindSafe(|| engine.search(&pos, limits, &[])));
    let (result, error) = match outcome {
        Ok(r) => (r, None),
        Err(_) => (
            SearchResult::default(),
            Some("the search failed (engine bug)".to_string()),
        ),
    };
    let played = result.best_move;
    let solved = error.is_none() && result_solves(record, &result);
    PositionReport {
        index,
        line: record.line,
        id: record.label(),
        fen: record.fen.clone(),
        bm: record.bm.iter().map(|m| move_to_san(&board, *m)).collect(),
        am: record.am.iter().map(|m| move_to_san(&board, *m)).collect(),
        mate: record.mate,
        played: played.map(|m| move_to_san(&board, m)),
        played_uci: played.map(|m| pos.move_to_uci(m)),
        solved,
        score: result.score,
        score_text: uci_score_text(result.score),
        depth: result.depth,
        found_depth: result.best_found_depth,
        found_ms: result.best_found_ms,
        time_ms: result.time_ms,
        nodes: result.nodes,
        qnodes: result.stats.qnodes,
        pv: line_to_san(&board, &result.pv),
        error,
        stats: result.stats,
        why: None,
    }
}

/// Whether a search result solves a record (the judging of [`solve_position`]).
fn result_solves(record: &EpdRecord, result: &SearchResult) -> bool {
    match record.mate {
        Some(n) => mate_moves(result.score).is_some_and(|m| m > 0 && m <= n as i32),
        None => result.best_move.is_some_and(|m| record.is_solution(m)),
    }
}

/// Why one position was not solved: a search of `line_nodes` nodes for the line that solves
/// it, then the traced search to `depth` (the run's last completed iteration), within as many
/// nodes again (if they run out first, the last iteration read is the one cut short).
pub fn explain_position(
    engine: &mut Engine,
    record: &EpdRecord,
    depth: i32,
    line_nodes: u64,
) -> WhyReport {
    let pos = record.position();
    let board = record.board.clone();
    engine.clear();
    let found = engine.search(&pos, &Limits::nodes(line_nodes), &[]);
    let line_solves = result_solves(record, &found);
    let mut report = WhyReport {
        line_nodes,
        line_solves,
        line: line_to_san(&board, &found.pv),
        line_score: uci_score_text(found.score),
        diagnosis: None,
    };
    if line_solves && !found.pv.is_empty() {
        engine.clear();
        // The run's depth, and no more nodes than the longer search had: a run that found a
        // long mate may report a depth no plain search reaches in reasonable time.
        let limits = Limits {
            depth: Some(depth.max(1)),
            nodes: Some(line_nodes),
            ..Limits::default()
        };
        if let Ok((_, trace)) = engine.search_why(&pos, &limits, &found.pv) {
            report.diagnosis = diagnose(&pos, &found.pv, &trace);
        }
    }
    report
}

/// Explains every failed report of a run (`--why`), `jobs` positions at a time; `on_done` is
/// called on the calling thread as each is done.
pub fn explain_failures(
    reports: &mut [PositionReport],
    records: &[EpdRecord],
    config: &SolveConfig,
    line_nodes: u64,
    mut on_done: impl FnMut(),
) -> Result<(), String> {
    let failed: Vec<usize> = (0..reports.len()).filter(|&i| !reports[i].solved).collect();
    if failed.is_empty() {
        return Ok(());
    }
    let engines = config.make_engines(config.jobs.clamp(1, failed.len()))?;
    let mut explained = Vec::with_capacity(failed.len());
    let shared: &[PositionReport] = reports;
    run_jobs(
        engines,
        failed.len(),
        "why",
        |engine, k| {
            let r = &shared[failed[k]];
            explain_position(engine, &records[r.index], r.depth, line_nodes)
        },
        |k, why| {
            on_done();
            explained.push((failed[k], why));
        },
    )?;
    for (i, why) in explained {
        reports[i].why = Some(why);
    }
    Ok(())
}

/// The summary of `--why`: how many failed positions ended at each cause, and how many had a
/// line move reduced on the way.
pub fn why_summary(reports: &[PositionReport]) -> String {
    let whys: Vec<&WhyReport> = reports.iter().filter_map(|r| r.why.as_ref()).collect();
    if whys.is_empty() {
        return String::new();
    }
    let diagnosed: Vec<&Diagnosis> = whys.iter().filter_map(|w| w.diagnosis.as_ref()).collect();
    let mut out = format!(
        "why, over {} failed positions ({} with a line to follow):\n",
        whys.len(),
        diagnosed.len()
    );
    for cause in Cause::ALL {
        let n = diagnosed.iter().filter(|d| d.cause == cause).count();
        if n > 0 {
            let reduced = diagnosed
                .iter()
                .filter(|d| d.cause == cause && !d.reductions.is_empty())
                .count();
            out.push_str(&format!(
                "  {:<38} {n:>4}  ({reduced} after a reduction of the line)\n",
                cause.name()
            ));
        }
    }
    let unsolved = whys.iter().filter(|w| !w.line_solves).count();
    if unsolved > 0 {
        out.push_str(&format!(
            "  {:<38} {unsolved:>4}\n",
            "no line (the longer search missed too)"
        ));
    }
    out
}

/// Runs `work(engine, k)` for k in `0..count` on one scoped thread per engine, the threads
/// taking the next k in turn; `on_result(k, result)` is called on the calling thread as each
/// finishes. An error only when no thread could be started (fewer threads still finish).
fn run_jobs<R: Send>(
    engines: Vec<Engine>,
    count: usize,
    name: &str,
    work: impl Fn(&mut Engine, usize) -> R + Sync,
    mut on_result: impl FnMut(usize, R),
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        let mut started = 0;
        let mut spawn_error = None;
        for (job, mut engine) in engines.into_iter().enumerate() {
            let (tx, next, work) = (tx.clone(), &next, &work);
            let spawned = std::thread::Builder::new()
                .name(format!("lull-{name}-{job}"))
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= count {
                        break;
                    }
                    if tx.send((k, work(&mut engine, k))).is_err() {
                        break;
                    }
                });
            match spawned {
                Ok(_) => started += 1,
                Err(e) => spawn_error = Some(e),
            }
        }
        drop(tx);
        if started == 0 {
            return Err(format!(
                "cannot start a {name} thread: {}",
                spawn_error.map_or_else(String::new, |e| e.to_string())
            ));
        }
        for (k, result) in rx {
            on_result(k, result);
        }
        Ok(())
    })
}

/// Runs the suite. Engines are set up first (a bad option is an error before any search);
/// then `config.jobs` workers take positions in turn. `on_event` is called on the calling
/// thread as positions finish. Returns the reports in suite order.
pub fn solve(
    records: &[EpdRecord],
    config: &SolveConfig,
    mut on_event: impl FnMut(SolveEvent<'_>),
) -> Result<Vec<PositionReport>, String> {
    let engines = config.make_engines(config.jobs.clamp(1, records.len().max(1)))?;
    let limits = config.limits();
    let total = records.len();
    let mut slots: Vec<Option<PositionReport>> = vec![None; total];
    let mut shown = 0;
    let mut done = 0;
    run_jobs(
        engines,
        total,
        "solve",
        |engine, i| solve_position(engine, i, &records[i], &limits),
        |i, report| {
            done += 1;
            on_event(SolveEvent::Finished {
                done,
                total,
                report: &report,
            });
            slots[i] = Some(report);
            while let Some(Some(r)) = slots.get(shown) {
                on_event(SolveEvent::InOrder(r));
                shown += 1;
            }
        },
    )?;
    let reports: Vec<PositionReport> = slots.into_iter().flatten().collect();
    if reports.len() != total {
        return Err(format!(
            "only {} of {total} positions were searched",
            reports.len()
        ));
    }
    Ok(reports)
}

/// Everything `lull solve --json` writes.
#[derive(Serialize)]
pub struct SolveJson<'a> {
    /// How the suite was run.
    pub config: &'a SolveConfig,
    /// Where the positions came from.
    pub source: &'a str,
    /// Lines of the EPD that were skipped, with the reason.
    pub skipped: &'a [String],
    /// One record per position, in suite order.
    pub positions: &'a [PositionReport],
    /// The totals.
    pub summary: &'a SolveSummary,
}

/// Keeps the records that can be judged (with `bm`, `am` or a mate depth); the others are
/// returned as messages naming their line.
pub fn judgeable(records: Vec<EpdRecord>) -> (Vec<EpdRecord>, Vec<String>) {
    let mut keep = Vec::with_capacity(records.len());
    let mut skipped = Vec::new();
    for r in records {
        if r.bm.is_empty() && r.am.is_empty() && r.mate.is_none() {
            skipped.push(format!(
                "line {}: no 'bm', 'am' or 'dm' operation to judge the move by",
                r.line
            ));
        } else {
            keep.push(r);
        }
    }
    (keep, skipped)
}

/// Arguments of `lull solve`.
#[derive(Clone, Debug, clap::Args)]
pub struct SolveArgs {
    /// EPD files, read as one suite (default: the embedded WAC suite).
    pub epd: Vec<PathBuf>,
    /// Draw this many positions of each file at random (see --seed).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// The seed of --sample: the same seed draws the same positions.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds per position (the default, 1000, when no limit is given).
    #[arg(long, value_name = "MS", conflicts_with_all = ["nodes", "depth"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Depth per position, in plies.
    #[arg(long, value_name = "D",
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: Option<i32>,
    /// Search threads per position.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Positions searched in parallel (one engine each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// Hash size per engine, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Write every position's record and the summary to this file as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// A UCI option for every engine, e.g. --option QSearch=false (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Search with the play settings (`TacticalMode` off), the search that plays games. Without
    /// it `solve` analyses, as a GUI's analysis does (`UCI_AnalyseMode`): it searches in
    /// `TacticalMode` (no reverse or plain futility pruning, a smaller null-move reduction,
    /// quiet checks kept by late move pruning and tried in the first quiescence ply, aspiration
    /// windows that double), which finds sacrifices and mates sooner and is weaker in play.
    #[arg(long, conflicts_with = "tactical")]
    pub play: bool,
    /// Search in `TacticalMode`: the default (kept for scripts that name it).
    #[arg(long)]
    pub tactical: bool,
    /// After the run, say for each failed position why it was missed: a longer search (see
    /// --why-nodes) finds the line that solves it, a search to the depth the run reached
    /// follows that line (as `lull why` does), and the first pruning that hid it is named.
    #[arg(long)]
    pub why: bool,
    /// Nodes of the longer search of --why.
    #[arg(long, value_name = "N", default_value_t = WHY_LINE_NODES, requires = "why",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub why_nodes: u64,
}

/// Default nodes of the search that finds the solving line for `--why`.
pub const WHY_LINE_NODES: u64 = 5_000_000;

/// Reads the suite of `lull solve`: the embedded WAC when no file is given, else every file in
/// turn, with `sample` positions drawn from each. Positions without an `id` are named
/// `file:line`. Returns the source's name, the records, and the skipped lines (each named by
/// its file). A file that cannot be read is an error.
pub fn read_suite(
    files: &[PathBuf],
    sample_size: Option<u64>,
    seed: u64,
) -> Result<(String, Vec<EpdRecord>, Vec<String>), String> {
    let mut suite = Vec::new();
    let mut skipped = Vec::new();
    let inputs: Vec<(String, String, Vec<EpdRecord>, Vec<String>)> = if files.is_empty() {
        let (records, errors) = parse_epd(WAC_EPD);
        vec![(
            "embedded WAC".into(),
            "wac".into(),
            records,
            errors.iter().map(|e| e.to_string()).collect(),
        )]
    } else {
        let mut inputs = Vec::new();
        for path in files {
            let (records, errors) = read_epd_file(path)?;
            let stem = path.file_stem().map_or_else(
                || path.display().to_string(),
                |s| s.to_string_lossy().into(),
            );
            inputs.push((
                path.display().to_string(),
                stem,
                records,
                errors.iter().map(|e| e.to_string()).collect(),
            ));
        }
        inputs
    };
    let source = inputs
        .iter()
        .map(|i| i.0.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    for (name, stem, records, errors) in inputs {
        let (mut records, unjudgeable) = judgeable(records);
        let mut lines: Vec<String> = errors.into_iter().chain(unjudgeable).collect();
        lines.sort_by_key(|s| {
            s.strip_prefix("line ")
                .and_then(|t| t.split(':').next())
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(usize::MAX)
        });
        skipped.extend(lines.into_iter().map(|l| format!("{name}: {l}")));
        if let Some(k) = sample_size {
            records = sample(records, k as usize, seed);
        }
        for r in &mut records {
            if r.id.is_none() {
                r.id = Some(format!("{stem}:{}", r.line));
            }
        }
        suite.extend(records);
    }
    Ok((source, suite, skipped))
}

/// `lull solve`: one line per position in suite order (a progress bar meanwhile), then the
/// summary, and the JSON file with `--json`. Exit code 2 for a bad option or an unreadable
/// file, 1 when there is nothing to solve or the JSON cannot be written.
pub fn run(args: SolveArgs) -> ExitCode {
    // The options first: a typo should not cost a whole run.
    // Solving a suite is analysis: the option `TacticalMode=true` unless `--play`, set before
    // the others (so that `--option TacticalMode=false` still turns it off).
    let texts: Vec<String> = (!args.play)
        .then(|| "TacticalMode=true".to_string())
        .into_iter()
        .chain(args.options.iter().cloned())
        .collect();
    // An option given twice is set to its last value, and shown once.
    let name_of = |t: &String| crate::options::split_assignment(t).0.to_ascii_lowercase();
    let texts: Vec<String> = texts
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            !texts[i + 1..]
                .iter()
                .any(|later| name_of(later) == name_of(t))
        })
        .map(|(_, t)| t.clone())
        .collect();
    let options = match check_engine_options(&texts) {
        Ok(options) => options,
        Err(e) => return fail(2, e),
    };
    if let Some(path) = &args.json {
        let inputs: Vec<&Path> = args.epd.iter().map(PathBuf::as_path).collect();
        if let Err(e) = check_output(path, &inputs) {
            return fail(2, e);
        }
    }
    let (source, records, skipped) = match read_suite(&args.epd, args.sample, args.seed) {
        Ok(suite) => suite,
        Err(e) => return fail(2, e),
    };
    for s in &skipped {
        eprintln!("warning: {s} (skipped)");
    }
    if records.is_empty() {
        return fail(1, format!("{source}: no position to solve"));
    }
    let config = SolveConfig {
        movetime: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        threads: args.threads as usize,
        jobs: args.jobs as usize,
        hash_mib: args.hash as usize,
        options,
    };
    eprintln!(
        "solving {} positions from {source}: {}, {} job(s) x {} thread(s), hash {} MiB",
        records.len(),
        config.limits_text(),
        config.jobs,
        config.threads,
        config.hash_mib
    );
    if !config.options.is_empty() {
        eprintln!("options: {}", config.options_text());
    }
    let bar = progress_bar(records.len() as u64, "{pos}/{len} solved");
    bar.set_message("0");
    let start = Instant::now();
    let mut solved = 0;
    let outcome = solve(&records, &config, |event| match event {
        SolveEvent::Finished { report, .. } => {
            if report.solved {
                solved += 1;
            }
            bar.set_message(solved.to_string());
            bar.inc(1);
        }
        SolveEvent::InOrder(report) => bar.suspend(|| println!("{}", report.line_text())),
    });
    bar.finish_and_clear();
    let mut reports = match outcome {
        Ok(r) => r,
        Err(e) => return fail(1, e),
    };
    let summary = SolveSummary::from_reports(&reports, start.elapsed().as_millis() as u64);
    println!();
    print!("{}", summary.text(config.jobs));
    if args.why && !summary.failed.is_empty() {
        let bar = progress_bar(summary.failed.len() as u64, "{pos}/{len} explained");
        let explained = explain_failures(&mut reports, &records, &config, args.why_nodes, || {
            bar.inc(1)
        });
        bar.finish_and_clear();
        if let Err(e) = explained {
            return fail(1, e);
        }
        println!(
            "\nwhy the failed positions were missed (the line: a search of {} nodes; the trace: \
             a search to the depth the run reached):",
            args.why_nodes
        );
        for r in &reports {
            if let Some(w) = &r.why {
                println!("{}", w.text(&r.id));
            }
        }
        print!("{}", why_summary(&reports));
    }
    if !skipped.is_empty() {
        println!("skipped lines: {}", skipped.len());
    }
    if let Some(path) = &args.json {
        let doc = SolveJson {
            config: &config,
            source: &source,
            skipped: &skipped,
            positions: &reports,
            summary: &summary,
        };
        let written = serde_json::to_string_pretty(&doc)
            .map_err(|e| e.to_string())
            .and_then(|text| write_atomic(path, (text + "\n").as_bytes()));
        if let Err(e) = written {
            return fail(1, e);
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_wac_is_complete_and_judgeable() {
        let (records, errors) = parse_epd(WAC_EPD);
        assert!(errors.is_empty());
        let (keep, skipped) = judgeable(records);
        assert_eq!(keep.len(), 300);
        assert!(skipped.is_empty());
    }

    #[test]
    fn default_limits_and_bad_options() {
        let config = SolveConfig::default();
        assert_eq!(config.limits().movetime, Some(DEFAULT_MOVETIME_MS));
        assert_eq!(config.limits_text(), "movetime 1000 ms");
        let config = SolveConfig {
            depth: Some(3),
            ..SolveConfig::default()
        };
        assert_eq!(config.limits().movetime, None);
        assert_eq!(config.limits_text(), "depth 3");
        let config = SolveConfig {
            options: vec![("QSearchSEE".into(), Some("lots".into()))],
            ..SolveConfig::default()
        };
        let (records, _) = parse_epd(WAC_EPD);
        let err = solve(&records[..1], &config, |_| {}).unwrap_err();
        assert!(
            err.contains("QSearchSEE") && err.contains("not an integer"),
            "{err}"
        );
    }

    #[test]
    fn solves_in_suite_order_with_parallel_jobs() {
        let (records, _) = parse_epd(WAC_EPD);
        // WAC.003 (Rg3), WAC.004 (Qxh7+ mates), WAC.005 (Qc4+ mates), WAC.006.
        let records: Vec<EpdRecord> = records.into_iter().skip(2).take(4).collect();
        let config = SolveConfig {
            depth: Some(5),
            jobs: 2,
            hash_mib: 2,
            ..SolveConfig::default()
        };
        let mut finished = 0;
        let mut order = Vec::new();
        let reports = solve(&records, &config, |e| match e {
            SolveEvent::Finished { done, total, .. } => {
                finished += 1;
                assert_eq!(done, finished);
                assert_eq!(total, 4);
            }
            SolveEvent::InOrder(r) => order.push(r.index),
        })
        .unwrap();
        assert_eq!(finished, 4);
        assert_eq!(order, [0, 1, 2, 3]);
        assert_eq!(reports.len(), 4);
        let r = &reports[1];
        assert_eq!(r.id, "WAC.004");
        assert_eq!(r.bm, ["Qxh7+"]);
        assert!(r.solved, "{}", r.line_text());
        assert_eq!(r.played.as_deref(), Some("Qxh7+"));
        assert_eq!(r.played_uci.as_deref(), Some("h6h7"));
        assert_eq!(r.score_text, "mate 2", "{}", r.line_text());
        assert_eq!(r.depth, 5);
        assert!(r.found_depth >= 1 && r.found_depth <= 5);
        assert!(r.line_text().starts_with("WAC.004"));
        assert!(r.line_text().contains(" solved "));
        assert_eq!(r.pv.first().map(String::as_str), Some("Qxh7+"));
        assert!(r.pv.last().is_some_and(|m| m.ends_with('#')), "{:?}", r.pv);
        assert_eq!(reports[0].id, "WAC.003");
        assert!(reports[0].solved, "{}", reports[0].line_text());
        let summary = SolveSummary::from_reports(&reports, 1);
        assert_eq!(summary.total, 4);
        assert_eq!(
            summary.solved + summary.failed.len(),
            4,
            "{}",
            summary.text(2)
        );
        assert_eq!(summary.nodes, reports.iter().map(|r| r.nodes).sum::<u64>());
        assert!(summary.stats.qnodes > 0);
        assert!(summary
            .text(2)
            .contains(&format!("solved {} / 4", summary.solved)));
    }

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(mate_moves(MATE - 1), Some(1));
        assert_eq!(mate_moves(MATE - 3), Some(2));
        assert_eq!(mate_moves(MATE - 4), Some(2));
        assert_eq!(mate_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_moves(-(MATE - 4)), Some(-2));
        assert_eq!(mate_moves(250), None);
        assert_eq!(mate_moves(-MATE_BOUND + 1), None);
    }

    #[test]
    fn samples_are_seeded_distinct_and_in_file_order() {
        let (records, _) = parse_epd(WAC_EPD);
        let a = sample(records.clone(), 20, 7);
        let b = sample(records.clone(), 20, 7);
        let c = sample(records.clone(), 20, 8);
        let lines = |v: &[EpdRecord]| v.iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!(lines(&a), lines(&b));
        assert_ne!(lines(&a), lines(&c));
        assert_eq!(a.len(), 20);
        assert!(lines(&a).windows(2).all(|w| w[0] < w[1]), "{:?}", lines(&a));
        assert_eq!(sample(records[..5].to_vec(), 20, 7).len(), 5);
    }

    #[test]
    fn mate_problems_are_judged_by_the_mate_score_whatever_the_move() {
        // Two mates in 2 in the collections' notation (bm in long algebraic, ce +M2; lines 23
        // and 50 of mate_in_2.epd), a
        // mate in 1 written as dm 1, and a line without anything to judge.
        let dir = std::env::temp_dir().join(format!("lull-solve-mates-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let two = dir.join("mate_in_2.epd");
        std::fs::write(
            &two,
            "1nbk1b1r/1r6/p2P2pp/1B2PpN1/2p2P2/2P1B3/7P/R3K2R w - - bm Be3-b6+; ce +M2; pv Be3-b6+ Rb7-c7 Ng5-f7+;\n\
             1r5r/ppp1k3/3pPpQp/8/3pP3/8/P4PPP/6K1 w - - bm Qg6-f7+; ce +M2; pv Qg6-f7+ Ke7-d8 Qf7-d7+;\n\
             4k3/8/8/8/8/8/8/4K3 w - -;\n",
        )
        .unwrap();
        let one = dir.join("one.epd");
        std::fs::write(
            &one,
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1; id \"back rank\";\n",
        )
        .unwrap();
        let (source, records, skipped) = read_suite(&[two.clone(), one.clone()], None, 1).unwrap();
        assert!(source.contains("mate_in_2.epd") && source.contains("one.epd"));
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert!(skipped[0].contains("mate_in_2.epd: line 3"), "{skipped:?}");
        let ids: Vec<&str> = records.iter().map(|r| r.id.as_deref().unwrap()).collect();
        assert_eq!(ids, ["mate_in_2:1", "mate_in_2:2", "back rank"]);
        let config = SolveConfig {
            depth: Some(6),
            hash_mib: 2,
            ..SolveConfig::default()
        };
        let reports = solve(&records, &config, |_| {}).unwrap();
        for r in &reports {
            assert!(r.solved, "{}", r.line_text());
            let n = r.mate.unwrap() as i32;
            let m = mate_moves(r.score).unwrap();
            assert!(m > 0 && m <= n, "{}", r.line_text());
            assert!(
                r.line_text().contains(&format!("dm {n}")),
                "{}",
                r.line_text()
            );
        }
        // Too shallow to see a mate in 2: not solved, whatever move it plays.
        let shallow = SolveConfig {
            depth: Some(1),
            hash_mib: 2,
            options: vec![("QSearchChecks".into(), Some("0".into()))],
            ..SolveConfig::default()
        };
        let r = solve(&records[1..2], &shallow, |_| {}).unwrap();
        assert!(!r[0].solved, "{}", r[0].line_text());
        let summary = SolveSummary::from_reports(&reports, 1);
        assert_eq!(summary.mates, [(1, 1, 1), (2, 2, 2)]);
        let text = summary.text(1);
        assert!(
            text.contains("  mate in 1: 1 / 1\n  mate in 2: 2 / 2\n"),
            "{text}"
        );
        assert!(read_suite(&[dir.join("missing.epd")], None, 1).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn clearing_makes_results_independent_of_order() {
        let (records, _) = parse_epd(WAC_EPD);
        let config = SolveConfig {
            depth: Some(4),
            hash_mib: 2,
            ..SolveConfig::default()
        };
        let mut engine = config.make_engine().unwrap();
        let limits = config.limits();
        let alone = solve_position(&mut engine, 0, &records[2], &limits);
        let _ = solve_position(&mut engine, 1, &records[0], &limits);
        let again = solve_position(&mut engine, 2, &records[2], &limits);
        assert_eq!(alone.nodes, again.nodes);
        assert_eq!(alone.played, again.played);
        assert_eq!(alone.score, again.score);
    }

    #[test]
    fn why_follows_the_solving_line_and_names_what_hid_it() {
        // The Ne7 example (mate in 2) searched to depth 4, where it is missed; and a
        // start position that claims a mate in 1, which no longer search can find.
        let (records, errors) = parse_epd(
            "r2qrb2/p1pn1Qp1/1p4Nk/4PR2/3n4/7N/P5PP/R6K w - - dm 2; id \"ne7\";\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - dm 1; id \"start\";\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let config = SolveConfig {
            depth: Some(4),
            ..SolveConfig::default()
        };
        let mut reports = solve(&records, &config, |_| {}).unwrap();
        assert!(reports.iter().all(|r| !r.solved && r.depth == 4));
        let mut done = 0;
        explain_failures(&mut reports, &records, &config, 300_000, || done += 1).unwrap();
        assert_eq!(done, 2);
        let ne7 = reports[0].why.as_ref().unwrap();
        assert!(ne7.line_solves);
        assert_eq!(ne7.line[..3], ["Ne7", "Bxe7", "Qh5#"]);
        assert_eq!(ne7.line_score, "mate 2");
        let d = ne7.diagnosis.as_ref().unwrap();
        assert_eq!(d.reductions, vec![(0, 2, 14)]);
        assert_eq!((d.ply, d.depth, d.cause), (1, 1, Cause::ReverseFutility));
        assert!(
            ne7.text("ne7").contains("reverse futility: eval +113"),
            "{}",
            ne7.text("ne7")
        );
        let start = reports[1].why.as_ref().unwrap();
        assert!(!start.line_solves && start.diagnosis.is_none());
        assert!(start.text("start").contains("no line to follow"));
        let summary = why_summary(&reports);
        assert!(summary.starts_with("why, over 2 failed positions (1 with a line to follow):\n"));
        assert!(
            summary.contains("reverse futility                          1  (1 after a reduction"),
            "{summary}"
        );
        assert!(
            summary.contains("no line (the longer search missed too)"),
            "{summary}"
        );
        // Solved positions are not explained.
        let (mate1, _) = parse_epd("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1;\n");
        let mut solved = solve(&mate1, &config, |_| {}).unwrap();
        assert!(solved[0].solved);
        explain_failures(&mut solved, &mate1, &config, 1000, || unreachable!()).unwrap();
        assert!(solved[0].why.is_none());
        assert_eq!(why_summary(&solved), "");
    }

    #[test]
    fn engines_get_the_whole_move_time_unless_an_option_says() {
        let config = SolveConfig::default();
        assert_eq!(config.make_engine().unwrap().options.move_overhead, 0);
        let config = SolveConfig {
            options: vec![
                ("Move Overhead".to_string(), Some("30".to_string())),
                ("TacticalMode".to_string(), Some("true".to_string())),
            ],
            ..SolveConfig::default()
        };
        let engine = config.make_engine().unwrap();
        assert_eq!(engine.options.move_overhead, 30);
        assert!(engine.options.tactical);
        assert_eq!(config.options_text(), "Move Overhead=30 TacticalMode=true");
    }
}

//! The searches `lull explore` runs: a table of jobs, each a horizon pair (the same search
//! without and with the quiescence search, as [`crate::tools::teaching::horizon`] does it) plus the
//! quiescence tree at the horizon, on its own thread with its own [`Engine`]s. A job's
//! progress can be read while it runs, and it can be stopped; several run at once (one per
//! browser tab), each independent of the others.
//!
//! Every engine call a request can start is bounded ([`Caps`]), whoever is still waiting for
//! it: each search of a job by [`SEARCH_MAX_NODES`] and [`SEARCH_MAX_MS`], each quiescence tree
//! (of a job or of `POST /api/tree`) by [`TREE_MAX_QNODES`] and [`TREE_MAX_MS`], the threat
//! search by [`THREAT_MAX_NODES`] and [`THREAT_MAX_MS`]. Each call runs [`watched`]: a watcher thread stops
//! the engine when its time is up or when the job is stopped, whichever engine the job is
//! running (a search, a tree, the threat), and also when the stop came just before the engine
//! started (which clears its stop flag).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};

use crate::options::{apply_value, OptionSpec, OptionValue};
use crate::params::INFINITY;
use crate::position::{board_fen, Position};
use crate::san::move_to_san;
use crate::search::QEnd;
use crate::search::{Control, Engine, SearchReport, SearchResult};
use crate::time::Limits;
use crate::tools::cli::quiet_engine;
use crate::tools::teaching::qtree::{qtree, PrunedMove, QChild, QNode, QTree};

/// Hash of each engine a job runs, in MiB.
pub const JOB_HASH_MIB: usize = 16;
/// At most this many jobs run at once; a further search is refused until one ends.
pub const MAX_RUNNING: usize = 8;
/// At most this many jobs are kept; the oldest finished ones are forgotten first.
pub const MAX_KEPT: usize = 64;
/// Tree nodes (searched nodes plus pruned leaves) shown of the quiescence tree.
pub const TREE_NODES: usize = 400;
/// Nodes of each search of a job (one of the horizon pair, or of A/B) at most.
pub const SEARCH_MAX_NODES: u64 = 100_000_000;
/// Milliseconds of each search of a job at most.
pub const SEARCH_MAX_MS: u64 = 60_000;
/// Quiescence nodes of a quiescence tree at most: a larger `QSearchMaxNodes`, or 0 (no cap),
/// is lowered to it; the nodes past it are scored by the static evaluation.
pub const TREE_MAX_QNODES: u64 = 2_000_000;
/// Milliseconds of a quiescence tree at most (after them it is stopped).
pub const TREE_MAX_MS: u64 = 10_000;
/// Nodes of the threat search at most.
pub const THREAT_MAX_NODES: u64 = 2_000_000;
/// Milliseconds of the threat search at most.
pub const THREAT_MAX_MS: u64 = 5_000;
/// The bounds of the engine calls of a server's requests (the constants above by default;
/// smaller in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Nodes of each search of a job.
    pub search_nodes: u64,
    /// Milliseconds of each search of a job.
    pub search_ms: u64,
    /// Quiescence nodes of a tree.
    pub tree_qnodes: u64,
    /// Milliseconds of a tree.
    pub tree_ms: u64,
    /// Nodes of the threat search.
    pub threat_nodes: u64,
    /// Milliseconds of the threat search.
    pub threat_ms: u64,
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            search_nodes: SEARCH_MAX_NODES,
            search_ms: SEARCH_MAX_MS,
            tree_qnodes: TREE_MAX_QNODES,
            tree_ms: TREE_MAX_MS,
            threat_nodes: THREAT_MAX_NODES,
            threat_ms: THREAT_MAX_MS,
        }
    }
}

/// A duration for people: `60 s`, `300 ms`.
fn ms_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// How often the watcher of an engine call looks at the job's stop flag and the clock, in
/// milliseconds.
const WATCH_EVERY_MS: u64 = 5;
/// Milliseconds the watcher of a search gives the engine past its own time limit before it
/// stops it itself.
const WATCH_GRACE_MS: u64 = 1_000;

/// Checked options, applied in this order.
pub type OptionSet = Vec<(OptionSpec, OptionValue)>;

/// What a search job asks for, checked.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The position.
    pub pos: Position,
    /// Depth of both searches.
    pub depth: i32,
    /// The options (set A), checked, applied to both engines of the horizon pair (whose
    /// `QSearch` the pair sets: off, then on).
    pub options: OptionSet,
    /// Set B: with it the job is an A/B comparison, one search with each set (each with its
    /// own `QSearch`), instead of the horizon pair.
    pub options_b: Option<OptionSet>,
    /// Where the quiescence tree is built: the moves (UCI) from the position. `None`: the
    /// horizon (the end of the line of the search without quiescence; in A/B, the end of
    /// the main-search part of A's line).
    pub tree_moves: Option<Vec<String>>,
}

/// Where a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Still searching.
    Running,
    /// Both searches and the tree are done.
    Done,
    /// Stopped on request: the result holds what was finished.
    Stopped,
    /// The search failed (a panic in the engine); `error` says how.
    Failed,
}

/// What a job shows while it runs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Progress {
    /// `without`, `with` (or `a`, `b`), `tree` or `threat`: which part runs now.
    pub phase: String,
    /// Last completed iteration of the running search.
    pub depth: i32,
    /// Its score (centipawns, from the side to move).
    pub score: i32,
    /// The score as the page shows it.
    pub score_text: String,
    /// Nodes so far in the running search.
    pub nodes: u64,
    /// Its principal variation (UCI).
    pub pv: Vec<String>,
}

/// One job.
pub struct Job {
    /// Its number.
    pub id: u64,
    stop: AtomicBool,
    inner: Mutex<JobInner>,
}

struct JobInner {
    state: JobState,
    progress: Progress,
    result: Option<Value>,
    error: Option<String>,
}

/// Locks a mutex, also after a panic on another thread held it (the data is plain).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Job {
    /// Asks the job to stop: the running engine call (a search, a tree, the threat) ends
    /// within a few milliseconds ([`watched`]) and nothing more is started.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The state.
    pub fn state(&self) -> JobState {
        lock(&self.inner).state
    }

    /// The job as JSON: id, state, progress, and the result once there is one.
    pub fn to_json(&self) -> Value {
        let inner = lock(&self.inner);
        json!({
            "id": self.id,
            "state": inner.state,
            "progress": inner.progress,
            "result": inner.result,
            "error": inner.error,
        })
    }

    fn set_progress(&self, f: impl FnOnce(&mut Progress)) {
        f(&mut lock(&self.inner).progress);
    }
}

/// The jobs of one server.
#[derive(Default)]
pub struct JobTable {
    next: Mutex<u64>,
    jobs: Mutex<BTreeMap<u64, Arc<Job>>>,
    caps: Caps,
}

impl JobTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty table whose engine calls are bounded by `caps`.
    pub fn with_caps(caps: Caps) -> Self {
        Self {
            caps,
            ..Self::default()
        }
    }

    /// The bounds of its engine calls.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// The job with that number.
    pub fn get(&self, id: u64) -> Option<Arc<Job>> {
        lock(&self.jobs).get(&id).cloned()
    }

    /// Starts a job on its own thread; refused while [`MAX_RUNNING`] jobs run.
    pub fn start(&self, req: SearchRequest) -> Result<Arc<Job>, String> {
        let job = {
            let mut jobs = lock(&self.jobs);
            let running = jobs
                .values()
                .filter(|j| j.state() == JobState::Running)
                .count();
            if running >= MAX_RUNNING {
                return Err(format!(
                    "{running} searches are running already; stop one or wait"
                ));
            }
            // Forget the oldest finished jobs beyond the limit.
            while jobs.len() >= MAX_KEPT {
                let Some(old) = jobs
                    .iter()
                    .find(|(_, j)| j.state() != JobState::Running)
                    .map(|(id, _)| *id)
                else {
                    break;
                };
                jobs.remove(&old);
            }
            let mut next = lock(&self.next);
            *next += 1;
            let job = Arc::new(Job {
                id: *next,
                stop: AtomicBool::new(false),
                inner: Mutex::new(JobInner {
                    state: JobState::Running,
                    progress: Progress {
                        phase: "without".into(),
                        ..Progress::default()
                    },
                    result: None,
                    error: None,
                }),
            });
            jobs.insert(job.id, Arc::clone(&job));
            job
        };
        let worker = Arc::clone(&job);
        let caps = self.caps;
        let spawned = std::thread::Builder::new()
            .name(format!("explore-job-{}", job.id))
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run_job(&worker, &req, &caps)
                }));
                let mut inner = lock(&worker.inner);
                match outcome {
                    Ok(result) => {
                        inner.result = Some(result);
                        inner.state = if worker.stop.load(Ordering::SeqCst) {
                            JobState::Stopped
                        } else {
                            JobState::Done
                        };
                    }
                    Err(panic) => {
                        let what = panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "unknown panic".into());
                        inner.error = Some(format!("the search failed: {what}"));
                        inner.state = JobState::Failed;
                    }
                }
            });
        if let Err(e) = spawned {
            let mut inner = lock(&job.inner);
            inner.state = JobState::Failed;
            inner.error = Some(format!("cannot start a search thread: {e}"));
        }
        Ok(job)
    }

    /// Stops every running job (when the server shuts down).
    pub fn stop_all(&self) {
        for job in lock(&self.jobs).values() {
            job.stop();
        }
    }
}

/// A score as the page shows it: `+291`, `-75`, `0`, mate in moves as `M3` (the side to
/// move mates in 3) / `-M3` (it is mated in 3), a tablebase win or loss as `TB win` / `TB
/// loss`. A bound beyond the mate scores (short of infinity, which [`bound_text`] writes) is
/// written as its number.
pub fn score_text(score: i32) -> String {
    use crate::params::{MATE, MATE_BOUND, TB_BOUND, TB_WIN};
    if score.abs() > MATE {
        format!("{score:+}")
    } else if score == -MATE {
        // Checkmated now, the side to move has no move: not a mate "in 0".
        "mated".into()
    } else if score >= MATE_BOUND {
        format!("M{}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("-M{}", (MATE + score + 1) / 2)
    } else if (TB_BOUND..=TB_WIN).contains(&score) {
        "TB win".into()
    } else if (-TB_WIN..=-TB_BOUND).contains(&score) {
        "TB loss".into()
    } else if score == 0 {
        "0".into()
    } else {
        format!("{score:+}")
    }
}

/// A line of moves from `pos` in UCI notation, castling written as the position's mode
/// writes it (`e1g1` in standard chess, king takes rook in Chess960), as UCI and
/// `/api/moves` write it.
pub fn uci_line(pos: &Position, moves: &[cozy_chess::Move]) -> Vec<String> {
    line_json(pos, moves)
        .into_iter()
        .filter_map(|m| m["uci"].as_str().map(str::to_string))
        .collect()
}

/// A line of moves from `pos`: each with SAN, UCI and the FEN after it.
pub fn line_json(pos: &Position, moves: &[cozy_chess::Move]) -> Vec<Value> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in moves {
        if !p.board().is_legal(mv) {
            break;
        }
        let san = move_to_san(p.board(), mv);
        let uci = p.move_to_uci(mv);
        p.play(mv);
        out.push(json!({ "san": san, "uci": uci, "fen": p.fen() }));
    }
    out
}

/// A fresh silent engine with `options` applied (the network file before its switch), then
/// the quiescence search on or off when `qsearch` says so.
pub fn options_engine(options: &OptionSet, qsearch: Option<bool>) -> Result<Engine, String> {
    let mut engine = quiet_engine(JOB_HASH_MIB);
    let mut ordered: Vec<&(OptionSpec, OptionValue)> = options.iter().collect();
    ordered.sort_by_key(|(s, _)| crate::options::application_order(s.name));
    for (spec, value) in ordered {
        apply_value(&mut engine, spec, value)?;
    }
    if let Some(q) = qsearch {
        engine.options.qs.enabled = q;
    }
    Ok(engine)
}

/// Runs `f`, a call of the engine whose flags are `control`, while a watcher thread stops
/// the engine as soon as `stop` (the job's flag) is set or `budget` has passed; it keeps
/// setting the engine's stop flag from then on, so that a stop the engine cleared when it
/// started is not lost. Returns what `f` returned and whether the budget ran out. Without a
/// thread for the watcher `f` runs unwatched (the engine's own limits still end it).
pub fn watched<T>(
    control: &Control,
    stop: Option<&AtomicBool>,
    budget: Duration,
    f: impl FnOnce() -> T,
) -> (T, bool) {
    let start = Instant::now();
    let timed_out = AtomicBool::new(false);
    let (done, finished) = mpsc::channel::<()>();
    let out = std::thread::scope(|scope| {
        let timed_out = &timed_out;
        let watcher = std::thread::Builder::new()
            .name("explore-watch".into())
            .spawn_scoped(scope, move || loop {
                match finished.recv_timeout(Duration::from_millis(WATCH_EVERY_MS)) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                let late = start.elapsed() >= budget;
                if late {
                    timed_out.store(true, Ordering::SeqCst);
                }
                if late || stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
                    control.stop.store(true, Ordering::SeqCst);
                }
            });
        let out = f();
        drop(done);
        if let Ok(w) = watcher {
            let _ = w.join();
        }
        out
    });
    (out, timed_out.load(Ordering::SeqCst))
}

/// The limits of each search of a job: its depth, [`SEARCH_MAX_NODES`], [`SEARCH_MAX_MS`].
fn search_limits(depth: i32, max_nodes: u64, max_ms: u64) -> Limits {
    Limits {
        depth: Some(depth),
        nodes: Some(max_nodes),
        movetime: Some(max_ms),
        ..Limits::default()
    }
}

/// What cut a search short of `depth`, in words (`None` when it reached it): the node or the
/// time cap of the explorer, or a stop.
fn cut_text(result: &SearchResult, depth: i32, max_nodes: u64, max_ms: u64) -> Option<String> {
    if result.depth >= depth {
        return None;
    }
    let by = if result.nodes >= max_nodes {
        format!("the explorer's cap of {max_nodes} nodes")
    } else if result.time_ms >= max_ms {
        format!("the explorer's cap of {}", ms_text(max_ms))
    } else {
        "stopped".to_string()
    };
    Some(format!("depth {} of {depth}: {by}", result.depth))
}

fn search_json(
    pos: &Position,
    result: &SearchResult,
    qsearch: bool,
    iterations: Vec<Value>,
) -> Value {
    let board = pos.board();
    json!({
        "qsearch": qsearch,
        "iterations": iterations,
        "score": result.score,
        "score_text": score_text(result.score),
        "best": result.best_move.map(|m| move_to_san(board, m)),
        "best_uci": result.best_move.map(|m| pos.move_to_uci(m)),
        "depth": result.depth,
        "seldepth": result.seldepth,
        "nodes": result.nodes,
        "time_ms": result.time_ms,
        "pv": line_json(pos, &result.pv),
        "stats": result.stats,
        "stats_table": stats_rows(&result.stats),
        "cut": Value::Null,
    })
}

/// The rows of the statistics table ([`crate::search::SearchStats::table`]): name, value;
/// the q-ply histogram at its end is left out (the page draws it from `stats.qply_hist`).
/// After the quiescence nodes a row splits them by how each began, so that every q-node is
/// in a row: standing pat, in check, or ended before either (TT cutoffs, caps, draws,
/// mate-distance pruning, tablebases).
fn stats_rows(stats: &crate::search::SearchStats) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = stats
        .table()
        .lines()
        .take_while(|l| l.trim() != "q-ply histogram")
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let split = l.char_indices().nth(34).map_or(l.len(), |(i, _)| i);
            let (name, value) = l.split_at(split);
            (name.trim().to_string(), value.trim().to_string())
        })
        .collect();
    let before = stats
        .qnodes
        .saturating_sub(stats.standpat_nodes + stats.evasion_nodes);
    let at = rows
        .iter()
        .position(|(n, _)| n == "quiescence nodes")
        .map_or(rows.len(), |i| i + 1);
    rows.insert(
        at,
        (
            "q-nodes: stand pat / in check / ended before".to_string(),
            format!(
                "{} / {} / {before} (TT cutoffs, caps, draws, mate distance)",
                stats.standpat_nodes, stats.evasion_nodes
            ),
        ),
    );
    rows
}

/// One search, its iterations reported to the job's progress and kept (the last report of
/// each depth: depth, score, best move, nodes). `phase` names it in the progress; `qsearch`
/// forces the quiescence search on or off (`None`: as the options say).
fn run_search(
    job: &Arc<Job>,
    req: &SearchRequest,
    options: &OptionSet,
    phase: &str,
    qsearch: Option<bool>,
    caps: &Caps,
) -> Result<Value, String> {
    job.set_progress(|p| {
        *p = Progress {
            phase: phase.into(),
            ..Progress::default()
        }
    });
    let mut engine = options_engine(options, qsearch)?;
    let enabled = engine.options.qs.enabled;
    let reporter = Arc::clone(job);
    let root = req.pos.clone();
    let iterations: Arc<Mutex<Vec<Value>>> = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&iterations);
    engine.set_report_sink(Some(Arc::new(move |report: &SearchReport| {
        if let SearchReport::Iteration(it) = report {
            let pv = uci_line(&root, &it.pv);
            let line = line_json(&root, &it.pv);
            let best = line.first().cloned().unwrap_or(Value::Null);
            {
                let mut its = lock(&kept);
                if its.last().is_some_and(|v| v["depth"] == it.depth) {
                    its.pop();
                }
                its.push(json!({
                    "depth": it.depth,
                    "score": it.score,
                    "score_text": score_text(it.score),
                    "best": best["san"],
                    "best_uci": best["uci"],
                    "nodes": it.nodes,
                }));
            }
            reporter.set_progress(|p| {
                p.depth = it.depth;
                p.score = it.score;
                p.score_text = score_text(it.score);
                p.nodes = it.nodes;
                p.pv = pv;
            });
        }
    })));
    let control = engine.control();
    let limits = search_limits(req.depth, caps.search_nodes, caps.search_ms);
    let budget = Duration::from_millis(caps.search_ms + WATCH_GRACE_MS);
    let (result, _) = watched(&control, Some(&job.stop), budget, || {
        engine.search(&req.pos, &limits, &[])
    });
    engine.set_report_sink(None);
    let its = std::mem::take(&mut *lock(&iterations));
    let mut v = search_json(&req.pos, &result, enabled, its);
    // A game that is over has no depth to reach: nothing cut it.
    let over = req.pos.legal_moves().is_empty();
    v["cut"] =
        json!(cut_text(&result, req.depth, caps.search_nodes, caps.search_ms).filter(|_| !over));
    Ok(v)
}

/// The UCI moves of a search's line (`pv` of [`search_json`]).
fn line_moves(search: &Value) -> Vec<String> {
    search["pv"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["uci"].as_str())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// The quiescence tree at the position after `moves` (UCI) from `pos`, searched with
/// `options` (the quiescence search on) and a full window; `path` holds the moves that led
/// there (SAN, UCI and the FEN after each). An illegal move is an error. At most
/// `caps.tree_qnodes` quiescence nodes and `caps.tree_ms` milliseconds, less when `stop` (a
/// job's flag) is set meanwhile; `limited` then says which cap cut it.
pub fn tree_at(
    pos: &Position,
    moves: &[String],
    options: &OptionSet,
    stop: Option<&AtomicBool>,
    caps: &Caps,
) -> Result<Value, String> {
    let mut node = pos.clone();
    let mut played = Vec::new();
    for text in moves {
        let mv = node
            .parse_uci_move(text)
            .map_err(|e| format!("tree move '{}': {e}", crate::position::shorten(text, 16)))?;
        played.push(mv);
        node.play(mv);
    }
    let mut engine = options_engine(options, Some(true))?;
    let own_cap = engine.options.qs.max_nodes;
    let capped = own_cap == 0 || own_cap > caps.tree_qnodes;
    if capped {
        engine.options.qs.max_nodes = caps.tree_qnodes;
    }
    let control = engine.control();
    let budget = Duration::from_millis(caps.tree_ms);
    let (tree, timed_out) = watched(&control, stop, budget, || {
        qtree(&mut engine, &node, -INFINITY, INFINITY, TREE_NODES)
    });
    let mut t = tree_json(&tree, engine.options.qs.delta_margin);
    t["limited"] = if timed_out {
        json!(format!(
            "stopped by the explorer's cap of {}: the nodes still open were not searched to \
             the end and their scores are incomplete",
            ms_text(caps.tree_ms)
        ))
    } else if capped && tree.qnodes > caps.tree_qnodes {
        json!(format!(
            "the explorer's cap of {} q-nodes was reached: the nodes past it are scored by \
             the static evaluation",
            caps.tree_qnodes
        ))
    } else {
        Value::Null
    };
    let line = line_json(pos, &played);
    t["path"] = json!(line.iter().map(|m| m["san"].clone()).collect::<Vec<_>>());
    t["path_line"] = json!(line);
    Ok(t)
}

/// A score of a child, negated, seen one ply nearer the root: a mate is one ply further.
fn one_ply_up(s: i32) -> i32 {
    use crate::params::MATE_BOUND;
    if s >= MATE_BOUND {
        s - 1
    } else if s <= -MATE_BOUND {
        s + 1
    } else {
        s
    }
}

/// Quiescence nodes of each search of [`root_moves`] at most (past them: static evaluation).
pub const ROOT_MOVE_QNODES: u64 = 200_000;

/// Each legal move of `pos` scored one ply on without and with the quiescence search: the
/// static evaluation after it (what a depth-1 search without quiescence counts) and the
/// quiescence search after it (what the search with it counts), both from the side to move
/// at `pos`, with the quiescence line; the best by the quiescence search first. Within
/// `caps.tree_ms` in all (`null` when `stop` or the budget cut it).
pub fn root_moves(
    pos: &Position,
    options: &OptionSet,
    stop: Option<&AtomicBool>,
    caps: &Caps,
) -> Value {
    let Ok(mut engine) = options_engine(options, Some(true)) else {
        return Value::Null;
    };
    let own = engine.options.qs.max_nodes;
    if own == 0 || own > ROOT_MOVE_QNODES {
        engine.options.qs.max_nodes = ROOT_MOVE_QNODES;
    }
    let control = engine.control();
    let budget = Duration::from_millis(caps.tree_ms);
    let (rows, timed_out) = watched(&control, stop, budget, || {
        let mut rows = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play(mv);
            let stat = -engine.static_eval(after.board());
            let q = engine.quiesce(&after, -INFINITY, INFINITY, 0);
            if control.stop.load(Ordering::SeqCst) {
                break;
            }
            let line = crate::san::line_to_san(after.board(), &q.pv);
            rows.push((one_ply_up(-q.score), stat, mv, line));
        }
        rows
    });
    if timed_out || stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
        return Value::Null;
    }
    let mut rows = rows;
    rows.sort_by_key(|r| -r.0);
    Value::Array(
        rows.into_iter()
            .map(|(q, stat, mv, line)| {
                json!({
                    "san": move_to_san(pos.board(), mv),
                    "uci": pos.move_to_uci(mv),
                    "static": stat,
                    "static_text": score_text(stat),
                    "qsearch": q,
                    "qsearch_text": score_text(q),
                    "line": line,
                })
            })
            .collect(),
    )
}

/// The threat: the best move of the side not to move, were it its turn (the position with
/// the side to move passed; `null` when the side to move is in check or passing is not a
/// legal position), found by a short search with `options` (at most `caps.threat_nodes` and
/// `caps.threat_ms`; `null` too when `stop` ends it first).
pub fn threat(
    pos: &Position,
    depth: i32,
    options: &OptionSet,
    stop: Option<&AtomicBool>,
    caps: &Caps,
) -> Value {
    if pos.in_check() {
        return Value::Null;
    }
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Value::Null;
    }
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    fields[3] = "-";
    let Ok(passed) = Position::from_fen(&fields.join(" ")) else {
        return Value::Null;
    };
    let Ok(mut engine) = options_engine(options, Some(true)) else {
        return Value::Null;
    };
    let control = engine.control();
    let limits = search_limits(depth.clamp(1, 3), caps.threat_nodes, caps.threat_ms);
    let budget = Duration::from_millis(caps.threat_ms + WATCH_GRACE_MS);
    let (result, _) = watched(&control, stop, budget, || {
        engine.search(&passed, &limits, &[])
    });
    if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
        return Value::Null;
    }
    match result.best_move {
        Some(mv) => json!({
            "san": move_to_san(passed.board(), mv),
            "uci": passed.move_to_uci(mv),
            "score": result.score,
            "score_text": score_text(result.score),
        }),
        None => Value::Null,
    }
}

fn options_json(options: &OptionSet) -> Value {
    Value::Object(
        options
            .iter()
            .map(|(s, v)| (s.name.to_string(), option_value_json(v)))
            .collect(),
    )
}

/// The whole job. The horizon pair: the search without, the search with the quiescence
/// search, and the quiescence tree where the search without it stopped (the end of its PV) or
/// where the request asks. A/B: one search with each option set, and the tree of each set at
/// the same node (the end of the main-search part of A's line, or where the request asks).
/// Both: the threat in the position.
fn run_job(job: &Arc<Job>, req: &SearchRequest, caps: &Caps) -> Value {
    let mut out = json!({
        "fen": req.pos.fen(),
        "depth": req.depth,
        "options": options_json(&req.options),
        "mode": if req.options_b.is_some() { "ab" } else { "pair" },
    });
    if let Some(b) = &req.options_b {
        out["options_b"] = options_json(b);
    }
    let mut leaf_moves = Vec::new();
    let stopped = || job.stop.load(Ordering::SeqCst);
    match &req.options_b {
        None => {
            match run_search(job, req, &req.options, "without", Some(false), caps) {
                Ok(v) => {
                    leaf_moves = line_moves(&v);
                    out["without"] = v;
                }
                Err(e) => out["error"] = e.into(),
            }
            if !stopped() {
                match run_search(job, req, &req.options, "with", Some(true), caps) {
                    Ok(v) => out["with"] = v,
                    Err(e) => out["error"] = e.into(),
                }
            }
        }
        Some(b) => {
            match run_search(job, req, &req.options, "a", None, caps) {
                Ok(v) => {
                    leaf_moves = line_moves(&v);
                    leaf_moves.truncate(req.depth.max(0) as usize);
                    out["a"] = v;
                }
                Err(e) => out["error"] = e.into(),
            }
            if !stopped() {
                match run_search(job, req, b, "b", None, caps) {
                    Ok(v) => out["b"] = v,
                    Err(e) => out["error"] = e.into(),
                }
            }
        }
    }
    out["notes"] = result_notes(req, &out);
    if !stopped() {
        job.set_progress(|p| {
            *p = Progress {
                phase: "tree".into(),
                ..Progress::default()
            }
        });
        let at = req.tree_moves.clone().unwrap_or(leaf_moves);
        out["tree_requested"] = json!(req.tree_moves.is_some());
        // A tree the stop cut short is left out (the page says the search was stopped).
        match tree_at(&req.pos, &at, &req.options, Some(&job.stop), caps) {
            Ok(t) if !stopped() => out["tree"] = t,
            Ok(_) => {}
            Err(e) => out["error"] = e.into(),
        }
        if let Some(b) = req.options_b.as_ref().filter(|_| !stopped()) {
            match tree_at(&req.pos, &at, b, Some(&job.stop), caps) {
                Ok(t) if !stopped() => out["tree_b"] = t,
                Ok(_) => {}
                Err(e) => out["error"] = e.into(),
            }
        }
    }
    if !stopped() {
        job.set_progress(|p| {
            *p = Progress {
                phase: "threat".into(),
                ..Progress::default()
            }
        });
        out["threat"] = threat(&req.pos, req.depth, &req.options, Some(&job.stop), caps);
    }
    if !stopped() && req.options_b.is_none() {
        job.set_progress(|p| {
            *p = Progress {
                phase: "root_moves".into(),
                ..Progress::default()
            }
        });
        out["root_moves"] = root_moves(&req.pos, &req.options, Some(&job.stop), caps);
    }
    out
}

/// The moves of a search's line (`pv` of [`search_json`]) from `pos`, as far as they are
/// legal.
fn pv_moves(pos: &Position, search: &Value) -> Vec<cozy_chess::Move> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for uci in line_moves(search) {
        match p.parse_uci_move(&uci) {
            Ok(mv) => {
                out.push(mv);
                p.play(mv);
            }
            Err(_) => break,
        }
    }
    out
}

/// The notes under a result ([`super::notes::notes`]) when both of its searches finished.
fn result_notes(req: &SearchRequest, out: &Value) -> Value {
    let (keys, labels) = if req.options_b.is_some() {
        (["a", "b"], ["A", "B"])
    } else {
        (
            ["without", "with"],
            [
                "the search without quiescence",
                "the search with quiescence",
            ],
        )
    };
    let (l, r) = (&out[keys[0]], &out[keys[1]]);
    if l.is_null() || r.is_null() {
        return json!([]);
    }
    let (lpv, rpv) = (pv_moves(&req.pos, l), pv_moves(&req.pos, r));
    let searched = |v: &Value, label, pv| super::notes::Searched {
        label,
        qsearch: v["qsearch"].as_bool().unwrap_or(true),
        score: v["score"].as_i64().unwrap_or(0) as i32,
        pv,
    };
    json!(super::notes::notes(
        &req.pos,
        req.depth,
        &searched(l, labels[0], &lpv),
        &searched(r, labels[1], &rpv),
    ))
}

fn option_value_json(v: &OptionValue) -> Value {
    match v {
        OptionValue::Int(n) => json!(n),
        OptionValue::Bool(b) => json!(b),
        OptionValue::Press => Value::Null,
        OptionValue::Text(t) => json!(t),
    }
}

/// The quiescence tree as JSON: its header and the nested nodes; `delta_margin` is the
/// `QSearchDelta` it was searched with (for the arithmetic of each delta-pruned move).
pub fn tree_json(tree: &QTree, delta_margin: i32) -> Value {
    json!({
        "fen": tree.fen,
        "score": tree.score,
        "score_text": score_text(tree.score),
        "pv": tree.pv,
        "no_line": tree.pv.is_empty().then(|| tree.no_line_text()),
        "qnodes": tree.qnodes,
        "shown_nodes": tree.node_count(),
        "shown_pruned": tree.pruned_count(),
        "truncated": tree.truncated,
        "max_nodes": tree.max_nodes,
        "root": tree.root.as_ref().map(|r| node_json(r, delta_margin)),
    })
}

/// A bound of a window: a score as [`score_text`] writes it, `+∞` and `-∞` for the open ends.
pub fn bound_text(v: i32) -> String {
    if v >= INFINITY {
        "+\u{221e}".into()
    } else if v <= -INFINITY {
        "-\u{221e}".into()
    } else {
        score_text(v)
    }
}

/// A bound of the window of a tree node `qply` plies from the tree's root, as it means:
/// mate-distance pruning clamps an open window to the mates reachable from the node (a
/// parent's clamped bound is its child's), and a bound that no score at the node can pass is
/// written `-∞` / `+∞`, not as a mate it does not mean; a mate bound is counted from the
/// node, as [`node_score_text`] counts its scores.
pub fn node_bound_text(v: i32, qply: i32, lower: bool) -> String {
    use crate::params::MATE;
    if lower && v <= -MATE + qply {
        "-\u{221e}".into()
    } else if !lower && v >= MATE - qply - 1 {
        "+\u{221e}".into()
    } else {
        // A mate bound counted from the node, as its scores are.
        node_score_text(v, qply)
    }
}

/// A score of a tree node `qply` plies from the tree's root, from the side to move there,
/// with mates counted from the node: `mated` for a node that is checkmated, `M1` for a mate
/// it gives with its next move.
pub fn node_score_text(score: i32, qply: i32) -> String {
    use crate::params::{MATE, MATE_BOUND};
    if score.abs() < MATE_BOUND || score.abs() > MATE {
        return score_text(score);
    }
    let plies = MATE - score.abs() - qply;
    if score < 0 && plies <= 0 {
        "mated".into()
    } else if score > 0 {
        format!("M{}", (plies.max(1) + 1) / 2)
    } else {
        format!("-M{}", (plies + 1) / 2)
    }
}

/// Which step of the quiescence node ended it, as a key the page explains.
fn end_kind(end: QEnd) -> &'static str {
    match end {
        QEnd::Stopped => "stopped",
        QEnd::Draw => "draw",
        QEnd::PlyCap | QEnd::NodeCap => "cap",
        QEnd::MateDistance => "mate_distance",
        QEnd::TtCutoff => "tt",
        QEnd::Tablebase => "tablebase",
        QEnd::StandPat => "stand_pat",
        QEnd::BetaCutoff { .. } => "beta_cutoff",
        QEnd::AllSearched => "all_searched",
        QEnd::Quiet => "quiet",
        QEnd::Mate => "mate",
        QEnd::Stalemate => "stalemate",
    }
}

/// The arithmetic of a delta-pruned move of `node`: its stand pat, the captured piece's
/// value and the margin against alpha as it stood when the move came (raised by the stand
/// pat and by the moves searched before it). `before`: the children met before it.
fn delta_text(node: &QNode, before: &[QChild], p: &PrunedMove, margin: i32) -> Option<String> {
    use crate::params::MATE;
    let stand_pat = node.stand_pat?;
    let victim = node.board.as_ref()?.piece_on(p.mv.to)?;
    let mut alpha = node.alpha.max(-MATE + node.qply).max(stand_pat);
    for c in before {
        if let QChild::Node(n) = c {
            if let Some((s, _)) = n.result {
                alpha = alpha.max(-s);
            }
        }
    }
    let value = crate::search::see::see_value(victim);
    let sum = stand_pat + value + margin;
    Some(format!(
        "stand pat {stand_pat:+} + {} {value} + margin {margin} = {sum:+} {} alpha {alpha:+}",
        match victim {
            cozy_chess::Piece::Pawn => "pawn",
            cozy_chess::Piece::Knight => "knight",
            cozy_chess::Piece::Bishop => "bishop",
            cozy_chess::Piece::Rook => "rook",
            cozy_chess::Piece::Queen => "queen",
            cozy_chess::Piece::King => "king",
        },
        if sum <= alpha { "\u{2264}" } else { ">" }
    ))
}

fn node_json(node: &QNode, margin: i32) -> Value {
    let children: Vec<Value> = node
        .children
        .iter()
        .enumerate()
        .map(|(i, c)| match c {
            QChild::Node(n) => node_json(n, margin),
            QChild::Pruned(p) => json!({
                "kind": "pruned",
                "label": p.label,
                "uci": p.mv.to_string(),
                "reason": p.reason_text(),
                "reason_kind": match p.reason {
                    crate::search::QPrune::See => "see",
                    crate::search::QPrune::Delta => "delta",
                    crate::search::QPrune::NotRecapture => "recapture",
                },
                "delta": (p.reason == crate::search::QPrune::Delta)
                    .then(|| delta_text(node, &node.children[..i], p, margin))
                    .flatten(),
                "see": p.see,
                "fen": p.board.as_ref().map(board_fen),
            }),
        })
        .collect();
    json!({
        "kind": "node",
        "label": node.label,
        "uci": node.mv.map(|m| m.to_string()),
        "fen": node.board.as_ref().map(board_fen),
        // After a null move the window is shifted: its ends are numbers, never mates.
        "window": if node.in_null_search {
            [format!("{:+}", node.alpha), format!("{:+}", node.beta)]
        } else {
            [
                node_bound_text(node.alpha, node.qply, true),
                node_bound_text(node.beta, node.qply, false),
            ]
        },
        "qply": node.qply,
        "in_check": node.in_check,
        "stand_pat": node.stand_pat,
        "stand_pat_text": node.stand_pat.map(score_text),
        "score": node.result.map(|(s, _)| s),
        "score_text": node.result.map(|(s, _)| node_score_text(s, node.qply)),
        "end": node.end_text(),
        "end_kind": node.result.map(|(_, e)| end_kind(e)),
        "on_pv": node.on_pv,
        "null": node.null,
        "hidden": node.hidden,
        "children": children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_the_page_shows_them() {
        use crate::params::MATE;
        assert_eq!(score_text(291), "+291");
        assert_eq!(score_text(-75), "-75");
        assert_eq!(score_text(0), "0");
        assert_eq!(score_text(MATE - 5), "M3");
        assert_eq!(score_text(MATE - 1), "M1");
        assert_eq!(score_text(-(MATE - 4)), "-M2");
        assert_eq!(bound_text(INFINITY), "+\u{221e}");
        assert_eq!(bound_text(-INFINITY), "-\u{221e}");
        assert_eq!(bound_text(-250), "-250");
        // The edges: beyond the mate scores, short of infinity, a number (it read as a mate
        // in -249 moves); the tablebase band as what it is (it read as centipawns).
        use crate::params::{TB_BOUND, TB_WIN};
        assert_eq!(bound_text(INFINITY - 1), "+32499");
        assert_eq!(score_text(MATE + 1), "+32001");
        assert_eq!(bound_text(-(INFINITY - 1)), "-32499");
        assert_eq!(score_text(MATE), "M0");
        assert_eq!(score_text(-MATE), "mated");
        // Windows of tree nodes: mate-distance clamps are no bounds (the open ends).
        assert_eq!(node_bound_text(-(MATE - 1), 1, true), "-\u{221e}");
        assert_eq!(node_bound_text(MATE, 1, false), "+\u{221e}");
        assert_eq!(node_bound_text(MATE - 1, 0, false), "+\u{221e}");
        assert_eq!(node_bound_text(-MATE, 0, true), "-\u{221e}");
        assert_eq!(node_bound_text(MATE - 5, 1, false), "M2");
        assert_eq!(node_bound_text(-120, 1, true), "-120");
        // Node scores: mates from the node.
        assert_eq!(node_score_text(-(MATE - 1), 1), "mated");
        assert_eq!(node_score_text(MATE - 1, 0), "M1");
        assert_eq!(node_score_text(MATE - 3, 2), "M1");
        assert_eq!(node_score_text(-(MATE - 3), 1), "-M1");
        assert_eq!(node_score_text(35, 3), "+35");
        assert_eq!(score_text(TB_WIN - 3), "TB win");
        assert_eq!(score_text(-TB_BOUND), "TB loss");
        assert_eq!(score_text(TB_BOUND - 1), "+31742");
    }

    /// Defect 9 of the careful-user report: the progress of a job wrote White's short
    /// castling as `e1h1` (king takes rook) in standard chess, where `/api/moves` and UCI
    /// write `e1g1`. Here castling is the only mate in one.
    #[test]
    fn defect_9_progress_writes_castling_as_uci_does() {
        let job = Arc::new(Job {
            id: 1,
            stop: AtomicBool::new(false),
            inner: Mutex::new(JobInner {
                state: JobState::Running,
                progress: Progress::default(),
                result: None,
                error: None,
            }),
        });
        let fen = "8/8/8/8/8/8/5R2/k3K2R w K - 0 1";
        for (chess960, castle) in [(false, "e1g1"), (true, "e1h1")] {
            let mut pos = Position::from_fen(fen).unwrap();
            pos.set_chess960(chess960);
            let req = SearchRequest {
                pos,
                depth: 2,
                options: Vec::new(),
                options_b: None,
                tree_moves: None,
            };
            let v = run_search(
                &job,
                &req,
                &Vec::new(),
                "with",
                Some(true),
                &Caps::default(),
            )
            .unwrap();
            assert_eq!(v["best_uci"], castle, "{v}");
            let pv = lock(&job.inner).progress.pv.clone();
            assert_eq!(
                pv.first().map(String::as_str),
                Some(castle),
                "{fen}: {pv:?}"
            );
        }
    }

    /// The stop of a job reaches an engine however late it starts: set before the search
    /// began (which clears the engine's own stop flag), it still ends the search at once; and
    /// the time budget ends one that nothing else would.
    #[test]
    fn the_watcher_stops_an_engine_started_after_the_stop_and_at_its_budget() {
        let mut engine = options_engine(&Vec::new(), Some(true)).unwrap();
        let control = engine.control();
        let pos = Position::from_fen(crate::tools::teaching::horizon::HORIZON_FEN).unwrap();
        let forever = Limits {
            infinite: true,
            ..Limits::default()
        };
        let stop = AtomicBool::new(true);
        let start = Instant::now();
        let (_, timed_out) = watched(&control, Some(&stop), Duration::from_secs(60), || {
            engine.search(&pos, &forever, &[])
        });
        assert!(!timed_out);
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let (result, timed_out) =
            watched(&control, Some(&stop), Duration::from_millis(200), || {
                engine.search(&pos, &forever, &[])
            });
        assert!(timed_out);
        assert!(result.best_move.is_some());
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_job_runs_the_pair_and_the_tree() {
        let table = JobTable::new();
        let req = SearchRequest {
            pos: Position::from_fen(crate::tools::teaching::horizon::HORIZON_FEN).unwrap(),
            depth: 1,
            options: Vec::new(),
            options_b: None,
            tree_moves: None,
        };
        let job = table.start(req).unwrap();
        while job.state() == JobState::Running {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let v = job.to_json();
        assert_eq!(v["state"], "done", "{v}");
        let r = &v["result"];
        assert_eq!(r["without"]["best"], "Qxd4");
        assert!(r["without"]["score"].as_i64().unwrap() > 0);
        assert!(r["with"]["score"].as_i64().unwrap() < 0);
        assert_eq!(r["tree"]["path"], json!(["Qxd4"]));
        let root = &r["tree"]["root"];
        assert!(root["children"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["label"] == "exd4"));
        assert!(table.get(job.id).is_some() && table.get(job.id + 1).is_none());
    }
}

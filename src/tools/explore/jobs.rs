//! The searches `lull explore` runs: a table of jobs, each a horizon pair (the same search
//! without and with the quiescence search, as [`crate::tools::horizon`] does it) plus the
//! quiescence tree at the horizon, on its own thread with its own [`Engine`]s. A job's
//! progress can be read while it runs, and it can be stopped; several run at once (one per
//! browser tab), each independent of the others.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use serde_json::{json, Value};

use crate::options::{apply_value, OptionSpec, OptionValue};
use crate::params::INFINITY;
use crate::position::{board_fen, Position};
use crate::san::move_to_san;
use crate::search::{Control, Engine, SearchReport, SearchResult};
use crate::time::Limits;
use crate::tools::cli::quiet_engine;
use crate::tools::qtree::{qtree, QChild, QNode, QTree};

/// Hash of each engine a job runs, in MiB.
pub const JOB_HASH_MIB: usize = 16;
/// At most this many jobs run at once; a further search is refused until one ends.
pub const MAX_RUNNING: usize = 8;
/// At most this many jobs are kept; the oldest finished ones are forgotten first.
pub const MAX_KEPT: usize = 64;
/// Tree nodes (searched nodes plus pruned leaves) shown of the quiescence tree.
pub const TREE_NODES: usize = 400;

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
    /// `without`, `with` or `tree`: which part runs now.
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
    control: Mutex<Option<Arc<Control>>>,
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
    /// Asks the job to stop: the running search ends at once and nothing more is started.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(c) = lock(&self.control).as_ref() {
            c.stop.store(true, Ordering::SeqCst);
        }
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
}

impl JobTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
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
                control: Mutex::new(None),
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
        let spawned = std::thread::Builder::new()
            .name(format!("explore-job-{}", job.id))
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run_job(&worker, &req)
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

/// A score as the page shows it: `+291`, `-75`, `0`, or mate in moves as `M3` (the side to
/// move mates in 3) / `-M3` (it is mated in 3).
pub fn score_text(score: i32) -> String {
    use crate::params::{MATE, MATE_BOUND};
    if score >= MATE_BOUND {
        format!("M{}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("-M{}", (MATE + score + 1) / 2)
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

/// A fresh engine with the job's options, its stop flag shared with the job.
fn job_engine(job: &Job, options: &OptionSet, qsearch: Option<bool>) -> Result<Engine, String> {
    let engine = options_engine(options, qsearch)?;
    let control = engine.control();
    if job.stop.load(Ordering::SeqCst) {
        control.stop.store(true, Ordering::SeqCst);
    }
    *lock(&job.control) = Some(control);
    Ok(engine)
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
        "stats_table": stats_rows(&result.stats.table()),
    })
}

/// The rows of the statistics table ([`crate::search::SearchStats::table`]): name, value;
/// the q-ply histogram at its end is left out (the page draws it from `stats.qply_hist`).
fn stats_rows(table: &str) -> Vec<(String, String)> {
    table
        .lines()
        .take_while(|l| l.trim() != "q-ply histogram")
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let split = l.char_indices().nth(34).map_or(l.len(), |(i, _)| i);
            let (name, value) = l.split_at(split);
            (name.trim().to_string(), value.trim().to_string())
        })
        .collect()
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
) -> Result<Value, String> {
    job.set_progress(|p| {
        *p = Progress {
            phase: phase.into(),
            ..Progress::default()
        }
    });
    let mut engine = job_engine(job, options, qsearch)?;
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
    let result = engine.search(&req.pos, &Limits::depth(req.depth), &[]);
    engine.set_report_sink(None);
    let its = std::mem::take(&mut *lock(&iterations));
    Ok(search_json(&req.pos, &result, enabled, its))
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
/// there (SAN, UCI and the FEN after each). An illegal move is an error.
pub fn tree_at(pos: &Position, moves: &[String], options: &OptionSet) -> Result<Value, String> {
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
    let tree = qtree(&mut engine, &node, -INFINITY, INFINITY, TREE_NODES);
    let mut t = tree_json(&tree);
    let line = line_json(pos, &played);
    t["path"] = json!(line.iter().map(|m| m["san"].clone()).collect::<Vec<_>>());
    t["path_line"] = json!(line);
    Ok(t)
}

/// The threat: the best move of the side not to move, were it its turn (the position with
/// the side to move passed; `null` when the side to move is in check or passing is not a
/// legal position), found by a short search with `options`.
pub fn threat(pos: &Position, depth: i32, options: &OptionSet) -> Value {
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
    let result = engine.search(&passed, &Limits::depth(depth.clamp(1, 3)), &[]);
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
fn run_job(job: &Arc<Job>, req: &SearchRequest) -> Value {
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
            match run_search(job, req, &req.options, "without", Some(false)) {
                Ok(v) => {
                    leaf_moves = line_moves(&v);
                    out["without"] = v;
                }
                Err(e) => out["error"] = e.into(),
            }
            if !stopped() {
                match run_search(job, req, &req.options, "with", Some(true)) {
                    Ok(v) => out["with"] = v,
                    Err(e) => out["error"] = e.into(),
                }
            }
        }
        Some(b) => {
            match run_search(job, req, &req.options, "a", None) {
                Ok(v) => {
                    leaf_moves = line_moves(&v);
                    leaf_moves.truncate(req.depth.max(0) as usize);
                    out["a"] = v;
                }
                Err(e) => out["error"] = e.into(),
            }
            if !stopped() {
                match run_search(job, req, b, "b", None) {
                    Ok(v) => out["b"] = v,
                    Err(e) => out["error"] = e.into(),
                }
            }
        }
    }
    if !stopped() {
        job.set_progress(|p| {
            *p = Progress {
                phase: "tree".into(),
                ..Progress::default()
            }
        });
        let at = req.tree_moves.clone().unwrap_or(leaf_moves);
        out["tree_requested"] = json!(req.tree_moves.is_some());
        match tree_at(&req.pos, &at, &req.options) {
            Ok(t) => out["tree"] = t,
            Err(e) => out["error"] = e.into(),
        }
        if let Some(b) = &req.options_b {
            match tree_at(&req.pos, &at, b) {
                Ok(t) => out["tree_b"] = t,
                Err(e) => out["error"] = e.into(),
            }
        }
    }
    if !stopped() {
        out["threat"] = threat(&req.pos, req.depth, &req.options);
    }
    out
}

fn option_value_json(v: &OptionValue) -> Value {
    match v {
        OptionValue::Int(n) => json!(n),
        OptionValue::Bool(b) => json!(b),
        OptionValue::Press => Value::Null,
        OptionValue::Text(t) => json!(t),
    }
}

/// The quiescence tree as JSON: its header and the nested nodes.
pub fn tree_json(tree: &QTree) -> Value {
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
        "root": tree.root.as_ref().map(node_json),
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

fn node_json(node: &QNode) -> Value {
    let children: Vec<Value> = node
        .children
        .iter()
        .map(|c| match c {
            QChild::Node(n) => node_json(n),
            QChild::Pruned(p) => json!({
                "kind": "pruned",
                "label": p.label,
                "uci": p.mv.to_string(),
                "reason": p.reason_text(),
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
        "window": [bound_text(node.alpha), bound_text(node.beta)],
        "qply": node.qply,
        "in_check": node.in_check,
        "stand_pat": node.stand_pat,
        "stand_pat_text": node.stand_pat.map(score_text),
        "score": node.result.map(|(s, _)| s),
        "score_text": node.result.map(|(s, _)| score_text(s)),
        "end": node.end_text(),
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
    }

    /// Defect 9 of the careful-user report: the progress of a job wrote White's short
    /// castling as `e1h1` (king takes rook) in standard chess, where `/api/moves` and UCI
    /// write `e1g1`. Here castling is the only mate in one.
    #[test]
    fn defect_9_progress_writes_castling_as_uci_does() {
        let job = Arc::new(Job {
            id: 1,
            stop: AtomicBool::new(false),
            control: Mutex::new(None),
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
            let v = run_search(&job, &req, &Vec::new(), "with", Some(true)).unwrap();
            assert_eq!(v["best_uci"], castle, "{v}");
            let pv = lock(&job.inner).progress.pv.clone();
            assert_eq!(
                pv.first().map(String::as_str),
                Some(castle),
                "{fen}: {pv:?}"
            );
        }
    }

    #[test]
    fn a_job_runs_the_pair_and_the_tree() {
        let table = JobTable::new();
        let req = SearchRequest {
            pos: Position::from_fen(crate::tools::horizon::HORIZON_FEN).unwrap(),
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

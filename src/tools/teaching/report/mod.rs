//! `lull report`: measures the quiescence search through the library and writes a
//! self-contained report, DIR/index.html with SVG figures and its Markdown twin DIR/README.md
//! (plus the figures and data.json), that sets each figure the literature quotes beside
//! Lull's own. [`measure`] runs the searches, [`matches`](mod@matches) reads the stored match games and
//! computes Elo, [`plots`] draws the figures and [`render`] writes the pages. The matches
//! are not played here: `docs/report/play_matches.sh` plays them into
//! docs/report/matches/*.pgn, which the report reads, and says in the folder's
//! `played_by.yaml` which build played them; the pages name that build beside every Elo
//! figure, and the build that measured (its bench signature and network) in their header.

pub mod matches;
pub mod measure;
pub mod plots;
pub mod render;
pub mod validate;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;

use crate::nnue;
use crate::tools::cli::fail;
use matches::{read_matches, read_played_by, EloInterval, MatchResult, PlayedBy};
use measure::{measure_variant, variants, MeasureConfig, NetworkId, VariantMeasure};

/// Arguments of `lull report`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReportArgs {
    /// Directory to write the report into (created if missing).
    #[arg(short = 'o', long = "out", default_value = "docs/report")]
    pub out: PathBuf,
    /// Smaller measurements (depth 10 instead of 12, 60 WAC positions instead of 300): about
    /// two minutes of one core (measured: 122 s of CPU, 199 s on a loaded 2-core machine).
    #[arg(long)]
    pub quick: bool,
    /// Directory of the stored match games (`<variant>.pgn`, played by
    /// docs/report/play_matches.sh).
    #[arg(long, default_value = "docs/report/matches")]
    pub matches: PathBuf,
    /// Also measure with this network (`EvalFile` + `Use NNUE`), side by side with the
    /// classical evaluation; without it the embedded network is used if there is one.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
    /// Option sets measured at once, one thread each (default: the machine's cores). The
    /// node counts do not depend on it; the times do, as the load of the machine does.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: Option<u32>,
    /// The build the report names (e.g. the commit it was built from), written beside the
    /// command that made it.
    #[arg(long, value_name = "TEXT")]
    pub build: Option<String>,
    /// Measure nothing: redraw the figures and rewrite the pages from DIR/data.json (written
    /// by an earlier run) and the stored matches; `--build` then names the build that drew
    /// them.
    #[arg(long)]
    pub replot: bool,
}

/// One claim of the literature with Lull's figure beside it.
#[derive(Clone, Debug, Serialize)]
pub struct Claim {
    /// Short identifier (the HTML row's id: `claim-<id>`).
    pub id: &'static str,
    /// What the literature says.
    pub claim: String,
    /// Where it says it.
    pub source: String,
    /// Lull's figure (classical evaluation).
    pub lull: String,
    /// Lull's figure with the network, when measured.
    pub lull_nnue: Option<String>,
    /// Whether Lull's figure is inside the claimed range: a measured value in it, or an
    /// interval (Elo, 95 %) that overlaps it; `None`: no range to check.
    pub holds: Option<bool>,
    /// The same for the network's figure.
    pub holds_nnue: Option<bool>,
    /// The figures that show it (their files), for readers of data.json.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<&'static str>,
}

/// Everything the report shows; written as data.json.
#[derive(Clone, Debug, Serialize)]
pub struct ReportData {
    /// The command line that made it.
    pub command: String,
    /// `lull` version.
    pub version: &'static str,
    /// The build named by `--build` (e.g. a commit), if any.
    pub build: Option<String>,
    /// The bench signature of the build that measured (what its `lull bench` prints; the
    /// release checks it against the binary): `None` in a report made before it was recorded.
    pub bench_signature: Option<u64>,
    /// The network the NNUE columns measured with, if any.
    pub network: Option<NetworkId>,
    /// Option sets measured at once.
    pub jobs: usize,
    /// What was measured.
    pub config: MeasureConfig,
    /// Per option set, classical evaluation.
    pub measures: Vec<VariantMeasure>,
    /// Per option set with the network, when one was measured.
    pub nnue_measures: Option<Vec<VariantMeasure>>,
    /// Why there is no network column, or which network it is.
    pub nnue_note: String,
    /// The stored matches (hand-crafted evaluation: `<dir>/<variant>.pgn`).
    pub matches: Vec<MatchResult>,
    /// The stored matches with the network (`<dir>/nnue/<variant>.pgn`), if any.
    pub nnue_matches: Vec<MatchResult>,
    /// Where they were read from.
    pub matches_dir: String,
    /// Whether that folder exists (a report run outside a clone finds none).
    pub matches_dir_found: bool,
    /// Which build played the stored matches (their folder's `played_by.yaml`), if it says.
    pub matches_played_by: Option<PlayedBy>,
    /// Which build played the network's stored matches, if it says.
    pub nnue_matches_played_by: Option<PlayedBy>,
    /// The claims with Lull's figures.
    pub claims: Vec<Claim>,
    /// Seconds the measurements took.
    pub elapsed_s: f64,
    /// The build that redrew the figures from data.json (`--replot`), if they were redrawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redrawn_by: Option<String>,
}

/// A measured option set as data.json stores it (the option set by its key).
#[derive(serde::Deserialize)]
struct StoredMeasure {
    variant: StoredVariant,
    depths: Vec<measure::DepthPoint>,
    stats: crate::search::SearchStats,
    positions: Vec<measure::PositionPoint>,
    wac: Vec<measure::WacPoint>,
}

#[derive(serde::Deserialize)]
struct StoredVariant {
    key: String,
}

/// What `--replot` reads back from data.json: the measurements and how they were made.
#[derive(serde::Deserialize)]
struct Stored {
    command: String,
    #[serde(default)]
    build: Option<String>,
    #[serde(default)]
    bench_signature: Option<u64>,
    #[serde(default)]
    network: Option<NetworkId>,
    #[serde(default)]
    jobs: usize,
    config: MeasureConfig,
    measures: Vec<StoredMeasure>,
    nnue_measures: Option<Vec<StoredMeasure>>,
    nnue_note: String,
    elapsed_s: f64,
}

fn restore(stored: Vec<StoredMeasure>) -> Result<Vec<VariantMeasure>, String> {
    let all = variants();
    stored
        .into_iter()
        .map(|m| {
            let variant = all
                .iter()
                .find(|v| v.key == m.variant.key)
                .cloned()
                .ok_or_else(|| format!("data.json: unknown option set '{}'", m.variant.key))?;
            Ok(VariantMeasure {
                variant,
                depths: m.depths,
                stats: m.stats,
                positions: m.positions,
                wac: m.wac,
            })
        })
        .collect()
}

/// The report of an earlier run, from its data.json, with the matches read again from
/// `matches_dir` and the claims worked out again: the figures and pages can be redrawn
/// without measuring (`lull report --replot`). `redrawn_by` names the build that redraws.
pub fn reload(
    data_json: &Path,
    matches_dir: &Path,
    redrawn_by: Option<String>,
) -> Result<ReportData, String> {
    let mut text = String::new();
    std::fs::File::open(data_json)
        .and_then(|f| {
            use std::io::Read as _;
            f.take(validate::MAX_DATA_JSON_BYTES + 1)
                .read_to_string(&mut text)
        })
        .map_err(|e| format!("cannot read {}: {e}", data_json.display()))?;
    if text.len() as u64 > validate::MAX_DATA_JSON_BYTES {
        return Err(format!(
            "{}: over {} MiB, too large for a report's data.json",
            data_json.display(),
            validate::MAX_DATA_JSON_BYTES >> 20
        ));
    }
    let stored: Stored = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a report's data.json: {e}", data_json.display()))?;
    let measures = restore(stored.measures)?;
    let nnue_measures = stored.nnue_measures.map(restore).transpose()?;
    let damaged = |e: String| format!("{}: {e}", data_json.display());
    validate::check_config(&stored.config, stored.elapsed_s).map_err(damaged)?;
    validate::check_measures("measures", &measures).map_err(damaged)?;
    if let Some(n) = &nnue_measures {
        validate::check_measures("nnue_measures", n).map_err(damaged)?;
    }
    let games = StoredGames::read(matches_dir)?;
    let claims = claims(&measures, nnue_measures.as_deref(), &games);
    Ok(ReportData {
        command: stored.command,
        version: env!("CARGO_PKG_VERSION"),
        build: stored.build,
        bench_signature: stored.bench_signature,
        network: stored.network,
        jobs: stored.jobs.max(1),
        config: stored.config,
        measures,
        nnue_measures,
        nnue_note: stored.nnue_note,
        matches: games.hce,
        nnue_matches: games.nnue,
        matches_dir: matches_dir.display().to_string(),
        matches_dir_found: matches_dir.is_dir(),
        matches_played_by: games.hce_played_by,
        nnue_matches_played_by: games.nnue_played_by,
        claims,
        elapsed_s: stored.elapsed_s,
        redrawn_by,
    })
}

/// The stored matches of both evaluations and who played them.
#[derive(Clone, Debug, Default)]
pub struct StoredGames {
    /// Hand-crafted evaluation: `<dir>/<variant>.pgn`.
    pub hce: Vec<MatchResult>,
    /// The network: `<dir>/nnue/<variant>.pgn`.
    pub nnue: Vec<MatchResult>,
    /// `<dir>/played_by.yaml`.
    pub hce_played_by: Option<PlayedBy>,
    /// `<dir>/nnue/played_by.yaml`.
    pub nnue_played_by: Option<PlayedBy>,
}

impl StoredGames {
    /// Reads the matches of `dir` and of `dir/nnue` (none when a folder is missing).
    pub fn read(dir: &Path) -> Result<Self, String> {
        let nnue = dir.join("nnue");
        Ok(Self {
            hce: read_matches(dir)?,
            nnue: read_matches(&nnue)?,
            hce_played_by: read_played_by(dir)?,
            nnue_played_by: read_played_by(&nnue)?,
        })
    }
}

/// How [`collect_with`] runs: threads and the build to name.
#[derive(Clone, Debug)]
pub struct CollectOptions {
    /// Option sets measured at once (at least 1).
    pub jobs: usize,
    /// The build to name in the report.
    pub build: Option<String>,
    /// The bench signature of the build ([`measure::bench_signature`]; `lull report`
    /// measures it, a caller that does not leaves it out of the report).
    pub bench: Option<u64>,
}

impl Default for CollectOptions {
    /// The machine's cores, no build named, no bench signature.
    fn default() -> Self {
        Self {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            build: None,
            bench: None,
        }
    }
}

/// Runs every option set with `config`, with the hand-crafted evaluation and with the network
/// (`eval_file`, or the embedded one), and reads the matches; `progress` gets a line per step.
pub fn collect(
    config: &MeasureConfig,
    matches_dir: &Path,
    eval_file: Option<&Path>,
    command: String,
    progress: impl FnMut(&str) + Send,
) -> Result<ReportData, String> {
    collect_with(
        config,
        matches_dir,
        eval_file,
        command,
        &CollectOptions::default(),
        progress,
    )
}

/// [`collect`] with its threads and build given: the option sets of both evaluations are
/// measured `opts.jobs` at a time, each on a thread of its own with its own engine.
pub fn collect_with(
    config: &MeasureConfig,
    matches_dir: &Path,
    eval_file: Option<&Path>,
    command: String,
    opts: &CollectOptions,
    progress: impl FnMut(&str) + Send,
) -> Result<ReportData, String> {
    let start = Instant::now();
    let games = StoredGames::read(matches_dir)?;
    let net = match eval_file {
        Some(p) => Some(p.display().to_string()),
        None if nnue::DEFAULT_NET.is_some() => Some("<default>".to_string()),
        None => None,
    };
    let nnue_config = net.as_ref().map(|file| {
        let mut cfg = config.clone();
        cfg.eval_options = vec![
            ("EvalFile".to_string(), file.clone()),
            ("Use NNUE".to_string(), "true".to_string()),
        ];
        cfg
    });
    // Every (evaluation, option set) pair is one task; `jobs` threads take them in turn.
    let mut tasks: Vec<(bool, measure::Variant)> =
        variants().into_iter().map(|v| (false, v)).collect();
    if nnue_config.is_some() {
        tasks.extend(variants().into_iter().map(|v| (true, v)));
    }
    let jobs = opts.jobs.clamp(1, tasks.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let progress = std::sync::Mutex::new(progress);
    let results: Vec<std::sync::Mutex<Option<Result<VariantMeasure, String>>>> =
        tasks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((nnue, variant)) = tasks.get(i) else {
                    break;
                };
                let cfg = if *nnue {
                    nnue_config.as_ref().unwrap_or(config)
                } else {
                    config
                };
                let tag = if *nnue { "NNUE " } else { "" };
                let r = measure_variant(variant, cfg, |s| {
                    let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
                    (*p)(&format!("{tag}{s}"));
                });
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    let mut measures = Vec::new();
    let mut network = Vec::new();
    for ((nnue, _), r) in tasks.iter().zip(results) {
        let r = r
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .unwrap_or_else(|| Err("a measurement thread ended early".to_string()))?;
        if *nnue {
            network.push(r);
        } else {
            measures.push(r);
        }
    }
    let (nnue_measures, nnue_note) = match net {
        Some(file) => (
            Some(network),
            format!(
                "The NNUE column and the right-hand panels: the same option sets with the \
                 network (`EvalFile={file}`, `Use NNUE=true`); the hand-crafted column and the \
                 left-hand panels with `Use NNUE=false`. The network's scores are on another \
                 scale than the hand-crafted evaluation's, so the same SEE and delta margins \
                 prune a different share of the captures."
            ),
        ),
        None => (
            None,
            "This build embeds no network (src/nnue: DEFAULT_NET is None), so the NNUE column \
             is empty; `lull report --eval-file FILE` measures one side by side."
                .to_string(),
        ),
    };
    let claims = claims(&measures, nnue_measures.as_deref(), &games);
    let network = nnue_measures
        .as_ref()
        .and_then(|_| measure::network_id(eval_file));
    Ok(ReportData {
        command,
        version: env!("CARGO_PKG_VERSION"),
        build: opts.build.clone(),
        bench_signature: opts.bench,
        network,
        jobs,
        config: config.clone(),
        measures,
        nnue_measures,
        nnue_note,
        matches: games.hce,
        nnue_matches: games.nnue,
        matches_dir: matches_dir.display().to_string(),
        matches_dir_found: matches_dir.is_dir(),
        matches_played_by: games.hce_played_by,
        nnue_matches_played_by: games.nnue_played_by,
        claims,
        elapsed_s: start.elapsed().as_secs_f64(),
        redrawn_by: None,
    })
}

fn find<'a>(ms: &'a [VariantMeasure], key: &str) -> Option<&'a VariantMeasure> {
    ms.iter().find(|m| m.variant.key == key)
}

/// `of(key) / of(default)` at the deepest depth (`of`: all nodes, or the q-nodes).
fn ratio(ms: &[VariantMeasure], key: &str, of: fn(&VariantMeasure) -> u64) -> Option<f64> {
    let d = of(find(ms, "default")?) as f64;
    let v = of(find(ms, key)?) as f64;
    (d > 0.0).then(|| v / d)
}

/// All nodes at the deepest depth.
fn all_nodes(m: &VariantMeasure) -> u64 {
    m.nodes()
}

/// Quiescence nodes at the deepest depth: what SEE and delta pruning prune.
fn q_nodes(m: &VariantMeasure) -> u64 {
    m.stats.qnodes
}

/// Whether a measurement is inside a claimed range `(low, high)`: a measured value `lo = hi`
/// in it, or a 95 % interval `[lo, hi]` that overlaps it (the claim cannot be told from
/// Lull's figure); outside only when the whole interval lies beyond it. `None` for a value
/// that is not a number (nothing measured).
pub fn inside(lo: f64, hi: f64, range: (f64, f64)) -> Option<bool> {
    if lo.is_nan() || hi.is_nan() {
        return None;
    }
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    Some(lo <= range.1 && hi >= range.0)
}

/// A measured value against a claimed range: [`inside`] with `lo = hi`.
fn value_inside(x: f64, range: (f64, f64)) -> Option<bool> {
    inside(x, x, range)
}

/// Which build played a folder's games, in a few words: `build dc0b7a5`, or that the folder
/// does not say.
pub fn played_by_short(p: Option<&PlayedBy>) -> String {
    match p.and_then(|p| p.build.as_deref()) {
        Some(b) => format!("build {b}"),
        None => "a build the games do not record".to_string(),
    }
}

/// The Elo of a stored match (the variant minus the default, or the default minus the
/// variant with `negate`) and its text (`-209.9 [-297.2, -141.5] Elo, 100 games of build
/// dc0b7a5 (movetime 30 ms)`), if played.
fn match_elo(
    matches: &[MatchResult],
    played_by: Option<&PlayedBy>,
    key: &str,
    negate: bool,
) -> Option<(EloInterval, String)> {
    let m = matches.iter().find(|m| m.name == key)?;
    let e = m.pentanomial.or(m.trinomial)?;
    let e = if negate {
        EloInterval {
            elo: -e.elo,
            lo: -e.hi,
            hi: -e.lo,
            score: 1.0 - e.score,
        }
    } else {
        e
    };
    Some((
        e,
        format!(
            "{} Elo, {} games of {} ({})",
            e.text(),
            m.games(),
            played_by_short(played_by),
            m.time_control
        ),
    ))
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The stand-pat rate and what it counts: the cuts among the q-nodes that reached the stand
/// pat (not in check, and not ended before it: by a draw, a cap or the transposition table,
/// whose cutoffs are given as a share of all q-nodes), and the cuts among all q-nodes.
fn standpat_text(s: &crate::search::SearchStats) -> String {
    format!(
        "{:.1} % of the q-nodes that reached the stand pat (not in check, not ended before it \
         by a draw, a cap or a TT cutoff; TT cutoffs ended {:.1} % of all q-nodes); {:.1} % \
         of all q-nodes",
        s.standpat_rate(),
        pct(s.q_tt_cutoffs, s.qnodes),
        pct(s.standpat_cutoffs, s.qnodes)
    )
}

/// Lull's figures for one evaluation: (q-node share, stand-pat, mean q-ply, max q-ply,
/// checks, SEE, delta, Beal), each as text and whether it is inside the claim's range.
fn figures(ms: &[VariantMeasure]) -> Vec<(String, Option<bool>)> {
    let Some(d) = find(ms, "default") else {
        return Vec::new();
    };
    let s = &d.stats;
    let shares: Vec<f64> = d.positions.iter().map(|p| p.qnode_share).collect();
    let (lo, hi) = shares
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let nodes = |k: &str| ratio(ms, k, all_nodes).unwrap_or(f64::NAN);
    let qnodes = |k: &str| ratio(ms, k, q_nodes).unwrap_or(f64::NAN);
    let depth = d.depths.last().map_or(0, |p| p.depth);
    let share = s.qnode_share();
    let share_text = format!("{share:.1} % at depth {depth} (per position {lo:.0}–{hi:.0} %)");
    let (c1, c2) = (nodes("checks-1"), nodes("checks-2"));
    let either = |a: Option<bool>, b: Option<bool>| match (a, b) {
        (Some(x), Some(y)) => Some(x || y),
        (x, None) | (None, x) => x,
    };
    let (see, delta) = (qnodes("see-off"), qnodes("delta-off"));
    let (beal, beal_q) = (nodes("nullmove-on"), qnodes("nullmove-on"));
    vec![
        (share_text.clone(), value_inside(share, (50.0, 90.0))),
        (share_text, value_inside(share, (30.0, 50.0))),
        (
            standpat_text(s),
            value_inside(s.standpat_rate(), (40.0, 60.0)),
        ),
        (
            format!("{:.2}", s.mean_qply()),
            value_inside(s.mean_qply(), (1.0, 3.0)),
        ),
        (
            format!("{}", s.qply_max),
            value_inside(s.qply_max as f64, (6.0, 10.0)),
        ),
        (
            format!("×{c1:.2} nodes with checks at the first q-ply, ×{c2:.2} at two"),
            either(value_inside(c1, (2.0, 3.0)), value_inside(c2, (2.0, 3.0))),
        ),
        (
            format!(
                "{} captures skipped; without it ×{see:.2} q-nodes ({})",
                s.see_skips,
                saving_text(see)
            ),
            None,
        ),
        (
            format!(
                "{} captures skipped; without it ×{delta:.2} q-nodes ({})",
                s.delta_skips,
                saving_text(delta)
            ),
            None,
        ),
        (
            format!("×{beal:.2} nodes (×{beal_q:.2} q-nodes) with it at q-ply 0"),
            None,
        ),
    ]
}

/// What a pruning saves, from the node ratio without it to with it: "12 % fewer with it",
/// "3 % more with it" when the tree grew, "as many with it" within half a percent.
fn saving_text(ratio_without: f64) -> String {
    let fewer = 100.0 * (1.0 - 1.0 / ratio_without);
    if fewer.abs() < 0.5 {
        "as many with it".to_string()
    } else if fewer > 0.0 {
        format!("{fewer:.0} % fewer with it")
    } else {
        format!("{:.0} % more with it", -fewer)
    }
}

/// The claims of the literature with Lull's figures (and the network's, if measured), the
/// Elo of each from the stored games.
pub fn claims(
    ms: &[VariantMeasure],
    nnue: Option<&[VariantMeasure]>,
    games: &StoredGames,
) -> Vec<Claim> {
    let cpw = "Chess Programming Wiki, <em>Quiescence Search</em> (Limiting Quiescence)";
    let common = "a common claim (no primary source named)";
    // (id, claim, source, the figures that show it)
    let rows: [(&str, &str, &str, &[&'static str]); 9] = [
        (
            "qnode-share-cpw",
            "Quiescence nodes are 50–90 % of all nodes",
            cpw,
            &["bench_positions.svg"],
        ),
        (
            "qnode-share-chessml",
            "Quiescence nodes are 30–50 % of all nodes",
            "the ChessML guide (quoted second-hand)",
            &["bench_positions.svg"],
        ),
        (
            "standpat",
            "Stand pat cuts off 40–60 % of the quiescence nodes",
            common,
            &["bench_positions.svg"],
        ),
        (
            "qdepth-mean",
            "The mean quiescence depth is 1–3 plies",
            common,
            &["qply_histogram.svg"],
        ),
        (
            "qdepth-max",
            "The deepest quiescence line is 6–10 plies",
            common,
            &["qply_histogram.svg"],
        ),
        (
            "checks",
            "Quiet checks in the quiescence search cost 2–3× the nodes",
            common,
            &["nodes_to_depth.svg", "time_to_depth.svg", "elo.svg"],
        ),
        (
            "see",
            "Skipping captures with SEE &lt; 0 shrinks the quiescence tree (no figure given)",
            cpw,
            &["qply_histogram.svg", "elo.svg"],
        ),
        (
            "delta",
            "Delta pruning shrinks the quiescence tree (no figure given)",
            "Chess Programming Wiki, <em>Delta Pruning</em>",
            &["qply_histogram.svg", "elo.svg"],
        ),
        (
            "beal",
            "A null-move stand pat makes the quiescence search aware of threats",
            "D. F. Beal, <em>A generalised quiescence search algorithm</em>, Artificial \
             Intelligence 43 (1990)",
            &["nodes_to_depth.svg", "wac_budget.svg", "elo.svg"],
        ),
    ];
    let classical = figures(ms);
    let network = nnue.map(figures);
    // The Elo a stored match adds to a row: (match key, whether the variant is the feature
    // switched off, what the figure is).
    let elo_of = |id: &str| match id {
        "see" => Some(("see-off", true, "Elo of the pruning")),
        "delta" => Some(("delta-off", true, "Elo of the pruning")),
        "beal" => Some(("nullmove-on", false, "Elo of the null move")),
        "checks" => Some(("checks-1", false, "Elo of checks at 1 q-ply")),
        _ => None,
    };
    let with_elo =
        |text: String, id: &str, m: &[MatchResult], p: Option<&PlayedBy>| match elo_of(id) {
            Some((key, negate, what)) => match match_elo(m, p, key, negate) {
                Some((_, elo)) => format!("{text}; {what}: {elo}"),
                None => text,
            },
            None => text,
        };
    let (hce_by, nnue_by) = (games.hce_played_by.as_ref(), games.nnue_played_by.as_ref());
    let mut out = Vec::new();
    for (i, (id, claim, source, shown_in)) in rows.iter().enumerate() {
        let Some((lull, holds)) = classical.get(i).cloned() else {
            continue;
        };
        let net = network.as_ref().and_then(|n| n.get(i).cloned());
        out.push(Claim {
            id,
            claim: claim.to_string(),
            source: source.to_string(),
            lull: with_elo(lull, id, &games.hce, hce_by),
            lull_nnue: net
                .as_ref()
                .map(|(t, _)| with_elo(t.clone(), id, &games.nnue, nnue_by)),
            holds,
            holds_nnue: net.and_then(|(_, h)| h),
            figures: shown_in.to_vec(),
        });
    }
    let claimed = (150.0, 250.0);
    let elo = match_elo(&games.hce, hce_by, "qsearch-off", true);
    let nnue_elo = match_elo(&games.nnue, nnue_by, "qsearch-off", true);
    out.push(Claim {
        id: "qsearch-elo",
        claim: "The quiescence search is worth 150–250 Elo".to_string(),
        source: common.to_string(),
        lull: elo.as_ref().map_or_else(
            || "not measured: no stored match qsearch-off.pgn".to_string(),
            |(_, t)| t.clone(),
        ),
        lull_nnue: nnue_elo.as_ref().map(|(_, t)| t.clone()),
        holds: elo.and_then(|(e, _)| inside(e.lo, e.hi, claimed)),
        holds_nnue: nnue_elo.and_then(|(e, _)| inside(e.lo, e.hi, claimed)),
        figures: vec!["elo.svg", "wac_budget.svg"],
    });
    out
}

/// The titles of the two panels of each figure.
pub const HAND_CRAFTED: &str = "hand-crafted evaluation";
/// The network's panel.
pub const NETWORK: &str = "NNUE";

/// A figure of the report with what the pages say of it.
pub struct ReportFigure {
    /// Its file, beside the pages.
    pub file: &'static str,
    /// The caption.
    pub caption: String,
    /// One line: what to see in it.
    pub what: String,
    /// The claim it is the evidence of (the id of its row, `claim-<id>`).
    pub claim: &'static str,
    /// The figure.
    pub figure: plots::Figure,
}

/// The option sets (their labels) for which `pick(variant, default)` holds in every
/// evaluation measured, as a list for a sentence (`none` when there is none).
fn option_sets_where(
    data: &ReportData,
    pick: impl Fn(&VariantMeasure, &VariantMeasure) -> bool,
) -> String {
    let mut panels = vec![data.measures.as_slice()];
    if let Some(n) = &data.nnue_measures {
        panels.push(n);
    }
    let labels: Vec<&str> = data
        .measures
        .iter()
        .filter(|m| m.variant.key != "default")
        .filter(|m| {
            panels
                .iter()
                .all(|ms| match (find(ms, "default"), find(ms, m.variant.key)) {
                    (Some(d), Some(v)) => pick(v, d),
                    _ => false,
                })
        })
        .map(|m| m.variant.label)
        .collect();
    if labels.is_empty() {
        "none".to_string()
    } else {
        labels.join("; ")
    }
}

/// The figures of the report, each with its caption, what to see in it (the option sets it
/// names are read from the data) and its claim.
pub fn report_figures(data: &ReportData) -> Result<Vec<ReportFigure>, String> {
    let mut panels: Vec<plots::Panel<'_>> = vec![(HAND_CRAFTED, &data.measures)];
    if let Some(n) = &data.nnue_measures {
        panels.push((NETWORK, n));
    }
    let both = if panels.len() == 2 {
        " (hand-crafted evaluation left, NNUE right)"
    } else {
        ""
    };
    let fig = |file, caption: String, what: String, claim, figure| ReportFigure {
        file,
        caption,
        what,
        claim,
        figure,
    };
    let deeper = option_sets_where(data, |v, d| v.stats.mean_qply() > d.stats.mean_qply());
    let larger = option_sets_where(data, |v, d| v.nodes() as f64 > 1.05 * d.nodes() as f64);
    let solved = |m: &VariantMeasure| m.wac.last().map_or(0, |w| w.solved);
    let fewer = option_sets_where(data, |v, d| solved(v) < solved(d));
    let depth = data.config.depth;
    let budget = data.config.wac_budgets.last().copied().unwrap_or(0);
    let mut out = vec![
        fig(
            "qply_histogram.svg",
            format!("The q-ply histogram per option set{both}"),
            format!(
                "How far past the horizon the quiescence search goes: the mean and the \
                 deepest q-ply of the claims are read off the default's bars; a deeper mean \
                 than the default's with both evaluations: {deeper}."
            ),
            "qdepth-mean",
            plots::qply_histogram(&panels)?,
        ),
        fig(
            "nodes_to_depth.svg",
            format!("Nodes to depth{both}"),
            format!(
                "What each option set costs at every depth: a line above the default's \
                 searches more nodes for the same depth (over 5 % more at depth {depth} with \
                 both evaluations: {larger}); the claims quote these ratios."
            ),
            "checks",
            plots::to_depth(&panels, false)?,
        ),
        fig(
            "time_to_depth.svg",
            format!("Time to depth{both}"),
            "The same in milliseconds: the cost of the nodes, with the load of the machine \
             in it (node counts are exact, times are not)."
                .to_string(),
            "checks",
            plots::to_depth(&panels, true)?,
        ),
    ];
    let defaults: Vec<(&str, &measure::VariantMeasure)> = panels
        .iter()
        .filter_map(|(t, ms)| find(ms, "default").map(|d| (*t, d)))
        .collect();
    if !defaults.is_empty() {
        out.push(fig(
            "bench_positions.svg",
            format!("Q-node share and stand-pat rate per bench position{both}"),
            "The spread behind the single figures of the claims: the q-node share and the \
             stand-pat rate of each position, against the bands the literature quotes."
                .to_string(),
            "qnode-share-cpw",
            plots::bench_positions(&defaults)?,
        ));
    }
    out.push(fig(
        "wac_budget.svg",
        format!("WAC solved against the node budget{both}"),
        format!(
            "What the quiescence search buys in tactics: a line below the default's solves \
             fewer Win At Chess positions for the same nodes (fewer at {budget} nodes with \
             both evaluations: {fewer})."
        ),
        "qsearch-elo",
        plots::wac_budget(&panels)?,
    ));
    if !data.matches.is_empty() || !data.nnue_matches.is_empty() {
        let keys: Vec<(String, usize)> = data
            .measures
            .iter()
            .enumerate()
            .map(|(i, m)| (m.variant.key.to_string(), i))
            .collect();
        let mut games: Vec<(&str, &[MatchResult])> = vec![(HAND_CRAFTED, &data.matches)];
        let mut played = vec![format!(
            "{} (hand-crafted evaluation)",
            render::played_by_brief(data, data.matches_played_by.as_ref())
        )];
        if data.nnue_measures.is_some() {
            games.push((NETWORK, &data.nnue_matches));
            if !data.nnue_matches.is_empty() {
                played.push(format!(
                    "{} (NNUE)",
                    render::played_by_brief(data, data.nnue_matches_played_by.as_ref())
                ));
            }
        }
        out.push(fig(
            "elo.svg",
            format!(
                "Elo of each variant against the default{both}, from games played by {}: \
                 see Matches",
                played.join("; ")
            ),
            "Which switch matters in play: an interval clear of 0 is a measured difference, \
             one across 0 is none at this number of games."
                .to_string(),
            "qsearch-elo",
            plots::elo(&games, &keys)?,
        ));
    }
    Ok(out)
}

/// Writes the report into `out`: the figures, index.html, README.md and data.json. Returns
/// the names of the files written.
pub fn write_report(data: &ReportData, out: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let figures = report_figures(data)?;
    let mut written = Vec::new();
    let write = |name: &str, text: &str, written: &mut Vec<String>| -> Result<(), String> {
        let p = out.join(name);
        crate::tools::common::atomic::write_atomic(&p, text.as_bytes())?;
        written.push(name.to_string());
        Ok(())
    };
    for f in &figures {
        write(f.file, &f.figure.svg, &mut written)?;
    }
    // A figure of an earlier edition that this one no longer draws.
    let stale = out.join("nnue_qply_histogram.svg");
    if stale.is_file() {
        let _ = std::fs::remove_file(stale);
    }
    let list: Vec<render::FigureRef<'_>> = figures
        .iter()
        .map(|f| render::FigureRef {
            file: f.file,
            caption: &f.caption,
            what: &f.what,
            claim: f.claim,
            x_label: &f.figure.x_label,
            y_label: &f.figure.y_label,
        })
        .collect();
    write("index.html", &render::html(data, &list), &mut written)?;
    write("README.md", &render::markdown(data, &list), &mut written)?;
    let json = serde_json::to_string_pretty(data).map_err(|e| format!("data.json: {e}"))?;
    write("data.json", &json, &mut written)?;
    Ok(written)
}

/// `lull report`: measure, then write the report. Exit code 2 for bad arguments or stored
/// matches that cannot be read, 1 when writing fails.
pub fn run(mut args: ReportArgs) -> ExitCode {
    // `--build ""` (a `$(git rev-parse …)` outside a clone) names no build.
    args.build = args.build.filter(|b| !b.trim().is_empty());
    if args.replot {
        let data = match reload(
            &args.out.join("data.json"),
            &args.matches,
            args.build.clone(),
        ) {
            Ok(d) => d,
            Err(e) => return fail(2, e),
        };
        if data.matches.is_empty() && data.nnue_matches.is_empty() {
            eprintln!("{}", render::no_matches_text(&data));
        }
        return match write_report(&data, &args.out) {
            Ok(files) => {
                println!(
                    "report redrawn in {} ({} files)",
                    args.out.join("index.html").display(),
                    files.len()
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(1, e),
        };
    }
    let config = if args.quick {
        MeasureConfig::quick()
    } else {
        MeasureConfig::full()
    };
    if let Some(f) = &args.eval_file {
        if !f.is_file() {
            return fail(2, format!("--eval-file {}: no such file", f.display()));
        }
    }
    // The output directory before the measurements (which take minutes): it, or the nearest
    // directory above it that exists (nothing is created yet), must take a new file.
    let mut dir = args.out.as_path();
    while !dir.exists() {
        match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => dir = p,
            _ => {
                dir = std::path::Path::new(".");
                break;
            }
        }
    }
    if let Err(e) = crate::tools::common::atomic::check_output(&dir.join("index.html"), &[]) {
        return fail(1, format!("cannot write {}: {e}", args.out.display()));
    }
    let command = std::iter::once("lull".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let start = Instant::now();
    // The bench signature first: it names the search and the network that measured (the
    // release refuses a report whose signature is not its binary's).
    eprintln!("[    0s] bench signature (lull bench)");
    let bench = measure::bench_signature();
    eprintln!(
        "[{:>5.0}s] bench signature {bench}",
        start.elapsed().as_secs_f64()
    );
    let mut opts = CollectOptions {
        build: args.build.clone(),
        bench: Some(bench),
        ..CollectOptions::default()
    };
    if let Some(j) = args.jobs {
        opts.jobs = j as usize;
    }
    let data = match collect_with(
        &config,
        &args.matches,
        args.eval_file.as_deref(),
        command,
        &opts,
        |s| eprintln!("[{:>5.0}s] {s}", start.elapsed().as_secs_f64()),
    ) {
        Ok(d) => d,
        Err(e) => return fail(2, e),
    };
    if data.matches.is_empty() && data.nnue_matches.is_empty() {
        eprintln!("{}", render::no_matches_text(&data));
    }
    match write_report(&data, &args.out) {
        Ok(files) => {
            println!(
                "report written to {} ({} files, {:.0} s)",
                args.out.join("index.html").display(),
                files.len(),
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(1, e),
    }
}

#[cfg(test)]
mod tests {
    use super::matches::parse_match;
    use super::{claims, inside, saving_text, StoredGames};

    #[test]
    fn a_verdict_is_inside_when_the_interval_overlaps_the_range() {
        let claim = (150.0, 250.0);
        // The estimate above the range, its interval across the top end: inside.
        assert_eq!(inside(208.8, 365.2, claim), Some(true));
        // Below the range, above it, and touching either end.
        assert_eq!(inside(100.0, 149.9, claim), Some(false));
        assert_eq!(inside(250.1, f64::INFINITY, claim), Some(false));
        assert_eq!(inside(f64::NEG_INFINITY, 150.0, claim), Some(true));
        assert_eq!(inside(250.0, 400.0, claim), Some(true));
        // Within it, around it, and the ends in either order.
        assert_eq!(inside(160.0, 240.0, claim), Some(true));
        assert_eq!(inside(100.0, 300.0, claim), Some(true));
        assert_eq!(inside(365.2, 208.8, claim), Some(true));
        // A measured value is an interval of one point.
        assert_eq!(inside(37.1, 37.1, (50.0, 90.0)), Some(false));
        assert_eq!(inside(37.1, 37.1, (30.0, 50.0)), Some(true));
        assert_eq!(inside(f64::NAN, 1.0, claim), None);
    }

    /// 50 game pairs, `[LL, LD, WL+DD, WD, WW]` of the variant, as a PGN.
    fn pairs_pgn(variant: &str, penta: [u32; 5]) -> String {
        let mut pgn = String::new();
        let mut round = 0;
        // Each pair as (the variant's result with White, with Black).
        let kinds = [
            ("0-1", "1-0"),
            ("0-1", "1/2-1/2"),
            ("1-0", "1-0"),
            ("1-0", "1/2-1/2"),
            ("1-0", "0-1"),
        ];
        for (count, (a, b)) in penta.iter().zip(kinds) {
            for _ in 0..*count {
                round += 1;
                pgn.push_str(&format!(
                    "[Round \"{round}.1\"]\n[White \"{variant}\"]\n[Black \"default\"]\n[Result \"{a}\"]\n\n{a}\n\n\
                     [Round \"{round}.2\"]\n[White \"default\"]\n[Black \"{variant}\"]\n[Result \"{b}\"]\n\n{b}\n\n"
                ));
            }
        }
        pgn
    }

    /// The committed report's match without the quiescence search (LL 28, LD 12, WL+DD 8,
    /// WD 2): the quiescence search is worth +275.5 [+208.8, +365.2] Elo, whose interval
    /// overlaps the claimed 150-250 Elo. The verdict said "outside" by the estimate alone.
    #[test]
    fn the_elo_claim_is_inside_when_its_interval_overlaps() {
        let m = parse_match("qsearch-off", &pairs_pgn("qsearch-off", [28, 12, 8, 2, 0])).unwrap();
        assert_eq!(m.pentanomial.unwrap().text(), "-275.5 [-365.2, -208.8]");
        let games = StoredGames {
            hce: vec![m],
            ..StoredGames::default()
        };
        let c = claims(&[], None, &games);
        let elo = c.iter().find(|c| c.id == "qsearch-elo").unwrap();
        assert!(
            elo.lull.starts_with("+275.5 [+208.8, +365.2] Elo"),
            "{}",
            elo.lull
        );
        assert_eq!(elo.holds, Some(true));
        // Entirely above the range (WW pairs only): outside.
        let m = parse_match("qsearch-off", &pairs_pgn("qsearch-off", [50, 0, 0, 0, 0])).unwrap();
        let games = StoredGames {
            hce: vec![m],
            ..StoredGames::default()
        };
        let c = claims(&[], None, &games);
        assert_eq!(
            c.iter().find(|c| c.id == "qsearch-elo").unwrap().holds,
            Some(false)
        );
    }

    #[test]
    fn a_saving_says_fewer_more_or_as_many() {
        assert_eq!(saving_text(1.14), "12 % fewer with it");
        assert_eq!(saving_text(0.83), "20 % more with it");
        assert_eq!(saving_text(1.004), "as many with it");
        assert_eq!(saving_text(0.996), "as many with it");
    }
}

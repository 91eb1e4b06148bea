//! `lull report`: measures the quiescence search through the library and writes a
//! self-contained report, DIR/index.html with SVG figures and its Markdown twin DIR/README.md
//! (plus the figures and data.json), that sets each figure the literature quotes beside
//! Lull's own. [`measure`] runs the searches, [`matches`](mod@matches) reads the stored match games and
//! computes Elo, [`plots`] draws the figures and [`render`] writes the pages. The matches
//! are not played here: `docs/report/play_matches.sh` plays them into
//! docs/report/matches/*.pgn, which the report reads.

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
use matches::{read_matches, MatchResult};
use measure::{measure_variant, variants, MeasureConfig, VariantMeasure};

/// Arguments of `lull report`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReportArgs {
    /// Directory to write the report into (created if missing).
    #[arg(short = 'o', long = "out", default_value = "docs/report")]
    pub out: PathBuf,
    /// Smaller measurements (depth 10 instead of 12, 60 WAC positions instead of 300): about
    /// a minute of one core.
    #[arg(long)]
    pub quick: bool,
    /// Directory of the stored match games (`<variant>.pgn`, played by
    /// docs/report/play_matches.sh); the default is docs/report/matches.
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
    /// Whether Lull's figure falls in the claimed range (`None`: no range to check).
    pub holds: Option<bool>,
    /// The same for the network's figure.
    pub holds_nnue: Option<bool>,
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
    let matches = read_matches(matches_dir)?;
    let nnue_matches = read_matches(&matches_dir.join("nnue"))?;
    let claims = claims(&measures, nnue_measures.as_deref(), &matches, &nnue_matches);
    Ok(ReportData {
        command: stored.command,
        version: env!("CARGO_PKG_VERSION"),
        build: stored.build,
        jobs: stored.jobs.max(1),
        config: stored.config,
        measures,
        nnue_measures,
        nnue_note: stored.nnue_note,
        matches,
        nnue_matches,
        matches_dir: matches_dir.display().to_string(),
        claims,
        elapsed_s: stored.elapsed_s,
        redrawn_by,
    })
}

/// How [`collect_with`] runs: threads and the build to name.
#[derive(Clone, Debug)]
pub struct CollectOptions {
    /// Option sets measured at once (at least 1).
    pub jobs: usize,
    /// The build to name in the report.
    pub build: Option<String>,
}

impl Default for CollectOptions {
    /// The machine's cores, no build named.
    fn default() -> Self {
        Self {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            build: None,
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
    let matches = read_matches(matches_dir)?;
    let nnue_matches = read_matches(&matches_dir.join("nnue"))?;
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
    let claims = claims(&measures, nnue_measures.as_deref(), &matches, &nnue_matches);
    Ok(ReportData {
        command,
        version: env!("CARGO_PKG_VERSION"),
        build: opts.build.clone(),
        jobs,
        config: config.clone(),
        measures,
        nnue_measures,
        nnue_note,
        matches,
        nnue_matches,
        matches_dir: matches_dir.display().to_string(),
        claims,
        elapsed_s: start.elapsed().as_secs_f64(),
        redrawn_by: None,
    })
}

fn find<'a>(ms: &'a [VariantMeasure], key: &str) -> Option<&'a VariantMeasure> {
    ms.iter().find(|m| m.variant.key == key)
}

/// `nodes(key) / nodes(default)` at the deepest depth.
fn node_ratio(ms: &[VariantMeasure], key: &str) -> Option<f64> {
    let d = find(ms, "default")?.nodes() as f64;
    let v = find(ms, key)?.nodes() as f64;
    (d > 0.0).then(|| v / d)
}

fn in_range(x: f64, lo: f64, hi: f64) -> bool {
    (lo..=hi).contains(&x)
}

/// The Elo text of a stored match (`-209.9 [-297.2, -141.5], 100 games`), if played.
fn match_elo(matches: &[MatchResult], key: &str, negate: bool) -> Option<(f64, String)> {
    let m = matches.iter().find(|m| m.name == key)?;
    let e = m.pentanomial.or(m.trinomial)?;
    let e = if negate {
        matches::EloInterval {
            elo: -e.elo,
            lo: -e.hi,
            hi: -e.lo,
            score: 1.0 - e.score,
        }
    } else {
        e
    };
    Some((
        e.elo,
        format!("{} Elo, {} games ({})", e.text(), m.games(), m.time_control),
    ))
}

/// Lull's figures for one evaluation: (q-node share, stand-pat, mean q-ply, max q-ply,
/// checks, SEE, delta, Beal), each as text and the number checked against the claim.
fn figures(ms: &[VariantMeasure]) -> Vec<(String, Option<bool>)> {
    let Some(d) = find(ms, "default") else {
        return Vec::new();
    };
    let s = &d.stats;
    let shares: Vec<f64> = d.positions.iter().map(|p| p.qnode_share).collect();
    let (lo, hi) = shares
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let ratio = |k: &str| node_ratio(ms, k).unwrap_or(f64::NAN);
    let depth = d.depths.last().map_or(0, |p| p.depth);
    let share = s.qnode_share();
    let share_text = format!("{share:.1} % at depth {depth} (per position {lo:.0}–{hi:.0} %)");
    let (c1, c2) = (ratio("checks-1"), ratio("checks-2"));
    let (see, delta, beal) = (ratio("see-off"), ratio("delta-off"), ratio("nullmove-on"));
    vec![
        (share_text.clone(), Some(in_range(share, 50.0, 90.0))),
        (share_text, Some(in_range(share, 30.0, 50.0))),
        (
            format!("{:.1} % of the q-nodes not in check", s.standpat_rate()),
            Some(in_range(s.standpat_rate(), 40.0, 60.0)),
        ),
        (
            format!("{:.2}", s.mean_qply()),
            Some(in_range(s.mean_qply(), 1.0, 3.0)),
        ),
        (
            format!("{}", s.qply_max),
            Some(in_range(s.qply_max as f64, 6.0, 10.0)),
        ),
        (
            format!("×{c1:.2} nodes with checks at the first q-ply, ×{c2:.2} at two"),
            Some(in_range(c1, 2.0, 3.0) || in_range(c2, 2.0, 3.0)),
        ),
        (
            format!("without it ×{see:.2} nodes ({})", saving_text(see)),
            None,
        ),
        (
            format!("without it ×{delta:.2} nodes ({})", saving_text(delta)),
            None,
        ),
        (format!("×{beal:.2} nodes at q-ply 0"), None),
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

/// The claims of the literature with Lull's figures (and the network's, if measured).
pub fn claims(
    ms: &[VariantMeasure],
    nnue: Option<&[VariantMeasure]>,
    matches: &[MatchResult],
    nnue_matches: &[MatchResult],
) -> Vec<Claim> {
    let cpw = "Chess Programming Wiki, <em>Quiescence Search</em> (Limiting Quiescence)";
    let rows: [(&str, &str, &str); 9] = [
        (
            "qnode-share-cpw",
            "Quiescence nodes are 50–90 % of all nodes",
            cpw,
        ),
        (
            "qnode-share-chessml",
            "Quiescence nodes are 30–50 % of all nodes",
            "the ChessML guide (quoted second-hand)",
        ),
        (
            "standpat",
            "Stand pat cuts off 40–60 % of the quiescence nodes",
            "a common claim (no primary source named)",
        ),
        (
            "qdepth-mean",
            "The mean quiescence depth is 1–3 plies",
            "a common claim (no primary source named)",
        ),
        (
            "qdepth-max",
            "The deepest quiescence line is 6–10 plies",
            "a common claim (no primary source named)",
        ),
        (
            "checks",
            "Quiet checks in the quiescence search cost 2–3× the nodes",
            "a common claim (no primary source named)",
        ),
        (
            "see",
            "Skipping captures with SEE &lt; 0 shrinks the quiescence tree (no figure given)",
            cpw,
        ),
        (
            "delta",
            "Delta pruning shrinks the quiescence tree (no figure given)",
            "Chess Programming Wiki, <em>Delta Pruning</em>",
        ),
        (
            "beal",
            "A null-move stand pat makes the quiescence search aware of threats",
            "D. F. Beal, <em>A generalised quiescence search algorithm</em>, Artificial \
             Intelligence 43 (1990)",
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
    let with_elo = |text: String, id: &str, games: &[MatchResult]| match elo_of(id) {
        Some((key, negate, what)) => match match_elo(games, key, negate) {
            Some((_, elo)) => format!("{text}; {what}: {elo}"),
            None => text,
        },
        None => text,
    };
    let mut out = Vec::new();
    for (i, (id, claim, source)) in rows.iter().enumerate() {
        let Some((lull, holds)) = classical.get(i).cloned() else {
            continue;
        };
        let net = network.as_ref().and_then(|n| n.get(i).cloned());
        out.push(Claim {
            id,
            claim: claim.to_string(),
            source: source.to_string(),
            lull: with_elo(lull, id, matches),
            lull_nnue: net
                .as_ref()
                .map(|(t, _)| with_elo(t.clone(), id, nnue_matches)),
            holds,
            holds_nnue: net.and_then(|(_, h)| h),
        });
    }
    let elo = match_elo(matches, "qsearch-off", true);
    let nnue_elo = match_elo(nnue_matches, "qsearch-off", true);
    out.push(Claim {
        id: "qsearch-elo",
        claim: "The quiescence search is worth 150–250 Elo".to_string(),
        source: "a common claim (no primary source named)".to_string(),
        lull: elo.as_ref().map_or_else(
            || "not measured: no stored match qsearch-off.pgn".to_string(),
            |(_, t)| t.clone(),
        ),
        lull_nnue: nnue_elo.as_ref().map(|(_, t)| t.clone()),
        holds: elo.map(|(e, _)| in_range(e, 150.0, 250.0)),
        holds_nnue: nnue_elo.map(|(e, _)| in_range(e, 150.0, 250.0)),
    });
    out
}

/// The titles of the two panels of each figure.
pub const HAND_CRAFTED: &str = "hand-crafted evaluation";
/// The network's panel.
pub const NETWORK: &str = "NNUE";

/// The figures of the report: file name, caption and the figure.
pub fn report_figures(
    data: &ReportData,
) -> Result<Vec<(&'static str, String, plots::Figure)>, String> {
    let mut panels: Vec<plots::Panel<'_>> = vec![(HAND_CRAFTED, &data.measures)];
    if let Some(n) = &data.nnue_measures {
        panels.push((NETWORK, n));
    }
    let both = if panels.len() == 2 {
        " (hand-crafted evaluation left, NNUE right)"
    } else {
        ""
    };
    let mut out = vec![
        (
            "qply_histogram.svg",
            format!("The q-ply histogram per option set{both}"),
            plots::qply_histogram(&panels)?,
        ),
        (
            "nodes_to_depth.svg",
            format!("Nodes to depth{both}"),
            plots::to_depth(&panels, false)?,
        ),
        (
            "time_to_depth.svg",
            format!("Time to depth{both}"),
            plots::to_depth(&panels, true)?,
        ),
    ];
    let defaults: Vec<(&str, &measure::VariantMeasure)> = panels
        .iter()
        .filter_map(|(t, ms)| find(ms, "default").map(|d| (*t, d)))
        .collect();
    if !defaults.is_empty() {
        out.push((
            "bench_positions.svg",
            format!("Q-node share and stand-pat rate per bench position{both}"),
            plots::bench_positions(&defaults)?,
        ));
    }
    out.push((
        "wac_budget.svg",
        format!("WAC solved against the node budget{both}"),
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
        if data.nnue_measures.is_some() {
            games.push((NETWORK, &data.nnue_matches));
        }
        out.push((
            "elo.svg",
            format!("Elo of each variant against the default{both}"),
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
    for (name, _, figure) in &figures {
        write(name, &figure.svg, &mut written)?;
    }
    // A figure of an earlier edition that this one no longer draws.
    let stale = out.join("nnue_qply_histogram.svg");
    if stale.is_file() {
        let _ = std::fs::remove_file(stale);
    }
    let list: Vec<render::FigureRef<'_>> = figures
        .iter()
        .map(|(n, c, f)| render::FigureRef {
            file: n,
            caption: c,
            x_label: &f.x_label,
            y_label: &f.y_label,
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
pub fn run(args: ReportArgs) -> ExitCode {
    if args.replot {
        let data = match reload(
            &args.out.join("data.json"),
            &args.matches,
            args.build.clone(),
        ) {
            Ok(d) => d,
            Err(e) => return fail(2, e),
        };
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
    let mut opts = CollectOptions {
        build: args.build.clone(),
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
    use super::saving_text;

    #[test]
    fn a_saving_says_fewer_more_or_as_many() {
        assert_eq!(saving_text(1.14), "12 % fewer with it");
        assert_eq!(saving_text(0.83), "20 % more with it");
        assert_eq!(saving_text(1.004), "as many with it");
        assert_eq!(saving_text(0.996), "as many with it");
    }
}

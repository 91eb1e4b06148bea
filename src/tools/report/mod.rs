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
}

/// Everything the report shows; written as data.json.
#[derive(Clone, Debug, Serialize)]
pub struct ReportData {
    /// The command line that made it.
    pub command: String,
    /// `lull` version.
    pub version: &'static str,
    /// What was measured.
    pub config: MeasureConfig,
    /// Per option set, classical evaluation.
    pub measures: Vec<VariantMeasure>,
    /// Per option set with the network, when one was measured.
    pub nnue_measures: Option<Vec<VariantMeasure>>,
    /// Why there is no network column, or which network it is.
    pub nnue_note: String,
    /// The stored matches.
    pub matches: Vec<MatchResult>,
    /// Where they were read from.
    pub matches_dir: String,
    /// The claims with Lull's figures.
    pub claims: Vec<Claim>,
    /// Seconds the measurements took.
    pub elapsed_s: f64,
}

/// Runs every option set with `config` and reads the matches; `progress` gets a line per step.
pub fn collect(
    config: &MeasureConfig,
    matches_dir: &Path,
    eval_file: Option<&Path>,
    command: String,
    mut progress: impl FnMut(&str),
) -> Result<ReportData, String> {
    let start = Instant::now();
    let matches = read_matches(matches_dir)?;
    let mut measures = Vec::new();
    for v in variants() {
        measures.push(measure_variant(&v, config, &mut progress)?);
    }
    let net = match eval_file {
        Some(p) => Some(p.display().to_string()),
        None if nnue::DEFAULT_NET.is_some() => Some("<default>".to_string()),
        None => None,
    };
    let (nnue_measures, nnue_note) = match net {
        Some(file) => {
            let mut cfg = config.clone();
            cfg.eval_options = vec![
                ("EvalFile".to_string(), file.clone()),
                ("Use NNUE".to_string(), "true".to_string()),
            ];
            let mut out = Vec::new();
            for v in variants() {
                out.push(measure_variant(&v, &cfg, |s| {
                    progress(&format!("NNUE {s}"))
                })?);
            }
            (Some(out), format!("network: EvalFile={file}"))
        }
        None => (
            None,
            "No network is embedded yet (src/nnue: DEFAULT_NET is None, `Use NNUE` defaults \
             to false), so the NNUE column waits for the network; `lull report --eval-file \
             FILE` measures a trained one side by side."
                .to_string(),
        ),
    };
    let claims = claims(&measures, nnue_measures.as_deref(), &matches);
    Ok(ReportData {
        command,
        version: env!("CARGO_PKG_VERSION"),
        config: config.clone(),
        measures,
        nnue_measures,
        nnue_note,
        matches,
        matches_dir: matches_dir.display().to_string(),
        claims,
        elapsed_s: start.elapsed().as_secs_f64(),
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
            format!(
                "without it ×{see:.2} nodes ({:.0} % fewer with it)",
                100.0 * (1.0 - 1.0 / see)
            ),
            None,
        ),
        (
            format!(
                "without it ×{delta:.2} nodes ({:.0} % fewer with it)",
                100.0 * (1.0 - 1.0 / delta)
            ),
            None,
        ),
        (format!("×{beal:.2} nodes at q-ply 0"), None),
    ]
}

/// The claims of the literature with Lull's figures (and the network's, if measured).
pub fn claims(
    ms: &[VariantMeasure],
    nnue: Option<&[VariantMeasure]>,
    matches: &[MatchResult],
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
            "the ChessML guide (as quoted in Lull's issue #16)",
        ),
        (
            "standpat",
            "Stand pat cuts off 40–60 % of the quiescence nodes",
            "quoted in Lull's issue #16 (no primary source named)",
        ),
        (
            "qdepth-mean",
            "The mean quiescence depth is 1–3 plies",
            "quoted in Lull's issue #16 (no primary source named)",
        ),
        (
            "qdepth-max",
            "The deepest quiescence line is 6–10 plies",
            "quoted in Lull's issue #16 (no primary source named)",
        ),
        (
            "checks",
            "Quiet checks in the quiescence search cost 2–3× the nodes",
            "quoted in Lull's issue #16 (no primary source named)",
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
    let mut out = Vec::new();
    for (i, (id, claim, source)) in rows.iter().enumerate() {
        let Some((lull, holds)) = classical.get(i).cloned() else {
            continue;
        };
        let mut lull = lull;
        let extra = match *id {
            "see" => match_elo(matches, "see-off", true),
            "delta" => match_elo(matches, "delta-off", true),
            "beal" => match_elo(matches, "nullmove-on", false),
            "checks" => match_elo(matches, "checks-1", false),
            _ => None,
        };
        if let Some((_, text)) = extra {
            let what = match *id {
                "beal" => "Elo of the null move",
                "checks" => "Elo of checks at 1 q-ply",
                _ => "Elo of the pruning",
            };
            lull = format!("{lull}; {what}: {text}");
        }
        out.push(Claim {
            id,
            claim: claim.to_string(),
            source: source.to_string(),
            lull,
            lull_nnue: network.as_ref().and_then(|n| n.get(i).map(|f| f.0.clone())),
            holds,
        });
    }
    let elo = match_elo(matches, "qsearch-off", true);
    out.push(Claim {
        id: "qsearch-elo",
        claim: "The quiescence search is worth 150–250 Elo".to_string(),
        source: "quoted in Lull's issue #16 (no primary source named)".to_string(),
        lull: elo.as_ref().map_or_else(
            || "not measured: no stored match qsearch-off.pgn".to_string(),
            |(_, t)| t.clone(),
        ),
        lull_nnue: None,
        holds: elo.map(|(e, _)| in_range(e, 150.0, 250.0)),
    });
    out
}

/// Writes the report into `out`: the figures, index.html, README.md and data.json. Returns
/// the names of the files written.
pub fn write_report(data: &ReportData, out: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut figures: Vec<(&str, &str, String)> = Vec::new();
    let ms = &data.measures;
    figures.push((
        "qply_histogram.svg",
        "The q-ply histogram per option set",
        plots::qply_histogram(ms)?,
    ));
    figures.push((
        "nodes_to_depth.svg",
        "Nodes to depth",
        plots::to_depth(ms, false)?,
    ));
    figures.push((
        "time_to_depth.svg",
        "Time to depth",
        plots::to_depth(ms, true)?,
    ));
    if let Some(d) = find(ms, "default") {
        figures.push((
            "bench_positions.svg",
            "Q-node share and stand-pat rate per bench position",
            plots::bench_positions(d)?,
        ));
    }
    figures.push((
        "wac_budget.svg",
        "WAC solved against the node budget",
        plots::wac_budget(ms)?,
    ));
    if !data.matches.is_empty() {
        let keys: Vec<(String, usize)> = ms
            .iter()
            .enumerate()
            .map(|(i, m)| (m.variant.key.to_string(), i))
            .collect();
        figures.push((
            "elo.svg",
            "Elo of each variant against the default",
            plots::elo(&data.matches, &keys)?,
        ));
    }
    if let Some(n) = &data.nnue_measures {
        figures.push((
            "nnue_qply_histogram.svg",
            "The q-ply histogram with the network",
            plots::qply_histogram(n)?,
        ));
    }
    let mut written = Vec::new();
    let write = |name: &str, text: &str, written: &mut Vec<String>| -> Result<(), String> {
        let p = out.join(name);
        crate::tools::atomic::write_atomic(&p, text.as_bytes())?;
        written.push(name.to_string());
        Ok(())
    };
    for (name, _, svg) in &figures {
        write(name, svg, &mut written)?;
    }
    let list: Vec<(&str, &str)> = figures.iter().map(|(n, t, _)| (*n, *t)).collect();
    write("index.html", &render::html(data, &list), &mut written)?;
    write("README.md", &render::markdown(data, &list), &mut written)?;
    let json = serde_json::to_string_pretty(data).map_err(|e| format!("data.json: {e}"))?;
    write("data.json", &json, &mut written)?;
    Ok(written)
}

/// `lull report`: measure, then write the report. Exit code 2 for bad arguments or stored
/// matches that cannot be read, 1 when writing fails.
pub fn run(args: ReportArgs) -> ExitCode {
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
    if let Err(e) = crate::tools::atomic::check_output(&dir.join("index.html"), &[]) {
        return fail(1, format!("cannot write {}: {e}", args.out.display()));
    }
    let command = std::iter::once("lull".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let start = Instant::now();
    let data = match collect(
        &config,
        &args.matches,
        args.eval_file.as_deref(),
        command,
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

//! The measurements of `lull report`, run through the library: every option set searches the
//! bench positions at each depth up to the configured one (nodes, time and the search
//! statistics, per position at the last depth), and the Win At Chess positions at a few node
//! budgets (solved count per budget).

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::bench::BENCH_POSITIONS;
use crate::epd::{parse_epd, EpdRecord};
use crate::options::apply_option;
use crate::position::Position;
use crate::search::{Engine, SearchStats};
use crate::time::Limits;
use crate::tools::cli::quiet_engine;
use crate::tools::testing::solve::{judgeable, solve, SolveConfig, SolveEvent, WAC_EPD};

/// One option set of the report: the default or one quiescence option switched.
#[derive(Clone, Debug, Serialize)]
pub struct Variant {
    /// Short key, also the name of its match file (`see-off` → matches/see-off.pgn).
    pub key: &'static str,
    /// What it is, for people.
    pub label: &'static str,
    /// The UCI options that make it, as (name, value).
    pub options: Vec<(&'static str, &'static str)>,
}

impl Variant {
    /// The options as `Name=Value` words (`default` for none).
    pub fn options_text(&self) -> String {
        if self.options.is_empty() {
            "default".to_string()
        } else {
            self.options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

/// The option sets: the default first, then each quiescence feature switched.
pub fn variants() -> Vec<Variant> {
    let v = |key, label, options| Variant {
        key,
        label,
        options,
    };
    vec![
        v("default", "default", vec![]),
        v(
            "qsearch-off",
            "no quiescence search",
            vec![("QSearch", "false")],
        ),
        v("see-off", "SEE pruning off", vec![("QSearchSEE", "-10000")]),
        v(
            "delta-off",
            "delta pruning off",
            vec![("QSearchDelta", "0")],
        ),
        v("tt-off", "no TT in qsearch", vec![("QSearchTT", "false")]),
        v(
            "nullmove-on",
            "Beal null move (q-ply 0)",
            vec![("QSearchNullMove", "1")],
        ),
        v("checks-1", "checks, 1 q-ply", vec![("QSearchChecks", "1")]),
        v(
            "checks-2",
            "checks, 2 q-plies",
            vec![("QSearchChecks", "2")],
        ),
    ]
}

/// How much to measure.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MeasureConfig {
    /// Deepest fixed depth of the bench searches (every depth from 1 is searched).
    pub depth: i32,
    /// How many of the bench positions (from the first).
    pub positions: usize,
    /// How many Win At Chess positions (spread evenly over the 300).
    pub wac_positions: usize,
    /// Node budgets per WAC position.
    pub wac_budgets: Vec<u64>,
    /// Hash per engine, in MiB.
    pub hash_mib: usize,
    /// Extra options applied to every option set (the evaluation: `EvalFile`, `Use NNUE`);
    /// the hand-crafted evaluation by default (see [`hand_crafted`]).
    pub eval_options: Vec<(String, String)>,
}

/// The evaluation options of the report's main columns: the hand-crafted evaluation, whose
/// quiescence search the literature describes (the network has a column of its own).
pub fn hand_crafted() -> Vec<(String, String)> {
    vec![("Use NNUE".to_string(), "false".to_string())]
}

impl MeasureConfig {
    /// The checked-in report: depth 12 (the bench's), all 50 positions, all 300 WAC
    /// positions at 10k, 30k and 100k nodes (about 340 million nodes in all).
    pub fn full() -> Self {
        Self {
            depth: 12,
            positions: BENCH_POSITIONS.len(),
            wac_positions: 300,
            wac_budgets: vec![10_000, 30_000, 100_000],
            hash_mib: 16,
            eval_options: hand_crafted(),
        }
    }

    /// `--quick`: depth 10, all bench positions, 60 WAC positions at the same budgets
    /// (about 40 s of one core: 2 to 3 minutes on a loaded machine).
    pub fn quick() -> Self {
        Self {
            depth: 10,
            wac_positions: 60,
            wac_budgets: vec![10_000, 30_000, 100_000],
            ..Self::full()
        }
    }
}

/// Nodes and time of the bench searches at one depth.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DepthPoint {
    /// The depth.
    pub depth: i32,
    /// All nodes, summed over the positions.
    pub nodes: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    /// Milliseconds of search, summed.
    pub time_ms: f64,
}

/// One bench position at the deepest depth.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PositionPoint {
    /// The position.
    pub fen: String,
    /// All nodes.
    pub nodes: u64,
    /// Share of quiescence nodes, percent.
    pub qnode_share: f64,
    /// Stand-pat cut rate, percent.
    pub standpat_rate: f64,
}

/// Solved WAC positions at one node budget.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WacPoint {
    /// Nodes per position.
    pub nodes: u64,
    /// Positions solved.
    pub solved: usize,
    /// Positions tried.
    pub total: usize,
}

/// Everything measured for one option set.
#[derive(Clone, Debug, Serialize)]
pub struct VariantMeasure {
    /// Which option set.
    pub variant: Variant,
    /// Nodes and time per depth.
    pub depths: Vec<DepthPoint>,
    /// The statistics summed over the positions at the deepest depth.
    pub stats: SearchStats,
    /// Per position at the deepest depth.
    pub positions: Vec<PositionPoint>,
    /// WAC solved per budget.
    pub wac: Vec<WacPoint>,
}

impl VariantMeasure {
    /// All nodes at the deepest depth.
    pub fn nodes(&self) -> u64 {
        self.stats.nodes()
    }
}

/// A fresh silent engine with the option set and the evaluation options applied.
fn engine_for(variant: &Variant, config: &MeasureConfig) -> Result<Engine, String> {
    let mut engine = quiet_engine(config.hash_mib);
    for (n, v) in config.eval_options.iter() {
        apply_option(&mut engine, n, Some(v)).map_err(|e| format!("{n}: {e}"))?;
    }
    for (n, v) in &variant.options {
        apply_option(&mut engine, n, Some(v)).map_err(|e| format!("{n}: {e}"))?;
    }
    Ok(engine)
}

/// The WAC positions measured: `n` spread evenly over the suite (all when `n` ≥ 300).
pub fn wac_subset(n: usize) -> Vec<EpdRecord> {
    let (records, _) = parse_epd(WAC_EPD);
    let (records, _) = judgeable(records);
    if n >= records.len() {
        return records;
    }
    let total = records.len();
    (0..n).map(|i| records[i * total / n].clone()).collect()
}

/// Measures one option set. `progress` gets a short line as each part starts.
pub fn measure_variant(
    variant: &Variant,
    config: &MeasureConfig,
    mut progress: impl FnMut(&str),
) -> Result<VariantMeasure, String> {
    let mut engine = engine_for(variant, config)?;
    let fens: Vec<&str> = BENCH_POSITIONS
        .iter()
        .copied()
        .take(config.positions.max(1))
        .collect();
    let mut depths = Vec::new();
    let mut stats = SearchStats::default();
    let mut positions = Vec::new();
    progress(&format!(
        "{}: bench depths 1..{}",
        variant.key, config.depth
    ));
    for depth in 1..=config.depth.max(1) {
        let mut point = DepthPoint {
            depth,
            nodes: 0,
            qnodes: 0,
            time_ms: 0.0,
        };
        let last = depth == config.depth.max(1);
        for fen in &fens {
            let pos = Position::from_fen(fen).map_err(|e| format!("bench position {fen}: {e}"))?;
            engine.clear();
            let start = Instant::now();
            let result = engine.search(&pos, &Limits::depth(depth), &[]);
            point.time_ms += start.elapsed().as_secs_f64() * 1000.0;
            point.nodes += result.stats.nodes();
            point.qnodes += result.stats.qnodes;
            if last {
                stats.add(&result.stats);
                positions.push(PositionPoint {
                    fen: fen.to_string(),
                    nodes: result.stats.nodes(),
                    qnode_share: result.stats.qnode_share(),
                    standpat_rate: result.stats.standpat_rate(),
                });
            }
        }
        depths.push(point);
    }
    let records = wac_subset(config.wac_positions);
    let mut wac = Vec::new();
    for &budget in &config.wac_budgets {
        progress(&format!(
            "{}: WAC, {} positions at {budget} nodes",
            variant.key,
            records.len()
        ));
        let mut options: Vec<(String, Option<String>)> = config
            .eval_options
            .iter()
            .map(|(n, v)| (n.clone(), Some(v.clone())))
            .collect();
        options.extend(
            variant
                .options
                .iter()
                .map(|(n, v)| (n.to_string(), Some(v.to_string()))),
        );
        let solve_config = SolveConfig {
            nodes: Some(budget),
            hash_mib: config.hash_mib,
            options,
            ..SolveConfig::default()
        };
        let reports = solve(&records, &solve_config, |_: SolveEvent<'_>| {})?;
        wac.push(WacPoint {
            nodes: budget,
            solved: reports.iter().filter(|r| r.solved).count(),
            total: reports.len(),
        });
    }
    Ok(VariantMeasure {
        variant: variant.clone(),
        depths,
        stats,
        positions,
        wac,
    })
}

//! The measurements of `lull report`, run through the library: every option set searches the
//! bench positions at each depth up to the configured one (nodes, time and the search
//! statistics, per position at the last depth), and the Win At Chess positions at a few node
//! budgets (solved count per budget). And what measured: the bench signature of this build
//! ([`bench_signature`], what `lull bench` prints) and the network ([`network_id`]).

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::bench::{run_bench, BENCH_DEPTH, BENCH_POSITIONS};
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
    /// (about two minutes of one core: 3 to 4 minutes on a loaded 2-core machine).
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

/// The bench signature of this build: the node count `lull bench` prints (its default
/// options: one thread, Hash 16 MiB, the default evaluation). It names the search and the
/// embedded network that measured, as the release checks it (scripts/check_report_bench.sh).
pub fn bench_signature() -> u64 {
    let mut engine = quiet_engine(16);
    run_bench(&mut engine, BENCH_DEPTH, |_, _, _| {}).nodes
}

/// A network as the report names it: its file name and the SHA-256 of its bytes (what
/// `sha256sum` prints for the file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkId {
    /// The file's name (`lull-6.nnue`); for the embedded network, the file the build embedded.
    pub name: String,
    /// Whether it is the network embedded in the binary (`EvalFile=<default>`).
    pub embedded: bool,
    /// SHA-256 of the file, 64 hexadecimal digits.
    pub sha256: String,
    /// Its size in bytes.
    pub bytes: usize,
}

impl NetworkId {
    /// `lull-6.nnue (embedded, sha256 978aacd239ae…)`.
    pub fn text(&self) -> String {
        format!(
            "{} ({}sha256 {}…)",
            self.name,
            if self.embedded { "embedded, " } else { "" },
            &self.sha256[..self.sha256.len().min(12)]
        )
    }
}

/// The network a report measures with: `eval_file`, or the embedded one; `None` without
/// either (or when the file cannot be read).
pub fn network_id(eval_file: Option<&std::path::Path>) -> Option<NetworkId> {
    match eval_file {
        Some(p) => {
            let bytes = std::fs::read(p).ok()?;
            Some(NetworkId {
                name: p.file_name()?.to_string_lossy().into_owned(),
                embedded: false,
                sha256: hex(&sha256(&bytes)),
                bytes: bytes.len(),
            })
        }
        None => crate::nnue::DEFAULT_NET.map(|bytes| NetworkId {
            name: env!("LULL_DEFAULT_NET_FILE").to_string(),
            embedded: true,
            sha256: hex(&sha256(bytes)),
            bytes: bytes.len(),
        }),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 (FIPS 180-4) of `data`: the network's fingerprint, comparable with `sha256sum`.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    // The message, a 1 bit, zeros, and its length in bits: a whole number of 64-byte blocks.
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64).wrapping_mul(8)).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, x) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{hex, sha256};

    #[test]
    fn sha256_gives_the_standards_digests() {
        // FIPS 180-4's examples, and one message of two blocks' padding.
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }
}

//! `lull report`: the whole report made on a tiny configuration (a few bench positions at
//! low depth, a few WAC positions at small node budgets, one stored match) into a temporary
//! directory, then its pages and figures checked; and the command's errors.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{run_lull, temp_file_of, text};
use lull::tools::teaching::report::measure::MeasureConfig;
use lull::tools::teaching::report::{collect, write_report};

const CLAIM_IDS: [&str; 10] = [
    "qnode-share-cpw",
    "qnode-share-chessml",
    "standpat",
    "qdepth-mean",
    "qdepth-max",
    "checks",
    "see",
    "delta",
    "beal",
    "qsearch-elo",
];

/// A stored match of two pairs: the variant scores 1 of 4 points.
const QSEARCH_OFF_PGN: &str = "[Event \"t\"]\n[Round \"1.1\"]\n[White \"qsearch-off\"]\n\
[Black \"default\"]\n[Result \"0-1\"]\n[TimeControl \"movetime 30 ms\"]\n\n1. e4 0-1\n\n\
[Round \"1.2\"]\n[White \"default\"]\n[Black \"qsearch-off\"]\n[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n\n\
[Round \"2.1\"]\n[White \"qsearch-off\"]\n[Black \"default\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n\
[Round \"2.2\"]\n[White \"default\"]\n[Black \"qsearch-off\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n";

fn tiny() -> MeasureConfig {
    MeasureConfig {
        depth: 3,
        positions: 6,
        wac_positions: 4,
        wac_budgets: vec![2_000, 6_000],
        hash_mib: 1,
        eval_options: Vec::new(),
    }
}

fn attribute_values<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    html.split(attr)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect()
}

#[test]
fn a_tiny_report_has_every_claim_and_figure() {
    let dir = temp_file_of("report", "tiny");
    let matches = dir.join("matches");
    std::fs::create_dir_all(&matches).unwrap();
    std::fs::write(matches.join("qsearch-off.pgn"), QSEARCH_OFF_PGN).unwrap();
    let out = dir.join("out");
    let mut steps = 0;
    let data = collect(&tiny(), &matches, None, "test".into(), |_| steps += 1).unwrap();
    assert!(steps >= 8, "a progress line per option set and step");
    assert_eq!(data.measures.len(), 8);
    let default = &data.measures[0];
    assert_eq!(default.variant.key, "default");
    assert_eq!(default.depths.len(), 3);
    assert_eq!(default.positions.len(), 6);
    assert!(default.depths.windows(2).all(|w| w[0].nodes < w[1].nodes));
    assert_eq!(default.wac.len(), 2);
    assert!(default.wac.iter().all(|w| w.total == 4 && w.solved <= 4));
    // No quiescence search: no q-nodes; checks in the quiescence search: more nodes.
    let off = data
        .measures
        .iter()
        .find(|m| m.variant.key == "qsearch-off")
        .unwrap();
    assert_eq!(off.stats.qnodes, 0);
    assert!(default.stats.qnodes > 0);
    // The stored match: 1 point of 4 for the variant, so the quiescence search is worth
    // +190.8 Elo by the claim's sign.
    assert_eq!(data.matches.len(), 1);
    let m = &data.matches[0];
    assert_eq!((m.wins, m.draws, m.losses, m.pairs()), (0, 2, 2, 2));
    let elo_claim = data.claims.iter().find(|c| c.id == "qsearch-elo").unwrap();
    assert!(elo_claim.lull.starts_with("+190.8 ["), "{}", elo_claim.lull);
    assert_eq!(elo_claim.holds, Some(true));

    let files = write_report(&data, &out).unwrap();
    assert!(files.iter().any(|f| f == "index.html"));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for id in CLAIM_IDS {
        assert!(
            html.contains(&format!("<tr id=\"claim-{id}\">")),
            "claim {id}"
        );
    }
    let images = attribute_values(&html, "<img src=\"");
    assert!(images.len() >= 6, "{images:?}");
    assert!(images.contains(&"elo.svg"));
    for img in &images {
        let svg = std::fs::read_to_string(out.join(img)).unwrap();
        assert!(svg.trim_start().starts_with("<svg"), "{img} is not SVG");
        assert!(svg.trim_end().ends_with("</svg>"), "{img} is cut short");
    }
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.starts_with("# Lull's quiescence search against the literature"));
    for img in &images {
        assert!(readme.contains(&format!("]({img})")), "{img} in README.md");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("data.json")).unwrap()).unwrap();
    assert_eq!(json["measures"].as_array().unwrap().len(), 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_stored_matches_the_elo_claim_says_so() {
    let empty = Path::new("/nonexistent/lull-report-matches");
    let mut config = tiny();
    config.depth = 1;
    config.wac_budgets = vec![1_000];
    config.wac_positions = 1;
    let data = collect(&config, empty, None, "test".into(), |_| {}).unwrap();
    assert!(data.matches.is_empty());
    let c = data.claims.iter().find(|c| c.id == "qsearch-elo").unwrap();
    assert!(c.lull.contains("not measured") && c.holds.is_none());
    let out = temp_file_of("report", "nomatch");
    write_report(&data, &out).unwrap();
    assert!(!out.join("elo.svg").exists());
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("No stored match games"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_arguments_are_errors_before_any_search() {
    let out = run_lull(&[
        "report",
        "--eval-file",
        "/nonexistent/net.nnue",
        "-o",
        "/tmp",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("error: --eval-file /nonexistent/net.nnue"));
    // A stored match file without a game of a variant.
    let dir = temp_file_of("report", "badpgn");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("broken.pgn"), "not a pgn\n").unwrap();
    let out = run_lull(&[
        "report",
        "--quick",
        "--matches",
        dir.to_str().unwrap(),
        "-o",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("broken: no game of a variant"));
    assert!(!dir.join("out").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small network (16 hidden neurons) with weights from a fixed pseudo-random sequence:
/// no trained network ships yet, but the report's network column must work with any.
fn small_network_file() -> std::path::PathBuf {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |lo: i64, hi: i64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (lo + (state % (hi - lo + 1) as u64) as i64) as i16
    };
    let hidden = 16;
    let w1: Vec<i16> = (0..768 * hidden).map(|_| next(-60, 60)).collect();
    let b1: Vec<i16> = (0..hidden).map(|_| next(-40, 200)).collect();
    let w2: Vec<i16> = (0..2 * hidden).map(|_| next(-127, 127)).collect();
    let net = lull::nnue::Network::from_parts(hidden, w1, b1, w2, vec![1000]).unwrap();
    let path = temp_file_of("report", "net.nnue");
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

#[test]
fn with_a_network_both_evaluations_stand_side_by_side() {
    let net = small_network_file();
    let mut config = tiny();
    config.wac_budgets = vec![2_000];
    let none = Path::new("/nonexistent/lull-report-matches");
    let data = collect(&config, none, Some(&net), "test".into(), |_| {}).unwrap();
    let nnue = data
        .nnue_measures
        .as_ref()
        .expect("measured with the network");
    assert_eq!(nnue.len(), 8);
    assert!(data.nnue_note.contains("EvalFile="));
    // The network evaluates differently, so the default searches another tree.
    assert_ne!(nnue[0].stats, data.measures[0].stats);
    for c in data.claims.iter().filter(|c| c.id != "qsearch-elo") {
        assert!(c.lull_nnue.is_some(), "claim {}", c.id);
    }
    let out = temp_file_of("report", "nnue-out");
    write_report(&data, &out).unwrap();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    // Both evaluations in one figure: the network's panel beside the hand-crafted one.
    let qply = std::fs::read_to_string(out.join("qply_histogram.svg")).unwrap();
    assert!(qply.contains("hand-crafted evaluation") && qply.contains("NNUE"));
    assert!(!html.contains("no network in this build"));
    assert!(html.contains("<td class=\"nnue\">not measured with the network</td>"));
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&net);
}

/// `lull report --replot` on a copy of the checked-in report whose data.json has one value
/// changed by `edit`: the exit code and standard error, or `None` when it ran past `limit`
/// (and was killed). `LULL_BIN` names another build to run.
fn replot_edited(
    name: &str,
    edit: impl Fn(&mut serde_json::Value),
    limit: Duration,
) -> Option<(Option<i32>, String)> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report");
    let dir = temp_file_of("report", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(docs.join("data.json")).unwrap()).unwrap();
    edit(&mut data);
    std::fs::write(dir.join("data.json"), data.to_string()).unwrap();
    let bin = std::env::var("LULL_BIN").map_or_else(|_| common::lull_binary(), Into::into);
    let mut child = std::process::Command::new(bin)
        .args(["report", "--replot", "-o"])
        .arg(&dir)
        .arg("--matches")
        .arg(docs.join("matches"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr);
    let _ = std::fs::remove_dir_all(&dir);
    status.map(|s| (s.code(), stderr))
}

/// A data.json edited or damaged in place: one `time_ms` of 1e308 made `--replot` loop for
/// ever (the doubled end of the logarithmic axis is infinite); a node budget of 0, a share of
/// 1e308 %, a depth of 2^31 or more solved positions than tried were drawn as they were. Each
/// is now refused at once (exit code 2) by a message naming the field and its value; the
/// file as measured is redrawn.
#[test]
fn replot_refuses_a_value_no_measurement_gives_and_names_its_field() {
    let limit = Duration::from_secs(10);
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 7] = [
        (
            "time",
            |d| d["measures"][0]["depths"][1]["time_ms"] = 1e308.into(),
            "measures[0] (default): depths[1].time_ms = 1e308",
        ),
        (
            "budget",
            |d| d["nnue_measures"][2]["wac"][0]["nodes"] = 0.into(),
            "nnue_measures[2] (see-off): wac[0].nodes = 0",
        ),
        (
            "share",
            |d| d["measures"][1]["positions"][3]["qnode_share"] = 1e308.into(),
            "measures[1] (qsearch-off): positions[3].qnode_share = 1e308",
        ),
        (
            "depth",
            |d| d["measures"][0]["depths"][0]["depth"] = i32::MAX.into(),
            "depths[0].depth = 2147483647",
        ),
        (
            "solved",
            |d| d["measures"][0]["wac"][1]["solved"] = 301.into(),
            "wac[1].solved = 301",
        ),
        (
            "hist",
            |d| d["measures"][0]["stats"]["qply_hist"][3] = u64::MAX.into(),
            "stats.qply_hist",
        ),
        (
            "elapsed",
            |d| d["elapsed_s"] = (-1.0).into(),
            "elapsed_s = -1",
        ),
    ];
    for (name, edit, field) in cases {
        let (code, stderr) = replot_edited(name, edit, limit)
            .unwrap_or_else(|| panic!("{name}: --replot still running after {limit:?}"));
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(field) && stderr.contains("out of range"),
            "{name}: {stderr}"
        );
    }
    // A file too large for a data.json is refused before it is read whole.
    let (code, stderr) = replot_edited(
        "huge",
        |d| d["padding"] = "x".repeat(65 << 20).into(),
        limit,
    )
    .expect("it ends");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("too large for a report's data.json"),
        "{stderr}"
    );
    let (code, stderr) = replot_edited("as-measured", |_| {}, limit).expect("it ends");
    assert_eq!(code, Some(0), "{stderr}");
}

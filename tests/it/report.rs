//! `lull report`: the whole report made on a tiny configuration (a few bench positions at
//! low depth, a few WAC positions at small node budgets, one stored match) into a temporary
//! directory, then its pages and figures checked; and the command's errors.

use crate::common;

use std::path::Path;

use common::{run_lull, temp_file_of, text};
use lull::tools::report::measure::MeasureConfig;
use lull::tools::report::{collect, write_report};

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

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
    // SEE and delta pruning prune the quiescence tree: their rows give the q-node ratio
    // without the pruning, and the captures it skipped.
    let q = |key: &str| {
        let m = data.measures.iter().find(|m| m.variant.key == key).unwrap();
        m.stats.qnodes as f64
    };
    for (id, key, skips) in [
        ("see", "see-off", default.stats.see_skips),
        ("delta", "delta-off", default.stats.delta_skips),
    ] {
        let row = data.claims.iter().find(|c| c.id == id).unwrap();
        let want = format!(
            "{skips} captures skipped; without it ×{:.2} q-nodes (",
            q(key) / q("default")
        );
        assert!(
            row.lull.starts_with(&want),
            "{id}: {} (want {want})",
            row.lull
        );
    }
    // The stand-pat rate says what it counts and how the TT's cutoffs are counted.
    let s = &default.stats;
    let standpat = data.claims.iter().find(|c| c.id == "standpat").unwrap();
    assert!(
        standpat.lull.starts_with(&format!(
            "{:.1} % of the q-nodes that reached the stand pat (not in check, not ended before \
             it by a draw, a cap or a TT cutoff; TT cutoffs ended {:.1} % of all q-nodes)",
            s.standpat_rate(),
            100.0 * s.q_tt_cutoffs as f64 / s.qnodes as f64
        )),
        "{}",
        standpat.lull
    );
    assert!(
        s.standpat_nodes < s.qnodes,
        "in-check and TT-ended nodes are not counted"
    );

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
    assert!(
        html.contains(
            "No match games were found: there is no folder /nonexistent/lull-report-matches here"
        ),
        "{html}"
    );
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

/// The committed report is the report of this build: the bench signature that docs/report/
/// data.json records is what `lull bench` prints (the release refuses it otherwise), and it
/// is the node count of the report's own network default at the bench's depth (the same
/// searches). A report left from an older build fails here.
#[test]
fn the_committed_report_is_the_binarys() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("docs/report/data.json")).unwrap())
            .unwrap();
    let out = run_lull(&["bench"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap();
    let built: u64 = last.split_whitespace().next().unwrap().parse().unwrap();
    let recorded = data["bench_signature"].as_u64();
    assert_eq!(
        recorded,
        Some(built),
        "docs/report/data.json records bench {recorded:?}, `lull bench` prints {built}: \
         regenerate the report (docs/report/README.md, Regenerate)"
    );
    assert_eq!(data["config"]["depth"].as_i64(), Some(12));
    let default = &data["nnue_measures"][0];
    assert_eq!(default["variant"]["key"].as_str(), Some("default"));
    let nodes = default["stats"]["main_nodes"].as_u64().unwrap()
        + default["stats"]["qnodes"].as_u64().unwrap();
    assert_eq!(nodes, built, "the network default's nodes at depth 12");
    // The network named is the embedded one.
    assert_eq!(data["network"]["embedded"].as_bool(), Some(true));
    assert_eq!(data["network"]["sha256"].as_str().map(str::len), Some(64));
}

/// A stand-in for `lull` that prints a bench signature of `nodes` (and nothing else).
fn fake_lull(dir: &Path, nodes: u64) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.join("lull");
    std::fs::write(
        &path,
        format!("#!/bin/sh\n[ \"$1\" = bench ] && echo \"{nodes} nodes 1000 nps\"\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// scripts/check_report_bench.sh, which the release runs: exit 1 with a message that says
/// what to do when data.json records another signature than the binary's, or none; exit 0
/// when they agree.
#[test]
fn the_release_check_refuses_a_report_of_another_build() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_file_of("report", "release-check");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lull = fake_lull(&dir, 3_582_988);
    let check = |json: &str| {
        let data = dir.join("data.json");
        std::fs::write(&data, json).unwrap();
        let out = std::process::Command::new("sh")
            .arg(root.join("scripts/check_report_bench.sh"))
            .arg(&lull)
            .arg(&data)
            .output()
            .unwrap();
        (out.status.code(), text(&out.stderr))
    };
    let (code, err) = check("{\n  \"command\": \"x\",\n  \"bench_signature\": 3582987,\n}\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("bench 3582987")
            && err.contains("prints 3582988")
            && err.contains("regenerate"),
        "{err}"
    );
    let (code, err) = check("{\n  \"command\": \"x\",\n  \"bench_signature\": null\n}\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("records no bench signature"), "{err}");
    // A nested key of the same name is not the report's.
    let (code, _) = check("{\n  \"x\": {\n    \"bench_signature\": 3582988\n  }\n}\n");
    assert_eq!(code, Some(1));
    let (code, err) = check("{\n  \"bench_signature\": 3582988,\n  \"network\": null\n}\n");
    assert_eq!(code, Some(0), "{err}");
    // release.sh runs it on the build it packs, before packing.
    let release = std::fs::read_to_string(root.join("scripts/release.sh")).unwrap();
    let check_at = release
        .find("scripts/check_report_bench.sh \"$bin\"")
        .unwrap();
    assert!(check_at < release.find("tar -czf").unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Regenerate block of the report runs as printed: in a copy of the clone's report
/// folder, with a stand-in match runner (`fastchess` on PATH that writes two games) and a
/// stand-in `target/release/lull` (its bench, and the real report with `--replot` so that
/// nothing is measured), each command of the block runs and the report then names the build
/// that played the games.
#[test]
fn the_regenerate_block_runs_as_printed() {
    use std::os::unix::fs::PermissionsExt as _;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_file_of("report", "regenerate");
    let _ = std::fs::remove_dir_all(&dir);
    let report = dir.join("docs/report");
    std::fs::create_dir_all(&report).unwrap();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    for f in ["play_matches.sh", "data.json"] {
        std::fs::copy(root.join("docs/report").join(f), report.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("UHO_4060_v4.epd"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let exe = |path: std::path::PathBuf, body: String| {
        std::fs::write(&path, body).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    exe(
        dir.join("target/release/lull"),
        format!(
            "#!/bin/sh\n[ \"$1\" = bench ] && {{ echo \"42 nodes 1 nps\"; exit 0; }}\n\
             exec \"{}\" \"$@\" --replot\n",
            common::lull_binary().display()
        ),
    );
    // The runner: the PGN goes where `-pgnout file=` says, the variant is the first engine.
    exe(
        dir.join("bin/fastchess"),
        r#"#!/bin/sh
echo "$@" >> "$(dirname "$0")/runner.log"
out=; name=
for a in "$@"; do
  case $a in
    file=*.pgn) out=${a#file=} ;;
    name=*) [ -z "$name" ] && name=${a#name=} ;;
  esac
done
cat >> "$out" <<PGN
[Event "t"]
[Round "1"]
[White "$name"]
[Black "default"]
[Result "0-1"]
[TimeControl "0.03/move"]

1. e4 {+0.10/7 0.030s} e5 {-0.12/8
0.029s, White resigns} 0-1

[Event "t"]
[Round "1"]
[White "default"]
[Black "$name"]
[Result "1/2-1/2"]
[TimeControl "0.03/move"]

1. e4 {+0.10/7 0.030s} 1/2-1/2

PGN
"#
        .to_string(),
    );
    let block = lull::tools::teaching::report::render::REGENERATE;
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for line in block.lines() {
        if line.starts_with('#') || line.starts_with("cargo ") || line.trim().is_empty() {
            continue;
        }
        let out = std::process::Command::new("sh")
            .args(["-c", line])
            .current_dir(&dir)
            .env("PATH", &path)
            .env_remove("FASTCHESS")
            .env_remove("CUTECHESS")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}\n{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        ran += 1;
    }
    assert_eq!(ran, 3, "two lanes of matches and the report");
    let log = std::fs::read_to_string(dir.join("bin/runner.log")).unwrap();
    assert_eq!(log.lines().count(), 14, "seven variants, two evaluations");
    assert!(log.contains("option.Use NNUE=true") && log.contains("option.Use NNUE=false"));
    let pgn = std::fs::read_to_string(report.join("matches/see-off.pgn")).unwrap();
    assert!(!pgn.contains("0.030s") && !pgn.contains("0.029s"), "{pgn}");
    assert!(pgn.contains("{ White resigns}"), "{pgn}");
    let played = std::fs::read_to_string(report.join("matches/nnue/played_by.yaml")).unwrap();
    assert!(played.contains("bench: 42") && played.contains("runner: fastchess"));
    let readme = std::fs::read_to_string(report.join("README.md")).unwrap();
    assert!(
        readme.contains(", bench 42, hand-crafted evaluation (Use NNUE=false), run by fastchess: not the build that measured"),
        "{readme}"
    );
    // A second run with another build does not mix its games in.
    exe(
        dir.join("target/release/lull"),
        "#!/bin/sh\necho \"43 nodes 1 nps\"\n".to_string(),
    );
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            block.lines().find(|l| l.contains("EVAL=hce")).unwrap(),
        ])
        .current_dir(&dir)
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("holds games of the build with bench 42"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lull report` outside a clone (no docs/report/matches under the working directory) says
/// that no match games were found, and names no folder of stored games as its source.
#[test]
fn outside_a_clone_the_report_says_no_matches_were_found() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_file_of("report", "outside");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::copy(
        root.join("docs/report/data.json"),
        dir.join("out/data.json"),
    )
    .unwrap();
    let out = std::process::Command::new(common::lull_binary())
        .args(["report", "--replot", "-o", "out"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("No match games were found"));
    let readme = std::fs::read_to_string(dir.join("out/README.md")).unwrap();
    assert!(
        readme.contains("No match games were found: there is no folder docs/report/matches here"),
        "{readme}"
    );
    assert!(
        !readme.contains("come from the games stored in"),
        "{readme}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

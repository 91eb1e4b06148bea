//! The soak harness (`scripts/soak.py`) classifies every engine fault exactly: it plays a few
//! games against `scripts/fake_engine.py`, which makes one fault on purpose (BAD=illegal, null,
//! crash, hang, slow, noready), and the JSON summary must count each game under that fault's
//! kind and no other. A clean fake engine and the real binary give no fault, and a second run
//! on the same PGN resumes (counts the games already there).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{ensure_python_chess, lull_binary, python, temp_file_of, text};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

/// Runs soak.py with `args` against `engine` (with BAD=`bad` in its environment), writing
/// to a PGN and summary unique to `tag`; returns the output and the parsed summary.
fn soak(engine: &Path, bad: &str, tag: &str, args: &[&str]) -> (Output, serde_json::Value) {
    ensure_python_chess();
    let pgn = temp_file_of("soak", &format!("{tag}.pgn"));
    let summary = temp_file_of("soak", &format!("{tag}.json"));
    let out = Command::new(python())
        .arg(script("soak.py"))
        .arg("--engine")
        .arg(engine)
        .arg("--pgn")
        .arg(&pgn)
        .arg("--summary")
        .arg(&summary)
        .args(["--book", "", "--seed", tag])
        .args(args)
        .env("BAD", bad)
        .output()
        .expect("python runs soak.py");
    let json = std::fs::read_to_string(&summary).unwrap_or_else(|e| {
        panic!(
            "no summary from soak.py ({e}):\n{}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    (
        out,
        serde_json::from_str(&json).expect("the summary is JSON"),
    )
}

fn fresh(tag: &str) {
    for ext in ["pgn", "json"] {
        let _ = std::fs::remove_file(temp_file_of("soak", &format!("{tag}.{ext}")));
    }
}

/// Two games against the fake engine with fault `bad`: both must be counted as `kind`.
fn expect_fault(bad: &str, kind: &str) {
    fresh(bad);
    let (out, s) = soak(
        &script("fake_engine.py"),
        bad,
        bad,
        &[
            "--games",
            "2",
            "--hang-timeout",
            "1",
            "--ready-timeout",
            "2",
        ],
    );
    let context = format!(
        "BAD={bad}: summary {s:#}\nstdout {}\nstderr {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit status 1 on a fault; {context}"
    );
    assert_eq!(s["games"], 2, "{context}");
    for k in ["crash", "illegal", "time", "hang"] {
        let want = if k == kind { 2 } else { 0 };
        assert_eq!(s["faults"][k], want, "faults of kind {k}; {context}");
    }
    let pgn = std::fs::read_to_string(temp_file_of("soak", &format!("{bad}.pgn"))).unwrap();
    assert_eq!(
        pgn.matches(&format!("[Fault \"{kind}\"]")).count(),
        2,
        "{context}"
    );
    fresh(bad);
}

#[test]
fn an_illegal_bestmove_is_an_illegal_fault() {
    expect_fault("illegal", "illegal");
}

#[test]
fn bestmove_0000_with_legal_moves_is_an_illegal_fault() {
    expect_fault("null", "illegal");
}

#[test]
fn an_engine_that_exits_is_a_crash() {
    expect_fault("crash", "crash");
}

#[test]
fn no_bestmove_is_a_hang() {
    expect_fault("hang", "hang");
}

#[test]
fn no_readyok_is_a_hang() {
    expect_fault("noready", "hang");
}

#[test]
fn a_move_past_the_clock_is_a_time_loss() {
    expect_fault("slow", "time");
}

#[test]
fn a_clean_engine_has_no_fault_and_a_second_run_resumes() {
    let tag = "none";
    fresh(tag);
    let engine = script("fake_engine.py");
    // A slow clock: the fake engine is Python, slower than the soak's increment.
    let slow = ["--tc", "60+1", "--max-plies", "150"];
    let (out, s) = soak(
        &engine,
        "none",
        tag,
        &[&["--games", "1"][..], &slow].concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{s:#} {}", text(&out.stderr));
    assert_eq!(s["games"], 1);
    let (out, s) = soak(
        &engine,
        "none",
        tag,
        &[&["--games", "3"][..], &slow].concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{s:#} {}", text(&out.stderr));
    assert_eq!(s["games"], 3, "resumed to 3 games in all: {s:#}");
    assert_eq!(s["fault_total"], 0, "{s:#}");
    assert_eq!(s["runs"].as_array().map(Vec::len), Some(2), "{s:#}");
    let pgn = std::fs::read_to_string(temp_file_of("soak", "none.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"Lull soak\"]").count(), 3);
    fresh(tag);
}

/// Lull itself through the harness: one game at a slower clock than the soak's (the test
/// machine may be loaded), with no crash, illegal move or hang; a time loss is reported
/// but not held against the test, since a loaded machine can delay any process.
#[test]
fn lull_plays_a_game_through_the_harness() {
    let tag = "lull";
    fresh(tag);
    let (out, s) = soak(
        &lull_binary(),
        "none",
        tag,
        &["--games", "2", "--tc", "2+0.05"],
    );
    let context = format!("{s:#}\n{}", text(&out.stderr));
    assert_eq!(s["games"], 2, "{context}");
    for k in ["crash", "illegal", "hang"] {
        assert_eq!(s["faults"][k], 0, "faults of kind {k}: {context}");
    }
    if s["faults"]["time"] != 0 {
        eprintln!("note: a time loss on this (loaded?) machine: {context}");
    }
    fresh(tag);
}

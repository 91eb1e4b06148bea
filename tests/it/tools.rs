//! The testers' tools, run as a user runs them: `lull solve` and `lull horizon` through the
//! binary, plus the library functions behind them.

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};

use lull::epd::parse_epd;
use lull::position::Position;
use lull::tools::teaching::horizon::{run_horizon, HORIZON_DEPTH, HORIZON_FEN};
use lull::tools::testing::solve::{solve, SolveConfig, WAC_EPD};

use common::{run_lull as lull, text};

/// A file in the temporary directory, unique to this test process and `name`.
fn temp_file(name: &str) -> PathBuf {
    common::temp_file_of("tools", name)
}

/// WAC.003, WAC.004 and WAC.005 (a winning rook lift and two mates in two, found at small
/// depths), with CRLF line ends, a malformed line in between and no newline at the end.
fn small_suite() -> String {
    let wac: Vec<&str> = WAC_EPD.lines().collect();
    format!(
        "{}\r\nnot an epd line at all\r\n{}\r\n{}",
        wac[2], wac[3], wac[4]
    )
}

#[test]
fn solve_runs_a_small_suite_and_writes_json() {
    let epd = temp_file("small.epd");
    let json = temp_file("small.json");
    std::fs::write(&epd, small_suite()).unwrap();
    let out = lull(&[
        "solve",
        epd.to_str().unwrap(),
        "--depth",
        "5",
        "--hash",
        "4",
        "--jobs",
        "2",
        "--json",
        json.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    // The malformed line is reported with its number and skipped.
    assert!(
        stderr.contains("line 2:") && stderr.contains("skipped"),
        "{stderr}"
    );
    // One line per position, in file order, each naming the expected and the played move.
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("WAC.")).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let expected = [
        ("WAC.003", "bm Rg3"),
        ("WAC.004", "bm Qxh7+"),
        ("WAC.005", "bm Qc4+"),
    ];
    for (line, (id, bm)) in lines.iter().zip(expected) {
        assert!(line.starts_with(id), "{line}");
        assert!(line.contains(bm), "{line}");
        assert!(line.contains(" solved "), "{line}");
        assert!(
            line.contains("found depth") && line.contains("score "),
            "{line}"
        );
    }
    assert!(lines[0].contains("played Rg3"), "{}", lines[0]);
    assert!(lines[1].contains("played Qxh7+"), "{}", lines[1]);
    assert!(lines[1].contains("score mate 2"), "{}", lines[1]);
    assert!(lines[2].contains("score mate 2"), "{}", lines[2]);
    assert!(stdout.contains("solved 3 / 3 (100.0%)"), "{stdout}");
    assert!(stdout.contains("failed: none"), "{stdout}");
    assert!(stdout.contains("mean time to solution"), "{stdout}");
    assert!(stdout.contains("quiescence nodes"), "{stdout}");
    assert!(stdout.contains("skipped lines: 1"), "{stdout}");

    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let positions = doc["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    assert_eq!(positions[0]["id"], "WAC.003");
    assert_eq!(positions[0]["bm"], serde_json::json!(["Rg3"]));
    assert_eq!(positions[0]["played"], "Rg3");
    assert_eq!(positions[0]["played_uci"], "e3g3");
    assert_eq!(positions[0]["solved"], true);
    assert_eq!(positions[0]["depth"], 5);
    assert_eq!(positions[1]["line"], 3);
    assert_eq!(positions[1]["score_text"], "mate 2");
    assert_eq!(positions[2]["id"], "WAC.005");
    for p in positions {
        assert!(p["found_depth"].as_i64().unwrap() >= 1);
        assert!(p["nodes"].as_u64().unwrap() > 0);
        assert!(p["found_ms"].as_u64().unwrap() <= p["time_ms"].as_u64().unwrap());
        assert!(!p["pv"].as_array().unwrap().is_empty());
        assert_eq!(p["stats"]["qnodes"], p["qnodes"]);
    }
    let summary = &doc["summary"];
    assert_eq!(summary["total"], 3);
    assert_eq!(summary["solved"], 3);
    assert_eq!(summary["failed"], serde_json::json!([]));
    let nodes: u64 = positions.iter().map(|p| p["nodes"].as_u64().unwrap()).sum();
    assert_eq!(summary["nodes"].as_u64().unwrap(), nodes);
    assert!(summary["stats"]["qnodes"].as_u64().unwrap() > 0);
    assert_eq!(doc["config"]["depth"], 5);
    assert_eq!(doc["config"]["jobs"], 2);
    assert_eq!(doc["skipped"].as_array().unwrap().len(), 1);
    let _ = std::fs::remove_file(&epd);
    let _ = std::fs::remove_file(&json);
}

#[test]
fn solve_reports_failures_and_am() {
    // An `am` position solved by any other move, and WAC.004 with a wrong `bm` (the engine
    // mates with Qxh7+ instead) that must be reported as failed. The hand-crafted evaluation,
    // so that the moves do not change with the embedded network (at depth 4 lull-2 plays the
    // avoided Rd6, lull-1 did not). Depth 5: at depth 4 razoring cuts the line after
    // Qxh7+ Kxh7 (White a queen down, three plies from the horizon) and Qf4 is played.
    let epd = temp_file("am.epd");
    std::fs::write(
        &epd,
        "8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; id \"am-only\";\n\
         r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm a3; id \"wrong-bm\";\n",
    )
    .unwrap();
    let out = lull(&[
        "solve",
        epd.to_str().unwrap(),
        "--depth",
        "5",
        "--hash",
        "2",
        "--option",
        "Use NNUE=false",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let am_line = stdout.lines().find(|l| l.starts_with("am-only")).unwrap();
    assert!(
        am_line.contains("am Rd6") && am_line.contains(" solved "),
        "{am_line}"
    );
    let bad = stdout.lines().find(|l| l.starts_with("wrong-bm")).unwrap();
    assert!(
        bad.contains("FAILED") && bad.contains("played Qxh7+"),
        "{bad}"
    );
    assert!(stdout.contains("solved 1 / 2"), "{stdout}");
    assert!(stdout.contains("failed: wrong-bm"), "{stdout}");
    let _ = std::fs::remove_file(&epd);
}

/// Solving a suite is analysis: `solve` searches in `TacticalMode` unless `--play` asks for
/// the search that plays games, and says which.
#[test]
fn solve_analyses_by_default_and_plays_with_play() {
    let epd = temp_file("mode.epd");
    std::fs::write(
        &epd,
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"m1\";\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            epd.to_str().unwrap(),
            "--depth",
            "3",
            "--hash",
            "2",
        ];
        args.extend_from_slice(extra);
        let out = lull(&args);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        assert!(stdout.contains("solved 1 / 1"), "{stdout}");
        // The header (the settings) is on stderr, the results on stdout.
        text(&out.stderr)
    };
    let analysis = run(&[]);
    assert!(
        analysis.lines().any(|l| l == "options: TacticalMode=true"),
        "{analysis}"
    );
    let play = run(&["--play"]);
    assert!(!play.contains("TacticalMode"), "{play}");
    // The option still has the last word.
    let off = run(&["--option", "TacticalMode=false"]);
    assert!(
        off.lines().any(|l| l == "options: TacticalMode=false"),
        "{off}"
    );
    let both = lull(&[
        "solve",
        epd.to_str().unwrap(),
        "--depth",
        "3",
        "--play",
        "--tactical",
    ]);
    assert!(!both.status.success());
    let _ = std::fs::remove_file(&epd);
}

#[test]
fn solve_rejects_bad_input_with_a_clear_error() {
    let out = lull(&["solve", "/nonexistent/suite.epd", "--depth", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot read"),
        "{}",
        text(&out.stderr)
    );

    let out = lull(&["solve", "--depth", "1", "--option", "QSearchSEE=lots"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("QSearchSEE") && err.contains("not an integer"),
        "{err}"
    );

    let out = lull(&["solve", "--depth", "1", "--option", "NoSuchOption=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown option"));

    // Two limits at once are refused by the argument parser.
    let out = lull(&["solve", "--depth", "1", "--movetime", "10"]);
    assert_eq!(out.status.code(), Some(2));

    // A file with nothing usable: every line is reported, then a clear error.
    let epd = temp_file("garbage.epd");
    std::fs::write(
        &epd,
        "garbage\n\u{0}\u{1}\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    let out = lull(&["solve", epd.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("line 1:") && err.contains("line 2:") && err.contains("line 3:"),
        "{err}"
    );
    assert!(err.contains("no position to solve"), "{err}");
    let _ = std::fs::remove_file(&epd);
}

#[test]
fn solve_options_reach_the_engine() {
    // With the quiescence search off, no quiescence node is counted.
    let (records, _) = parse_epd(WAC_EPD);
    let config = SolveConfig {
        depth: Some(3),
        hash_mib: 2,
        options: vec![("qsearch".into(), Some("false".into()))],
        ..SolveConfig::default()
    };
    let reports = solve(&records[..2], &config, |_| {}).unwrap();
    assert!(reports.iter().all(|r| r.qnodes == 0 && r.nodes > 0));
    let on = SolveConfig {
        options: Vec::new(),
        ..config
    };
    let reports = solve(&records[..2], &on, |_| {}).unwrap();
    assert!(reports.iter().all(|r| r.qnodes > 0));
}

#[test]
fn results_do_not_depend_on_jobs() {
    let (records, _) = parse_epd(WAC_EPD);
    let records = &records[..6];
    let run = |jobs| {
        let config = SolveConfig {
            depth: Some(4),
            jobs,
            hash_mib: 2,
            ..SolveConfig::default()
        };
        solve(records, &config, |_| {})
            .unwrap()
            .into_iter()
            .map(|r| (r.id, r.played, r.score, r.nodes))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn horizon_command_shows_both_searches() {
    let out = lull(&["horizon"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("|   |   |   |   | q | p | p | p | 7"),
        "{stdout}"
    );
    assert!(stdout.contains("QSearch off") && stdout.contains("QSearch on"));
    let best = stdout.lines().find(|l| l.starts_with("best move")).unwrap();
    let cols: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(cols[2], "Qxd4", "{best}");
    assert_ne!(cols[3], "Qxd4", "{best}");
    let score = stdout.lines().find(|l| l.starts_with("score")).unwrap();
    let nums: Vec<i32> = score
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(nums.len(), 2, "{score}");
    assert!(nums[0] > 0 && nums[1] < 0, "{score}");
    assert!(stdout.contains("opposite signs"));
    assert!(stdout.contains("stand-pat cutoffs"));
    assert!(stdout.contains("Built-in example"));
}

#[test]
fn horizon_takes_engine_options() {
    // The README's example is the hand-crafted evaluation's: Qxd4 +291 without quiescence,
    // Qh5 -75 with it.
    let out = lull(&["horizon", "--option", "Use NNUE=false"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let best = stdout.lines().find(|l| l.starts_with("best move")).unwrap();
    assert_eq!(
        best.split_whitespace().collect::<Vec<_>>(),
        ["best", "move", "Qxd4", "Qh5"]
    );
    let score = stdout.lines().find(|l| l.starts_with("score")).unwrap();
    assert_eq!(
        score.split_whitespace().collect::<Vec<_>>(),
        ["score", "cp", "291", "cp", "-75"]
    );
    // A bad option is a usage error that names it.
    let out = lull(&["horizon", "--option", "NoSuchOption=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("NoSuchOption"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn horizon_takes_a_fen_and_rejects_a_bad_one() {
    // Words of the FEN may come unquoted.
    let out = lull(&[
        "horizon",
        "4k3/8/8/3p4/4P3/8/8/4K3",
        "w",
        "-",
        "-",
        "--depth",
        "2",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("Fen: 4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"),
        "{stdout}"
    );
    assert!(stdout.contains("depth 2"));
    assert!(!stdout.contains("Built-in example"));

    let out = lull(&["horizon", "not a fen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("invalid FEN"));
}

#[test]
fn horizon_library_example_differs_in_sign() {
    let pos = Position::from_fen(HORIZON_FEN).unwrap();
    let report = run_horizon(&pos, HORIZON_DEPTH, 2, &[]).unwrap();
    assert!(report.without.score > 0, "{}", report.render(&pos));
    assert!(report.with.score < 0, "{}", report.render(&pos));
    assert_eq!(report.without.best.as_deref(), Some("Qxd4"));
}

/// Runs `lull args` with standard output on a pipe that is closed after reading `keep` lines,
/// or with `keep` 0 closed before the tool even starts, so that its first write meets a closed
/// pipe whatever the timing. Returns how the process ended, its standard error and the lines
/// read.
fn run_with_closed_stdout(args: &[&str], keep: usize) -> (ExitStatus, String, Vec<String>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lull"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    let mut lines = Vec::new();
    let mut child = if keep == 0 {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        command
            .stdout(writer)
            .spawn()
            .expect("the lull binary runs")
    } else {
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .expect("the lull binary runs");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        for _ in 0..keep {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("stdout is readable");
            lines.push(line.trim_end().to_string());
        }
        // The only read end of the pipe: the tool's next write fails with EPIPE.
        drop(stdout);
        child
    };
    drop(command);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut stderr)
        .expect("stderr is readable");
    let status = child.wait().expect("lull ends");
    (status, stderr, lines)
}

/// Whether the process ended normally or quietly by SIGPIPE, as a Unix tool does when
/// its reader goes away (a panic exits with status 101).
fn ended_quietly(status: ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        status.success() || status.signal() == Some(libc::SIGPIPE)
    }
    #[cfg(not(unix))]
    {
        status.code() != Some(101)
    }
}

#[test]
fn tools_end_quietly_when_stdout_is_closed_after_the_first_line() {
    // `lull bench | head -1`, `lull perft 3 | head -1`.
    for (args, first) in [
        (&["bench", "--depth", "2"][..], " nodes "),
        (&["perft", "3"][..], ": "),
    ] {
        let (status, stderr, lines) = run_with_closed_stdout(args, 1);
        assert!(lines[0].contains(first), "{args:?}: first line {lines:?}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(ended_quietly(status), "{args:?}: {status:?}\n{stderr}");
    }
}

#[test]
fn tools_end_quietly_when_stdout_is_closed_before_they_write() {
    // The first write meets the closed pipe: this does not depend on timing.
    let epd = temp_file("closed-stdout.epd");
    std::fs::write(&epd, small_suite()).unwrap();
    for args in [
        &["bench", "--depth", "2"][..],
        &["perft", "3"],
        &["perft", "2", "--compare"],
        &[
            "solve",
            epd.to_str().unwrap(),
            "--depth",
            "2",
            "--hash",
            "2",
        ],
        &["horizon", "--depth", "2"],
        &["qtree"],
        &["qtree", "--format", "dot"],
    ] {
        let (status, stderr, _) = run_with_closed_stdout(args, 0);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(ended_quietly(status), "{args:?}: {status:?}\n{stderr}");
        // The tool did reach its first write and was ended there.
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(status.signal(), Some(libc::SIGPIPE), "{args:?}: {stderr}");
        }
    }
    let _ = std::fs::remove_file(&epd);
}

#[test]
fn why_names_what_hid_the_line_and_rejects_bad_input() {
    // The first mate in 2 of the mate_in_2 collection: Nf5, and after ...e2 the quiet check
    // Rc5#. The search finds mates in 3 and 4 first; once the root's alpha is a mate score,
    // Black's node after Nf5 has a mate score for beta, and reverse futility returns there
    // (eval - margin >= beta holds trivially): Nf5's mate in 2 stays hidden.
    let fen = "1B6/2R2PN1/8/7P/2p1pk2/2Q1pN1P/8/1B5K w - - 0 1";
    // The diagnosis is the hand-crafted evaluation's (its static eval and margins).
    let out = lull(&[
        "why",
        fen,
        "--line",
        "Nf5 e2 Rc5",
        "--depth",
        "5",
        "--option",
        "Use NNUE=false",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.starts_with("Line: Nf5 e2 Rc5#\n"), "{stdout}");
    for it in 1..=5 {
        assert!(
            stdout.contains(&format!("iteration {it}: root ")),
            "{stdout}"
        );
    }
    assert!(stdout.contains("  ply 0 (root):\n"), "{stdout}");
    // Nf5 is a quiet move at the root: searched (reduced) in every iteration.
    assert!(stdout.contains("Nf5 (move #"), "{stdout}");
    assert!(stdout.contains("reduced by "), "{stdout}");
    // Black's node after Nf5 ends by reverse futility, with the root already at a mate.
    let it5 = &stdout[stdout
        .find("iteration 5: root +M")
        .expect("a mate at the root")..];
    assert!(
        it5.contains(
            "  ply 1 (after Nf5):\n    d1 reverse futility: eval -2856 - margin 75 >= beta"
        ),
        "{stdout}"
    );

    let out = lull(&["why", fen, "--line", "Nf5 Rc5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("move 2 of the line, 'Rc5'"),
        "{}",
        text(&out.stderr)
    );
    let out = lull(&["why", "not a fen", "--line", "e4"]);
    assert_eq!(out.status.code(), Some(2));
    let out = lull(&["why", fen, "--line", "Nf5", "--option", "NoSuchOption=1"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn solve_reads_mate_suites_and_reports_per_n() {
    let two = temp_file("mate_in_2.epd");
    let three = temp_file("mate_in_3.epd");
    std::fs::write(
        &two,
        "1nbk1b1r/1r6/p2P2pp/1B2PpN1/2p2P2/2P1B3/7P/R3K2R w - - bm Be3-b6+; ce +M2; pv Be3-b6+ Rb7-c7 Ng5-f7+;\n\
         1r5r/ppp1k3/3pPpQp/8/3pP3/8/P4PPP/6K1 w - - bm Qg6-f7+; ce +M2; pv Qg6-f7+ Ke7-d8 Qf7-d7+;\n\
         1B1Q1R2/8/qNrn3p/2p1rp2/Rn3k1K/8/5P2/bbN4B w - - bm bm Qd8-f6; ce +M2;\n",
    )
    .unwrap();
    std::fs::write(
        &three,
        "5K1k/6R1/8/3b2P1/5p2/p6p/q7/8 w - - bm g5-g6; ce +M3; pv g5-g6 Bd5-g8 Rg7-h7+ Bg8xh7 g6-g7+;\n\
         1Q6/3r4/q1k1bP1p/1pBp1p2/3P4/8/1P4PP/5RK1 w - - bm Rf1-c1; ce +M3; pv Rf1-c1 b5-b4 Bc5-a7+ Qa6-c4 Qb8-b6+;\n\
         1Q6/p3qp1p/B3p3/3k2rP/3p2P1/8/1P4K1/2R5 w - - bm Ba6-c4+; ce +M3; pv Ba6-c4+ Kd5-c6 Bc4-b5+ Kc6-d5 Bb5-c6+;\n",
    )
    .unwrap();
    let out = lull(&[
        "solve",
        two.to_str().unwrap(),
        three.to_str().unwrap(),
        "--sample",
        "2",
        "--seed",
        "3",
        "--depth",
        "11",
        "--hash",
        "16",
    ]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The malformed line (`bm bm`) is named and skipped; two positions of each file remain.
    // (Depth 11: with network lull-4 and futility judged by the reduced depth, the third
    // mate in 3, Bc4+, is found at depth 11.)
    assert!(stderr.contains("line 3: bm:"), "{stderr}");
    assert!(stdout.contains("solved 4 / 4"), "{stdout}");
    assert!(
        stdout.contains("  mate in 2: 2 / 2\n  mate in 3: 2 / 2\n"),
        "{stdout}"
    );
    // Positions without an id are named file:line.
    let stem = two.file_stem().unwrap().to_str().unwrap();
    assert!(stdout.contains(&format!("{stem}:1 ")), "{stdout}");
    assert!(stdout.contains("dm 2"), "{stdout}");
}

/// The arguments of `lull ARGS --help` whose help gives their default twice: in the text
/// ("default: …", "(default …", "… by default", "the default is …") and in clap's
/// `[default: …]`. Each argument is the block of lines from its `-x`/`--name`/`<NAME>` line to
/// the next one.
pub(crate) fn defaults_said_twice(args: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    all.push("--help");
    let out = lull(&all);
    assert!(out.status.success(), "lull {all:?} failed");
    let help = text(&out.stdout);
    let mut blocks: Vec<String> = Vec::new();
    for line in help.lines() {
        let indent = line.len() - line.trim_start().len();
        let head = line.trim_start();
        if (2..=6).contains(&indent) && head.starts_with(['-', '<', '[']) {
            blocks.push(String::new());
        }
        if let Some(block) = blocks.last_mut() {
            block.push_str(head);
            block.push(' ');
        }
    }
    blocks
        .into_iter()
        .filter(|block| {
            let Some(at) = block.find("[default: ") else {
                return false;
            };
            let end = block[at..].find(']').map_or(block.len(), |e| at + e + 1);
            let words = format!("{}{}", &block[..at], &block[end..]).to_ascii_lowercase();
            ["default:", "(default", "by default", "default is"]
                .iter()
                .any(|w| words.contains(w))
        })
        .map(|block| format!("lull {}: {}", args.join(" "), block.trim()))
        .collect()
}

/// The subcommands `lull ARGS --help` lists (none if it has none).
fn subcommands(args: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    all.push("--help");
    let help = text(&lull(&all).stdout);
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command's `--help` gives each argument's default once.
#[test]
fn every_help_gives_each_default_once() {
    let mut twice = Vec::new();
    for command in subcommands(&[]) {
        twice.extend(defaults_said_twice(&[&command]));
        for sub in subcommands(&[&command]) {
            twice.extend(defaults_said_twice(&[&command, &sub]));
        }
    }
    assert!(
        twice.is_empty(),
        "defaults given twice:\n{}",
        twice.join("\n")
    );
}

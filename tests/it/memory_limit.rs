//! Drives the real `lull` binary under a virtual memory limit (`ulimit -v`) with more search
//! threads than fit in it: the helper threads that cannot be started are left out, and the
//! search still answers within its time limit, over UCI and over XBoard.
//!
//! Each test owns one engine process (`common::EngineProcess`); a system whose `sh` cannot
//! set the limit skips the test with a message.

use crate::common;

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use common::EngineProcess;

/// The limit, in KiB (about 586 MiB): the engine and its 64 MiB search stack fit, 255
/// helper threads (2 MiB of stack each) do not.
const LIMIT_KIB: u64 = 600_000;

/// Time allowed past the search's own limit (the machine may be loaded).
const SLACK: Duration = Duration::from_millis(1500);

/// The tests run one at a time: each starts hundreds of threads.
static ALONE: Mutex<()> = Mutex::new(());

fn limited(args: &[&str]) -> Option<(EngineProcess, MutexGuard<'static, ()>)> {
    let alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let engine = EngineProcess::spawn_with_memory_limit(LIMIT_KIB, args);
    if engine.is_none() {
        eprintln!("skipped: this system's sh cannot set ulimit -v");
    }
    engine.map(|e| (e, alone))
}

#[test]
fn uci_search_with_threads_that_cannot_all_start_keeps_its_time() {
    let Some((mut e, _alone)) = limited(&[]) else {
        return;
    };
    e.send("uci");
    e.wait_for("uciok", |l| l == "uciok");
    e.send("setoption name Threads value 256");
    e.send("isready");
    let (before, _) = e.wait_for("readyok", |l| l == "readyok");
    assert!(
        !before.iter().any(|l| l.contains("error")),
        "{before:?}\n{}",
        e.tail()
    );
    for _ in 0..2 {
        e.send("position startpos moves e2e4");
        let start = Instant::now();
        e.send("go movetime 200");
        let (lines, best) = e.wait_for_within(
            "bestmove within the movetime",
            Duration::from_millis(200) + SLACK,
            |l| l.starts_with("bestmove"),
        );
        let took = start.elapsed();
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "the move was searched: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{lines:?} ({took:?})"
        );
        let mv = best.split_whitespace().nth(1).unwrap_or("");
        let pos = lull::position::Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )
        .unwrap();
        assert!(pos.parse_uci_move(mv).is_ok(), "{best}");
    }
    e.send("isready");
    e.wait_for("readyok", |l| l == "readyok");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn xboard_search_with_cores_that_cannot_all_start_keeps_its_time() {
    let Some((mut e, _alone)) = limited(&["xboard"]) else {
        return;
    };
    e.send("protover 2");
    e.wait_for("feature done=1", |l| l == "feature done=1");
    e.send("new");
    e.send("cores 256");
    e.send("st 1");
    e.send("post");
    e.send("ping 1");
    let (before, _) = e.wait_for("pong 1", |l| l == "pong 1");
    assert!(!before.iter().any(|l| l.starts_with("Error")), "{before:?}");
    let start = Instant::now();
    e.send("go");
    let (lines, _) = e.wait_for_within(
        "the engine's move within st 1",
        Duration::from_secs(1) + SLACK,
        |l| l.starts_with("move "),
    );
    let took = start.elapsed();
    assert!(
        lines.iter().any(|l| l
            .split_whitespace()
            .next()
            .is_some_and(|w| w.parse::<u32>().is_ok())),
        "the move was searched (thinking lines): {lines:?} ({took:?})"
    );
    e.send("ping 2");
    e.wait_for("pong 2", |l| l == "pong 2");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

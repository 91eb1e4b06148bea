//! What a search does and says over the protocols, on the real binary: its limits hold with
//! helper threads (`go nodes`, `go depth`), the move it plays is the first move of the last
//! line it printed (UCI `info … pv`, XBoard thinking output), and scores at the edges of the
//! mate range are printed as what they are.

use crate::common;

use common::EngineProcess;

/// `lull::params::POLL_NODES`: all threads together search fewer nodes than this between a
/// limit being reached (or the stop) and every thread having seen it.
const POLL_NODES: u64 = 1024;
/// Nodes a stopped thread may still enter while it unwinds (each returns at once).
const UNWIND_SLACK: u64 = 64;

/// The number after `key` in a line of words.
fn field(line: &str, key: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1)?.parse().ok()
}

/// The nodes of all threads that the `Statistics` line after a search counts.
fn stats_nodes(lines: &[String]) -> u64 {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info string stats nodes "))
        .unwrap_or_else(|| panic!("no statistics line in {lines:?}"));
    field(&line["info string".len()..], "nodes").unwrap()
}

/// A UCI engine with `Threads` set, synchronised.
fn uci_with_threads(threads: usize) -> EngineProcess {
    let mut e = EngineProcess::spawn(&[]);
    e.send("uci");
    e.wait_for("uciok", |l| l == "uciok");
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("isready");
    let (before, _) = e.wait_for("readyok", |l| l == "readyok");
    assert!(
        !before.iter().any(|l| l.contains("error")),
        "Threads {threads}: {before:?}"
    );
    e
}

// ---------------------------------------------------------------------------------------------
// Limits with helper threads
// ---------------------------------------------------------------------------------------------

/// `go nodes N` counts the nodes of every thread: with 8 threads the search ends within
/// `POLL_NODES` nodes of N, as with one (it took 12,316 nodes for N = 100 and 20,509 for
/// N = 1000 when only the main thread counted, every 1024 of its own nodes).
#[test]
fn go_nodes_holds_at_every_thread_count() {
    for threads in [1, 3, 8] {
        let mut e = uci_with_threads(threads);
        for n in [100u64, 1000, 5000] {
            e.send("position startpos");
            e.send(&format!("go nodes {n}"));
            let (before, _) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
            let total = stats_nodes(&before);
            assert!(
                total < n + POLL_NODES + UNWIND_SLACK,
                "Threads {threads}, go nodes {n}: {total} nodes\n{}",
                e.tail()
            );
        }
    }
}

/// `go depth D` with helpers: the helpers stop when the main thread has finished its last
/// iteration, so that all threads together search fewer than 2 × `POLL_NODES` nodes after
/// the last `info` line (each helper's nodes not yet counted in it, and those it searches
/// before it sees the stop). They used to go on for up to 1024 nodes each after the main
/// thread had reported, which it did before telling them to stop: 5,000 to 11,000 nodes at
/// depths 8 to 10.
#[test]
fn helpers_stop_with_the_main_threads_last_iteration() {
    let mut e = uci_with_threads(8);
    for depth in [8u64, 9, 10] {
        e.send("ucinewgame");
        e.send("position startpos moves e2e4");
        e.send(&format!("go depth {depth}"));
        let (before, _) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
        let last = before
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth ") && l.contains(" pv "))
            .unwrap_or_else(|| panic!("no info line: {before:?}"));
        assert_eq!(field(last, "depth"), Some(depth), "{last}");
        let shown = field(last, "nodes").unwrap();
        let total = stats_nodes(&before);
        assert!(
            total >= shown && total - shown < 2 * POLL_NODES + UNWIND_SLACK,
            "go depth {depth}: {shown} nodes in the last line, {total} in all\n{}",
            e.tail()
        );
    }
}

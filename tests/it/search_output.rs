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

// ---------------------------------------------------------------------------------------------
// The last line before the move is the move's
// ---------------------------------------------------------------------------------------------

/// The words after `pv` in an `info` line.
fn pv_of(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.iter().position(|w| *w == "pv") {
        Some(at) => words[at + 1..].to_vec(),
        None => Vec::new(),
    }
}

/// Checks one UCI search's output (`lines`, from its `go` to `bestmove`): the last
/// `info … pv` line starts with the move played, and with the ponder move after it.
fn check_last_pv(what: &str, lines: &[String], bestmove: &str, e: &EngineProcess) {
    let words: Vec<&str> = bestmove.split_whitespace().collect();
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info ") && !l.starts_with("info string") && l.contains(" pv "))
        .unwrap_or_else(|| {
            panic!(
                "{what}: no info … pv line before {bestmove:?}\n{}",
                e.tail()
            )
        });
    let pv = pv_of(last);
    assert_eq!(
        pv.first(),
        words.get(1),
        "{what}: {bestmove:?} after {last:?}\n{}",
        e.tail()
    );
    if words.get(2) == Some(&"ponder") {
        assert_eq!(
            pv.get(1),
            words.get(3),
            "{what}: {bestmove:?} after {last:?}\n{}",
            e.tail()
        );
    }
}

/// Runs `go` and checks its output with [`check_last_pv`].
fn go_and_check(e: &mut EngineProcess, what: &str, position: &str, go: &str) {
    e.send(position);
    e.send(go);
    let (before, line) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
    check_last_pv(&format!("{what}: {position} / {go}"), &before, &line, e);
}

const POSITIONS: [&str; 6] = [
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// Every `bestmove` is the first move of the last `info … pv` line printed before it (and
/// its ponder move the second): searches stopped inside an iteration that had found another
/// move (`go nodes` at a poll, `go movetime`, `stop`), `MultiPV 3` (whose last line is the
/// third best), `Skill Level` and `UCI_LimitStrength` (which may play a weaker line), a
/// ponder move taken from the table behind a one-move PV, `searchmoves`, helper threads,
/// `go ponder` ended by `ponderhit` or `stop`, and a book move (which now has its
/// `info depth 0 pv` line). About 3 % of the moves of a real match broke the rule, and every
/// `MultiPV` and `Skill Level` move did.
#[test]
fn bestmove_is_the_first_move_of_the_last_pv_line() {
    let mut e = uci_with_threads(1);
    // Deterministic stops inside an iteration that had changed the move (one thread, an
    // empty table): the move of depth 5 or 7 replaced in the stopped iteration.
    for (position, nodes) in [
        ("position startpos", 1024),
        ("position startpos", 12288),
        ("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5", 21504),
    ] {
        e.send("ucinewgame");
        go_and_check(
            &mut e,
            "stopped iteration",
            position,
            &format!("go nodes {nodes}"),
        );
    }
    for (k, position) in POSITIONS.iter().enumerate() {
        for go in [
            format!("go movetime {}", 5 + 7 * k),
            format!("go nodes {}", 300 + 1700 * k),
            "go depth 1".to_string(),
            "go depth 5 searchmoves a2a3 h2h3 g1h1 d1d2".to_string(),
        ] {
            go_and_check(&mut e, "plain", position, &go);
        }
    }
    let options = [
        ("MultiPV", "3", "1"),
        ("Skill Level", "3", "20"),
        ("UCI_LimitStrength", "true", "false"),
        ("Threads", "3", "1"),
    ];
    for (name, value, default) in options {
        e.send(&format!("setoption name {name} value {value}"));
        for (k, position) in POSITIONS.iter().enumerate() {
            for go in [
                format!("go movetime {}", 10 + 5 * k),
                format!("go nodes {}", 500 + 900 * k),
                "go depth 4".to_string(),
            ] {
                go_and_check(&mut e, &format!("{name} {value}"), position, &go);
            }
        }
        e.send(&format!("setoption name {name} value {default}"));
    }
    // Pondering, ended by ponderhit or by stop (stopped inside an iteration).
    e.send("setoption name Ponder value true");
    for (k, position) in POSITIONS.iter().enumerate() {
        for end in ["ponderhit", "stop"] {
            e.send(position);
            e.send("go ponder wtime 300 btime 300");
            std::thread::sleep(std::time::Duration::from_millis(5 + 4 * k as u64));
            e.send(end);
            let (before, line) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
            check_last_pv(&format!("go ponder, {end}: {position}"), &before, &line, &e);
        }
    }
    // A book move: no search, its own line.
    let book = common::temp_file_of("search-output", "book.bin");
    let start = lull::position::Position::startpos();
    let entry = lull::book::Entry {
        key: lull::book::polyglot_key(start.board()),
        code: lull::book::encode_move("e2e4".parse().unwrap()),
        weight: 1,
        learn: 0,
    };
    let mut bytes = Vec::new();
    lull::book::write_entries(&mut bytes, &[entry]).unwrap();
    std::fs::write(&book, bytes).unwrap();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", book.display()));
    go_and_check(
        &mut e,
        "book",
        "position startpos",
        "go wtime 1000 btime 1000",
    );
    let _ = std::fs::remove_file(&book);
}

/// XBoard: with `post`, the last thinking line before `move` starts with that move, with
/// `MultiPV 3` (its last line is the third best) and when `?` stops the search inside an
/// iteration.
#[test]
fn the_move_is_the_first_move_of_the_last_thinking_line() {
    use lull::position::Position;
    use lull::protocol::xboard::parse_move;
    let mut e = EngineProcess::spawn(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    e.wait_for("feature done=1", |l| l == "feature done=1");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];
    let mut checked = 0;
    for multipv in [1, 3] {
        e.send(&format!("option MultiPV={multipv}"));
        for (k, fen) in fens.iter().enumerate() {
            for stop_after in [None, Some(3 + 11 * k as u64)] {
                e.send("new");
                e.send("force");
                e.send(&format!("setboard {fen}"));
                e.send("post");
                match stop_after {
                    None => e.send("sd 4"),
                    Some(_) => e.send("st 10"),
                }
                e.send("go");
                if let Some(ms) = stop_after {
                    std::thread::sleep(std::time::Duration::from_millis(ms));
                    e.send("?");
                }
                let (before, line) = e.wait_for("move", |l| l.starts_with("move "));
                let pos = Position::from_fen(fen).unwrap();
                let played = parse_move(pos.board(), &line["move ".len()..], false).unwrap();
                let thinking: Vec<&String> = before
                    .iter()
                    .filter(|l| {
                        let f: Vec<&str> = l.split_whitespace().collect();
                        f.len() >= 5 && f[..4].iter().all(|w| w.parse::<i64>().is_ok())
                    })
                    .collect();
                let last = thinking
                    .last()
                    .unwrap_or_else(|| panic!("no thinking line before {line}\n{}", e.tail()));
                let first = last.split_whitespace().nth(4).unwrap();
                let shown = parse_move(pos.board(), first, false)
                    .unwrap_or_else(|err| panic!("{last}: {err}\n{}", e.tail()));
                assert_eq!(
                    shown,
                    played,
                    "MultiPV {multipv}, {fen}: {line:?} after {last:?}\n{}",
                    e.tail()
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 16);
}

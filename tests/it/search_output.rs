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

// ---------------------------------------------------------------------------------------------
// Scores at the edges of the mate range
// ---------------------------------------------------------------------------------------------

mod edges {
    use std::sync::{Arc, Mutex};

    use lull::options::apply_option;
    use lull::params::{Tunable, INFINITY, MATE, MAX_PLY, TB_BOUND, TB_WIN_SHOWN};
    use lull::position::Position;
    use lull::protocol::uci::info_lines;
    use lull::protocol::xboard::{cecp_score, thinking_line};
    use lull::search::{Engine, IterationReport, SearchReport};
    use lull::time::Limits;

    /// Positions at the edges of the mate range: mates in 1 to 4 for and against the side to
    /// move, checkmated and stalemated roots, a mate by a check that the quiescence search's
    /// checks see at the horizon, mates behind quiet moves.
    pub const NEAR_MATE: [&str; 12] = [
        // Mates in 1: a back-rank rook, a knight check, a promotion.
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "r5rk/6pp/7N/8/8/1Q6/6PP/6K1 w - - 0 1",
        "7k/4P1pp/8/8/8/8/8/4R1K1 w - - 0 1",
        // The side to move is mated in 1 (its only move, or any move).
        "k7/8/1K6/8/8/8/8/7R b - - 0 1",
        "k7/pp6/8/8/8/8/8/KR5Q b - - 0 1",
        // Checkmated roots (Fool's mate, a smothered mate) and a stalemated one.
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "6rk/5Npp/8/8/8/8/1Q4PP/6K1 b - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        // Mates in 2 (a queen sacrifice; Black's rook sacrifice).
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
        // Mates behind quiet king moves and behind a sacrifice.
        "7k/8/5K2/8/8/8/8/6R1 w - - 0 1",
        "r1bk3r/pppq1ppp/5n2/4N1N1/2Bp4/Bn6/P4PPP/4R1K1 w - - 1 1",
    ];

    /// Every quiescence option on (each away from its default).
    pub const ALL_QSEARCH: [(&str, &str); 11] = [
        ("QSearchMaxPly", "12"),
        ("QSearchMaxNodes", "200000"),
        ("QSearchChecks", "8"),
        ("QSearchSEE", "-50"),
        ("QSearchDelta", "50"),
        ("QSearchDeltaChecks", "true"),
        ("QSearchTT", "false"),
        ("QSearchUnderpromotions", "true"),
        ("QSearchPawnPushes", "true"),
        ("QSearchRecapturesAfter", "3"),
        ("QSearchNullMove", "2"),
    ];

    /// [`NEAR_MATE`], then the first `wac` positions of the WAC suite (most are won by a
    /// combination or a mate) and each of them after its best move (the defender to move,
    /// often mated).
    pub fn positions(wac: usize) -> Vec<String> {
        let mut fens: Vec<String> = NEAR_MATE.iter().map(|f| f.to_string()).collect();
        let (records, errors) = lull::epd::parse_epd(lull::tools::testing::solve::WAC_EPD);
        assert!(errors.is_empty(), "{errors:?}");
        for record in records.iter().take(wac) {
            let mut pos = record.position();
            fens.push(pos.fen());
            if let Some(&best) = record.bm.first() {
                pos.play(best);
                if !pos.legal_moves().is_empty() {
                    fens.push(pos.fen());
                }
            }
        }
        fens
    }

    /// Centipawns below this are evaluations; from it to [`TB_WIN_SHOWN`] tablebase results.
    const TB_SHOWN_FROM: i64 = (TB_WIN_SHOWN - MAX_PLY as i32) as i64;

    /// What is wrong with the score words (`score …`) of a UCI line that shows the internal
    /// `score` (`None`: nothing).
    fn uci_score_problem(line: &str, score: i32, checkmated_root: bool) -> Option<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "score")?;
        let (kind, value) = (words[at + 1], words[at + 2]);
        let n: i64 = value.parse().ok()?;
        let tablebase = (TB_BOUND..lull::params::MATE_BOUND).contains(&score.abs());
        match kind {
            "mate" if value == "-0" => Some("mate -0".into()),
            "mate" if n == 0 && !checkmated_root => Some("mate 0 though not checkmated".into()),
            "mate" if n != 0 && (n > 0) != (score > 0) => Some(format!("mate {n} for {score}")),
            "mate" if n.abs() > 64 => Some(format!("mate {n} beyond the mate range")),
            "cp" if n.abs() > TB_WIN_SHOWN as i64 => Some(format!("cp {n} beyond any result")),
            "cp" if (n.abs() >= TB_SHOWN_FROM) != tablebase => {
                Some(format!("cp {n} for {score}: not a tablebase result"))
            }
            "cp" | "mate" => None,
            _ => Some(format!("score kind {kind}")),
        }
    }

    /// What is wrong with the CECP score of a thinking line that shows the internal `score`.
    fn cecp_score_problem(shown: i32, score: i32) -> Option<String> {
        const MATE_SCORE: i32 = 100_000;
        let tablebase = (TB_BOUND..lull::params::MATE_BOUND).contains(&score.abs());
        if shown.abs() >= MATE_SCORE {
            let moves = shown.abs() - MATE_SCORE;
            if moves > 64 || (shown > 0) != (score > 0) || (moves == 0 && shown > 0) {
                return Some(format!("cecp {shown} for {score}"));
            }
        } else if shown.abs() > TB_WIN_SHOWN
            || (i64::from(shown.abs()) >= TB_SHOWN_FROM) != tablebase
        {
            return Some(format!("cecp {shown} for {score}"));
        }
        None
    }

    /// Searches each of `fens` with the engine options `options` to `depth`, with the
    /// aspiration window at its narrowest and every failed aspiration search reported, and
    /// checks each report's scores as both protocols print them, the move's own last line
    /// included. Returns the number of lines checked and how many were bounds.
    pub fn check_positions(
        fens: &[String],
        options: &[(&str, &str)],
        depth: i32,
    ) -> (usize, usize) {
        let (mut checked, mut bounds) = (0, 0);
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let mut engine = Engine::new(16);
            for (name, value) in options {
                apply_option(&mut engine, name, Some(value)).unwrap();
            }
            engine
                .options
                .tunables
                .set(Tunable::AspirationWindow as usize, 8);
            engine.options.progress_after_ms = 0;
            let reports: Arc<Mutex<Vec<SearchReport>>> = Arc::default();
            let sink = Arc::clone(&reports);
            engine.set_report_sink(Some(Arc::new(move |r: &SearchReport| {
                sink.lock().unwrap().push(r.clone());
            })));
            let result = engine.search(&pos, &Limits::depth(depth), &[]);
            let checkmated = pos.legal_moves().is_empty() && pos.in_check();
            let mut reports = reports.lock().unwrap().clone();
            if let Some(r) = result.final_report() {
                reports.push(SearchReport::Iteration(r));
            }
            for report in &reports {
                let scores: Vec<i32> = match report {
                    SearchReport::Iteration(r) => r.lines.iter().map(|l| l.score).collect(),
                    SearchReport::NoLegalMove { score } => vec![*score],
                    SearchReport::CurrMove { .. } => continue,
                };
                for &score in &scores {
                    assert!(
                        score.abs() <= MATE && score.abs() < INFINITY,
                        "{fen} {options:?}: a score of {score} in {report:?}"
                    );
                }
                for (line, &score) in info_lines(&pos, report, true).iter().zip(&scores) {
                    if let Some(problem) = uci_score_problem(line, score, checkmated) {
                        panic!("{fen} {options:?}: {problem}: {line}");
                    }
                    checked += 1;
                    bounds += usize::from(line.contains("bound "));
                }
                if let SearchReport::Iteration(r) = report {
                    check_thinking(fen, options, r);
                }
            }
        }
        (checked, bounds)
    }

    fn check_thinking(fen: &str, options: &[(&str, &str)], r: &IterationReport) {
        for line in &r.lines {
            let text = thinking_line(line.score, r, r.nodes, &["x".to_string()]);
            let shown: i32 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
            assert_eq!(shown, cecp_score(line.score));
            if let Some(problem) = cecp_score_problem(shown, line.score) {
                panic!("{fen} {options:?}: {problem}: {text}");
            }
        }
    }
}

/// Scores near mate (mates in 1 to 4 for and against the side to move, checkmated and
/// stalemated roots, mates found by the quiescence search's checks, 16 WAC positions and
/// each after its best move) with the aspiration window at its narrowest and every failed
/// aspiration search reported, with the default options and with every quiescence option
/// on: each `info` line and thinking line shows a mate as `mate N` / ±100000+N with the
/// right sign, never `mate 0` but for a checkmated root, never a score beyond the mate
/// range, never centipawns near the mates. With `QSearchNullMove` a mate threat after the
/// null move made the stand pat a score of the tablebase band (`cp 31847` at depth 1 of
/// WAC.001 with every option on).
#[test]
fn scores_near_mate_are_printed_as_what_they_are() {
    let fens = edges::positions(16);
    let (lines, bounds) = edges::check_positions(&fens, &[], 7);
    assert!(lines > 200 && bounds > 10, "{lines} lines, {bounds} bounds");
    let (lines, bounds) = edges::check_positions(&fens, &edges::ALL_QSEARCH, 7);
    assert!(lines > 200 && bounds > 10, "{lines} lines, {bounds} bounds");
}

/// The same on the whole WAC suite, each position also after its best move, at depth 9
/// (about a minute: run it with `--ignored`).
#[test]
#[ignore]
fn scores_near_mate_are_printed_as_what_they_are_on_all_of_wac() {
    let fens = edges::positions(300);
    for options in [&[][..], &edges::ALL_QSEARCH[..]] {
        let (lines, bounds) = edges::check_positions(&fens, options, 9);
        println!(
            "{} positions, {options:?}: {lines} lines, {bounds} bounds",
            fens.len()
        );
    }
}

/// Tablebase results are shown as Stockfish shows them, `cp 20000` less their distance in
/// plies (they were `cp 31871`: centipawns just below the mates), in UCI and XBoard.
#[cfg(feature = "syzygy")]
#[test]
fn tablebase_results_are_shown_below_the_mates() {
    let tables = format!("{}/assets/syzygy", env!("CARGO_MANIFEST_DIR"));
    let fens: Vec<String> = [
        // Ranked at the root: a win and a loss.
        "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
        "8/8/8/4k3/8/8/3QK3/8 b - - 0 1",
        // Found below the root, after a capture into the tables.
        "8/8/3k4/3r4/8/3K4/3R3P/8 w - - 0 1",
        "8/8/8/2k5/8/2q5/3R4/3K4 w - - 0 1",
    ]
    .iter()
    .map(|f| f.to_string())
    .collect();
    let options = [("SyzygyPath", tables.as_str())];
    let (lines, _) = edges::check_positions(&fens, &options, 8);
    assert!(lines > 10, "{lines}");
    let mut e = EngineProcess::spawn(&[]);
    e.send(&format!("setoption name SyzygyPath value {tables}"));
    e.send("position fen 8/8/8/4k3/8/8/3QK3/8 b - - 0 1");
    e.send("go depth 3");
    let (before, _) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        before.iter().any(|l| l.contains(" score cp -20000 ")),
        "{before:?}"
    );
}

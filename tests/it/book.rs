//! Polyglot opening books end to end: the published keys through the library, a round trip
//! PGN → `lull book build` → `lull book probe` (and the library reader) with exact moves and
//! weights, the `--min-games` filter, bad input (games, books, paths), and the UCI options
//! `OwnBook`, `BookFile`, `BookDepth` and `BookBestMove` on the real binary.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use lull::book::{polyglot_key, Book, PUBLISHED_KEYS};
use lull::cozy_chess::Board;
use lull::position::Position;

/// Longest wait for one run of the binary.
const TIMEOUT: Duration = Duration::from_secs(60);

/// The small PGN of the repository: four classic games and two Stockfish openings.
fn games_pgn() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/games.pgn")
}

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lull-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `lull` with arguments and standard input; kills it after [`TIMEOUT`].
fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lull"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start lull");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
        // Dropping stdin closes the engine's input.
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err_reader = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("lull {args:?} did not finish within {TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(10));
    };
    writer.join().unwrap();
    Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Builds a book with the binary; returns its stderr.
fn build(pgn: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "book",
        "build",
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = run(&args, "");
    assert!(o.status.success(), "build failed: {}", text(&o.stderr));
    text(&o.stderr)
}

/// The (UCI move, weight) pairs the library reads for the position after `moves`.
fn book_moves(book: &Book, moves: &[&str]) -> Vec<(String, u16)> {
    let mut pos = Position::startpos();
    for m in moves {
        let mv = pos.parse_uci_move(m).unwrap();
        pos.play(mv);
    }
    book.probe(pos.board())
        .moves
        .iter()
        .map(|m| (pos.move_to_uci(m.mv), m.weight))
        .collect()
}

fn pairs(list: &[(&str, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|(m, w)| (m.to_string(), *w)).collect()
}

#[test]
fn published_keys() {
    for (moves, key) in PUBLISHED_KEYS {
        let mut board = Board::default();
        for m in moves.split_whitespace() {
            board.play(m.parse().unwrap());
        }
        assert_eq!(polyglot_key(&board), key, "after '{moves}'");
        // The probe command prints the same key.
        let mut args = vec!["book", "probe"];
        if !moves.is_empty() {
            args.push("--moves");
            args.extend(moves.split_whitespace());
        }
        let o = run(&args, "");
        assert!(o.status.success());
        assert!(
            text(&o.stdout).contains(&format!("key  {key:016x}\n")),
            "{}",
            text(&o.stdout)
        );
    }
}

#[test]
fn round_trip_build_and_probe() {
    let dir = temp_dir("round-trip");
    let bin = dir.join("games.bin");
    let log = build(&games_pgn(), &bin, &["--min-games", "1"]);
    assert!(
        log.contains("6 games read, 6 used, 0 skipped"),
        "build summary: {log}"
    );
    // The file is a whole number of sorted entries.
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(bytes.len() % 16, 0);
    let book = Book::from_bytes(&bytes).unwrap();
    assert!(book.entries().windows(2).all(|w| w[0].key <= w[1].key));
    // Start: three white wins with 1.e4 (2 points each), Byrne's loss with 1.Nf3 (0) and a
    // draw (1), a draw with 1.d4 (1). Heaviest first, then in move-code order.
    assert_eq!(
        book_moves(&book, &[]),
        pairs(&[("e2e4", 6), ("g1f3", 1), ("d2d4", 1)])
    );
    // 1...e5 lost all three games: no book move after 1.e4.
    assert_eq!(book_moves(&book, &["e2e4"]), []);
    // 2.Nf3 won twice, 2.f4 once (the Immortal Game); the 18...Qxa1+ variation is not read.
    assert_eq!(
        book_moves(&book, &["e2e4", "e7e5"]),
        pairs(&[("g1f3", 4), ("f2f4", 2)])
    );
    // Castling is stored as king takes rook, shown in standard notation: 7.O-O of the
    // Evergreen Game.
    let evergreen = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "b2b4", "c5b4", "c2c3", "b4a5", "d2d4",
        "e5d4",
    ];
    assert_eq!(book_moves(&book, &evergreen), pairs(&[("e1g1", 2)]));
    // Black's wins count for Black: 1...Nf6 in Byrne - Fischer.
    assert_eq!(
        book_moves(&book, &["g1f3"]),
        pairs(&[("g8f6", 2), ("d7d5", 1)])
    );

    // The probe command lists the same, with SAN and shares.
    let o = run(&["book", "probe", "--book", bin.to_str().unwrap()], "");
    assert!(o.status.success());
    let out = text(&o.stdout);
    assert!(out.contains("key  463b96181691fc9c\n"), "{out}");
    assert!(out.contains("e2e4    e4            6   75.00%\n"), "{out}");
    assert!(out.contains("g1f3    Nf3           1   12.50%\n"), "{out}");
    assert!(out.contains("d2d4    d4            1   12.50%\n"), "{out}");
    assert!(out.contains("3 moves, total weight 8\n"), "{out}");
    // After moves in SAN, and from a FEN.
    let o = run(
        &[
            "book",
            "probe",
            "--book",
            bin.to_str().unwrap(),
            "--moves",
            "e4",
            "e5",
        ],
        "",
    );
    let out = text(&o.stdout);
    assert!(out.contains("g1f3    Nf3           4   66.67%\n"), "{out}");
    assert!(out.contains("f2f4    f4            2   33.33%\n"), "{out}");
    let o = run(
        &[
            "book",
            "probe",
            "--book",
            bin.to_str().unwrap(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR",
            "w",
            "KQkq",
            "-",
            "0",
            "2",
        ],
        "",
    );
    assert!(text(&o.stdout).contains("g1f3    Nf3           4"));
    let o = run(
        &[
            "book",
            "probe",
            "--book",
            bin.to_str().unwrap(),
            "--moves",
            "e2e4",
        ],
        "",
    );
    assert!(text(&o.stdout).contains("no book moves\n"));
    // Bad probes: a bad move, a missing book.
    let o = run(&["book", "probe", "--moves", "e2e5"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("move 1 'e2e5'"));
    let missing = dir.join("missing.bin");
    let o = run(&["book", "probe", "--book", missing.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("cannot read book file"));
}

#[test]
fn min_games_and_max_ply_filter() {
    let dir = temp_dir("filters");
    let bin = dir.join("two.bin");
    let log = build(&games_pgn(), &bin, &["--min-games", "2"]);
    assert!(log.contains("fewer than 2 games (--min-games)"), "{log}");
    let book = Book::open(&bin).unwrap();
    // 1.d4 and 2.f4 were played once: dropped. 1.Nf3 was played twice.
    assert_eq!(book_moves(&book, &[]), pairs(&[("e2e4", 6), ("g1f3", 1)]));
    assert_eq!(book_moves(&book, &["e2e4", "e7e5"]), pairs(&[("g1f3", 4)]));
    // Only the first ply.
    let one = dir.join("one.bin");
    build(&games_pgn(), &one, &["--min-games", "1", "--max-ply", "1"]);
    let book = Book::open(&one).unwrap();
    assert_eq!(book.len(), 3);
    assert_eq!(book_moves(&book, &["e2e4", "e7e5"]), []);
    // Bad arguments are refused by the command line parser.
    let o = run(
        &["book", "build", "x.pgn", "-o", "y.bin", "--min-games", "0"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_games_are_reported_and_skipped() {
    let dir = temp_dir("bad-games");
    let pgn = dir.join("bad.pgn");
    std::fs::write(
        &pgn,
        "[Event \"good\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
         [Event \"illegal\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n\n\
         [Event \"variant\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n\n\
         [Event \"broken tag\n\n1. d4 *\n\n\
         [Event \"from a FEN\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n\
         1. e4 Kd7 1/2-1/2\n",
    )
    .unwrap();
    let bin = dir.join("bad.bin");
    let log = build(&pgn, &bin, &["--min-games", "1"]);
    assert!(
        log.contains("warning: game 2 (line 6): move 2.: no legal move matches 'Ke3' (skipped)"),
        "{log}"
    );
    assert!(log.contains("warning: game 3 (line 11): variant 'Atomic' is not supported"));
    assert!(log.contains("warning: game 4 (line 16): line 16: malformed tag"));
    assert!(log.contains("5 games read, 2 used, 3 skipped"), "{log}");
    let book = Book::open(&bin).unwrap();
    assert_eq!(book_moves(&book, &[]), pairs(&[("e2e4", 2)]));
    // The game from a FEN is in the book under its own position.
    let fen: Board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
    let p = book.probe(&fen);
    assert_eq!(p.moves.len(), 1);
    assert_eq!(
        (p.moves[0].mv.to_string(), p.moves[0].weight),
        ("e2e4".into(), 1)
    );

    // Garbage never panics, and never becomes a book: binary bytes or text with no usable
    // game leave no entry, and an empty book is not written (Lull would refuse to read it).
    let junk = dir.join("junk.pgn");
    let mut bytes: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    bytes.extend_from_slice(b"\n[Event \"x\"]\n{ unterminated (( 1. e4 $$ ]]");
    let text_junk: Vec<u8> = bytes.iter().map(|&b| b.max(1)).collect();
    std::fs::write(&junk, bytes).unwrap();
    let out = dir.join("junk.bin");
    let o = run(
        &[
            "book",
            "build",
            junk.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("no book entry"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists());
    std::fs::write(&junk, text_junk).unwrap();
    let o = run(
        &[
            "book",
            "build",
            junk.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("no book entry"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists());
    // A missing PGN is an error.
    let o = run(
        &[
            "book",
            "build",
            dir.join("none.pgn").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("cannot read"));
}

/// Sends UCI commands to the engine (input closed after them) and returns its output lines.
fn uci(commands: &[String]) -> Vec<String> {
    let input = commands.join("\n") + "\n";
    let o = run(&[], &input);
    assert!(o.status.success());
    text(&o.stdout).lines().map(str::to_string).collect()
}

fn with_book(bin: &Path, rest: &[&str]) -> Vec<String> {
    let mut cmds = vec![
        "setoption name OwnBook value true".to_string(),
        format!("setoption name BookFile value {}", bin.display()),
    ];
    cmds.extend(rest.iter().map(|s| s.to_string()));
    uci(&cmds)
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// The moves of the `bestmove` lines (without a ponder move).
fn bestmoves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect()
}

#[test]
fn uci_plays_book_moves() {
    let dir = temp_dir("uci");
    let bin = dir.join("games.bin");
    build(&games_pgn(), &bin, &["--min-games", "1"]);

    // The options are announced.
    let lines = uci(&["uci".to_string()]);
    for l in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookDepth type spin default 16 min 0 max 1024",
        "option name BookBestMove type check default false",
    ] {
        assert!(lines.iter().any(|x| x == l), "missing {l:?}");
    }

    // A book move at once, one of the book's, with its weight.
    let lines = with_book(&bin, &["position startpos", "go wtime 1000 btime 1000"]);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let entries = Book::open(&bin).unwrap().len();
    let loaded = format!(
        "info string book {} loaded: {entries} entries",
        bin.display()
    );
    assert!(lines.contains(&loaded), "{lines:?}");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info string book move "))
        .unwrap_or_else(|| panic!("no book move line: {lines:?}"));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    let expected = [
        ("e2e4", "(weight 6 of 8)"),
        ("g1f3", "(weight 1 of 8)"),
        ("d2d4", "(weight 1 of 8)"),
    ];
    assert!(
        expected
            .iter()
            .any(|(m, w)| best[0] == *m && *info == format!("info string book move {m} {w}")),
        "{info} / {best:?}"
    );
    // No search was run for it: its only `info` line is the move's, at depth 0 (the last
    // `info … pv` line before `bestmove` is the move played).
    let depth_lines: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(
        depth_lines,
        [&format!("info depth 0 pv {}", best[0])],
        "{lines:?}"
    );

    // BookBestMove: always the heaviest.
    for _ in 0..3 {
        let lines = with_book(
            &bin,
            &[
                "setoption name BookBestMove value true",
                "position startpos moves e2e4 e7e5",
                "go movetime 1000",
            ],
        );
        assert!(lines
            .iter()
            .any(|l| l == "info string book move g1f3 (weight 4 of 6)"));
        assert_eq!(bestmoves(&lines), ["g1f3"]);
    }
    // Castling from the book in standard notation.
    let lines = with_book(
        &bin,
        &[
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 b2b4 c5b4 c2c3 b4a5 d2d4 e5d4",
            "go wtime 1000 btime 1000",
        ],
    );
    assert_eq!(bestmoves(&lines), ["e1g1"]);

    // Out of book (1...e5 only lost): a normal search.
    let lines = with_book(
        &bin,
        &["position startpos moves e2e4", "go wtime 1000 btime 1000"],
    );
    assert!(!lines.iter().any(|l| l.contains("book move")));
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    let mut pos = Position::startpos();
    pos.play(pos.parse_uci_move("e2e4").unwrap());
    assert!(pos.parse_uci_move(best[0]).is_ok(), "{best:?}");

    // Beyond BookDepth, for analysis, and with OwnBook off: searched.
    for rest in [
        &[
            "setoption name BookDepth value 2",
            "position startpos moves e2e4 e7e5",
            "go depth 2",
        ][..],
        &["position startpos", "go depth 2 searchmoves a2a3"][..],
        &[
            "setoption name OwnBook value false",
            "position startpos",
            "go depth 2",
        ][..],
    ] {
        let lines = with_book(&bin, rest);
        assert!(
            !lines.iter().any(|l| l.contains("book move")),
            "{rest:?}: {lines:?}"
        );
        assert_eq!(bestmoves(&lines).len(), 1);
    }
    // Within BookDepth 3 the reply at ply 2 still comes from the book.
    let lines = with_book(
        &bin,
        &[
            "setoption name BookDepth value 3",
            "position startpos moves e2e4 e7e5",
            "go depth 2",
        ],
    );
    assert!(lines.iter().any(|l| l.starts_with("info string book move")));
}

#[test]
fn uci_bad_books_leave_the_engine_playing() {
    let dir = temp_dir("uci-bad");
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, [0u8; 17]).unwrap();
    let unsorted = dir.join("unsorted.bin");
    let mut bytes = Vec::new();
    for key in [2u64, 1] {
        bytes.extend_from_slice(&key.to_be_bytes());
        bytes.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 0]);
    }
    std::fs::write(&unsorted, bytes).unwrap();
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, []).unwrap();
    let missing = dir.join("missing.bin");
    for (path, needle) in [
        (&truncated, "not a multiple of 16"),
        (&unsorted, "sorted by key"),
        (&empty, "is empty"),
        (&missing, "cannot read book file"),
    ] {
        let lines = with_book(path, &["position startpos", "go depth 2"]);
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{lines:?}");
        assert!(errs[0].contains(needle), "{errs:?}");
        assert!(errs[0].contains("playing without a book"), "{errs:?}");
        assert!(!lines.iter().any(|l| l.contains("book move")));
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1, "{lines:?}");
        assert!(Position::startpos().parse_uci_move(best[0]).is_ok());
    }
    // A file larger than any book (a disk image given by mistake) is refused at once: it
    // was read whole, holding the command loop for minutes and the memory twice over. (A
    // sparse file: no disk space used.)
    let huge = dir.join("huge.bin");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(lull::book::MAX_BOOK_BYTES + 16)
        .unwrap();
    let start = Instant::now();
    let lines = with_book(&huge, &["isready"]);
    let took = start.elapsed();
    std::fs::remove_file(&huge).unwrap();
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "{lines:?}");
    assert!(errs[0].contains("more than the 2048 MiB"), "{errs:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // A good book after a bad one is used; an empty value unloads it.
    let good = dir.join("good.bin");
    build(&games_pgn(), &good, &["--min-games", "1"]);
    let lines = uci(&[
        "setoption name OwnBook value true".to_string(),
        format!("setoption name BookFile value {}", missing.display()),
        format!("setoption name BookFile value {}", good.display()),
        "go depth 2".to_string(),
        "setoption name BookFile value <empty>".to_string(),
        "go depth 2".to_string(),
    ]);
    assert_eq!(errors(&lines).len(), 1);
    let entries = Book::open(&good).unwrap().len();
    let loaded = format!(
        "info string book {} loaded: {entries} entries",
        good.display()
    );
    assert!(lines.contains(&loaded), "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string book move"))
            .count(),
        1,
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 2);
}

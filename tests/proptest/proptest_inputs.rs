//! Random and mutated input for every parser of outside text: the UCI and XBoard
//! line parsers, FEN, EPD, PGN, Polyglot books and network files (`EvalFile`). Each property says that the parser does not
//! panic (nor makes a panic that something catches) and that what it accepts is consistent:
//! fields in range, FENs that read back to the same position, moves that are legal, books in
//! key order that probe to legal moves.
//!
//! The default run tries 1,000 cases of each property; each has an ignored companion of
//! 100,000 (`cargo test --profile ci --test proptest proptest_inputs:: -- --ignored prop_`). The inputs that
//! once made a parser panic are kept as plain tests at the end.

use crate::fuzz;

use fuzz::protocol::{uci_lines, xboard_lines};
use fuzz::{
    check, mutated, mutated_bytes, random_text, seed_fens, token_line, CASES, CASES_IGNORED,
    FEN_ALPHABET,
};
use lull::book::build::{BookBuilder, BuildOptions};
use lull::book::pgn::PgnReader;
use lull::book::{encode_move, polyglot_key, write_entries, Book, Entry};
use lull::cozy_chess::{Board, File, Move};
use lull::epd::parse_epd;
use lull::nnue::Network;
use lull::options::{MAX_HASH, MAX_THREADS};
use lull::params::{MATE_BOUND, MAX_DEPTH};
use lull::position::{move_to_uci, parse_fen, parse_uci_move, Position};
use lull::protocol::uci::{self, PositionStart, UciCommand};
use lull::protocol::xboard::{self, TimeControl, XboardCommand};
use lull::protocol::MAX_GO_MS;
use lull::san::{move_to_san, parse_san};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;

// ---------------------------------------------------------------------------------------------
// UCI

/// `uci::parse` does not panic, ignores how words are spaced, and keeps every field in range.
fn uci_parse_is_consistent(line: String) -> Result<(), TestCaseError> {
    let parsed = uci::parse(&line);
    let words: Vec<&str> = line.split_whitespace().collect();
    prop_assert_eq!(&parsed, &uci::parse(&words.join(" ")));
    prop_assert_eq!(words.is_empty(), parsed == Err("empty line".to_string()));
    let Ok(command) = parsed else {
        return Ok(());
    };
    let single_words = |w: &[String]| {
        w.iter()
            .all(|m| !m.is_empty() && !m.contains(char::is_whitespace))
    };
    match command {
        UciCommand::SetOption { name, value } => {
            prop_assert!(!name.is_empty() && name.split(' ').all(|w| !w.is_empty()));
            prop_assert!(value.is_none_or(|v| !v.is_empty()));
        }
        UciCommand::Position { start, moves } => {
            prop_assert!(single_words(&moves));
            if let PositionStart::Fen(fen) = start {
                prop_assert!(fen.split(' ').all(|w| w != "moves"));
            }
        }
        UciCommand::Go(p) => {
            let ms = [
                p.limits.wtime,
                p.limits.btime,
                p.limits.winc,
                p.limits.binc,
                p.limits.movetime,
            ];
            prop_assert!(ms.iter().flatten().all(|&t| t <= MAX_GO_MS));
            prop_assert!([p.limits.movestogo, p.limits.nodes]
                .iter()
                .flatten()
                .all(|&n| n >= 1));
            let depths = [p.limits.depth, p.limits.mate];
            prop_assert!(depths.iter().flatten().all(|d| (1..=MAX_DEPTH).contains(d)));
            prop_assert!(single_words(&p.searchmoves));
            prop_assert!(p.warnings.iter().all(|(at, _)| *at <= p.searchmoves.len()));
        }
        UciCommand::GoPerft { depth } => prop_assert!((1..=10).contains(&depth)),
        UciCommand::Bench { depth } => prop_assert!((1..=MAX_DEPTH).contains(&depth)),
        _ => {}
    }
    Ok(())
}

#[test]
fn prop_uci_parse() {
    check(CASES, uci_lines(), uci_parse_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_uci_parse_100k() {
    check(CASES_IGNORED, uci_lines(), uci_parse_is_consistent);
}

// ---------------------------------------------------------------------------------------------
// XBoard

/// `xboard::parse` does not panic and keeps every field in range.
fn xboard_parse_is_consistent(line: String) -> Result<(), TestCaseError> {
    let parsed = xboard::parse(&line);
    prop_assert_eq!(&parsed, &xboard::parse(line.trim()));
    let command = match parsed {
        Ok(command) => command,
        Err(bad) => {
            prop_assert!(!bad.why.is_empty());
            return Ok(());
        }
    };
    let trimmed = |s: &str| s == s.trim();
    match command {
        XboardCommand::Usermove(mv) => {
            prop_assert!(!mv.is_empty() && !mv.contains(char::is_whitespace))
        }
        XboardCommand::SetBoard(fen) => prop_assert!(!fen.is_empty() && trimmed(&fen)),
        XboardCommand::Level(TimeControl::Level {
            base_ms, inc_ms, ..
        }) => prop_assert!(base_ms <= MAX_GO_MS && inc_ms <= MAX_GO_MS),
        XboardCommand::Level(TimeControl::PerMove(_)) => {
            prop_assert!(false, "level made a per-move clock")
        }
        XboardCommand::St(ms) => prop_assert!((1..=MAX_GO_MS).contains(&ms)),
        XboardCommand::Sd(d) => prop_assert!((1..=MAX_DEPTH).contains(&d)),
        XboardCommand::Time(ms) | XboardCommand::Otim(ms) => prop_assert!(ms <= MAX_GO_MS),
        XboardCommand::Ping(n) => prop_assert!(trimmed(&n)),
        XboardCommand::Memory(m) => prop_assert!((1..=MAX_HASH).contains(&m)),
        XboardCommand::Cores(n) => prop_assert!((1..=MAX_THREADS).contains(&n)),
        _ => {}
    }
    Ok(())
}

#[test]
fn prop_xboard_parse() {
    check(CASES, xboard_lines(), xboard_parse_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_xboard_parse_100k() {
    check(CASES_IGNORED, xboard_lines(), xboard_parse_is_consistent);
}

// ---------------------------------------------------------------------------------------------
// FEN

/// Random text, FEN-like token lines and mutated FENs of the test suites.
fn fens() -> BoxedStrategy<String> {
    let words = vec![
        "w", "b", "-", "KQkq", "HAha", "Kq", "e3", "e6", "a1", "0", "1", "99", "100", "8", "/",
        "k", "K", "p", "P", "Q",
    ];
    let ranks = proptest::string::string_regex("[pnbrqkPNBRQK1-8]{1,9}").unwrap();
    let board = vec(ranks, 6..=9).prop_map(|r| r.join("/"));
    let rest = token_line(words.clone(), 6);
    prop_oneof![
        1 => random_text(100),
        2 => (board, rest).prop_map(|(b, r)| format!("{b} {r}")),
        6 => mutated(seed_fens(), FEN_ALPHABET, words, 4),
    ]
    .boxed()
}

/// What a board must satisfy wherever it came from: its FEN (X-FEN and Shredder-FEN) reads
/// back to the same position, and every legal move survives SAN and UCI notation.
fn board_is_consistent(board: &Board) -> Result<(), TestCaseError> {
    let pos = Position::from_board(board.clone());
    for chess960 in [false, true] {
        let mut pos = pos.clone();
        pos.set_chess960(chess960);
        let fen = pos.fen();
        let again = Position::from_fen(&fen);
        prop_assert!(again.is_ok(), "{} does not read back: {:?}", fen, again);
        let again = again.unwrap();
        prop_assert_eq!(again.hash(), pos.hash(), "{}", fen);
        prop_assert_eq!(again.board(), pos.board(), "{}", fen);
    }
    lull::eval::evaluate(board);
    polyglot_key(board);
    let mut moves: Vec<Move> = Vec::new();
    board.generate_moves(|list| {
        moves.extend(list);
        false
    });
    for mv in moves {
        let san = move_to_san(board, mv);
        prop_assert_eq!(parse_san(board, &san), Ok(mv), "SAN {}", san);
        let text = move_to_uci(board, mv, true);
        prop_assert_eq!(parse_uci_move(board, &text, true), Ok(mv), "UCI {}", text);
        // Standard notation writes castling as the king's step, which in a Chess960 setup
        // can be a plain king move too (Kf1-g1 with the rook on h1) or no move (the king on
        // g1 already): only a king on the e-file castles in standard notation.
        let king_from_e = mv.from.file() == File::E && board.king(board.side_to_move()) == mv.from;
        let castles = board.colors(board.side_to_move()).has(mv.to);
        if castles && !king_from_e {
            continue;
        }
        let text = move_to_uci(board, mv, false);
        let back = parse_uci_move(board, &text, false);
        prop_assert!(back.is_ok(), "UCI {} does not read back: {:?}", text, back);
        prop_assert_eq!(move_to_uci(board, back.unwrap(), false), text);
    }
    Ok(())
}

/// `Position::from_fen` does not panic, agrees with `parse_fen`, and what it accepts is a
/// consistent board.
fn fen_is_consistent(fen: String) -> Result<(), TestCaseError> {
    let parsed = Position::from_fen(&fen);
    let board = parse_fen(&fen);
    prop_assert_eq!(parsed.is_ok(), board.is_ok());
    if let Ok(pos) = parsed {
        prop_assert_eq!(pos.board(), &board.unwrap());
        board_is_consistent(pos.board())?;
    }
    Ok(())
}

#[test]
fn prop_fen() {
    check(CASES, fens(), fen_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_fen_100k() {
    check(CASES_IGNORED, fens(), fen_is_consistent);
}

// ---------------------------------------------------------------------------------------------
// EPD

/// The lines of the WAC suite, alone and in runs of three.
fn epd_seeds() -> Vec<String> {
    let lines: Vec<&str> = include_str!("../../assets/wac.epd").lines().collect();
    let mut seeds: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    seeds.extend(lines.chunks(3).map(|c| c.join("\n")));
    seeds.push("# a comment\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 bm O-O; am Rh8+; id \"x\";".into());
    seeds
}

/// Random text, EPD token lines and mutated WAC records.
fn epds() -> BoxedStrategy<String> {
    let words = vec![
        "bm",
        "am",
        "id",
        "c0",
        "acd",
        ";",
        "\"",
        "\"WAC.001\"",
        "#",
        "\n",
        "\r\n",
        "Qg6",
        "O-O",
        "e8=Q+",
        "Nbd7",
        "1",
        "0",
    ];
    let fen_and_ops = (select(seed_fens()), token_line(words.clone(), 10))
        .prop_map(|(f, ops)| format!("{f} {ops}"));
    prop_oneof![
        1 => random_text(200),
        2 => fen_and_ops,
        6 => mutated(epd_seeds(), b" ;\"#abcdefgh12345678NBRQKx+=-O\n", words, 6),
    ]
    .boxed()
}

/// `parse_epd` does not panic; each line gives a record, an error or nothing, in order, and a
/// record's FEN reads to its board, on which its moves are legal.
fn epd_is_consistent(text: String) -> Result<(), TestCaseError> {
    let (records, errors) = parse_epd(&text);
    let lines = text.lines().count();
    prop_assert!(records.len() + errors.len() <= lines);
    prop_assert!(records.windows(2).all(|w| w[0].line < w[1].line));
    prop_assert!(errors.windows(2).all(|w| w[0].line < w[1].line));
    prop_assert!(errors.iter().all(|e| (1..=lines).contains(&e.line)));
    for r in &records {
        prop_assert!((1..=lines).contains(&r.line));
        prop_assert!(errors.iter().all(|e| e.line != r.line));
        let pos = Position::from_fen(&r.fen);
        prop_assert!(pos.is_ok(), "record FEN {} does not read", r.fen);
        prop_assert_eq!(pos.unwrap().board().clone(), r.board.clone());
        prop_assert!(r.bm.iter().chain(&r.am).all(|&m| r.board.is_legal(m)));
        r.label();
    }
    Ok(())
}

#[test]
fn prop_epd() {
    check(CASES, epds(), epd_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_epd_100k() {
    check(CASES_IGNORED, epds(), epd_is_consistent);
}

// ---------------------------------------------------------------------------------------------
// PGN

/// The repository's PGN whole and game by game.
fn pgn_seeds() -> Vec<String> {
    let text = include_str!("../../assets/games.pgn");
    let mut seeds = vec![text.to_string()];
    let mut game = String::new();
    for line in text.lines() {
        if line.starts_with("[Event ") && !game.is_empty() {
            seeds.push(std::mem::take(&mut game));
        }
        game.push_str(line);
        game.push('\n');
    }
    seeds.push(game);
    seeds
}

/// The words of PGN: tag pairs, move numbers, SAN, comments, variations, NAGs, results.
const PGN_WORDS: &[&str] = &[
    "[Event \"x\"]\n",
    "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n",
    "[SetUp \"1\"]\n",
    "[Variant \"Chess960\"]\n",
    "[Variant \"crazyhouse\"]\n",
    "[Result \"1-0\"]\n",
    "[",
    "]",
    "\"",
    "\n",
    "\n\n",
    "1.",
    "2...",
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "O-O",
    "O-O-O",
    "exd5",
    "e8=Q",
    "Qxh7#",
    "Rxd7+",
    "{",
    "}",
    "(",
    ")",
    "$1",
    "!?",
    ";",
    "%",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "--",
];

/// Mutated games of the repository's PGN, PGN token texts and random bytes.
fn pgns() -> BoxedStrategy<Vec<u8>> {
    let words = PGN_WORDS.to_vec();
    let tokens = token_line(words.clone(), 60).prop_map(String::into_bytes);
    prop_oneof![
        1 => vec(any::<u8>(), 0..300),
        1 => random_text(300).prop_map(String::into_bytes),
        2 => tokens,
        6 => mutated_bytes(pgn_seeds().into_iter().map(String::into_bytes).collect(), b" \n[]\"{}()$.;abcdefgh12345678NBRQKx+#=-O", words, 8),
    ]
    .boxed()
}

/// The PGN reader does not panic and ends; each game's moves replay legally or the replay
/// says why not; a book built from the games is in key order.
fn pgn_is_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let lines = bytes.split(|&b| b == b'\n').count();
    let mut reader = PgnReader::new(bytes.as_slice());
    let mut builder = BookBuilder::new(BuildOptions {
        max_ply: 1000,
        min_games: 1,
    });
    let mut games = 0;
    while let Some(game) = reader.next_game().expect("reading from memory cannot fail") {
        games += 1;
        prop_assert!(
            games <= lines,
            "more games than lines: the reader does not end"
        );
        prop_assert_eq!(game.number, games);
        prop_assert!((1..=lines).contains(&game.line));
        match game.replay(usize::MAX) {
            Ok(plies) => {
                prop_assert_eq!(plies.len(), game.moves.len());
                prop_assert!(plies.iter().all(|(board, mv)| board.is_legal(*mv)));
                prop_assert!(game.start_board().is_ok());
            }
            Err(e) => prop_assert!(!e.is_empty()),
        }
        let _ = builder.add_game(&game);
    }
    prop_assert_eq!(reader.bytes_read(), bytes.len() as u64);
    let (entries, summary) = builder.finish();
    prop_assert_eq!(summary.games + summary.skipped, games);
    prop_assert!(Book::from_entries(entries).is_ok());
    Ok(())
}

#[test]
fn prop_pgn() {
    check(CASES, pgns(), pgn_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_pgn_100k() {
    check(CASES_IGNORED, pgns(), pgn_is_consistent);
}

// ---------------------------------------------------------------------------------------------
// Polyglot

/// The boards a book is built for and probed in: the start, every position after one move,
/// and positions with castling, promotions and en passant.
fn book_boards() -> Vec<Board> {
    let mut boards = vec![Board::default()];
    let mut first: Vec<Move> = Vec::new();
    Board::default().generate_moves(|list| {
        first.extend(list);
        false
    });
    for mv in first {
        let mut b = Board::default();
        b.play(mv);
        boards.push(b);
    }
    for fen in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ] {
        boards.push(parse_fen(fen).unwrap());
    }
    boards
}

/// A valid book: every legal move of [`book_boards`], weights 1 to 16, in key order.
fn valid_book() -> Vec<u8> {
    let mut entries = Vec::new();
    for board in book_boards() {
        let mut n = 0u16;
        board.generate_moves(|list| {
            for mv in list {
                n += 1;
                entries.push(Entry {
                    key: polyglot_key(&board),
                    code: encode_move(mv),
                    weight: n % 17,
                    learn: u32::from(n),
                });
            }
            false
        });
    }
    entries.sort_by_key(|e| e.key);
    let mut bytes = Vec::new();
    write_entries(&mut bytes, &entries).unwrap();
    bytes
}

/// Random bytes, random entries (sorted or not, keys of the probed boards or any) and
/// mutated valid books.
fn books() -> BoxedStrategy<Vec<u8>> {
    let keys: Vec<u64> = book_boards().iter().map(polyglot_key).collect();
    let key = prop_oneof![select(keys), any::<u64>()];
    let entry =
        (key, any::<u16>(), any::<u16>(), any::<u32>()).prop_map(|(key, code, weight, learn)| {
            Entry {
                key,
                code,
                weight,
                learn,
            }
        });
    let entries = (vec(entry, 0..40), any::<bool>()).prop_map(|(mut entries, sort)| {
        if sort {
            entries.sort_by_key(|e| e.key);
        }
        let mut bytes = Vec::new();
        write_entries(&mut bytes, &entries).unwrap();
        bytes
    });
    let binary: &'static [u8] = &[0, 1, 2, 0x10, 0x40, 0x7f, 0x80, 0xff];
    prop_oneof![
        1 => vec(any::<u8>(), 0..200),
        3 => entries,
        4 => mutated_bytes(vec![valid_book()], binary, vec!["\0", "\u{ff}"], 6),
    ]
    .boxed()
}

/// `Book::from_bytes` does not panic; it accepts exactly the whole-entry books in key order,
/// and a book probes to legal moves only, with choices among them.
fn book_is_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let book = match Book::from_bytes(&bytes) {
        Ok(book) => book,
        Err(e) => {
            prop_assert!(!e.is_empty());
            if bytes.len().is_multiple_of(16) {
                let keys: Vec<u64> = bytes
                    .chunks_exact(16)
                    .map(|c| u64::from_be_bytes(c[..8].try_into().unwrap()))
                    .collect();
                prop_assert!(
                    keys.windows(2).any(|w| w[1] < w[0]),
                    "a sorted book refused: {}",
                    e
                );
            }
            return Ok(());
        }
    };
    prop_assert_eq!(book.len() * 16, bytes.len());
    let mut again = Vec::new();
    write_entries(&mut again, book.entries()).unwrap();
    prop_assert_eq!(&again, &bytes);
    for board in book_boards() {
        let probe = book.probe(&board);
        prop_assert_eq!(probe.key, polyglot_key(&board));
        prop_assert_eq!(
            probe.moves.len() + probe.ignored,
            book.entries_for(probe.key).len()
        );
        prop_assert!(probe.moves.iter().all(|m| board.is_legal(m.mv)));
        for (best, random) in [(true, 0), (false, 0), (false, u64::MAX), (false, 12345)] {
            if let Some(choice) = probe.choose(best, random) {
                prop_assert!(choice.weight > 0 && probe.moves.contains(&choice));
            } else {
                prop_assert_eq!(probe.total_weight(), 0);
            }
        }
    }
    Ok(())
}

#[test]
fn prop_polyglot() {
    check(CASES, books(), book_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_polyglot_100k() {
    check(CASES_IGNORED, books(), book_is_consistent);
}

// ---------------------------------------------------------------------------------------------
// Network files (`EvalFile`)

/// A valid network file of the specification (docs/nnue.md) with N = 16 and small
/// pseudo-random weights (the output weights within the loader's +/- 128): format version 1
/// with one output bucket.
fn valid_net() -> Vec<u8> {
    valid_net_with_buckets(1)
}

/// [`valid_net`] with `buckets` output buckets (1: version 1; 8: version 2, the bucket count
/// after the header, eight output layers).
fn valid_net_with_buckets(buckets: usize) -> Vec<u8> {
    const N: usize = 16;
    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"LULLNNUE");
    let version = if buckets == 1 { 1u32 } else { 2 };
    for field in [version, N as u32, 255, 64, 400] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    if buckets != 1 {
        bytes.extend_from_slice(&(buckets as u32).to_le_bytes());
    }
    let mut x: u32 = 12345;
    let mut next = |range: i32| {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        ((x >> 16) as i32 % (2 * range + 1)) - range
    };
    for _ in 0..(768 * N + N) {
        bytes.extend_from_slice(&(next(60) as i16).to_le_bytes());
    }
    for _ in 0..(2 * N * buckets) {
        bytes.extend_from_slice(&(next(100) as i16).to_le_bytes());
    }
    for _ in 0..buckets {
        bytes.extend_from_slice(&(next(5000)).to_le_bytes());
    }
    bytes
}

/// Random bytes, a valid header with a random body, and mutated valid networks.
fn nets() -> BoxedStrategy<Vec<u8>> {
    let header: Vec<u8> = valid_net()[..28].to_vec();
    let binary: &'static [u8] = &[0, 1, 2, 0x10, 0x40, 0x7f, 0x80, 0xff];
    prop_oneof![
        1 => vec(any::<u8>(), 0..200),
        1 => vec(any::<u8>(), 0..30_000).prop_map(move |body| {
            let mut bytes = header.clone();
            bytes.extend(body);
            bytes
        }),
        4 => mutated_bytes(
            vec![valid_net(), valid_net_with_buckets(8)],
            binary,
            vec!["\0", "LULLNNUE"],
            6
        ),
    ]
    .boxed()
}

/// `Network::from_bytes` does not panic; a network it accepts writes back to the same bytes
/// and evaluates positions to scores that are not mate scores.
fn net_is_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let net = match Network::from_bytes(&bytes) {
        Ok(net) => net,
        Err(e) => {
            prop_assert!(!e.is_empty());
            return Ok(());
        }
    };
    prop_assert_eq!(net.to_bytes(), bytes);
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
    ] {
        let score = net.evaluate(&parse_fen(fen).unwrap());
        prop_assert!(score.abs() < MATE_BOUND, "{}", score);
    }
    Ok(())
}

#[test]
fn prop_eval_file() {
    check(CASES, nets(), net_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_eval_file_100k() {
    check(CASES_IGNORED, nets(), net_is_consistent);
}

/// The seed of the network mutations is a network, and the property holds for it.
#[test]
fn the_valid_net_is_a_net() {
    let bytes = valid_net();
    assert!(Network::from_bytes(&bytes).is_ok());
    assert!(net_is_consistent(bytes).is_ok());
    let bytes = valid_net_with_buckets(8);
    assert_eq!(Network::from_bytes(&bytes).unwrap().output_buckets(), 8);
    assert!(net_is_consistent(bytes).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Regression inputs: every input that once made a parser panic.

/// The seed of the book mutations is a valid book, and the property holds for it.
#[test]
fn the_valid_book_is_a_book() {
    let bytes = valid_book();
    let book = Book::from_bytes(&bytes).unwrap();
    assert!(book.len() > 400);
    assert_eq!(book.probe(&Board::default()).moves.len(), 20);
    assert!(book_is_consistent(bytes).is_ok());
}

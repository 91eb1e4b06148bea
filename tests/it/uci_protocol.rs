//! Drives the real `lull` binary over UCI: protocol basics, search control (`stop`, `quit`,
//! ponder, closed input) and the handling of bad input. Every bad command must get one
//! `info string error: …` line naming what was wrong, and the engine must stay usable with
//! its previous state.
//!
//! Each test owns one engine process (`common::EngineProcess`: every wait has a deadline, and
//! the process is killed when the test ends, also when it fails). The few tests that measure
//! latency take an exclusive lock so that the other tests' searches do not run beside them.

use crate::common;

use std::ops::{Deref, DerefMut};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread;
use std::time::{Duration, Instant};

use common::EngineProcess;
use lull::position::Position;

/// `protocol::MAX_LINE`: the longest accepted input line, in bytes.
const MAX_LINE: usize = 1 << 20;
/// Required `stop` latency is 50 ms; the tests allow this much on a loaded 2-core machine.
const STOP_SLACK: Duration = Duration::from_millis(500);

/// A position that is neither the start position nor on the way to the bad commands' ones,
/// with Black to move: a best move legal here is illegal in the start position.
const PRIOR_MOVES: &str = "d2d4 g8f6 c2c4";
const PRIOR_FEN: &str = "rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2";
/// Italian game, White to move with both castlings right available on the king side.
const ITALIAN_MOVES: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
/// Fool's mate: White is checkmated.
const FOOLS_MATE: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// Black is stalemated.
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";

/// Latency tests hold this exclusively, every other test holds it shared.
static TIMING: RwLock<()> = RwLock::new(());

enum Guard {
    Shared(#[allow(dead_code)] RwLockReadGuard<'static, ()>),
    Exclusive(#[allow(dead_code)] RwLockWriteGuard<'static, ()>),
}

/// One running engine (see [`EngineProcess`]) and its place among the timing tests.
struct Engine {
    process: EngineProcess,
    _guard: Guard,
}

impl Deref for Engine {
    type Target = EngineProcess;
    fn deref(&self) -> &EngineProcess {
        &self.process
    }
}

impl DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut EngineProcess {
        &mut self.process
    }
}

impl Engine {
    /// Starts an engine beside the other non-timing tests.
    fn start() -> Self {
        let guard = TIMING.read().unwrap_or_else(|e| e.into_inner());
        Self::spawn(Guard::Shared(guard))
    }

    /// Starts an engine alone (for latency measurements).
    fn start_alone() -> Self {
        let guard = TIMING.write().unwrap_or_else(|e| e.into_inner());
        Self::spawn(Guard::Exclusive(guard))
    }

    fn spawn(guard: Guard) -> Self {
        Self {
            process: EngineProcess::spawn(&[]),
            _guard: guard,
        }
    }

    /// Sends `isready` and returns every line printed before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.wait_for("readyok", |l| l == "readyok").0
    }

    /// Sends `cmd` and checks that it produces exactly one error line containing `needle`
    /// (and nothing else of note before `readyok`). Returns the error line.
    fn expect_error(&mut self, cmd: &str, needle: &str) -> String {
        self.send(cmd);
        self.expect_error_sent(&shorten(cmd), needle)
    }

    /// Like [`Engine::expect_error`], for input already sent.
    fn expect_error_sent(&mut self, what: &str, needle: &str) -> String {
        let lines = self.sync();
        let errors = errors(&lines);
        assert_eq!(
            errors.len(),
            1,
            "'{what}' should give exactly one error line, got {errors:?}\n--- transcript ---\n{}",
            self.tail()
        );
        assert!(
            errors[0].contains(needle),
            "'{what}': error line {:?} does not mention {needle:?}",
            errors[0]
        );
        for l in &lines {
            assert!(
                !l.starts_with("bestmove") && !l.starts_with("id ") && l != "uciok",
                "'{what}' gave unexpected output {l:?}"
            );
        }
        errors[0].clone()
    }

    /// Sends `cmd` and checks that it gives no error line.
    fn expect_ok(&mut self, cmd: &str) {
        self.send(cmd);
        let lines = self.sync();
        let errors = errors(&lines);
        assert!(
            errors.is_empty(),
            "'{}' should be accepted, got {errors:?}",
            shorten(cmd)
        );
    }

    /// The FEN printed by `d`.
    fn fen(&mut self) -> String {
        self.send("d");
        let (_, line) = self.wait_for("the Fen: line of 'd'", |l| l.starts_with("Fen: "));
        line["Fen: ".len()..].to_string()
    }

    /// Waits for the next `bestmove` line; returns it with the lines before it.
    fn bestmove(&mut self) -> (Vec<String>, String) {
        self.wait_for("bestmove", |l| l.starts_with("bestmove"))
    }

    /// Reads lines into `lines` until it holds `n` bestmoves, each legal in `pos`.
    fn wait_bestmoves(&mut self, lines: &mut Vec<String>, n: usize, pos: &Position) {
        while count_bestmoves(lines) < n {
            let (before, line) = self.bestmove();
            lines.extend(before);
            check_bestmove(pos, &line);
            lines.push(line);
        }
    }

    /// Checks that the engine answers `isready`, that `d` shows `fen` and that a depth-1
    /// search finds a move legal in `fen`.
    fn assert_state(&mut self, fen: &str) {
        let lines = self.sync();
        assert!(errors(&lines).is_empty(), "unexpected errors: {lines:?}");
        assert_eq!(self.fen(), fen, "the position changed");
        self.send("go depth 1");
        let (before, line) = self.bestmove();
        assert!(
            errors(&before).is_empty(),
            "go depth 1 gave errors: {before:?}"
        );
        check_bestmove(&Position::from_fen(fen).unwrap(), &line);
        let after = self.sync();
        assert_eq!(count_bestmoves(&after), 0, "a second bestmove: {after:?}");
    }

    /// Checks the state after a refused `position`: `d` still shows `fen`, but `go` searches
    /// nothing (a move for a position the GUI did not send): one error and `bestmove 0000`,
    /// also for a search that would wait for `stop`; `go perft` counts nothing. A valid
    /// `position` then searches again.
    fn assert_refused(&mut self, fen: &str) {
        let lines = self.sync();
        assert!(errors(&lines).is_empty(), "unexpected errors: {lines:?}");
        assert_eq!(self.fen(), fen, "the position changed");
        for go in ["go depth 1", "go infinite", "go ponder"] {
            self.send(go);
            let (before, line) = self.bestmove();
            let errs = errors(&before);
            assert_eq!(errs.len(), 1, "{go}: {before:?}");
            assert!(errs[0].contains("no position to search"), "{go}: {errs:?}");
            assert_eq!(line, "bestmove 0000", "{go}");
            let after = self.sync();
            assert_eq!(count_bestmoves(&after), 0, "{go}: {after:?}");
        }
        self.send("go perft 1");
        let lines = self.sync();
        assert_eq!(errors(&lines).len(), 1, "{lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("Nodes")), "{lines:?}");
        self.expect_ok(&format!("position fen {fen}"));
        self.assert_state(fen);
    }

    /// Sets up the prior position and checks it.
    fn prior_position(&mut self) {
        self.expect_ok(&format!("position startpos moves {PRIOR_MOVES}"));
        assert_eq!(self.fen(), PRIOR_FEN);
    }
}

fn shorten(s: &str) -> String {
    if s.len() > 100 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(100).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s.to_string()
    }
}

fn errors(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .cloned()
        .collect()
}

fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// The start position after some moves in UCI notation.
fn startpos_after(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for m in moves.split_whitespace() {
        let mv = pos.parse_uci_move(m).unwrap();
        pos.play(mv);
    }
    pos
}

/// Checks `bestmove <move> [ponder <move>]`: the move is legal in `pos` and the ponder move
/// legal after it. Returns the move.
fn check_bestmove(pos: &Position, line: &str) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert!(
        tokens.len() == 2 || (tokens.len() == 4 && tokens[2] == "ponder"),
        "malformed bestmove line {line:?}"
    );
    assert_eq!(tokens[0], "bestmove");
    let mv = pos
        .parse_uci_move(tokens[1])
        .unwrap_or_else(|e| panic!("{line:?} in {}: {e}", pos.fen()));
    if tokens.len() == 4 {
        let mut after = pos.clone();
        after.play(mv);
        after
            .parse_uci_move(tokens[3])
            .unwrap_or_else(|e| panic!("ponder move of {line:?} in {}: {e}", after.fen()));
    }
    tokens[1].to_string()
}

// ---------------------------------------------------------------------------------------------
// Bad input lines
// ---------------------------------------------------------------------------------------------

#[test]
fn unknown_command_is_reported_and_ignored() {
    let mut e = Engine::start();
    e.prior_position();
    e.expect_error("xyzzy e2e4", "unknown command 'xyzzy'");
    e.expect_error("Position startpos", "unknown command 'Position'");
    e.assert_state(PRIOR_FEN);
}

#[test]
fn empty_line_is_reported() {
    let mut e = Engine::start();
    e.prior_position();
    e.expect_error("", "empty line");
    e.expect_error(" \t  ", "empty line");
    e.send_bytes(b"\r\n");
    e.expect_error_sent("CR LF", "empty line");
    e.assert_state(PRIOR_FEN);
}

#[test]
fn over_long_line_is_rejected_whole() {
    let mut e = Engine::start();
    e.prior_position();
    // A command padded to exactly MAX_LINE bytes is still accepted…
    let mut exact = String::from("position startpos moves e2e4");
    exact.push_str(&" ".repeat(MAX_LINE - exact.len()));
    assert_eq!(exact.len(), MAX_LINE);
    e.expect_ok(&exact);
    let after_e4 = startpos_after("e2e4").fen();
    assert_eq!(e.fen(), after_e4);
    e.prior_position();
    // …one byte more and the whole line is rejected: no part of it may be obeyed.
    let mut long = String::from("position startpos moves e2e4");
    long.push_str(&" ".repeat(MAX_LINE + 1 - long.len()));
    e.expect_error(&long, "line longer than 1048576 bytes");
    // Far longer, made of words that would be commands if the line were split up.
    let long = "uci isready d ".repeat(3 * MAX_LINE / 14);
    assert!(long.len() > 2 * MAX_LINE);
    e.expect_error(&long, "line longer than");
    e.assert_state(PRIOR_FEN);
}

#[test]
fn invalid_utf8_line_is_rejected() {
    let mut e = Engine::start();
    e.prior_position();
    e.send_bytes(b"position startpos moves e2e4 \xff\xfe\n");
    e.expect_error_sent("invalid UTF-8", "not valid UTF-8");
    // A truncated multi-byte sequence in front of a good command.
    e.send_bytes(b"\xc3isready\n");
    e.expect_error_sent("truncated UTF-8", "not valid UTF-8");
    e.assert_state(PRIOR_FEN);
}

// ---------------------------------------------------------------------------------------------
// position
// ---------------------------------------------------------------------------------------------

/// Sends `position fen <fen>` after the prior position and checks the error and that the
/// prior position stays.
fn bad_fen(fen: &str, needle: &str) {
    let mut e = Engine::start();
    e.prior_position();
    let line = e.expect_error(&format!("position fen {fen}"), needle);
    assert!(line.contains("invalid FEN"), "{line:?}");
    // The same with moves after it.
    let line = e.expect_error(&format!("position fen {fen} moves e2e4"), needle);
    assert!(line.contains("invalid FEN"), "{line:?}");
    e.assert_refused(PRIOR_FEN);
}

#[test]
fn fen_garbage() {
    bad_fen("hello world", "1 rank, not 8");
}

#[test]
fn fen_missing_fields() {
    bad_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "fields");
    let mut e = Engine::start();
    for (line, needle) in [
        ("position fen", "fields"),
        ("position", "'startpos' or 'fen"),
        ("position start", "'startpos' or 'fen'"),
        ("position startpos e2e4", "takes no further fields"),
    ] {
        e.prior_position();
        e.expect_error(line, needle);
        e.assert_refused(PRIOR_FEN);
    }
}

#[test]
fn fen_wrong_piece_letter() {
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "'X'",
    );
}

#[test]
fn fen_nine_squares_in_a_rank() {
    bad_fen(
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 7 has 9 squares",
    );
    bad_fen("4k3/9/8/8/8/8/8/4K3 w - - 0 1", "rank 7 has 9 squares");
}

#[test]
fn fen_seven_squares_or_ranks() {
    bad_fen(
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 7 has 7 squares",
    );
    // Seven ranks: cozy-chess alone reads this as a board with an empty eighth rank.
    bad_fen("4k3/8/8/8/8/8/4K3 w - - 0 1", "7 ranks");
    bad_fen("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "9 ranks");
}

#[test]
fn fen_missing_king() {
    bad_fen(
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "black has no king",
    );
    bad_fen("8/8/8/8/8/8/8/8 w - - 0 1", "has no king");
    bad_fen("kk6/8/8/8/8/8/8/K7 w - - 0 1", "black has 2 kings");
}

#[test]
fn fen_pawn_on_back_rank() {
    bad_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on rank 8");
}

#[test]
fn fen_side_not_to_move_in_check() {
    bad_fen("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "black is in check");
    bad_fen(
        "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
        "black is in check",
    );
}

#[test]
fn fen_bad_side_to_move() {
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "side to move",
    );
}

#[test]
fn fen_bad_castling() {
    // Rights without the rooks, and a field that is not castling rights at all.
    bad_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "castling");
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w XYZ - 0 1",
        "castling",
    );
}

#[test]
fn fen_bad_en_passant() {
    // A field that is no square (an en-passant square no pawn can use is dropped: see
    // `fens_that_stockfish_and_python_chess_accept_are_accepted`).
    bad_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "en passant",
    );
    bad_fen("4k3/8/8/8/8/8/8/4K3 w - e 0 1", "en passant");
}

#[test]
fn fen_bad_counters() {
    // Negative or not numbers: python-chess refuses them too.
    bad_fen(
        "4k3/8/8/8/8/8/8/R3K3 w - - -1 80",
        "halfmove clock '-1' is negative",
    );
    bad_fen(
        "4k3/8/8/8/8/8/8/R3K3 w - - x 80",
        "halfmove clock 'x' is not a number",
    );
    bad_fen(
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 -2",
        "fullmove number '-2' is negative",
    );
    bad_fen(
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1.5",
        "fullmove number '1.5' is not",
    );
}

/// What Stockfish and python-chess both accept: a halfmove clock above 100 (the fifty-move
/// rule applies; written back as given), a fullmove number of 0 (read as 1) or beyond 65535, counters
/// with a plus sign, and an en-passant square no pawn can use (dropped). The position is the
/// one sent, and `go` searches it (it used to search the previous one).
#[test]
fn fens_that_stockfish_and_python_chess_accept_are_accepted() {
    let mut e = Engine::start();
    e.prior_position();
    for (fen, read) in [
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 150 80",
            "4k3/8/8/8/8/8/8/R3K3 w - - 150 80",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 3 0",
            "4k3/8/8/8/8/8/8/R3K3 w - - 3 1",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 99999999999999999999999 99999999",
            "4k3/8/8/8/8/8/8/R3K3 w - - 100 65535",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - +7 +9",
            "4k3/8/8/8/8/8/8/R3K3 w - - 7 9",
        ),
        // Wrong rank for the side to move; no pawn that just moved.
        (
            "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
        // A usable one is kept.
        (
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        ),
    ] {
        e.expect_ok(&format!("position fen {fen}"));
        assert_eq!(e.fen(), read, "{fen}");
        e.send("go depth 2");
        let (before, line) = e.bestmove();
        assert!(errors(&before).is_empty(), "{fen}: {before:?}");
        check_bestmove(&Position::from_fen(read).unwrap(), &line);
        e.prior_position();
    }
}

/// Move lists as GUIs and python-chess write them: extra spaces, an upper-case promotion
/// letter (Stockfish reads it), castling as the king's two-square move or as king takes rook
/// in standard chess. What neither reads stays an error.
#[test]
fn move_lists_as_guis_write_them_are_accepted() {
    let mut e = Engine::start();
    let promote = "8/P7/8/8/8/8/8/K1k5 w - - 0 1";
    for (moves, fen) in [
        ("a7a8Q", "Q7/8/8/8/8/8/8/K1k5 b - - 0 1"),
        ("a7a8n", "N7/8/8/8/8/8/8/K1k5 b - - 0 1"),
        ("a7a8R", "R7/8/8/8/8/8/8/K1k5 b - - 0 1"),
    ] {
        e.expect_ok(&format!("position fen {promote} moves {moves}"));
        assert_eq!(e.fen(), fen, "{moves}");
    }
    let castled = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
    for line in [
        format!("position startpos moves {ITALIAN_MOVES} e1g1"),
        format!("position startpos moves {ITALIAN_MOVES} e1h1"),
        format!("position   startpos \t moves  {ITALIAN_MOVES}   e1g1  "),
    ] {
        e.expect_ok(&line);
        assert_eq!(e.fen(), castled, "{line}");
    }
    // The null move, as python-chess writes a board's null moves: the side to move passes.
    e.expect_ok("position startpos moves e2e4 0000 g1f3");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2"
    );
    e.send("go depth 2");
    let (_, line) = e.bestmove();
    check_bestmove(
        &Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2")
            .unwrap(),
        &line,
    );
    e.prior_position();
    // Not while in check.
    e.expect_error(
        "position startpos moves e2e4 f7f6 d1h5 0000",
        "null move '0000' while in check",
    );
    for (bad, needle) in [
        ("position startpos moves E2E4", "malformed move 'E2E4'"),
        ("position startpos moves e2e4+", "malformed move 'e2e4+'"),
        ("position startpos moves e2-e4", "malformed move 'e2-e4'"),
        (
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1f1q",
            "e1f1q",
        ),
    ] {
        e.expect_error(bad, needle);
    }
    e.assert_refused(PRIOR_FEN);
}

#[test]
fn good_fen_is_accepted() {
    let mut e = Engine::start();
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    e.expect_ok(&format!("position fen {fen}"));
    e.assert_state(fen);
    // Four-field EPD form and trailing moves.
    e.expect_ok("position fen r3k2r/8/8/8/8/8/8/R3K2R b KQkq - moves e8g8");
    assert_eq!(e.fen(), "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2");
}

/// Positions whose castling standard chess cannot write (the king off the e file, or a
/// castling rook off the a and h files), each with its castling moves in Chess960 notation.
const CHESS960_CASTLING: [(&str, [&str; 2]); 3] = [
    ("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1", ["d1a1", "d1h1"]),
    ("4k3/8/8/8/8/8/8/1RK4R w KQ - 0 1", ["c1b1", "c1h1"]),
    ("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", ["e1b1", ""]),
];

#[test]
fn fen_with_castling_standard_chess_cannot_write_needs_uci_chess960() {
    // In standard notation d1c1 was both the castle and the king's step, c1c1 a castle,
    // and the right of the b1 rook was printed back as Q (the a1 rook).
    let mut e = Engine::start();
    e.prior_position();
    for (fen, _) in CHESS960_CASTLING {
        let line = e.expect_error(&format!("position fen {fen}"), "UCI_Chess960");
        assert!(line.contains("castle"), "{line}");
        e.assert_refused(PRIOR_FEN);
    }
    // Standard castling, and rights given up, are fine.
    for fen in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1",
        "4k3/8/8/8/8/8/8/R2K3R w - - 0 1",
    ] {
        e.expect_ok(&format!("position fen {fen}"));
        assert_eq!(e.fen(), fen);
    }
    // In Chess960 mode they are positions like any other: castling is king-takes-rook, each
    // move is listed once, and `d` prints a FEN that reads back to the same position.
    e.expect_ok("setoption name UCI_Chess960 value true");
    for (fen, castles) in CHESS960_CASTLING {
        e.expect_ok(&format!("position fen {fen}"));
        let pos = Position::from_fen(fen).unwrap();
        e.send("go perft 1");
        let (lines, _) = e.wait_for("Nodes searched", |l| l.starts_with("Nodes searched"));
        let mut moves: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.split(':').next().filter(|_| l.ends_with(": 1")))
            .collect();
        assert_eq!(moves.len(), pos.legal_moves().len(), "{fen}: {lines:?}");
        for castle in castles.iter().filter(|c| !c.is_empty()) {
            assert!(moves.contains(castle), "{fen}: {castle} in {moves:?}");
        }
        moves.sort_unstable();
        moves.dedup();
        assert_eq!(moves.len(), pos.legal_moves().len(), "{fen}: a move twice");
        let shown = e.fen();
        e.expect_ok(&format!("position fen {shown}"));
        assert_eq!(e.fen(), shown);
        assert_eq!(
            Position::from_fen(&shown).unwrap().board(),
            pos.board(),
            "{fen} -> {shown}"
        );
        // The castle read back is the castle played.
        e.expect_ok(&format!("position fen {fen} moves {}", castles[0]));
        let castle = pos.parse_uci_move(castles[0]).unwrap();
        assert!(pos.is_castling(castle), "{fen}: {}", castles[0]);
        let mut after = pos.clone();
        after.play(castle);
        assert_eq!(
            Position::from_fen(&e.fen()).unwrap().board(),
            after.board(),
            "{fen} moves {}",
            castles[0]
        );
    }
}

#[test]
fn the_fen_of_d_reads_back_to_the_same_position_in_both_modes() {
    // Every Chess960 perft position and standard ones: where `position fen` accepts a FEN,
    // the FEN that `d` prints is accepted too and gives the same position (key and FEN).
    let mut e = Engine::start();
    let frc = include_str!("../../assets/perft/frc_perftsuite.epd");
    let standard = include_str!("../../assets/perft/ethereal_standard.epd");
    let fens: Vec<&str> = frc
        .lines()
        .step_by(4)
        .chain(standard.lines().step_by(8))
        .filter_map(|l| l.split(';').next().map(str::trim))
        .filter(|f| !f.is_empty())
        .collect();
    assert!(fens.len() > 100);
    let key = |lines: &[String]| -> String {
        lines
            .iter()
            .find(|l| l.starts_with("Key: "))
            .cloned()
            .unwrap_or_default()
    };
    let mut refused = 0;
    for chess960 in [false, true] {
        e.expect_ok(&format!("setoption name UCI_Chess960 value {chess960}"));
        for fen in &fens {
            e.send(&format!("position fen {fen}"));
            e.send("d");
            let lines = e.sync();
            if !errors(&lines).is_empty() {
                assert!(!chess960, "{fen}: {lines:?}");
                assert!(
                    errors(&lines)[0].contains("UCI_Chess960"),
                    "{fen}: {lines:?}"
                );
                refused += 1;
                continue;
            }
            let shown = lines
                .iter()
                .find_map(|l| l.strip_prefix("Fen: "))
                .unwrap_or_else(|| panic!("{fen}: no Fen line in {lines:?}"))
                .to_string();
            e.send(&format!("position fen {shown}"));
            e.send("d");
            let again = e.sync();
            assert!(errors(&again).is_empty(), "{fen} -> {shown}: {again:?}");
            assert!(again.contains(&format!("Fen: {shown}")), "{fen} -> {shown}");
            assert_eq!(key(&again), key(&lines), "{fen} -> {shown}");
        }
    }
    assert!(
        refused > 50,
        "the Chess960 positions with castling rights are refused"
    );
}

#[test]
fn illegal_move_rejects_the_whole_position_command() {
    let mut e = Engine::start();
    e.prior_position();
    let line = e.expect_error(
        "position startpos moves e2e4 e7e5 e1e3",
        "illegal move 'e1e3'",
    );
    assert!(line.contains("move 3"), "{line:?}");
    // Legal in the start position, but not with Black to move.
    e.expect_error("position startpos moves e2e4 d2d4", "illegal move 'd2d4'");
    e.expect_error(
        &format!("position fen {PRIOR_FEN} moves e2e4"),
        "illegal move 'e2e4'",
    );
    e.assert_refused(PRIOR_FEN);
}

#[test]
fn malformed_move_rejects_the_whole_position_command() {
    let mut e = Engine::start();
    e.prior_position();
    let line = e.expect_error(
        "position startpos moves e2e4 zz99 e7e5",
        "malformed move 'zz99'",
    );
    assert!(line.contains("move 2"), "{line:?}");
    e.expect_error("position startpos moves e2e4e7e5", "malformed move");
    e.expect_error("position startpos moves e7e8x", "malformed move 'e7e8x'");
    e.assert_refused(PRIOR_FEN);
}

// ---------------------------------------------------------------------------------------------
// setoption
// ---------------------------------------------------------------------------------------------

#[test]
fn setoption_unknown_option() {
    let mut e = Engine::start();
    e.prior_position();
    e.expect_error("setoption name Foo Bar value 3", "unknown option 'Foo Bar'");
    e.expect_error("setoption name Hashes value 3", "unknown option 'Hashes'");
    e.assert_state(PRIOR_FEN);
}

#[test]
fn setoption_value_out_of_range() {
    let mut e = Engine::start();
    e.prior_position();
    e.expect_ok("setoption name Hash value 1");
    e.expect_error("setoption name Hash value 0", "out of range 1..16384");
    e.expect_error("setoption name Hash value 999999", "out of range 1..16384");
    e.expect_error("setoption name Threads value 0", "out of range 1..256");
    e.expect_error("setoption name Threads value -3", "out of range");
    e.expect_error(
        "setoption name Hash value 99999999999999999999",
        "out of range 1..16384",
    );
    e.expect_error(
        "setoption name QSearchMaxPly value 101",
        "value 101 for option 'QSearchMaxPly' is out of range",
    );
    e.assert_state(PRIOR_FEN);
}

#[test]
fn setoption_non_integer_value() {
    let mut e = Engine::start();
    e.prior_position();
    e.expect_error("setoption name Hash value big", "'big'");
    e.expect_error("setoption name Threads value 2.5", "not an integer");
    e.assert_state(PRIOR_FEN);
}

#[test]
fn setoption_check_option_needs_true_or_false() {
    let mut e = Engine::start();
    let pos = startpos_after(ITALIAN_MOVES);
    e.expect_ok(&format!("position startpos moves {ITALIAN_MOVES}"));
    // Chess960 notation is on, and a bad value must leave it on: castling stays king-takes-rook.
    e.expect_ok("setoption name UCI_Chess960 value true");
    e.expect_error(
        "setoption name UCI_Chess960 value yes",
        "must be true or false",
    );
    e.expect_error("setoption name UCI_Chess960 value 1", "true or false");
    e.send("go depth 2 searchmoves e1h1");
    let (_, line) = e.bestmove();
    assert!(line.starts_with("bestmove e1h1"), "{line:?}");
    e.expect_ok("setoption name UCI_Chess960 value false");
    e.send("go depth 2 searchmoves e1g1");
    let (_, line) = e.bestmove();
    assert!(line.starts_with("bestmove e1g1"), "{line:?}");
    e.assert_state(&pos.fen());
}

#[test]
fn setoption_missing_value_or_name() {
    let mut e = Engine::start();
    e.prior_position();
    e.expect_error("setoption name Hash", "option 'Hash' needs a value");
    e.expect_error("setoption name Hash value", "option 'Hash' needs a value");
    e.expect_error("setoption name Ponder", "option 'Ponder' needs a value");
    e.expect_error("setoption", "needs 'name <option>'");
    e.expect_error("setoption name", "needs 'name <option>'");
    e.expect_error("setoption Hash value 3", "needs 'name <option>'");
    e.assert_state(PRIOR_FEN);
}

#[test]
fn setoption_valid_values_are_accepted() {
    let mut e = Engine::start();
    e.prior_position();
    for cmd in [
        "setoption name Hash value 2",
        "setoption name hash value 1",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 10",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name QSearch value false",
        "setoption name QSearch value true",
        "setoption name QSearchSEE value -50",
        "ucinewgame",
    ] {
        e.expect_ok(cmd);
    }
    e.assert_state(PRIOR_FEN);
}

// ---------------------------------------------------------------------------------------------
// go parameters
// ---------------------------------------------------------------------------------------------

/// Sends a `go` that must give one error naming `needle` and end by itself with a legal move.
fn go_error_then_bestmove(e: &mut Engine, pos: &Position, cmd: &str, needle: &str) {
    e.send(cmd);
    let (before, line) = e.bestmove();
    let errs = errors(&before);
    assert_eq!(errs.len(), 1, "'{cmd}': errors {errs:?}");
    assert!(
        errs[0].contains(needle),
        "'{cmd}': {:?} lacks {needle:?}",
        errs[0]
    );
    check_bestmove(pos, &line);
    let after = e.sync();
    assert_eq!(
        count_bestmoves(&after),
        0,
        "'{cmd}': second bestmove {after:?}"
    );
    assert!(errors(&after).is_empty(), "'{cmd}': {after:?}");
}

/// Sends a `go` that must give one error naming `needle` and then search until `stop`.
fn go_error_then_stop(e: &mut Engine, pos: &Position, cmd: &str, needle: &str) {
    e.send(cmd);
    let lines = e.sync();
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "'{cmd}': errors {errs:?}");
    assert!(
        errs[0].contains(needle),
        "'{cmd}': {:?} lacks {needle:?}",
        errs[0]
    );
    // The search must not end by itself.
    let lines = e.lines_for(Duration::from_millis(150));
    assert_eq!(count_bestmoves(&lines), 0, "'{cmd}' ended early: {lines:?}");
    e.send("stop");
    let (_, line) = e.bestmove();
    check_bestmove(pos, &line);
    let after = e.sync();
    assert_eq!(
        count_bestmoves(&after),
        0,
        "'{cmd}': second bestmove {after:?}"
    );
}

#[test]
fn go_negative_numbers() {
    let mut e = Engine::start();
    let start = Position::startpos();
    go_error_then_bestmove(&mut e, &start, "go wtime -100", "negative wtime -100");
    go_error_then_bestmove(&mut e, &start, "go wtime -100 winc 10", "negative wtime");
    go_error_then_bestmove(&mut e, &start, "go movetime -1", "negative movetime");
    go_error_then_bestmove(&mut e, &start, "go depth -3", "negative depth -3");
    go_error_then_bestmove(&mut e, &start, "go nodes -1000", "negative nodes");
    e.assert_state(&start.fen());
}

#[test]
fn go_absurd_numbers() {
    let mut e = Engine::start();
    e.prior_position();
    let pos = Position::from_fen(PRIOR_FEN).unwrap();
    let huge = "99999999999999999999";
    go_error_then_stop(&mut e, &pos, &format!("go depth {huge}"), "out of range");
    go_error_then_stop(&mut e, &pos, &format!("go movetime {huge}"), "out of range");
    go_error_then_stop(&mut e, &pos, &format!("go nodes {huge}"), "out of range");
    go_error_then_stop(
        &mut e,
        &pos,
        &format!("go btime {huge} binc 100"),
        "btime 99999999999999999999",
    );
    go_error_then_bestmove(&mut e, &pos, "go depth 0", "depth 0");
    go_error_then_bestmove(
        &mut e,
        &pos,
        &format!("go movetime 50 btime -{huge}"),
        "btime -99999999999999999999",
    );
    e.assert_state(PRIOR_FEN);
}

#[test]
fn go_non_numeric_values() {
    let mut e = Engine::start();
    e.prior_position();
    let pos = Position::from_fen(PRIOR_FEN).unwrap();
    go_error_then_bestmove(&mut e, &pos, "go depth abc movetime 100", "'abc'");
    go_error_then_bestmove(&mut e, &pos, "go movetime 1e3 depth 2", "not a number");
    go_error_then_bestmove(&mut e, &pos, "go depth - movetime 100", "'-'");
    go_error_then_bestmove(&mut e, &pos, "go depth 2 nodes --5", "'--5'");
    go_error_then_bestmove(&mut e, &pos, "go movetime 100 depth", "needs a value");
    go_error_then_bestmove(
        &mut e,
        &pos,
        "go movetime depth 2",
        "'movetime' needs a value",
    );
    e.assert_state(PRIOR_FEN);
}

#[test]
fn go_unknown_parameters() {
    let mut e = Engine::start();
    e.prior_position();
    let pos = Position::from_fen(PRIOR_FEN).unwrap();
    go_error_then_bestmove(&mut e, &pos, "go foo depth 2", "unknown parameter 'foo'");
    go_error_then_bestmove(
        &mut e,
        &pos,
        "go depth 2 Depth",
        "unknown parameter 'Depth'",
    );
    e.assert_state(PRIOR_FEN);
}

#[test]
fn go_before_position_searches_the_start_position() {
    let mut e = Engine::start();
    e.send("go depth 2");
    let (before, line) = e.bestmove();
    assert!(errors(&before).is_empty(), "{before:?}");
    check_bestmove(&Position::startpos(), &line);
    let after = e.sync();
    assert!(errors(&after).is_empty() && count_bestmoves(&after) == 0);
}

// ---------------------------------------------------------------------------------------------
// End of input, quit
// ---------------------------------------------------------------------------------------------

#[test]
fn closed_input_exits_cleanly() {
    let mut e = Engine::start();
    e.sync();
    e.close_input();
    let status = e.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
    assert!(e.rest_of_output().is_empty());
}

/// End of input stops a search, however long it would run, after its `bestmove` (a GUI that
/// crashed must not leave a process searching): `go depth 60` and `go nodes 10^12` used to
/// run on for hours.
#[test]
fn closed_input_stops_a_running_search_after_its_bestmove() {
    for go in [
        "go depth 60",
        "go nodes 1000000000000",
        "go movetime 100000",
        "go wtime 10000000 btime 10000000",
    ] {
        let mut e = Engine::start();
        e.send("position startpos moves e2e4");
        e.send(go);
        e.wait_for("an info depth line", |l| l.starts_with("info depth"));
        let sent = Instant::now();
        e.close_input();
        let status = e.wait_exit(Duration::from_secs(10));
        let took = sent.elapsed();
        assert!(status.success(), "{go}: {status:?}");
        assert!(took < Duration::from_secs(5), "{go}: exited after {took:?}");
        let lines = e.rest_of_output();
        assert_eq!(count_bestmoves(&lines), 1, "{go}: {lines:?}");
        assert!(errors(&lines).is_empty(), "{go}: {lines:?}");
        check_bestmove(&startpos_after("e2e4"), lines.last().unwrap());
    }
}

#[test]
fn closed_input_ends_an_endless_search() {
    for go in [
        "go infinite",
        "go ponder",
        "go",
        "go ponder movetime 100000",
    ] {
        let mut e = Engine::start();
        e.send(go);
        e.sync();
        e.close_input();
        let status = e.wait_exit(Duration::from_secs(10));
        assert!(status.success(), "{go}: {status:?}");
        let lines = e.rest_of_output();
        assert_eq!(count_bestmoves(&lines), 1, "{go}: {lines:?}");
        check_bestmove(&Position::startpos(), lines.last().unwrap());
    }
}

#[test]
fn quit_during_infinite_search_exits_promptly() {
    let mut e = Engine::start_alone();
    e.send("go infinite");
    e.wait_for("an info depth line", |l| l.starts_with("info depth"));
    thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(10));
    let took = sent.elapsed();
    eprintln!("quit during go infinite: exited after {took:?}");
    assert!(status.success(), "{status:?}");
    assert!(took < STOP_SLACK, "quit took {took:?}");
}

// ---------------------------------------------------------------------------------------------
// Protocol basics and search control
// ---------------------------------------------------------------------------------------------

/// Sends `cmd` (a command that runs for hours), then checks that `isready` is answered at
/// once, that `stop` ends it with `stopped` and that the engine then searches; then sends it
/// again and checks that `quit` exits at once.
fn long_command_stays_responsive(cmd: &str, stopped: &str) {
    let mut e = Engine::start_alone();
    e.sync();
    e.send(cmd);
    thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    e.send("isready");
    e.wait_for_within("readyok while it runs", STOP_SLACK * 2, |l| l == "readyok");
    let took = sent.elapsed();
    eprintln!("{cmd}: readyok after {took:?}");
    assert!(took < Duration::from_secs(1), "readyok took {took:?}");
    let sent = Instant::now();
    e.send("stop");
    let (_, line) = e.wait_for_within("the stopped line", STOP_SLACK * 2, |l| l.contains(stopped));
    let took = sent.elapsed();
    eprintln!("{cmd}: stopped after {took:?}: {line}");
    assert!(took < Duration::from_secs(1), "stop took {took:?}");
    assert!(line.starts_with("info string"), "{line}");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // The engine is usable: a search, a setoption.
    e.send("go depth 3");
    let (_, line) = e.bestmove();
    check_bestmove(&Position::startpos(), &line);
    e.expect_ok("setoption name Hash value 2");
    e.send(cmd);
    thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(10));
    let took = sent.elapsed();
    eprintln!("{cmd}: quit after {took:?}");
    assert!(status.success(), "{status:?}");
    assert!(took < Duration::from_secs(1), "quit took {took:?}");
}

#[test]
fn go_perft_answers_isready_stop_and_quit() {
    long_command_stays_responsive("go perft 7", "perft stopped");
}

#[test]
fn bench_answers_isready_stop_and_quit() {
    long_command_stays_responsive("bench 100", "bench stopped");
}

#[test]
fn go_perft_and_bench_still_finish() {
    let mut e = Engine::start();
    e.send("go perft 3");
    let (lines, total) = e.wait_for("Nodes searched", |l| l.starts_with("Nodes searched"));
    assert_eq!(total, "Nodes searched: 8902");
    assert_eq!(lines.len(), 21, "20 moves and an empty line: {lines:?}");
    // The job's last line. From the total on, the job counts as answered: a command sent
    // then waits for it to end (see `a_command_sent_on_a_jobs_last_line_is_carried_out`).
    e.wait_for("the perft time", |l| {
        l.starts_with("info string perft time")
    });
    e.send("bench 2");
    let (lines, signature) = e.wait_for("the bench line", |l| l.ends_with(" nps"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(signature.contains(" nodes "), "{signature}");
    // Set aside while a bench runs: a second one, and options.
    e.send("bench 100");
    e.expect_error("setoption name Hash value 2", "search is running");
    e.send("stop");
    e.wait_for("bench stopped", |l| l.contains("bench stopped"));
    // Closed input waits for a bounded count to finish.
    e.send("go perft 4");
    e.close_input();
    let rest = e.rest_of_output();
    assert!(
        rest.contains(&"Nodes searched: 197281".to_string()),
        "{rest:?}"
    );
}

/// A script reads a job's last line and sends its next command at once: the command is
/// carried out, never refused as sent "while a search is running" (the thread had printed
/// its last line but not yet counted as finished, a window that load widens).
#[test]
fn a_command_sent_on_a_jobs_last_line_is_carried_out() {
    let mut e = Engine::start();
    for round in 0..200 {
        e.send("go perft 1");
        e.wait_for("the perft time", |l| {
            l.starts_with("info string perft time")
        });
        e.send("eval");
        let (_, line) = e.wait_for("the eval or an error", |l| {
            l.starts_with("info string eval ") || l.starts_with("info string error:")
        });
        assert!(
            line.starts_with("info string eval "),
            "round {round}: {line}"
        );
    }
    e.send("bench 1");
    e.wait_for("the bench line", |l| l.ends_with(" nps"));
    e.send("setoption name Hash value 2");
    e.send("isready");
    let (lines, _) = e.wait_for("readyok", |l| l == "readyok");
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

#[test]
fn uci_identifies_and_lists_options() {
    let mut e = Engine::start();
    e.send("uci");
    let (lines, _) = e.wait_for("uciok", |l| l == "uciok");
    assert!(lines[0].starts_with("id name Lull "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for opt in &lines[2..] {
        assert!(opt.starts_with("option name "), "unexpected {opt:?}");
    }
    for expected in [
        "option name Hash type spin default 16 min 1 max 16384",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name UCI_Chess960 type check default false",
    ] {
        assert!(lines.iter().any(|l| l == expected), "missing {expected:?}");
    }
    assert!(lines.len() >= 7);
    // Answered again, identically.
    e.send("uci");
    let (again, _) = e.wait_for("uciok", |l| l == "uciok");
    assert_eq!(lines, again);
}

#[test]
fn every_go_gets_exactly_one_bestmove() {
    let mut e = Engine::start();
    let pos = startpos_after("e2e4");
    e.send("position startpos moves e2e4");
    // Plain bounded searches, one at a time.
    for go in [
        "go depth 2",
        "go nodes 2000",
        "go movetime 50",
        "go btime 500 wtime 500",
    ] {
        e.send(go);
        let (before, line) = e.bestmove();
        assert_eq!(count_bestmoves(&before), 0);
        check_bestmove(&pos, &line);
    }
    let mut lines = e.sync();
    // From here on every line is kept and the bestmoves are counted at the end.
    let mut gos = 0;
    // `stop` without a search: no bestmove.
    e.send("stop");
    e.send("stop");
    // A GUI that sends the next command right after `stop`, without waiting for bestmove.
    for cmd in [
        "go infinite",
        "stop",
        "go ponder",
        "stop",
        "go depth 3",
        "stop",
        "stop",
        "go infinite",
        "stop",
        "go depth 1",
    ] {
        e.send(cmd);
        gos += usize::from(cmd.starts_with("go"));
    }
    e.wait_bestmoves(&mut lines, gos, &pos);
    e.send("go infinite");
    gos += 1;
    lines.extend(e.sync());
    thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.wait_bestmoves(&mut lines, gos, &pos);
    // A `go` during a search: reported, and the running search is answered first.
    e.send("go infinite");
    e.send("go depth 1");
    gos += 2;
    e.wait_bestmoves(&mut lines, gos, &pos);
    // Nothing more may come.
    lines.extend(e.sync());
    lines.extend(e.lines_for(Duration::from_millis(300)));
    lines.extend(e.sync());
    assert_eq!(count_bestmoves(&lines), gos, "{lines:?}");
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("search is running"), "{errs:?}");
}

#[test]
fn stop_after_go_infinite_is_fast() {
    let mut e = Engine::start_alone();
    let mut worst = Duration::ZERO;
    let mut all = Vec::new();
    for round in 0..3 {
        e.send("go infinite");
        e.wait_for("an info depth line", |l| l.starts_with("info depth"));
        thread::sleep(Duration::from_millis(150 + 50 * round));
        let sent = Instant::now();
        e.send("stop");
        let (_, line) = e.wait_for_within("bestmove after stop", STOP_SLACK * 4, |l| {
            l.starts_with("bestmove")
        });
        let took = sent.elapsed();
        all.push(took);
        worst = worst.max(took);
        check_bestmove(&Position::startpos(), &line);
        assert_eq!(count_bestmoves(&e.sync()), 0);
    }
    eprintln!("stop latency after go infinite: {all:?} (worst {worst:?}; requirement 50 ms)");
    assert!(worst < STOP_SLACK, "stop took {worst:?}");
}

#[test]
fn ponder_then_ponderhit_moves_within_the_limit() {
    let mut e = Engine::start_alone();
    let pos = startpos_after("e2e4 e7e5");
    e.send("position startpos moves e2e4 e7e5");
    for go in ["go ponder movetime 200", "go ponder wtime 3000 btime 3000"] {
        e.send(go);
        // While pondering, the limit does not apply.
        let lines = e.lines_for(Duration::from_millis(600));
        assert_eq!(
            count_bestmoves(&lines),
            0,
            "{go}: moved while pondering: {lines:?}"
        );
        let sent = Instant::now();
        e.send("ponderhit");
        let (before, line) = e.bestmove();
        let took = sent.elapsed();
        eprintln!("{go}: bestmove {took:?} after ponderhit");
        assert!(errors(&before).is_empty(), "{before:?}");
        check_bestmove(&pos, &line);
        // The limit had run out during the ponder search; 3 s would be the whole clock.
        assert!(
            took < Duration::from_millis(1500),
            "{go}: {took:?} after ponderhit"
        );
        assert_eq!(count_bestmoves(&e.sync()), 0);
    }
    // `go ponder` and `stop` (the opponent played another move).
    e.send("go ponder movetime 100");
    thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (_, line) = e.bestmove();
    check_bestmove(&pos, &line);
}

/// One rule for `infinite`, whatever else the line says and in any order: the search may end
/// by a limit of its own, but `bestmove` waits for `stop` (`go movetime 100 infinite` used to
/// answer after 100 ms, `go infinite depth 3` only after `stop`). A ponder search likewise
/// waits for `ponderhit` or `stop`.
#[test]
fn infinite_waits_for_stop_whatever_the_other_limits() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let pos = startpos_after("e2e4");
    for go in [
        "go movetime 100 infinite",
        "go infinite movetime 100",
        "go infinite depth 3",
        "go depth 3 infinite",
        "go infinite nodes 2000",
        "go mate 1 infinite",
        "go ponder nodes 2000",
        "go ponder depth 2",
    ] {
        e.send(go);
        let lines = e.lines_for(Duration::from_millis(600));
        assert_eq!(
            count_bestmoves(&lines),
            0,
            "'{go}' answered early: {lines:?}"
        );
        assert!(errors(&lines).is_empty(), "{go}: {lines:?}");
        let end = if go.contains("ponder") {
            "ponderhit"
        } else {
            "stop"
        };
        e.send(end);
        let (_, line) = e.bestmove();
        check_bestmove(&pos, &line);
        assert_eq!(count_bestmoves(&e.sync()), 0, "{go}");
    }
    // Ended by its own limit, it is still a running search: a command that needs the engine
    // is refused (it used to wait for the search, which waited for `stop`: the engine hung),
    // and `go` stops it first.
    e.send("go infinite movetime 50");
    thread::sleep(Duration::from_millis(300));
    e.expect_error("setoption name Hash value 2", "search is running");
    e.expect_error("ucinewgame", "search is running");
    e.send("go depth 1");
    let mut lines = Vec::new();
    e.wait_bestmoves(&mut lines, 2, &pos);
    let errs = errors(&lines);
    assert!(
        errs.len() == 1 && errs[0].contains("search is running"),
        "{lines:?}"
    );
    assert_eq!(count_bestmoves(&e.sync()), 0);
}

/// After a ponder hit the `info` lines count nodes, time and nps over the same span, the
/// whole search (pondering included): nodes / time is nps, and the time goes on from the
/// pondering (it used to restart at the hit while the nodes did not, so that nodes / time
/// was several times nps).
#[test]
fn info_after_ponderhit_counts_nodes_time_and_nps_alike() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder movetime 1500");
    thread::sleep(Duration::from_millis(700));
    e.send("ponderhit");
    let (before, line) = e.bestmove();
    check_bestmove(&startpos_after("e2e4 e7e5"), &line);
    let field = |l: &str, name: &str| -> Option<u64> {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words.iter().position(|w| *w == name)?;
        words.get(at + 1)?.parse().ok()
    };
    let mut last_time = 0;
    let mut late = 0;
    for l in before.iter().filter(|l| l.contains(" nps ")) {
        let (nodes, nps, time) = (
            field(l, "nodes").unwrap(),
            field(l, "nps").unwrap(),
            field(l, "time").unwrap(),
        );
        assert_eq!(nps, nodes * 1000 / time.max(1), "{l}");
        assert!(time >= last_time, "the time went back: {l}\n{before:?}");
        last_time = time;
        late += usize::from(time >= 700);
    }
    assert!(late > 0, "no line after the hit: {before:?}");
}

/// `movestogo 0`, as some GUIs send it for sudden death, is read as Stockfish reads it (no
/// time control ahead), without an error: it was clamped to 1 with a warning, and the move
/// then took up to 80 % of the clock.
#[test]
fn movestogo_0_is_sudden_death() {
    let mut e = Engine::start_alone();
    e.send("position startpos moves e2e4");
    e.sync();
    let sent = Instant::now();
    e.send("go wtime 20000 btime 20000 movestogo 0");
    let (before, line) = e.bestmove();
    let took = sent.elapsed();
    assert!(errors(&before).is_empty(), "{before:?}");
    check_bestmove(&startpos_after("e2e4"), &line);
    // Sudden death with 20 s: about a thirtieth of it (0.7 s); the last move before a time
    // control may take 12 s or more.
    assert!(took < Duration::from_millis(2500), "{took:?}");
}

#[test]
fn go_movetime_returns_in_time() {
    let mut e = Engine::start_alone();
    e.sync();
    let sent = Instant::now();
    e.send("go movetime 200");
    let (_, line) = e.bestmove();
    let took = sent.elapsed();
    eprintln!("go movetime 200: bestmove after {took:?}");
    check_bestmove(&Position::startpos(), &line);
    assert!(took >= Duration::from_millis(150), "only {took:?}");
    assert!(took < Duration::from_millis(200) + STOP_SLACK, "{took:?}");
}

/// `d` prints the board as lines (the escaping of control characters in output lines had
/// caught the board's own line ends: one line with literal `\n`), while a control character
/// that comes from the input is still escaped.
#[test]
fn d_prints_the_board_as_lines() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("d");
    let lines = e.sync();
    let board: Vec<&String> = lines.iter().filter(|l| l.contains(" | ")).collect();
    assert_eq!(board.len(), 8, "{lines:?}");
    assert_eq!(
        board[0], " | r | n | b | q | k | b | n | r | 8",
        "{lines:?}"
    );
    assert_eq!(
        board[4], " |   |   |   |   | P |   |   |   | 4",
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| !l.contains("\\n")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("Fen: ")), "{lines:?}");
    e.send("xyzzy\u{1b}[31m");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("xyzzy\\u{1b}[31m"), "{lines:?}");
}

#[test]
fn black_move_after_e2e4() {
    let mut e = Engine::start();
    e.expect_ok("position startpos moves e2e4");
    e.send("go depth 4");
    let (before, line) = e.bestmove();
    assert!(errors(&before).is_empty());
    assert!(
        before.iter().any(|l| l.starts_with("info depth 4 ")),
        "{before:?}"
    );
    let mv = check_bestmove(&startpos_after("e2e4"), &line);
    assert!(Position::startpos().parse_uci_move(&mv).is_err());
}

#[test]
fn castling_is_written_e1g1() {
    let mut e = Engine::start();
    e.expect_ok(&format!("position startpos moves {ITALIAN_MOVES}"));
    e.send("go depth 3 searchmoves e1g1");
    let (_, line) = e.bestmove();
    assert!(line.starts_with("bestmove e1g1"), "{line:?}");
    // And read back in that notation.
    e.expect_ok(&format!("position startpos moves {ITALIAN_MOVES} e1g1"));
    assert_eq!(
        e.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    // A position where castling is the only mate in one: the search must find it.
    let fen = "4R3/8/7B/8/8/5k1P/7P/4K2R w K - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let mates: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut p = pos.clone();
            p.play(m);
            p.legal_moves().is_empty() && p.in_check()
        })
        .map(|m| pos.move_to_uci(m))
        .collect();
    assert_eq!(mates, ["e1g1"], "test position is not what it should be");
    e.expect_ok(&format!("position fen {fen}"));
    e.send("go depth 3");
    let (before, line) = e.bestmove();
    assert!(line.starts_with("bestmove e1g1"), "{line:?}");
    assert!(
        before.iter().any(|l| l.contains("score mate 1")),
        "{before:?}"
    );
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::start();
    e.send("go depth 3 searchmoves a2a3");
    let (before, line) = e.bestmove();
    assert!(errors(&before).is_empty(), "{before:?}");
    assert_eq!(check_bestmove(&Position::startpos(), &line), "a2a3");
    e.send("go searchmoves h2h3 a2a3 depth 2");
    let (_, line) = e.bestmove();
    let mv = check_bestmove(&Position::startpos(), &line);
    assert!(mv == "h2h3" || mv == "a2a3", "{line:?}");
    let start = Position::startpos();
    go_error_then_bestmove(
        &mut e,
        &start,
        "go depth 2 searchmoves e2e5 a2a4",
        "illegal move 'e2e5'",
    );
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Engine::start();
    for fen in [FOOLS_MATE, STALEMATE] {
        e.expect_ok(&format!("position fen {fen}"));
        for go in ["go depth 3", "go movetime 100", "go wtime 1000 btime 1000"] {
            e.send(go);
            let (before, line) = e.bestmove();
            assert!(errors(&before).is_empty(), "{before:?}");
            assert_eq!(line, "bestmove (none)", "{fen} {go}");
            assert_eq!(count_bestmoves(&e.sync()), 0);
        }
        e.send("go infinite");
        e.sync();
        e.send("stop");
        let (_, line) = e.bestmove();
        assert_eq!(line, "bestmove (none)");
    }
}

#[test]
fn commands_right_after_stop_are_not_rejected() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.wait_for("an info depth line", |l| l.starts_with("info depth"));
    e.send("stop");
    e.send("setoption name Hash value 2");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(count_bestmoves(&lines), 1, "{lines:?}");
    e.assert_state(&startpos_after("e2e4").fen());
}

//! Drives the real `lull` binary over XBoard (CECP v2): the raw protocol line by line (the
//! `feature` answer, ping, moves, take-backs, time controls, analysis, pondering, bad input,
//! auto-detection in the default mode), then python-chess as a full client
//! (`tests/python/xboard_client.py`: games, analysis, setup, Chess960).
//!
//! Each raw test owns one engine process (`common::EngineProcess`): every wait has a deadline
//! and the process is killed when the test ends.

use crate::common;

use std::ops::{Deref, DerefMut};
use std::thread;
use std::time::{Duration, Instant};

use common::EngineProcess;
use lull::position::Position;
use lull::protocol::xboard::{feature_lines, parse_move};

/// One running `lull` (see [`EngineProcess`]) with the CECP helpers below.
struct Engine(EngineProcess);

impl Deref for Engine {
    type Target = EngineProcess;
    fn deref(&self) -> &EngineProcess {
        &self.0
    }
}

impl DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut EngineProcess {
        &mut self.0
    }
}

impl Engine {
    /// `lull xboard`.
    fn start() -> Self {
        Self(EngineProcess::spawn(&["xboard"]))
    }

    /// `lull` with no arguments (the default mode).
    fn start_default() -> Self {
        Self(EngineProcess::spawn(&[]))
    }

    /// Sends `ping N` and returns the lines before `pong N`.
    fn sync(&mut self) -> Vec<String> {
        self.send("ping 4242");
        self.wait_for("pong 4242", |l| l == "pong 4242").0
    }

    /// Sends `cmd` and `ping n`, then returns the first thinking line of depth `depth` that
    /// comes after `cmd`: the restarted analysis may print it before the pong or after.
    fn restart_and_wait(&mut self, cmd: &str, n: u32, depth: u32) -> String {
        self.send(cmd);
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let starts = format!("{depth} ");
        let at_depth = |l: &str| is_thinking(l) && l.starts_with(&starts);
        let (before, _) = self.wait_for(&pong, |l| l == pong);
        match before.into_iter().find(|l| at_depth(l)) {
            Some(line) => line,
            None => {
                self.wait_for(&format!("depth {depth} after {cmd}"), at_depth)
                    .1
            }
        }
    }

    /// The next `move …` line and the lines before it.
    fn next_move(&mut self) -> (Vec<String>, String) {
        self.wait_for("a move", |l| l.starts_with("move "))
    }

    /// Sends `cmd` and checks that exactly one line answers it before the next pong, and that
    /// it starts with `prefix` and contains `needle`.
    fn expect_one(&mut self, cmd: &str, prefix: &str, needle: &str) {
        self.send(cmd);
        let lines = self.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with(prefix) && lines[0].contains(needle),
            "'{cmd}' should give one line '{prefix}…{needle}…', got {lines:?}\n{}",
            self.tail()
        );
    }

    /// Sends `cmd` and checks that it gives exactly one `Error (…): …` line.
    fn expect_error(&mut self, cmd: &str, needle: &str) {
        self.expect_one(cmd, "Error (", needle);
    }

    /// Sends `cmd` and checks that nothing answers it.
    fn expect_silent(&mut self, cmd: &str) {
        self.send(cmd);
        let lines = self.sync();
        assert!(lines.is_empty(), "'{cmd}' gave {lines:?}");
    }

    /// Checks that the engine, set to play the side to move at depth 1, moves legally in
    /// `fen` (and takes that move back afterwards with `force` + `undo`).
    fn assert_position(&mut self, fen: &str) {
        let pos = Position::from_fen(fen).unwrap();
        self.send("sd 1");
        self.send("go");
        let (before, line) = self.next_move();
        assert!(
            !before
                .iter()
                .any(|l| l.starts_with("Error") || l.starts_with("Illegal")),
            "{before:?}"
        );
        check_move(&pos, &line);
        self.send("force");
        self.send("undo");
        let after = self.sync();
        assert!(after.is_empty(), "undo after the check: {after:?}");
    }

    /// After a refused `setboard` the GUI's board is one the engine does not have: `go`,
    /// `analyze` and a move get one error line each, and no move or thinking comes. A valid
    /// `setboard` of `fen` then plays again.
    fn assert_refused(&mut self, fen: &str) {
        for cmd in ["go", "usermove e2e4", "analyze", "exit", "go"] {
            self.send(cmd);
            let lines = self.sync();
            if cmd == "exit" {
                assert!(lines.is_empty(), "{lines:?}");
                continue;
            }
            assert!(
                lines.len() == 1 && lines[0].contains("no position to search"),
                "'{cmd}' after a refused setboard: {lines:?}"
            );
        }
        let lines = self.lines_for(Duration::from_millis(200));
        assert!(lines.is_empty(), "{lines:?}");
        self.send("force");
        self.expect_silent(&format!("setboard {fen}"));
        self.assert_position(fen);
    }
}

/// Checks that `move X` names a legal move in `pos`; returns the move's text.
fn check_move(pos: &Position, line: &str) -> String {
    let text = line.strip_prefix("move ").expect("a move line");
    assert!(
        parse_move(pos.board(), text, pos.chess960()).is_ok(),
        "'{line}' is not legal in {}",
        pos.fen()
    );
    text.to_string()
}

/// Whether a line is CECP thinking output: `ply score time nodes pv…`.
fn is_thinking(line: &str) -> bool {
    let fields: Vec<&str> = line.split_whitespace().collect();
    fields.len() >= 5 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok())
}

/// A session after `xboard`, `protover 2` (features read) and `new`.
fn session() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.wait_for("feature done=1", |l| l == "feature done=1");
    e.send("new");
    e
}

#[test]
fn protover_2_announces_the_features_and_the_option_table() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let (mut lines, done) = e.wait_for("feature done=1", |l| l == "feature done=1");
    lines.push(done);
    assert_eq!(lines, feature_lines(), "{}", e.tail());
    assert_eq!(
        lines[0],
        format!(
            "feature myname=\"Lull {}\" setboard=1 usermove=1 ping=1 playother=1 san=0 time=1 \
             draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 nps=0 debug=1 memory=1 \
             smp=1 {}variants=\"normal,fischerandom\"",
            env!("CARGO_PKG_VERSION"),
            if cfg!(feature = "syzygy") {
                "egt=\"syzygy\" "
            } else {
                ""
            }
        )
    );
    for expected in [
        "feature option=\"Move Overhead -spin 30 0 5000\"",
        "feature option=\"Clear Hash -button\"",
        "feature option=\"QSearch -check 1\"",
        "feature option=\"QSearchSEE -spin 0 -10000 1000\"",
        "feature option=\"QSearchUnderpromotions -check 0\"",
    ] {
        assert!(lines.iter().any(|l| l == expected), "missing {expected}");
    }
    // Hash and Threads are `memory` and `cores`; Ponder and UCI_Chess960 are commands.
    assert!(!lines.iter().any(|l| l.contains("\"Hash ")
        || l.contains("\"Threads ")
        || l.contains("Ponder")
        || l.contains("UCI_Chess960")));
    // Nothing else comes, and the answers go on.
    e.expect_silent("accepted setboard");
    e.expect_one("ping 17", "pong 17", "");
}

/// The string options are offered as CECP `-string` options with the UCI default (`EvalFile`
/// `<default>`, the embedded network; `SyzygyPath` empty), and `option NAME=VALUE` sets them:
/// a network file loads silently, a missing one is an error and the previous one stays.
#[test]
fn protover_2_offers_the_string_options() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let (lines, _) = e.wait_for("feature done=1", |l| l == "feature done=1");
    let mut expected = vec!["feature option=\"EvalFile -string <default>\""];
    if cfg!(feature = "syzygy") {
        expected.push("feature option=\"SyzygyPath -string \"");
    }
    let strings: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.contains(" -string "))
        .collect();
    assert_eq!(strings, expected, "{}", e.tail());
    e.send("new");
    e.expect_silent("option EvalFile=nets/lull-5.nnue");
    e.expect_one(
        "option EvalFile=no-such.nnue",
        "Error (cannot read network file",
        "",
    );
    e.expect_silent("option EvalFile=<default>");
}

#[test]
fn ping_is_answered_in_order() {
    let mut e = session();
    e.send("ping 1");
    e.send("force");
    e.send("usermove e2e4");
    e.send("ping 2");
    e.wait_for("pong 1", |l| l == "pong 1");
    let (before, _) = e.wait_for("pong 2", |l| l == "pong 2");
    assert!(before.is_empty(), "{before:?}");
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut e = session();
    e.send("force");
    e.expect_one("usermove e2e5", "Illegal move: e2e5", "");
    e.expect_one("usermove e7e5", "Illegal move: e7e5", "");
    e.expect_one("usermove xyz", "Illegal move: xyz", "");
    e.expect_one("usermove e1g1", "Illegal move: e1g1", "");
    e.expect_silent("usermove e2e4");
    // SAN, and bare coordinates (without `usermove`), are accepted too.
    e.expect_silent("usermove Nc6");
    e.expect_error("Nf3", "unknown command");
    e.expect_silent("g1f3");
    e.expect_one("e2e4", "Illegal move: e2e4", "");
    e.assert_position("r1bqkbnr/pppppppp/2n5/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2");
}

#[test]
fn bad_commands_get_one_error_line_and_the_engine_goes_on() {
    let mut e = session();
    e.send("force");
    e.send("usermove d2d4");
    let cases: &[(&str, &str)] = &[
        ("frobnicate", "unknown command"),
        ("usermove", "needs a move"),
        ("usermove e2e4 e7e5", "one move"),
        ("protover two", "version"),
        ("level 40", "level needs"),
        ("level x 5 0", "moves per session"),
        ("level 40 5:99 0", "bad base time"),
        ("level 40 5 -1", "bad increment"),
        ("st", "seconds"),
        ("st 0", "positive"),
        ("st abc", "positive"),
        ("sd 0", "depth"),
        ("sd deep", "depth"),
        ("time", "centiseconds"),
        ("otim soon", "centiseconds"),
        ("memory 0", "positive integer"),
        ("memory lots", "positive integer"),
        ("cores -2", "positive integer"),
        ("option NoSuchOption=1", "unknown option"),
        ("option QSearch=maybe", "true or false"),
        ("option QSearchMaxPly=1000", "out of range"),
        ("option Ponder=1", "CECP commands"),
        ("variant crazyhouse", "unsupported variant"),
        ("variant", "needs a name"),
        ("setboard", "needs a FEN"),
    ];
    for (cmd, needle) in cases {
        e.expect_error(cmd, needle);
    }
    // An over-long line and a line that is not UTF-8.
    let mut long = vec![b'x'; (1 << 20) + 10];
    long.push(b'\n');
    e.send_bytes(&long);
    let lines = e.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("Error (line longer than"),
        "{lines:?}"
    );
    e.send_bytes(b"usermove \xff\xfe\n");
    let lines = e.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("Error (line is not valid UTF-8)"),
        "{lines:?}"
    );
    // Empty lines and the commands xboard sends for information are quiet.
    for quiet in [
        "",
        "   ",
        "random",
        "computer",
        "name Someone",
        "rating 2000 1800",
    ] {
        e.expect_silent(quiet);
    }
    // Good values of the same commands are accepted silently.
    for ok in [
        "level 40 5 0",
        "level 0 2:30 1.5",
        "st 2",
        "sd 7",
        "time 30000",
        "otim 29000",
        "memory 8",
        "cores 1",
        "option QSearch=0",
        "option QSearch=1",
        "option QSearchMaxPly=20",
        "option Clear Hash",
        "variant normal",
    ] {
        e.expect_silent(ok);
    }
    // The game went on: 1. d4, Black to move.
    e.assert_position("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
}

#[test]
fn sd_and_go_play_a_legal_move_with_thinking_output() {
    let mut e = session();
    e.send("post");
    e.send("sd 3");
    e.send("go");
    let (before, line) = e.next_move();
    check_move(&Position::startpos(), &line);
    let thinking: Vec<&String> = before.iter().filter(|l| is_thinking(l)).collect();
    assert_eq!(thinking.len(), 3, "one line per depth: {before:?}");
    for (i, l) in thinking.iter().enumerate() {
        assert!(l.starts_with(&format!("{} ", i + 1)), "{l}");
    }
    // The engine plays White now: after Black's reply it moves again by itself.
    let mut pos = Position::startpos();
    let first = line.strip_prefix("move ").unwrap();
    pos.play(parse_move(pos.board(), first, false).unwrap());
    let reply = pos.legal_moves()[0];
    let reply_text = pos.move_to_uci(reply);
    pos.play(reply);
    e.send("nopost");
    e.send(&format!("usermove {reply_text}"));
    let (before, line) = e.next_move();
    assert!(!before.iter().any(|l| is_thinking(l)), "nopost: {before:?}");
    check_move(&pos, &line);
}

#[test]
fn question_mark_moves_now() {
    let mut e = session();
    e.send("st 60");
    e.send("go");
    thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("?");
    let (_, line) = e.wait_for_within("the move after ?", Duration::from_secs(10), |l| {
        l.starts_with("move ")
    });
    check_move(&Position::startpos(), &line);
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    // Only one move, and the engine is still there.
    let lines = e.sync();
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
}

#[test]
fn ping_while_thinking_is_answered_after_the_move() {
    let mut e = session();
    e.send("st 1");
    e.send("go");
    e.send("ping 9");
    let (_, line) = e.wait_for("move or pong", |l| l.starts_with("move ") || l == "pong 9");
    assert!(line.starts_with("move "), "pong came before the move");
    e.wait_for("pong 9", |l| l == "pong 9");
}

#[test]
fn clock_time_controls_give_moves() {
    let mut e = session();
    e.send("level 0 0:02 0");
    e.send("time 200");
    e.send("otim 200");
    e.send("go");
    let started = Instant::now();
    let (_, line) = e.next_move();
    check_move(&Position::startpos(), &line);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // Moves per session with an increment.
    e.send("new");
    e.send("level 40 1 1");
    e.send("time 6000");
    e.send("otim 6000");
    e.send("go");
    let (_, line) = e.next_move();
    check_move(&Position::startpos(), &line);
}

#[test]
fn undo_and_remove_take_moves_back() {
    let mut e = session();
    e.send("force");
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        e.send(&format!("usermove {mv}"));
    }
    e.expect_silent("remove");
    // The knights are home again: g1f3 and b8c6 are legal once more.
    e.expect_silent("usermove g1f3");
    e.expect_silent("undo");
    e.expect_silent("usermove g1f3");
    e.expect_silent("usermove b8c6");
    e.assert_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    // More than the game holds: an error, nothing taken back.
    e.send("new");
    e.send("force");
    e.expect_error("undo", "no move");
    e.send("usermove e2e4");
    e.expect_error("remove", "fewer than two moves");
    e.assert_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

#[test]
fn setboard_sets_the_position_and_a_bad_fen_is_not_searched() {
    let mut e = session();
    e.send("force");
    let fen = "r3k2r/ppp2ppp/2n5/3q4/8/2N5/PPP2PPP/R3K2R w KQkq - 0 12";
    e.expect_silent(&format!("setboard {fen}"));
    for bad in [
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "setboard rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "setboard 8/8/8/8/8/8/8/8 w - - 0 1",
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "setboard 4k3/8/8/8/8/8/8/R3K3 w - - -1 80",
        "setboard (((",
    ] {
        e.expect_error(bad, "illegal position");
    }
    e.assert_refused(fen);
    // What Stockfish and python-chess accept is accepted (a halfmove clock above 100, a
    // fullmove number of 0): the engine plays in that position, not in the previous one.
    e.send("force");
    e.expect_silent("setboard 4k3/8/8/8/8/8/8/R3K3 w - - 150 0");
    e.send("sd 1");
    e.send("go");
    let (before, line) = e.next_move();
    assert!(!before.iter().any(|l| l.starts_with("Error")), "{before:?}");
    check_move(
        &Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 1").unwrap(),
        &line,
    );
    e.wait_for("the draw claim", |l| l == "1/2-1/2 {Fifty-move rule}");
    // A refused position during analysis ends it; `new` gives a position to search again.
    e.send("new");
    e.send("force");
    e.send("analyze");
    e.wait_for("thinking output", is_thinking);
    e.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    let lines = e.sync();
    let errors: Vec<_> = lines.iter().filter(|l| l.starts_with("Error")).collect();
    assert!(
        errors.len() == 1 && errors[0].contains("illegal position"),
        "{lines:?}"
    );
    let lines = e.lines_for(Duration::from_millis(300));
    assert!(!lines.iter().any(|l| is_thinking(l)), "{lines:?}");
    e.send("exit");
    e.send("new");
    e.send("force");
    e.assert_position(lull::position::STARTPOS_FEN);
    e.send(&format!("setboard {fen}"));
    // The engine finds the free queen there.
    e.send("sd 4");
    e.send("go");
    let (_, line) = e.next_move();
    assert_eq!(line, "move c3d5");
}

#[test]
fn setboard_with_castling_standard_chess_cannot_write_needs_fischerandom() {
    // e1g1-style notation cannot say which move these castlings are: FRC notation is needed.
    let mut e = session();
    e.send("force");
    let fen = "r3k2r/ppp2ppp/2n5/3q4/8/2N5/PPP2PPP/R3K2R w KQkq - 0 12";
    e.expect_silent(&format!("setboard {fen}"));
    let odd = [
        "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
        "4k3/8/8/8/8/8/8/1RK4R w KQ - 0 1",
        "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
    ];
    for bad in odd {
        e.expect_error(&format!("setboard {bad}"), "variant fischerandom");
    }
    e.assert_refused(fen);
    // In Chess960 they are fine, and the castle is O-O-O.
    e.send("variant fischerandom");
    e.send("force");
    for good in odd {
        e.expect_silent(&format!("setboard {good}"));
        e.assert_position(good);
    }
    e.send("setboard 4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1");
    e.expect_silent("usermove O-O-O");
    e.expect_silent("usermove e8e7");
    // The king went to c1 and the rook to d1: the king can step back to b1.
    e.expect_silent("usermove c1b1");
}

#[test]
fn a_take_back_that_fails_in_analysis_mode_leaves_the_analysis_running() {
    // A failed take-back used to print its error and stop the analysis.
    let mut e = session();
    e.send("force");
    e.send("analyze");
    e.wait_for("depth 2", |l| is_thinking(l) && l.starts_with("2 "));
    for (cmd, needle) in [
        ("undo", "no move to take back"),
        ("remove", "fewer than two"),
    ] {
        e.send(cmd);
        let (_, error) = e.wait_for("the error", |l| l.starts_with("Error"));
        assert!(error.contains(needle), "{error}");
        e.wait_for("thinking after the error", is_thinking);
    }
    // One move played: `remove` fails and the analysis goes on, `undo` takes it back and
    // the analysis starts again at the start position.
    e.restart_and_wait("usermove e2e4", 7, 2);
    e.send("remove");
    e.wait_for("the error", |l| l.starts_with("Error (fewer than two"));
    e.wait_for("thinking after the error", is_thinking);
    let line = e.restart_and_wait("undo", 8, 1);
    let pv_first = line.split_whitespace().nth(4).unwrap();
    let start = Position::startpos();
    assert!(parse_move(start.board(), pv_first, false).is_ok(), "{line}");
    e.send("exit");
    e.sync();
    assert!(e.sync().is_empty(), "quiet after exit");
}

#[test]
fn mate_and_stalemate_are_claimed_instead_of_a_move() {
    let mut e = session();
    e.send("force");
    e.send("setboard rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    e.expect_one("go", "0-1 {Black mates}", "");
    e.send("force");
    e.send("setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.expect_one("go", "1/2-1/2 {Stalemate}", "");
    // A mating move is followed by the claim.
    e.send("force");
    e.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let (_, line) = e.next_move();
    assert_eq!(line, "move a1a8");
    e.wait_for("the mate claim", |l| l == "1-0 {White mates}");
}

#[test]
fn analyze_prints_thinking_until_exit_and_follows_the_position() {
    let mut e = session();
    e.send("force");
    e.send("analyze");
    let (_, first) = e.wait_for("thinking output", is_thinking);
    assert!(first.starts_with("1 "), "{first}");
    e.wait_for("depth 3", |l| is_thinking(l) && l.starts_with("3 "));
    e.send(".");
    e.wait_for("stat01", |l| l.starts_with("stat01: "));
    // A move restarts the analysis from depth 1 in the new position.
    let line = e.restart_and_wait("usermove e2e4", 5, 1);
    // Black to move: the PV starts with a black move (SAN, so not a white pawn push).
    let mut pos = Position::startpos();
    pos.play(parse_move(pos.board(), "e2e4", false).unwrap());
    let pv_first = line.split_whitespace().nth(4).unwrap();
    assert!(
        parse_move(pos.board(), pv_first, false).is_ok(),
        "{line} in {}",
        pos.fen()
    );
    e.send("undo");
    e.send("exit");
    let lines = e.sync();
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("move") || l.starts_with("Error")),
        "{lines:?}"
    );
    // Quiet after exit, and back at the start position.
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}");
    e.assert_position(lull::position::STARTPOS_FEN);
}

#[test]
fn pondering_on_the_expected_reply_answers_a_ponder_hit() {
    let mut e = session();
    e.send("hard");
    e.send("sd 4");
    e.send("go");
    let (_, line) = e.next_move();
    let mut pos = Position::startpos();
    let mv = check_move(&pos, &line);
    pos.play(parse_move(pos.board(), &mv, false).unwrap());
    e.send("hint");
    let (_, hint) = e.wait_for("the hint", |l| l.starts_with("Hint: "));
    let reply = hint.strip_prefix("Hint: ").unwrap().to_string();
    pos.play(parse_move(pos.board(), &reply, false).unwrap());
    // Let the ponder search get past its first iterations, which it reports to nobody: a hit
    // within the first microseconds would rightly show every depth once `post` is on, and
    // could not be told from a new search. (Depth 1 takes well under a millisecond.)
    thread::sleep(Duration::from_millis(300));
    // The ponder hit: the engine's move comes from the search already running, which printed
    // nothing while pondering (a new search would print depths 1 to 4).
    e.send("post");
    e.send(&format!("usermove {reply}"));
    let (before, line) = e.next_move();
    let thinking: Vec<&String> = before.iter().filter(|l| is_thinking(l)).collect();
    assert!(
        thinking.len() < 4 && !thinking.iter().any(|l| l.starts_with("1 ")),
        "not a ponder hit: {before:?}"
    );
    let mv = check_move(&pos, &line);
    pos.play(parse_move(pos.board(), &mv, false).unwrap());
    // A ponder miss: any other reply.
    let expected = {
        e.send("hint");
        e.wait_for("the hint", |l| l.starts_with("Hint: ")).1
    };
    let other = pos
        .legal_moves()
        .into_iter()
        .find(|m| format!("Hint: {}", pos.move_to_uci(*m)) != expected)
        .unwrap();
    let other_text = pos.move_to_uci(other);
    pos.play(other);
    e.send(&format!("usermove {other_text}"));
    let (before, line) = e.next_move();
    check_move(&pos, &line);
    // (Lines whose PV starts with the expected reply in parentheses are the ponder search's,
    // printed while it pondered with `post` on.)
    let thinking = before
        .iter()
        .filter(|l| is_thinking(l) && !l.split_whitespace().nth(4).unwrap().starts_with('('))
        .count();
    assert_eq!(thinking, 4, "a ponder miss searches afresh: {before:?}");
    // `easy` stops pondering; the engine stays in sync.
    e.send("easy");
    let lines = e.sync();
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
}

/// A ponder hit takes the limits of the move from the clocks the GUI sent just before the
/// move pondered on (`time 50`: half a second left), not from those when pondering began
/// (ten minutes): the reply used to take 2.4-3.9 s, and a real game sent `time 1`.
#[test]
fn a_ponder_hit_takes_its_limits_from_the_latest_clock() {
    let mut e = session();
    e.send("hard");
    e.send("level 0 10 0");
    e.send("force");
    // White's only legal move is Kh2: the engine's first move comes at once, whatever the
    // clock, and it ponders on its expected reply with ten minutes on both clocks.
    e.send("setboard 4k3/8/8/8/8/8/5PP1/r5K1 w - - 0 1");
    e.send("time 60000");
    e.send("otim 60000");
    e.send("go");
    let (_, line) = e.next_move();
    assert_eq!(line, "move g1h2");
    let mut pos = Position::from_fen("4k3/8/8/8/8/8/5PP1/r5K1 w - - 0 1").unwrap();
    pos.play(parse_move(pos.board(), "g1h2", false).unwrap());
    e.send("hint");
    let (_, hint) = e.wait_for("the hint", |l| l.starts_with("Hint: "));
    let reply = hint.strip_prefix("Hint: ").unwrap().to_string();
    pos.play(parse_move(pos.board(), &reply, false).unwrap());
    thread::sleep(Duration::from_millis(300));
    e.send("time 50");
    e.send("otim 59000");
    let sent = Instant::now();
    e.send(&format!("usermove {reply}"));
    let (_, line) = e.wait_for_within("the move after the hit", Duration::from_secs(30), |l| {
        l.starts_with("move ")
    });
    let took = sent.elapsed();
    check_move(&pos, &line);
    assert!(
        took < Duration::from_millis(1500),
        "the move came {took:?} after the hit, with 0.5 s on the clock"
    );
}

#[test]
fn fischerandom_castling_is_o_o_both_ways() {
    let mut e = session();
    e.send("variant fischerandom");
    e.send("force");
    // Rooks on b and g: Black castles short at once (sent as O-O).
    e.send("setboard 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    e.expect_silent("usermove a2a3");
    e.expect_silent("usermove O-O");
    // The king on f1 castles with the h1 rook and mates: the engine sends O-O.
    e.send("setboard 4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1");
    e.send("sd 3");
    e.send("go");
    let (_, line) = e.next_move();
    assert_eq!(line, "move O-O");
    e.wait_for("the mate claim", |l| l == "1-0 {White mates}");
}

#[test]
fn quit_and_end_of_input_end_the_engine() {
    let mut e = session();
    e.send("analyze");
    e.wait_for("thinking output", is_thinking);
    e.send("quit");
    e.wait_exit(Duration::from_secs(5));
    // End of input while analysing.
    let mut e = session();
    e.send("analyze");
    e.wait_for("thinking output", is_thinking);
    e.close_input();
    e.wait_exit(Duration::from_secs(5));
    // End of input while thinking about a move: the move is sent, then the engine exits.
    let mut e = session();
    e.send("st 60");
    e.send("go");
    thread::sleep(Duration::from_millis(200));
    e.close_input();
    e.next_move();
    e.wait_exit(Duration::from_secs(5));
}

#[test]
fn default_mode_detects_xboard_from_the_first_command() {
    let mut e = Engine::start_default();
    e.send("xboard");
    e.send("protover 2");
    e.wait_for("feature done=1", |l| l == "feature done=1");
    e.send("new");
    e.send("sd 2");
    e.send("go");
    let (_, line) = e.next_move();
    check_move(&Position::startpos(), &line);
    // Without `xboard` first, the default mode is UCI.
    let mut u = Engine::start_default();
    u.send("uci");
    u.wait_for("uciok", |l| l == "uciok");
    u.send("xboard");
    u.wait_for("the UCI error", |l| {
        l.starts_with("info string error: unknown command")
    });
}

#[test]
fn python_chess_plays_full_games() {
    let out = common::run_client("xboard_client.py", &["games"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("game 3:") && text.contains("ALL OK"),
        "{text}"
    );
}

#[test]
fn python_chess_analyses() {
    let out = common::run_client("xboard_client.py", &["analysis"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("mate: Mate(1)") && text.contains("ALL OK"),
        "{text}"
    );
}

#[test]
fn python_chess_sets_up_positions_takes_back_and_configures() {
    let out = common::run_client("xboard_client.py", &["setup"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("setboard: c3d5") && text.contains("ALL OK"),
        "{text}"
    );
}

#[test]
fn python_chess_plays_chess960() {
    let out = common::run_client("xboard_client.py", &["chess960"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("castling mate") && text.contains("ALL OK"),
        "{text}"
    );
}

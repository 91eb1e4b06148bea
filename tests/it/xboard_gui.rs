//! XBoard (CECP) as good as UCI, one test per defect a real GUI showed: MultiPV lines in
//! analysis, thinking output while pondering, nodes and time after a ponder hit, xboard's default
//! `egtpath` answered quietly, analysis of a finished game, and the book options.

use crate::common;

use std::thread;
use std::time::Duration;

use common::{run_lull, temp_file_of, EngineProcess};
use lull::position::Position;
use lull::protocol::xboard::parse_move;

/// A session after `xboard`, `protover 2` (features returned) and `new`.
fn session() -> (EngineProcess, Vec<String>) {
    let mut e = EngineProcess::spawn(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let (features, _) = e.wait_for("feature done=1", |l| l == "feature done=1");
    e.send("new");
    (e, features)
}

fn sync(e: &mut EngineProcess, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    e.wait_for(&pong, |l| l == pong).0
}

/// `ply score time nodes pv…` as numbers and PV words.
fn thinking(line: &str) -> Option<(i64, i64, i64, i64, Vec<String>)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 5 {
        return None;
    }
    let n: Vec<i64> = f[..4]
        .iter()
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    Some((
        n[0],
        n[1],
        n[2],
        n[3],
        f[4..].iter().map(|s| s.to_string()).collect(),
    ))
}

#[test]
fn analysis_with_multipv_3_shows_three_lines_per_depth() {
    let (mut e, _) = session();
    e.send("option MultiPV=3");
    e.send("setboard r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    e.send("analyze");
    let (lines, _) = e.wait_for("depth 7", |l| l.starts_with("7 "));
    e.send("exit");
    sync(&mut e, 1);
    for depth in 2..=6 {
        let at: Vec<_> = lines
            .iter()
            .filter_map(|l| thinking(l))
            .filter(|t| t.0 == depth)
            .collect();
        assert_eq!(at.len(), 3, "depth {depth}: {lines:?}");
        let firsts: std::collections::BTreeSet<_> = at.iter().map(|t| t.4[0].clone()).collect();
        assert_eq!(firsts.len(), 3, "lines share a first move: {at:?}");
        assert!(
            at[0].1 >= at[1].1 && at[1].1 >= at[2].1,
            "best first: {at:?}"
        );
    }
}

/// With pondering and `post` on and the search limited by `limit` (`st 4`, `sd 4`), the
/// engine plays the first move from the start position and is asked for its hint: the
/// position after its move, the lines printed before the hint was answered (the ponder
/// search may print some first), and the expected reply it ponders on.
fn move_then_hint(e: &mut EngineProcess, limit: &str) -> (Position, Vec<String>, String) {
    e.send("hard");
    e.send("post");
    e.send(limit);
    e.send("go");
    let (_, line) = e.wait_for("a move", |l| l.starts_with("move "));
    let mut pos = Position::startpos();
    let mv = line.strip_prefix("move ").unwrap();
    pos.play(parse_move(pos.board(), mv, false).unwrap());
    e.send("hint");
    let (before, hint) = e.wait_for("the hint", |l| l.starts_with("Hint: "));
    let reply = hint.strip_prefix("Hint: ").unwrap().to_string();
    (pos, before, reply)
}

/// With `hard` and `post`, the ponder search prints its thinking (the expected reply first,
/// in parentheses); after the ponder hit the nodes and the time shown both count the whole
/// search, pondering included, so that the GUI's nodes / time is the real speed (the time
/// used to restart at the hit while the nodes did not).
#[test]
fn pondering_with_post_prints_thinking_and_counts_the_whole_search_after_the_hit() {
    let (mut e, _) = session();
    let (pos, _, reply) = move_then_hint(&mut e, "st 4");
    let reply_san = {
        let m = parse_move(pos.board(), &reply, false).unwrap();
        lull::san::line_to_san(pos.board(), &[m]).remove(0)
    };
    thread::sleep(Duration::from_millis(2000));
    let pondering = sync(&mut e, 2);
    let ponder_lines: Vec<_> = pondering.iter().filter_map(|l| thinking(l)).collect();
    assert!(
        ponder_lines.len() >= 3,
        "no thinking while pondering: {pondering:?}"
    );
    for t in &ponder_lines {
        assert_eq!(t.4[0], format!("({reply_san})"), "{t:?}");
    }
    // Speed while pondering: nodes per centisecond of its last line.
    let last = ponder_lines.last().unwrap();
    assert!(last.2 > 0 && last.3 > 0, "{last:?}");
    let rate = last.3 as f64 / last.2 as f64;
    // The ponder hit.
    e.send(&format!("usermove {reply}"));
    let (after, _) = e.wait_for("the move after the hit", |l| l.starts_with("move "));
    let after: Vec<_> = after.iter().filter_map(|l| thinking(l)).collect();
    assert!(!after.is_empty(), "no thinking after the hit");
    for t in &after {
        assert!(
            !t.4[0].starts_with('('),
            "a line after the hit still shows the reply: {t:?}"
        );
        // The same search goes on: its time and nodes go on from the pondering.
        assert!(
            t.2 >= last.2 && t.3 >= last.3,
            "{t:?} after the hit, {last:?} before it"
        );
        // Nodes over time: the speed of pondering, not the ponder search's nodes over the
        // few centiseconds since the hit.
        let allowed = rate * (1.5 * t.2 as f64 + 40.0);
        assert!(
            (t.3 as f64) <= allowed,
            "{t:?}: {} nodes in {} cs after the hit, pondering searched {rate:.0} per cs",
            t.3,
            t.2
        );
    }
}

/// A ponder search that had ended before the hit (here at its depth limit) still gives the
/// move its thinking: one line without the reply in parentheses, with the nodes and the time
/// of that search.
#[test]
fn a_ponder_hit_after_the_search_ended_still_shows_the_moves_thinking() {
    let (mut e, _) = session();
    let (mut pos, mut pondering, reply) = move_then_hint(&mut e, "sd 4");
    // The ponder search ends with its depth-4 line; it then waits for the hit.
    if !pondering
        .iter()
        .any(|l| thinking(l).is_some_and(|t| t.0 == 4))
    {
        let (more, last) = e.wait_for("the ponder search's depth 4", |l| {
            thinking(l).is_some_and(|t| t.0 == 4)
        });
        pondering.extend(more);
        pondering.push(last);
    }
    let last_ponder = pondering
        .iter()
        .rev()
        .find_map(|l| thinking(l))
        .unwrap_or_else(|| panic!("no thinking while pondering: {pondering:?}"));
    assert_eq!(last_ponder.0, 4, "{pondering:?}");
    e.send(&format!("usermove {reply}"));
    let (after, best) = e.wait_for("the move after the hit", |l| l.starts_with("move "));
    let after: Vec<_> = after.iter().filter_map(|l| thinking(l)).collect();
    assert_eq!(after.len(), 1, "{after:?}");
    let t = &after[0];
    assert_eq!(t.0, 4, "{t:?}");
    assert!(
        t.3 >= last_ponder.3 && t.2 >= last_ponder.2,
        "the search's nodes and time: {t:?} after {last_ponder:?}"
    );
    // The line is the reply's search's PV, without the reply, and starts with the move sent.
    pos.play(parse_move(pos.board(), &reply, false).unwrap());
    let sent = parse_move(pos.board(), best.strip_prefix("move ").unwrap(), false).unwrap();
    let san = lull::san::line_to_san(pos.board(), &[sent]).remove(0);
    assert_eq!(t.4[0], san, "{t:?}");
    assert_eq!(last_ponder.4[1], san, "{last_ponder:?}");
}

/// xboard sends `egtpath syzygy /EGT/Syzygy` at every start, whether the folder exists or
/// not: a missing folder gets one comment line, no error; a real one loads.
#[test]
fn the_default_egtpath_is_answered_quietly() {
    let (mut e, _) = session();
    e.send("egtpath syzygy /EGT/Syzygy");
    let lines = sync(&mut e, 3);
    assert!(lines.len() <= 1, "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("# ") || l.starts_with("telluser ")),
        "{lines:?}"
    );
    if cfg!(feature = "syzygy") {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/syzygy");
        e.send(&format!("egtpath syzygy {dir}"));
        let lines = sync(&mut e, 4);
        assert!(lines.iter().any(|l| l.starts_with("# found ")), "{lines:?}");
    }
}

/// Analysing a position that is already mate or stalemate prints a line that says so, and
/// `.` answers for it, not with the previous position's status.
#[test]
fn analysis_of_a_finished_game_prints_a_line_and_answers_the_status() {
    let (mut e, _) = session();
    e.send("analyze");
    e.wait_for("depth 3", |l| l.starts_with("3 "));
    e.send("setboard rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let (_, mated) = e.wait_for("the mate line", |l| l.contains("(checkmate)"));
    assert_eq!(mated, "0 -100000 0 0 (checkmate)");
    e.send(".");
    let (_, status) = e.wait_for("stat01", |l| l.starts_with("stat01:"));
    assert_eq!(status, "stat01: 0 0 0 0 0");
    e.send("setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let (_, stalemate) = e.wait_for("the stalemate line", |l| l.contains("(stalemate)"));
    assert_eq!(stalemate, "0 0 0 0 (stalemate)");
    e.send(".");
    let (_, status) = e.wait_for("stat01", |l| l.starts_with("stat01:"));
    assert_eq!(status, "stat01: 0 0 0 0 0");
    e.send("exit");
    sync(&mut e, 5);
}

/// The book options are offered as in UCI, and `go` in the book plays a book move without a
/// search.
#[test]
fn the_book_options_are_offered_and_play_book_moves() {
    let (mut e, features) = session();
    for expected in [
        "feature option=\"OwnBook -check 0\"",
        "feature option=\"BookFile -file \"",
        "feature option=\"BookDepth -spin 16 0 1024\"",
        "feature option=\"BookBestMove -check 0\"",
    ] {
        assert!(
            features.iter().any(|l| l == expected),
            "missing {expected} in {features:?}"
        );
    }
    let book = temp_file_of("xboard-gui", "book.bin");
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/games.pgn");
    let out = run_lull(&[
        "book",
        "build",
        pgn,
        "-o",
        book.to_str().unwrap(),
        "--min-games",
        "1",
    ]);
    assert!(out.status.success(), "{out:?}");
    e.send(&format!("option BookFile={}", book.display()));
    e.send("option OwnBook=1");
    e.send("option BookBestMove=1");
    let lines = sync(&mut e, 6);
    assert!(lines.iter().any(|l| l.starts_with("# book ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    e.send("post");
    e.send("go");
    let (before, mv) = e.wait_for("a move", |l| l.starts_with("move "));
    let _ = std::fs::remove_file(&book);
    assert!(
        before.iter().any(|l| l.starts_with("# book move ")),
        "{before:?}"
    );
    assert!(
        !before.iter().any(|l| thinking(l).is_some()),
        "searched: {before:?}"
    );
    let pos = Position::startpos();
    assert!(parse_move(pos.board(), mv.strip_prefix("move ").unwrap(), false).is_ok());
}

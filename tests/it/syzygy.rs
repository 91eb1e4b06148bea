//! Syzygy tablebases: the probes agree with python-chess's own prober on thousands
//! of positions, Lull converts won endings to mate and holds a drawn one in games against
//! itself, `tbhits` shows in `info` lines, and bad `SyzygyPath` values (UCI and XBoard) get an
//! error line while the engine carries on.
//!
//! The tables are the few in `assets/syzygy` (see assets/README.md); the positions with
//! python-chess's values are in `assets/syzygy/fixture.txt`, written by `make_fixture.py`
//! beside it. Tests that need the tables are compiled only with the `syzygy` feature; a
//! build without it is checked to refuse `SyzygyPath` with a clear error.

use crate::common;

use common::{EngineProcess, TIMEOUT};
use lull::options::apply_option;
use lull::search::Engine;
#[cfg(feature = "syzygy")]
use lull::{position::Position, tablebase::Tablebases, tablebase::Wdl, time::Limits};

/// The directory of the test tables, absolute (the engine process may run elsewhere).
fn tables_dir() -> String {
    format!("{}/assets/syzygy", env!("CARGO_MANIFEST_DIR"))
}

/// Every fixture position: WDL and DTZ through Lull (cozy-chess board converted for
/// shakmaty-syzygy) equal python-chess's `chess.syzygy` on the same files.
#[cfg(feature = "syzygy")]
#[test]
fn wdl_and_dtz_agree_with_python_chess() {
    let tb = Tablebases::load(&tables_dir()).unwrap();
    assert_eq!(tb.count(), 12);
    assert_eq!(tb.max_pieces(), 4);
    let fixture = std::fs::read_to_string(format!("{}/fixture.txt", tables_dir())).unwrap();
    let (mut agreed, mut disagreed) = (0, Vec::new());
    for line in fixture.lines().filter(|l| !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split(';').collect();
        assert_eq!(parts.len(), 3, "bad fixture line {line}");
        let pos = Position::from_fen(parts[0]).unwrap();
        let wdl: i32 = parts[1].parse().unwrap();
        let dtz: i32 = parts[2].parse().unwrap();
        let ours = (
            tb.probe_wdl(pos.board()).map(Wdl::to_i32),
            tb.probe_dtz(pos.board()),
        );
        if ours == (Some(wdl), Some(dtz)) {
            agreed += 1;
        } else {
            disagreed.push(format!("{line}: lull {ours:?}"));
        }
    }
    println!("syzygy: {agreed} positions agree with python-chess");
    assert!(
        disagreed.is_empty(),
        "{} of {} disagree: {:#?}",
        disagreed.len(),
        agreed + disagreed.len(),
        &disagreed[..disagreed.len().min(10)]
    );
    assert!(agreed >= 3000, "only {agreed} positions");
    // The fixture covers every result, and both 3- and 4-piece positions.
    for v in ["-2", "0", "2"] {
        assert!(fixture.lines().any(|l| l.split(';').nth(1) == Some(v)));
    }
}

/// A position with castling rights is never probed (the tables hold none), nor one with too
/// many pieces.
#[cfg(feature = "syzygy")]
#[test]
fn castling_rights_and_large_positions_are_not_probed() {
    let tb = Tablebases::load(&tables_dir()).unwrap();
    let castle = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(castle.board()), None);
    let same = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(same.board()), Some(Wdl::Win));
    let five = Position::from_fen("4k3/8/8/8/8/8/3PP3/4K2R w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(five.board()), None);
    // A table that is not there (KRPvK) is no answer, not an error.
    let missing = Position::from_fen("4k3/8/8/8/8/8/4P3/4K2R w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(missing.board()), None);
}

/// How a game of Lull against itself ended.
#[cfg(feature = "syzygy")]
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// The side to move at the start mated.
    StarterMated,
    /// The other side mated.
    StarterWasMated,
    /// Draw by rule (repetition, fifty moves, insufficient material, stalemate).
    Draw,
    /// No result within the ply limit.
    Unfinished,
}

/// Plays `fen` out, Lull against itself at `nodes` nodes a move with the test tables, for at
/// most `max_plies`. After every move the tables must still give the starting side its
/// starting result (`expect`): a win is never let slip, a draw never lost.
#[cfg(feature = "syzygy")]
fn self_play(fen: &str, nodes: u64, max_plies: usize, expect: Wdl) -> (End, Vec<String>) {
    let mut engine = Engine::new(16);
    let found = apply_option(&mut engine, "SyzygyPath", Some(&tables_dir())).unwrap();
    assert!(found.unwrap().starts_with("found 12 tablebases"));
    let tb = Tablebases::load(&tables_dir()).unwrap();
    let mut pos = Position::from_fen(fen).unwrap();
    let starter = pos.side_to_move();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        if pos.legal_moves().is_empty() {
            return match (pos.in_check(), pos.side_to_move() == starter) {
                (true, true) => (End::StarterWasMated, moves),
                (true, false) => (End::StarterMated, moves),
                (false, _) => (End::Draw, moves),
            };
        }
        if pos.is_draw(0) {
            return (End::Draw, moves);
        }
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &[]);
        let mv = r.best_move.expect("a move");
        moves.push(pos.move_to_uci(mv));
        pos.play(mv);
        // The starting side's result, by the tables (the 4-piece tables cover the game; a
        // promotion to a piece without a table ends the check).
        if let Some(wdl) = tb.probe_wdl(pos.board()) {
            let for_starter = if pos.side_to_move() == starter {
                wdl
            } else {
                match wdl {
                    Wdl::Loss => Wdl::Win,
                    Wdl::BlessedLoss => Wdl::CursedWin,
                    Wdl::Draw => Wdl::Draw,
                    Wdl::CursedWin => Wdl::BlessedLoss,
                    Wdl::Win => Wdl::Loss,
                }
            };
            assert_eq!(
                for_starter, expect,
                "{fen}: after {moves:?} the starting side's result changed"
            );
        }
    }
    (End::Unfinished, moves)
}

#[cfg(feature = "syzygy")]
#[test]
fn won_endings_are_converted_to_mate() {
    for fen in [
        // KQvK, KRvK and a won KPvK (the pawn far from the black king).
        "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/4K2R w - - 0 1",
        "8/4k3/8/8/8/8/1P6/1K6 w - - 0 1",
    ] {
        let (end, moves) = self_play(fen, 20_000, 200, Wdl::Win);
        assert_eq!(end, End::StarterMated, "{fen}: {moves:?}");
        println!("{fen}: mate in {} plies", moves.len());
    }
}

#[cfg(feature = "syzygy")]
#[test]
fn a_drawn_rook_ending_is_held() {
    // KRvKR: neither side may lose (each move keeps the draw by the tables), for 120 plies or
    // until a draw by rule.
    let fen = "8/8/3k4/8/2r5/8/4K3/7R w - - 0 1";
    let (end, moves) = self_play(fen, 20_000, 120, Wdl::Draw);
    assert!(
        matches!(end, End::Draw | End::Unfinished),
        "{fen}: {end:?} {moves:?}"
    );
}

/// The root of a won tablebase position shows the tablebase score, and every search reports
/// its tablebase hits.
#[cfg(feature = "syzygy")]
#[test]
fn the_root_is_ranked_by_dtz_and_scored_by_the_tables() {
    let mut engine = Engine::new(16);
    apply_option(&mut engine, "SyzygyPath", Some(&tables_dir())).unwrap();
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2R w - - 0 1").unwrap();
    let r = engine.search(&pos, &Limits::depth(3), &[]);
    assert_eq!(r.score, lull::params::TB_WIN);
    // One hit per root move ranked.
    assert!(r.tbhits >= pos.legal_moves().len() as u64, "{}", r.tbhits);
    // A drawn root: only the moves that keep the draw stay, and the score is a draw.
    let drawn = Position::from_fen("8/8/3k4/8/2r5/8/4K3/7R w - - 0 1").unwrap();
    let r = engine.search(&drawn, &Limits::depth(6), &[]);
    assert_eq!(r.score, 0);
    // Syzygy50MoveRule off: the same, a win is a win.
    apply_option(&mut engine, "Syzygy50MoveRule", Some("false")).unwrap();
    let r = engine.search(&pos, &Limits::depth(3), &[]);
    assert_eq!(r.score, lull::params::TB_WIN);
    // SyzygyProbeLimit 3: a 3-piece root is still ranked, a 4-piece one is not (its score
    // is the search's own, never the tablebase win); 0: no probe at all.
    apply_option(&mut engine, "SyzygyProbeLimit", Some("3")).unwrap();
    let r = engine.search(&pos, &Limits::depth(3), &[]);
    assert_eq!(r.score, lull::params::TB_WIN);
    // KRvKB, won (a DTZ of 20 plies, no capture at once).
    let won4 = Position::from_fen("8/2b5/8/8/4R3/2K5/8/3k4 w - - 0 1").unwrap();
    apply_option(&mut engine, "SyzygyProbeLimit", Some("4")).unwrap();
    let r = engine.search(&won4, &Limits::depth(3), &[]);
    assert_eq!(r.score, lull::params::TB_WIN);
    apply_option(&mut engine, "SyzygyProbeLimit", Some("3")).unwrap();
    let r = engine.search(&won4, &Limits::depth(3), &[]);
    // (A tablebase win found inside the search is TB_WIN less its ply, never TB_WIN.)
    assert_ne!(r.score, lull::params::TB_WIN);
    apply_option(&mut engine, "SyzygyProbeLimit", Some("0")).unwrap();
    let r = engine.search(&drawn, &Limits::depth(6), &[]);
    assert_eq!(r.tbhits, 0);
}

/// The quiescence search probes after its captures with `SyzygyProbeDepth` 1, not with more:
/// at depth 1 every child of the root is a quiescence node.
#[cfg(feature = "syzygy")]
#[test]
fn the_quiescence_search_probes_only_at_probe_depth_1() {
    let mut engine = Engine::new(16);
    apply_option(&mut engine, "SyzygyPath", Some(&tables_dir())).unwrap();
    // KRRvKR, Black to move: Rxd2 leads into KRvKR.
    let pos = Position::from_fen("3k4/8/8/8/3r4/8/3R4/3RK3 b - - 0 1").unwrap();
    let r = engine.search(&pos, &Limits::depth(1), &[]);
    assert!(r.tbhits > 0, "{}", r.tbhits);
    apply_option(&mut engine, "SyzygyProbeDepth", Some("2")).unwrap();
    let r = engine.search(&pos, &Limits::depth(1), &[]);
    assert_eq!(r.tbhits, 0);
}

/// The binary: `tbhits` in `info` lines, from the root ranking and from the probes of the
/// search (a 5-piece root whose captures lead into the tables).
#[cfg(feature = "syzygy")]
#[test]
fn tbhits_appear_in_uci_info_lines() {
    let mut e = EngineProcess::spawn(&[]);
    e.send("uci");
    e.wait_for("uciok", |l| l == "uciok");
    e.send(&format!("setoption name SyzygyPath value {}", tables_dir()));
    let (_, found) = e.wait_for("found", |l| l.starts_with("info string found"));
    assert_eq!(
        found,
        "info string found 12 tablebases (12 WDL and 12 DTZ files, up to 4 pieces)"
    );
    // KRPvKR: trading the rooks or taking the pawn enters the tables.
    e.send("position fen 8/8/3k4/3r4/8/3K4/3R3P/8 w - - 0 1");
    e.send("go depth 10");
    let (lines, _) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
    let hits = tbhits(&lines);
    assert!(hits.last().is_some_and(|&h| h > 0), "{lines:?}");
    // A 4-piece root: ranked by the tables, the score is a tablebase win (shown as
    // `cp 20000`, as Stockfish shows it: never a mate score the search did not prove, nor a
    // centipawn value near the mates).
    e.send("position fen 8/8/8/4k3/8/8/8/4K2R w - - 0 1");
    e.send("go depth 4");
    let (lines, _) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(
        last.contains(&format!("score cp {}", lull::params::TB_WIN_SHOWN)),
        "{last}"
    );
    assert!(tbhits(&lines).iter().all(|&h| h >= 14), "{lines:?}");
    e.send("quit");
    e.wait_exit(TIMEOUT);
}

/// The `tbhits` values of the `info depth` lines.
fn tbhits(lines: &[String]) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "tbhits")?;
            words.get(i + 1)?.parse().ok()
        })
        .collect()
}

/// Bad `SyzygyPath` values: one error line each, no tables afterwards, and the engine goes
/// on searching. An empty value is no tables.
#[test]
fn bad_syzygy_paths_get_an_error_and_the_engine_carries_on() {
    let garbage = common::temp_file_of("syzygy", "garbage");
    std::fs::create_dir_all(&garbage).unwrap();
    // A table file of a plausible name whose contents are not a table.
    std::fs::write(garbage.join("KQvK.rtbw"), vec![0x55u8; 4096]).unwrap();
    std::fs::write(garbage.join("KQvK.rtbz"), b"not a table").unwrap();
    let mut e = EngineProcess::spawn(&[]);
    e.send("uci");
    e.wait_for("uciok", |l| l == "uciok");
    let not_a_dir = format!("{}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
    let half_bad = format!("{}:/no/such/dir", tables_dir());
    for bad in ["/no/such/dir", not_a_dir.as_str(), half_bad.as_str()] {
        e.send(&format!("setoption name SyzygyPath value {bad}"));
        let (_, line) = e.wait_for("error", |l| l.starts_with("info string"));
        assert!(line.starts_with("info string error: "), "{bad}: {line}");
        // No tables now: a 4-piece root is searched, not ranked.
        e.send("position fen 8/8/8/4k3/8/8/8/4K2R w - - 0 1");
        e.send("go depth 3");
        let (lines, _) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
        assert_eq!(tbhits(&lines).last(), Some(&0), "{bad}: {lines:?}");
    }
    e.send("setoption name SyzygyPath value <empty>");
    let (_, line) = e.wait_for("info string", |l| l.starts_with("info string"));
    assert!(line.starts_with("info string found 0 tablebases"), "{line}");
    // Tables that are not tables: found (the files are opened at the first probe), and the
    // probes that fail are no answer: the search goes on and plays.
    if cfg!(feature = "syzygy") {
        e.send(&format!(
            "setoption name SyzygyPath value {}",
            garbage.display()
        ));
        let (_, line) = e.wait_for("info string", |l| l.starts_with("info string"));
        assert!(line.starts_with("info string"), "{line}");
        e.send("position fen 8/8/8/3k4/8/8/8/Q3K3 w - - 0 1");
        e.send("go depth 5");
        let (lines, best) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
        assert!(best.len() > "bestmove ".len(), "{lines:?}");
    }
    e.send("setoption name SyzygyProbeDepth value 0");
    let (_, line) = e.wait_for("error", |l| l.starts_with("info string"));
    assert!(line.contains("out of range 1..100"), "{line}");
    e.send("isready");
    e.wait_for("readyok", |l| l == "readyok");
    e.send("quit");
    e.wait_exit(TIMEOUT);
}

/// XBoard: `egtpath syzygy PATH` loads the tables (a comment line says how many), another
/// kind of tablebase is refused, a bad path is an error.
#[cfg(feature = "syzygy")]
#[test]
fn xboard_egtpath_sets_the_syzygy_path() {
    let mut e = EngineProcess::spawn(&[]);
    e.send("xboard");
    e.send("protover 2");
    let (lines, _) = e.wait_for("feature done=1", |l| l == "feature done=1");
    assert!(lines[0].contains("egt=\"syzygy\""), "{}", lines[0]);
    e.send(&format!("egtpath syzygy {}", tables_dir()));
    let (_, line) = e.wait_for("found", |l| l.starts_with('#') || l.starts_with("Error"));
    assert!(line.starts_with("# found 12 tablebases"), "{line}");
    e.send("egtpath gaviota /tmp");
    let (_, line) = e.wait_for("Error", |l| l.starts_with("Error"));
    assert!(line.contains("only Syzygy"), "{line}");
    // A path that does not exist (xboard sends its default, /EGT/Syzygy, at every start) is
    // answered with a comment, not an error, and the tables stay.
    e.send("egtpath syzygy /no/such/dir");
    let (_, line) = e.wait_for("a comment", |l| {
        l.starts_with('#') || l.starts_with("Error")
    });
    assert!(
        line.starts_with("# egtpath syzygy /no/such/dir: no such directory"),
        "{line}"
    );
    e.send("ping 7");
    e.wait_for("pong", |l| l == "pong 7");
    e.send("quit");
    e.wait_exit(TIMEOUT);
}

/// A build without the `syzygy` feature (MIT only) refuses a path and says why; the other
/// Syzygy options are accepted with a note.
#[cfg(not(feature = "syzygy"))]
#[test]
fn without_the_feature_the_options_say_tablebases_are_not_compiled_in() {
    let mut engine = Engine::new(1);
    let err = apply_option(&mut engine, "SyzygyPath", Some(&tables_dir())).unwrap_err();
    assert!(err.contains("not compiled in"), "{err}");
    let note = apply_option(&mut engine, "SyzygyProbeLimit", Some("5")).unwrap();
    assert!(note.unwrap().contains("not compiled in"));
    assert_eq!(
        apply_option(&mut engine, "SyzygyPath", Some("<empty>")),
        Ok(Some(
            "found 0 tablebases (0 WDL and 0 DTZ files, up to 0 pieces)".to_string()
        ))
    );
}

//! The options GUIs and lichess-bot send (`UCI_AnalyseMode`, `UCI_ShowWDL`,
//! `UCI_LimitStrength` with `UCI_Elo`, `Skill Level`, `Statistics`) and the progress reports
//! (`currmove`, `lowerbound`/`upperbound`): through python-chess (`tests/python/gui_options.py`),
//! over raw UCI, and through the library where a deterministic measure is needed (the
//! strength levels' centipawn loss, the aspiration fails).

use crate::common;

use std::sync::{Arc, Mutex};

use common::{run_client, EngineProcess};
use lull::bench::BENCH_POSITIONS;
use lull::position::Position;
use lull::search::{Engine, ScoreBound, SearchReport};
use lull::skill;
use lull::time::Limits;

fn expect(check: &str, first_words: &str) -> String {
    let out = run_client("gui_options.py", &[check]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        stdout.lines().any(|l| l.starts_with(first_words)),
        "{check}: expected a line starting '{first_words}', got:\n{stdout}"
    );
    stdout
}

#[test]
fn python_chess_configures_every_new_option_and_the_old_ones() {
    expect("configure", "configure ok");
}

#[test]
fn wdl_sums_to_1000_and_moves_with_the_score() {
    expect("wdl", "wdl ok");
}

#[test]
fn analyse_mode_searches_as_tactical_mode_does() {
    expect("analyse", "analyse ok");
}

#[test]
fn lower_strength_levels_search_fewer_nodes_and_still_mate() {
    expect("strength", "strength ok");
}

#[test]
fn currmove_comes_after_the_first_second() {
    expect("currmove", "currmove ok");
}

/// `Statistics false` drops the `info string stats` line; true (the default) brings it back.
#[test]
fn the_statistics_line_is_switchable() {
    let mut lull = EngineProcess::spawn(&[]);
    let search = |lull: &mut EngineProcess| -> Vec<String> {
        lull.send("position startpos");
        lull.send("go depth 4");
        lull.wait_for("bestmove", |l| l.starts_with("bestmove")).0
    };
    let stats = |lines: &[String]| lines.iter().any(|l| l.starts_with("info string stats "));
    assert!(stats(&search(&mut lull)), "on by default");
    lull.send("setoption name Statistics value false");
    assert!(!stats(&search(&mut lull)));
    lull.send("setoption name Statistics value true");
    assert!(stats(&search(&mut lull)));
    lull.send("isready");
    let (lines, _) = lull.wait_for("readyok", |l| l == "readyok");
    assert!(
        lines.iter().all(|l| !l.contains("error")),
        "an option was refused: {lines:?}"
    );
}

/// The reports of a search with progress reports from the first millisecond.
fn reports(fen: &str, depth: i32) -> Vec<SearchReport> {
    let mut engine = Engine::new(16);
    engine.options.progress_after_ms = 0;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    engine.set_report_sink(Some(Arc::new(move |r: &SearchReport| {
        sink.lock().unwrap().push(r.clone());
    })));
    let pos = Position::from_fen(fen).unwrap();
    engine.search(&pos, &Limits::depth(depth), &[]);
    let out = seen.lock().unwrap().clone();
    out
}

/// An aspiration search that fails is reported with its bound before the iteration's exact
/// score, and the root moves are reported one by one, numbered from 1.
#[test]
fn aspiration_fails_are_reported_as_bounds_and_root_moves_as_currmove() {
    // WAC.002-like sacrifice: the score jumps between iterations.
    let fen = "r1b1k1nr/1p1n1pbp/p1pQ2p1/4p3/2B1PB2/2q2N2/P1P2PPP/1R1R2K1 w k - 0 1";
    let reports = reports(fen, 11);
    let bounds: Vec<_> = reports
        .iter()
        .filter_map(|r| match r {
            SearchReport::Iteration(it) if it.bound != ScoreBound::Exact => Some(it),
            _ => None,
        })
        .collect();
    assert!(!bounds.is_empty(), "no aspiration fail reported");
    for b in &bounds {
        // Each bound is followed, later, by the exact report of its depth.
        assert!(reports.iter().any(|r| matches!(r,
            SearchReport::Iteration(it) if it.bound == ScoreBound::Exact && it.depth == b.depth)));
        assert!(!b.pv.is_empty());
    }
    let legal = Position::from_fen(fen).unwrap().legal_moves().len();
    let mut numbers_at_depth_5 = Vec::new();
    for r in &reports {
        if let SearchReport::CurrMove { depth, number, .. } = r {
            assert!((1..=legal).contains(number));
            if *depth == 5 {
                numbers_at_depth_5.push(*number);
            }
        }
    }
    assert_eq!(numbers_at_depth_5.first(), Some(&1));
    // Without progress reports (the default's first second), none of either kind.
    let mut engine = Engine::new(16);
    let seen = Arc::new(Mutex::new(0usize));
    let sink = Arc::clone(&seen);
    engine.set_report_sink(Some(Arc::new(move |r: &SearchReport| {
        let progress = match r {
            SearchReport::CurrMove { .. } => true,
            SearchReport::Iteration(it) => it.bound != ScoreBound::Exact,
            SearchReport::NoLegalMove { .. } => false,
        };
        *sink.lock().unwrap() += usize::from(progress);
    })));
    engine.search(&Position::from_fen(fen).unwrap(), &Limits::depth(6), &[]);
    assert_eq!(*seen.lock().unwrap(), 0);
}

/// The strength levels play measurably weaker: over the 50 bench positions, the centipawn
/// loss of the chosen move (judged by a depth-9 search of each move at full strength) falls
/// as the level rises, and level 20 is the full search (the judge's own move). Deterministic: one thread, a fresh
/// engine per search, the choice seeded by the position.
#[test]
fn lower_levels_lose_more_centipawns_per_move() {
    let mut engine;
    let judge_depth = 9;
    let mut loss = std::collections::BTreeMap::new();
    for pos in BENCH_POSITIONS {
        let pos = Position::from_fen(pos).unwrap();
        engine = Engine::new(16);
        let best = engine.search(&pos, &Limits::depth(judge_depth), &[]);
        let Some(best_move) = best.best_move else {
            continue;
        };
        for level in [0.0, 10.0, 20.0] {
            engine = Engine::new(16);
            let level_opt = (level < 20.0).then_some(level);
            let played = skill::search(
                &mut engine,
                &pos,
                &Limits::depth(judge_depth),
                &[],
                level_opt,
            );
            let mv = played.best_move.expect("a move");
            assert!(pos.legal_moves().contains(&mv));
            let cp = if mv == best_move {
                0
            } else {
                engine = Engine::new(16);
                let judged = engine.search(&pos, &Limits::depth(judge_depth), &[mv]);
                (best.score - judged.score).clamp(0, 1000)
            };

            *loss.entry(level as i64).or_insert(0i64) += i64::from(cp);
        }
    }
    let l: Vec<i64> = loss.values().copied().collect();
    eprintln!("centipawn loss by level 0, 10, 20: {l:?}");
    assert!(
        l[0] > l[1] && l[1] > l[2],
        "centipawn loss by level 0, 10, 20: {l:?}"
    );
    // Level 20 is the judge's own search: the same move everywhere.
    assert_eq!(l[2], 0);
}

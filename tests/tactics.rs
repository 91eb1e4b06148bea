//! Tactics found at the depth they need (issue #15): a mate in 2 is a search of a few plies,
//! and the pruning must not hide it. Each position is searched from a fresh engine to a fixed
//! depth on one thread, so the result is the same on every machine.

use lull::position::Position;
use lull::search::Engine;
use lull::time::Limits;
use lull::tools::solve::mate_moves;

/// The mate (in moves, for the side to move) reported by a fresh search to `depth`.
fn mate_at(fen: &str, depth: i32) -> Option<i32> {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new(16);
    let r = engine.search(&pos, &Limits::depth(depth), &[]);
    assert_eq!(r.depth, depth);
    mate_moves(r.score)
}

#[test]
fn quiet_mates_in_two_are_found_by_depth_six() {
    // The examples of issue #15 (Ne7 and Ne4, each a quiet key move), and the first mate in 2
    // of the mate_in_2 collection (Nf5: its mate, Rc5#, is a quiet check that late-move
    // pruning used to drop).
    for fen in [
        "r2qrb2/p1pn1Qp1/1p4Nk/4PR2/3n4/7N/P5PP/R6K w - - 0 1",
        "8/4nQp1/6P1/N1Kpk2p/3p3P/2Npb1P1/3P4/4R3 w - - 0 1",
        "1B6/2R2PN1/8/7P/2p1pk2/2Q1pN1P/8/1B5K w - - 0 1",
    ] {
        assert_eq!(mate_at(fen, 6), Some(2), "{fen}");
    }
}

#[test]
fn wac_001_queen_sacrifice_mates_by_depth_five() {
    // Qg6 fxg6 Nxg6#: the queen is given, and the defender's static evaluation (a queen up)
    // must not be trusted by reverse futility right after the sacrifice; Qg6 is a late quiet
    // move at the root, and it threatens Qh7# (two squares next to the king): reduced less.
    let fen = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
    assert_eq!(mate_at(fen, 5), Some(2));
}

#[test]
fn go_mate_returns_the_shortest_mate() {
    // Qf6+ mates in 3 and is found first (depth 3); Nf5 mates in 2. `go mate 3` must not stop
    // at the first mate in at most 3: it answers with the mate in 2.
    let pos = Position::from_fen("1B6/2R2PN1/8/7P/2p1pk2/2Q1pN1P/8/1B5K w - - 0 1").unwrap();
    let mut engine = Engine::new(16);
    let limits = Limits {
        mate: Some(3),
        ..Limits::default()
    };
    let r = engine.search(&pos, &limits, &[]);
    assert_eq!(mate_moves(r.score), Some(2), "depth {}", r.depth);
    assert_eq!(pos.move_to_uci(r.best_move.unwrap()), "g7f5");
    // And it stops once that is proven, not at the maximum depth.
    assert!(r.depth <= 6, "depth {}", r.depth);
}

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
    // The first example of issue #15 (Ne7, a quiet key move: reverse futility at the
    // defender's node, where beta is a mate score, used to hide it), and the first mate in 2
    // of the mate_in_2 collection (Nf5: its mate, Rc5#, is a quiet check that late-move
    // pruning dropped while the search hunted for a shorter mate than Qf6+'s mate in 3).
    for fen in [
        "r2qrb2/p1pn1Qp1/1p4Nk/4PR2/3n4/7N/P5PP/R6K w - - 0 1",
        "1B6/2R2PN1/8/7P/2p1pk2/2Q1pN1P/8/1B5K w - - 0 1",
    ] {
        assert_eq!(mate_at(fen, 6), Some(2), "{fen}");
    }
}

#[test]
fn wac_001_mate_is_not_hidden_by_delta_pruning() {
    // Qg6 fxg6 Nxg6#. Once the search reaches the position after Qg6 fxg6 with a ply left,
    // the quiescence search must play the mating capture Nxg6# (a pawn for the knight: delta
    // pruning used to drop it, as no material count foresees a mate).
    let fen = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
    let mut pos = Position::from_fen(fen).unwrap();
    for uci in ["g3g6", "f7g6"] {
        let mv = pos.parse_uci_move(uci).unwrap();
        pos.play(mv);
    }
    let mut engine = Engine::new(16);
    // White is a queen down: with alpha at 0, a pawn's worth (plus the margin) cannot lift the
    // stand pat to alpha, which is exactly when delta pruning fires.
    let r = engine.quiesce(&pos, 0, 1, 0);
    assert_eq!(mate_moves(r.score), Some(1), "score {}", r.score);
    assert_eq!(pos.move_to_uci(r.pv[0]), "e5g6");
}

#[test]
fn go_mate_returns_the_shortest_mate() {
    // mate_in_2.epd line 23: the search sees a mate in 3 (Nf7+) before the mate in 2. `go mate
    // 3` must not stop at the first mate in at most 3: it answers with the mate in 2, and its
    // PV mates.
    let pos =
        Position::from_fen("1nbk1b1r/1r6/p2P2pp/1B2PpN1/2p2P2/2P1B3/7P/R3K2R w - - 0 1").unwrap();
    let mut engine = Engine::new(16);
    let limits = Limits {
        mate: Some(3),
        ..Limits::default()
    };
    let r = engine.search(&pos, &limits, &[]);
    assert_eq!(mate_moves(r.score), Some(2), "depth {}", r.depth);
    let mut p = pos.clone();
    for &mv in &r.pv {
        p.play(mv);
    }
    assert_eq!(r.pv.len(), 3, "{:?}", r.pv);
    assert!(p.is_checkmate());
    // And it stops once that is proven, not at the maximum depth.
    assert!(r.depth <= 6, "depth {}", r.depth);
}

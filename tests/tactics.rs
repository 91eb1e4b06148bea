//! Tactics (issue #15): `go mate N` answers with the shortest mate. The search is run from a
//! fresh engine on one thread, so the result is the same on every machine.

use lull::position::Position;
use lull::search::Engine;
use lull::time::Limits;
use lull::tools::solve::mate_moves;

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

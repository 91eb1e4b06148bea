//! The evaluation's feature trace (what `lull tune` fits) reproduces `evaluate` exactly, on
//! the bench positions and on drawish endings. An integration test: the bench positions live
//! with the search's bench, which the evaluation module itself must not import.

use lull::bench::BENCH_POSITIONS;
use lull::cozy_chess::Board;
use lull::eval::layout::{self, WEIGHTS};
use lull::eval::{evaluate, EvalTrace, DRAWISH_DIVISOR, S};

#[test]
fn the_trace_reproduces_evaluate() {
    // Sum of weight x feature, tapered, scaled and with the tempo, is the evaluation, on
    // every bench position and on a few drawish endings (both sides to move).
    let mut fens: Vec<String> = BENCH_POSITIONS.iter().map(|f| f.to_string()).collect();
    fens.push("8/8/4k3/8/8/3NK3/8/8 w - - 0 1".to_string());
    fens.push("8/8/4k3/8/3n4/4K3/8/8 b - - 0 1".to_string());
    fens.push("8/8/4k3/8/3b4/4KP2/8/8 w - - 0 1".to_string());
    for fen in &fens {
        for stm in [" w ", " b "] {
            let fen = fen.replacen(" w ", stm, 1).replacen(" b ", stm, 1);
            let Ok(board) = fen.parse::<Board>() else {
                continue;
            };
            let trace = EvalTrace::new(&board);
            assert_eq!(trace.evaluate(&WEIGHTS), evaluate(&board), "{fen}");
        }
    }
    // The drawish scaling shows up in the trace: a lone knight (or nothing) cannot win.
    let b: Board = "8/8/4k3/8/8/3NK3/8/8 w - - 0 1".parse().unwrap();
    let t = EvalTrace::new(&b);
    assert!(t.drawish[0] && t.drawish[1]);
    assert_eq!(t.scale_divisor(100), DRAWISH_DIVISOR);
    // Other weights give another score, still through the same trace.
    let mut w = WEIGHTS.to_vec();
    w[layout::MATERIAL + 1] = S(
        w[layout::MATERIAL + 1].0 + 480,
        w[layout::MATERIAL + 1].1 + 480,
    );
    assert_eq!(t.evaluate(&w), t.evaluate(&WEIGHTS) + 30);
}

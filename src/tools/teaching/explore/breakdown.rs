//! The static evaluation of one position, taken apart for the page (`POST /api/eval`): the
//! hand-crafted evaluation's terms in groups (material, piece-square tables, mobility, pawn
//! structure, …), each with its midgame and endgame sums and its tapered value from White's
//! view, then what turns their sum into the score (the drawish scaling, the side to move, the
//! tempo); and the network's output bucket and output. A leaf of the quiescence tree stands
//! pat on this number, so the page shows where it comes from.

use cozy_chess::{Board, Color};
use serde_json::{json, Value};

use crate::eval::layout::{self, WEIGHTS};
use crate::eval::{taper, EvalTrace};
use crate::nnue::Network;

/// The groups of the evaluation's features, by their flat index range in [`layout`].
const GROUPS: &[(&str, usize, usize)] = &[
    ("material", layout::MATERIAL, layout::PST),
    ("piece-square tables", layout::PST, layout::MOBILITY_KNIGHT),
    ("mobility", layout::MOBILITY_KNIGHT, layout::BISHOP_PAIR),
    ("bishop pair", layout::BISHOP_PAIR, layout::DOUBLED_PAWN),
    (
        "doubled and isolated pawns",
        layout::DOUBLED_PAWN,
        layout::PASSED_PAWN,
    ),
    ("passed pawns", layout::PASSED_PAWN, layout::ROOK_OPEN_FILE),
    (
        "rooks on open files",
        layout::ROOK_OPEN_FILE,
        layout::KING_SHIELD,
    ),
    ("king shield", layout::KING_SHIELD, layout::THREAT_BY_PAWN),
    ("threats by pawns", layout::THREAT_BY_PAWN, layout::TEMPO),
];

/// The hand-crafted evaluation of `board` taken apart. `total` (side to move) equals
/// [`crate::eval::evaluate`].
pub fn hce_breakdown(board: &Board) -> Value {
    let trace = EvalTrace::new(board);
    let coefficients = trace.coefficients();
    let mut terms = Vec::new();
    for &(name, from, to) in GROUPS {
        let (mut mg, mut eg) = (0, 0);
        for &(i, n) in coefficients.iter().filter(|(i, _)| (from..to).contains(i)) {
            mg += WEIGHTS[i].0 * n;
            eg += WEIGHTS[i].1 * n;
        }
        terms.push(json!({
            "term": name,
            "mg": mg,
            "eg": eg,
            "white": taper(mg, eg, trace.phase),
        }));
    }
    let danger = trace.danger[0] - trace.danger[1];
    terms.push(json!({
        "term": "king danger",
        "mg": danger,
        "eg": 0,
        "white": taper(danger, 0, trace.phase),
    }));
    let unscaled = trace.white_unscaled(&WEIGHTS);
    let divisor = trace.scale_divisor(unscaled);
    let scaled = unscaled / divisor;
    let tempo = WEIGHTS[layout::TEMPO];
    let tempo = taper(tempo.0, tempo.1, trace.phase);
    let stm = if board.side_to_move() == Color::White {
        scaled
    } else {
        -scaled
    };
    json!({
        "phase": trace.phase,
        "phase_total": crate::eval::PHASE_TOTAL,
        "terms": terms,
        "white_unscaled": unscaled,
        "drawish_divisor": divisor,
        "white": scaled,
        "tempo": tempo,
        "total": stm + tempo,
    })
}

/// The network's view of `board`: its output bucket (of how many) and its output for the
/// side to move, in centipawns.
pub fn nnue_breakdown(network: &Network, board: &Board) -> Value {
    json!({
        "bucket": network.bucket(board),
        "buckets": network.output_buckets(),
        "hidden": network.hidden(),
        "pieces": board.occupied().len(),
        "total": network.evaluate(board),
    })
}

/// Both evaluations of `board` (the network's only when one is embedded).
pub fn breakdown(board: &Board) -> Value {
    let nnue = Network::embedded().map(|n| nnue_breakdown(&n, board));
    json!({ "hce": hce_breakdown(board), "nnue": nnue })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    /// The parts add up to what the engine's evaluation says, in positions with every kind of
    /// term: the start, a middlegame, a pawn ending (drawish scaling), Black to move.
    #[test]
    fn the_parts_add_up_to_the_evaluation() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9",
            "8/5k2/8/3p4/3P4/8/5K2/8 w - - 0 1",
            "4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1 b - - 0 1",
            "8/8/4k3/8/1B6/8/4K3/8 w - - 0 1",
        ] {
            let board: Board = fen.parse().unwrap();
            let b = hce_breakdown(&board);
            assert_eq!(b["total"], evaluate(&board), "{fen}");
            // Each group's midgame and endgame sums add up to the whole (the tapered parts
            // may differ from the tapered whole by the rounding of each).
            let terms = b["terms"].as_array().unwrap();
            let mg: i64 = terms.iter().map(|t| t["mg"].as_i64().unwrap()).sum();
            let eg: i64 = terms.iter().map(|t| t["eg"].as_i64().unwrap()).sum();
            let phase = b["phase"].as_i64().unwrap() as i32;
            assert_eq!(
                taper(mg as i32, eg as i32, phase) as i64,
                b["white_unscaled"].as_i64().unwrap(),
                "{fen}"
            );
            let white: i64 = terms.iter().map(|t| t["white"].as_i64().unwrap()).sum();
            assert!(
                (white - b["white_unscaled"].as_i64().unwrap()).abs() <= terms.len() as i64,
                "{fen}"
            );
        }
        // A lone bishop cannot win: the drawish scaling divides the score.
        let board: Board = "8/8/4k3/8/1B6/8/4K3/8 w - - 0 1".parse().unwrap();
        assert!(hce_breakdown(&board)["drawish_divisor"].as_i64().unwrap() > 1);
        // The start position is material-equal: no material term.
        let board = Board::default();
        assert_eq!(hce_breakdown(&board)["terms"][0]["mg"], 0);
    }

    #[test]
    fn the_network_part_names_its_bucket_and_output() {
        let Some(network) = Network::embedded() else {
            return;
        };
        let board: Board = "8/5k2/8/3p4/3P4/8/5K2/8 w - - 0 1".parse().unwrap();
        let b = nnue_breakdown(&network, &board);
        assert_eq!(b["pieces"], 4);
        assert_eq!(b["bucket"], network.bucket(&board));
        assert!(b["bucket"].as_u64().unwrap() < b["buckets"].as_u64().unwrap());
        assert_eq!(b["total"], network.evaluate(&board));
    }
}

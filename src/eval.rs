//! Static evaluation: tapered midgame/endgame material and piece-square tables.
//!
//! Everything is in centipawns, from the point of view of the side to move. The tables are
//! Lull's own, generated from a few readable rules (centralisation, pawn advancement, king
//! shelter in the midgame and king activity in the endgame) by `const fn`s, so that each number
//! can be traced to an idea. A richer evaluation grows behind [`evaluate`].

use cozy_chess::{Board, Color, Piece, Square};

/// Midgame material values: pawn, knight, bishop, rook, queen, king.
pub const MATERIAL_MG: [i32; 6] = [85, 330, 345, 470, 1000, 0];
/// Endgame material values.
pub const MATERIAL_EG: [i32; 6] = [110, 300, 320, 530, 950, 0];
/// Game-phase weight of each piece; the full starting material sums to [`PHASE_TOTAL`].
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position (24 = all pieces on the board).
pub const PHASE_TOTAL: i32 = 24;
/// Bonus for having the move, in centipawns.
pub const TEMPO: i32 = 12;

/// Distance of a square from the centre, 0 (d4,e4,d5,e5) .. 6 (corners): file + rank distance.
const fn center_distance(sq: usize) -> i32 {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    let fd = if file < 4 { 3 - file } else { file - 4 };
    let rd = if rank < 4 { 3 - rank } else { rank - 4 };
    fd + rd
}

/// Piece-square value for white (square index a1 = 0), midgame (`eg = false`) or endgame.
const fn pst_value(piece: usize, sq: usize, eg: bool) -> i32 {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    let cd = center_distance(sq);
    let central_file = file >= 2 && file <= 5;
    match piece {
        // Pawns: advance them, especially in the endgame; in the midgame prefer central
        // pawns and keep the king's pawns (f,g,h) home.
        0 => {
            if rank == 0 || rank == 7 {
                0
            } else if eg {
                [0, -5, -2, 8, 22, 45, 80, 0][rank as usize]
            } else {
                let adv = [0, 0, 2, 6, 14, 30, 60, 0][rank as usize];
                let centre = if (file == 3 || file == 4) && rank >= 3 {
                    12
                } else {
                    0
                };
                let shelter = if file >= 5 && rank == 1 { 6 } else { 0 };
                let early_flank = if (file == 0 || file == 7) && rank >= 3 {
                    -6
                } else {
                    0
                };
                adv + centre + shelter + early_flank
            }
        }
        // Knights: strongly central, worst on the rim.
        1 => {
            if eg {
                12 - 6 * cd
            } else {
                20 - 9 * cd + if rank == 0 { -8 } else { 0 }
            }
        }
        // Bishops: mildly central, long diagonals.
        2 => {
            let diag = if file == rank || file + rank == 7 {
                6
            } else {
                0
            };
            if eg {
                8 - 3 * cd
            } else {
                12 - 4 * cd + diag + if rank == 0 { -6 } else { 0 }
            }
        }
        // Rooks: the seventh rank, central files in the midgame.
        3 => {
            if eg {
                if rank == 6 {
                    10
                } else {
                    0
                }
            } else {
                let seventh = if rank == 6 { 22 } else { 0 };
                let centre = if central_file && rank == 0 { 8 } else { 0 };
                seventh + centre - if file == 0 || file == 7 { 4 } else { 0 }
            }
        }
        // Queen: a little centralisation, not too early.
        4 => {
            if eg {
                15 - 5 * cd
            } else {
                6 - 2 * cd - if rank >= 3 { 4 } else { 0 }
            }
        }
        // King: sheltered on the back rank behind its pawns in the midgame, central in the
        // endgame.
        _ => {
            if eg {
                30 - 10 * cd
            } else {
                let back = [10, -10, -30, -45, -55, -60, -60, -60][rank as usize];
                let wing = [15, 25, 5, -15, -10, -15, 30, 15][file as usize];
                back + wing
            }
        }
    }
}

const fn build_table(eg: bool) -> [[i32; 64]; 6] {
    let mut t = [[0i32; 64]; 6];
    let mut p = 0;
    while p < 6 {
        let mut sq = 0;
        while sq < 64 {
            let material = if eg { MATERIAL_EG[p] } else { MATERIAL_MG[p] };
            t[p][sq] = material + pst_value(p, sq, eg);
            sq += 1;
        }
        p += 1;
    }
    t
}

/// Material plus piece-square value for white, indexed [piece][square], midgame.
pub static PST_MG: [[i32; 64]; 6] = build_table(false);
/// Material plus piece-square value for white, endgame.
pub static PST_EG: [[i32; 64]; 6] = build_table(true);

/// The game phase, 0 (bare kings and pawns) to [`PHASE_TOTAL`] (all pieces).
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for piece in Piece::ALL {
        phase += PHASE_WEIGHT[piece as usize] * board.pieces(piece).len() as i32;
    }
    phase.min(PHASE_TOTAL)
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut mg = 0;
    let mut eg = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        for piece in Piece::ALL {
            for sq in board.colored_pieces(color, piece) {
                // Black's squares are mirrored onto White's tables.
                let idx = if color == Color::White {
                    sq as usize
                } else {
                    sq.flip_rank() as usize
                };
                mg += sign * PST_MG[piece as usize][idx];
                eg += sign * PST_EG[piece as usize][idx];
            }
        }
    }
    let ph = phase(board);
    let score = (mg * ph + eg * (PHASE_TOTAL - ph)) / PHASE_TOTAL;
    let score = scale_drawish(board, score);
    let stm = if board.side_to_move() == Color::White {
        score
    } else {
        -score
    };
    stm + TEMPO
}

/// Pulls scores towards zero where the stronger side has no pawns and too little to mate
/// (e.g. a lone minor piece up), so the search does not chase meaningless material edges.
fn scale_drawish(board: &Board, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    let pawns = board.colored_pieces(strong, Piece::Pawn);
    if !pawns.is_empty() {
        return score;
    }
    let minors = (board.colored_pieces(strong, Piece::Knight)
        | board.colored_pieces(strong, Piece::Bishop))
    .len();
    let majors = (board.colored_pieces(strong, Piece::Rook)
        | board.colored_pieces(strong, Piece::Queen))
    .len();
    if majors == 0 && minors <= 1 {
        score / 16
    } else {
        score
    }
}

/// The square of `sq` seen from `color` (White unchanged, Black mirrored).
pub fn relative(sq: Square, color: Color) -> Square {
    if color == Color::White {
        sq
    } else {
        sq.flip_rank()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_is_balanced_and_symmetric() {
        let b = Board::default();
        assert_eq!(evaluate(&b), TEMPO);
        let black: Board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        assert_eq!(evaluate(&black), TEMPO);
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        let w: Board = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
            .parse()
            .unwrap();
        let b: Board = "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4"
            .parse()
            .unwrap();
        assert_eq!(evaluate(&w), evaluate(&b));
    }

    #[test]
    fn extra_queen_is_winning() {
        let b: Board = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        assert!(evaluate(&b) > 800);
        let b: Board = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1".parse().unwrap();
        assert!(evaluate(&b) < -800);
    }
}

//! Static evaluation: tapered midgame/endgame material and piece-square tables.
//!
//! Everything is in centipawns, from the point of view of the side to move. The tables are
//! Lull's own, generated from a few readable rules (centralisation, pawn advancement, king
//! shelter in the midgame and king activity in the endgame) by `const fn`s, so that each number
//! can be traced to an idea. A richer evaluation grows behind [`evaluate`].

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Piece, Square,
};

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

/// Mobility bonus per reachable square (not own pieces, not attacked by enemy pawns), by
/// piece: midgame and endgame. The count expected of a piece is subtracted first
/// ([`MOBILITY_EXPECTED`]) so that the bonus is centred.
pub const MOBILITY_MG: [i32; 6] = [0, 5, 5, 3, 1, 0];
/// See [`MOBILITY_MG`].
pub const MOBILITY_EG: [i32; 6] = [0, 4, 5, 5, 3, 0];
/// Squares a piece usually reaches, subtracted before the mobility bonus.
pub const MOBILITY_EXPECTED: [i32; 6] = [0, 4, 6, 6, 12, 0];
/// Bonus for the two bishops (midgame, endgame).
pub const BISHOP_PAIR: (i32, i32) = (28, 50);
/// Penalty per doubled pawn (a pawn behind another of its colour on the file).
pub const DOUBLED_PAWN: (i32, i32) = (-8, -20);
/// Penalty per isolated pawn (no friendly pawn on an adjacent file).
pub const ISOLATED_PAWN: (i32, i32) = (-10, -12);
/// Passed-pawn bonus by relative rank, midgame.
pub const PASSED_MG: [i32; 8] = [0, 0, 2, 8, 18, 35, 60, 0];
/// Passed-pawn bonus by relative rank, endgame.
pub const PASSED_EG: [i32; 8] = [0, 8, 12, 22, 40, 70, 110, 0];
/// Endgame bonus per square of distance between the enemy king and a passed pawn's
/// promotion path (minus our king's), scaled by rank.
pub const PASSED_KING_DISTANCE: i32 = 4;
/// Rook on a file without pawns / without own pawns (midgame, endgame).
pub const ROOK_OPEN_FILE: (i32, i32) = (28, 8);
/// See [`ROOK_OPEN_FILE`].
pub const ROOK_SEMI_OPEN_FILE: (i32, i32) = (12, 6);
/// Midgame bonus per own pawn shielding the king (on the king's and adjacent files, one or
/// two ranks ahead).
pub const KING_SHIELD: i32 = 10;
/// Weight of an attack on the king zone by knight, bishop, rook, queen.
pub const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Midgame king-danger penalty is units² / this, capped at [`KING_DANGER_MAX`].
pub const KING_DANGER_DIVISOR: i32 = 5;
/// Cap of the king-danger penalty, in centipawns.
pub const KING_DANGER_MAX: i32 = 500;
/// Penalty per piece (not pawn) attacked by an enemy pawn (midgame, endgame).
pub const THREAT_BY_PAWN: (i32, i32) = (-45, -35);

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
    let (wmg, weg) = positional(board, Color::White);
    let (bmg, beg) = positional(board, Color::Black);
    mg += wmg - bmg;
    eg += weg - beg;
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

/// Chebyshev distance between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Squares strictly in front of `sq` from `color`'s point of view (all files).
fn ranks_ahead(sq: Square, color: Color) -> BitBoard {
    let r = sq.rank() as u32;
    match color {
        Color::White => {
            if r >= 7 {
                BitBoard::EMPTY
            } else {
                BitBoard(!((1u64 << ((r + 1) * 8)) - 1))
            }
        }
        Color::Black => BitBoard((1u64 << (r * 8)) - 1),
    }
}

/// Mobility, pawn structure, passed pawns, bishop pair, rooks on open files, king safety and
/// pawn threats for `color` (midgame, endgame), from White's tables mirrored for Black.
fn positional(board: &Board, color: Color) -> (i32, i32) {
    let them = !color;
    let occ = board.occupied();
    let ours = board.colors(color);
    let our_pawns = board.colored_pieces(color, Piece::Pawn);
    let their_pawns = board.colored_pieces(them, Piece::Pawn);
    let mut their_pawn_attacks = BitBoard::EMPTY;
    for sq in their_pawns {
        their_pawn_attacks |= get_pawn_attacks(sq, them);
    }
    let mut our_pawn_attacks = BitBoard::EMPTY;
    for sq in our_pawns {
        our_pawn_attacks |= get_pawn_attacks(sq, color);
    }
    let mobility_area = !ours & !their_pawn_attacks;
    let their_king = board.king(them);
    let their_king_zone = get_king_moves(their_king) | their_king.bitboard();
    let (mut mg, mut eg) = (0, 0);
    let mut attack_units = 0;
    let mut attackers = 0;

    // Pieces: mobility and attacks on the enemy king's zone.
    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        for sq in board.colored_pieces(color, piece) {
            let attacks = match piece {
                Piece::Knight => get_knight_moves(sq),
                Piece::Bishop => get_bishop_moves(sq, occ),
                Piece::Rook => get_rook_moves(sq, occ),
                _ => get_bishop_moves(sq, occ) | get_rook_moves(sq, occ),
            };
            let count = (attacks & mobility_area).len() as i32 - MOBILITY_EXPECTED[piece as usize];
            mg += MOBILITY_MG[piece as usize] * count;
            eg += MOBILITY_EG[piece as usize] * count;
            let zone_hits = (attacks & their_king_zone).len() as i32;
            if zone_hits > 0 {
                attackers += 1;
                attack_units += KING_ATTACK_WEIGHT[piece as usize] * zone_hits;
            }
            if piece == Piece::Rook {
                let file = sq.file().bitboard();
                if (file & (our_pawns | their_pawns)).is_empty() {
                    mg += ROOK_OPEN_FILE.0;
                    eg += ROOK_OPEN_FILE.1;
                } else if (file & our_pawns).is_empty() {
                    mg += ROOK_SEMI_OPEN_FILE.0;
                    eg += ROOK_SEMI_OPEN_FILE.1;
                }
            }
        }
    }
    // King danger for the enemy: only with two attackers or more, quadratic in the units.
    if attackers >= 2 {
        mg += (attack_units * attack_units / KING_DANGER_DIVISOR).min(KING_DANGER_MAX);
    }

    // Bishop pair.
    if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
        mg += BISHOP_PAIR.0;
        eg += BISHOP_PAIR.1;
    }

    // Pawn structure and passed pawns.
    let our_king = board.king(color);
    for sq in our_pawns {
        let file_bb = sq.file().bitboard();
        let adjacent = sq.file().adjacent();
        let ahead = ranks_ahead(sq, color);
        if !(our_pawns & file_bb & ahead).is_empty() {
            mg += DOUBLED_PAWN.0;
            eg += DOUBLED_PAWN.1;
        }
        if (our_pawns & adjacent).is_empty() {
            mg += ISOLATED_PAWN.0;
            eg += ISOLATED_PAWN.1;
        }
        if (their_pawns & (file_bb | adjacent) & ahead).is_empty()
            && (our_pawns & file_bb & ahead).is_empty()
        {
            let rank = relative(sq, color).rank() as usize;
            mg += PASSED_MG[rank];
            eg += PASSED_EG[rank];
            // King distances to the square in front of the pawn matter in the endgame.
            let front = relative(sq, color)
                .try_offset(0, 1)
                .map(|f| relative(f, color));
            if let Some(front) = front {
                let d = distance(their_king, front) - distance(our_king, front);
                eg += PASSED_KING_DISTANCE * d * rank as i32 / 3;
            }
        }
    }

    // King shelter: own pawns one or two ranks in front of the king, on its file and the
    // adjacent ones.
    let k = relative(our_king, color);
    let mut shelter = BitBoard::EMPTY;
    for dr in 1..=2 {
        for df in -1..=1 {
            if let Some(s) = k.try_offset(df, dr) {
                shelter |= relative(s, color).bitboard();
            }
        }
    }
    mg += KING_SHIELD * (our_pawns & shelter).len() as i32;

    // Threats: enemy pieces attacked by our pawns.
    let hit = (board.colors(them) & !their_pawns & !board.pieces(Piece::King)) & our_pawn_attacks;
    mg -= THREAT_BY_PAWN.0 * hit.len() as i32;
    eg -= THREAT_BY_PAWN.1 * hit.len() as i32;
    (mg, eg)
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

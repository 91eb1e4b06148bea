//! Static evaluation: a tapered midgame/endgame sum of material, piece-square tables,
//! mobility, pawn structure, passed pawns, rooks on open files, king safety, pawn threats and
//! tempo, scaled down in drawish endings.
//!
//! Everything is in centipawns, from the point of view of the side to move. The tunable
//! weights are plain constant tables in [`weights`] (written by `lull tune`); [`layout`] lays
//! them out as one flat vector of (midgame, endgame) pairs, the features the tuner fits.
//!
//! The terms are computed once, by [`terms`], which hands every term to an [`Accumulator`]
//! (Ethereal's "EvalTrace" idea): the engine's accumulator ([`Sum`]) adds the weights, the
//! tuner's ([`EvalTrace`]) records which feature fired how often for which colour. Both are
//! monomorphised, so the engine pays nothing for the tracing and the tuner sees exactly the
//! evaluation the engine plays with.

#[rustfmt::skip]
pub mod weights;
pub mod layout;

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Piece, Square,
};

use layout::{PIECE_SQUARE, WEIGHTS};

/// A weight: (midgame, endgame) centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// Game-phase weight of each piece; the full starting material sums to [`PHASE_TOTAL`].
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position (24 = all pieces on the board).
pub const PHASE_TOTAL: i32 = 24;
/// Weight of an attack on the king zone by knight, bishop, rook, queen (not tuned: the
/// king danger is non-linear).
pub const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Midgame king-danger penalty is units² / this, capped at [`KING_DANGER_MAX`].
pub const KING_DANGER_DIVISOR: i32 = 5;
/// Cap of the king-danger penalty, in centipawns.
pub const KING_DANGER_MAX: i32 = 500;
/// Divisor of the score when the stronger side cannot win (see [`drawish_side`]).
pub const DRAWISH_DIVISOR: i32 = 16;

/// Receives the terms of the evaluation, each for one colour. The engine's [`Sum`] adds the
/// weights; the tuner's [`EvalTrace`] counts the features.
pub trait Accumulator {
    /// A piece of `color` on `sq` (relative to `color`: Black's squares mirrored): its
    /// material and piece-square features.
    fn piece(&mut self, color: Color, piece: usize, sq: usize);
    /// `count` times the feature at flat index `feature` (see [`layout`]) for `color`.
    fn add(&mut self, color: Color, feature: usize, count: i32);
    /// The non-linear king danger `color` inflicts on the enemy king (midgame centipawns,
    /// fixed: not a tuned feature).
    fn king_danger(&mut self, color: Color, mg: i32);
}

/// The engine's accumulator: the (midgame, endgame) sums per colour.
#[derive(Default)]
pub struct Sum {
    /// Midgame sum per colour (indexed by `Color as usize`).
    pub mg: [i32; 2],
    /// Endgame sum per colour.
    pub eg: [i32; 2],
}

impl Accumulator for Sum {
    #[inline(always)]
    fn piece(&mut self, color: Color, piece: usize, sq: usize) {
        let s = PIECE_SQUARE[piece][sq];
        self.mg[color as usize] += s.0;
        self.eg[color as usize] += s.1;
    }

    #[inline(always)]
    fn add(&mut self, color: Color, feature: usize, count: i32) {
        let s = WEIGHTS[feature];
        self.mg[color as usize] += s.0 * count;
        self.eg[color as usize] += s.1 * count;
    }

    #[inline(always)]
    fn king_danger(&mut self, color: Color, mg: i32) {
        self.mg[color as usize] += mg;
    }
}

/// The game phase, 0 (bare kings and pawns) to [`PHASE_TOTAL`] (all pieces).
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for piece in Piece::ALL {
        phase += PHASE_WEIGHT[piece as usize] * board.pieces(piece).len() as i32;
    }
    phase.min(PHASE_TOTAL)
}

/// Blends a midgame and an endgame value by the phase (integer division, as the engine does).
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut sum = Sum::default();
    terms(board, &mut sum);
    let mg = sum.mg[0] - sum.mg[1];
    let eg = sum.eg[0] - sum.eg[1];
    let ph = phase(board);
    let mut score = taper(mg, eg, ph);
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if drawish_side(board, strong) {
        score /= DRAWISH_DIVISOR;
    }
    let stm = if board.side_to_move() == Color::White {
        score
    } else {
        -score
    };
    let tempo = WEIGHTS[layout::TEMPO];
    stm + taper(tempo.0, tempo.1, ph)
}

/// Hands every term of the evaluation (all but the tempo, which [`evaluate`] adds for the
/// side to move after the drawish scaling) to `acc`, for both colours.
#[inline(always)]
pub fn terms<A: Accumulator>(board: &Board, acc: &mut A) {
    for color in Color::ALL {
        for piece in Piece::ALL {
            for sq in board.colored_pieces(color, piece) {
                // Black's squares are mirrored onto White's tables.
                acc.piece(color, piece as usize, relative(sq, color) as usize);
            }
        }
        positional(board, color, acc);
    }
}

/// The features of one position, for the tuner: how often each feature fired for each colour,
/// plus what the evaluation does with them that is not a weighted sum (phase, king danger,
/// drawish scaling, side to move). [`EvalTrace::evaluate`] turns it back into exactly what
/// [`evaluate`] says, for any weights.
#[derive(Clone, Debug)]
pub struct EvalTrace {
    /// Count of every feature (flat index, see [`layout`]) per colour.
    pub counts: Vec<[i32; 2]>,
    /// King danger inflicted by each colour (midgame centipawns).
    pub danger: [i32; 2],
    /// The game phase.
    pub phase: i32,
    /// Whether the score is divided by [`DRAWISH_DIVISOR`] when this colour is ahead.
    pub drawish: [bool; 2],
    /// The side to move.
    pub stm: Color,
}

impl Accumulator for EvalTrace {
    #[inline(always)]
    fn piece(&mut self, color: Color, piece: usize, sq: usize) {
        self.counts[layout::MATERIAL + piece][color as usize] += 1;
        self.counts[layout::PST + piece * 64 + sq][color as usize] += 1;
    }

    #[inline(always)]
    fn add(&mut self, color: Color, feature: usize, count: i32) {
        self.counts[feature][color as usize] += count;
    }

    #[inline(always)]
    fn king_danger(&mut self, color: Color, mg: i32) {
        self.danger[color as usize] += mg;
    }
}

impl EvalTrace {
    /// Traces the evaluation of `board`.
    pub fn new(board: &Board) -> Self {
        let mut trace = Self {
            counts: vec![[0; 2]; layout::NUM_WEIGHTS],
            danger: [0; 2],
            phase: phase(board),
            drawish: [
                drawish_side(board, Color::White),
                drawish_side(board, Color::Black),
            ],
            stm: board.side_to_move(),
        };
        terms(board, &mut trace);
        trace
    }

    /// White's count minus Black's of every feature that does not cancel out, tempo excluded.
    pub fn coefficients(&self) -> Vec<(usize, i32)> {
        self.counts
            .iter()
            .enumerate()
            .filter(|&(i, c)| i != layout::TEMPO && c[0] != c[1])
            .map(|(i, c)| (i, c[0] - c[1]))
            .collect()
    }

    /// The (midgame, endgame) sums from White's point of view with `weights`, king danger
    /// included, tempo excluded.
    pub fn white_sums(&self, weights: &[S]) -> (i32, i32) {
        let (mut mg, mut eg) = (self.danger[0] - self.danger[1], 0);
        for (i, n) in self.coefficients() {
            mg += weights[i].0 * n;
            eg += weights[i].1 * n;
        }
        (mg, eg)
    }

    /// The tapered score from White's point of view before the drawish scaling.
    pub fn white_unscaled(&self, weights: &[S]) -> i32 {
        let (mg, eg) = self.white_sums(weights);
        taper(mg, eg, self.phase)
    }

    /// The divisor the drawish scaling applies to a White-relative score (1 or
    /// [`DRAWISH_DIVISOR`]).
    pub fn scale_divisor(&self, white_score: i32) -> i32 {
        let strong = if white_score > 0 { 0 } else { 1 };
        if self.drawish[strong] {
            DRAWISH_DIVISOR
        } else {
            1
        }
    }

    /// The evaluation with `weights` (flat, see [`layout`]), side-to-move relative: equal to
    /// [`evaluate`] when `weights` are the engine's.
    pub fn evaluate(&self, weights: &[S]) -> i32 {
        let score = self.white_unscaled(weights);
        let score = score / self.scale_divisor(score);
        let stm = if self.stm == Color::White {
            score
        } else {
            -score
        };
        let tempo = weights[layout::TEMPO];
        stm + taper(tempo.0, tempo.1, self.phase)
    }
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
/// pawn threats for `color`, handed to `acc` (squares relative to `color`).
#[inline(always)]
fn positional<A: Accumulator>(board: &Board, color: Color, acc: &mut A) {
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
    let mut attack_units = 0;
    let mut attackers = 0;

    // 1. Pieces: mobility (a table by the number of reachable squares) and attacks on the
    //    enemy king's zone.
    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        let mobility = match piece {
            Piece::Knight => layout::MOBILITY_KNIGHT,
            Piece::Bishop => layout::MOBILITY_BISHOP,
            Piece::Rook => layout::MOBILITY_ROOK,
            _ => layout::MOBILITY_QUEEN,
        };
        for sq in board.colored_pieces(color, piece) {
            let attacks = match piece {
                Piece::Knight => get_knight_moves(sq),
                Piece::Bishop => get_bishop_moves(sq, occ),
                Piece::Rook => get_rook_moves(sq, occ),
                _ => get_bishop_moves(sq, occ) | get_rook_moves(sq, occ),
            };
            acc.add(
                color,
                mobility + (attacks & mobility_area).len() as usize,
                1,
            );
            let zone_hits = (attacks & their_king_zone).len() as i32;
            if zone_hits > 0 {
                attackers += 1;
                attack_units += KING_ATTACK_WEIGHT[piece as usize] * zone_hits;
            }
            if piece == Piece::Rook {
                let file = sq.file().bitboard();
                if (file & (our_pawns | their_pawns)).is_empty() {
                    acc.add(color, layout::ROOK_OPEN_FILE, 1);
                } else if (file & our_pawns).is_empty() {
                    acc.add(color, layout::ROOK_SEMI_OPEN_FILE, 1);
                }
            }
        }
    }
    // 2. King danger for the enemy: only with two attackers or more, quadratic in the units.
    if attackers >= 2 {
        acc.king_danger(
            color,
            (attack_units * attack_units / KING_DANGER_DIVISOR).min(KING_DANGER_MAX),
        );
    }

    // 3. Bishop pair.
    if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
        acc.add(color, layout::BISHOP_PAIR, 1);
    }

    // 4. Pawn structure and passed pawns.
    let our_king = board.king(color);
    for sq in our_pawns {
        let file_bb = sq.file().bitboard();
        let adjacent = sq.file().adjacent();
        let ahead = ranks_ahead(sq, color);
        if !(our_pawns & file_bb & ahead).is_empty() {
            acc.add(color, layout::DOUBLED_PAWN, 1);
        }
        if (our_pawns & adjacent).is_empty() {
            acc.add(color, layout::ISOLATED_PAWN, 1);
        }
        if (their_pawns & (file_bb | adjacent) & ahead).is_empty()
            && (our_pawns & file_bb & ahead).is_empty()
        {
            let rank = relative(sq, color).rank() as usize;
            acc.add(color, layout::PASSED_PAWN + rank, 1);
            // King distances to the square in front of the pawn (theirs minus ours, -7..7),
            // by the pawn's rank.
            let front = relative(sq, color)
                .try_offset(0, 1)
                .map(|f| relative(f, color));
            if let Some(front) = front {
                let d = distance(their_king, front) - distance(our_king, front);
                acc.add(
                    color,
                    layout::PASSED_KING_DISTANCE + rank * 15 + (d + 7) as usize,
                    1,
                );
            }
        }
    }

    // 5. King shelter: own pawns one or two ranks in front of the king, on its file and the
    //    adjacent ones.
    let k = relative(our_king, color);
    let mut shelter = BitBoard::EMPTY;
    for dr in 1..=2 {
        for df in -1..=1 {
            if let Some(s) = k.try_offset(df, dr) {
                shelter |= relative(s, color).bitboard();
            }
        }
    }
    acc.add(
        color,
        layout::KING_SHIELD,
        (our_pawns & shelter).len() as i32,
    );

    // 6. Threats: enemy pieces attacked by our pawns.
    let hit = (board.colors(them) & !their_pawns & !board.pieces(Piece::King)) & our_pawn_attacks;
    acc.add(color, layout::THREAT_BY_PAWN, hit.len() as i32);
}

/// Whether `strong` has no pawns and too little to mate (at most one minor piece, no rook or
/// queen): a score in its favour is then pulled towards zero, so the search does not chase
/// meaningless material edges.
pub fn drawish_side(board: &Board, strong: Color) -> bool {
    if !board.colored_pieces(strong, Piece::Pawn).is_empty() {
        return false;
    }
    let minors = (board.colored_pieces(strong, Piece::Knight)
        | board.colored_pieces(strong, Piece::Bishop))
    .len();
    let majors = (board.colored_pieces(strong, Piece::Rook)
        | board.colored_pieces(strong, Piece::Queen))
    .len();
    majors == 0 && minors <= 1
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
        let tempo = WEIGHTS[layout::TEMPO];
        let tempo = taper(tempo.0, tempo.1, phase(&b));
        assert_eq!(evaluate(&b), tempo);
        let black: Board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        assert_eq!(evaluate(&black), tempo);
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

//! Correction history: what the search learnt about the static evaluation's error in
//! positions that share a pawn structure or one side's pieces. After a node's search, the
//! difference between its result and its static evaluation moves three entries (the pawn
//! structure, White's pieces, Black's pieces, each for the side to move); the evaluation
//! of later nodes with the same keys is corrected by them before the search prunes by it
//! and before the quiescence search stands pat on it (Stockfish's correction histories).

use cozy_chess::{Board, Color, Piece};

use crate::params::{
    CORRECTION_LIMIT, CORRECTION_NON_PAWN_WEIGHT, CORRECTION_PAWN_WEIGHT, CORRECTION_SCALE,
    TB_BOUND,
};

/// Entries per table and side to move (a power of two).
const ENTRIES: usize = 16_384;
/// The table a key falls in: pawn structure, White's pieces, Black's pieces.
const TABLES: usize = 3;

/// The three correction tables of one search thread.
pub struct CorrectionHistory {
    /// `[side to move][table * ENTRIES + index]`, each entry within ±`CORRECTION_LIMIT`.
    table: Box<[[i16; TABLES * ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    /// Empty tables (192 KiB).
    pub fn new() -> Self {
        Self {
            table: vec![[0i16; TABLES * ENTRIES]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two rows"),
        }
    }

    /// Forgets everything (ucinewgame).
    pub fn clear(&mut self) {
        for row in self.table.iter_mut() {
            row.fill(0);
        }
    }

    /// The entries of `board`, one per table.
    #[inline]
    fn slots(board: &Board) -> [usize; TABLES] {
        let pawns = board.pieces(Piece::Pawn);
        let side = |c: Color| {
            let own = board.colors(c);
            let mut h = 0u64;
            for (piece, k) in [
                (Piece::Knight, 0x9E37_79B9_7F4A_7C15u64),
                (Piece::Bishop, 0xC2B2_AE3D_27D4_EB4F),
                (Piece::Rook, 0x1656_67B1_9E37_79F9),
                (Piece::Queen, 0x85EB_CA77_C2B2_AE63),
                (Piece::King, 0x27D4_EB2F_1656_67C5),
            ] {
                h ^= (board.pieces(piece) & own).0.wrapping_mul(k);
                h = h.rotate_left(13);
            }
            h
        };
        let white = (pawns & board.colors(Color::White)).0;
        let black = (pawns & board.colors(Color::Black)).0;
        let pawn_key =
            white.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ black.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        let index = |h: u64| (h.wrapping_mul(0x9FB2_1C65_1E98_DF25) >> 50) as usize;
        [
            index(pawn_key),
            ENTRIES + index(side(Color::White)),
            2 * ENTRIES + index(side(Color::Black)),
        ]
    }

    /// The static evaluation `raw` of `board` corrected by what the tables learnt
    /// (centipawns, kept out of the tablebase band).
    #[inline]
    pub fn correct(&self, board: &Board, raw: i32) -> i32 {
        let row = &self.table[board.side_to_move() as usize];
        let [p, w, b] = Self::slots(board);
        let sum = CORRECTION_PAWN_WEIGHT * i32::from(row[p])
            + CORRECTION_NON_PAWN_WEIGHT * (i32::from(row[w]) + i32::from(row[b]));
        (raw + sum / CORRECTION_SCALE).clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }

    /// Moves the entries of `board` towards the error `diff` (search result minus the
    /// corrected evaluation, centipawns) found by a search of `depth` plies: the deeper the
    /// search, the larger the step, which gravity keeps within the limit.
    pub fn update(&mut self, board: &Board, depth: i32, diff: i32) {
        let bonus = (diff * depth * 3 / 8).clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        let row = &mut self.table[board.side_to_move() as usize];
        for slot in Self::slots(board) {
            let e = i32::from(row[slot]);
            let moved = e + bonus - e * bonus.abs() / CORRECTION_LIMIT;
            row[slot] = moved.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_of_one_sign_pull_the_evaluation_their_way_within_the_limit() {
        let board = Board::default();
        let mut c = CorrectionHistory::new();
        assert_eq!(c.correct(&board, 25), 25);
        for _ in 0..200 {
            c.update(&board, 10, 80);
        }
        let up = c.correct(&board, 25);
        assert!(up > 25, "corrected {up}");
        let most = (CORRECTION_PAWN_WEIGHT + 2 * CORRECTION_NON_PAWN_WEIGHT) * CORRECTION_LIMIT
            / CORRECTION_SCALE;
        assert!(up <= 25 + most, "corrected {up}, at most {}", 25 + most);
        // The other side to move has its own entries.
        let black: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        assert_eq!(c.correct(&black, -25), -25);
        c.clear();
        assert_eq!(c.correct(&board, 25), 25);
    }
}

//! Move ordering: a scored move list picked best-first (selection sort, so that a cutoff after
//! the first moves never pays for sorting the rest), MVV-LVA for captures, killer moves and
//! the history heuristic for quiet moves.

use cozy_chess::{Color, Move, Piece};

use crate::params::{HISTORY_MAX, MAX_PLY};
use crate::position::Position;

use super::see::see_value;

/// Upper bound on legal moves in any chess position (218) with room to spare.
pub const MAX_MOVES: usize = 256;

/// Ordering score bands, from first to last.
pub const SCORE_TT_MOVE: i32 = 4_000_000;
/// Captures and queen promotions (main search) or winning captures (quiescence).
pub const SCORE_GOOD_CAPTURE: i32 = 2_000_000;
/// First killer move.
pub const SCORE_KILLER_1: i32 = 1_000_100;
/// Second killer move.
pub const SCORE_KILLER_2: i32 = 1_000_000;
/// Captures that lose material by SEE (quiescence ordering only).
pub const SCORE_BAD_CAPTURE: i32 = -2_000_000;
/// Under-promotions come last.
pub const SCORE_UNDERPROMOTION: i32 = -3_000_000;

/// A list of moves with ordering scores.
pub struct MoveList {
    moves: [(Move, i32, i32); MAX_MOVES],
    len: usize,
    next: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        const NULL: Move = Move {
            from: cozy_chess::Square::A1,
            to: cozy_chess::Square::A1,
            promotion: None,
        };
        Self {
            moves: [(NULL, 0, 0); MAX_MOVES],
            len: 0,
            next: 0,
        }
    }

    /// Appends a move with its score.
    #[inline]
    pub fn push(&mut self, mv: Move, score: i32) {
        self.push_with(mv, score, 0);
    }

    /// Appends a move with its score and a value carried along (e.g. its SEE).
    #[inline]
    pub fn push_with(&mut self, mv: Move, score: i32, aux: i32) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = (mv, score, aux);
            self.len += 1;
        }
    }

    /// Number of moves in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves in insertion order (or picked order, for those already picked).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.len].iter().map(|&(m, _, _)| m)
    }

    /// Takes the best-scored remaining move: (move, score, carried value).
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.moves[i].1 > self.moves[best].1 {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// MVV-LVA: most valuable victim first, then least valuable attacker. Promotions count the
/// promoted piece as gained material.
#[inline]
pub fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let board = pos.board();
    let victim = pos.captured(mv).map_or(0, see_value);
    let attacker = board.piece_on(mv.from).map_or(0, |p| p as i32);
    let promo = mv
        .promotion
        .map_or(0, |p| see_value(p) - see_value(Piece::Pawn));
    (victim + promo) * 8 - attacker
}

/// Killer moves and history scores, kept by each search thread across iterations.
pub struct OrderingTables {
    /// Two quiet moves per ply that caused a beta cutoff at that ply.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// History: success of quiet moves by side, from-square and to-square.
    pub history: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        Self::new()
    }
}

impl OrderingTables {
    /// Empty tables.
    pub fn new() -> Self {
        Self {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
        }
    }

    /// Forgets everything (ucinewgame).
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        *self.history = [[[0; 64]; 64]; 2];
    }

    /// History score of a quiet move.
    #[inline]
    pub fn history(&self, color: Color, mv: Move) -> i32 {
        self.history[color as usize][mv.from as usize][mv.to as usize]
    }

    /// Moves the history of `mv` towards +/- HISTORY_MAX ("gravity": large values grow slowly).
    #[inline]
    pub fn update_history(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.history[color as usize][mv.from as usize][mv.to as usize];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Scores every legal move for the main search.
    pub fn score_main(
        &self,
        pos: &Position,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: usize,
    ) -> MoveList {
        let mut list = MoveList::new();
        let color = pos.side_to_move();
        let killers = self.killers[ply.min(MAX_PLY)];
        for &mv in moves {
            let score = if Some(mv) == tt_move {
                SCORE_TT_MOVE
            } else if matches!(mv.promotion, Some(p) if p != Piece::Queen) {
                SCORE_UNDERPROMOTION + mvv_lva(pos, mv)
            } else if pos.is_capture(mv) || mv.promotion.is_some() {
                SCORE_GOOD_CAPTURE + mvv_lva(pos, mv)
            } else if killers[0] == Some(mv) {
                SCORE_KILLER_1
            } else if killers[1] == Some(mv) {
                SCORE_KILLER_2
            } else {
                self.history(color, mv)
            };
            list.push(mv, score);
        }
        list
    }
}

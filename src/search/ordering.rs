//! Move ordering: a scored move list picked best-first (selection sort, so that a cutoff after
//! the first moves never pays for sorting the rest), MVV-LVA for captures, killer moves and
//! the history heuristic for quiet moves.

use std::mem::MaybeUninit;

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

/// A list of moves with ordering scores (and one carried value each, e.g. the SEE).
///
/// Lives on the stack and is not initialised up front: a node that cuts off after the
/// first move never pays for 256 entries (a measurable share of all time otherwise).
pub struct MoveList {
    moves: [MaybeUninit<(Move, i32)>; MAX_MOVES],
    scores: [MaybeUninit<i32>; MAX_MOVES],
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
    #[inline]
    pub fn new() -> Self {
        Self {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            scores: [const { MaybeUninit::uninit() }; MAX_MOVES],
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
            self.moves[self.len] = MaybeUninit::new((mv, aux));
            self.scores[self.len] = MaybeUninit::new(score);
            self.len += 1;
        }
    }

    /// The scores of the entries `0..len`.
    #[inline]
    fn scores(&self) -> &[i32] {
        // SAFETY: entries below `len` were written by `push_with` (and only moved around
        // within `0..len` by `pick` and `retain_remaining`); MaybeUninit<i32> has the
        // layout of i32.
        unsafe { std::slice::from_raw_parts(self.scores.as_ptr() as *const i32, self.len) }
    }

    #[inline]
    fn entry(&self, i: usize) -> (Move, i32, i32) {
        debug_assert!(i < self.len);
        // SAFETY: as in `scores`: every index below `len` is initialised.
        let (mv, aux) = unsafe { self.moves[i].assume_init() };
        (mv, self.scores()[i], aux)
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.next = 0;
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

    /// The moves in their current order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.len).map(|i| self.entry(i).0)
    }

    /// Takes the best-scored remaining move: (move, score, carried value).
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32, i32)> {
        if self.next >= self.len {
            return None;
        }
        let scores = self.scores();
        let mut best = self.next;
        let mut best_score = scores[best];
        for (i, &sc) in scores.iter().enumerate().skip(self.next + 1) {
            if sc > best_score {
                best = i;
                best_score = sc;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.entry(self.next - 1))
    }

    /// Drops the not yet picked moves for which `keep` is false.
    pub fn retain_remaining(&mut self, mut keep: impl FnMut(Move, i32) -> bool) {
        let mut w = self.next;
        for r in self.next..self.len {
            let (mv, score, aux) = self.entry(r);
            if keep(mv, score) {
                self.moves[w] = MaybeUninit::new((mv, aux));
                self.scores[w] = MaybeUninit::new(score);
                w += 1;
            }
        }
        self.len = w;
    }
}

/// MVV-LVA: most valuable victim first, then least valuable attacker.
#[inline]
pub fn mvv_lva(victim: Option<Piece>, attacker: Piece) -> i32 {
    victim.map_or(0, see_value) * 8 - attacker as i32
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

    /// Generates and scores every legal move for the main search except `skip` (the TT
    /// move, already searched): captures and queen promotions by MVV-LVA, killers, quiet
    /// moves by history, under-promotions last. Captures are not SEE-tested here: the
    /// search does that when one comes up. `only` restricts the moves (root `searchmoves`).
    pub fn generate_main(
        &self,
        pos: &Position,
        skip: Option<Move>,
        ply: usize,
        only: Option<&[Move]>,
        list: &mut MoveList,
    ) {
        list.clear();
        let board = pos.board();
        let color = board.side_to_move();
        let killers = self.killers[ply.min(MAX_PLY)];
        let history = &self.history[color as usize];
        board.generate_moves(|pm| {
            for mv in pm {
                if only.is_some_and(|o| !o.contains(&mv)) {
                    continue;
                }
                let victim = pos.captured(mv);
                if Some(mv) == skip {
                    continue;
                }
                let score = if let Some(promo) = mv.promotion {
                    let gain = see_value(promo) + victim.map_or(0, see_value);
                    if promo == Piece::Queen {
                        SCORE_GOOD_CAPTURE + gain * 8
                    } else {
                        SCORE_UNDERPROMOTION + gain * 8
                    }
                } else if let Some(v) = victim {
                    SCORE_GOOD_CAPTURE + mvv_lva(Some(v), pm.piece)
                } else if killers[0] == Some(mv) {
                    SCORE_KILLER_1
                } else if killers[1] == Some(mv) {
                    SCORE_KILLER_2
                } else {
                    history[mv.from as usize][mv.to as usize]
                };
                list.push(mv, score);
            }
            false
        });
    }
}

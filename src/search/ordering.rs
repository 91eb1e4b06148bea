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
/// The reply that refuted the previous move last time (counter-move heuristic).
pub const SCORE_COUNTER: i32 = 900_000;
/// Quiet moves score their histories, between these bounds (three tables of +/- HISTORY_MAX).
pub const SCORE_QUIET_MIN: i32 = -3 * HISTORY_MAX;
/// See SCORE_QUIET_MIN.
pub const SCORE_QUIET_MAX: i32 = 3 * HISTORY_MAX;
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

    /// The moves with their carried values, in their current order.
    pub fn moves_with_aux(&self) -> impl Iterator<Item = (Move, i32)> + '_ {
        (0..self.len).map(|i| {
            let (mv, _, aux) = self.entry(i);
            (mv, aux)
        })
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

/// Index of a move in the continuation histories: the moving piece (with its colour) and
/// its destination, `(colour * 6 + piece) * 64 + to`, so 0..768.
#[inline]
pub fn cont_key(color: Color, piece: Piece, to: cozy_chess::Square) -> usize {
    ((color as usize * 6 + piece as usize) << 6) | to as usize
}

/// The continuation key of "no move" (the root, or a null move): its row is never updated.
pub const NO_CONT: usize = 768;

/// Moves the value in `entry` towards +/- HISTORY_MAX by `bonus` ("gravity": the closer a
/// value is to the bound, the less it moves, so old results fade).
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = i32::from(*entry);
    *entry = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

/// The two previous moves of a node, as continuation keys ([`NO_CONT`] when there is none).
#[derive(Clone, Copy, Debug)]
pub struct QuietContext {
    /// The opponent's move that led to this node.
    pub prev1: usize,
    /// Our own move before that.
    pub prev2: usize,
}

/// Killer moves, counter-moves and history scores, kept by each search thread across
/// iterations.
pub struct OrderingTables {
    /// Two quiet moves per ply that caused a beta cutoff at that ply.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// History: success of quiet moves by side, from-square and to-square.
    pub history: Box<[[[i32; 64]; 64]; 2]>,
    /// Continuation history: success of a quiet move (piece, to) after a previous move
    /// (piece, to) one ply before (the counter-move history) or two plies before (the
    /// follow-up history), in one table indexed [previous][this].
    pub continuation: Box<[[i16; 768]; 769]>,
    /// Counter-moves: the quiet move that last refuted each previous move (piece, to).
    pub counters: Box<[Option<Move>; 769]>,
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
            continuation: vec![[0i16; 768]; 769]
                .into_boxed_slice()
                .try_into()
                .expect("769 rows"),
            counters: Box::new([None; 769]),
        }
    }

    /// Forgets everything (ucinewgame).
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        *self.history = [[[0; 64]; 64]; 2];
        for row in self.continuation.iter_mut() {
            row.fill(0);
        }
        self.counters.fill(None);
    }

    /// History score of a quiet move (the from-to table only).
    #[inline]
    pub fn history(&self, color: Color, mv: Move) -> i32 {
        self.history[color as usize][mv.from as usize][mv.to as usize]
    }

    /// Ordering score of a quiet move with continuation key `key`: its from-to history plus
    /// its two continuation histories.
    #[inline]
    pub fn quiet_score(&self, color: Color, mv: Move, key: usize, ctx: QuietContext) -> i32 {
        self.history(color, mv)
            + i32::from(self.continuation[ctx.prev1][key])
            + i32::from(self.continuation[ctx.prev2][key])
    }

    /// Moves the history of `mv` towards +/- HISTORY_MAX ("gravity": large values grow slowly).
    #[inline]
    pub fn update_history(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.history[color as usize][mv.from as usize][mv.to as usize];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Updates every history of a quiet move (from-to and both continuations).
    #[inline]
    pub fn update_quiet(
        &mut self,
        color: Color,
        mv: Move,
        key: usize,
        ctx: QuietContext,
        bonus: i32,
    ) {
        self.update_history(color, mv, bonus);
        for prev in [ctx.prev1, ctx.prev2] {
            if prev != NO_CONT {
                gravity(&mut self.continuation[prev][key], bonus);
            }
        }
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
        ctx: QuietContext,
        only: Option<&[Move]>,
        list: &mut MoveList,
    ) {
        list.clear();
        let board = pos.board();
        let color = board.side_to_move();
        let killers = self.killers[ply.min(MAX_PLY)];
        let counter = self.counters[ctx.prev1];
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
                } else if counter == Some(mv) {
                    SCORE_COUNTER
                } else {
                    self.quiet_score(color, mv, cont_key(color, pm.piece, mv.to), ctx)
                };
                list.push(mv, score);
            }
            false
        });
    }
}

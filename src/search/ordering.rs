//! The tables that order moves, learned as the search goes: killer moves, counter-moves, the
//! history heuristic of quiet moves (from-to, continuation and pawn-structure histories) and,
//! as an option, the capture history. The picker that uses them is in
//! [`movepick`](super::movepick).

use std::mem::MaybeUninit;

use cozy_chess::{Color, Move, Piece, Square};

use crate::params::{HISTORY_MAX, MAX_PLY};

/// Upper bound on legal moves in any chess position (218) with room to spare: the
/// capacity of the move lists of the picker and of the moves a node remembers.
pub const MAX_MOVES: usize = 256;

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

/// The previous moves of a node, as continuation keys ([`NO_CONT`] when there is none).
#[derive(Clone, Copy, Debug)]
pub struct QuietContext {
    /// The opponent's move that led to this node.
    pub prev1: usize,
    /// Our own move before that.
    pub prev2: usize,
    /// Our own move two moves before this node (four plies up): it orders and learns, but
    /// the reductions and pruning read only the first two.
    pub prev4: usize,
    /// Row of the pawn history: the node's pawn structure ([`pawn_row`]).
    pub pawn: usize,
}

impl QuietContext {
    /// No previous move (the root, or outside the main search).
    pub const NONE: Self = Self {
        prev1: NO_CONT,
        prev2: NO_CONT,
        prev4: NO_CONT,
        pawn: 0,
    };
}

/// Rows of the pawn history (a power of two).
pub const PAWN_HISTORY_ROWS: usize = 512;

/// The pawn-history row of a board: a multiplicative hash of both sides' pawn bitboards, so
/// that positions with the same pawn structure share a row.
#[inline]
pub fn pawn_row(board: &cozy_chess::Board) -> usize {
    let pawns = board.pieces(Piece::Pawn);
    let white = (pawns & board.colors(Color::White)).0;
    let black = (pawns & board.colors(Color::Black)).0;
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> (64 - PAWN_HISTORY_ROWS.trailing_zeros())) as usize
}

/// The quiet moves a node has searched, with their continuation keys: when one of them
/// later fails high, the others' histories are lowered.
pub struct QuietsTried {
    moves: [MaybeUninit<(Move, usize)>; MAX_MOVES],
    len: usize,
}

impl Default for QuietsTried {
    fn default() -> Self {
        Self::new()
    }
}

impl QuietsTried {
    /// An empty list (not initialised up front, like the picker's).
    #[inline]
    pub fn new() -> Self {
        Self {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a quiet move and its continuation key.
    #[inline]
    pub fn push(&mut self, mv: Move, key: usize) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new((mv, key));
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no move was tried.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves with their keys, in the order they were tried.
    pub fn iter(&self) -> impl Iterator<Item = (Move, usize)> + '_ {
        // SAFETY: entries below `len` were written by `push`.
        self.moves[..self.len]
            .iter()
            .map(|m| unsafe { m.assume_init() })
    }
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
    /// follow-up history), in one table indexed `[previous][this]`.
    pub continuation: Box<[[i16; 768]; 769]>,
    /// Counter-moves: the quiet move that last refuted each previous move (piece, to).
    pub counters: Box<[Option<Move>; 769]>,
    /// Capture history: success of captures by moving piece (with its colour), destination
    /// and captured piece type, indexed `[colour * 6 + piece][to][victim]`.
    pub captures: Box<[[[i16; 6]; 64]; 12]>,
    /// Pawn history: success of a quiet move (piece, to) in positions with the same pawn
    /// structure (Stockfish's pawn history), indexed `[pawn_row][cont_key]`. Allocated when
    /// the thread starts a search ([`Self::ensure_pawn_history`]), not with the tables: a
    /// helper thread without memory for it is left out. `None` until then.
    pub pawn: Option<Box<[[i16; 768]; PAWN_HISTORY_ROWS]>>,
    /// Whether captures are ordered by victim and capture history instead of MVV-LVA (the
    /// `CaptureHistory` option, set by the searcher for each search).
    pub use_capture_history: bool,
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
            captures: Box::new([[[0; 6]; 64]; 12]),
            pawn: None,
            use_capture_history: false,
        }
    }

    /// Allocates the pawn history if it is not there yet (zeroed); false when there is no
    /// memory for it (the search then orders without it).
    pub fn ensure_pawn_history(&mut self) -> bool {
        if self.pawn.is_some() {
            return true;
        }
        let mut rows: Vec<[i16; 768]> = Vec::new();
        if rows.try_reserve_exact(PAWN_HISTORY_ROWS).is_err() {
            return false;
        }
        rows.resize(PAWN_HISTORY_ROWS, [0; 768]);
        self.pawn = rows.into_boxed_slice().try_into().ok();
        self.pawn.is_some()
    }

    /// Forgets everything (ucinewgame).
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        *self.history = [[[0; 64]; 64]; 2];
        for row in self.continuation.iter_mut() {
            row.fill(0);
        }
        self.counters.fill(None);
        *self.captures = [[[0; 6]; 64]; 12];
        if let Some(pawn) = self.pawn.as_mut() {
            pawn.fill([0; 768]);
        }
    }

    /// Capture history of `piece` (of `color`) taking a `victim` on `to`.
    #[inline]
    pub fn capture_history(&self, color: Color, piece: Piece, to: Square, victim: Piece) -> i32 {
        i32::from(self.captures[color as usize * 6 + piece as usize][to as usize][victim as usize])
    }

    /// Moves the capture history of `piece` taking `victim` on `to` by `bonus` (gravity).
    #[inline]
    pub fn update_capture(
        &mut self,
        color: Color,
        piece: Piece,
        to: Square,
        victim: Piece,
        bonus: i32,
    ) {
        gravity(
            &mut self.captures[color as usize * 6 + piece as usize][to as usize][victim as usize],
            bonus,
        );
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

    /// Ordering score of a quiet move in the picker: [`Self::quiet_score`] plus the
    /// continuation history of our move four plies up and the pawn history.
    #[inline]
    pub fn quiet_order_score(&self, color: Color, mv: Move, key: usize, ctx: QuietContext) -> i32 {
        self.quiet_score(color, mv, key, ctx)
            + i32::from(self.continuation[ctx.prev4][key])
            + self
                .pawn
                .as_ref()
                .map_or(0, |p| i32::from(p[ctx.pawn][key]))
    }

    /// Moves the history of `mv` towards +/- HISTORY_MAX ("gravity": large values grow slowly).
    #[inline]
    pub fn update_history(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.history[color as usize][mv.from as usize][mv.to as usize];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Updates every history of a quiet move (from-to, the three continuations and the pawn
    /// history).
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
        for prev in [ctx.prev1, ctx.prev2, ctx.prev4] {
            if prev != NO_CONT {
                gravity(&mut self.continuation[prev][key], bonus);
            }
        }
        if let Some(pawn) = self.pawn.as_mut() {
            gravity(&mut pawn[ctx.pawn][key], bonus);
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
}

//! Every tunable number of the search, in one place, with its unit.
//!
//! Scores are in centipawns, depths and reductions in plies, times in milliseconds.

/// Largest search ply (main search plus quiescence) a thread can reach.
pub const MAX_PLY: usize = 128;
/// Deepest iteration that iterative deepening will start, in plies.
pub const MAX_DEPTH: i32 = 100;

/// Score of a mate at the root, in centipawns; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score: the initial window.
pub const INFINITY: i32 = 32_500;
/// Score of a draw, in centipawns.
pub const DRAW: i32 = 0;

/// Default quiescence settings (each is a UCI option, see `search::QSearchOptions`).
/// Plies past the horizon before the quiescence search stops and evaluates.
pub const QS_MAX_PLY: i32 = 32;
/// Quiescence nodes per root search before the quiescence search stops descending (0 = no cap).
pub const QS_MAX_NODES: u64 = 0;
/// Captures with a static exchange value below this are skipped, in centipawns.
pub const QS_SEE_THRESHOLD: i32 = 0;
/// Delta pruning margin, in centipawns (0 = off).
pub const QS_DELTA_MARGIN: i32 = 200;
/// Quiescence plies in which quiet checking moves are also searched (0 = none).
pub const QS_CHECK_PLIES: i32 = 0;
/// After this many quiescence plies only recaptures on the last capture square are searched (0 = off).
pub const QS_RECAPTURES_AFTER: i32 = 0;

/// Main search: bonus for a quiet move that caused a beta cutoff is depth * depth * this, capped.
pub const HISTORY_MAX: i32 = 16_384;

/// Time management, in milliseconds unless stated.
/// Default `Move Overhead`: time reserved per move for communication.
pub const MOVE_OVERHEAD: u64 = 30;
/// Moves left to plan for when the GUI does not send `movestogo`.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;
/// The hard limit is this many times the soft limit (before capping by the clock).
pub const HARD_LIMIT_FACTOR: u64 = 4;
/// The hard limit never exceeds this fraction (in percent) of the remaining clock.
pub const HARD_LIMIT_CLOCK_PERCENT: u64 = 40;

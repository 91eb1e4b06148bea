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
/// Score of a tablebase win at the root, just below the mate band; a tablebase win found `n`
/// plies from the root scores `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this magnitude (and below [`MATE_BOUND`]) are tablebase wins or losses.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// A tablebase win as UCI `info` lines and XBoard thinking output show it, in centipawns:
/// `TB_WIN - n` (a win found `n` plies from the root) is shown as `TB_WIN_SHOWN - n`, as
/// Stockfish shows them: far above any evaluation, and no centipawn value near the mate
/// scores (which are shown as mates).
pub const TB_WIN_SHOWN: i32 = 20_000;
/// Larger than any score: the initial window.
pub const INFINITY: i32 = 32_500;
/// Score of a draw, in centipawns.
pub const DRAW: i32 = 0;

/// Whether the quiescence search probes the Syzygy WDL tables too (after a capture into
/// tablebase territory), when `SyzygyProbeDepth` is 1. On: 8-10 % fewer nodes and 3-10 %
/// less time to a fixed depth in 5-piece endings, see docs/measurements.md.
pub const TB_PROBE_IN_QSEARCH: bool = true;
/// A tablebase result is stored in the table this many plies deeper than the node's depth
/// (it is exact whatever the depth), as Stockfish does.
pub const TB_STORE_EXTRA_DEPTH: i32 = 6;

// Default quiescence settings (each is a UCI option, see `search::QSearchOptions`).

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

// Piece values and the history tables.

/// Piece values of the static exchange evaluation and MVV-LVA, in centipawns: pawn, knight,
/// bishop, rook, queen, king.
pub const SEE_VALUE: [i32; 6] = [100, 325, 325, 500, 975, 20_000];
/// Main search: history scores stay within +/- this (each of the three quiet-move tables).
pub const HISTORY_MAX: i32 = 16_384;
/// History bonus of a quiet move that caused a beta cutoff (malus for the quiet moves tried
/// before it): HISTORY_BONUS_PER_DEPTH * depth - HISTORY_BONUS_BASE, at most HISTORY_BONUS_MAX.
pub const HISTORY_BONUS_PER_DEPTH: i32 = 150;
/// See HISTORY_BONUS_PER_DEPTH.
pub const HISTORY_BONUS_BASE: i32 = 100;
/// See HISTORY_BONUS_PER_DEPTH.
pub const HISTORY_BONUS_MAX: i32 = 1500;
/// Correction history (`search/correction.rs`): each entry stays within +/- this (entry
/// units); an update moves it by at most a quarter of it.
pub const CORRECTION_LIMIT: i32 = 1024;
/// The pawn-structure entry's weight: it corrects the evaluation by entry * weight /
/// CORRECTION_SCALE centipawns (at most 19 cp).
pub const CORRECTION_PAWN_WEIGHT: i32 = 2400;
/// Weight of each side's non-pawn entry (at most 20 cp each).
pub const CORRECTION_NON_PAWN_WEIGHT: i32 = 2600;
/// See CORRECTION_PAWN_WEIGHT.
pub const CORRECTION_SCALE: i32 = 131_072;
/// Late move reductions: one ply less per this much quiet-move history (all three tables).
pub const LMR_HISTORY_DIVISOR: i32 = 8192;
/// Main search: a quiet move that gives a direct check and whose static exchange value is at
/// least QUIET_CHECK_SEE_MIN (centipawns) adds this to its ordering score (history units).
pub const QUIET_CHECK_BONUS: i32 = 16_384;
/// See QUIET_CHECK_BONUS.
pub const QUIET_CHECK_SEE_MIN: i32 = -75;
/// Capture history (option `CaptureHistory`): a capture's ordering score within the good
/// captures is CAPTURE_VICTIM_WEIGHT * the victim's SEE value (centipawns) plus its capture
/// history / CAPTURE_HISTORY_DIVISOR (the history stays within +/- HISTORY_MAX), instead of
/// MVV-LVA; the history moves by the quiet-move bonus of the cutoff's depth.
pub const CAPTURE_VICTIM_WEIGHT: i32 = 16;
/// See CAPTURE_VICTIM_WEIGHT.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 4;

// Time management (src/time.rs and the end of each iteration), in milliseconds unless
// stated.

/// Default `Move Overhead`: time reserved per move for communication.
pub const MOVE_OVERHEAD: u64 = 30;
/// Moves left to plan for when the GUI does not send `movestogo`.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;
/// The soft limit is the remaining time over the moves to go plus this share of the
/// increment, in percent.
pub const TM_INCREMENT_PERCENT: u64 = 75;
/// The soft limit never exceeds this share of the remaining clock, in percent.
pub const SOFT_LIMIT_CLOCK_PERCENT: u64 = 60;
/// The hard limit is this many times the soft limit (before capping by the clock).
pub const HARD_LIMIT_FACTOR: u64 = 4;
/// The hard limit never exceeds this fraction (in percent) of the remaining clock.
pub const HARD_LIMIT_CLOCK_PERCENT: u64 = 40;
/// ... or this share (in percent) when the next time control comes after this move.
pub const HARD_LIMIT_LAST_MOVE_PERCENT: u64 = 80;
/// Soft-limit factor by best-move stability (iterations in a row with the same best move,
/// the last entry for that many or more): a new best move buys time, a settled one saves it.
pub const TM_STABILITY_FACTORS: [f64; 6] = [2.2, 1.6, 1.25, 1.0, 0.9, 0.8];
/// Soft-limit factor per centipawn of score change over the last iterations (a drop of
/// 50 cp gives 1 + 50 * this).
pub const TM_SCORE_DROP_PER_CP: f64 = 0.008;
/// The score change is measured over this many iterations.
pub const TM_SCORE_LOOKBACK: usize = 3;
/// The score change is clamped to +/- this many centipawns.
pub const TM_SCORE_CHANGE_MAX: i32 = 500;
/// Bounds of the score factor.
pub const TM_SCORE_FACTOR_MIN: f64 = 0.85;
/// See TM_SCORE_FACTOR_MIN.
pub const TM_SCORE_FACTOR_MAX: f64 = 1.6;
/// Soft-limit factor for effort: this minus the share of nodes the best move took (a move
/// that took 90% of the nodes gives 0.7 with 1.6, one that took 30% gives 1.3).
pub const TM_NODE_FACTOR_BASE: f64 = 1.6;
/// With a single legal root move, a clock search stops after this iteration (in plies).
pub const TM_SINGLE_MOVE_DEPTH: i32 = 4;
/// A proven mate ends the search once the iteration depth exceeds the mate distance by this
/// many plies.
pub const TM_MATE_SPARE_PLIES: i32 = 4;

// Lazy SMP.

/// Most search threads an engine runs (`Threads`, XBoard's `cores`): more are clamped to this.
pub const MAX_THREADS: usize = 256;

/// Nodes shared out among the threads between two polls (a power of two): each of `T`
/// threads publishes its node count and looks at the stop flag, the node limit and (the main
/// thread) the clock every `POLL_NODES / T` nodes, `T` rounded up to a power of two (at least
/// every node). All threads together therefore search fewer than `POLL_NODES` nodes between
/// the moment a limit is reached or the search is stopped and the moment every thread has
/// seen it: `go nodes N` searches fewer than `N + POLL_NODES` nodes (plus the few nodes each
/// thread enters while unwinding) at any thread count. One thread polls every 1024 nodes, as
/// it always has, so its trees do not change.
pub const POLL_NODES: u64 = 1024;

/// Lazy SMP: helper thread `i` (1, 2, …) uses entry `(i − 1) % 20` of these two tables and
/// skips iteration `depth` when `((depth + SMP_SKIP_PHASE) / SMP_SKIP_SIZE)` is odd, so the
/// helpers spread over different depths instead of all repeating the main thread's iteration
/// (the skip blocks of Stockfish 7–9). Depths in plies.
pub const SMP_SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// See SMP_SKIP_SIZE.
pub const SMP_SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
// Move ordering (search/movepick.rs): the score bands of the pickers' lists, from first to
// last. The main search picks each stage from its own region of its list (captures, then
// quiet moves, then what was set aside), so there the bands only order the captures, the
// losing captures and the under-promotions; the quiescence search orders its whole list by
// them. Within a band captures add their MVV-LVA value (victim * 8 - attacker, plus
// promotion gains: below 16 000), so the bands never overlap.

/// Ordering band of the TT move.
pub const SCORE_TT_MOVE: i32 = 4_000_000;
/// Ordering band of captures and queen promotions (main search) or winning captures
/// (quiescence).
pub const SCORE_GOOD_CAPTURE: i32 = 2_000_000;
/// Ordering band of captures that neither win nor lose material (quiescence, SEE = 0).
pub const SCORE_EQUAL_CAPTURE: i32 = SCORE_GOOD_CAPTURE / 2;
/// Ordering band of quiet checks and pawn pushes in the quiescence search (plus their SEE):
/// after the equal captures.
pub const SCORE_QUIET_TACTICAL: i32 = SCORE_GOOD_CAPTURE / 4;
/// Ordering band of captures that lose material by SEE.
pub const SCORE_BAD_CAPTURE: i32 = -2_000_000;
/// Ordering band of under-promotions (main search): last.
pub const SCORE_UNDERPROMOTION: i32 = -3_000_000;

// Main-search selectivity. Depths in plies, margins in centipawns.

/// Null-move pruning: minimum depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: one more ply of reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null-move pruning: one more ply of reduction per this many centipawns of eval above
/// beta, at most NMP_EVAL_REDUCTION_MAX plies.
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// See NMP_EVAL_DIVISOR.
pub const NMP_EVAL_REDUCTION_MAX: i32 = 3;
/// `TacticalMode`: at most this many plies of the null move's eval reduction (plies). Less
/// than NMP_EVAL_REDUCTION_MAX finds more mates after sacrifices; none at all costs WAC
/// positions (docs/measurements.md).
pub const TACTICAL_NMP_EVAL_REDUCTION_MAX: i32 = 2;
/// Null-move pruning: from this depth on, a null-move cutoff is verified by a reduced search.
pub const NMP_VERIFY_DEPTH: i32 = 12;
/// Reverse futility pruning: maximum depth.
pub const RFP_MAX_DEPTH: i32 = 8;
/// Reverse futility pruning: margin per ply of depth (less one ply when improving).
pub const RFP_MARGIN: i32 = 75;
/// Futility pruning of quiet moves: maximum depth.
pub const FP_MAX_DEPTH: i32 = 6;
/// Futility pruning: base margin.
pub const FP_BASE: i32 = 90;
/// Futility pruning: margin per ply of depth.
pub const FP_PER_DEPTH: i32 = 90;
/// Late move pruning: maximum depth.
pub const LMP_MAX_DEPTH: i32 = 6;
/// Late move pruning: quiet moves are pruned once (LMP_BASE + depth^2) of them were tried,
/// halved (LMP_NOT_IMPROVING_DIVISOR) when the position is not improving.
pub const LMP_BASE: i32 = 3;
/// See LMP_BASE.
pub const LMP_NOT_IMPROVING_DIVISOR: i32 = 2;
/// History pruning of late quiet moves: the deepest reduced depth (`lmr_depth`, plies) at
/// which a quiet move with a bad history is skipped.
pub const HP_MAX_DEPTH: i32 = 4;
/// History pruning: a quiet move is skipped when its history (the from-to history plus the
/// two continuation histories, each within +/- HISTORY_MAX) is below -HP_MARGIN per ply of
/// its reduced depth (history units per ply).
pub const HP_MARGIN: i32 = 2048;
/// Late move reductions: plies more at an expected cut node (a zero-window node whose
/// parent expects it to fail high), as Stockfish's `cutNode`.
pub const LMR_CUT_NODE: i32 = 1;
/// Late move reductions: plies more for a quiet move when the TT move is a capture (the
/// best move is likely the capture; Stockfish's `ttCapture`).
pub const LMR_TT_CAPTURE: i32 = 1;
/// Razoring: maximum depth (plies).
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// Razoring: a node whose eval plus RAZOR_MARGIN_BASE + RAZOR_MARGIN * depth is still at or
/// below alpha is tested by the quiescence search (centipawns).
pub const RAZOR_MARGIN_BASE: i32 = 250;
/// See RAZOR_MARGIN_BASE (centipawns per ply).
pub const RAZOR_MARGIN: i32 = 250;
/// ProbCut: minimum depth (plies).
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut: the raised beta is beta plus this margin (centipawns).
pub const PROBCUT_MARGIN: i32 = 200;
/// ProbCut: the verification search is this many plies shallower than the node.
pub const PROBCUT_REDUCTION: i32 = 4;
/// ProbCut: a TT entry at least this deep less this many plies that scored below the raised
/// beta skips ProbCut (plies).
pub const PROBCUT_TT_DEPTH_MARGIN: i32 = 3;
/// Late move reductions: minimum depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions: r = LMR_BASE / 100 + ln(depth) * ln(move number) / (LMR_DIVISOR /
/// 100) plies, rounded down (both in hundredths, so that a tuner can step them as integers).
pub const LMR_BASE: i32 = 75;
/// See LMR_BASE.
pub const LMR_DIVISOR: i32 = 225;
/// Internal iterative reduction: minimum depth for reducing a node without a TT move.
pub const IIR_MIN_DEPTH: i32 = 4;
/// Aspiration windows: first half-width, and minimum depth to use them.
pub const ASPIRATION_WINDOW: i32 = 25;
/// See ASPIRATION_WINDOW.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Aspiration windows: after each fail the half-width grows by 1 / this of itself.
pub const ASPIRATION_GROWTH_DIVISOR: i32 = 2;
/// `TacticalMode`: the aspiration window doubles after each fail (a sacrifice's score jumps
/// from about 0 to a mate between two iterations; docs/measurements.md, session 18).
pub const TACTICAL_ASPIRATION_GROWTH_DIVISOR: i32 = 1;
/// Aspiration windows: past this half-width the full window is searched.
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Milliseconds of a search after which the progress reports start: the root move being
/// searched (UCI `currmove`) and failed aspiration searches (`lowerbound`, `upperbound`).
/// Stockfish waits 3 s; a second keeps a GUI informed without flooding a fast search.
pub const PROGRESS_REPORT_MS: u64 = 1000;
/// Main-search SEE pruning of captures: maximum depth.
pub const SEE_CAPTURE_MAX_DEPTH: i32 = 8;
/// Main-search SEE pruning of quiet moves: maximum depth.
pub const SEE_QUIET_MAX_DEPTH: i32 = 8;
/// Main-search SEE pruning of captures at low depth: margin per ply squared.
pub const SEE_CAPTURE_MARGIN: i32 = 100;
/// Main-search SEE pruning of quiet moves at low depth: margin per ply squared.
pub const SEE_QUIET_MARGIN: i32 = 30;

// Singular extensions (Step 12 of the main search).
/// The least depth at which the TT move is tested for being singular.
pub const SE_MIN_DEPTH: i32 = 8;
/// The TT entry must come from a search at least this many plies shallower than the node
/// at most.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular beta = TT score - this many centipawns per ply of depth.
pub const SE_MARGIN_PER_DEPTH: i32 = 2;
/// A TT move singular by more than this (centipawns below singular beta, off the PV) is
/// extended by two plies.
pub const SE_DOUBLE_MARGIN: i32 = 20;
/// The most double extensions on one line.
pub const SE_DOUBLE_MAX: u8 = 6;
/// A singular TT move is not extended once its TT score is this many centipawns or more
/// from zero: the game is decided, and deepening the best line that does not mate yet
/// only delays the iteration that finds the mate (the multi-cut and the negative extension
/// stay).
pub const SE_DECIDED_SCORE: i32 = 1000;

/// One number of the main search that a tuner may change (`lull spsa`): its name, its default
/// (the constant above it stands for), the range the tuner keeps it in, and the size of SPSA's
/// perturbation at the end of a run (OpenBench's `c_end`), in the number's own unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TunableSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub c_end: f64,
}

macro_rules! tunables {
    ($($(#[$doc:meta])* $variant:ident = ($name:literal, $default:expr, $min:expr, $max:expr, $c_end:expr);)*) => {
        /// The main-search numbers a tuner may change; each indexes [`Tunables`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Tunable {
            $($(#[$doc])* $variant,)*
        }

        /// The tunable numbers in [`Tunable`]'s order, with their defaults and ranges.
        pub const TUNABLE_SPECS: &[TunableSpec] = &[
            $(TunableSpec { name: $name, default: $default, min: $min, max: $max, c_end: $c_end },)*
        ];
    };
}

tunables! {
    /// [`RFP_MARGIN`] (centipawns per ply).
    RfpMargin = ("RfpMargin", RFP_MARGIN, 25, 150, 8.0);
    /// [`RFP_MAX_DEPTH`] (plies).
    RfpMaxDepth = ("RfpMaxDepth", RFP_MAX_DEPTH, 4, 12, 0.5);
    /// [`NMP_BASE_REDUCTION`] (plies).
    NmpBaseReduction = ("NmpBaseReduction", NMP_BASE_REDUCTION, 1, 5, 0.5);
    /// [`NMP_DEPTH_DIVISOR`] (plies).
    NmpDepthDivisor = ("NmpDepthDivisor", NMP_DEPTH_DIVISOR, 2, 8, 0.5);
    /// [`NMP_EVAL_DIVISOR`] (centipawns).
    NmpEvalDivisor = ("NmpEvalDivisor", NMP_EVAL_DIVISOR, 80, 400, 15.0);
    /// [`FP_BASE`] (centipawns).
    FpBase = ("FpBase", FP_BASE, 20, 200, 10.0);
    /// [`FP_PER_DEPTH`] (centipawns per ply).
    FpPerDepth = ("FpPerDepth", FP_PER_DEPTH, 30, 180, 8.0);
    /// [`FP_MAX_DEPTH`] (plies).
    FpMaxDepth = ("FpMaxDepth", FP_MAX_DEPTH, 3, 10, 0.5);
    /// [`LMP_BASE`] (moves).
    LmpBase = ("LmpBase", LMP_BASE, 1, 8, 0.5);
    /// [`LMR_BASE`] (hundredths of a ply).
    LmrBase = ("LmrBase", LMR_BASE, 20, 150, 8.0);
    /// [`LMR_DIVISOR`] (hundredths).
    LmrDivisor = ("LmrDivisor", LMR_DIVISOR, 150, 350, 12.0);
    /// [`LMR_HISTORY_DIVISOR`] (history units per ply).
    LmrHistoryDivisor = ("LmrHistoryDivisor", LMR_HISTORY_DIVISOR, 3000, 20000, 600.0);
    /// [`HP_MAX_DEPTH`] (plies).
    HpMaxDepth = ("HpMaxDepth", HP_MAX_DEPTH, 1, 8, 0.5);
    /// [`HP_MARGIN`] (history units per ply).
    HpMargin = ("HpMargin", HP_MARGIN, 256, 8192, 300.0);
    /// [`LMR_CUT_NODE`] (plies).
    LmrCutNode = ("LmrCutNode", LMR_CUT_NODE, 0, 3, 0.5);
    /// [`LMR_TT_CAPTURE`] (plies).
    LmrTtCapture = ("LmrTtCapture", LMR_TT_CAPTURE, 0, 3, 0.5);
    /// [`RAZOR_MARGIN`] (centipawns per ply).
    RazorMargin = ("RazorMargin", RAZOR_MARGIN, 100, 500, 20.0);
    /// [`PROBCUT_MARGIN`] (centipawns).
    ProbcutMargin = ("ProbcutMargin", PROBCUT_MARGIN, 50, 400, 15.0);
    /// [`SEE_CAPTURE_MARGIN`] (centipawns per ply squared).
    SeeCaptureMargin = ("SeeCaptureMargin", SEE_CAPTURE_MARGIN, 30, 200, 8.0);
    /// [`SEE_QUIET_MARGIN`] (centipawns per ply squared).
    SeeQuietMargin = ("SeeQuietMargin", SEE_QUIET_MARGIN, 10, 80, 4.0);
    /// [`SE_MARGIN_PER_DEPTH`] (centipawns per ply).
    SeMarginPerDepth = ("SeMarginPerDepth", SE_MARGIN_PER_DEPTH, 1, 5, 0.5);
    /// [`SE_DOUBLE_MARGIN`] (centipawns).
    SeDoubleMargin = ("SeDoubleMargin", SE_DOUBLE_MARGIN, 5, 60, 4.0);
    /// [`HISTORY_BONUS_PER_DEPTH`] (history units per ply).
    HistoryBonusPerDepth = ("HistoryBonusPerDepth", HISTORY_BONUS_PER_DEPTH, 50, 400, 15.0);
    /// [`HISTORY_BONUS_MAX`] (history units).
    HistoryBonusMax = ("HistoryBonusMax", HISTORY_BONUS_MAX, 500, 4000, 150.0);
    /// [`ASPIRATION_WINDOW`] (centipawns).
    AspirationWindow = ("AspirationWindow", ASPIRATION_WINDOW, 8, 60, 3.0);
}

/// Values of the [`Tunable`] numbers, the defaults unless a tuner set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunables([i32; TUNABLE_SPECS.len()]);

impl Default for Tunables {
    fn default() -> Self {
        let mut v = [0; TUNABLE_SPECS.len()];
        let mut i = 0;
        while i < v.len() {
            v[i] = TUNABLE_SPECS[i].default;
            i += 1;
        }
        Self(v)
    }
}

impl std::ops::Index<Tunable> for Tunables {
    type Output = i32;
    #[inline(always)]
    fn index(&self, t: Tunable) -> &i32 {
        &self.0[t as usize]
    }
}

impl Tunables {
    /// The value of the number at `index` in [`TUNABLE_SPECS`].
    pub fn get(&self, index: usize) -> i32 {
        self.0[index]
    }

    /// Sets the number at `index` in [`TUNABLE_SPECS`], kept inside its range.
    pub fn set(&mut self, index: usize, value: i32) {
        let spec = &TUNABLE_SPECS[index];
        self.0[index] = value.clamp(spec.min, spec.max);
    }

    /// Sets the number called `name` (case-insensitive); an error names the known ones.
    pub fn set_named(&mut self, name: &str, value: i32) -> Result<(), String> {
        let index = TUNABLE_SPECS
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = TUNABLE_SPECS.iter().map(|s| s.name).collect();
                format!("unknown tunable '{name}' (known: {})", names.join(", "))
            })?;
        self.set(index, value);
        Ok(())
    }
}

/// The win/draw/loss model of `UCI_ShowWDL` (`crate::wdl`): the coefficients, in centipawns,
/// of `a(x)` (the score at which a win is as likely as not) and `b(x)` (the logistic's spread)
/// as cubics in `x` = material / 58, highest power first. Fitted by `lull wdl fit` to the
/// self-play games of the embedded network (docs/wdl.md).
pub const WDL_A: [f64; 4] = [91.22, 123.43, -589.54, 448.56];
/// See [`WDL_A`].
pub const WDL_B: [f64; 4] = [80.19, -79.88, -46.46, 124.51];

/// `Skill Level` and `UCI_Elo` (`crate::skill`). The node budget of a search at level L is
/// `SKILL_BASE_NODES` × `SKILL_NODE_GROWTH`^L nodes (level 0: 200 nodes, level 19: about
/// 119,000); level 20 is the full search.
pub const SKILL_BASE_NODES: u64 = 200;
/// See [`SKILL_BASE_NODES`] (factor per level).
pub const SKILL_NODE_GROWTH: f64 = 1.4;
/// Lines a limited-strength search looks at (its `MultiPV`, at least).
pub const SKILL_MULTIPV: usize = 4;
/// Softmax temperature of the move choice at level 20 (centipawns); it grows with the square
/// of the weakness (1 − level / 20) to `SKILL_TEMPERATURE_MAX` at level 0.
pub const SKILL_TEMPERATURE_MIN: f64 = 10.0;
/// See [`SKILL_TEMPERATURE_MIN`] (centipawns, level 0).
pub const SKILL_TEMPERATURE_MAX: f64 = 200.0;
/// A line scoring more than this below the best is never chosen at level 20 (centipawns); the
/// limit grows linearly to `SKILL_MAX_LOSS_MAX` at level 0.
pub const SKILL_MAX_LOSS_MIN: i32 = 30;
/// See [`SKILL_MAX_LOSS_MIN`] (centipawns, level 0).
pub const SKILL_MAX_LOSS_MAX: i32 = 400;
/// Lull's levels on the Elo scale of Stockfish 15.1's `UCI_Elo`, as matches measured them
/// (docs/strength-levels.md, table "Levels"): (level, Elo), both increasing. `UCI_Elo` maps
/// onto a level by linear interpolation between these points, and its range is theirs.
pub const SKILL_LEVEL_ELO: &[(f64, i64)] = &[(5.0, 1334), (10.0, 1697), (15.0, 2061), (19.0, 2352)];
/// The lowest `UCI_Elo`: the Elo of the weakest level measured.
pub const SKILL_ELO_MIN: i64 = SKILL_LEVEL_ELO[0].1;
/// The highest `UCI_Elo`: the Elo of the strongest level measured.
pub const SKILL_ELO_MAX: i64 = SKILL_LEVEL_ELO[SKILL_LEVEL_ELO.len() - 1].1;

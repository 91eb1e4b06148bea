//! The options of a search: the quiescence-search variants ([`QSearchOptions`]), the main
//! search's pruning switches ([`PruningOptions`]) and everything else a search is run with
//! ([`SearchOptions`]), with [`SearchOptions::effective`], the settings of `TacticalMode`.

use serde::Serialize;

use crate::params;

/// Where Beal's null-move quiescence (`QSearchNullMove`, Beal 1990) is used: the UCI spin
/// value 0, 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NullMoveQs {
    /// Not at all: the stand pat is the static evaluation.
    #[default]
    Off = 0,
    /// At the first quiescence ply only (q-ply 0).
    Root = 1,
    /// At every quiescence ply.
    EveryPly = 2,
}

impl NullMoveQs {
    /// The mode of a UCI spin value (below 0 is off, above 2 every ply).
    pub fn from_spin(n: i64) -> Self {
        match n {
            i64::MIN..=0 => Self::Off,
            1 => Self::Root,
            _ => Self::EveryPly,
        }
    }

    /// Whether the null-move stand pat is used at `qply`.
    #[inline]
    pub(super) fn applies_at(self, qply: i32) -> bool {
        match self {
            Self::Off => false,
            Self::Root => qply == 0,
            Self::EveryPly => true,
        }
    }
}

/// Serialised as its UCI spin value, as when it was a number.
impl Serialize for NullMoveQs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i32(*self as i32)
    }
}

/// The quiescence-search variants of the literature, each switchable (UCI options `QSearch*`).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct QSearchOptions {
    /// `QSearch`: run the quiescence search at depth 0; off evaluates the leaf statically.
    pub enabled: bool,
    /// `QSearchMaxPly`: plies past the horizon before the quiescence search stops.
    pub max_ply: i32,
    /// `QSearchMaxNodes`: quiescence nodes per search before it stops descending (0 = no cap).
    pub max_nodes: u64,
    /// `QSearchChecks`: quiescence plies in which quiet checking moves are searched too.
    pub check_plies: i32,
    /// `QSearchSEE`: captures with a lower exchange value are skipped (centipawns).
    pub see_threshold: i32,
    /// `QSearchDelta`: delta-pruning margin in centipawns (0 = off).
    pub delta_margin: i32,
    /// `QSearchDeltaChecks`: delta pruning never skips a capture that gives check (a check
    /// can win more than its victim: the mate at the end of a sacrifice).
    pub delta_spares_checks: bool,
    /// `QSearchTT`: probe and store the transposition table in the quiescence search.
    pub use_tt: bool,
    /// `QSearchUnderpromotions`: also search under-promotions.
    pub underpromotions: bool,
    /// `QSearchPawnPushes`: also search quiet pawn pushes to the seventh rank.
    pub pawn_pushes: bool,
    /// `QSearchRecapturesAfter`: after this many q-plies only recaptures (0 = off).
    pub recaptures_after: i32,
    /// `QSearchNullMove`: Beal's null-move quiescence, off, at q-ply 0 or at every q-ply.
    pub null_move: NullMoveQs,
}

impl Default for QSearchOptions {
    fn default() -> Self {
        Self {
            enabled: true,
            max_ply: params::QS_MAX_PLY,
            max_nodes: params::QS_MAX_NODES,
            check_plies: params::QS_CHECK_PLIES,
            see_threshold: params::QS_SEE_THRESHOLD,
            delta_margin: params::QS_DELTA_MARGIN,
            delta_spares_checks: false,
            use_tt: true,
            underpromotions: false,
            pawn_pushes: false,
            recaptures_after: params::QS_RECAPTURES_AFTER,
            null_move: NullMoveQs::Off,
        }
    }
}

/// Options of the whole search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Quiescence-search variants.
    pub qs: QSearchOptions,
    /// Milliseconds kept aside per move for communication (`Move Overhead`).
    pub move_overhead: u64,
    /// `MultiPV`: how many best root moves to search and report, each with its own line.
    pub multipv: usize,
    /// `CaptureHistory`: order the captures of both searches by victim and capture history
    /// instead of MVV-LVA (off by default until a match says it gains).
    pub capture_history: bool,
    /// `SingularExtensions`: a TT move much better than every other move is searched deeper
    /// (Step 12, with multi-cut and negative extensions).
    pub singular_extensions: bool,
    /// A TT move found singular is searched a ply (or two) deeper. Off in `TacticalMode`, where
    /// the singular test still cuts (multi-cut) and shortens (negative extensions) but never
    /// deepens: not a UCI option.
    pub singular_deepens: bool,
    /// The main search's selectivity, one switch per technique.
    pub pruning: PruningOptions,
    /// `SyzygyProbeDepth`: the search probes the WDL tables only at this depth or more.
    pub syzygy_probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyProbeLimit`: positions with more pieces than this are not probed.
    pub syzygy_probe_limit: usize,
    /// `TacticalMode`: analysis settings for tactics and mate problems (see
    /// [`SearchOptions::effective`]); off for play.
    pub tactical: bool,
    /// `UCI_AnalyseMode`: the GUI analyses; the search runs with `TacticalMode`'s settings
    /// (either switch turns them on).
    pub analyse_mode: bool,
    /// Progress reports (`currmove`, aspiration fails as bounds) are sent only after this
    /// many milliseconds of a search (`params::PROGRESS_REPORT_MS`; not a UCI option).
    pub progress_after_ms: u64,
    /// After each failed aspiration search the window's half-width grows by 1 / this of
    /// itself (`params::ASPIRATION_GROWTH_DIVISOR`; set by `TacticalMode`, not a UCI option).
    pub aspiration_growth_divisor: i32,
    /// The main search's tunable numbers (`params::Tunables`): the defaults of `params.rs`
    /// unless `lull spsa` or an engine option set them.
    pub tunables: params::Tunables,
}

impl SearchOptions {
    /// The options a search runs with. `TacticalMode` (Houdini's name for the same idea) trades
    /// playing strength for finding sacrifices and the shortest mate sooner. Each change is
    /// aimed at one way the play search hides the key move of a sacrifice (found with
    /// `lull why` and `lull solve --why`, docs/measurements.md):
    /// - no reverse futility: after a sacrifice the defender is material ahead, its eval far
    ///   above beta, and the node returned before the mating threat was searched;
    /// - no razoring: the attacker is the side far below alpha after its sacrifice (WAC.004,
    ///   Qxh7+ Kxh7: a queen down three plies from the horizon, the mate not yet seen);
    /// - the null move's reduction grows less with that lead (the null move stays: without
    ///   it the search is too shallow for the deep WAC positions);
    /// - late move pruning keeps quiet checks, and there is no futility pruning: a quiet move
    ///   that threatens mate gains more than any margin (after Bxf7+ Kd8 in
    ///   `r1b1k1nr/1p1n1pbp/p1pQ2p1/4p3/2B1PB2/2q2N2/P1P2PPP/1R1R2K1 w`, Ng5 was pruned);
    /// - no history pruning, and no extra reduction at expected cut nodes or after a TT
    ///   capture: a sacrifice is a late quiet move with a poor history (in the same position,
    ///   the rook sacrifice Rd5 of the mate in 5 was reduced by 5 plies and found at depth 12
    ///   instead of 10);
    /// - a singular TT move is not extended: in a mate problem the TT move is the best line
    ///   that does not yet mate, and deepening it delays the iteration that finds the
    ///   sacrifice (docs/measurements.md, "`TacticalMode` and the singular extension"; the
    ///   multi-cut and negative extensions stay, and find more mates than no singular test);
    /// - the aspiration window doubles after each fail: the score of a sacrifice jumps from
    ///   about 0 to a mate in one iteration, through 11 re-searches when the window grows
    ///   by half;
    /// - the quiescence search tries quiet checks in its first ply, and delta pruning spares
    ///   checking captures (the mate after the sacrifice is often a check at the horizon).
    ///
    /// Such changes lost Elo in self-play when tried as defaults (docs/strength.md rows 25, 26,
    /// 30, 31), so this is an analysis mode, off for play; `lull solve --tactical` turns it on.
    pub fn effective(&self) -> SearchOptions {
        let mut o = self.clone();
        if o.tactical || o.analyse_mode {
            o.pruning.reverse_futility = false;
            o.pruning.razoring = false;
            o.pruning.null_move_eval_reduction_max = o
                .pruning
                .null_move_eval_reduction_max
                .min(params::TACTICAL_NMP_EVAL_REDUCTION_MAX);
            o.pruning.late_move_pruning_keeps_checks = true;
            o.pruning.history_pruning = false;
            o.pruning.cut_node_reductions = false;
            o.pruning.futility = false;
            o.singular_deepens = false;
            o.aspiration_growth_divisor = o
                .aspiration_growth_divisor
                .min(params::TACTICAL_ASPIRATION_GROWTH_DIVISOR);
            o.qs.check_plies = o.qs.check_plies.max(1);
            o.qs.delta_spares_checks = true;
        }
        o
    }
}

/// The main search's pruning and reduction techniques, each a switch (all on by default), so
/// that their effect on a position, a suite or a match can be seen one at a time. Off, a
/// technique is skipped as if its condition never held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PruningOptions {
    /// `ReverseFutility`: a node far above beta at low depth returns at once (Step 8).
    pub reverse_futility: bool,
    /// `NullMovePruning`: a node where passing still fails high returns (Step 9).
    pub null_move: bool,
    /// `Razoring`: a node far below alpha at low depth that the quiescence search cannot
    /// lift to alpha returns at once (Step 7).
    pub razoring: bool,
    /// `ProbCut`: a capture that beats a raised beta in a shallow search ends the node (Step 10).
    pub probcut: bool,
    /// `FutilityPruning`: quiet moves that cannot lift the eval to alpha are skipped (Step 14).
    pub futility: bool,
    /// `LateMovePruning`: at low depth, quiet moves after the first few are skipped, and late
    /// quiet moves with a bad history (history pruning) (Step 14).
    pub late_move_pruning: bool,
    /// `SEEPruning`: quiet moves and captures that lose material by SEE are skipped (Step 14).
    pub see: bool,
    /// `LateMoveReductions`: late quiet moves are searched shallower first (Step 15).
    pub late_move_reductions: bool,
    /// Late move pruning keeps the quiet moves that may give check (off by default; set by
    /// `TacticalMode`: the mating move of a sacrifice is often a late quiet check).
    pub late_move_pruning_keeps_checks: bool,
    /// History pruning (with `LateMovePruning`): at low depth, a late quiet move whose
    /// histories are far below zero is skipped (Step 14). Off in `TacticalMode`.
    pub history_pruning: bool,
    /// Late move reductions a ply deeper at expected cut nodes and when the TT move is a
    /// capture (Step 15). Off in `TacticalMode`: a sacrifice is often a late quiet move there.
    pub cut_node_reductions: bool,
    /// The most plies the null move's reduction grows by with the eval's lead over beta
    /// (`NMP_EVAL_REDUCTION_MAX`; less in `TacticalMode`: after a sacrifice the defender's
    /// eval is far above beta, and the deeper reduction hides the mate it threatens).
    pub null_move_eval_reduction_max: i32,
}

impl Default for PruningOptions {
    fn default() -> Self {
        Self {
            reverse_futility: true,
            null_move: true,
            probcut: true,
            razoring: true,
            futility: true,
            late_move_pruning: true,
            see: true,
            late_move_reductions: true,
            late_move_pruning_keeps_checks: false,
            history_pruning: true,
            cut_node_reductions: true,
            null_move_eval_reduction_max: params::NMP_EVAL_REDUCTION_MAX,
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            qs: QSearchOptions::default(),
            move_overhead: params::MOVE_OVERHEAD,
            multipv: 1,
            capture_history: false,
            singular_extensions: true,
            singular_deepens: true,
            pruning: PruningOptions::default(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: 7,
            tactical: false,
            analyse_mode: false,
            progress_after_ms: params::PROGRESS_REPORT_MS,
            aspiration_growth_divisor: params::ASPIRATION_GROWTH_DIVISOR,
            tunables: params::Tunables::default(),
        }
    }
}

//! Time management: turns the UCI `go` parameters into a soft limit (do not start another
//! iteration after it) and a hard limit (abort the search in the middle of an iteration).

use std::time::{Duration, Instant};

use cozy_chess::Color;

use crate::params::{
    DEFAULT_MOVES_TO_GO, HARD_LIMIT_CLOCK_PERCENT, HARD_LIMIT_FACTOR, HARD_LIMIT_LAST_MOVE_PERCENT,
    SOFT_LIMIT_CLOCK_PERCENT, TM_INCREMENT_PERCENT, TM_NODE_FACTOR_BASE, TM_SCORE_DROP_PER_CP,
    TM_SCORE_FACTOR_MAX, TM_SCORE_FACTOR_MIN, TM_STABILITY_FACTORS,
};

/// The limits of one search, as given by `go` (all times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining clock.
    pub wtime: Option<u64>,
    /// Black's remaining clock.
    pub btime: Option<u64>,
    /// White's increment per move.
    pub winc: Option<u64>,
    /// Black's increment per move.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u64>,
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<i32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` or `stop`.
    pub ponder: bool,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: i32) -> Self {
        Self {
            depth: Some(depth),
            ..Self::default()
        }
    }

    /// A fixed-node search.
    pub fn nodes(nodes: u64) -> Self {
        Self {
            nodes: Some(nodes),
            ..Self::default()
        }
    }

    /// A fixed-time search.
    pub fn movetime(ms: u64) -> Self {
        Self {
            movetime: Some(ms),
            ..Self::default()
        }
    }

    /// Whether the clock governs this search.
    pub fn uses_clock(&self) -> bool {
        self.wtime.is_some() || self.btime.is_some()
    }
}

/// Time limits of one search, measured from the start of its clock: the start of the search,
/// or the ponder hit of a ponder search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    /// When the search began (pondering included): what the reported time counts from.
    origin: Instant,
    /// When the engine's own clock started: what the limits count from.
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the soft limit comes from a clock (and may be scaled by how the search goes);
    /// a `movetime` is exact.
    scalable: bool,
    /// The side the limits are for and the move overhead kept aside, in milliseconds (for
    /// limits given again at a ponder hit).
    us: Color,
    overhead: u64,
}

/// How the last iterations went, for [`TimeManager::soft_scale`].
#[derive(Clone, Copy, Debug)]
pub struct SearchProgress {
    /// Iterations in a row (before the last) with the same best move.
    pub stability: usize,
    /// Score of the last iteration minus the score a few iterations before (negative when
    /// the score drops), in centipawns.
    pub score_change: i32,
    /// Share of the last iteration's nodes spent on the best move (0..=1).
    pub best_move_effort: f64,
}

impl TimeManager {
    /// Computes the limits for `us` from the `go` parameters and the move overhead.
    pub fn new(limits: &Limits, us: Color, overhead: u64) -> Self {
        let start = Instant::now();
        let unlimited = Self {
            origin: start,
            start,
            soft: None,
            hard: None,
            scalable: false,
            us,
            overhead,
        };
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.min(1 << 40).saturating_sub(overhead).max(1));
            return Self {
                soft: Some(t),
                hard: Some(t),
                ..unlimited
            };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return unlimited;
        };
        // Absurd clock values must not overflow the arithmetic below: a year is plenty.
        const CAP: u64 = 365 * 24 * 3_600_000;
        let time = time.min(CAP);
        let inc = inc.unwrap_or(0).min(CAP);
        let mtg = limits
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, DEFAULT_MOVES_TO_GO);
        // What we may spend in total, keeping the overhead aside.
        let available = time.saturating_sub(overhead).max(1);
        let soft = (available / mtg + inc * TM_INCREMENT_PERCENT / 100)
            .min(available * SOFT_LIMIT_CLOCK_PERCENT / 100);
        let hard_cap = if mtg == 1 {
            available * HARD_LIMIT_LAST_MOVE_PERCENT / 100
        } else {
            available * HARD_LIMIT_CLOCK_PERCENT / 100
        };
        let hard = (soft * HARD_LIMIT_FACTOR).min(hard_cap).max(1);
        let soft = soft.min(hard).max(1);
        Self {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            scalable: true,
            ..unlimited
        }
    }

    /// The factor by which the soft limit is scaled after an iteration: more time when the
    /// best move keeps changing, when the score drops, or when the best move took a small
    /// share of the effort (the alternatives were hard to refute); less when one move has
    /// dominated for several iterations.
    pub fn soft_scale(progress: &SearchProgress) -> f64 {
        let stability =
            TM_STABILITY_FACTORS[progress.stability.min(TM_STABILITY_FACTORS.len() - 1)];
        let score = (1.0 - f64::from(progress.score_change) * TM_SCORE_DROP_PER_CP)
            .clamp(TM_SCORE_FACTOR_MIN, TM_SCORE_FACTOR_MAX);
        let nodes = TM_NODE_FACTOR_BASE - progress.best_move_effort.clamp(0.0, 1.0);
        stability * score * nodes
    }

    /// Whether another iteration may start, given how the search has gone so far (a clock
    /// search scales its soft limit by [`TimeManager::soft_scale`], never past the hard limit).
    pub fn soft_expired_after(&self, progress: &SearchProgress) -> bool {
        let Some(soft) = self.soft else {
            return false;
        };
        let limit = if self.scalable {
            let scaled = soft.mul_f64(Self::soft_scale(progress));
            self.hard.map_or(scaled, |h| scaled.min(h))
        } else {
            soft
        };
        self.start.elapsed() >= limit
    }

    /// Restarts the clock at a ponder hit: the time of our move starts now, with the limits
    /// of `limits` when given (the clocks as they are at the hit), else with the same limits.
    /// The search's own time ([`TimeManager::searched_ms`]) goes on.
    pub fn restart(&mut self, limits: Option<&Limits>) {
        let origin = self.origin;
        if let Some(limits) = limits {
            *self = Self::new(limits, self.us, self.overhead);
        }
        self.origin = origin;
        self.start = Instant::now();
    }

    /// Time since the clock started (the search's start, or the ponder hit).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Milliseconds since the clock started (the search's start, or the ponder hit).
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds since the search began, pondering included: the time reported with the
    /// search's node count, so that nodes, time and nodes per second agree.
    pub fn searched_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }

    /// Whether the search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// The soft limit, if any.
    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard limit, if any.
    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_stay_inside_the_clock() {
        for (time, inc) in [
            (1000, 10),
            (100, 0),
            (8000, 80),
            (60_000, 0),
            (5, 0),
            (0, 0),
        ] {
            let limits = Limits {
                wtime: Some(time),
                winc: Some(inc),
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, Color::White, 30);
            let hard = tm.hard_limit().unwrap().as_millis() as u64;
            let soft = tm.soft_limit().unwrap().as_millis() as u64;
            assert!(soft <= hard, "{time}+{inc}: soft {soft} hard {hard}");
            assert!(
                hard <= time.saturating_sub(30).max(1),
                "{time}+{inc}: hard {hard}"
            );
        }
    }

    #[test]
    fn soft_scale_spends_more_on_unstable_or_falling_searches() {
        let calm = SearchProgress {
            stability: 6,
            score_change: 5,
            best_move_effort: 0.9,
        };
        let unstable = SearchProgress {
            stability: 0,
            ..calm
        };
        let falling = SearchProgress {
            score_change: -60,
            ..calm
        };
        let contested = SearchProgress {
            best_move_effort: 0.3,
            ..calm
        };
        let c = TimeManager::soft_scale(&calm);
        assert!(c < 1.0, "one dominating move: scale {c}");
        for (what, p) in [
            ("changing best move", unstable),
            ("falling score", falling),
            ("contested best move", contested),
        ] {
            let s = TimeManager::soft_scale(&p);
            assert!(s > c * 1.2, "{what}: scale {s} vs calm {c}");
        }
        // The scaled limit never passes the hard limit.
        let limits = Limits {
            wtime: Some(10_000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, 0);
        let worst = SearchProgress {
            stability: 0,
            score_change: -1000,
            best_move_effort: 0.0,
        };
        let scaled = tm
            .soft_limit()
            .unwrap()
            .mul_f64(TimeManager::soft_scale(&worst));
        assert!(
            scaled > tm.hard_limit().unwrap(),
            "test needs a scale past the hard limit"
        );
        assert!(!tm.soft_expired_after(&worst));
    }

    #[test]
    fn a_ponder_hit_takes_the_limits_given_and_the_search_time_goes_on() {
        let clock = |ms| Limits {
            wtime: Some(ms),
            btime: Some(600_000),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&clock(600_000), Color::White, 30);
        let pondering = tm.hard_limit().unwrap();
        assert!(pondering > Duration::from_secs(10), "{pondering:?}");
        std::thread::sleep(Duration::from_millis(20));
        // The clock as it is at the hit: half a second.
        tm.restart(Some(&clock(500)));
        let hit = tm.hard_limit().unwrap();
        assert!(hit <= Duration::from_millis(470), "{hit:?}");
        // The search's own time counts from its start, not from the hit.
        assert!(tm.searched_ms() >= 20, "{}", tm.searched_ms());
        // No limits given: those of the search stay.
        tm.restart(None);
        assert_eq!(tm.hard_limit(), Some(hit));
        assert!(tm.searched_ms() >= 20);
    }

    #[test]
    fn movetime_and_infinite() {
        let tm = TimeManager::new(&Limits::movetime(500), Color::Black, 30);
        assert_eq!(tm.hard_limit(), Some(Duration::from_millis(470)));
        let tm = TimeManager::new(&Limits::default(), Color::Black, 30);
        assert!(tm.hard_limit().is_none() && !tm.hard_expired());
    }
}

//! Time management: turns the UCI `go` parameters into a soft limit (do not start another
//! iteration after it) and a hard limit (abort the search in the middle of an iteration).

use std::time::{Duration, Instant};

use cozy_chess::Color;

use crate::params::{DEFAULT_MOVES_TO_GO, HARD_LIMIT_CLOCK_PERCENT, HARD_LIMIT_FACTOR};

/// The limits of one search, as given by `go` (all times in milliseconds).
#[derive(Clone, Debug, Default)]
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

/// Time limits of one search, measured from its start.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Computes the limits for `us` from the `go` parameters and the move overhead.
    pub fn new(limits: &Limits, us: Color, overhead: u64) -> Self {
        let start = Instant::now();
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.min(1 << 40).saturating_sub(overhead).max(1));
            return Self {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return Self {
                start,
                soft: None,
                hard: None,
            };
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
        let soft = (available / mtg + inc * 3 / 4).min(available * 6 / 10);
        let hard_cap = if mtg == 1 {
            available * 8 / 10
        } else {
            available * HARD_LIMIT_CLOCK_PERCENT / 100
        };
        let hard = (soft * HARD_LIMIT_FACTOR).min(hard_cap).max(1);
        let soft = soft.min(hard).max(1);
        Self {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    /// Restarts the clock (on `ponderhit`: the time of our move starts now).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether another iteration may start.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
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
    fn movetime_and_infinite() {
        let tm = TimeManager::new(&Limits::movetime(500), Color::Black, 30);
        assert_eq!(tm.hard_limit(), Some(Duration::from_millis(470)));
        let tm = TimeManager::new(&Limits::default(), Color::Black, 30);
        assert!(tm.hard_limit().is_none() && !tm.hard_expired());
    }
}

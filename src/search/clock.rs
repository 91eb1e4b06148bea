//! When one thread's search must end ([`Clock`]): the time manager, the limits it was given,
//! whether a ponder hit is still to come, how often it polls, and whether it has stopped.
//! `Searcher::poll` reads it at every node.

use std::sync::atomic::Ordering;

use crate::params::POLL_NODES;
use crate::time::{Limits, TimeManager};

use super::control::Control;

/// One thread's limits and clock.
pub(super) struct Clock {
    pub(super) time: TimeManager,
    pub(super) limits: Limits,
    /// Pondering and no `ponderhit` seen yet.
    pub(super) ponder_pending: bool,
    /// This thread polls when its node count has these bits clear: every
    /// [`poll_interval`] nodes.
    pub(super) poll_mask: u64,
    /// The search must unwind (set by `Searcher::poll`).
    pub(super) stopped: bool,
}

/// Nodes between two polls of each of `threads` search threads (a power of two): see
/// [`POLL_NODES`].
pub fn poll_interval(threads: usize) -> u64 {
    (POLL_NODES / (threads.max(1) as u64).next_power_of_two()).max(1)
}

impl Clock {
    /// No limits: a search that runs until it is stopped.
    pub(super) fn new() -> Self {
        Self {
            time: TimeManager::new(&Limits::default(), cozy_chess::Color::White, 0),
            limits: Limits::default(),
            ponder_pending: false,
            poll_mask: POLL_NODES - 1,
            stopped: false,
        }
    }

    /// The ponder hit (the main thread saw `pondering` cleared): our clock runs from now,
    /// with the limits the front end gave at the hit, if any.
    #[cold]
    pub(super) fn ponder_hit(&mut self, control: &Control) {
        self.ponder_pending = false;
        // Pairs with the store that cleared `pondering`, which came after the limits were set.
        std::sync::atomic::fence(Ordering::Acquire);
        let given = control
            .hit_limits
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(limits) = &given {
            self.limits = Limits {
                ponder: false,
                ..limits.clone()
            };
        }
        self.time.restart(given.as_ref());
    }
}

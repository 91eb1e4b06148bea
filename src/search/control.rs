//! The flags that another thread uses to steer a running search.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use crate::time::Limits;

/// Flags shared by all threads of a search and the thread that controls it.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: time limits are not applied until `ponderhit`.
    pub pondering: AtomicBool,
    /// The limits of the engine's own move, given at a ponder hit (XBoard: computed from the
    /// clocks the GUI sent just before the move pondered on): set before `pondering` is
    /// cleared, taken by the search at the hit. `None` keeps the limits of the ponder search
    /// (UCI's `go ponder` carries the clocks of the move already).
    pub hit_limits: Mutex<Option<Limits>>,
}

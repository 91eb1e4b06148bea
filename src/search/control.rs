//! The flags that another thread uses to steer a running search.

use std::sync::atomic::AtomicBool;

/// Flags shared by all threads of a search and the thread that controls it.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: time limits are not applied until `ponderhit`.
    pub pondering: AtomicBool,
}

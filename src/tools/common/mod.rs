//! What tools of several groups share: files written whole or not at all ([`atomic`]: the
//! one way a tool writes a file) and the progress bar of the long-running tools
//! ([`progress`]).

pub mod atomic;
pub mod progress;

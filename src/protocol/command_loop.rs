//! The command loop of both protocols: what a skin does with each line of input
//! ([`Frontend`]), and the loop that hands it the lines ([`run_loop`]), looking at the running
//! search between them when the skin asks for it.

use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use super::input::{spawn_reader, Input};

/// How often the command loop looks at a running search when the skin asks for it (to take
/// back the engine, apply the move it sent and start pondering).
const POLL: Duration = Duration::from_millis(5);

/// What a protocol skin does with the input the command loop reads.
pub trait Frontend {
    /// Handles one command line. Returns false on `quit`.
    fn handle(&mut self, line: &str) -> bool;
    /// Reports a line that could not be read (too long, not UTF-8).
    fn unreadable(&mut self, why: &str);
    /// The input has ended: finish or stop the running search as the protocol wants.
    fn end_of_input(&mut self);
    /// Whether the loop must look at the running search while no input arrives (calling
    /// [`Frontend::watch`] every few milliseconds).
    fn watching(&self) -> bool {
        false
    }
    /// Looks at the running search (see [`Frontend::watching`]).
    fn watch(&mut self) {}
}

/// The command loop of both protocols: runs `front` on stdin until `quit` or end of input.
pub fn run_loop(front: &mut impl Frontend) {
    let input = spawn_reader();
    loop {
        let next = if front.watching() {
            match input.recv_timeout(POLL) {
                Ok(next) => next,
                Err(RecvTimeoutError::Timeout) => {
                    front.watch();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => Input::End,
            }
        } else {
            input.recv().unwrap_or(Input::End)
        };
        match next {
            Input::End => {
                front.end_of_input();
                return;
            }
            Input::Line(Err(e)) => front.unreadable(&e),
            Input::Line(Ok(line)) => {
                if !front.handle(&line) {
                    return;
                }
            }
        }
    }
}

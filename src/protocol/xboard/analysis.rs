//! Analysis mode (`analyze` to `exit`): the engine searches the position the GUI shows,
//! restarting whenever it changes, and answers `.` with the status of its last iteration.

use super::{lock, Mode, Xboard};
use crate::protocol::say;
use crate::time::Limits;

/// The last completed iteration, for the `.` status line.
#[derive(Clone, Debug)]
pub(super) struct Status {
    /// The search's time, in centiseconds.
    pub centis: u64,
    pub nodes: u64,
    pub depth: i32,
    /// The number of legal moves of the position analysed.
    pub total_moves: usize,
    /// The first move of the PV, in SAN.
    pub best: String,
}

impl Xboard {
    /// `analyze`: analysis mode, analysing the current position.
    pub(super) fn cmd_analyze(&mut self) {
        self.settle();
        self.analyzing = true;
        self.analyze();
    }

    /// Leaves analysis mode (`exit`, and `go` in analysis mode), ending the analysis.
    pub(super) fn leave_analysis(&mut self) {
        if self.analyzing {
            self.settle();
            self.analyzing = false;
        }
    }

    /// Starts (or restarts) the analysis of the current position.
    pub(super) fn analyze(&mut self) {
        if !self.searchable("analyze") {
            return;
        }
        let limits = Limits {
            infinite: true,
            depth: self.depth,
            ..Limits::default()
        };
        let pos = self.session.pos.clone();
        self.start_search(Mode::Analyze, pos, limits);
    }

    /// Restarts the analysis after the position changed (in analysis mode).
    pub(super) fn reanalyze(&mut self) {
        if self.analyzing {
            self.settle();
            self.analyze();
        }
    }

    /// `.`: the status of the analysis (its last completed iteration).
    pub(super) fn cmd_status(&self) {
        if !self.analyzing {
            return;
        }
        if let Some(s) = lock(&self.status).clone() {
            let line = format!(
                "stat01: {} {} {} 0 {} {}",
                s.centis, s.nodes, s.depth, s.total_moves, s.best
            );
            say(line.trim_end());
        }
    }
}

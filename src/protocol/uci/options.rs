//! The engine's options as UCI knows them: the option list of the `uci` answer, and
//! `setoption`. One table (in `options`) checks every name and value.

use super::{error, Uci};
use crate::options::{option_specs, parse_option};
use crate::protocol::{say, ENGINE_AUTHOR, ENGINE_NAME};

/// The `uci` answer: name, author, the option table, `uciok`.
pub(super) fn cmd_uci() {
    say(&format!("id name {ENGINE_NAME}"));
    say(&format!("id author {ENGINE_AUTHOR}"));
    for spec in option_specs() {
        say(&spec.uci_line());
    }
    say("uciok");
}

impl Uci {
    /// `setoption`: sets an option while no search runs.
    pub(super) fn cmd_setoption(&mut self, name: &str, value: Option<&str>) {
        // One parser for every option: the table in `options` checks the name and value.
        let (spec, value) = match parse_option(name, value) {
            Ok(parsed) => parsed,
            Err(e) => {
                error(&e);
                return;
            }
        };
        if self.engine_idle("setoption").is_none() {
            return;
        }
        match self.session.set_option(&spec, value) {
            Ok(Some(info)) => say(&format!("info string {info}")),
            Ok(None) => {}
            Err(e) => error(&e),
        }
    }
}

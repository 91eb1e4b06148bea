//! The engine's features and options as CECP knows them: the `feature` lines that answer
//! `protover 2` (the option list last), and the commands that set an option (`option`,
//! `memory`, `cores`, `egtpath`).

use super::{error, Mode, Xboard};
use crate::options::{option_specs, parse_option, OptionKind, OptionScope};
use crate::position::shorten;
use crate::protocol::{say, ENGINE_NAME};

/// The variants `variant` accepts (announced in `feature variants`).
pub const VARIANTS: &str = "normal,fischerandom";

impl Xboard {
    /// The answer to `protover 2`.
    pub(super) fn features(&self) {
        for line in feature_lines() {
            say(&line);
        }
    }

    /// `egtpath syzygy PATH`: sets `SyzygyPath`. A path none of whose directories exists
    /// (xboard sends its default, `/EGT/Syzygy`, at every start) is answered with one comment
    /// line, not an error, and changes nothing.
    pub(super) fn cmd_egtpath(&mut self, path: &str, line: &str) {
        let separator = if cfg!(windows) { ';' } else { ':' };
        let exists = path
            .split(separator)
            .any(|p| !p.trim().is_empty() && std::path::Path::new(p.trim()).is_dir());
        if !exists && crate::tablebase::COMPILED_IN {
            say(&format!(
                "# egtpath syzygy {}: no such directory, no tablebases loaded",
                shorten(path, 200)
            ));
            return;
        }
        self.set_option("SyzygyPath", Some(path), line);
    }

    /// Makes the engine idle: pondering and analysis are stopped (the caller restarts the
    /// analysis); while the engine thinks about its move, an error and false.
    fn idle_engine(&mut self, line: &str) -> bool {
        if self.search_is(|m| m == Mode::Think) {
            error("the engine is thinking; send it after its move", line);
            return false;
        }
        self.settle();
        true
    }

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        let (spec, value) = match parse_option(name, value) {
            Ok(parsed) => parsed,
            Err(e) => return error(&e, line),
        };
        if spec.scope() == OptionScope::FrontEnd {
            return error(
                &format!("option '{}' is set by CECP commands here", spec.name),
                line,
            );
        }
        if !self.idle_engine(line) {
            return;
        }
        match self.session.set_option(&spec, value) {
            // A note (how many tablebases were found) as a CECP comment line.
            Ok(Some(note)) => say(&format!("# {note}")),
            Ok(None) => {}
            Err(e) => error(&e, line),
        }
        self.reanalyze();
    }
}

/// The `feature` lines answering `protover 2`, the engine's options last.
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "feature myname=\"{ENGINE_NAME}\" setboard=1 usermove=1 ping=1 playother=1 san=0 \
             time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 nps=0 debug=1 \
             memory=1 smp=1 {egt}variants=\"{VARIANTS}\"",
        // `egtpath syzygy PATH` only where tablebases are compiled in.
        egt = if crate::tablebase::COMPILED_IN {
            "egt=\"syzygy\" "
        } else {
            ""
        }
    )];
    for spec in option_specs() {
        // Hash and Threads are `memory` and `cores`; pondering and Chess960 have commands
        // (the other front-end options are UCI's).
        if spec.scope() == OptionScope::FrontEnd || matches!(spec.name, "Hash" | "Threads") {
            continue;
        }
        let kind = match spec.kind {
            OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
            OptionKind::Check { default } => format!("-check {}", u8::from(default)),
            OptionKind::Button => "-button".to_string(),
            // A book is a file: the GUI offers a file chooser.
            OptionKind::String { default } if spec.name == "BookFile" => {
                format!("-file {default}")
            }
            OptionKind::String { default } => format!("-string {default}"),
        };
        lines.push(format!("feature option=\"{} {kind}\"", spec.name));
    }
    lines.push("feature done=1".to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_end_with_done_and_map_the_option_table() {
        let lines = feature_lines();
        assert_eq!(lines.last().unwrap(), "feature done=1");
        assert!(lines.contains(&"feature option=\"QSearch -check 1\"".to_string()));
        assert!(lines.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(lines
            .iter()
            .all(|l| !l.contains("\"Hash ") && !l.contains("Ponder")));
    }
}

//! Random and mutated command lines carried out by a real session: sequences of
//! the lines of `proptest_inputs` handed to `Uci::handle` and `Xboard::handle`, which check
//! positions, moves and option values and start searches. No line may panic, also not inside
//! a search thread (the session would catch it), and no sequence may hang.
//!
//! What the sessions print goes to /dev/null while the cases run (on Unix). Lines that would
//! run long on purpose are left out: `bench`, `go perft` deeper than 3, hash sizes over 64 MiB
//! and more than 4 threads; every UCI `go` is followed by `stop`, and every sequence ends with
//! `quit`, which ends any search (XBoard's thinking, pondering and analysis too).
//!
//! The default run has one test, so that nothing else prints while stdout is silenced; the
//! ignored companions run 10,000 sequences each (`cargo test --profile ci --test
//! proptest_execute -- --ignored prop_`).

use crate::fuzz;

use std::time::{Duration, Instant};

use fuzz::protocol::{uci_lines, xboard_lines};
use fuzz::{check_all_threads, CASES};
use lull::options::parse_option;
use lull::protocol::uci::{self, Uci, UciCommand};
use lull::protocol::xboard::{self, Xboard, XboardCommand};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Sequences of each session in the default run.
const SEQUENCES: u32 = CASES / 4;
/// Sequences of each ignored companion.
const SEQUENCES_IGNORED: u32 = 10_000;
/// Longest a sequence may take (a search that does not stop, a perft that runs away).
const MAX_SEQUENCE_TIME: Duration = Duration::from_secs(30);

/// Stdout sent to /dev/null while it lives (Unix; elsewhere the output stays).
struct Quiet {
    #[cfg(unix)]
    saved: i32,
}

impl Quiet {
    fn new() -> Self {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        // SAFETY: plain descriptor calls on descriptors this function owns or that exist (1).
        unsafe {
            let saved = libc::dup(1);
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
            if saved >= 0 && null >= 0 {
                libc::dup2(null, 1);
            }
            if null >= 0 {
                libc::close(null);
            }
            Quiet { saved }
        }
        #[cfg(not(unix))]
        Quiet {}
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        // SAFETY: puts back the descriptor saved in `new`.
        unsafe {
            if self.saved >= 0 {
                libc::dup2(self.saved, 1);
                libc::close(self.saved);
            }
        }
    }
}

/// Whether setting this option to this value would make the test slow or large (a big hash,
/// many threads).
fn heavy_option(name: &str, value: Option<&str>) -> bool {
    match parse_option(name, value) {
        Ok((spec, v)) => {
            (spec.name == "Hash" && v.int() > 64) || (spec.name == "Threads" && v.int() > 4)
        }
        Err(_) => false,
    }
}

/// The UCI lines of a sequence as sent: heavy lines left out, `stop` after each `go`.
fn uci_script(lines: Vec<String>) -> Vec<String> {
    let mut script = Vec::new();
    for line in lines {
        let go = match uci::parse(&line) {
            Ok(UciCommand::Bench { .. }) => continue,
            Ok(UciCommand::GoPerft { depth }) if depth > 3 => continue,
            Ok(UciCommand::SetOption { name, value }) if heavy_option(&name, value.as_deref()) => {
                continue
            }
            Ok(UciCommand::Go(_)) => true,
            _ => false,
        };
        script.push(line);
        if go {
            script.push("stop".to_string());
        }
    }
    script.push("quit".to_string());
    script
}

/// The CECP lines of a sequence as sent: heavy lines left out, `quit` at the end.
fn xboard_script(lines: Vec<String>) -> Vec<String> {
    let mut script = Vec::new();
    for line in lines {
        match xboard::parse(&line) {
            Ok(XboardCommand::Memory(mib)) if mib > 64 => continue,
            Ok(XboardCommand::Cores(n)) if n > 4 => continue,
            Ok(XboardCommand::Option { name, value }) if heavy_option(&name, value.as_deref()) => {
                continue
            }
            _ => script.push(line),
        }
    }
    script.push("quit".to_string());
    script
}

/// A fresh UCI session carries out the lines without panicking, in reasonable time.
fn uci_session_survives(lines: Vec<String>) -> Result<(), TestCaseError> {
    let start = Instant::now();
    let mut uci = Uci::new();
    for line in uci_script(lines) {
        uci.handle(&line);
    }
    prop_assert!(start.elapsed() < MAX_SEQUENCE_TIME);
    Ok(())
}

/// A fresh XBoard session carries out the lines without panicking, in reasonable time.
fn xboard_session_survives(lines: Vec<String>) -> Result<(), TestCaseError> {
    let start = Instant::now();
    let mut xboard = Xboard::new();
    for line in xboard_script(lines) {
        xboard.handle(&line);
    }
    prop_assert!(start.elapsed() < MAX_SEQUENCE_TIME);
    Ok(())
}

/// Sequences of 1 to 10 lines, some starting the way a GUI does.
fn sequences(
    lines: BoxedStrategy<String>,
    opening: &'static [&'static str],
) -> impl Strategy<Value = Vec<String>> {
    (any::<bool>(), vec(lines, 1..10)).prop_map(move |(open, lines)| {
        let mut all: Vec<String> = if open {
            opening.iter().map(|l| l.to_string()).collect()
        } else {
            Vec::new()
        };
        all.extend(lines);
        all
    })
}

const UCI_OPENING: &[&str] = &["uci", "isready", "ucinewgame"];
const XBOARD_OPENING: &[&str] = &["xboard", "protover 2", "new"];

#[test]
fn prop_execute_lines() {
    let _quiet = Quiet::new();
    check_all_threads(
        SEQUENCES,
        sequences(uci_lines(), UCI_OPENING),
        uci_session_survives,
    );
    check_all_threads(
        SEQUENCES,
        sequences(xboard_lines(), XBOARD_OPENING),
        xboard_session_survives,
    );
}

#[test]
#[ignore = "10,000 sequences: run with --ignored"]
fn prop_uci_execute_10k() {
    let _quiet = Quiet::new();
    check_all_threads(
        SEQUENCES_IGNORED,
        sequences(uci_lines(), UCI_OPENING),
        uci_session_survives,
    );
}

#[test]
#[ignore = "10,000 sequences: run with --ignored"]
fn prop_xboard_execute_10k() {
    let _quiet = Quiet::new();
    check_all_threads(
        SEQUENCES_IGNORED,
        sequences(xboard_lines(), XBOARD_OPENING),
        xboard_session_survives,
    );
}

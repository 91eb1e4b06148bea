//! Shared by the tests that drive the real binary: [`EngineProcess`] (one `lull` process
//! with deadlines on every wait) and the python-chess clients.
//!
//! python-chess is the client the issue names (`chess.engine.SimpleEngine.popen_uci` and
//! `popen_xboard`). A fresh machine may not have it: the first test that needs it installs
//! the pinned version with pip into the user site (once per test binary), so that
//! `cargo test --profile ci` sets itself up. If neither an installed copy nor pip works, the
//! test fails with a message that says so: a client test is never skipped.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::OnceLock;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The python-chess version the client tests were written against.
pub const PYTHON_CHESS: &str = "chess==1.11.2";

pub fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn has_python_chess() -> bool {
    Command::new(python())
        .args(["-c", "import chess, chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Makes sure python-chess can be imported; installs it with pip if it cannot.
pub fn ensure_python_chess() {
    static READY: OnceLock<Result<(), String>> = OnceLock::new();
    let ready = READY.get_or_init(|| {
        if has_python_chess() {
            return Ok(());
        }
        let out = Command::new(python())
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--user",
                PYTHON_CHESS,
            ])
            .output()
            .map_err(|e| format!("cannot run {} -m pip: {e}", python()))?;
        // Inside a virtualenv `--user` is refused: install into the environment instead.
        if !out.status.success() {
            let retry = Command::new(python())
                .args(["-m", "pip", "install", "--quiet", PYTHON_CHESS])
                .output()
                .map_err(|e| format!("cannot run {} -m pip: {e}", python()))?;
            if !retry.status.success() {
                return Err(format!(
                    "python-chess is missing and pip could not install {PYTHON_CHESS}:\n{}",
                    String::from_utf8_lossy(&retry.stderr)
                ));
            }
        }
        if has_python_chess() {
            Ok(())
        } else {
            Err("python-chess was installed but still cannot be imported".to_string())
        }
    });
    if let Err(e) = ready {
        panic!("{e}");
    }
}

/// Runs the `lull` binary with `args` to the end and collects its output.
pub fn run_lull(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lull"))
        .args(args)
        .output()
        .expect("the lull binary runs")
}

/// Bytes of output as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A file in the temporary directory, unique to this test process, `suite` and `name`.
pub fn temp_file_of(suite: &str, name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("lull-{suite}-{}-{name}", std::process::id()))
}

/// The `lull` binary that Cargo built for this test run, or the one `LULL_BIN` names:
/// `LULL_BIN=/path/to/old/lull cargo test --profile ci --test it uci_protocol::` runs the
/// protocol tests against another build (how a fix's test is seen to fail before the fix).
pub fn lull_binary() -> PathBuf {
    std::env::var_os("LULL_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_lull")))
}

/// Runs `tests/python/<script>` with the engine path as first argument and `args` after it,
/// and returns its output. Panics with the script's stdout and stderr when it fails.
pub fn run_client(script: &str, args: &[&str]) -> Output {
    ensure_python_chess();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("python")
        .join(script);
    let out = Command::new(python())
        .arg(&path)
        .arg(lull_binary())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", path.display()));
    if !out.status.success() {
        panic!(
            "{script} {args:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

/// Longest wait for any expected line (the machine may be loaded).
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Why no line came.
#[derive(Debug, PartialEq)]
pub enum NoLine {
    /// Nothing within the time allowed.
    Timeout,
    /// The engine closed its output.
    Closed,
}

/// One running `lull` process, fed by a writer thread and read by a reader thread, so that
/// no wait can block forever: every wait has a deadline, and the process is killed when the
/// value is dropped (also when a test fails). Everything sent (`> `) and received is kept
/// for failure messages.
pub struct EngineProcess {
    /// The process.
    pub child: Child,
    input: Option<Sender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
    output: Receiver<String>,
    transcript: Vec<String>,
}

impl EngineProcess {
    /// Starts `lull` with `args`.
    pub fn spawn(args: &[&str]) -> Self {
        let mut command = Command::new(lull_binary());
        command.args(args);
        Self::spawn_command(command)
    }

    /// Starts `lull` under a virtual memory limit of `kib` KiB (`ulimit -v`, through
    /// `sh`), or `None` when this system's `sh` cannot set one.
    pub fn spawn_with_memory_limit(kib: u64, args: &[&str]) -> Option<Self> {
        let probe = Command::new("sh")
            .args(["-c", &format!("ulimit -v {kib}")])
            .output()
            .ok()?;
        if !probe.status.success() {
            return None;
        }
        let mut command = Command::new("sh");
        command
            .args(["-c", &format!("ulimit -v {kib} && exec \"$0\" \"$@\"")])
            .arg(lull_binary())
            .args(args);
        Some(Self::spawn_command(command))
    }

    /// Starts a command that runs `lull` (its standard streams are taken over here).
    pub fn spawn_command(mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start the lull binary");
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        let writer = thread::spawn(move || {
            for bytes in in_rx {
                if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
            // Dropping stdin here closes the engine's input.
        });
        let (out_tx, out_rx) = mpsc::channel::<String>();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if out_tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Self {
            child,
            input: Some(in_tx),
            writer: Some(writer),
            output: out_rx,
            transcript: Vec::new(),
        }
    }

    /// Sends raw bytes (a newline is not added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
        self.transcript.push(format!("> {}", shown.trim_end()));
        self.input
            .as_ref()
            .expect("input already closed")
            .send(bytes.to_vec())
            .expect("writer thread gone");
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's standard input (after everything sent so far is written).
    pub fn close_input(&mut self) {
        self.transcript.push("> <close stdin>".into());
        self.input = None;
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }

    /// The next output line, waiting at most `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Result<String, NoLine> {
        match self.output.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(NoLine::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(NoLine::Closed),
        }
    }

    /// The last part of the transcript, for failure messages.
    pub fn tail(&self) -> String {
        let from = self.transcript.len().saturating_sub(60);
        self.transcript[from..].join("\n")
    }

    /// Reads lines until one satisfies `pred`, within `timeout`; returns the lines before it
    /// and the line itself. Fails the test on timeout or end of output.
    pub fn wait_for_within(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (Vec<String>, String) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Ok(line) if pred(&line) => return (before, line),
                Ok(line) => before.push(line),
                Err(why) => panic!(
                    "waiting for {what}: {why:?} after {timeout:?}\n--- transcript ---\n{}",
                    self.tail()
                ),
            }
        }
    }

    /// [`EngineProcess::wait_for_within`] with the default [`TIMEOUT`].
    pub fn wait_for(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> (Vec<String>, String) {
        self.wait_for_within(what, TIMEOUT, pred)
    }

    /// Lines received within `time` (the engine should be quiet, or finishing something).
    pub fn lines_for(&mut self, time: Duration) -> Vec<String> {
        let deadline = Instant::now() + time;
        let mut lines = Vec::new();
        while let Ok(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            lines.push(line);
        }
        lines
    }

    /// Waits for the process to end; fails after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if Instant::now() >= deadline {
                panic!(
                    "the engine did not exit within {timeout:?}\n--- transcript ---\n{}",
                    self.tail()
                );
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// All remaining output up to its end (after the process exited).
    pub fn rest_of_output(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            match self.next_line(TIMEOUT) {
                Ok(l) => lines.push(l),
                Err(NoLine::Closed) => return lines,
                Err(NoLine::Timeout) => panic!("output did not end\n{}", self.tail()),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.input = None;
    }
}

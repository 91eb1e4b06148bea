//! Shared by the tests that drive Lull through a real client (python-chess).
//!
//! python-chess is the client the issue names (`chess.engine.SimpleEngine.popen_uci` and
//! `popen_xboard`). A fresh machine may not have it: the first test that needs it installs
//! the pinned version with pip into the user site (once per test binary), so that
//! `cargo test --release` sets itself up. If neither an installed copy nor pip works, the
//! test fails with a message that says so: a client test is never skipped.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The python-chess version the client tests were written against.
pub const PYTHON_CHESS: &str = "chess==1.11.2";

fn python() -> String {
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

/// The `lull` binary that Cargo built for this test run.
pub fn lull_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_lull"))
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

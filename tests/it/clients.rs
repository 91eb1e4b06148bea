//! python-chess, a real UCI client, drives Lull: MultiPV analysis, pondering (ponderhit and
//! ponder misses) and Chess960 games with Chess960 castling. The checks are in
//! `tests/python/uci_client.py`; each fails the test with the script's message.

use crate::common;

use common::run_client;

fn expect(check: &str, first_words: &str) {
    let out = run_client("uci_client.py", &[check]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().any(|l| l.starts_with(first_words)),
        "{check}: expected a line starting '{first_words}', got:\n{stdout}"
    );
}

#[test]
fn multipv_lines_are_distinct_sorted_and_legal() {
    expect("multipv", "multipv ok");
}

#[test]
fn ponder_hits_and_misses_through_python_chess() {
    expect("ponder", "ponder ok");
}

#[test]
fn chess960_games_and_analysis_through_python_chess() {
    expect("chess960", "chess960 ok");
}

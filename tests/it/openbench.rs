//! What OpenBench needs from the `lull` binary: the bench output it parses, and `genfens`
//! given as command-line arguments.

use std::process::Command;

fn lull(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lull"))
        .args(args)
        .output()
        .expect("lull runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The number just before ` <word>` in `line`, as OpenBench's `(\d+) <word>` finds it.
fn number_before(line: &str, word: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == word)?;
    words.get(i.checked_sub(1)?)?.parse().ok()
}

#[test]
fn the_last_bench_line_has_nodes_and_nps() {
    for args in [
        &["bench", "--depth", "3"][..],
        &["bench", "--depth", "3", "--json"],
    ] {
        let (ok, out) = lull(args);
        assert!(ok, "{args:?}");
        let lines: Vec<&str> = out.lines().collect();
        let first = lines.first().copied().unwrap_or("");
        let last = lines.last().copied().unwrap_or("");
        let nodes = number_before(last, "nodes").unwrap_or_else(|| panic!("{out}"));
        assert!(number_before(last, "nps").is_some(), "{out}");
        assert!(nodes > 0);
        // The same count as the first line (`lull bench | head -1`).
        assert_eq!(number_before(first, "nodes"), Some(nodes), "{out}");
    }
}

#[test]
fn genfens_as_arguments_prints_the_positions_and_quits() {
    let (ok, out) = lull(&["genfens 4 seed 99 book None", "quit"]);
    assert!(ok);
    let fens: Vec<&str> = out
        .lines()
        .map(|l| l.strip_prefix("info string genfens ").expect(l))
        .collect();
    assert_eq!(fens.len(), 4, "{out}");
    for fen in &fens {
        assert!(lull::position::Position::from_fen(fen).is_ok(), "{fen}");
    }
    assert_eq!(lull(&["genfens 4 seed 99 book None", "quit"]).1, out);
    // A book that cannot be read: one error line, no position, no panic.
    let (ok, out) = lull(&["genfens 4 seed 99 book /nonexistent/lull.epd", "quit"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("info string error"), "{out}");
}

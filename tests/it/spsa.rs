//! `lull spsa` from the command line: a short run writes every number, the tuned one moved
//! inside its range and the others at their defaults; bad input is an error that keeps the
//! user's files.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn lull(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lull"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("lull runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lull-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `Name value` pairs of a numbers file.
fn numbers(text: &str) -> Vec<(String, i32)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (n, v) = l.split_once(' ').expect("Name value");
            (n.to_string(), v.parse().expect("an integer"))
        })
        .collect()
}

#[test]
fn a_short_run_writes_every_number_and_moves_only_the_tuned_one() {
    let dir = scratch("run");
    let out = dir.join("spsa.txt");
    let o = lull(&[
        "spsa",
        "--pairs",
        "2",
        "--nodes",
        "300",
        "--hash",
        "1",
        "--tune",
        "FpBase",
        "--report",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("1 pairs, plus +"), "{stdout}");
    assert!(lines[1].starts_with("2 pairs, plus +"), "{stdout}");
    assert!(lines[2] == "final after 2 pairs:", "{stdout}");
    assert!(lines[3].starts_with("FpBase "), "{stdout}");
    let written = numbers(&std::fs::read_to_string(&out).unwrap());
    let list = String::from_utf8_lossy(&lull(&["spsa", "--list"]).stdout).into_owned();
    // Every listed number is written, in the list's order, with its default but the tuned one.
    let listed: Vec<Vec<&str>> = list
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(written.len(), listed.len());
    for ((name, value), row) in written.iter().zip(&listed) {
        assert_eq!(name, row[0]);
        let (default, min, max): (i32, i32, i32) = (
            row[1].parse().unwrap(),
            row[2].parse().unwrap(),
            row[3].parse().unwrap(),
        );
        if name == "FpBase" {
            assert!((min..=max).contains(value), "FpBase {value}");
        } else {
            assert_eq!(*value, default, "{name}");
        }
    }
    // The file goes back in as a start.
    let o = lull(&[
        "spsa",
        "--pairs",
        "1",
        "--nodes",
        "200",
        "--hash",
        "1",
        "--tune",
        "RfpMargin",
        "--start",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_an_error_and_the_files_stay() {
    let dir = scratch("bad");
    let o = lull(&["spsa", "--tune", "FpBase,Bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown tunable 'Bogus'"));
    let o = lull(&["spsa", "--r-end", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--r-end must be a positive number"));
    // A corrupt start file: said with its line, and no output written.
    let start = dir.join("start.txt");
    std::fs::write(&start, "FpBase 100\nLmrBase lots\n").unwrap();
    let out = dir.join("out.txt");
    std::fs::write(&out, "old\n").unwrap();
    let o = lull(&[
        "spsa",
        "--start",
        start.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2: 'lots' is not an integer"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old\n");
    // The output may not be the start file it reads.
    std::fs::write(&start, "FpBase 100\n").unwrap();
    let o = lull(&[
        "spsa",
        "--start",
        start.to_str().unwrap(),
        "-o",
        start.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&start).unwrap(), "FpBase 100\n");
    let _ = std::fs::remove_dir_all(&dir);
}

//! The two examples of the research API (`examples/`) print what they claim: their code is run
//! here (each example's `run`, with its arguments and a buffer for its standard output), and
//! every number it prints is compared with what the library returns for the same search; after
//! `cargo test`, which builds the examples, the built programs are run too and must print the
//! same.

use std::path::PathBuf;
use std::process::Command;

use lull::params::INFINITY;
use lull::research::{position, uci_line, Budget, Lab};

#[allow(dead_code)]
#[path = "../../examples/compare_quiescence.rs"]
mod compare_quiescence;
#[allow(dead_code)]
#[path = "../../examples/quiescence_tree.rs"]
mod quiescence_tree;

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The example program as `cargo test` built it, if it did (not with `--test it` alone).
fn built_example(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let path = exe.parent()?.parent()?.join("examples").join(name);
    path.exists().then_some(path)
}

/// The example's output in-process, checked against the built program's when there is one.
fn output_of(name: &str, argv: &[String]) -> String {
    let mut out = Vec::new();
    let result = match name {
        "compare_quiescence" => compare_quiescence::run(argv, &mut out),
        _ => quiescence_tree::run(argv, &mut out),
    };
    result.unwrap();
    let text = String::from_utf8(out).unwrap();
    match built_example(name) {
        Some(program) => {
            let run = Command::new(&program).args(argv).output().unwrap();
            assert!(
                run.status.success(),
                "{}",
                String::from_utf8_lossy(&run.stderr)
            );
            assert_eq!(
                String::from_utf8(run.stdout).unwrap(),
                text,
                "{}",
                program.display()
            );
        }
        None => eprintln!("{name}: no built example beside the test (run in-process only)"),
    }
    text
}

/// The value after `key` in a line of words.
fn after<'a>(line: &'a str, key: &str) -> &'a str {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == key)
        .unwrap_or_else(|| panic!("{key} in {line}"));
    words[at + 1]
}

#[test]
fn compare_quiescence_prints_the_searches_of_the_library() {
    let fens = [
        "4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1",
        "not a fen",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ];
    let file = std::env::temp_dir().join(format!("lull-examples-{}-fens.txt", std::process::id()));
    std::fs::write(&file, fens.join("\n")).unwrap();
    let argv = args(&[
        "--depth",
        "4",
        "--b",
        "QSearchChecks=1",
        "--b",
        "QSearchSEE=-100",
        file.to_str().unwrap(),
    ]);
    let text = output_of("compare_quiescence", &argv);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        ["depth 4", "A defaults", "B QSearchChecks=1 QSearchSEE=-100"]
    );
    let skipped = lines
        .iter()
        .find(|l| l.starts_with("2 skipped: "))
        .expect("line 2 skipped");
    assert!(skipped.len() > "2 skipped: ".len() + 5, "{skipped}");
    let mut labs = [
        Lab::builder().build().unwrap(),
        Lab::builder()
            .option("QSearchChecks", "1")
            .option("QSearchSEE", "-100")
            .build()
            .unwrap(),
    ];
    let mut totals = [(0u64, 0u64); 2];
    let mut checked = 0;
    for (index, fen) in [(1, fens[0]), (3, fens[2])] {
        let pos = position(fen).unwrap();
        assert!(
            lines.contains(&format!("{index} fen {fen}").as_str()),
            "{text}"
        );
        for (k, label) in ["A", "B"].iter().enumerate() {
            let prefix = format!("{index} {label} move ");
            let line = lines
                .iter()
                .find(|l| l.starts_with(&prefix))
                .expect(&prefix);
            let lab = &mut labs[k];
            lab.clear();
            let r = lab.search(&pos, Budget::Depth(4));
            let best = pos.move_to_uci(r.best_move.unwrap());
            assert_eq!(after(line, "move"), best, "{line}");
            assert_eq!(after(line, "score"), r.score.to_string(), "{line}");
            assert_eq!(after(line, "nodes"), r.nodes.to_string(), "{line}");
            assert_eq!(after(line, "qnodes"), r.stats.qnodes.to_string(), "{line}");
            assert_eq!(
                after(line, "standpat_cutoffs"),
                r.stats.standpat_cutoffs.to_string()
            );
            // The line printed is legal from the position, move by move, and is the PV.
            let pv = line.split(" pv ").nth(1).unwrap();
            let mut p = pos.clone();
            for word in pv.split_whitespace() {
                let mv = p
                    .parse_uci_move(word)
                    .unwrap_or_else(|e| panic!("{word}: {e}"));
                p.play(mv);
            }
            assert_eq!(pv, uci_line(&pos, &r.pv).join(" "));
            assert!(r.stats.qnodes > 0 && r.stats.qnodes < r.nodes);
            totals[k].0 += r.nodes;
            totals[k].1 += r.stats.qnodes;
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
    // The queen takes the rook; the scholar's mate is found by both.
    assert!(
        lines.iter().any(|l| l.starts_with("1 A move d1d5 ")),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("3 B move h5f7 ")),
        "{text}"
    );
    assert!(
        lines.contains(&format!("total A nodes {} qnodes {}", totals[0].0, totals[0].1).as_str()),
        "{text}"
    );
    assert!(
        lines.contains(&format!("total B nodes {} qnodes {}", totals[1].0, totals[1].1).as_str()),
        "{text}"
    );
    // The settings differ, and so do the searches.
    assert_ne!(totals[0], totals[1]);
    assert_eq!(lines.last(), Some(&"same best move in 2 of 2 positions"));
    std::fs::remove_file(&file).ok();
}

/// Checks the example's output for `fen` in the window against the library's tree.
fn check_tree(fen: &str, alpha: i32, beta: i32, text: &str) -> lull::research::QTree {
    let pos = position(fen).unwrap();
    let tree = Lab::builder()
        .build()
        .unwrap()
        .quiescence_tree(&pos, alpha, beta, 200);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("fen {fen}"));
    let root = format!("root window [{alpha}, {beta}] stand_pat ");
    assert!(lines[1].starts_with(&root), "{text}");
    // One line per node and per pruned move, then the score, the line and the counts.
    assert_eq!(
        lines.len(),
        1 + tree.node_count() + tree.pruned_count() + 3,
        "{text}"
    );
    assert_eq!(lines[lines.len() - 3], format!("score {}", tree.score));
    assert_eq!(
        lines[lines.len() - 2],
        format!("pv {}", tree.pv.join(" ")).trim_end()
    );
    assert_eq!(
        lines[lines.len() - 1],
        format!(
            "nodes {} pruned {} qnodes {}",
            tree.node_count(),
            tree.pruned_count(),
            tree.qnodes
        )
    );
    assert_eq!(tree.node_count() as u64, tree.qnodes);
    tree
}

#[test]
fn quiescence_tree_prints_the_tree_of_the_library() {
    let fen = "4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1";
    let text = output_of("quiescence_tree", &args(&[fen]));
    let tree = check_tree(fen, -INFINITY, INFINITY, &text);
    // The queen wins the rook: the first move of the line, marked on the PV in the tree, and
    // the score is the root's stand pat and more.
    assert_eq!(tree.pv.first().map(String::as_str), Some("Qxd5"));
    assert!(
        text.lines()
            .any(|l| l.starts_with("  Qxd5 window ") && l.contains(" pv: ")),
        "{text}"
    );
    let stand_pat = tree.root.as_ref().unwrap().stand_pat.unwrap();
    assert!(tree.score >= stand_pat + 300, "{text}");
    // A window of the caller's: the root shows it, the counts are the library's.
    let narrow = output_of("quiescence_tree", &args(&[fen, "--window", "-50", "50"]));
    check_tree(fen, -50, 50, &narrow);
}

#[test]
fn the_examples_refuse_bad_arguments() {
    let mut out = Vec::new();
    let e = compare_quiescence::run(&args(&["--a", "NoSuchOption=1"]), &mut out).unwrap_err();
    assert!(e.contains("unknown option 'NoSuchOption'"), "{e}");
    let e = compare_quiescence::run(&args(&["--depth", "0"]), &mut out).unwrap_err();
    assert!(e.contains("--depth 0"), "{e}");
    let e = quiescence_tree::run(&args(&["not a fen"]), &mut out).unwrap_err();
    assert!(!e.is_empty());
    let e = quiescence_tree::run(&args(&["--window", "x", "1"]), &mut out).unwrap_err();
    assert!(e.contains("not a number"), "{e}");
    assert!(out.is_empty());
}

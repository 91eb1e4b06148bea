//! Prints the quiescence search tree of one position: each searched node with the move that
//! led there (SAN), its window, stand pat, score and why it ended, and each pruned move as a
//! leaf with the reason; then the score, the line (SAN) and the node counts.
//!
//! ```text
//! cargo run --release --example quiescence_tree -- [FEN] [--window ALPHA BETA]
//!     [--max-nodes N] [--option NAME=VALUE]...
//! ```
//!
//! Without a FEN, a position where White's queen can win a rook. Scores are centipawns from
//! the side to move at each node, as negamax computes them.

use std::io::Write;
use std::process::ExitCode;

use lull::research::{position, Lab, QChild, QNode};

/// `writeln!` that turns a write error into the error of `run`.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(|e| format!("cannot write: {e}"))?
    };
}

const DEFAULT_FEN: &str = "4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1";

fn print_node(out: &mut impl Write, node: &QNode, depth: usize) -> Result<(), String> {
    let indent = "  ".repeat(depth);
    let stand_pat = node.stand_pat.map_or("-".to_string(), |s| s.to_string());
    let score = node
        .result
        .map_or("-".to_string(), |(score, _)| score.to_string());
    say!(
        out,
        "{indent}{} window [{}, {}] stand_pat {stand_pat} score {score}{}: {}",
        node.label,
        node.alpha,
        node.beta,
        if node.on_pv { " pv" } else { "" },
        node.end_text()
    );
    for child in &node.children {
        match child {
            QChild::Node(n) => print_node(out, n, depth + 1)?,
            QChild::Pruned(p) => say!(out, "{indent}  {} pruned: {}", p.label, p.reason_text()),
        }
    }
    if node.hidden > 0 {
        say!(out, "{indent}  ({} more not shown)", node.hidden);
    }
    Ok(())
}

/// Prints the tree for the arguments `argv` (without the program name) to `out`.
pub fn run(argv: &[String], out: &mut impl Write) -> Result<(), String> {
    let mut fen = None;
    let (mut alpha, mut beta) = (-lull::params::INFINITY, lull::params::INFINITY);
    let mut max_nodes = 200usize;
    let mut builder = Lab::builder();
    let mut it = argv.iter().cloned();
    let number = |v: Option<String>, what: &str| -> Result<i64, String> {
        let v = v.ok_or(format!("{what} needs a value"))?;
        v.parse().map_err(|_| format!("{what} {v}: not a number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--window" => {
                alpha = number(it.next(), "--window")?.clamp(-100_000, 100_000) as i32;
                beta = number(it.next(), "--window")?.clamp(-100_000, 100_000) as i32;
            }
            "--max-nodes" => {
                max_nodes = number(it.next(), "--max-nodes")?.clamp(1, 1 << 20) as usize
            }
            "--option" => {
                let v = it.next().ok_or("--option needs NAME=VALUE")?;
                let (name, value) = v
                    .split_once('=')
                    .ok_or(format!("--option {v}: not NAME=VALUE"))?;
                builder = builder.option(name.trim(), value.trim());
            }
            _ if arg.starts_with("--") => return Err(format!("unknown argument {arg}")),
            _ => fen = Some(arg),
        }
    }
    let pos = position(fen.as_deref().unwrap_or(DEFAULT_FEN))?;
    let mut lab = builder.build()?;
    let tree = lab.quiescence_tree(&pos, alpha, beta, max_nodes);
    say!(out, "fen {}", tree.fen);
    if let Some(root) = &tree.root {
        print_node(out, root, 0)?;
    }
    say!(out, "score {}", tree.score);
    say!(out, "{}", format!("pv {}", tree.pv.join(" ")).trim_end());
    say!(
        out,
        "nodes {} pruned {} qnodes {}{}",
        tree.node_count(),
        tree.pruned_count(),
        tree.qnodes,
        if tree.truncated { " (cut)" } else { "" }
    );
    Ok(())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

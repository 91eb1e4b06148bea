//! Compares two quiescence settings on a list of positions: each position is searched to the
//! same depth with setting A and with setting B (a fresh hash table for each search), and the
//! best move, score, nodes, quiescence nodes and stand-pat cutoffs are printed side by side,
//! then the totals.
//!
//! ```text
//! cargo run --release --example compare_quiescence -- [--depth N] [--a NAME=VALUE]...
//!     [--b NAME=VALUE]... [FILE]
//! ```
//!
//! FILE holds one FEN per line (blank lines and lines starting with `#` are passed over, a line
//! that is no FEN is reported as skipped); without it, four tactical positions. Setting A
//! is the options given with `--a` (the defaults without), setting B those given with `--b`
//! (`QSearchChecks=1` without). Each position prints its FEN, then one line per setting (the
//! position's number, the setting, then the best move, the score in centipawns, the nodes, the
//! quiescence nodes, the stand-pat cutoffs and the principal variation, moves in UCI):
//!
//! ```text
//! <n> fen <FEN>
//! <n> A move <uci> score <cp> nodes <N> qnodes <Q> standpat_cutoffs <C> pv <uci> ...
//! <n> B move <uci> score <cp> nodes <N> qnodes <Q> standpat_cutoffs <C> pv <uci> ...
//! ```
//!
//! then `total A nodes <N> qnodes <Q>`, the same for B, and how many positions have the same
//! best move under both settings.

use std::io::Write;
use std::process::ExitCode;

use lull::research::{position, uci_line, Budget, Lab, SearchResult};

/// Tactical positions (a hanging piece, an exchange, a capture that loses, a check).
const DEFAULT_FENS: [&str; 4] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "2r3k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1",
];

/// `writeln!` that turns a write error into the error of `run`.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(|e| format!("cannot write: {e}"))?
    };
}

struct Args {
    depth: i32,
    a: Vec<(String, String)>,
    b: Vec<(String, String)>,
    file: Option<String>,
}

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut args = Args {
        depth: 6,
        a: Vec::new(),
        b: Vec::new(),
        file: None,
    };
    let mut b_given = false;
    let mut it = argv.iter().cloned();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--depth" => {
                let v = it.next().ok_or("--depth needs a value")?;
                args.depth = v
                    .parse()
                    .ok()
                    .filter(|d| (1..=64).contains(d))
                    .ok_or(format!("--depth {v}: not a depth from 1 to 64"))?;
            }
            "--a" | "--b" => {
                let v = it.next().ok_or(format!("{arg} needs NAME=VALUE"))?;
                let (name, value) = v
                    .split_once('=')
                    .ok_or(format!("{arg} {v}: not NAME=VALUE"))?;
                let pair = (name.trim().to_string(), value.trim().to_string());
                if arg == "--a" {
                    args.a.push(pair);
                } else {
                    b_given = true;
                    args.b.push(pair);
                }
            }
            _ if arg.starts_with("--") => return Err(format!("unknown argument {arg}")),
            _ => args.file = Some(arg),
        }
    }
    if !b_given {
        args.b.push(("QSearchChecks".to_string(), "1".to_string()));
    }
    Ok(args)
}

fn lab(options: &[(String, String)]) -> Result<Lab, String> {
    options
        .iter()
        .fold(Lab::builder(), |b, (name, value)| b.option(name, value))
        .build()
}

fn describe(options: &[(String, String)]) -> String {
    if options.is_empty() {
        return "defaults".to_string();
    }
    let pairs: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
    pairs.join(" ")
}

fn line(index: usize, label: &str, pos: &lull::position::Position, r: &SearchResult) -> String {
    let best = r
        .best_move
        .map_or("(none)".to_string(), |m| pos.move_to_uci(m));
    format!(
        "{index} {label} move {best} score {} nodes {} qnodes {} standpat_cutoffs {} pv {}",
        r.score,
        r.nodes,
        r.stats.qnodes,
        r.stats.standpat_cutoffs,
        uci_line(pos, &r.pv).join(" ")
    )
}

/// Runs the comparison with the arguments `argv` (without the program name), writing to `out`.
pub fn run(argv: &[String], out: &mut impl Write) -> Result<(), String> {
    let args = parse_args(argv)?;
    let fens: Vec<String> = match &args.file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("{path}: {e}"))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect(),
        None => DEFAULT_FENS.iter().map(|s| s.to_string()).collect(),
    };
    let mut a = lab(&args.a).map_err(|e| format!("--a {e}"))?;
    let mut b = lab(&args.b).map_err(|e| format!("--b {e}"))?;
    say!(out, "depth {}", args.depth);
    say!(out, "A {}", describe(&args.a));
    say!(out, "B {}", describe(&args.b));
    let mut totals = [(0u64, 0u64); 2];
    let mut same = 0;
    let mut searched = 0;
    for (i, fen) in fens.iter().enumerate() {
        let index = i + 1;
        let pos = match position(fen) {
            Ok(p) => p,
            Err(e) => {
                say!(out, "{index} skipped: {e}");
                continue;
            }
        };
        say!(out, "{index} fen {fen}");
        let mut results = Vec::new();
        for (label, lab) in [("A", &mut a), ("B", &mut b)] {
            lab.clear();
            let r = lab.search(&pos, Budget::Depth(args.depth));
            say!(out, "{}", line(index, label, &pos, &r));
            results.push(r);
        }
        for (total, r) in totals.iter_mut().zip(&results) {
            total.0 += r.nodes;
            total.1 += r.stats.qnodes;
        }
        searched += 1;
        same += usize::from(results[0].best_move == results[1].best_move);
    }
    for (label, (nodes, qnodes)) in ["A", "B"].iter().zip(totals) {
        say!(out, "total {label} nodes {nodes} qnodes {qnodes}");
    }
    say!(out, "same best move in {same} of {searched} positions");
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

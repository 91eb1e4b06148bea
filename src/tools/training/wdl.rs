//! `lull wdl fit`: fits the win/draw/loss model of `UCI_ShowWDL` ([`crate::wdl`]) to
//! self-play positions with their game results, as `lull datagen` writes them (`FEN | result |
//! score`, result and score from White's view), and measures its calibration on games it holds
//! back. The positions are counted into a histogram of (material, score), so that the fit
//! (maximum likelihood by Adam over the eight polynomial coefficients) runs over cells, not
//! lines.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use cozy_chess::Board;

use crate::params;
use crate::wdl::{self, Calibration, WdlModel, MODEL};

/// `lull wdl`.
#[derive(Args, Debug)]
pub struct WdlArgs {
    #[command(subcommand)]
    command: WdlCommand,
}

#[derive(Subcommand, Debug)]
enum WdlCommand {
    /// Fit the model to `FEN | result | score` files (`-` reads stdin: `xzcat data.txt.xz |
    /// lull wdl fit -`) and print its parameters and its calibration on held-back games.
    Fit(FitArgs),
    /// Measure a model (the built-in one unless --a/--b) on a held-back file of `material
    /// score result` lines (as `fit --holdout-out` writes them).
    Check(CheckArgs),
}

#[derive(Args, Debug)]
struct FitArgs {
    /// The data files (`-` for stdin).
    files: Vec<PathBuf>,
    /// Every Nth game is held back from the fit and measured.
    #[arg(long, default_value_t = 10)]
    holdout_every: u64,
    /// Write every Kth held-back position as `material score result` to this file.
    #[arg(long)]
    holdout_out: Option<PathBuf>,
    /// The K of --holdout-out.
    #[arg(long, default_value_t = 20)]
    holdout_sample: u64,
    /// Adam steps.
    #[arg(long, default_value_t = 4000)]
    steps: usize,
    /// Also write the fitted coefficients into this Rust file (src/params.rs): its
    /// `pub const WDL_A` and `pub const WDL_B` lines are replaced, the rest is kept.
    #[arg(long)]
    params: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The `material score result` file.
    file: PathBuf,
}

/// Scores beyond this (centipawns) are counted as this: the outcome is decided there.
const SCORE_CLAMP: i32 = 2000;

/// The positions of one split, counted by (material, score).
#[derive(Default)]
struct Histogram {
    /// (material, score) -> counts of White's win, draw, loss.
    cells: HashMap<(i32, i32), [f64; 3]>,
    positions: u64,
}

impl Histogram {
    fn add(&mut self, material: i32, score: i32, outcome: f64) {
        let m = material.clamp(wdl::MATERIAL_MIN, wdl::MATERIAL_MAX);
        let s = score.clamp(-SCORE_CLAMP, SCORE_CLAMP);
        let i = if outcome == 1.0 {
            0
        } else if outcome == 0.5 {
            1
        } else {
            2
        };
        self.cells.entry((m, s)).or_default()[i] += 1.0;
        self.positions += 1;
    }

    fn samples(&self) -> Vec<(i32, i32, f64, f64)> {
        let mut out = Vec::new();
        for (&(m, s), c) in &self.cells {
            for (i, outcome) in [1.0, 0.5, 0.0].into_iter().enumerate() {
                if c[i] > 0.0 {
                    out.push((m, s, outcome, c[i]));
                }
            }
        }
        out.sort_by(|a, b| a.partial_cmp(b).unwrap());
        out
    }
}

/// One data line: (material, score, White's result, fullmove number).
fn parse_line(line: &str) -> Option<(i32, i32, f64, u32)> {
    let mut parts = line.split('|').map(str::trim);
    let fen = parts.next()?;
    let result: f64 = parts.next()?.parse().ok()?;
    let score: i32 = parts.next()?.parse().ok()?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return None;
    }
    let board = Board::from_fen(fen, false).ok()?;
    let fullmove = fen.split_whitespace().nth(5)?.parse().ok()?;
    Some((wdl::material(&board), score, result, fullmove))
}

/// Mean negative log-likelihood of `model` on the cells and its gradient with respect to the
/// coefficients (a0..a3, b0..b3).
fn loss_and_gradient(model: &WdlModel, cells: &[(i32, i32, [f64; 3])]) -> (f64, [f64; 8]) {
    let mut grad = [0.0; 8];
    let mut loss = 0.0;
    let mut total = 0.0;
    for &(m, s, [nw, nd, nl]) in cells {
        let (a, b) = model.ab(m);
        let v = f64::from(s);
        let xw = (v - a) / b;
        let xl = (-v - a) / b;
        let pw = 1.0 / (1.0 + (-xw).exp());
        let pl = 1.0 / (1.0 + (-xl).exp());
        let pd = (1.0 - pw - pl).max(1e-9);
        let (pw, pl) = (pw.max(1e-9), pl.max(1e-9));
        loss -= nw * pw.ln() + nd * pd.ln() + nl * pl.ln();
        total += nw + nd + nl;
        // d pw / d a, d pw / d b and the same for pl.
        let dw = pw * (1.0 - pw);
        let dl = pl * (1.0 - pl);
        let (dpw_da, dpw_db) = (-dw / b, -dw * xw / b);
        let (dpl_da, dpl_db) = (-dl / b, -dl * xl / b);
        let dll_da = nw / pw * dpw_da + nl / pl * dpl_da - nd / pd * (dpw_da + dpl_da);
        let dll_db = nw / pw * dpw_db + nl / pl * dpl_db - nd / pd * (dpw_db + dpl_db);
        let x = wdl::material_x(m);
        let powers = [x * x * x, x * x, x, 1.0];
        for k in 0..4 {
            grad[k] -= dll_da * powers[k];
            grad[4 + k] -= dll_db * powers[k];
        }
    }
    let total = total.max(1.0);
    (loss / total, grad.map(|g| g / total))
}

/// Fits the model by Adam from a start of a constant `a` and `b`.
fn fit(hist: &Histogram, steps: usize) -> WdlModel {
    let cells: Vec<(i32, i32, [f64; 3])> =
        hist.cells.iter().map(|(&(m, s), &c)| (m, s, c)).collect();
    let mut theta = [0.0, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0, 100.0];
    let (mut m1, mut m2) = ([0.0f64; 8], [0.0f64; 8]);
    let (beta1, beta2) = (0.9, 0.999);
    for t in 1..=steps {
        let model = WdlModel {
            a: [theta[0], theta[1], theta[2], theta[3]],
            b: [theta[4], theta[5], theta[6], theta[7]],
        };
        let (_, g) = loss_and_gradient(&model, &cells);
        // Learning rate (centipawns per step) from 4 down to 0.05.
        let lr = 4.0 * (0.05f64 / 4.0).powf(t as f64 / steps as f64);
        for k in 0..8 {
            m1[k] = beta1 * m1[k] + (1.0 - beta1) * g[k];
            m2[k] = beta2 * m2[k] + (1.0 - beta2) * g[k] * g[k];
            let mh = m1[k] / (1.0 - beta1.powi(t as i32));
            let vh = m2[k] / (1.0 - beta2.powi(t as i32));
            theta[k] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
    WdlModel {
        a: [theta[0], theta[1], theta[2], theta[3]],
        b: [theta[4], theta[5], theta[6], theta[7]],
    }
}

fn print_calibration(what: &str, c: &Calibration) {
    println!(
        "{what}: {} positions, calibration error W {:.4} D {:.4} L {:.4}, expected score {:.4}, \
         log-loss {:.4}",
        c.positions, c.ece[0], c.ece[1], c.ece[2], c.ece_score, c.log_loss
    );
}

fn run_fit(args: FitArgs) -> Result<(), String> {
    if args.files.is_empty() {
        return Err("no data files given".into());
    }
    let mut train = Histogram::default();
    let mut held = Histogram::default();
    // The held-back file is written whole or not at all, and never over an input (which it
    // truncated before reading it).
    let mut out = match &args.holdout_out {
        Some(p) => {
            let inputs: Vec<&std::path::Path> = args.files.iter().map(|f| f.as_path()).collect();
            crate::tools::common::atomic::check_output(p, &inputs)?;
            Some(crate::tools::common::atomic::AtomicFile::create(p)?)
        }
        None => None,
    };
    if let Some(out) = out.as_mut() {
        let names: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
        writeln!(
            out,
            "# lull wdl fit: every {}th position of every {}th game of {}\n\
             # material score result (White's view)",
            args.holdout_sample.max(1),
            args.holdout_every.max(1),
            names.join(", ")
        )
        .map_err(|e| e.to_string())?;
    }
    let (mut games, mut bad, mut held_seen) = (0u64, 0u64, 0u64);
    for path in &args.files {
        let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
            Box::new(BufReader::new(std::io::stdin()))
        } else {
            let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Box::new(BufReader::new(f))
        };
        // Positions are in game order: a game starts where the move number goes down or
        // the result changes.
        let mut last: Option<(u32, f64)> = None;
        // Lines of bounded length; one not UTF-8 or over 1 MiB is skipped like a malformed one.
        let mut lines = crate::lines::Lines::new(reader);
        while let Some((_, line)) = lines
            .next_line()
            .map_err(|e| format!("{}: {e}", path.display()))?
        {
            let Some((material, score, result, fullmove)) =
                line.ok().as_deref().and_then(parse_line)
            else {
                bad += 1;
                continue;
            };
            if last.is_none_or(|(mv, r)| fullmove < mv || r != result) {
                games += 1;
            }
            last = Some((fullmove, result));
            if games % args.holdout_every.max(1) == 0 {
                held.add(material, score, result);
                held_seen += 1;
                if let Some(out) = out.as_mut() {
                    if held_seen % args.holdout_sample.max(1) == 0 {
                        writeln!(out, "{material} {score} {result}").map_err(|e| e.to_string())?;
                    }
                }
            } else {
                train.add(material, score, result);
            }
        }
    }
    if let Some(out) = out {
        out.commit()?;
    }
    println!(
        "{games} games, {} positions fitted, {} held back (every {}th game), {bad} lines skipped",
        train.positions, held.positions, args.holdout_every
    );
    if train.positions == 0 {
        return Err("no positions to fit".into());
    }
    let model = fit(&train, args.steps);
    let model = WdlModel {
        a: model.a.map(round2),
        b: model.b.map(round2),
    };
    let lines = constant_lines(&model);
    println!("{}\n{}", lines[0], lines[1]);
    if let Some(path) = &args.params {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = replace_constants(&text, &lines)
            .map_err(|e| format!("{}: {e}; nothing written", path.display()))?;
        crate::tools::common::atomic::write_atomic(path, text.as_bytes())?;
        println!("wrote the coefficients into {}", path.display());
    }
    print_calibration(
        "fitted, on the fit's games",
        &calibration_of(&model, &train),
    );
    print_calibration("fitted, on held-back games", &calibration_of(&model, &held));
    print_calibration(
        "built-in, on held-back games",
        &calibration_of(&MODEL, &held),
    );
    for m in [20, 30, 40, 50, 60, 70, 78] {
        let (a, b) = model.ab(m);
        println!(
            "material {m}: a {a:.1} b {b:.1}, at +100 cp {:?}",
            model.permille(100, m)
        );
    }
    Ok(())
}

/// The two lines of `src/params.rs` that hold a model's coefficients.
fn constant_lines(model: &WdlModel) -> [String; 2] {
    [
        format!("pub const WDL_A: [f64; 4] = {:?};", model.a),
        format!("pub const WDL_B: [f64; 4] = {:?};", model.b),
    ]
}

/// `text` with its one `pub const WDL_A` line and its one `pub const WDL_B` line replaced by
/// `lines`; an error if either is missing or found twice.
fn replace_constants(text: &str, lines: &[String; 2]) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut found = [0; 2];
    for line in text.split_inclusive('\n') {
        let which = ["pub const WDL_A:", "pub const WDL_B:"]
            .iter()
            .position(|p| line.starts_with(p));
        match which {
            Some(i) => {
                found[i] += 1;
                out.push_str(&lines[i]);
                out.push('\n');
            }
            None => out.push_str(line),
        }
    }
    match found {
        [1, 1] => Ok(out),
        _ => Err(format!(
            "expected one `pub const WDL_A:` line and one `pub const WDL_B:` line, found {} and {}",
            found[0], found[1]
        )),
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn calibration_of(model: &WdlModel, hist: &Histogram) -> Calibration {
    wdl::calibration(model, &hist.samples())
}

/// Reads `material score result` lines.
pub fn read_holdout(text: &str) -> Result<Vec<(i32, i32, f64, f64)>, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let parsed = (f.len() == 3)
                .then(|| Some((f[0].parse().ok()?, f[1].parse().ok()?, f[2].parse().ok()?)))
                .flatten();
            parsed
                .map(|(m, s, r)| (m, s, r, 1.0))
                .ok_or_else(|| format!("line {}: expected `material score result`", i + 1))
        })
        .collect()
}

fn run_check(args: CheckArgs) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let samples = read_holdout(&text)?;
    print_calibration("built-in model", &wdl::calibration(&MODEL, &samples));
    println!(
        "pub const WDL_A: [f64; 4] = {:?};\npub const WDL_B: [f64; 4] = {:?};",
        params::WDL_A,
        params::WDL_B
    );
    Ok(())
}

/// Runs `lull wdl`.
pub fn run(args: WdlArgs) -> ExitCode {
    let result = match args.command {
        WdlCommand::Fit(a) => run_fit(a),
        WdlCommand::Check(a) => run_check(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_model_from_its_own_outcome_rates() {
        // Cells whose outcomes follow a known model exactly: the fit finds it again.
        let truth = WdlModel {
            a: [0.0, 0.0, 60.0, 120.0],
            b: [0.0, 0.0, 20.0, 70.0],
        };
        let mut hist = Histogram::default();
        for m in (20..=78).step_by(2) {
            for s in (-800..=800).step_by(10) {
                let p = truth.probabilities(f64::from(s), m);
                hist.cells.insert((m, s), p.map(|x| x * 1000.0));
            }
        }
        let model = fit(&hist, 3000);
        for m in [20, 50, 78] {
            let (a, b) = model.ab(m);
            let (ta, tb) = truth.ab(m);
            assert!(
                (a - ta).abs() < 5.0 && (b - tb).abs() < 5.0,
                "{m}: {a} {b} vs {ta} {tb}"
            );
        }
    }

    #[test]
    fn the_fit_rewrites_only_the_two_constants_of_a_params_file() {
        let model = WdlModel {
            a: [1.0, -2.5, 3.25, 400.0],
            b: [5.0, 6.0, -7.0, 80.5],
        };
        let text = "// head\npub const WDL_A: [f64; 4] = [0.0, 0.0, 0.0, 0.0];\n/// See.\n\
                    pub const WDL_B: [f64; 4] = [9.0, 9.0, 9.0, 9.0];\npub const X: i32 = 3;\n";
        let out = replace_constants(text, &constant_lines(&model)).unwrap();
        assert_eq!(
            out,
            "// head\npub const WDL_A: [f64; 4] = [1.0, -2.5, 3.25, 400.0];\n/// See.\n\
             pub const WDL_B: [f64; 4] = [5.0, 6.0, -7.0, 80.5];\npub const X: i32 = 3;\n"
        );
        // A file without the constants, or with one twice, is refused.
        let lines = constant_lines(&model);
        assert!(replace_constants("pub const X: i32 = 3;\n", &lines).is_err());
        let twice = format!("{text}pub const WDL_A: [f64; 4] = [0.0, 0.0, 0.0, 0.0];\n");
        assert!(replace_constants(&twice, &lines).is_err());
        // The real params.rs has exactly one of each.
        let params = include_str!("../../params.rs");
        assert!(replace_constants(params, &lines).is_ok());
    }

    #[test]
    fn data_lines_parse_and_bad_ones_do_not() {
        let line = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 0.5 | 30";
        assert_eq!(parse_line(line), Some((78, 30, 0.5, 1)));
        assert_eq!(parse_line("garbage | 1.0 | 3"), None);
        assert_eq!(parse_line(&line.replace("0.5", "0.7")), None);
        assert!(read_holdout("78 30 0.5\n40 -200 0\n").is_ok());
        assert!(read_holdout("78 x 0.5\n").is_err());
    }
}

//! `lull tune`: Texel's tuning of the evaluation weights. The positions of `lull datagen`
//! (`<FEN> | <result> | <score>`) are traced once ([`crate::eval::EvalTrace`]): sparse
//! feature counts, the phase, the fixed king danger, the drawish scale factor and the side to
//! move. Given those, the evaluation is linear in the weights, so the mean squared error
//! between `sigmoid(K * eval)` and the game results has an exact gradient; the scaling
//! constant `K` is first chosen to fit the current weights best, then the weights are fitted
//! by full-batch gradient descent (Adam) on several threads.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cozy_chess::{Board, Color};

use crate::eval::layout::{render_weights, TEMPO, WEIGHTS};
use crate::eval::{EvalTrace, PHASE_TOTAL, S};
use crate::tools::cli::{fail, warn_skipped};
use crate::tools::common::atomic::{check_output, write_atomic};

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's learning rate (centipawns per step, roughly).
    pub lr: f64,
    /// The scaling constant; found by [`find_k`] when `None`.
    pub k: Option<f64>,
    /// Threads computing the gradient.
    pub threads: usize,
    /// The error is reported every this many epochs.
    pub report_every: usize,
    /// Share of the search score in the target: the fit aims at
    /// `(1 - w) * result + w * sigmoid(K * score)` (0: the game results alone, Texel's
    /// original). The errors reported are always against the results.
    pub score_weight: f64,
    /// A weight whose feature occurs in fewer positions than this keeps its value (rare
    /// features would otherwise be fitted to the noise of a few games).
    pub min_count: usize,
}

impl Default for TuneConfig {
    fn default() -> Self {
        Self {
            epochs: 1000,
            lr: 1.0,
            k: None,
            threads: 1,
            report_every: 50,
            min_count: 0,
            score_weight: 0.0,
        }
    }
}

/// One traced position.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// White's minus Black's count of each feature that fired (tempo excluded).
    pub coefs: Vec<(u16, i16)>,
    /// Midgame share: phase / 24.
    pub mg: f32,
    /// Endgame share: 1 - phase / 24.
    pub eg: f32,
    /// The drawish scaling, fixed at the factor the starting weights give (1 or 1/16).
    pub scale: f32,
    /// +1 with White to move, -1 with Black (the tempo's sign).
    pub stm: f32,
    /// King danger, White's minus Black's (midgame centipawns, not tuned).
    pub danger: f32,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f32,
    /// The search score in the game, White's view (centipawns).
    pub score: f32,
}

impl Entry {
    /// Traces `board` with the game result `result` and the search score `score`.
    pub fn new(board: &Board, result: f32, score: i32) -> Self {
        let trace = EvalTrace::new(board);
        let unscaled = trace.white_unscaled(&WEIGHTS);
        let ph = trace.phase as f32 / PHASE_TOTAL as f32;
        Self {
            coefs: trace
                .coefficients()
                .into_iter()
                .map(|(i, c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
                .collect(),
            mg: ph,
            eg: 1.0 - ph,
            scale: 1.0 / trace.scale_divisor(unscaled) as f32,
            stm: if trace.stm == Color::White { 1.0 } else { -1.0 },
            danger: (trace.danger[0] - trace.danger[1]) as f32,
            result,
            score: score as f32,
        }
    }

    /// The evaluation from White's point of view with `w` (flat (mg, eg) weights).
    #[inline]
    pub fn eval(&self, w: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (self.danger as f64, 0.0);
        for &(i, c) in &self.coefs {
            mg += w[i as usize][0] * c as f64;
            eg += w[i as usize][1] * c as f64;
        }
        let t = w[TEMPO];
        self.scale as f64 * (mg * self.mg as f64 + eg * self.eg as f64)
            + self.stm as f64 * (t[0] * self.mg as f64 + t[1] * self.eg as f64)
    }
}

/// The logistic function: expected score from an evaluation scaled by K.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads one data line: `<FEN> | <result> | <score>` (a missing score reads as 0). The FEN
/// is read by [`crate::position::parse_fen`], as everywhere in Lull.
pub fn parse_line(line: &str) -> Result<(Board, f32, i32), String> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    if parts.len() < 2 {
        return Err("expected '<FEN> | <result> | <score>'".to_string());
    }
    // The engine's checked reader: X-FEN or Shredder-FEN, impossible positions refused.
    let board = crate::position::parse_fen(parts[0])?;
    let result: f32 = parts[1]
        .parse()
        .map_err(|_| format!("invalid result '{}'", parts[1]))?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return Err(format!("result {result} is not 1.0, 0.5 or 0.0"));
    }
    let score = match parts.get(2) {
        Some(score) => score
            .parse::<i32>()
            .map_err(|_| format!("invalid score '{score}'"))?,
        None => 0,
    };
    Ok((board, result, score))
}

/// The text of a data file as the tuner reads it: a line that is not UTF-8 becomes a line
/// that is malformed (`line N: …`), as `lull data convert` counts it, instead of a line whose
/// bad bytes read as U+FFFD (which could still parse as a position, or pass as a comment).
pub fn data_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes
            .split(|&b| b == b'\n')
            .map(|line| std::str::from_utf8(line).unwrap_or("not UTF-8 text"))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Traces the data lines of `text` (at most `limit` positions). Malformed lines are returned
/// as `line N: why` and skipped; blank lines and `#` comments are ignored.
pub fn load(text: &str, limit: Option<usize>) -> (Vec<Entry>, Vec<String>) {
    load_resolved(text, limit, |board| board)
}

/// As [`load`], but each position is first replaced by `resolve(position)`: with the leaf of
/// its quiescence line, the eval is fitted where it is meant to be used (Texel's method
/// evaluates positions through the quiescence search).
pub fn load_resolved(
    text: &str,
    limit: Option<usize>,
    mut resolve: impl FnMut(Board) -> Board,
) -> (Vec<Entry>, Vec<String>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if limit.is_some_and(|n| entries.len() >= n) {
            break;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok((board, result, score)) => entries.push(Entry::new(&resolve(board), result, score)),
            Err(e) => errors.push(format!("line {}: {e}", i + 1)),
        }
    }
    (entries, errors)
}

/// The leaf of the quiescence line of `board` (the board itself when standing pat is best):
/// the resolver of `lull tune --resolve`.
pub fn quiescence_leaf(engine: &mut crate::search::Engine, mut board: Board) -> Board {
    use crate::params::INFINITY;
    let pos = crate::position::Position::from_board(board.clone());
    for mv in engine.quiesce(&pos, -INFINITY, INFINITY, 0).pv {
        board.play_unchecked(mv);
    }
    board
}

/// The engine's weights as floats.
pub fn float_weights(w: &[S]) -> Vec<[f64; 2]> {
    w.iter().map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// Weights rounded to whole centipawns.
pub fn round_weights(w: &[[f64; 2]]) -> Vec<S> {
    w.iter()
        .map(|p| S(p[0].round() as i32, p[1].round() as i32))
        .collect()
}

/// Splits `entries` into about `threads` chunks and sums `f` of each on its own thread.
fn par_map<T: Send>(entries: &[Entry], threads: usize, f: impl Fn(&[Entry]) -> T + Sync) -> Vec<T> {
    let size = entries.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(size)
            .map(|chunk| {
                let f = &f;
                scope.spawn(move || f(chunk))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(t) => t,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// Mean squared error of `sigmoid(k * eval)` against the results.
pub fn error(entries: &[Entry], w: &[[f64; 2]], k: f64, threads: usize) -> f64 {
    if entries.is_empty() {
        return 0.0;
    }
    let sums = par_map(entries, threads, |chunk| {
        chunk
            .iter()
            .map(|e| {
                let d = e.result as f64 - sigmoid(k * e.eval(w));
                d * d
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / entries.len() as f64
}

/// The K in [0, 0.1] that minimises the error of the weights `w`: a scan, then a
/// golden-section search around the best point. Returns K and its error.
pub fn find_k(entries: &[Entry], w: &[[f64; 2]], threads: usize) -> (f64, f64) {
    // 1. Coarse scan.
    let mut best = (0.0, f64::INFINITY);
    let steps = 50;
    let step = 0.1 / steps as f64;
    for i in 1..=steps {
        let k = i as f64 * step;
        let e = error(entries, w, k, threads);
        if e < best.1 {
            best = (k, e);
        }
    }
    // 2. Golden section on the bracket around it.
    let (mut a, mut b) = ((best.0 - step).max(0.0), best.0 + step);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut ec, mut ed) = (error(entries, w, c, threads), error(entries, w, d, threads));
    for _ in 0..40 {
        if ec < ed {
            b = d;
            d = c;
            ed = ec;
            c = b - g * (b - a);
            ec = error(entries, w, c, threads);
        } else {
            a = c;
            c = d;
            ec = ed;
            d = a + g * (b - a);
            ed = error(entries, w, d, threads);
        }
    }
    let k = (a + b) / 2.0;
    (k, error(entries, w, k, threads))
}

/// The gradient of the error with respect to every weight, and the error, against targets
/// that mix the result with `score_weight` of the search score (see
/// [`TuneConfig::score_weight`]).
pub fn gradient(
    entries: &[Entry],
    w: &[[f64; 2]],
    k: f64,
    score_weight: f64,
    threads: usize,
) -> (Vec<[f64; 2]>, f64) {
    let n = entries.len().max(1) as f64;
    let parts = par_map(entries, threads, |chunk| {
        let mut grad = vec![[0.0f64; 2]; w.len()];
        let mut err = 0.0;
        for e in chunk {
            let s = sigmoid(k * e.eval(w));
            let target =
                (1.0 - score_weight) * e.result as f64 + score_weight * sigmoid(k * e.score as f64);
            let d = target - s;
            err += d * d;
            // d(d²)/d(eval) = -2 d σ (1 - σ) K.
            let g = -2.0 * d * s * (1.0 - s) * k;
            let (gm, ge) = (
                g * e.scale as f64 * e.mg as f64,
                g * e.scale as f64 * e.eg as f64,
            );
            for &(i, c) in &e.coefs {
                grad[i as usize][0] += gm * c as f64;
                grad[i as usize][1] += ge * c as f64;
            }
            grad[TEMPO][0] += g * e.stm as f64 * e.mg as f64;
            grad[TEMPO][1] += g * e.stm as f64 * e.eg as f64;
        }
        (grad, err)
    });
    let mut grad = vec![[0.0f64; 2]; w.len()];
    let mut err = 0.0;
    for (g, e) in parts {
        for (a, b) in grad.iter_mut().zip(&g) {
            a[0] += b[0] / n;
            a[1] += b[1] / n;
        }
        err += e;
    }
    (grad, err / n)
}

/// In how many positions each feature occurs (the tempo: in all).
pub fn feature_counts(entries: &[Entry], weights: usize) -> Vec<usize> {
    let mut counts = vec![0; weights];
    for e in entries {
        for &(i, _) in &e.coefs {
            counts[i as usize] += 1;
        }
    }
    if let Some(t) = counts.get_mut(TEMPO) {
        *t = entries.len();
    }
    counts
}

/// Fits the weights from `start` by Adam on the full batch for `config.epochs` epochs with
/// scaling constant `k`; weights of features rarer than `config.min_count` keep their value.
/// `report(epoch, error, weights)` is called every `config.report_every` epochs (the error
/// before that epoch's step) and at the end.
pub fn tune(
    entries: &[Entry],
    start: &[[f64; 2]],
    k: f64,
    config: &TuneConfig,
    mut report: impl FnMut(usize, f64, &[[f64; 2]]),
) -> Vec<[f64; 2]> {
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8);
    let counts = feature_counts(entries, start.len());
    let mut w = start.to_vec();
    let mut m = vec![[0.0f64; 2]; w.len()];
    let mut v = vec![[0.0f64; 2]; w.len()];
    for epoch in 0..config.epochs {
        let (grad, _) = gradient(entries, &w, k, config.score_weight, config.threads);
        if config.report_every > 0 && epoch % config.report_every == 0 {
            report(epoch, error(entries, &w, k, config.threads), &w);
        }
        let t = (epoch + 1) as i32;
        let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
        for i in 0..w.len() {
            if counts[i] < config.min_count {
                continue;
            }
            for j in 0..2 {
                let g = grad[i][j];
                m[i][j] = beta1 * m[i][j] + (1.0 - beta1) * g;
                v[i][j] = beta2 * v[i][j] + (1.0 - beta2) * g * g;
                w[i][j] -= config.lr * (m[i][j] / c1) / ((v[i][j] / c2).sqrt() + eps);
            }
        }
    }
    report(config.epochs, error(entries, &w, k, config.threads), &w);
    w
}

/// [`tune`] with early stopping: at every report the error on the held-out positions `valid`
/// is measured too, and the weights kept are those of the report with the lowest validation
/// error (later epochs fit the noise of the training games). `report(epoch, error,
/// validation error)` is called at every report. Returns the weights and, when there are
/// validation positions, the epoch and validation error of the kept ones; without them, the
/// weights of the last epoch and `None`.
pub fn tune_early_stopping(
    entries: &[Entry],
    valid: &[Entry],
    start: &[[f64; 2]],
    k: f64,
    config: &TuneConfig,
    mut report: impl FnMut(usize, f64, f64),
) -> (Vec<[f64; 2]>, Option<(usize, f64)>) {
    let mut best: Option<(f64, usize, Vec<[f64; 2]>)> = None;
    let fitted = tune(entries, start, k, config, |epoch, err, w| {
        let v = error(valid, w, k, config.threads);
        report(epoch, err, v);
        if !valid.is_empty() && best.as_ref().is_none_or(|b| v < b.0) {
            best = Some((v, epoch, w.to_vec()));
        }
    });
    match best {
        Some((v, epoch, w)) => (w, Some((epoch, v))),
        None => (fitted, None),
    }
}

/// The weights that moved most between `before` and `after` (at most `n`), with their names.
pub fn largest_changes(before: &[S], after: &[S], n: usize) -> Vec<String> {
    let mut moved: Vec<(i32, usize)> = before
        .iter()
        .zip(after)
        .enumerate()
        .map(|(i, (a, b))| ((a.0 - b.0).abs().max((a.1 - b.1).abs()), i))
        .filter(|&(d, _)| d > 0)
        .collect();
    moved.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    moved
        .into_iter()
        .take(n)
        .map(|(_, i)| {
            format!(
                "{}: S({}, {}) -> S({}, {})",
                crate::eval::layout::weight_name(i),
                before[i].0,
                before[i].1,
                after[i].0,
                after[i].1
            )
        })
        .collect()
}

/// Arguments of `lull tune`.
#[derive(Clone, Debug, clap::Args)]
pub struct TuneArgs {
    /// Data file (`<FEN> | <result> | <score>` lines).
    pub data: PathBuf,
    /// Full passes over the data.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub epochs: u64,
    /// Adam's learning rate (about centipawns per step).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// The scaling constant of sigmoid(K * eval) (default: the best fit of the current
    /// weights).
    #[arg(long)]
    pub k: Option<f64>,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Use at most this many positions (the first ones).
    #[arg(long, value_name = "N")]
    pub positions_limit: Option<usize>,
    /// Weights of features occurring in fewer positions than this keep their value
    /// (default: 0.5% of the training positions, at least 50).
    #[arg(long, value_name = "N")]
    pub min_count: Option<usize>,
    /// Share of the search score in the fitted target, 0..1 (0: the game results alone;
    /// the errors reported are always against the results).
    #[arg(long, default_value_t = 0.0)]
    pub score_weight: f64,
    /// Share of the positions (the last ones) kept out of the fit to measure it; the
    /// weights kept are those of the report with the lowest validation error.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Report the error every this many epochs.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    pub report_every: u64,
    /// Replace each position by the leaf of its quiescence line (the position the
    /// evaluation is really applied to in search) before tracing it.
    #[arg(long)]
    pub resolve: bool,
    /// Write the tuned weights file here (e.g. src/eval/weights.rs) instead of standard
    /// output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl TuneArgs {
    /// The checks clap cannot make: the numbers must be in range.
    fn check(&self) -> Result<(), String> {
        if !(self.lr > 0.0 && self.lr.is_finite())
            || self.k.is_some_and(|k| !(k > 0.0 && k.is_finite()))
        {
            return Err("--lr and --k must be positive numbers".to_string());
        }
        if !(0.0..=1.0).contains(&self.score_weight) {
            return Err("--score-weight must be in [0, 1]".to_string());
        }
        if !(0.0..0.9).contains(&self.validation) {
            return Err("--validation must be in [0, 0.9)".to_string());
        }
        Ok(())
    }
}

/// `lull tune`: traces the data, finds K, fits the weights with early stopping and writes the
/// weights file (to `--output` or standard output); the progress goes to standard error.
/// Exit code 2 for bad arguments or an unreadable data file, 1 for data without a position
/// or a weights file that cannot be written.
pub fn run(args: TuneArgs) -> ExitCode {
    if let Err(e) = args.check() {
        return fail(2, e);
    }
    if let Some(path) = &args.output {
        if let Err(e) = check_output(path, &[&args.data]) {
            return fail(2, e);
        }
    }
    // 1. The data, traced once; malformed lines are reported and skipped.
    let start = Instant::now();
    let mut entries = match read_data(&args) {
        Ok(entries) => entries,
        Err(code) => return code,
    };
    let features: usize = entries.iter().map(|e| e.coefs.len()).sum();
    eprintln!(
        "{} positions traced in {:.1} s ({:.1} features per position)",
        entries.len(),
        start.elapsed().as_secs_f64(),
        features as f64 / entries.len() as f64
    );
    // The last positions (the last games) measure the fit without taking part in it.
    let held_out = (entries.len() as f64 * args.validation) as usize;
    let valid = entries.split_off(entries.len() - held_out);
    let min_count = args.min_count.unwrap_or((entries.len() / 200).max(50));
    eprintln!(
        "{} training positions, {} validation positions; features rarer than {min_count} positions keep their weights",
        entries.len(),
        valid.len()
    );
    // 2. K for the current weights.
    let threads = args.threads as usize;
    let w0 = float_weights(&WEIGHTS);
    let (k, e0) = match args.k {
        Some(k) => (k, error(&entries, &w0, k, threads)),
        None => find_k(&entries, &w0, threads),
    };
    let v0 = error(&valid, &w0, k, threads);
    eprintln!("K = {k:.6} (error of the current weights {e0:.6}, validation {v0:.6})");
    // 3. Fit.
    let config = TuneConfig {
        epochs: args.epochs as usize,
        lr: args.lr,
        k: Some(k),
        threads,
        report_every: args.report_every as usize,
        min_count,
        score_weight: args.score_weight,
    };
    let (fitted, kept) = tune_early_stopping(&entries, &valid, &w0, k, &config, |epoch, err, v| {
        eprintln!("epoch {epoch:>6}  error {err:.6}  validation {v:.6}");
    });
    if let Some((epoch, v)) = kept {
        eprintln!("keeping the weights of epoch {epoch} (validation {v:.6})");
    }
    let tuned = round_weights(&fitted);
    let e1 = error(&entries, &float_weights(&tuned), k, threads);
    let v1 = error(&valid, &float_weights(&tuned), k, threads);
    eprintln!(
        "error {e0:.6} -> {e1:.6}, validation {v0:.6} -> {v1:.6} (rounded weights) in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    eprintln!("largest changes:");
    for line in largest_changes(&WEIGHTS, &tuned, 15) {
        eprintln!("  {line}");
    }
    // 4. The weights file.
    let note = format!(
        "Tuned by `lull tune` (Texel's method) on {} positions: K = {k:.6}, error {e0:.6} -> {e1:.6},\nvalidation ({} positions) {v0:.6} -> {v1:.6} ({} epochs, lr {}, min count {min_count},\nscore weight {}{}).",
        entries.len(),
        valid.len(),
        args.epochs,
        args.lr,
        args.score_weight,
        if args.resolve {
            ", positions resolved by the quiescence search"
        } else {
            ""
        }
    );
    let source = render_weights(&tuned, &note);
    match &args.output {
        None => print!("{source}"),
        Some(path) => {
            if let Err(e) = write_atomic(path, source.as_bytes()) {
                return fail(1, e);
            }
            eprintln!("written to {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

/// Reads and traces the data file of `lull tune` (each position first resolved with
/// `--resolve`), reporting the malformed lines; the exit code when there is nothing to fit.
fn read_data(args: &TuneArgs) -> Result<Vec<Entry>, ExitCode> {
    if let Err(e) = crate::lines::check_input_file(&args.data) {
        return Err(fail(2, e));
    }
    let text = match std::fs::read(&args.data) {
        Ok(bytes) => data_text(&bytes),
        Err(e) => return Err(fail(2, format!("cannot read {}: {e}", args.data.display()))),
    };
    let (entries, errors) = if args.resolve {
        let mut engine = crate::search::Engine::new(1);
        let mut resolved = 0usize;
        let loaded = load_resolved(&text, args.positions_limit, |board| {
            let leaf = quiescence_leaf(&mut engine, board.clone());
            resolved += usize::from(leaf != board);
            leaf
        });
        eprintln!("{resolved} positions replaced by the leaf of their quiescence line");
        loaded
    } else {
        load(&text, args.positions_limit)
    };
    warn_skipped(&args.data.display(), &errors);
    if entries.is_empty() {
        return Err(fail(1, format!("{}: no position", args.data.display())));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::eval::layout::NUM_WEIGHTS;

    #[test]
    fn resolving_replaces_a_hanging_queen_by_the_capture_and_keeps_quiet_positions() {
        let mut engine = crate::search::Engine::new(1);
        // White to move wins the queen on d5 with exd5; the leaf is the board after it.
        let text = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1 | 1.0 | 0\n\
                    4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 0.5 | 12\n";
        let (entries, errors) = load_resolved(text, None, |b| quiescence_leaf(&mut engine, b));
        assert!(errors.is_empty());
        let after: Board = "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1".parse().unwrap();
        assert_eq!(entries[0], Entry::new(&after, 1.0, 0));
        let quiet: Board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(entries[1], Entry::new(&quiet, 0.5, 12));
        // Without resolving, the first entry is the position as written.
        let (plain, _) = load(text, None);
        assert_ne!(plain[0], entries[0]);
    }

    /// A synthetic set: random sparse features, results drawn from `sigmoid(k0 * eval)` of
    /// hidden weights (as expected scores, so the best fit is known).
    fn synthetic(n: usize, k0: f64) -> (Vec<Entry>, Vec<[f64; 2]>) {
        let mut rng = crate::tools::data::datagen::Rng::new(11);
        let hidden: Vec<[f64; 2]> = (0..NUM_WEIGHTS)
            .map(|i| {
                if i < 12 {
                    [
                        (rng.below(400) as f64) - 200.0,
                        (rng.below(400) as f64) - 200.0,
                    ]
                } else {
                    [0.0, 0.0]
                }
            })
            .collect();
        let entries = (0..n)
            .map(|_| {
                let mut coefs: Vec<(u16, i16)> = Vec::new();
                for i in 0..12u16 {
                    let c = rng.below(3) as i16 - 1;
                    if c != 0 && rng.below(2) == 0 {
                        coefs.push((i, c));
                    }
                }
                let ph = rng.below(25) as f32 / 24.0;
                let mut e = Entry {
                    coefs,
                    mg: ph,
                    eg: 1.0 - ph,
                    scale: 1.0,
                    stm: 1.0,
                    danger: 0.0,
                    result: 0.0,
                    score: 0.0,
                };
                e.result = sigmoid(k0 * e.eval(&hidden)) as f32;
                e
            })
            .collect();
        (entries, hidden)
    }

    /// The settings of the fits on synthetic data: a large step, two threads.
    fn adam(epochs: usize, report_every: usize) -> TuneConfig {
        TuneConfig {
            epochs,
            lr: 5.0,
            threads: 2,
            report_every,
            ..TuneConfig::default()
        }
    }

    #[test]
    fn early_stopping_keeps_the_best_validated_report() {
        let (all, _) = synthetic(2000, 0.01);
        let (entries, valid) = all.split_at(1500);
        let start = vec![[0.0f64; 2]; NUM_WEIGHTS];
        let config = adam(200, 40);
        let mut reports = Vec::new();
        let (kept, best) = tune_early_stopping(entries, valid, &start, 0.01, &config, |e, _, v| {
            reports.push((e, v))
        });
        // Reports at epochs 0, 40, ..., 160 and at the end.
        assert_eq!(reports.len(), 6, "{reports:?}");
        let (epoch, v) = best.unwrap();
        let lowest = reports.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
        assert_eq!(v, lowest, "{reports:?}");
        assert!(reports.contains(&(epoch, v)));
        assert_eq!(error(valid, &kept, 0.01, config.threads), v);
        // Without validation positions: the last weights, as `tune` gives them.
        let (last, none) = tune_early_stopping(entries, &[], &start, 0.01, &config, |_, _, _| {});
        assert!(none.is_none());
        assert_eq!(last, tune(entries, &start, 0.01, &config, |_, _, _| {}));
    }

    #[test]
    fn k_search_finds_the_minimum() {
        let (entries, hidden) = synthetic(2000, 0.01);
        let (k, err) = find_k(&entries, &hidden, 2);
        assert!((k - 0.01).abs() < 0.001, "K = {k}");
        // A minimum: both neighbours are worse.
        assert!(err <= error(&entries, &hidden, k * 0.9, 1));
        assert!(err <= error(&entries, &hidden, k * 1.1, 1));
    }

    #[test]
    fn tuning_lowers_the_error() {
        let (entries, _) = synthetic(2000, 0.01);
        let start = vec![[0.0f64; 2]; NUM_WEIGHTS];
        let before = error(&entries, &start, 0.01, 1);
        let config = adam(300, 100);
        let mut reports = Vec::new();
        let tuned = tune(&entries, &start, 0.01, &config, |e, err, _| {
            reports.push((e, err))
        });
        let after = error(&entries, &tuned, 0.01, 1);
        assert!(after < before * 0.2, "{before} -> {after}");
        assert_eq!(reports.len(), 4);
        assert!(reports.windows(2).all(|p| p[1].1 < p[0].1), "{reports:?}");
        // One thread or two give the same gradient (up to rounding).
        let (g1, e1) = gradient(&entries, &tuned, 0.01, 0.0, 1);
        let (g2, e2) = gradient(&entries, &tuned, 0.01, 0.0, 3);
        assert!((e1 - e2).abs() < 1e-12);
        for (a, b) in g1.iter().zip(&g2) {
            assert!((a[0] - b[0]).abs() < 1e-12 && (a[1] - b[1]).abs() < 1e-12);
        }
        // Rare features keep their weights.
        let counts = feature_counts(&entries, NUM_WEIGHTS);
        let frozen = TuneConfig {
            epochs: 20,
            min_count: counts[3] + 1,
            ..config.clone()
        };
        let w = tune(&entries, &start, 0.01, &frozen, |_, _, _| {});
        assert!(counts[3] > 0);
        for i in 0..12 {
            assert_eq!(w[i] == [0.0, 0.0], counts[i] <= counts[3], "weight {i}");
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let text: String = crate::bench::BENCH_POSITIONS
            .iter()
            .enumerate()
            .map(|(i, f)| format!("{f} | {} | 0\n", ["1.0", "0.5", "0.0"][i % 3]))
            .collect();
        let (entries, errors) = load(&text, None);
        assert!(errors.is_empty());
        let w = float_weights(&WEIGHTS);
        let k = 0.006;
        let (grad, _) = gradient(&entries, &w, k, 0.0, 2);
        for i in [1, 6 + 64 + 27, crate::eval::layout::PASSED_PAWN + 5, TEMPO] {
            for j in 0..2 {
                let h = 1e-3;
                let mut up = w.clone();
                up[i][j] += h;
                let mut down = w.clone();
                down[i][j] -= h;
                let numeric =
                    (error(&entries, &up, k, 1) - error(&entries, &down, k, 1)) / (2.0 * h);
                assert!(
                    (numeric - grad[i][j]).abs() < 1e-7 + 1e-3 * numeric.abs(),
                    "weight {i}/{j}: {numeric} vs {}",
                    grad[i][j]
                );
            }
        }
    }

    #[test]
    fn the_float_model_is_the_evaluation() {
        // Without the integer rounding, the traced model gives the engine's evaluation
        // (White's view) to within a centipawn or two (the tapering and scaling truncate).
        for fen in crate::bench::BENCH_POSITIONS {
            let board: Board = fen.parse().unwrap();
            let e = Entry::new(&board, 0.5, 0);
            let white = if board.side_to_move() == Color::White {
                evaluate(&board)
            } else {
                -evaluate(&board)
            };
            assert!(
                (e.eval(&float_weights(&WEIGHTS)) - white as f64).abs() < 2.0,
                "{fen}"
            );
        }
    }

    #[test]
    fn an_impossible_position_is_a_malformed_line_even_when_resolving() {
        // Adjacent kings: the engine's FEN check refuses the line (the side not to move is in
        // check), so `--resolve` reports and skips it instead of searching it.
        let mut engine = crate::search::Engine::new(1);
        let text = "8/8/8/3kK3/8/8/8/8 w - - 0 1 | 0.5 | 0\n\
                    4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 0.5 | 12\n";
        let (entries, errors) = load_resolved(text, None, |b| quiescence_leaf(&mut engine, b));
        assert_eq!(entries.len(), 1);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("line 1: invalid FEN") && errors[0].contains("in check"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn chess960_positions_of_datagen_are_read_back() {
        // A position from a Chess960 book (rooks on b and g), written as `lull datagen` writes
        // it, is read back to the same board with its castling rights.
        let start = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1";
        let pos = crate::position::Position::from_fen(start).unwrap();
        let mv = pos.parse_uci_move("a1b3").unwrap();
        let line = crate::tools::data::datagen::GameRecord {
            result: 0.5,
            ending: crate::tools::data::datagen::Ending::MaxPlies,
            plies: 0,
            game: crate::tools::data::gameformat::SeqGame {
                start: pos.board().clone(),
                result: 1,
                entries: vec![crate::tools::data::gameformat::Entry {
                    mv: Some(mv),
                    score: 7,
                    marked: false,
                }],
            },
            first_ply: 0,
            skip_plies: 0,
        }
        .lines()
        .next()
        .unwrap();
        let (board, result, score) = parse_line(&line).unwrap();
        assert_eq!(&board, pos.board(), "{line}");
        assert_eq!((result, score), (0.5, 7));
        // Shredder-FEN (Chess960 mode) is read too.
        let shredder = format!("{start} | 1.0 | 3");
        assert_eq!(&parse_line(&shredder).unwrap().0, pos.board());
    }

    #[test]
    fn malformed_lines_are_reported_and_skipped() {
        let text = "\
8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 1.0 | 900
not a fen | 1.0 | 3
8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 2 | 3

# comment
8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 0.5 | x
8/8/4k3/8/8/3QK3/8/8 b - - 0 1 | 0.0
8/8/4k3/8/8/3QK3/8/8 b - - 0 1";
        let (entries, errors) = load(text, None);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].stm, -1.0);
        let lines: Vec<&str> = errors
            .iter()
            .map(|e| e.split(':').next().unwrap())
            .collect();
        assert_eq!(lines, ["line 2", "line 3", "line 6", "line 8"]);
        let (limited, _) = load(text, Some(1));
        assert_eq!(limited.len(), 1);
    }
}

//! `lull tune`: Texel's tuning of the evaluation weights. The positions of `lull datagen`
//! (`<FEN> | <result> | <score>`) are traced once ([`crate::eval::EvalTrace`]): sparse
//! feature counts, the phase, the fixed king danger, the drawish scale factor and the side to
//! move. Given those, the evaluation is linear in the weights, so the mean squared error
//! between `sigmoid(K * eval)` and the game results has an exact gradient; the scaling
//! constant `K` is first chosen to fit the current weights best, then the weights are fitted
//! by full-batch gradient descent (Adam) on several threads.

use cozy_chess::{Board, Color};

use crate::eval::layout::{TEMPO, WEIGHTS};
use crate::eval::{EvalTrace, PHASE_TOTAL, S};

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

/// Reads one data line: `<FEN> | <result> | <score>` (a missing score reads as 0).
pub fn parse_line(line: &str) -> Result<(Board, f32, i32), String> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    if parts.len() < 2 {
        return Err("expected '<FEN> | <result> | <score>'".to_string());
    }
    let board: Board = parts[0]
        .parse()
        .map_err(|_| format!("invalid FEN '{}'", parts[0]))?;
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
        let mut rng = crate::tools::datagen::Rng::new(11);
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
        let config = TuneConfig {
            epochs: 300,
            lr: 5.0,
            threads: 2,
            report_every: 100,
            ..TuneConfig::default()
        };
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

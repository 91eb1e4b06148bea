//! The win/draw/loss model behind `UCI_ShowWDL`: from a score in centipawns and the material
//! on the board, the chances of a win, a draw and a loss for the side the score favours, in
//! the form of Stockfish's `win_rate_model`:
//!
//! ```text
//! W(v, m) = 1 / (1 + exp((a(m) - v) / b(m))),   L(v, m) = W(-v, m),   D = 1 - W - L
//! a(m) = a0·x³ + a1·x² + a2·x + a3,   b(m) likewise,   x = clamp(m, 17, 78) / 58
//! ```
//!
//! `m` counts the material of both sides (pawn 1, knight and bishop 3, rook 5, queen 9): 78 in
//! the start position. The parameters ([`params::WDL_A`], [`params::WDL_B`]) are fitted by
//! maximum likelihood to the outcomes of Lull's own self-play games (`lull wdl fit`, which also
//! measures the calibration on games it holds back).

use cozy_chess::{Board, Piece};

use crate::params::{self, MATE_BOUND};

/// Material below this counts as this (the model's range in Stockfish's form).
pub const MATERIAL_MIN: i32 = 17;
/// Material above this counts as this (the start position has 78).
pub const MATERIAL_MAX: i32 = 78;
/// The polynomials' variable is the material over this.
pub const MATERIAL_SCALE: f64 = 58.0;

/// The material of both sides: pawn 1, knight and bishop 3, rook 5, queen 9.
pub fn material(board: &Board) -> i32 {
    [
        (Piece::Pawn, 1),
        (Piece::Knight, 3),
        (Piece::Bishop, 3),
        (Piece::Rook, 5),
        (Piece::Queen, 9),
    ]
    .iter()
    .map(|&(p, v)| board.pieces(p).len() as i32 * v)
    .sum()
}

/// The model's two cubic polynomials in the material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Coefficients of `a` (centipawns), highest power first: the score at which a win is
    /// as likely as not.
    pub a: [f64; 4],
    /// Coefficients of `b` (centipawns), highest power first: the spread of the logistic.
    pub b: [f64; 4],
}

/// The model Lull reports with (`UCI_ShowWDL`), fitted to its self-play games.
pub const MODEL: WdlModel = WdlModel {
    a: params::WDL_A,
    b: params::WDL_B,
};

/// The polynomial's variable for a material count.
pub fn material_x(material: i32) -> f64 {
    f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_SCALE
}

fn poly(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

impl WdlModel {
    /// `a` and `b` at this material.
    pub fn ab(&self, material: i32) -> (f64, f64) {
        let x = material_x(material);
        (poly(&self.a, x), poly(&self.b, x).max(1.0))
    }

    /// The probability of a win for the side the score is given for.
    pub fn win_rate(&self, score: f64, material: i32) -> f64 {
        let (a, b) = self.ab(material);
        1.0 / (1.0 + ((a - score) / b).exp())
    }

    /// Win, draw and loss probabilities (they sum to 1).
    pub fn probabilities(&self, score: f64, material: i32) -> [f64; 3] {
        let w = self.win_rate(score, material);
        let l = self.win_rate(-score, material);
        let d = (1.0 - w - l).max(0.0);
        let sum = w + d + l;
        [w / sum, d / sum, l / sum]
    }

    /// `wdl W D L` in permille, summing to 1000, for a search score (centipawns or a mate
    /// score) from the side to move: a mate is 1000 0 0 (or 0 0 1000 when being mated).
    pub fn permille(&self, score: i32, material: i32) -> [u32; 3] {
        if score >= MATE_BOUND {
            return [1000, 0, 0];
        }
        if score <= -MATE_BOUND {
            return [0, 0, 1000];
        }
        let [w, _, l] = self.probabilities(f64::from(score), material);
        let w = (w * 1000.0).round() as u32;
        let l = ((l * 1000.0).round() as u32).min(1000 - w);
        [w, 1000 - w - l, l]
    }
}

/// Calibration of a model on positions with known outcomes: the expected calibration error
/// of each predicted probability (win, draw, loss) and of the expected score, each over 20
/// equal-width bins of the prediction (the mean over bins of |mean prediction − observed
/// frequency|, weighted by the positions in the bin), and the mean log-loss.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Calibration {
    /// Positions measured.
    pub positions: u64,
    /// Calibration error of the win, draw and loss probabilities.
    pub ece: [f64; 3],
    /// Calibration error of the expected score (W + D/2).
    pub ece_score: f64,
    /// Mean negative log-likelihood of the outcome, in nats.
    pub log_loss: f64,
}

/// Bins of [`calibration`].
const BINS: usize = 20;

/// Measures `model` on `(material, score, outcome)` samples, the score in centipawns from
/// White's view and the outcome White's (1.0, 0.5 or 0.0), each with a count.
pub fn calibration(model: &WdlModel, samples: &[(i32, i32, f64, f64)]) -> Calibration {
    // Per bin: count, sum of predictions, sum of observations; 4 quantities.
    let mut bins = [[[0.0f64; 3]; BINS]; 4];
    let mut total = 0.0;
    let mut log_loss = 0.0;
    for &(material, score, outcome, count) in samples {
        let p = model.probabilities(f64::from(score), material);
        let observed = [
            f64::from(u8::from(outcome == 1.0)),
            f64::from(u8::from(outcome == 0.5)),
            f64::from(u8::from(outcome == 0.0)),
        ];
        let expected = p[0] + p[1] / 2.0;
        let quantities = [
            (p[0], observed[0]),
            (p[1], observed[1]),
            (p[2], observed[2]),
            (expected, outcome),
        ];
        for (q, (pred, obs)) in quantities.into_iter().enumerate() {
            let bin = ((pred * BINS as f64) as usize).min(BINS - 1);
            bins[q][bin][0] += count;
            bins[q][bin][1] += pred * count;
            bins[q][bin][2] += obs * count;
        }
        let p_outcome = if outcome == 1.0 {
            p[0]
        } else if outcome == 0.5 {
            p[1]
        } else {
            p[2]
        };
        log_loss -= p_outcome.max(1e-9).ln() * count;
        total += count;
    }
    let ece = |q: usize| -> f64 {
        bins[q]
            .iter()
            .filter(|b| b[0] > 0.0)
            .map(|b| (b[1] - b[2]).abs())
            .sum::<f64>()
            / total.max(1.0)
    };
    Calibration {
        positions: total as u64,
        ece: [ece(0), ece(1), ece(2)],
        ece_score: ece(3),
        log_loss: log_loss / total.max(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permille_sums_to_1000_and_moves_with_the_score() {
        let mut last_w = 0;
        let mut last_l = 1000;
        for score in (-1500..=1500).step_by(25) {
            for material in [4, 17, 40, 78, 90] {
                let [w, d, l] = MODEL.permille(score, material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
            }
            let [w, _, l] = MODEL.permille(score, 60);
            assert!(w >= last_w && l <= last_l, "{score}: {w} {l}");
            last_w = w;
            last_l = l;
        }
        assert_eq!(MODEL.permille(0, 78)[0], MODEL.permille(0, 78)[2]);
        let [w, d, _] = MODEL.permille(0, 78);
        assert!(d > w, "at an equal start a draw is the likeliest outcome");
        assert!(MODEL.permille(1000, 40)[0] > 900, "a rook up wins");
        assert_eq!(MODEL.permille(MATE_BOUND, 10), [1000, 0, 0]);
        assert_eq!(MODEL.permille(-MATE_BOUND, 10), [0, 0, 1000]);
    }

    #[test]
    fn the_material_of_the_start_position_is_78() {
        assert_eq!(material(&Board::default()), 78);
    }

    #[test]
    fn a_model_that_predicts_the_outcome_rates_is_calibrated() {
        // Outcomes drawn exactly in the model's proportions: no calibration error.
        let mut samples = Vec::new();
        for score in (-600..=600).step_by(50) {
            let [w, d, l] = MODEL.probabilities(f64::from(score), 50);
            samples.push((50, score, 1.0, w));
            samples.push((50, score, 0.5, d));
            samples.push((50, score, 0.0, l));
        }
        let c = calibration(&MODEL, &samples);
        assert!(c.ece.iter().all(|e| *e < 1e-9), "{c:?}");
        assert!(c.ece_score < 1e-9);
        // A model that says "always a draw" on decisive outcomes is badly calibrated.
        let flat = WdlModel {
            a: [0.0, 0.0, 0.0, 10_000.0],
            b: [0.0, 0.0, 0.0, 100.0],
        };
        let decisive: Vec<_> = samples.iter().filter(|s| s.2 != 0.5).copied().collect();
        assert!(calibration(&flat, &decisive).ece[1] > 0.9);
    }
}

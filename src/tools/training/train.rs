//! `lull train`: trains the (768 -> N) x 2 -> 1 SCReLU network of docs/nnue.md on packed
//! positions ([`crate::tools::data::packed`]) and writes it quantised in the `.nnue` format that
//! the engine reads: the format (magic, version, sizes, `QA`, `QB`, `SCALE`, the output
//! bucket formula) is the engine's own, [`crate::nnue::format`], defined once.
//!
//! The float model, the targets and the quantisation follow the shared specification
//! exactly: features `(colour == perspective ? 0 : 384) + type * 64 + square` (the square
//! flipped vertically for Black's perspective), `out = b2[k] + W2[k] · [a(h_us), a(h_them)]`
//! with `a(x) = clamp(x, 0, 1)^2` and `k` the position's output bucket
//! ([`crate::nnue::format::output_bucket`] of its piece count; always 0 with one bucket,
//! `--output-buckets 1`, the default), the target
//! `lambda * result + (1 - lambda) * sigmoid(cp / S)` from the side to move's view, and the loss `(sigmoid(400 out / S) - target)^2` averaged
//! over the batch, with S the evaluation scale (`--eval-scale`, 171 by default: Lull's
//! centipawns per logistic unit, so that the network's `400 out` centipawns are on the data's
//! scale). The optimiser is AdamW (decoupled weight decay on the weights, not the biases);
//! every parameter is clipped to ±1.98 after each step. The accumulators (W1, b1) are shared
//! by every bucket; a position's gradient reaches only its own bucket's W2 and b2.
//!
//! Training is data-parallel: each batch is split into one contiguous shard per thread, each
//! thread accumulates its gradient in its own buffer (sparsely: only the rows of W1 of the
//! active features are touched), and the buffers are summed in thread order, so a run is
//! deterministic for a seed and a thread count.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use cozy_chess::Color;

use crate::nnue::format::{
    bucketed_file_size, output_bucket, INPUTS, MAGIC, MAX_OUTPUT_BUCKETS, QA, QB, SCALE, VERSION,
    VERSION_BUCKETED,
};
use crate::tools::cli::fail;
use crate::tools::common::atomic::{check_output, write_atomic};
use crate::tools::common::progress::progress_bar;
use crate::tools::data::convert::{read_any, shuffle};
use crate::tools::data::datagen::Rng;
use crate::tools::data::packed::PackedRecord;

/// Every parameter is clipped to ±CLIP after each optimiser step.
pub const CLIP: f32 = 1.98;
/// The float checkpoint magic.
const CHECKPOINT_MAGIC: &[u8; 8] = b"LULLCKPT";

/// The active features of a record: the side to move's and the other side's (at most 32
/// each, in the same order).
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// The side to move's features.
    pub us: [u16; 32],
    /// The other side's features.
    pub them: [u16; 32],
    /// How many of each.
    pub len: usize,
}

impl Features {
    /// The features of `record` (see the module header).
    #[inline]
    pub fn of(record: &PackedRecord) -> Self {
        let stm = record.side_to_move() as usize;
        let mut f = Features {
            us: [0; 32],
            them: [0; 32],
            len: 0,
        };
        for (sq, color, kind) in record.pieces().take(32) {
            let white = (usize::from(color != 0)) * 384 + kind * 64 + sq;
            let black = (usize::from(color != 1)) * 384 + kind * 64 + (sq ^ 56);
            let (us, them) = if stm == 0 {
                (white, black)
            } else {
                (black, white)
            };
            f.us[f.len] = us as u16;
            f.them[f.len] = them as u16;
            f.len += 1;
        }
        f
    }
}

/// What the network is fitted to: the blend of game result and search score, and the
/// evaluation scale that turns centipawns into a win probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    /// The weight of the game result in the target (lambda).
    pub wdl: f32,
    /// Centipawns per unit of the logistic's argument, for the search scores of the data and
    /// for the network's own centipawns (`out * SCALE`): `p = sigmoid(cp / eval_scale)`.
    /// The scale of the evaluation that scored the data (its Texel `1 / K`) makes the score
    /// half of the target agree with the result half, and the network then speaks the same
    /// centipawns as that evaluation; the file's `SCALE` (400) makes the network's
    /// centipawns the data's logistic as they stand.
    pub eval_scale: f32,
}

/// The default result weight of `lull train` (see [`Objective::wdl`]).
pub const DEFAULT_WDL: f32 = 0.0;
/// The default evaluation scale of `lull train`: centipawns per logistic unit of Lull's
/// evaluations, 1/K of the hand-crafted evaluation's Texel fit (K = 0.005860, in
/// `src/eval/weights.rs`).
pub const DEFAULT_EVAL_SCALE: f32 = 171.0;

impl Default for Objective {
    fn default() -> Self {
        Self {
            wdl: DEFAULT_WDL,
            eval_scale: DEFAULT_EVAL_SCALE,
        }
    }
}

impl Objective {
    /// The training target of `record` from the side to move's view (see the module
    /// header).
    #[inline]
    pub fn target(&self, record: &PackedRecord) -> f32 {
        let white = record.side_to_move() == Color::White;
        let cp = f32::from(record.score());
        let cp = if white { cp } else { -cp };
        let r = f32::from(record.result()) / 2.0;
        let r = if white { r } else { 1.0 - r };
        self.wdl * r + (1.0 - self.wdl) * sigmoid(cp / self.eval_scale)
    }

    /// d(logistic argument) / d(out): the network's centipawns are `out * SCALE`.
    #[inline]
    fn slope(&self) -> f32 {
        SCALE as f32 / self.eval_scale
    }

    /// The predicted win probability of the network's raw output `out`.
    #[inline]
    pub fn prediction(&self, out: f32) -> f32 {
        sigmoid(out * self.slope())
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network: all parameters in one vector, `W1` (feature-major, `768 * N`), `b1`
/// (`N`), `W2` (`2 * N` per output bucket, bucket by bucket: the side to move's
/// accumulator, then the other's) and `b2` (one per output bucket).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Neurons per accumulator.
    pub hidden: usize,
    /// Output buckets (1 or 8).
    pub buckets: usize,
    /// The parameters, in the order above.
    pub params: Vec<f32>,
}

impl Network {
    /// The number of parameters of a network with `hidden` neurons per accumulator and
    /// `buckets` output buckets.
    pub fn param_count(hidden: usize, buckets: usize) -> usize {
        INPUTS * hidden + hidden + (2 * hidden + 1) * buckets
    }

    /// A fresh network: W1 uniform in ±1/sqrt(32) / 2 (about the size that keeps the
    /// accumulators of 32 pieces in SCReLU's active range), every bucket's W2 uniform in
    /// ±1/sqrt(2N), biases zero; drawn from `seed`.
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let mut uniform = |bound: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * bound
        };
        let mut params = vec![0.0; Self::param_count(hidden, buckets)];
        let w1_bound = 0.5 / (32f32).sqrt();
        let w2_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        for p in &mut params[..INPUTS * hidden] {
            *p = uniform(w1_bound);
        }
        let w2 = INPUTS * hidden + hidden;
        for p in &mut params[w2..w2 + 2 * hidden * buckets] {
            *p = uniform(w2_bound);
        }
        Self {
            hidden,
            buckets,
            params,
        }
    }

    /// Where `b1` starts.
    fn b1_at(&self) -> usize {
        INPUTS * self.hidden
    }

    /// Where `W2` starts.
    fn w2_at(&self) -> usize {
        INPUTS * self.hidden + self.hidden
    }

    /// Where `b2` starts (the bias of bucket `k` is at `b2_at() + k`).
    fn b2_at(&self) -> usize {
        self.params.len() - self.buckets
    }

    /// The output bucket of a position with these features (0 with one bucket).
    #[inline]
    fn bucket(&self, f: &Features) -> usize {
        output_bucket(f.len, self.buckets)
    }

    /// The quantised file's header: version 1 for one output bucket, else version 2 and B.
    fn header(&self) -> Vec<u8> {
        let n = self.hidden as u32;
        let mut out = MAGIC.to_vec();
        let version = if self.buckets == 1 {
            VERSION
        } else {
            VERSION_BUCKETED
        };
        for v in [version, n, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if self.buckets != 1 {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        out
    }

    /// The accumulator of a perspective: `b1` plus the rows of its features.
    #[inline]
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let n = self.hidden;
        acc.copy_from_slice(&self.params[self.b1_at()..self.b1_at() + n]);
        for &f in features {
            let row = &self.params[f as usize * n..f as usize * n + n];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (before `* SCALE`) of the network for the side to move, with the output
    /// layer of the position's bucket, with the two accumulators left in `acc_us` and
    /// `acc_them`.
    #[inline]
    fn forward_into(&self, f: &Features, acc_us: &mut [f32], acc_them: &mut [f32]) -> f32 {
        let n = self.hidden;
        let bucket = self.bucket(f);
        self.accumulate(&f.us[..f.len], acc_us);
        self.accumulate(&f.them[..f.len], acc_them);
        let w2_at = self.w2_at() + 2 * n * bucket;
        let w2 = &self.params[w2_at..w2_at + 2 * n];
        self.params[self.b2_at() + bucket]
            + screlu_dot(acc_us, &w2[..n])
            + screlu_dot(acc_them, &w2[n..])
    }

    /// The output (before `* SCALE`) for the side to move of `record`.
    pub fn forward(&self, record: &PackedRecord) -> f32 {
        let mut us = vec![0.0; self.hidden];
        let mut them = vec![0.0; self.hidden];
        self.forward_into(&Features::of(record), &mut us, &mut them)
    }

    /// The evaluation in centipawns for the side to move of `record` (`out * SCALE`).
    pub fn eval_cp(&self, record: &PackedRecord) -> f32 {
        self.forward(record) * SCALE as f32
    }

    /// The quantised network in the `.nnue` format (docs/nnue.md),
    /// [`bucketed_file_size`] bytes: version 1 with one output bucket (as every network
    /// before output buckets), version 2 with more. Each bucket's output layer is quantised
    /// as the one output layer of version 1.
    pub fn nnue_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(bucketed_file_size(self.hidden, self.buckets));
        out.extend_from_slice(&self.header());
        let q = |x: f32, s: i32| ((x * s as f32).round() as i16).to_le_bytes();
        for &w in &self.params[..self.w2_at()] {
            out.extend_from_slice(&q(w, QA));
        }
        for &w in &self.params[self.w2_at()..self.b2_at()] {
            out.extend_from_slice(&q(w, QB));
        }
        for &b in &self.params[self.b2_at()..] {
            let b2 = (b * (QA * QB) as f32).round() as i32;
            out.extend_from_slice(&b2.to_le_bytes());
        }
        out
    }
}

/// `sum_j clamp(x[j], 0, 1)^2 * w[j]`, in eight lanes (so that it vectorises).
#[inline]
fn screlu_dot(x: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let xs = x.chunks_exact(8);
    let ws = w.chunks_exact(8);
    let tail: f32 = xs
        .remainder()
        .iter()
        .zip(ws.remainder())
        .map(|(&x, &w)| screlu(x) * w)
        .sum();
    for (xc, wc) in xs.zip(ws) {
        for k in 0..8 {
            lanes[k] += screlu(xc[k]) * wc[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// SCReLU: `clamp(x, 0, 1)^2`.
#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// One thread's scratch space and gradient.
struct Worker {
    grad: Vec<f32>,
    acc_us: Vec<f32>,
    acc_them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Worker {
    fn new(net: &Network) -> Self {
        let n = net.hidden;
        Self {
            grad: vec![0.0; net.params.len()],
            acc_us: vec![0.0; n],
            acc_them: vec![0.0; n],
            d_us: vec![0.0; n],
            d_them: vec![0.0; n],
        }
    }

    /// Adds the gradient of the summed loss of `records` to `self.grad` (scaled by
    /// `scale`); returns the summed loss.
    fn gradient(
        &mut self,
        net: &Network,
        records: impl Iterator<Item = PackedRecord>,
        objective: Objective,
        scale: f32,
    ) -> f64 {
        let n = net.hidden;
        let (b1_at, w2_at, b2_at) = (net.b1_at(), net.w2_at(), net.b2_at());
        let mut loss = 0.0f64;
        for record in records {
            let f = Features::of(&record);
            let out = net.forward_into(&f, &mut self.acc_us, &mut self.acc_them);
            let p = objective.prediction(out);
            let t = objective.target(&record);
            loss += f64::from((p - t) * (p - t));
            // d loss / d out.
            let g = 2.0 * (p - t) * p * (1.0 - p) * objective.slope() * scale;
            // Only the output layer of the position's bucket.
            let bucket = net.bucket(&f);
            self.grad[b2_at + bucket] += g;
            let w2_at = w2_at + 2 * n * bucket;
            let w2 = &net.params[w2_at..w2_at + 2 * n];
            let (gw2_us, gw2_them) = self.grad[w2_at..w2_at + 2 * n].split_at_mut(n);
            backward_output(g, &self.acc_us, &w2[..n], gw2_us, &mut self.d_us);
            backward_output(g, &self.acc_them, &w2[n..], gw2_them, &mut self.d_them);
            for ((gb, du), dt) in self.grad[b1_at..b1_at + n]
                .iter_mut()
                .zip(&self.d_us)
                .zip(&self.d_them)
            {
                *gb += du + dt;
            }
            // Only the rows of the active features.
            for (features, d) in [
                (&f.us[..f.len], &self.d_us),
                (&f.them[..f.len], &self.d_them),
            ] {
                for &feature in features {
                    let row = &mut self.grad[feature as usize * n..feature as usize * n + n];
                    for (gw, dv) in row.iter_mut().zip(d.iter()) {
                        *gw += dv;
                    }
                }
            }
        }
        loss
    }
}

/// The output layer's backward pass for one accumulator: `gw2 += g * a(acc)` and
/// `d = g * w2 * a'(acc)` (the gradient at the accumulator).
#[inline]
fn backward_output(g: f32, acc: &[f32], w2: &[f32], gw2: &mut [f32], d: &mut [f32]) {
    for (((&x, &w), gw), dv) in acc.iter().zip(w2).zip(gw2.iter_mut()).zip(d.iter_mut()) {
        let c = x.clamp(0.0, 1.0);
        *gw += g * c * c;
        // a'(x) = 2x inside (0, 1), 0 outside; 2c is that (c is 0 or 1 outside, and the
        // derivative at 1 is taken as 0).
        let inside = if x > 0.0 && x < 1.0 { 2.0 * c } else { 0.0 };
        *dv = g * w * inside;
    }
}

/// The learning-rate schedule.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub enum LrSchedule {
    /// Multiply by `--lr-gamma` every `--lr-drop-epochs` epochs.
    Step,
    /// Cosine from `--lr` down to near zero at the last epoch.
    Cosine,
}

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Epochs in all (a resumed run goes on to this epoch).
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// The learning rate of the first epoch.
    pub lr: f32,
    /// The schedule.
    pub schedule: LrSchedule,
    /// Step schedule: epochs between drops.
    pub lr_drop_epochs: usize,
    /// Step schedule: the factor of each drop.
    pub lr_gamma: f32,
    /// The target: result weight and evaluation scale.
    pub objective: Objective,
    /// AdamW's decoupled weight decay (weights only).
    pub weight_decay: f32,
    /// Threads.
    pub threads: usize,
    /// Seed of the initial weights and of each epoch's order.
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self {
            epochs: 12,
            batch: 16384,
            lr: 0.001,
            schedule: LrSchedule::Step,
            lr_drop_epochs: 5,
            lr_gamma: 0.3,
            objective: Objective::default(),
            weight_decay: 0.01,
            threads: 1,
            seed: 1,
        }
    }
}

impl TrainConfig {
    /// The learning rate of epoch `epoch` (1-based).
    pub fn lr_at(&self, epoch: usize) -> f32 {
        let e = epoch.saturating_sub(1);
        match self.schedule {
            LrSchedule::Step => {
                self.lr * self.lr_gamma.powi((e / self.lr_drop_epochs.max(1)) as i32)
            }
            LrSchedule::Cosine => {
                let x = e as f32 / self.epochs.max(1) as f32;
                self.lr * 0.5 * (1.0 + (std::f32::consts::PI * x).cos())
            }
        }
    }
}

/// The trainer: the network, AdamW's moments and how far it has got.
#[derive(Clone, Debug, PartialEq)]
pub struct Trainer {
    /// The network.
    pub net: Network,
    /// First moments.
    m: Vec<f32>,
    /// Second moments.
    v: Vec<f32>,
    /// Optimiser steps taken.
    pub step: u64,
    /// Epochs completed.
    pub epoch: usize,
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// The epoch (1-based).
    pub epoch: usize,
    /// Its learning rate.
    pub lr: f32,
    /// The mean training loss over the epoch (with the weights as they were at each batch).
    pub loss: f64,
    /// Positions trained on.
    pub positions: usize,
    /// Seconds.
    pub seconds: f64,
}

impl Trainer {
    /// A trainer with a fresh network (see [`Network::new`]).
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> Self {
        let net = Network::new(hidden, buckets, seed);
        let len = net.params.len();
        Self {
            net,
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
            epoch: 0,
        }
    }

    /// One epoch over `data` (in an order drawn from the seed and the epoch number), calling
    /// `on_batch(positions done, mean loss so far)` after each step.
    pub fn train_epoch(
        &mut self,
        config: &TrainConfig,
        data: &[PackedRecord],
        mut on_batch: impl FnMut(usize, f64),
    ) -> EpochReport {
        let start = Instant::now();
        let epoch = self.epoch + 1;
        let lr = config.lr_at(epoch);
        let mut order: Vec<u32> = (0..data.len() as u32).collect();
        shuffle(
            &mut order,
            config.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let threads = config.threads.max(1);
        let mut workers: Vec<Worker> = (0..threads).map(|_| Worker::new(&self.net)).collect();
        let mut loss_sum = 0.0;
        let mut done = 0;
        for batch in order.chunks(config.batch.max(1)) {
            let scale = 1.0 / batch.len() as f32;
            let shard = batch.len().div_ceil(threads);
            let net = &self.net;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .zip(batch.chunks(shard))
                    .map(|(w, part)| {
                        w.grad.iter_mut().for_each(|g| *g = 0.0);
                        let records = part.iter().map(|&i| data[i as usize]);
                        scope.spawn(move || w.gradient(net, records, config.objective, scale))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .collect()
            });
            loss_sum += losses.iter().sum::<f64>();
            // Sum the gradients in thread order (deterministic), into the first buffer.
            let used = batch.chunks(shard).count();
            let (first, rest) = workers.split_at_mut(1);
            for w in &rest[..used - 1] {
                for (g, o) in first[0].grad.iter_mut().zip(&w.grad) {
                    *g += o;
                }
            }
            self.adamw(&first[0].grad, lr, config.weight_decay);
            done += batch.len();
            on_batch(done, loss_sum / done as f64);
        }
        self.epoch = epoch;
        EpochReport {
            epoch,
            lr,
            loss: if done == 0 {
                0.0
            } else {
                loss_sum / done as f64
            },
            positions: done,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// One AdamW step (beta1 0.9, beta2 0.999, decay on the weights only), then the clip.
    fn adamw(&mut self, grad: &[f32], lr: f32, weight_decay: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let t = self.step as i32;
        let lr_t = lr * (1.0 - B2.powi(t)).sqrt() / (1.0 - B1.powi(t));
        let b1_at = self.net.b1_at();
        let (w2_at, b2_at) = (self.net.w2_at(), self.net.b2_at());
        for (i, (((p, m), v), &g)) in self
            .net
            .params
            .iter_mut()
            .zip(&mut self.m)
            .zip(&mut self.v)
            .zip(grad)
            .enumerate()
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let decay = if i < b1_at || (w2_at..b2_at).contains(&i) {
                lr * weight_decay * *p
            } else {
                0.0
            };
            *p = (*p - lr_t * *m / (v.sqrt() + EPS) - decay).clamp(-CLIP, CLIP);
        }
    }

    /// The float checkpoint: magic, version, N, epochs done, steps (version 2 then the
    /// number of output buckets; version 1, for one bucket, has none), then the parameters
    /// and both moments as f32, little-endian.
    pub fn checkpoint_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 12 * self.net.params.len());
        out.extend_from_slice(CHECKPOINT_MAGIC);
        let version: u32 = if self.net.buckets == 1 { 1 } else { 2 };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.net.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.epoch as u32).to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        if version == 2 {
            out.extend_from_slice(&(self.net.buckets as u32).to_le_bytes());
        }
        for part in [&self.net.params, &self.m, &self.v] {
            for x in part.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a checkpoint written by [`Trainer::checkpoint_bytes`]; the error says what is
    /// wrong.
    pub fn from_checkpoint_bytes(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < 28 || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err("not a Lull training checkpoint".to_string());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = u32_at(8);
        if version != 1 && version != 2 {
            return Err(format!("checkpoint version {version} (expected 1 or 2)"));
        }
        let hidden = u32_at(12) as usize;
        if !(1..=1 << 16).contains(&hidden) {
            return Err(format!("hidden size {hidden} out of range"));
        }
        let epoch = u32_at(16) as usize;
        let mut step = [0u8; 8];
        step.copy_from_slice(&bytes[20..28]);
        let (buckets, header) = if version == 1 {
            (1, 28)
        } else if bytes.len() < 32 {
            return Err("checkpoint of version 2 without its bucket count".to_string());
        } else {
            (u32_at(28) as usize, 32)
        };
        if version == 2 && (buckets == 1 || crate::nnue::check_output_buckets(buckets).is_err()) {
            return Err(format!(
                "{buckets} output buckets in a version 2 checkpoint (expected \
                 {MAX_OUTPUT_BUCKETS})"
            ));
        }
        let len = Network::param_count(hidden, buckets);
        if bytes.len() != header + 12 * len {
            return Err(format!(
                "checkpoint of {} bytes, expected {} for N = {hidden} and {buckets} output \
                 bucket(s)",
                bytes.len(),
                header + 12 * len
            ));
        }
        let floats: Vec<f32> = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // A file of the right size and header can still be damaged in place: every number
        // must be one training writes (the parameters within ±CLIP, the moments finite, the
        // second moment not negative), or the training would go on from NaN.
        let bad = |part: &str, i: usize, x: f32, range: &str| {
            Err(format!(
                "{part} {i} of the checkpoint is {x}, not {range}: the file is damaged"
            ))
        };
        for (i, &x) in floats[..len].iter().enumerate() {
            if !(x.is_finite() && x.abs() <= CLIP) {
                return bad("parameter", i, x, &format!("within ±{CLIP}"));
            }
        }
        for (i, &x) in floats[len..2 * len].iter().enumerate() {
            if !x.is_finite() {
                return bad("first moment", i, x, "a finite number");
            }
        }
        for (i, &x) in floats[2 * len..].iter().enumerate() {
            if !(x.is_finite() && x >= 0.0) {
                return bad("second moment", i, x, "a finite number >= 0");
            }
        }
        Ok(Self {
            net: Network {
                hidden,
                buckets,
                params: floats[..len].to_vec(),
            },
            m: floats[len..2 * len].to_vec(),
            v: floats[2 * len..].to_vec(),
            step: u64::from_le_bytes(step),
            epoch,
        })
    }
}

/// The mean loss of `net` on `data` (the spec's loss), on `threads` threads.
pub fn loss(net: &Network, data: &[PackedRecord], objective: Objective, threads: usize) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let shard = data.len().div_ceil(threads.max(1));
    let sums: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = data
            .chunks(shard)
            .map(|part| {
                scope.spawn(move || {
                    let mut us = vec![0.0; net.hidden];
                    let mut them = vec![0.0; net.hidden];
                    part.iter()
                        .map(|r| {
                            let out = net.forward_into(&Features::of(r), &mut us, &mut them);
                            let p = objective.prediction(out);
                            let t = objective.target(r);
                            f64::from((p - t) * (p - t))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .collect()
    });
    sums.iter().sum::<f64>() / data.len() as f64
}

/// Arguments of `lull train`.
#[derive(Clone, Debug, clap::Args)]
pub struct TrainArgs {
    /// Training data: packed records (`lull data merge`, `datagen --format bin`) or text lines.
    pub data: PathBuf,
    /// The quantised network to write at the end.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Validation data (e.g. the `.valid` file of `lull data merge`).
    #[arg(long, value_name = "FILE")]
    pub valid: Option<PathBuf>,
    /// Neurons per accumulator (N), a multiple of 16 from 16 to 1024 (the sizes the engine
    /// loads) [default: 128, or the checkpoint's].
    #[arg(long, value_parser = parse_hidden)]
    pub hidden: Option<u32>,
    /// Epochs in all (a resumed run goes on up to this epoch).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=100000))]
    pub epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..))]
    pub batch: u32,
    /// Learning rate of the first epoch.
    #[arg(long, default_value_t = 0.001, value_parser = positive)]
    pub lr: f32,
    /// Learning-rate schedule.
    #[arg(long, value_enum, default_value_t = LrSchedule::Step)]
    pub lr_schedule: LrSchedule,
    /// Step schedule: epochs between drops.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub lr_drop_epochs: u32,
    /// Step schedule: factor of each drop.
    #[arg(long, default_value_t = 0.3, value_parser = unit)]
    pub lr_gamma: f32,
    /// Weight of the game result in the target (lambda; 0 = score only, 1 = result only).
    /// Score only suits a few million positions from some ten thousand games: there the
    /// result half is learnt game by game (docs/nnue.md, generation 1).
    #[arg(long, default_value_t = DEFAULT_WDL, value_parser = unit)]
    pub wdl: f32,
    /// Centipawns per logistic unit, for the data's scores and the network's output:
    /// `sigmoid(cp / SCALE)`. The scale of Lull's own centipawns (the hand-crafted
    /// evaluation's Texel 1/K, which generation 1 kept) keeps the score and result halves of
    /// the target consistent and the network on the search's margins.
    #[arg(long, default_value_t = DEFAULT_EVAL_SCALE, value_parser = positive)]
    pub eval_scale: f32,
    /// AdamW's weight decay (weights only, not biases).
    #[arg(long, default_value_t = 0.01, value_parser = unit)]
    pub weight_decay: f32,
    /// Threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Seed of the initial weights and of each epoch's order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output buckets: 1 (one output layer) or 8 (one output layer for each material band,
    /// chosen by the piece count: `(pieces - 2) / 4`; the accumulators are shared)
    /// [default: 1, or the checkpoint's].
    #[arg(long, value_parser = parse_output_buckets)]
    pub output_buckets: Option<u32>,
    /// Directory for a float checkpoint (`lull-<N>-<epoch>.ckpt`) and a quantised network
    /// (`lull-<N>-<epoch>.nnue`) after every epoch.
    #[arg(long, value_name = "DIR")]
    pub checkpoint_dir: Option<PathBuf>,
    /// Go on from a float checkpoint (weights, optimiser state and epoch).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

/// A hidden size the engine loads (see [`crate::nnue::check_hidden`]).
fn parse_hidden(text: &str) -> Result<u32, String> {
    let n: u32 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    crate::nnue::check_hidden(n as usize)?;
    Ok(n)
}

/// An output bucket count the engine loads (see [`crate::nnue::check_output_buckets`]).
fn parse_output_buckets(text: &str) -> Result<u32, String> {
    let n: u32 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    crate::nnue::check_output_buckets(n as usize)?;
    Ok(n)
}

/// A number > 0.
fn positive(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{text}' is not a positive number")),
    }
}

/// A number in [0, 1].
fn unit(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number in [0, 1]")),
    }
}

/// `lull train`: exit code 2 for unreadable data, checkpoint or a bad argument, 1 when a
/// file cannot be written.
pub fn run(args: TrainArgs) -> ExitCode {
    let threads = args.threads.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let config = TrainConfig {
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        lr: args.lr,
        schedule: args.lr_schedule,
        lr_drop_epochs: args.lr_drop_epochs as usize,
        lr_gamma: args.lr_gamma,
        objective: Objective {
            wdl: args.wdl,
            eval_scale: args.eval_scale,
        },
        weight_decay: args.weight_decay,
        threads,
        seed: args.seed,
    };
    // 0. The output before any work: never one of the inputs, in a directory that takes it.
    let inputs: Vec<&Path> = [Some(&args.data), args.valid.as_ref(), args.resume.as_ref()]
        .into_iter()
        .flatten()
        .map(PathBuf::as_path)
        .collect();
    if let Err(e) = check_output(&args.output, &inputs) {
        return fail(2, e);
    }
    // 1. The trainer: fresh or from a checkpoint.
    let mut trainer = match &args.resume {
        Some(path) => {
            if let Err(e) = crate::lines::check_input_file(path) {
                return fail(2, e);
            }
            // No checkpoint is larger than one of the largest network the engine loads.
            let limit =
                32 + 12 * Network::param_count(crate::nnue::MAX_HIDDEN, MAX_OUTPUT_BUCKETS) as u64;
            let mut bytes = Vec::new();
            let read = File::open(path).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes));
            if let Err(e) = read {
                return fail(2, format!("cannot read {}: {e}", path.display()));
            }
            if bytes.len() as u64 > limit {
                return fail(
                    2,
                    format!(
                        "{}: not a Lull training checkpoint (too large)",
                        path.display()
                    ),
                );
            }
            match Trainer::from_checkpoint_bytes(&bytes) {
                Ok(t) => t,
                Err(e) => return fail(2, format!("{}: {e}", path.display())),
            }
        }
        None => Trainer::new(
            args.hidden.unwrap_or(128) as usize,
            args.output_buckets.unwrap_or(1) as usize,
            args.seed,
        ),
    };
    let hidden = trainer.net.hidden;
    let buckets = trainer.net.buckets;
    if let Err(e) = crate::nnue::check_hidden(hidden) {
        return fail(2, format!("the checkpoint's network: {e}"));
    }
    if args.hidden.is_some_and(|n| n as usize != hidden) {
        return fail(
            2,
            format!(
                "--hidden {} but the checkpoint has N = {hidden}",
                args.hidden.unwrap_or(0)
            ),
        );
    }
    if args.output_buckets.is_some_and(|b| b as usize != buckets) {
        return fail(
            2,
            format!(
                "--output-buckets {} but the checkpoint has {buckets} output bucket(s)",
                args.output_buckets.unwrap_or(0)
            ),
        );
    }
    // 2. The data.
    let data = match read_any(&args.data) {
        Ok(d) if d.is_empty() => return fail(2, format!("{}: no position", args.data.display())),
        Ok(d) => d,
        Err(e) => return fail(2, e),
    };
    let valid = match &args.valid {
        Some(path) => match read_any(path) {
            Ok(d) => d,
            Err(e) => return fail(2, e),
        },
        None => Vec::new(),
    };
    if let Some(dir) = &args.checkpoint_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return fail(2, format!("cannot create {}: {e}", dir.display()));
        }
        if let Err(e) = check_output(&dir.join(format!("lull-{hidden}-1.ckpt")), &inputs) {
            return fail(2, e);
        }
    }
    let bucket_note = if buckets == 1 {
        String::new()
    } else {
        format!(", {buckets} output buckets")
    };
    eprintln!(
        "train: (768 -> {hidden}) x 2 -> 1{bucket_note}, {} positions ({} validation), batch {}, lr {} ({:?}), wdl {}, eval scale {}, {} thread(s), seed {}",
        data.len(),
        valid.len(),
        config.batch,
        config.lr,
        config.schedule,
        config.objective.wdl,
        config.objective.eval_scale,
        threads,
        config.seed
    );
    if trainer.epoch >= config.epochs {
        eprintln!("the checkpoint has done {} epochs already", trainer.epoch);
    }
    // 3. The epochs.
    while trainer.epoch < config.epochs {
        let bar = progress_bar(data.len() as u64, "{pos}/{len} positions");
        let epoch = trainer.epoch + 1;
        bar.set_message(format!("epoch {epoch}"));
        let report = trainer.train_epoch(&config, &data, |done, loss| {
            bar.set_position(done as u64);
            bar.set_message(format!("epoch {epoch} loss {loss:.6}"));
        });
        bar.finish_and_clear();
        let valid_loss = if valid.is_empty() {
            "-".to_string()
        } else {
            format!(
                "{:.6}",
                loss(&trainer.net, &valid, config.objective, threads)
            )
        };
        println!(
            "epoch {:>3}/{}  lr {:.2e}  train loss {:.6}  valid loss {valid_loss}  {:.0} pos/s  {:.1} s",
            report.epoch,
            config.epochs,
            report.lr,
            report.loss,
            report.positions as f64 / report.seconds.max(1e-9),
            report.seconds
        );
        if let Some(dir) = &args.checkpoint_dir {
            let stem = dir.join(format!("lull-{hidden}-{}", report.epoch));
            for (ext, bytes) in [
                ("ckpt", trainer.checkpoint_bytes()),
                ("nnue", trainer.net.nnue_bytes()),
            ] {
                if let Err(e) = write_atomic(&stem.with_extension(ext), &bytes) {
                    return fail(1, e);
                }
            }
        }
    }
    // 4. The network.
    if let Err(e) = write_atomic(&args.output, &trainer.net.nnue_bytes()) {
        return fail(1, e);
    }
    println!("network written to {}", args.output.display());
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::format::{file_size, HEADER_BYTES, HEADER_BYTES_BUCKETED};
    use crate::position::{parse_fen, Position};
    use crate::tools::data::datagen::random_opening;
    use cozy_chess::Piece;

    /// `n` positions from random games, scored by material (White's view), the result the
    /// side ahead by more than a pawn winning.
    pub(super) fn material_data(n: usize, seed: u64) -> Vec<PackedRecord> {
        let mut rng = Rng::new(seed);
        let start = Position::startpos();
        (0..n)
            .map(|_| {
                let plies = 8 + rng.below(80);
                let pos = random_opening(&start, plies, &mut rng);
                let b = pos.board();
                let values = [100, 300, 300, 500, 900, 0];
                let mut score = 0;
                for (piece, v) in Piece::ALL.iter().zip(values) {
                    score += v * b.colored_pieces(Color::White, *piece).len() as i32;
                    score -= v * b.colored_pieces(Color::Black, *piece).len() as i32;
                }
                let result = if score > 100 {
                    1.0
                } else if score < -100 {
                    0.0
                } else {
                    0.5
                };
                PackedRecord::encode(b, result, score)
            })
            .collect()
    }

    /// The checks' objective: the data here are 2,000 random material positions, where a
    /// result weight keeps a small net from memorising the scores.
    const SMALL_OBJECTIVE: Objective = Objective {
        wdl: 0.3,
        eval_scale: 400.0,
    };

    fn small_config() -> TrainConfig {
        TrainConfig {
            epochs: 6,
            batch: 64,
            lr: 0.01,
            threads: 2,
            lr_drop_epochs: 4,
            objective: SMALL_OBJECTIVE,
            ..TrainConfig::default()
        }
    }

    /// A network with `buckets` output buckets trained a few epochs on material (realistic
    /// weights for the checks below).
    fn trained(hidden: usize, buckets: usize) -> (Trainer, Vec<PackedRecord>) {
        let data = material_data(2000, 9);
        let config = small_config();
        let mut trainer = Trainer::new(hidden, buckets, 3);
        for _ in 0..config.epochs {
            trainer.train_epoch(&config, &data[..1800], |_, _| {});
        }
        (trainer, data)
    }

    /// Trains `trainer` for `config.epochs` epochs on `train` and checks that the training
    /// and validation losses fall by more than half and the last epoch's loss is below the
    /// first's. Returns the epochs' reports.
    fn train_and_check_the_losses_halve(
        trainer: &mut Trainer,
        config: &TrainConfig,
        train: &[PackedRecord],
        valid: &[PackedRecord],
    ) -> Vec<EpochReport> {
        let before = (
            loss(&trainer.net, train, SMALL_OBJECTIVE, 2),
            loss(&trainer.net, valid, SMALL_OBJECTIVE, 1),
        );
        let mut reports = Vec::new();
        for _ in 0..config.epochs {
            reports.push(trainer.train_epoch(config, train, |_, _| {}));
        }
        let after = (
            loss(&trainer.net, train, SMALL_OBJECTIVE, 2),
            loss(&trainer.net, valid, SMALL_OBJECTIVE, 1),
        );
        assert!(after.0 < 0.5 * before.0, "{before:?} -> {after:?}");
        assert!(after.1 < 0.5 * before.1, "{before:?} -> {after:?}");
        assert!(
            reports.last().unwrap().loss < reports[0].loss,
            "{reports:?}"
        );
        reports
    }

    #[test]
    fn training_on_material_lowers_the_loss() {
        let data = material_data(2000, 9);
        let (train, valid) = data.split_at(1800);
        let config = small_config();
        let mut trainer = Trainer::new(32, 1, 3);
        let reports = train_and_check_the_losses_halve(&mut trainer, &config, train, valid);
        assert_eq!(trainer.epoch, 6);
        assert_eq!(reports[0].positions, 1800);
        // Every parameter stays clipped.
        assert!(trainer.net.params.iter().all(|p| p.abs() <= CLIP));
        // It learnt material: a queen up is a big plus for the side to move, and for the
        // other side a big minus.
        let up = PackedRecord::encode(
            &parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap(),
            1.0,
            900,
        );
        let down = PackedRecord::encode(
            &parse_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap(),
            1.0,
            900,
        );
        assert!(
            trainer.net.eval_cp(&up) > 200.0,
            "{}",
            trainer.net.eval_cp(&up)
        );
        assert!(
            trainer.net.eval_cp(&down) < -200.0,
            "{}",
            trainer.net.eval_cp(&down)
        );
    }

    #[test]
    fn training_is_deterministic_for_a_seed_and_thread_count() {
        let data = material_data(300, 4);
        let config = TrainConfig {
            batch: 50,
            threads: 3,
            ..small_config()
        };
        let run = |seed| {
            let mut t = Trainer::new(16, 1, seed);
            t.train_epoch(
                &TrainConfig {
                    seed,
                    ..config.clone()
                },
                &data,
                |_, _| {},
            );
            t
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5).net, run(6).net);
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let data = material_data(40, 2);
        // No position of these random games is down to 5 pieces: bucket 0 of the bucketed
        // network is never used, and its output layer gets no gradient.
        assert!(data
            .iter()
            .all(|r| output_bucket(Features::of(r).len, 8) > 0));
        for buckets in [1, 8] {
            let mut net = Network::new(8, buckets, 11);
            // Biases away from zero so that every parameter kind has a gradient.
            let (b1, b2) = (net.b1_at(), net.b2_at());
            for (j, b) in net.params[b1..b1 + 8].iter_mut().enumerate() {
                *b = 0.1 + 0.05 * j as f32;
            }
            for k in 0..buckets {
                net.params[b2 + k] = 0.05;
            }
            // The default scale, and the hand-crafted evaluation's (the slope SCALE / 171 in
            // the chain rule).
            for objective in [
                Objective::default(),
                Objective {
                    wdl: 0.3,
                    eval_scale: 171.0,
                },
            ] {
                let mut worker = Worker::new(&net);
                let scale = 1.0 / data.len() as f32;
                worker.gradient(&net, data.iter().copied(), objective, scale);
                let f = Features::of(&data[0]);
                // The output layer of the first position's bucket.
                let k = net.bucket(&f);
                let w2 = net.w2_at() + 16 * k;
                let mut probes = vec![
                    f.us[0] as usize * 8 + 2,
                    f.them[3] as usize * 8 + 5,
                    b1 + 1,
                    w2 + 3,
                    w2 + 8 + 6,
                    b2 + k,
                ];
                if buckets == 8 {
                    // Bucket 0's weights and bias: no position reaches them.
                    probes.extend([net.w2_at() + 5, b2]);
                    assert!(worker.grad[net.w2_at()..net.w2_at() + 16]
                        .iter()
                        .all(|&g| g == 0.0));
                    assert_eq!(worker.grad[b2], 0.0);
                }
                for i in probes {
                    let eps = 1e-2;
                    let mut plus = net.clone();
                    plus.params[i] += eps;
                    let mut minus = net.clone();
                    minus.params[i] -= eps;
                    let numeric = (loss(&plus, &data, objective, 1)
                        - loss(&minus, &data, objective, 1))
                        / (2.0 * eps as f64);
                    let analytic = f64::from(worker.grad[i]);
                    assert!(
                        (numeric - analytic).abs() <= 0.05 * numeric.abs().max(1e-4),
                        "B = {buckets}, {objective:?}, parameter {i}: numeric {numeric}, \
                         analytic {analytic}"
                    );
                }
            }
        }
    }

    #[test]
    fn each_position_trains_only_its_own_buckets_output_layer() {
        let data = material_data(200, 5);
        let net = Network::new(16, 8, 4);
        let n = 16;
        let mut seen = [false; 8];
        for record in &data {
            let f = Features::of(record);
            let k = net.bucket(&f);
            assert_eq!(k, (f.len - 2) / 4, "{:?}", record.fen());
            seen[k] = true;
            let mut worker = Worker::new(&net);
            worker.gradient(&net, std::iter::once(*record), Objective::default(), 1.0);
            for bucket in 0..8 {
                let w2 = net.w2_at() + 2 * n * bucket;
                let touched = worker.grad[w2..w2 + 2 * n].iter().any(|&g| g != 0.0)
                    || worker.grad[net.b2_at() + bucket] != 0.0;
                assert_eq!(touched, bucket == k, "bucket {bucket}, position in {k}");
            }
            // The shared input layer learns from every position.
            assert!(worker.grad[..net.w2_at()].iter().any(|&g| g != 0.0));
        }
        assert!(
            seen.iter().filter(|&&s| s).count() >= 3,
            "the data reach few buckets: {seen:?}"
        );
    }

    #[test]
    fn a_bucketed_network_trains_on_material() {
        // Eight output layers learn from an eighth of the positions each (about): three
        // times the positions of the one-bucket check keep the validation loss falling.
        let data = material_data(6000, 9);
        let (train, valid) = data.split_at(5400);
        let mut used = [0usize; 8];
        for r in train {
            used[output_bucket(Features::of(r).len, 8)] += 1;
        }
        assert!(
            used.iter().filter(|&&c| c >= 50).count() >= 4,
            "the positions fill few buckets: {used:?}"
        );
        let config = small_config();
        let mut trainer = Trainer::new(32, 8, 3);
        train_and_check_the_losses_halve(&mut trainer, &config, train, valid);
        assert!(trainer.net.params.iter().all(|p| p.abs() <= CLIP));
        // The buckets that saw positions moved apart: their output layers differ.
        let (w2, n) = (trainer.net.w2_at(), 2 * 32);
        let layer = |k: usize| &trainer.net.params[w2 + n * k..w2 + n * (k + 1)];
        let busy: Vec<usize> = (0..8).filter(|&k| used[k] >= 50).collect();
        assert_ne!(layer(busy[0]), layer(busy[1]));
        // Checkpoints keep the buckets.
        let bytes = trainer.checkpoint_bytes();
        assert_eq!(Trainer::from_checkpoint_bytes(&bytes).unwrap(), trainer);
    }

    /// The spec's quantised evaluation, scalar and in integers, read from `.nnue` bytes of
    /// either version (version 2: the bucket count after the header, one output layer per
    /// bucket, the bucket `(pieces - 2) / 4`).
    fn reference_eval(nnue: &[u8], record: &PackedRecord) -> i32 {
        let u32_at = |i: usize| u32::from_le_bytes(nnue[i..i + 4].try_into().unwrap());
        let n = u32_at(12) as usize;
        let (qa, qb, scale) = (u32_at(16) as i32, u32_at(20) as i32, u32_at(24) as i32);
        let (buckets, at) = match u32_at(8) {
            1 => (1, 28),
            2 => (u32_at(28) as usize, 32),
            v => panic!("version {v}"),
        };
        let f = Features::of(record);
        let bucket = if buckets == 1 {
            0
        } else {
            ((f.len - 2) / 4).min(buckets - 1)
        };
        let i16_at = |k: usize| i16::from_le_bytes([nnue[at + 2 * k], nnue[at + 1 + 2 * k]]);
        let w1 = |f: usize, j: usize| i16_at(f * n + j);
        let b1 = |j: usize| i16_at(768 * n + j);
        let w2 = |j: usize| i16_at(768 * n + n + 2 * n * bucket + j);
        let b2_at = nnue.len() - 4 * (buckets - bucket);
        let b2 = i32::from_le_bytes(nnue[b2_at..b2_at + 4].try_into().unwrap());
        let mut sum = 0i32;
        for (side, features) in [&f.us[..f.len], &f.them[..f.len]].into_iter().enumerate() {
            for j in 0..n {
                let mut acc: i16 = b1(j);
                for &feature in features {
                    acc += w1(feature as usize, j);
                }
                let c = acc.clamp(0, qa as i16);
                // The madd form: clamp * w2 in i16, then times clamp in i32.
                let partial: i16 = c * w2(side * n + j);
                sum += i32::from(partial) * i32::from(c);
            }
        }
        let s = sum / qa;
        (s + b2) * scale / (qa * qb)
    }

    /// The network with every parameter rounded to its quantisation step.
    fn dequantised(net: &Network) -> Network {
        let mut dq = net.clone();
        let (w2_at, b2_at) = (net.w2_at(), net.b2_at());
        for (i, p) in dq.params.iter_mut().enumerate() {
            let step = if i < w2_at {
                QA
            } else if i < b2_at {
                QB
            } else {
                QA * QB
            } as f32;
            *p = (*p * step).round() / step;
        }
        dq
    }

    /// The quantised network of `lull train` against its float network (the rounding's
    /// error only) and against the engine, which loads the file and evaluates every
    /// position exactly as the specification's integers say; for one output bucket and
    /// for eight.
    fn check_quantised_network(buckets: usize) {
        let (trainer, data) = trained(32, buckets);
        let nnue = trainer.net.nnue_bytes();
        let engine = crate::nnue::Network::from_bytes(&nnue).expect("the engine loads it");
        assert_eq!(engine.output_buckets(), buckets);
        assert_eq!(engine.to_bytes(), nnue);
        let dq = dequantised(&trainer.net);
        let perft = include_str!("../../../assets/perft/ethereal_standard.epd")
            .lines()
            .chain(
                include_str!("../../../assets/perft/frc_perftsuite.epd")
                    .lines()
                    .take(100),
            );
        let mut records: Vec<PackedRecord> = perft
            .map(|l| parse_fen(l.split(';').next().unwrap()).unwrap())
            .map(|b| PackedRecord::encode(&b, 0.5, 0))
            .collect();
        records.extend_from_slice(&data[1800..]);
        let mut buckets_seen = std::collections::BTreeSet::new();
        let (mut sum, mut worst) = (0.0f32, 0.0f32);
        for record in &records {
            let quantised = reference_eval(&nnue, record);
            let (board, _, _) = record.decode().unwrap();
            assert_eq!(
                engine.evaluate(&board),
                quantised,
                "B = {buckets}: {:?}",
                record.fen()
            );
            buckets_seen.insert(engine.bucket(&board));
            let quantised = quantised as f32;
            // The integer arithmetic is the float model of the rounded weights, up to the
            // truncating divisions (at most 1 cp).
            let exact = dq.eval_cp(record);
            assert!(
                (quantised - exact).abs() <= 1.1,
                "B = {buckets}: {:?}: {exact} vs {quantised}",
                record.fen()
            );
            // Against the float network itself the rounding of the weights adds its error
            // (W2's step is 1/64): at most 20 cp + 2 %, a few cp on average.
            let float = trainer.net.eval_cp(record);
            let err = (quantised - float).abs();
            assert!(
                err <= 20.0 + 0.02 * float.abs(),
                "B = {buckets}: {:?}: float {float}, quantised {quantised}",
                record.fen()
            );
            sum += err;
            worst = worst.max(err);
        }
        let mean = sum / records.len() as f32;
        assert!(mean <= 5.0, "mean error {mean} cp, worst {worst} cp");
        assert!(worst > 0.0, "the quantisation changes something");
        if buckets == 8 {
            assert_eq!(buckets_seen.len(), 8, "{buckets_seen:?}");
        }
    }

    #[test]
    fn the_quantised_network_agrees_with_the_float_one() {
        check_quantised_network(1);
    }

    #[test]
    fn the_quantised_bucketed_network_agrees_with_the_float_one_and_the_engine() {
        check_quantised_network(8);
    }

    #[test]
    fn the_nnue_file_has_the_spec_size_and_header() {
        for hidden in [8, 64, 128] {
            let net = Network::new(hidden, 1, 1);
            let bytes = net.nnue_bytes();
            assert_eq!(bytes.len(), file_size(hidden));
            assert_eq!(
                bytes.len(),
                28 + 2 * (768 * hidden + hidden + 2 * hidden) + 4
            );
            assert_eq!(&bytes[..8], b"LULLNNUE");
            let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
            assert_eq!(
                [u32_at(8), u32_at(12), u32_at(16), u32_at(20), u32_at(24)],
                [1, hidden as u32, 255, 64, 400]
            );
            // W1 feature-major: feature 5, neuron 3.
            let k = 5 * hidden + 3;
            let w = i16::from_le_bytes([bytes[28 + 2 * k], bytes[29 + 2 * k]]);
            assert_eq!(w, (net.params[k] * 255.0).round() as i16);
        }
        assert_eq!(file_size(128), 197_408);
        // Eight output buckets: version 2, B after the header, 2N weights and one bias per
        // bucket.
        for hidden in [16, 128] {
            let net = Network::new(hidden, 8, 2);
            let bytes = net.nnue_bytes();
            assert_eq!(bytes.len(), bucketed_file_size(hidden, 8));
            assert_eq!(
                bytes.len(),
                32 + 2 * (768 * hidden + hidden + 8 * 2 * hidden) + 8 * 4
            );
            let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
            assert_eq!(
                [
                    u32_at(8),
                    u32_at(12),
                    u32_at(16),
                    u32_at(20),
                    u32_at(24),
                    u32_at(28)
                ],
                [2, hidden as u32, 255, 64, 400, 8]
            );
            let i16_at = |k: usize| {
                let at = HEADER_BYTES_BUCKETED + 2 * k;
                i16::from_le_bytes([bytes[at], bytes[at + 1]])
            };
            let k = 5 * hidden + 3;
            assert_eq!(i16_at(k), (net.params[k] * 255.0).round() as i16);
            // Bucket 6's output weight 7 of the other side's half.
            let k = 768 * hidden + hidden + 6 * 2 * hidden + hidden + 7;
            assert_eq!(i16_at(k), (net.params[k] * 64.0).round() as i16);
            assert_ne!(i16_at(k), 0);
            let engine = crate::nnue::Network::from_bytes(&bytes).unwrap();
            assert_eq!(engine.output_buckets(), 8);
            assert_eq!(engine.output_biases(), &[0; 8]);
        }
        assert_eq!(HEADER_BYTES_BUCKETED, HEADER_BYTES + 4);
        // The sizes docs/nnue.md gives.
        assert_eq!(file_size(64), 98_720);
        assert_eq!(bucketed_file_size(128, 8), 201_024);
        assert_eq!(bucketed_file_size(64, 8), 100_544);
    }

    #[test]
    fn checkpoints_round_trip_and_bad_ones_are_refused() {
        let mut trainer = Trainer::new(8, 1, 2);
        trainer.train_epoch(&small_config(), &material_data(100, 1), |_, _| {});
        let bytes = trainer.checkpoint_bytes();
        assert_eq!(Trainer::from_checkpoint_bytes(&bytes).unwrap(), trainer);
        assert!(Trainer::from_checkpoint_bytes(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("expected"));
        assert!(Trainer::from_checkpoint_bytes(b"LULLNNUE")
            .unwrap_err()
            .contains("not a Lull"));
        let mut wrong = bytes.clone();
        wrong[8] = 9;
        assert!(Trainer::from_checkpoint_bytes(&wrong)
            .unwrap_err()
            .contains("version"));
        // A bucketed checkpoint: version 2 with its bucket count.
        let mut trainer = Trainer::new(16, 8, 2);
        trainer.train_epoch(&small_config(), &material_data(100, 1), |_, _| {});
        let bytes = trainer.checkpoint_bytes();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
        assert_eq!(Trainer::from_checkpoint_bytes(&bytes).unwrap(), trainer);
        for (b, words) in [
            (3u32, "3 output buckets"),
            (1, "1 output buckets"),
            (0, "0 output buckets"),
        ] {
            let mut wrong = bytes.clone();
            wrong[28..32].copy_from_slice(&b.to_le_bytes());
            let e = Trainer::from_checkpoint_bytes(&wrong).unwrap_err();
            assert!(e.contains(words), "{e}");
        }
        let e = Trainer::from_checkpoint_bytes(&bytes[..bytes.len() - 4]).unwrap_err();
        assert!(e.contains("8 output bucket(s)"), "{e}");
        assert!(Trainer::from_checkpoint_bytes(&bytes[..30])
            .unwrap_err()
            .contains("bucket count"));
        // Damaged in place (size and header as they were): a parameter made NaN or too
        // large, a moment made infinite or negative, each refused and named.
        let len = Network::param_count(16, 8);
        for (at, value, words) in [
            (7, f32::NAN, "parameter 7"),
            (len - 1, 1e30, &format!("parameter {}", len - 1)),
            (len + 3, f32::INFINITY, "first moment 3"),
            (2 * len + 5, -1.0, "second moment 5"),
        ] {
            let mut wrong = bytes.clone();
            wrong[32 + 4 * at..32 + 4 * at + 4].copy_from_slice(&value.to_le_bytes());
            let e = Trainer::from_checkpoint_bytes(&wrong).unwrap_err();
            assert!(e.contains(words) && e.contains("damaged"), "{e}");
        }
    }

    #[test]
    fn the_schedules_and_the_targets() {
        let step = TrainConfig {
            lr: 0.001,
            lr_drop_epochs: 2,
            lr_gamma: 0.5,
            ..TrainConfig::default()
        };
        let lrs: Vec<f32> = (1..=5).map(|e| step.lr_at(e)).collect();
        assert_eq!(lrs, [0.001, 0.001, 0.0005, 0.0005, 0.00025]);
        let cosine = TrainConfig {
            schedule: LrSchedule::Cosine,
            epochs: 4,
            ..step
        };
        assert_eq!(cosine.lr_at(1), 0.001);
        assert!((cosine.lr_at(3) - 0.0005).abs() < 1e-9);
        assert!(cosine.lr_at(4) < cosine.lr_at(3));
        // Targets from the side to move's view: a White win with +400 for White is
        // 0.3 * 1 + 0.7 * sigmoid(1) for White, 0.3 * 0 + 0.7 * sigmoid(-1) for Black.
        let white = parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let black = parse_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        let objective = Objective {
            wdl: 0.3,
            eval_scale: 400.0,
        };
        let t = objective.target(&PackedRecord::encode(&white, 1.0, 400));
        assert!((t - (0.3 + 0.7 * sigmoid(1.0))).abs() < 1e-6);
        let t = objective.target(&PackedRecord::encode(&black, 1.0, 400));
        assert!((t - 0.7 * sigmoid(-1.0)).abs() < 1e-6);
        // With the scale 200, +400 is two logistic units, and so is an output of 1.0
        // (400 cp of the network).
        let objective = Objective {
            wdl: 0.0,
            eval_scale: 200.0,
        };
        let t = objective.target(&PackedRecord::encode(&white, 1.0, 400));
        assert!((t - sigmoid(2.0)).abs() < 1e-6);
        assert!((objective.prediction(1.0) - sigmoid(2.0)).abs() < 1e-6);
        // Features: White's king on e1 is feature 5 * 64 + 4 for White, 384 + 5 * 64 + 60
        // for Black.
        let f = Features::of(&PackedRecord::encode(&white, 0.5, 0));
        assert_eq!(f.len, 3);
        assert!(f.us[..3].contains(&(5 * 64 + 4)));
        assert!(f.them[..3].contains(&(384 + 5 * 64 + 60)));
        let f = Features::of(&PackedRecord::encode(&black, 0.5, 0));
        assert!(f.them[..3].contains(&(5 * 64 + 4)));
        assert!(f.us[..3].contains(&(384 + 5 * 64 + 60)));
    }
}

//! The NNUE evaluation: the incremental accumulators against a fresh refresh over random
//! games (every kind of move, Chess960 castling included), the output against a scalar
//! reference (with one output bucket and with eight) and against the float model, the file
//! format (round trip, every bad file, the shipped networks), the options, and searches with
//! a network. The networks are random, from a seeded generator: no file is needed, except
//! for the check of the networks in `nets/`.

// The reference implementations below index as the specification's formulas do.
#![allow(clippy::needless_range_loop)]

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use cozy_chess::{Board, Color, Move, Piece};
use lull::bench::run_bench;
use lull::nnue::{bucketed_file_size, file_size, Network, MAGIC, QA, QB, SCALE};
use lull::options::apply_option;
use lull::position::{Position, STARTPOS_FEN};
use lull::search::stack::NnueStack;
use lull::search::Engine;
use lull::time::Limits;

/// SplitMix64: a small seeded generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// Uniform in `[lo, hi)`.
    fn float(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The quantised weights of a network, as the test writes them (independently of the
/// engine's reader).
#[derive(Clone)]
struct Weights {
    hidden: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// One output layer of `2 * hidden` weights per bucket, bucket by bucket.
    w2: Vec<i16>,
    /// One output bias per bucket: its length is the bucket count.
    b2: Vec<i32>,
}

impl Weights {
    /// Random integer weights of realistic size: accumulators stay far inside i16.
    fn random(hidden: usize, seed: u64) -> Self {
        let mut rng = Rng(seed);
        let mut v =
            |n: usize, lo, hi| -> Vec<i16> { (0..n).map(|_| rng.int(lo, hi) as i16).collect() };
        let w1 = v(768 * hidden, -60, 60);
        let b1 = v(hidden, -40, 200);
        let w2 = v(2 * hidden, -127, 127);
        let b2 = vec![Rng(seed ^ 1).int(-200_000, 200_000) as i32];
        Self {
            hidden,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// The same input layer with `buckets` random output layers instead of the one.
    fn with_buckets(&self, buckets: usize, seed: u64) -> Self {
        let mut rng = Rng(seed);
        let w2 = (0..2 * self.hidden * buckets)
            .map(|_| rng.int(-127, 127) as i16)
            .collect();
        let b2 = (0..buckets)
            .map(|_| rng.int(-200_000, 200_000) as i32)
            .collect();
        Self {
            w2,
            b2,
            ..self.clone()
        }
    }

    fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The file, written from the specification: version 1 for one output bucket, version 2
    /// (with the bucket count after SCALE) for more.
    fn bytes(&self) -> Vec<u8> {
        let mut out = b"LULLNNUE".to_vec();
        let version = if self.buckets() == 1 { 1u32 } else { 2 };
        for v in [version, self.hidden as u32, 255, 64, 400] {
            out.extend(v.to_le_bytes());
        }
        if version == 2 {
            out.extend((self.buckets() as u32).to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend(w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend(b.to_le_bytes());
        }
        out
    }

    /// A file read by the specification, version 1 (one output bucket) or 2 (the bucket
    /// count after SCALE), for the shipped networks.
    fn from_file(bytes: &[u8]) -> Self {
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        assert_eq!(&bytes[..8], b"LULLNNUE");
        let version = u32_at(8);
        let hidden = u32_at(12) as usize;
        let (buckets, start) = match version {
            1 => (1, 28),
            2 => (u32_at(28) as usize, 32),
            v => panic!("version {v}"),
        };
        let end = bytes.len() - 4 * buckets;
        let i16s: Vec<i16> = bytes[start..end]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(i16s.len(), 768 * hidden + hidden + 2 * hidden * buckets);
        let (w1, rest) = i16s.split_at(768 * hidden);
        let (b1, w2) = rest.split_at(hidden);
        let b2 = bytes[end..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Self {
            hidden,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2,
        }
    }

    fn network(&self) -> Network {
        Network::from_bytes(&self.bytes()).expect("a valid network")
    }

    /// The specification's feature index, written again here.
    fn feature(p: Color, c: Color, t: Piece, s: usize) -> usize {
        (if c == p { 0 } else { 384 })
            + t as usize * 64
            + if p == Color::White { s } else { s ^ 56 }
    }

    /// The accumulator of one perspective, from scratch, in i64.
    fn accumulator(&self, board: &Board, p: Color) -> Vec<i64> {
        let n = self.hidden;
        let mut acc: Vec<i64> = self.b1.iter().map(|&b| i64::from(b)).collect();
        for c in Color::ALL {
            for t in Piece::ALL {
                for sq in board.colored_pieces(c, t) {
                    let f = Self::feature(p, c, t, sq as usize);
                    for j in 0..n {
                        acc[j] += i64::from(self.w1[f * n + j]);
                    }
                }
            }
        }
        acc
    }

    /// The output bucket of the specification: `(pieces - 2) / 4` with eight buckets.
    fn bucket(&self, board: &Board) -> usize {
        match self.buckets() {
            1 => 0,
            8 => (board.occupied().len() as usize - 2) / 4,
            b => panic!("{b} buckets"),
        }
    }

    /// The quantised output of the specification, straightforwardly: squares of the clamped
    /// accumulators times the output weights of the position's bucket, `/ QA`, `+ b2`,
    /// `* SCALE / (QA * QB)`.
    fn reference_output(&self, board: &Board) -> i32 {
        let n = self.hidden;
        let stm = board.side_to_move();
        let us = self.accumulator(board, stm);
        let them = self.accumulator(board, !stm);
        let k = self.bucket(board);
        let w2 = &self.w2[2 * n * k..2 * n * (k + 1)];
        let mut s: i64 = 0;
        for j in 0..n {
            s += us[j].clamp(0, 255).pow(2) * i64::from(w2[j]);
            s += them[j].clamp(0, 255).pow(2) * i64::from(w2[n + j]);
        }
        let s = s / 255;
        ((s + i64::from(self.b2[k])) * 400 / (255 * 64)) as i32
    }
}

/// A float network of the trainer's model.
struct FloatNet {
    hidden: usize,
    w1: Vec<f64>,
    b1: Vec<f64>,
    w2: Vec<f64>,
    b2: f64,
}

impl FloatNet {
    fn random(hidden: usize, seed: u64) -> Self {
        let mut rng = Rng(seed);
        let w1 = (0..768 * hidden).map(|_| rng.float(-0.2, 0.2)).collect();
        let b1 = (0..hidden).map(|_| rng.float(-0.1, 0.6)).collect();
        let w2 = (0..2 * hidden).map(|_| rng.float(-0.4, 0.4)).collect();
        let b2 = rng.float(-0.3, 0.3);
        Self {
            hidden,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// Quantised as the specification says.
    fn quantise(&self) -> Weights {
        let q =
            |w: &[f64], k: f64| -> Vec<i16> { w.iter().map(|x| (x * k).round() as i16).collect() };
        Weights {
            hidden: self.hidden,
            w1: q(&self.w1, 255.0),
            b1: q(&self.b1, 255.0),
            w2: q(&self.w2, 64.0),
            b2: vec![(self.b2 * 255.0 * 64.0).round() as i32],
        }
    }

    /// The same weights read back from their quantised values.
    fn dequantise(w: &Weights) -> Self {
        let d = |v: &[i16], k: f64| -> Vec<f64> { v.iter().map(|&x| f64::from(x) / k).collect() };
        Self {
            hidden: w.hidden,
            w1: d(&w.w1, 255.0),
            b1: d(&w.b1, 255.0),
            w2: d(&w.w2, 64.0),
            b2: f64::from(w.b2[0]) / (255.0 * 64.0),
        }
    }

    /// The standard deviation, in centipawns, of what rounding the weights to the
    /// specification's steps (1/QA for the hidden layer, 1/QB for the output weights) changes
    /// in this network's evaluation of `board`, each rounding error taken as uniform and
    /// independent: the output weights' `a(h_j) * e`, and the hidden layer's errors (one per
    /// active feature and the bias) through the slope `2 h_j W2_j` of SCReLU.
    fn rounding_sigma_cp(&self, board: &Board) -> f64 {
        let n = self.hidden;
        let stm = board.side_to_move();
        let active = board.occupied().len() as f64 + 1.0;
        let step = |k: f64| 1.0 / (k * k * 12.0);
        let mut var = step(255.0 * 64.0);
        for (half, p) in [(0, stm), (n, !stm)] {
            let h = self.hidden_layer(board, p);
            for j in 0..n {
                let x = h[j].clamp(0.0, 1.0);
                var += x.powi(4) * step(64.0);
                if h[j] > 0.0 && h[j] < 1.0 {
                    var += (2.0 * x * self.w2[half + j]).powi(2) * active * step(255.0);
                }
            }
        }
        400.0 * var.sqrt()
    }

    /// The hidden layer of perspective `p`, before the activation.
    fn hidden_layer(&self, board: &Board, p: Color) -> Vec<f64> {
        let n = self.hidden;
        let mut h = self.b1.clone();
        for c in Color::ALL {
            for t in Piece::ALL {
                for sq in board.colored_pieces(c, t) {
                    let f = Weights::feature(p, c, t, sq as usize);
                    for j in 0..n {
                        h[j] += self.w1[f * n + j];
                    }
                }
            }
        }
        h
    }

    /// The trainer's `out * SCALE`, in centipawns (not rounded).
    fn eval_cp(&self, board: &Board) -> f64 {
        let n = self.hidden;
        let stm = board.side_to_move();
        let a = |x: f64| x.clamp(0.0, 1.0).powi(2);
        let (us, them) = (
            self.hidden_layer(board, stm),
            self.hidden_layer(board, !stm),
        );
        let mut out = self.b2;
        for j in 0..n {
            out += a(us[j]) * self.w2[j] + a(them[j]) * self.w2[n + j];
        }
        out * 400.0
    }
}

/// Start positions for the random games: the start position, Kiwipete (both castlings),
/// an en passant at once, promotions on both sides, and Chess960 positions (Shredder-FEN)
/// whose castlings move only the rook or only the king.
const STARTS: &[&str] = &[
    STARTPOS_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R w KQkq c6 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",
    "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
];

/// The Chess960 positions of [`STARTS`].
fn is_chess960(fen: &str) -> bool {
    !fen.contains("KQkq") && !fen.contains(" - - ")
}

/// What kinds of move the random games played.
#[derive(Default, Debug)]
struct Kinds {
    quiet: u32,
    captures: u32,
    promotions: u32,
    capture_promotions: u32,
    en_passant: u32,
    castle_short: u32,
    castle_long: u32,
    castle_960: u32,
    nulls: u32,
}

/// A random legal move, preferring the rare kinds (castling, en passant, promotions, the
/// double pawn pushes that allow en passant, captures) so that every kind is played often.
fn pick(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let rare: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| {
            let double_push = pos.board().piece_on(m.from) == Some(Piece::Pawn)
                && (m.to.rank() as i32 - m.from.rank() as i32).abs() == 2;
            pos.is_castling(m) || pos.is_en_passant(m) || m.promotion.is_some() || double_push
        })
        .collect();
    if !rare.is_empty() && rng.below(2) == 0 {
        return Some(rare[rng.below(rare.len())]);
    }
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| pos.is_capture(m))
        .collect();
    if !captures.is_empty() && rng.below(3) == 0 {
        return Some(captures[rng.below(captures.len())]);
    }
    Some(moves[rng.below(moves.len())])
}

fn count(pos: &Position, mv: Move, chess960: bool, kinds: &mut Kinds) {
    if pos.is_castling(mv) {
        if chess960 {
            kinds.castle_960 += 1;
        } else if mv.to.file() > mv.from.file() {
            kinds.castle_short += 1;
        } else {
            kinds.castle_long += 1;
        }
    } else if pos.is_en_passant(mv) {
        kinds.en_passant += 1;
    } else if mv.promotion.is_some() && pos.is_capture(mv) {
        kinds.capture_promotions += 1;
    } else if mv.promotion.is_some() {
        kinds.promotions += 1;
    } else if pos.is_capture(mv) {
        kinds.captures += 1;
    } else {
        kinds.quiet += 1;
    }
}

#[test]
fn incremental_accumulators_equal_a_fresh_refresh_over_random_games() {
    let weights = Weights::random(32, 7);
    let net = weights.network();
    let mut portable = net.clone();
    portable.use_portable_loops();
    // Eight output buckets on the same input layer: the same accumulators, the output layer
    // of each position's bucket, the AVX2 and plain loops bit for bit.
    let bucketed = weights.with_buckets(8, 17);
    let bucketed_net = bucketed.network();
    assert_eq!(bucketed_net.output_buckets(), 8);
    let mut bucketed_portable = bucketed_net.clone();
    bucketed_portable.use_portable_loops();
    let mut buckets_seen = [0u32; 8];
    let mut rng = Rng(2024);
    let mut kinds = Kinds::default();
    let mut checked = 0;
    // Five games of 120 plies from each start (castling comes early or never).
    for fen in STARTS.iter().flat_map(|f| [f; 5]) {
        let chess960 = is_chess960(fen);
        let mut pos = Position::from_fen(fen).unwrap();
        let mut acc = net.new_accumulator();
        net.refresh(pos.board(), &mut acc);
        for _ in 0..120 {
            let parent = pos.board().clone();
            if !pos.in_check() && rng.below(20) == 0 {
                assert!(pos.play_null());
                kinds.nulls += 1;
            } else {
                let Some(mv) = pick(&pos, &mut rng).filter(|_| pos.board().halfmove_clock() < 100)
                else {
                    // The game ended: start again.
                    pos = Position::from_fen(fen).unwrap();
                    net.refresh(pos.board(), &mut acc);
                    continue;
                };
                count(&pos, mv, chess960, &mut kinds);
                pos.play(mv);
            }
            let mut child = net.new_accumulator();
            net.update(&acc, &parent, pos.board(), &mut child);
            let mut fresh = net.new_accumulator();
            net.refresh(pos.board(), &mut fresh);
            assert_eq!(
                child,
                fresh,
                "{} after {}",
                pos.fen(),
                Position::from_board(parent.clone()).fen()
            );
            // The plain loops give the same numbers as the vectorised ones.
            let mut plain = portable.new_accumulator();
            portable.update(&acc, &parent, pos.board(), &mut plain);
            assert_eq!(plain, child);
            assert_eq!(
                portable.output(&plain, pos.board()),
                net.output(&child, pos.board())
            );
            // And the evaluation is the specification's.
            assert_eq!(
                net.output(&child, pos.board()),
                weights.reference_output(pos.board()),
                "{}",
                pos.fen()
            );
            // The bucketed network, from the same accumulators.
            let bucket = bucketed_net.bucket(pos.board());
            buckets_seen[bucket] += 1;
            let got = bucketed_net.output(&child, pos.board());
            assert_eq!(bucketed_portable.output(&plain, pos.board()), got);
            assert_eq!(got, bucketed.reference_output(pos.board()), "{}", pos.fen());
            assert_eq!(
                got,
                bucketed_net.output_in_bucket(&child, pos.side_to_move(), bucket)
            );
            acc = child;
            checked += 1;
        }
    }
    assert!(checked >= 4000, "{checked}");
    for (what, n) in [
        ("quiet moves", kinds.quiet),
        ("captures", kinds.captures),
        ("promotions", kinds.promotions),
        ("capturing promotions", kinds.capture_promotions),
        ("en passant captures", kinds.en_passant),
        ("short castlings", kinds.castle_short),
        ("long castlings", kinds.castle_long),
        ("Chess960 castlings", kinds.castle_960),
        ("null moves", kinds.nulls),
    ] {
        assert!(n >= 5, "only {n} {what}: {kinds:?}");
    }
    assert!(
        buckets_seen.iter().filter(|&&n| n >= 20).count() >= 6,
        "the games reach few buckets: {buckets_seen:?}"
    );
}

/// The search's stack of accumulators, driven as the search drives it: moves, null moves and
/// undos in random order, evaluations now and then (so that several plies are brought up to
/// date at once), always equal to an evaluation from scratch.
#[test]
fn the_search_stack_evaluates_like_a_fresh_network() {
    let one = Weights::random(48, 11);
    let nets = [one.network(), one.with_buckets(8, 12).network()];
    let mut rng = Rng(99);
    let mut stack = NnueStack::default();
    let mut evaluated = 0;
    for (fen, net) in STARTS.iter().flat_map(|f| nets.iter().map(move |n| (f, n))) {
        let net = Arc::new(net.clone());
        let mut pos = Position::from_fen(fen).unwrap();
        // A game before the root: the stack counts plies from the root, not the game start.
        for _ in 0..4 {
            if let Some(mv) = pick(&pos, &mut rng) {
                pos.play(mv);
            }
        }
        let root_ply = pos.game_ply();
        stack.start(Some(Arc::clone(&net)), &pos);
        assert!(stack.is_active());
        for _ in 0..600 {
            let depth = pos.game_ply() - root_ply;
            let roll = rng.below(10);
            if depth > 0 && (roll < 3 || depth >= 30) {
                pos.undo();
            } else if roll == 3 && !pos.in_check() {
                assert!(pos.play_null());
                stack.played(&pos);
            } else if let Some(mv) = pick(&pos, &mut rng) {
                pos.play(mv);
                stack.played(&pos);
            } else if depth > 0 {
                pos.undo();
            }
            if rng.below(3) == 0 {
                assert_eq!(
                    stack.evaluate(&pos),
                    net.evaluate(pos.board()),
                    "{}",
                    pos.fen()
                );
                evaluated += 1;
            }
        }
    }
    assert!(evaluated > 2000, "{evaluated}");
    // Without a network the stack is inactive.
    stack.start(None, &Position::startpos());
    assert!(!stack.is_active());
}

/// Positions for the output checks: quiet, tactical, endgames, both sides to move.
const FIXED: &[&str] = &[
    STARTPOS_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1",
];

#[test]
fn the_output_is_the_specifications_integer_for_integer() {
    for (hidden, seed) in [(16, 1), (32, 2), (128, 3), (1024, 4)] {
        let one = Weights::random(hidden, seed);
        for weights in [one.clone(), one.with_buckets(8, seed + 10)] {
            let net = weights.network();
            let buckets = weights.buckets();
            let mut portable = net.clone();
            portable.use_portable_loops();
            let mut nonzero = 0;
            for fen in FIXED {
                let board = Position::from_fen(fen).unwrap().board().clone();
                let reference = weights.reference_output(&board);
                assert_eq!(
                    net.evaluate(&board),
                    reference,
                    "N={hidden} B={buckets} {fen}"
                );
                assert_eq!(
                    portable.evaluate(&board),
                    reference,
                    "N={hidden} B={buckets} {fen}"
                );
                nonzero += i32::from(reference != 0);
            }
            assert!(
                nonzero >= 4,
                "N={hidden} B={buckets}: the outputs are mostly zero"
            );
        }
    }
}

/// Each bucket's output layer is the one the position's piece count names, and no other:
/// in a network whose buckets differ only in their biases, each position's evaluation is
/// the one-bucket network's plus its bucket's bias.
#[test]
fn each_position_is_evaluated_with_its_buckets_output_layer() {
    let one = Weights::random(16, 21);
    let mut bucketed = one.with_buckets(8, 22);
    // Every bucket gets the one-bucket network's output weights, and the bias plus
    // k * 4080, which is k * 100 cp (4080 * 400 / (255 * 64) = 100).
    bucketed.w2 = one.w2.repeat(8);
    bucketed.b2 = (0..8).map(|k| one.b2[0] + k * 4080).collect();
    let (plain, net) = (one.network(), bucketed.network());
    let mut seen = [0u32; 8];
    for fen in FIXED.iter().chain(STARTS) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut rng = Rng(fen.len() as u64);
        for _ in 0..150 {
            let board = pos.board();
            let k = (board.occupied().len() as usize - 2) / 4;
            assert_eq!(net.bucket(board), k);
            seen[k] += 1;
            let got = net.evaluate(board);
            assert_eq!(got, bucketed.reference_output(board), "{}", pos.fen());
            // Within a centipawn of the bias (the truncating division).
            let delta = got - plain.evaluate(board) - 100 * k as i32;
            assert!(delta.abs() <= 1, "{}: bucket {k}, {delta}", pos.fen());
            let Some(mv) = pick(&pos, &mut rng) else {
                break;
            };
            pos.play(mv);
        }
    }
    assert!(
        seen.iter().filter(|&&n| n > 0).count() >= 6,
        "the games reach few buckets: {seen:?}"
    );
}

/// The quantised network against the float model of the trainer. Against the quantised
/// weights read back as floats only the two truncating divisions differ: at most 1 cp.
/// Against the float weights before rounding, the rounding itself moves the evaluation by a
/// few centipawns (for these random networks its standard deviation, computed per position,
/// is 2 to 8 cp, which no fixed "2 cp + 1 %" covers): the difference must stay within 1 cp
/// plus four of those standard deviations. A wrong scale, a swapped perspective or a wrong
/// feature index is off by far more.
#[test]
fn the_output_matches_the_float_model() {
    let mut worst = 0.0f64;
    for (hidden, seed) in [(16, 5), (32, 6), (64, 7), (128, 8)] {
        let float = FloatNet::random(hidden, seed);
        let weights = float.quantise();
        let net = weights.network();
        let exact = FloatNet::dequantise(&weights);
        let mut nontrivial = 0;
        for fen in FIXED {
            let board = Position::from_fen(fen).unwrap().board().clone();
            let got = f64::from(net.evaluate(&board));
            let want = exact.eval_cp(&board);
            assert!(
                (got - want).abs() <= 1.0,
                "N={hidden} {fen}: {got} vs {want}"
            );
            let want = float.eval_cp(&board);
            let sigma = float.rounding_sigma_cp(&board);
            let delta = (got - want).abs();
            assert!(
                delta <= 1.0 + 4.0 * sigma,
                "N={hidden} {fen}: {got} vs {want:.2} (rounding sigma {sigma:.2} cp)"
            );
            worst = worst.max(delta / sigma);
            nontrivial += i32::from(want.abs() > 20.0);
        }
        assert!(
            nontrivial >= 4,
            "N={hidden}: the evaluations are mostly near 0"
        );
    }
    eprintln!("largest difference from the float model: {worst:.2} rounding sigmas");
}

#[test]
fn files_round_trip_identically() {
    for hidden in [16, 128, 1024] {
        let one = Weights::random(hidden, hidden as u64);
        for weights in [one.clone(), one.with_buckets(8, hidden as u64 + 1)] {
            let buckets = weights.buckets();
            let bytes = weights.bytes();
            assert_eq!(bytes.len(), bucketed_file_size(hidden, buckets));
            let net = Network::from_bytes(&bytes).unwrap();
            assert_eq!(net.hidden(), hidden);
            assert_eq!(net.output_buckets(), buckets);
            assert_eq!(net.to_bytes(), bytes);
            assert_eq!(net.input_weights(), &weights.w1[..]);
            assert_eq!(net.hidden_biases(), &weights.b1[..]);
            assert_eq!(net.output_weights(), &weights.w2[..]);
            assert_eq!(net.output_biases(), &weights.b2[..]);
            assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
            // Written to a file and loaded back: the same network.
            let path = temp_file(&format!("round-trip-{hidden}-{buckets}.nnue"), &bytes);
            assert_eq!(Network::load(&path).unwrap(), net);
            let _ = std::fs::remove_file(path);
        }
        assert_eq!(file_size(hidden), bucketed_file_size(hidden, 1));
        // Seven more output layers: 7 * (2N weights + 1 bias), and B in the header.
        assert_eq!(
            bucketed_file_size(hidden, 8),
            file_size(hidden) + 4 + 7 * (2 * 2 * hidden + 4)
        );
    }
    // A bucketed network differs from its one-bucket twin.
    let one = Weights::random(16, 40);
    assert_ne!(one.network(), one.with_buckets(8, 41).network());
    assert_eq!(&MAGIC[..], b"LULLNNUE");
    assert_eq!((QA, QB, SCALE), (255, 64, 400));
}

/// The networks in `nets/` (lull-1 to lull-3 in format version 1, one output bucket, 128
/// wide; lull-4 in version 2 with eight, 128 wide; lull-5 and lull-6 in version 2 with eight,
/// 256 wide) read with their bucket count, write back byte for byte and
/// evaluate exactly as the specification's output layers, read from the file by this test;
/// the embedded network is one of them.
#[test]
fn the_shipped_networks_read_back_and_evaluate_as_the_specification() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("nets");
    let mut embedded = 0;
    for (name, hidden, buckets) in [
        ("lull-1.nnue", 128, 1),
        ("lull-2.nnue", 128, 1),
        ("lull-3.nnue", 128, 1),
        ("lull-4.nnue", 128, 8),
        ("lull-5.nnue", 256, 8),
        ("lull-6.nnue", 256, 8),
    ] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), bucketed_file_size(hidden, buckets), "{name}");
        let net = Network::load(&path).unwrap();
        assert_eq!(net.output_buckets(), buckets, "{name}");
        assert_eq!(net.to_bytes(), bytes, "{name}");
        let weights = Weights::from_file(&bytes);
        assert_eq!(weights.bytes(), bytes, "{name}");
        for fen in FIXED.iter().chain(STARTS) {
            let board = Position::from_fen(fen).unwrap().board().clone();
            assert_eq!(
                net.evaluate(&board),
                weights.reference_output(&board),
                "{name} {fen}"
            );
        }
        if lull::nnue::DEFAULT_NET == Some(&bytes[..]) {
            assert_eq!(*Network::embedded().unwrap(), net);
            embedded += 1;
        }
    }
    if option_env!("EVALFILE").is_none_or(|p| p.trim().is_empty()) {
        assert_eq!(embedded, 1, "the embedded network is nets/lull-6.nnue");
    }
}

/// A file in the temporary directory, unique to this test process and `name`.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("lull-nnue-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Every bad network file, with a word of the error it must give.
fn bad_files() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let good = Weights::random(16, 3).bytes();
    let with = |at: usize, v: u32| {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        b
    };
    let mut trailing = good.clone();
    trailing.push(0);
    let mut magic = good.clone();
    magic[0] = b'X';
    // Eight output buckets: version 2, B at offset 28, the weights from offset 32.
    let good8 = Weights::random(16, 3).with_buckets(8, 4).bytes();
    let with8 = |at: usize, v: u32| {
        let mut b = good8.clone();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        b
    };
    // A version 2 header that says 8 buckets on the body of a one-bucket network.
    let mut one_layer = with(8, 2);
    one_layer.splice(28..28, 8u32.to_le_bytes());
    let mut w2_range8 = good8.clone();
    let at = 32 + 2 * (768 * 16 + 16 + 5 * 32 + 17);
    w2_range8[at..at + 2].copy_from_slice(&(-300i16).to_le_bytes());
    vec![
        ("empty", Vec::new(), "too short"),
        ("header-only", good[..20].to_vec(), "too short"),
        ("truncated", good[..good.len() - 1].to_vec(), "truncated"),
        ("half", good[..good.len() / 2].to_vec(), "truncated"),
        ("trailing", trailing, "trailing bytes"),
        ("magic", magic, "magic"),
        ("version", with(8, 3), "version 3"),
        ("version-0", with(8, 0), "version 0"),
        ("hidden-odd", with(12, 24), "hidden size 24"),
        ("hidden-big", with(12, 2048), "hidden size 2048"),
        ("hidden-zero", with(12, 0), "hidden size 0"),
        ("hidden-other", with(12, 32), "truncated"),
        ("qa", with(16, 256), "QA is 256"),
        ("qb", with(20, 128), "QB is 128"),
        ("scale", with(24, 100), "SCALE is 100"),
        (
            "w2-range",
            {
                let mut b = good.clone();
                let at = 28 + 2 * (768 * 16 + 16);
                b[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
                b
            },
            "output weight 0 is 200",
        ),
        (
            "buckets-3",
            with8(28, 3),
            "3 output buckets is not supported (1 or 8)",
        ),
        (
            "buckets-0",
            with8(28, 0),
            "0 output buckets is not supported",
        ),
        (
            "buckets-16",
            with8(28, 16),
            "16 output buckets is not supported",
        ),
        (
            "buckets-huge",
            with8(28, u32::MAX),
            "output buckets is not supported",
        ),
        (
            "buckets-1-in-version-2",
            with8(28, 1),
            "says 1 output bucket (a network with one output bucket is written as version 1)",
        ),
        (
            "bucketed-header-only",
            good8[..30].to_vec(),
            "too short for a version 2 network file",
        ),
        (
            "bucketed-truncated",
            good8[..good8.len() - 1].to_vec(),
            "hidden size 16 and 8 output bucket(s) has",
        ),
        (
            "bucketed-no-biases",
            good8[..good8.len() - 4 * 8].to_vec(),
            "truncated",
        ),
        (
            "bucketed-half-output-layer",
            good8[..32 + 2 * (768 * 16 + 16 + 4 * 32)].to_vec(),
            "truncated",
        ),
        (
            "bucketed-one-output-layer",
            one_layer,
            "and 8 output bucket(s) has 25184 bytes, this one has 24708 (truncated)",
        ),
        (
            "bucketed-read-as-version-1",
            with8(8, 1),
            "and 1 output bucket(s) has 24704 bytes, this one has 25184 (trailing bytes)",
        ),
        ("bucketed-w2-range", w2_range8, "output weight 177 is -300"),
    ]
}

#[test]
fn bad_network_files_are_errors_and_keep_the_previous_network() {
    let mut engine = Engine::new(1);
    assert!(engine.network().is_none() || lull::nnue::DEFAULT_NET.is_some());
    let good = temp_file("good.nnue", &Weights::random(16, 3).bytes());
    apply_option(&mut engine, "EvalFile", Some(good.to_str().unwrap())).unwrap();
    apply_option(&mut engine, "Use NNUE", Some("true")).unwrap();
    let loaded = Arc::clone(engine.network().unwrap());
    assert_eq!(loaded.hidden(), 16);
    for (name, bytes, expected) in bad_files() {
        let err = Network::from_bytes(&bytes).unwrap_err();
        assert!(err.contains(expected), "{name}: {err}");
        let path = temp_file(name, &bytes);
        let err = apply_option(&mut engine, "EvalFile", Some(path.to_str().unwrap())).unwrap_err();
        assert!(
            err.contains(expected) && err.contains(path.to_str().unwrap()),
            "{name}: {err}"
        );
        assert!(Arc::ptr_eq(engine.network().unwrap(), &loaded), "{name}");
        assert!(engine.use_nnue(), "{name}");
        let _ = std::fs::remove_file(path);
    }
    // An endless file is refused after the size of the largest network.
    if cfg!(unix) {
        let err = apply_option(&mut engine, "EvalFile", Some("/dev/zero")).unwrap_err();
        assert!(err.contains("magic"), "{err}");
        let err = apply_option(&mut engine, "EvalFile", Some("/dev/urandom")).unwrap_err();
        assert!(err.contains("magic"), "{err}");
    }
    // A directory is no file.
    let dir = std::env::temp_dir();
    let err = apply_option(&mut engine, "EvalFile", Some(dir.to_str().unwrap())).unwrap_err();
    assert!(err.contains("cannot read network file"), "{err}");
    assert!(Arc::ptr_eq(engine.network().unwrap(), &loaded));
    let missing = std::env::temp_dir().join("lull-nnue-no-such-file.nnue");
    let err = apply_option(&mut engine, "EvalFile", Some(missing.to_str().unwrap())).unwrap_err();
    assert!(err.contains("cannot read network file"), "{err}");
    assert!(Arc::ptr_eq(engine.network().unwrap(), &loaded));
    let _ = std::fs::remove_file(good);
}

#[test]
fn use_nnue_needs_a_network() {
    let mut engine = Engine::new(1);
    if lull::nnue::DEFAULT_NET.is_none() {
        assert!(engine.network().is_none());
        let err = apply_option(&mut engine, "Use NNUE", Some("true")).unwrap_err();
        assert!(err.contains("needs a network"), "{err}");
        assert!(!engine.use_nnue());
        let err = apply_option(&mut engine, "EvalFile", Some("<default>")).unwrap_err();
        assert!(err.contains("no network is embedded"), "{err}");
    }
    engine.set_network(Some(Arc::new(Weights::random(16, 1).network())));
    apply_option(&mut engine, "use nnue", Some("true")).unwrap();
    assert!(engine.use_nnue());
    apply_option(&mut engine, "Use NNUE", Some("false")).unwrap();
    assert!(!engine.use_nnue());
    apply_option(&mut engine, "Use NNUE", Some("true")).unwrap();
    // An empty EvalFile means the embedded network, or none (and the switch goes off).
    apply_option(&mut engine, "EvalFile", Some("<empty>")).unwrap();
    assert_eq!(
        engine.network().is_some(),
        lull::nnue::DEFAULT_NET.is_some()
    );
    assert_eq!(engine.use_nnue(), lull::nnue::DEFAULT_NET.is_some());
}

/// A search with a random network: a legal move, the same nodes every time, and not the
/// hand-crafted evaluation's search.
#[test]
fn searches_with_a_network_are_legal_and_deterministic() {
    let net = Arc::new(Weights::random(128, 8).network());
    let run = |fen: &str, nnue: bool| {
        let mut engine = Engine::new(4);
        engine.set_network(Some(Arc::clone(&net)));
        engine.set_use_nnue(nnue).unwrap();
        let pos = Position::from_fen(fen).unwrap();
        let r = engine.search(&pos, &Limits::depth(7), &[]);
        let best = r.best_move.expect("a move");
        assert!(pos.board().is_legal(best), "{fen}: {best}");
        // The quiescence search's stand pat reads the TT: an empty table, so that it starts
        // from the static evaluation.
        engine.clear();
        let q = engine.quiesce(&pos, -30_000, 30_000, 0);
        (r.nodes, r.score, q.score)
    };
    for fen in FIXED {
        let a = run(fen, true);
        let b = run(fen, true);
        assert_eq!(a, b, "{fen}");
        let board = Position::from_fen(fen).unwrap().board().clone();
        let hce = run(fen, false);
        assert_ne!(a.0, hce.0, "{fen}: the network changed nothing");
        // A quiet position's quiescence score is its static evaluation.
        if fen == &STARTPOS_FEN {
            assert_eq!(a.2, net.evaluate(&board));
        }
    }
}

#[test]
fn without_nnue_the_bench_signature_stands() {
    let mut engine = Engine::new(16);
    apply_option(&mut engine, "Use NNUE", Some("false")).unwrap();
    assert_eq!(run_bench(&mut engine, 12, |_, _, _| {}).nodes, 4_495_156);
}

#[test]
fn the_tools_take_the_network_options_in_any_order() {
    let net = temp_file("tool.nnue", &Weights::random(32, 5).bytes());
    let path = format!("EvalFile={}", net.display());
    let path = path.as_str();
    let bench = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_lull"))
            .args(args)
            .output()
            .unwrap()
    };
    let mut signatures = Vec::new();
    for args in [
        [
            "bench",
            "--depth",
            "4",
            "--option",
            "Use NNUE=true",
            "--option",
            path,
        ],
        [
            "bench",
            "--depth",
            "4",
            "--option",
            path,
            "--option",
            "Use NNUE=true",
        ],
    ] {
        let out = bench(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        signatures.push(
            text.lines()
                .next()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(signatures[0], signatures[1]);
    let plain = bench(&["bench", "--depth", "4"]);
    let plain = String::from_utf8_lossy(&plain.stdout).into_owned();
    assert_ne!(plain.split(' ').next().unwrap(), signatures[0]);
    // A bad file is a usage error.
    let out = bench(&[
        "bench",
        "--depth",
        "2",
        "--option",
        "EvalFile=/no/such/net.nnue",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read network file"));
    let _ = std::fs::remove_file(net);
}

#[test]
fn the_uci_eval_command_shows_the_evaluation_in_use() {
    use std::time::Duration;
    let weights = Weights::random(32, 9);
    let net = temp_file("eval-cmd.nnue", &weights.bytes());
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let board: Board = fen.parse().unwrap();
    let hce = lull::eval::evaluate(&board);
    let network = weights.network().evaluate(&board);
    assert_ne!(hce, network, "the test needs two different evaluations");

    let mut lull = common::EngineProcess::spawn(&[]);
    let eval_line = |lull: &mut common::EngineProcess| {
        lull.send("eval");
        let (_, line) = lull.wait_for("an eval line", |l| l.starts_with("info string eval"));
        line
    };
    lull.send("uci");
    lull.send("setoption name Use NNUE value false");
    lull.send(&format!("position fen {fen}"));
    assert_eq!(
        eval_line(&mut lull),
        format!("info string eval {hce} cp (side to move, hand-crafted)")
    );
    lull.send(&format!("setoption name EvalFile value {}", net.display()));
    lull.send("setoption name Use NNUE value true");
    assert_eq!(
        eval_line(&mut lull),
        format!("info string eval {network} cp (side to move, network)")
    );
    lull.send("setoption name Use NNUE value false");
    assert_eq!(
        eval_line(&mut lull),
        format!("info string eval {hce} cp (side to move, hand-crafted)")
    );
    lull.send("quit");
    assert!(lull.wait_exit(Duration::from_secs(10)).success());
    let _ = std::fs::remove_file(net);
}

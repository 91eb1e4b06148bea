//! The NNUE evaluation: an efficiently updatable neural network, `(768 -> N) x 2 -> 1`
//! (side-to-move perspective, SCReLU, `QA = 255`, `QB = 64`, `SCALE = 400`), with one output
//! layer or eight chosen by the material on the board (output buckets), in the format the
//! trainer (`lull train`) writes. A `.nnue` file is, little-endian and without padding: the
//! magic `LULLNNUE`, then u32 version, N, QA, QB, SCALE (version 2 adds B, the number of
//! output buckets; version 1 has one), then i16 `W1q[f * N + j]` (768 x N, feature-major),
//! i16 `b1q` (N), i16 `W2q` (2N per bucket: the side to move's half first), i32 `b2q` (one
//! per bucket); exactly [`bucketed_file_size`]`(N, B)` bytes.
//!
//! - [`Network`]: the quantised weights, loaded from bytes with every field checked
//!   ([`Network::from_bytes`], [`Network::load`]) and written back ([`Network::to_bytes`]).
//!   The hidden size N is read from the file (a multiple of 16, at most 1024): every buffer
//!   is allocated per network.
//! - [`feature`]: the input feature of a piece seen from one side.
//! - [`Accumulator`]: the hidden layer before its activation, for both perspectives (White's
//!   and Black's), built from scratch ([`Network::refresh`]) or from its parent position's
//!   accumulator ([`Network::update`]: the features that changed are found by comparing the
//!   two boards' piece bitboards, so castling, en passant and promotions need no case of
//!   their own). The accumulator is shared by every output bucket.
//! - [`Network::output`]: SCReLU and the output layer of the position's bucket
//!   ([`output_bucket`] of the board's piece count, computed once per evaluation), in
//!   integers exactly as the specification says.
//!
//! The search keeps one accumulator per ply (`crate::search::stack::NnueStack`) and brings
//! it up to date from its parent only when the node asks for an evaluation. This module
//! knows nothing of the search; the hot loops are in `simd.rs`.
//!
//! The default network is embedded in the binary through [`DEFAULT_NET`]: `nets/lull-6.nnue`
//! (how it was made: docs/nnue.md).

mod accumulator;
/// The file format, defined once for the engine, the trainer and `build.rs`: the magic, the
/// version, the sizes and the quantisation (all re-exported here).
pub mod format;
pub mod simd;

use std::sync::{Arc, OnceLock};

use cozy_chess::{Board, Color, Piece, Square};

pub use accumulator::Accumulator;
pub use format::{
    bucketed_file_size, file_size, output_bucket, HEADER_BYTES, HEADER_BYTES_BUCKETED, HIDDEN_STEP,
    INPUTS, MAGIC, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, OUTPUT_BUCKET_COUNTS, QA, QB, SCALE, VERSION,
    VERSION_BUCKETED,
};
use simd::Kernels;

/// The network embedded in the binary, the default of `EvalFile`: `nets/lull-6.nnue`
/// (generation 6, 256 wide with eight output buckets, which beat generation 5,
/// `nets/lull-5.nnue`, the same shape, which beat generation 4, `nets/lull-4.nnue`, 128 wide
/// with eight output buckets, which beat generation 3, `nets/lull-3.nnue`, which beat
/// generation 2, `nets/lull-2.nnue`, which beat generation 1, `nets/lull-1.nnue`, which beat
/// the hand-crafted evaluation: docs/nnue.md, docs/strength.md),
/// or the file of the `EVALFILE` environment variable at build time (`build.rs` checks it
/// and copies it to `OUT_DIR`). A build without a network would say `None` here and set
/// [`USE_NNUE_DEFAULT`] to false.
pub const DEFAULT_NET: Option<&[u8]> =
    Some(include_bytes!(concat!(env!("OUT_DIR"), "/default.nnue")));

/// The default of the `Use NNUE` option: true, with the network of [`DEFAULT_NET`]
/// (`Use NNUE=false` searches with the hand-crafted evaluation).
pub const USE_NNUE_DEFAULT: bool = true;

/// The default of the `EvalFile` option: `<default>` (the embedded network) when one is
/// embedded, empty otherwise.
pub const EVAL_FILE_DEFAULT: &str = match DEFAULT_NET {
    Some(_) => "<default>",
    None => "",
};

/// Largest output weight magnitude: the SCReLU trick computes `clamp(x, 0, QA) * W2q` as an
/// i16, exact only while `QA * |W2q|` fits (the trainer's clipping to 1.98 gives 127).
pub const MAX_OUTPUT_WEIGHT: i32 = i16::MAX as i32 / QA;
/// The evaluation is kept inside this bound, so that no network can produce a score that
/// the search would read as a mate.
pub const EVAL_LIMIT: i32 = crate::params::MATE_BOUND - 1;

/// The input feature of a `color` `piece` on `square`, seen from `perspective`: own pieces
/// first, then the other side's, each by piece type and square, with the board flipped for
/// Black so that every perspective sees its own pieces moving up the board.
#[inline]
pub fn feature(perspective: Color, color: Color, piece: Piece, square: Square) -> usize {
    let side = if color == perspective { 0 } else { 384 };
    let sq = if perspective == Color::White {
        square as usize
    } else {
        square as usize ^ 56
    };
    side + piece as usize * 64 + sq
}

/// A quantised network, as read from a file.
#[derive(Clone)]
pub struct Network {
    hidden: usize,
    /// Feature-major: the row of feature `f` is `w1[f * hidden..(f + 1) * hidden]`.
    w1: Box<[i16]>,
    b1: Box<[i16]>,
    /// Output buckets (1 or 8): how many output layers `w2` and `b2` hold.
    buckets: usize,
    /// Bucket by bucket, `2 * hidden` each: first the side to move's half, then the other
    /// side's.
    w2: Box<[i16]>,
    /// One bias per bucket.
    b2: Box<[i32]>,
    kernels: Kernels,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network {{ hidden: {}, buckets: {}, .. }}",
            self.hidden, self.buckets
        )
    }
}

impl PartialEq for Network {
    /// Same weights (whichever loops each one runs).
    fn eq(&self, other: &Self) -> bool {
        self.hidden == other.hidden
            && self.buckets == other.buckets
            && self.w1 == other.w1
            && self.b1 == other.b1
            && self.w2 == other.w2
            && self.b2 == other.b2
    }
}

/// Reads a little-endian u32 at `at` (the caller checked the length).
fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks a hidden size: a multiple of [`HIDDEN_STEP`] from 16 to [`MAX_HIDDEN`].
pub fn check_hidden(hidden: usize) -> Result<(), String> {
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
        Err(format!(
            "hidden size {hidden} is not supported (a multiple of {HIDDEN_STEP} from \
             {HIDDEN_STEP} to {MAX_HIDDEN})"
        ))
    } else {
        Ok(())
    }
}

/// Checks an output bucket count: one of [`OUTPUT_BUCKET_COUNTS`] (1 or 8).
pub fn check_output_buckets(buckets: usize) -> Result<(), String> {
    if OUTPUT_BUCKET_COUNTS.contains(&buckets) {
        Ok(())
    } else {
        Err(format!(
            "{buckets} output buckets is not supported (1 or {MAX_OUTPUT_BUCKETS})"
        ))
    }
}

impl Network {
    /// A network from its quantised parts: `w1` feature-major (`768 * hidden`), `b1`
    /// (`hidden`), `w2` (`2 * hidden` per output bucket, bucket by bucket, the side to
    /// move's half first) and `b2` (one bias per output bucket: its length is the bucket
    /// count, 1 or 8). Checks the sizes and the range of the output weights.
    pub fn from_parts(
        hidden: usize,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Result<Self, String> {
        check_hidden(hidden)?;
        let buckets = b2.len();
        check_output_buckets(buckets)?;
        let sizes = [
            ("input weights", w1.len(), INPUTS * hidden),
            ("hidden biases", b1.len(), hidden),
            ("output weights", w2.len(), 2 * hidden * buckets),
        ];
        for (what, got, want) in sizes {
            if got != want {
                return Err(format!(
                    "{got} {what} for hidden size {hidden} and {buckets} output bucket(s), \
                     need {want}"
                ));
            }
        }
        if let Some((j, w)) = w2
            .iter()
            .enumerate()
            .find(|(_, w)| i32::from(**w).abs() > MAX_OUTPUT_WEIGHT)
        {
            return Err(format!(
                "output weight {j} is {w}, outside -{MAX_OUTPUT_WEIGHT}..{MAX_OUTPUT_WEIGHT} \
                 (the trainer clips weights to 1.98)"
            ));
        }
        Ok(Self {
            hidden,
            w1: w1.into_boxed_slice(),
            b1: b1.into_boxed_slice(),
            buckets,
            w2: w2.into_boxed_slice(),
            b2: b2.into_boxed_slice(),
            kernels: Kernels::detect(),
        })
    }

    /// Reads a network file's bytes: format version 1 (one output bucket) or 2 (the bucket
    /// count in the header, 8). Every header field and the exact size are checked; the
    /// error says what is wrong. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < HEADER_BYTES {
            return Err(format!(
                "{} bytes is too short for a network file (the header alone is \
                 {HEADER_BYTES})",
                bytes.len()
            ));
        }
        if &bytes[..8] != MAGIC {
            return Err("not a Lull network file (the magic is not LULLNNUE)".to_string());
        }
        let version = read_u32(bytes, 8);
        if version != VERSION && version != VERSION_BUCKETED {
            return Err(format!(
                "network format version {version} is not supported (this engine reads \
                 versions {VERSION} and {VERSION_BUCKETED})"
            ));
        }
        let hidden = read_u32(bytes, 12) as usize;
        check_hidden(hidden)?;
        for (name, at, want) in [("QA", 16, QA), ("QB", 20, QB), ("SCALE", 24, SCALE)] {
            let got = read_u32(bytes, at);
            if got != want as u32 {
                return Err(format!("{name} is {got}, this engine needs {want}"));
            }
        }
        let (buckets, header) = if version == VERSION {
            (1, HEADER_BYTES)
        } else {
            if bytes.len() < HEADER_BYTES_BUCKETED {
                return Err(format!(
                    "{} bytes is too short for a version {VERSION_BUCKETED} network file \
                     (the header alone is {HEADER_BYTES_BUCKETED})",
                    bytes.len()
                ));
            }
            let buckets = read_u32(bytes, HEADER_BYTES) as usize;
            if buckets == 1 {
                return Err(format!(
                    "a version {VERSION_BUCKETED} network file says 1 output bucket (a \
                     network with one output bucket is written as version {VERSION})"
                ));
            }
            check_output_buckets(buckets)?;
            (buckets, HEADER_BYTES_BUCKETED)
        };
        let want = bucketed_file_size(hidden, buckets);
        if bytes.len() != want {
            return Err(format!(
                "a network with hidden size {hidden} and {buckets} output bucket(s) has \
                 {want} bytes, this one has {} ({})",
                bytes.len(),
                if bytes.len() < want {
                    "truncated"
                } else {
                    "trailing bytes"
                }
            ));
        }
        let mut at = header;
        let mut i16s = |count: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * count]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * count;
            v
        };
        let w1 = i16s(INPUTS * hidden);
        let b1 = i16s(hidden);
        let w2 = i16s(2 * hidden * buckets);
        let b2 = bytes[want - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Self::from_parts(hidden, w1, b1, w2, b2)
    }

    /// Reads a network file. The error names the file and what is wrong with it. At most one
    /// byte more than the largest network is read, so that a huge file or a device such as
    /// `/dev/zero` is refused quickly.
    pub fn load(path: &std::path::Path) -> Result<Self, String> {
        use std::io::Read;
        let cannot =
            |e: std::io::Error| format!("cannot read network file {}: {e}", path.display());
        let mut bytes = Vec::new();
        let largest = bucketed_file_size(MAX_HIDDEN, MAX_OUTPUT_BUCKETS);
        std::fs::File::open(path)
            .and_then(|f| f.take(largest as u64 + 1).read_to_end(&mut bytes))
            .map_err(cannot)?;
        Self::from_bytes(&bytes).map_err(|e| format!("network file {}: {e}", path.display()))
    }

    /// The network embedded in the binary ([`DEFAULT_NET`]), read once; `None` when none is
    /// embedded.
    pub fn embedded() -> Option<Arc<Network>> {
        static EMBEDDED: OnceLock<Option<Arc<Network>>> = OnceLock::new();
        EMBEDDED
            .get_or_init(|| DEFAULT_NET.and_then(|b| Network::from_bytes(b).ok().map(Arc::new)))
            .clone()
    }

    /// The file's bytes (version 1 for one output bucket, version 2 otherwise):
    /// [`Network::from_bytes`] reads them back identical.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(bucketed_file_size(self.hidden, self.buckets));
        out.extend_from_slice(MAGIC);
        let version = if self.buckets == 1 {
            VERSION
        } else {
            VERSION_BUCKETED
        };
        for v in [
            version,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if version == VERSION_BUCKETED {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        for w in self.w1.iter().chain(self.b1.iter()).chain(self.w2.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.b2.iter() {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The hidden size N.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The input weights, feature-major (`w1[f * N + j]`).
    pub fn input_weights(&self) -> &[i16] {
        &self.w1
    }

    /// The hidden biases.
    pub fn hidden_biases(&self) -> &[i16] {
        &self.b1
    }

    /// The number of output buckets (1 or 8).
    pub fn output_buckets(&self) -> usize {
        self.buckets
    }

    /// The output weights of every bucket, bucket by bucket: the side to move's N, then the
    /// other side's N.
    pub fn output_weights(&self) -> &[i16] {
        &self.w2
    }

    /// The output biases (scaled by `QA * QB`), one per bucket.
    pub fn output_biases(&self) -> &[i32] {
        &self.b2
    }

    /// The output bucket of `board` in this network: [`output_bucket`] of its piece count
    /// (0 with one bucket).
    #[inline]
    pub fn bucket(&self, board: &Board) -> usize {
        if self.buckets == 1 {
            0
        } else {
            output_bucket(board.occupied().len() as usize, self.buckets)
        }
    }

    /// Whether the AVX2 loops are used (the CPU was asked when the network was built).
    pub fn uses_avx2(&self) -> bool {
        self.kernels.uses_avx2()
    }

    /// Makes this network use the plain-Rust loops only (tests compare the two paths).
    pub fn use_portable_loops(&mut self) {
        self.kernels = Kernels::PORTABLE;
    }

    /// The weight row of feature `f`.
    #[inline]
    fn row(&self, f: usize) -> &[i16] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// An accumulator of the right size, holding the biases only.
    pub fn new_accumulator(&self) -> Accumulator {
        let mut acc = Accumulator::zeroed(self.hidden);
        for color in Color::ALL {
            acc.half_mut(color).copy_from_slice(&self.b1);
        }
        acc
    }

    /// Computes `acc` from scratch for `board` (both perspectives).
    pub fn refresh(&self, board: &Board, acc: &mut Accumulator) {
        acc.resize(self.hidden);
        for perspective in Color::ALL {
            let half = acc.half_mut(perspective);
            half.copy_from_slice(&self.b1);
            for color in Color::ALL {
                for piece in Piece::ALL {
                    for sq in board.colored_pieces(color, piece) {
                        let row = self.row(feature(perspective, color, piece, sq));
                        simd::add(self.kernels, half, row);
                    }
                }
            }
        }
    }

    /// Computes `child_acc` for `child` from `parent_acc`, the accumulator of `parent`:
    /// the pieces that appear or vanish between the two boards are added or removed, with
    /// one pass over the weights for the usual cases (a quiet move, a capture, castling).
    /// Any two boards work; a null move copies.
    pub fn update(
        &self,
        parent_acc: &Accumulator,
        parent: &Board,
        child: &Board,
        child_acc: &mut Accumulator,
    ) {
        child_acc.resize(self.hidden);
        let changes = Changes::between(parent, child);
        for perspective in Color::ALL {
            let src = parent_acc.half(perspective);
            let dst = child_acc.half_mut(perspective);
            let add = |i: usize| {
                let (c, p, s) = changes.added[i];
                self.row(feature(perspective, c, p, s))
            };
            let sub = |i: usize| {
                let (c, p, s) = changes.removed[i];
                self.row(feature(perspective, c, p, s))
            };
            let k = self.kernels;
            match (changes.n_added, changes.n_removed) {
                (0, 0) => dst.copy_from_slice(src),
                (1, 1) => simd::add_sub(k, dst, src, add(0), sub(0)),
                (1, 2) => simd::add_sub2(k, dst, src, add(0), sub(0), sub(1)),
                (2, 2) => simd::add2_sub2(k, dst, src, add(0), add(1), sub(0), sub(1)),
                (n_add, n_sub) => {
                    dst.copy_from_slice(src);
                    for i in 0..n_add {
                        simd::add(k, dst, add(i));
                    }
                    for i in 0..n_sub {
                        simd::sub(k, dst, sub(i));
                    }
                }
            }
        }
    }

    /// The evaluation in centipawns from the side to move's view of `board`, whose
    /// accumulator is `acc`: [`Network::output_in_bucket`] with the board's bucket
    /// ([`Network::bucket`], computed once here).
    #[inline]
    pub fn output(&self, acc: &Accumulator, board: &Board) -> i32 {
        self.output_in_bucket(acc, board.side_to_move(), self.bucket(board))
    }

    /// The evaluation in centipawns from `side_to_move`'s view, from the accumulator of the
    /// position, with the output layer of `bucket` (the last bucket for a larger number):
    /// SCReLU of both halves (the side to move's first), the output layer, then
    /// `(s / QA + b2) * SCALE / (QA * QB)`, truncating, as the specification says (the last
    /// product in i64 so that it cannot overflow), kept inside [`EVAL_LIMIT`].
    #[inline]
    pub fn output_in_bucket(&self, acc: &Accumulator, side_to_move: Color, bucket: usize) -> i32 {
        let n = self.hidden;
        let k = self.kernels;
        let qa = QA as i16;
        let bucket = bucket.min(self.buckets - 1);
        let w2 = &self.w2[2 * n * bucket..2 * n * (bucket + 1)];
        let us = simd::screlu_dot(k, acc.half(side_to_move), &w2[..n], qa);
        let them = simd::screlu_dot(k, acc.half(!side_to_move), &w2[n..], qa);
        let s = us.wrapping_add(them) / QA;
        let cp =
            (i64::from(s) + i64::from(self.b2[bucket])) * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// Evaluates `board` from scratch (a fresh accumulator): for tools and tests; the
    /// search updates its accumulators incrementally.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut acc = Accumulator::zeroed(self.hidden);
        self.refresh(board, &mut acc);
        self.output(&acc, board)
    }
}

/// The pieces that appear (`added`) and vanish (`removed`) between two boards.
struct Changes {
    added: [(Color, Piece, Square); 32],
    removed: [(Color, Piece, Square); 32],
    n_added: usize,
    n_removed: usize,
}

impl Changes {
    fn between(parent: &Board, child: &Board) -> Self {
        let none = (Color::White, Piece::Pawn, Square::A1);
        let mut c = Self {
            added: [none; 32],
            removed: [none; 32],
            n_added: 0,
            n_removed: 0,
        };
        for color in Color::ALL {
            for piece in Piece::ALL {
                let before = parent.colored_pieces(color, piece);
                let after = child.colored_pieces(color, piece);
                if before == after {
                    continue;
                }
                // A board holds at most 32 pieces, so neither list can overflow.
                for sq in after & !before {
                    c.added[c.n_added] = (color, piece, sq);
                    c.n_added += 1;
                }
                for sq in before & !after {
                    c.removed[c.n_removed] = (color, piece, sq);
                    c.n_removed += 1;
                }
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_if_any_reads() {
        assert_eq!(DEFAULT_NET.is_some(), Network::embedded().is_some());
        assert_eq!(
            EVAL_FILE_DEFAULT.is_empty(),
            DEFAULT_NET.is_none(),
            "EvalFile's default follows the embedded network"
        );
    }

    #[test]
    fn features_follow_the_specification() {
        use Color::*;
        // White's pawn on e2: 0 + 0 + 12 for White; 384 + 0 + (12 ^ 56) = 436 for Black.
        assert_eq!(feature(White, White, Piece::Pawn, Square::E2), 12);
        assert_eq!(feature(Black, White, Piece::Pawn, Square::E2), 384 + 52);
        // Black's king on e8: 384 + 320 + 60 for White; 0 + 320 + 4 for Black.
        assert_eq!(
            feature(White, Black, Piece::King, Square::E8),
            384 + 320 + 60
        );
        assert_eq!(feature(Black, Black, Piece::King, Square::E8), 320 + 4);
        assert_eq!(
            feature(White, Black, Piece::Queen, Square::H8),
            384 + 256 + 63
        );
        assert_eq!(feature(White, Black, Piece::King, Square::H8), 767);
        assert_eq!(file_size(16), 28 + 2 * (768 * 16 + 16 + 32) + 4);
        assert_eq!(MAX_OUTPUT_WEIGHT, 128);
    }

    #[test]
    fn bad_hidden_sizes_and_parts_are_errors() {
        for n in [0, 8, 17, 1040, 2048] {
            let e = Network::from_parts(n, vec![], vec![], vec![], vec![0]).unwrap_err();
            assert!(e.contains("hidden size"), "{e}");
        }
        let e = Network::from_parts(16, vec![0; 768 * 16], vec![0; 15], vec![0; 32], vec![0]);
        assert!(e.unwrap_err().contains("15 hidden biases"));
        let mut w2 = vec![0; 32];
        w2[3] = 129;
        let e = Network::from_parts(16, vec![0; 768 * 16], vec![0; 16], w2, vec![0]).unwrap_err();
        assert!(e.contains("output weight 3 is 129"), "{e}");
        // The bucket count is the number of output biases: 1 or 8, with 2N weights each.
        for buckets in [0, 2, 3, 7, 9, 16] {
            let e = Network::from_parts(
                16,
                vec![0; 768 * 16],
                vec![0; 16],
                vec![0; 32 * buckets],
                vec![0; buckets],
            )
            .unwrap_err();
            assert!(e.contains(&format!("{buckets} output buckets")), "{e}");
        }
        let e = Network::from_parts(16, vec![0; 768 * 16], vec![0; 16], vec![0; 32], vec![0; 8]);
        assert!(e
            .unwrap_err()
            .contains("32 output weights for hidden size 16 and 8 output bucket(s), need 256"),);
        let net = Network::from_parts(16, vec![0; 768 * 16], vec![0; 16], vec![0; 256], vec![0; 8])
            .unwrap();
        assert_eq!(net.output_buckets(), 8);
        assert_eq!(net.to_bytes().len(), bucketed_file_size(16, 8));
    }

    #[test]
    fn output_buckets_follow_the_material_formula() {
        // Eight buckets: (pieces - 2) / 4.
        let eight: Vec<usize> = (2..=32).map(|p| output_bucket(p, 8)).collect();
        assert_eq!(
            eight,
            [
                0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6,
                7, 7, 7
            ]
        );
        for p in 0..=40 {
            assert_eq!(output_bucket(p, 1), 0, "{p} pieces, one bucket");
            assert!(output_bucket(p, 8) <= 7, "{p} pieces");
        }
        // The general formula: (pieces - 2) / ceil(32 / B), at most B - 1.
        assert_eq!(output_bucket(32, 4), 3);
        assert_eq!(output_bucket(10, 4), 1);
        assert_eq!(output_bucket(32, 5), 4);
        assert_eq!(output_bucket(2, 0), 0);
        // A network's bucket is the board's piece count's.
        let net = Network::from_parts(16, vec![0; 768 * 16], vec![0; 16], vec![0; 256], vec![0; 8])
            .unwrap();
        for (fen, bucket) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                7,
            ),
            ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 0),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 1),
            (
                "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                7,
            ),
            (
                "r1bqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/R1BQK2R w KQkq - 4 4",
                7,
            ),
            (
                "r1bqk2r/pppp1ppp/8/2b1p3/2B1P3/5N2/PPPP1PPP/R1BQK2R w KQkq - 4 4",
                6,
            ),
        ] {
            let board: Board = fen.parse().unwrap();
            assert_eq!(net.bucket(&board), bucket, "{fen}");
        }
        let one =
            Network::from_parts(16, vec![0; 768 * 16], vec![0; 16], vec![0; 32], vec![0]).unwrap();
        assert_eq!(one.bucket(&Board::default()), 0);
    }
}

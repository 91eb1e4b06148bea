// The `.nnue` file format, defined once: the engine (`crate::nnue`, which re-exports every
// item here), the trainer (`lull train`, `crate::tools::training::train`) and `build.rs` (which checks
// the embedded network with `include!("src/nnue/format.rs")`) all read these items. Plain
// constants and `const fn`s only, with no path into the crate, so that the build script can
// include the file as it is. Layout (docs/nnue.md), little-endian:
//
// - version 1, one output bucket: the magic, then u32 version, N, QA, QB, SCALE, then i16
//   `W1q` (768 x N), i16 `b1q` (N), i16 `W2q` (2N), i32 `b2q`;
// - version 2, B output buckets: the magic, then u32 version, N, QA, QB, SCALE, B, then i16
//   `W1q` (768 x N), i16 `b1q` (N), i16 `W2q` (B x 2N, bucket by bucket), i32 `b2q` (B).

/// The first eight bytes of every network file.
pub const MAGIC: &[u8; 8] = b"LULLNNUE";
/// The file format version of a network with one output bucket (every network before
/// output buckets): no bucket field, read as B = 1.
pub const VERSION: u32 = 1;
/// The file format version of a network with output buckets: the header says B.
pub const VERSION_BUCKETED: u32 = 2;
/// Input features per perspective: 2 colours x 6 piece types x 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the hidden layer: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// Bytes before the weights of a version 1 file: magic, version, N, QA, QB, SCALE.
pub const HEADER_BYTES: usize = 28;
/// Bytes before the weights of a version 2 file: the version 1 header, then B.
pub const HEADER_BYTES_BUCKETED: usize = HEADER_BYTES + 4;
/// Largest hidden size accepted.
pub const MAX_HIDDEN: usize = 1024;
/// The hidden size must be a multiple of this (one AVX2 register of i16).
pub const HIDDEN_STEP: usize = 16;
/// The output bucket counts a network may have: 1 (version 1 files) or 8 (version 2).
pub const OUTPUT_BUCKET_COUNTS: [usize; 2] = [1, 8];
/// The most output buckets a network may have.
pub const MAX_OUTPUT_BUCKETS: usize = 8;

/// The exact size in bytes of a network file with `hidden` hidden neurons and one output
/// bucket (format version 1).
pub const fn file_size(hidden: usize) -> usize {
    HEADER_BYTES + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// The exact size in bytes of a network file with `hidden` hidden neurons and `buckets`
/// output buckets: [`file_size`] for one bucket (version 1), otherwise the version 2 header,
/// the input layer and `buckets` output layers of `2 * hidden` weights and one bias.
pub const fn bucketed_file_size(hidden: usize, buckets: usize) -> usize {
    if buckets == 1 {
        file_size(hidden)
    } else {
        HEADER_BYTES_BUCKETED + 2 * (INPUTS * hidden + hidden + 2 * hidden * buckets) + 4 * buckets
    }
}

/// The output bucket of a position with `pieces` pieces on the board (both kings
/// included, so 2 to 32) in a network of `buckets` output buckets: the material buckets of
/// Akimbo, Viridithas and Bullet, `(pieces - 2) / ceil(32 / buckets)`, at most
/// `buckets - 1`. With 8 buckets that is `(pieces - 2) / 4`: bucket 0 holds the endings of
/// 2 to 5 pieces, bucket 7 the positions of 30 to 32 (the opening); with one bucket every
/// position is in bucket 0. The engine counts the board's occupied squares, the trainer the
/// pieces of a record: the same number.
pub const fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let per_bucket = 32usize.div_ceil(if buckets == 0 { 1 } else { buckets });
    let bucket = pieces.saturating_sub(2) / per_bucket;
    if bucket + 1 > buckets {
        buckets.saturating_sub(1)
    } else {
        bucket
    }
}

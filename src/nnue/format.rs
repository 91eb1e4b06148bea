// The `.nnue` file format, defined once: the engine (`crate::nnue`, which re-exports every
// item here), the trainer (`lull train`, `crate::tools::train`) and `build.rs` (which checks
// the embedded network with `include!("src/nnue/format.rs")`) all read these items. Plain
// constants and `const fn`s only, with no path into the crate, so that the build script can
// include the file as it is. Layout (docs/nnue.md): the magic, then u32 version, N, QA, QB,
// SCALE, then i16 `W1q` (768 x N), i16 `b1q` (N), i16 `W2q` (2N), i32 `b2q`, little-endian.

/// The first eight bytes of every network file.
pub const MAGIC: &[u8; 8] = b"LULLNNUE";
/// The file format version this engine reads and writes.
pub const VERSION: u32 = 1;
/// Input features per perspective: 2 colours x 6 piece types x 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the hidden layer: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// Bytes before the weights: magic, version, N, QA, QB, SCALE.
pub const HEADER_BYTES: usize = 28;
/// Largest hidden size accepted.
pub const MAX_HIDDEN: usize = 1024;
/// The hidden size must be a multiple of this (one AVX2 register of i16).
pub const HIDDEN_STEP: usize = 16;

/// The exact size in bytes of a network file with `hidden` hidden neurons.
pub const fn file_size(hidden: usize) -> usize {
    HEADER_BYTES + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

//! Chooses the network embedded in the binary, `nets/lull-6.nnue` (`nnue::DEFAULT_NET`), or
//! the file named by the environment variable `EVALFILE` (OpenBench passes it; a relative
//! path is taken from the repository root). The file is checked the way the engine reads it
//! (magic, version, output buckets, size for its hidden width and buckets), so that a wrong
//! file fails the build instead of leaving a binary that silently falls back to the
//! hand-crafted evaluation.

use std::path::PathBuf;

/// The network format of the engine (`lull::nnue::format`), the one definition.
#[allow(dead_code)]
mod format {
    include!("src/nnue/format.rs");
}
use format::{
    bucketed_file_size, HEADER_BYTES, HIDDEN_STEP, MAGIC, MAX_HIDDEN, OUTPUT_BUCKET_COUNTS,
    VERSION, VERSION_BUCKETED,
};

const DEFAULT_NET: &str = "nets/lull-6.nnue";

fn main() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    println!("cargo:rerun-if-changed=src/nnue/format.rs");
    let src = match std::env::var("EVALFILE") {
        Ok(path) if !path.trim().is_empty() => PathBuf::from(path.trim()),
        _ => PathBuf::from(DEFAULT_NET),
    };
    println!("cargo:rerun-if-changed={}", src.display());
    let bytes = std::fs::read(&src)
        .unwrap_or_else(|e| panic!("EVALFILE: cannot read {}: {e}", src.display()));
    if let Err(why) = check(&bytes) {
        panic!("EVALFILE: {} is not a Lull network: {why}", src.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("default.nnue"), bytes).expect("write the embedded network");
    // Its file name, for the tools that say which network they measured (`lull report`).
    let name = src.file_name().map_or_else(
        || src.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    println!("cargo:rustc-env=LULL_DEFAULT_NET_FILE={name}");
}

/// The header and size checks of `Network::from_bytes` (docs/nnue.md, "The .nnue file").
fn check(bytes: &[u8]) -> Result<(), String> {
    let u32_at = |i: usize| -> Result<u32, String> {
        bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .ok_or_else(|| format!("{} bytes, shorter than the header", bytes.len()))
    };
    if bytes.len() < HEADER_BYTES {
        return Err(format!("{} bytes, shorter than the header", bytes.len()));
    }
    if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
        return Err("no LULLNNUE magic".to_string());
    }
    let version = u32_at(8)?;
    if version != VERSION && version != VERSION_BUCKETED {
        return Err(format!(
            "format version {version}, not {VERSION} or {VERSION_BUCKETED}"
        ));
    }
    let n = u32_at(12)? as usize;
    if n == 0 || n > MAX_HIDDEN || !n.is_multiple_of(HIDDEN_STEP) {
        return Err(format!(
            "hidden size {n} (not a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN})"
        ));
    }
    let buckets = if version == VERSION {
        1
    } else {
        u32_at(HEADER_BYTES)? as usize
    };
    if version == VERSION_BUCKETED && (buckets == 1 || !OUTPUT_BUCKET_COUNTS.contains(&buckets)) {
        return Err(format!(
            "{buckets} output buckets in a version {version} file"
        ));
    }
    let size = bucketed_file_size(n, buckets);
    if bytes.len() != size {
        return Err(format!(
            "{} bytes, not {size} for N = {n} and {buckets} output bucket(s)",
            bytes.len()
        ));
    }
    Ok(())
}

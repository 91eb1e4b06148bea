//! The network tools as a user runs them: `lull datagen --format bin`, `lull data convert`,
//! `lull data merge` and `lull train` through the binary, with their bad inputs.

use crate::common;

use std::path::PathBuf;

use lull::nnue::{bucketed_file_size, file_size, Network};
use lull::tools::data::packed::{records_from_bytes, PackedRecord};

use common::{run_lull as lull, text};

/// A file in the temporary directory, unique to this test process and `name`.
fn temp_file(name: &str) -> PathBuf {
    common::temp_file_of("nnue", name)
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// `lull datagen` of 4 short games with seed 3 into `out`, in `format`, with `extra` arguments.
fn datagen(out: &std::path::Path, format: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "datagen",
        "-o",
        path(out),
        "--games",
        "4",
        "--nodes",
        "300",
        "--hash",
        "1",
        "--seed",
        "3",
        "--format",
        format,
    ];
    args.extend_from_slice(extra);
    lull(&args)
}

#[test]
fn datagen_convert_merge_and_train_run_end_to_end() {
    // 1. Text and binary data from the same games.
    let txt = temp_file("games.txt");
    let bin = temp_file("games.bin");
    for (file, format) in [(&txt, "text"), (&bin, "bin")] {
        let out = datagen(file, format, &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    // 2. Converting the text gives the binary file, byte for byte.
    let converted = temp_file("converted.bin");
    let out = lull(&["data", "convert", path(&txt), path(&converted)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("positions"),
        "{}",
        text(&out.stdout)
    );
    let bin_bytes = std::fs::read(&bin).unwrap();
    assert!(!bin_bytes.is_empty());
    assert_eq!(std::fs::read(&converted).unwrap(), bin_bytes);
    let n = bin_bytes.len() / 32;
    // 3. Merging text and binary shards: every record, shuffled, split.
    let merged = temp_file("merged.bin");
    let out = lull(&[
        "data",
        "merge",
        "-o",
        path(&merged),
        "--valid-fraction",
        "0.25",
        "--seed",
        "5",
        path(&txt),
        path(&bin),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("training:") && stdout.contains("validation:"),
        "{stdout}"
    );
    let train = records_from_bytes(&std::fs::read(&merged).unwrap()).unwrap();
    let valid_file = PathBuf::from(format!("{}.valid", path(&merged)));
    let valid = records_from_bytes(&std::fs::read(&valid_file).unwrap()).unwrap();
    assert_eq!(train.len() + valid.len(), 2 * n);
    assert_eq!(valid.len(), ((2 * n) as f64 * 0.25).round() as usize);
    let mut all: Vec<[u8; 32]> = train.iter().chain(&valid).map(|r| r.0).collect();
    let mut expected: Vec<[u8; 32]> = bin_bytes
        .chunks_exact(32)
        .chain(bin_bytes.chunks_exact(32))
        .map(|c| c.try_into().unwrap())
        .collect();
    all.sort();
    expected.sort();
    assert_eq!(all, expected);
    // 4. Training two epochs writes a network of the spec's size and a checkpoint per epoch.
    let net = temp_file("net.nnue");
    let dir = temp_file("checkpoints");
    let out = lull(&[
        "train",
        path(&merged),
        "-o",
        path(&net),
        "--valid",
        path(&valid_file),
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--batch",
        "32",
        "--threads",
        "2",
        "--checkpoint-dir",
        path(&dir),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert_eq!(stdout.matches("train loss").count(), 2, "{stdout}");
    assert!(stdout.contains("pos/s"), "{stdout}");
    assert_eq!(std::fs::read(&net).unwrap().len(), file_size(16));
    assert_eq!(
        std::fs::read(dir.join("lull-16-2.nnue")).unwrap(),
        std::fs::read(&net).unwrap()
    );
    // 5. Resuming from the first epoch's checkpoint gives the same network.
    let resumed = temp_file("resumed.nnue");
    let ckpt = dir.join("lull-16-1.ckpt");
    let out = lull(&[
        "train",
        path(&merged),
        "-o",
        path(&resumed),
        "--epochs",
        "2",
        "--batch",
        "32",
        "--threads",
        "2",
        "--resume",
        path(&ckpt),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&net).unwrap()
    );
    // 6. Eight output buckets: a network of the bucketed format that the engine loads, its
    // checkpoint, and a resumption that asks for another bucket count is refused.
    let net8 = temp_file("net8.nnue");
    let dir8 = temp_file("checkpoints8");
    let out = lull(&[
        "train",
        path(&merged),
        "-o",
        path(&net8),
        "--hidden",
        "16",
        "--output-buckets",
        "8",
        "--epochs",
        "1",
        "--batch",
        "32",
        "--threads",
        "2",
        "--checkpoint-dir",
        path(&dir8),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("(768 -> 16) x 2 -> 1, 8 output buckets"),
        "{}",
        text(&out.stderr)
    );
    let bytes8 = std::fs::read(&net8).unwrap();
    assert_eq!(bytes8.len(), bucketed_file_size(16, 8));
    let loaded = Network::load(&net8).unwrap();
    assert_eq!(loaded.output_buckets(), 8);
    assert_eq!(loaded.to_bytes(), bytes8);
    let out = lull(&[
        "train",
        path(&merged),
        "-o",
        path(&temp_file("net8-again.nnue")),
        "--output-buckets",
        "1",
        "--epochs",
        "2",
        "--resume",
        path(&dir8.join("lull-16-1.ckpt")),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--output-buckets 1 but the checkpoint has 8 output bucket(s)"),
        "{}",
        text(&out.stderr)
    );
    // 7. The next generation's games: the same seed played with the network just trained
    // (not the embedded one of step 1) gives other games (its scores, its moves), in the
    // same format.
    let gen1 = temp_file("gen1.bin");
    let eval_file = format!("EvalFile={}", path(&net));
    let out = datagen(
        &gen1,
        "bin",
        &["--option", &eval_file, "--option", "Use NNUE=true"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("options EvalFile="),
        "{}",
        text(&out.stderr)
    );
    let gen1_bytes = std::fs::read(&gen1).unwrap();
    assert!(records_from_bytes(&gen1_bytes).is_ok_and(|r| !r.is_empty()));
    assert_ne!(gen1_bytes, bin_bytes);
    for f in [
        &txt,
        &bin,
        &converted,
        &merged,
        &valid_file,
        &net,
        &resumed,
        &gen1,
        &net8,
    ] {
        let _ = std::fs::remove_file(f);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir8);
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let missing = temp_file("missing.bin");
    let out_file = temp_file("out.bin");
    let check = |args: &[&str], code: i32, words: &str| {
        let out = lull(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    };
    check(
        &["data", "convert", path(&missing), path(&out_file)],
        2,
        "cannot open",
    );
    check(
        &["data", "merge", "-o", path(&out_file), path(&missing)],
        2,
        "cannot open",
    );
    check(
        &["train", path(&missing), "-o", path(&out_file)],
        2,
        "cannot open",
    );
    // Engine options of datagen are checked before any game.
    check(
        &["datagen", "-o", path(&out_file), "--option", "Foo=1"],
        2,
        "--option Foo=1: unknown option",
    );
    check(
        &[
            "datagen",
            "-o",
            path(&out_file),
            "--option",
            &format!("EvalFile={}", path(&missing)),
        ],
        2,
        "cannot read network file",
    );
    // A truncated binary file and a corrupt record.
    let record = PackedRecord::encode(&cozy_chess::Board::default(), 0.5, 0);
    let truncated = temp_file("truncated.bin");
    std::fs::write(&truncated, &record.0[..20]).unwrap();
    check(
        &["data", "merge", "-o", path(&out_file), path(&truncated)],
        2,
        "truncated",
    );
    check(
        &["train", path(&truncated), "-o", path(&out_file)],
        2,
        "truncated",
    );
    let corrupt = temp_file("corrupt.bin");
    let mut bytes = record.0.to_vec();
    bytes.extend_from_slice(&[0xFF; 32]);
    std::fs::write(&corrupt, bytes).unwrap();
    check(
        &["train", path(&corrupt), "-o", path(&out_file)],
        2,
        "record 2",
    );
    // A compressed file, a text file with no position, a bad checkpoint, bad numbers.
    let xz = temp_file("data.txt.xz");
    std::fs::write(&xz, b"\xFD7zXZ\x00\x00junk").unwrap();
    check(
        &["data", "convert", path(&xz), path(&out_file)],
        2,
        "decompress",
    );
    let junk = temp_file("junk.txt");
    std::fs::write(&junk, "not a position | 1.0 | 0\n").unwrap();
    check(
        &["data", "convert", path(&junk), path(&out_file)],
        1,
        "no position",
    );
    let good = temp_file("good.bin");
    std::fs::write(&good, record.0).unwrap();
    check(
        &[
            "train",
            path(&good),
            "-o",
            path(&out_file),
            "--resume",
            path(&junk),
        ],
        2,
        "not a Lull training checkpoint",
    );
    check(
        &["train", path(&good), "-o", path(&out_file), "--wdl", "2"],
        2,
        "[0, 1]",
    );
    for buckets in ["0", "3", "16"] {
        check(
            &[
                "train",
                path(&good),
                "-o",
                path(&out_file),
                "--output-buckets",
                buckets,
            ],
            2,
            &format!("{buckets} output buckets is not supported (1 or 8)"),
        );
    }
    check(
        &[
            "data",
            "merge",
            "-o",
            path(&out_file),
            "--valid-fraction",
            "1.5",
            path(&good),
        ],
        2,
        "[0, 1)",
    );
    for f in [&truncated, &corrupt, &xz, &junk, &good, &out_file] {
        let _ = std::fs::remove_file(f);
    }
}

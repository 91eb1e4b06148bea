//! The engine builds without the command-line tools' dependencies: `cargo tree` of the
//! engine-only builds (`--no-default-features`, MIT; `--no-default-features --features
//! syzygy`, the engine with tablebases) lists none of clap, tiny_http, plotters and indicatif,
//! while the default build (with the `tools` feature) lists all four.

use std::collections::BTreeSet;
use std::process::Command;

const TOOL_CRATES: [&str; 4] = ["clap", "tiny_http", "plotters", "indicatif"];

/// The package names of `cargo tree -e normal` with these feature arguments.
fn tree(features: &[&str]) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree", "-e", "normal", "--prefix", "none", "--format", "{p}",
        ])
        .args([
            "--manifest-path",
            concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
        ])
        .args(features)
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree {features:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

#[test]
fn the_engine_alone_has_none_of_the_tools_dependencies() {
    let default = tree(&[]);
    for name in TOOL_CRATES {
        assert!(
            default.contains(name),
            "the default build lists {name}: {default:?}"
        );
    }
    assert!(default.contains("cozy-chess") && default.contains("lull"));
    for features in [
        &["--no-default-features"][..],
        &["--no-default-features", "--features", "syzygy"][..],
    ] {
        let packages = tree(features);
        assert!(
            packages.contains("cozy-chess"),
            "{features:?}: {packages:?}"
        );
        for name in TOOL_CRATES {
            assert!(
                !packages.contains(name),
                "{features:?} lists {name}: {packages:?}"
            );
        }
    }
    // The Syzygy crates come with the `syzygy` feature only.
    assert!(tree(&["--no-default-features", "--features", "syzygy"]).contains("shakmaty"));
    assert!(!tree(&["--no-default-features", "--features", "tools"]).contains("shakmaty"));
}

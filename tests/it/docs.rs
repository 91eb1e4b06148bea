//! The documentation against the binary: every number the binary prints that README.md or
//! docs/ quotes as the current one is checked here (the bench signature wherever it appears,
//! the horizon example), the docs speak of versions rather than work sessions, and the
//! lichess-bot configuration in the README is valid YAML (parsed by `serde_yaml`).

use crate::common;

use std::path::{Path, PathBuf};

use common::{run_lull, text};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CHANGELOG.md and every text file under docs/ (Markdown, HTML, scripts).
fn doc_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("md" | "html" | "sh" | "py" | "txt")
            ) {
                out.push(p);
            }
        }
    }
    let mut files = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    walk(&root().join("docs"), &mut files);
    files
}

/// The node count of the signature line `<N> nodes <M> nps` that `lull bench` ends with.
fn bench_signature(args: &[&str]) -> u64 {
    let mut all = vec!["bench"];
    all.extend_from_slice(args);
    let out = run_lull(&all);
    assert!(out.status.success(), "lull {all:?} failed");
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().expect("bench prints lines");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 4, "signature line {last:?}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "{last:?}");
    words[0].parse().expect("a node count")
}

/// Whether a word names a commit: 7 to 40 hexadecimal digits with a letter and a digit.
fn is_commit(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    (7..=40).contains(&w.len())
        && w.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        && w.bytes().any(|b| b.is_ascii_digit())
        && w.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The numbers of a line from 1,000,000 to 99,999,999 (written with or without commas).
fn big_numbers(line: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            let mut digits = String::new();
            while j < bytes.len()
                && (bytes[j].is_ascii_digit()
                    || (bytes[j] == b',' && j + 1 < bytes.len() && bytes[j + 1].is_ascii_digit()))
            {
                if bytes[j] != b',' {
                    digits.push(bytes[j] as char);
                }
                j += 1;
            }
            let glued = j < bytes.len() && (bytes[j].is_ascii_alphabetic() || bytes[j] == b'.');
            if !glued && (7..=8).contains(&digits.len()) {
                out.push(digits.parse().unwrap());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The bench signatures a doc line quotes as current: the big numbers of a line about the
/// bench or its signature that names no commit (a number given with the commit it was
/// measured on is history, and stays true).
fn current_signature_quotes(line: &str) -> Vec<u64> {
    let lower = line.to_ascii_lowercase();
    if !(lower.contains("bench") || lower.contains("signature")) {
        return Vec::new();
    }
    // A numbered row of a history table (docs/strength.md) is history by construction.
    let numbered_row = line
        .strip_prefix("| ")
        .and_then(|r| r.split_once(" |"))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if numbered_row || line.split_whitespace().any(is_commit) {
        return Vec::new();
    }
    big_numbers(line)
}

#[test]
fn the_line_scanner_finds_quotes_and_leaves_history() {
    assert_eq!(
        current_signature_quotes("./lull-dev bench | tail -1   # 2803503 nodes"),
        [2_803_503]
    );
    assert_eq!(
        current_signature_quotes("`lull bench`: 2,803,503 nodes"),
        [2_803_503]
    );
    assert!(current_signature_quotes("| main `954539c` | bench 2803503 |").is_empty());
    assert!(current_signature_quotes("perft 119,060,324 leaves").is_empty());
    assert!(current_signature_quotes("bench 2803503x").is_empty());
}

/// Every doc that quotes a bench signature as the current one quotes what `lull bench`
/// prints (or, on a line about `Use NNUE=false`, what the hand-crafted evaluation's bench
/// prints); docs/openbench.md, which tells OpenBench users what to enter, quotes it.
#[test]
fn every_doc_quotes_the_bench_signature_the_binary_prints() {
    let nnue = bench_signature(&[]);
    let hce = bench_signature(&["--option", "Use NNUE=false"]);
    let mut wrong = Vec::new();
    let mut openbench_quotes = 0;
    for path in doc_files() {
        let Ok(content) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in content.lines().enumerate() {
            for quoted in current_signature_quotes(line) {
                let ok = quoted == nnue || (quoted == hce && line.contains("NNUE=false"));
                if !ok {
                    wrong.push(format!("{name}:{}: {quoted} in {line:?}", n + 1));
                }
                if name == "docs/openbench.md" && quoted == nnue {
                    openbench_quotes += 1;
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "`lull bench` prints {nnue} ({hce} with Use NNUE=false); these quote another \
         signature:\n{}",
        wrong.join("\n")
    );
    assert!(
        openbench_quotes >= 2,
        "docs/openbench.md quotes {nnue} only {openbench_quotes} times"
    );
}

/// The code block after a line containing `marker` in README.md.
fn readme_block_after(marker: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find(marker).unwrap_or_else(|| panic!("{marker:?}"));
    let rest = &readme[start..];
    let open = rest.find("```\n").expect("a code block") + 4;
    let close = rest[open..].find("```").expect("its end") + open;
    rest[open..close].to_string()
}

fn squeeze(s: &str) -> String {
    s.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The README's horizon example is what `lull horizon` prints (the table of both columns),
/// and its sentence about the hand-crafted evaluation gives the moves and scores that
/// `lull horizon --option "Use NNUE=false"` prints.
#[test]
fn the_readme_horizon_example_is_what_the_binary_prints() {
    let quoted = readme_block_after("`lull horizon` (built-in position");
    let out = run_lull(&["horizon"]);
    assert!(out.status.success());
    let printed = squeeze(&text(&out.stdout));
    let quoted = squeeze(&quoted);
    assert!(
        printed.contains(&quoted),
        "README quotes\n{quoted}\nbut `lull horizon` prints\n{printed}"
    );
    // The hand-crafted evaluation's pair, as the sentence after the block states it.
    let out = run_lull(&["horizon", "--option", "Use NNUE=false"]);
    let printed = text(&out.stdout);
    let field = |row: &str| -> Vec<String> {
        let line = printed
            .lines()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no {row} row in\n{printed}"));
        line[row.len()..]
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let moves = field("best move");
    let scores: Vec<i32> = field("score")
        .chunks(2)
        .map(|c| c[1].parse().unwrap())
        .collect();
    let sign = |s: i32| {
        if s < 0 {
            format!("−{}", -s)
        } else {
            format!("+{s}")
        }
    };
    let sentence = format!(
        "the columns read {} {} and {} {}",
        moves[0],
        sign(scores[0]),
        moves[1],
        sign(scores[1])
    );
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.replace('\n', " ").contains(&sentence),
        "README should say {sentence:?}"
    );
}

/// Every line of the user-facing docs, lower-cased, as (where, line): the scan of the tests
/// below.
fn doc_lines() -> Vec<(String, String)> {
    let mut lines = Vec::new();
    for path in doc_files() {
        let Ok(content) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in content.to_ascii_lowercase().lines().enumerate() {
            lines.push((format!("{}:{}", path.display(), n + 1), line.to_string()));
        }
    }
    lines
}

/// User-facing docs speak of the project and its versions, not of work sessions.
#[test]
fn no_doc_speaks_of_work_sessions() {
    let mut found = Vec::new();
    for (at, line) in doc_lines() {
        let mut rest = line.as_str();
        while let Some(i) = rest.find("session ") {
            let after = &rest[i + "session ".len()..];
            if after.starts_with(|c: char| c.is_ascii_digit()) {
                found.push(at.clone());
            }
            rest = after;
        }
    }
    assert!(found.is_empty(), "work sessions named at {found:?}");
}

/// User-facing docs state their targets and commands themselves: they do not point at the
/// tracker's issues or at folders outside the clone.
#[test]
fn no_doc_points_at_issues_or_outside_the_clone() {
    const PHRASES: [&str; 5] = [
        "the issue's",
        "the issue asks",
        "issue #",
        "../shared",
        "other sessions",
    ];
    let mut found = Vec::new();
    for (at, line) in doc_lines() {
        for phrase in PHRASES.iter().filter(|p| line.contains(*p)) {
            found.push(format!("{at} ({phrase})"));
        }
    }
    assert!(
        found.is_empty(),
        "docs point at issues or outside files: {found:?}"
    );
}

/// The lichess-bot snippet of the README parses as YAML with the keys lichess-bot reads.
#[test]
fn the_lichess_bot_snippet_is_valid_yaml() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```yaml\n").expect("a yaml block in README.md") + 8;
    let end = readme[start..].find("```").unwrap() + start;
    let doc: serde_yaml::Value = serde_yaml::from_str(&readme[start..end])
        .unwrap_or_else(|e| panic!("README's YAML does not parse: {e}"));
    let engine = &doc["engine"];
    assert_eq!(engine["protocol"].as_str(), Some("uci"));
    assert_eq!(engine["name"].as_str(), Some("lull"));
    assert!(engine["dir"].as_str().is_some_and(|d| d.ends_with('/')));
    // The options lichess-bot passes on are ones Lull knows.
    if let Some(options) = engine["uci_options"].as_mapping() {
        let mut lull = common::EngineProcess::spawn(&[]);
        lull.send("uci");
        let (lines, _) = lull.wait_for("uciok", |l| l == "uciok");
        for name in options.keys() {
            let name = name.as_str().unwrap();
            let announced = format!("option name {name} type ");
            assert!(
                lines.iter().any(|l| l.starts_with(&announced)),
                "lichess-bot would send the unknown option {name}"
            );
        }
    }
}

/// docs/report/play_matches.sh uses nothing outside the clone but the tools it names.
#[test]
fn the_match_script_needs_nothing_outside_the_clone() {
    let script = std::fs::read_to_string(root().join("docs/report/play_matches.sh")).unwrap();
    assert!(
        !script.contains("../shared"),
        "play_matches.sh uses ../shared"
    );
    assert!(!script.contains("match.py"));
    assert!(script.contains("cutechess-cli"));
}

/// The release is described the same everywhere: the version of Cargo.toml heads the
/// changelog (below its "Unreleased" section), the Rust version and the licence are stated, the workflow for tags runs the
/// release script, the archives' licence files exist, and the README gives `cargo install`.
#[test]
fn the_release_metadata_agrees() {
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let field = |name: &str| -> String {
        cargo
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name} = \"")))
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or_else(|| panic!("no {name} in Cargo.toml"))
            .to_string()
    };
    let version = field("version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert!(!field("rust-version").is_empty());
    assert_eq!(field("license"), "GPL-3.0-or-later");
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    // The newest release heads the changelog, under the changes not yet released, if any.
    let first = changelog
        .lines()
        .find(|l| l.starts_with("## ") && *l != "## Unreleased")
        .unwrap();
    assert_eq!(first, format!("## {version}"));
    let workflow = std::fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    assert!(workflow.contains("scripts/release.sh"));
    assert!(workflow.contains(&format!(
        "rustup toolchain install {}",
        field("rust-version")
    )));
    let script = std::fs::read_to_string(root().join("scripts/release.sh")).unwrap();
    for needed in [
        "x86-64-v3",
        "--locked",
        "sha256sum",
        "README.md",
        "LICENSE",
        "COPYING",
    ] {
        assert!(script.contains(needed), "release.sh lacks {needed}");
    }
    for file in ["LICENSE", "COPYING"] {
        assert!(root().join(file).is_file(), "{file} is missing");
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains("cargo install --git ") && readme.contains("--locked"));
}

/// `scripts/pgo-build.sh` (what `PGO=1 scripts/release.sh` uses) builds a profile-guided
/// binary that searches as the plain build does: the same bench signature. Slow (two release
/// builds) and it needs llvm-profdata (`rustup component add llvm-tools`).
#[test]
#[ignore = "slow: two release builds; needs llvm-tools (run with --ignored)"]
fn the_pgo_build_searches_as_the_plain_build() {
    let dir = std::env::temp_dir().join(format!("lull-pgo-{}", std::process::id()));
    let out = std::process::Command::new(root().join("scripts/pgo-build.sh"))
        .env("PGO_DIR", &dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bench = |bin: &Path| {
        let out = std::process::Command::new(bin)
            .arg("bench")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let last = text.lines().last().unwrap_or_default().to_string();
        last.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let pgo = bench(&dir.join("lull"));
    assert!(pgo.parse::<u64>().is_ok(), "{pgo}");
    assert_eq!(pgo, bench(Path::new(env!("CARGO_BIN_EXE_lull"))));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rows of the first Markdown table under the heading that contains `heading`.
fn table_under(page: &str, heading: &str) -> Vec<Vec<String>> {
    let mut lines = page
        .lines()
        .skip_while(|l| !(l.starts_with('#') && l.contains(heading)))
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'));
    lines
        .next()
        .unwrap_or_else(|| panic!("no table under {heading:?}"));
    lines
        .filter(|l| !l.chars().all(|c| "|-: ".contains(c)))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// docs/strength-levels.md gives the `UCI_Elo` mapping the binary uses: its "Levels" table
/// is `SKILL_LEVEL_ELO`, every level of it was measured in a match of the "Matches" table,
/// and the range `uci` announces for `UCI_Elo` is the table's, as the README's table of
/// options says.
#[test]
fn the_strength_levels_page_gives_the_uci_elo_mapping_the_binary_uses() {
    let page = std::fs::read_to_string(root().join("docs/strength-levels.md")).unwrap();
    let levels: Vec<(f64, i64)> = table_under(&page, "Levels")
        .iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
    assert_eq!(
        levels,
        lull::params::SKILL_LEVEL_ELO,
        "docs/strength-levels.md, Levels"
    );
    let matches = table_under(&page, "Matches");
    for (level, _) in &levels {
        assert!(
            matches
                .iter()
                .any(|r| r[0].parse::<f64>().ok() == Some(*level)),
            "level {level} has no match"
        );
    }
    let (min, max) = (levels[0].1, levels[levels.len() - 1].1);
    let mut lull = common::EngineProcess::spawn(&[]);
    lull.send("uci");
    let (lines, _) = lull.wait_for("uciok", |l| l == "uciok");
    let expected = format!("option name UCI_Elo type spin default {max} min {min} max {max}");
    assert!(lines.contains(&expected), "{expected:?} not in {lines:?}");
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let row = format!("| `UCI_Elo` | spin {min}–{max} | {max} |");
    assert!(readme.contains(&row), "README.md lacks {row:?}");
}

/// The network `build.rs` embeds, from its `DEFAULT_NET` constant.
fn embedded_network() -> String {
    let build = std::fs::read_to_string(root().join("build.rs")).unwrap();
    let line = build
        .lines()
        .find(|l| l.starts_with("const DEFAULT_NET: &str = "))
        .expect("build.rs names DEFAULT_NET");
    line.split('"').nth(1).expect("a quoted path").to_string()
}

/// Every place that says which network is embedded (README.md, docs/architecture.md, the
/// Makefile, build.rs's own comment, and the pages of figures measured with it: docs/wdl.md,
/// docs/strength-levels.md) names the one `build.rs` embeds, each at least once: a `nets/….nnue` path
/// with "embed" in the 40 characters before it or the 30 after it ("the embedded network,
/// `nets/…`", "`nets/…` is the embedded network", "embed that network instead of nets/…")
/// must be build.rs's.
#[test]
fn the_docs_name_the_network_build_rs_embeds() {
    let embedded = embedded_network();
    assert!(
        embedded.starts_with("nets/") && embedded.ends_with(".nnue"),
        "{embedded}"
    );
    let mut wrong = Vec::new();
    let mut missing = Vec::new();
    // The pages whose figures were measured with the embedded network (the WDL model, the
    // strength levels) name it too: when the network changes, they must be measured again.
    for name in [
        "README.md",
        "docs/architecture.md",
        "Makefile",
        "build.rs",
        "docs/wdl.md",
        "docs/strength-levels.md",
    ] {
        let mut right = 0;
        let text = std::fs::read_to_string(root().join(name)).unwrap();
        let mut from = 0;
        while let Some(at) = text[from..].find("nets/lull-") {
            let start = from + at;
            let end = start + text[start..].find(".nnue").map_or(0, |e| e + 5);
            from = start + 1;
            if end <= start {
                continue;
            }
            let path = &text[start..end];
            let lo = text.floor_char_boundary(start.saturating_sub(40));
            let hi = text.ceil_char_boundary((end + 30).min(text.len()));
            let (before, after) = (&text[lo..start], &text[end..hi]);
            if !(before.contains("embed") || after.contains("embed")) {
                continue;
            }
            if path == embedded {
                right += 1;
            } else {
                let line = text[..start].lines().count();
                wrong.push(format!("{name}:{line}: {path}"));
            }
        }
        if right == 0 {
            missing.push(name);
        }
    }
    assert!(
        wrong.is_empty(),
        "build.rs embeds {embedded}; these name another network as the embedded one:\n{}",
        wrong.join("\n")
    );
    assert!(
        missing.is_empty(),
        "these do not name the embedded network ({embedded}) as the embedded one: {missing:?}"
    );
}

/// The words of the user-facing Markdown pages (README.md, CHANGELOG.md, docs/**/*.md) that
/// only the project's own work knew: a row number of docs/strength.md's table (`row 38`,
/// `rows 25, 26`), a step of the search's code (`Step 9b`: the code renumbers its steps), a
/// type of the code (`OptionScope`), or a path of the machine a measurement ran on (`/work/`,
/// `/root/`, `/home/…`, `/tmp/`). docs/strength.md numbers the rows of its own table, and may
/// cite them.
fn internal_words(text: &str) -> Vec<String> {
    const PATHS: [&str; 4] = ["/work/", "/root/", "/home/", "/tmp/"];
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_ascii_lowercase();
        let b = lower.as_bytes();
        let word_start = |i: usize| i == 0 || !b[i - 1].is_ascii_alphanumeric();
        let digit_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
        for (i, _) in lower.match_indices("row") {
            let after = i + 3 + usize::from(b.get(i + 3) == Some(&b's'));
            if word_start(i) && b.get(after) == Some(&b' ') && digit_at(after + 1) {
                found.push(format!("{}: {line}", n + 1));
            }
        }
        for (i, _) in lower.match_indices("step ") {
            let mut j = i + 5;
            while digit_at(j) {
                j += 1;
            }
            let letter = b.get(j).is_some_and(u8::is_ascii_lowercase)
                && !b.get(j + 1).is_some_and(u8::is_ascii_alphanumeric);
            if word_start(i) && j > i + 5 && letter {
                found.push(format!("{}: {line}", n + 1));
            }
        }
        if line.contains("OptionScope") {
            found.push(format!("{}: {line}", n + 1));
        }
        for path in PATHS {
            for (i, _) in line.match_indices(path) {
                let before = line[..i].chars().next_back();
                if before.is_none_or(|c| !(c.is_alphanumeric() || "._-/~$}".contains(c))) {
                    found.push(format!("{}: {line}", n + 1));
                }
            }
        }
    }
    found.dedup();
    found
}

#[test]
fn the_internal_words_scanner_finds_them_and_leaves_the_rest() {
    for bad in [
        "[docs/strength.md](docs/strength.md) row 38);",
        "(docs/strength.md rows 25, 26,",
        "Row 47 with two more changes",
        "| main search, Step 9b: a TT move",
        "the steps (step 10a)",
        "front end (`OptionScope::FrontEnd`)",
        "cp target/release/lull /work/bin/lull-soak",
        "`/root/lull-data/soak`",
        "--pgn /home/me/soak.pgn",
        "(/tmp/lull.pgn)",
    ] {
        assert_eq!(internal_words(bad).len(), 1, "{bad:?}");
    }
    for good in [
        "the lull-4 against lull-2 match in [docs/strength.md](docs/strength.md)",
        "a row of the table; throw 2 dice; arrows 3",
        "tested at step 2 of both searches; step 10 alone",
        "https://example.org/work/index.html and $HOME/lull-data/soak/x.pgn",
        "~/work/ or ./tmp/x",
    ] {
        assert!(internal_words(good).is_empty(), "{good:?}");
    }
}

/// No user-facing page but docs/strength.md speaks in the project's internal words (see
/// `internal_words`): a match is named by what it measured, with a link to docs/strength.md;
/// an option by what it does; a command by paths a user has.
#[test]
fn no_doc_names_table_rows_code_steps_internal_types_or_machine_paths() {
    let mut found = Vec::new();
    for path in doc_files() {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        if !name.ends_with(".md") || name == "docs/strength.md" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        found.extend(
            internal_words(&text)
                .into_iter()
                .map(|w| format!("{name}:{w}")),
        );
    }
    assert!(
        found.is_empty(),
        "internal words in user-facing docs:\n{}",
        found.join("\n")
    );
}

/// The books a stock OpenBench lists in its `Config/config.json` (each with its download in
/// its `Books/`); a test preset naming another is refused ("Book was not found in the
/// configuration").
const OPENBENCH_BOOKS: [&str; 15] = [
    "2moves_v1.epd",
    "3moves_FRC.epd",
    "4moves_noob.epd",
    "8moves_v3.epd",
    "DFRC.epd",
    "Endgames.epd",
    "Pohl.epd",
    "Pohl.pgn",
    "UHO_4060_v2.epd",
    "UHO_4060_vB.epd",
    "UHO_4060_vT.epd",
    "UHO_Lichess_4852_v1.epd",
    "DFRC_4852_v1.epd",
    "endgames_cdb95105.epd",
    "fortresses_150_250.epd",
];

/// docs/openbench.md's engine entry is valid JSON, asks the workers for the `cargo` of
/// Cargo.toml's `rust-version` (an older one fails every build), and its presets and its
/// genfens example name books a stock OpenBench has.
#[test]
fn the_openbench_entry_asks_for_the_rust_version_and_a_stock_book() {
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let rust_version = cargo
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("rust-version in Cargo.toml");
    let page = std::fs::read_to_string(root().join("docs/openbench.md")).unwrap();
    let start = page.find("```json\n{").expect("the engine entry") + 8;
    let end = page[start..].find("```").unwrap() + start;
    let entry: serde_json::Value = serde_json::from_str(&page[start..end])
        .unwrap_or_else(|e| panic!("the engine entry is not JSON: {e}"));
    let compilers = entry["build"]["compilers"].as_array().expect("compilers");
    assert_eq!(
        compilers,
        &[serde_json::json!(format!("cargo>={rust_version}"))],
        "the entry's compilers against rust-version {rust_version}"
    );
    let presets = entry["test_presets"].as_object().expect("test_presets");
    let books: Vec<&str> = presets
        .values()
        .filter_map(|p| p["book_name"].as_str())
        .collect();
    assert!(!books.is_empty(), "no preset names a book");
    for book in books {
        assert!(OPENBENCH_BOOKS.contains(&book), "{book} is no stock book");
    }
    for (i, _) in page.match_indices("genfens 128 seed") {
        let line = page[i..].lines().next().unwrap();
        let book = line.split_whitespace().nth(5).unwrap().trim_matches('"');
        let book = book.strip_prefix("Books/").unwrap_or(book);
        assert!(OPENBENCH_BOOKS.contains(&book), "{line}: no stock book");
    }
}

/// The `nets/….nnue` paths of `text` that it calls embedded: "embed" in the 40 characters
/// before the path or the 30 after it (as `the_docs_name_the_network_build_rs_embeds` reads).
fn networks_called_embedded(text: &str) -> Vec<String> {
    let mut nets = Vec::new();
    for (start, _) in text.match_indices("nets/lull-") {
        let Some(len) = text[start..].find(".nnue") else {
            continue;
        };
        let end = start + len + 5;
        let lo = text.floor_char_boundary(start.saturating_sub(40));
        let hi = text.ceil_char_boundary((end + 30).min(text.len()));
        if text[lo..start].contains("embed") || text[end..hi].contains("embed") {
            nets.push(text[start..end].to_string());
        }
    }
    nets
}

/// Each section of the changelog (a release, or the changes not yet released) names the one
/// network it embeds, and the changes not yet released name the network `build.rs` embeds.
#[test]
fn each_release_in_the_changelog_names_the_one_network_it_embeds() {
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    let mut sections = changelog.split("\n## ").skip(1).peekable();
    assert!(sections.peek().is_some(), "no section in CHANGELOG.md");
    for (i, section) in sections.enumerate() {
        let title = section.lines().next().unwrap();
        let mut nets = networks_called_embedded(section);
        nets.sort();
        nets.dedup();
        assert_eq!(
            nets.len(),
            1,
            "CHANGELOG.md, {title}: networks called embedded {nets:?}"
        );
        if i == 0 {
            assert_eq!(nets[0], embedded_network(), "CHANGELOG.md, {title}");
        }
    }
}

//! The shape of the source tree that docs/architecture.md promises (issue #13): imports
//! between the top-level modules of `src/` run one way (no circle), the quiescence node stays
//! short enough to read, `main.rs` is a dispatcher, and one move picker serves both searches.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comment lines (doc links name modules without importing
/// them).
fn code(path: &Path) -> String {
    fs::read_to_string(path)
        .expect("read source")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers that follow `crate::` in `text`, including those in a group
/// `crate::{a, b::c}`.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let name = ident(item.trim_start());
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found
}

/// The top-level modules of `src/` and the top-level modules each one imports.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = src();
    let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in fs::read_dir(&root).expect("read src") {
        let path = entry.expect("dir entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            rust_files(&path, files.entry(name).or_default());
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main" {
            files.entry(name).or_default().push(path);
        }
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(module, paths)| {
            let imports = paths
                .iter()
                .flat_map(|p| crate_paths(&code(p)))
                .filter(|m| m != module && modules.contains(m))
                .collect();
            (module.clone(), imports)
        })
        .collect()
}

/// A circle in `graph`, if there is one (depth-first search with colours).
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut done, &mut Vec::new()))
}

/// Each function of `text` (by the line that opens it) and its length in lines, from the
/// `fn` line to the closing brace at the same indentation.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let head = trimmed
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ");
        if !head.starts_with("fn ") {
            continue;
        }
        let indent = &line[..line.len() - trimmed.len()];
        let close = format!("{indent}}}");
        if let Some(end) = lines[i..].iter().position(|l| *l == close) {
            out.push((trimmed.to_string(), end + 1));
        }
    }
    out
}

#[test]
fn top_level_modules_import_one_way() {
    let graph = module_graph();
    assert!(graph.len() >= 10, "modules found: {:?}", graph.keys());
    // The known direction of a few edges, so that the scan is seen to read imports at all.
    assert!(graph["protocol"].contains("search"), "{graph:?}");
    assert!(graph["search"].contains("position"), "{graph:?}");
    assert_eq!(find_circle(&graph), None, "import circle in {graph:?}");
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    graph.insert("a".into(), ["b".to_string()].into());
    graph.insert("b".into(), ["c".to_string()].into());
    graph.insert("c".into(), ["a".to_string()].into());
    assert_eq!(
        find_circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    graph.insert("c".into(), BTreeSet::new());
    assert_eq!(find_circle(&graph), None);
    assert_eq!(
        crate_paths("use crate::{params::X, position::Position};\nlet t = crate::tt::Tt;"),
        ["params", "position", "tt"].map(String::from).into()
    );
}

#[test]
fn the_quiescence_node_fits_on_a_few_screens() {
    let text = code(&src().join("search/qsearch.rs"));
    let lengths = function_lengths(&text);
    let node = lengths
        .iter()
        .find(|(head, _)| head.starts_with("fn qsearch_node("))
        .expect("qsearch_node in qsearch.rs");
    assert!(node.1 > 50, "the measure reads the whole node: {node:?}");
    let longest = lengths.iter().max_by_key(|(_, n)| *n).unwrap();
    assert!(
        longest.1 <= 220,
        "longest function in qsearch.rs: {longest:?}"
    );
}

#[test]
fn main_is_a_dispatcher() {
    let lines = fs::read_to_string(src().join("main.rs"))
        .unwrap()
        .lines()
        .count();
    assert!(lines <= 250, "main.rs has {lines} lines");
}

#[test]
fn one_move_picker_serves_both_searches() {
    let search = src().join("search");
    for file in ["alphabeta.rs", "qsearch.rs"] {
        let text = code(&search.join(file));
        assert!(
            text.contains("MovePicker::") && text.contains("movepick::"),
            "{file} does not take its moves from search/movepick.rs"
        );
    }
}

/// The files of `src/search/` (one per module; a module's own subfolder holds only its tests)
/// and the sibling modules each one imports, through `super::name` or `crate::search::name`.
/// A path to an item of `mod.rs` itself (`super::Searcher` when `Searcher` is no module) is an
/// import of `mod`. Each file's test module, at its end, is left out.
fn search_graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = src().join("search");
    let mut texts = BTreeMap::new();
    for entry in fs::read_dir(&dir).expect("read src/search") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = code(&path);
            let text = match text.find("#[cfg(test)]\nmod tests") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
            texts.insert(name, text);
        }
    }
    let modules: BTreeSet<String> = texts.keys().cloned().collect();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    texts
        .iter()
        .map(|(module, text)| {
            let mut imports = BTreeSet::new();
            for prefix in ["super::", "crate::search::"] {
                for (i, _) in text.match_indices(prefix) {
                    // `crate::search::` also ends in `search::`: count each path once.
                    if prefix == "super::" && text[..i].ends_with("crate::search::") {
                        continue;
                    }
                    let rest = &text[i + prefix.len()..];
                    let names: Vec<String> = match rest.strip_prefix('{') {
                        Some(group) => group[..group.find('}').unwrap_or(group.len())]
                            .split(',')
                            .map(|item| ident(item.trim_start()))
                            .collect(),
                        None => vec![ident(rest)],
                    };
                    for name in names.into_iter().filter(|n| !n.is_empty() && n != "super") {
                        let target = if modules.contains(&name) {
                            name
                        } else {
                            "mod".to_string()
                        };
                        if &target != module {
                            imports.insert(target);
                        }
                    }
                }
            }
            // `mod.rs` re-exports its children's items: `pub use engine::Engine;`.
            if module == "mod" {
                for name in &modules {
                    if text.contains(&format!("use {name}::")) {
                        imports.insert(name.clone());
                    }
                }
            }
            (module.clone(), imports)
        })
        .collect()
}

#[test]
fn the_search_files_import_one_way() {
    let graph = search_graph();
    assert!(graph.len() >= 10, "files found: {:?}", graph.keys());
    // Known edges, so that the scan is seen to read imports at all.
    assert!(graph["alphabeta"].contains("movepick"), "{graph:?}");
    assert!(graph["movepick"].contains("ordering"), "{graph:?}");
    assert!(graph["mod"].contains("engine"), "{graph:?}");
    // The children own their types: none reaches up into `mod.rs`.
    for (module, imports) in &graph {
        assert!(
            module == "mod" || !imports.contains("mod"),
            "{module} imports from search/mod.rs: {imports:?}"
        );
    }
    assert_eq!(find_circle(&graph), None, "import circle in {graph:?}");
}

#[test]
fn the_main_search_node_and_the_search_files_stay_short() {
    let dir = src().join("search");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(files.len() >= 10);
    for file in &files {
        let lines = fs::read_to_string(file).unwrap().lines().count();
        assert!(lines <= 700, "{} has {lines} lines", file.display());
    }
    let lengths = function_lengths(&code(&dir.join("alphabeta.rs")));
    let node = lengths
        .iter()
        .find(|(head, _)| head.contains("fn negamax("))
        .expect("negamax in alphabeta.rs");
    assert!(node.1 > 100, "the measure reads the whole node: {node:?}");
    assert!(node.1 <= 250, "negamax has {} code lines", node.1);
}

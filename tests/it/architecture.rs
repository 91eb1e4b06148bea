//! The shape of the source tree that docs/architecture.md promises: imports
//! between the top-level modules of `src/` run one way (no circle), the quiescence node stays
//! short enough to read, `main.rs` is a dispatcher, and one move picker serves both searches.
//! The page itself is checked against the source: every name it cites in backticks (module,
//! file, type, function, `Type::method`, `module::item`) must exist in `src/` (or the file in
//! the repository), every path of the repository its prose names (`nets/…`, `scripts/…`) must
//! exist, it must cite the network `build.rs` embeds, and its module table must state exactly
//! the imports this file's scan (`module_graph`) finds, in an order where every import points
//! down the table.

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
    assert!(node.1 <= 200, "negamax has {} code lines", node.1);
}

// ---------------------------------------------------------------------------------------------
// docs/architecture.md as a checked map: every name it cites in backticks exists, and its
// module table states the imports that `module_graph` (the scan above) finds.

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every file and folder below `dir` (relative paths with `/`), but `.git` and `target`.
fn all_paths(dir: &Path, base: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == ".git" || name == "target" {
            continue;
        }
        let rel = path
            .strip_prefix(base)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            out.push(format!("{rel}/"));
            all_paths(&path, base, out);
        } else {
            out.push(rel);
        }
    }
}

/// `a/{b,c}.rs` as `a/b.rs`, `a/c.rs` (one group).
fn expand_braces(s: &str) -> Vec<String> {
    match (s.find('{'), s.find('}')) {
        (Some(open), Some(close)) if open < close => s[open + 1..close]
            .split(',')
            .map(|part| format!("{}{}{}", &s[..open], part, &s[close + 1..]))
            .collect(),
        _ => vec![s.to_string()],
    }
}

/// Whether a name cited in backticks is a file's: it ends in the extension of a file kind
/// the repository holds (`build.rs`, `lull-6.nnue`, `Cargo.toml`), or it is the `Makefile`.
fn is_file_name(s: &str) -> bool {
    const KINDS: [&str; 15] = [
        "rs", "py", "sh", "md", "nnue", "toml", "lock", "yml", "json", "epd", "pgn", "css", "js",
        "html", "txt",
    ];
    s == "Makefile"
        || s.rsplit_once('.')
            .is_some_and(|(stem, kind)| !stem.is_empty() && KINDS.contains(&kind))
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// What the source defines, for the doc check.
struct SourceIndex {
    /// Paths of the repository (files, and folders with a trailing `/`).
    paths: Vec<String>,
    /// The folders at the top of the repository (`nets`, `scripts`, `src`, …): a word of the
    /// page's prose that starts with one of them and a `/` is a path of the repository.
    top_folders: BTreeSet<String>,
    /// The code (comments left out) of each file of `src/`, by path relative to `src/`.
    code: BTreeMap<String, String>,
    /// Every word of the code of `src/` (identifiers, and the words of string literals).
    words: BTreeSet<String>,
}

impl SourceIndex {
    fn new() -> Self {
        let mut paths = Vec::new();
        all_paths(&repo(), &repo(), &mut paths);
        let mut files = Vec::new();
        rust_files(&src(), &mut files);
        let mut code_of = BTreeMap::new();
        let mut all_words = BTreeSet::new();
        for file in files {
            let rel = file
                .strip_prefix(src())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = code(&file);
            all_words.extend(words(&text).map(String::from));
            code_of.insert(rel, text);
        }
        let manifest = fs::read_to_string(repo().join("Cargo.toml")).unwrap();
        for line in manifest.lines() {
            if let Some((name, _)) = line.split_once(" = ") {
                all_words.insert(name.trim().to_string());
            }
        }
        let top_folders = paths
            .iter()
            .filter_map(|p| p.strip_suffix('/'))
            .filter(|p| !p.contains('/'))
            .map(String::from)
            .collect();
        Self {
            paths,
            top_folders,
            code: code_of,
            words: all_words,
        }
    }

    /// Whether the file or folder cited in backticks exists: the path as the repository has
    /// it, or the end of one (`search/why.rs` for `src/search/why.rs`, `lull-6.nnue`).
    fn path_exists(&self, cited: &str) -> bool {
        expand_braces(cited).iter().all(|p| {
            self.paths
                .iter()
                .any(|have| have == p || have.ends_with(&format!("/{p}")))
        })
    }

    /// Whether the path of the repository that the prose names exists, exactly so from the
    /// top of the repository (`nets/lull-6.nnue`, `docs/`).
    fn repo_path_exists(&self, cited: &str) -> bool {
        expand_braces(cited)
            .iter()
            .all(|p| self.paths.iter().any(|have| have == p))
    }

    /// The paths of the repository that a line of prose (the text outside backticks) names:
    /// its words that start with a folder at the top of the repository and a `/`
    /// (`nets/lull-6.nnue`, `scripts/soak.py`, `docs/strength.md`), the punctuation around
    /// them left out.
    fn prose_paths<'t>(&self, prose: &'t str) -> Vec<&'t str> {
        prose
            .split(|c: char| c.is_whitespace() || "()[]<>\"'*".contains(c))
            .map(|w| w.trim_end_matches(['.', ',', ';', ':', '!', '?']))
            .filter(|w| {
                w.split_once('/')
                    .is_some_and(|(top, _)| self.top_folders.contains(top))
            })
            .collect()
    }

    /// The files of module `path` (`["protocol", "uci"]`, or the end of a path from a
    /// submodule: `["searcher"]`): its own file, or its folder.
    fn module_files(&self, path: &[&str]) -> Vec<&String> {
        let base = path.join("/");
        self.code
            .keys()
            .filter(|f| {
                **f == format!("{base}.rs")
                    || f.ends_with(&format!("/{base}.rs"))
                    || f.starts_with(&format!("{base}/"))
                    || f.contains(&format!("/{base}/"))
            })
            .collect()
    }

    /// Whether `text` defines `name` (a function, type, constant, module or macro).
    fn defines(text: &str, name: &str) -> bool {
        let kinds = [
            "fn", "struct", "enum", "trait", "const", "static", "type", "mod",
        ];
        let tokens: Vec<&str> = words(text).collect();
        tokens
            .windows(2)
            .any(|w| w[1] == name && kinds.contains(&w[0]))
            || text.contains(&format!("macro_rules! {name}"))
    }

    /// Whether `member` is a function, constant or variant of the type `ty`.
    fn has_member(&self, ty: &str, member: &str) -> bool {
        self.code.values().any(|text| {
            let implements = text.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("impl")
                    && l.split('{')
                        .next()
                        .is_some_and(|head| words(head).any(|w| w == ty))
            });
            let is_enum = Self::defines(text, ty) && text.contains(&format!("enum {ty}"));
            (implements && Self::defines(text, member))
                || (is_enum && words(text).any(|w| w == member))
        })
    }

    /// Why the name cited in backticks does not exist, or `None` when it does. `last_type`
    /// is the type of the previous `Type::member`, for a citation `::member`.
    fn check(&self, cited: &str, last_type: &mut Option<String>) -> Option<String> {
        let s = cited.trim_end_matches("()");
        // Protocol text, commands, options with values, expressions, the system's files
        // (`/dev/zero`): prose, not names of the source.
        if s.contains(|c: char| " <>[]()=!…|'\"".contains(c))
            || s.starts_with('-')
            || s.starts_with('/')
            || s == ":"
        {
            return None;
        }
        if s.contains('/') || s.contains('{') || is_file_name(s) {
            return (!self.path_exists(s)).then(|| format!("no file or folder {s}"));
        }
        if s.contains('.') && !s.contains("::") {
            // `Session.book`: a type and its field.
            let (ty, field) = s.split_once('.').unwrap();
            let ok = self.words.contains(ty) && self.words.contains(field);
            return (!ok).then(|| format!("no {s}"));
        }
        if !s.contains("::") {
            return (!self.words.contains(s)).then(|| format!("no name {s} in src/"));
        }
        let mut segments: Vec<&str> = s.split("::").collect();
        let owned;
        if segments[0].is_empty() {
            let Some(ty) = last_type.as_ref() else {
                return Some(format!("{s}: no type before it"));
            };
            owned = ty.clone();
            segments[0] = &owned;
        }
        segments.retain(|seg| !["lull", "crate", "super", "self", ""].contains(seg));
        // Walk the module path.
        let mut module: Vec<&str> = Vec::new();
        while let Some(&seg) = segments.first() {
            let mut next = module.clone();
            next.push(seg);
            if seg.starts_with(|c: char| c.is_lowercase()) && !self.module_files(&next).is_empty() {
                module = next;
                segments.remove(0);
            } else {
                break;
            }
        }
        let files = if module.is_empty() {
            self.code.keys().collect()
        } else {
            self.module_files(&module)
        };
        let defined_in_module =
            |name: &str| files.iter().any(|f| Self::defines(&self.code[*f], name));
        match segments.as_slice() {
            [] => None,
            [item] => (!defined_in_module(item))
                .then(|| format!("{s}: no {item} in {}", module.join("::"))),
            [ty, member] => {
                *last_type = Some(ty.to_string());
                if !defined_in_module(ty) {
                    Some(format!("{s}: no type {ty}"))
                } else if !self.has_member(ty, member) {
                    Some(format!("{s}: {ty} has no {member}"))
                } else {
                    None
                }
            }
            _ => Some(format!("{s}: a path this check does not read")),
        }
    }

    /// The names and paths of `doc` that do not exist, each with its line: every name in
    /// backticks, and every path of the repository its prose names.
    fn missing(&self, doc: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut last_type = None;
        for (n, line) in doc.lines().enumerate() {
            for (i, part) in line.split('`').enumerate() {
                if i % 2 == 1 {
                    if let Some(why) = self.check(part, &mut last_type) {
                        out.push(format!("line {}: {why}", n + 1));
                    }
                } else {
                    for path in self.prose_paths(part) {
                        if !self.repo_path_exists(path) {
                            out.push(format!("line {}: no file or folder {path}", n + 1));
                        }
                    }
                }
            }
        }
        out
    }

    /// The files of the repository that `doc` cites, in backticks or in its prose.
    fn cited_files(&self, doc: &str) -> BTreeSet<String> {
        let mut files = BTreeSet::new();
        for line in doc.lines() {
            for (i, part) in line.split('`').enumerate() {
                if i % 2 == 1 {
                    let system = part.starts_with('/') || part.contains([' ', '(']);
                    if !system && (part.contains('/') || is_file_name(part)) {
                        files.extend(expand_braces(part));
                    }
                } else {
                    files.extend(self.prose_paths(part).into_iter().flat_map(expand_braces));
                }
            }
        }
        files
    }
}

fn architecture_doc() -> String {
    fs::read_to_string(repo().join("docs/architecture.md")).expect("read docs/architecture.md")
}

#[test]
fn every_name_the_architecture_page_cites_exists() {
    let index = SourceIndex::new();
    let missing = index.missing(&architecture_doc());
    assert!(
        missing.is_empty(),
        "docs/architecture.md names what src/ does not have:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_doc_check_finds_a_missing_name() {
    let index = SourceIndex::new();
    // The names of a page that tells the truth pass...
    let good = "`MovePicker::main`, `::quiescence`; `protocol::uci::parse`, `Session::join`, \
                `search/movepick.rs`, `render/{text,dot,html}.rs`, `negamax`, `tools/`";
    assert_eq!(index.missing(good), Vec::<String>::new());
    // ...and so do the files of the repository it cites, in backticks or in its prose...
    let files = "`nets/lull-6.nnue` and `build.rs`, `Cargo.toml`, `Makefile`, `lull-6.nnue`; \
                 the network nets/lull-6.nnue (build.rs), scripts/release.sh, assets/wac.epd, \
                 (docs/strength.md), the folder scripts/.";
    assert_eq!(index.missing(files), Vec::<String>::new());
    // ...and each of these fails: a method, a function of a module, a file, a name, a file of
    // the repository cited in backticks or in prose.
    for bad in [
        "`MovePicker::evasions`",
        "`MovePicker::main`, `::evasions`",
        "`protocol::uci::parse_go_line`",
        "`search/evasions.rs`",
        "`render/{text,svg}.rs`",
        "`NoSuchType`",
        "`Session::resume`",
        "`nets/lull-9.nnue`",
        "`lull-9.nnue`",
        "the embedded network, nets/lull-9.nnue.",
        "the script (scripts/soak.sh) runs",
        "see docs/nowhere.md, which",
        "its files in assets/nowhere/",
    ] {
        assert_eq!(
            index.missing(bad).len(),
            1,
            "{bad}: {:?}",
            index.missing(bad)
        );
    }
}

/// The page names the network that `build.rs` embeds, and `build.rs` itself, as files: the
/// check above then proves that they exist.
#[test]
fn the_architecture_page_cites_the_embedded_network_file() {
    let build = fs::read_to_string(repo().join("build.rs")).unwrap();
    let embedded = build
        .lines()
        .find_map(|l| l.strip_prefix("const DEFAULT_NET: &str = \""))
        .and_then(|rest| rest.split('"').next())
        .expect("build.rs names DEFAULT_NET");
    let index = SourceIndex::new();
    let cited = index.cited_files(&architecture_doc());
    for file in [embedded, "build.rs"] {
        assert!(
            cited.contains(file),
            "docs/architecture.md does not cite {file}: {cited:?}"
        );
    }
    assert!(index.repo_path_exists(embedded), "{embedded}");
}

/// The module table of docs/architecture.md: each row's modules and the imports it states
/// (`None` for "everything below").
fn module_table(doc: &str) -> Vec<(Vec<String>, Option<BTreeSet<String>>)> {
    let section = doc
        .split("## The module map")
        .nth(1)
        .expect("a module map section");
    let mut rows = Vec::new();
    for line in section
        .lines()
        .skip_while(|l| !l.starts_with("| module"))
        .skip(2)
    {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 3, "a row of three cells: {line}");
        let ticked = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(|m| m.trim_end_matches('/').trim_end_matches(".rs").to_string())
                .collect()
        };
        let modules = ticked(cells[0]);
        let imports = if cells[2].contains("everything below") {
            None
        } else {
            Some(ticked(cells[2]).into_iter().collect())
        };
        rows.push((modules, imports));
    }
    rows
}

/// `module_graph` and the modules `main.rs` imports (`lull::name`).
fn graph_with_main() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = module_graph();
    let main = code(&src().join("main.rs"));
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    let imports = main
        .match_indices("lull::")
        .map(|(i, _)| {
            main[i + "lull::".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|m| modules.contains(m))
        .collect();
    graph.insert("main".to_string(), imports);
    graph
}

#[test]
fn the_architecture_module_table_is_the_import_scan() {
    let graph = graph_with_main();
    let rows = module_table(&architecture_doc());
    assert!(rows.len() >= 10, "rows read: {rows:?}");
    let mut row_of = BTreeMap::new();
    for (i, (modules, _)) in rows.iter().enumerate() {
        for m in modules {
            assert!(
                graph.contains_key(m),
                "the table lists {m}, which src/ does not have"
            );
            row_of.insert(m.clone(), i);
        }
    }
    for module in graph.keys() {
        assert!(
            row_of.contains_key(module),
            "the table does not list {module}"
        );
    }
    for (i, (modules, stated)) in rows.iter().enumerate() {
        let found: BTreeSet<String> = modules.iter().flat_map(|m| graph[m].clone()).collect();
        // One way, top to bottom: every import is of a module listed below.
        for import in &found {
            assert!(
                row_of[import] > i,
                "{modules:?} imports {import}, which the table lists above them"
            );
        }
        if let Some(stated) = stated {
            let stated: BTreeSet<String> = stated
                .iter()
                .filter(|m| graph.contains_key(*m))
                .cloned()
                .collect();
            assert_eq!(
                &stated, &found,
                "the imports the table states for {modules:?} (left) are not those of the \
                 source (right)"
            );
        }
    }
}

#[test]
fn the_protocol_skins_stay_short() {
    let protocol = src().join("protocol");
    for skin in ["uci.rs", "xboard.rs"] {
        let lines = fs::read_to_string(protocol.join(skin))
            .unwrap()
            .lines()
            .count();
        assert!(lines > 100, "the measure reads the whole skin: {skin}");
        assert!(lines <= 800, "protocol/{skin} has {lines} lines");
    }
    // The command loop and the output have modules of their own.
    let shared = code(&protocol.join("mod.rs"));
    for item in ["fn run_loop", "fn say", "fn read_line_bounded"] {
        assert!(!shared.contains(item), "protocol/mod.rs holds {item}");
    }
}

/// `src/tools/` is grouped by job: beside `mod.rs` and the command-line helpers of `cli.rs`
/// it holds only folders, each a group whose `mod.rs` opens with a module comment that says
/// what job the group serves.
#[test]
fn the_tools_are_grouped_by_job() {
    let tools = src().join("tools");
    let mut groups = Vec::new();
    for entry in fs::read_dir(&tools).expect("read src/tools") {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            groups.push(name);
        } else {
            assert!(
                name == "mod.rs" || name == "cli.rs",
                "src/tools/{name} is a file outside the groups"
            );
        }
    }
    assert!(groups.len() >= 4, "groups found: {groups:?}");
    for group in &groups {
        let text = fs::read_to_string(tools.join(group).join("mod.rs"))
            .unwrap_or_else(|e| panic!("src/tools/{group}/mod.rs: {e}"));
        let comment: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| l.trim_start_matches("//!"))
            .collect();
        assert!(
            comment.join(" ").split_whitespace().count() >= 8,
            "src/tools/{group}/mod.rs does not open with a `//!` comment that says its job"
        );
    }
}

/// Both searches read as numbered steps: in `alphabeta.rs` and in `qsearch.rs` the comments
/// that open a step (`// Step N.` or `/// Step N.`, or `Step N,` for a step's
/// part) number 1, 2, … with none missing, and no
/// comment anywhere in `src/` cites a lettered step (`Step 8b`, `(10a)`): the code numbers its
/// steps without letters, so a lettered citation names a step that no longer exists.
#[test]
fn both_searches_number_their_steps_without_letters() {
    let search = src().join("search");
    for (file, last) in [("alphabeta.rs", 21), ("qsearch.rs", 17)] {
        let text = fs::read_to_string(search.join(file)).unwrap();
        let mut opened = BTreeSet::new();
        for line in text.lines() {
            let line = line.trim_start();
            let Some(rest) = line
                .strip_prefix("/// Step ")
                .or_else(|| line.strip_prefix("// Step "))
            else {
                continue;
            };
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            assert!(
                rest[digits.len()..].starts_with(['.', ',']),
                "{file}: a step heading that is not `Step N.`: {line}"
            );
            opened.insert(digits.parse::<u32>().unwrap());
        }
        let expected: BTreeSet<u32> = (1..=last).collect();
        assert_eq!(opened, expected, "{file}: the steps its comments open");
    }
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    for path in files {
        for (n, line) in fs::read_to_string(&path).unwrap().lines().enumerate() {
            let Some(at) = line.find("//") else { continue };
            let words: Vec<&str> = line[at..].split_whitespace().collect();
            for pair in words.windows(2) {
                let cited = pair[1].trim_end_matches([',', '.', ')', ':', ';']);
                let lettered = |s: &str| {
                    let digits = s.chars().take_while(char::is_ascii_digit).count();
                    digits > 0
                        && s.len() == digits + 1
                        && s.ends_with(|c: char| c.is_ascii_lowercase())
                };
                let by_name = (pair[0] == "Step" || pair[0] == "Steps") && lettered(cited);
                let in_brackets = pair[1]
                    .strip_prefix('(')
                    .is_some_and(|w| lettered(w.trim_end_matches([')', '.', ',', ':'])));
                assert!(
                    !by_name && !in_brackets,
                    "{}:{}: a lettered step: {line}",
                    path.display(),
                    n + 1
                );
            }
        }
    }
}

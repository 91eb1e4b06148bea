//! Perft against the published suites in `assets/perft/`: move generation, castling
//! (standard and Chess960, X-FEN and Shredder-FEN), en passant, promotions, and
//! `Position::play`/`Position::undo`, checked through Lull's own position type.
//!
//! The default tests check every line of the standard suites (and a sample of the Chess960
//! suite) at every depth whose expected count fits a per-position node budget; the
//! `#[ignore]`d ones go to the full depth (`cargo test --profile ci -- --ignored`).

use std::time::Instant;

use lull::perft::{parse_perft_epd, perft, PerftCase};
use lull::position::Position;

const ETHEREAL: &str = include_str!("../../assets/perft/ethereal_standard.epd");
const CPW: &str = include_str!("../../assets/perft/cpw_perft_positions.epd");
const FRC: &str = include_str!("../../assets/perft/frc_perftsuite.epd");

/// Node budget per (position, depth) in the default tests: a depth is checked when its
/// expected count is at most this.
const BUDGET: u64 = 5_000_000;

/// One suite entry with where it came from, for messages.
struct Entry {
    file: &'static str,
    /// 1-based line number in the file.
    line: usize,
    case: PerftCase,
}

/// All entries of a suite. Fails on any malformed line, on a line without counts, and if the
/// parser returns a different number of entries than the file has non-blank lines.
fn load(file: &'static str, text: &str) -> Vec<Entry> {
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#')
        })
        .map(|(i, _)| i + 1)
        .collect();
    let parsed = parse_perft_epd(text);
    assert_eq!(
        parsed.len(),
        lines.len(),
        "{file}: parser returned {} entries for {} non-blank lines",
        parsed.len(),
        lines.len()
    );
    assert!(!parsed.is_empty(), "{file}: no entries");
    parsed
        .into_iter()
        .zip(lines)
        .map(|(r, line)| {
            let case = r.unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(!case.counts.is_empty(), "{file}:{line}: no depth counts");
            Entry { file, line, case }
        })
        .collect()
}

/// The (depth, expected) pairs of an entry to check: those with an expected count within
/// `budget` (all of them when `budget` is `None`), capped at `max_depth`. A line whose
/// shallowest listed depth is over the budget still has that depth checked, so that no line
/// is skipped; the returned flag says so.
fn selected(e: &Entry, budget: Option<u64>, max_depth: u32) -> (Vec<(u32, u64)>, bool) {
    let mut counts = e.case.counts.clone();
    counts.sort_unstable();
    let shallowest = counts[0];
    assert!(
        shallowest.0 >= 1 && shallowest.0 <= max_depth,
        "{}:{}: no depth between 1 and {max_depth}",
        e.file,
        e.line
    );
    let mut picked: Vec<(u32, u64)> = counts
        .into_iter()
        .filter(|&(d, n)| d <= max_depth && budget.is_none_or(|b| n <= b))
        .collect();
    let forced = picked.is_empty();
    if forced {
        picked.push(shallowest);
    }
    (picked, forced)
}

/// Runs perft for the chosen depths of every entry, split over the available cores.
/// Returns the number of (position, depth) pairs checked and the nodes counted; panics with
/// every mismatch (and every FEN that does not parse) listed.
fn check(entries: &[&Entry], budget: Option<u64>, max_depth: u32) -> (usize, u64) {
    let mut jobs: Vec<(&Entry, Vec<(u32, u64)>)> = Vec::with_capacity(entries.len());
    for e in entries {
        let (depths, forced) = selected(e, budget, max_depth);
        if forced {
            println!(
                "{}:{}: shallowest depth D{} ({} nodes) is over the budget, checked anyway",
                e.file, e.line, depths[0].0, depths[0].1
            );
        }
        jobs.push((*e, depths));
    }
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(jobs.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, u64, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let (mut pairs, mut nodes, mut errors) = (0usize, 0u64, Vec::new());
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((e, depths)) = jobs.get(i) else {
                            break;
                        };
                        let mut pos = match Position::from_fen(&e.case.fen) {
                            Ok(p) => p,
                            Err(err) => {
                                errors.push(format!("{}:{}: {err}", e.file, e.line));
                                continue;
                            }
                        };
                        let start = pos.board().clone();
                        for &(depth, expected) in depths {
                            let got = perft(&mut pos, depth);
                            pairs += 1;
                            nodes += got;
                            if got != expected {
                                errors.push(format!(
                                    "{}:{}: {} depth {depth}: expected {expected}, got {got}",
                                    e.file, e.line, e.case.fen
                                ));
                            }
                            if pos.game_ply() != 0 || *pos.board() != start {
                                errors.push(format!(
                                    "{}:{}: position changed by perft {depth}",
                                    e.file, e.line
                                ));
                            }
                        }
                    }
                    (pairs, nodes, errors)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("perft worker panicked"))
            .collect()
    });
    let mut pairs = 0;
    let mut nodes = 0;
    let mut errors = Vec::new();
    for (p, n, e) in results {
        pairs += p;
        nodes += n;
        errors.extend(e);
    }
    assert!(
        errors.is_empty(),
        "{} failure(s):\n{}",
        errors.len(),
        errors.join("\n")
    );
    let expected_pairs: usize = jobs.iter().map(|(_, d)| d.len()).sum();
    assert_eq!(pairs, expected_pairs, "not every selected depth was run");
    assert!(pairs >= entries.len(), "every line contributes a depth");
    (pairs, nodes)
}

fn standard_entries() -> Vec<Entry> {
    let mut all = load("ethereal_standard.epd", ETHEREAL);
    all.extend(load("cpw_perft_positions.epd", CPW));
    all
}

/// Whether the castling field of a FEN uses X-FEN letters (`KQkq`) rather than file letters.
fn is_xfen(fen: &str) -> bool {
    fen.split_whitespace()
        .nth(2)
        .is_some_and(|c| c.chars().any(|ch| "KQkq".contains(ch)))
}

fn report(what: &str, entries: usize, pairs: usize, nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{what}: {entries} positions, {pairs} (position, depth) pairs, {nodes} nodes in {secs:.2} s ({:.1} Mnps)",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}

#[test]
fn standard_suites_within_budget() {
    let start = Instant::now();
    let entries = standard_entries();
    let refs: Vec<&Entry> = entries.iter().collect();
    let (pairs, nodes) = check(&refs, Some(BUDGET), u32::MAX);
    report(
        &format!("standard suites, budget {BUDGET}"),
        entries.len(),
        pairs,
        nodes,
        start,
    );
}

#[test]
#[ignore = "deep: about 5.4 billion nodes"]
fn standard_suites_all_depths() {
    let start = Instant::now();
    let entries = standard_entries();
    let refs: Vec<&Entry> = entries.iter().collect();
    let (pairs, nodes) = check(&refs, None, u32::MAX);
    let listed: usize = entries.iter().map(|e| e.case.counts.len()).sum();
    assert_eq!(pairs, listed, "every listed depth must be checked");
    report(
        "standard suites, all depths",
        entries.len(),
        pairs,
        nodes,
        start,
    );
}

#[test]
fn chess960_sample_within_budget() {
    let start = Instant::now();
    let entries = load("frc_perftsuite.epd", FRC);
    let sample: Vec<&Entry> = entries
        .iter()
        .enumerate()
        .filter(|(i, e)| i % 20 == 0 || is_xfen(&e.case.fen))
        .map(|(_, e)| e)
        .collect();
    let xfen = sample.iter().filter(|e| is_xfen(&e.case.fen)).count();
    assert!(xfen > 0, "the sample has no X-FEN lines");
    assert_eq!(
        xfen,
        entries.iter().filter(|e| is_xfen(&e.case.fen)).count(),
        "every X-FEN line is in the sample"
    );
    let (pairs, nodes) = check(&sample, Some(BUDGET), u32::MAX);
    report(
        &format!("Chess960 sample ({xfen} X-FEN), budget {BUDGET}"),
        sample.len(),
        pairs,
        nodes,
        start,
    );
}

/// Deepest depth of the whole-file Chess960 test.
const FRC_DEEP: u32 = 5;

#[test]
#[ignore = "deep: about 19 billion nodes"]
fn chess960_suite_to_depth_5() {
    let start = Instant::now();
    let entries = load("frc_perftsuite.epd", FRC);
    let refs: Vec<&Entry> = entries.iter().collect();
    for e in &refs {
        assert!(
            e.case.counts.iter().any(|&(d, _)| d == FRC_DEEP),
            "{}:{}: no D{FRC_DEEP} count",
            e.file,
            e.line
        );
    }
    let (pairs, nodes) = check(&refs, None, FRC_DEEP);
    let listed: usize = entries
        .iter()
        .map(|e| {
            e.case
                .counts
                .iter()
                .filter(|&&(d, _)| d <= FRC_DEEP)
                .count()
        })
        .sum();
    assert_eq!(
        pairs, listed,
        "every listed depth up to {FRC_DEEP} must be checked"
    );
    report(
        &format!("Chess960 suite to depth {FRC_DEEP}"),
        entries.len(),
        pairs,
        nodes,
        start,
    );
}

/// X-FEN `K`/`Q` name the outermost rook on that side of the king; a file letter names an
/// inner one. Both must give the same board as the Shredder-FEN spelling.
#[test]
fn xfen_castling_letters_name_the_right_rooks() {
    use lull::cozy_chess::{Color, File};
    for (xfen, shredder, white, black) in [
        // Two rooks on the king side: K is the h-file one, E the inner one.
        (
            "1r1k1r1r/8/8/8/8/8/8/3KR2R w Kk - 0 1",
            "1r1k1r1r/8/8/8/8/8/8/3KR2R w Hh - 0 1",
            (Some(File::H), None),
            (Some(File::H), None),
        ),
        (
            "1r1k1r1r/8/8/8/8/8/8/3KR2R w Ef - 0 1",
            "1r1k1r1r/8/8/8/8/8/8/3KR2R w Ef - 0 1",
            (Some(File::E), None),
            (Some(File::F), None),
        ),
        // Queen side: Q/q is the outermost (b-file) rook, C/c the inner one.
        (
            "1rr1k3/8/8/8/8/8/8/1RR1K3 w Qc - 0 1",
            "1rr1k3/8/8/8/8/8/8/1RR1K3 w Bc - 0 1",
            (None, Some(File::B)),
            (None, Some(File::C)),
        ),
    ] {
        let a = Position::from_fen(xfen).unwrap_or_else(|e| panic!("{e}"));
        let b = Position::from_fen(shredder).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.board(), b.board(), "{xfen} vs {shredder}");
        for (color, (short, long)) in [(Color::White, white), (Color::Black, black)] {
            let rights = a.board().castle_rights(color);
            assert_eq!(
                (rights.short, rights.long),
                (short, long),
                "{xfen} {color:?}"
            );
        }
    }
    // A right with no rook to name, or a king off its back rank, is an error, not a panic.
    for bad in [
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "r3k3/8/8/8/8/8/4K3/R7 w Q - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Qx - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w QA - 0 1",
    ] {
        assert!(Position::from_fen(bad).is_err(), "{bad}");
    }
}

//! Shared by the property tests of bad input (`tests/proptest/proptest_*.rs`): the runner with its two
//! case counts (the default run's and the ignored companions'), a panic counter that sees the
//! panics other code catches, and the strategies that make random text, random token lines and
//! mutations of valid input.

#![allow(dead_code)]

pub mod protocol;

use std::cell::Cell;
use std::fmt::Debug;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Cases of each property in the default run.
pub const CASES: u32 = 1_000;
/// Cases of each ignored companion (`cargo test --profile ci -- --ignored prop_`).
pub const CASES_IGNORED: u32 = 100_000;

thread_local! {
    /// Whether this thread runs the cases of a property.
    static IN_CHECK: Cell<bool> = const { Cell::new(false) };
    /// Panics on this thread while it ran cases, caught or not.
    static CASE_PANICS: Cell<usize> = const { Cell::new(0) };
}

/// Panics on the threads that run no cases (the engine's search threads), caught or not.
static OTHER_PANICS: AtomicUsize = AtomicUsize::new(0);

/// Installs the panic hook that counts panics (once per test binary), keeping the default
/// message.
fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_CHECK.get() {
                CASE_PANICS.set(CASE_PANICS.get() + 1);
            } else {
                OTHER_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
    });
}

/// Runs `test` on `cases` values of `strategy`. A case fails when it returns an error, panics,
/// or makes a panic that something caught on its own thread (cozy-chess's FEN parser runs
/// inside `catch_unwind`): the input is shrunk and the test fails with it.
pub fn check<S>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S: Strategy,
    S::Value: Debug,
{
    run_cases(cases, strategy, test, false);
}

/// [`check`], where a panic on any other thread (a search thread of the engine, whose panic
/// the session catches) also fails the case. Only for a test binary that runs one such test
/// at a time: a failing test's panic on another test thread would count too.
pub fn check_all_threads<S>(
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S: Strategy,
    S::Value: Debug,
{
    run_cases(cases, strategy, test, true);
}

fn run_cases<S>(
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
    all_threads: bool,
) where
    S: Strategy,
    S::Value: Debug,
{
    count_panics();
    let config = Config {
        cases,
        // Failures become regression tests written by hand, not files in the tree.
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    IN_CHECK.set(true);
    let result = runner.run(&strategy, |value| {
        let before = (CASE_PANICS.get(), OTHER_PANICS.load(Ordering::SeqCst));
        test(value)?;
        prop_assert_eq!(
            CASE_PANICS.get(),
            before.0,
            "a panic was caught in the code under test"
        );
        if all_threads {
            let after = OTHER_PANICS.load(Ordering::SeqCst);
            prop_assert_eq!(after, before.1, "a panic was caught on another thread");
        }
        Ok(())
    });
    IN_CHECK.set(false);
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Text as a test's input: bytes made a string the way a line reader would (invalid UTF-8
/// replaced).
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Random text: any Unicode, printable ASCII with tabs and newlines, or raw bytes.
pub fn random_text(max: usize) -> BoxedStrategy<String> {
    prop_oneof![
        proptest::string::string_regex(&format!("(?s).{{0,{max}}}")).unwrap(),
        proptest::string::string_regex(&format!("[ -~\t\n\r]{{0,{max}}}")).unwrap(),
        vec(any::<u8>(), 0..max).prop_map(|b| lossy(&b)),
    ]
    .boxed()
}

/// A number as a protocol would see it: small, huge, negative, signed, fractional, or not
/// quite a number.
pub fn number() -> BoxedStrategy<String> {
    prop_oneof![
        (0u64..100).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|n| n.to_string()),
        select(vec![
            "-0",
            "+5",
            "-1",
            "00",
            "0.5",
            "1e300",
            "-1e300",
            "NaN",
            "inf",
            "-inf",
            "0x10",
            "1_000",
            "99999999999999999999999999",
            "-99999999999999999999999999",
            "1:30",
            "5:75",
            ":",
            "1:",
            "",
        ])
        .prop_map(str::to_string),
    ]
    .boxed()
}

/// A word that looks like a move: coordinates (some off the board), castling, SAN.
pub fn move_word() -> BoxedStrategy<String> {
    prop_oneof![
        proptest::string::string_regex("[a-j][0-9][a-j][0-9][qrbnkpQ]?").unwrap(),
        select(vec![
            "e2e4", "e7e5", "g1f3", "b8c6", "e1g1", "e1h1", "e1c1", "e8g8", "a7a8q", "h2h1n",
            "O-O", "O-O-O", "0-0", "o-o", "Nf3", "exd5", "e8=Q", "Qxh7#", "0000", "@@@@",
        ])
        .prop_map(str::to_string),
    ]
    .boxed()
}

/// A line of 0 to `max` tokens: words of `vocabulary`, numbers, moves, FEN fields and
/// garbage, joined by random white space.
pub fn token_line(vocabulary: Vec<&'static str>, max: usize) -> BoxedStrategy<String> {
    let token = prop_oneof![
        4 => select(vocabulary).prop_map(str::to_string),
        2 => number(),
        1 => move_word(),
        1 => select(vec![
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "8/8/8/8/8/8/8/8", "w", "b",
            "KQkq", "HAha", "-", "e3", "0", "1",
        ])
        .prop_map(str::to_string),
        1 => proptest::string::string_regex("[!-~]{1,12}").unwrap(),
        1 => proptest::string::string_regex("\\PC{1,6}").unwrap(),
    ];
    let gap = select(vec![" ", " ", " ", "  ", "\t", " \r"]);
    vec((token, gap), 0..max)
        .prop_map(|parts| {
            let mut line = String::new();
            for (t, g) in parts {
                line.push_str(&t);
                line.push_str(g);
            }
            line
        })
        .boxed()
}

/// One change to a text.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// XOR one byte with a value.
    Flip(Index, u8),
    /// Replace one byte with a character the format uses.
    Set(Index, u8),
    /// Cut the text at a point.
    Truncate(Index),
    /// Copy a stretch of the text to right after itself.
    Duplicate(Index, Index),
    /// Remove a stretch.
    Delete(Index, Index),
    /// Insert a word of the format (with spaces around it or not).
    Insert(Index, String, bool),
}

impl Mutation {
    fn apply(&self, text: &mut Vec<u8>) {
        let len = text.len();
        // A stretch of at most 16 bytes from `a`.
        let span = |a: &Index, b: &Index| {
            let start = a.index(len + 1);
            let end = (start + b.index(17)).min(len);
            (start, end)
        };
        match self {
            Mutation::Flip(at, x) if len > 0 => text[at.index(len)] ^= (*x).max(1),
            Mutation::Set(at, c) if len > 0 => text[at.index(len)] = *c,
            Mutation::Truncate(at) => text.truncate(at.index(len + 1)),
            Mutation::Duplicate(a, b) => {
                let (start, end) = span(a, b);
                let copy = text[start..end].to_vec();
                text.splice(end..end, copy);
            }
            Mutation::Delete(a, b) => {
                let (start, end) = span(a, b);
                text.drain(start..end);
            }
            Mutation::Insert(at, word, spaced) => {
                let at = at.index(len + 1);
                let word = if *spaced {
                    format!(" {word} ")
                } else {
                    word.clone()
                };
                text.splice(at..at, word.into_bytes());
            }
            _ => {}
        }
    }
}

/// A change to a text of a format: `alphabet` are the bytes the format is made of, `words`
/// its keywords.
pub fn mutation(alphabet: &'static [u8], words: Vec<&'static str>) -> BoxedStrategy<Mutation> {
    let word = prop_oneof![
        3 => select(words).prop_map(str::to_string),
        1 => number(),
        1 => move_word(),
    ];
    prop_oneof![
        3 => (any::<Index>(), any::<u8>()).prop_map(|(i, x)| Mutation::Flip(i, x)),
        4 => (any::<Index>(), select(alphabet)).prop_map(|(i, c)| Mutation::Set(i, c)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Duplicate(a, b)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Delete(a, b)),
        3 => (any::<Index>(), word, any::<bool>()).prop_map(|(i, w, s)| Mutation::Insert(i, w, s)),
    ]
    .boxed()
}

/// A valid input of `seeds` with up to `max` mutations, as bytes.
pub fn mutated_bytes(
    seeds: Vec<Vec<u8>>,
    alphabet: &'static [u8],
    words: Vec<&'static str>,
    max: usize,
) -> BoxedStrategy<Vec<u8>> {
    (select(seeds), vec(mutation(alphabet, words), 0..=max))
        .prop_map(|(mut text, changes)| {
            for change in &changes {
                change.apply(&mut text);
            }
            text
        })
        .boxed()
}

/// A valid text of `seeds` with up to `max` mutations, as a string (invalid UTF-8 replaced).
pub fn mutated(
    seeds: Vec<String>,
    alphabet: &'static [u8],
    words: Vec<&'static str>,
    max: usize,
) -> BoxedStrategy<String> {
    let seeds = seeds.into_iter().map(String::into_bytes).collect();
    mutated_bytes(seeds, alphabet, words, max)
        .prop_map(|b| lossy(&b))
        .boxed()
}

/// The FENs of the perft suites and of the WAC suite (with move counters where given).
pub fn seed_fens() -> Vec<String> {
    let suites = [
        include_str!("../../../assets/perft/cpw_perft_positions.epd"),
        include_str!("../../../assets/perft/ethereal_standard.epd"),
        include_str!("../../../assets/perft/frc_perftsuite.epd"),
    ];
    let mut fens: Vec<String> = suites
        .iter()
        .flat_map(|s| s.lines())
        .filter_map(|l| l.split(';').next())
        .map(|f| f.trim().to_string())
        .filter(|f| !f.is_empty())
        .collect();
    fens.extend(
        include_str!("../../../assets/wac.epd")
            .lines()
            .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
            .filter(|f| !f.is_empty()),
    );
    fens
}

/// The bytes FENs are made of.
pub const FEN_ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqAHaheh0369";

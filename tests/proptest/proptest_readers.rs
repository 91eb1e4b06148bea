//! Random bytes, and valid files truncated, mutated or padded at random, for the readers that
//! `tests/proptest/proptest_inputs.rs` does not cover: the text lines of every file reader
//! (`lull::lines`), the protocol line reader, the training data text (`lull data convert`,
//! `lull tune`), the packed 32-byte records, and the JSON bodies of `lull explore`'s API.
//! Each property: no panic, the reading ends, and what it accepts is consistent (counts add
//! up, records decode to legal positions, statuses are the documented ones).
//!
//! The default run tries 1,000 cases of each; each has an ignored companion of 100,000
//! (`cargo test --profile ci --test proptest proptest_readers:: -- --ignored`).

use crate::fuzz;

use std::io::BufReader;

use fuzz::{check, mutated_bytes, random_text, CASES, CASES_IGNORED, FEN_ALPHABET};
use lull::lines::Lines;
use lull::protocol::read_line_bounded;
use lull::tools::data::convert_text;
use lull::tools::explore::api::handle;
use lull::tools::explore::jobs::JobTable;
use lull::tools::packed::records_from_bytes;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Valid training data text.
fn data_seed() -> Vec<u8> {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0.5 | 12\n\
     # a comment\n\
     \n\
     r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 | 1.0 | 30\n\
     4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1 | 0.0 | -400\r\n\
     nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN b GBgb - 0 1 | 0.0 | -40\n"
        .as_bytes()
        .to_vec()
}

const DATA_WORDS: &[&str] = &[
    "|", "0.5", "1.0", "0.0", "-", "w", "b", "KQkq", "\n", "\r", "#",
];

/// Random bytes, random text, and valid files mutated (truncated, cut, doubled, flipped)
/// or padded with random bytes.
fn inputs(
    seed: Vec<u8>,
    alphabet: &'static [u8],
    words: Vec<&'static str>,
) -> BoxedStrategy<Vec<u8>> {
    let padded = (Just(seed.clone()), vec(any::<u8>(), 0..200)).prop_map(|(mut s, pad)| {
        s.extend(pad);
        s
    });
    prop_oneof![
        1 => vec(any::<u8>(), 0..400),
        1 => random_text(400).prop_map(String::into_bytes),
        1 => padded,
        4 => mutated_bytes(vec![seed], alphabet, words, 8),
    ]
    .boxed()
}

fn data_inputs() -> BoxedStrategy<Vec<u8>> {
    inputs(data_seed(), FEN_ALPHABET, DATA_WORDS.to_vec())
}

/// Lines: every byte is read, one line per line end (and one for a last unended line), and
/// reading from memory never fails.
fn lines_are_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let mut lines = Lines::new(BufReader::with_capacity(7, bytes.as_slice()));
    let mut count = 0;
    while let Some((no, line)) = lines
        .next_line()
        .map_err(|e| TestCaseError::fail(e.to_string()))?
    {
        count += 1;
        prop_assert_eq!(no, count);
        if let Ok(text) = line {
            prop_assert!(!text.contains('\n'));
            prop_assert!(!text.ends_with('\r'));
        }
    }
    prop_assert_eq!(lines.bytes_read(), bytes.len() as u64);
    let ends = bytes.iter().filter(|&&b| b == b'\n').count();
    let last = usize::from(!bytes.is_empty() && bytes.last() != Some(&b'\n'));
    prop_assert_eq!(count, ends + last);
    Ok(())
}

/// The protocol's reader: it ends, and no line it hands on holds a line end.
fn protocol_lines_are_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let mut reader = BufReader::with_capacity(5, bytes.as_slice());
    let mut count = 0;
    while let Some(line) = read_line_bounded(&mut reader, 64).unwrap() {
        count += 1;
        prop_assert!(count <= bytes.len(), "more lines than bytes");
        if let Ok(text) = line {
            prop_assert!(!text.contains(['\n', '\r']), "{:?}", text);
            prop_assert!(text.len() <= 64);
        }
    }
    Ok(())
}

/// `lull data convert`: the records written decode to legal positions with a result and a
/// score, records plus malformed lines never exceed the lines, and reading from memory never
/// fails.
fn data_is_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let mut out = Vec::new();
    let (summary, errors) =
        convert_text(bytes.as_slice(), &mut out, |_| {}).map_err(TestCaseError::fail)?;
    let lines = bytes.split(|&b| b == b'\n').count();
    prop_assert!(summary.positions + errors.len() <= lines);
    prop_assert_eq!(out.len(), summary.positions * 32);
    for r in records_from_bytes(&out).map_err(TestCaseError::fail)? {
        let (_, result, _) = r.decode().map_err(TestCaseError::fail)?;
        prop_assert!([0.0, 0.5, 1.0].contains(&result));
    }
    // The tuner reads the same text with the same verdicts.
    let (entries, tune_errors) =
        lull::tools::tune::load(&lull::tools::tune::data_text(&bytes), None);
    prop_assert_eq!(entries.len(), summary.positions);
    prop_assert_eq!(tune_errors.len(), errors.len());
    Ok(())
}

/// Packed records: random bytes, and valid records truncated, padded or flipped: either an
/// error, or records that decode (or say why not) without a panic.
fn packed_inputs() -> BoxedStrategy<Vec<u8>> {
    let mut seed = Vec::new();
    let mut out = Vec::new();
    let _ = convert_text(data_seed().as_slice(), &mut out, |_| {});
    seed.extend(out);
    prop_oneof![
        1 => vec(any::<u8>(), 0..400),
        3 => (Just(seed.clone()), vec(any::<u8>(), 0..64), 0..seed.len() + 1).prop_map(|(mut s, pad, cut)| {
            s.truncate(cut);
            s.extend(pad);
            s
        }),
        3 => mutated_bytes(vec![seed], b"\x00\x01\x10\xff", vec!["\x00"], 8),
    ]
    .boxed()
}

fn packed_is_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    if let Ok(records) = records_from_bytes(&bytes) {
        prop_assert_eq!(records.len() * 32, bytes.len());
        for r in &records {
            let _ = r.decode();
        }
    }
    Ok(())
}

/// The explore API: random and mutated JSON bodies on every route but the one that starts
/// searches; every answer is a documented status with a JSON error or a result.
fn api_inputs() -> BoxedStrategy<(usize, Vec<u8>)> {
    let seed = br#"{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "moves": ["e2e4"]}"#.to_vec();
    (
        0..5usize,
        inputs(
            seed,
            b"{}[]\":,0123456789abcdefgh/ ",
            vec!["\"fen\"", "null", "true", "\\u0000", "1e999"],
        ),
    )
        .boxed()
}

fn api_is_consistent((route, body): (usize, Vec<u8>)) -> Result<(), TestCaseError> {
    let jobs = JobTable::new();
    let (method, path) = [
        ("POST", "/api/moves"),
        ("GET", "/api/options"),
        ("POST", "/api/job/1/stop"),
        ("GET", "/api/job/18446744073709551616"),
        ("PUT", "/api/moves"),
    ][route];
    let reply = handle(method, path, &body, &jobs);
    prop_assert!(
        [200, 400, 404, 405, 413].contains(&reply.status),
        "{} {}: {}",
        method,
        path,
        reply.status
    );
    prop_assert!(serde_json::from_str::<serde_json::Value>(&reply.body).is_ok());
    Ok(())
}

#[test]
fn prop_lines() {
    check(CASES, data_inputs(), lines_are_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_lines_100k() {
    check(CASES_IGNORED, data_inputs(), lines_are_consistent);
}

#[test]
fn prop_protocol_lines() {
    check(CASES, data_inputs(), protocol_lines_are_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_protocol_lines_100k() {
    check(CASES_IGNORED, data_inputs(), protocol_lines_are_consistent);
}

#[test]
fn prop_data_text() {
    check(CASES, data_inputs(), data_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_data_text_100k() {
    check(CASES_IGNORED, data_inputs(), data_is_consistent);
}

#[test]
fn prop_packed() {
    check(CASES, packed_inputs(), packed_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_packed_100k() {
    check(CASES_IGNORED, packed_inputs(), packed_is_consistent);
}

#[test]
fn prop_explore_api() {
    check(CASES, api_inputs(), api_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_explore_api_100k() {
    check(CASES_IGNORED, api_inputs(), api_is_consistent);
}

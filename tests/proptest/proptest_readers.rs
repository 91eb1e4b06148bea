//! Random bytes, and valid files truncated, mutated or padded at random, for the readers that
//! `tests/proptest/proptest_inputs.rs` does not cover: the text lines of every file reader
//! (`lull::lines`), the protocol line reader, the training data text (`lull data convert`,
//! `lull tune`), the packed 32-byte records, the JSON bodies of `lull explore`'s API, game
//! shards (mutated, and one byte of a game changed in place) and the report's data.json (its
//! numbers changed in place, then every figure drawn).
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
use lull::tools::data::convert::convert_text;
use lull::tools::data::gameformat::{read_shard_bytes, SeqGame};
use lull::tools::data::packed::records_from_bytes;
use lull::tools::teaching::explore::api::handle;
use lull::tools::teaching::explore::jobs::JobTable;
use lull::tools::teaching::report::{reload, report_figures};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::json;

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
        lull::tools::training::tune::load(&lull::tools::training::tune::data_text(&bytes), None);
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

// ---- Files damaged in place: game shards and the report's data.json. ----

/// A closed shard of `n` short games (each from the start position, its moves chosen by
/// `seed`), and the byte offset where each game's block starts.
fn shard_with_offsets(n: usize, seed: u64) -> (Vec<u8>, Vec<SeqGame>, Vec<usize>) {
    use lull::tools::data::gameformat::{block_size, Entry, ShardHeader, ShardWriter, HEADER_SIZE};
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    let mut games = Vec::new();
    for _ in 0..n {
        let start = cozy_chess::Board::default();
        let mut board = start.clone();
        let mut entries = Vec::new();
        for _ in 0..(4 + next(30)) {
            let mut moves = Vec::new();
            board.generate_moves(|m| {
                moves.extend(m);
                false
            });
            if moves.is_empty() {
                break;
            }
            let mv = moves[next(moves.len())];
            entries.push(Entry {
                mv: Some(mv),
                score: next(2001) as i16 - 1000,
                marked: false,
            });
            board.play_unchecked(mv);
        }
        games.push(SeqGame {
            start,
            result: next(3) as u8,
            entries,
        });
    }
    let mut w = ShardWriter::new(std::io::Cursor::new(Vec::new()), ShardHeader::new("test"))
        .expect("a shard in memory");
    let mut offsets = Vec::new();
    let mut at = HEADER_SIZE;
    for g in &games {
        offsets.push(at);
        at += block_size(g.entries.len());
        w.write_game(g).expect("a game in memory");
    }
    let (out, _) = w.finish().expect("a shard in memory");
    (out.into_inner(), games, offsets)
}

/// Shards truncated, padded, mutated anywhere: no panic, and every game read is one whose
/// positions can be followed (its moves legal), the problems listed when it is not whole.
fn shard_inputs() -> BoxedStrategy<Vec<u8>> {
    let (seed, _, _) = shard_with_offsets(5, 1);
    prop_oneof![
        1 => (Just(seed.clone()), vec(any::<u8>(), 0..64), 0..seed.len() + 1).prop_map(|(mut s, pad, cut)| {
            s.truncate(cut);
            s.extend(pad);
            s
        }),
        3 => mutated_bytes(vec![seed], b"\x00\x01\x10\x1f\x20\xff", vec!["\x00\x00"], 6),
    ]
    .boxed()
}

fn shard_is_consistent(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    if let Ok(c) = read_shard_bytes(&bytes) {
        for g in &c.games {
            prop_assert!(g.positions().is_ok());
        }
    }
    Ok(())
}

/// One byte of a game block changed in place (the shard's size and header as they were):
/// exactly that game is lost and reported, every other game is read. A changed length
/// field lost every game after it.
fn one_flip_loses_one_game(
    (games, seed, pick, at, xor): (usize, u64, usize, usize, u8),
) -> Result<(), TestCaseError> {
    let (bytes, want, offsets) = shard_with_offsets(games, seed);
    let game = pick % games;
    let end = offsets.get(game + 1).copied().unwrap_or(bytes.len());
    let at = offsets[game] + at % (end - offsets[game]);
    let mut bad = bytes.clone();
    bad[at] ^= xor;
    let c = read_shard_bytes(&bad).map_err(TestCaseError::fail)?;
    let mut want = want;
    want.remove(game);
    prop_assert_eq!(
        c.games.len(),
        want.len(),
        "byte {} of game {}: {:?}",
        at,
        game,
        c.problems()
    );
    prop_assert!(c.games == want);
    // Reported where it starts: as a damaged game, or (the last game, its length made
    // impossible or longer than the rest of the file) as the unreadable rest or a cut, which
    // the closed shard lists as a problem; nothing reported outside the damaged game.
    let reported: Vec<usize> = c
        .damaged
        .iter()
        .map(|d| d.0)
        .chain(c.cut_tail.map(|t| t.0))
        .chain(c.lost.as_ref().map(|l| l.0))
        .collect();
    prop_assert_eq!(reported.first(), Some(&offsets[game]), "{:?}", c.problems());
    prop_assert!(reported.iter().all(|&r| (offsets[game]..end).contains(&r)));
    prop_assert!(!c.problems().is_empty());
    Ok(())
}

fn one_flip_inputs() -> BoxedStrategy<(usize, u64, usize, usize, u8)> {
    (
        2..8usize,
        any::<u64>(),
        any::<usize>(),
        any::<usize>(),
        1..=255u8,
    )
        .boxed()
}

/// The report's data.json as measured, once.
fn report_seed() -> &'static serde_json::Value {
    static SEED: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    SEED.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/report/data.json");
        serde_json::from_str(&std::fs::read_to_string(path).expect("docs/report/data.json"))
            .expect("valid JSON")
    })
}

/// JSON pointers to every number of the measurements and the configuration.
fn number_pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Number(_) => out.push(at),
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                number_pointers(x, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                if at.is_empty()
                    && !["measures", "nnue_measures", "config", "elapsed_s"].contains(&k.as_str())
                {
                    continue;
                }
                number_pointers(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// data.json with some numbers replaced by the extremes a damaged file can hold.
fn report_inputs() -> BoxedStrategy<Vec<(usize, usize)>> {
    vec((any::<usize>(), 0..12usize), 1..4).boxed()
}

/// `--replot` of a data.json with numbers changed in place: the figures are drawn, or the
/// file is refused with a message that names a field; never a panic, never a loop (the case
/// would not end).
fn report_is_consistent(changes: Vec<(usize, usize)>) -> Result<(), TestCaseError> {
    let extremes = [
        json!(1e308),
        json!(-1e308),
        json!(0),
        json!(-1),
        json!(1e-300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(2147483648u64),
        json!(1.5),
        json!(100.000001),
        json!(1_000_000_000_000_000_001u64),
        json!(7),
    ];
    let mut data = report_seed().clone();
    let mut pointers = Vec::new();
    number_pointers(&data, String::new(), &mut pointers);
    for (which, value) in &changes {
        let p = &pointers[which % pointers.len()];
        if let Some(slot) = data.pointer_mut(p) {
            *slot = extremes[*value].clone();
        }
    }
    let dir = std::env::temp_dir().join(format!("lull-prop-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let file = dir.join("data.json");
    std::fs::write(&file, data.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    match reload(&file, &dir.join("no-matches"), None) {
        Ok(d) => {
            report_figures(&d).map_err(TestCaseError::fail)?;
        }
        Err(e) => prop_assert!(
            e.contains("out of range") || e.contains("not a report's data.json"),
            "{}",
            e
        ),
    }
    Ok(())
}

/// Cases of the data.json property (each draws every figure: slower than the others).
const REPORT_CASES: u32 = 60;

#[test]
fn prop_game_shards() {
    check(CASES, shard_inputs(), shard_is_consistent);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_game_shards_100k() {
    check(CASES_IGNORED, shard_inputs(), shard_is_consistent);
}

#[test]
fn prop_one_flipped_byte_loses_one_game() {
    check(CASES, one_flip_inputs(), one_flip_loses_one_game);
}

#[test]
#[ignore = "100,000 cases: run with --ignored"]
fn prop_one_flipped_byte_loses_one_game_100k() {
    check(CASES_IGNORED, one_flip_inputs(), one_flip_loses_one_game);
}

#[test]
fn prop_report_data() {
    check(REPORT_CASES, report_inputs(), report_is_consistent);
}

#[test]
#[ignore = "5,000 cases: run with --ignored"]
fn prop_report_data_5k() {
    check(5_000, report_inputs(), report_is_consistent);
}

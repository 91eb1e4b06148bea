//! Game shards (`src/tools/data/gameformat.rs`): the conversions to and from packed records and
//! text lines on random games, shards cut at random bytes, damaged checksums named by `lull
//! data status`, and the import of a match's PGN.
//!
//! `assets/data/local-match-nodes3000.pgn`: six games of Lull against itself at 3,000 nodes a
//! move from UHO_4060_v4 openings, written by a local match runner (cutechess-style move
//! comments `{ +0.38/6 0.012s }`: score from the side that moved, depth, time).

use crate::common;

use std::io::Cursor;

use cozy_chess::{Board, Color, Move, Piece};
use lull::params::MATE_BOUND;
use lull::position::{board_fen, parse_fen};
use lull::san::parse_san;
use lull::tools::data::datagen::Rng;
use lull::tools::data::gameformat::{
    read_block, read_shard_bytes, Block, Entry, GameBuilder, SeqGame, ShardHeader, ShardWriter,
    TrainingFilter, NO_SCORE,
};
use lull::tools::data::packed::PackedRecord;
use lull::tools::training::tune::parse_line;

use common::{run_lull as lull, text};

/// Start positions: the standard one, Chess960 ones (castling rights on other files), and
/// positions where promotions, en passant and both castlings are at hand.
fn starts() -> Vec<Board> {
    let mut fens = vec![
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
        "4k3/1P6/8/2pP4/8/8/6p1/R3K2R w KQ c6 0 1".to_string(),
        "r3k2r/pPp3pp/8/3pP3/8/8/P1P3pP/R3K2R w KQkq d6 0 1".to_string(),
    ];
    let frc = include_str!("../../assets/perft/frc_perftsuite.epd");
    for line in frc.lines().step_by(97).take(8) {
        fens.push(line.split(';').next().unwrap().trim().to_string());
    }
    fens.iter()
        .map(|f| parse_fen(f).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect()
}

fn legal(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|m| {
        moves.extend(m);
        false
    });
    moves
}

fn is_castle(board: &Board, mv: Move) -> bool {
    board.colors(board.side_to_move()).has(mv.to)
}

fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.from.file() != mv.to.file()
        && !board.occupied().has(mv.to)
}

/// A random game from `start`: special moves (promotions, castling, en passant, captures)
/// are chosen half of the time when there are some. Scores are random; one position in
/// `no_score_in` (0: none) has none.
fn random_game(start: &Board, plies: usize, no_score_in: usize, rng: &mut Rng) -> SeqGame {
    let mut board = start.clone();
    let mut entries = Vec::new();
    for _ in 0..plies {
        let moves = legal(&board);
        if moves.is_empty() {
            break;
        }
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                m.promotion.is_some()
                    || is_castle(&board, m)
                    || is_en_passant(&board, m)
                    || board.occupied().has(m.to)
            })
            .collect();
        let mv = if !special.is_empty() && rng.below(2) == 0 {
            special[rng.below(special.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        let score = if no_score_in > 0 && rng.below(no_score_in) == 0 {
            NO_SCORE
        } else {
            rng.below(6001) as i16 - 3000
        };
        entries.push(Entry {
            mv: Some(mv),
            score,
            marked: false,
        });
        board.play_unchecked(mv);
    }
    SeqGame {
        start: start.clone(),
        result: rng.below(3) as u8,
        entries,
    }
}

/// (board, result code, score) of each scored position.
fn scored(game: &SeqGame) -> Vec<(Board, u8, i16)> {
    game.positions()
        .unwrap()
        .into_iter()
        .filter(|p| p.entry.score != NO_SCORE)
        .map(|p| (p.board, game.result, p.entry.score))
        .collect()
}

fn text_line(record: &PackedRecord) -> String {
    let (board, result, score) = record.decode().unwrap();
    format!("{} | {result:.1} | {score}", board_fen(&board))
}

#[test]
fn games_packed_records_and_text_lines_convert_losslessly() {
    let mut rng = Rng::new(34);
    let (mut promotions, mut castles, mut castles960, mut en_passant, mut games) = (0, 0, 0, 0, 0);
    for (i, start) in starts().iter().enumerate() {
        for round in 0..12 {
            let no_score_in = if round % 2 == 0 { 0 } else { 6 };
            let game = random_game(start, 20 + rng.below(120), no_score_in, &mut rng);
            if game.entries.is_empty() {
                continue;
            }
            games += 1;
            // What the game holds.
            let mut board = start.clone();
            for e in &game.entries {
                let mv = e.mv.unwrap();
                promotions += usize::from(mv.promotion.is_some());
                if is_castle(&board, mv) {
                    if i >= 3 {
                        castles960 += 1;
                    } else {
                        castles += 1;
                    }
                }
                en_passant += usize::from(is_en_passant(&board, mv));
                board.play_unchecked(mv);
            }
            // 1. The block, byte for byte.
            let bytes = game.to_bytes();
            match read_block(&bytes) {
                Block::Game(back, size) => {
                    assert_eq!(back, game);
                    assert_eq!(size, bytes.len());
                }
                other => panic!("{other:?}"),
            }
            // 2. To packed records (every scored position) and to text lines.
            let records = game.records(TrainingFilter::ALL).unwrap();
            let want = scored(&game);
            assert_eq!(records.len(), want.len());
            let lines: Vec<String> = records.iter().map(text_line).collect();
            for ((record, line), (b, r, s)) in records.iter().zip(&lines).zip(&want) {
                let (board, result, score) = parse_line(line).unwrap();
                // The same position (an en-passant square no pawn can use is not written).
                let same = |b: &lull::cozy_chess::Board| {
                    (
                        lull::position::board_fen(b),
                        lull::position::position_key(b),
                    )
                };
                assert_eq!(
                    (same(&board), result, score),
                    (same(b), f32::from(*r) / 2.0, i32::from(*s))
                );
                // Text back to the same record, bit for bit.
                assert_eq!(
                    PackedRecord::encode(&board, result, score),
                    *record,
                    "{line}"
                );
            }
            // 3. Back to games, from the records and from the lines: the same positions with
            // their results and scores, in order.
            let mut from_records = GameBuilder::new();
            for r in &records {
                let (board, _, score) = r.decode().unwrap();
                from_records.push(board, r.result(), score as i16);
            }
            let mut from_lines = GameBuilder::new();
            for line in &lines {
                let (board, result, score) = parse_line(line).unwrap();
                from_lines.push(board, (result * 2.0) as u8, score as i16);
            }
            let rebuilt = from_records.finish();
            assert_eq!(rebuilt, from_lines.finish());
            let back: Vec<(Board, u8, i16)> = rebuilt.iter().flat_map(scored).collect();
            // The same positions as the rules see them (the en-passant square where a pawn
            // can take), results and scores.
            let canonical = |v: &[(Board, u8, i16)]| -> Vec<(String, u64, u8, i16)> {
                v.iter()
                    .map(|(b, r, s)| {
                        let key = lull::position::position_key(b);
                        (lull::position::board_fen(b), key, *r, *s)
                    })
                    .collect()
            };
            assert_eq!(canonical(&back), canonical(&want));
            // Without missing scores the game comes back whole: the same moves, the last
            // one unknown (records and lines do not hold it).
            if no_score_in == 0 {
                assert_eq!(rebuilt.len(), 1);
                let mut expected = game.clone();
                expected.entries.last_mut().unwrap().mv = None;
                let mut board = start.clone();
                for (a, b) in rebuilt[0].entries.iter().zip(&expected.entries) {
                    // Two moves can give the same position (a Chess960 castling and a rook
                    // move, say): then only the position is known.
                    if a.mv != b.mv {
                        let (mut x, mut y) = (board.clone(), board.clone());
                        x.play(a.mv.unwrap());
                        y.play(b.mv.unwrap());
                        assert_eq!(x, y);
                    }
                    assert_eq!(a.score, b.score);
                    if let Some(mv) = b.mv {
                        board.play_unchecked(mv);
                    }
                }
                assert_eq!(rebuilt[0].entries.len(), expected.entries.len());
            }
        }
    }
    assert!(games > 100, "{games}");
    assert!(promotions > 20, "{promotions} promotions");
    assert!(castles > 5, "{castles} castlings");
    assert!(castles960 > 5, "{castles960} Chess960 castlings");
    assert!(en_passant > 5, "{en_passant} en passant captures");
}

/// A shard of `n` random games written through the writer, and each game's end offset.
fn shard(n: usize, close: bool) -> (Vec<u8>, Vec<SeqGame>, Vec<usize>) {
    let mut rng = Rng::new(7);
    let starts = starts();
    let mut bytes = Vec::new();
    let mut games = Vec::new();
    let mut ends = Vec::new();
    {
        let mut header = ShardHeader::new("test");
        header.seed = 7;
        header.nodes = 5000;
        let mut w = ShardWriter::new(Cursor::new(&mut bytes), header).unwrap();
        let mut at = 128;
        for i in 0..n {
            let g = random_game(&starts[i % starts.len()], 10 + rng.below(60), 8, &mut rng);
            w.write_game(&g).unwrap();
            at += g.to_bytes().len();
            ends.push(at);
            games.push(g);
        }
        if close {
            w.finish().unwrap();
        }
    }
    (bytes, games, ends)
}

#[test]
fn a_shard_cut_at_any_byte_reads_as_its_complete_games() {
    let mut rng = Rng::new(99);
    for close in [false, true] {
        let (bytes, games, ends) = shard(12, close);
        assert_eq!(bytes.len(), *ends.last().unwrap());
        let whole = read_shard_bytes(&bytes).unwrap();
        assert_eq!(whole.games, games);
        assert!(whole.problems().is_empty(), "{:?}", whole.problems());
        assert_eq!(whole.header.complete, close);
        if close {
            let positions: usize = games.iter().map(|g| g.entries.len()).sum();
            assert_eq!(
                (whole.header.games, whole.header.positions),
                (12, positions as u64)
            );
        }
        assert_eq!((whole.header.seed, whole.header.nodes), (7, 5000));
        // The header alone cut: not a shard.
        assert!(read_shard_bytes(&bytes[..100]).is_err());
        for _ in 0..200 {
            let cut = 128 + rng.below(bytes.len() - 128);
            let c = read_shard_bytes(&bytes[..cut]).unwrap();
            let complete = ends.iter().filter(|&&e| e <= cut).count();
            assert_eq!(c.games, games[..complete], "cut at {cut}");
            assert!(c.damaged.is_empty() && c.lost.is_none());
            // An unclosed shard (an interrupted run) is fine as it is; a closed one that
            // lost its end says so.
            assert_eq!(c.problems().is_empty(), !close, "cut at {cut}");
        }
    }
}

#[test]
fn the_trainer_reads_a_shard_as_its_training_positions() {
    let dir = temp_dir("train");
    let (bytes, games, _) = shard(8, true);
    let path = dir.join("data.games");
    std::fs::write(&path, &bytes).unwrap();
    let records = lull::tools::data::convert::read_any(&path).unwrap();
    let expected: Vec<PackedRecord> = games
        .iter()
        .flat_map(|g| g.records(TrainingFilter::default()).unwrap())
        .collect();
    assert_eq!(records, expected);
    // Fewer than every scored position: checks, captures and promotions are left out.
    let all: usize = games
        .iter()
        .map(|g| g.records(TrainingFilter::ALL).unwrap().len())
        .sum();
    assert!(
        records.len() < all && !records.is_empty(),
        "{} of {all}",
        records.len()
    );
    for r in &records {
        let (board, _, _) = r.decode().unwrap();
        assert!(board.checkers().is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = common::temp_file_of("shards", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A program kept beside the data (an engine binary: ELF, PE) is named as such and skipped,
/// neither counted as packed records nor called damaged; `data import` refuses it.
#[test]
fn data_status_skips_a_program_beside_the_data() {
    let dir = temp_dir("program");
    let (bytes, _, _) = shard(3, true);
    std::fs::write(dir.join("good.games"), &bytes).unwrap();
    let mut elf = b"\x7FELF\x02\x01\x01".to_vec();
    elf.resize(6400, 0xAB);
    std::fs::write(dir.join("lull-1.1.0"), &elf).unwrap();
    let mut pe = b"MZ\x90\x00".to_vec();
    pe.resize(640, 0x01);
    std::fs::write(dir.join("lull.exe"), &pe).unwrap();
    let out = lull(&["data", "status", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(!stdout.contains("DAMAGED"), "{stdout}");
    for name in ["lull-1.1.0", "lull.exe"] {
        let line = stdout.lines().find(|l| l.contains(name)).unwrap();
        assert!(
            line.contains("program (not a data file: skipped)"),
            "{line}"
        );
        assert!(!line.contains("positions"), "{line}");
    }
    assert!(stdout.contains("3 games"), "{stdout}");
    let into = dir.join("into.games");
    let out = lull(&[
        "data",
        "import",
        dir.join("lull-1.1.0").to_str().unwrap(),
        "-o",
        into.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("is a program, not a data file"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn data_status_names_a_damaged_checksum() {
    let dir = temp_dir("status");
    let (bytes, games, ends) = shard(5, true);
    std::fs::write(dir.join("good.games"), &bytes).unwrap();
    // One byte of the third game's moves flipped.
    let mut bad = bytes.clone();
    bad[ends[1] + 40] ^= 0x10;
    std::fs::write(dir.join("bad.games"), &bad).unwrap();
    // An interrupted run: the last game cut, the header never closed.
    let (open, _, open_ends) = shard(5, false);
    std::fs::write(dir.join("open.games"), &open[..open_ends[3] + 9]).unwrap();
    let out = lull(&["data", "status", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let bad_at = lines.iter().position(|l| l.contains("bad.games")).unwrap();
    assert!(lines[bad_at].contains("4 games"), "{stdout}");
    assert_eq!(
        lines[bad_at + 2],
        format!(
            "    DAMAGED: damaged game at byte {}: checksum mismatch (stored {:08x}, computed {:08x})",
            ends[1],
            u32::from_le_bytes(bad[ends[2] - 4..ends[2]].try_into().unwrap()),
            lull::tools::data::gameformat::crc32(&bad[ends[1]..ends[2] - 4])
        ),
        "{stdout}"
    );
    let good = lines.iter().find(|l| l.contains("good.games")).unwrap();
    let positions: usize = games.iter().map(|g| g.entries.len()).sum();
    assert!(
        good.contains(&format!("5 games  {positions} positions")),
        "{stdout}"
    );
    let open_at = lines.iter().position(|l| l.contains("open.games")).unwrap();
    assert!(lines[open_at].contains("4 games"), "{stdout}");
    assert!(
        lines[open_at + 1].contains("not closed (interrupted run)"),
        "{stdout}"
    );
    assert!(!lines
        .get(open_at + 2)
        .is_some_and(|l| l.contains("DAMAGED")));
    assert!(lines.last().unwrap().ends_with("1 damaged"), "{stdout}");
    // Without the damaged one: exit code 0.
    std::fs::remove_file(dir.join("bad.games")).unwrap();
    let out = lull(&["data", "status", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scores of a PGN's moves as the test reads them: `{ +0.38/6 ...}` after each move, from
/// the side that moved, in centipawns; a mate (`+M2`) as its sign and `true`.
fn comment_scores(movetext: &str) -> Vec<(i32, bool)> {
    movetext
        .split('{')
        .skip(1)
        .map(|c| {
            let s = c.split('/').next().unwrap().trim();
            if s.contains('M') {
                (if s.starts_with('-') { -1 } else { 1 }, true)
            } else {
                ((s.parse::<f64>().unwrap() * 100.0).round() as i32, false)
            }
        })
        .collect()
}

#[test]
fn a_local_match_pgn_imports_with_its_positions_results_and_scores() {
    let dir = temp_dir("pgn");
    let pgn = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/data/local-match-nodes3000.pgn"
    );
    let out_shard = dir.join("match.games");
    let out = lull(&["data", "import", pgn, "-o", out_shard.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shard = read_shard_bytes(&std::fs::read(&out_shard).unwrap()).unwrap();
    assert!(shard.problems().is_empty());
    assert!(shard.header.complete);
    // The PGN read independently: tags, SAN moves replayed, comments' scores.
    let source = std::fs::read_to_string(pgn).unwrap();
    let mut expected_games = 0;
    let mut mates = 0;
    for (game, chunk) in shard.games.iter().zip(source.split("[Event ").skip(1)) {
        expected_games += 1;
        let tag = |name: &str| {
            let at = chunk.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
            chunk[at..].split('"').next().unwrap().to_string()
        };
        let result = match tag("Result").as_str() {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        };
        assert_eq!(game.result, result);
        let movetext = chunk.split("\n\n").nth(1).unwrap();
        let scores = comment_scores(movetext);
        let mut board = parse_fen(&tag("FEN")).unwrap();
        let sans: Vec<&str> = movetext
            .split('{')
            .map(|part| part.rsplit('}').next().unwrap())
            .flat_map(|part| part.split_whitespace())
            .filter(|t| !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2"].contains(t))
            .collect();
        assert_eq!(sans.len(), scores.len());
        let positions = game.positions().unwrap();
        assert_eq!(positions.len(), sans.len());
        for ((p, san), &(score, mate)) in positions.iter().zip(&sans).zip(&scores) {
            assert_eq!(p.board, board, "{san}");
            let mv = parse_san(&board, san).unwrap();
            assert_eq!(p.entry.mv, Some(mv));
            let white = if board.side_to_move() == Color::White {
                score
            } else {
                -score
            };
            let got = i32::from(p.entry.score);
            if mate {
                mates += 1;
                assert!(
                    got.signum() == white && got.abs() >= MATE_BOUND,
                    "{san} {got}"
                );
            } else {
                assert_eq!(got, white, "{san}");
            }
            board.play(mv);
        }
    }
    assert_eq!(expected_games, 6);
    assert_eq!(mates, 6);
    assert_eq!(shard.games.len(), 6);
    // The text export holds every scored position with its game's result.
    let txt = dir.join("match.txt");
    let out = lull(&[
        "data",
        "export",
        out_shard.to_str().unwrap(),
        "-o",
        txt.to_str().unwrap(),
        "--all",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(lines.lines().count(), shard.positions());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_are_errors_and_leave_no_output() {
    let dir = temp_dir("bad");
    let out = dir.join("out.games");
    let o = out.to_str().unwrap();
    let missing = dir.join("missing.txt");
    let r = lull(&["data", "import", missing.to_str().unwrap(), "-o", o]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("cannot open"),
        "{}",
        text(&r.stderr)
    );
    assert!(!out.exists());
    // xz data: a hint to decompress it, and no output.
    let xz = dir.join("data.txt.xz");
    std::fs::write(&xz, b"\xFD7zXZ\x00\x00junk").unwrap();
    let r = lull(&["data", "import", xz.to_str().unwrap(), "-o", o]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("decompress it first"),
        "{}",
        text(&r.stderr)
    );
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "a temporary file was left"
    );
    // A PGN with an illegal move and a game without a result: those games are skipped and
    // named, the good one is written.
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. e4 {+0.30/5} e5 {-0.20/5} 2. Qh5 {+0.10/5} 1-0\n\n\
         [Result \"0-1\"]\n\n1. e5 {+0.30/5} 0-1\n\n[Result \"*\"]\n\n1. d4 {+0.10/5} *\n",
    )
    .unwrap();
    let r = lull(&["data", "import", pgn.to_str().unwrap(), "-o", o]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let stderr = text(&r.stderr);
    assert!(
        stderr.contains("move 1: ") && stderr.contains("no result"),
        "{stderr}"
    );
    assert!(
        text(&r.stdout).starts_with("1 games, 3 positions"),
        "{}",
        text(&r.stdout)
    );
    let r = lull(&["data", "status", dir.join("nothing").to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A packed file damaged in place (its size still a multiple of 32) was reported sound by
/// `lull data status` ("0 damaged"), though the trainer refuses it at the damaged record. The
/// status now checks every record and names the first bad one. `LULL_BIN` names another
/// build to run.
#[test]
fn data_status_names_a_packed_record_damaged_in_place() {
    let dir = temp_dir("status-packed");
    let text_file = dir.join("d.txt");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1",
    ];
    let lines: String = (0..40)
        .map(|i| format!("{} | 0.5 | {i}\n", fens[i % 2]))
        .collect();
    std::fs::write(&text_file, lines).unwrap();
    let packed = dir.join("d.bin");
    let out = lull(&[
        "data",
        "convert",
        text_file.to_str().unwrap(),
        packed.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut bytes = std::fs::read(&packed).unwrap();
    for b in &mut bytes[32 * 10..32 * 11] {
        *b ^= 0xff;
    }
    std::fs::write(&packed, &bytes).unwrap();
    let bin = std::env::var("LULL_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_lull").into());
    let out = std::process::Command::new(bin)
        .args(["data", "status", packed.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("DAMAGED: 1 corrupt record(s), the first record 11 (byte 320)"),
        "{stdout}"
    );
}

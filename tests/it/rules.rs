//! The rules of the game against an independent implementation: shakmaty (lichess's rules
//! library) plays the same random games beside Lull's `Position`, and at every ply the two must
//! agree on the legal moves, the SAN of each of them (and Lull must read its SAN back), the FEN
//! (written with an en-passant square only when a capture there is legal, and read back to the
//! same position), the halfmove clock and the fifty-move rule, insufficient material, mate and
//! stalemate, and how often the position occurred before (the three-fold repetition).
//!
//! The games mix uniform random moves with biased ones, so that the rare rules come up: double
//! pushes and en-passant captures, pawn runs to promotion, castling, and long shuffles of
//! pieces back and forth (repetitions, and the fifty-move rule). They start from the start
//! position, from the perft suites' positions (standard, and Chess960 with both castling
//! notations), from random Chess960 starts, and from the openings of `assets/games.pgn`.
//!
//! The default test plays a few hundred games; the full size (10,000 games) is `#[ignore]`d:
//! `cargo test --profile ci --test it rules:: -- --ignored`.
//!
//! Beside them, the case that made the position's identity a rule: after 1.e4 Nf6 2.Nf3 Ng8
//! 3.Ng1 Nf6 4.Nf3 Ng8, 5.Ng1 repeats the position after 1.e4 a third time, and Lull (a queen
//! down) must see the draw.

use std::collections::BTreeSet;
use std::time::Duration;

use lull::cozy_chess::Move as CozyMove;
use lull::position::{board_fen, parse_fen, position_key, Position};
use lull::san::{move_to_san, parse_san};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

use crate::common::EngineProcess;

const ETHEREAL: &str = include_str!("../../assets/perft/ethereal_standard.epd");
const FRC: &str = include_str!("../../assets/perft/frc_perftsuite.epd");
const GAMES: &str = include_str!("../../assets/games.pgn");

/// A small, seeded random source (SplitMix64): the games are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// How a game picks its moves.
#[derive(Clone, Copy, Debug)]
enum Style {
    /// Any legal move, uniformly.
    Random,
    /// Mostly a piece back to where it came from two plies ago: repetitions, fifty moves.
    Shuffle,
    /// Mostly pawn moves, double pushes and en-passant captures first: en passant, promotion.
    Pawns,
    /// Mostly castling when it is legal, else random.
    Castle,
}

/// A random Chess960 start position as a Shredder-FEN (bishops on opposite colours, the king
/// between the rooks).
fn chess960_start(rng: &mut Rng) -> String {
    let mut rank = [' '; 8];
    let light = [1, 3, 5, 7][rng.below(4)];
    let dark = [0, 2, 4, 6][rng.below(4)];
    rank[light] = 'B';
    rank[dark] = 'B';
    let place = |rank: &mut [char; 8], piece: char, rng: &mut Rng| {
        let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
        rank[free[rng.below(free.len())]] = piece;
    };
    place(&mut rank, 'Q', rng);
    place(&mut rank, 'N', rng);
    place(&mut rank, 'N', rng);
    let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
    rank[free[0]] = 'R';
    rank[free[1]] = 'K';
    rank[free[2]] = 'R';
    let white: String = rank.iter().collect();
    let files = |i: usize| (b'a' + free[i] as u8) as char;
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {}{}{}{} - 0 1",
        white.to_lowercase(),
        files(2).to_ascii_uppercase(),
        files(0).to_ascii_uppercase(),
        files(2),
        files(0)
    )
}

/// The openings of the master games in `assets/games.pgn`, as UCI moves from the start.
fn pgn_openings() -> Vec<Vec<String>> {
    let mut reader = lull::book::pgn::PgnReader::new(GAMES.as_bytes());
    let mut openings = vec![];
    while let Some(game) = reader.next_game().expect("read assets/games.pgn") {
        let replay = game.replay(usize::MAX).expect("replay a master game");
        let moves = replay
            .iter()
            .map(|(board, mv)| lull::position::move_to_uci(board, *mv, false))
            .collect();
        openings.push(moves);
    }
    assert!(openings.len() >= 5, "{} games", openings.len());
    openings
}

/// Where a game starts: a FEN, whether it is Chess960, and moves to play first.
struct Start {
    fen: String,
    chess960: bool,
    moves: Vec<String>,
}

fn start_for(game: usize, rng: &mut Rng, openings: &[Vec<String>]) -> Start {
    let suite_fen = |text: &str, rng: &mut Rng| {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let line = lines[rng.below(lines.len())];
        line.split(';').next().unwrap().trim().to_string()
    };
    match game % 5 {
        0 => Start {
            fen: lull::position::STARTPOS_FEN.to_string(),
            chess960: false,
            moves: vec![],
        },
        1 => Start {
            fen: suite_fen(ETHEREAL, rng),
            chess960: false,
            moves: vec![],
        },
        2 => Start {
            fen: suite_fen(FRC, rng),
            chess960: true,
            moves: vec![],
        },
        3 => Start {
            fen: chess960_start(rng),
            chess960: true,
            moves: vec![],
        },
        _ => {
            let opening = &openings[rng.below(openings.len())];
            let plies = rng.below(opening.len().min(30) + 1);
            Start {
                fen: lull::position::STARTPOS_FEN.to_string(),
                chess960: false,
                moves: opening[..plies].to_vec(),
            }
        }
    }
}

/// Everything the two implementations must agree on in the current position; panics with the
/// game's moves on the first difference.
fn compare(lull: &Position, chess: &Chess, history: &[u64], mode: CastlingMode, context: &str) {
    let board = lull.board();
    // Legal moves, written in the game's castling notation.
    let ours: BTreeSet<String> = lull
        .legal_moves()
        .into_iter()
        .map(|m| lull.move_to_uci(m))
        .collect();
    let theirs: BTreeSet<String> = chess
        .legal_moves()
        .iter()
        .map(|m| UciMove::from_move(*m, mode).to_string())
        .collect();
    assert_eq!(ours, theirs, "legal moves differ: {context}");
    // The SAN of every legal move, and Lull reads its own SAN back.
    for m in chess.legal_moves() {
        let uci = UciMove::from_move(m, mode).to_string();
        let mv = lull.parse_uci_move(&uci).expect("a legal move");
        let ours = move_to_san(board, mv);
        let theirs = SanPlus::from_move(chess.clone(), m).to_string();
        assert_eq!(ours, theirs, "SAN of {uci} differs: {context}");
        assert_eq!(
            parse_san(board, &ours),
            Ok(mv),
            "SAN {ours} read back: {context}"
        );
    }
    // FEN: X-FEN castling, the en-passant square only where a pawn can take; read back.
    // (Position::fen writes Shredder-FEN castling in Chess960 mode: X-FEN is board_fen's.)
    let theirs = Fen::from_position(chess, EnPassantMode::Legal).to_string();
    let fen = lull.fen();
    let mut ours: Vec<&str> = fen.split(' ').collect();
    let xfen = board_fen(board);
    ours[2] = xfen.split(' ').nth(2).unwrap();
    assert_eq!(ours.join(" "), theirs, "FEN differs: {context}");
    if mode == CastlingMode::Standard {
        assert_eq!(lull.fen(), theirs, "Position::fen differs: {context}");
    }
    let read = parse_fen(&lull.fen()).expect("Lull reads its own FEN");
    // (Not cozy-chess's `same_position`: it takes any piece that can go to the en-passant
    // square for a pawn that can take there.)
    assert_eq!(board_fen(&read), xfen, "FEN round trip: {context}");
    assert_eq!(
        position_key(&read),
        lull.hash(),
        "key after round trip: {context}"
    );
    // Clocks and the fifty-move rule.
    assert_eq!(lull.halfmove_clock(), chess.halfmoves(), "{context}");
    assert_eq!(
        board.fullmove_number() as u32,
        chess.fullmoves().get(),
        "{context}"
    );
    assert_eq!(
        lull.is_fifty_move_draw(),
        chess.halfmoves() >= 100,
        "{context}"
    );
    // Game end by the board: mate, stalemate, dead position.
    assert_eq!(lull.is_checkmate(), chess.is_checkmate(), "{context}");
    assert_eq!(
        !lull.in_check() && lull.legal_moves().is_empty(),
        chess.is_stalemate(),
        "{context}"
    );
    assert_eq!(
        lull.is_insufficient_material(),
        chess.is_insufficient_material(),
        "insufficient material: {context}"
    );
    // Repetitions: how many earlier positions of the game equal this one (shakmaty's key with
    // the en-passant square only when it is legal, over the whole game).
    let current = history[history.len() - 1];
    let earlier = history[..history.len() - 1]
        .iter()
        .filter(|&&k| k == current)
        .count();
    assert_eq!(lull.repetitions(), earlier, "repetitions: {context}");
    assert_eq!(lull.is_repetition(0), earlier >= 2, "threefold: {context}");
}

fn key(chess: &Chess) -> u64 {
    let z: Zobrist64 = chess.zobrist_hash(EnPassantMode::Legal);
    z.0
}

/// Picks the next move (as shakmaty's move) in `style`.
fn pick(
    chess: &Chess,
    style: Style,
    rng: &mut Rng,
    last_own: Option<&shakmaty::Move>,
) -> shakmaty::Move {
    let moves = chess.legal_moves();
    let any = |rng: &mut Rng| moves[rng.below(moves.len())];
    match style {
        Style::Random => any(rng),
        Style::Shuffle => {
            let back = last_own.and_then(|last| {
                moves
                    .iter()
                    .find(|m| {
                        Some(m.from().unwrap_or(m.to())) == Some(last.to())
                            && m.to() == last.from().unwrap_or(last.to())
                            && !m.is_capture()
                    })
                    .cloned()
            });
            let quiet: Vec<&shakmaty::Move> = moves
                .iter()
                .filter(|m| !m.is_capture() && m.role() != shakmaty::Role::Pawn)
                .collect();
            match back {
                Some(m) if rng.chance(80) => m,
                _ if !quiet.is_empty() && rng.chance(90) => *quiet[rng.below(quiet.len())],
                _ => any(rng),
            }
        }
        Style::Pawns => {
            if let Some(m) = moves.iter().find(|m| m.is_en_passant()) {
                return *m;
            }
            let pawns: Vec<&shakmaty::Move> = moves
                .iter()
                .filter(|m| m.role() == shakmaty::Role::Pawn)
                .collect();
            let doubles: Vec<&&shakmaty::Move> = pawns
                .iter()
                .filter(|m| {
                    m.from()
                        .is_some_and(|f| (f.rank() as i32 - m.to().rank() as i32).abs() == 2)
                })
                .collect();
            if !doubles.is_empty() && rng.chance(60) {
                *(*doubles[rng.below(doubles.len())])
            } else if !pawns.is_empty() && rng.chance(70) {
                *pawns[rng.below(pawns.len())]
            } else {
                any(rng)
            }
        }
        Style::Castle => match moves.iter().find(|m| m.is_castle()) {
            Some(m) if rng.chance(90) => *m,
            _ => any(rng),
        },
    }
}

/// Plays `games` games from `seed` and compares at every ply; returns the number of plies
/// compared, and how many positions had a playable en-passant square, a repetition, a
/// promotion just played, castling just played, fifty moves, and a dead position.
fn play_games(games: usize, seed: u64) -> [usize; 7] {
    let openings = pgn_openings();
    let mut rng = Rng(seed);
    let mut seen = [0usize; 7];
    for game in 0..games {
        let start = start_for(game, &mut rng, &openings);
        let mode = if start.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let mut lull = Position::from_fen(&start.fen).expect("a start FEN");
        lull.set_chess960(start.chess960);
        // The perft suites hold a few artificial positions (checks no last move could give).
        let mut chess: Chess = match Fen::from_ascii(start.fen.as_bytes())
            .expect("shakmaty reads the FEN")
            .into_position(mode)
        {
            Ok(chess) => chess,
            Err(e) => e
                .ignore_impossible_check()
                .expect("shakmaty accepts the position"),
        };
        let style = [Style::Random, Style::Shuffle, Style::Pawns, Style::Castle][rng.below(4)];
        let max_plies = 60 + rng.below(340);
        let mut history = vec![key(&chess)];
        let mut played: Vec<String> = vec![];
        let mut last: Vec<shakmaty::Move> = vec![];
        let mut ply = 0;
        loop {
            let context = format!(
                "game {game} ({style:?}) from {} after {}",
                start.fen,
                played.join(" ")
            );
            compare(&lull, &chess, &history, mode, &context);
            if chess.legal_moves().is_empty() || ply >= max_plies {
                break;
            }
            let m = match start.moves.get(ply) {
                Some(uci) => UciMove::from_ascii(uci.as_bytes())
                    .expect("an opening move")
                    .to_move(&chess)
                    .expect("a legal opening move"),
                None => {
                    let own = last.len().checked_sub(2).map(|i| &last[i]);
                    pick(&chess, style, &mut rng, own)
                }
            };
            let uci = UciMove::from_move(m, mode).to_string();
            let mv: CozyMove = lull.parse_uci_move(&uci).expect("Lull reads the move");
            seen[3] += usize::from(m.is_promotion());
            seen[4] += usize::from(m.is_castle());
            lull.play(mv);
            chess.play_unchecked(m);
            history.push(key(&chess));
            played.push(uci);
            last.push(m);
            ply += 1;
            seen[0] += 1;
            seen[1] += usize::from(lull::position::en_passant_is_playable(lull.board()));
            seen[2] += usize::from(lull.repetitions() > 0);
            seen[5] += usize::from(lull.is_fifty_move_draw());
            seen[6] += usize::from(lull.is_insufficient_material());
        }
    }
    seen
}

#[test]
fn the_rules_agree_with_shakmaty_over_random_games() {
    let [plies, ep, reps, promotions, castles, fifty, dead] = play_games(300, 90);
    // The mix reaches every rule it is there to test, many times.
    assert!(plies > 30_000, "{plies} plies");
    for (what, n) in [
        ("playable en-passant squares", ep),
        ("repetitions", reps),
        ("promotions", promotions),
        ("castlings", castles),
        ("fifty-move positions", fifty),
        ("dead positions", dead),
    ] {
        assert!(n >= 20, "only {n} {what} in {plies} plies");
    }
}

#[test]
#[ignore]
fn the_rules_agree_with_shakmaty_over_ten_thousand_games() {
    let seen = play_games(10_000, 91);
    eprintln!(
        "10,000 games: {} plies, {} playable en-passant squares, {} repetitions, {} promotions, \
         {} castlings, {} fifty-move positions, {} dead positions",
        seen[0], seen[1], seen[2], seen[3], seen[4], seen[5], seen[6]
    );
}

/// The game of the report: White (a queen down) can repeat the position after 1.e4 a third
/// time with 5.Ng1, and must take the draw.
#[test]
fn a_threefold_repetition_after_a_double_push_is_a_draw_the_engine_takes() {
    let mut e = EngineProcess::spawn(&[]);
    e.send("uci");
    e.wait_for("uciok", |l| l == "uciok");
    e.send(
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1 moves \
         e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8",
    );
    e.send("go depth 8");
    let (lines, best) = e.wait_for("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(best.split_whitespace().nth(1), Some("f3g1"), "{lines:?}");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" pv "))
        .expect("an info line with a pv");
    assert!(last.contains(" score cp 0 "), "{last}");
    e.send("quit");
    e.wait_exit(Duration::from_secs(10));
}

//! Games of OpenBench's data-generation workloads (and of match runners that write the same
//! comments) read as shard games ([`crate::tools::data::gameformat`]).
//!
//! OpenBench plays a DATAGEN workload from the engine's `genfens` openings and sends back PGN
//! games whose move comments carry the engine's score and depth (`+0.31/12`, `-M5/20`, from
//! the side that moved, in pawns), the time, and fields such as `n=5000` (nodes) and `sd=18`
//! (selective depth), followed by what the engine printed as `info string pgncomment ...` for
//! that move. Each move with a score becomes a position with that score (turned to White's
//! view, in centipawns); a move without one (`book`, no comment) gives a position without a
//! score, kept in the game so that the moves stay complete, and never a training position. A
//! comment field `quiet=0` (what an engine prints as `info string pgncomment quiet=0`) marks
//! the position as not for training. The game's result is its termination marker (or
//! `Result` tag); a game without a result (`*`) is refused.

use std::io::BufRead;

use cozy_chess::{Board, Color};

use crate::book::pgn::{parse_movetext_with_comments, Outcome, PgnReader};
use crate::params::MATE;
use crate::position::parse_fen;
use crate::san::parse_san;
use crate::tools::data::gameformat::{Entry, SeqGame, NO_SCORE};

/// What one move comment says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveComment {
    /// The score in centipawns from the side that moved (mate scores as the search writes
    /// them: `MATE - plies`).
    pub score: Option<i32>,
    /// The depth.
    pub depth: Option<u32>,
    /// `n=`: nodes.
    pub nodes: Option<u64>,
    /// `sd=`: selective depth.
    pub seldepth: Option<u32>,
    /// `quiet=0` was given: not a training position.
    pub not_quiet: bool,
}

/// Reads a move comment (`+0.31/12 0.123s, n=5000, sd=18, quiet=1`).
pub fn parse_comment(text: &str) -> MoveComment {
    let mut c = MoveComment::default();
    for token in text.split(|ch: char| ch == ',' || ch.is_whitespace()) {
        let token = token.trim();
        if let Some(v) = token.strip_prefix("n=") {
            c.nodes = v.parse().ok();
        } else if let Some(v) = token.strip_prefix("sd=") {
            c.seldepth = v.parse().ok();
        } else if let Some(v) = token.strip_prefix("quiet=") {
            c.not_quiet |= v == "0" || v.eq_ignore_ascii_case("false");
        } else if c.score.is_none() {
            if let Some((score, depth)) = token.split_once('/') {
                if let Some(s) = parse_score(score) {
                    c.score = Some(s);
                    c.depth = depth.parse().ok();
                }
            }
        }
    }
    c
}

/// `+0.31` (pawns) or `+M5` / `-M5` (mate in moves) as the search's centipawns.
fn parse_score(text: &str) -> Option<i32> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    if let Some(m) = rest.strip_prefix('M') {
        let moves: i32 = m.parse().ok()?;
        let plies = (2 * moves - 1).clamp(0, 255);
        return Some(sign * (MATE - plies));
    }
    if !rest.bytes().all(|b| b.is_ascii_digit() || b == b'.') || rest.is_empty() {
        return None;
    }
    let pawns: f64 = rest.parse().ok()?;
    Some(sign * (pawns * 100.0).round() as i32)
}

/// One PGN game's text: its tags and its movetext.
#[derive(Clone, Debug, Default)]
struct RawGame {
    line: usize,
    tags: Vec<(String, String)>,
    movetext: String,
}

impl RawGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The shard game of one PGN game, or why it cannot be read.
fn to_game(raw: &RawGame) -> Result<SeqGame, String> {
    let at = |e: String| format!("game at line {}: {e}", raw.line);
    let start: Board = match raw.tag("FEN") {
        Some(fen) => parse_fen(fen).map_err(at)?,
        None => Board::default(),
    };
    let (moves, marker) = parse_movetext_with_comments(&raw.movetext);
    let outcome = match marker {
        Some(o) if o != Outcome::Unknown => o,
        _ => raw
            .tag("Result")
            .and_then(Outcome::from_marker)
            .unwrap_or(Outcome::Unknown),
    };
    let result = match outcome {
        Outcome::WhiteWins => 2,
        Outcome::Draw => 1,
        Outcome::BlackWins => 0,
        Outcome::Unknown => return Err(at("no result (*)".to_string())),
    };
    if moves.is_empty() {
        return Err(at("no moves".to_string()));
    }
    let mut board = start.clone();
    let mut entries = Vec::with_capacity(moves.len());
    for (i, (san, comment)) in moves.iter().enumerate() {
        let mv = parse_san(&board, san).map_err(|e| at(format!("move {}: {e}", i + 1)))?;
        let c = parse_comment(comment);
        let score = c.score.map_or(NO_SCORE, |s| {
            let white = if board.side_to_move() == Color::White {
                s
            } else {
                -s
            };
            white.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
        });
        entries.push(Entry {
            mv: Some(mv),
            score,
            marked: c.not_quiet,
        });
        board.play_unchecked(mv);
    }
    Ok(SeqGame {
        start,
        result,
        entries,
    })
}

/// Reads the games of a PGN text and hands each to `sink`: the game, or why it cannot be
/// used (the other games are not affected). The games are split as the book's reader splits
/// them ([`PgnReader`]: lines of bounded length, a game that leaves a `{` comment or a `(`
/// variation open refused without losing the games after it, text after a termination marker
/// read as a game of its own and refused when it is none). An error from `sink` or a read
/// error stops.
pub fn read_pgn_games(
    reader: impl BufRead,
    mut sink: impl FnMut(Result<SeqGame, String>) -> Result<(), String>,
) -> Result<(), String> {
    for game in PgnReader::new(reader) {
        let game = game.map_err(|e| format!("cannot read the PGN: {e}"))?;
        let raw = RawGame {
            line: game.line,
            tags: game.tags,
            movetext: game.movetext,
        };
        match game.problem {
            Some(p) => sink(Err(format!("game at line {}: {p}", raw.line)))?,
            None => sink(to_game(&raw))?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_of_openbench_and_match_runners_are_read() {
        let c = parse_comment("+0.31/12 0.123s, n=5000, sd=18, quiet=0");
        assert_eq!(
            c,
            MoveComment {
                score: Some(31),
                depth: Some(12),
                nodes: Some(5000),
                seldepth: Some(18),
                not_quiet: true,
            }
        );
        let c = parse_comment("-1.05/9 0.010s");
        assert_eq!(
            (c.score, c.depth, c.not_quiet),
            (Some(-105), Some(9), false)
        );
        assert_eq!(parse_comment("+M3/20 0.2s").score, Some(MATE - 5));
        assert_eq!(parse_comment("-M1/4").score, Some(-(MATE - 1)));
        assert_eq!(parse_comment("book").score, None);
        assert_eq!(parse_comment("quiet=1, n=7").nodes, Some(7));
    }

    #[test]
    fn a_pgn_game_gives_its_positions_scores_and_result() {
        let pgn =
            "[Event \"x\"]\n[Result \"0-1\"]\n\n1. e4 {book} e5 {-0.20/10 0.1s, n=5000, sd=14} \
                   2. Nf3 {+0.35/11 0.1s} Nc6 {-0.41/9 0.1s, quiet=0} 0-1\n\n\
                   [Event \"y\"]\n[Result \"*\"]\n\n1. e4 *\n";
        let mut games = Vec::new();
        read_pgn_games(pgn.as_bytes(), |g| {
            games.push(g);
            Ok(())
        })
        .unwrap();
        assert_eq!(games.len(), 2);
        assert!(games[1].as_ref().unwrap_err().contains("no result"));
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.result, 0);
        let scores: Vec<i16> = g.entries.iter().map(|e| e.score).collect();
        // Black's -0.20 is +20 for White; White's +0.35 stays; Black's -0.41 is +41.
        assert_eq!(scores, [NO_SCORE, 20, 35, 41]);
        assert_eq!(
            g.entries.iter().map(|e| e.marked).collect::<Vec<_>>(),
            [false, false, false, true]
        );
        let ps = g.positions().unwrap();
        assert_eq!(ps.len(), 4);
        assert_eq!(
            crate::position::board_fen(&ps[3].board),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
    }

    /// A game that left a `{` comment open swallowed every game after it (`lull data import`
    /// wrote 2 games of 4 and said nothing), bytes after a termination marker were dropped
    /// unsaid, and a malformed `FEN` tag was ignored (the moves then replayed from the start
    /// position). Each is now a game refused with its reason; the other games are read.
    #[test]
    fn a_broken_game_is_refused_and_the_games_after_it_are_read() {
        let good = "[Result \"1/2-1/2\"]\n\n1. e4 {+0.20/10} e5 {-0.10/9} 1/2-1/2\n\n";
        for (bad, why) in [
            (
                "[Result \"1-0\"]\n\n1. e4 {+0.20/10 e5 1-0\n\n",
                "comment is not closed",
            ),
            (
                "[Result \"1-0\"]\n\n1. e4 (1. d4 e5 1-0\n\n",
                "variation is not closed",
            ),
            ("\u{1}\u{2}garbage 1/2-1/2\n\n", "malformed move"),
            (
                "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
                "malformed tag",
            ),
        ] {
            let pgn = format!("{good}{bad}{good}{good}");
            let (mut games, mut errors) = (0, Vec::new());
            read_pgn_games(pgn.as_bytes(), |g| {
                match g {
                    Ok(_) => games += 1,
                    Err(e) => errors.push(e),
                }
                Ok(())
            })
            .unwrap();
            assert_eq!(games, 3, "{bad}: {errors:?}");
            assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
            assert!(errors[0].contains(why), "{bad}: {errors:?}");
        }
    }
}

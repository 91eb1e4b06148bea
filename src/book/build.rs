//! Building a Polyglot book from games.
//!
//! For every position of the first `max_ply` plies of every game and the move played there,
//! the builder counts the games (a position and move repeated within one game count once) and
//! scores them as PolyGlot's `make-book` does, from the side to move's point of view: 2 points
//! per win, 1 per draw (and per game without a result), 0 per loss. An entry's weight is its
//! score. Entries seen in fewer than `min_games` games are dropped, and so are moves that only
//! lost (score 0: a weight-0 entry is a deleted move by convention). When a score exceeds the
//! 16-bit weight, the weights of that position are scaled down together to fit, keeping their
//! proportions (a non-zero weight stays at least 1).

use std::collections::{HashMap, HashSet};

use cozy_chess::Color;

use super::pgn::{Game, Outcome};
use super::{encode_move, polyglot_key, Entry};

/// Default for `--max-ply`.
pub const DEFAULT_MAX_PLY: usize = 40;
/// Default for `--min-games` (PolyGlot's default too).
pub const DEFAULT_MIN_GAMES: u32 = 3;

/// What the builder keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Plies read from the start of each game.
    pub max_ply: usize,
    /// Games an entry needs to be kept.
    pub min_games: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            max_ply: DEFAULT_MAX_PLY,
            min_games: DEFAULT_MIN_GAMES,
        }
    }
}

/// The counts of one position and move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stat {
    games: u32,
    score: u64,
}

/// The totals of a build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildSummary {
    /// Games added.
    pub games: usize,
    /// Games skipped (unreadable).
    pub skipped: usize,
    /// Distinct positions and moves seen.
    pub seen: usize,
    /// Entries written.
    pub entries: usize,
    /// Distinct positions in the book.
    pub positions: usize,
    /// Entries dropped: seen in fewer than `min_games` games.
    pub rare: usize,
    /// Entries dropped: the move only lost.
    pub lost: usize,
}

/// Collects games and makes the book entries.
#[derive(Clone, Debug, Default)]
pub struct BookBuilder {
    options: BuildOptions,
    stats: HashMap<(u64, u16), Stat>,
    games: usize,
    skipped: usize,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new(options: BuildOptions) -> Self {
        Self {
            options,
            ..Self::default()
        }
    }

    /// Adds one game. A game whose moves (within `max_ply`) cannot all be replayed adds
    /// nothing; the error says why.
    pub fn add_game(&mut self, game: &Game) -> Result<(), String> {
        let plies = match game.replay(self.options.max_ply) {
            Ok(p) => p,
            Err(e) => {
                self.skipped += 1;
                return Err(e);
            }
        };
        self.games += 1;
        let mut seen = HashSet::with_capacity(plies.len());
        for (board, mv) in plies {
            let id = (polyglot_key(&board), encode_move(mv));
            if !seen.insert(id) {
                continue;
            }
            let stat = self.stats.entry(id).or_default();
            stat.games += 1;
            stat.score += points(game.outcome, board.side_to_move());
        }
        Ok(())
    }

    /// The book entries, sorted by key and, within a key, by weight (heaviest first), with
    /// the totals.
    pub fn finish(self) -> (Vec<Entry>, BuildSummary) {
        let mut summary = BuildSummary {
            games: self.games,
            skipped: self.skipped,
            seen: self.stats.len(),
            ..BuildSummary::default()
        };
        let mut kept: Vec<(u64, u16, u64)> = Vec::with_capacity(self.stats.len());
        for ((key, code), stat) in self.stats {
            if stat.games < self.options.min_games {
                summary.rare += 1;
            } else if stat.score == 0 {
                summary.lost += 1;
            } else {
                kept.push((key, code, stat.score));
            }
        }
        kept.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.2.cmp(&a.2)).then(a.1.cmp(&b.1)));
        let mut entries = Vec::with_capacity(kept.len());
        for group in kept.chunk_by(|a, b| a.0 == b.0) {
            summary.positions += 1;
            // Sorted heaviest first: the first score is the position's largest.
            let max = group[0].2;
            for &(key, code, score) in group {
                let weight = if max <= u64::from(u16::MAX) {
                    score
                } else {
                    (score * u64::from(u16::MAX) / max).max(1)
                };
                entries.push(Entry {
                    key,
                    code,
                    weight: weight as u16,
                    learn: 0,
                });
            }
        }
        summary.entries = entries.len();
        (entries, summary)
    }
}

/// PolyGlot's points for the side that moved: 2 for a win, 1 for a draw or an unknown result,
/// 0 for a loss.
fn points(outcome: Outcome, mover: Color) -> u64 {
    match (outcome, mover) {
        (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 2,
        (Outcome::WhiteWins, Color::Black) | (Outcome::BlackWins, Color::White) => 0,
        (Outcome::Draw | Outcome::Unknown, _) => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::pgn::PgnReader;
    use crate::book::Book;
    use cozy_chess::Board;

    fn build(pgn: &str, options: BuildOptions) -> (Vec<Entry>, BuildSummary) {
        let mut b = BookBuilder::new(options);
        for g in PgnReader::new(pgn.as_bytes()) {
            let _ = b.add_game(&g.unwrap());
        }
        b.finish()
    }

    #[test]
    fn weights_follow_results() {
        let pgn = "1. e4 e5 1-0\n\n1. e4 c5 0-1\n\n1. e4 e5 1/2-1/2\n\n1. d4 d5 *\n\n\
                   1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 1-0\n\n1. Nf3 e5 Zz9 1-0\n";
        let options = BuildOptions {
            max_ply: 40,
            min_games: 1,
        };
        let (entries, summary) = build(pgn, options);
        assert_eq!(summary.games, 5);
        assert_eq!(summary.skipped, 1);
        let book = Book::from_entries(entries).unwrap();
        let start = book.probe(&Board::default());
        let got: Vec<(String, u16)> = start
            .moves
            .iter()
            .map(|m| (m.mv.to_string(), m.weight))
            .collect();
        // e4: two wins (2 + 2), a loss (0), a draw (1) => 5; d4: no result, 1.
        assert_eq!(got, [("e2e4".to_string(), 5), ("d2d4".to_string(), 1)]);
        let mut board = Board::default();
        board.play("e2e4".parse().unwrap());
        let reply: Vec<(String, u16)> = book
            .probe(&board)
            .moves
            .iter()
            .map(|m| (m.mv.to_string(), m.weight))
            .collect();
        // e5: Black lost twice (0) and drew once (1); c5 won (2).
        assert_eq!(reply, [("c7c5".to_string(), 2), ("e7e5".to_string(), 1)]);
        // Nf3 is played twice in one game from the same position: one game only.
        board.play("e7e5".parse().unwrap());
        let nf3 = book.probe(&board).moves;
        assert_eq!(nf3.len(), 1);
        assert_eq!((nf3[0].mv.to_string().as_str(), nf3[0].weight), ("g1f3", 2));
    }

    #[test]
    fn min_games_and_losses_drop_entries() {
        let pgn = "1. e4 e5 1-0\n\n1. e4 e5 1-0\n\n1. d4 d5 1/2-1/2\n";
        let options = BuildOptions {
            max_ply: 1,
            min_games: 2,
        };
        let (entries, summary) = build(pgn, options);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].code, encode_move("e2e4".parse().unwrap()));
        assert_eq!(entries[0].weight, 4);
        assert_eq!(summary.rare, 1);
        // Black's e5 lost both games: dropped as a loss (with --max-ply 2).
        let (entries, summary) = build(
            pgn,
            BuildOptions {
                max_ply: 2,
                min_games: 1,
            },
        );
        assert_eq!(summary.lost, 1);
        assert_eq!(entries.len(), 3);
    }

    #[test]
    fn large_scores_are_scaled_per_position() {
        let mut b = BookBuilder::new(BuildOptions {
            max_ply: 1,
            min_games: 1,
        });
        let key = polyglot_key(&Board::default());
        let e4 = encode_move("e2e4".parse().unwrap());
        let d4 = encode_move("d2d4".parse().unwrap());
        b.stats.insert(
            (key, e4),
            Stat {
                games: 100_000,
                score: 200_000,
            },
        );
        b.stats.insert(
            (key, d4),
            Stat {
                games: 10,
                score: 1,
            },
        );
        let (entries, _) = b.finish();
        assert_eq!(entries[0].weight, u16::MAX);
        assert_eq!(entries[1].weight, 1);
    }
}

//! The opening book of the front end: the book options (`OwnBook`, `BookFile`, `BookDepth`,
//! `BookBestMove`), when a `go` is answered from the book instead of a search, and the UCI
//! lines of that answer (`info string book move …`, `bestmove`). The Polyglot format itself
//! (reading, probing, choosing) is in [`crate::book`].

use std::path::Path;

use crate::book::{game_ply, random_u64, Book, BookMove};
use crate::options::{BookOption, OptionValue, DEFAULT_BOOK_DEPTH, MAX_BOOK_DEPTH};
use crate::position::{shorten, Position};
use crate::time::Limits;

/// The book settings of the UCI front end (options `OwnBook`, `BookFile`, `BookDepth`,
/// `BookBestMove`) with the loaded book.
#[derive(Clone, Debug)]
pub struct BookState {
    /// `OwnBook`: play book moves.
    pub own_book: bool,
    /// `BookFile` as given.
    pub file: String,
    /// The book loaded from `file` (`None` when no file is set or it could not be read).
    pub book: Option<Book>,
    /// `BookDepth`: the book is consulted while fewer plies than this have been played.
    pub depth: u32,
    /// `BookBestMove`: play the heaviest move instead of a weighted random choice.
    pub best: bool,
}

impl Default for BookState {
    fn default() -> Self {
        Self {
            own_book: false,
            file: String::new(),
            book: None,
            depth: DEFAULT_BOOK_DEPTH as u32,
            best: false,
        }
    }
}

impl BookState {
    /// Applies a checked book option value. Returns an information line to show (the book
    /// loaded) or an error (the book could not be loaded: the engine then has no book, and
    /// says so).
    pub fn set(&mut self, which: BookOption, value: OptionValue) -> Result<Option<String>, String> {
        match (which, value) {
            (BookOption::OwnBook, OptionValue::Bool(b)) => self.own_book = b,
            (BookOption::BestMove, OptionValue::Bool(b)) => self.best = b,
            (BookOption::Depth, OptionValue::Int(n)) => {
                self.depth = n.clamp(0, MAX_BOOK_DEPTH) as u32
            }
            (BookOption::File, OptionValue::Text(path)) => {
                self.book = None;
                self.file = path;
                if self.file.is_empty() {
                    return Ok(None);
                }
                let book = Book::open(Path::new(&self.file))
                    .map_err(|e| format!("{e}; playing without a book"))?;
                let line = format!(
                    "book {} loaded: {} entries",
                    shorten(&self.file, 200),
                    book.len()
                );
                self.book = Some(book);
                return Ok(Some(line));
            }
            (which, _) => return Err(format!("book option {which:?} cannot take that value")),
        }
        Ok(None)
    }

    /// The book move to play at `go`, if the book is on, loaded, within its depth, the search
    /// is a normal one (not `infinite`, `ponder`, `mate` or restricted by `searchmoves`), and
    /// the book has a legal move of non-zero weight here. Returns the move with the total
    /// weight of the position's book moves.
    pub fn go_move(
        &self,
        pos: &Position,
        limits: &Limits,
        searchmoves: bool,
        random: u64,
    ) -> Option<(BookMove, u32)> {
        if !self.own_book || limits.infinite || limits.ponder || limits.mate.is_some() {
            return None;
        }
        if searchmoves || game_ply(pos.board()) >= self.depth {
            return None;
        }
        let probe = self.book.as_ref()?.probe(pos.board());
        let chosen = probe.choose(self.best, random)?;
        Some((chosen, probe.total_weight()))
    }

    /// The lines that answer `go` from the book (`info string book move …`, the move's
    /// `info depth 0 pv` line and `bestmove`), or `None` to search (see
    /// [`BookState::go_move`]).
    pub fn go_answer(
        &self,
        pos: &Position,
        limits: &Limits,
        searchmoves: bool,
    ) -> Option<[String; 3]> {
        let (m, total) = self.go_move(pos, limits, searchmoves, random_u64())?;
        let uci = pos.move_to_uci(m.mv);
        Some([
            format!(
                "info string book move {uci} (weight {} of {total})",
                m.weight
            ),
            super::shown_line::uci_move_line(pos, m.mv),
            format!("bestmove {uci}"),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{encode_move, polyglot_key, Entry};

    #[test]
    fn book_state_rules() {
        let mut s = BookState::default();
        let start = Position::startpos();
        let key = polyglot_key(start.board());
        let book = Book::from_entries(vec![Entry {
            key,
            code: encode_move("e2e4".parse().unwrap()),
            weight: 1,
            learn: 0,
        }])
        .unwrap();
        s.book = Some(book);
        let clock = Limits {
            wtime: Some(1000),
            btime: Some(1000),
            ..Limits::default()
        };
        // Off by default.
        assert!(s.go_move(&start, &clock, false, 0).is_none());
        s.set(BookOption::OwnBook, OptionValue::Bool(true)).unwrap();
        let (m, total) = s.go_move(&start, &clock, false, 0).unwrap();
        assert_eq!((m.mv.to_string().as_str(), m.weight, total), ("e2e4", 1, 1));
        let answer = s.go_answer(&start, &clock, false).unwrap();
        assert_eq!(answer[0], "info string book move e2e4 (weight 1 of 1)");
        assert_eq!(answer[1], "info depth 0 pv e2e4");
        assert_eq!(answer[2], "bestmove e2e4");
        // Analysis and pondering search instead.
        for limits in [
            Limits {
                infinite: true,
                ..Limits::default()
            },
            Limits {
                ponder: true,
                ..clock.clone()
            },
            Limits {
                mate: Some(3),
                ..Limits::default()
            },
        ] {
            assert!(s.go_move(&start, &limits, false, 0).is_none());
        }
        assert!(s.go_move(&start, &clock, true, 0).is_none());
        // BookDepth 0: never.
        s.set(BookOption::Depth, OptionValue::Int(0)).unwrap();
        assert!(s.go_move(&start, &clock, false, 0).is_none());
        // A missing file: an error, and no book.
        let err = s
            .set(
                BookOption::File,
                OptionValue::Text("/nonexistent/lull-book.bin".into()),
            )
            .unwrap_err();
        assert!(err.contains("cannot read book file"), "{err}");
        assert!(s.book.is_none());
        assert_eq!(
            s.set(BookOption::File, OptionValue::Text(String::new())),
            Ok(None)
        );
    }
}

//! A PGN reader for building books: splits a file into games, reads the tags and the moves of
//! the main line, and replays them on a board.
//!
//! It is lenient where real files differ from the standard and never panics: CRLF line
//! endings, bytes that are not UTF-8 (read as U+FFFD), `%` escape lines, `{…}` comments (also
//! over several lines), `;` comments, nested `(…)` variations, `$n` NAGs, move numbers (`12.`,
//! `12...`, `12.e4`), `!`/`?` annotations, and a missing result. A game that starts from a
//! `FEN` tag is replayed from that position (standard chess or Chess960). What cannot be read
//! (a malformed tag, an unknown variant, an illegal move, a `{` comment or a `(` variation
//! never closed) makes that game unusable, with a message that says why; the other games are
//! not affected. A comment left open ends at the next line that is a tag pair (`[Name
//! "value"]`): such a line is never comment text, and reading it as one lost every game after.

use std::io::{self, BufRead};

use cozy_chess::{Board, Move};

use crate::lines::{Lines, MAX_LINE};
use crate::position::{parse_fen, shorten};
use crate::san::parse_san;

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*` or no result given.
    Unknown,
}

impl Outcome {
    /// The outcome a game termination marker stands for, if `t` is one.
    pub fn from_marker(t: &str) -> Option<Self> {
        match t {
            "1-0" => Some(Self::WhiteWins),
            "0-1" => Some(Self::BlackWins),
            "1/2-1/2" | "½-½" => Some(Self::Draw),
            "*" => Some(Self::Unknown),
            _ => None,
        }
    }
}

/// One game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The line where it starts, from 1.
    pub line: usize,
    /// The tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line, as written (SAN, without move numbers and annotations).
    pub moves: Vec<String>,
    /// The result: the termination marker of the movetext, else the `Result` tag.
    pub outcome: Outcome,
    /// The movetext as written (its lines joined by `\n`), for readers that want more than
    /// the main line (the comments of each move: [`parse_movetext_with_comments`]).
    pub movetext: String,
    /// Why the game cannot be used, when its text is already broken (a malformed tag).
    pub problem: Option<String>,
}

impl Game {
    /// The value of a tag (name compared case-sensitively, as PGN defines).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the `FEN` tag's if there is one, else the standard one. Variants
    /// other than standard chess and Chess960 are refused.
    pub fn start_board(&self) -> Result<Board, String> {
        if let Some(p) = &self.problem {
            return Err(p.clone());
        }
        if let Some(variant) = self.tag("Variant") {
            let v: String = variant
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase();
            if !matches!(
                v.as_str(),
                "" | "standard" | "chess" | "chess960" | "960" | "fischerandom" | "fischerrandom"
            ) {
                return Err(format!(
                    "variant '{}' is not supported",
                    shorten(variant, 32)
                ));
            }
        }
        match self.tag("FEN") {
            Some(fen) => parse_fen(fen),
            None => Ok(Board::default()),
        }
    }

    /// Replays the first `max_ply` moves from the start position: each position with the move
    /// played there. The error names the first move that is not legal SAN.
    pub fn replay(&self, max_ply: usize) -> Result<Vec<(Board, Move)>, String> {
        let mut board = self.start_board()?;
        let mut out = Vec::with_capacity(self.moves.len().min(max_ply));
        for san in self.moves.iter().take(max_ply) {
            let mv = parse_san(&board, san).map_err(|e| {
                let dots = if board.side_to_move() == cozy_chess::Color::White {
                    "."
                } else {
                    "..."
                };
                format!("move {}{dots}: {e}", board.fullmove_number())
            })?;
            out.push((board.clone(), mv));
            board.play_unchecked(mv);
        }
        Ok(out)
    }
}

/// Reads a PGN file game by game.
pub struct PgnReader<R> {
    lines: Lines<R>,
    /// Games returned so far.
    games: usize,
    /// A tag line read past the end of the previous game, with its line number.
    pending: Option<(usize, String)>,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over PGN text.
    pub fn new(reader: R) -> Self {
        Self {
            lines: Lines::lossy(reader),
            games: 0,
            pending: None,
        }
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.lines.bytes_read()
    }

    /// The next line (without its line ending) and its number, `None` at the end. A line too
    /// long to read becomes a word that is no move (the game that holds it is skipped, with
    /// that word named).
    fn next_line(&mut self) -> io::Result<Option<(usize, String)>> {
        if let Some(p) = self.pending.take() {
            return Ok(Some(p));
        }
        Ok(self.lines.next_line()?.map(|(no, line)| {
            let text = line.unwrap_or_else(|_| format!("line-over-{MAX_LINE}-bytes"));
            (no, text)
        }))
    }

    /// The next game, `None` at the end of the input.
    pub fn next_game(&mut self) -> io::Result<Option<Game>> {
        let mut tags = Vec::new();
        let mut problem = None;
        let mut movetext = String::new();
        let mut first_line = None;
        let mut scan = Scan::default();
        // The line where the `{` comment still open began.
        let mut comment_line = 0;
        while let Some((no, line)) = self.next_line()? {
            let trimmed = line.trim();
            if scan.in_comment && is_tag_line(trimmed) {
                // A comment left open: the tags of the next game end it, and this game.
                problem.get_or_insert(format!(
                    "line {comment_line}: a '{{' comment is not closed before the tags of \
                     the next game (line {no})"
                ));
                self.pending = Some((no, line));
                break;
            }
            if !scan.in_comment {
                if line.starts_with('%') || trimmed.is_empty() {
                    continue;
                }
                if trimmed.starts_with('[') {
                    if !movetext.trim().is_empty() {
                        // The tags of the next game.
                        self.pending = Some((no, line));
                        break;
                    }
                    first_line.get_or_insert(no);
                    if let Err(e) = parse_tags(trimmed, &mut tags) {
                        problem.get_or_insert(format!("line {no}: {e}"));
                    }
                    continue;
                }
            }
            first_line.get_or_insert(no);
            let was_in_comment = scan.in_comment;
            let ended = scan.line(&line);
            if scan.in_comment && !was_in_comment {
                comment_line = no;
            }
            movetext.push_str(&line);
            movetext.push('\n');
            if ended {
                // A termination marker ends the game, also when no tags follow.
                break;
            }
        }
        let Some(line) = first_line else {
            return Ok(None);
        };
        if scan.in_comment && self.pending.is_none() {
            problem.get_or_insert(format!(
                "line {comment_line}: a '{{' comment is never closed"
            ));
        } else if scan.depth > 0 {
            problem.get_or_insert("a '(' variation is not closed at the end of the game".into());
        }
        self.games += 1;
        let (moves, marker) = parse_movetext(&movetext);
        let outcome = marker
            .or_else(|| self.tag_outcome(&tags))
            .unwrap_or(Outcome::Unknown);
        Ok(Some(Game {
            number: self.games,
            line,
            tags,
            moves,
            outcome,
            movetext,
            problem,
        }))
    }

    fn tag_outcome(&self, tags: &[(String, String)]) -> Option<Outcome> {
        tags.iter()
            .find(|(n, _)| n == "Result")
            .and_then(|(_, v)| Outcome::from_marker(v.trim()))
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = io::Result<Game>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// The state of the movetext between lines: inside a `{` comment, and the variation depth.
#[derive(Default)]
struct Scan {
    in_comment: bool,
    depth: usize,
}

impl Scan {
    /// Follows one movetext line; returns whether it holds a termination marker (`1-0`,
    /// `0-1`, `1/2-1/2`, `*`) outside comments and variations.
    fn line(&mut self, line: &str) -> bool {
        let mut marker = false;
        let mut token = String::new();
        let mut end_token = |token: &mut String, depth: usize| {
            if depth == 0 && Outcome::from_marker(token).is_some() {
                marker = true;
            }
            token.clear();
        };
        for c in line.chars() {
            if self.in_comment {
                if c == '}' {
                    self.in_comment = false;
                }
                continue;
            }
            match c {
                '{' | ';' | '(' | ')' | '$' => {
                    end_token(&mut token, self.depth);
                    match c {
                        '{' => self.in_comment = true,
                        ';' => break,
                        '(' => self.depth += 1,
                        ')' => self.depth = self.depth.saturating_sub(1),
                        _ => {}
                    }
                }
                c if c.is_whitespace() => end_token(&mut token, self.depth),
                c => token.push(c),
            }
        }
        end_token(&mut token, self.depth);
        marker
    }
}

/// Whether `line` (trimmed) is a line of tag pairs, which no comment text is.
fn is_tag_line(line: &str) -> bool {
    line.starts_with('[') && parse_tags(line, &mut Vec::new()).is_ok()
}

/// Reads the tags of one line (`[Name "Value"]`, possibly several) into `tags`.
fn parse_tags(line: &str, tags: &mut Vec<(String, String)>) -> Result<(), String> {
    let bad = || format!("malformed tag '{}'", shorten(line, 64));
    let mut rest = line.trim();
    while let Some(body) = rest.strip_prefix('[') {
        let body = body.trim_start();
        let name_end = body
            .find(|c: char| c.is_whitespace() || c == '"')
            .ok_or_else(bad)?;
        let name = &body[..name_end];
        let after = body[name_end..].trim_start();
        let quoted = after.strip_prefix('"').ok_or_else(bad)?;
        if name.is_empty() {
            return Err(bad());
        }
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, next)) = chars.next() {
                        value.push(next);
                    }
                }
                '"' => {
                    end = Some(i + 1);
                    break;
                }
                _ => value.push(c),
            }
        }
        let end = end.ok_or_else(bad)?;
        let tail = quoted[end..].trim_start();
        rest = tail.strip_prefix(']').ok_or_else(bad)?.trim_start();
        tags.push((name.to_string(), value));
    }
    if rest.is_empty() {
        Ok(())
    } else {
        Err(bad())
    }
}

/// The main-line moves of a movetext and its termination marker, if any. Comments,
/// variations, NAGs, move numbers and stand-alone annotations are dropped; what follows the
/// termination marker is ignored.
pub fn parse_movetext(text: &str) -> (Vec<String>, Option<Outcome>) {
    let (moves, outcome) = parse_movetext_with_comments(text);
    (moves.into_iter().map(|(mv, _)| mv).collect(), outcome)
}

/// [`parse_movetext`], each move with the main-line comments that follow it (trimmed, joined
/// by `", "`; empty when there is none), as engines and match runners write their scores.
pub fn parse_movetext_with_comments(text: &str) -> (Vec<(String, String)>, Option<Outcome>) {
    let mut moves: Vec<(String, String)> = Vec::new();
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let mut comment = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    comment.push(c);
                }
                if let Some(last) = moves.last_mut().filter(|_| depth == 0) {
                    if !last.1.is_empty() {
                        last.1.push_str(", ");
                    }
                    last.1.push_str(comment.trim());
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '$' => {
                while chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                    chars.next();
                }
            }
            c if c.is_whitespace() => {}
            c => {
                let mut token = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || "{}();$".contains(n) {
                        break;
                    }
                    token.push(n);
                    chars.next();
                }
                if depth > 0 {
                    continue;
                }
                if let Some(outcome) = Outcome::from_marker(&token) {
                    return (moves, Some(outcome));
                }
                if let Some(mv) = strip_move_number(&token) {
                    moves.push((mv.to_string(), String::new()));
                }
            }
        }
    }
    (moves, None)
}

/// The move in a token, without its move number (`12.`, `12...`, `12.e4`, `...e5`), or `None`
/// when nothing is left (a bare number or dots, or an annotation such as `!?`).
fn strip_move_number(token: &str) -> Option<&str> {
    let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if digits.starts_with('.') || (digits.is_empty() && digits.len() < token.len()) {
        digits.trim_start_matches('.')
    } else if digits.len() < token.len() {
        // Digits not followed by a dot: castling with zeros (`0-0`) or a malformed move, which
        // the SAN parser will judge.
        token
    } else {
        token.trim_start_matches('.')
    };
    if rest.is_empty() || rest.chars().all(|c| matches!(c, '!' | '?')) {
        None
    } else {
        Some(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<Game> {
        PgnReader::new(text.as_bytes())
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
    }

    #[test]
    fn movetext_drops_numbers_comments_variations_and_nags() {
        let (moves, outcome) = parse_movetext(
            "1. e4 {best by test} e5 2.Nf3 $1 Nc6 (2... d6 3. d4 (3. Bc4)) 3. Bb5!? a6\n\
             ; a line comment 4. Ba4\n4...Nf6 5. 0-0 ! 1/2-1/2 6. d4",
        );
        assert_eq!(
            moves,
            ["e4", "e5", "Nf3", "Nc6", "Bb5!?", "a6", "Nf6", "0-0"]
        );
        assert_eq!(outcome, Some(Outcome::Draw));
        assert_eq!(parse_movetext("e4 e5 *").1, Some(Outcome::Unknown));
        assert_eq!(parse_movetext("e4 e5").1, None);
        // Garbage never panics.
        for text in [
            "{",
            "(((",
            ")))",
            "$",
            "1.",
            "...",
            "{}}{",
            "[\"",
            "\u{fffd}\u{0}",
        ] {
            let _ = parse_movetext(text);
        }
    }

    #[test]
    fn reader_splits_games_and_reads_tags() {
        let text = "[Event \"A \\\"quoted\\\" name\"]\r\n[Result \"1-0\"]\r\n\r\n\
                    1. e4 e5 {a comment\n[not a tag]} 2. Nf3 1-0\r\n\
                    \n% escape line\n[Event \"B\"][Result \"0-1\"]\n\n1. d4 d5\n\
                    [Event \"C\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n\
                    [Event broken\n\n1. e4\n";
        let g = games(text);
        assert_eq!(g.len(), 4);
        assert_eq!(g[0].tag("Event"), Some("A \"quoted\" name"));
        assert_eq!(g[0].moves, ["e4", "e5", "Nf3"]);
        assert_eq!(g[0].outcome, Outcome::WhiteWins);
        assert_eq!((g[0].number, g[0].line), (1, 1));
        assert_eq!(g[1].tag("Event"), Some("B"));
        assert_eq!(g[1].outcome, Outcome::BlackWins, "from the Result tag");
        assert_eq!(g[1].moves, ["d4", "d5"]);
        assert_eq!((g[1].number, g[1].line), (2, 8));
        let r = g[2].replay(100).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].1.to_string(), "e2e4");
        assert!(g[3].problem.as_deref().unwrap().contains("malformed tag"));
        assert!(g[3].replay(10).is_err());
        // Games without tags are split at their termination markers, not inside comments or
        // variations.
        let g = games("1. e4 e5 1-0\n1. d4 {1-0} d5 (1... Nf6 0-1)\n0-1 {won}\n1. c4 *");
        let moves: Vec<Vec<String>> = g.iter().map(|g| g.moves.clone()).collect();
        assert_eq!(moves, [vec!["e4", "e5"], vec!["d4", "d5"], vec!["c4"]]);
        assert_eq!(g[1].outcome, Outcome::BlackWins);
    }

    /// A `{` comment or a `(` variation left open swallowed every game after it, silently: the
    /// comment ran to the end of the file. Now the game that opened it is refused (and says
    /// why) and the next games are read.
    #[test]
    fn an_open_comment_or_variation_costs_only_its_own_game() {
        let good = "[Event \"g\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n";
        for (bad, why) in [
            (
                "[Event \"b\"]\n[Result \"1-0\"]\n\n1. e4 {open comment e5 2. Nf3 1-0\n\n",
                "line 9: a '{' comment is not closed before the tags of the next game (line 11)",
            ),
            (
                "[Event \"b\"]\n[Result \"1-0\"]\n\n1. e4 (1. d4 d5 e5 1-0\n\n",
                "a '(' variation is not closed",
            ),
        ] {
            let text = format!("{good}{bad}{good}{good}");
            let g = games(&text);
            assert_eq!(g.len(), 4, "{bad}");
            assert!(
                g[1].replay(10).unwrap_err().contains(why),
                "{:?}",
                g[1].problem
            );
            for i in [0, 2, 3] {
                assert_eq!(g[i].replay(10).unwrap().len(), 4, "game {i} after {bad}");
            }
        }
        // Left open at the end of the file.
        let g = games(&format!("{good}1. e4 {{ never closed\n"));
        assert_eq!(g.len(), 2);
        assert!(g[1].problem.as_deref().unwrap().contains("never closed"));
        // A bracket line that is no tag pair is comment text, as before.
        let g = games("1. e4 {see\n[this line]\n} e5 *\n");
        assert_eq!(g[0].moves, ["e4", "e5"]);
        assert!(g[0].problem.is_none());
    }

    #[test]
    fn replay_reports_the_bad_move() {
        let g = &games("1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke7 4. Qxf7 *\n")[0];
        assert_eq!(g.replay(5).unwrap().len(), 5);
        let err = g.replay(10).unwrap_err();
        assert_eq!(err, "move 4.: no legal move matches 'Qxf7'");
        let g = &games("1. e4 Ke3 *\n")[0];
        assert!(g.replay(10).unwrap_err().starts_with("move 1...: "));
        let g = &games("[Variant \"Crazyhouse\"]\n1. e4 *\n")[0];
        assert!(g.replay(10).unwrap_err().contains("not supported"));
        let g = &games("[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n1. e4 *\n")[0];
        assert_eq!(g.replay(10).unwrap().len(), 1);
    }

    #[test]
    fn reader_survives_bad_bytes_and_no_final_newline() {
        let mut bytes = b"[Event \"x\xff\"]\n1. e4 e5".to_vec();
        bytes.extend_from_slice(b"\n[Event \"y\"]\n1. d4");
        let g: Vec<Game> = PgnReader::new(&bytes[..]).map(|g| g.unwrap()).collect();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tag("Event"), Some("x\u{fffd}"));
        assert_eq!(g[1].moves, ["d4"]);
    }
}

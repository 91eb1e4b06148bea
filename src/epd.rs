//! Extended Position Description (EPD) reader for test suites such as Win At Chess.
//!
//! A line is a FEN of four fields (board, side to move, castling, en passant; two move counters
//! may follow) and operations ended by `;`: `bm` (best moves) and `am` (avoid moves) in SAN as
//! test suites write them (with or without check marks) or in UCI, and `id "..."`. Other
//! operations (`c0`, `acd`, `D1`...) are read and ignored. Lines may end in LF or CRLF, the last
//! one needs no newline, and blank lines and `#` comments are skipped. A malformed line is
//! reported with its line number and skipped: reading a file never fails because of one bad
//! line.

use std::fmt;
use std::path::Path;

use cozy_chess::{Board, Move};

use crate::position::shorten;
use crate::position::{parse_uci_move, Position};
use crate::san::parse_san;

/// One position of a test suite.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The FEN fields as written (four, or six with the move counters).
    pub fen: String,
    /// The position.
    pub board: Board,
    /// The `id` operation, if any.
    pub id: Option<String>,
    /// Best moves (`bm`): a solution is one of these.
    pub bm: Vec<Move>,
    /// Moves to avoid (`am`): a solution is none of these.
    pub am: Vec<Move>,
    /// A mate problem (`dm N`, or `ce +MN`): the side to move mates in `N` moves. Any move
    /// that leads to a mate in at most `N` solves it.
    pub mate: Option<u32>,
}

impl EpdRecord {
    /// The id, or `line N` when the record has none.
    pub fn label(&self) -> String {
        match &self.id {
            Some(id) => id.clone(),
            None => format!("line {}", self.line),
        }
    }

    /// A [`Position`] to search.
    pub fn position(&self) -> Position {
        Position::from_board(self.board.clone())
    }

    /// Whether `mv` solves the position: one of `bm` (if any) and none of `am`.
    pub fn is_solution(&self, mv: Move) -> bool {
        (self.bm.is_empty() || self.bm.contains(&mv)) && !self.am.contains(&mv)
    }
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// Line number in the file (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Reads all the records of an EPD text. Malformed lines are returned as errors, in order,
/// and do not stop the reading.
pub fn parse_epd(text: &str) -> (Vec<EpdRecord>, Vec<EpdError>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut errors = Vec::new();
    // `lines` splits at LF and CRLF and accepts a last line without newline; a stray CR left
    // at the end of the last line is removed by the trim in `parse_epd_line`.
    for (i, line) in text.lines().enumerate() {
        match parse_epd_line(line, i + 1) {
            Ok(Some(record)) => records.push(record),
            Ok(None) => {}
            Err(message) => errors.push(EpdError {
                line: i + 1,
                message,
            }),
        }
    }
    (records, errors)
}

/// Reads an EPD file (bytes that are not UTF-8 are replaced and make their line malformed).
/// Only a file that cannot be read at all (also a directory or a device, see
/// [`crate::lines::check_input_file`]) is an error.
pub fn read_epd_file(path: &Path) -> Result<(Vec<EpdRecord>, Vec<EpdError>), String> {
    crate::lines::check_input_file(path)?;
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(parse_epd(&String::from_utf8_lossy(&bytes)))
}

/// Splits off the first whitespace-separated field.
fn take_field(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// Splits the operations at `;` outside double quotes. An unterminated quote is an error.
fn split_operations(s: &str) -> Result<Vec<&str>, String> {
    let mut ops = Vec::new();
    let mut start = 0;
    let mut in_quote = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => in_quote = !in_quote,
            ';' if !in_quote => {
                ops.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if in_quote {
        return Err("unterminated quoted string".to_string());
    }
    // The last operation may lack its semicolon.
    ops.push(&s[start..]);
    Ok(ops
        .into_iter()
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .collect())
}

/// Splits operands at whitespace, keeping quoted strings (without their quotes) whole.
fn split_operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_quote = false;
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => {
                in_quote = !in_quote;
                quoted = true;
            }
            c if c.is_whitespace() && !in_quote => {
                if !cur.is_empty() || quoted {
                    out.push(std::mem::take(&mut cur));
                }
                quoted = false;
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() || quoted {
        out.push(cur);
    }
    out
}

/// Parses one move of a `bm` or `am` operation: SAN first, then UCI (standard or Chess960),
/// then long algebraic.
fn parse_move(board: &Board, text: &str) -> Result<Move, String> {
    parse_san(board, text).or_else(|san_error| {
        parse_uci_move(board, text, false)
            .or_else(|_| parse_uci_move(board, text, true))
            .or_else(|_| parse_long_algebraic(board, text).ok_or(()))
            .map_err(|_| san_error)
    })
}

/// Long algebraic notation as mate collections write it: an optional piece letter, the from
/// square, `-` or `x`, the to square, an optional promotion piece (`=Q` or `Q`) and check
/// marks: `Nd4-e6`, `Bg8xh7`, `e7xf8N+`. The piece letter, when given, must match.
fn parse_long_algebraic(board: &Board, text: &str) -> Option<Move> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    let (piece, t) = match t.chars().next()? {
        c @ ('K' | 'Q' | 'R' | 'B' | 'N') => (Some(c), &t[1..]),
        _ => (None, t),
    };
    let from: cozy_chess::Square = t.get(0..2)?.parse().ok()?;
    let sep = t.get(2..3)?;
    if sep != "-" && sep != "x" {
        return None;
    }
    let to: cozy_chess::Square = t.get(3..5)?.parse().ok()?;
    let promo = match t[5..].trim_start_matches('=') {
        "" => None,
        p => Some(p.to_ascii_lowercase().parse::<cozy_chess::Piece>().ok()?),
    };
    let moved = board.piece_on(from)?;
    if let Some(c) = piece {
        if moved != c.to_ascii_lowercase().to_string().parse().ok()? {
            return None;
        }
    } else if moved != cozy_chess::Piece::Pawn {
        return None;
    }
    let mut found = None;
    board.generate_moves_for(from.bitboard(), |moves| {
        for mv in moves {
            if mv.to == to && mv.promotion == promo {
                found = Some(mv);
            }
        }
        found.is_some()
    });
    found
}

/// The mate depth of a `ce` operand: `+M3`, `M3` or `#3` (a mate for the side to move).
fn parse_ce_mate(operand: &str) -> Option<u32> {
    let t = operand.strip_prefix('+').unwrap_or(operand);
    let n = t.strip_prefix('M').or_else(|| t.strip_prefix('#'))?;
    n.parse().ok().filter(|&n| n > 0)
}

/// Parses one EPD line. `Ok(None)` for a blank line or a `#` comment.
pub fn parse_epd_line(line: &str, line_no: usize) -> Result<Option<EpdRecord>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    // The four FEN fields, then optionally the two move counters (opcodes never start with a
    // digit, so two numbers here can only be counters).
    let mut rest = line;
    let mut fields = Vec::with_capacity(6);
    for _ in 0..4 {
        match take_field(rest) {
            Some((f, r)) if !f.contains(';') => {
                fields.push(f);
                rest = r;
            }
            _ => {
                return Err(format!(
                    "expected 4 FEN fields before the operations in '{}'",
                    shorten(line, 80)
                ))
            }
        }
    }
    if let Some((a, r)) = take_field(rest) {
        if let Some((b, r2)) = take_field(r) {
            let b = b.strip_suffix(';').unwrap_or(b);
            let number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
            if number(a) && number(b) {
                fields.push(a);
                fields.push(b);
                // A semicolon glued to the counter only closes an empty operation.
                rest = r2;
            }
        }
    }
    let fen = fields.join(" ");
    let board = Position::from_fen(&fen)?.board().clone();

    let mut record = EpdRecord {
        line: line_no,
        fen,
        board,
        id: None,
        bm: Vec::new(),
        am: Vec::new(),
        mate: None,
    };
    for op in split_operations(rest)? {
        let (opcode, operands) = match take_field(op) {
            Some(x) => x,
            None => continue,
        };
        let valid_opcode = opcode
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && opcode
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid_opcode {
            return Err(format!("bad operation '{}'", shorten(op, 40)));
        }
        let operands = split_operands(operands);
        match opcode {
            "bm" | "am" => {
                if operands.is_empty() {
                    return Err(format!("'{opcode}' without a move"));
                }
                for text in &operands {
                    let mv =
                        parse_move(&record.board, text).map_err(|e| format!("{opcode}: {e}"))?;
                    let list = if opcode == "bm" {
                        &mut record.bm
                    } else {
                        &mut record.am
                    };
                    if !list.contains(&mv) {
                        list.push(mv);
                    }
                }
            }
            "id" => {
                if operands.is_empty() {
                    return Err("'id' without a value".to_string());
                }
                record.id = Some(operands.join(" "));
            }
            "dm" => match operands.first().and_then(|n| n.parse::<u32>().ok()) {
                Some(n) if n > 0 => record.mate = Some(n),
                _ => {
                    return Err(format!(
                        "'dm' needs a mate depth, got '{}'",
                        shorten(op, 40)
                    ))
                }
            },
            "ce" => {
                if let Some(n) = operands.first().and_then(|o| parse_ce_mate(o)) {
                    record.mate.get_or_insert(n);
                }
            }
            _ => {}
        }
    }
    unsolvable(&record)?;
    Ok(Some(record))
}

/// Refuses a record that no move can solve: a move both best (`bm`) and to avoid (`am`), or
/// every legal move to avoid.
fn unsolvable(record: &EpdRecord) -> Result<(), String> {
    if let Some(&both) = record.bm.iter().find(|m| record.am.contains(m)) {
        return Err(format!(
            "'{}' is both a best move (bm) and a move to avoid (am): no move can solve this \
             position",
            crate::san::move_to_san(&record.board, both)
        ));
    }
    if record.bm.is_empty() && !record.am.is_empty() {
        let mut any = false;
        record.board.generate_moves(|moves| {
            any = moves.into_iter().any(|m| !record.am.contains(&m));
            any
        });
        if !any {
            return Err(
                "every legal move is a move to avoid (am): no move can solve this position"
                    .to_string(),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::move_to_san;

    fn sans(r: &EpdRecord, moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| move_to_san(&r.board, *m)).collect()
    }

    const WAC1: &str =
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";";
    // Written without its check mark, which the reader must not need.
    const WAC4: &str =
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7; id \"WAC.004\";";

    #[test]
    fn reads_wac_lines() {
        let (records, errors) = parse_epd(&format!("{WAC1}\n{WAC4}\n"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].id.as_deref(), Some("WAC.001"));
        assert_eq!(sans(&records[0], &records[0].bm), ["Qg6"]);
        assert_eq!(records[0].line, 1);
        assert_eq!(records[1].line, 2);
        assert_eq!(sans(&records[1], &records[1].bm), ["Qxh7+"]);
        assert_eq!(
            records[1].fen,
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - -"
        );
    }

    #[test]
    fn crlf_and_missing_final_newline() {
        let text = format!("{WAC1}\r\n\r\n# comment\r\n{WAC4}");
        let (records, errors) = parse_epd(&text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].id.as_deref(), Some("WAC.004"));
        assert_eq!(records[1].line, 4);
        // A CR at the very end with no LF.
        let (records, errors) = parse_epd(&format!("{WAC1}\r"));
        assert!(errors.is_empty());
        assert_eq!(records[0].id.as_deref(), Some("WAC.001"));
    }

    #[test]
    fn malformed_lines_are_reported_and_skipped() {
        let text = format!(
            "{WAC1}\n\
             this is not a position\n\
             8/8/8/8/8/8/8/8 w - - bm Ke2; id \"no kings\";\n\
             2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qh5h7; id \"illegal\";\n\
             2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm; id \"empty\";\n\
             2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"open;\n\
             2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; 9x 1;\n\
             short fen;\n\
             {WAC4}"
        );
        let (records, errors) = parse_epd(&text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].id.as_deref(), Some("WAC.004"));
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7, 8]);
        assert!(errors[2].message.contains("bm"), "{}", errors[2]);
        assert!(errors[2].to_string().starts_with("line 4: "));
        assert!(errors[4].message.contains("unterminated"), "{}", errors[4]);
    }

    #[test]
    fn am_only_uci_moves_counters_and_other_operations() {
        let text = "8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; id \"WAC.274 am\"; c0 \"a; b\"\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm e2e4 g1f3; acd 12;\n\
                    r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm e1g1 O-O-O; id unquoted\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400";
        let (records, errors) = parse_epd(text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(records.len(), 4);
        let r = &records[0];
        assert!(r.bm.is_empty());
        assert_eq!(sans(r, &r.am), ["Rd6"]);
        assert_eq!(r.id.as_deref(), Some("WAC.274 am"));
        let rd6 = r.am[0];
        assert!(!r.is_solution(rd6));
        let other = r
            .position()
            .legal_moves()
            .into_iter()
            .find(|m| *m != rd6)
            .unwrap();
        assert!(r.is_solution(other));
        let r = &records[1];
        assert_eq!(r.fen, crate::position::STARTPOS_FEN);
        assert_eq!(sans(r, &r.bm), ["e4", "Nf3"]);
        assert_eq!(r.label(), "line 2");
        let r = &records[2];
        assert_eq!(sans(r, &r.bm), ["O-O", "O-O-O"]);
        assert_eq!(r.id.as_deref(), Some("unquoted"));
        assert!(records[3].bm.is_empty() && records[3].am.is_empty());
    }

    #[test]
    fn mate_problems_long_algebraic_dm_and_ce() {
        let text = "8/8/8/8/1p1N4/1Bk1K3/3N4/b7 w - - bm Nd4-e6; ce +M3; pv Nd4-e6 Ba1-b2;\n\
                    1K2krb1/1P1RP2p/7P/1n2N3/B3Q3/8/8/8 w - - bm Ne5-f7; ce +M2;\n\
                    4k3/4P3/4K3/8/8/8/8/8 w - - dm 4; id \"dm\";\n\
                    6k1/4P3/5K2/8/8/8/8/8 w - - bm e7-e8Q+; ce 350;\n\
                    6k1/4P3/5K2/8/8/8/8/8 w - - bm e7-e8=R;\n\
                    6k1/4P3/5K2/8/8/8/8/8 w - - bm Ke7-e8;\n\
                    6k1/4P3/5K2/8/8/8/8/8 w - - bm Nf6-g7;\n\
                    6k1/4P3/5K2/8/8/8/8/8 w - - dm x;";
        let (records, errors) = parse_epd(text);
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [6, 7, 8], "{errors:?}");
        assert_eq!(records.len(), 5);
        assert_eq!(sans(&records[0], &records[0].bm), ["Ne6"]);
        assert_eq!(records[0].mate, Some(3));
        assert_eq!(sans(&records[1], &records[1].bm), ["Nf7"]);
        assert_eq!(records[1].mate, Some(2));
        assert_eq!(records[2].mate, Some(4));
        assert!(records[2].bm.is_empty());
        assert_eq!(records[3].mate, None, "a centipawn ce is no mate");
        assert_eq!(sans(&records[3], &records[3].bm), ["e8=Q+"]);
        assert_eq!(sans(&records[4], &records[4].bm), ["e8=R+"]);
        assert_eq!(parse_ce_mate("-M3"), None);
        assert_eq!(parse_ce_mate("#5"), Some(5));
    }

    #[test]
    fn embedded_wac_reads_completely() {
        let (records, errors) = parse_epd(include_str!("../assets/wac.epd"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(records.len(), 300);
        assert!(records.iter().all(|r| !r.bm.is_empty() || !r.am.is_empty()));
        assert_eq!(records[299].id.as_deref(), Some("WAC.300"));
    }

    /// `bm b8=K` said "bad destination square" (the piece is what is wrong); `bm X; am X` on
    /// one line was read though no move can ever solve it, as was an `am` of every legal move.
    #[test]
    fn a_king_promotion_and_an_unsolvable_record_are_refused_clearly() {
        let promo = "1r5k/P7/8/8/8/8/8/K7 w - - bm b8=K;";
        let (records, errors) = parse_epd(promo);
        assert!(records.is_empty());
        let e = &errors[0].message;
        assert!(e.contains("cannot promote to a king"), "{e}");
        assert!(!e.contains("destination"), "{e}");
        for (text, part) in [
            (
                format!("{WAC1} am Qg6;"),
                "'Qg6' is both a best move (bm) and a move to avoid (am)",
            ),
            (
                "7k/8/8/8/8/8/8/K7 w - - am Ka2 Kb1 Kb2;".to_string(),
                "every legal move is a move to avoid",
            ),
        ] {
            let (records, errors) = parse_epd(&format!("{text}\n{WAC4}\n"));
            assert_eq!(records.len(), 1, "{text}: the next line is still read");
            assert_eq!(errors.len(), 1, "{text}");
            assert_eq!(errors[0].line, 1);
            assert!(errors[0].message.contains(part), "{text}: {}", errors[0]);
        }
        // One avoided move among several, or a best move beside another avoided one, is fine.
        let (records, errors) = parse_epd(&format!("{WAC1} am Qh3;"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(records.len(), 1);
    }
}

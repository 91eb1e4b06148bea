//! Moves and game results as CECP writes them: moves out in coordinates (Chess960 castling
//! as `O-O`/`O-O-O`), moves in in any notation a GUI sends, and the result line of a game
//! that is over.

use cozy_chess::{Board, Color, Move, Piece};

use crate::position::{move_to_uci, shorten, Position};
use crate::san::parse_san;

/// A legal move as CECP writes it: coordinates, or `O-O`/`O-O-O` for Chess960 castling.
pub fn xboard_move(board: &Board, mv: Move, chess960: bool) -> String {
    let castling = board.piece_on(mv.from) == Some(Piece::King)
        && board.colors(board.side_to_move()).has(mv.to);
    if chess960 && castling {
        if mv.to.file() > mv.from.file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        }
    } else {
        move_to_uci(board, mv, false)
    }
}

/// Parses a move from the GUI: coordinates (`e2e4`, `e7e8q`, `e1g1` or king-takes-rook
/// castling), `O-O`/`O-O-O` (also with zeros), or SAN. The move must be legal.
pub fn parse_move(board: &Board, text: &str, chess960: bool) -> Result<Move, String> {
    let text = text.trim();
    let core = text.trim_end_matches(['+', '#']);
    if let Some(short) = match core {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    } {
        let us = board.side_to_move();
        let king = board.king(us);
        let mut found = None;
        board.generate_moves_for(king.bitboard(), |pm| {
            for mv in pm {
                if board.colors(us).has(mv.to) && (mv.to.file() > mv.from.file()) == short {
                    found = Some(mv);
                }
            }
            false
        });
        return found.ok_or_else(|| format!("illegal move '{}'", shorten(text, 32)));
    }
    if let Ok(mv) = crate::position::parse_uci_move(board, text, chess960) {
        return Ok(mv);
    }
    if chess960 {
        // e1g1-style castling is not Chess960 notation, but a standard-chess king on e1 may
        // still mean it.
        if let Ok(mv) = crate::position::parse_uci_move(board, text, false) {
            return Ok(mv);
        }
    }
    parse_san(board, text)
}

/// Whether a word looks like a coordinate move or castling (a move sent without `usermove`).
pub(super) fn looks_like_move(t: &str) -> bool {
    let b = t.as_bytes();
    let coords = (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
        && (b.len() == 4 || b"qrbnQRBN".contains(&b[4]));
    coords || matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0")
}

/// The result line when the game is over in `pos`: mate, stalemate, the fifty-move rule,
/// insufficient material or threefold repetition.
pub fn game_end_claim(pos: &Position) -> Option<String> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.in_check() {
            "1/2-1/2 {Stalemate}".to_string()
        } else if pos.side_to_move() == Color::White {
            "0-1 {Black mates}".to_string()
        } else {
            "1-0 {White mates}".to_string()
        });
    }
    if pos.is_fifty_move_draw() {
        Some("1/2-1/2 {Fifty-move rule}".to_string())
    } else if pos.is_insufficient_material() {
        Some("1/2-1/2 {Insufficient material}".to_string())
    } else if pos.is_repetition(0) {
        Some("1/2-1/2 {Threefold repetition}".to_string())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_in_every_notation() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let b = pos.board();
        let short = parse_move(b, "e1g1", false).unwrap();
        assert_eq!(parse_move(b, "e1h1", false).unwrap(), short);
        assert_eq!(parse_move(b, "O-O", false).unwrap(), short);
        assert_eq!(parse_move(b, "0-0", true).unwrap(), short);
        let long = parse_move(b, "O-O-O", true).unwrap();
        assert_eq!(xboard_move(b, long, true), "O-O-O");
        assert_eq!(xboard_move(b, long, false), "e1c1");
        assert_eq!(xboard_move(b, short, true), "O-O");
        assert_eq!(parse_move(b, "Ra2", false).unwrap().to_string(), "a1a2");
        assert!(parse_move(b, "e1e3", false).is_err());
        assert!(parse_move(b, "", false).is_err());
        assert!(parse_move(b, "ñ", false).is_err());
        assert!(looks_like_move("e2e4") && looks_like_move("a7a8q") && looks_like_move("O-O"));
        assert!(!looks_like_move("quit") && !looks_like_move("e2e9") && !looks_like_move("é"));
    }

    #[test]
    fn game_ends_are_claimed() {
        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        assert_eq!(game_end_claim(&mated).unwrap(), "0-1 {Black mates}");
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(game_end_claim(&stalemate).unwrap(), "1/2-1/2 {Stalemate}");
        assert_eq!(game_end_claim(&Position::startpos()), None);
    }
}

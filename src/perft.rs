//! perft: counts the leaf nodes of the legal move tree, to check move generation and
//! make/unmake (through Lull's own [`Position`]) against published counts.

use cozy_chess::{Board, Move};

use crate::position::Position;

/// Leaf count of the legal move tree to `depth`, through [`Position::play`]/[`Position::undo`].
/// At depth 1 the moves are counted in bulk, without playing them.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves: Vec<Move> = Vec::with_capacity(64);
    let mut count = 0u64;
    pos.board().generate_moves(|pm| {
        if depth == 1 {
            count += pm.len() as u64;
        } else {
            moves.extend(pm);
        }
        false
    });
    if depth == 1 {
        return count;
    }
    for mv in moves {
        pos.play(mv);
        count += perft(pos, depth - 1);
        pos.undo();
    }
    count
}

/// Per-root-move counts ("divide"), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .into_iter()
        .map(|mv| {
            pos.play(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.undo();
            (mv, n)
        })
        .collect()
}

/// The same count on a bare cozy-chess board (copy-make, bulk counting): the yardstick that
/// Lull's own position type is measured against.
pub fn bare_perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut count = 0u64;
    board.generate_moves(|pm| {
        if depth == 1 {
            count += pm.len() as u64;
        } else {
            for mv in pm {
                let mut child = board.clone();
                child.play_unchecked(mv);
                count += bare_perft(&child, depth - 1);
            }
        }
        false
    });
    count
}

/// One line of a perft EPD file: a FEN and the expected counts by depth.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// The position.
    pub fen: String,
    /// (depth, expected leaf count).
    pub counts: Vec<(u32, u64)>,
}

/// Parses perft EPD text (`FEN ;D1 20 ;D2 400 …`). CRLF and a missing final newline are
/// fine; a malformed line is reported with its line number.
pub fn parse_perft_epd(text: &str) -> Vec<Result<PerftCase, String>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        let mut bad = None;
        for p in parts {
            let p = p.trim();
            let mut f = p.split_whitespace();
            let (Some(d), Some(n)) = (f.next(), f.next()) else {
                bad = Some(format!("line {}: malformed field '{p}'", i + 1));
                break;
            };
            let depth = d.trim_start_matches(['D', 'd']).parse::<u32>();
            let nodes = n.parse::<u64>();
            match (depth, nodes) {
                (Ok(d), Ok(n)) => counts.push((d, n)),
                _ => {
                    bad = Some(format!("line {}: malformed field '{p}'", i + 1));
                    break;
                }
            }
        }
        out.push(match bad {
            Some(e) => Err(e),
            None => Ok(PerftCase { fen, counts }),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_and_kiwipete_shallow() {
        let mut pos = Position::startpos();
        assert_eq!(perft(&mut pos, 1), 20);
        assert_eq!(perft(&mut pos, 3), 8_902);
        let mut kiwi = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(perft(&mut kiwi, 3), 97_862);
        assert_eq!(bare_perft(kiwi.board(), 3), 97_862);
        let total: u64 = divide(&mut kiwi, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 97_862);
    }

    #[test]
    fn epd_parser_reports_bad_lines() {
        let text = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 25\r\n\r\nbad ;D1 x\r\n8/8/8/8/8/8/8/K6k w - - ;D1 3";
        let cases = parse_perft_epd(text);
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[0].as_ref().unwrap().counts, vec![(1, 5), (2, 25)]);
        assert!(cases[1].as_ref().unwrap_err().contains("line 3"));
        assert_eq!(cases[2].as_ref().unwrap().counts, vec![(1, 3)]);
    }
}

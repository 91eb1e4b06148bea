//! perft: counts the leaf nodes of the legal move tree, to check move generation and
//! make/unmake (through Lull's own [`Position`]) against published counts.

use std::sync::atomic::{AtomicBool, Ordering};

use cozy_chess::{Board, Move};

use crate::position::Position;

/// Leaf count of the legal move tree to `depth`, through [`Position::play`]/[`Position::undo`].
/// At depth 1 the moves are counted in bulk, without playing them.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false))
}

/// [`perft`] that gives up soon after `stop` is set (it looks at the flag at every node three
/// or more plies from the leaves, every few thousand leaves at most); the count is then short.
fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return 0;
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
        count += perft_until(pos, depth - 1, stop);
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

/// [`divide`] that can be stopped: calls `each` with every root move's count as soon as it
/// is known, and ends soon after `stop` is set. Returns whether every root move was counted
/// (a root move being counted when `stop` came is left out).
pub fn divide_until(
    pos: &mut Position,
    depth: u32,
    stop: &AtomicBool,
    mut each: impl FnMut(Move, u64),
) -> bool {
    for mv in pos.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        pos.play(mv);
        let n = if depth <= 1 {
            1
        } else {
            perft_until(pos, depth - 1, stop)
        };
        pos.undo();
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        each(mv, n);
    }
    true
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
    fn divide_until_counts_like_divide_and_stops_when_told() {
        let mut pos = Position::startpos();
        let mut counted = Vec::new();
        let never = AtomicBool::new(false);
        assert!(divide_until(&mut pos, 3, &never, |mv, n| counted.push((mv, n))));
        assert_eq!(counted, divide(&mut pos, 3));
        // Stopped before it starts: nothing counted.
        let stop = AtomicBool::new(true);
        assert!(!divide_until(&mut pos, 7, &stop, |_, _| panic!("counted")));
        // Stopped during a deep count: it ends at once, without the move it was counting.
        let stop = AtomicBool::new(false);
        let start = std::time::Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            });
            assert!(!divide_until(&mut pos, 8, &stop, |_, _| panic!("counted")));
        });
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(pos.game_ply(), 0, "every move taken back");
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

//! Static exchange evaluation (SEE): the material outcome of the whole sequence of captures
//! on one square, each side capturing with its least valuable attacker and free to stop.
//!
//! The swap-list algorithm: play the capture, then let the sides alternate taking on the target
//! square with their cheapest attacker, recording the speculative balance after each capture in
//! `gain[]`. Sliding attackers behind a capturer (x-rays) appear because the sliding attacks are
//! looked up again from the reduced occupancy after each capture. Finally the list is folded from
//! the end with negamax (`gain[d-1] = -max(-gain[d-1], gain[d])`): each side may decline to
//! continue. Details that matter: en passant removes a pawn from another square; a pawn that
//! captures onto the last rank (in the move or during the swap) becomes a queen; a king may capture
//! only when the opponent has no attacker left. Pins are ignored, as usual.

use cozy_chess::{get_bishop_moves, get_rook_moves, BitBoard, Board, Color, Move, Piece, Rank};

pub use crate::params::SEE_VALUE;
use crate::position::attackers_to;

/// Value of a piece for SEE and MVV-LVA.
#[inline]
pub fn see_value(piece: Piece) -> i32 {
    SEE_VALUE[piece as usize]
}

/// The move's own capture: what it wins at once (the victim, plus a promotion's gain), the
/// value of the piece it leaves on the target square, and the occupancy after it.
struct FirstCapture {
    gain: i32,
    on_square: i32,
    occupied: BitBoard,
}

/// The first capture of `mv`'s exchange; `None` when the move exchanges nothing (castling,
/// the king onto its own rook, or no piece on the from-square): its value is 0.
#[inline]
fn first_capture(board: &Board, mv: Move) -> Option<FirstCapture> {
    let us = board.side_to_move();
    let mover = board.piece_on(mv.from)?;
    if board.colors(us).has(mv.to) {
        return None;
    }
    let mut occupied = board.occupied();
    let mut gain = board.piece_on(mv.to).map_or(0, see_value);
    // En passant: the captured pawn stands behind the target square.
    if mover == Piece::Pawn && gain == 0 && mv.from.file() != mv.to.file() {
        gain = see_value(Piece::Pawn);
        let victim = cozy_chess::Square::new(mv.to.file(), mv.from.rank());
        occupied ^= victim.bitboard();
    }
    // The value now standing on the target square, which the next capture wins.
    let mut on_square = see_value(mover);
    if let Some(promo) = mv.promotion {
        gain += see_value(promo) - see_value(Piece::Pawn);
        on_square = see_value(promo);
    }
    occupied ^= mv.from.bitboard();
    occupied |= mv.to.bitboard();
    Some(FirstCapture {
        gain,
        on_square,
        occupied,
    })
}

/// The exchange value of a legal move, in centipawns, for the side making it.
pub fn see(board: &Board, mv: Move) -> i32 {
    first_capture(board, mv).map_or(0, |first| swap(board, mv, first))
}

/// The swap-off after the move's own capture, folded by negamax.
fn swap(board: &Board, mv: Move, first: FirstCapture) -> i32 {
    let FirstCapture {
        gain: gain0,
        mut on_square,
        mut occupied,
    } = first;
    let mut gain = [0i32; 40];
    gain[0] = gain0;
    let mut side = !board.side_to_move();
    let mut d = 1;
    let last_rank = |color: Color| Rank::Eighth.relative_to(color);
    let diag = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let ortho = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    // The attackers are found once; after each capture only a slider behind the capturer
    // can join them (an x-ray), so only the sliding attacks are looked up again.
    let mut attackers = attackers_to(board, mv.to, occupied) & !mv.to.bitboard();
    loop {
        let ours = attackers & board.colors(side);
        if ours.is_empty() {
            break;
        }
        // Least valuable attacker.
        let mut chosen = None;
        for piece in Piece::ALL {
            let set = ours & board.pieces(piece);
            if let Some(sq) = set.next_square() {
                chosen = Some((piece, sq));
                break;
            }
        }
        let Some((piece, from)) = chosen else { break };
        // A king may not capture onto a square the opponent still attacks.
        if piece == Piece::King && !(attackers & board.colors(!side)).is_empty() {
            break;
        }
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        on_square = see_value(piece);
        if piece == Piece::Pawn && mv.to.rank() == last_rank(side) {
            gain[d] += see_value(Piece::Queen) - see_value(Piece::Pawn);
            on_square = see_value(Piece::Queen);
        }
        occupied ^= from.bitboard();
        // A knight stands on no line through the square: nothing behind it is revealed.
        if piece != Piece::Knight {
            attackers |= (get_bishop_moves(mv.to, occupied) & diag)
                | (get_rook_moves(mv.to, occupied) & ortho);
        }
        attackers &= occupied;
        side = !side;
        d += 1;
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

/// Whether the exchange value of `mv` is at least `threshold` (the `see_ge` of modern
/// engines): exactly `see(board, mv) >= threshold`, with the swap-off skipped where two
/// bounds already decide. The opponent may always decline to recapture, so the move wins
/// at most its own capture; and the mover may always stop after the recapture, so it loses
/// at most the piece it leaves on the square (unless that recapture is a pawn that promotes
/// there).
#[inline]
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    let Some(first) = first_capture(board, mv) else {
        return threshold <= 0;
    };
    if first.gain < threshold {
        return false;
    }
    let their_promotion_rank = Rank::First.relative_to(board.side_to_move());
    if first.gain - first.on_square >= threshold && mv.to.rank() != their_promotion_rank {
        return true;
    }
    swap(board, mv, first) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("valid fen");
        let mv = pos.parse_uci_move(uci).expect("legal move");
        see(pos.board(), mv)
    }

    /// Positions with hand-checked exchange values (P=100 N=B=325 R=500 Q=975).
    #[test]
    fn see_table() {
        let table: &[(&str, &str, i32, &str)] = &[
            // Undefended pawn.
            (
                "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
                "e1e5",
                100,
                "free pawn",
            ),
            // Pawn defended by a pawn, taken by a rook.
            (
                "1k6/8/3p4/4p3/8/8/8/1K2R3 w - - 0 1",
                "e1e5",
                100 - 500,
                "defended pawn",
            ),
            // Knight takes pawn defended by a pawn.
            (
                "1k6/8/3p4/4p3/8/5N2/8/1K6 w - - 0 1",
                "f3e5",
                100 - 325,
                "NxP defended",
            ),
            // Pawn takes knight: wins the knight even if recaptured.
            (
                "1k6/8/5p2/4n3/3P4/8/8/1K6 w - - 0 1",
                "d4e5",
                325 - 100,
                "PxN recaptured",
            ),
            // X-ray: rooks doubled, pawn defended once by a rook.
            (
                "1k2r3/8/8/4p3/8/8/4R3/1K2R3 w - - 0 1",
                "e2e5",
                100,
                "x-ray rook behind rook",
            ),
            // X-ray for the defender: two black rooks against two white rooks, plus a pawn.
            (
                "1k2r3/4r3/8/4p3/8/8/4R3/1K2R3 w - - 0 1",
                "e2e5",
                100 - 500,
                "defender x-ray",
            ),
            // Queen behind bishop on a diagonal (battery).
            (
                "7k/8/5p2/4p3/8/2B5/1Q6/1K6 w - - 0 1",
                "c3e5",
                100 - 325 + 100,
                "bishop-queen battery",
            ),
            // En passant, undefended.
            (
                "1k6/8/8/3pP3/8/8/8/1K6 w - d6 0 1",
                "e5d6",
                100,
                "en passant",
            ),
            // En passant, recaptured by a pawn.
            (
                "1k6/2p5/8/3pP3/8/8/8/1K6 w - d6 0 1",
                "e5d6",
                0,
                "en passant recaptured",
            ),
            // Quiet promotion, undefended.
            (
                "1k6/4P3/8/8/8/8/8/1K6 w - - 0 1",
                "e7e8q",
                975 - 100,
                "promotion",
            ),
            // Quiet promotion onto a square the rook guards: the rook takes the new queen.
            (
                "1k5r/4P3/8/8/8/8/8/1K6 w - - 0 1",
                "e7e8q",
                -100,
                "promotion captured by rook",
            ),
            // Capture-promotion recaptured by the king: wins the rook, loses the pawn.
            (
                "2kr4/4P3/8/8/8/8/8/1K6 w - - 0 1",
                "e7d8q",
                400,
                "capture-promotion, king recaptures",
            ),
            // Capture-promotion, nothing recaptures.
            (
                "1k1r4/4P3/8/8/8/8/8/1K6 w - - 0 1",
                "e7d8q",
                1375,
                "capture-promotion, free",
            ),
            // QxN, RxQ, bxR=Q: the pawn's recapture promotes, so Black declines RxQ.
            (
                "nr2k3/1P6/8/8/8/8/8/Q3K3 w - - 0 1",
                "a1a8",
                325,
                "promotion during the swap",
            ),
            // Rook takes a defended knight, the king recaptures.
            (
                "8/8/4k3/4n3/8/8/8/1K2R3 w - - 0 1",
                "e1e5",
                325 - 500,
                "king recaptures the rook",
            ),
            // Same, but a second white rook makes the king's recapture illegal.
            (
                "8/8/4k3/R3n3/8/8/8/1K2R3 w - - 0 1",
                "e1e5",
                325,
                "king cannot recapture, square guarded",
            ),
            // Queen takes a pawn defended by a knight.
            (
                "1k6/8/5n2/3p4/8/8/3Q4/1K6 w - - 0 1",
                "d2d5",
                100 - 975,
                "QxP defended by knight",
            ),
            // Equal trade: knight takes knight, recaptured by a pawn.
            ("1k6/8/3p4/4n3/8/3N4/8/1K6 w - - 0 1", "d3e5", 0, "NxN, PxN"),
            // Non-capture onto an attacked square: loses the piece.
            (
                "1k6/8/8/3p4/8/8/8/1K2N3 w - - 0 1",
                "e1d3",
                0,
                "quiet move to safe square",
            ),
            (
                "1k6/8/8/3p4/8/8/8/1K1N4 w - - 0 1",
                "d1e3",
                0,
                "quiet move, safe",
            ),
            (
                "1k6/8/2p5/8/2N5/8/8/1K6 w - - 0 1",
                "c4b6",
                0,
                "quiet knight move, undefended square",
            ),
            (
                "1k6/8/2p5/8/8/2N5/8/1K6 w - - 0 1",
                "c3d5",
                -325,
                "knight steps into pawn attack",
            ),
        ];
        for &(fen, mv, expected, what) in table {
            assert_eq!(see_of(fen, mv), expected, "{what}: {fen} {mv}");
        }
        assert!(table.len() >= 15);
    }

    #[test]
    fn king_as_last_attacker() {
        // Black king takes an undefended pawn.
        assert_eq!(see_of("8/8/8/3k4/4P3/8/8/1K6 b - - 0 1", "d5e4"), 100);
        // RxN; the black king may not recapture because the white king guards d3.
        assert_eq!(see_of("8/8/8/8/3k4/3n4/2K5/3R4 w - - 0 1", "d1d3"), 325);
        // RxN, KxR: nothing guards d3 for White.
        assert_eq!(
            see_of("8/8/8/8/3k4/3n4/8/1K1R4 w - - 0 1", "d1d3"),
            325 - 500
        );
        // RxP, NxR, KxN: the white king ends the sequence as the last attacker.
        assert_eq!(
            see_of("k7/8/8/8/1n6/3p4/4K3/3R4 w - - 0 1", "d1d3"),
            100 - 500 + 325
        );
        // Same, but a black bishop also guards d3: the king may not take, RxP NxR stands.
        assert_eq!(
            see_of("k7/8/8/5b2/1n6/3p4/4K3/3R4 w - - 0 1", "d1d3"),
            100 - 500
        );
    }

    #[test]
    fn see_ge_threshold() {
        let pos = Position::from_fen("1k6/8/3p4/4p3/8/8/8/1K2R3 w - - 0 1").unwrap();
        let mv = pos.parse_uci_move("e1e5").unwrap();
        assert!(see_ge(pos.board(), mv, -400));
        assert!(!see_ge(pos.board(), mv, -399));
    }

    /// The swap-off as first written: every attacker looked up again from the reduced
    /// occupancy after each capture. `see` must agree with it on every move.
    fn see_recomputed(board: &Board, mv: Move) -> i32 {
        let Some(FirstCapture {
            gain: gain0,
            mut on_square,
            mut occupied,
        }) = first_capture(board, mv)
        else {
            return 0;
        };
        let mut gain = vec![gain0];
        let mut side = !board.side_to_move();
        loop {
            let attackers = attackers_to(board, mv.to, occupied) & !mv.to.bitboard();
            let ours = attackers & board.colors(side);
            let Some((piece, from)) = Piece::ALL
                .iter()
                .find_map(|&p| (ours & board.pieces(p)).next_square().map(|sq| (p, sq)))
            else {
                break;
            };
            if piece == Piece::King && !(attackers & board.colors(!side)).is_empty() {
                break;
            }
            let mut g = on_square - gain[gain.len() - 1];
            on_square = see_value(piece);
            if piece == Piece::Pawn && mv.to.rank() == Rank::Eighth.relative_to(side) {
                g += see_value(Piece::Queen) - see_value(Piece::Pawn);
                on_square = see_value(Piece::Queen);
            }
            gain.push(g);
            occupied ^= from.bitboard();
            side = !side;
        }
        while gain.len() > 1 {
            let last = gain.pop().unwrap();
            let prev = gain.last_mut().unwrap();
            *prev = -(-*prev).max(last);
        }
        gain[0]
    }

    /// Every legal move of the perft suites and of the positions a fixed pseudo-random walk
    /// reaches from them: `see` equals the recomputing swap-off, and `see_ge` equals
    /// `see >= threshold` at thresholds around the value and across the piece values.
    #[test]
    fn see_and_see_ge_agree_with_the_recomputed_swap_off() {
        let suites = [
            include_str!("../../assets/perft/ethereal_standard.epd"),
            include_str!("../../assets/perft/cpw_perft_positions.epd"),
            include_str!("../../assets/perft/frc_perftsuite.epd"),
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut moves, mut nonzero, mut early) = (0u64, 0u64, 0u64);
        for fen in suites
            .iter()
            .flat_map(|s| s.lines())
            .filter_map(|line| line.split(';').next().map(str::trim))
            .filter(|fen| !fen.is_empty())
        {
            let mut board = Position::from_fen(fen).expect("suite FEN").board().clone();
            for _ in 0..12 {
                let mut legal = Vec::new();
                board.generate_moves(|pm| {
                    legal.extend(pm);
                    false
                });
                if legal.is_empty() {
                    break;
                }
                for &mv in &legal {
                    let value = see(&board, mv);
                    assert_eq!(value, see_recomputed(&board, mv), "{board} {mv}");
                    moves += 1;
                    nonzero += u64::from(value != 0);
                    for t in [
                        value - 1,
                        value,
                        value + 1,
                        -975,
                        -500,
                        -325,
                        -100,
                        -75,
                        0,
                        1,
                        100,
                        325,
                        500,
                    ] {
                        assert_eq!(see_ge(&board, mv, t), value >= t, "{board} {mv} {t}");
                    }
                    if let Some(first) = first_capture(&board, mv) {
                        let their_promotion_rank = Rank::First.relative_to(board.side_to_move());
                        early += u64::from(
                            first.gain - first.on_square >= -100
                                && mv.to.rank() != their_promotion_rank,
                        );
                    }
                }
                let mv = legal[(next() % legal.len() as u64) as usize];
                board.play_unchecked(mv);
            }
        }
        assert!(moves > 300_000, "{moves} moves");
        assert!(
            nonzero > 30_000,
            "{nonzero} moves with a nonzero exchange value"
        );
        assert!(
            early > 10_000,
            "{early} moves decided without the swap-off at -100"
        );
    }
}

//! The packed training position: 32 bytes per position, in the spirit of marlinformat, for
//! `lull datagen --format bin`, `lull data` and `lull train`.
//!
//! ```text
//! bytes  0..8   occupancy, u64 little-endian (bit i = square i, a1 = 0, h8 = 63)
//! bytes  8..24  32 nibbles, one per occupied square in ascending square order, low nibble
//!               first: colour << 3 | type, type in cozy-chess order (Pawn 0 … King 5) or 6
//!               for a rook that carries a castling right (Chess960 rights included)
//! byte  24      side to move << 7 | en passant square (64 = none)
//! byte  25      half-move clock
//! bytes 26..28  full-move number, u16 little-endian
//! bytes 28..30  score, i16 little-endian, centipawns from White's view
//! byte  30      result: 0 Black won, 1 draw, 2 White won
//! byte  31      spare (written as 0)
//! ```
//!
//! Decoding goes through the program's one FEN reader ([`crate::position::parse_fen`]), so a
//! record decodes only to a position that Lull accepts; [`PackedRecord::check`] is the cheap
//! structural check that the tools run on every record they read.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::Path;

use cozy_chess::{Board, Color, Piece, Square};

use crate::position::parse_fen;

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;
/// The result code of a Black win.
pub const BLACK_WIN: u8 = 0;
/// The result code of a draw.
pub const DRAW: u8 = 1;
/// The result code of a White win.
pub const WHITE_WIN: u8 = 2;
/// The piece code of a rook with a castling right.
const CASTLING_ROOK: u8 = 6;
/// The en passant value of "no en passant square".
const NO_EP: u8 = 64;

/// One packed position (see the module header for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedRecord(pub [u8; RECORD_SIZE]);

/// The result code of a game result from White's view (1.0, 0.5, 0.0; nearest code).
pub fn result_code(white_result: f32) -> u8 {
    if white_result > 0.75 {
        WHITE_WIN
    } else if white_result > 0.25 {
        DRAW
    } else {
        BLACK_WIN
    }
}

impl PackedRecord {
    /// Packs `board` with the search score `score` (centipawns, White's view; clamped to the
    /// i16 range) and the game result `white_result` (1.0, 0.5 or 0.0 from White's view).
    pub fn encode(board: &Board, white_result: f32, score: i32) -> Self {
        let mut bytes = [0u8; RECORD_SIZE];
        let occupied = board.occupied();
        bytes[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        // The rooks that carry a castling right.
        let mut castling_rooks = 0u64;
        for color in Color::ALL {
            let rights = board.castle_rights(color);
            let rank = cozy_chess::Rank::First.relative_to(color);
            for file in [rights.short, rights.long].into_iter().flatten() {
                castling_rooks |= 1u64 << Square::new(file, rank) as usize;
            }
        }
        for (i, sq) in occupied.into_iter().enumerate() {
            let piece = board.piece_on(sq).map_or(0, |p| p as u8);
            let color = board.color_on(sq).map_or(0, |c| c as u8);
            let kind = if castling_rooks >> sq as usize & 1 != 0 && piece == Piece::Rook as u8 {
                CASTLING_ROOK
            } else {
                piece
            };
            bytes[8 + i / 2] |= (color << 3 | kind) << (4 * (i % 2));
        }
        let stm = board.side_to_move() as u8;
        // The en-passant square only where a pawn can take (the position as the rules see
        // it, as the FEN writer writes it).
        let playable = crate::position::en_passant_is_playable(board);
        let ep = match board.en_passant().filter(|_| playable) {
            Some(file) => {
                let rank = if board.side_to_move() == Color::White {
                    cozy_chess::Rank::Sixth
                } else {
                    cozy_chess::Rank::Third
                };
                Square::new(file, rank) as u8
            }
            None => NO_EP,
        };
        bytes[24] = stm << 7 | ep;
        bytes[25] = board.halfmove_clock();
        bytes[26..28].copy_from_slice(&board.fullmove_number().to_le_bytes());
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        bytes[28..30].copy_from_slice(&score.to_le_bytes());
        bytes[30] = result_code(white_result);
        Self(bytes)
    }

    /// The occupied squares.
    #[inline]
    pub fn occupancy(&self) -> u64 {
        u64::from_le_bytes(self.0[0..8].try_into().unwrap_or([0; 8]))
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.0[24] >> 7 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The search score, centipawns from White's view.
    #[inline]
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[28], self.0[29]])
    }

    /// The result code: [`BLACK_WIN`], [`DRAW`] or [`WHITE_WIN`].
    #[inline]
    pub fn result(&self) -> u8 {
        self.0[30]
    }

    /// The pieces as (square, colour, type) triples, castling rooks as plain rooks: colour 0
    /// White, 1 Black; type in cozy-chess order (Pawn 0 … King 5). The record is assumed to
    /// pass [`PackedRecord::check`].
    #[inline]
    pub fn pieces(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let mut occ = self.occupancy();
        let mut i = 0;
        std::iter::from_fn(move || {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = self.0[8 + i / 2] >> (4 * (i % 2)) & 15;
            i += 1;
            let kind = (code & 7) as usize;
            let kind = if kind == CASTLING_ROOK as usize {
                Piece::Rook as usize
            } else {
                kind
            };
            Some((sq, (code >> 3) as usize, kind))
        })
    }

    /// The cheap structural check: at most 32 pieces, valid piece codes, unused nibbles zero,
    /// an en passant value of at most 64 and a result code of at most 2. The error says what
    /// is wrong.
    pub fn check(&self) -> Result<(), String> {
        let count = self.occupancy().count_ones() as usize;
        if count > 32 {
            return Err(format!("{count} pieces (at most 32)"));
        }
        for i in 0..32 {
            let code = self.0[8 + i / 2] >> (4 * (i % 2)) & 15;
            if i < count && code & 7 == 7 {
                return Err(format!("invalid piece code {code}"));
            }
            if i >= count && code != 0 {
                return Err("piece codes past the last piece".to_string());
            }
        }
        if self.0[24] & 127 > NO_EP {
            return Err(format!("invalid en passant square {}", self.0[24] & 127));
        }
        if self.result() > WHITE_WIN {
            return Err(format!("invalid result code {}", self.result()));
        }
        Ok(())
    }

    /// The position as FEN (Shredder-FEN castling: the files of the castling rooks), or why
    /// the record is corrupt.
    pub fn fen(&self) -> Result<String, String> {
        self.check()?;
        let mut board = [None; 64];
        let mut kings = [None; 2];
        let mut castling = [Vec::new(), Vec::new()];
        for (i, (sq, color, kind)) in self.pieces().enumerate() {
            let code = self.0[8 + i / 2] >> (4 * (i % 2)) & 7;
            board[sq] = Some((color, kind));
            if kind == Piece::King as usize {
                kings[color] = Some(sq);
            }
            if code == CASTLING_ROOK {
                castling[color].push(sq);
            }
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    None => empty += 1,
                    Some((color, kind)) => {
                        if empty > 0 {
                            let _ = write!(fen, "{empty}");
                            empty = 0;
                        }
                        let c = b"pnbrqk"[kind] as char;
                        fen.push(if color == 0 {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        });
                    }
                }
            }
            if empty > 0 {
                let _ = write!(fen, "{empty}");
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.side_to_move() == Color::White {
            " w "
        } else {
            " b "
        });
        // Castling: the rook files, short side first, as Shredder-FEN letters.
        let mut rights = String::new();
        for (color, rooks) in castling.iter_mut().enumerate() {
            let back = if color == 0 { 0 } else { 7 };
            if rooks.len() > 2 || rooks.iter().any(|&sq| sq / 8 != back) {
                return Err("castling rook off its back rank".to_string());
            }
            let king_file = match kings[color] {
                Some(k) if k / 8 == back => k % 8,
                _ if rooks.is_empty() => continue,
                _ => return Err("castling rook without a king on its back rank".to_string()),
            };
            rooks.sort_by_key(|&sq| std::cmp::Reverse(sq));
            for &sq in rooks.iter() {
                if sq % 8 == king_file {
                    return Err("castling rook on the king's file".to_string());
                }
                let letter = (b'a' + (sq % 8) as u8) as char;
                rights.push(if color == 0 {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        fen.push_str(if rights.is_empty() { "-" } else { &rights });
        let ep = self.0[24] & 127;
        if ep == NO_EP {
            fen.push_str(" -");
        } else {
            let _ = write!(
                fen,
                " {}{}",
                (b'a' + ep % 8) as char,
                (b'1' + ep / 8) as char
            );
        }
        let fullmove = u16::from_le_bytes([self.0[26], self.0[27]]);
        let _ = write!(fen, " {} {}", self.0[25], fullmove);
        Ok(fen)
    }

    /// The position, result (1.0, 0.5, 0.0 from White's view) and score (White's view), or
    /// why the record is corrupt (the FEN is read by [`crate::position::parse_fen`]).
    pub fn decode(&self) -> Result<(Board, f32, i32), String> {
        let board = parse_fen(&self.fen()?)?;
        let result = f32::from(self.result()) / 2.0;
        Ok((board, result, i32::from(self.score())))
    }
}

/// Reads every record of a binary data file, each checked. Errors: the file cannot be read,
/// its size is not a multiple of 32 bytes (truncated), or a record is corrupt (its number
/// and what is wrong).
pub fn read_records(path: &Path) -> Result<Vec<PackedRecord>, String> {
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    records_from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The records of a binary data file's bytes, each checked (see [`read_records`]).
pub fn records_from_bytes(bytes: &[u8]) -> Result<Vec<PackedRecord>, String> {
    if !bytes.len().is_multiple_of(RECORD_SIZE) {
        return Err(format!(
            "truncated: {} bytes is not a multiple of {RECORD_SIZE} (the record size)",
            bytes.len()
        ));
    }
    bytes
        .chunks_exact(RECORD_SIZE)
        .enumerate()
        .map(|(i, chunk)| {
            let mut record = PackedRecord([0; RECORD_SIZE]);
            record.0.copy_from_slice(chunk);
            record
                .check()
                .map(|()| record)
                .map_err(|e| format!("record {} (byte {}) is corrupt: {e}", i + 1, i * 32))
        })
        .collect()
}

/// Writes records back to back.
pub fn write_records(out: &mut impl Write, records: &[PackedRecord]) -> io::Result<()> {
    for r in records {
        out.write_all(&r.0)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite_boards() -> Vec<Board> {
        let mut boards = Vec::new();
        for text in [
            include_str!("../../../assets/perft/cpw_perft_positions.epd"),
            include_str!("../../../assets/perft/ethereal_standard.epd"),
            include_str!("../../../assets/perft/frc_perftsuite.epd"),
        ] {
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let fen = line.split(';').next().unwrap().trim();
                boards.push(parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")));
            }
        }
        boards
    }

    #[test]
    fn every_perft_position_round_trips() {
        let boards = suite_boards();
        assert!(boards.len() > 1100);
        let mut chess960_rights = 0;
        for (i, board) in boards.iter().enumerate() {
            let result = [0.0, 0.5, 1.0][i % 3];
            let score = (i as i32 * 37) % 2001 - 1000;
            let record = PackedRecord::encode(board, result, score);
            let (back, r, s) = record.decode().unwrap_or_else(|e| panic!("{i}: {e}"));
            assert_eq!(&back, board, "{}", crate::position::board_fen(board));
            assert_eq!((r, s), (result, score));
            assert_eq!(record.side_to_move(), board.side_to_move());
            // The pieces as the trainer sees them.
            let pieces: Vec<_> = record.pieces().collect();
            assert_eq!(pieces.len(), board.occupied().len() as usize);
            for (sq, color, kind) in pieces {
                let sq = Square::index(sq);
                assert_eq!(board.piece_on(sq).map(|p| p as usize), Some(kind));
                assert_eq!(board.color_on(sq).map(|c| c as usize), Some(color));
            }
            let rights = board.castle_rights(Color::White);
            chess960_rights += usize::from(
                rights.short.is_some_and(|f| f != cozy_chess::File::H)
                    || rights.long.is_some_and(|f| f != cozy_chess::File::A),
            );
        }
        assert!(chess960_rights > 100, "{chess960_rights}");
    }

    #[test]
    fn scores_clamp_and_results_code() {
        let board = Board::default();
        let r = PackedRecord::encode(&board, 1.0, 100_000);
        assert_eq!((r.score(), r.result()), (i16::MAX, WHITE_WIN));
        let r = PackedRecord::encode(&board, 0.0, -100_000);
        assert_eq!((r.score(), r.result()), (i16::MIN, BLACK_WIN));
        assert_eq!(PackedRecord::encode(&board, 0.5, 0).result(), DRAW);
        assert_eq!(r.0[31], 0);
        // The start position: 32 pieces, four castling rooks, no en passant square.
        let r = PackedRecord::encode(&board, 0.5, 0);
        assert_eq!(r.occupancy(), 0xFFFF_0000_0000_FFFF);
        assert_eq!(r.0[8], 0x1 << 4 | 6, "a1 castling rook, b1 knight");
        assert_eq!(r.0[24], 64);
        assert_eq!(
            r.fen().unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn corrupt_records_are_refused_with_a_reason() {
        let good = PackedRecord::encode(&Board::default(), 0.5, 0);
        let mut bad = good;
        bad.0[30] = 3;
        assert!(bad.check().unwrap_err().contains("result"));
        let mut bad = good;
        bad.0[8] = 0x77;
        assert!(bad.check().unwrap_err().contains("piece code"));
        let mut bad = good;
        bad.0[24] = 100;
        assert!(bad.check().unwrap_err().contains("en passant"));
        // No kings: a structurally sound record that is no position.
        let mut bad = PackedRecord([0; 32]);
        bad.0[0] = 1;
        assert!(bad.check().is_ok());
        assert!(bad.decode().is_err());
        // A castling rook off the back rank.
        let mut bad = good;
        bad.0[12] = 0x06 << 4 | 0x06;
        assert!(bad.decode().is_err());
        // Truncated and corrupt files.
        let mut bytes = good.0.to_vec();
        bytes.extend_from_slice(&good.0[..5]);
        assert!(records_from_bytes(&bytes)
            .unwrap_err()
            .contains("truncated"));
        let mut bytes = good.0.to_vec();
        bytes.extend_from_slice(&[0xFF; 32]);
        let e = records_from_bytes(&bytes).unwrap_err();
        assert!(e.contains("record 2"), "{e}");
        assert_eq!(records_from_bytes(&good.0).unwrap(), vec![good]);
    }
}

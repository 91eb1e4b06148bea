//! Polyglot opening books: the book key of a position, the move encoding, reading and probing a
//! `.bin` book, and choosing a book move. Building a book from PGN games is in [`build`] (with
//! the PGN reader in [`pgn`]) and the `lull book` commands in `lull::tools::data::book`. This is
//! the Polyglot library only: the book options and when a front end plays a book move are in
//! `crate::protocol::book_moves`.
//!
//! The format (PolyGlot by Fabien Letouzey): a file of 16-byte entries, big-endian, sorted by
//! key: `key: u64, move: u16, weight: u16, learn: u32`. The key is a Zobrist hash with the
//! fixed [`keys::RANDOM64`] table:
//! - every piece: `RANDOM64[64 * kind + 8 * rank + file]`, kind 0 = black pawn, 1 = white pawn,
//!   2 = black knight, … 11 = white king;
//! - each castling right: `RANDOM64[768 + i]`, i = White short, White long, Black short,
//!   Black long;
//! - the en passant file, `RANDOM64[772 + file]`, only when a pawn of the side to move stands
//!   next to the pawn that has just made a double step (whether the capture would be legal
//!   does not matter);
//! - `RANDOM64[780]` when White is to move.
//!
//! A move is `to_file | to_rank << 3 | from_file << 6 | from_rank << 9 | promotion << 12`
//! (promotion 0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Castling is written as the king
//! taking its own rook (`e1h1`, `e1a1`), which is also how cozy-chess encodes it, in standard
//! chess and in Chess960 alike. Some book writers store the king's two-square move (`e1g1`)
//! instead; reading accepts that too.
//!
//! By convention an entry of weight 0 is a deleted move: it is listed by a probe but never
//! chosen.

pub mod build;
pub mod keys;
pub mod pgn;

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::Path;

use cozy_chess::{Board, Color, Move, Piece, Rank, Square};

use crate::position::{shorten, Position};

use keys::RANDOM64;

/// Size of one book entry, in bytes.
pub const ENTRY_SIZE: usize = 16;

/// Largest book file read, in bytes (2 GiB: 134 million entries, far more than the largest
/// published books). A book is read whole into memory when `BookFile` is set, while the
/// command loop waits: a larger file (a disk image given by mistake) would hold both for
/// minutes and could exhaust the memory, so it is refused at once.
pub const MAX_BOOK_BYTES: u64 = 2 << 30;

/// Offset of the castling keys in [`RANDOM64`].
const CASTLE_OFFSET: usize = 768;
/// Offset of the en passant keys.
const EP_OFFSET: usize = 772;
/// Index of the side-to-move key.
const TURN_INDEX: usize = 780;

/// The positions (moves from the start, in UCI) and keys published with the Polyglot book
/// format, the check of any implementation of [`polyglot_key`].
pub const PUBLISHED_KEYS: [(&str, u64); 9] = [
    ("", 0x463b96181691fc9c),
    ("e2e4", 0x823c9b50fd114196),
    ("e2e4 d7d5", 0x0756b94461c50fb0),
    ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
    ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
    ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
    ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
    ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
    ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
];

/// The Polyglot key of a position.
pub fn polyglot_key(board: &Board) -> u64 {
    polyglot_key_as(board, true)
}

/// The Polyglot key, with the en-passant file keyed as the format says (`en_passant`), or
/// never: the key under which the same position is stored when it was reached without a
/// double step.
fn polyglot_key_as(board: &Board, en_passant: bool) -> u64 {
    let mut key = 0;
    for color in [Color::White, Color::Black] {
        for piece in Piece::ALL {
            // Pieces in the order pawn, knight, bishop, rook, queen, king (as cozy-chess's);
            // black first within each piece.
            let kind = 2 * piece as usize + usize::from(color == Color::White);
            for sq in board.colored_pieces(color, piece) {
                key ^= RANDOM64[64 * kind + sq as usize];
            }
        }
    }
    let white = board.castle_rights(Color::White);
    let black = board.castle_rights(Color::Black);
    let rights = [
        white.short.is_some(),
        white.long.is_some(),
        black.short.is_some(),
        black.long.is_some(),
    ];
    for (i, has) in rights.into_iter().enumerate() {
        if has {
            key ^= RANDOM64[CASTLE_OFFSET + i];
        }
    }
    if let Some(file) = board.en_passant().filter(|_| en_passant) {
        let us = board.side_to_move();
        let capturers = board.colored_pieces(us, Piece::Pawn)
            & file.adjacent()
            & Rank::Fifth.relative_to(us).bitboard();
        if !capturers.is_empty() {
            key ^= RANDOM64[EP_OFFSET + file as usize];
        }
    }
    if board.side_to_move() == Color::White {
        key ^= RANDOM64[TURN_INDEX];
    }
    key
}

/// The Polyglot code of a move in cozy-chess encoding (castling as king takes rook, which is
/// Polyglot's encoding too).
pub fn encode_move(mv: Move) -> u16 {
    let promotion = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        // A pawn only promotes to a knight, bishop, rook or queen.
        Some(_) => 4,
    };
    (mv.to as u16) | (mv.from as u16) << 6 | promotion << 12
}

/// The move a Polyglot code stands for, as written (no legality check): `None` for a code that
/// names no move (unknown promotion piece, or the same square twice).
pub fn raw_move(code: u16) -> Option<Move> {
    let to = Square::index(usize::from(code & 63));
    let from = Square::index(usize::from((code >> 6) & 63));
    let promotion = match (code >> 12) & 7 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => return None,
    };
    (from != to).then_some(Move {
        from,
        to,
        promotion,
    })
}

/// The legal move of `board` that a Polyglot code stands for, or `None` when it names no legal
/// move. A king's two-square move along the back rank (`e1g1`, written by some book makers for
/// castling) is read as the castling it means.
pub fn decode_move(board: &Board, code: u16) -> Option<Move> {
    let mut mv = raw_move(code)?;
    if board.is_legal(mv) {
        return Some(mv);
    }
    let us = board.side_to_move();
    let back = Rank::First.relative_to(us);
    let two_squares = mv.from == board.king(us)
        && mv.promotion.is_none()
        && mv.from.rank() == back
        && mv.to.rank() == back
        && (mv.from.file() as i32 - mv.to.file() as i32).abs() == 2;
    if !two_squares {
        return None;
    }
    let rights = board.castle_rights(us);
    let rook = if mv.to.file() > mv.from.file() {
        rights.short
    } else {
        rights.long
    }?;
    mv.to = Square::new(rook, back);
    board.is_legal(mv).then_some(mv)
}

/// One book entry, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Polyglot key of the position.
    pub key: u64,
    /// Polyglot move code.
    pub code: u16,
    /// Weight (relative frequency or quality of the move).
    pub weight: u16,
    /// Learning data (unused by Lull, kept as read; 0 in books Lull builds).
    pub learn: u32,
}

impl Entry {
    /// The entry from its 16 bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_SIZE]) -> Self {
        let mut key = [0; 8];
        key.copy_from_slice(&bytes[0..8]);
        Self {
            key: u64::from_be_bytes(key),
            code: u16::from_be_bytes([bytes[8], bytes[9]]),
            weight: u16::from_be_bytes([bytes[10], bytes[11]]),
            learn: u32::from_be_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]),
        }
    }

    /// The 16 bytes of the entry.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0; ENTRY_SIZE];
        out[0..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.code.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..16].copy_from_slice(&self.learn.to_be_bytes());
        out
    }
}

/// Writes entries (already in key order) in the book format.
pub fn write_entries(out: &mut impl Write, entries: &[Entry]) -> io::Result<()> {
    for e in entries {
        out.write_all(&e.to_bytes())?;
    }
    Ok(())
}

/// A legal book move of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (cozy-chess encoding).
    pub mv: Move,
    /// Its weight in the book.
    pub weight: u16,
    /// Its learning data.
    pub learn: u32,
}

/// What a book holds for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Polyglot key of the position.
    pub key: u64,
    /// The legal book moves, in book order.
    pub moves: Vec<BookMove>,
    /// Entries of this key that name no legal move here (a key collision or a broken book):
    /// they are ignored.
    pub ignored: usize,
}

impl Probe {
    /// Sum of the weights of the legal book moves.
    pub fn total_weight(&self) -> u32 {
        self.moves.iter().map(|m| u32::from(m.weight)).sum()
    }

    /// Chooses a move: the heaviest (the first of equals) when `best`, otherwise at random in
    /// proportion to the weights, `random` being a uniformly random number. Moves of weight 0
    /// are never chosen; `None` when no move has a weight.
    pub fn choose(&self, best: bool, random: u64) -> Option<BookMove> {
        let total = self.total_weight();
        if total == 0 {
            return None;
        }
        if best {
            // `max_by_key` keeps the last maximum: search from the back to get the first.
            return self.moves.iter().rev().max_by_key(|m| m.weight).copied();
        }
        let mut left = random % u64::from(total);
        for m in &self.moves {
            let w = u64::from(m.weight);
            if left < w {
                return Some(*m);
            }
            left -= w;
        }
        None
    }
}

/// A Polyglot book held in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads a book from its bytes. The size must be a multiple of 16 and the keys in
    /// non-decreasing order (binary search depends on it); otherwise the error says what is
    /// wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        if !bytes.len().is_multiple_of(ENTRY_SIZE) {
            return Err(format!(
                "not a Polyglot book: its size, {} bytes, is not a multiple of {ENTRY_SIZE}",
                bytes.len()
            ));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_SIZE)
            .map(|c| {
                let mut b = [0; ENTRY_SIZE];
                b.copy_from_slice(c);
                Entry::from_bytes(&b)
            })
            .collect();
        Self::from_entries(entries)
    }

    /// A book from entries, which must be in key order.
    pub fn from_entries(entries: Vec<Entry>) -> Result<Self, String> {
        if let Some(i) = entries.windows(2).position(|w| w[1].key < w[0].key) {
            return Err(format!(
                "not a Polyglot book: entry {} (key {:016x}) comes after a larger key {:016x}; \
                 entries must be sorted by key",
                i + 2,
                entries[i + 1].key,
                entries[i].key
            ));
        }
        Ok(Self { entries })
    }

    /// Loads a book file into memory. An empty file is an error (it cannot be a book anyone
    /// meant to use), as are the problems of [`Book::from_bytes`].
    pub fn open(path: &Path) -> Result<Self, String> {
        let shown = shorten(&path.display().to_string(), 200);
        // Only a regular file: a directory or a device (`/dev/zero`) is no book.
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(format!("book file '{shown}' is not a regular file"))
            }
            Ok(m) if m.len() > MAX_BOOK_BYTES => {
                return Err(format!(
                    "book file '{shown}' is {} MiB, more than the {} MiB a book may have",
                    m.len() >> 20,
                    MAX_BOOK_BYTES >> 20
                ))
            }
            _ => {}
        }
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read book file '{shown}': {e}"))?;
        if bytes.is_empty() {
            return Err(format!("book file '{shown}' is empty"));
        }
        Self::from_bytes(&bytes).map_err(|e| format!("book file '{shown}': {e}"))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries, in key order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries of one key (binary search).
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// The book moves of a position: entries naming no legal move are counted, not returned.
    ///
    /// A position whose en-passant file the Polyglot key counts (a pawn stands beside the
    /// pawn that just made a double step) although the capture is illegal (that pawn is
    /// pinned) is the same position as the one without the file: the entries of both keys
    /// are its moves.
    pub fn probe(&self, board: &Board) -> Probe {
        let key = polyglot_key(board);
        let mut entries = self.entries_for(key).to_vec();
        let plain = polyglot_key_as(board, false);
        if plain != key && !crate::position::en_passant_is_playable(board) {
            for e in self.entries_for(plain) {
                if !entries.iter().any(|seen| seen.code == e.code) {
                    entries.push(*e);
                }
            }
        }
        let mut moves = Vec::new();
        let mut ignored = 0;
        for e in &entries {
            match decode_move(board, e.code) {
                Some(mv) => moves.push(BookMove {
                    mv,
                    weight: e.weight,
                    learn: e.learn,
                }),
                None => ignored += 1,
            }
        }
        Probe {
            key,
            moves,
            ignored,
        }
    }
}

/// A fresh random number (from the standard library's randomly keyed hasher and the clock).
pub fn random_u64() -> u64 {
    let mut h = RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    h.finish()
}

/// The plies played since the start of the game, from the FEN move counters of the position
/// (`position startpos moves …` counts them exactly; `position fen …` starts from the FEN's
/// fullmove number).
pub fn game_ply(board: &Board) -> u32 {
    let full = u32::from(board.fullmove_number().max(1));
    2 * (full - 1) + u32::from(board.side_to_move() == Color::Black)
}

/// Plays moves given in UCI (`e2e4`) or SAN (`e4`) notation; the error names the first bad one.
pub fn play_moves(pos: &mut Position, moves: &[String]) -> Result<(), String> {
    for (i, text) in moves.iter().enumerate() {
        let mv = pos
            .parse_uci_move(text)
            .or_else(|_| crate::san::parse_san(pos.board(), text))
            .map_err(|e| format!("move {} '{}': {e}", i + 1, shorten(text, 32)))?;
        pos.play(mv);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::File;

    fn after(moves: &str) -> Board {
        let mut board = Board::default();
        for m in moves.split_whitespace() {
            board.play(m.parse().unwrap());
        }
        board
    }

    #[test]
    fn a_pinned_pawn_beside_a_double_step_does_not_hide_the_book_moves() {
        // The black pawn on e4 stands beside d4 (d2-d4 just played) but is pinned against
        // its king on h4 by the rook on a4: no en passant, and the same position as the one
        // without the file, under whose key a book holds the move.
        let stepped: Board = "8/8/8/8/R2Pp2k/8/8/4K3 b - d3 0 1".parse().unwrap();
        let plain: Board = "8/8/8/8/R2Pp2k/8/8/4K3 b - - 0 1".parse().unwrap();
        assert_ne!(
            polyglot_key(&stepped),
            polyglot_key(&plain),
            "as the format says"
        );
        let mv: Move = "h4g5".parse().unwrap();
        let book = Book::from_entries(vec![Entry {
            key: polyglot_key(&plain),
            code: encode_move(mv),
            weight: 1,
            learn: 0,
        }])
        .unwrap();
        for board in [&stepped, &plain] {
            let moves: Vec<Move> = book.probe(board).moves.iter().map(|m| m.mv).collect();
            assert_eq!(moves, [mv]);
        }
        // Where the capture is legal, the positions differ and so do their moves.
        let legal: Board = "8/8/8/8/3Pp2k/8/8/4K3 b - d3 0 1".parse().unwrap();
        let book = Book::from_entries(vec![Entry {
            key: polyglot_key(&"8/8/8/8/3Pp2k/8/8/4K3 b - - 0 1".parse().unwrap()),
            code: encode_move(mv),
            weight: 1,
            learn: 0,
        }])
        .unwrap();
        assert!(book.probe(&legal).moves.is_empty());
    }

    #[test]
    fn published_keys() {
        for (moves, key) in PUBLISHED_KEYS {
            assert_eq!(polyglot_key(&after(moves)), key, "after '{moves}'");
        }
    }

    #[test]
    fn en_passant_counts_only_with_a_capturer() {
        // After e2e4 no black pawn stands on d4 or f4: the key is the one without e.p.
        let with_ep = after("e2e4");
        let mut no_ep: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        assert_eq!(polyglot_key(&with_ep), polyglot_key(&no_ep));
        // A black pawn on d4: now the e-file counts.
        no_ep = "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1".parse().unwrap();
        let ep: Board = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1".parse().unwrap();
        assert_eq!(
            polyglot_key(&ep),
            polyglot_key(&no_ep) ^ RANDOM64[EP_OFFSET + File::E as usize]
        );
        // A pinned capturer still counts (legality does not matter): the black king on a4,
        // the white rook on h4, the d4 pawn pinned along the rank after e2e4.
        let pinned: Board = "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1".parse().unwrap();
        let unpinned: Board = "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1".parse().unwrap();
        assert_ne!(polyglot_key(&pinned), polyglot_key(&unpinned));
    }

    #[test]
    fn castling_rights_change_the_key() {
        let all = polyglot_key(&Board::default());
        let fen = |c: &str| {
            format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {c} - 0 1")
                .parse::<Board>()
                .unwrap()
        };
        for (i, without) in ["Qkq", "Kkq", "KQq", "KQk"].into_iter().enumerate() {
            assert_eq!(
                polyglot_key(&fen(without)),
                all ^ RANDOM64[CASTLE_OFFSET + i]
            );
        }
        assert_eq!(
            polyglot_key(&fen("-")),
            all ^ RANDOM64[768] ^ RANDOM64[769] ^ RANDOM64[770] ^ RANDOM64[771]
        );
    }

    #[test]
    fn move_codes() {
        let e2e4: Move = "e2e4".parse().unwrap();
        // to e4 = 28, from e2 = 12.
        assert_eq!(encode_move(e2e4), 28 | 12 << 6);
        assert_eq!(raw_move(encode_move(e2e4)), Some(e2e4));
        // Castling: king takes rook, as in cozy-chess.
        let board: Board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        for (uci, code) in [("e1h1", 7 | 4 << 6), ("e1a1", 4 << 6)] {
            let mv: Move = uci.parse().unwrap();
            assert!(board.is_legal(mv));
            assert_eq!(encode_move(mv), code);
            assert_eq!(decode_move(&board, code), Some(mv));
        }
        // The two-square form is read as castling.
        let e1g1 = encode_move("e1g1".parse().unwrap());
        assert_eq!(decode_move(&board, e1g1), Some("e1h1".parse().unwrap()));
        let e1c1 = encode_move("e1c1".parse().unwrap());
        assert_eq!(decode_move(&board, e1c1), Some("e1a1".parse().unwrap()));
        // Promotions.
        let board: Board = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        for (piece, bits) in [
            (Piece::Knight, 1u16),
            (Piece::Bishop, 2),
            (Piece::Rook, 3),
            (Piece::Queen, 4),
        ] {
            for to in [Square::A8, Square::B8] {
                let mv = Move {
                    from: Square::A7,
                    to,
                    promotion: Some(piece),
                };
                let code = encode_move(mv);
                assert_eq!(code >> 12, bits);
                assert_eq!(code & 63, to as u16);
                assert_eq!(code >> 6 & 63, Square::A7 as u16);
                assert_eq!(decode_move(&board, code), Some(mv));
            }
        }
        // Codes that name no move, or no legal one.
        assert_eq!(raw_move(5 << 12 | 28 | 12 << 6), None);
        assert_eq!(raw_move(12 | 12 << 6), None);
        assert_eq!(decode_move(&Board::default(), 36 | 12 << 6), None);
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        // King on e1, rooks on b1 and g1 (Shredder-FEN rights GBgb).
        let board =
            crate::position::parse_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1")
                .unwrap();
        for (uci, code) in [("e1g1", 6 | 4 << 6), ("e1b1", 1 | 4 << 6)] {
            let mv: Move = uci.parse().unwrap();
            assert!(board.is_legal(mv), "{uci}");
            assert_eq!(encode_move(mv), code);
            assert_eq!(decode_move(&board, code), Some(mv));
        }
        // The key counts the rights whatever the rook files.
        let none =
            crate::position::parse_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w - - 0 1")
                .unwrap();
        assert_eq!(
            polyglot_key(&board),
            polyglot_key(&none) ^ RANDOM64[768] ^ RANDOM64[769] ^ RANDOM64[770] ^ RANDOM64[771]
        );
    }

    #[test]
    fn entries_round_trip_and_books_are_checked() {
        let e = Entry {
            key: 0x0123_4567_89ab_cdef,
            code: 0xbeef,
            weight: 0x1234,
            learn: 0xdead_beef,
        };
        let bytes = e.to_bytes();
        assert_eq!(
            bytes,
            [
                0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xbe, 0xef, 0x12, 0x34, 0xde, 0xad,
                0xbe, 0xef
            ]
        );
        assert_eq!(Entry::from_bytes(&bytes), e);
        assert!(Book::from_bytes(&bytes[..15])
            .unwrap_err()
            .contains("multiple of 16"));
        let mut two = Vec::new();
        let bigger = Entry {
            key: e.key + 1,
            ..e
        };
        write_entries(&mut two, &[bigger, e]).unwrap();
        assert!(Book::from_bytes(&two).unwrap_err().contains("sorted"));
        assert!(Book::from_bytes(&[]).unwrap().is_empty());
    }

    #[test]
    fn probe_and_choice() {
        let start = Board::default();
        let key = polyglot_key(&start);
        let code = |m: &str| encode_move(m.parse().unwrap());
        let entries = vec![
            Entry {
                key: key - 1,
                code: code("a2a3"),
                weight: 9,
                learn: 0,
            },
            Entry {
                key,
                code: code("e2e4"),
                weight: 3,
                learn: 0,
            },
            Entry {
                key,
                code: code("d2d4"),
                weight: 5,
                learn: 7,
            },
            // Not legal in the start position: ignored.
            Entry {
                key,
                code: code("e2e5"),
                weight: 100,
                learn: 0,
            },
            Entry {
                key,
                code: code("g1f3"),
                weight: 0,
                learn: 0,
            },
            Entry {
                key: key + 1,
                code: code("c2c4"),
                weight: 9,
                learn: 0,
            },
        ];
        let book = Book::from_entries(entries).unwrap();
        let p = book.probe(&start);
        assert_eq!(p.key, key);
        assert_eq!(p.ignored, 1);
        let moves: Vec<String> = p.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["e2e4", "d2d4", "g1f3"]);
        assert_eq!(p.total_weight(), 8);
        assert_eq!(p.moves[1].learn, 7);
        // Best: d2d4. Weighted: 0..3 -> e2e4, 3..8 -> d2d4, never g1f3.
        assert_eq!(p.choose(true, 0).unwrap().mv.to_string(), "d2d4");
        let picks: Vec<String> = (0..16)
            .map(|r| p.choose(false, r).unwrap().mv.to_string())
            .collect();
        assert_eq!(
            picks.iter().filter(|m| *m == "e2e4").count(),
            6,
            "{picks:?}"
        );
        assert_eq!(picks.iter().filter(|m| *m == "d2d4").count(), 10);
        // Nothing for a position the book does not know.
        let p = book.probe(&after("h2h3"));
        assert!(p.moves.is_empty());
        assert_eq!(p.choose(false, 1), None);
    }

    #[test]
    fn game_ply_counts_from_the_fen() {
        assert_eq!(game_ply(&Board::default()), 0);
        assert_eq!(game_ply(&after("e2e4")), 1);
        assert_eq!(game_ply(&after("e2e4 e7e5")), 2);
        let b: Board = "4k3/8/8/8/8/8/8/4K3 b - - 0 30".parse().unwrap();
        assert_eq!(game_ply(&b), 59);
    }
}

//! The game-sequence shard: training data stored as games (a packed start position, then a
//! move and a score per position), about 4 bytes a position before compression, for `lull
//! datagen --format games`, `lull data import/export/status` and `lull train`.
//!
//! A shard is a 128-byte header followed by game blocks, all little-endian:
//!
//! ```text
//! header
//!   0..8     magic "LULLGAME"
//!   8..10    format version, u16 (1)
//!   10..12   header size, u16 (128)
//!   12..16   flags, u32: bit 0 = the counts below are final (the writer closed the shard)
//!   16..24   games, u64
//!   24..32   positions, u64
//!   32..40   seed, u64 (0 when not from datagen)
//!   40..48   nodes per move, u64 (0 when unknown)
//!   48..56   network hash, u64 (FNV-1a of the .nnue bytes; 0 for the hand-crafted evaluation)
//!   56..80   build, ASCII, NUL-padded (e.g. "lull 0.1.0")
//!   80..124  source, ASCII, NUL-padded (e.g. "datagen", "import FILE")
//!   124..128 CRC-32 (IEEE) of bytes 0..124
//! game block
//!   0..2     n, u16: positions in the game (1 ..= 8192)
//!   2..34    the first position as a 32-byte packed record ([`crate::tools::data::packed`]) with
//!            the game's result in its byte 30; its score bytes are 0
//!   34..     n entries of 4 bytes, one per position in order: move u16, score i16
//!   then     CRC-32 (IEEE) of the block's bytes before it, u32
//! ```
//!
//! Entry `i` holds position `i`'s search score (White's view, centipawns; `i16::MIN` = no
//! score: a position that is only a link between two scored ones) and the move played from
//! it, which leads to position `i + 1`. The move is `from | to << 6 | promotion << 12` (squares
//! a1 = 0 … h8 = 63; promotion 0 none, 1 knight, 2 bishop, 3 rook, 4 queen; castling as king
//! takes own rook, as in Chess960) with bit 15 set when the position is marked "not for
//! training" (an engine's own comment said it is not quiet). Only the last entry may have no
//! move (0): a game whose end is not known, as when a sequence is rebuilt from single
//! positions. A block whose checksum fails is reported and skipped; the blocks after it are
//! still read, also when the damage is in a length field: the reader then looks for the next
//! offset where a whole valid block starts and says how many bytes it skipped. A shard cut
//! anywhere (an interrupted run) reads as its complete games before the cut.
//!
//! What the trainer filters is decided when it reads, not stored: a position is a training
//! position ([`TrainingFilter`]) when it has a score that is not a mate score, its side to
//! move is not in check, the move played is neither a capture nor a promotion, and it is not
//! marked.

use std::io::{self, Read, Seek, SeekFrom, Write};

use cozy_chess::{BitBoard, Board, Color, Move, Piece, Square};

use crate::params::MATE_BOUND;
use crate::tools::data::packed::{PackedRecord, RECORD_SIZE};

/// The shard's magic bytes.
pub const MAGIC: &[u8; 8] = b"LULLGAME";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// Header bytes.
pub const HEADER_SIZE: usize = 128;
/// Positions a game block may hold at most.
pub const MAX_GAME_POSITIONS: usize = 8192;
/// The score of a position stored without one.
pub const NO_SCORE: i16 = i16::MIN;
/// Bit 15 of an entry's move: the position is not for training.
pub const MARK_BIT: u16 = 1 << 15;
/// Header flag: the counts are final.
pub const FLAG_FINAL: u32 = 1;

/// CRC-32 (IEEE 802.3, reflected, as zlib and PNG compute it).
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = !0u32;
    for &b in bytes {
        crc = TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

/// The 64-bit FNV-1a hash (the network hash of the header).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// A move as 15 bits (see the module header).
pub fn encode_move(mv: Move) -> u16 {
    let promo = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(_) => 4,
    };
    mv.from as u16 | (mv.to as u16) << 6 | promo << 12
}

/// The move of 15 bits (the mark bit ignored); `None` for 0 or an invalid promotion code.
pub fn decode_move(bits: u16) -> Option<Move> {
    let bits = bits & !MARK_BIT;
    if bits == 0 {
        return None;
    }
    let promotion = match bits >> 12 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => return None,
    };
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index((bits >> 6 & 63) as usize),
        promotion,
    })
}

/// One position of a game: the move played from it (`None` only for the last), its score
/// (White's view, [`NO_SCORE`] for none) and whether it is marked not for training.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move played from this position.
    pub mv: Option<Move>,
    /// The search score, centipawns from White's view, or [`NO_SCORE`].
    pub score: i16,
    /// Not for training (an engine said so).
    pub marked: bool,
}

/// One game: its first position, its result code (0 Black won, 1 draw, 2 White won, as in
/// the packed record) and an entry per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeqGame {
    /// The first position.
    pub start: Board,
    /// The result code.
    pub result: u8,
    /// One entry per position, in order.
    pub entries: Vec<Entry>,
}

/// One position of a game as the readers see it.
#[derive(Clone, Debug)]
pub struct GamePosition {
    /// The position.
    pub board: Board,
    /// Its entry.
    pub entry: Entry,
}

/// Which positions the trainer takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingFilter {
    /// Leave out positions whose side to move is in check.
    pub skip_in_check: bool,
    /// Leave out positions whose move played is a capture or a promotion.
    pub skip_noisy: bool,
}

impl Default for TrainingFilter {
    fn default() -> Self {
        Self {
            skip_in_check: true,
            skip_noisy: true,
        }
    }
}

impl TrainingFilter {
    /// No filter but the one that cannot be lifted: a position needs a score.
    pub const ALL: Self = Self {
        skip_in_check: false,
        skip_noisy: false,
    };

    /// Whether `board` with `entry` is a training position.
    pub fn keeps(&self, board: &Board, entry: &Entry) -> bool {
        if entry.score == NO_SCORE {
            return false;
        }
        if self.skip_in_check && !board.checkers().is_empty() {
            return false;
        }
        if self.skip_noisy {
            if entry.marked || i32::from(entry.score).abs() >= MATE_BOUND {
                return false;
            }
            if let Some(mv) = entry.mv {
                let capture = board.colors(!board.side_to_move()).has(mv.to)
                    || (board.piece_on(mv.from) == Some(Piece::Pawn)
                        && mv.from.file() != mv.to.file());
                if capture || mv.promotion.is_some() {
                    return false;
                }
            }
        }
        true
    }
}

impl SeqGame {
    /// The result as 1.0 / 0.5 / 0.0 from White's view.
    pub fn white_result(&self) -> f32 {
        f32::from(self.result.min(2)) / 2.0
    }

    /// Every position with its entry, replayed from the start. An illegal move (which a
    /// checked block never has) ends the replay with an error.
    pub fn positions(&self) -> Result<Vec<GamePosition>, String> {
        let mut board = self.start.clone();
        let mut out = Vec::with_capacity(self.entries.len());
        for (i, entry) in self.entries.iter().enumerate() {
            out.push(GamePosition {
                board: board.clone(),
                entry: *entry,
            });
            match entry.mv {
                Some(mv) if i + 1 < self.entries.len() => {
                    board
                        .try_play(mv)
                        .map_err(|_| format!("position {}: illegal move {mv}", i + 1))?;
                }
                None if i + 1 < self.entries.len() => {
                    return Err(format!("position {}: no move before the last", i + 1));
                }
                _ => {
                    if let Some(mv) = entry.mv {
                        if !board.is_legal(mv) {
                            return Err(format!("position {}: illegal move {mv}", i + 1));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// The packed records of the training positions that `filter` keeps.
    pub fn records(&self, filter: TrainingFilter) -> Result<Vec<PackedRecord>, String> {
        let result = self.white_result();
        Ok(self
            .positions()?
            .into_iter()
            .filter(|p| filter.keeps(&p.board, &p.entry))
            .map(|p| PackedRecord::encode(&p.board, result, i32::from(p.entry.score)))
            .collect())
    }

    /// The block's bytes (see the module header).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(2 + RECORD_SIZE + 4 * self.entries.len() + 4);
        self.write_block(&mut bytes);
        bytes
    }

    /// Appends the block's bytes to `bytes` (no allocation when it has room).
    pub fn write_block(&self, bytes: &mut Vec<u8>) {
        let at = bytes.len();
        bytes.extend_from_slice(&(self.entries.len() as u16).to_le_bytes());
        let mut start = PackedRecord::encode(&self.start, self.white_result(), 0);
        start.0[28] = 0;
        start.0[29] = 0;
        bytes.extend_from_slice(&start.0);
        for e in &self.entries {
            let mv = e.mv.map_or(0, encode_move) | if e.marked { MARK_BIT } else { 0 };
            bytes.extend_from_slice(&mv.to_le_bytes());
            bytes.extend_from_slice(&e.score.to_le_bytes());
        }
        let crc = crc32(&bytes[at..]);
        bytes.extend_from_slice(&crc.to_le_bytes());
    }
}

/// Size in bytes of a block of `n` positions.
pub fn block_size(n: usize) -> usize {
    2 + RECORD_SIZE + 4 * n + 4
}

/// What reading one block found.
#[derive(Debug)]
pub enum Block {
    /// A valid game, and the bytes it took.
    Game(SeqGame, usize),
    /// A block of plausible length whose content is bad (checksum, illegal move, bad start
    /// position): why, and the bytes to skip.
    Damaged(String, usize),
    /// The bytes end inside the block (a cut shard): its declared size.
    Cut(usize),
    /// The length field is impossible: the rest cannot be read.
    Lost(String),
}

/// Reads the block at the start of `bytes` (which is not empty).
pub fn read_block(bytes: &[u8]) -> Block {
    if bytes.len() < 2 {
        return Block::Cut(2);
    }
    let n = u16::from_le_bytes([bytes[0], bytes[1]]) as usize;
    if n == 0 || n > MAX_GAME_POSITIONS {
        return Block::Lost(format!("impossible game length {n}"));
    }
    let size = block_size(n);
    if bytes.len() < size {
        return Block::Cut(size);
    }
    let want = u32::from_le_bytes(bytes[size - 4..size].try_into().unwrap_or([0; 4]));
    let got = crc32(&bytes[..size - 4]);
    if want != got {
        return Block::Damaged(
            format!("checksum mismatch (stored {want:08x}, computed {got:08x})"),
            size,
        );
    }
    let mut start = PackedRecord([0; RECORD_SIZE]);
    start.0.copy_from_slice(&bytes[2..2 + RECORD_SIZE]);
    let (board, _, _) = match start.decode() {
        Ok(d) => d,
        Err(e) => return Block::Damaged(format!("bad start position: {e}"), size),
    };
    let entries = bytes[2 + RECORD_SIZE..size - 4]
        .chunks_exact(4)
        .map(|c| {
            let bits = u16::from_le_bytes([c[0], c[1]]);
            Entry {
                mv: decode_move(bits),
                score: i16::from_le_bytes([c[2], c[3]]),
                marked: bits & MARK_BIT != 0,
            }
        })
        .collect();
    let game = SeqGame {
        start: board,
        result: start.result(),
        entries,
    };
    if let Err(e) = game.positions() {
        return Block::Damaged(e, size);
    }
    Block::Game(game, size)
}

/// The header of a shard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardHeader {
    /// Format version.
    pub version: u16,
    /// Whether the counts are final (the writer closed the shard).
    pub complete: bool,
    /// Games, when complete.
    pub games: u64,
    /// Positions, when complete.
    pub positions: u64,
    /// Datagen seed (0 when not from datagen).
    pub seed: u64,
    /// Nodes per move (0 when unknown).
    pub nodes: u64,
    /// FNV-1a hash of the network's bytes (0: hand-crafted evaluation or unknown).
    pub net_hash: u64,
    /// The program that wrote it.
    pub build: String,
    /// Where the games come from.
    pub source: String,
}

/// `text` as a NUL-padded ASCII field of `len` bytes (other characters as `?`, cut to fit).
fn put_text(out: &mut [u8], text: &str) {
    for (slot, c) in out.iter_mut().zip(text.chars()) {
        *slot = if c.is_ascii() && !c.is_ascii_control() {
            c as u8
        } else {
            b'?'
        };
    }
}

fn get_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect()
}

impl ShardHeader {
    /// A header for new data from `source`, with this build's name.
    pub fn new(source: &str) -> Self {
        Self {
            version: VERSION,
            build: format!("lull {}", env!("CARGO_PKG_VERSION")),
            source: source.to_string(),
            ..Self::default()
        }
    }

    /// The 128 header bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        b[0..8].copy_from_slice(MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10..12].copy_from_slice(&(HEADER_SIZE as u16).to_le_bytes());
        let flags = if self.complete { FLAG_FINAL } else { 0 };
        b[12..16].copy_from_slice(&flags.to_le_bytes());
        b[16..24].copy_from_slice(&self.games.to_le_bytes());
        b[24..32].copy_from_slice(&self.positions.to_le_bytes());
        b[32..40].copy_from_slice(&self.seed.to_le_bytes());
        b[40..48].copy_from_slice(&self.nodes.to_le_bytes());
        b[48..56].copy_from_slice(&self.net_hash.to_le_bytes());
        put_text(&mut b[56..80], &self.build);
        put_text(&mut b[80..124], &self.source);
        let crc = crc32(&b[..124]);
        b[124..128].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Reads a header, or says why it is not one.
    pub fn from_bytes(b: &[u8]) -> Result<Self, String> {
        if b.len() < 12 || &b[0..8] != MAGIC {
            return Err("not a game shard (the magic is not LULLGAME)".to_string());
        }
        let version = u16::from_le_bytes([b[8], b[9]]);
        if version != VERSION {
            return Err(format!(
                "shard format version {version} (this build reads version {VERSION})"
            ));
        }
        if b.len() < HEADER_SIZE {
            return Err(format!("header cut at {} bytes", b.len()));
        }
        let size = u16::from_le_bytes([b[10], b[11]]) as usize;
        if size != HEADER_SIZE {
            return Err(format!("header size {size} (expected {HEADER_SIZE})"));
        }
        let want = u32::from_le_bytes(b[124..128].try_into().unwrap_or([0; 4]));
        let got = crc32(&b[..124]);
        if want != got {
            return Err(format!(
                "header checksum mismatch (stored {want:08x}, computed {got:08x})"
            ));
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        Ok(Self {
            version,
            complete: u32::from_le_bytes(b[12..16].try_into().unwrap_or([0; 4])) & FLAG_FINAL != 0,
            games: u64_at(16),
            positions: u64_at(24),
            seed: u64_at(32),
            nodes: u64_at(40),
            net_hash: u64_at(48),
            build: get_text(&b[56..80]),
            source: get_text(&b[80..124]),
        })
    }
}

/// Whether `bytes` start like a shard.
pub fn is_shard(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Everything a shard's bytes hold, with what was wrong.
#[derive(Debug, Default)]
pub struct ShardContents {
    /// The header.
    pub header: ShardHeader,
    /// The valid games, in order.
    pub games: Vec<SeqGame>,
    /// Damaged blocks: byte offset and why.
    pub damaged: Vec<(usize, String)>,
    /// Bytes at the end that do not make a whole block (an interrupted write), and the
    /// offset where they start.
    pub cut_tail: Option<(usize, usize)>,
    /// The rest could not be read from this offset (an impossible length), and why.
    pub lost: Option<(usize, String)>,
}

impl ShardContents {
    /// Positions in the valid games.
    pub fn positions(&self) -> usize {
        self.games.iter().map(|g| g.entries.len()).sum()
    }

    /// Whether anything was wrong beyond an unclosed tail: a damaged block, a lost rest, or
    /// final counts that disagree with the games read.
    pub fn problems(&self) -> Vec<String> {
        let mut p: Vec<String> = self
            .damaged
            .iter()
            .map(|(at, why)| format!("damaged game at byte {at}: {why}"))
            .collect();
        if let Some((at, why)) = &self.lost {
            p.push(format!("unreadable from byte {at}: {why}"));
        }
        if self.header.complete {
            if let Some((at, n)) = self.cut_tail {
                p.push(format!("cut: {n} bytes of an incomplete game at byte {at}"));
            }
            let (g, n) = (self.games.len() as u64, self.positions() as u64);
            if self.damaged.is_empty()
                && self.lost.is_none()
                && (g, n) != (self.header.games, self.header.positions)
            {
                p.push(format!(
                    "the header counts {} games and {} positions, the blocks hold {g} and {n}",
                    self.header.games, self.header.positions
                ));
            }
        }
        p
    }
}

/// The first offset from `from` on where a whole valid game block starts, if any. The cheap
/// checks come first (a possible length, a start position that decodes), the checksum last,
/// so that a scan through garbage costs little; a valid block found by chance in damaged
/// bytes needs a 32-bit checksum to match as well.
fn next_valid_block(bytes: &[u8], from: usize) -> Option<usize> {
    (from..bytes.len()).find(|&p| {
        let b = &bytes[p..];
        if b.len() < 2 + RECORD_SIZE {
            return false;
        }
        let n = u16::from_le_bytes([b[0], b[1]]) as usize;
        if n == 0 || n > MAX_GAME_POSITIONS || b.len() < block_size(n) {
            return false;
        }
        let mut start = PackedRecord([0; RECORD_SIZE]);
        start.0.copy_from_slice(&b[2..2 + RECORD_SIZE]);
        start.decode().is_ok() && matches!(read_block(b), Block::Game(..))
    })
}

/// Reads a whole shard from its bytes (header errors are errors; damaged blocks are listed).
/// After a damaged block reading goes on at the first offset where a valid block starts:
/// where the damaged one says it ends, or elsewhere when its length was damaged too. Nothing
/// after the damage is lost, and what was skipped is listed.
pub fn read_shard_bytes(bytes: &[u8]) -> Result<ShardContents, String> {
    let header = ShardHeader::from_bytes(bytes)?;
    let mut c = ShardContents {
        header,
        ..ShardContents::default()
    };
    let mut at = HEADER_SIZE;
    while at < bytes.len() {
        let (why, declared_end) = match read_block(&bytes[at..]) {
            Block::Game(game, size) => {
                c.games.push(game);
                at += size;
                continue;
            }
            Block::Damaged(why, size) => (why, Some(at + size)),
            Block::Cut(_) => (String::new(), None),
            Block::Lost(why) => (why, None),
        };
        // The next game is the first valid block after the damaged one's start: where the
        // damaged block says it ends, unless its length is what was damaged (then a valid
        // block starts elsewhere, before that end or after it).
        match (next_valid_block(bytes, at + 1), declared_end) {
            (Some(next), Some(end)) if next == end => {
                c.damaged.push((at, why));
                at = next;
            }
            (Some(next), _) => {
                let why = if why.is_empty() {
                    "a length past the end of the shard".to_string()
                } else {
                    why
                };
                c.damaged.push((
                    at,
                    format!("{why}; {} bytes skipped to the next valid game", next - at),
                ));
                at = next;
            }
            (None, Some(end)) => {
                c.damaged.push((at, why));
                if end < bytes.len() {
                    c.lost = Some((end, "no valid game after a damaged one".to_string()));
                }
                break;
            }
            // No valid block after it: an interrupted write, or the rest is unreadable.
            (None, None) if why.is_empty() => {
                c.cut_tail = Some((at, bytes.len() - at));
                break;
            }
            (None, None) => {
                c.lost = Some((at, why));
                break;
            }
        }
    }
    Ok(c)
}

/// Reads a shard file.
pub fn read_shard(path: &std::path::Path) -> Result<ShardContents, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    read_shard_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a shard: the header first (counts not final), then each game as one write, and
/// the header again with the final counts when closed. A run that stops between games leaves
/// a valid shard of the games written.
pub struct ShardWriter<W: Write + Seek> {
    out: W,
    header: ShardHeader,
    buf: Vec<u8>,
}

impl<W: Write + Seek> ShardWriter<W> {
    /// Starts a shard on `out` (at its start).
    pub fn new(mut out: W, mut header: ShardHeader) -> io::Result<Self> {
        header.complete = false;
        header.games = 0;
        header.positions = 0;
        out.write_all(&header.to_bytes())?;
        Ok(Self {
            out,
            header,
            buf: Vec::with_capacity(4096),
        })
    }

    /// Appends a game (games of more than [`MAX_GAME_POSITIONS`] positions are split).
    pub fn write_game(&mut self, game: &SeqGame) -> io::Result<()> {
        if game.entries.is_empty() {
            return Ok(());
        }
        self.buf.clear();
        if game.entries.len() <= MAX_GAME_POSITIONS {
            game.write_block(&mut self.buf);
            self.header.games += 1;
        } else {
            let positions = game
                .positions()
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            for chunk in positions.chunks(MAX_GAME_POSITIONS) {
                let part = SeqGame {
                    start: chunk[0].board.clone(),
                    result: game.result,
                    entries: chunk.iter().map(|p| p.entry).collect(),
                };
                part.write_block(&mut self.buf);
                self.header.games += 1;
            }
        }
        self.header.positions += game.entries.len() as u64;
        self.out.write_all(&self.buf)
    }

    /// The counts so far.
    pub fn header(&self) -> &ShardHeader {
        &self.header
    }

    /// Flushes what was written (the shard stays readable as it is).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Writes the final header and returns the output.
    pub fn finish(mut self) -> io::Result<(W, ShardHeader)> {
        self.header.complete = true;
        self.out.flush()?;
        let end = self.out.stream_position()?;
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&self.header.to_bytes())?;
        self.out.seek(SeekFrom::Start(end))?;
        self.out.flush()?;
        Ok((self.out, self.header))
    }
}

/// Rebuilds games from single positions in game order (text lines, packed records): a
/// position joins the current game when the result is the same and legal moves lead from the
/// game's last position to it in as many plies as their move counters say, at most
/// [`MAX_BRIDGE_PLIES`] (the positions between them, which were not written, are stored with
/// [`NO_SCORE`]); otherwise it starts a new game. Lossless: every position comes out
/// with its score and result, in order.
#[derive(Debug, Default)]
pub struct GameBuilder {
    current: Option<(SeqGame, Board)>,
    done: Vec<SeqGame>,
}

/// Most plies [`GameBuilder`] looks for between two positions.
pub const MAX_BRIDGE_PLIES: usize = 4;

/// The game ply of `board` (from the full-move number and the side to move).
fn game_ply(board: &Board) -> i64 {
    2 * (i64::from(board.fullmove_number()) - 1) + i64::from(board.side_to_move() == Color::Black)
}

/// The squares whose piece (or its colour) differs between `a` and `b`.
fn changed_squares(a: &Board, b: &Board) -> BitBoard {
    let mut d = a.occupied() ^ b.occupied();
    for piece in Piece::ALL {
        d |= a.pieces(piece) ^ b.pieces(piece);
    }
    d | (a.colors(Color::White) ^ b.colors(Color::White))
}

/// The `plies` legal moves that lead from `from` to exactly `to`, if there are some. Each
/// move must touch a square whose piece differs from `to` (a move that changes nothing there
/// would have to be undone), which keeps the search small.
pub fn bridge(from: &Board, to: &Board, plies: usize) -> Option<Vec<Move>> {
    let diff = changed_squares(from, to);
    if plies == 0 {
        // The same position (an en-passant square no pawn can use is not part of it: data
        // does not keep it) and the same clocks.
        let same = crate::position::same_position(from, to)
            && from.halfmove_clock() == to.halfmove_clock()
            && from.fullmove_number() == to.fullmove_number();
        return same.then(Vec::new);
    }
    // A move changes at most four squares (castling).
    if diff.len() as usize > 4 * plies {
        return None;
    }
    // Quiet moves first: data that kept only positions with a quiet move played (the text
    // lines of `lull datagen`) gets back the move that was played when several orders of the
    // same moves lead to the position.
    let mut candidates: Vec<Move> = Vec::new();
    from.generate_moves(|moves| {
        candidates.extend(
            moves
                .into_iter()
                .filter(|mv| diff.has(mv.from) || diff.has(mv.to)),
        );
        false
    });
    let them = from.colors(!from.side_to_move());
    candidates.sort_by_key(|mv| them.has(mv.to) || mv.promotion.is_some());
    for mv in candidates {
        let mut next = from.clone();
        next.play_unchecked(mv);
        if let Some(mut rest) = bridge(&next, to, plies - 1) {
            rest.insert(0, mv);
            return Some(rest);
        }
    }
    None
}

impl GameBuilder {
    /// A builder with no game.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next position.
    pub fn push(&mut self, board: Board, result: u8, score: i16) {
        if let Some((game, last)) = &mut self.current {
            let gap = game_ply(&board) - game_ply(last);
            if game.result == result
                && (1..=MAX_BRIDGE_PLIES as i64).contains(&gap)
                && game.entries.len() + (gap as usize) < MAX_GAME_POSITIONS
            {
                if let Some(moves) = bridge(last, &board, gap as usize) {
                    for (i, mv) in moves.into_iter().enumerate() {
                        if i > 0 {
                            game.entries.push(Entry {
                                mv: None,
                                score: NO_SCORE,
                                marked: false,
                            });
                        }
                        if let Some(e) = game.entries.last_mut() {
                            e.mv = Some(mv);
                        }
                    }
                    game.entries.push(Entry {
                        mv: None,
                        score,
                        marked: false,
                    });
                    *last = board;
                    return;
                }
            }
        }
        if let Some((game, _)) = self.current.take() {
            self.done.push(game);
        }
        self.current = Some((
            SeqGame {
                start: board.clone(),
                result,
                entries: vec![Entry {
                    mv: None,
                    score,
                    marked: false,
                }],
            },
            board,
        ));
    }

    /// The games finished so far (taken out).
    pub fn take_done(&mut self) -> Vec<SeqGame> {
        std::mem::take(&mut self.done)
    }

    /// Ends the last game and returns every game not yet taken.
    pub fn finish(mut self) -> Vec<SeqGame> {
        if let Some((game, _)) = self.current.take() {
            self.done.push(game);
        }
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data::datagen::Rng;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn moves_encode_in_fifteen_bits() {
        let board = Board::default();
        let mut n = 0;
        board.generate_moves(|moves| {
            for mv in moves {
                let bits = encode_move(mv);
                assert!(bits < MARK_BIT && bits != 0);
                assert_eq!(decode_move(bits), Some(mv));
                assert_eq!(decode_move(bits | MARK_BIT), Some(mv));
                n += 1;
            }
            false
        });
        assert_eq!(n, 20);
        let promo: Move = "a7b8q".parse().unwrap();
        assert_eq!(decode_move(encode_move(promo)), Some(promo));
        assert_eq!(decode_move(0), None);
        assert_eq!(decode_move(5 << 12 | 8), None);
    }

    #[test]
    fn a_game_block_round_trips_and_its_checksum_guards_it() {
        let mut rng = Rng::new(9);
        let game = crate::tools::data::gameformat::tests_support::random_game(
            &Board::default(),
            40,
            &mut rng,
        );
        let bytes = game.to_bytes();
        assert_eq!(bytes.len(), block_size(game.entries.len()));
        match read_block(&bytes) {
            Block::Game(back, size) => {
                assert_eq!(back, game);
                assert_eq!(size, bytes.len());
            }
            other => panic!("{other:?}"),
        }
        let mut bad = bytes.clone();
        bad[40] ^= 1;
        assert!(matches!(read_block(&bad), Block::Damaged(_, s) if s == bytes.len()));
        assert!(matches!(
            read_block(&bytes[..bytes.len() - 1]),
            Block::Cut(_)
        ));
    }

    /// A shard of `n` random games, closed, and the byte offset of each game.
    fn shard_of(n: usize, seed: u64) -> (Vec<u8>, Vec<SeqGame>, Vec<usize>) {
        let mut rng = Rng::new(seed);
        let games: Vec<SeqGame> = (0..n)
            .map(|_| tests_support::random_game(&Board::default(), 30, &mut rng))
            .collect();
        let mut w = ShardWriter::new(io::Cursor::new(Vec::new()), ShardHeader::default()).unwrap();
        let mut offsets = Vec::new();
        let mut at = HEADER_SIZE;
        for g in &games {
            offsets.push(at);
            at += block_size(g.entries.len());
            w.write_game(g).unwrap();
        }
        let (out, _) = w.finish().unwrap();
        (out.into_inner(), games, offsets)
    }

    /// A damaged length field (a byte flipped in place: the size still looks right) made the
    /// reader skip the wrong number of bytes, and every game after it was lost: counted as
    /// damaged blocks, as an impossible length, or silently as the cut tail of an interrupted
    /// write. Now only the damaged game is lost, and the bytes skipped are said.
    #[test]
    fn a_damaged_length_loses_only_its_own_game() {
        let (bytes, games, offsets) = shard_of(6, 3);
        for (flip, byte) in [(0x01u8, 0), (0x80, 1), (0x10, 1), (0xff, 0)] {
            let mut bad = bytes.clone();
            bad[offsets[2] + byte] ^= flip;
            let c = read_shard_bytes(&bad).unwrap();
            let mut want = games.clone();
            want.remove(2);
            let what = format!("flip {flip:#x} of byte {byte}: {:?}", c.problems());
            assert_eq!(c.games.len(), want.len(), "{what}");
            assert!(c.games == want, "{what}");
            assert_eq!(c.damaged.len(), 1, "{:?}", c.damaged);
            assert_eq!(c.damaged[0].0, offsets[2]);
            assert!(c.lost.is_none() && c.cut_tail.is_none(), "{c:?}");
            assert!(!c.problems().is_empty());
        }
        // A byte flipped inside a game (not its length): that game only, as before.
        let mut bad = bytes.clone();
        bad[offsets[4] + 40] ^= 4;
        let c = read_shard_bytes(&bad).unwrap();
        assert_eq!(c.games.len(), 5);
        assert_eq!(c.damaged[0].0, offsets[4]);
        // A shard cut inside its last game is an interrupted write, not damage.
        let c = read_shard_bytes(&bytes[..bytes.len() - 3]).unwrap();
        assert_eq!(c.games.len(), 5);
        assert!(c.damaged.is_empty() && c.cut_tail.is_some(), "{c:?}");
        // Garbage in place of the last games: the games before it, the rest lost.
        let mut bad = bytes.clone();
        for b in &mut bad[offsets[4]..] {
            *b = 0x5a;
        }
        let c = read_shard_bytes(&bad).unwrap();
        assert_eq!(c.games.len(), 4);
        assert!(c.lost.is_some() || !c.damaged.is_empty(), "{c:?}");
    }
}

/// Random games for the tests (here and in the other modules' tests).
#[cfg(test)]
pub mod tests_support {
    use super::*;
    use crate::tools::data::datagen::Rng;

    /// A game of up to `plies` random legal moves from `start` (fewer if it ends), with a
    /// random score per position (some with none, some marked) and a random result; moves that
    /// promote, castle or take en passant are preferred when there are some, so that short
    /// games hold them.
    pub fn random_game(start: &Board, plies: usize, rng: &mut Rng) -> SeqGame {
        let mut board = start.clone();
        let mut entries = Vec::new();
        for _ in 0..=plies {
            let mut moves = Vec::new();
            board.generate_moves(|m| {
                moves.extend(m);
                false
            });
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    m.promotion.is_some()
                        || board.colors(board.side_to_move()).has(m.to)
                        || (board.piece_on(m.from) == Some(Piece::Pawn)
                            && m.from.file() != m.to.file()
                            && !board.occupied().has(m.to))
                })
                .collect();
            let mv = if moves.is_empty() {
                None
            } else if !special.is_empty() && rng.below(2) == 0 {
                Some(special[rng.below(special.len())])
            } else {
                Some(moves[rng.below(moves.len())])
            };
            let score = match rng.below(10) {
                0 => NO_SCORE,
                _ => (rng.below(4001) as i32 - 2000) as i16,
            };
            entries.push(Entry {
                mv,
                score,
                marked: rng.below(20) == 0,
            });
            match mv {
                Some(mv) => board.play_unchecked(mv),
                None => break,
            }
        }
        // The last position's move is kept (it was played), unless the game ended.
        SeqGame {
            start: start.clone(),
            result: rng.below(3) as u8,
            entries,
        }
    }
}

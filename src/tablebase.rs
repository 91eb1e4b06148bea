//! Syzygy endgame tablebases: loading the tables of `SyzygyPath`, WDL probes for the search
//! and Stockfish's DTZ ranking of the root moves.
//!
//! The decoding is done by the `shakmaty-syzygy` crate (GPL-3.0-or-later, like `shakmaty`),
//! compiled in with the `syzygy` cargo feature (on by default). A cozy-chess [`Board`] is
//! converted to a `shakmaty::Chess` position piece by piece; a position with castling rights
//! is never probed (the tables hold none). Without the feature the same API exists, loading
//! any directory is an error saying that tablebases are not compiled in, and every probe
//! answers `None`.

use cozy_chess::{Board, Move};

use crate::params::TB_WIN;

/// Whether this build can probe tablebases (the `syzygy` feature).
pub const COMPILED_IN: bool = cfg!(feature = "syzygy");

/// What a build without the `syzygy` feature says to the Syzygy options.
pub const NOT_COMPILED_IN: &str = "Syzygy tablebases are not compiled in: this is a build \
     without the 'syzygy' feature (cargo build --features syzygy adds them)";

/// The five-valued WDL of the tables (win, draw, loss, each possibly spoiled by the
/// fifty-move rule), from the side to move, assuming the position was reached by a capture
/// or pawn move (its halfmove clock is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost, whatever the fifty-move rule.
    Loss = -2,
    /// Lost, but drawn under the fifty-move rule.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but drawn under the fifty-move rule.
    CursedWin = 1,
    /// Won, whatever the fifty-move rule.
    Win = 2,
}

impl Wdl {
    /// -2 (loss) to 2 (win), as python-chess and the Syzygy tools write it.
    pub fn to_i32(self) -> i32 {
        self as i32
    }
}

/// One root move ranked by the DTZ tables (see [`Tablebases::rank_root`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Stockfish's rank: higher is better; every win that is safe from the fifty-move rule
    /// ranks the same, and so does every draw.
    pub rank: i32,
    /// The score to show for the move (a tablebase win or loss, a draw, or a small score for
    /// a win or loss that the fifty-move rule spoils).
    pub score: i32,
}

/// The largest rank (Stockfish's `MAX_DTZ`).
const MAX_DTZ: i32 = 1 << 18;

/// The ranks from this one on are wins (with the fifty-move rule: only the safe ones).
fn win_bound(rule50: bool) -> i32 {
    if rule50 {
        MAX_DTZ - 100
    } else {
        1
    }
}

/// The rank of a root move of DTZ `dtz` (plies from the root, the move included), with the
/// root's halfmove clock `cnt50` and whether the root position has occurred before.
fn rank_of(dtz: i32, cnt50: i32, repeated: bool) -> i32 {
    if dtz > 0 {
        if dtz + cnt50 <= 99 && !repeated {
            MAX_DTZ
        } else {
            MAX_DTZ - (dtz + cnt50)
        }
    } else if dtz < 0 {
        if -dtz * 2 + cnt50 < 100 {
            -MAX_DTZ
        } else {
            -MAX_DTZ + (-dtz + cnt50)
        }
    } else {
        0
    }
}

/// The score shown for a root move of rank `r`: a tablebase win or loss beyond the bound; in
/// between, 1 to 49 centipawns (a win the fifty-move rule spoils grows to 49 as it gets
/// nearer a real one), as Stockfish does.
fn score_of_rank(r: i32, rule50: bool) -> i32 {
    let bound = win_bound(rule50);
    if r >= bound {
        TB_WIN
    } else if r > 0 {
        (r - (MAX_DTZ - 200)).max(3) * 100 / 200
    } else if r == 0 {
        0
    } else if r > -bound {
        (r + (MAX_DTZ - 200)).min(-3) * 100 / 200
    } else {
        -TB_WIN
    }
}

#[cfg(feature = "syzygy")]
mod probe {
    use std::path::Path;

    use cozy_chess::{Board, Color, Piece};
    use shakmaty::{CastlingMode, Chess, FromSetup, Setup};
    use shakmaty_syzygy::Tablebase;

    /// The loaded tables.
    pub struct Tables {
        pub tb: Tablebase<Chess>,
    }

    impl Tables {
        pub fn new() -> Self {
            Self {
                tb: Tablebase::new(),
            }
        }

        /// Adds the `.rtbw` and `.rtbz` files of `dir`; returns the table names found
        /// (stems of the files added).
        pub fn add_directory(&mut self, dir: &str) -> Result<Vec<(String, bool)>, String> {
            let entries = std::fs::read_dir(dir)
                .map_err(|e| format!("cannot read the directory '{dir}': {e}"))?;
            let mut added = Vec::new();
            for entry in entries {
                let entry = entry.map_err(|e| format!("cannot read the directory '{dir}': {e}"))?;
                let path = entry.path();
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                let wdl = match ext {
                    "rtbw" => true,
                    "rtbz" => false,
                    _ => continue,
                };
                let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                    continue;
                };
                let stem = stem.to_string();
                self.tb
                    .add_file(&path)
                    .map_err(|e| format!("{}: {e}", Path::new(&path).display()))?;
                added.push((stem, wdl));
            }
            Ok(added)
        }

        pub fn max_pieces(&self) -> usize {
            self.tb.max_pieces()
        }
    }

    /// The shakmaty position of `board` (no castling rights: the caller checks), or `None`
    /// when shakmaty refuses it.
    pub fn to_shakmaty(board: &Board) -> Option<Chess> {
        let mut b = shakmaty::Board::empty();
        for color in [Color::White, Color::Black] {
            let c = match color {
                Color::White => shakmaty::Color::White,
                Color::Black => shakmaty::Color::Black,
            };
            for piece in Piece::ALL {
                let role = match piece {
                    Piece::Pawn => shakmaty::Role::Pawn,
                    Piece::Knight => shakmaty::Role::Knight,
                    Piece::Bishop => shakmaty::Role::Bishop,
                    Piece::Rook => shakmaty::Role::Rook,
                    Piece::Queen => shakmaty::Role::Queen,
                    Piece::King => shakmaty::Role::King,
                };
                for sq in board.colored_pieces(color, piece) {
                    b.set_piece_at(
                        shakmaty::Square::new(sq as u32),
                        shakmaty::Piece { color: c, role },
                    );
                }
            }
        }
        let white = board.side_to_move() == Color::White;
        let ep_square = board.en_passant().map(|file| {
            let rank = if white { 5 } else { 2 };
            shakmaty::Square::new(rank * 8 + file as u32)
        });
        let mut setup = Setup::empty();
        setup.board = b;
        setup.turn = if white {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        setup.ep_square = ep_square;
        setup.halfmoves = u32::from(board.halfmove_clock());
        // An en-passant square without a capture is no matter; a check that no move could
        // have given (two knights, from a FEN) still has a value in the tables.
        Chess::from_setup(setup, CastlingMode::Standard)
            .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .ok()
    }
}

/// The tables of one `SyzygyPath` (none by default).
pub struct Tablebases {
    /// `None` without tables (the prober's maps are not small: no tables cost nothing).
    #[cfg(feature = "syzygy")]
    tables: Option<probe::Tables>,
    /// Distinct tables (materials) found.
    count: usize,
    wdl_files: usize,
    dtz_files: usize,
    max_pieces: usize,
}

impl Default for Tablebases {
    fn default() -> Self {
        Self::none()
    }
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("count", &self.count)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

impl Tablebases {
    /// No tables: every probe answers `None`.
    pub fn none() -> Self {
        Self {
            #[cfg(feature = "syzygy")]
            tables: None,
            count: 0,
            wdl_files: 0,
            dtz_files: 0,
            max_pieces: 0,
        }
    }

    /// Loads the tables of a `SyzygyPath` value: directories separated by `:` (`;` on
    /// Windows); empty or `<empty>` is no tables. A directory that cannot be read, or a table
    /// file the prober refuses, is an error (and nothing is loaded). The files are opened
    /// lazily, at their first probe.
    pub fn load(path: &str) -> Result<Self, String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            return Ok(Self::none());
        }
        Self::load_dirs(path)
    }

    #[cfg(feature = "syzygy")]
    fn load_dirs(path: &str) -> Result<Self, String> {
        let sep = if cfg!(windows) { ';' } else { ':' };
        let mut tables = probe::Tables::new();
        // Each directory once, however it is written (`D:D`, `D:D/`, a link to D); each file
        // counted once, by its table and kind, wherever it lies.
        let mut dirs = std::collections::BTreeSet::new();
        let mut files = std::collections::BTreeSet::new();
        for dir in path.split(sep).map(str::trim).filter(|d| !d.is_empty()) {
            let canonical = std::fs::canonicalize(dir)
                .map_err(|e| format!("cannot read the directory '{dir}': {e}"))?;
            if !dirs.insert(canonical) {
                continue;
            }
            files.extend(tables.add_directory(dir)?);
        }
        let names: std::collections::BTreeSet<&String> = files.iter().map(|(n, _)| n).collect();
        let wdl_files = files.iter().filter(|(_, wdl)| *wdl).count();
        Ok(Self {
            max_pieces: tables.max_pieces(),
            count: names.len(),
            wdl_files,
            dtz_files: files.len() - wdl_files,
            tables: Some(tables),
        })
    }

    #[cfg(not(feature = "syzygy"))]
    fn load_dirs(_path: &str) -> Result<Self, String> {
        Err(NOT_COMPILED_IN.to_string())
    }

    /// Distinct tables found (each a material, with its WDL file, its DTZ file or both).
    pub fn count(&self) -> usize {
        self.count
    }

    /// Pieces (kings included) of the largest table; 0 without tables.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The line a front end shows after loading: how many tables were found.
    pub fn summary(&self) -> String {
        format!(
            "found {} tablebases ({} WDL and {} DTZ files, up to {} pieces)",
            self.count, self.wdl_files, self.dtz_files, self.max_pieces
        )
    }

    /// Whether `board` may be probed: few enough pieces, no castling rights.
    pub fn covers(&self, board: &Board) -> bool {
        self.max_pieces > 0
            && board.occupied().len() as usize <= self.max_pieces
            && !has_castling_rights(board)
    }

    /// The WDL of `board` from the side to move, as if its halfmove clock were 0 (in the
    /// search: right after a capture or pawn move). `None` when it is not covered or a
    /// table is missing or unreadable.
    #[cfg(feature = "syzygy")]
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        let tables = self.tables.as_ref()?;
        let pos = probe::to_shakmaty(board)?;
        let wdl = tables.tb.probe_wdl_after_zeroing(&pos).ok()?;
        Some(match wdl {
            shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => Wdl::Win,
        })
    }

    /// Without the `syzygy` feature there is nothing to probe.
    #[cfg(not(feature = "syzygy"))]
    pub fn probe_wdl(&self, _board: &Board) -> Option<Wdl> {
        None
    }

    /// The DTZ of `board` (plies to the next capture or pawn move on the best line, negative
    /// when losing, 0 for a draw; above 100 for a win that the fifty-move rule spoils), as
    /// the Syzygy tables give it (possibly rounded by one ply, see `shakmaty-syzygy`).
    #[cfg(feature = "syzygy")]
    pub fn probe_dtz(&self, board: &Board) -> Option<i32> {
        if !self.covers(board) {
            return None;
        }
        let tables = self.tables.as_ref()?;
        let pos = probe::to_shakmaty(board)?;
        let dtz = tables.tb.probe_dtz(&pos).ok()?;
        Some(dtz.ignore_rounding().0)
    }

    /// Without the `syzygy` feature there is nothing to probe.
    #[cfg(not(feature = "syzygy"))]
    pub fn probe_dtz(&self, _board: &Board) -> Option<i32> {
        None
    }

    /// Stockfish's root probing: ranks `moves` (legal in `board`) by the DTZ tables, best
    /// first. A move that zeroes the halfmove clock is ranked by the WDL after it; any other
    /// by the DTZ after it plus one ply. `repeated`: the root position occurred before (then
    /// even a safe win ranks by its DTZ, to make progress). With `rule50`, cursed wins and
    /// blessed losses count as draws-ish (small scores), else as wins and losses. `None` when
    /// the root is not covered or a probe fails.
    pub fn rank_root(
        &self,
        board: &Board,
        moves: &[Move],
        repeated: bool,
        rule50: bool,
    ) -> Option<Vec<RankedMove>> {
        if !self.covers(board) || moves.is_empty() {
            return None;
        }
        let cnt50 = i32::from(board.halfmove_clock());
        let mut ranked = Vec::with_capacity(moves.len());
        for &mv in moves {
            let mut after = board.clone();
            after.play_unchecked(mv);
            let mut dtz = if after.halfmove_clock() == 0 {
                // A zeroing move: its DTZ is one of -101, -1, 0, 1, 101.
                match self.probe_wdl(&after)? {
                    Wdl::Loss => 1,
                    Wdl::BlessedLoss => 101,
                    Wdl::Draw => 0,
                    Wdl::CursedWin => -101,
                    Wdl::Win => -1,
                }
            } else if after.halfmove_clock() >= 100 {
                // The fifty-move rule ends the game after this move.
                0
            } else {
                let d = -self.probe_dtz(&after)?;
                d + d.signum()
            };
            // A mating move is a win in one ply.
            if dtz == 2 && after.status() == cozy_chess::GameStatus::Won {
                dtz = 1;
            }
            let rank = rank_of(dtz, cnt50, repeated);
            ranked.push(RankedMove {
                mv,
                rank,
                score: score_of_rank(rank, rule50),
            });
        }
        ranked.sort_by_key(|r| std::cmp::Reverse(r.rank));
        Some(ranked)
    }
}

/// Whether either side still has a castling right (the tables hold none).
pub fn has_castling_rights(board: &Board) -> bool {
    [cozy_chess::Color::White, cozy_chess::Color::Black]
        .into_iter()
        .any(|c| {
            let r = board.castle_rights(c);
            r.short.is_some() || r.long.is_some()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_stockfish() {
        // A safe win ranks at the top whatever its DTZ; one the fifty-move rule threatens
        // ranks by DTZ plus the clock.
        assert_eq!(rank_of(5, 0, false), MAX_DTZ);
        assert_eq!(rank_of(5, 0, true), MAX_DTZ - 5);
        assert_eq!(rank_of(60, 50, false), MAX_DTZ - 110);
        assert_eq!(rank_of(0, 30, false), 0);
        assert_eq!(rank_of(-3, 0, false), -MAX_DTZ);
        assert_eq!(rank_of(-60, 0, false), -MAX_DTZ + 60);
        assert_eq!(score_of_rank(MAX_DTZ, true), TB_WIN);
        assert_eq!(score_of_rank(-MAX_DTZ, true), -TB_WIN);
        assert_eq!(score_of_rank(0, true), 0);
        // A cursed win: a small positive score with the rule, a win without it.
        let cursed = rank_of(120, 0, false);
        assert!((1..50).contains(&score_of_rank(cursed, true)));
        assert_eq!(score_of_rank(cursed, false), TB_WIN);
    }

    /// `SyzygyPath D:D` counted the same tables twice (24 WDL files of 12 tables).
    #[cfg(feature = "syzygy")]
    #[test]
    fn a_directory_named_twice_counts_its_tables_once() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/syzygy");
        let once = Tablebases::load(dir).unwrap().summary();
        assert!(
            once.starts_with("found 12 tablebases (12 WDL and 12 DTZ"),
            "{once}"
        );
        for path in [
            format!("{dir}:{dir}"),
            format!("{dir}:{dir}/:{dir}/../syzygy"),
        ] {
            assert_eq!(Tablebases::load(&path).unwrap().summary(), once, "{path}");
        }
    }

    #[test]
    fn empty_paths_load_nothing() {
        for p in ["", "  ", "<empty>"] {
            let tb = Tablebases::load(p).unwrap();
            assert_eq!((tb.count(), tb.max_pieces()), (0, 0));
        }
        let b = Board::default();
        assert!(!Tablebases::none().covers(&b));
        assert!(has_castling_rights(&b));
        assert_eq!(Tablebases::none().probe_wdl(&b), None);
    }
}

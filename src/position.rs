//! A game position: a cozy-chess [`Board`] plus the history the board does not keep
//! (for repetitions), the conversion between cozy-chess moves and UCI notation, and an ASCII
//! diagram of the board ([`board_ascii`]).
//!
//! cozy-chess encodes castling as "king takes own rook" (e1h1). Standard UCI writes the
//! king's two-square move (e1g1); Chess960 UCI writes king-takes-rook. [`Position::move_to_uci`]
//! and [`Position::parse_uci_move`] convert at that boundary; everything inside Lull uses
//! cozy-chess moves.

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};

/// The standard start position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A position with its history. Copy-make: `play` pushes a new board, `undo` pops it.
#[derive(Clone, Debug)]
pub struct Position {
    boards: Vec<Board>,
    hashes: Vec<u64>,
    /// For each entry: how many plies back a repetition may be found (reset by captures,
    /// pawn moves and null moves; the board's fifty-move counter alone cannot see nulls).
    reversible: Vec<u16>,
    /// The halfmove clock of the first position as its FEN gave it: cozy-chess keeps at most
    /// 100, where a FEN (and the game) may go on counting.
    first_clock: u32,
    chess960: bool,
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Self {
        Self::from_board(Board::default())
    }

    /// A position from a board, with no history.
    pub fn from_board(board: Board) -> Self {
        let hash = position_key(&board);
        // No capacity reserved: a search works on clones (which keep only the length), and a
        // book of 240,000 start positions would otherwise hold a gigabyte of empty history.
        Self {
            boards: vec![board],
            hashes: vec![hash],
            reversible: vec![0],
            first_clock: 0,
            chess960: false,
        }
    }

    /// Parses a FEN (or the four-field EPD form). Castling rights may be given as
    /// X-FEN (`KQkq`) or Shredder-FEN (`HAha`). Never panics; the error says what is wrong.
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        let mut pos = Self::from_board(parse_fen(fen)?);
        // The clock as written, where it is more than the board can hold.
        pos.first_clock = fen
            .split_whitespace()
            .nth(4)
            .and_then(|field| field.parse::<u32>().ok())
            .unwrap_or(0)
            .max(u32::from(pos.board().halfmove_clock()));
        Ok(pos)
    }

    /// The halfmove clock (plies since the last capture or pawn move), counted on past the
    /// 100 at which cozy-chess's boards stop: a FEN written after the fifty-move rule is due
    /// says how far past it the game went, as other programs write it.
    pub fn halfmove_clock(&self) -> u32 {
        // Back from the current board to the last one below 100 (the true clock there), or to
        // the first board (its FEN's clock), counting the plies after it.
        let n = self.boards.len();
        for after in 0..n {
            let clock = u32::from(self.boards[n - 1 - after].halfmove_clock());
            if clock < 100 {
                return clock + after as u32;
            }
        }
        self.first_clock.max(100) + (n - 1) as u32
    }

    /// Turns Chess960 move notation on or off (UCI_Chess960).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Whether moves are written in Chess960 (king-takes-rook) notation.
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &Board {
        // The stack is never empty: `undo` keeps the first board.
        &self.boards[self.boards.len() - 1]
    }

    /// The board `back` moves (or null moves) before the current one (0: the current
    /// board); `None` before the first. The NNUE accumulators of the search are updated
    /// from a parent's board to its child's.
    #[inline]
    pub fn board_back(&self, back: usize) -> Option<&Board> {
        let n = self.boards.len();
        (back < n).then(|| &self.boards[n - 1 - back])
    }

    /// The key of the current position as the rules see it ([`position_key`]): the key of
    /// repetitions and of the transposition table.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hashes[self.hashes.len() - 1]
    }

    /// Number of moves played since the position was set up (the undo depth).
    pub fn game_ply(&self) -> usize {
        self.boards.len() - 1
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.board().side_to_move()
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        !self.board().checkers().is_empty()
    }

    /// Reserves room for `plies` more moves, so that playing them does not grow the history
    /// (a search reserves its depth before its threads start, where memory is still checked).
    pub fn reserve_plies(&mut self, plies: usize) {
        self.boards.reserve(plies);
        self.hashes.reserve(plies);
        self.reversible.reserve(plies);
    }

    /// Plays a legal move (the caller guarantees legality, e.g. from move generation).
    #[inline]
    pub fn play(&mut self, mv: Move) {
        let mut board = self.board().clone();
        board.play_unchecked(mv);
        let rev = if board.halfmove_clock() == 0 {
            0
        } else {
            self.reversible[self.reversible.len() - 1].saturating_add(1)
        };
        self.hashes.push(position_key(&board));
        self.boards.push(board);
        self.reversible.push(rev);
    }

    /// Passes the move (null move). Returns false, and does nothing, when in check.
    pub fn play_null(&mut self) -> bool {
        match self.board().null_move() {
            Some(board) => {
                self.hashes.push(position_key(&board));
                self.boards.push(board);
                self.reversible.push(0);
                true
            }
            None => false,
        }
    }

    /// Takes back the last move or null move. Does nothing at the first position.
    #[inline]
    pub fn undo(&mut self) {
        if self.boards.len() > 1 {
            self.boards.pop();
            self.hashes.pop();
            self.reversible.pop();
        }
    }

    /// Whether the current position repeats an earlier one. `ply` is the distance from the
    /// search root: a repetition of a position at or after the root is a draw at once
    /// (the side that repeats could have repeated again); one from the game before the root
    /// counts only if it is the second (threefold).
    pub fn is_repetition(&self, ply: usize) -> bool {
        let n = self.hashes.len() - 1;
        let current = self.hashes[n];
        let lookback = self.reversible[n] as usize;
        let mut seen_before_root = 0;
        let mut i = 4;
        while i <= lookback && i <= n {
            if self.hashes[n - i] == current {
                if i <= ply {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// How many times the current position occurred earlier in the game (0: never), counting
    /// positions as the rules do ([`position_key`]) and only back to the last capture, pawn
    /// move or null move, before which no position can recur. Three-fold repetition is
    /// `repetitions() >= 2`.
    pub fn repetitions(&self) -> usize {
        let n = self.hashes.len() - 1;
        let current = self.hashes[n];
        let lookback = (self.reversible[n] as usize).min(n);
        (4..=lookback)
            .step_by(2)
            .filter(|&i| self.hashes[n - i] == current)
            .count()
    }

    /// The fifty-move counter has reached a hundred plies. Whether that is a draw depends on
    /// mate: a mate on the hundredth ply still wins (see [`Position::is_draw`]).
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.board().halfmove_clock() >= 100
    }

    /// Neither side can mate by any series of legal moves, whatever the material's placement
    /// (FIDE 5.2.2, a dead position): bare kings; a single knight; or bishops only, all on
    /// squares of one colour (any number, either side: no bishop can ever reach the other
    /// colour, so no king can be boxed in). Dead positions that depend on where the pieces
    /// stand (locked pawns) are not detected.
    pub fn is_insufficient_material(&self) -> bool {
        let b = self.board();
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = b.pieces(Piece::Knight);
        let bishops = b.pieces(Piece::Bishop);
        if knights.is_empty() {
            (bishops & BitBoard::DARK_SQUARES).is_empty()
                || (bishops & BitBoard::LIGHT_SQUARES).is_empty()
        } else {
            knights.len() == 1 && bishops.is_empty()
        }
    }

    /// Draw by rule: repetition (see [`Position::is_repetition`] for `ply`), insufficient
    /// material, or the fifty-move rule unless the hundredth ply gave mate.
    #[inline(always)]
    pub fn is_draw(&self, ply: usize) -> bool {
        self.is_repetition(ply)
            || self.is_insufficient_material()
            || (self.is_fifty_move_draw() && !self.is_checkmate())
    }

    /// The side to move is checkmated.
    #[cold]
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.board().generate_moves(|_| true)
    }

    /// All legal moves, in cozy-chess encoding.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.board().generate_moves(|pm| {
            moves.extend(pm);
            false
        });
        moves
    }

    /// Whether the side to move has no non-pawn material besides the king (zugzwang risk).
    pub fn only_pawns(&self, color: Color) -> bool {
        let b = self.board();
        let pieces = b.colors(color) & !(b.pieces(Piece::Pawn) | b.pieces(Piece::King));
        pieces.is_empty()
    }

    /// Whether a legal move is a capture (en passant included; castling is not).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        let b = self.board();
        b.colors(!b.side_to_move()).has(mv.to) || self.is_en_passant(mv)
    }

    /// The square a pawn of the side to move may capture en passant onto, if any.
    #[inline]
    pub fn en_passant_square(&self) -> Option<Square> {
        let b = self.board();
        b.en_passant()
            .map(|f| Square::new(f, Rank::Sixth.relative_to(b.side_to_move())))
    }

    /// Whether a legal move captures en passant.
    #[inline]
    pub fn is_en_passant(&self, mv: Move) -> bool {
        self.en_passant_square() == Some(mv.to)
            && self.board().piece_on(mv.from) == Some(Piece::Pawn)
    }

    /// Whether a legal move is castling (king onto its own rook).
    #[inline]
    pub fn is_castling(&self, mv: Move) -> bool {
        let b = self.board();
        b.colors(b.side_to_move()).has(mv.to)
    }

    /// The piece a legal move captures, if any.
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        let b = self.board();
        if b.colors(!b.side_to_move()).has(mv.to) {
            b.piece_on(mv.to)
        } else if self.is_en_passant(mv) {
            Some(Piece::Pawn)
        } else {
            None
        }
    }

    /// Squares from which each piece type of the side to move would check the enemy king
    /// (indexed by `Piece as usize`; the king's entry is empty). Computed once per node,
    /// it makes [`Position::may_give_check`] a single bitboard test.
    pub fn check_squares(&self) -> [BitBoard; 6] {
        use cozy_chess::{get_bishop_moves, get_knight_moves, get_pawn_attacks, get_rook_moves};
        let b = self.board();
        let them = !b.side_to_move();
        let ksq = b.king(them);
        let occ = b.occupied();
        let diag = get_bishop_moves(ksq, occ);
        let ortho = get_rook_moves(ksq, occ);
        [
            get_pawn_attacks(ksq, them),
            get_knight_moves(ksq),
            diag,
            ortho,
            diag | ortho,
            BitBoard::EMPTY,
        ]
    }

    /// Whether a quiet move may give check: a direct check by the moved piece, or any move
    /// of a piece on a line through the enemy king (a possible discovered check), or
    /// castling and promotions. Never false for a move that checks.
    #[inline]
    pub fn may_give_check(&self, mv: Move, check_squares: &[BitBoard; 6]) -> bool {
        let b = self.board();
        let Some(piece) = b.piece_on(mv.from) else {
            return false;
        };
        if mv.promotion.is_some() || self.is_castling(mv) {
            return true;
        }
        if check_squares[piece as usize].has(mv.to) {
            return true;
        }
        let ksq = b.king(!b.side_to_move());
        (cozy_chess::get_bishop_rays(ksq) | cozy_chess::get_rook_rays(ksq)).has(mv.from)
    }

    /// Whether a legal move gives check. Exact: plays the move on a copy of the board.
    pub fn gives_check(&self, mv: Move) -> bool {
        let mut b = self.board().clone();
        b.play_unchecked(mv);
        !b.checkers().is_empty()
    }

    /// Writes a move in UCI notation (standard or Chess960 castling).
    pub fn move_to_uci(&self, mv: Move) -> String {
        move_to_uci(self.board(), mv, self.chess960)
    }

    /// Parses a UCI move and checks that it is legal here. Accepts e1g1-style castling in
    /// standard mode and king-takes-rook in both modes.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, String> {
        parse_uci_move(self.board(), text, self.chess960)
    }

    /// The FEN of the current position (Shredder-FEN castling in Chess960 mode).
    pub fn fen(&self) -> String {
        let fen = if self.chess960 {
            with_playable_en_passant(self.board(), format!("{:#}", self.board()))
        } else {
            board_fen(self.board())
        };
        if self.board().halfmove_clock() < 100 {
            return fen;
        }
        let clock = self.halfmove_clock().to_string();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        if let Some(field) = fields.get_mut(4) {
            *field = &clock;
        }
        fields.join(" ")
    }
}

/// The Zobrist key of a position as the rules see it: two boards that FIDE counts as the same
/// position (article 9.2.2: the same pieces on the same squares, the same side to move, and the
/// same possible moves, castling and en passant included) get the same key. cozy-chess sets the
/// en-passant file after every double push and keys it, whether or not a pawn can take; such a
/// file is left out here unless an en-passant capture is legal, so that 1.e4 Nf6 2.Nf3 Ng8
/// 3.Ng1 repeats the position after 1.e4. Repetitions and the transposition table use this key.
#[inline]
pub fn position_key(board: &Board) -> u64 {
    if en_passant_is_playable(board) {
        board.hash()
    } else {
        board.hash_without_ep()
    }
}

/// Whether two boards are the same position as the rules see it ([`position_key`]): the same
/// pieces on the same squares, side to move, castling rights and en-passant capture, whatever
/// the clocks and whether an en-passant square no pawn can use is marked.
pub fn same_position(a: &Board, b: &Board) -> bool {
    position_key(a) == position_key(b)
        && a.occupied() == b.occupied()
        && a.colors(Color::White) == b.colors(Color::White)
        && Piece::ALL.iter().all(|&p| a.pieces(p) == b.pieces(p))
}

/// Whether the side to move has a legal en-passant capture (false when the board has no
/// en-passant square: most positions, answered without move generation).
#[inline]
pub fn en_passant_is_playable(board: &Board) -> bool {
    let Some(file) = board.en_passant() else {
        return false;
    };
    let us = board.side_to_move();
    let target = Square::new(file, Rank::Sixth.relative_to(us));
    // The pawns that could take: ours, on the squares from which a pawn of ours attacks the
    // target (the squares an enemy pawn on the target would attack).
    let takers = cozy_chess::get_pawn_attacks(target, !us) & board.colored_pieces(us, Piece::Pawn);
    takers.into_iter().any(|from| {
        board.is_legal(Move {
            from,
            to: target,
            promotion: None,
        })
    })
}

/// What is wrong with the board or side-to-move field of a FEN, in words that say what to
/// fix, or `None` if they are fine (or missing: [`parse_fen`] reports that). cozy-chess calls
/// most of these problems just "the board is invalid", and reads a board of fewer than eight
/// ranks as if the missing ones were empty, so [`parse_fen`] runs these checks first: rank
/// count, squares per rank, piece letters, kings, pawn and piece counts, pawns on the back
/// ranks, the side to move, and checks (the side not to move in check, or more than two
/// checkers).
pub fn fen_board_problem(fen: &str) -> Option<String> {
    use cozy_chess::{
        get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let ranks: Vec<&str> = fields.first()?.split('/').collect();
    if ranks.len() != 8 {
        let s = if ranks.len() == 1 { "" } else { "s" };
        return Some(format!("the board has {} rank{s}, not 8", ranks.len()));
    }
    let mut pieces: Vec<(Square, Color, Piece)> = Vec::new();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 8 - i;
        let mut squares = 0;
        for c in text.chars() {
            if let Some(n @ 1..=9) = c.to_digit(10) {
                squares += n as usize;
                continue;
            }
            let piece = match c.to_ascii_lowercase() {
                'p' => Piece::Pawn,
                'n' => Piece::Knight,
                'b' => Piece::Bishop,
                'r' => Piece::Rook,
                'q' => Piece::Queen,
                'k' => Piece::King,
                _ => {
                    return Some(format!(
                        "'{c}' in rank {rank} is neither a piece letter (PNBRQK, pnbrqk) nor \
                         a digit 1-8"
                    ))
                }
            };
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if squares < 8 {
                let sq = Square::new(File::index(squares), Rank::index(rank - 1));
                pieces.push((sq, color, piece));
            }
            squares += 1;
        }
        if squares != 8 {
            return Some(format!("rank {rank} has {squares} squares, not 8"));
        }
    }
    let name = |c: Color| if c == Color::White { "white" } else { "black" };
    let count = |c: Color, p: Piece| pieces.iter().filter(|x| x.1 == c && x.2 == p).count();
    for color in [Color::White, Color::Black] {
        match count(color, Piece::King) {
            0 => return Some(format!("{} has no king", name(color))),
            1 => {}
            n => return Some(format!("{} has {n} kings", name(color))),
        }
        let pawns = count(color, Piece::Pawn);
        if pawns > 8 {
            return Some(format!("{} has {pawns} pawns, at most 8", name(color)));
        }
        let all = pieces.iter().filter(|x| x.1 == color).count();
        if all > 16 {
            return Some(format!("{} has {all} pieces, at most 16", name(color)));
        }
    }
    if let Some(&(sq, color, _)) = pieces
        .iter()
        .find(|x| x.2 == Piece::Pawn && matches!(x.0.rank(), Rank::First | Rank::Eighth))
    {
        let rank = sq.rank() as usize + 1;
        return Some(format!("{} pawn on rank {rank} ({sq})", name(color)));
    }
    let stm = match *fields.get(1)? {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Some(format!(
                "side to move '{}' is not 'w' or 'b'",
                shorten(other, 16)
            ))
        }
    };
    let occupied = pieces
        .iter()
        .fold(BitBoard::EMPTY, |bb, x| bb | x.0.bitboard());
    // Pieces of `by` that attack the king of the other side (each side has one king here).
    let checkers = |by: Color| {
        let Some(king) = pieces
            .iter()
            .find(|x| x.1 != by && x.2 == Piece::King)
            .map(|x| x.0)
        else {
            return 0;
        };
        pieces
            .iter()
            .filter(|&&(sq, color, piece)| {
                color == by
                    && match piece {
                        Piece::Pawn => get_pawn_attacks(sq, color),
                        Piece::Knight => get_knight_moves(sq),
                        Piece::Bishop => get_bishop_moves(sq, occupied),
                        Piece::Rook => get_rook_moves(sq, occupied),
                        Piece::Queen => {
                            get_bishop_moves(sq, occupied) | get_rook_moves(sq, occupied)
                        }
                        Piece::King => get_king_moves(sq),
                    }
                    .has(king)
            })
            .count()
    };
    if checkers(stm) > 0 {
        return Some(format!(
            "{} is in check but it is {} to move",
            name(!stm),
            name(stm)
        ));
    }
    let n = checkers(!stm);
    if n > 2 {
        return Some(format!("{} is in check by {n} pieces", name(stm)));
    }
    None
}

/// `s` cut to at most `max` characters, with an ellipsis when cut (for error messages that
/// quote user input).
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let t: String = s.chars().take(max).collect();
        format!("{t}…")
    }
}

/// Parses a FEN: X-FEN or Shredder-FEN castling, move counters optional.
///
/// What Stockfish and python-chess both accept is accepted: a halfmove clock above 100 (the
/// board holds 100, the fifty-move rule applies either way; [`Position::from_fen`] keeps the
/// number, which its FEN writes back), a fullmove number of 0 (read as 1, as
/// python-chess does; above 65535 read as 65535), and an en-passant square that no pawn can
/// have just passed (wrong rank for the side to move, no pawn in front of it, …), which is
/// dropped, as both do. Negative or non-numeric counters, an en-passant field that is no
/// square and everything else wrong stay errors.
///
/// The board and side to move are checked first by [`fen_board_problem`], so that an error
/// names the problem (`invalid FEN '…': rank 7 has 9 squares, not 8`). Errors quote the FEN
/// cut to 100 characters, so that they stay short whatever the input.
///
/// cozy-chess's own X-FEN mode reads `K`/`Q` as the h-/a-file rook only, which rejects most
/// Chess960 X-FENs. Here X-FEN letters are translated to Shredder file letters first: `K`/`Q`
/// (`k`/`q`) name the outermost rook on that side of the king on its back rank, as X-FEN
/// defines; a file letter (X-FEN's way to name an inner rook, or Shredder-FEN) is kept.
pub fn parse_fen(fen: &str) -> Result<Board, String> {
    let shown = shorten(fen.trim(), 100);
    if let Some(problem) = fen_board_problem(fen) {
        return Err(format!("invalid FEN '{shown}': {problem}"));
    }
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(format!("invalid FEN '{shown}': expected at least 2 fields"));
    }
    if fields.len() > 6 {
        return Err(format!("invalid FEN '{shown}': more than 6 fields"));
    }
    let mut parts = fields.clone();
    let defaults = ["-", "-", "0", "1"];
    while parts.len() < 6 {
        parts.push(defaults[parts.len() - 2]);
    }
    let halfmove = fen_counter(parts[4], "halfmove clock", 0, 100)
        .map_err(|e| format!("invalid FEN '{shown}': {e}"))?
        .to_string();
    let fullmove = fen_counter(parts[5], "fullmove number", 1, u64::from(u16::MAX))
        .map_err(|e| format!("invalid FEN '{shown}': {e}"))?
        .to_string();
    parts[4] = &halfmove;
    parts[5] = &fullmove;
    if parts[3] != "-" && parts[3].parse::<Square>().is_err() {
        return Err(format!(
            "invalid FEN '{shown}': the en passant field '{}' is neither '-' nor a square",
            shorten(parts[3], 16)
        ));
    }
    // cozy-chess's parser should not panic, but input is arbitrary text: never let it kill us.
    // An en-passant square it finds impossible is dropped (the field is a square: checked).
    let attempt = |text: &str| {
        let parse = |text: &str| {
            std::panic::catch_unwind(|| Board::from_fen(text, true))
                .unwrap_or(Err(cozy_chess::FenParseError::InvalidBoard))
        };
        match parse(text) {
            Err(cozy_chess::FenParseError::InvalidEnPassant) => {
                let mut without: Vec<&str> = text.split(' ').collect();
                without[3] = "-";
                parse(&without.join(" "))
            }
            other => other,
        }
        .map_err(|e| format!("invalid FEN '{shown}': {e}"))
    };
    let castling = parts[2];
    if !castling.contains(['K', 'Q', 'k', 'q']) {
        return attempt(&parts.join(" "));
    }
    // Find the kings and rooks on a board without castling rights, then name the rooks.
    let mut bare = parts.clone();
    bare[2] = "-";
    let board = attempt(&bare.join(" "))?;
    let mut shredder = String::with_capacity(castling.len());
    for c in castling.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let file = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                xfen_rook_file(&board, color, c.eq_ignore_ascii_case(&'k')).ok_or_else(|| {
                    format!("invalid FEN '{shown}': no rook for castling right '{c}'")
                })?
            }
            'a'..='h' => {
                shredder.push(c);
                continue;
            }
            _ => {
                return Err(format!(
                    "invalid FEN '{shown}': bad castling field '{}'",
                    shorten(castling, 16)
                ))
            }
        };
        let letter = char::from(file).to_ascii_lowercase();
        shredder.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    parts[2] = &shredder;
    attempt(&parts.join(" "))
}

/// A FEN move counter, `[+]digits`, within `min..=max` (a larger value is read as `max`, a
/// smaller one as `min`); negative or non-numeric is an error naming the `field`.
fn fen_counter(text: &str, field: &str, min: u64, max: u64) -> Result<u64, String> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        let why = if text.starts_with('-') && text.len() > 1 {
            "is negative"
        } else {
            "is not a number"
        };
        return Err(format!("the {field} '{}' {why}", shorten(text, 16)));
    }
    // More digits than u64 holds: as large as any.
    let n = digits.parse::<u64>().unwrap_or(u64::MAX);
    Ok(n.clamp(min, max))
}

/// Writes a board as FEN with X-FEN castling rights: the program's one FEN writer outside
/// Chess960 mode (which writes Shredder-FEN, see [`Position::fen`]), and what [`parse_fen`]
/// reads back to the same board. `K`/`Q` (`k`/`q`) name the outermost rook on that side of the
/// king, as X-FEN defines; a right on an inner rook is written as its file letter. Standard
/// chess positions come out exactly as usual (`KQkq`); Chess960 positions keep their rights,
/// where cozy-chess's own writer would put `K`/`Q` on any rook.
pub fn board_fen(board: &Board) -> String {
    let mut castling = String::new();
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        for (file, short) in [(rights.short, true), (rights.long, false)] {
            let Some(file) = file else {
                continue;
            };
            let letter = if xfen_rook_file(board, color, short) == Some(file) {
                if short {
                    'k'
                } else {
                    'q'
                }
            } else {
                char::from(file).to_ascii_lowercase()
            };
            castling.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    // Shredder-FEN from cozy-chess, with the castling field (the third) replaced.
    let shredder = format!("{board:#}");
    let mut fields: Vec<&str> = shredder.split(' ').collect();
    if let Some(field) = fields.get_mut(2) {
        *field = &castling;
    }
    with_playable_en_passant(board, fields.join(" "))
}

/// A FEN from cozy-chess with its en-passant field (the fourth) kept only when a pawn can take
/// en passant ([`en_passant_is_playable`]), as Stockfish and python-chess write it: the same
/// position has one FEN, whichever move made it.
fn with_playable_en_passant(board: &Board, fen: String) -> String {
    if board.en_passant().is_none() || en_passant_is_playable(board) {
        return fen;
    }
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if let Some(field) = fields.get_mut(3) {
        *field = "-";
    }
    fields.join(" ")
}

/// The file of the outermost `color` rook on its back rank on the king's `short` (h-file)
/// or long (a-file) side, if the king stands on the back rank.
fn xfen_rook_file(board: &Board, color: Color, short: bool) -> Option<File> {
    let back_rank = Rank::First.relative_to(color);
    let king = board.king(color);
    if king.rank() != back_rank {
        return None;
    }
    let rooks = board.colored_pieces(color, Piece::Rook) & back_rank.bitboard();
    let files = rooks.into_iter().map(Square::file);
    if short {
        files.filter(|&f| f > king.file()).max()
    } else {
        files.filter(|&f| f < king.file()).min()
    }
}

/// What makes the castling rights of `board` impossible to write in standard chess notation
/// (where castling is the king's move from e1 to g1 or c1, e8 to g8 or c8, with the rook of
/// the h or a file), or `None` when they are standard (or there are none). A position with
/// such rights needs Chess960 mode: in standard mode the front ends refuse it, as Stockfish
/// does, since the GUI's board and the engine's would differ.
pub fn standard_castling_problem(board: &Board) -> Option<String> {
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        if rights.short.is_none() && rights.long.is_none() {
            continue;
        }
        let name = if color == Color::White {
            "white"
        } else {
            "black"
        };
        let king = board.king(color);
        if king.file() != File::E {
            return Some(format!(
                "{name} may castle with its king on {king}, which standard chess cannot \
                 write (the king must start on the e file)"
            ));
        }
        let back = Rank::First.relative_to(color);
        for (rook, file) in [(rights.short, File::H), (rights.long, File::A)] {
            if let Some(rook) = rook.filter(|&f| f != file) {
                return Some(format!(
                    "{name} may castle with the rook on {}, which standard chess cannot \
                     write (the castling rooks must start on the a and h files)",
                    Square::new(rook, back)
                ));
            }
        }
    }
    None
}

/// Whether a castling move (king takes own rook) is standard chess castling, written as the
/// king's two-square move: the king on the e file and the rook on the a or h file.
fn is_standard_castling(mv: Move) -> bool {
    mv.from.file() == File::E && matches!(mv.to.file(), File::A | File::H)
}

/// Writes a cozy-chess move in UCI notation for this board. In standard mode castling is the
/// king's two-square move (e1g1); a castling that standard chess cannot write that way (a
/// Chess960 position while Chess960 is off) keeps the king-takes-rook form, which no other
/// move shares and [`parse_uci_move`] reads in both modes.
pub fn move_to_uci(board: &Board, mv: Move, chess960: bool) -> String {
    if !chess960 && board.colors(board.side_to_move()).has(mv.to) && is_standard_castling(mv) {
        // Castling: king takes own rook -> king's two-square move.
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        let to = Square::new(file, mv.from.rank());
        return format!("{}{}", mv.from, to);
    }
    format!("{mv}")
}

/// Parses a UCI move for this board and checks its legality. The promotion letter may be
/// upper case (`e7e8Q`, as some GUIs write it and Stockfish accepts); in standard chess
/// castling may be written as the king's two-square move (`e1g1`) or as king takes rook
/// (`e1h1`), in Chess960 only as king takes rook.
pub fn parse_uci_move(board: &Board, text: &str, chess960: bool) -> Result<Move, String> {
    let text = text.trim();
    let shown = || shorten(text, 32);
    let lower;
    let normal = match text.as_bytes() {
        // (An ASCII fifth byte: the first four are whole characters.)
        [_, _, _, _, p] if b"QRBN".contains(p) => {
            lower = format!("{}{}", &text[..4], p.to_ascii_lowercase() as char);
            lower.as_str()
        }
        _ => text,
    };
    let mut mv: Move = match normal.parse() {
        Ok(mv) if normal.len() <= 5 => mv,
        _ => return Err(format!("malformed move '{}'", shown())),
    };
    let us = board.side_to_move();
    if board.king(us) == mv.from && mv.promotion.is_none() {
        let back = Rank::First.relative_to(us);
        let rights = board.castle_rights(us);
        let two_squares = mv.from.rank() == back
            && mv.to.rank() == back
            && (mv.from.file() as i32 - mv.to.file() as i32).abs() == 2;
        if !chess960 && two_squares && mv.from.file() == File::E {
            // Only standard castling is written this way (see `move_to_uci`).
            let (rook, file) = if mv.to.file() == File::G {
                (rights.short, File::H)
            } else {
                (rights.long, File::A)
            };
            if rook == Some(file) {
                mv.to = Square::new(file, back);
            }
        }
    }
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(format!("illegal move '{}'", shown()))
    }
}

/// Squares of `color`'s pieces that attack `sq` with the given occupancy.
pub fn attackers_to(board: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    use cozy_chess::get_rook_moves;
    use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks};
    let diag = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let ortho = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    ((get_pawn_attacks(sq, Color::White) & board.colored_pieces(Color::Black, Piece::Pawn))
        | (get_pawn_attacks(sq, Color::Black) & board.colored_pieces(Color::White, Piece::Pawn))
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (get_king_moves(sq) & board.pieces(Piece::King))
        | (get_bishop_moves(sq, occupied) & diag)
        | (get_rook_moves(sq, occupied) & ortho))
        & occupied
}

/// An ASCII diagram of the board, White at the bottom.
pub fn board_ascii(pos: &Position) -> String {
    let b = pos.board();
    let mut out = String::from(" +---+---+---+---+---+---+---+---+\n");
    for rank in (0..8).rev() {
        out.push(' ');
        for file in 0..8 {
            let sq = cozy_chess::Square::new(
                cozy_chess::File::index(file),
                cozy_chess::Rank::index(rank),
            );
            let c = match (b.piece_on(sq), b.color_on(sq)) {
                (Some(p), Some(color)) => {
                    let ch: char = p.into();
                    if color == cozy_chess::Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    }
                }
                _ => ' ',
            };
            out.push_str(&format!("| {c} "));
        }
        out.push_str(&format!(
            "| {}\n +---+---+---+---+---+---+---+---+\n",
            rank + 1
        ));
    }
    out.push_str("   a   b   c   d   e   f   g   h");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_board_shows_pieces() {
        let s = board_ascii(&Position::startpos());
        assert!(s.contains("| r | n | b | q | k | b | n | r | 8"));
        assert!(s.contains("| R | N | B | Q | K | B | N | R | 1"));
    }

    #[test]
    fn castling_converts_both_ways() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid fen");
        let mv = pos.parse_uci_move("e1g1").expect("castling is legal");
        assert_eq!(format!("{mv}"), "e1h1");
        assert_eq!(pos.move_to_uci(mv), "e1g1");
        let long = pos.parse_uci_move("e1c1").expect("long castling is legal");
        assert_eq!(format!("{long}"), "e1a1");
        let mut pos960 = pos.clone();
        pos960.set_chess960(true);
        assert_eq!(pos960.move_to_uci(mv), "e1h1");
        assert!(pos960.parse_uci_move("e1h1").is_ok());
    }

    #[test]
    fn every_move_is_written_once_and_read_back_in_both_modes() {
        // Castling that standard notation cannot write (king off the e file, rook off the a
        // and h files) keeps the king-takes-rook form: d1c1 must not be both the castle and
        // the king's step, nor c1c1 a move at all.
        let frc = include_str!("../assets/perft/frc_perftsuite.epd");
        let fens = frc
            .lines()
            .filter_map(|l| l.split(';').next().map(str::trim))
            .filter(|f| !f.is_empty())
            .chain([
                "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
                "4k3/8/8/8/8/8/8/1RK4R w KQ - 0 1",
                "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            ]);
        let mut n = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            for chess960 in [false, true] {
                pos.set_chess960(chess960);
                let moves = pos.legal_moves();
                let mut written: Vec<String> = moves.iter().map(|&m| pos.move_to_uci(m)).collect();
                for (&mv, text) in moves.iter().zip(&written) {
                    assert_eq!(pos.parse_uci_move(text), Ok(mv), "{fen} {text} {chess960}");
                }
                written.sort();
                written.dedup();
                assert_eq!(written.len(), moves.len(), "{fen} {chess960}: {written:?}");
                n += 1;
            }
        }
        assert!(n > 1000);
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1").unwrap();
        let castles: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| pos.is_castling(m))
            .map(|m| pos.move_to_uci(m))
            .collect();
        assert_eq!(castles, ["d1a1", "d1h1"]);
    }

    #[test]
    fn standard_castling_is_told_from_chess960_castling() {
        for fen in [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1",
            "4k3/8/8/8/8/8/8/R2K3R w - - 0 1",
            STARTPOS_FEN,
        ] {
            assert_eq!(
                standard_castling_problem(&parse_fen(fen).unwrap()),
                None,
                "{fen}"
            );
        }
        for (fen, needle) in [
            (
                "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
                "white may castle with its king on d1",
            ),
            ("4k3/8/8/8/8/8/8/1RK4R w KQ - 0 1", "king on c1"),
            ("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "the rook on b1"),
            (
                "r3k1r1/8/8/8/8/8/8/4K3 w g - 0 1",
                "black may castle with the rook on g8",
            ),
            (
                "rk5r/8/8/8/8/8/8/4K3 w kq - 0 1",
                "black may castle with its king on b8",
            ),
        ] {
            let problem = standard_castling_problem(&parse_fen(fen).unwrap()).unwrap_or_default();
            assert!(problem.contains(needle), "{fen}: {problem:?}");
        }
    }

    #[test]
    fn repetition_after_root_and_threefold_before() {
        let mut pos = Position::startpos();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = pos.parse_uci_move(m).unwrap();
            pos.play(mv);
        }
        // Startpos seen once before: a single repetition before the root is not yet a draw.
        assert!(!pos.is_repetition(0));
        // But within the search (root 4 plies back) it is.
        assert!(pos.is_repetition(4));
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = pos.parse_uci_move(m).unwrap();
            pos.play(mv);
        }
        assert!(pos.is_repetition(0), "threefold before the root");
    }

    #[test]
    fn counters_and_en_passant_read_as_stockfish_and_python_chess_read_them() {
        for (fen, read) in [
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - 150 80",
                "4k3/8/8/8/8/8/8/R3K3 w - - 150 80",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - 3 0",
                "4k3/8/8/8/8/8/8/R3K3 w - - 3 1",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - +3 +7",
                "4k3/8/8/8/8/8/8/R3K3 w - - 3 7",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - 123456789012345678901234 70000",
                "4k3/8/8/8/8/8/8/R3K3 w - - 100 65535",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - -",
                "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 b - e6 0 1",
                "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
            ),
            (
                "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
                "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            ),
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.fen(), read, "{fen}");
        }
        for (fen, why) in [
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - -1 80",
                "halfmove clock '-1' is negative",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - 1 -80",
                "fullmove number '-80' is negative",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - x 1",
                "halfmove clock 'x' is not a number",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - 0 -",
                "fullmove number '-' is not a number",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - - 0 +",
                "fullmove number '+' is not a number",
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w - e9 0 1",
                "the en passant field 'e9'",
            ),
            ("4k3/8/8/8/8/8/8/R3K3 w - e 0 1", "the en passant field 'e'"),
            (
                "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1",
                "no rook for castling right 'K'",
            ),
        ] {
            let err = parse_fen(fen).unwrap_err();
            assert!(err.contains(why), "{fen}: {err}");
        }
    }

    #[test]
    fn promotion_letters_in_either_case() {
        let board = parse_fen("8/P7/8/8/8/8/8/K1k5 w - - 0 1").unwrap();
        for (upper, lower) in [("a7a8Q", "a7a8q"), ("a7a8N", "a7a8n"), ("a7a8R", "a7a8r")] {
            assert_eq!(
                parse_uci_move(&board, upper, false),
                parse_uci_move(&board, lower, false)
            );
            assert!(parse_uci_move(&board, upper, true).is_ok(), "{upper}");
        }
        for bad in ["A7A8Q", "a7a8K", "a7a8Qq", "a7a8", "a7a8+", "a7a8é"] {
            assert!(parse_uci_move(&board, bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_fens_are_errors() {
        for fen in [
            "",
            "garbage",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        ] {
            assert!(Position::from_fen(fen).is_err(), "{fen}");
        }
        assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").is_ok());
    }

    const STANDARD_SUITE: &str = include_str!("../assets/perft/ethereal_standard.epd");
    const CPW_SUITE: &str = include_str!("../assets/perft/cpw_perft_positions.epd");
    const FRC_SUITE: &str = include_str!("../assets/perft/frc_perftsuite.epd");

    /// The FENs of a perft suite (the text before the first `;` of each non-empty line).
    fn suite_fens(text: &str) -> impl Iterator<Item = &str> {
        text.lines()
            .filter_map(|line| line.split(';').next().map(str::trim))
            .filter(|fen| !fen.is_empty())
    }

    #[test]
    fn fen_checks_accept_every_perft_suite_position() {
        let mut n = 0;
        let suites = [STANDARD_SUITE, CPW_SUITE, FRC_SUITE];
        for fen in suites.iter().flat_map(|s| suite_fens(s)) {
            assert_eq!(fen_board_problem(fen), None, "{fen}");
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
            n += 1;
        }
        assert!(n > 1000);
    }

    #[test]
    fn fen_checks_name_the_problem() {
        for (fen, problem) in [
            ("8/8/8 w - -", "the board has 3 ranks, not 8"),
            ("4k3/8/8/8/8/8/8/3K3 w - -", "rank 1 has 7 squares, not 8"),
            ("4k3/8/8/8/8/8/8/4K2Z w - -", "'Z' in rank 1"),
            ("4k3/8/8/8/8/8/8/8 w - -", "white has no king"),
            ("4k3/8/8/8/8/8/8/4K2p w - -", "black pawn on rank 1 (h1)"),
            ("4k3/8/8/8/8/8/8/4K3 - - -", "side to move '-'"),
            (
                "4k3/4Q3/8/8/8/8/8/4K3 w - -",
                "black is in check but it is white",
            ),
            (
                "4k3/3P4/5N2/8/8/8/8/4R1K1 b - -",
                "black is in check by 3 pieces",
            ),
        ] {
            let found = fen_board_problem(fen).unwrap_or_default();
            assert!(found.contains(problem), "{fen}: {found:?}");
            // Every caller of the FEN parser gets the same words.
            let err = Position::from_fen(fen).unwrap_err();
            assert!(
                err.starts_with("invalid FEN '") && err.contains(problem),
                "{fen}: {err}"
            );
        }
    }

    #[test]
    fn fen_errors_stay_short() {
        let long = format!("{} w - -", "8/".repeat(5000));
        let err = Position::from_fen(&long).unwrap_err();
        assert!(err.contains("5001 ranks, not 8"), "{err}");
        assert!(err.chars().count() < 200, "{err}");
        let castling = format!("4k3/8/8/8/8/8/8/4K3 w K{} - 0 1", "x".repeat(5000));
        let err = Position::from_fen(&castling).unwrap_err();
        assert!(err.contains("castling"), "{err}");
        assert!(err.chars().count() < 200, "{err}");
        // Missing fields are still the parser's to report.
        let err = Position::from_fen("4k3/8/8/8/8/8/8/4K3").unwrap_err();
        assert!(err.contains("expected at least 2 fields"), "{err}");
        assert!(Position::from_fen("").is_err());
    }

    #[test]
    fn the_fen_writer_and_reader_agree_on_every_perft_suite_position() {
        // Standard and Chess960 positions: the X-FEN written is read back to the same board,
        // and standard positions are written as they always were.
        for (suite, text) in [STANDARD_SUITE, FRC_SUITE].iter().enumerate() {
            for fen in suite_fens(text) {
                let board = parse_fen(fen).unwrap();
                let written = board_fen(&board);
                let read = parse_fen(&written).unwrap();
                assert_eq!(board_fen(&read), written, "{fen}");
                assert_eq!(position_key(&read), position_key(&board), "{fen}");
                assert_eq!(
                    (read.halfmove_clock(), read.fullmove_number()),
                    (board.halfmove_clock(), board.fullmove_number()),
                    "{fen}"
                );
                if suite == 0 {
                    let cozy = with_playable_en_passant(&board, format!("{board}"));
                    assert_eq!(written, cozy, "{fen}");
                }
            }
        }
        let start = Position::startpos();
        assert_eq!(start.fen(), STARTPOS_FEN);
        // A Chess960 start: the rooks of b1 and g1 are the outermost, so K and Q name them.
        let frc = parse_fen("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1").unwrap();
        assert_eq!(
            board_fen(&frc),
            "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1"
        );
        // A right on an inner rook keeps its file letter.
        let inner = parse_fen("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1").unwrap();
        assert_eq!(board_fen(&inner), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
        assert_eq!(parse_fen(&board_fen(&inner)), Ok(inner));
    }

    #[test]
    fn insufficient_material() {
        let dead = |fen: &str| Position::from_fen(fen).unwrap().is_insufficient_material();
        assert!(dead("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
        assert!(!dead("4k3/8/8/8/8/8/8/4KR2 w - - 0 1"));
        // Bishops all on one colour can never mate, however many and on whichever side
        // (f1 and c8 are both light squares; c1 is dark).
        assert!(dead("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
        assert!(!dead("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"));
        assert!(dead("4k3/8/8/8/8/8/8/4KB1B w - - 0 1"));
        assert!(dead("4k3/8/8/8/8/8/6B1/4KB2 w - - 0 1"));
        // Opposite-coloured bishops, a knight beside a bishop, or two knights can mate.
        assert!(!dead("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1"));
        assert!(!dead("4k3/8/8/8/8/8/8/4KBN1 w - - 0 1"));
        assert!(!dead("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1"));
        assert!(!dead("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1"));
    }

    /// The position after 1.e4 (cozy-chess marks e3 although no black pawn can take there).
    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

    #[test]
    fn an_en_passant_square_no_pawn_can_use_is_not_part_of_the_position() {
        let with = Position::from_fen(AFTER_E4).unwrap();
        let without =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 4 3")
                .unwrap();
        assert_eq!(with.hash(), without.hash());
        assert_eq!(with.fen(), without.fen().replace(" 4 3", " 0 1"));
        assert!(with.fen().contains(" KQkq - 0 1"), "{}", with.fen());
        // A capture that is possible keeps the square, in the key and in the FEN.
        let legal = "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
        let ep = Position::from_fen(legal).unwrap();
        let no_ep =
            Position::from_fen("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
                .unwrap();
        assert_ne!(ep.hash(), no_ep.hash());
        assert_eq!(ep.fen(), legal);
        // A pawn that stands beside the pushed pawn but is pinned (the rook on h5 would take
        // the king on a5 through the emptied rank) cannot take: no square.
        let pinned = Position::from_fen("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2").unwrap();
        assert!(!en_passant_is_playable(pinned.board()));
        assert_eq!(
            pinned.hash(),
            Position::from_fen("4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2")
                .unwrap()
                .hash()
        );
        assert_eq!(pinned.fen(), "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2");
    }

    #[test]
    fn the_position_after_a_double_push_recurs_after_knight_shuffles() {
        // 1.e4 Nf6 2.Nf3 Ng8 3.Ng1: the position after 1.e4 again, then again after 5.Ng1.
        let mut pos = Position::startpos();
        let mut counts = vec![];
        for m in "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1".split(' ') {
            let mv = pos.parse_uci_move(m).unwrap();
            pos.play(mv);
            counts.push(pos.repetitions());
        }
        assert_eq!(counts, [0, 0, 0, 0, 1, 1, 1, 1, 2]);
        assert!(pos.is_repetition(0), "the third time is a draw");
        pos.undo();
        pos.undo();
        pos.undo();
        pos.undo();
        assert_eq!(pos.repetitions(), 1);
        assert!(pos.is_repetition(4) && !pos.is_repetition(0));
    }
}

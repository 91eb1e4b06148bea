//! Standard Algebraic Notation (SAN), printed and parsed on top of cozy-chess's legal move list.
//!
//! Printing follows the PGN standard: piece letter, the least disambiguation that makes the
//! move unique (file, else rank, else both), `x` for captures, `=Q` for promotions, `O-O` and
//! `O-O-O` for castling, and `+` or `#` after a check or a mate.
//!
//! Parsing is lenient about what people and test suites write: check and mate marks may be
//! present, absent or wrong, `!`/`?` annotations are dropped, castling may be written with
//! zeros (`0-0`), promotions with or without `=` (`e8=Q`, `e8Q`, `e8(Q)`, `e8/Q`), and a fully
//! specified origin (`Ng1f3`, `e2e4`, `Ng1-f3`) is accepted. It never panics: whatever the text,
//! the answer is a legal move or an error that says why.

use cozy_chess::{Board, File, GameStatus, Move, Piece, Rank, Square};

/// All legal moves of `board` (cozy-chess encoding: castling is king-takes-rook).
fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    board.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    moves
}

/// Whether a move (legal on `board`) is castling: the king moves onto its own rook.
fn is_castling(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::King) && board.colors(board.side_to_move()).has(mv.to)
}

/// Whether a move (legal on `board`) captures, en passant included.
fn is_capture(board: &Board, mv: Move) -> bool {
    board.colors(!board.side_to_move()).has(mv.to)
        || (board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file())
}

fn piece_letter(piece: Piece) -> char {
    char::from(piece).to_ascii_uppercase()
}

/// The check (`+`) or mate (`#`) mark of a legal move, or nothing.
fn check_mark(board: &Board, mv: Move) -> &'static str {
    let mut after = board.clone();
    after.play_unchecked(mv);
    if after.checkers().is_empty() {
        ""
    } else if after.status() == GameStatus::Won {
        "#"
    } else {
        "+"
    }
}

/// Writes a legal move in SAN, with its check or mate mark. A move that is not legal on
/// `board` cannot be written in SAN; it is returned in coordinate form (`e2e4`) instead.
pub fn move_to_san(board: &Board, mv: Move) -> String {
    if !board.is_legal(mv) {
        return mv.to_string();
    }
    let mut san = String::with_capacity(8);
    if is_castling(board, mv) {
        san.push_str(if mv.to.file() > mv.from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
        san.push_str(check_mark(board, mv));
        return san;
    }
    // Legal, so there is a piece on the origin square.
    let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
    let capture = is_capture(board, mv);
    if piece == Piece::Pawn {
        if capture {
            san.push(char::from(mv.from.file()));
            san.push('x');
        }
    } else {
        san.push(piece_letter(piece));
        // Other pieces of the same kind that can go to the same square.
        let rivals: Vec<Square> = legal_moves(board)
            .into_iter()
            .filter(|m| {
                m.to == mv.to
                    && m.from != mv.from
                    && board.piece_on(m.from) == Some(piece)
                    && !is_castling(board, *m)
            })
            .map(|m| m.from)
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|s| s.file() == mv.from.file());
            let same_rank = rivals.iter().any(|s| s.rank() == mv.from.rank());
            if !same_file {
                san.push(char::from(mv.from.file()));
            } else if !same_rank {
                san.push(char::from(mv.from.rank()));
            } else {
                san.push_str(&mv.from.to_string());
            }
        }
        if capture {
            san.push('x');
        }
    }
    san.push_str(&mv.to.to_string());
    if let Some(promo) = mv.promotion {
        san.push('=');
        san.push(piece_letter(promo));
    }
    san.push_str(check_mark(board, mv));
    san
}

/// Writes a sequence of moves in SAN, each on the board the previous ones lead to. Stops at
/// the first move that is not legal.
pub fn line_to_san(board: &Board, moves: &[Move]) -> Vec<String> {
    let mut board = board.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !board.is_legal(mv) {
            break;
        }
        out.push(move_to_san(&board, mv));
        board.play_unchecked(mv);
    }
    out
}

fn parse_piece(c: char) -> Option<Piece> {
    match c {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        'K' => Some(Piece::King),
        'P' => Some(Piece::Pawn),
        _ => None,
    }
}

fn parse_promotion_piece(c: char) -> Option<Piece> {
    match c.to_ascii_uppercase() {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        _ => None,
    }
}

fn file_of(c: char) -> Option<File> {
    File::try_from(c).ok()
}

fn rank_of(c: char) -> Option<Rank> {
    Rank::try_from(c).ok()
}

/// Parses a move in SAN (see the module documentation for what is accepted) and returns the
/// legal move it names. Errors say whether the text is malformed, names no legal move, or is
/// ambiguous.
pub fn parse_san(board: &Board, text: &str) -> Result<Move, String> {
    let original = text.trim();
    let shown = || {
        let t: String = original.chars().take(32).collect();
        if original.chars().count() > 32 {
            format!("{t}…")
        } else {
            t
        }
    };
    // Drop annotations and check marks from the end: `!`, `?`, `+`, `#`, and the `e.p.` suffix.
    let mut core = original;
    loop {
        let before = core.len();
        core = core.trim_end_matches(['!', '?', '+', '#']).trim_end();
        if let Some(stripped) = core.strip_suffix("e.p.") {
            core = stripped.trim_end();
        } else if let Some(stripped) = core.strip_suffix("ep") {
            // Only a suffix after a square (`exd6ep`), never part of the move itself.
            if stripped.ends_with(|c: char| c.is_ascii_digit()) {
                core = stripped.trim_end();
            }
        }
        if core.len() == before {
            break;
        }
    }
    if core.is_empty() {
        return Err(format!("empty move '{}'", shown()));
    }
    let moves = legal_moves(board);

    // Castling, with letters O or digits 0.
    let castle = match core {
        "O-O" | "0-0" | "o-o" | "OO" | "00" => Some(true),
        "O-O-O" | "0-0-0" | "o-o-o" | "OOO" | "000" => Some(false),
        _ => None,
    };
    if let Some(short) = castle {
        return moves
            .iter()
            .copied()
            .find(|&m| is_castling(board, m) && (m.to.file() > m.from.file()) == short)
            .ok_or_else(|| format!("castling '{}' is not legal here", shown()));
    }

    let mut chars: Vec<char> = core.chars().collect();
    if !chars
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || "x:-=()/".contains(*c))
    {
        return Err(format!(
            "malformed move '{}': unexpected character",
            shown()
        ));
    }

    // Piece letter (uppercase; a lowercase letter is a file, so `bxc3` is a pawn move).
    let piece = match chars.first().copied().and_then(parse_piece) {
        Some(p) => {
            chars.remove(0);
            p
        }
        None => Piece::Pawn,
    };

    // Promotion: a trailing piece letter, possibly behind `=`, `/` or in parentheses.
    let mut promotion = None;
    // A king or a pawn where the promotion piece goes (`b8=K`, `e8(P)`, `e8K`): the piece is
    // what is wrong, not the square.
    let no_promotion_to = |c: char, before: Option<char>| {
        let piece = match c {
            'K' | 'k' => "king",
            'P' | 'p' => "pawn",
            _ => return None,
        };
        let after_square = before.is_some_and(|b| b.is_ascii_digit() || "=/(".contains(b));
        after_square.then(|| {
            format!(
                "'{}': a pawn cannot promote to a {piece} (only to Q, R, B or N)",
                shown()
            )
        })
    };
    if chars.last() == Some(&')') {
        chars.pop();
        let last = chars.last().copied();
        let before = chars.len().checked_sub(2).map(|i| chars[i]);
        if let Some(e) = last.and_then(|c| no_promotion_to(c.to_ascii_uppercase(), before)) {
            return Err(e);
        }
        if let Some(p) = chars.pop().and_then(parse_promotion_piece) {
            promotion = Some(p);
        } else {
            return Err(format!("malformed promotion in '{}'", shown()));
        }
        if chars.pop() != Some('(') {
            return Err(format!("malformed promotion in '{}'", shown()));
        }
    } else if let Some(&last) = chars.last() {
        let before = chars.len().checked_sub(2).map(|i| chars[i]);
        if let Some(e) = no_promotion_to(last, before) {
            return Err(e);
        }
        if last.is_ascii_alphabetic() && (last.is_ascii_uppercase() || chars.len() > 2) {
            // `e8Q`, `e8=Q`, `e8q` (a lowercase letter after a rank digit).
            if let Some(p) = parse_promotion_piece(last) {
                if chars.len() >= 2
                    && (chars[chars.len() - 2].is_ascii_digit()
                        || "=/".contains(chars[chars.len() - 2]))
                {
                    promotion = Some(p);
                    chars.pop();
                }
            }
        }
    }
    if promotion.is_some() && matches!(chars.last(), Some('=') | Some('/')) {
        chars.pop();
    }

    // What remains: [from-file][from-rank][x|:|-]to-square.
    let capture_marked = chars.iter().any(|&c| c == 'x' || c == ':');
    let rest: Vec<char> = chars
        .into_iter()
        .filter(|&c| c != 'x' && c != ':' && c != '-')
        .collect();
    if rest.len() < 2 {
        return Err(format!(
            "malformed move '{}': no destination square",
            shown()
        ));
    }
    let (dis, dest) = rest.split_at(rest.len() - 2);
    let to = match (file_of(dest[0]), rank_of(dest[1])) {
        (Some(f), Some(r)) => Square::new(f, r),
        _ => {
            return Err(format!(
                "malformed move '{}': bad destination square",
                shown()
            ))
        }
    };
    let (from_file, from_rank) = match dis {
        [] => (None, None),
        [c] => match (file_of(*c), rank_of(*c)) {
            (Some(f), _) => (Some(f), None),
            (_, Some(r)) => (None, Some(r)),
            _ => return Err(format!("malformed move '{}': bad disambiguation", shown())),
        },
        [f, r] => match (file_of(*f), rank_of(*r)) {
            (Some(f), Some(r)) => (Some(f), Some(r)),
            _ => return Err(format!("malformed move '{}': bad disambiguation", shown())),
        },
        _ => return Err(format!("malformed move '{}'", shown())),
    };
    if piece != Piece::Pawn && promotion.is_some() {
        return Err(format!("only pawns promote: '{}'", shown()));
    }

    let candidates: Vec<Move> = moves
        .into_iter()
        .filter(|&m| {
            m.to == to
                && board.piece_on(m.from) == Some(piece)
                && !is_castling(board, m)
                && m.promotion == promotion
                && from_file.is_none_or(|f| m.from.file() == f)
                && from_rank.is_none_or(|r| m.from.rank() == r)
                && (!capture_marked || is_capture(board, m))
        })
        .collect();
    match candidates.as_slice() {
        [mv] => Ok(*mv),
        [] => {
            let needs_promotion = piece == Piece::Pawn
                && promotion.is_none()
                && to.rank() == Rank::Eighth.relative_to(board.side_to_move());
            if needs_promotion {
                Err(format!("'{}' needs a promotion piece (e.g. =Q)", shown()))
            } else {
                Err(format!("no legal move matches '{}'", shown()))
            }
        }
        several => Err(format!(
            "ambiguous move '{}': {} legal moves match",
            shown(),
            several.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn board(fen: &str) -> Board {
        Position::from_fen(fen)
            .expect("valid test FEN")
            .board()
            .clone()
    }

    fn uci(b: &Board, text: &str) -> Move {
        crate::position::parse_uci_move(b, text, false).expect("legal test move")
    }

    /// (FEN, UCI move, SAN printed, other spellings that must parse to the same move).
    const CASES: &[(&str, &str, &str, &[&str])] = &[
        // Start position: pawn push and knight move.
        (
            crate::position::STARTPOS_FEN,
            "e2e4",
            "e4",
            &["e2e4", "e2-e4", "e4!"],
        ),
        (
            crate::position::STARTPOS_FEN,
            "g1f3",
            "Nf3",
            &["Ng1f3", "Ng1-f3", "Nf3?!"],
        ),
        // Knights on b1 and f3 can both go to d2: file disambiguation.
        (
            "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1",
            "b1d2",
            "Nbd2",
            &["N1d2", "Nb1d2"],
        ),
        // Rooks on a1 and a5 both reach a3: rank disambiguation.
        (
            "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1",
            "a1a3",
            "R1a3",
            &["Ra1a3"],
        ),
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3", &[]),
        // Three queens on a1, a3, c1 reach b2... a1 shares a file with a3 and a rank with c1.
        (
            "8/7k/8/8/8/Q7/8/Q1Q4K w - - 0 1",
            "a1b2",
            "Qa1b2",
            &["Qa1-b2"],
        ),
        ("8/7k/8/8/8/Q7/8/Q1Q4K w - - 0 1", "c1b2", "Qcb2", &[]),
        (
            "8/7k/8/8/8/Q7/8/Q1Q4K w - - 0 1",
            "a3b2",
            "Q3b2",
            &["Qa3b2"],
        ),
        // Capture with disambiguation.
        (
            "4k3/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1",
            "c3d5",
            "Ncxd5",
            &["Ncd5", "Nc3xd5", "Nc:d5"],
        ),
        // A pinned knight does not count as a rival: no disambiguation.
        (
            "4r1k1/8/8/8/4N3/8/8/1N2K3 w - - 0 1",
            "b1d2",
            "Nd2",
            &["Nbd2", "Nb1d2"],
        ),
        // Pawn captures and en passant.
        (
            "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
            "e4d5",
            "exd5",
            &["ed5", "e4xd5", "exd5!!"],
        ),
        (
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "e5d6",
            "exd6",
            &["exd6e.p.", "exd6 e.p.", "e5d6"],
        ),
        (
            "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
            "e4d3",
            "exd3",
            &["ed3"],
        ),
        // Promotions, quiet and capturing, with check, under-promotion.
        (
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            "e7e8q",
            "e8=Q",
            &["e8Q", "e8(Q)", "e8/Q", "e8=Q+", "e7e8q"],
        ),
        (
            "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
            "e7e8q",
            "e8=Q+",
            &["e8=Q", "e8Q+", "e8q"],
        ),
        (
            "3r4/4Pk2/8/8/8/8/8/4K3 w - - 0 1",
            "e7d8n",
            "exd8=N+",
            &["exd8N", "ed8=N", "exd8=N"],
        ),
        (
            "3r4/4P1k1/8/8/8/8/8/4K3 w - - 0 1",
            "e7d8r",
            "exd8=R",
            &["exd8R"],
        ),
        // Castling, both sides, both colours, letter O and digit 0.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1g1",
            "O-O",
            &["0-0", "O-O!"],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1c1",
            "O-O-O",
            &["0-0-0"],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "e8c8",
            "O-O-O",
            &["0-0-0"],
        ),
        // Castling that gives check.
        (
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "e1g1",
            "O-O+",
            &["O-O", "0-0+"],
        ),
        // Checks and mates.
        (
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "a1a8",
            "Ra8#",
            &["Ra8", "Ra8+", "Ra1a8#"],
        ),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            "d8h4",
            "Qh4#",
            &["Qh4", "Qd8h4"],
        ),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+", &["Ra8"]),
        // King capture (no disambiguation for kings).
        (
            "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
            "e1d2",
            "Kxd2",
            &["Kd2", "Ke1xd2"],
        ),
        // A bishop and a b-pawn: `bxc3` is the pawn, `Bxc3` the bishop.
        (
            "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1",
            "b2c3",
            "bxc3",
            &["bc3"],
        ),
        (
            "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1",
            "d2c3",
            "Bxc3",
            &["Bxc3", "Bc3"],
        ),
    ];

    #[test]
    fn san_table() {
        assert!(CASES.len() >= 20);
        for (fen, uci_text, san, others) in CASES {
            let b = board(fen);
            let mv = uci(&b, uci_text);
            assert_eq!(move_to_san(&b, mv), *san, "{fen} {uci_text}");
            assert_eq!(parse_san(&b, san), Ok(mv), "{fen} {san}");
            for other in *others {
                assert_eq!(parse_san(&b, other), Ok(mv), "{fen} {other}");
            }
        }
    }

    #[test]
    fn ambiguous_and_illegal_moves_are_errors() {
        let b = board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let err = parse_san(&b, "Nd2").unwrap_err();
        assert!(err.contains("ambiguous"), "{err}");
        let b = board("8/7k/8/8/8/Q7/8/Q1Q4K w - - 0 1");
        assert!(parse_san(&b, "Qab2").unwrap_err().contains("ambiguous"));
        assert!(parse_san(&b, "Q1b2").unwrap_err().contains("ambiguous"));
        let start = Board::default();
        for bad in [
            "",
            "+",
            "e5",
            "Nf4",
            "O-O",
            "Ke2",
            "e4e5",
            "exd5",
            "Nxf3",
            "Zf3",
            "N",
            "Nf9",
            "i4",
            "e4=Q",
            "Qe8=Q",
            "é4",
            "Nf3Nf3",
            "(Q)",
            "e8(Q",
            "1234567890",
        ] {
            assert!(
                parse_san(&start, bad).is_err(),
                "'{bad}' should be an error"
            );
        }
        // A pawn reaching the last rank needs its promotion piece.
        let b = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        assert!(parse_san(&b, "e8").unwrap_err().contains("promotion"));
        // A king or a pawn as the promotion piece: the piece is named as the problem.
        for (text, piece) in [
            ("e8=K", "king"),
            ("e8K", "king"),
            ("e8(K)", "king"),
            ("e8/K", "king"),
            ("e8=P", "pawn"),
            ("e8k", "king"),
        ] {
            let e = parse_san(&b, text).unwrap_err();
            assert!(
                e.contains(&format!("cannot promote to a {piece}")),
                "{text}: {e}"
            );
        }
        assert_eq!(move_to_san(&b, parse_san(&b, "e8=Q").unwrap()), "e8=Q");
        // The pinned knight cannot go to d2.
        let b = board("4r1k1/8/8/8/4N3/8/8/1N2K3 w - - 0 1");
        assert!(parse_san(&b, "Ned2").is_err());
        // A capture mark on a quiet move is refused.
        assert!(parse_san(&start, "Nxf3").is_err());
    }

    #[test]
    fn parse_never_panics_on_odd_text() {
        let b = board("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
        let samples = [
            "x", "xx", "=", "=Q", "Q=", "a", "a1", "a1=", "()", "(", ")", "/", "-", "--", "0-",
            "O-O-O-O", "bxa1=Q", "b1=Q", "Kxx", "\u{0}", "ÿ", "e.p.", "ep", "Pe4", "P", "N1",
            "Nf3#!?", "a7b8=X", "a8Q", "axb8=Q", "axb8Q+",
        ];
        for s in samples {
            let _ = parse_san(&b, s);
        }
        // Every byte string of length up to 3 from a small alphabet.
        let alphabet: Vec<char> = "aeh18NQKxO0-=+#()".chars().collect();
        for &a in &alphabet {
            for &c in &alphabet {
                for &d in &alphabet {
                    let s: String = [a, c, d].iter().collect();
                    let _ = parse_san(&b, &s);
                }
            }
        }
        // Illegal moves print as coordinates rather than failing.
        let start = Board::default();
        let illegal = Move {
            from: Square::E2,
            to: Square::E5,
            promotion: None,
        };
        assert_eq!(move_to_san(&start, illegal), "e2e5");
    }

    #[test]
    fn lines_print_in_san() {
        let start = Board::default();
        let moves: Vec<Move> = ["e2e4", "e7e5", "g1f3"]
            .iter()
            .scan(start.clone(), |b, t| {
                let m = uci(b, t);
                b.play_unchecked(m);
                Some(m)
            })
            .collect();
        assert_eq!(line_to_san(&start, &moves), ["e4", "e5", "Nf3"]);
    }

    /// Print then parse every legal move of the CPW perft positions and of every position one
    /// ply after them: the SAN must name the same move, with no disambiguation missing.
    #[test]
    fn round_trip_on_perft_positions_to_depth_2() {
        let text = include_str!("../assets/perft/cpw_perft_positions.epd");
        let mut checked = 0usize;
        let mut positions = 0usize;
        for line in text.lines() {
            let fen = line.split(';').next().unwrap_or("").trim();
            if fen.is_empty() {
                continue;
            }
            let root = board(fen);
            positions += 1;
            let mut check = |b: &Board| {
                for mv in legal_moves(b) {
                    let san = move_to_san(b, mv);
                    assert_eq!(parse_san(b, &san), Ok(mv), "{b} {mv} {san}");
                    checked += 1;
                }
            };
            check(&root);
            for mv in legal_moves(&root) {
                let mut child = root.clone();
                child.play_unchecked(mv);
                check(&child);
            }
        }
        assert_eq!(positions, 6);
        // Sum of the D1 and D2 counts of the six positions.
        assert_eq!(
            checked,
            20 + 400 + 48 + 2039 + 14 + 191 + 6 + 264 + 44 + 1486 + 46 + 2079
        );
    }
}

//! The notes of `lull explore`: every sentence the page writes under a result, derived from
//! the data it shows beside them (the two searches' scores and principal variations) and from
//! nothing else. One function, [`notes`], reads the facts of each line ([`LineFacts`]: where
//! it ends, what the side to move could still win there, what it gives away on the way, its
//! mates and promotions) and says them; a sentence that blames a search names the line that
//! shows it.

use cozy_chess::{Color, Move, Piece};

use crate::params::{MATE, MATE_BOUND};
use crate::position::Position;
use crate::san::move_to_san;
use crate::search::see::see;

/// One search of a result, as the page shows it.
#[derive(Clone, Copy, Debug)]
pub struct Searched<'a> {
    /// How the notes name it: `the search without quiescence`, `A`.
    pub label: &'a str,
    /// Whether it ran the quiescence search at its horizon.
    pub qsearch: bool,
    /// Its score (centipawns or a mate score, from the side to move at the root).
    pub score: i32,
    /// Its principal variation from the root.
    pub pv: &'a [Move],
}

/// A move given away: played to a square where the other side takes it at once, and not
/// taken back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thrown {
    /// The move that gives it (SAN).
    pub san: String,
    /// The capture that takes it (SAN).
    pub taken_by: String,
    /// The piece given.
    pub piece: Piece,
}

/// What a line shows, read from its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineFacts {
    /// The line in SAN with move numbers (`1. Qxd4 exd4`, `1... b2 2. Bxb2`).
    pub text: String,
    /// The SAN of each move.
    pub sans: Vec<String>,
    /// Its last move, when it is a capture (SAN).
    pub ends_in_capture: Option<String>,
    /// Its last move (SAN), if any.
    pub last: Option<String>,
    /// At its end: the side to move.
    pub leaf_side: Color,
    /// At its end: whether that side is in check.
    pub leaf_in_check: bool,
    /// At its end: checkmate (`Some(true)`), stalemate (`Some(false)`).
    pub leaf_mate: Option<bool>,
    /// At its end: the side to move's capture or promotion that wins most by exchange (SAN,
    /// centipawns), when one wins anything.
    pub leaf_gain: Option<(String, i32)>,
    /// At its end: a quiet move (no capture, no promotion) that mates at once (SAN).
    pub leaf_quiet_mate: Option<String>,
    /// Material given away on the way, in order.
    pub thrown: Vec<Thrown>,
    /// Promotions on the way (SAN).
    pub promotions: Vec<String>,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn piece_name(p: Piece, plural: bool) -> &'static str {
    match (p, plural) {
        (Piece::Pawn, false) => "pawn",
        (Piece::Pawn, true) => "pawns",
        (Piece::Knight, false) => "knight",
        (Piece::Knight, true) => "knights",
        (Piece::Bishop, false) => "bishop",
        (Piece::Bishop, true) => "bishops",
        (Piece::Rook, false) => "rook",
        (Piece::Rook, true) => "rooks",
        (Piece::Queen, false) => "queen",
        (Piece::Queen, true) => "queens",
        (Piece::King, _) => "king",
    }
}

/// `the search without quiescence` → `The search without quiescence`.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A score in words for a sentence: `+291`, `-41`, `0`, `a mate in 3 for White`.
pub fn score_words(score: i32, root: Color) -> String {
    if score >= MATE_BOUND {
        format!(
            "a mate in {} for {}",
            (MATE - score + 1) / 2,
            side_name(root)
        )
    } else if score <= -MATE_BOUND {
        format!(
            "a mate in {} for {}",
            (MATE + score + 1) / 2,
            side_name(!root)
        )
    } else if score == 0 {
        "0".into()
    } else {
        format!("{score:+}")
    }
}

/// `1. e4 e5 2. Nf3` or `1... e5 2. Nf3` from `pos`.
pub fn numbered(pos: &Position, sans: &[String]) -> String {
    let fen = pos.fen();
    let full: u32 = fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut side = pos.side_to_move();
    let mut number = full;
    let mut out = String::new();
    for (i, san) in sans.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        match side {
            Color::White => out.push_str(&format!("{number}. {san}")),
            Color::Black if i == 0 => out.push_str(&format!("{number}... {san}")),
            Color::Black => out.push_str(san),
        }
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    out
}

/// Reads the facts of `line` played from `pos` (as far as its moves are legal).
pub fn line_facts(pos: &Position, line: &[Move]) -> LineFacts {
    let mut p = pos.clone();
    let mut sans = Vec::new();
    let mut captures = Vec::new(); // the square each move captured on, if any
    let mut movers = Vec::new();
    let mut promotions = Vec::new();
    for &mv in line {
        if !p.board().is_legal(mv) {
            break;
        }
        let san = move_to_san(p.board(), mv);
        captures.push(p.captured(mv).map(|_| mv.to));
        movers.push(p.board().piece_on(mv.from).unwrap_or(Piece::Pawn));
        if mv.promotion.is_some() {
            promotions.push(san.clone());
        }
        sans.push(san);
        p.play(mv);
    }
    let played = &line[..sans.len()];
    // Given away: a move that captures nothing, answered at once by a capture on its square
    // that is not taken back on the next ply.
    let mut thrown = Vec::new();
    for i in 0..played.len().saturating_sub(1) {
        let (mv, reply) = (played[i], played[i + 1]);
        let retaken = played.get(i + 2).is_some_and(|m| m.to == reply.to)
            && captures.get(i + 2).is_some_and(Option::is_some);
        if captures[i].is_none() && captures[i + 1] == Some(mv.to) && !retaken {
            thrown.push(Thrown {
                san: sans[i].clone(),
                taken_by: sans[i + 1].clone(),
                piece: mv.promotion.unwrap_or(movers[i]),
            });
        }
    }
    let leaf = p.board();
    let legal = p.legal_moves();
    let leaf_mate = legal.is_empty().then(|| p.in_check());
    let leaf_gain = legal
        .iter()
        .filter(|&&m| p.captured(m).is_some() || m.promotion.is_some())
        .map(|&m| (m, see(leaf, m)))
        .filter(|&(_, g)| g > 0)
        .max_by_key(|&(_, g)| g)
        .map(|(m, g)| (move_to_san(leaf, m), g));
    let leaf_quiet_mate = legal
        .iter()
        .filter(|&&m| p.captured(m).is_none() && m.promotion.is_none())
        .find(|&&m| {
            let mut after = p.clone();
            after.play(m);
            after.is_checkmate()
        })
        .map(|&m| move_to_san(leaf, m));
    LineFacts {
        text: numbered(pos, &sans),
        ends_in_capture: captures
            .last()
            .copied()
            .flatten()
            .and_then(|_| sans.last().cloned()),
        last: sans.last().cloned(),
        leaf_side: p.side_to_move(),
        leaf_in_check: p.in_check(),
        leaf_mate,
        leaf_gain,
        leaf_quiet_mate,
        thrown,
        promotions,
        sans,
    }
}

/// The sentences under a result of two searches of `pos` to `depth` (the horizon pair, or
/// A and B), each read from the scores and lines shown beside them.
pub fn notes(pos: &Position, depth: i32, left: &Searched, right: &Searched) -> Vec<String> {
    let root = pos.side_to_move();
    let mut out = Vec::new();
    if pos.legal_moves().is_empty() {
        out.push(if pos.in_check() {
            format!(
                "{} is checkmated: there is no move to search and nothing to stand pat on; \
                 the game is over.",
                side_name(root)
            )
        } else {
            format!(
                "{} is stalemated: no legal move, a draw (0); there is nothing to search.",
                side_name(root)
            )
        });
        return out;
    }
    let facts = [line_facts(pos, left.pv), line_facts(pos, right.pv)];
    let searches = [left, right];
    let first = |f: &LineFacts| f.sans.first().cloned().unwrap_or_else(|| "no move".into());

    // What each plays, and the scores.
    if facts[0].sans.first() == facts[1].sans.first() {
        out.push(format!(
            "Both play {}: {} scores it {}, {} {} (from {}'s view, the side to move).",
            first(&facts[0]),
            left.label,
            score_words(left.score, root),
            right.label,
            score_words(right.score, root),
            side_name(root)
        ));
    } else {
        out.push(format!(
            "{} plays {} ({}), {} plays {} ({}) (scores from {}'s view, the side to move).",
            capital(left.label),
            first(&facts[0]),
            score_words(left.score, root),
            right.label,
            first(&facts[1]),
            score_words(right.score, root),
            side_name(root)
        ));
    }

    let mut horizon_capture = None;
    for (s, f) in searches.iter().zip(&facts) {
        let who = capital(s.label);
        if s.score.abs() >= MATE_BOUND {
            out.push(format!(
                "{who} finds {}: {}.",
                score_words(s.score, root),
                f.text
            ));
        }
        match f.leaf_mate {
            Some(true) => out.push(format!(
                "{who}'s line ends in checkmate: {} is mated.",
                side_name(f.leaf_side)
            )),
            Some(false) => out.push(format!(
                "{who}'s line ends in stalemate: {} has no move, a draw.",
                side_name(f.leaf_side)
            )),
            None => {}
        }
        if !s.qsearch && f.leaf_mate.is_none() {
            // Its line ends at its horizon, where it took the static evaluation.
            let side = side_name(f.leaf_side);
            match (&f.ends_in_capture, &f.leaf_gain) {
                (Some(cap), Some((reply, gain))) => {
                    horizon_capture = Some(s.label);
                    out.push(format!(
                        "{who} ends its line with the capture {cap} and evaluates there: \
                         {reply} ({side} to move, {gain:+} by exchange) lies beyond its \
                         horizon, so it counts material that is not won (the horizon effect)."
                    ));
                }
                (None, Some((capture, gain))) => out.push(format!(
                    "{who}'s line ends with {side} to move and {capture} winning {gain} by \
                     exchange: a capture beyond its horizon that its static evaluation does \
                     not count."
                )),
                (_, None) if f.leaf_in_check => out.push(format!(
                    "{who}'s line ends with {side} in check: the static evaluation scores a \
                     position whose reply is forced."
                )),
                (_, None) => {
                    if let Some(last) = &f.last {
                        out.push(format!(
                            "{who}'s line ends in {} ({last}) and no capture wins anything \
                             there: its own leaf is quiet, so its score is not a horizon error \
                             of that line.",
                            if f.ends_in_capture.is_some() {
                                "a capture that nothing wins back"
                            } else {
                                "a quiet move"
                            }
                        ));
                    }
                }
            }
        }
        if s.qsearch && f.sans.len() > depth.max(0) as usize {
            out.push(format!(
                "{who}'s line goes {} plies past depth {depth}, in the quiescence search: {}.",
                f.sans.len() - depth as usize,
                f.sans[depth as usize..].join(" ")
            ));
        }
        if let Some(mate) = &f.leaf_quiet_mate {
            out.push(format!(
                "At the end of {}'s line {} has {mate}, a quiet mate: a search of captures \
                 only does not try it, so that score misses it.",
                s.label,
                side_name(f.leaf_side)
            ));
        }
        if !f.thrown.is_empty() {
            let mut pieces: Vec<Piece> = f.thrown.iter().map(|t| t.piece).collect();
            pieces.dedup();
            let what = if pieces.len() == 1 {
                piece_name(pieces[0], f.thrown.len() > 1).to_string()
            } else {
                "material".to_string()
            };
            let gives: Vec<&str> = f.thrown.iter().map(|t| t.san.as_str()).collect();
            let takes: Vec<&str> = f.thrown.iter().map(|t| t.taken_by.as_str()).collect();
            if f.thrown.len() >= 2 {
                out.push(format!(
                    "{who}'s line gives away {} {what}: {}, each taken at once ({}). Material \
                     given for nothing to push a loss beyond the horizon is the horizon \
                     effect's other face (delaying moves); here it is {} that plays them.",
                    f.thrown.len(),
                    gives.join(", "),
                    takes.join(", "),
                    s.label
                ));
            } else {
                out.push(format!(
                    "{who}'s line gives a {what} away: {}, taken at once by {}.",
                    gives[0], takes[0]
                ));
            }
        }
        if !f.promotions.is_empty() {
            out.push(format!(
                "{who}'s line promotes: {}.",
                f.promotions.join(", ")
            ));
        }
    }

    let (a, b) = (left.score, right.score);
    if (a > 0 && b < 0) || (a < 0 && b > 0) {
        out.push(match horizon_capture {
            Some(label) => format!(
                "The scores have opposite signs: {label} scores a capture before the reply \
                 that refutes it."
            ),
            None => "The scores have opposite signs.".to_string(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Limits;
    use crate::tools::teaching::explore::jobs::options_engine;

    /// The horizon pair of `fen` to `depth` with the hand-crafted evaluation: the notes and
    /// the facts of both lines.
    fn pair(fen: &str, depth: i32) -> (Vec<String>, [LineFacts; 2], [i32; 2]) {
        let pos = Position::from_fen(fen).unwrap();
        let opts = vec![(
            crate::options::find_option("Use NNUE").unwrap(),
            crate::options::OptionValue::Bool(false),
        )];
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut results = Vec::new();
        for q in [false, true] {
            let mut e = options_engine(&opts, Some(q)).unwrap();
            results.push(e.search(&pos, &limits, &[]));
        }
        let (w, q) = (&results[0], &results[1]);
        let left = Searched {
            label: "the search without quiescence",
            qsearch: false,
            score: w.score,
            pv: &w.pv,
        };
        let right = Searched {
            label: "the search with quiescence",
            qsearch: true,
            score: q.score,
            pv: &q.pv,
        };
        let notes = notes(&pos, depth, &left, &right);
        let facts = [line_facts(&pos, &w.pv), line_facts(&pos, &q.pv)];
        (notes, facts, [w.score, q.score])
    }

    fn has(notes: &[String], part: &str) -> bool {
        notes.iter().any(|n| n.contains(part))
    }

    /// The horizon effect as the textbook draws it: Qxd4 wins a knight, ...exd4 is beyond
    /// depth 1. The note blames the search without quiescence, whose line ends in that
    /// capture, and names the reply.
    #[test]
    fn a_capture_at_the_horizon_is_blamed_on_the_line_that_ends_in_it() {
        let (notes, [w, q], [sw, sq]) = pair(crate::tools::teaching::horizon::HORIZON_FEN, 1);
        assert_eq!(w.sans, ["Qxd4"]);
        assert!(sw > 0 && sq < 0, "{sw} {sq}");
        let (reply, gain) = w.leaf_gain.clone().unwrap();
        assert_eq!(reply, "exd4");
        assert!(gain > 0);
        assert!(
            has(&notes, "The search without quiescence ends its line with the capture Qxd4 and evaluates there: exd4"),
            "{notes:#?}"
        );
        assert!(
            has(
                &notes,
                "opposite signs: the search without quiescence scores a capture"
            ),
            "{notes:#?}"
        );
        // The line with quiescence does not play the capture.
        assert_ne!(q.sans.first().map(String::as_str), Some("Qxd4"));
    }

    /// The other face: at depth 6 the search *with* quiescence throws three pawns into the
    /// bishop's diagonal (...b2, ...c3, ...d4), and the line without it ends in a quiet move.
    /// The notes name the search whose line throws them, and blame no capture on the other.
    #[test]
    fn pawns_thrown_to_delay_a_loss_are_named_on_the_line_that_throws_them() {
        let (notes, [w, q], _) = pair("5r1k/4Qpq1/4p3/1p1p2P1/2p2P2/1p2P3/3P4/BK6 b - - 0 1", 6);
        assert_eq!(q.sans, ["b2", "Bxb2", "c3", "Bxc3", "d4", "Bxd4"]);
        assert_eq!(q.thrown.len(), 3);
        assert!(w.thrown.len() < 2, "{:?}", w.sans);
        assert!(w.ends_in_capture.is_none(), "{:?}", w.sans);
        assert!(
            has(&notes, "The search with quiescence's line gives away 3 pawns: b2, c3, d4, each taken at once (Bxb2, Bxc3, Bxd4)"),
            "{notes:#?}"
        );
        assert!(has(
            &notes,
            "here it is the search with quiescence that plays them"
        ));
        assert!(!has(&notes, "ends its line with the capture"), "{notes:#?}");
        assert!(!has(
            &notes,
            "the search without quiescence scores a capture"
        ));
    }

    /// A quiet move at the horizon that leaves a capture for the other side: at depth 1 the
    /// search without quiescence pushes ...b2 into the bishop's diagonal; Bxb2 is beyond its
    /// horizon, and its score is the higher one for it.
    #[test]
    fn a_capture_left_to_the_other_side_beyond_the_horizon_is_named() {
        let (notes, [w, q], [sw, sq]) =
            pair("5r1k/4Qpq1/4p3/1p1p2P1/2p2P2/1p2P3/3P4/BK6 b - - 0 1", 1);
        assert_eq!(w.sans, ["b2"], "{notes:#?}");
        let (capture, gain) = w.leaf_gain.clone().unwrap();
        assert_eq!((capture.as_str(), gain), ("Bxb2", 100));
        assert!(sw > sq + 100, "{sw} {sq}");
        assert!(
            has(&notes, "The search without quiescence's line ends with White to move and Bxb2 winning 100 by exchange"),
            "{notes:#?}"
        );
        assert_eq!(q.sans.first().map(String::as_str), Some("f6"));
        assert!(!has(&notes, "opposite signs"), "{notes:#?}");
    }

    /// A quiet refutation: after ...Qxa2 the back-rank mate Re8# is no capture; the notes say
    /// so at the end of each line that leaves it there.
    #[test]
    fn a_quiet_mate_at_the_end_of_a_line_is_named() {
        let (notes, [w, q], _) = pair("6k1/5ppp/8/8/8/8/Pq3PPP/4R1K1 b - - 0 1", 1);
        assert_eq!(w.sans, ["Qxa2"]);
        assert_eq!(w.leaf_quiet_mate.as_deref(), Some("Re8#"));
        assert!(
            has(
                &notes,
                "At the end of the search without quiescence's line White has Re8#, a quiet mate"
            ),
            "{notes:#?}"
        );
        if q.sans.first().map(String::as_str) == Some("Qxa2") {
            assert_eq!(q.leaf_quiet_mate.as_deref(), Some("Re8#"));
        }
    }

    /// A mate: both searches find the mate in two, and the notes say who mates, in how many
    /// moves, with the line.
    #[test]
    fn a_mate_is_said_with_its_line() {
        let (notes, [w, q], [sw, sq]) = pair("6k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1", 4);
        assert!(sw >= MATE_BOUND && sq >= MATE_BOUND, "{sw} {sq}");
        assert_eq!(w.leaf_mate, Some(true), "{:?}", w.sans);
        assert!(has(&notes, "finds a mate in"), "{notes:#?}");
        assert!(
            has(
                &notes,
                &format!("finds {}: {}", score_words(sq, Color::White), q.text)
            ),
            "{notes:#?}"
        );
        assert!(
            has(&notes, "line ends in checkmate: Black is mated"),
            "{notes:#?}"
        );
        assert!(!has(&notes, "opposite signs"));
    }

    /// Stalemate at the root: nothing to search, a draw, and no other sentence.
    #[test]
    fn stalemate_at_the_root_is_a_draw_with_nothing_to_search() {
        let (notes, _, [sw, sq]) = pair("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1);
        assert_eq!((sw, sq), (0, 0));
        assert_eq!(notes.len(), 1, "{notes:#?}");
        assert!(notes[0].starts_with("Black is stalemated"), "{notes:#?}");
    }

    /// The promotion race: with quiescence White's line queens (the promotion at the
    /// horizon is searched), and the notes name the promotion on that line.
    #[test]
    fn a_promotion_is_named_on_the_line_that_plays_it() {
        let (notes, [w, q], _) = pair("8/8/P7/8/8/6p1/8/k3K3 w - - 0 1", 2);
        assert_eq!(q.sans.first().map(String::as_str), Some("a7"));
        assert!(!q.promotions.is_empty(), "{:?}", q.sans);
        assert!(
            has(
                &notes,
                &format!(
                    "The search with quiescence's line promotes: {}",
                    q.promotions.join(", ")
                )
            ),
            "{notes:#?}"
        );
        assert!(
            w.promotions.is_empty() || has(&notes, "The search without quiescence's line promotes")
        );
    }

    /// A checkmated root: no "standing pat", no search.
    #[test]
    fn a_checkmated_root_is_said_as_such() {
        let (notes, _, _) = pair("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 1);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].starts_with("Black is checkmated"), "{notes:#?}");
    }

    #[test]
    fn lines_are_numbered_from_the_position() {
        let pos =
            Position::from_fen("5r1k/4Qpq1/4p3/1p1p2P1/2p2P2/1p2P3/3P4/BK6 b - - 0 30").unwrap();
        let sans: Vec<String> = ["b2", "Bxb2", "c3"].map(String::from).to_vec();
        assert_eq!(numbered(&pos, &sans), "30... b2 31. Bxb2 c3");
    }
}

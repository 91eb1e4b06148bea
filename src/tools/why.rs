//! `lull why`: why the search did not find a line. A position and a line of moves (the key
//! move of a tactic and its answers) are given; the search runs as usual, on one thread, and
//! at every node of the line it notes what became of the node and of the line's next move
//! (see [`crate::search::why`]). The report says, iteration by iteration and ply by ply, what
//! hid the line: a TT cutoff, reverse futility, a null move, late-move pruning, futility, SEE
//! pruning, a reduction, or an earlier move that cut the node off.

use std::fmt::Write as _;
use std::process::ExitCode;

use cozy_chess::Move;

use crate::params::MAX_DEPTH;
use crate::position::{parse_uci_move, Position};
use crate::san::{move_to_san, parse_san};
use crate::search::why::{WhyEvent, WhyKind, WhyTrace};
use crate::search::SearchResult;
use crate::time::Limits;
use crate::tools::cli::{apply_engine_options, fail, position_from_words, quiet_engine};
use crate::tools::signed_score_text;
use crate::tt::Bound;

/// Default depth of `lull why`, in plies.
pub const WHY_DEPTH: i32 = 10;

/// Arguments of `lull why`.
#[derive(Clone, Debug, clap::Args)]
pub struct WhyArgs {
    /// The position: a FEN (its words may be given unquoted).
    #[arg(required = true, num_args = 1..)]
    pub position: Vec<String>,
    /// The line to watch, from the position: moves in SAN or UCI, separated by spaces.
    #[arg(long, value_name = "MOVES")]
    pub line: String,
    /// Search to this depth, in plies.
    #[arg(long, default_value_t = WHY_DEPTH,
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: i32,
    /// Print every event (by default, repeated events of a node are counted once).
    #[arg(long)]
    pub trace: bool,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// A UCI option, e.g. --option QSearchChecks=1 (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Reads a line of moves (SAN or UCI) played from `pos`.
pub fn parse_line(pos: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        let board = p.board().clone();
        let mv = parse_san(&board, word)
            .or_else(|e| parse_uci_move(&board, word, p.chess960()).map_err(|_| e))
            .map_err(|e| format!("move {} of the line, '{word}': {e}", i + 1))?;
        p.play(mv);
        moves.push(mv);
    }
    if moves.is_empty() {
        return Err("the line has no move".to_string());
    }
    Ok(moves)
}

/// A score for the report: signed centipawns or `+M3`.
fn score(s: i32) -> String {
    signed_score_text(s)
}

/// One event in words, from the point of view of the side to move at its node. `line_move` is
/// the line's move at the node, in SAN.
pub fn describe(kind: &WhyKind, line_move: Option<&str>, san: impl Fn(Move) -> String) -> String {
    let mv = line_move.unwrap_or("the line's end");
    match *kind {
        WhyKind::Horizon { score: s } => format!("horizon: quiescence score {}", score(s)),
        WhyKind::Draw => "draw by rule".to_string(),
        WhyKind::MateDistance => "mate distance pruning".to_string(),
        WhyKind::TtCutoff {
            score: s,
            bound,
            depth,
        } => {
            let b = match bound {
                Bound::Lower => "lower bound",
                Bound::Upper => "upper bound",
                Bound::Exact => "exact",
            };
            format!("TT cutoff: {b} {} from depth {depth}", score(s))
        }
        WhyKind::ReverseFutility { eval, margin } => format!(
            "reverse futility: eval {} - margin {margin} >= beta",
            score(eval)
        ),
        WhyKind::NullMove { score: s } => format!("null-move cutoff ({})", score(s)),
        WhyKind::LateMovePruned {
            quiets_tried,
            limit,
        } => format!("{mv} late-move pruned ({quiets_tried} quiets tried, limit {limit})"),
        WhyKind::Futility { eval, margin } => format!(
            "{mv} futility pruned: eval {} + margin {margin} <= alpha",
            score(eval)
        ),
        WhyKind::SeePruned => format!("{mv} SEE pruned"),
        WhyKind::Reduced { r, order, score: s } => {
            format!("{mv} (move #{order}) reduced by {r}: {}", score(s))
        }
        WhyKind::Searched { order, score: s } => {
            format!("{mv} (move #{order}) searched: {}", score(s))
        }
        WhyKind::CutBefore { by, score: s } => {
            format!("{mv} not reached: {} cut off first ({})", san(by), score(s))
        }
        WhyKind::Result { score: s, best } => match best {
            Some(b) => format!("node result {} (best {})", score(s), san(b)),
            None => format!("node result {} (fail low)", score(s)),
        },
    }
}

/// The report `lull why` prints: per iteration, per ply of the line, what happened there.
pub fn render(
    pos: &Position,
    line: &[Move],
    result: &SearchResult,
    trace: &WhyTrace,
    all: bool,
) -> String {
    // Boards and SAN along the line.
    let mut boards = Vec::new();
    let mut sans = Vec::new();
    let mut p = pos.clone();
    for &mv in line {
        boards.push(p.board().clone());
        sans.push(move_to_san(p.board(), mv));
        p.play(mv);
    }
    boards.push(p.board().clone());
    let mut out = String::new();
    let _ = writeln!(out, "Line: {}", sans.join(" "));
    let _ = writeln!(
        out,
        "Search: depth {}, best {}, score {}, {} nodes\n",
        result.depth,
        result
            .best_move
            .map_or("(none)".to_string(), |m| move_to_san(pos.board(), m)),
        score(result.score),
        result.nodes
    );
    let mut iterations: Vec<i32> = trace.events.iter().map(|e| e.iteration).collect();
    iterations.dedup();
    for it in iterations {
        let events: Vec<&WhyEvent> = trace.events.iter().filter(|e| e.iteration == it).collect();
        let root = events
            .iter()
            .rev()
            .find(|e| e.ply == 0 && matches!(e.kind, WhyKind::Result { .. }));
        let _ = match root.map(|e| e.kind) {
            Some(WhyKind::Result { score: s, best }) => writeln!(
                out,
                "iteration {it}: root {} best {}",
                score(s),
                best.map_or("-".to_string(), |m| move_to_san(pos.board(), m))
            ),
            _ => writeln!(out, "iteration {it}:"),
        };
        let deepest = events.iter().map(|e| e.ply).max().unwrap_or(0);
        for ply in 0..=deepest {
            let mut seen: Vec<(String, usize)> = Vec::new();
            for e in events.iter().filter(|e| e.ply == ply) {
                if !all && ply == 0 && matches!(e.kind, WhyKind::Result { .. }) {
                    continue;
                }
                let board = &boards[ply];
                let text = format!(
                    "d{} [{}, {}] {}",
                    e.depth,
                    score(e.alpha),
                    score(e.beta),
                    describe(&e.kind, sans.get(ply).map(String::as_str), |m| {
                        move_to_san(board, m)
                    })
                );
                let text = if all {
                    text
                } else {
                    // Without the window, repeated visits read as one line with a count.
                    format!(
                        "d{} {}",
                        e.depth,
                        describe(&e.kind, sans.get(ply).map(String::as_str), |m| {
                            move_to_san(board, m)
                        })
                    )
                };
                match seen.iter_mut().find(|(t, _)| *t == text) {
                    Some((_, n)) if !all => *n += 1,
                    _ => seen.push((text, 1)),
                }
            }
            if seen.is_empty() {
                continue;
            }
            let after = if ply == 0 {
                "root".to_string()
            } else {
                format!("after {}", sans[..ply].join(" "))
            };
            let _ = writeln!(out, "  ply {ply} ({after}):");
            for (text, n) in seen {
                if n > 1 {
                    let _ = writeln!(out, "    {text}  (x{n})");
                } else {
                    let _ = writeln!(out, "    {text}");
                }
            }
        }
    }
    if trace.truncated {
        let _ = writeln!(out, "(the trace stopped at its event limit)");
    }
    out
}

/// `lull why`. Exit code 2 for a bad position, line or option.
pub fn run(args: WhyArgs) -> ExitCode {
    let pos = match position_from_words(&args.position, "") {
        Ok(p) => p,
        Err(e) => return fail(2, e),
    };
    let line = match parse_line(&pos, &args.line) {
        Ok(l) => l,
        Err(e) => return fail(2, e),
    };
    let mut engine = quiet_engine(args.hash as usize);
    if let Err(e) = apply_engine_options(&mut engine, &args.options) {
        return fail(2, e);
    }
    match engine.search_why(&pos, &Limits::depth(args.depth), &line) {
        Ok((result, trace)) => {
            print!("{}", render(&pos, &line, &result, &trace, args.trace));
            ExitCode::SUCCESS
        }
        Err(e) => fail(2, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAC1: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";

    #[test]
    fn lines_parse_in_san_and_uci_and_bad_ones_are_named() {
        let pos = Position::from_fen(WAC1).unwrap();
        let a = parse_line(&pos, "Qg6 fxg6 Nxg6#").unwrap();
        let b = parse_line(&pos, "g3g6 f7g6 e5g6").unwrap();
        assert_eq!(a, b);
        let err = parse_line(&pos, "Qg6 Qxg6").unwrap_err();
        assert!(err.starts_with("move 2 of the line, 'Qxg6'"), "{err}");
        assert!(parse_line(&pos, "  ").is_err());
    }

    #[test]
    fn the_trace_follows_the_line_and_names_what_happened() {
        let pos = Position::from_fen(WAC1).unwrap();
        let line = parse_line(&pos, "Qg6 fxg6 Nxg6").unwrap();
        let mut engine = quiet_engine(16);
        let (result, trace) = engine.search_why(&pos, &Limits::depth(6), &line).unwrap();
        assert_eq!(result.depth, 6);
        // Every iteration visits the root, which is on the line, and tries Qg6 there.
        for it in 1..=6 {
            assert!(
                trace.events.iter().any(|e| e.iteration == it
                    && e.ply == 0
                    && matches!(
                        e.kind,
                        WhyKind::Searched { .. }
                            | WhyKind::Reduced { .. }
                            | WhyKind::CutBefore { .. }
                    )),
                "iteration {it}"
            );
        }
        // The line's nodes further down are reached too (Black's answer after Qg6).
        assert!(trace.events.iter().any(|e| e.ply == 1));
        assert!(trace.events.iter().all(|e| e.ply <= line.len()));
        // The same search without watching gives the same tree.
        let mut plain = quiet_engine(16);
        let r = plain.search(&pos, &Limits::depth(6), &[]);
        assert_eq!(r.nodes, result.nodes);
        assert_eq!(r.best_move, result.best_move);
        let text = render(&pos, &line, &result, &trace, false);
        assert!(text.starts_with("Line: Qg6 fxg6 Nxg6#\n"), "{text}");
        assert!(text.contains("iteration 6: root"), "{text}");
        assert!(text.contains("  ply 1 (after Qg6):"), "{text}");
        // An illegal line is refused.
        let bad = vec![line[1]];
        assert!(engine.search_why(&pos, &Limits::depth(2), &bad).is_err());
        // The engine keeps its thread count.
        assert_eq!(engine.threads(), 1);
    }
}

//! `lull why`: why the search did not find a line. A position and a line of moves (the key
//! move of a tactic and its answers) are given; the search runs as usual, on one thread, and
//! at every node of the line it notes what became of the node and of the line's next move
//! (see [`crate::search::why`]). The report says, iteration by iteration and ply by ply, what
//! hid the line: a TT cutoff, razoring, reverse futility, a null move, ProbCut, late-move pruning, futility,
//! history or SEE pruning, a reduction, or an earlier move that cut the node off.

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
        WhyKind::Razored { eval, margin } => format!(
            "razoring (eval {} + margin {margin} at or below alpha, and no capture lifts it)",
            score(eval)
        ),
        WhyKind::NullMove { score: s } => format!("null-move cutoff ({})", score(s)),
        WhyKind::ProbCut { score: s } => format!("ProbCut ({})", score(s)),
        WhyKind::LateMovePruned {
            quiets_tried,
            limit,
        } => format!("{mv} late-move pruned ({quiets_tried} quiets tried, limit {limit})"),
        WhyKind::Futility { eval, margin } => format!(
            "{mv} futility pruned: eval {} + margin {margin} <= alpha",
            score(eval)
        ),
        WhyKind::HistoryPruned { history, limit } => {
            format!("{mv} history pruned: history {history} < {limit}")
        }
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

/// What ended the line in the last iteration, by kind (see [`diagnose`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Cause {
    /// Reverse futility pruning at a node of the line.
    ReverseFutility,
    /// A null-move cutoff at a node of the line.
    NullMove,
    /// ProbCut ended a node of the line.
    ProbCut,
    /// Razoring ended a node of the line.
    Razoring,
    /// A transposition-table cutoff at a node of the line.
    TtCutoff,
    /// The line's move was dropped by late-move pruning.
    LateMovePruning,
    /// The line's move was dropped by futility pruning.
    Futility,
    /// The line's move was dropped by history pruning.
    History,
    /// The line's move was dropped by SEE pruning.
    See,
    /// The node of the line was at the horizon before the line's end (the quiescence search
    /// took over).
    Horizon,
    /// Another move cut the node off before the line's move was tried.
    CutOff,
    /// A draw by rule or mate distance pruning at a node of the line.
    DrawOrMateDistance,
    /// The search never came to this node of the line in the last iteration.
    NotReached,
    /// The line was searched to its end: what hid it lies off the line (a defence or an
    /// alternative the line does not show).
    LineEnd,
}

impl Cause {
    /// Every cause, in the order the summary lists them.
    pub const ALL: [Cause; 14] = [
        Cause::ReverseFutility,
        Cause::NullMove,
        Cause::ProbCut,
        Cause::Razoring,
        Cause::TtCutoff,
        Cause::LateMovePruning,
        Cause::Futility,
        Cause::History,
        Cause::See,
        Cause::Horizon,
        Cause::CutOff,
        Cause::DrawOrMateDistance,
        Cause::NotReached,
        Cause::LineEnd,
    ];

    /// The cause in a few words.
    pub fn name(self) -> &'static str {
        match self {
            Cause::ReverseFutility => "reverse futility",
            Cause::NullMove => "null move",
            Cause::ProbCut => "ProbCut",
            Cause::Razoring => "razoring",
            Cause::TtCutoff => "TT cutoff",
            Cause::LateMovePruning => "late-move pruning",
            Cause::Futility => "futility pruning",
            Cause::History => "history pruning",
            Cause::See => "SEE pruning",
            Cause::Horizon => "horizon (quiescence)",
            Cause::CutOff => "another move cut off first",
            Cause::DrawOrMateDistance => "draw or mate distance",
            Cause::NotReached => "node not reached",
            Cause::LineEnd => "searched to the line's end",
        }
    }
}

/// Where and why a line was lost in the last iteration of a search: the reductions of the
/// line's moves that stood on the way down, then the event that ended it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnosis {
    /// The iteration read: the last one that came to the root.
    pub iteration: i32,
    /// Reductions of the line's moves that were not re-searched at full depth: (ply of the
    /// node, plies of reduction, the move's place in the move order).
    pub reductions: Vec<(usize, i32, usize)>,
    /// The ply of the node where the line ended.
    pub ply: usize,
    /// The depth left at that node.
    pub depth: i32,
    /// What ended it.
    pub cause: Cause,
    /// The whole story in words: the reductions, then the end.
    pub text: String,
}

/// Whether an event ends a visit of its node: a cutoff of the node itself, or its result.
fn ends_visit(kind: &WhyKind) -> bool {
    matches!(
        kind,
        WhyKind::Horizon { .. }
            | WhyKind::Draw
            | WhyKind::MateDistance
            | WhyKind::TtCutoff { .. }
            | WhyKind::ReverseFutility { .. }
            | WhyKind::NullMove { .. }
            | WhyKind::ProbCut { .. }
            | WhyKind::Razored { .. }
            | WhyKind::Result { .. }
    )
}

/// Reads a trace the way a person reads `lull why`: in the last iteration, ply by ply down
/// the line, the last visit of each node decides. A cutoff of the node (reverse futility, a
/// null move, the TT, the horizon) or a pruning of the line's move ends the line there; a
/// reduction that was not re-searched is noted and the walk goes on to the child; a move
/// searched in full goes on too. `None` when the trace holds no iteration.
pub fn diagnose(pos: &Position, line: &[Move], trace: &WhyTrace) -> Option<Diagnosis> {
    let iteration = trace
        .events
        .iter()
        .filter(|e| e.ply == 0)
        .map(|e| e.iteration)
        .max()?;
    let mut boards = vec![pos.board().clone()];
    let mut p = pos.clone();
    for &mv in line {
        p.play(mv);
        boards.push(p.board().clone());
    }
    let san_at = |ply: usize, mv: Move| move_to_san(&boards[ply], mv);
    let mut reductions = Vec::new();
    let mut story: Vec<String> = Vec::new();
    let mut last_depth = 0;
    for ply in 0..=line.len() {
        let events: Vec<&WhyEvent> = trace
            .events
            .iter()
            .filter(|e| e.iteration == iteration && e.ply == ply)
            .collect();
        let at = if ply == 0 {
            "the root".to_string()
        } else {
            format!("ply {ply}")
        };
        let finish = |cause: Cause,
                      depth: i32,
                      what: String,
                      mut story: Vec<String>,
                      reductions: Vec<(usize, i32, usize)>| {
            story.push(format!("{at} d{depth}: {what}"));
            Some(Diagnosis {
                iteration,
                reductions,
                ply,
                depth,
                cause,
                text: story.join(" -> "),
            })
        };
        if ply == line.len() {
            // The line's last position was reached (a mate there leaves no event at all).
            let depth = events.last().map_or(last_depth - 1, |e| e.depth);
            // What the root made of the line's first move, against the move it preferred.
            let root = |f: &dyn Fn(&WhyKind) -> Option<String>| {
                trace
                    .events
                    .iter()
                    .rev()
                    .filter(|e| e.iteration == iteration && e.ply == 0)
                    .find_map(|e| f(&e.kind))
            };
            let key = root(&|k| match *k {
                WhyKind::Searched { score, .. } => Some(signed_score_text(score)),
                _ => None,
            });
            let best = root(&|k| match *k {
                WhyKind::Result {
                    score,
                    best: Some(b),
                } => Some(format!("{} {}", san_at(0, b), signed_score_text(score))),
                _ => None,
            });
            let what = match (key, best) {
                (Some(k), Some(b)) => format!(
                    "the line's end (at the root {} scored {k}; best {b})",
                    san_at(0, line[0])
                ),
                _ => "the line's end".to_string(),
            };
            return finish(Cause::LineEnd, depth, what, story, reductions);
        }
        // The last visit: the events after the previous visit's end, up to the last end.
        let last_end = events.iter().rposition(|e| ends_visit(&e.kind));
        let Some(last_end) = last_end else {
            return finish(
                Cause::NotReached,
                last_depth - 1,
                "not reached".to_string(),
                story,
                reductions,
            );
        };
        let start = events[..last_end]
            .iter()
            .rposition(|e| ends_visit(&e.kind))
            .map_or(0, |i| i + 1);
        let visit = &events[start..=last_end];
        let end = visit[visit.len() - 1];
        last_depth = end.depth;
        let line_san = line.get(ply).map(|&m| san_at(ply, m));
        let text = |kind: &WhyKind| describe(kind, line_san.as_deref(), |m| san_at(ply, m));
        let node_cause = match end.kind {
            WhyKind::ReverseFutility { .. } => Some(Cause::ReverseFutility),
            WhyKind::NullMove { .. } => Some(Cause::NullMove),
            WhyKind::ProbCut { .. } => Some(Cause::ProbCut),
            WhyKind::Razored { .. } => Some(Cause::Razoring),
            WhyKind::TtCutoff { .. } => Some(Cause::TtCutoff),
            WhyKind::Horizon { .. } => Some(Cause::Horizon),
            WhyKind::Draw | WhyKind::MateDistance => Some(Cause::DrawOrMateDistance),
            _ => None,
        };
        if let Some(cause) = node_cause {
            return finish(cause, end.depth, text(&end.kind), story, reductions);
        }
        // The node was searched: what became of the line's move in this visit.
        let is_fate = |e: &&&WhyEvent| {
            matches!(
                e.kind,
                WhyKind::Reduced { .. }
                    | WhyKind::Searched { .. }
                    | WhyKind::LateMovePruned { .. }
                    | WhyKind::Futility { .. }
                    | WhyKind::HistoryPruned { .. }
                    | WhyKind::SeePruned
                    | WhyKind::CutBefore { .. }
            )
        };
        let Some(at_fate) = visit.iter().rposition(|e| is_fate(&e)) else {
            return finish(
                Cause::NotReached,
                end.depth,
                "the line's move was not tried".to_string(),
                story,
                reductions,
            );
        };
        let fate = visit[at_fate];
        let pruned = match fate.kind {
            WhyKind::LateMovePruned { .. } => Some(Cause::LateMovePruning),
            WhyKind::Futility { .. } => Some(Cause::Futility),
            WhyKind::HistoryPruned { .. } => Some(Cause::History),
            WhyKind::SeePruned => Some(Cause::See),
            WhyKind::CutBefore { .. } => Some(Cause::CutOff),
            _ => None,
        };
        if let Some(cause) = pruned {
            return finish(cause, fate.depth, text(&fate.kind), story, reductions);
        }
        // A reduction stood when it is the move's last word, or when the reduced search
        // before its full search did not beat alpha (so no re-search at full depth followed).
        let stood = match fate.kind {
            WhyKind::Reduced { .. } => Some(fate),
            _ => visit[..at_fate]
                .iter()
                .rev()
                .find(|e| is_fate(e))
                .copied()
                .filter(|e| matches!(e.kind, WhyKind::Reduced { score, .. } if score <= e.alpha)),
        };
        if let Some(e) = stood {
            if let WhyKind::Reduced { r, order, .. } = e.kind {
                reductions.push((ply, r, order));
                story.push(format!("{at} d{}: {}", e.depth, text(&e.kind)));
            }
        }
    }
    None
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

    #[test]
    fn a_diagnosis_names_the_reduction_and_the_pruning_that_hid_the_line() {
        // WAC.001 at depth 5: Qg6 is reduced by 3 at the root (move 51), and Black's node
        // after it, a queen up at depth 1, is cut by reverse futility.
        let pos = Position::from_fen(WAC1).unwrap();
        let line = parse_line(&pos, "Qg6 fxg6 Nxg6#").unwrap();
        let mut engine = quiet_engine(16);
        let (_, trace) = engine.search_why(&pos, &Limits::depth(5), &line).unwrap();
        let d = diagnose(&pos, &line, &trace).unwrap();
        assert_eq!(d.iteration, 5);
        assert_eq!(d.reductions, vec![(0, 3, 51)]);
        assert_eq!((d.ply, d.depth, d.cause), (1, 1, Cause::ReverseFutility));
        assert_eq!(
            d.text,
            "the root d5: Qg6 (move #51) reduced by 3: -456 -> ply 1 d1: reverse futility: \
             eval +1031 - margin 75 >= beta"
        );
        // A line the search follows to its end: the back-rank mate, nothing hides it.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let line = parse_line(&pos, "Rd8#").unwrap();
        let (_, trace) = engine.search_why(&pos, &Limits::depth(3), &line).unwrap();
        let d = diagnose(&pos, &line, &trace).unwrap();
        assert_eq!((d.ply, d.cause), (1, Cause::LineEnd));
        assert_eq!(
            d.text,
            "ply 1 d2: the line's end (at the root Rd8# scored +M1; best Rd8# +M1)"
        );
        assert!(d.reductions.is_empty());
        // No iteration, no diagnosis.
        assert_eq!(diagnose(&pos, &line, &WhyTrace::default()), None);
    }
}

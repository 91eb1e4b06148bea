//! The parameters of `go`: the search limits, the search moves, and what was wrong with the
//! line. A bad search parameter is a warning (the search still runs), a value out of range
//! is clamped, an unknown parameter skipped.

use super::command::UciCommand;
use crate::options::is_integer;
use crate::params::MAX_DEPTH;
use crate::position::shorten as truncate;
use crate::protocol::MAX_GO_MS;
use crate::time::Limits;

/// The parameters of `go`: the search limits (times in milliseconds), the search moves and
/// what was wrong with the line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Clocks, increments, depth, nodes, mate, movetime, infinite, ponder.
    pub limits: Limits,
    /// The words after `searchmoves` (checked against the position when carried out).
    pub searchmoves: Vec<String>,
    /// Problems that do not stop the search (a bad value ignored or clamped, an unknown
    /// parameter skipped), each with the number of search moves read before it, so that
    /// they are reported in line order among the search moves found illegal.
    pub warnings: Vec<(usize, String)>,
}

impl GoParams {
    fn warn(&mut self, what: String) {
        self.warnings.push((self.searchmoves.len(), what));
    }
}

/// `go perft <depth>`, or `go` with its search parameters. Only a bad perft depth is an
/// error: a bad search parameter is a warning, and the search still runs.
pub(super) fn parse_go(args: &[&str]) -> Result<UciCommand, String> {
    if args.first() == Some(&"perft") {
        return match args.get(1).map(|d| d.parse::<u32>()) {
            Some(Ok(depth)) if (1..=10).contains(&depth) => Ok(UciCommand::GoPerft { depth }),
            _ => Err("go perft needs a depth from 1 to 10".to_string()),
        };
    }
    let mut p = GoParams::default();
    let mut i = 0;
    let max_depth = MAX_DEPTH as u64;
    while i < args.len() {
        let key = args[i];
        // A keyword where a value should be is the next parameter, not a bad value.
        let mut consumed = if args.get(i + 1).is_some_and(|t| is_go_keyword(t)) {
            1
        } else {
            2
        };
        match key {
            "wtime" => p.limits.wtime = go_number(&mut p, args, i, 0, MAX_GO_MS).or(p.limits.wtime),
            "btime" => p.limits.btime = go_number(&mut p, args, i, 0, MAX_GO_MS).or(p.limits.btime),
            "winc" => p.limits.winc = go_number(&mut p, args, i, 0, MAX_GO_MS).or(p.limits.winc),
            "binc" => p.limits.binc = go_number(&mut p, args, i, 0, MAX_GO_MS).or(p.limits.binc),
            "movetime" => {
                p.limits.movetime = go_number(&mut p, args, i, 0, MAX_GO_MS).or(p.limits.movetime)
            }
            // `movestogo 0` means no time control ahead (sudden death), as Stockfish reads it:
            // taken as the last move before one, it spent most of the clock on one move.
            "movestogo" => match go_number(&mut p, args, i, 0, u64::MAX) {
                Some(0) => p.limits.movestogo = None,
                n => p.limits.movestogo = n.or(p.limits.movestogo),
            },
            "nodes" => p.limits.nodes = go_number(&mut p, args, i, 1, u64::MAX).or(p.limits.nodes),
            "depth" => {
                p.limits.depth = go_number(&mut p, args, i, 1, max_depth)
                    .map(|n| n as i32)
                    .or(p.limits.depth)
            }
            "mate" => {
                p.limits.mate = go_number(&mut p, args, i, 1, max_depth)
                    .map(|n| n as i32)
                    .or(p.limits.mate)
            }
            "infinite" => {
                p.limits.infinite = true;
                consumed = 1;
            }
            "ponder" => {
                p.limits.ponder = true;
                consumed = 1;
            }
            "searchmoves" => {
                // The moves run to the next keyword (no keyword is a move).
                consumed = 1;
                while let Some(t) = args.get(i + consumed).filter(|t| !is_go_keyword(t)) {
                    p.searchmoves.push(t.to_string());
                    consumed += 1;
                }
            }
            other => {
                p.warn(format!(
                    "go: unknown parameter '{}' ignored",
                    truncate(other, 32)
                ));
                consumed = 1;
            }
        }
        i += consumed;
    }
    Ok(UciCommand::Go(p))
}

/// Reads the number after the `go` keyword at `args[i]`, within `min..=max`. A value outside
/// the range (negative, or too large for any use) is reported and clamped; a missing or
/// non-numeric one is reported and ignored. One warning at most.
fn go_number(p: &mut GoParams, args: &[&str], i: usize, min: u64, max: u64) -> Option<u64> {
    let key = args[i];
    let Some(&t) = args.get(i + 1).filter(|t| !is_go_keyword(t)) else {
        p.warn(format!("go: '{key}' needs a value"));
        return None;
    };
    if !is_integer(t) {
        p.warn(format!("go: {key} '{}' is not a number", truncate(t, 32)));
        return None;
    }
    let digits = t.trim_start_matches(['-', '+']);
    if t.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        p.warn(format!(
            "go: negative {key} {} taken as {min}",
            truncate(t, 32)
        ));
        return Some(min);
    }
    match digits.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Some(n),
        parsed => {
            let n = parsed.unwrap_or(u64::MAX).clamp(min, max);
            p.warn(format!(
                "go: {key} {} is out of range, clamped to {n}",
                truncate(t, 32)
            ));
            Some(n)
        }
    }
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "movetime"
            | "mate"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::uci::parse;

    #[test]
    fn go_parameters_are_typed() {
        let Ok(UciCommand::Go(p)) = parse(
            "go wtime 60000 btime 59000 winc 1000 binc 900 movestogo 20 depth 12 nodes 5000 \
             mate 3 movetime 250 infinite ponder searchmoves e2e4 d2d4",
        ) else {
            panic!("not a go");
        };
        assert_eq!(
            p,
            GoParams {
                limits: Limits {
                    wtime: Some(60_000),
                    btime: Some(59_000),
                    winc: Some(1000),
                    binc: Some(900),
                    movestogo: Some(20),
                    depth: Some(12),
                    nodes: Some(5000),
                    mate: Some(3),
                    movetime: Some(250),
                    infinite: true,
                    ponder: true,
                },
                searchmoves: vec!["e2e4".into(), "d2d4".into()],
                warnings: vec![],
            }
        );
        let limits = p.limits.clone();
        assert_eq!(
            (limits.wtime, limits.depth, limits.mate),
            (Some(60_000), Some(12), Some(3))
        );
        assert!(limits.infinite && limits.ponder);
        assert_eq!(parse("go"), Ok(UciCommand::Go(GoParams::default())));
    }

    /// The warnings of a `go` line, which must still parse.
    fn go_warnings(line: &str) -> (GoParams, Vec<String>) {
        let Ok(UciCommand::Go(p)) = parse(line) else {
            panic!("'{line}' is not a go");
        };
        let w = p.warnings.iter().map(|(_, w)| w.clone()).collect();
        (p, w)
    }

    #[test]
    fn bad_go_values_are_warnings_in_line_order() {
        let (p, w) = go_warnings("go depth abc nodes -5 wtime 99999999999999999999999 infinite");
        assert_eq!(
            w,
            [
                "go: depth 'abc' is not a number",
                "go: negative nodes -5 taken as 1",
                format!(
                    "go: wtime 99999999999999999999999 is out of range, clamped to {MAX_GO_MS}"
                )
                .as_str(),
            ]
        );
        assert_eq!(
            (p.limits.depth, p.limits.nodes, p.limits.wtime),
            (None, Some(1), Some(MAX_GO_MS))
        );
        assert!(p.limits.infinite);
        // A keyword where a value should be is the next parameter.
        let (p, w) = go_warnings("go movetime depth 3");
        assert_eq!(w, ["go: 'movetime' needs a value"]);
        assert_eq!((p.limits.movetime, p.limits.depth), (None, Some(3)));
        // `movestogo 0` is sudden death, without a warning.
        let (p, w) = go_warnings("go wtime 1000 movestogo 0");
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(p.limits.movestogo, None);
        let (p, w) = go_warnings("go depth 4 depth x");
        assert_eq!(w, ["go: depth 'x' is not a number"]);
        assert_eq!(p.limits.depth, Some(4));
        // Warnings keep their place among the search moves.
        let (p, w) = go_warnings("go searchmoves e2e4 bogus foo depth 2 searchmoves d2d4");
        assert!(w.is_empty());
        assert_eq!(p.searchmoves, ["e2e4", "bogus", "foo", "d2d4"]);
        let (p, _) = go_warnings("go searchmoves e2e4 zz 7 depth x searchmoves d2d4");
        assert_eq!(
            p.warnings,
            [(3, "go: depth 'x' is not a number".to_string())]
        );
        assert_eq!(p.searchmoves, ["e2e4", "zz", "7", "d2d4"]);
        let (p, _) = go_warnings("go frob searchmoves e2e4");
        assert_eq!(
            p.warnings,
            [(0, "go: unknown parameter 'frob' ignored".to_string())]
        );
    }

    #[test]
    fn long_and_many_go_values_are_warnings_of_bounded_length() {
        let long_word = "é".repeat(100_000);
        let (_, w) = go_warnings(&format!("go depth {long_word} {long_word}"));
        assert!(w.iter().all(|w| w.chars().count() < 100), "{w:?}");
        let many = format!("go{}", " searchmoves e2e4 wtime".repeat(20_000));
        let (p, w) = go_warnings(&many);
        assert_eq!(p.searchmoves.len(), 20_000);
        assert_eq!(w.len(), 20_000);
    }
}

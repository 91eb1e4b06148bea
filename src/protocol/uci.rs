//! The UCI skin of the session: parses UCI command lines, drives the [`Session`] and formats
//! its answers (`info` lines from the search's reports, `bestmove`, the `uci` option list).
//! Bad input never ends the engine: it gets one `info string error: …` line and the previous
//! state stays.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use cozy_chess::Move;

use super::session::{Joined, Session};
use super::{run_loop, say, Frontend, ENGINE_AUTHOR, ENGINE_NAME, MAX_GO_MS};
use crate::options::{is_integer, option_specs, parse_option};
use crate::params::{MATE, MATE_BOUND, MAX_DEPTH};
use crate::perft;
use crate::position::shorten as truncate;
use crate::position::{board_ascii, move_to_uci, Position};
use crate::search::{ReportSink, SearchReport, SearchResult};
use crate::time::Limits;

/// Largest `Hash` value, in MiB (the option table's, re-exported).
pub use crate::options::MAX_HASH;

/// Prints an error line.
fn error(what: &str) {
    say(&format!("info string error: {what}"));
}

/// The UCI skin: the session and the state of the running search that only UCI needs.
pub struct Uci {
    session: Session,
    /// Set by the search thread just before it prints its `bestmove`.
    answered: Arc<AtomicBool>,
    /// Whether the running search has no limit of its own (infinite, ponder, or no depth,
    /// node, time or clock limit): at end of input it is stopped rather than awaited.
    endless: bool,
}

impl Default for Uci {
    fn default() -> Self {
        Self::new()
    }
}

impl Frontend for Uci {
    fn handle(&mut self, line: &str) -> bool {
        Uci::handle(self, line)
    }

    fn unreadable(&mut self, why: &str) {
        error(why);
    }

    fn end_of_input(&mut self) {
        // Finish a bounded search, stop an endless one (nobody can send `stop` or `ponderhit`
        // any more), then exit.
        if self.endless || self.session.control().pondering.load(Ordering::Relaxed) {
            self.session.stop();
        }
        self.wait();
    }
}

impl Uci {
    /// A fresh session: start position, 16 MiB hash, one thread.
    pub fn new() -> Self {
        Self {
            session: Session::new(),
            answered: Arc::new(AtomicBool::new(false)),
            endless: false,
        }
    }

    /// Runs the loop on stdin until `quit` or end of input.
    pub fn run(&mut self) {
        run_loop(self);
    }

    /// Handles one command line. Returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line.is_empty() {
            error("empty line");
            return true;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let cmd = tokens[0];
        let args = &tokens[1..];
        match cmd {
            "uci" => cmd_uci(),
            "isready" => say("readyok"),
            "ucinewgame" => {
                if let Some(engine) = self.engine_idle("ucinewgame") {
                    engine.clear();
                }
            }
            "setoption" => self.cmd_setoption(args),
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "stop" => self.session.stop(),
            "ponderhit" => {
                self.session
                    .control()
                    .pondering
                    .store(false, Ordering::Relaxed);
            }
            "quit" => {
                self.session.stop();
                self.wait();
                return false;
            }
            "debug" | "register" => {}
            "d" => {
                let pos = &self.session.pos;
                say(&board_ascii(pos));
                say(&format!("Fen: {}", pos.fen()));
                say(&format!("Key: {:016x}", pos.hash()));
            }
            "eval" => say(&format!(
                "info string eval {} cp (side to move)",
                crate::eval::evaluate(self.session.pos.board())
            )),
            "bench" => {
                let depth = match args.first() {
                    None => crate::bench::BENCH_DEPTH,
                    Some(t) => match t.parse::<i32>() {
                        Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
                        _ => {
                            error(&format!(
                                "bench depth '{t}' is not a number from 1 to {MAX_DEPTH}"
                            ));
                            return true;
                        }
                    },
                };
                if let Some(engine) = self.engine_idle("bench") {
                    let r = crate::bench::run_bench(engine, depth, |_, _, _| {});
                    say(&format!("{} nodes {} nps", r.nodes, r.nps));
                }
            }
            _ => error(&format!("unknown command '{}'", truncate(cmd, 64))),
        }
        true
    }

    /// Whether a search is running and not about to end. A search that was told to stop, or
    /// stopped by itself (its thread sets the stop flag as it ends, and `answered` once it has
    /// printed `bestmove`), is as good as finished: commands wait for it instead of being
    /// refused, since a GUI may send them as soon as it reads `bestmove` or sends `stop`.
    fn search_running(&self) -> bool {
        self.session.search_running()
            && !self.answered.load(Ordering::Acquire)
            && !self.session.control().stop.load(Ordering::Relaxed)
    }

    /// Joins a running search, if any, and takes its engine back.
    fn wait(&mut self) {
        if let Some(Joined::Lost) = self.session.join() {
            // The search thread died (a bug): the session rebuilt the engine with the user's
            // options, so that the GUI can go on.
            error("search thread failed; engine state was reset");
        }
    }

    /// The engine if no search is running (reclaims a finished or finishing search);
    /// otherwise an error.
    fn engine_idle(&mut self, what: &str) -> Option<&mut crate::search::Engine> {
        if self.search_running() {
            error(&format!(
                "'{what}' ignored: a search is running (send 'stop' first)"
            ));
            return None;
        }
        self.wait();
        self.session.engine_mut()
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <name words…> [value <value words…>]
        let value_at = args.iter().position(|&t| t == "value");
        let name = args
            .get(1..value_at.unwrap_or(args.len()))
            .map(|words| words.join(" "))
            .unwrap_or_default();
        if args.first() != Some(&"name") || name.is_empty() {
            error("setoption needs 'name <option>'");
            return;
        }
        // `value` with nothing after it is no value.
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .filter(|v| !v.is_empty());
        // One parser for every option: the table in `options` checks the name and value.
        let (spec, value) = match parse_option(&name, value.as_deref()) {
            Ok(parsed) => parsed,
            Err(e) => {
                error(&e);
                return;
            }
        };
        if self.engine_idle("setoption").is_none() {
            return;
        }
        match self.session.set_option(&spec, value) {
            Ok(Some(info)) => say(&format!("info string {info}")),
            Ok(None) => {}
            Err(e) => error(&e),
        }
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::startpos(),
            Some(&"startpos") => {
                error("'position startpos' takes no further fields before 'moves'");
                return;
            }
            Some(&"fen") => {
                // The error names the problem ("rank 7 has 9 squares", "black is in check but
                // it is white to move", …) and quotes the FEN shortened.
                match Position::from_fen(&setup[1..].join(" ")) {
                    Ok(p) => p,
                    Err(e) => {
                        error(&e);
                        return;
                    }
                }
            }
            Some(other) => {
                error(&format!(
                    "position needs 'startpos' or 'fen', got '{}'",
                    truncate(other, 64)
                ));
                return;
            }
            None => {
                error("position needs 'startpos' or 'fen <FEN>'");
                return;
            }
        };
        pos.set_chess960(self.session.chess960);
        if let Some(i) = moves_at {
            for (n, text) in args[i + 1..].iter().enumerate() {
                match pos.parse_uci_move(text) {
                    Ok(mv) => pos.play(mv),
                    Err(e) => {
                        error(&format!(
                            "{} (move {} of the list); position unchanged",
                            truncate(&e, 80),
                            n + 1
                        ));
                        return;
                    }
                }
            }
        }
        self.session.pos = pos;
    }

    fn cmd_go(&mut self, args: &[&str]) {
        // Every `go` gets one `bestmove`: a search still running (the GUI did not send
        // `stop`) is stopped and answered first.
        if self.search_running() {
            error("'go' while a search is running: stopping that search first");
            self.session.stop();
        }
        self.wait();
        if args.first() == Some(&"perft") {
            self.go_perft(args.get(1).copied());
            return;
        }
        let mut limits = Limits::default();
        let mut searchmoves: Vec<Move> = Vec::new();
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
                "wtime" => limits.wtime = go_number(args, i, 0, MAX_GO_MS).or(limits.wtime),
                "btime" => limits.btime = go_number(args, i, 0, MAX_GO_MS).or(limits.btime),
                "winc" => limits.winc = go_number(args, i, 0, MAX_GO_MS).or(limits.winc),
                "binc" => limits.binc = go_number(args, i, 0, MAX_GO_MS).or(limits.binc),
                "movetime" => {
                    limits.movetime = go_number(args, i, 0, MAX_GO_MS).or(limits.movetime)
                }
                "movestogo" => {
                    limits.movestogo = go_number(args, i, 1, u64::MAX).or(limits.movestogo)
                }
                "nodes" => limits.nodes = go_number(args, i, 1, u64::MAX).or(limits.nodes),
                "depth" => {
                    limits.depth = go_number(args, i, 1, max_depth)
                        .map(|n| n as i32)
                        .or(limits.depth)
                }
                "mate" => {
                    limits.mate = go_number(args, i, 1, max_depth)
                        .map(|n| n as i32)
                        .or(limits.mate)
                }
                "infinite" => {
                    limits.infinite = true;
                    consumed = 1;
                }
                "ponder" => {
                    limits.ponder = true;
                    consumed = 1;
                }
                "searchmoves" => {
                    consumed = 1;
                    while let Some(t) = args.get(i + consumed) {
                        match self.session.pos.parse_uci_move(t) {
                            Ok(mv) => {
                                searchmoves.push(mv);
                                consumed += 1;
                            }
                            Err(_) if is_go_keyword(t) => break,
                            Err(e) => {
                                error(&format!("go searchmoves: {}", truncate(&e, 80)));
                                consumed += 1;
                            }
                        }
                    }
                }
                other => {
                    error(&format!(
                        "go: unknown parameter '{}' ignored",
                        truncate(other, 32)
                    ));
                    consumed = 1;
                }
            }
            i += consumed;
        }
        // A book move is played at once, without a search.
        let pos = &self.session.pos;
        if let Some(lines) = self
            .session
            .book
            .go_answer(pos, &limits, !searchmoves.is_empty())
        {
            for line in lines {
                say(&line);
            }
            return;
        }
        let own_clock = match pos.side_to_move() {
            cozy_chess::Color::White => limits.wtime,
            cozy_chess::Color::Black => limits.btime,
        };
        let endless = limits.infinite
            || limits.ponder
            || (limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none()
                && own_clock.is_none());
        let pos = pos.clone();
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = Arc::clone(&answered);
        let report = info_reporter(pos.clone());
        self.endless = endless;
        let started = self.session.start_search(
            pos,
            limits,
            searchmoves,
            Some(report),
            move |pos, result| {
                let line = match result {
                    Some(result) => {
                        say(&format!("info string {}", result.stats.summary_line()));
                        bestmove_line(pos, result)
                    }
                    None => {
                        // A bug in the search: the GUI still gets its move, and the session
                        // rebuilds the engine, whose tables may be half-written.
                        error("the search failed (internal error); playing a legal move");
                        fallback_bestmove(pos)
                    }
                };
                // Set before the GUI can read `bestmove` and answer with its next command,
                // which then waits for this thread instead of being refused.
                answered.store(true, Ordering::Release);
                say(&line);
            },
        );
        if let Err(e) = started {
            error(&format!("cannot start the search thread: {e}"));
            say(&fallback_bestmove(&self.session.pos));
        }
    }

    fn go_perft(&mut self, depth: Option<&str>) {
        let depth = match depth.map(|d| d.parse::<u32>()) {
            Some(Ok(d)) if (1..=10).contains(&d) => d,
            _ => {
                error("go perft needs a depth from 1 to 10");
                return;
            }
        };
        let mut pos = self.session.pos.clone();
        let start = std::time::Instant::now();
        let mut total = 0;
        for (mv, n) in perft::divide(&mut pos, depth) {
            say(&format!("{}: {n}", self.session.pos.move_to_uci(mv)));
            total += n;
        }
        let ms = start.elapsed().as_millis() as u64;
        say("");
        say(&format!("Nodes searched: {total}"));
        say(&format!("info string perft time {ms} ms"));
    }
}

/// Reads the number after the `go` keyword at `args[i]`, within `min..=max`. A value outside
/// the range (negative, or too large for any use) is reported and clamped; a missing or
/// non-numeric one is reported and ignored. One error line at most.
fn go_number(args: &[&str], i: usize, min: u64, max: u64) -> Option<u64> {
    let key = args[i];
    let Some(&t) = args.get(i + 1).filter(|t| !is_go_keyword(t)) else {
        error(&format!("go: '{key}' needs a value"));
        return None;
    };
    if !is_integer(t) {
        error(&format!("go: {key} '{}' is not a number", truncate(t, 32)));
        return None;
    }
    let digits = t.trim_start_matches(['-', '+']);
    if t.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        error(&format!(
            "go: negative {key} {} taken as {min}",
            truncate(t, 32)
        ));
        return Some(min);
    }
    match digits.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Some(n),
        parsed => {
            let n = parsed.unwrap_or(u64::MAX).clamp(min, max);
            error(&format!(
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

/// `bestmove <move> [ponder <move>]`, or `bestmove (none)` when there is no legal move.
pub fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    match result.best_move {
        None => "bestmove (none)".to_string(),
        Some(best) => {
            let mut line = format!("bestmove {}", pos.move_to_uci(best));
            if let Some(ponder) = result.ponder_move {
                let mut after = pos.board().clone();
                after.play_unchecked(best);
                if after.is_legal(ponder) {
                    line.push_str(&format!(
                        " ponder {}",
                        move_to_uci(&after, ponder, pos.chess960())
                    ));
                }
            }
            line
        }
    }
}

/// `bestmove` with the first legal move (or `(none)`), when no search result is available.
fn fallback_bestmove(pos: &Position) -> String {
    format!(
        "bestmove {}",
        pos.legal_moves()
            .first()
            .map_or("(none)".to_string(), |m| pos.move_to_uci(*m))
    )
}

/// The `uci` answer: name, author, the option table, `uciok`.
fn cmd_uci() {
    say(&format!("id name {ENGINE_NAME}"));
    say(&format!("id author {ENGINE_AUTHOR}"));
    for spec in option_specs() {
        say(&spec.uci_line());
    }
    say("uciok");
}

/// Formats a score for UCI: `cp N` or `mate N` (moves, negative when being mated).
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        // Mated now (no legal move at the root) is "mate 0", as Stockfish writes it.
        match (MATE + score + 1) / 2 {
            0 => "mate 0".to_string(),
            n => format!("mate -{n}"),
        }
    } else {
        format!("cp {score}")
    }
}

/// The `info` lines of a search report about `pos` (the searched position): one per line of
/// an iteration, `info depth 0 score …` when there is no legal move.
pub fn info_lines(pos: &Position, report: &SearchReport) -> Vec<String> {
    let r = match report {
        SearchReport::NoLegalMove { score } => {
            return vec![format!("info depth 0 score {}", uci_score(*score))];
        }
        SearchReport::Iteration(r) => r,
    };
    r.lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let mut board = pos.board().clone();
            let mut pv = String::new();
            for mv in &line.pv {
                pv.push(' ');
                pv.push_str(&move_to_uci(&board, *mv, pos.chess960()));
                board.play_unchecked(*mv);
            }
            format!(
                "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv{}",
                r.depth,
                r.seldepth,
                k + 1,
                uci_score(line.score),
                r.nodes,
                r.nps,
                r.hashfull,
                r.time_ms,
                pv
            )
        })
        .collect()
}

/// The report sink of a UCI search of `pos`: prints its `info` lines.
fn info_reporter(pos: Position) -> ReportSink {
    Arc::new(move |report: &SearchReport| {
        for line in info_lines(&pos, report) {
            say(&line);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{IterationReport, RootLine};

    #[test]
    fn scores_and_info_lines_follow_uci() {
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
        assert_eq!(uci_score(-MATE), "mate 0");
        let pos = Position::startpos();
        let mated = SearchReport::NoLegalMove { score: -MATE };
        assert_eq!(info_lines(&pos, &mated), ["info depth 0 score mate 0"]);
        let stalemate = SearchReport::NoLegalMove { score: 0 };
        assert_eq!(info_lines(&pos, &stalemate), ["info depth 0 score cp 0"]);
        let e2e4: Move = "e2e4".parse().unwrap();
        let e7e5: Move = "e7e5".parse().unwrap();
        let d2d4: Move = "d2d4".parse().unwrap();
        let report = SearchReport::Iteration(IterationReport {
            depth: 3,
            seldepth: 5,
            score: 20,
            nodes: 1000,
            nps: 50_000,
            time_ms: 20,
            hashfull: 7,
            pv: vec![e2e4, e7e5],
            lines: vec![
                RootLine {
                    score: 20,
                    pv: vec![e2e4, e7e5],
                },
                RootLine {
                    score: 10,
                    pv: vec![d2d4],
                },
            ],
        });
        assert_eq!(
            info_lines(&pos, &report),
            [
                "info depth 3 seldepth 5 multipv 1 score cp 20 nodes 1000 nps 50000 hashfull 7 \
                 time 20 pv e2e4 e7e5",
                "info depth 3 seldepth 5 multipv 2 score cp 10 nodes 1000 nps 50000 hashfull 7 \
                 time 20 pv d2d4"
            ]
        );
    }
}

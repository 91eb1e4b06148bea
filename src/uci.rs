//! The UCI front end: reads commands from stdin, runs the search on its own thread, answers
//! on stdout. Bad input never ends the engine: it gets one `info string error: …` line and the
//! previous state stays.

use std::io::{self, BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use cozy_chess::Move;

use crate::book::{is_book_option, BookState};
use crate::options::{apply_value, option_specs, parse_option, OptionScope, OptionValue};
use crate::params::MAX_DEPTH;
use crate::perft;
use crate::position::shorten as truncate;
use crate::position::{move_to_uci, Position};
use crate::search::{Control, Engine, SearchResult};
use crate::time::Limits;

/// Engine name and version, as sent by `id name`.
pub const ENGINE_NAME: &str = concat!("Lull ", env!("CARGO_PKG_VERSION"));
/// Author line.
pub const ENGINE_AUTHOR: &str = "the Lull developers";
/// Longest accepted input line, in bytes (a 1000-move game fits many times over).
pub const MAX_LINE: usize = 1 << 20;
/// Largest `Hash` value, in MiB (the option table's, re-exported).
pub use crate::options::MAX_HASH;
/// Largest time accepted in `go` (wtime, btime, winc, binc, movetime), in milliseconds: about
/// 31 years. Larger values are clamped, so that the time arithmetic cannot overflow.
pub const MAX_GO_MS: u64 = 1_000_000_000_000;

/// Prints one line to stdout and flushes it.
pub fn say(line: &str) {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Prints an error line.
fn error(what: &str) {
    say(&format!("info string error: {what}"));
}

/// Reads one line of at most `max` bytes. `Ok(None)` at end of input; an over-long line is
/// consumed to its end and reported as an error, as is invalid UTF-8.
pub fn read_line_bounded(
    reader: &mut impl BufRead,
    max: usize,
) -> io::Result<Option<Result<String, String>>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    let mut saw_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        if let Some(i) = available.iter().position(|&b| b == b'\n') {
            if !too_long && buf.len() + i <= max {
                buf.extend_from_slice(&available[..i]);
            } else {
                too_long = true;
            }
            reader.consume(i + 1);
            break;
        }
        let n = available.len();
        if !too_long && buf.len() + n <= max {
            buf.extend_from_slice(available);
        } else {
            too_long = true;
            buf.clear();
        }
        reader.consume(n);
    }
    if too_long {
        return Ok(Some(Err(format!("line longer than {max} bytes ignored"))));
    }
    Ok(Some(
        String::from_utf8(buf).map_err(|_| "line is not valid UTF-8".to_string()),
    ))
}

/// The UCI session state.
pub struct Uci {
    engine: Option<Engine>,
    search: Option<JoinHandle<Engine>>,
    control: Arc<Control>,
    /// Set by the search thread just before it prints its `bestmove`.
    answered: Arc<AtomicBool>,
    /// Whether the running search has no limit of its own (infinite, ponder, or no depth,
    /// node, time or clock limit): at end of input it is stopped rather than awaited.
    endless: bool,
    pos: Position,
    chess960: bool,
    ponder: bool,
    /// The opening book options and the loaded book.
    book: BookState,
}

impl Default for Uci {
    fn default() -> Self {
        Self::new()
    }
}

impl Uci {
    /// A fresh session: start position, 16 MiB hash, one thread.
    pub fn new() -> Self {
        let mut engine = Engine::new(16);
        engine.set_info_sink(Some(Arc::new(|line: &str| say(line))));
        let control = engine.control();
        Self {
            engine: Some(engine),
            search: None,
            control,
            answered: Arc::new(AtomicBool::new(false)),
            endless: false,
            pos: Position::startpos(),
            chess960: false,
            ponder: false,
            book: BookState::default(),
        }
    }

    /// Runs the loop on stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = io::stdin();
        let mut reader = stdin.lock();
        loop {
            match read_line_bounded(&mut reader, MAX_LINE) {
                Ok(None) | Err(_) => {
                    // End of input: finish a bounded search, stop an endless one (nobody can
                    // send `stop` or `ponderhit` any more), then exit.
                    if self.endless || self.control.pondering.load(Ordering::Relaxed) {
                        self.stop_search();
                    }
                    self.wait();
                    return;
                }
                Ok(Some(Err(e))) => error(&e),
                Ok(Some(Ok(line))) => {
                    if !self.handle(&line) {
                        return;
                    }
                }
            }
        }
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
            "uci" => self.cmd_uci(),
            "isready" => say("readyok"),
            "ucinewgame" => {
                if let Some(engine) = self.engine_idle("ucinewgame") {
                    engine.clear();
                }
            }
            "setoption" => self.cmd_setoption(args),
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "stop" => self.stop_search(),
            "ponderhit" => {
                self.control.pondering.store(false, Ordering::Relaxed);
            }
            "quit" => {
                self.stop_search();
                self.wait();
                return false;
            }
            "debug" | "register" => {}
            "d" => {
                say(&board_ascii(&self.pos));
                say(&format!("Fen: {}", self.pos.fen()));
                say(&format!("Key: {:016x}", self.pos.hash()));
            }
            "eval" => say(&format!(
                "info string eval {} cp (side to move)",
                crate::eval::evaluate(self.pos.board())
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
                    engine.set_info_sink(None);
                    let r = crate::bench::run_bench(engine, depth, |_, _, _| {});
                    engine.set_info_sink(Some(Arc::new(|line: &str| say(line))));
                    say(&format!("{} nodes {} nps", r.nodes, r.nps));
                }
            }
            _ => error(&format!("unknown command '{}'", truncate(cmd, 64))),
        }
        true
    }

    /// Tells a running search to end now (`stop`).
    fn stop_search(&self) {
        self.control.pondering.store(false, Ordering::Relaxed);
        self.control.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a search is running and not about to end. A search that was told to stop, or
    /// stopped by itself (its thread sets the stop flag as it ends, and `answered` once it has
    /// printed `bestmove`), is as good as finished: commands wait for it instead of being
    /// refused, since a GUI may send them as soon as it reads `bestmove` or sends `stop`.
    fn search_running(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished())
            && !self.answered.load(Ordering::Acquire)
            && !self.control.stop.load(Ordering::Relaxed)
    }

    /// Joins a running search, if any, and takes its engine back.
    fn wait(&mut self) {
        if let Some(handle) = self.search.take() {
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    // The search thread panicked (a bug): keep the engine alive with a fresh
                    // state so that the GUI can go on.
                    error("search thread failed; engine state was reset");
                    let mut engine = Engine::new(16);
                    engine.set_info_sink(Some(Arc::new(|line: &str| say(line))));
                    self.control = engine.control();
                    self.engine = Some(engine);
                }
            }
        }
    }

    /// The engine if no search is running (reclaims a finished or finishing search);
    /// otherwise an error.
    fn engine_idle(&mut self, what: &str) -> Option<&mut Engine> {
        if self.search_running() {
            error(&format!(
                "'{what}' ignored: a search is running (send 'stop' first)"
            ));
            return None;
        }
        self.wait();
        self.engine.as_mut()
    }

    fn cmd_uci(&self) {
        say(&format!("id name {ENGINE_NAME}"));
        say(&format!("id author {ENGINE_AUTHOR}"));
        for spec in option_specs() {
            say(&spec.uci_line());
        }
        say("uciok");
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
        let Some(engine) = self.engine_idle("setoption") else {
            return;
        };
        if spec.scope == OptionScope::Engine {
            if let Err(e) = apply_value(engine, &spec, value) {
                error(&e);
            }
            return;
        }
        // The front end's own options.
        match (spec.name, value) {
            ("Ponder", OptionValue::Bool(b)) => self.ponder = b,
            ("UCI_Chess960", OptionValue::Bool(b)) => {
                self.chess960 = b;
                self.pos.set_chess960(b);
            }
            (name, value) if is_book_option(name) => match self.book.set_option(name, value) {
                Ok(Some(info)) => say(&format!("info string {info}")),
                Ok(None) => {}
                Err(e) => error(&e),
            },
            (name, _) => error(&format!("option '{name}' cannot take that value")),
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
        pos.set_chess960(self.chess960);
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
        self.pos = pos;
    }

    fn cmd_go(&mut self, args: &[&str]) {
        // Every `go` gets one `bestmove`: a search still running (the GUI did not send
        // `stop`) is stopped and answered first.
        if self.search_running() {
            error("'go' while a search is running: stopping that search first");
            self.stop_search();
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
                        match self.pos.parse_uci_move(t) {
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
        if let Some(lines) = self
            .book
            .go_answer(&self.pos, &limits, !searchmoves.is_empty())
        {
            for line in lines {
                say(&line);
            }
            return;
        }
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let own_clock = match self.pos.side_to_move() {
            cozy_chess::Color::White => limits.wtime,
            cozy_chess::Color::Black => limits.btime,
        };
        self.endless = limits.infinite
            || limits.ponder
            || (limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none()
                && own_clock.is_none());
        let pos = self.pos.clone();
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = Arc::clone(&answered);
        self.control.stop.store(false, Ordering::Relaxed);
        self.control
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let handle = std::thread::Builder::new()
            .name("lull-search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    engine.search_keep_flags(&pos, &limits, &searchmoves)
                }));
                let line = match outcome {
                    Ok(result) => {
                        say(&format!("info string {}", result.stats.summary_line()));
                        bestmove_line(&pos, &result)
                    }
                    Err(_) => {
                        // A bug in the search: the GUI still gets its move, and the tables,
                        // possibly half-written, are cleared.
                        error("the search failed (internal error); playing a legal move");
                        engine.clear();
                        fallback_bestmove(&pos)
                    }
                };
                // Set before the GUI can read `bestmove` and answer with its next command,
                // which then waits for this thread instead of being refused.
                answered.store(true, Ordering::Release);
                say(&line);
                engine
            });
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                error(&format!("cannot start the search thread: {e}"));
                // The engine moved into the failed closure is gone: start afresh.
                let mut engine = Engine::new(16);
                engine.set_info_sink(Some(Arc::new(|line: &str| say(line))));
                self.control = engine.control();
                self.engine = Some(engine);
                say(&fallback_bestmove(&self.pos));
            }
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
        let mut pos = self.pos.clone();
        let start = std::time::Instant::now();
        let mut total = 0;
        for (mv, n) in perft::divide(&mut pos, depth) {
            say(&format!("{}: {n}", self.pos.move_to_uci(mv)));
            total += n;
        }
        let ms = start.elapsed().as_millis() as u64;
        say("");
        say(&format!("Nodes searched: {total}"));
        say(&format!("info string perft time {ms} ms"));
    }
}

/// Whether `t` is an optionally signed run of decimal digits (of any length).
fn is_integer(t: &str) -> bool {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
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
    fn bounded_reader_handles_long_lines_crlf_and_eof() {
        let data = b"isready\r\nxxxxxxxxxxxxxxxxxxxx\nquit".to_vec();
        let mut r = io::BufReader::with_capacity(4, &data[..]);
        assert_eq!(
            read_line_bounded(&mut r, 10).unwrap(),
            Some(Ok("isready\r".into()))
        );
        assert!(read_line_bounded(&mut r, 10).unwrap().unwrap().is_err());
        assert_eq!(
            read_line_bounded(&mut r, 10).unwrap(),
            Some(Ok("quit".into()))
        );
        assert_eq!(read_line_bounded(&mut r, 10).unwrap(), None);
        let bad = [0xffu8, 0xfe, b'\n'];
        let mut r = io::BufReader::new(&bad[..]);
        assert!(read_line_bounded(&mut r, 10).unwrap().unwrap().is_err());
    }

    #[test]
    fn ascii_board_shows_pieces() {
        let s = board_ascii(&Position::startpos());
        assert!(s.contains("| r | n | b | q | k | b | n | r | 8"));
        assert!(s.contains("| R | N | B | Q | K | B | N | R | 1"));
    }
}

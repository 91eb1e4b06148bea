//! The UCI front end: reads commands from stdin, runs the search on its own thread, answers
//! on stdout. Bad input never ends the engine: it gets one `info string error: …` line and the
//! previous state stays.

use std::io::{self, BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

use cozy_chess::Move;

use crate::params::MAX_DEPTH;
use crate::perft;
use crate::position::{move_to_uci, Position};
use crate::search::{Control, Engine, QSearchOptions, SearchResult};
use crate::time::Limits;

/// Engine name and version, as sent by `id name`.
pub const ENGINE_NAME: &str = concat!("Lull ", env!("CARGO_PKG_VERSION"));
/// Author line.
pub const ENGINE_AUTHOR: &str = "the Lull developers";
/// Longest accepted input line, in bytes (a 1000-move game fits many times over).
pub const MAX_LINE: usize = 1 << 20;
/// Largest `Hash` value, in MiB.
pub const MAX_HASH: i64 = 16_384;

/// One UCI option: name, type and range, as announced by `uci`.
enum OptKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
}

struct OptSpec {
    name: &'static str,
    kind: OptKind,
}

fn option_specs() -> Vec<OptSpec> {
    let q = QSearchOptions::default();
    let spin = |name, default: i64, min, max| OptSpec {
        name,
        kind: OptKind::Spin { default, min, max },
    };
    let check = |name, default| OptSpec {
        name,
        kind: OptKind::Check { default },
    };
    vec![
        spin("Hash", 16, 1, MAX_HASH),
        spin("Threads", 1, 1, 256),
        spin(
            "Move Overhead",
            crate::params::MOVE_OVERHEAD as i64,
            0,
            5000,
        ),
        OptSpec {
            name: "Clear Hash",
            kind: OptKind::Button,
        },
        check("Ponder", false),
        check("UCI_Chess960", false),
        check("QSearch", q.enabled),
        spin("QSearchMaxPly", q.max_ply as i64, 0, 100),
        spin("QSearchMaxNodes", q.max_nodes as i64, 0, 1_000_000_000),
        spin("QSearchChecks", q.check_plies as i64, 0, 8),
        spin("QSearchSEE", q.see_threshold as i64, -10_000, 1000),
        spin("QSearchDelta", q.delta_margin as i64, 0, 2000),
        check("QSearchTT", q.use_tt),
        check("QSearchUnderpromotions", q.underpromotions),
        check("QSearchPawnPushes", q.pawn_pushes),
        spin("QSearchRecapturesAfter", q.recaptures_after as i64, 0, 32),
        spin("QSearchNullMove", q.null_move as i64, 0, 2),
    ]
}

/// Prints one line to stdout and flushes it.
fn say(line: &str) {
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
    pos: Position,
    chess960: bool,
    ponder: bool,
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
            pos: Position::startpos(),
            chess960: false,
            ponder: false,
        }
    }

    /// Runs the loop on stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = io::stdin();
        let mut reader = stdin.lock();
        loop {
            match read_line_bounded(&mut reader, MAX_LINE) {
                Ok(None) | Err(_) => {
                    // End of input: finish a bounded search, stop an endless one, then exit.
                    if self.control.pondering.load(Ordering::Relaxed) {
                        self.control.pondering.store(false, Ordering::Relaxed);
                        self.control.stop.store(true, Ordering::Relaxed);
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
            "stop" => {
                self.control.pondering.store(false, Ordering::Relaxed);
                self.control.stop.store(true, Ordering::Relaxed);
            }
            "ponderhit" => {
                self.control.pondering.store(false, Ordering::Relaxed);
            }
            "quit" => {
                self.control.pondering.store(false, Ordering::Relaxed);
                self.control.stop.store(true, Ordering::Relaxed);
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

    /// The engine if no search is running (reclaims a finished search); otherwise an error.
    fn engine_idle(&mut self, what: &str) -> Option<&mut Engine> {
        if let Some(handle) = &self.search {
            if !handle.is_finished() {
                error(&format!(
                    "'{what}' ignored: a search is running (send 'stop' first)"
                ));
                return None;
            }
            self.wait();
        }
        self.engine.as_mut()
    }

    fn cmd_uci(&self) {
        say(&format!("id name {ENGINE_NAME}"));
        say(&format!("id author {ENGINE_AUTHOR}"));
        for spec in option_specs() {
            let line = match spec.kind {
                OptKind::Spin { default, min, max } => format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    spec.name
                ),
                OptKind::Check { default } => {
                    format!("option name {} type check default {default}", spec.name)
                }
                OptKind::Button => format!("option name {} type button", spec.name),
            };
            say(&line);
        }
        say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <name words…> [value <value words…>]
        if args.first() != Some(&"name") {
            error("setoption needs 'name <option>'");
            return;
        }
        let value_at = args.iter().position(|&t| t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let Some(spec) = option_specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(&name))
        else {
            error(&format!("unknown option '{}'", truncate(&name, 64)));
            return;
        };
        enum Parsed {
            Int(i64),
            Bool(bool),
            Press,
        }
        let parsed = match spec.kind {
            OptKind::Spin { min, max, .. } => {
                let Some(v) = value.as_deref() else {
                    error(&format!("option '{}' needs a value", spec.name));
                    return;
                };
                match v.trim().parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Parsed::Int(n),
                    Ok(n) => {
                        error(&format!(
                            "value {n} for option '{}' is out of range {min}..{max}",
                            spec.name
                        ));
                        return;
                    }
                    Err(_) => {
                        error(&format!(
                            "value '{}' for option '{}' is not an integer",
                            truncate(v, 64),
                            spec.name
                        ));
                        return;
                    }
                }
            }
            OptKind::Check { .. } => match value.as_deref().map(str::trim) {
                Some(v) if v.eq_ignore_ascii_case("true") => Parsed::Bool(true),
                Some(v) if v.eq_ignore_ascii_case("false") => Parsed::Bool(false),
                other => {
                    error(&format!(
                        "value '{}' for option '{}' must be true or false",
                        truncate(other.unwrap_or(""), 64),
                        spec.name
                    ));
                    return;
                }
            },
            OptKind::Button => Parsed::Press,
        };
        let name = spec.name;
        let Some(engine) = self.engine_idle("setoption") else {
            return;
        };
        let qs = &mut engine.options.qs;
        match (name, parsed) {
            ("Hash", Parsed::Int(n)) => {
                if let Err(e) = engine.set_hash(n as usize) {
                    error(&e);
                }
            }
            ("Threads", Parsed::Int(n)) => engine.set_threads(n as usize),
            ("Move Overhead", Parsed::Int(n)) => engine.options.move_overhead = n as u64,
            ("Clear Hash", Parsed::Press) => engine.clear(),
            ("Ponder", Parsed::Bool(b)) => self.ponder = b,
            ("UCI_Chess960", Parsed::Bool(b)) => {
                self.chess960 = b;
                self.pos.set_chess960(b);
            }
            ("QSearch", Parsed::Bool(b)) => qs.enabled = b,
            ("QSearchMaxPly", Parsed::Int(n)) => qs.max_ply = n as i32,
            ("QSearchMaxNodes", Parsed::Int(n)) => qs.max_nodes = n as u64,
            ("QSearchChecks", Parsed::Int(n)) => qs.check_plies = n as i32,
            ("QSearchSEE", Parsed::Int(n)) => qs.see_threshold = n as i32,
            ("QSearchDelta", Parsed::Int(n)) => qs.delta_margin = n as i32,
            ("QSearchTT", Parsed::Bool(b)) => qs.use_tt = b,
            ("QSearchUnderpromotions", Parsed::Bool(b)) => qs.underpromotions = b,
            ("QSearchPawnPushes", Parsed::Bool(b)) => qs.pawn_pushes = b,
            ("QSearchRecapturesAfter", Parsed::Int(n)) => qs.recaptures_after = n as i32,
            ("QSearchNullMove", Parsed::Int(n)) => qs.null_move = n as i32,
            _ => error(&format!("option '{name}' cannot take that value")),
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
            Some(&"fen") => match Position::from_fen(&setup[1..].join(" ")) {
                Ok(p) => p,
                Err(e) => {
                    error(&truncate(&e, 200));
                    return;
                }
            },
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
        if self.search.as_ref().is_some_and(|h| !h.is_finished()) {
            error("'go' ignored: a search is already running");
            return;
        }
        if args.first() == Some(&"perft") {
            self.go_perft(args.get(1).copied());
            return;
        }
        let mut limits = Limits::default();
        let mut searchmoves: Vec<Move> = Vec::new();
        let mut i = 0;
        // Parses the number after a keyword: negative or absurd values are reported and
        // clamped, a missing or non-numeric one is reported and ignored.
        let number = |i: usize, key: &str| -> Option<u64> {
            let Some(t) = args.get(i + 1) else {
                error(&format!("go: '{key}' needs a value"));
                return None;
            };
            match t.parse::<i64>() {
                Ok(n) if n < 0 => {
                    error(&format!("go: negative {key} {n} taken as 0"));
                    Some(0)
                }
                Ok(n) => Some(n as u64),
                Err(_)
                    if t.trim_start_matches('-')
                        .chars()
                        .all(|c| c.is_ascii_digit()) =>
                {
                    error(&format!(
                        "go: {key} '{}' is out of range, clamped",
                        truncate(t, 32)
                    ));
                    Some(if t.starts_with('-') {
                        0
                    } else {
                        i64::MAX as u64
                    })
                }
                Err(_) => {
                    error(&format!("go: {key} '{}' is not a number", truncate(t, 32)));
                    None
                }
            }
        };
        while i < args.len() {
            let key = args[i];
            let mut consumed = 2;
            match key {
                "wtime" => limits.wtime = number(i, key).or(limits.wtime),
                "btime" => limits.btime = number(i, key).or(limits.btime),
                "winc" => limits.winc = number(i, key).or(limits.winc),
                "binc" => limits.binc = number(i, key).or(limits.binc),
                "movestogo" => limits.movestogo = number(i, key).map(|n| n.max(1)),
                "movetime" => limits.movetime = number(i, key).or(limits.movetime),
                "nodes" => limits.nodes = number(i, key).map(|n| n.max(1)),
                "depth" => {
                    limits.depth = number(i, key).map(|n| {
                        if n == 0 || n > MAX_DEPTH as u64 {
                            error(&format!("go: depth {n} clamped to 1..{MAX_DEPTH}"));
                        }
                        n.clamp(1, MAX_DEPTH as u64) as i32
                    })
                }
                "mate" => limits.mate = number(i, key).map(|n| n.clamp(1, MAX_DEPTH as u64) as i32),
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
        if self.engine_idle("go").is_none() {
            return;
        }
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let pos = self.pos.clone();
        self.control.stop.store(false, Ordering::Relaxed);
        self.control
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let handle = std::thread::Builder::new()
            .name("lull-search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let result = engine.search_keep_flags(&pos, &limits, &searchmoves);
                say(&format!("info string {}", result.stats.summary_line()));
                say(&bestmove_line(&pos, &result));
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
                say(&format!(
                    "bestmove {}",
                    self.pos
                        .legal_moves()
                        .first()
                        .map_or("(none)".to_string(), |m| self.pos.move_to_uci(*m))
                ));
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

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let t: String = s.chars().take(max).collect();
        format!("{t}…")
    }
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

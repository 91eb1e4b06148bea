//! The UCI skin of the session: parses UCI command lines, drives the [`Session`] and formats
//! its answers (`info` lines from the search's reports, `bestmove`, the `uci` option list).
//! Bad input never ends the engine: it gets one `info string error: …` line and the previous
//! state stays.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use cozy_chess::Move;

use super::session::{Joined, Session};
use super::shown_line::{uci_move_line, ShownLine};
use super::{run_loop, say, say_lines, Frontend, ENGINE_AUTHOR, ENGINE_NAME, MAX_GO_MS};
use crate::options::{is_integer, option_specs, parse_option};
use crate::params::{MATE, MATE_BOUND, MAX_DEPTH};
use crate::perft;
use crate::position::shorten as truncate;
use crate::position::{board_ascii, move_to_uci, standard_castling_problem, Position};
use crate::search::{shown_centipawns, ReportSink, ScoreBound, SearchReport, SearchResult};
use crate::time::Limits;

/// Largest `Hash` value, in MiB (the option table's, re-exported).
pub use crate::options::MAX_HASH;

/// Prints an error line.
fn error(what: &str) {
    say(&format!("info string error: {what}"));
}

/// Prints the closing lines of a search or job (`bestmove`, a perft total, a bench signature)
/// through `out`, with `answered` set first: a GUI or script that reads them may send its
/// next command at once, and that command must find the work as good as finished (it waits
/// for the thread to end) rather than running and be refused. Set after the lines, a thread
/// descheduled in between made the next command fail.
fn answer(answered: &AtomicBool, closing: &[String], mut out: impl FnMut(&str)) {
    answered.store(true, Ordering::Release);
    for line in closing {
        out(line);
    }
}

/// The UCI skin: the session and the state of the running search that only UCI needs.
pub struct Uci {
    session: Session,
    /// Set by the search thread just before it prints its closing lines (`bestmove`, a
    /// perft total, a bench signature): see [`answer`].
    answered: Arc<AtomicBool>,
    /// Whether the work on the search thread is a search (not a job such as perft or bench):
    /// at the end of input a search is stopped (its `bestmove` is printed), a job awaited.
    searching: bool,
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
        // Nobody can send `stop` or `ponderhit` any more, and a GUI that closed its end may
        // have crashed: a search is stopped (as `quit` does, after its `bestmove`), so that
        // no search outlives its GUI. A job (perft, bench) is bounded and its last line is
        // its point: it is awaited.
        if self.searching {
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
            searching: false,
        }
    }

    /// Runs the loop on stdin until `quit` or end of input.
    pub fn run(&mut self) {
        run_loop(self);
    }

    /// Handles one command line. Returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        match parse(line) {
            Ok(command) => self.execute(command),
            Err(e) => {
                match line.split_whitespace().next() {
                    // Every `go` ends the running search, also one whose parameters are bad.
                    Some("go") => {
                        self.end_search_for_go();
                        error(&e);
                    }
                    // A position that cannot be read is a refused position.
                    Some("position") => self.refuse_position(&e),
                    _ => error(&e),
                }
                true
            }
        }
    }

    /// Carries out one parsed command. Returns false on `quit`.
    pub fn execute(&mut self, command: UciCommand) -> bool {
        match command {
            UciCommand::Uci => cmd_uci(),
            UciCommand::IsReady => say("readyok"),
            UciCommand::UciNewGame => {
                if let Some(engine) = self.engine_idle("ucinewgame") {
                    engine.clear();
                }
            }
            UciCommand::SetOption { name, value } => self.cmd_setoption(&name, value.as_deref()),
            UciCommand::Position { start, moves } => self.cmd_position(start, &moves),
            UciCommand::Go(params) => self.cmd_go(params),
            UciCommand::GoPerft { depth } => {
                self.end_search_for_go();
                match self.session.position_to_search() {
                    Ok(_) => self.go_perft(depth),
                    Err(e) => error(&e),
                }
            }
            UciCommand::Stop => self.session.stop(),
            // `go ponder` carried the clocks of the move pondered on: the limits stay.
            UciCommand::PonderHit => self.session.ponder_hit(None),
            UciCommand::Quit => {
                self.session.stop();
                self.wait();
                return false;
            }
            UciCommand::Ignored => {}
            UciCommand::Display => {
                let pos = &self.session.pos;
                say_lines(&board_ascii(pos));
                say(&format!("Fen: {}", pos.fen()));
                say(&format!("Key: {:016x}", pos.hash()));
            }
            UciCommand::Eval => {
                let board = self.session.pos.board().clone();
                if let Some(engine) = self.engine_idle("eval") {
                    let kind = if engine.use_nnue() {
                        "network"
                    } else {
                        "hand-crafted"
                    };
                    let cp = engine.static_eval(&board);
                    say(&format!("info string eval {cp} cp (side to move, {kind})"));
                }
            }
            UciCommand::Bench { depth } => {
                if self.engine_idle("bench").is_some() {
                    self.bench(depth);
                }
            }
        }
        true
    }

    /// Whether a search is running and not about to end. A search that was told to stop, or
    /// ended by itself and is answering (see [`Session::search_ending`]; `answered` is set
    /// before its `bestmove` is printed), is as good as finished: commands wait for it
    /// instead of being refused, since a GUI may send them as soon as it reads `bestmove` or
    /// sends `stop`. An `infinite` search that a limit of its own ended still waits for
    /// `stop`: it is running (waiting for it would wait forever).
    fn search_running(&self) -> bool {
        self.session.search_running()
            && !self.answered.load(Ordering::Acquire)
            && !self.session.search_ending()
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

    fn cmd_setoption(&mut self, name: &str, value: Option<&str>) {
        // One parser for every option: the table in `options` checks the name and value.
        let (spec, value) = match parse_option(name, value) {
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

    fn cmd_position(&mut self, start: PositionStart, moves: &[String]) {
        let mut pos = match start {
            PositionStart::Startpos => Position::startpos(),
            // The error names the problem ("rank 7 has 9 squares", "black is in check but it
            // is white to move", …) and quotes the FEN shortened.
            PositionStart::Fen(fen) => match Position::from_fen(&fen) {
                Ok(p) => p,
                Err(e) => return self.refuse_position(&e),
            },
        };
        // As Stockfish does: castling that standard notation cannot write (e1g1 would not say
        // which move it is, and the GUI's board would differ from ours) needs UCI_Chess960.
        if !self.session.chess960 {
            if let Some(problem) = standard_castling_problem(pos.board()) {
                return self.refuse_position(&format!(
                    "{problem}; set UCI_Chess960 to true for this position"
                ));
            }
        }
        pos.set_chess960(self.session.chess960);
        for (n, text) in moves.iter().enumerate() {
            // UCI's null move, as python-chess sends a board's null moves: the side to move
            // passes (not while in check, where passing would leave its king to be taken).
            if text == "0000" {
                if !pos.play_null() {
                    return self.refuse_position(&format!(
                        "null move '0000' while in check (move {} of the list)",
                        n + 1
                    ));
                }
                continue;
            }
            match pos.parse_uci_move(text) {
                Ok(mv) => pos.play(mv),
                Err(e) => {
                    return self.refuse_position(&format!(
                        "{} (move {} of the list)",
                        truncate(&e, 80),
                        n + 1
                    ))
                }
            }
        }
        self.session.set_position(pos);
    }

    /// A `position` that cannot be set: one error line; the previous position stays for
    /// `d` and `eval`, but `go` searches nothing until a position is accepted.
    fn refuse_position(&mut self, why: &str) {
        error(&format!(
            "{why}; position unchanged, no search until a position is accepted"
        ));
        self.session.refuse_position(why);
    }

    /// Every `go` gets one `bestmove`: a search still running (the GUI did not send `stop`)
    /// is stopped and answered first.
    fn end_search_for_go(&mut self) {
        if self.search_running() {
            error("'go' while a search is running: stopping that search first");
            self.session.stop();
        }
        self.wait();
    }

    fn cmd_go(&mut self, params: GoParams) {
        self.end_search_for_go();
        // The GUI must never get a move for a position it did not send: after a refused
        // `position`, the null move (as UCI writes "no move").
        if let Err(e) = self.session.position_to_search() {
            error(&e);
            say("bestmove 0000");
            return;
        }
        // The line's problems and the search moves that are not legal here, in line order.
        let mut warnings = params.warnings.iter().peekable();
        let mut searchmoves: Vec<Move> = Vec::new();
        for (k, text) in params.searchmoves.iter().enumerate() {
            while let Some((_, w)) = warnings.next_if(|(at, _)| *at <= k) {
                error(w);
            }
            match self.session.pos.parse_uci_move(text) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => error(&format!("go searchmoves: {}", truncate(&e, 80))),
            }
        }
        for (_, w) in warnings {
            error(w);
        }
        let limits = params.limits.clone();
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
        let pos = pos.clone();
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = Arc::clone(&answered);
        let show_wdl = self.session.show_wdl;
        let shown = ShownLine::new();
        let report = info_reporter(pos.clone(), show_wdl, Arc::clone(&shown));
        let statistics = self.session.statistics;
        self.searching = true;
        let started = self.session.start_search(
            pos,
            limits,
            searchmoves,
            Some(report),
            move |pos, result| {
                let line = match result {
                    Some(result) => {
                        // The last `info … pv` line is the move's (see `shown_line`).
                        for line in shown.uci_lines(pos, result, show_wdl) {
                            say(&line);
                        }
                        if statistics {
                            say(&format!("info string {}", result.stats.summary_line()));
                        }
                        bestmove_line(pos, result)
                    }
                    None => {
                        // A bug in the search: the GUI still gets its move, and the session
                        // rebuilds the engine, whose tables may be half-written.
                        error("the search failed (internal error); playing a legal move");
                        fallback_bestmove(pos)
                    }
                };
                answer(&answered, &[line], say);
            },
        );
        if let Err(e) = started {
            error(&format!("cannot start the search thread: {e}"));
            say(&fallback_bestmove(&self.session.pos));
        }
    }

    /// Runs a long command on the search thread, so that `isready`, `stop` and `quit` are
    /// answered while it runs; `job` gets the engine and the flag that `stop` sets, prints
    /// what comes as it goes and returns its closing lines, which [`answer`] prints. Like a
    /// bounded search, it is awaited at the end of input.
    fn start_job(
        &mut self,
        what: &str,
        job: impl FnOnce(&mut crate::search::Engine, &AtomicBool) -> Vec<String> + Send + 'static,
    ) {
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = Arc::clone(&answered);
        self.searching = false;
        let started = self.session.start_job(move |engine, halt| {
            let closing = job(engine, halt);
            answer(&answered, &closing, say);
        });
        if let Err(e) = started {
            error(&format!("cannot start the {what} thread: {e}"));
        }
    }

    /// `go perft <depth>`: each root move's count as it comes, then the total. `stop` ends
    /// it early (the moves counted so far are shown, no total).
    fn go_perft(&mut self, depth: u32) {
        let mut pos = self.session.pos.clone();
        self.start_job("perft", move |_, halt| {
            let start = std::time::Instant::now();
            let root = pos.clone();
            let moves = root.legal_moves().len();
            let mut total = 0;
            let mut counted = 0;
            let done = perft::divide_until(&mut pos, depth, halt, |mv, n| {
                say(&format!("{}: {n}", root.move_to_uci(mv)));
                total += n;
                counted += 1;
            });
            let ms = start.elapsed().as_millis() as u64;
            if !done {
                return vec![format!(
                    "info string perft stopped after {counted} of {moves} root moves \
                     ({total} nodes, {ms} ms)"
                )];
            }
            vec![
                String::new(),
                format!("Nodes searched: {total}"),
                format!("info string perft time {ms} ms"),
            ]
        });
    }

    /// `bench [depth]`: the bench signature line; `stop` ends it early (no signature then).
    fn bench(&mut self, depth: i32) {
        self.start_job("bench", move |engine, halt| {
            let r = crate::bench::run_bench_until(engine, depth, halt, |_, _, _| {});
            let all = crate::bench::BENCH_POSITIONS.len();
            let closing = if r.positions < all {
                format!(
                    "info string bench stopped after {} of {all} positions",
                    r.positions
                )
            } else {
                format!("{} nodes {} nps", r.nodes, r.nps)
            };
            vec![closing]
        });
    }
}

/// One UCI command line, parsed: what the command is and its typed fields. Whatever needs
/// the position or the session (move and FEN legality, option values) is checked when the
/// command is carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`: clear the tables.
    UciNewGame,
    /// `setoption name <name words…> [value <value words…>]`.
    SetOption {
        name: String,
        /// None when `value` is missing or has nothing after it.
        value: Option<String>,
    },
    /// `position (startpos | fen <FEN>) [moves <move>…]`.
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    /// `go …`: a search.
    Go(GoParams),
    /// `go perft <depth>`: count the leaf nodes below each root move.
    GoPerft { depth: u32 },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `debug` and `register`: accepted, nothing to do.
    Ignored,
    /// `d`: print the board, the FEN and the key.
    Display,
    /// `eval`: the static evaluation of the position.
    Eval,
    /// `bench [depth]`.
    Bench { depth: i32 },
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`.
    Startpos,
    /// `fen <FEN>`: the FEN words joined by single spaces (checked when carried out).
    Fen(String),
}

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

/// Parses one UCI command line. An error is the text of the `info string error:` line.
pub fn parse(line: &str) -> Result<UciCommand, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = tokens.split_first() else {
        return Err("empty line".to_string());
    };
    Ok(match cmd {
        "uci" => UciCommand::Uci,
        "isready" => UciCommand::IsReady,
        "ucinewgame" => UciCommand::UciNewGame,
        "setoption" => parse_setoption(args)?,
        "position" => parse_position(args)?,
        "go" => parse_go(args)?,
        "stop" => UciCommand::Stop,
        "ponderhit" => UciCommand::PonderHit,
        "quit" => UciCommand::Quit,
        "debug" | "register" => UciCommand::Ignored,
        "d" => UciCommand::Display,
        "eval" => UciCommand::Eval,
        "bench" => UciCommand::Bench {
            depth: match args.first() {
                None => crate::bench::BENCH_DEPTH,
                Some(t) => match t.parse::<i32>() {
                    Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
                    _ => {
                        return Err(format!(
                            "bench depth '{t}' is not a number from 1 to {MAX_DEPTH}"
                        ))
                    }
                },
            },
        },
        _ => return Err(format!("unknown command '{}'", truncate(cmd, 64))),
    })
}

/// `setoption name <name words…> [value <value words…>]`.
fn parse_setoption(args: &[&str]) -> Result<UciCommand, String> {
    let value_at = args.iter().position(|&t| t == "value");
    let name = args
        .get(1..value_at.unwrap_or(args.len()))
        .map(|words| words.join(" "))
        .unwrap_or_default();
    if args.first() != Some(&"name") || name.is_empty() {
        return Err("setoption needs 'name <option>'".to_string());
    }
    // `value` with nothing after it is no value.
    let value = value_at
        .map(|i| args[i + 1..].join(" "))
        .filter(|v| !v.is_empty());
    Ok(UciCommand::SetOption { name, value })
}

/// `position (startpos | fen <FEN>) [moves <move>…]`.
fn parse_position(args: &[&str]) -> Result<UciCommand, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let start = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => PositionStart::Startpos,
        Some(&"startpos") => {
            return Err("'position startpos' takes no further fields before 'moves'".to_string())
        }
        Some(&"fen") => PositionStart::Fen(setup[1..].join(" ")),
        Some(other) => {
            return Err(format!(
                "position needs 'startpos' or 'fen', got '{}'",
                truncate(other, 64)
            ))
        }
        None => return Err("position needs 'startpos' or 'fen <FEN>'".to_string()),
    };
    let moves = match moves_at {
        Some(i) => args[i + 1..].iter().map(|t| t.to_string()).collect(),
        None => Vec::new(),
    };
    Ok(UciCommand::Position { start, moves })
}

/// `go perft <depth>`, or `go` with its search parameters. Only a bad perft depth is an
/// error: a bad search parameter is a warning, and the search still runs.
fn parse_go(args: &[&str]) -> Result<UciCommand, String> {
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

/// `bestmove` with the first legal move (or `(none)`), when no search result is available,
/// after its `info depth 0 pv` line.
fn fallback_bestmove(pos: &Position) -> String {
    match pos.legal_moves().first() {
        Some(&mv) => {
            say(&uci_move_line(pos, mv));
            format!("bestmove {}", pos.move_to_uci(mv))
        }
        None => "bestmove (none)".to_string(),
    }
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

/// Formats a score for UCI: `cp N` (a tablebase win as `cp 20000` less its plies, see
/// [`shown_centipawns`]) or `mate N` (moves, negative when being mated).
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
        format!("cp {}", shown_centipawns(score))
    }
}

/// The `info` lines of a search report about `pos` (the searched position): one per line of
/// an iteration (`lowerbound` or `upperbound` after the score of a failed aspiration search,
/// and with `show_wdl` the model's `wdl W D L`), `info depth 0 score …` when there is no
/// legal move, `info depth D currmove M currmovenumber N` for the root move being searched.
pub fn info_lines(pos: &Position, report: &SearchReport, show_wdl: bool) -> Vec<String> {
    let material = crate::wdl::material(pos.board());
    let wdl = |score: i32| -> String {
        if show_wdl {
            let [w, d, l] = crate::wdl::MODEL.permille(score, material);
            format!(" wdl {w} {d} {l}")
        } else {
            String::new()
        }
    };
    let r = match report {
        SearchReport::NoLegalMove { score } => {
            return vec![format!(
                "info depth 0 score {}{}",
                uci_score(*score),
                wdl(*score)
            )];
        }
        SearchReport::CurrMove { depth, mv, number } => {
            return vec![format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_to_uci(pos.board(), *mv, pos.chess960())
            )];
        }
        SearchReport::Iteration(r) => r,
    };
    let bound = match r.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
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
                "info depth {} seldepth {} multipv {} score {}{bound}{} nodes {} nps {} hashfull {} \
                 tbhits {} time {} pv{}",
                r.depth,
                r.seldepth,
                k + 1,
                uci_score(line.score),
                wdl(line.score),
                r.nodes,
                r.nps,
                r.hashfull,
                r.tbhits,
                r.time_ms,
                pv
            )
        })
        .collect()
}

/// The report sink of a UCI search of `pos`: prints its `info` lines and notes in `shown`
/// the last line printed.
fn info_reporter(pos: Position, show_wdl: bool, shown: Arc<ShownLine>) -> ReportSink {
    Arc::new(move |report: &SearchReport| {
        for line in info_lines(&pos, report, show_wdl) {
            say(&line);
        }
        shown.record(report);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{TB_BOUND, TB_WIN};
    use crate::search::{IterationReport, RootLine};

    #[test]
    fn closing_lines_come_after_the_work_counts_as_answered() {
        let answered = AtomicBool::new(false);
        let mut printed = Vec::new();
        let closing = [
            "Nodes searched: 20".to_string(),
            "info string perft time 0 ms".into(),
        ];
        answer(&answered, &closing, |line| {
            assert!(answered.load(Ordering::Acquire), "{line:?} printed first");
            printed.push(line.to_string());
        });
        assert_eq!(printed, closing);
    }

    #[test]
    fn scores_and_info_lines_follow_uci() {
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
        assert_eq!(uci_score(-MATE), "mate 0");
        // Tablebase wins and losses: far above any evaluation, far below the mates.
        assert_eq!(uci_score(TB_WIN), "cp 20000");
        assert_eq!(uci_score(-(TB_WIN - 7)), "cp -19993");
        assert_eq!(uci_score(TB_BOUND), format!("cp {}", 20000 - 128));
        assert_eq!(uci_score(TB_BOUND - 1), format!("cp {}", TB_BOUND - 1));
        let pos = Position::startpos();
        let mated = SearchReport::NoLegalMove { score: -MATE };
        assert_eq!(
            info_lines(&pos, &mated, false),
            ["info depth 0 score mate 0"]
        );
        assert_eq!(
            info_lines(&pos, &mated, true),
            ["info depth 0 score mate 0 wdl 0 0 1000"]
        );
        let stalemate = SearchReport::NoLegalMove { score: 0 };
        assert_eq!(
            info_lines(&pos, &stalemate, false),
            ["info depth 0 score cp 0"]
        );
        let e2e4: Move = "e2e4".parse().unwrap();
        let e7e5: Move = "e7e5".parse().unwrap();
        let d2d4: Move = "d2d4".parse().unwrap();
        let report = SearchReport::Iteration(IterationReport {
            depth: 3,
            seldepth: 5,
            score: 20,
            nodes: 1000,
            nps: 50_000,
            bound: ScoreBound::Exact,
            time_ms: 20,
            hashfull: 7,
            tbhits: 3,
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
        let current = SearchReport::CurrMove {
            depth: 9,
            mv: d2d4,
            number: 3,
        };
        assert_eq!(
            info_lines(&pos, &current, false),
            ["info depth 9 currmove d2d4 currmovenumber 3"]
        );
        if let SearchReport::Iteration(r) = &report {
            let mut failed = r.clone();
            failed.bound = ScoreBound::Lower;
            failed.lines.truncate(1);
            let [w, d, l] = crate::wdl::MODEL.permille(20, 78);
            assert_eq!(
                info_lines(&pos, &SearchReport::Iteration(failed), true),
                [format!(
                    "info depth 3 seldepth 5 multipv 1 score cp 20 lowerbound wdl {w} {d} {l} \
                     nodes 1000 nps 50000 hashfull 7 tbhits 3 time 20 pv e2e4 e7e5"
                )]
            );
        }
        assert_eq!(
            info_lines(&pos, &report, false),
            [
                "info depth 3 seldepth 5 multipv 1 score cp 20 nodes 1000 nps 50000 hashfull 7 \
                 tbhits 3 time 20 pv e2e4 e7e5",
                "info depth 3 seldepth 5 multipv 2 score cp 10 nodes 1000 nps 50000 hashfull 7 \
                 tbhits 3 time 20 pv d2d4"
            ]
        );
    }

    #[test]
    fn well_formed_lines_parse_to_their_commands() {
        assert_eq!(parse("  uci \r"), Ok(UciCommand::Uci));
        assert_eq!(parse("isready"), Ok(UciCommand::IsReady));
        assert_eq!(parse("stop extra words"), Ok(UciCommand::Stop));
        assert_eq!(parse("debug on"), Ok(UciCommand::Ignored));
        assert_eq!(
            parse("bench"),
            Ok(UciCommand::Bench {
                depth: crate::bench::BENCH_DEPTH
            })
        );
        assert_eq!(parse("bench 3"), Ok(UciCommand::Bench { depth: 3 }));
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name Book File value  my  book.bin "),
            Ok(UciCommand::SetOption {
                name: "Book File".into(),
                value: Some("my book.bin".into())
            })
        );
        assert_eq!(
            parse("setoption name Hash value"),
            Ok(UciCommand::SetOption {
                name: "Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(UciCommand::Position {
                start: PositionStart::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5   w - - 0 1"),
            Ok(UciCommand::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![]
            })
        );
        assert_eq!(parse("go perft 4"), Ok(UciCommand::GoPerft { depth: 4 }));
    }

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
    fn malformed_lines_are_errors_that_name_the_problem() {
        let cases = [
            ("", "empty line"),
            (" \t ", "empty line"),
            ("xyzzy e2e4", "unknown command 'xyzzy'"),
            ("Position startpos", "unknown command 'Position'"),
            ("position", "position needs 'startpos' or 'fen <FEN>'"),
            (
                "position moves e2e4",
                "position needs 'startpos' or 'fen <FEN>'",
            ),
            (
                "position start",
                "position needs 'startpos' or 'fen', got 'start'",
            ),
            (
                "position startpos e2e4",
                "'position startpos' takes no further fields before 'moves'",
            ),
            ("setoption", "setoption needs 'name <option>'"),
            ("setoption name", "setoption needs 'name <option>'"),
            ("setoption name value 3", "setoption needs 'name <option>'"),
            ("setoption Hash value 3", "setoption needs 'name <option>'"),
            ("go perft", "go perft needs a depth from 1 to 10"),
            ("go perft 0", "go perft needs a depth from 1 to 10"),
            ("go perft 11", "go perft needs a depth from 1 to 10"),
            ("go perft -1", "go perft needs a depth from 1 to 10"),
            ("bench 0", "bench depth '0' is not a number from 1 to 64"),
            ("bench x", "bench depth 'x' is not a number from 1 to 64"),
        ];
        for (line, why) in cases {
            let why = why.replace("64", &MAX_DEPTH.to_string());
            assert_eq!(parse(line), Err(why), "{line:?}");
        }
    }

    #[test]
    fn garbage_and_long_lines_never_panic() {
        let long_word = "é".repeat(100_000);
        let err = parse(&long_word).unwrap_err();
        assert!(err.starts_with("unknown command 'éé") && err.ends_with("…'"));
        assert!(err.chars().count() < 100);
        let err = parse(&format!("position {long_word}")).unwrap_err();
        assert!(err.chars().count() < 120, "{err}");
        let (_, w) = go_warnings(&format!("go depth {long_word} {long_word}"));
        assert!(w.iter().all(|w| w.chars().count() < 100), "{w:?}");
        let many = format!("go{}", " searchmoves e2e4 wtime".repeat(20_000));
        let (p, w) = go_warnings(&many);
        assert_eq!(p.searchmoves.len(), 20_000);
        assert_eq!(w.len(), 20_000);
        for line in [
            "\u{0}\u{7f}",
            "go \u{fffd} \u{0}",
            "\u{feff}uci",
            "setoption name \u{0}",
        ] {
            let _ = parse(line);
        }
        assert!(parse("\u{0}").is_err());
        let bytes: Vec<u8> = (0u32..5000).map(|i| (i * 7919 % 251) as u8).collect();
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }
}

//! The XBoard skin of the session (the Chess Engine Communication Protocol, CECP, version 2):
//! `lull xboard`, or the default mode when the first command is `xboard`. It parses CECP
//! commands, keeps the game state CECP needs (force mode, the engine's side, clocks, pondering
//! on the expected reply, analysis) and formats the session's reports as thinking lines.
//!
//! Like the UCI skin, the search runs on the session's thread and the command loop stays
//! responsive: `?` ends a search at once, `ping` is answered, and a search that is no longer
//! wanted (`force`, `new`, `undo`, a move while pondering on another one, …) is stopped and its
//! move never sent. A move that was already sent is kept in the game whatever comes next, so
//! that the engine's board always agrees with the GUI's.
//!
//! Bad input never ends the engine: it gets one `Error (why): command` line (`Illegal move:
//! <move>` for a move that is not legal, as CECP requires) and the previous state stays.
//!
//! Moves go out in coordinate notation (`e2e4`, `e7e8q`, `e1g1`; `O-O` and `O-O-O` in
//! `variant fischerandom`, as CECP writes Chess960 castling). Moves come in as coordinates,
//! king-takes-rook castling, `O-O`/`O-O-O` or SAN. Thinking output is `ply score time nodes
//! pv` with the score in centipawns from the engine's side (mate in N: 100000 + N, mated in N:
//! -100000 - N), the time in centiseconds and the PV in SAN.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use cozy_chess::{Board, Color, Move, Piece};

use super::session::{Joined, Session};
use super::{run_loop, say, Frontend, ENGINE_NAME, MAX_GO_MS};
use crate::options::{
    find_option, option_specs, parse_option, split_assignment, OptionKind, OptionScope, MAX_HASH,
    MAX_THREADS,
};
use crate::params::{MATE, MATE_BOUND, MAX_DEPTH};
use crate::position::{move_to_uci, shorten, Position};
use crate::san::{line_to_san, parse_san};
use crate::search::{IterationReport, SearchReport};
use crate::time::Limits;

/// The variants `variant` accepts (announced in `feature variants`).
pub const VARIANTS: &str = "normal,fischerandom";
/// CECP's mate score base: mate in N moves is reported as `MATE_SCORE + N`.
pub const MATE_SCORE: i32 = 100_000;
/// A draw offer is accepted when the engine's last search scored its position at or below
/// this (centipawns, from its side), or when neither side can mate.
pub const DRAW_ACCEPT_SCORE: i32 = -100;
/// The `Error (why): command` line. Parentheses inside `why` are made square brackets, so that
/// the line keeps the form clients parse.
fn error(why: &str, command: &str) {
    let why: String = why
        .chars()
        .map(|c| match c {
            '(' => '[',
            ')' => ']',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    say(&format!("Error ({why}): {}", shorten(command, 100)));
}

/// Locks a mutex, also after a panic elsewhere (the data is plain flags).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How the engine's time is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimeControl {
    /// `level MPS BASE INC`: `mps` moves (0: the whole game) in `base_ms`, plus `inc_ms` a move.
    Level { mps: u64, base_ms: u64, inc_ms: u64 },
    /// `st SECONDS`: this long for every move.
    PerMove(u64),
}

/// xboard's default: 40 moves in 5 minutes.
const DEFAULT_TIME_CONTROL: TimeControl = TimeControl::Level {
    mps: 40,
    base_ms: 300_000,
    inc_ms: 0,
};

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The engine's move: it sends `move …` when done.
    Think,
    /// Pondering on the expected reply (the move), after the engine's move.
    Ponder(Move),
    /// `analyze`: searches until told otherwise, never moves.
    Analyze,
}

/// State shared by the command loop and the search thread, under one lock: the thread
/// decides whether to send its move and the loop whether to cancel it atomically.
#[derive(Debug)]
struct Shared {
    mode: Mode,
    /// The move is not wanted any more: the thread ends without sending it.
    discarded: bool,
    /// The move the thread sent.
    sent: Option<Move>,
    /// The thread has finished deciding (nothing more will be sent).
    done: bool,
}

/// What the XBoard skin knows about the search on the session's thread.
struct Running {
    shared: Arc<Mutex<Shared>>,
    /// When the engine's own clock started for this move (reset on a ponder hit).
    started: Instant,
}

/// The last completed iteration, for the `.` status line.
#[derive(Clone, Debug)]
struct Status {
    centis: u64,
    nodes: u64,
    depth: i32,
    total_moves: usize,
    best: String,
}

/// The XBoard skin: the session and the CECP game state.
pub struct Xboard {
    session: Session,
    search: Option<Running>,
    /// Force mode: the engine plays neither side.
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    analyzing: bool,
    /// `post`: print thinking output while playing (analysis always prints it).
    post: Arc<AtomicBool>,
    clock: TimeControl,
    /// `sd`: depth limit of the engine's moves.
    depth: Option<i32>,
    /// Remaining time of the engine and of its opponent (`time`, `otim`), in milliseconds.
    own_ms: Option<u64>,
    opp_ms: Option<u64>,
    status: Arc<Mutex<Option<Status>>>,
    /// The expected reply after the engine's last move (`hint`, pondering), with the key of
    /// the position it belongs to.
    hint: Option<(u64, Move)>,
    /// The engine's last score for its own move (draw offers).
    last_score: Option<i32>,
    /// `pong` lines held back until the engine's move is sent (a `ping` while it thinks).
    pending_pongs: Vec<String>,
}

impl Default for Xboard {
    fn default() -> Self {
        Self::new()
    }
}

impl Frontend for Xboard {
    fn handle(&mut self, line: &str) -> bool {
        Xboard::handle(self, line)
    }

    fn unreadable(&mut self, why: &str) {
        error(why, "(unreadable line)");
    }

    fn end_of_input(&mut self) {
        // Nobody can send `?` or `exit` any more: a move being thought about is sent now,
        // pondering and analysis end.
        if self.search_is(|m| m == Mode::Think) {
            self.session.control().stop.store(true, Ordering::Relaxed);
            self.reap(false, true);
        }
        self.settle();
    }

    fn watching(&self) -> bool {
        self.search.is_some()
    }

    fn watch(&mut self) {
        self.reap(true, false);
    }
}

impl Xboard {
    /// A fresh session: start position, 16 MiB hash, one thread, the engine plays Black.
    pub fn new() -> Self {
        Self {
            session: Session::new(),
            search: None,
            force: false,
            engine_side: Color::Black,
            analyzing: false,
            post: Arc::new(AtomicBool::new(false)),
            clock: DEFAULT_TIME_CONTROL,
            depth: None,
            own_ms: None,
            opp_ms: None,
            status: Arc::new(Mutex::new(None)),
            hint: None,
            last_score: None,
            pending_pongs: Vec::new(),
        }
    }

    /// Runs the loop on stdin until `quit` or end of input.
    pub fn run(&mut self) {
        run_loop(self);
    }

    /// Handles one command line. Returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        // A search that ended meanwhile hands its move over before anything else happens.
        self.reap(true, false);
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" => {}
            "protover" => match rest.parse::<u32>() {
                Ok(v) if v >= 2 => self.features(),
                Ok(_) => {}
                Err(_) => error("protover needs a version number", line),
            },
            "new" => self.cmd_new(),
            "variant" => self.cmd_variant(rest, line),
            "force" => {
                self.settle();
                self.force = true;
            }
            "go" => {
                if self.analyzing {
                    self.settle();
                    self.analyzing = false;
                }
                if !self.search_is(|m| m == Mode::Think) {
                    self.settle();
                    self.force = false;
                    self.engine_side = self.session.pos.side_to_move();
                    self.think();
                }
            }
            "playother" => {
                self.settle();
                self.force = false;
                self.engine_side = !self.session.pos.side_to_move();
            }
            "usermove" => match args.as_slice() {
                [mv] => self.usermove(mv),
                [] => error("usermove needs a move", line),
                _ => error("usermove takes one move", line),
            },
            "setboard" => self.cmd_setboard(rest, line),
            "level" => self.cmd_level(&args, line),
            "st" => self.cmd_st(&args, line),
            "sd" => self.cmd_sd(&args, line),
            "time" => {
                if let Some(ms) = centiseconds(&args, line) {
                    self.own_ms = Some(ms);
                }
            }
            "otim" => {
                if let Some(ms) = centiseconds(&args, line) {
                    self.opp_ms = Some(ms);
                }
            }
            "ping" => self.cmd_ping(rest),
            "?" => {
                if self.search_is(|m| m == Mode::Think) {
                    self.session.control().stop.store(true, Ordering::Relaxed);
                }
            }
            "result" => {
                self.settle();
                self.force = true;
            }
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            "hard" => self.session.ponder = true,
            "easy" => {
                self.session.ponder = false;
                if self.search_is(|m| matches!(m, Mode::Ponder(_))) {
                    self.settle();
                }
            }
            "analyze" => {
                self.settle();
                self.analyzing = true;
                self.analyze();
            }
            "exit" => {
                if self.analyzing {
                    self.settle();
                    self.analyzing = false;
                }
            }
            "." => self.cmd_status(),
            "draw" => self.cmd_draw(),
            "hint" => {
                let pos = &self.session.pos;
                if let Some((key, mv)) = self.hint {
                    if key == pos.hash() && pos.board().is_legal(mv) {
                        say(&format!(
                            "Hint: {}",
                            xboard_move(pos.board(), mv, self.session.chess960)
                        ));
                    }
                }
            }
            "memory" => self.cmd_engine_number("Hash", MAX_HASH, &args, line),
            "cores" => self.cmd_engine_number("Threads", MAX_THREADS, &args, line),
            "option" => self.cmd_option(rest, line),
            "quit" => {
                self.settle();
                return false;
            }
            _ if args.is_empty() && looks_like_move(cmd) => self.usermove(cmd),
            _ => error("unknown command", cmd),
        }
        true
    }

    /// The answer to `protover 2`.
    fn features(&self) {
        for line in feature_lines() {
            say(&line);
        }
    }

    /// Whether a search is running in a mode `pred` accepts, and has not sent its move yet.
    fn search_is(&self, pred: impl Fn(Mode) -> bool) -> bool {
        self.search.as_ref().is_some_and(|run| {
            let s = lock(&run.shared);
            !s.done && s.sent.is_none() && pred(s.mode)
        })
    }

    /// Ends any search without its move (a move already sent is kept and played), and takes
    /// the engine back.
    fn settle(&mut self) {
        if let Some(run) = &self.search {
            {
                let mut s = lock(&run.shared);
                if s.sent.is_none() {
                    s.discarded = true;
                }
            }
            self.session.stop();
            self.reap(false, true);
        }
    }

    /// Takes back a finished search (or waits for it with `block`): plays the move it sent,
    /// then ponders on the expected reply if asked to (`may_ponder`) and sends the `pong`s
    /// held back.
    fn reap(&mut self, may_ponder: bool, block: bool) {
        let Some(run) = self.search.as_ref() else {
            return;
        };
        let sent = lock(&run.shared).sent;
        if !block && sent.is_none() && !self.session.search_finished() {
            return;
        }
        let Some(run) = self.search.take() else {
            return;
        };
        let result = match self.session.join() {
            Some(Joined::Done(result)) => Some(*result),
            Some(Joined::Lost) => {
                say("# the search thread failed; the engine state was reset");
                None
            }
            Some(Joined::Failed) | None => None,
        };
        let sent = lock(&run.shared).sent;
        if let Some(mv) = sent {
            let start_ms = self.own_ms;
            self.session.pos.play(mv);
            self.hint = None;
            if let Some(r) = &result {
                self.last_score = Some(r.score);
                if let Some(reply) = r
                    .ponder_move
                    .filter(|m| self.session.pos.board().is_legal(*m))
                {
                    self.hint = Some((self.session.pos.hash(), reply));
                }
            }
            // Our clock, as far as we know it, until the GUI sends `time` again.
            if let (TimeControl::Level { inc_ms, .. }, Some(ms)) = (self.clock, start_ms) {
                let used = run.started.elapsed().as_millis() as u64;
                self.own_ms = Some(ms.saturating_sub(used).saturating_add(inc_ms));
            }
            if may_ponder {
                self.start_pondering();
            }
        }
        for pong in self.pending_pongs.drain(..) {
            say(&pong);
        }
    }

    /// The limits of the engine's move in `pos` (the engine is to move there).
    fn think_limits(&self, pos: &Position) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        match self.clock {
            TimeControl::PerMove(ms) => limits.movetime = Some(ms),
            TimeControl::Level {
                mps,
                base_ms,
                inc_ms,
            } => {
                let own = self.own_ms.unwrap_or(base_ms);
                let opp = self.opp_ms.unwrap_or(base_ms);
                let (w, b) = match pos.side_to_move() {
                    Color::White => (own, opp),
                    Color::Black => (opp, own),
                };
                limits.wtime = Some(w);
                limits.btime = Some(b);
                limits.winc = Some(inc_ms);
                limits.binc = Some(inc_ms);
                if mps > 0 {
                    let played = u64::from(pos.board().fullmove_number().max(1) - 1);
                    limits.movestogo = Some(mps - played % mps);
                }
            }
        }
        limits
    }

    /// Starts thinking about the engine's move, or claims the result if the game is over.
    fn think(&mut self) {
        if self.session.pos.legal_moves().is_empty() {
            if let Some(claim) = game_end_claim(&self.session.pos) {
                say(&claim);
            }
            return;
        }
        let limits = self.think_limits(&self.session.pos);
        let pos = self.session.pos.clone();
        self.start_search(Mode::Think, pos, limits);
    }

    /// After the engine's move: ponders on the expected reply if pondering is on.
    fn start_pondering(&mut self) {
        if !self.session.ponder || self.force || self.analyzing {
            return;
        }
        let Some((key, reply)) = self.hint else {
            return;
        };
        if key != self.session.pos.hash() || game_end_claim(&self.session.pos).is_some() {
            return;
        }
        let mut pos = self.session.pos.clone();
        pos.play(reply);
        if pos.legal_moves().is_empty() {
            return;
        }
        let mut limits = self.think_limits(&pos);
        limits.ponder = true;
        self.start_search(Mode::Ponder(reply), pos, limits);
    }

    /// Starts (or restarts) the analysis of the current position.
    fn analyze(&mut self) {
        let limits = Limits {
            infinite: true,
            depth: self.depth,
            ..Limits::default()
        };
        let pos = self.session.pos.clone();
        self.start_search(Mode::Analyze, pos, limits);
    }

    /// Runs a search of `pos` on the session's thread.
    fn start_search(&mut self, mode: Mode, pos: Position, limits: Limits) {
        let shared = Arc::new(Mutex::new(Shared {
            mode,
            discarded: false,
            sent: None,
            done: false,
        }));
        let report = {
            let board = pos.board().clone();
            let total_moves = pos.legal_moves().len();
            let post = Arc::clone(&self.post);
            let status = Arc::clone(&self.status);
            let shared = Arc::clone(&shared);
            *lock(&status) = None;
            Arc::new(move |r: &SearchReport| {
                let SearchReport::Iteration(r) = r else {
                    return;
                };
                let pv = line_to_san(&board, &r.pv);
                *lock(&status) = Some(Status {
                    centis: r.time_ms / 10,
                    nodes: r.nodes,
                    depth: r.depth,
                    total_moves,
                    best: pv.first().cloned().unwrap_or_default(),
                });
                let mode = lock(&shared).mode;
                let show = match mode {
                    Mode::Analyze => true,
                    Mode::Think => post.load(Ordering::Relaxed),
                    // The PV of a ponder search starts after the expected reply.
                    Mode::Ponder(_) => false,
                };
                if show {
                    say(&thinking_line(r, &pv));
                }
            })
        };
        let chess960 = self.session.chess960;
        let thread_shared = Arc::clone(&shared);
        let finish = move |pos: &Position, result: Option<&crate::search::SearchResult>| {
            if result.is_none() {
                say("# the search failed (internal error); tables cleared");
            }
            let mut s = lock(&thread_shared);
            if s.mode == Mode::Think && !s.discarded {
                // The search's move, or any legal move if the search failed.
                let best = result
                    .and_then(|r| r.best_move)
                    .or_else(|| pos.legal_moves().first().copied());
                if let Some(mv) = best {
                    s.sent = Some(mv);
                    say(&format!("move {}", xboard_move(pos.board(), mv, chess960)));
                    let mut after = pos.clone();
                    after.play(mv);
                    if let Some(claim) = game_end_claim(&after) {
                        say(&claim);
                    }
                }
            }
            s.done = true;
        };
        match self
            .session
            .start_search(pos, limits, Vec::new(), Some(report), finish)
        {
            Ok(()) => {
                self.search = Some(Running {
                    shared,
                    started: Instant::now(),
                })
            }
            Err(e) => error(&format!("cannot start the search thread: {e}"), "go"),
        }
    }

    /// Restarts the analysis after the position changed (in analysis mode).
    fn reanalyze(&mut self) {
        if self.analyzing {
            self.settle();
            self.analyze();
        }
    }

    fn cmd_new(&mut self) {
        self.settle();
        self.session.pos = Position::startpos();
        self.session.set_chess960(false);
        self.force = false;
        self.engine_side = Color::Black;
        self.depth = None;
        self.own_ms = None;
        self.opp_ms = None;
        self.hint = None;
        self.last_score = None;
        if let Some(engine) = self.session.engine_mut() {
            engine.clear();
        }
        self.reanalyze();
    }

    fn cmd_variant(&mut self, name: &str, line: &str) {
        let chess960 = match name {
            "normal" => false,
            "fischerandom" => true,
            "" => return error("variant needs a name", line),
            _ => return error(&format!("unsupported variant, only {VARIANTS}"), line),
        };
        self.settle();
        self.session.set_chess960(chess960);
        self.reanalyze();
    }

    fn cmd_setboard(&mut self, fen: &str, line: &str) {
        if fen.is_empty() {
            return error("setboard needs a FEN", line);
        }
        let mut pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => return error(&format!("illegal position: {e}"), "setboard"),
        };
        self.settle();
        pos.set_chess960(self.session.chess960);
        self.session.pos = pos;
        self.hint = None;
        self.reanalyze();
    }

    /// A move of the opponent (or any move in force and analysis mode).
    fn usermove(&mut self, text: &str) {
        let mv = match parse_move(self.session.pos.board(), text, self.session.chess960) {
            Ok(mv) => mv,
            Err(_) => {
                say(&format!("Illegal move: {}", shorten(text, 32)));
                return;
            }
        };
        // Pondering on that very move: the ponder search becomes the engine's move.
        if let Some(run) = self.search.as_mut() {
            let mut s = lock(&run.shared);
            if s.mode == Mode::Ponder(mv) && !s.done && !s.discarded {
                s.mode = Mode::Think;
                drop(s);
                run.started = Instant::now();
                self.session.pos.play(mv);
                self.session
                    .control()
                    .pondering
                    .store(false, Ordering::Relaxed);
                return;
            }
        }
        self.settle();
        // The move was checked on the board before the search (if any) ended; a move the
        // engine sent meanwhile changed the board, so check again.
        let mv = match parse_move(self.session.pos.board(), text, self.session.chess960) {
            Ok(mv) => mv,
            Err(_) => {
                say(&format!("Illegal move: {}", shorten(text, 32)));
                return;
            }
        };
        self.session.pos.play(mv);
        if self.analyzing {
            self.analyze();
        } else if !self.force && self.session.pos.side_to_move() == self.engine_side {
            self.think();
        }
    }

    /// `undo` (one ply) and `remove` (two).
    fn take_back(&mut self, plies: usize, line: &str) {
        self.settle();
        if self.session.pos.game_ply() < plies {
            let what = if plies == 1 {
                "no move"
            } else {
                "fewer than two moves"
            };
            return error(&format!("{what} to take back"), line);
        }
        for _ in 0..plies {
            self.session.pos.undo();
        }
        self.hint = None;
        self.reanalyze();
    }

    fn cmd_level(&mut self, args: &[&str], line: &str) {
        let parsed = match args {
            [mps, base, inc] => parse_level(mps, base, inc),
            _ => Err("level needs MPS BASE INC, e.g. level 40 5 0".to_string()),
        };
        match parsed {
            Ok(clock) => {
                self.clock = clock;
                self.own_ms = None;
                self.opp_ms = None;
            }
            Err(e) => error(&e, line),
        }
    }

    fn cmd_st(&mut self, args: &[&str], line: &str) {
        match args {
            [secs] => match parse_seconds(secs) {
                Some(ms) if ms > 0 => self.clock = TimeControl::PerMove(ms),
                _ => error("st needs a positive number of seconds", line),
            },
            _ => error("st needs a number of seconds", line),
        }
    }

    fn cmd_sd(&mut self, args: &[&str], line: &str) {
        match args {
            [d] => match d.parse::<i64>() {
                Ok(d) if d >= 1 => self.depth = Some(d.min(MAX_DEPTH as i64) as i32),
                _ => error(&format!("sd needs a depth from 1 to {MAX_DEPTH}"), line),
            },
            _ => error("sd needs a depth", line),
        }
    }

    fn cmd_ping(&mut self, n: &str) {
        let pong = format!("pong {n}");
        if self.search_is(|m| m == Mode::Think) {
            // Answered once the engine's move is out, so that the GUI sees the move first.
            self.pending_pongs.push(pong);
        } else {
            say(&pong);
        }
    }

    /// `.`: the status of the analysis (its last completed iteration).
    fn cmd_status(&self) {
        if !self.analyzing {
            return;
        }
        if let Some(s) = lock(&self.status).clone() {
            say(&format!(
                "stat01: {} {} {} 0 {} {}",
                s.centis, s.nodes, s.depth, s.total_moves, s.best
            ));
        }
    }

    /// `draw`: accepted when the engine's last score says it stands worse, or when neither
    /// side can mate; otherwise ignored (CECP's way to decline).
    fn cmd_draw(&self) {
        if self.force {
            return;
        }
        let worse = self.last_score.is_some_and(|s| s <= DRAW_ACCEPT_SCORE);
        if worse || self.session.pos.is_insufficient_material() {
            say("offer draw");
        }
    }

    /// Makes the engine idle: pondering and analysis are stopped (the caller restarts the
    /// analysis); while the engine thinks about its move, an error and false.
    fn idle_engine(&mut self, line: &str) -> bool {
        if self.search_is(|m| m == Mode::Think) {
            error("the engine is thinking; send it after its move", line);
            return false;
        }
        self.settle();
        true
    }

    /// `memory N` (Hash) and `cores N` (Threads): values above the engine's limit are cut.
    fn cmd_engine_number(&mut self, option: &str, max: i64, args: &[&str], line: &str) {
        let value = match args {
            [n] => match n.parse::<i64>() {
                Ok(v) if v >= 1 => v.min(max),
                _ => return error("needs a positive integer", line),
            },
            _ => return error("needs one number", line),
        };
        self.set_option(option, Some(&value.to_string()), line);
    }

    /// `option NAME=VALUE` (`option NAME` for a button). Check values are 1/0 (or true/false).
    fn cmd_option(&mut self, rest: &str, line: &str) {
        let (name, value) = split_assignment(rest);
        let value = match value.map(str::trim) {
            Some("1") | Some("0") => {
                let check =
                    find_option(name).is_some_and(|s| matches!(s.kind, OptionKind::Check { .. }));
                match (check, value.map(str::trim)) {
                    (true, Some("1")) => Some("true"),
                    (true, _) => Some("false"),
                    (false, v) => v,
                }
            }
            v => v,
        };
        self.set_option(name, value, line);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        let (spec, value) = match parse_option(name, value) {
            Ok(parsed) => parsed,
            Err(e) => return error(&e, line),
        };
        if spec.scope() != OptionScope::Engine {
            return error(
                &format!("option '{}' is set by CECP commands here", spec.name),
                line,
            );
        }
        if !self.idle_engine(line) {
            return;
        }
        if let Err(e) = self.session.set_option(&spec, value) {
            error(&e, line);
        }
        self.reanalyze();
    }
}

/// The `feature` lines answering `protover 2`, the engine's options last.
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "feature myname=\"{ENGINE_NAME}\" setboard=1 usermove=1 ping=1 playother=1 san=0 \
             time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 nps=0 debug=1 \
             memory=1 smp=1 variants=\"{VARIANTS}\""
    )];
    for spec in option_specs() {
        // Hash and Threads are `memory` and `cores`; pondering and Chess960 have commands.
        if spec.scope() != OptionScope::Engine || matches!(spec.name, "Hash" | "Threads") {
            continue;
        }
        let kind = match spec.kind {
            OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
            OptionKind::Check { default } => format!("-check {}", u8::from(default)),
            OptionKind::Button => "-button".to_string(),
            OptionKind::String { default } => format!("-string {default}"),
        };
        lines.push(format!("feature option=\"{} {kind}\"", spec.name));
    }
    lines.push("feature done=1".to_string());
    lines
}

/// A CECP score: centipawns, or 100000 + N for mate in N moves, -100000 - N for mated in N.
pub fn cecp_score(score: i32) -> i32 {
    if score >= MATE_BOUND {
        MATE_SCORE + (MATE - score + 1) / 2
    } else if score <= -MATE_BOUND {
        -MATE_SCORE - (MATE + score + 1) / 2
    } else {
        score
    }
}

/// A thinking line: `ply score time nodes pv` (time in centiseconds, PV in SAN).
pub fn thinking_line(r: &IterationReport, pv_san: &[String]) -> String {
    let mut line = format!(
        "{} {} {} {}",
        r.depth,
        cecp_score(r.score),
        r.time_ms / 10,
        r.nodes
    );
    for mv in pv_san {
        line.push(' ');
        line.push_str(mv);
    }
    line
}

/// A legal move as CECP writes it: coordinates, or `O-O`/`O-O-O` for Chess960 castling.
pub fn xboard_move(board: &Board, mv: Move, chess960: bool) -> String {
    let castling = board.piece_on(mv.from) == Some(Piece::King)
        && board.colors(board.side_to_move()).has(mv.to);
    if chess960 && castling {
        if mv.to.file() > mv.from.file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        }
    } else {
        move_to_uci(board, mv, false)
    }
}

/// Parses a move from the GUI: coordinates (`e2e4`, `e7e8q`, `e1g1` or king-takes-rook
/// castling), `O-O`/`O-O-O` (also with zeros), or SAN. The move must be legal.
pub fn parse_move(board: &Board, text: &str, chess960: bool) -> Result<Move, String> {
    let text = text.trim();
    let core = text.trim_end_matches(['+', '#']);
    if let Some(short) = match core {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    } {
        let us = board.side_to_move();
        let king = board.king(us);
        let mut found = None;
        board.generate_moves_for(king.bitboard(), |pm| {
            for mv in pm {
                if board.colors(us).has(mv.to) && (mv.to.file() > mv.from.file()) == short {
                    found = Some(mv);
                }
            }
            false
        });
        return found.ok_or_else(|| format!("illegal move '{}'", shorten(text, 32)));
    }
    if let Ok(mv) = crate::position::parse_uci_move(board, text, chess960) {
        return Ok(mv);
    }
    if chess960 {
        // e1g1-style castling is not Chess960 notation, but a standard-chess king on e1 may
        // still mean it.
        if let Ok(mv) = crate::position::parse_uci_move(board, text, false) {
            return Ok(mv);
        }
    }
    parse_san(board, text)
}

/// Whether a word looks like a coordinate move or castling (a move sent without `usermove`).
fn looks_like_move(t: &str) -> bool {
    let b = t.as_bytes();
    let coords = (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
        && (b.len() == 4 || b"qrbnQRBN".contains(&b[4]));
    coords || matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0")
}

/// The result line when the game is over in `pos`: mate, stalemate, the fifty-move rule,
/// insufficient material or threefold repetition.
pub fn game_end_claim(pos: &Position) -> Option<String> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.in_check() {
            "1/2-1/2 {Stalemate}".to_string()
        } else if pos.side_to_move() == Color::White {
            "0-1 {Black mates}".to_string()
        } else {
            "1-0 {White mates}".to_string()
        });
    }
    if pos.is_fifty_move_draw() {
        Some("1/2-1/2 {Fifty-move rule}".to_string())
    } else if pos.is_insufficient_material() {
        Some("1/2-1/2 {Insufficient material}".to_string())
    } else if pos.is_repetition(0) {
        Some("1/2-1/2 {Threefold repetition}".to_string())
    } else {
        None
    }
}

/// Parses `level MPS BASE INC`: BASE in minutes (`5`, `0.5`) or `minutes:seconds`, INC in
/// seconds (fractions allowed).
fn parse_level(mps: &str, base: &str, inc: &str) -> Result<TimeControl, String> {
    let mps: u64 = mps.parse().map_err(|_| {
        format!(
            "level: moves per session '{}' is not a number",
            shorten(mps, 16)
        )
    })?;
    let base_ms = match base.split_once(':') {
        Some((m, s)) => match (m.parse::<u64>(), s.parse::<u64>()) {
            (Ok(m), Ok(s)) if s < 60 => m.saturating_mul(60_000).saturating_add(s * 1000),
            _ => return Err(format!("level: bad base time '{}'", shorten(base, 16))),
        },
        None => match base.parse::<f64>() {
            Ok(m) if m.is_finite() && m >= 0.0 => (m * 60_000.0).min(MAX_GO_MS as f64) as u64,
            _ => return Err(format!("level: bad base time '{}'", shorten(base, 16))),
        },
    };
    let inc_ms =
        parse_seconds(inc).ok_or_else(|| format!("level: bad increment '{}'", shorten(inc, 16)))?;
    Ok(TimeControl::Level {
        mps,
        base_ms: base_ms.min(MAX_GO_MS),
        inc_ms,
    })
}

/// Seconds (fractions allowed, not negative) as milliseconds, capped at [`MAX_GO_MS`].
fn parse_seconds(t: &str) -> Option<u64> {
    match t.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => {
            Some((s * 1000.0).round().min(MAX_GO_MS as f64) as u64)
        }
        _ => None,
    }
}

/// The argument of `time`/`otim` (centiseconds) in milliseconds; a negative clock (a flag
/// fell) counts as zero. Reports a bad argument.
fn centiseconds(args: &[&str], line: &str) -> Option<u64> {
    match args {
        [t] => match t.parse::<i64>() {
            Ok(cs) => Some((cs.max(0) as u64).saturating_mul(10).min(MAX_GO_MS)),
            Err(_) => {
                error("needs a time in centiseconds", line);
                None
            }
        },
        _ => {
            error("needs a time in centiseconds", line);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_cecp() {
        assert_eq!(cecp_score(35), 35);
        assert_eq!(cecp_score(-120), -120);
        assert_eq!(cecp_score(MATE - 1), MATE_SCORE + 1);
        assert_eq!(cecp_score(MATE - 5), MATE_SCORE + 3);
        assert_eq!(cecp_score(-(MATE - 2)), -MATE_SCORE - 1);
        assert_eq!(cecp_score(-MATE), -MATE_SCORE);
    }

    #[test]
    fn levels_and_seconds_parse() {
        assert_eq!(
            parse_level("40", "5", "0"),
            Ok(TimeControl::Level {
                mps: 40,
                base_ms: 300_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            parse_level("0", "2:30", "1.5"),
            Ok(TimeControl::Level {
                mps: 0,
                base_ms: 150_000,
                inc_ms: 1500
            })
        );
        assert!(parse_level("x", "5", "0").is_err());
        assert!(parse_level("40", "5:75", "0").is_err());
        assert!(parse_level("40", "-1", "0").is_err());
        assert!(parse_level("40", "5", "NaN").is_err());
        assert_eq!(parse_seconds("0.05"), Some(50));
        assert_eq!(parse_seconds("1e300"), Some(MAX_GO_MS));
        assert_eq!(parse_seconds("-1"), None);
    }

    #[test]
    fn moves_parse_in_every_notation() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let b = pos.board();
        let short = parse_move(b, "e1g1", false).unwrap();
        assert_eq!(parse_move(b, "e1h1", false).unwrap(), short);
        assert_eq!(parse_move(b, "O-O", false).unwrap(), short);
        assert_eq!(parse_move(b, "0-0", true).unwrap(), short);
        let long = parse_move(b, "O-O-O", true).unwrap();
        assert_eq!(xboard_move(b, long, true), "O-O-O");
        assert_eq!(xboard_move(b, long, false), "e1c1");
        assert_eq!(xboard_move(b, short, true), "O-O");
        assert_eq!(parse_move(b, "Ra2", false).unwrap().to_string(), "a1a2");
        assert!(parse_move(b, "e1e3", false).is_err());
        assert!(parse_move(b, "", false).is_err());
        assert!(parse_move(b, "ñ", false).is_err());
        assert!(looks_like_move("e2e4") && looks_like_move("a7a8q") && looks_like_move("O-O"));
        assert!(!looks_like_move("quit") && !looks_like_move("e2e9") && !looks_like_move("é"));
    }

    #[test]
    fn game_ends_are_claimed() {
        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        assert_eq!(game_end_claim(&mated).unwrap(), "0-1 {Black mates}");
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(game_end_claim(&stalemate).unwrap(), "1/2-1/2 {Stalemate}");
        assert_eq!(game_end_claim(&Position::startpos()), None);
    }

    #[test]
    fn features_end_with_done_and_map_the_option_table() {
        let lines = feature_lines();
        assert_eq!(lines.last().unwrap(), "feature done=1");
        assert!(lines.contains(&"feature option=\"QSearch -check 1\"".to_string()));
        assert!(lines.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(lines
            .iter()
            .all(|l| !l.contains("\"Hash ") && !l.contains("Ponder")));
    }
}

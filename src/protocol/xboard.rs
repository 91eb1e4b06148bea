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
use super::shown_line::line_shows;
use super::{run_loop, say, Frontend, ENGINE_NAME, MAX_GO_MS};
use crate::book::random_u64;
use crate::options::{
    find_option, option_specs, parse_option, split_assignment, OptionKind, OptionScope, MAX_HASH,
    MAX_THREADS,
};
use crate::params::{MATE, MATE_BOUND, MAX_DEPTH};
use crate::position::{move_to_uci, shorten, standard_castling_problem, Position};
use crate::san::{line_to_san, parse_san};
use crate::search::{shown_centipawns, IterationReport, ScoreBound, SearchReport};
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
pub enum TimeControl {
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
    /// The PV of the last thinking line shown for the engine's own move (after the ponder
    /// hit, if any; empty when none was): see `shown_line`.
    shown: Vec<Move>,
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
        match parse(line) {
            Ok(command) => self.execute(command, line),
            Err(e) => {
                error(&e.why, &e.command);
                true
            }
        }
    }

    /// Carries out one parsed command; `line` is the command as sent, for error lines.
    /// Returns false on `quit`.
    pub fn execute(&mut self, command: XboardCommand, line: &str) -> bool {
        match command {
            XboardCommand::Ignored => {}
            XboardCommand::Protover(v) => {
                if v >= 2 {
                    self.features();
                }
            }
            XboardCommand::New => self.cmd_new(),
            XboardCommand::Variant { chess960 } => {
                self.settle();
                self.session.set_chess960(chess960);
                self.reanalyze();
            }
            XboardCommand::Force => {
                self.settle();
                self.force = true;
            }
            XboardCommand::Go => {
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
            XboardCommand::PlayOther => {
                self.settle();
                self.force = false;
                self.engine_side = !self.session.pos.side_to_move();
            }
            XboardCommand::Usermove(mv) => self.usermove(&mv),
            XboardCommand::SetBoard(fen) => self.cmd_setboard(&fen),
            XboardCommand::Level(clock) => {
                self.clock = clock;
                self.own_ms = None;
                self.opp_ms = None;
            }
            XboardCommand::St(ms) => self.clock = TimeControl::PerMove(ms),
            XboardCommand::Sd(depth) => self.depth = Some(depth),
            XboardCommand::Time(ms) => self.own_ms = Some(ms),
            XboardCommand::Otim(ms) => self.opp_ms = Some(ms),
            XboardCommand::Ping(n) => self.cmd_ping(&n),
            XboardCommand::MoveNow => {
                if self.search_is(|m| m == Mode::Think) {
                    self.session.control().stop.store(true, Ordering::Relaxed);
                }
            }
            XboardCommand::Result => {
                self.settle();
                self.force = true;
            }
            XboardCommand::Undo => self.take_back(1, line),
            XboardCommand::Remove => self.take_back(2, line),
            XboardCommand::Post => self.post.store(true, Ordering::Relaxed),
            XboardCommand::NoPost => self.post.store(false, Ordering::Relaxed),
            XboardCommand::Hard => self.session.ponder = true,
            XboardCommand::Easy => {
                self.session.ponder = false;
                if self.search_is(|m| matches!(m, Mode::Ponder(_))) {
                    self.settle();
                }
            }
            XboardCommand::Analyze => {
                self.settle();
                self.analyzing = true;
                self.analyze();
            }
            XboardCommand::Exit => {
                if self.analyzing {
                    self.settle();
                    self.analyzing = false;
                }
            }
            XboardCommand::Status => self.cmd_status(),
            XboardCommand::Draw => self.cmd_draw(),
            XboardCommand::Hint => {
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
            XboardCommand::Memory(mib) => self.set_option("Hash", Some(&mib.to_string()), line),
            XboardCommand::Cores(n) => self.set_option("Threads", Some(&n.to_string()), line),
            XboardCommand::EgtPath(path) => self.cmd_egtpath(&path, line),
            XboardCommand::Option { name, value } => self.set_option(&name, value.as_deref(), line),
            XboardCommand::Quit => {
                self.settle();
                return false;
            }
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
            Some(Joined::Failed | Joined::Finished) | None => None,
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
        if !self.searchable("go") {
            return;
        }
        if self.session.pos.legal_moves().is_empty() {
            if let Some(claim) = game_end_claim(&self.session.pos) {
                say(&claim);
            }
            return;
        }
        let limits = self.think_limits(&self.session.pos);
        let pos = self.session.pos.clone();
        // A book move is played at once, without a search.
        if let Some((m, total)) = self
            .session
            .book
            .go_move(&pos, &limits, false, random_u64())
        {
            say(&format!(
                "# book move {} (weight {} of {total})",
                pos.move_to_uci(m.mv),
                m.weight
            ));
            say(&format!(
                "move {}",
                xboard_move(pos.board(), m.mv, self.session.chess960)
            ));
            self.session.pos.play(m.mv);
            self.hint = None;
            if let Some(claim) = game_end_claim(&self.session.pos) {
                say(&claim);
            }
            return;
        }
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
        if !self.searchable("analyze") {
            return;
        }
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
            shown: Vec::new(),
        }));
        let report = {
            let board = pos.board().clone();
            // The board before the expected reply of a ponder search.
            let before = match mode {
                Mode::Ponder(_) => {
                    let mut b = pos.clone();
                    b.undo();
                    b.board().clone()
                }
                _ => board.clone(),
            };
            let total_moves = pos.legal_moves().len();
            let post = Arc::clone(&self.post);
            let status = Arc::clone(&self.status);
            let shared = Arc::clone(&shared);
            *lock(&status) = None;
            Arc::new(move |r: &SearchReport| {
                let mode = {
                    let mut s = lock(&shared);
                    if s.mode == Mode::Think && post.load(Ordering::Relaxed) {
                        if let SearchReport::Iteration(r) = r {
                            // The lines of an exact report are shown, the last one last.
                            if let Some(last) =
                                r.lines.last().filter(|_| r.bound == ScoreBound::Exact)
                            {
                                s.shown.clone_from(&last.pv);
                            }
                        }
                    }
                    s.mode
                };
                let show = match mode {
                    Mode::Analyze => true,
                    Mode::Think | Mode::Ponder(_) => post.load(Ordering::Relaxed),
                };
                let r = match r {
                    SearchReport::Iteration(r) if r.bound == ScoreBound::Exact => r,
                    // A finished game: one line that says so, and a status for `.`.
                    SearchReport::NoLegalMove { score } => {
                        *lock(&status) = Some(Status {
                            centis: 0,
                            nodes: 0,
                            depth: 0,
                            total_moves: 0,
                            best: String::new(),
                        });
                        if show {
                            let end = if *score < 0 { "checkmate" } else { "stalemate" };
                            say(&format!("0 {} 0 0 ({end})", cecp_score(*score)));
                        }
                        return;
                    }
                    _ => return,
                };
                // The nodes and the time of the whole search (a ponder search's: since it
                // began pondering), so that nodes / time is its speed.
                let nodes = r.nodes;
                let pv = line_to_san(&board, &r.pv);
                *lock(&status) = Some(Status {
                    centis: r.time_ms / 10,
                    nodes,
                    depth: r.depth,
                    total_moves,
                    best: pv.first().cloned().unwrap_or_default(),
                });
                if !show {
                    return;
                }
                // A ponder search's PV starts after the expected reply: shown first, in
                // parentheses, as other engines do. With MultiPV one line per root line.
                let prefix = match mode {
                    Mode::Ponder(reply) => {
                        Some(format!("({})", line_to_san(&before, &[reply]).join(" ")))
                    }
                    _ => None,
                };
                for line in &r.lines {
                    let mut words: Vec<String> = prefix.iter().cloned().collect();
                    words.extend(line_to_san(&board, &line.pv));
                    say(&thinking_line(line.score, r, nodes, &words));
                }
            })
        };
        let chess960 = self.session.chess960;
        let thread_shared = Arc::clone(&shared);
        let post = Arc::clone(&self.post);
        let finish = move |pos: &Position, result: Option<&crate::search::SearchResult>| {
            if result.is_none() {
                say("# the search failed (internal error); tables cleared");
            }
            let mut s = lock(&thread_shared);
            if s.mode == Mode::Think && !s.discarded {
                // A move always comes with its thinking when `post` is on, and the last line
                // shown is the move's (see `shown_line`): after a ponder hit the next
                // iteration may not end before the time does (the lines shown while
                // pondering were those of the reply's search), a stopped iteration may have
                // found another move, and with MultiPV the last line is the worst.
                let report = result
                    .filter(|r| r.best_move.is_some_and(|m| !line_shows(&s.shown, m, None)))
                    .and_then(|r| r.final_report());
                if let Some(r) = report.filter(|_| post.load(Ordering::Relaxed)) {
                    // The whole search's nodes and time, as on every thinking line.
                    let pv = line_to_san(pos.board(), &r.pv).join(" ");
                    say(&format!(
                        "{} {} {} {} {pv}",
                        r.depth,
                        cecp_score(r.score),
                        r.time_ms / 10,
                        r.nodes,
                    ));
                }
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
        self.session.set_position(Position::startpos());
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

    fn cmd_setboard(&mut self, fen: &str) {
        let mut pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => return self.refuse_position(&e),
        };
        // Castling that standard chess cannot write (e1g1 would not say which move it is)
        // needs Chess960.
        if !self.session.chess960 {
            if let Some(problem) = standard_castling_problem(pos.board()) {
                return self.refuse_position(&format!(
                    "{problem}; send 'variant fischerandom' first for Chess960"
                ));
            }
        }
        self.settle();
        pos.set_chess960(self.session.chess960);
        self.session.set_position(pos);
        self.hint = None;
        self.reanalyze();
    }

    /// A `setboard` that cannot be set: the GUI's board is now one the engine does not have,
    /// so any search ends (a move already sent is kept), and none starts, nor is a move
    /// taken, until `new` or a valid `setboard` (see [`Session::position_to_search`]).
    fn refuse_position(&mut self, why: &str) {
        self.settle();
        self.session.refuse_position(why);
        error(&format!("illegal position: {why}"), "setboard");
    }

    /// The position to search, or an error line for `command` when the last `setboard` was
    /// refused.
    fn searchable(&self, command: &str) -> bool {
        match self.session.position_to_search() {
            Ok(_) => true,
            Err(e) => {
                error(&e, command);
                false
            }
        }
    }

    /// A move of the opponent (or any move in force and analysis mode).
    fn usermove(&mut self, text: &str) {
        // A move on a board the engine does not have cannot be played.
        if !self.searchable(&format!("usermove {}", shorten(text, 32))) {
            return;
        }
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
                // The limits of the move from the clocks as they are now (`time` and `otim`
                // come just before the move): those of the ponder search were computed from
                // the clocks when it began, which may be far more than is left.
                let limits = self.think_limits(&self.session.pos);
                self.session.ponder_hit(Some(limits));
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
        let what = if plies == 1 {
            "no move"
        } else {
            "fewer than two moves"
        };
        // An analysis never plays a move, so the game is known now: a take-back that cannot
        // be done leaves the analysis running.
        if self.analyzing && self.session.pos.game_ply() < plies {
            return error(&format!("{what} to take back"), line);
        }
        // Otherwise the search ends first (a move it already sent is played).
        self.settle();
        if self.session.pos.game_ply() < plies {
            return error(&format!("{what} to take back"), line);
        }
        for _ in 0..plies {
            self.session.pos.undo();
        }
        self.hint = None;
        self.reanalyze();
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

    /// `egtpath syzygy PATH`: sets `SyzygyPath`. A path none of whose directories exists
    /// (xboard sends its default, `/EGT/Syzygy`, at every start) is answered with one comment
    /// line, not an error, and changes nothing.
    fn cmd_egtpath(&mut self, path: &str, line: &str) {
        let separator = if cfg!(windows) { ';' } else { ':' };
        let exists = path
            .split(separator)
            .any(|p| !p.trim().is_empty() && std::path::Path::new(p.trim()).is_dir());
        if !exists && crate::tablebase::COMPILED_IN {
            say(&format!(
                "# egtpath syzygy {}: no such directory, no tablebases loaded",
                shorten(path, 200)
            ));
            return;
        }
        self.set_option("SyzygyPath", Some(path), line);
    }

    /// `.`: the status of the analysis (its last completed iteration).
    fn cmd_status(&self) {
        if !self.analyzing {
            return;
        }
        if let Some(s) = lock(&self.status).clone() {
            let line = format!(
                "stat01: {} {} {} 0 {} {}",
                s.centis, s.nodes, s.depth, s.total_moves, s.best
            );
            say(line.trim_end());
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

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        let (spec, value) = match parse_option(name, value) {
            Ok(parsed) => parsed,
            Err(e) => return error(&e, line),
        };
        if spec.scope() == OptionScope::FrontEnd {
            return error(
                &format!("option '{}' is set by CECP commands here", spec.name),
                line,
            );
        }
        if !self.idle_engine(line) {
            return;
        }
        match self.session.set_option(&spec, value) {
            // A note (how many tablebases were found) as a CECP comment line.
            Ok(Some(note)) => say(&format!("# {note}")),
            Ok(None) => {}
            Err(e) => error(&e, line),
        }
        self.reanalyze();
    }
}

/// The `feature` lines answering `protover 2`, the engine's options last.
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "feature myname=\"{ENGINE_NAME}\" setboard=1 usermove=1 ping=1 playother=1 san=0 \
             time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 nps=0 debug=1 \
             memory=1 smp=1 {egt}variants=\"{VARIANTS}\"",
        // `egtpath syzygy PATH` only where tablebases are compiled in.
        egt = if crate::tablebase::COMPILED_IN {
            "egt=\"syzygy\" "
        } else {
            ""
        }
    )];
    for spec in option_specs() {
        // Hash and Threads are `memory` and `cores`; pondering and Chess960 have commands
        // (the other front-end options are UCI's).
        if spec.scope() == OptionScope::FrontEnd || matches!(spec.name, "Hash" | "Threads") {
            continue;
        }
        let kind = match spec.kind {
            OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
            OptionKind::Check { default } => format!("-check {}", u8::from(default)),
            OptionKind::Button => "-button".to_string(),
            // A book is a file: the GUI offers a file chooser.
            OptionKind::String { default } if spec.name == "BookFile" => {
                format!("-file {default}")
            }
            OptionKind::String { default } => format!("-string {default}"),
        };
        lines.push(format!("feature option=\"{} {kind}\"", spec.name));
    }
    lines.push("feature done=1".to_string());
    lines
}

/// A CECP score: centipawns (a tablebase win as 20000 less its plies, see
/// [`shown_centipawns`]), or 100000 + N for mate in N moves, -100000 - N for mated in N.
pub fn cecp_score(score: i32) -> i32 {
    if score >= MATE_BOUND {
        MATE_SCORE + (MATE - score + 1) / 2
    } else if score <= -MATE_BOUND {
        -MATE_SCORE - (MATE + score + 1) / 2
    } else {
        shown_centipawns(score)
    }
}

/// A thinking line: `ply score time nodes pv` (time in centiseconds, PV in SAN) of one
/// line of an iteration, with `score` and `nodes` as shown.
pub fn thinking_line(score: i32, r: &IterationReport, nodes: u64, pv_san: &[String]) -> String {
    let mut line = format!(
        "{} {} {} {}",
        r.depth,
        cecp_score(score),
        r.time_ms / 10,
        nodes
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

/// One CECP command line, parsed: what the command is and its typed fields. Whatever needs
/// the position or the game state (move and FEN legality, whether there is a move to take
/// back, option values) is checked when the command is carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XboardCommand {
    /// An empty line, or a command the engine has nothing to do for (`xboard`, `accepted`,
    /// `rejected`, `random`, `computer`, `name`, `rating`, `ics`).
    Ignored,
    /// `protover N`: features are announced from version 2 on.
    Protover(u32),
    /// `new`.
    New,
    /// `variant normal` or `variant fischerandom`.
    Variant { chess960: bool },
    /// `force`.
    Force,
    /// `go`.
    Go,
    /// `playother`.
    PlayOther,
    /// `usermove MOVE`, or a coordinate move or castling sent alone.
    Usermove(String),
    /// `setboard FEN` (checked when carried out).
    SetBoard(String),
    /// `level MPS BASE INC` (always a [`TimeControl::Level`]).
    Level(TimeControl),
    /// `st SECONDS`, in milliseconds (more than zero).
    St(u64),
    /// `sd DEPTH`, cut to the deepest search.
    Sd(i32),
    /// `time CENTISECONDS`: the engine's clock, in milliseconds.
    Time(u64),
    /// `otim CENTISECONDS`: the opponent's clock, in milliseconds.
    Otim(u64),
    /// `ping N`: the text after `ping`, echoed in `pong`.
    Ping(String),
    /// `?`: move now.
    MoveNow,
    /// `result …`.
    Result,
    /// `undo`.
    Undo,
    /// `remove`.
    Remove,
    /// `post`.
    Post,
    /// `nopost`.
    NoPost,
    /// `hard`: pondering on.
    Hard,
    /// `easy`: pondering off.
    Easy,
    /// `analyze`.
    Analyze,
    /// `exit`: leave analysis.
    Exit,
    /// `.`: the analysis status line.
    Status,
    /// `draw`: a draw offer.
    Draw,
    /// `hint`.
    Hint,
    /// `memory N`: the hash size in MiB, cut to the largest.
    Memory(i64),
    /// `cores N`: the number of threads, cut to the largest.
    Cores(i64),
    /// `egtpath syzygy PATH`: the Syzygy tablebase directories (the `SyzygyPath` option).
    EgtPath(String),
    /// `option NAME[=VALUE]`, a check's `1`/`0` made `true`/`false`.
    Option { name: String, value: Option<String> },
    /// `quit`.
    Quit,
}

/// A line [`parse`] rejects: the `Error (why): command` line's two parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// What is wrong.
    pub why: String,
    /// What the error line quotes: the line, or the unknown command word.
    pub command: String,
}

/// Parses one CECP command line.
pub fn parse(line: &str) -> Result<XboardCommand, BadLine> {
    let line = line.trim();
    let bad = |why: &str| BadLine {
        why: why.to_string(),
        command: line.to_string(),
    };
    if line.is_empty() {
        return Ok(XboardCommand::Ignored);
    }
    let (cmd, rest) = match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
    };
    let args: Vec<&str> = rest.split_whitespace().collect();
    Ok(match cmd {
        "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" => {
            XboardCommand::Ignored
        }
        "protover" => match rest.parse::<u32>() {
            Ok(v) => XboardCommand::Protover(v),
            Err(_) => return Err(bad("protover needs a version number")),
        },
        "new" => XboardCommand::New,
        "variant" => match rest {
            "normal" => XboardCommand::Variant { chess960: false },
            "fischerandom" => XboardCommand::Variant { chess960: true },
            "" => return Err(bad("variant needs a name")),
            _ => return Err(bad(&format!("unsupported variant, only {VARIANTS}"))),
        },
        "force" => XboardCommand::Force,
        "go" => XboardCommand::Go,
        "playother" => XboardCommand::PlayOther,
        "usermove" => match args.as_slice() {
            [mv] => XboardCommand::Usermove(mv.to_string()),
            [] => return Err(bad("usermove needs a move")),
            _ => return Err(bad("usermove takes one move")),
        },
        "setboard" if rest.is_empty() => return Err(bad("setboard needs a FEN")),
        "setboard" => XboardCommand::SetBoard(rest.to_string()),
        "level" => match args.as_slice() {
            [mps, base, inc] => {
                XboardCommand::Level(parse_level(mps, base, inc).map_err(|e| bad(&e))?)
            }
            _ => return Err(bad("level needs MPS BASE INC, e.g. level 40 5 0")),
        },
        "st" => match args.as_slice() {
            [secs] => match parse_seconds(secs) {
                Some(ms) if ms > 0 => XboardCommand::St(ms),
                _ => {
                    return Err(bad(&format!(
                        "st needs a positive number of seconds, at most {}",
                        MAX_GO_MS / 1000
                    )))
                }
            },
            _ => return Err(bad("st needs a number of seconds")),
        },
        "sd" => match args.as_slice() {
            [d] => match d.parse::<i64>() {
                Ok(d) if (1..=MAX_DEPTH as i64).contains(&d) => XboardCommand::Sd(d as i32),
                _ => return Err(bad(&format!("sd needs a depth from 1 to {MAX_DEPTH}"))),
            },
            _ => return Err(bad("sd needs a depth")),
        },
        "time" => XboardCommand::Time(centiseconds(&args).ok_or_else(|| bad(NEEDS_CENTIS))?),
        "otim" => XboardCommand::Otim(centiseconds(&args).ok_or_else(|| bad(NEEDS_CENTIS))?),
        "ping" => XboardCommand::Ping(rest.to_string()),
        "?" => XboardCommand::MoveNow,
        "result" => XboardCommand::Result,
        "undo" => XboardCommand::Undo,
        "remove" => XboardCommand::Remove,
        "post" => XboardCommand::Post,
        "nopost" => XboardCommand::NoPost,
        "hard" => XboardCommand::Hard,
        "easy" => XboardCommand::Easy,
        "analyze" => XboardCommand::Analyze,
        "exit" => XboardCommand::Exit,
        "." => XboardCommand::Status,
        "draw" => XboardCommand::Draw,
        "hint" => XboardCommand::Hint,
        "memory" => XboardCommand::Memory(positive(&args, MAX_HASH).map_err(|e| bad(&e))?),
        "cores" => XboardCommand::Cores(positive(&args, MAX_THREADS).map_err(|e| bad(&e))?),
        "egtpath" => {
            let (kind, path) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if !kind.eq_ignore_ascii_case("syzygy") {
                return Err(bad(
                    "only Syzygy tablebases are supported [egtpath syzygy PATH]",
                ));
            }
            XboardCommand::EgtPath(path.trim().to_string())
        }
        "option" => {
            let (name, value) = split_assignment(rest);
            // CECP sends a check's value as 1 or 0.
            let value = match value {
                Some(v @ ("1" | "0"))
                    if find_option(name)
                        .is_some_and(|s| matches!(s.kind, OptionKind::Check { .. })) =>
                {
                    Some(if v == "1" { "true" } else { "false" })
                }
                v => v,
            };
            XboardCommand::Option {
                name: name.to_string(),
                value: value.map(str::to_string),
            }
        }
        "quit" => XboardCommand::Quit,
        _ if args.is_empty() && looks_like_move(cmd) => XboardCommand::Usermove(cmd.to_string()),
        _ => {
            return Err(BadLine {
                why: "unknown command".to_string(),
                command: cmd.to_string(),
            })
        }
    })
}

/// The error of a bad `time`/`otim`.
const NEEDS_CENTIS: &str = "needs a time in centiseconds, at most 100000000000 (about 31 years)";

/// The one argument of `memory`/`cores`: a positive integer, values above `max` cut.
fn positive(args: &[&str], max: i64) -> Result<i64, String> {
    match args {
        [n] => match n.parse::<i64>() {
            Ok(v) if (1..=max).contains(&v) => Ok(v),
            _ => Err(format!("needs a positive integer, at most {max}")),
        },
        _ => Err("needs one number".to_string()),
    }
}

/// The one argument of `time`/`otim` (centiseconds) in milliseconds; a negative clock (a flag
/// fell) counts as zero.
fn centiseconds(args: &[&str]) -> Option<u64> {
    match args {
        [t] => t
            .parse::<i64>()
            .ok()
            .map(|cs| (cs.max(0) as u64).saturating_mul(10))
            .filter(|&ms| ms <= MAX_GO_MS),
        _ => None,
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
            (Ok(m), Ok(s)) if s < 60 && m <= MAX_GO_MS / 60_000 => m * 60_000 + s * 1000,
            _ => return Err(format!("level: bad base time '{}'", shorten(base, 16))),
        },
        None => match base.parse::<f64>() {
            Ok(m) if m.is_finite() && m >= 0.0 && m * 60_000.0 <= MAX_GO_MS as f64 => {
                (m * 60_000.0) as u64
            }
            _ => {
                return Err(format!(
                    "level: bad base time '{}' (minutes, at most {})",
                    shorten(base, 16),
                    MAX_GO_MS / 60_000
                ))
            }
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

/// Seconds (fractions allowed, not negative, at most [`MAX_GO_MS`] / 1000) as milliseconds.
/// A larger value is refused, as UCI refuses it (no silent clamp).
fn parse_seconds(t: &str) -> Option<u64> {
    match t.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 && (s * 1000.0).round() <= MAX_GO_MS as f64 => {
            Some((s * 1000.0).round() as u64)
        }
        _ => None,
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
        assert_eq!(cecp_score(crate::params::TB_WIN - 3), 19997);
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
        assert_eq!(parse_seconds("1e300"), None);
        assert_eq!(parse_seconds("1e9"), Some(MAX_GO_MS));
        assert_eq!(parse_seconds("1000000000.001"), None);
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

    #[test]
    fn well_formed_lines_parse_to_their_commands() {
        assert_eq!(parse(""), Ok(XboardCommand::Ignored));
        assert_eq!(parse("  xboard \r"), Ok(XboardCommand::Ignored));
        assert_eq!(parse("name Some Body"), Ok(XboardCommand::Ignored));
        assert_eq!(parse("protover 2"), Ok(XboardCommand::Protover(2)));
        assert_eq!(parse("protover 1"), Ok(XboardCommand::Protover(1)));
        assert_eq!(
            parse("variant fischerandom"),
            Ok(XboardCommand::Variant { chess960: true })
        );
        assert_eq!(
            parse("usermove e2e4"),
            Ok(XboardCommand::Usermove("e2e4".into()))
        );
        assert_eq!(parse("e7e8q"), Ok(XboardCommand::Usermove("e7e8q".into())));
        assert_eq!(parse("O-O"), Ok(XboardCommand::Usermove("O-O".into())));
        assert_eq!(
            parse("usermove Nf3"),
            Ok(XboardCommand::Usermove("Nf3".into()))
        );
        assert_eq!(
            parse("setboard  8/8/8/8/8/8/8/K1k5 w - - 0 1 "),
            Ok(XboardCommand::SetBoard(
                "8/8/8/8/8/8/8/K1k5 w - - 0 1".into()
            ))
        );
        assert_eq!(
            parse("level 40 0:30 2.5"),
            Ok(XboardCommand::Level(TimeControl::Level {
                mps: 40,
                base_ms: 30_000,
                inc_ms: 2500
            }))
        );
        assert_eq!(parse("st 0.5"), Ok(XboardCommand::St(500)));
        assert_eq!(parse("sd 7"), Ok(XboardCommand::Sd(7)));
        assert!(parse("sd 100000").is_err());
        assert_eq!(
            parse(&format!("sd {MAX_DEPTH}")),
            Ok(XboardCommand::Sd(MAX_DEPTH))
        );
        assert_eq!(parse("time 12345"), Ok(XboardCommand::Time(123_450)));
        assert_eq!(parse("otim -40"), Ok(XboardCommand::Otim(0)));
        // Beyond about 31 years a clock is an error (as `sd`, `memory` and UCI's `go`), not
        // a silent clamp.
        assert!(parse("time 99999999999999").is_err());
        assert!(parse("time 100000000001").is_err());
        assert_eq!(
            parse("time 100000000000"),
            Ok(XboardCommand::Time(MAX_GO_MS))
        );
        assert!(parse("st 1e308").is_err());
        assert!(parse("level 40 1e300 0").is_err());
        assert!(parse("level 40 99999999999:00 0").is_err());
        assert!(parse("level 40 5 1e300").is_err());
        assert_eq!(parse("ping 17"), Ok(XboardCommand::Ping("17".into())));
        assert_eq!(parse("ping"), Ok(XboardCommand::Ping(String::new())));
        assert_eq!(parse("?"), Ok(XboardCommand::MoveNow));
        assert_eq!(parse("."), Ok(XboardCommand::Status));
        assert_eq!(parse("result 1-0 {White mates}"), Ok(XboardCommand::Result));
        assert_eq!(parse("undo"), Ok(XboardCommand::Undo));
        assert_eq!(parse("remove"), Ok(XboardCommand::Remove));
        assert_eq!(parse("memory 64"), Ok(XboardCommand::Memory(64)));
        assert!(parse("memory 99999999").is_err());
        assert_eq!(
            parse(&format!("memory {MAX_HASH}")),
            Ok(XboardCommand::Memory(MAX_HASH))
        );
        assert_eq!(parse("cores 4"), Ok(XboardCommand::Cores(4)));
        assert_eq!(
            parse("option QSearch=0"),
            Ok(XboardCommand::Option {
                name: "QSearch".into(),
                value: Some("false".into())
            })
        );
        assert_eq!(
            parse("option MultiPV = 1"),
            Ok(XboardCommand::Option {
                name: "MultiPV".into(),
                value: Some("1".into())
            })
        );
        assert_eq!(
            parse("option Clear Hash"),
            Ok(XboardCommand::Option {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(parse("quit"), Ok(XboardCommand::Quit));
    }

    #[test]
    fn malformed_lines_are_errors_that_name_the_problem() {
        let bad = |line: &str, why: &str| {
            assert_eq!(
                parse(line),
                Err(BadLine {
                    why: why.to_string(),
                    command: line.trim().to_string()
                }),
                "{line:?}"
            );
        };
        bad("protover two", "protover needs a version number");
        bad("protover -2", "protover needs a version number");
        bad("variant", "variant needs a name");
        bad(
            "variant crazyhouse",
            "unsupported variant, only normal,fischerandom",
        );
        bad("usermove", "usermove needs a move");
        bad("usermove e2e4 e7e5", "usermove takes one move");
        bad("setboard", "setboard needs a FEN");
        bad("level 40 5", "level needs MPS BASE INC, e.g. level 40 5 0");
        bad(
            "level x 5 0",
            "level: moves per session 'x' is not a number",
        );
        bad("level 40 5:99 0", "level: bad base time '5:99'");
        bad("level 40 5 -1", "level: bad increment '-1'");
        bad("st", "st needs a number of seconds");
        bad(
            "st 0",
            "st needs a positive number of seconds, at most 1000000000",
        );
        bad(
            "st inf",
            "st needs a positive number of seconds, at most 1000000000",
        );
        bad("sd", "sd needs a depth");
        bad("sd 0", &format!("sd needs a depth from 1 to {MAX_DEPTH}"));
        bad("sd 1.5", &format!("sd needs a depth from 1 to {MAX_DEPTH}"));
        bad("time", NEEDS_CENTIS);
        bad("otim 1 2", NEEDS_CENTIS);
        bad("time 9e9", NEEDS_CENTIS);
        bad("memory", "needs one number");
        bad(
            "memory 0",
            &format!("needs a positive integer, at most {MAX_HASH}"),
        );
        bad(
            "memory 16385",
            &format!("needs a positive integer, at most {MAX_HASH}"),
        );
        bad(
            "cores many",
            &format!("needs a positive integer, at most {MAX_THREADS}"),
        );
        // An unknown command is quoted alone; a move-like word with arguments is unknown.
        assert_eq!(
            parse("xyzzy 1 2"),
            Err(BadLine {
                why: "unknown command".into(),
                command: "xyzzy".into()
            })
        );
        assert_eq!(parse("e2e4 e7e5").unwrap_err().command, "e2e4");
        assert_eq!(parse("e2e9").unwrap_err().why, "unknown command");
    }

    #[test]
    fn garbage_and_long_lines_never_panic() {
        let long_word = "ü".repeat(200_000);
        assert_eq!(parse(&long_word).unwrap_err().why, "unknown command");
        let e = parse(&format!("level {long_word} 5 0")).unwrap_err();
        assert!(e.why.chars().count() < 80, "{}", e.why);
        let e = parse(&format!("st {long_word}")).unwrap_err();
        assert_eq!(
            e.why,
            "st needs a positive number of seconds, at most 1000000000"
        );
        let many = format!("usermove{}", " e2e4".repeat(100_000));
        assert_eq!(parse(&many).unwrap_err().why, "usermove takes one move");
        for line in [
            "\u{0}",
            "\u{7f}\u{0} x",
            "option =",
            "option",
            "level 1 : 0",
            "é2é4",
        ] {
            let _ = parse(line);
        }
        let bytes: Vec<u8> = (0u32..5000).map(|i| (i * 7919 % 251) as u8).collect();
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }
}

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
//!
//! This module holds the game state and carries the commands out; each concern beside it has
//! a module of its own: `command.rs` parses a line, `clock.rs` keeps the time control and the
//! clocks, `features.rs` announces and sets the options, `moves.rs` reads and writes moves and
//! results, `thinking.rs` shows a search and sends its move, `analysis.rs` is analysis mode.

mod analysis;
mod clock;
mod command;
mod features;
mod moves;
mod thinking;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use cozy_chess::{Color, Move};

use super::session::{Joined, Session};
use super::{run_loop, say, Frontend};
use crate::book::random_u64;
use crate::position::{shorten, standard_castling_problem, Position};
use crate::search::{ReportSink, SearchReport};
use crate::time::Limits;

use analysis::Status;
use clock::Clocks;
use thinking::Thinking;

pub use clock::TimeControl;
pub use command::{parse, BadLine, XboardCommand};
pub use features::{feature_lines, VARIANTS};
pub use moves::{game_end_claim, parse_move, xboard_move};
pub use thinking::{cecp_score, thinking_line, MATE_SCORE};

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
    /// The time control and the clocks.
    clocks: Clocks,
    /// `sd`: depth limit of the engine's moves.
    depth: Option<i32>,
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
            clocks: Clocks::new(),
            depth: None,
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
                self.leave_analysis();
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
            XboardCommand::Level(control) => self.clocks.set_level(control),
            XboardCommand::St(ms) => self.clocks.control = TimeControl::PerMove(ms),
            XboardCommand::Sd(depth) => self.depth = Some(depth),
            XboardCommand::Time(ms) => self.clocks.own_ms = Some(ms),
            XboardCommand::Otim(ms) => self.clocks.opp_ms = Some(ms),
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
            XboardCommand::Analyze => self.cmd_analyze(),
            XboardCommand::Exit => self.leave_analysis(),
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
            self.clocks.moved(run.started.elapsed().as_millis() as u64);
            if may_ponder {
                self.start_pondering();
            }
        }
        for pong in self.pending_pongs.drain(..) {
            say(&pong);
        }
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
        let limits = self.clocks.limits(&self.session.pos, self.depth);
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
        let mut limits = self.clocks.limits(&pos, self.depth);
        limits.ponder = true;
        self.start_search(Mode::Ponder(reply), pos, limits);
    }

    /// Runs a search of `pos` on the session's thread, its output shown by a [`Thinking`].
    fn start_search(&mut self, mode: Mode, pos: Position, limits: Limits) {
        let shared = Arc::new(Mutex::new(Shared {
            mode,
            discarded: false,
            sent: None,
            done: false,
            shown: Vec::new(),
        }));
        let thinking = Arc::new(Thinking::new(
            &pos,
            mode,
            Arc::clone(&shared),
            Arc::clone(&self.post),
            Arc::clone(&self.status),
            self.session.chess960,
        ));
        let report: ReportSink = {
            let thinking = Arc::clone(&thinking);
            Arc::new(move |r: &SearchReport| thinking.report(r))
        };
        let finish = move |pos: &Position, result: Option<&crate::search::SearchResult>| {
            thinking.finish(pos, result)
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

    fn cmd_new(&mut self) {
        self.settle();
        self.session.set_position(Position::startpos());
        self.session.set_chess960(false);
        self.force = false;
        self.engine_side = Color::Black;
        self.depth = None;
        self.clocks.reset();
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
                let limits = self.clocks.limits(&self.session.pos, self.depth);
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
}

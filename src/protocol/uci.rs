//! The UCI skin of the session: parses UCI command lines, drives the [`Session`] and formats
//! its answers (`info` lines from the search's reports, `bestmove`, the `uci` option list).
//! Bad input never ends the engine: it gets one `info string error: …` line and the previous
//! state stays.
//!
//! This module carries the commands out on the session; beside it, `command.rs` parses a line
//! (and `go.rs` the parameters of `go`), `info.rs` writes the `info` lines and `bestmove`, and
//! `options.rs` lists and sets the options.

mod command;
mod go;
mod info;
mod options;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use cozy_chess::Move;

use super::session::{Joined, Session};
use super::shown_line::ShownLine;
use super::{run_loop, say, say_lines, Frontend};
use crate::perft;
use crate::position::shorten as truncate;
use crate::position::{board_ascii, standard_castling_problem, Position};

use info::{fallback_bestmove, info_reporter};
use options::cmd_uci;

pub use command::{parse, PositionStart, UciCommand};
pub use go::GoParams;
pub use info::{bestmove_line, info_lines, uci_score};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}

//! The engine session behind both protocols: the engine, the game position, the settings the
//! user made (engine options, book, pondering, Chess960) and the life of the search thread.
//!
//! There is one way to run a search ([`Session::start_search`]: a thread with a 64 MiB stack,
//! the search inside `catch_unwind`, the thread handing the engine back when joined), the same
//! thread for the other long commands ([`Session::start_job`]: perft, bench), so that the
//! command loop answers `isready`, `stop` and `quit` while they run, and one way to recover
//! from a failed one ([`Session::join`] rebuilds the engine and applies again
//! every engine option the user set, so that Hash, Threads, MultiPV, Move Overhead and the
//! QSearch options survive; the book and the front-end settings live in the session and are
//! untouched). The protocol skins only parse commands and format what the session reports.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use cozy_chess::Move;

use super::book_moves::BookState;
use crate::options::{
    apply_value, Apply, FrontEndOption, OptionKind, OptionSpec, OptionValue, DEFAULT_HASH,
};
use crate::position::Position;
use crate::search::{Control, Engine, ReportSink, SearchResult};
use crate::skill::{self, Strength};
use crate::time::Limits;

/// Stack size of the search thread (the recursion of a deep search needs room).
const SEARCH_STACK: usize = 64 << 20;
/// How often a search that has ended looks whether it may answer (see [`await_answer`]).
const ANSWER_POLL: std::time::Duration = std::time::Duration::from_millis(1);

/// How a search that was joined ended.
#[derive(Debug)]
pub enum Joined {
    /// It completed: its result.
    Done(Box<SearchResult>),
    /// The search panicked (a bug); the thread caught it and ended normally. The engine was
    /// rebuilt with the user's options.
    Failed,
    /// The search thread itself died. The engine was rebuilt with the user's options.
    Lost,
    /// A job that is not a search ([`Session::start_job`]) ended.
    Finished,
}

/// How the work on the search thread ended (what the thread hands back with the engine).
enum Outcome {
    /// A search and its result.
    Searched(Box<SearchResult>),
    /// A job that is not a search ended.
    Finished,
    /// The search or job panicked (caught on the thread).
    Failed,
}

/// A failure injected into the next search, to test the recovery path.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The search panics (caught inside the thread).
    Search,
    /// The thread panics after the search (its join fails).
    Thread,
    /// The thread cannot be started.
    Spawn,
}

/// The engine, the game and the search thread, shared by the UCI and XBoard skins.
pub struct Session {
    /// `None` while a search thread holds it.
    engine: Option<Engine>,
    /// The stop and ponder flags of the engine.
    control: Arc<Control>,
    search: Option<JoinHandle<(Engine, Outcome)>>,
    /// Set by [`Session::stop`], cleared when a search or job starts: tells a job of several
    /// searches (bench) to start no more, since each search sets and clears the engine's own
    /// stop flag.
    halt: Arc<AtomicBool>,
    /// Set by a search thread once its search has ended and may answer (past
    /// [`await_answer`]), cleared when a search or job starts.
    answering: Arc<AtomicBool>,
    /// The engine options set by the user, last value of each, in the order set: applied
    /// again to a rebuilt engine.
    applied: Vec<(OptionSpec, OptionValue)>,
    /// The game position.
    pub pos: Position,
    /// Why the last position the GUI sent (UCI `position`, XBoard `setboard`) was refused,
    /// until one is accepted: see [`Session::position_to_search`].
    refused: Option<String>,
    /// Chess960 (UCI `UCI_Chess960`, XBoard `variant fischerandom`).
    pub chess960: bool,
    /// Pondering allowed (UCI `Ponder`, XBoard `hard`/`easy`).
    pub ponder: bool,
    /// The opening book and its options.
    pub book: BookState,
    /// `UCI_ShowWDL`: `info` lines carry the win/draw/loss estimate.
    pub show_wdl: bool,
    /// `Statistics`: the statistics line after each search (on by default).
    pub statistics: bool,
    /// `UCI_LimitStrength`, `UCI_Elo`, `Skill Level`.
    pub strength: Strength,
    #[cfg(test)]
    inject: Option<Failure>,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    /// A fresh session: start position, default options, no book.
    pub fn new() -> Self {
        let engine = Engine::new(DEFAULT_HASH);
        Self {
            control: engine.control(),
            engine: Some(engine),
            search: None,
            halt: Arc::new(AtomicBool::new(false)),
            answering: Arc::new(AtomicBool::new(false)),
            applied: Vec::new(),
            pos: Position::startpos(),
            refused: None,
            chess960: false,
            ponder: false,
            book: BookState::default(),
            show_wdl: false,
            statistics: true,
            strength: Strength::default(),
            #[cfg(test)]
            inject: None,
        }
    }

    /// The stop and ponder flags of the engine (also of a running search).
    pub fn control(&self) -> &Control {
        &self.control
    }

    /// Sets the game position the GUI sent (it is searched from now on).
    pub fn set_position(&mut self, pos: Position) {
        self.pos = pos;
        self.refused = None;
    }

    /// Records that the position the GUI sent was refused (`why`): the previous position
    /// stays, for every command but the searches (see [`Session::position_to_search`]).
    pub fn refuse_position(&mut self, why: &str) {
        self.refused = Some(crate::position::shorten(why, 200));
    }

    /// The position a search (or a count of it) may start from, or why there is none: after
    /// a refused position the GUI's board is one Lull does not have, and a move for the
    /// previous position would be a move for a position the GUI never sent. So no search
    /// starts until a position is accepted; each protocol answers in its own way (UCI: an
    /// error and `bestmove 0000`, XBoard: an error and no move).
    pub fn position_to_search(&self) -> Result<&Position, String> {
        match &self.refused {
            None => Ok(&self.pos),
            Some(why) => Err(format!(
                "no position to search: the last one sent was refused ({why}); send a new one"
            )),
        }
    }

    /// The ponder hit: the running ponder search becomes the search of the engine's move,
    /// its clock starting now, with `limits` when given (computed from the clocks as they
    /// are now), else with the limits it was started with.
    pub fn ponder_hit(&self, limits: Option<Limits>) {
        if let Some(limits) = limits {
            *self
                .control
                .hit_limits
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = Some(limits);
        }
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    /// Tells a running search or job to end now (pondering ends too).
    pub fn stop(&self) {
        self.halt.store(true, Ordering::SeqCst);
        self.control.pondering.store(false, Ordering::Relaxed);
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a search thread exists and has not ended yet.
    pub fn search_running(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Whether the work on the search thread is ending with no command needed: it was told
    /// to stop, or its search has ended and answers now (not an `infinite` or ponder search
    /// that ended by a limit of its own: that one waits for `stop` or the ponder hit). A
    /// command may then wait for it rather than be refused.
    pub fn search_ending(&self) -> bool {
        self.halt.load(Ordering::SeqCst) || self.answering.load(Ordering::SeqCst)
    }

    /// Whether a search thread has ended and waits to be joined.
    pub fn search_finished(&self) -> bool {
        self.search.as_ref().is_some_and(|h| h.is_finished())
    }

    /// The engine, unless a search thread holds it (join it first).
    pub fn engine_mut(&mut self) -> Option<&mut Engine> {
        self.engine.as_mut()
    }

    /// Turns Chess960 notation on or off (the position too).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
        self.pos.set_chess960(on);
    }

    /// Applies a checked option value where its table entry says: to the engine (which must
    /// be idle; the value is kept for a rebuilt engine), to the book, or to the session.
    /// Returns a line to show (a book loaded) or an error.
    pub fn set_option(
        &mut self,
        spec: &OptionSpec,
        value: OptionValue,
    ) -> Result<Option<String>, String> {
        match spec.apply {
            Apply::Engine(set) => {
                let engine = self.engine.as_mut().ok_or("a search is running")?;
                let result = set(engine, &value);
                // A failed SyzygyPath still replaced the tables (with none): the rebuilt
                // engine must get the same, so a failed value is kept for it too.
                if spec.kind != OptionKind::Button && (result.is_ok() || spec.name == "SyzygyPath")
                {
                    self.applied.retain(|(s, _)| s.name != spec.name);
                    self.applied.push((*spec, value));
                }
                result
            }
            Apply::Book(which) => self.book.set(which, value),
            Apply::FrontEnd(FrontEndOption::Ponder) => {
                self.ponder = value.flag();
                Ok(None)
            }
            Apply::FrontEnd(FrontEndOption::Chess960) => {
                self.set_chess960(value.flag());
                Ok(None)
            }
            Apply::FrontEnd(FrontEndOption::ShowWdl) => {
                self.show_wdl = value.flag();
                Ok(None)
            }
            Apply::FrontEnd(FrontEndOption::Statistics) => {
                self.statistics = value.flag();
                Ok(None)
            }
            Apply::FrontEnd(FrontEndOption::LimitStrength) => {
                self.strength.limit = value.flag();
                Ok(None)
            }
            Apply::FrontEnd(FrontEndOption::Elo) => {
                self.strength.elo = value.int();
                Ok(None)
            }
            Apply::FrontEnd(FrontEndOption::SkillLevel) => {
                self.strength.level = value.int();
                Ok(None)
            }
        }
    }

    /// Starts searching `pos` on the search thread. `report` receives the search's reports
    /// while it runs; `finish` runs on the thread when the search has ended, with its result
    /// (`None` if the search failed), and sends the protocol's answer. The stop flag is
    /// cleared and the ponder flag set from `limits` before the thread starts.
    ///
    /// An error when no idle engine is there (a search is running) or the thread cannot be
    /// started (the engine then stays, as it was).
    pub fn start_search(
        &mut self,
        pos: Position,
        limits: Limits,
        searchmoves: Vec<Move>,
        report: Option<ReportSink>,
        finish: impl FnOnce(&Position, Option<&SearchResult>) + Send + 'static,
    ) -> Result<(), String> {
        let engine = self.engine.as_mut().ok_or("a search is running")?;
        engine.set_report_sink(report);
        self.control
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        *self
            .control
            .hit_limits
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = None;
        // Read here, taken by the spawn.
        #[cfg(test)]
        let inject = self.inject;
        let level = self.strength.level();
        let control = Arc::clone(&self.control);
        let answering = Arc::clone(&self.answering);
        let started = self.spawn(move |engine, halt| {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                #[cfg(test)]
                if inject == Some(Failure::Search) {
                    panic!("injected search failure (test)");
                }
                skill::search(engine, &pos, &limits, &searchmoves, level)
            }));
            engine.set_report_sink(None);
            let result = outcome.ok();
            await_answer(&limits, &control, halt);
            answering.store(true, Ordering::SeqCst);
            finish(&pos, result.as_ref());
            #[cfg(test)]
            if inject == Some(Failure::Thread) {
                panic!("injected search thread failure (test)");
            }
            match result {
                Some(result) => Outcome::Searched(Box::new(result)),
                None => Outcome::Failed,
            }
        });
        if started.is_err() {
            if let Some(engine) = self.engine.as_mut() {
                engine.set_report_sink(None);
            }
        }
        started
    }

    /// Runs `job` with the engine on the search thread: a long command (perft, bench) that
    /// must not block the command loop. The job should end soon once the flag it is given is
    /// set (by [`Session::stop`]); the engine's stop flag is set then too, so that a search
    /// inside the job ends. A panic in the job is caught (the engine is rebuilt). Joined
    /// like a search; an error when a search is running or the thread cannot be started.
    pub fn start_job(
        &mut self,
        job: impl FnOnce(&mut Engine, &AtomicBool) + Send + 'static,
    ) -> Result<(), String> {
        self.spawn(move |engine, halt| {
            match std::panic::catch_unwind(AssertUnwindSafe(|| job(engine, halt))) {
                Ok(()) => Outcome::Finished,
                Err(_) => Outcome::Failed,
            }
        })
    }

    /// The one spawn of the search thread: clears the stop flags and moves the engine into
    /// a thread with a 64 MiB stack that runs `work`. When the thread cannot be started the
    /// engine stays here, as it was.
    fn spawn(
        &mut self,
        work: impl FnOnce(&mut Engine, &AtomicBool) -> Outcome + Send + 'static,
    ) -> Result<(), String> {
        let engine = self.engine.take().ok_or("a search is running")?;
        self.halt.store(false, Ordering::SeqCst);
        self.answering.store(false, Ordering::SeqCst);
        self.control.stop.store(false, Ordering::SeqCst);
        // The engine goes through a slot, so that it is still there if the thread never runs
        // (a closure given to a failed spawn is dropped, and the engine with it).
        let slot = Arc::new(Mutex::new(Some(engine)));
        let theirs = Arc::clone(&slot);
        let halt = Arc::clone(&self.halt);
        let builder = std::thread::Builder::new()
            .name("lull-search".into())
            .stack_size(SEARCH_STACK);
        #[cfg(test)]
        let builder = if self.inject.take() == Some(Failure::Spawn) {
            // Larger than any address space: the spawn fails.
            builder.stack_size(1 << 50)
        } else {
            builder
        };
        let spawned = builder.spawn(move || {
            let taken = theirs.lock().unwrap_or_else(|e| e.into_inner()).take();
            let Some(mut engine) = taken else {
                // Cannot happen: the slot is emptied only here or after a failed spawn.
                panic!("the search thread found no engine");
            };
            let outcome = work(&mut engine, &halt);
            (engine, outcome)
        });
        match spawned {
            Ok(handle) => {
                self.search = Some(handle);
                Ok(())
            }
            Err(e) => {
                let engine = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                match engine {
                    Some(engine) => self.engine = Some(engine),
                    None => self.recover(),
                }
                Err(e.to_string())
            }
        }
    }

    /// Waits for the search thread, if any, and takes the engine back; after a failure the
    /// engine is rebuilt with the user's options. `None` when no search was there.
    pub fn join(&mut self) -> Option<Joined> {
        let handle = self.search.take()?;
        Some(match handle.join() {
            Ok((engine, Outcome::Searched(result))) => {
                self.engine = Some(engine);
                Joined::Done(result)
            }
            Ok((engine, Outcome::Finished)) => {
                self.engine = Some(engine);
                Joined::Finished
            }
            Ok((engine, Outcome::Failed)) => {
                // Its tables may be half-written: start afresh.
                drop(engine);
                self.recover();
                Joined::Failed
            }
            Err(_) => {
                self.recover();
                Joined::Lost
            }
        })
    }

    /// Rebuilds the engine after a failure with every engine option the user set.
    fn recover(&mut self) {
        self.engine = None;
        let mut engine = Engine::new(DEFAULT_HASH);
        for (spec, value) in &self.applied {
            // Values that applied once apply again (a Hash that no longer fits keeps the
            // default size).
            let _ = apply_value(&mut engine, spec, value);
        }
        self.control = engine.control();
        self.engine = Some(engine);
    }
}

/// One rule for when a search may answer: an `infinite` search answers only once told to
/// stop, and a ponder search only after the ponder hit or `stop`, also when a limit of its
/// own (depth, nodes, movetime, mate) ended the search before. (The engine waits for the same
/// when no limit ended it, but a limit that ends the search sets the stop flag that it
/// waits on; `halt` is set only by [`Session::stop`].)
fn await_answer(limits: &Limits, control: &Control, halt: &AtomicBool) {
    while !halt.load(Ordering::SeqCst)
        && (limits.infinite || (limits.ponder && control.pondering.load(Ordering::SeqCst)))
    {
        std::thread::sleep(ANSWER_POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{parse_option, BookOption};
    use crate::search::{QSearchOptions, SearchOptions};

    fn set(session: &mut Session, name: &str, value: &str) {
        let (spec, value) = parse_option(name, Some(value)).unwrap();
        session.set_option(&spec, value).unwrap();
    }

    /// A session with many options away from their defaults.
    fn configured() -> Session {
        let mut s = Session::new();
        for (name, value) in [
            ("Hash", "3"),
            ("Threads", "2"),
            ("MultiPV", "2"),
            ("CaptureHistory", "true"),
            ("Move Overhead", "77"),
            ("QSearchChecks", "3"),
            ("QSearchMaxPly", "9"),
            ("QSearchMaxNodes", "123456"),
            ("QSearchSEE", "-40"),
            ("QSearchDelta", "150"),
            ("QSearchTT", "false"),
            ("QSearchUnderpromotions", "true"),
            ("QSearchPawnPushes", "true"),
            ("QSearchRecapturesAfter", "4"),
            ("QSearchNullMove", "1"),
            ("Ponder", "true"),
            ("UCI_Chess960", "true"),
            ("OwnBook", "true"),
            ("BookDepth", "5"),
            ("BookBestMove", "true"),
            ("ReverseFutility", "false"),
            ("LateMoveReductions", "false"),
            ("SyzygyProbeDepth", "3"),
            ("Syzygy50MoveRule", "false"),
            ("SyzygyProbeLimit", "5"),
            // Set twice: the last value counts.
            ("Threads", "3"),
        ] {
            set(&mut s, name, value);
        }
        if cfg!(feature = "syzygy") {
            set(&mut s, "SyzygyPath", &tables_dir());
        }
        s
    }

    /// The test tables (assets/syzygy).
    fn tables_dir() -> String {
        format!("{}/assets/syzygy", env!("CARGO_MANIFEST_DIR"))
    }

    fn expected_options() -> SearchOptions {
        SearchOptions {
            qs: QSearchOptions {
                check_plies: 3,
                max_ply: 9,
                max_nodes: 123_456,
                see_threshold: -40,
                delta_margin: 150,
                use_tt: false,
                underpromotions: true,
                pawn_pushes: true,
                recaptures_after: 4,
                null_move: crate::search::NullMoveQs::Root,
                ..QSearchOptions::default()
            },
            move_overhead: 77,
            multipv: 2,
            capture_history: true,
            pruning: crate::search::PruningOptions {
                reverse_futility: false,
                late_move_reductions: false,
                ..crate::search::PruningOptions::default()
            },
            syzygy_probe_depth: 3,
            syzygy_50_move_rule: false,
            syzygy_probe_limit: 5,
            tactical: false,
            ..SearchOptions::default()
        }
    }

    fn assert_configured(s: &mut Session) {
        let e = s.engine_mut().expect("an idle engine");
        assert_eq!(e.hash_mib(), 3);
        assert_eq!(e.threads(), 3);
        let want = expected_options();
        assert_eq!(e.options.qs, want.qs);
        assert_eq!(e.options.move_overhead, want.move_overhead);
        assert_eq!(e.options.multipv, want.multipv);
        assert_eq!(e.options.pruning, want.pruning);
        assert_eq!(e.options.syzygy_probe_depth, want.syzygy_probe_depth);
        assert_eq!(e.options.syzygy_50_move_rule, want.syzygy_50_move_rule);
        assert_eq!(e.options.syzygy_probe_limit, want.syzygy_probe_limit);
        let tables = if cfg!(feature = "syzygy") { 12 } else { 0 };
        assert_eq!(e.tablebases().count(), tables);
        assert!(s.ponder && s.chess960 && s.pos.chess960());
        assert!(s.book.own_book && s.book.best);
        assert_eq!(s.book.depth, 5);
    }

    /// Runs one depth-2 search with `failure` injected and joins it.
    fn failed_search(s: &mut Session, failure: Failure) -> (Joined, Option<bool>) {
        s.inject = Some(failure);
        let (tx, rx) = std::sync::mpsc::channel();
        let pos = s.pos.clone();
        s.start_search(pos, Limits::depth(2), Vec::new(), None, move |_, r| {
            let _ = tx.send(r.is_some());
        })
        .unwrap();
        let joined = s.join().unwrap();
        (joined, rx.try_recv().ok())
    }

    #[test]
    fn a_refused_position_leaves_none_to_search_until_one_is_set() {
        let mut s = Session::new();
        assert!(s.position_to_search().is_ok());
        s.refuse_position("invalid FEN 'x': the board has 1 rank, not 8");
        let why = s.position_to_search().unwrap_err();
        assert!(why.contains("the board has 1 rank"), "{why}");
        // The previous position stays for everything else.
        assert_eq!(s.pos.fen(), Position::startpos().fen());
        s.set_position(Position::startpos());
        assert!(s.position_to_search().is_ok());
    }

    #[test]
    fn infinite_and_ponder_searches_answer_only_when_told() {
        for (limits, end) in [
            (
                Limits {
                    infinite: true,
                    nodes: Some(100),
                    ..Limits::default()
                },
                "stop",
            ),
            (
                Limits {
                    movetime: Some(1),
                    infinite: true,
                    ..Limits::default()
                },
                "stop",
            ),
            (
                Limits {
                    ponder: true,
                    nodes: Some(100),
                    ..Limits::default()
                },
                "ponderhit",
            ),
        ] {
            let mut s = Session::new();
            let (tx, rx) = std::sync::mpsc::channel();
            let pos = s.pos.clone();
            s.start_search(pos, limits.clone(), Vec::new(), None, move |_, r| {
                let _ = tx.send(r.is_some());
            })
            .unwrap();
            // Its own limit ended the search long before; the answer waits.
            let early = rx.recv_timeout(std::time::Duration::from_millis(300));
            assert!(early.is_err(), "{limits:?} answered before '{end}'");
            if end == "stop" {
                s.stop();
            } else {
                s.ponder_hit(None);
            }
            let answer = rx.recv_timeout(std::time::Duration::from_secs(10));
            assert_eq!(answer, Ok(true), "{limits:?}");
            assert!(matches!(s.join(), Some(Joined::Done(_))));
        }
    }

    #[test]
    fn options_survive_a_failed_search() {
        let mut s = configured();
        assert_configured(&mut s);
        let (joined, finished) = failed_search(&mut s, Failure::Search);
        assert!(matches!(joined, Joined::Failed), "{joined:?}");
        // The protocol still got to answer (with no result).
        assert_eq!(finished, Some(false));
        assert_configured(&mut s);
        // And the rebuilt engine searches with them.
        let pos = s.pos.clone();
        s.start_search(pos, Limits::depth(3), Vec::new(), None, |_, _| {})
            .unwrap();
        match s.join() {
            Some(Joined::Done(r)) => {
                assert!(r.best_move.is_some());
                assert_eq!(r.lines.len(), 2, "MultiPV 2 still applies");
            }
            other => panic!("{other:?}"),
        }
        assert_configured(&mut s);
    }

    #[test]
    fn options_survive_a_lost_search_thread() {
        let mut s = configured();
        // Hold the old table, so that the allocator cannot hand its address to the new one.
        let before = Arc::clone(&s.engine_mut().unwrap().tt);
        let (joined, finished) = failed_search(&mut s, Failure::Thread);
        assert!(matches!(joined, Joined::Lost), "{joined:?}");
        assert_eq!(finished, Some(true));
        // A new engine (a new table), with the user's options.
        assert!(!Arc::ptr_eq(&s.engine_mut().unwrap().tt, &before));
        assert_configured(&mut s);
        // Its control flags are the ones the session hands out.
        s.stop();
        let e = s.engine_mut().unwrap();
        assert!(e.control().stop.load(Ordering::Relaxed));
    }

    #[test]
    fn a_search_thread_that_cannot_start_keeps_the_engine() {
        let mut s = configured();
        let before = Arc::as_ptr(&s.engine_mut().unwrap().tt);
        s.inject = Some(Failure::Spawn);
        let pos = s.pos.clone();
        let started = s.start_search(pos, Limits::depth(2), Vec::new(), None, |_, _| {
            panic!("the search never ran")
        });
        assert!(started.is_err());
        assert!(s.join().is_none());
        // The same engine (the same table), with its options, and it searches.
        assert_eq!(Arc::as_ptr(&s.engine_mut().unwrap().tt), before);
        assert_configured(&mut s);
        let pos = s.pos.clone();
        s.start_search(pos, Limits::depth(2), Vec::new(), None, |_, _| {})
            .unwrap();
        assert!(matches!(s.join(), Some(Joined::Done(_))));
    }

    #[test]
    fn a_job_runs_on_the_search_thread_until_stopped() {
        let mut s = configured();
        let (tx, rx) = std::sync::mpsc::channel();
        s.start_job(move |engine, halt| {
            let _ = tx.send(engine.threads());
            while !halt.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        })
        .unwrap();
        assert_eq!(rx.recv().unwrap(), 3, "the job has the engine");
        assert!(s.search_running() && s.engine_mut().is_none());
        assert!(s.start_job(|_, _| {}).is_err(), "one job at a time");
        s.stop();
        assert!(matches!(s.join(), Some(Joined::Finished)));
        assert_configured(&mut s);
        // A job that panics: the engine is rebuilt with the user's options.
        s.start_job(|_, _| panic!("injected job failure (test)"))
            .unwrap();
        assert!(matches!(s.join(), Some(Joined::Failed)));
        assert_configured(&mut s);
    }

    #[test]
    fn buttons_and_refused_values_are_not_replayed() {
        let mut s = Session::new();
        set(&mut s, "Hash", "2");
        let (spec, value) = parse_option("Clear Hash", None).unwrap();
        s.set_option(&spec, value).unwrap();
        assert_eq!(s.applied.len(), 1);
        assert!(s
            .set_option(
                &crate::options::find_option("BookFile").unwrap(),
                OptionValue::Text("/nonexistent/lull-book.bin".into())
            )
            .is_err());
        assert!(s.book.book.is_none());
        assert!(s
            .book
            .set(BookOption::File, OptionValue::Text(String::new()))
            .is_ok());
        let (joined, _) = failed_search(&mut s, Failure::Search);
        assert!(matches!(joined, Joined::Failed));
        assert_eq!(s.engine_mut().unwrap().hash_mib(), 2);
        assert_eq!(s.engine_mut().unwrap().threads(), 1);
    }

    #[cfg(feature = "syzygy")]
    #[test]
    fn a_bad_syzygy_path_after_a_good_one_leaves_no_tables_also_after_a_rebuild() {
        let mut s = Session::new();
        set(&mut s, "SyzygyPath", &tables_dir());
        assert_eq!(s.engine_mut().unwrap().tablebases().count(), 12);
        let (spec, value) = parse_option("SyzygyPath", Some("/nonexistent/lull-tb")).unwrap();
        let err = s.set_option(&spec, value).unwrap_err();
        assert!(err.contains("cannot read the directory"), "{err}");
        assert_eq!(s.engine_mut().unwrap().tablebases().count(), 0);
        let (joined, _) = failed_search(&mut s, Failure::Search);
        assert!(matches!(joined, Joined::Failed));
        assert_eq!(s.engine_mut().unwrap().tablebases().count(), 0);
    }
}

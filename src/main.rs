//! The `lull` command: a UCI engine by default (XBoard when the first command is `xboard`),
//! plus the tools for testers. Each tool owns its arguments and its `run` (in
//! [`lull::tools`]); this file only lists the commands and dispatches. Arguments that are UCI
//! command lines starting with OpenBench's `genfens` (`lull "genfens 10 seed 1 book None"
//! "quit"`) are run as such by [`lull::tools::data::genfens`].

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use lull::tools::data::{book, convert, datagen, genfens};
use lull::tools::teaching::{explore, horizon, qtree, report, why};
use lull::tools::testing::{bench, perft, solve};
use lull::tools::training::{spsa, train, tune, wdl};

#[derive(Parser)]
#[command(
    name = "lull",
    version,
    about = "Lull: a UCI chess engine built around its quiescence search"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout (the default without a command, unless the first command
    /// is `xboard`).
    Uci,
    /// Speak XBoard (CECP v2) on stdin/stdout.
    Xboard,
    /// Search the fixed bench positions to a fixed depth; the first and the last line are
    /// `<N> nodes <M> nps`.
    Bench(bench::BenchArgs),
    /// Count the leaves of the legal move tree (divide by root move).
    Perft(perft::PerftArgs),
    /// Run a test suite (EPD with bm/am): one line per position, then the totals.
    /// Without a file, the embedded Win At Chess (300 positions).
    Solve(solve::SolveArgs),
    /// Show the horizon effect: search a position to the same depth without and with the
    /// quiescence search and print both side by side.
    Horizon(horizon::HorizonArgs),
    /// Show why the search missed a line: at each node of the line, iteration by iteration,
    /// the pruning, reduction or cutoff that decided it.
    Why(why::WhyArgs),
    /// Show the quiescence search tree of one position: every node with the move that led
    /// there, its window, stand pat, score and why it ended; pruned moves as leaves.
    Qtree(qtree::QtreeArgs),
    /// Serve a local web page (127.0.0.1) to explore the quiescence search: the horizon
    /// effect side by side, the quiescence tree, the statistics, options and depth switched.
    Explore(explore::ExploreArgs),
    /// Play self-play games at a fixed node count per move and write their quiet positions
    /// with the game result, one per line: `<FEN> | <result> | <score>` (for `lull tune`).
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation weights to the results of `lull datagen` positions (Texel's
    /// method: logistic fit, Adam on the full batch) and write them as Rust source.
    Tune(tune::TuneArgs),
    /// Tune the main search's numbers (params.rs) by SPSA, as OpenBench does: game pairs
    /// at a fixed number of nodes between the numbers nudged up and down at random.
    Spsa(spsa::SpsaArgs),
    /// Polyglot opening books: build one from PGN games, list the book moves of a position.
    Book(book::BookArgs),
    /// Training data for `lull train`: pack text data into 32-byte records, merge and
    /// shuffle shards into a training and a validation file.
    Data(convert::DataArgs),
    /// Train the (768 -> N) x 2 -> 1 SCReLU network on packed positions and write it
    /// quantised (`.nnue`, see docs/nnue.md).
    Train(train::TrainArgs),
    /// Measure the quiescence search (bench positions, WAC at node budgets, stored match
    /// games) and write an HTML report with SVG figures and a Markdown twin that set the
    /// literature's figures beside Lull's.
    Report(report::ReportArgs),
    /// Fit the win/draw/loss model of UCI_ShowWDL to self-play games, or check it.
    Wdl(wdl::WdlArgs),
}

/// Lets a closed standard output end the process quietly, as it ends `cat` or `grep`: so that
/// `lull bench | head -1` stops the bench instead of panicking in `println!`. Rust starts
/// programs with SIGPIPE ignored, which turns the write into an error that `println!` panics
/// on; the default action ends the process without a word. Only for the tools: the UCI loop
/// keeps ignoring SIGPIPE and the write errors it gets (a GUI that went away is its end of
/// input).
#[cfg(unix)]
fn die_quietly_on_closed_stdout() {
    // SAFETY: `signal` with SIG_DFL installs no handler; this runs at the start of `main`,
    // before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn die_quietly_on_closed_stdout() {}

/// Makes a write past the file-size limit (`ulimit -f`) an error instead of the end of the
/// process: the default action of SIGXFSZ kills the process without a word (and leaves the
/// temporary file of the output being written); ignored, the write fails with EFBIG ("File
/// too large"), which the tools report like any other write error, keeping the old file.
#[cfg(unix)]
fn file_size_limit_is_an_error() {
    // SAFETY: `signal` with SIG_IGN installs no handler; this runs at the start of `main`,
    // before any other thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
fn file_size_limit_is_an_error() {}

/// One malloc arena for the whole engine process (glibc only). glibc gives each new thread
/// an arena of its own, reserving 64 MiB of address space for it and probing with 128 MiB
/// first, on the thread's first allocation; a thread that gets none probes again on every
/// allocation. Under an address-space limit (`ulimit -v`) those probes come after the search
/// has checked that its helper threads leave room, and can take the last of it for a moment:
/// another thread's allocation then fails, which aborts the process. The search threads
/// allocate almost nothing while they search, so sharing one arena costs them no speed
/// (same nps with two threads); the limit the search checks is then the only one there is.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_malloc_arena() {
    // SAFETY: `mallopt` only sets an allocator parameter; this runs at the start of `main`,
    // before any other thread exists. A refusal (return value 0) leaves glibc's default.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_malloc_arena() {}

fn main() -> ExitCode {
    // OpenBench's way: UCI command lines as arguments (`lull "genfens ..." "quit"`).
    file_size_limit_is_an_error();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if genfens::are_command_lines(&args) {
        die_quietly_on_closed_stdout();
        return genfens::run(&args);
    }
    let cli = Cli::parse();
    if matches!(
        cli.command,
        None | Some(Command::Uci) | Some(Command::Xboard)
    ) {
        one_malloc_arena();
    } else {
        die_quietly_on_closed_stdout();
    }
    match cli.command {
        None => {
            lull::protocol::run_default();
            ExitCode::SUCCESS
        }
        Some(Command::Uci) => {
            lull::protocol::uci::Uci::new().run();
            ExitCode::SUCCESS
        }
        Some(Command::Xboard) => {
            lull::protocol::xboard::Xboard::new().run();
            ExitCode::SUCCESS
        }
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Horizon(args)) => horizon::run(args),
        Some(Command::Why(args)) => why::run(args),
        Some(Command::Qtree(args)) => qtree::run(args),
        Some(Command::Explore(args)) => explore::run(args),
        Some(Command::Datagen(args)) => datagen::run(args),
        Some(Command::Spsa(args)) => spsa::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Book(args)) => book::run(args),
        Some(Command::Data(args)) => convert::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Report(args)) => report::run(args),
        Some(Command::Wdl(args)) => wdl::run(args),
    }
}

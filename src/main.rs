//! The `lull` command: a UCI engine by default, plus the tools for testers.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use lull::bench::{run_bench, BENCH_DEPTH};
use lull::perft::{bare_perft, divide};
use lull::position::Position;
use lull::search::Engine;

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
    /// Speak UCI on stdin/stdout (the default without a command).
    Uci,
    /// Search the fixed bench positions to a fixed depth; the last line is `<N> nodes <M> nps`.
    Bench {
        /// Depth in plies.
        #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
        depth: i32,
        /// Search threads (node counts are deterministic only with one).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Hash size in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
        hash: u32,
        /// Print the statistics as JSON after the signature line instead of a table.
        #[arg(long)]
        json: bool,
        /// Print the node count of every position.
        #[arg(long)]
        verbose: bool,
    },
    /// Count the leaves of the legal move tree (divide by root move).
    Perft {
        /// Depth in plies.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
        depth: u32,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Also time a bare cozy-chess perft on the same position (the speed yardstick).
        #[arg(long)]
        compare: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => {
            lull::uci::Uci::new().run();
            ExitCode::SUCCESS
        }
        Some(Command::Bench {
            depth,
            threads,
            hash,
            json,
            verbose,
        }) => {
            let mut engine = Engine::new(hash as usize);
            engine.set_threads(threads as usize);
            let report = run_bench(&mut engine, depth, |i, fen, nodes| {
                if verbose {
                    eprintln!("{:>2} {:>10} {}", i + 1, nodes, fen);
                }
            });
            println!("{} nodes {} nps", report.nodes, report.nps);
            if json {
                let value = serde_json::json!({
                    "nodes": report.nodes,
                    "nps": report.nps,
                    "time_ms": report.time_ms,
                    "depth": depth,
                    "stats": report.stats,
                });
                println!("{value}");
            } else {
                print!("{}", report.stats.table());
            }
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            fen,
            compare,
        }) => {
            let mut pos = match fen.as_deref().map(Position::from_fen) {
                None => Position::startpos(),
                Some(Ok(p)) => p,
                Some(Err(e)) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let start = Instant::now();
            let mut total = 0;
            for (mv, n) in divide(&mut pos, depth) {
                println!("{}: {n}", pos.move_to_uci(mv));
                total += n;
            }
            let secs = start.elapsed().as_secs_f64();
            println!();
            println!("total {total}");
            println!("time {:.3} s", secs);
            println!("speed {:.2} Mnps", total as f64 / secs.max(1e-9) / 1e6);
            if compare {
                let start = Instant::now();
                let bare = bare_perft(pos.board(), depth);
                let bsecs = start.elapsed().as_secs_f64();
                println!(
                    "bare cozy-chess: total {bare} time {:.3} s speed {:.2} Mnps (Lull at {:.0}%)",
                    bsecs,
                    bare as f64 / bsecs.max(1e-9) / 1e6,
                    100.0 * bsecs / secs.max(1e-9)
                );
            }
            ExitCode::SUCCESS
        }
    }
}

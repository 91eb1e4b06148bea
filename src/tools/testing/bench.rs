//! `lull bench` on the command line: the arguments and the printing around
//! [`crate::bench::run_bench`].

use std::process::ExitCode;

use crate::bench::{run_bench, BENCH_DEPTH};
use crate::tools::cli::{apply_engine_options, fail};

/// Arguments of `lull bench`.
#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Depth in plies.
    #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: i32,
    /// Search threads (node counts are deterministic only with one).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Print the statistics as JSON after the signature line instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Print the node count of every position.
    #[arg(long)]
    pub verbose: bool,
    /// A UCI option for the engine, e.g. --option QSearchChecks=1 (repeatable): the
    /// bench then measures that variant (its signature differs from the default's).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// `lull bench`: the signature line `<N> nodes <M> nps`, then the statistics (a table, or
/// JSON with `--json`), then the signature line again (first for `lull bench | head -1`,
/// last for OpenBench). Exit code 2 for a bad `--option`.
pub fn run(args: BenchArgs) -> ExitCode {
    // A hash that cannot be had is said (and the bench then searches with 1 MiB).
    let mut engine = crate::tools::cli::quiet_engine(args.hash as usize);
    engine.set_threads(args.threads as usize);
    if let Err(e) = apply_engine_options(&mut engine, &args.options) {
        return fail(2, e);
    }
    let report = run_bench(&mut engine, args.depth, |i, fen, nodes| {
        if args.verbose {
            eprintln!("{:>2} {:>10} {}", i + 1, nodes, fen);
        }
    });
    let signature = format!("{} nodes {} nps", report.nodes, report.nps);
    println!("{signature}");
    if args.json {
        let value = serde_json::json!({
            "options": args.options,
            "nodes": report.nodes,
            "nps": report.nps,
            "time_ms": report.time_ms,
            "depth": args.depth,
            "stats": report.stats,
        });
        println!("{value}");
    } else {
        print!("{}", report.stats.table());
    }
    // Again at the end: OpenBench reads `<N> nodes` and `<M> nps` from the last lines.
    println!("{signature}");
    ExitCode::SUCCESS
}

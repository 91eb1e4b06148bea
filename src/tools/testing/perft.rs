//! `lull perft` on the command line: the arguments and the divide listing around
//! [`crate::perft`].

use std::process::ExitCode;
use std::time::Instant;

use crate::perft::{bare_perft, divide};
use crate::position::{Position, STARTPOS_FEN};
use crate::tools::cli::fail;

/// Arguments of `lull perft`.
#[derive(Clone, Debug, clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Also time a bare cozy-chess perft on the same position (the speed yardstick).
    #[arg(long)]
    pub compare: bool,
}

/// `lull perft`: the count of every root move, the total, the time and the speed (and with
/// `--compare` the same for a bare cozy-chess board). Exit code 2 for a bad FEN.
pub fn run(args: PerftArgs) -> ExitCode {
    let mut pos = match Position::from_fen(args.fen.as_deref().unwrap_or(STARTPOS_FEN)) {
        Ok(p) => p,
        Err(e) => return fail(2, e),
    };
    let depth = args.depth;
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
    if args.compare {
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

//! The `lull` command: a UCI engine by default (XBoard when the first command is `xboard`),
//! plus the tools for testers.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use lull::bench::{run_bench, BENCH_DEPTH};
use lull::epd::{parse_epd, read_epd_file};
use lull::options::{parse_option, split_assignment};
use lull::params::MAX_DEPTH;
use lull::perft::{bare_perft, divide};
use lull::position::Position;
use lull::search::Engine;
use lull::tools::horizon::{run_horizon, HORIZON_DEPTH, HORIZON_FEN, HORIZON_NOTE};
use lull::tools::solve::{
    judgeable, solve, SolveConfig, SolveEvent, SolveJson, SolveSummary, WAC_EPD,
};

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
        /// A UCI option for the engine, e.g. --option QSearchChecks=1 (repeatable): the
        /// bench then measures that variant (its signature differs from the default's).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
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
    /// Run a test suite (EPD with bm/am): one line per position, then the totals.
    /// Without a file, the embedded Win At Chess (300 positions).
    Solve(SolveArgs),
    /// Show the horizon effect: search a position to the same depth without and with the
    /// quiescence search and print both side by side.
    Horizon {
        /// Position (FEN, quoted or as separate words; default: a built-in example).
        fen: Vec<String>,
        /// Depth in plies.
        #[arg(long, default_value_t = HORIZON_DEPTH,
              value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
        depth: i32,
        /// Hash size in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
        hash: u32,
    },
    /// Show the quiescence search tree of one position: every node with the move that led
    /// there, its window, stand pat, score and why it ended; pruned moves as leaves.
    Qtree {
        /// Position (FEN, quoted or as separate words; default: a built-in exchange).
        fen: Vec<String>,
        /// Root alpha (default: -infinity).
        #[arg(long, default_value_t = -lull::params::INFINITY, allow_negative_numbers = true,
              value_parser = clap::value_parser!(i32)
                  .range(-(lull::params::INFINITY as i64)..=lull::params::INFINITY as i64))]
        alpha: i32,
        /// Root beta (default: +infinity).
        #[arg(long, default_value_t = lull::params::INFINITY, allow_negative_numbers = true,
              value_parser = clap::value_parser!(i32)
                  .range(-(lull::params::INFINITY as i64)..=lull::params::INFINITY as i64))]
        beta: i32,
        /// At most this many tree nodes (searched nodes plus pruned leaves) are shown.
        #[arg(long, value_name = "N", default_value_t = lull::tools::qtree::DEFAULT_MAX_NODES as u64,
              value_parser = clap::value_parser!(u64)
                  .range(1..=lull::tools::qtree::MAX_MAX_NODES as u64))]
        max_nodes: u64,
        /// Output format.
        #[arg(long, default_value = "text",
              value_parser = clap::builder::PossibleValuesParser::new(["text", "dot", "html"]))]
        format: String,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// A UCI option for the engine, e.g. --option QSearchDelta=0 (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Play self-play games at a fixed node count per move and write their quiet positions
    /// with the game result, one per line: `<FEN> | <result> | <score>` (for `lull tune`).
    Datagen(DatagenArgs),
    /// Fit the evaluation weights to the results of `lull datagen` positions (Texel's
    /// method: logistic fit, Adam on the full batch) and write them as Rust source.
    Tune(TuneArgs),
    /// Polyglot opening books: build one from PGN games, list the book moves of a position.
    Book {
        #[command(subcommand)]
        command: BookCommand,
    },
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a Polyglot book from the games of a PGN file. Each move of the first --max-ply
    /// plies is weighted as PolyGlot does: 2 points per game won by the side that played it,
    /// 1 per draw (or unknown result), 0 per loss.
    Build {
        /// The PGN file.
        pgn: PathBuf,
        /// The book to write.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Plies read from the start of each game.
        #[arg(long, value_name = "N", default_value_t = lull::book::build::DEFAULT_MAX_PLY as u16,
              value_parser = clap::value_parser!(u16).range(1..=1024))]
        max_ply: u16,
        /// Keep only moves played in at least this many games.
        #[arg(long, value_name = "K", default_value_t = lull::book::build::DEFAULT_MIN_GAMES,
              value_parser = clap::value_parser!(u32).range(1..))]
        min_games: u32,
    },
    /// List the book moves of a position (UCI and SAN, weight and share) and its Polyglot key.
    Probe {
        /// Position (FEN, quoted or as separate words; default: the start position).
        fen: Vec<String>,
        /// The book file (without it, only the key is shown).
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// Moves played from the position first (UCI or SAN), e.g. --moves e2e4 e7e5.
        #[arg(long, value_name = "MOVE", num_args = 1..)]
        moves: Vec<String>,
    },
}

/// Arguments of `lull tune`.
#[derive(clap::Args)]
struct TuneArgs {
    /// Data file (`<FEN> | <result> | <score>` lines).
    data: PathBuf,
    /// Full passes over the data.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    epochs: u64,
    /// Adam's learning rate (about centipawns per step).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// The scaling constant of sigmoid(K * eval) (default: the best fit of the current
    /// weights).
    #[arg(long)]
    k: Option<f64>,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Use at most this many positions (the first ones).
    #[arg(long, value_name = "N")]
    positions_limit: Option<usize>,
    /// Weights of features occurring in fewer positions than this keep their value
    /// (default: 0.5% of the training positions, at least 50).
    #[arg(long, value_name = "N")]
    min_count: Option<usize>,
    /// Share of the search score in the fitted target, 0..1 (0: the game results alone;
    /// the errors reported are always against the results).
    #[arg(long, default_value_t = 0.0)]
    score_weight: f64,
    /// Share of the positions (the last ones) kept out of the fit to measure it; the
    /// weights kept are those of the report with the lowest validation error.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Report the error every this many epochs.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    report_every: u64,
    /// Replace each position by the leaf of its quiescence line (the position the
    /// evaluation is really applied to in search) before tracing it.
    #[arg(long)]
    resolve: bool,
    /// Write the tuned weights file here (e.g. src/eval/weights.rs) instead of standard
    /// output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn cmd_tune(args: TuneArgs) -> ExitCode {
    use lull::eval::layout::{render_weights, WEIGHTS};
    use lull::tools::tune::{
        error, find_k, float_weights, largest_changes, load, load_resolved, quiescence_leaf,
        round_weights, tune, TuneConfig,
    };
    if !(args.lr > 0.0 && args.lr.is_finite())
        || args.k.is_some_and(|k| !(k > 0.0 && k.is_finite()))
    {
        eprintln!("error: --lr and --k must be positive numbers");
        return ExitCode::from(2);
    }
    if !(0.0..=1.0).contains(&args.score_weight) {
        eprintln!("error: --score-weight must be in [0, 1]");
        return ExitCode::from(2);
    }
    if !(0.0..0.9).contains(&args.validation) {
        eprintln!("error: --validation must be in [0, 0.9)");
        return ExitCode::from(2);
    }
    // 1. The data, traced once; malformed lines are reported and skipped.
    let start = Instant::now();
    let text = match std::fs::read(&args.data) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.data.display());
            return ExitCode::from(2);
        }
    };
    let mut resolved = 0usize;
    let (mut entries, errors) = if args.resolve {
        let mut engine = lull::search::Engine::new(1);
        load_resolved(&text, args.positions_limit, |board| {
            let leaf = quiescence_leaf(&mut engine, board.clone());
            resolved += usize::from(leaf != board);
            leaf
        })
    } else {
        load(&text, args.positions_limit)
    };
    if args.resolve {
        eprintln!("{resolved} positions replaced by the leaf of their quiescence line");
    }
    drop(text);
    for e in errors.iter().take(10) {
        eprintln!("warning: {}: {e} (skipped)", args.data.display());
    }
    if errors.len() > 10 {
        eprintln!(
            "warning: {} more malformed lines skipped",
            errors.len() - 10
        );
    }
    if entries.is_empty() {
        eprintln!("error: {}: no position", args.data.display());
        return ExitCode::from(1);
    }
    let features: usize = entries.iter().map(|e| e.coefs.len()).sum();
    eprintln!(
        "{} positions traced in {:.1} s ({:.1} features per position)",
        entries.len(),
        start.elapsed().as_secs_f64(),
        features as f64 / entries.len() as f64
    );
    // The last positions (the last games) measure the fit without taking part in it.
    let held_out = (entries.len() as f64 * args.validation) as usize;
    let valid = entries.split_off(entries.len() - held_out);
    let min_count = args.min_count.unwrap_or((entries.len() / 200).max(50));
    eprintln!(
        "{} training positions, {} validation positions; features rarer than {min_count} positions keep their weights",
        entries.len(),
        valid.len()
    );
    // 2. K for the current weights.
    let threads = args.threads as usize;
    let w0 = float_weights(&WEIGHTS);
    let (k, e0) = match args.k {
        Some(k) => (k, error(&entries, &w0, k, threads)),
        None => find_k(&entries, &w0, threads),
    };
    let v0 = error(&valid, &w0, k, threads);
    eprintln!("K = {k:.6} (error of the current weights {e0:.6}, validation {v0:.6})");
    // 3. Fit.
    let config = TuneConfig {
        epochs: args.epochs as usize,
        lr: args.lr,
        k: Some(k),
        threads,
        report_every: args.report_every as usize,
        min_count,
        score_weight: args.score_weight,
    };
    // With validation positions, the weights kept are those of the report with the lowest
    // validation error (early stopping): later epochs fit the training games' noise.
    let mut best: Option<(f64, usize, Vec<[f64; 2]>)> = None;
    let fitted = tune(&entries, &w0, k, &config, |epoch, err, w| {
        let v = error(&valid, w, k, threads);
        eprintln!("epoch {epoch:>6}  error {err:.6}  validation {v:.6}");
        if !valid.is_empty() && best.as_ref().is_none_or(|b| v < b.0) {
            best = Some((v, epoch, w.to_vec()));
        }
    });
    let fitted = match best {
        Some((v, epoch, w)) => {
            eprintln!("keeping the weights of epoch {epoch} (validation {v:.6})");
            w
        }
        None => fitted,
    };
    let tuned = round_weights(&fitted);
    let e1 = error(&entries, &float_weights(&tuned), k, threads);
    let v1 = error(&valid, &float_weights(&tuned), k, threads);
    eprintln!(
        "error {e0:.6} -> {e1:.6}, validation {v0:.6} -> {v1:.6} (rounded weights) in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    eprintln!("largest changes:");
    for line in largest_changes(&WEIGHTS, &tuned, 15) {
        eprintln!("  {line}");
    }
    // 4. The weights file.
    let note = format!(
        "Tuned by `lull tune` (Texel's method) on {} positions: K = {k:.6}, error {e0:.6} -> {e1:.6},\nvalidation ({} positions) {v0:.6} -> {v1:.6} ({} epochs, lr {}, min count {min_count},\nscore weight {}{}).",
        entries.len(),
        valid.len(),
        args.epochs,
        args.lr,
        args.score_weight,
        if args.resolve {
            ", positions resolved by the quiescence search"
        } else {
            ""
        }
    );
    let source = render_weights(&tuned, &note);
    match &args.output {
        None => print!("{source}"),
        Some(path) => {
            if let Err(e) = std::fs::write(path, source) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::from(1);
            }
            eprintln!("written to {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

/// Arguments of `lull datagen`.
#[derive(clap::Args)]
struct DatagenArgs {
    /// Output file.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once (one engine each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Opening book (EPD or FEN lines); a line is drawn at random for each game.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played before the engines (default: 8 without a book, 0 with one).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=200))]
    random_plies: Option<u32>,
    /// Positions in a game's first this many plies are not written.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=1000))]
    skip_plies: u32,
    /// Hash per engine, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
    hash: u32,
}

fn cmd_datagen(args: DatagenArgs) -> ExitCode {
    use lull::tools::datagen::{datagen, DatagenConfig};
    // 1. The book: malformed lines are reported and skipped.
    let mut starts = Vec::new();
    if let Some(path) = &args.book {
        match read_epd_file(path) {
            Ok((records, errors)) => {
                for e in errors.iter().take(10) {
                    eprintln!("warning: {}: {e} (skipped)", path.display());
                }
                if errors.len() > 10 {
                    eprintln!(
                        "warning: {} more malformed lines skipped",
                        errors.len() - 10
                    );
                }
                starts = records.iter().map(|r| r.position()).collect();
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
        if starts.is_empty() {
            eprintln!("error: {}: no position in the book", path.display());
            return ExitCode::from(1);
        }
    }
    let config = DatagenConfig {
        games: args.games as usize,
        nodes: args.nodes,
        threads: args.threads as usize,
        seed: args.seed,
        random_plies: args
            .random_plies
            .unwrap_or(if args.book.is_some() { 0 } else { 8 }) as usize,
        skip_plies: args.skip_plies as usize,
        hash_mib: args.hash as usize,
        ..DatagenConfig::default()
    };
    let file = match std::fs::File::create(&args.output) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot create {}: {e}", args.output.display());
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "datagen: {} games, {} nodes/move, {} thread(s), {} start position(s), {} random plies, seed {}",
        config.games,
        config.nodes,
        config.threads,
        starts.len().max(1),
        config.random_plies,
        config.seed
    );
    // 2. Play, with a progress bar.
    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games {msg} [{elapsed_precise} eta {eta}]",
    ) {
        bar.set_style(style);
    }
    let mut out = std::io::BufWriter::new(file);
    let outcome = datagen(&config, &starts, &mut out, |_, summary| {
        bar.set_message(format!(
            "+{} ={} -{}, {} positions",
            summary.results[0], summary.results[1], summary.results[2], summary.positions
        ));
        bar.inc(1);
    });
    bar.finish_and_clear();
    match outcome {
        Ok(summary) => {
            println!("{}", summary.text());
            println!("written to {}", args.output.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", args.output.display());
            ExitCode::from(1)
        }
    }
}

/// Arguments of `lull solve`.
#[derive(clap::Args)]
struct SolveArgs {
    /// EPD file (default: the embedded WAC suite).
    epd: Option<PathBuf>,
    /// Milliseconds per position (the default, 1000, when no limit is given).
    #[arg(long, value_name = "MS", conflicts_with_all = ["nodes", "depth"],
          value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Depth per position, in plies.
    #[arg(long, value_name = "D",
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    depth: Option<i32>,
    /// Search threads per position.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Positions searched in parallel (one engine each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// Hash size per engine, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
    hash: u32,
    /// Write every position's record and the summary to this file as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// A UCI option for every engine, e.g. --option QSearch=false (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

fn cmd_solve(args: SolveArgs) -> ExitCode {
    // The options first: a typo should not cost a whole run.
    let mut options = Vec::new();
    for text in &args.options {
        let (name, value) = split_assignment(text);
        match parse_option(name, value) {
            Ok((spec, _)) => options.push((spec.name.to_string(), value.map(str::to_string))),
            Err(e) => {
                eprintln!("error: --option {text}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let (source, (records, errors)) = match &args.epd {
        None => ("embedded WAC".to_string(), parse_epd(WAC_EPD)),
        Some(path) => match read_epd_file(path) {
            Ok(parsed) => (path.display().to_string(), parsed),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let mut skipped: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    let (records, unjudgeable) = judgeable(records);
    skipped.extend(unjudgeable);
    skipped.sort_by_key(|s| {
        s.strip_prefix("line ")
            .and_then(|t| t.split(':').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(usize::MAX)
    });
    for s in &skipped {
        eprintln!("warning: {source}: {s} (skipped)");
    }
    if records.is_empty() {
        eprintln!("error: {source}: no position to solve");
        return ExitCode::from(1);
    }
    let config = SolveConfig {
        movetime: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        threads: args.threads as usize,
        jobs: args.jobs as usize,
        hash_mib: args.hash as usize,
        options,
    };
    eprintln!(
        "solving {} positions from {source}: {}, {} job(s) x {} thread(s), hash {} MiB",
        records.len(),
        config.limits_text(),
        config.jobs,
        config.threads,
        config.hash_mib
    );
    let total = records.len() as u64;
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} solved {msg} [{elapsed_precise} eta {eta}]",
    ) {
        bar.set_style(style);
    }
    bar.set_message("0");
    let start = Instant::now();
    let mut solved = 0;
    let outcome = solve(&records, &config, |event| match event {
        SolveEvent::Finished { report, .. } => {
            if report.solved {
                solved += 1;
            }
            bar.set_message(solved.to_string());
            bar.inc(1);
        }
        SolveEvent::InOrder(report) => bar.suspend(|| println!("{}", report.line_text())),
    });
    bar.finish_and_clear();
    let reports = match outcome {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let summary = SolveSummary::from_reports(&reports, start.elapsed().as_millis() as u64);
    println!();
    print!("{}", summary.text(config.jobs));
    if !skipped.is_empty() {
        println!("skipped lines: {}", skipped.len());
    }
    if let Some(path) = &args.json {
        let doc = SolveJson {
            config: &config,
            source: &source,
            skipped: &skipped,
            positions: &reports,
            summary: &summary,
        };
        let written = serde_json::to_string_pretty(&doc)
            .map_err(|e| e.to_string())
            .and_then(|text| std::fs::write(path, text + "\n").map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

fn cmd_horizon(fen: &[String], depth: i32, hash: u32) -> ExitCode {
    let builtin = fen.is_empty();
    let text = if builtin {
        HORIZON_FEN.to_string()
    } else {
        fen.join(" ")
    };
    let pos = match Position::from_fen(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let report = run_horizon(&pos, depth, hash as usize);
    print!("{}", report.render(&pos));
    if builtin {
        println!();
        println!("{HORIZON_NOTE}");
    }
    ExitCode::SUCCESS
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(
        cli.command,
        None | Some(Command::Uci) | Some(Command::Xboard)
    ) {
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
        Some(Command::Bench {
            depth,
            threads,
            hash,
            json,
            verbose,
            options,
        }) => {
            let mut engine = Engine::new(hash as usize);
            engine.set_threads(threads as usize);
            for text in &options {
                let (name, value) = split_assignment(text);
                if let Err(e) = lull::options::apply_option(&mut engine, name, value) {
                    eprintln!("error: --option {text}: {e}");
                    return ExitCode::from(2);
                }
            }
            let report = run_bench(&mut engine, depth, |i, fen, nodes| {
                if verbose {
                    eprintln!("{:>2} {:>10} {}", i + 1, nodes, fen);
                }
            });
            println!("{} nodes {} nps", report.nodes, report.nps);
            if json {
                let value = serde_json::json!({
                    "options": options,
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
        Some(Command::Solve(args)) => cmd_solve(args),
        Some(Command::Horizon { fen, depth, hash }) => cmd_horizon(&fen, depth, hash),
        Some(Command::Datagen(args)) => cmd_datagen(args),
        Some(Command::Tune(args)) => cmd_tune(args),
        Some(Command::Qtree {
            fen,
            alpha,
            beta,
            max_nodes,
            format,
            output,
            options,
        }) => match format.parse() {
            Ok(format) => {
                let args = lull::tools::qtree::QtreeArgs {
                    fen,
                    alpha,
                    beta,
                    max_nodes: max_nodes as usize,
                    format,
                    options,
                };
                lull::tools::qtree::cmd_qtree(&args, output.as_ref())
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Book { command }) => match command {
            BookCommand::Build {
                pgn,
                output,
                max_ply,
                min_games,
            } => lull::book::cli::cmd_build(&lull::book::cli::BuildArgs {
                pgn,
                output,
                options: lull::book::build::BuildOptions {
                    max_ply: usize::from(max_ply),
                    min_games,
                },
            }),
            BookCommand::Probe { fen, book, moves } => {
                lull::book::cli::cmd_probe(&lull::book::cli::ProbeArgs { fen, moves, book })
            }
        },
    }
}

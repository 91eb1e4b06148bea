//! `lull spsa`: tunes the main search's numbers (`params::TUNABLE_SPECS`) by simultaneous
//! perturbation stochastic approximation (Spall 1992), the way OpenBench tunes engines.
//!
//! Each iteration draws a random sign Δᵢ = ±1 for every tuned number θᵢ and plays one game
//! pair, the same opening with each colour, between an engine with θ + cₖΔ and one with
//! θ − cₖΔ. Each number then moves by aₖ · (wins − losses of the first) / (cₖ · Δᵢ): towards
//! the side that won, in proportion to how much the pair says. The gains follow OpenBench's
//! schedule: for a run of N pairs, cₖ = c / k^0.101 with c = c_end · N^0.101, so that the
//! perturbation ends at `c_end` (the spec's, in the number's unit); aₖ = a / (A + k)^0.602 with
//! A = N / 10 and a = r_end · c_end² · (A + N)^0.602. θ is kept as a real number inside the
//! spec's range and rounded for play.
//!
//! The games are played in the process at a fixed number of nodes per move (two engines per
//! thread, their tables cleared before each game), with the adjudication of `lull datagen`.
//! Fixed nodes make a pair cheap and the comparison fair between numbers that change the
//! tree's size but not the speed per node. With more than one thread the updates interleave
//! (asynchronous SPSA, as OpenBench's workers do), so only a one-thread run is repeatable.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use crate::params::{TunableSpec, Tunables, TUNABLE_SPECS};
use crate::position::Position;
use crate::search::Engine;
use crate::tablebase::Tablebases;
use crate::time::Limits;
use crate::tools::cli::{apply_engine_options, fail, read_book};
use crate::tools::data::datagen::{play_out, random_opening, DatagenConfig, Rng};

/// OpenBench's exponent of the perturbation's decay (γ).
const GAMMA: f64 = 0.101;
/// OpenBench's exponent of the step's decay (α).
const ALPHA: f64 = 0.602;
/// OpenBench's default ratio of the last step to the last perturbation squared (`r_end`).
pub const R_END: f64 = 0.002;

/// The gains of one tuned number over a run of `pairs` iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The perturbation's scale: cₖ = c / k^γ.
    pub c: f64,
    /// The step's scale: aₖ = a / (A + k)^α.
    pub a: f64,
    /// The step's stability constant A (a tenth of the run).
    pub big_a: f64,
}

impl Schedule {
    /// OpenBench's schedule for `spec` over `pairs` iterations with `r_end`.
    pub fn new(spec: &TunableSpec, pairs: usize, r_end: f64) -> Self {
        let n = pairs.max(1) as f64;
        let big_a = n / 10.0;
        Self {
            c: spec.c_end * n.powf(GAMMA),
            a: r_end * spec.c_end * spec.c_end * (big_a + n).powf(ALPHA),
            big_a,
        }
    }

    /// The perturbation at iteration `k` (from 1).
    pub fn c_k(&self, k: usize) -> f64 {
        self.c / (k.max(1) as f64).powf(GAMMA)
    }

    /// The step at iteration `k` (from 1).
    pub fn a_k(&self, k: usize) -> f64 {
        self.a / (self.big_a + k.max(1) as f64).powf(ALPHA)
    }
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// Game pairs (iterations).
    pub pairs: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Pairs played at once (two engines each).
    pub threads: usize,
    /// Seed of the openings and the perturbations' signs.
    pub seed: u64,
    /// Random plies from the start position (or the book line) before the engines play.
    pub random_plies: usize,
    /// Hash per engine, in MiB.
    pub hash_mib: usize,
    /// `NAME=VALUE` UCI options set on every engine.
    pub options: Vec<String>,
    /// The indices in [`TUNABLE_SPECS`] of the numbers tuned; the others keep `start`'s.
    pub tune: Vec<usize>,
    /// The numbers the run starts from.
    pub start: Tunables,
    /// OpenBench's `r_end`.
    pub r_end: f64,
}

impl Default for SpsaConfig {
    fn default() -> Self {
        Self {
            pairs: 1000,
            nodes: 10_000,
            threads: 1,
            seed: 1,
            random_plies: 8,
            hash_mib: 8,
            options: Vec::new(),
            tune: (0..TUNABLE_SPECS.len()).collect(),
            start: Tunables::default(),
            r_end: R_END,
        }
    }
}

/// Where a run stands after a pair.
#[derive(Clone, Debug)]
pub struct SpsaProgress {
    /// Pairs finished.
    pub pairs: usize,
    /// Wins, draws and losses of the θ + cΔ engines so far (games).
    pub wdl: [usize; 3],
    /// The current θ, one real number per entry of [`TUNABLE_SPECS`].
    pub theta: Vec<f64>,
}

impl SpsaProgress {
    /// θ rounded, as the engine plays it.
    pub fn tunables(&self) -> Tunables {
        let mut t = Tunables::default();
        for (i, v) in self.theta.iter().enumerate() {
            t.set(i, v.round() as i32);
        }
        t
    }
}

/// One SPSA step for the number `i`: θᵢ moves by aₖ · `result` / (cₖ · Δᵢ), kept in range.
/// `result` is wins − losses of the θ + cₖΔ engine over the pair (−2 … 2).
pub fn step(
    theta: f64,
    spec: &TunableSpec,
    schedule: &Schedule,
    k: usize,
    sign: f64,
    result: f64,
) -> f64 {
    let moved = theta + schedule.a_k(k) * result / (schedule.c_k(k) * sign);
    moved.clamp(f64::from(spec.min), f64::from(spec.max))
}

/// θ ± cₖΔ, rounded and kept in range, for the tuned numbers (the others as in `theta`).
fn perturbed(
    theta: &[f64],
    tune: &[usize],
    schedules: &[Schedule],
    k: usize,
    signs: &[f64],
    by: f64,
) -> Tunables {
    let mut t = Tunables::default();
    for (i, v) in theta.iter().enumerate() {
        t.set(i, v.round() as i32);
    }
    for (j, &i) in tune.iter().enumerate() {
        let v = theta[i] + by * schedules[j].c_k(k) * signs[j];
        t.set(i, v.round() as i32);
    }
    t
}

/// Runs the tuning: `config.pairs` pairs from `starts` (one drawn per pair; the start
/// position when empty) on `config.threads` threads. `on_pair` sees the state after each
/// pair, in the order the pairs finish. Returns the final state.
pub fn spsa(
    config: &SpsaConfig,
    starts: &[Position],
    mut on_pair: impl FnMut(&SpsaProgress),
) -> SpsaProgress {
    let default_start = [Position::startpos()];
    let starts = if starts.is_empty() {
        &default_start[..]
    } else {
        starts
    };
    let schedules: Vec<Schedule> = config
        .tune
        .iter()
        .map(|&i| Schedule::new(&TUNABLE_SPECS[i], config.pairs, config.r_end))
        .collect();
    let state = Mutex::new(SpsaProgress {
        pairs: 0,
        wdl: [0; 3],
        theta: (0..TUNABLE_SPECS.len())
            .map(|i| f64::from(config.start.get(i)))
            .collect(),
    });
    let next = AtomicUsize::new(1);
    let games = DatagenConfig {
        random_plies: config.random_plies,
        opening_max_score: None,
        ..DatagenConfig::default()
    };
    let limits = Limits::nodes(config.nodes);
    let (tx, rx) = mpsc::channel::<SpsaProgress>();
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let (state, next, schedules, games, limits) =
                (&state, &next, &schedules, &games, &limits);
            scope.spawn(move || {
                let new_engine = || {
                    let mut e = Engine::new(config.hash_mib.max(1));
                    // Checked by the caller (`run`); a failure here plays with the defaults.
                    let _ = apply_engine_options(&mut e, &config.options);
                    e
                };
                let mut engines = [new_engine(), new_engine()];
                let no_tables = Tablebases::none();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k > config.pairs {
                        break;
                    }
                    // 1. The signs and the opening of this pair, from the seed and k alone.
                    let mut rng =
                        Rng::new(config.seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    let signs: Vec<f64> = config
                        .tune
                        .iter()
                        .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
                        .collect();
                    let start = &starts[rng.below(starts.len())];
                    let plies = if config.random_plies > 0 {
                        config.random_plies + rng.below(2)
                    } else {
                        0
                    };
                    let opening = random_opening(start, plies, &mut rng);
                    // 2. θ + cₖΔ (engine 0) against θ − cₖΔ (engine 1), each colour once.
                    let theta = state.lock().map(|s| s.theta.clone()).unwrap_or_default();
                    if theta.len() != TUNABLE_SPECS.len() {
                        break;
                    }
                    engines[0].options.tunables =
                        perturbed(&theta, &config.tune, schedules, k, &signs, 1.0);
                    engines[1].options.tunables =
                        perturbed(&theta, &config.tune, schedules, k, &signs, -1.0);
                    let mut points = [0usize; 3];
                    for plus_white in [true, false] {
                        for e in engines.iter_mut() {
                            e.clear();
                        }
                        let [plus, minus] = &mut engines;
                        let record =
                            play_out(opening.clone(), plies, games, &no_tables, None, |p| {
                                let plus_to_move =
                                    (p.side_to_move() == cozy_chess::Color::White) == plus_white;
                                let e = if plus_to_move {
                                    &mut *plus
                                } else {
                                    &mut *minus
                                };
                                e.search(p, limits, &[])
                            });
                        let white = record.map_or(0.5, |r| r.result);
                        let plus_score = if plus_white { white } else { 1.0 - white };
                        points[if plus_score > 0.75 {
                            0
                        } else if plus_score > 0.25 {
                            1
                        } else {
                            2
                        }] += 1;
                    }
                    // 3. The step.
                    let result = points[0] as f64 - points[2] as f64;
                    let Ok(mut s) = state.lock() else { break };
                    for (j, &i) in config.tune.iter().enumerate() {
                        s.theta[i] = step(
                            s.theta[i],
                            &TUNABLE_SPECS[i],
                            &schedules[j],
                            k,
                            signs[j],
                            result,
                        );
                    }
                    s.pairs += 1;
                    for (total, p) in s.wdl.iter_mut().zip(points) {
                        *total += p;
                    }
                    if tx.send(s.clone()).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for progress in rx {
            on_pair(&progress);
        }
    });
    state.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The numbers as `lull spsa` writes them: a comment line, then `Name value` per line.
pub fn format_tunables(t: &Tunables, comment: &str) -> String {
    let mut text = format!("# {comment}\n");
    for (i, spec) in TUNABLE_SPECS.iter().enumerate() {
        text.push_str(&format!("{} {}\n", spec.name, t.get(i)));
    }
    text
}

/// Reads numbers written by [`format_tunables`] (or by hand: `Name value` per line, `#`
/// comments, names as in `params::TUNABLE_SPECS`) over the defaults.
pub fn parse_tunables(text: &str) -> Result<Tunables, String> {
    let mut t = Tunables::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!(
                "line {}: expected 'Name value', got '{line}'",
                n + 1
            ));
        };
        let value: i32 = value
            .parse()
            .map_err(|_| format!("line {}: '{value}' is not an integer", n + 1))?;
        t.set_named(name, value)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
    }
    Ok(t)
}

/// Arguments of `lull spsa`.
#[derive(Clone, Debug, clap::Args)]
pub struct SpsaArgs {
    /// Game pairs (SPSA iterations).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Pairs played at once (two engines each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Opening book (EPD or FEN lines); a line is drawn at random for each pair.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Seed of the openings and the perturbations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies played before the engines (default: 8 without a book, 0 with one).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub random_plies: Option<u32>,
    /// Hash per engine, in MiB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// The numbers to tune, comma-separated (default: all of them; `--list` shows them).
    #[arg(long, value_delimiter = ',')]
    pub tune: Vec<String>,
    /// Start from the numbers in this file (`Name value` lines, as --output writes them).
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
    /// Write the numbers here after every --report pairs and at the end (replaced whole).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Pairs between two progress lines.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    pub report: u64,
    /// OpenBench's r_end: the last step as a fraction of the last perturbation squared.
    #[arg(long, default_value_t = R_END)]
    pub r_end: f64,
    /// List the tunable numbers with their defaults, ranges and perturbations, and exit.
    #[arg(long)]
    pub list: bool,
    /// Print the tunable numbers as OpenBench's SPSA input (`name, int, default, min, max,
    /// c_end, r_end`, with --r-end) and exit; the engine OpenBench tunes is the tuning build
    /// (`cargo build --release --features tune`), which has them as UCI options.
    #[arg(long)]
    pub openbench: bool,
    /// A UCI option for every engine, e.g. --option EvalFile=nets/lull-2.nnue (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

fn write_numbers(path: &Path, t: &Tunables, comment: &str) -> Result<(), String> {
    crate::tools::common::atomic::write_atomic(path, format_tunables(t, comment).as_bytes())
}

/// `lull spsa`.
pub fn run(args: SpsaArgs) -> ExitCode {
    if args.openbench {
        if !(args.r_end.is_finite() && args.r_end > 0.0) {
            return fail(
                2,
                format!("--r-end must be a positive number, not {}", args.r_end),
            );
        }
        for line in crate::options::openbench_spsa_input(args.r_end) {
            println!("{line}");
        }
        return ExitCode::SUCCESS;
    }
    if args.list {
        println!(
            "{:<22} {:>7} {:>7} {:>7} {:>8}",
            "name", "default", "min", "max", "c_end"
        );
        for s in TUNABLE_SPECS {
            println!(
                "{:<22} {:>7} {:>7} {:>7} {:>8}",
                s.name, s.default, s.min, s.max, s.c_end
            );
        }
        return ExitCode::SUCCESS;
    }
    if !(args.r_end.is_finite() && args.r_end > 0.0) {
        return fail(
            2,
            format!("--r-end must be a positive number, got {}", args.r_end),
        );
    }
    // 1. What to tune, from where, on which openings.
    let mut tune = Vec::new();
    for name in &args.tune {
        match TUNABLE_SPECS
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name.trim()))
        {
            Some(i) if !tune.contains(&i) => tune.push(i),
            Some(_) => {}
            None => {
                let names: Vec<&str> = TUNABLE_SPECS.iter().map(|s| s.name).collect();
                return fail(
                    2,
                    format!("unknown tunable '{name}' (known: {})", names.join(", ")),
                );
            }
        }
    }
    if tune.is_empty() {
        tune = (0..TUNABLE_SPECS.len()).collect();
    }
    let start = match &args.start {
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| parse_tunables(&text))
        {
            Ok(t) => t,
            Err(e) => return fail(2, format!("{}: {e}", path.display())),
        },
        None => Tunables::default(),
    };
    let starts = match read_book(args.book.as_deref()) {
        Ok(starts) => starts,
        Err(code) => return code,
    };
    if let Err(e) = apply_engine_options(&mut Engine::new(1), &args.options) {
        return fail(2, e);
    }
    if let Some(out) = &args.output {
        let inputs: Vec<&Path> = args
            .book
            .iter()
            .chain(&args.start)
            .map(|p| p.as_path())
            .collect();
        if let Err(e) = crate::tools::common::atomic::check_output(out, &inputs) {
            return fail(2, e);
        }
    }
    let config = SpsaConfig {
        pairs: args.pairs as usize,
        nodes: args.nodes,
        threads: args.threads as usize,
        seed: args.seed,
        random_plies: args
            .random_plies
            .unwrap_or(if args.book.is_some() { 0 } else { 8 }) as usize,
        hash_mib: args.hash as usize,
        options: args.options.clone(),
        tune,
        start,
        r_end: args.r_end,
    };
    let names: Vec<&str> = config.tune.iter().map(|&i| TUNABLE_SPECS[i].name).collect();
    eprintln!(
        "spsa: {} pairs, {} nodes/move, {} thread(s), {} start position(s), seed {}, r_end {}; tuning {}",
        config.pairs,
        config.nodes,
        config.threads,
        starts.len().max(1),
        config.seed,
        config.r_end,
        names.join(", ")
    );
    // 2. Play, with a progress line (and the file) every --report pairs.
    let mut write_error = None;
    let describe = |p: &SpsaProgress| {
        let values: Vec<String> = config
            .tune
            .iter()
            .map(|&i| format!("{} {:.1}", TUNABLE_SPECS[i].name, p.theta[i]))
            .collect();
        format!(
            "{} pairs, plus +{} ={} -{}: {}",
            p.pairs,
            p.wdl[0],
            p.wdl[1],
            p.wdl[2],
            values.join(", ")
        )
    };
    let last = spsa(&config, &starts, |p| {
        if (p.pairs as u64).is_multiple_of(args.report) || p.pairs == config.pairs {
            println!("{}", describe(p));
            if let Some(out) = &args.output {
                let comment = format!(
                    "lull spsa, {} of {} pairs, {} nodes/move, seed {}",
                    p.pairs, config.pairs, config.nodes, config.seed
                );
                if let Err(e) = write_numbers(out, &p.tunables(), &comment) {
                    write_error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = write_error {
        return fail(1, e);
    }
    // 3. The result, ready to compare with params.rs.
    println!("final after {} pairs:", last.pairs);
    let t = last.tunables();
    for (i, spec) in TUNABLE_SPECS.iter().enumerate() {
        if config.tune.contains(&i) {
            println!(
                "{:<22} {:>6} (default {}, from {})",
                spec.name,
                t.get(i),
                spec.default,
                config.start.get(i)
            );
        }
    }
    if let Some(out) = &args.output {
        println!("written to {}", out.display());
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Tunable;

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let spec = &TUNABLE_SPECS[Tunable::RfpMargin as usize];
        let s = Schedule::new(spec, 1000, R_END);
        assert!((s.c_k(1000) - spec.c_end).abs() < 1e-9);
        assert!((s.a_k(1000) - R_END * spec.c_end * spec.c_end).abs() < 1e-9);
        assert!(s.c_k(1) > s.c_k(500) && s.a_k(1) > s.a_k(500));
    }

    #[test]
    fn a_step_follows_the_winner_and_stays_in_range() {
        let spec = &TUNABLE_SPECS[Tunable::RfpMargin as usize];
        let s = Schedule::new(spec, 100, R_END);
        let moved = s.a_k(10) * 2.0 / s.c_k(10);
        // θ + cΔ won both games with Δ = +1: θ goes up; with Δ = −1 the same pair sends it down.
        assert!((step(75.0, spec, &s, 10, 1.0, 2.0) - (75.0 + moved)).abs() < 1e-9);
        assert!((step(75.0, spec, &s, 10, -1.0, 2.0) - (75.0 - moved)).abs() < 1e-9);
        assert_eq!(step(75.0, spec, &s, 10, 1.0, 0.0), 75.0);
        assert_eq!(
            step(f64::from(spec.max), spec, &s, 1, 1.0, 2.0),
            f64::from(spec.max)
        );
        assert_eq!(
            step(f64::from(spec.min), spec, &s, 1, 1.0, -2.0),
            f64::from(spec.min)
        );
    }

    #[test]
    fn numbers_are_written_and_read_back() {
        let mut t = Tunables::default();
        t.set(Tunable::FpBase as usize, 123);
        t.set(Tunable::LmrDivisor as usize, 9999); // kept inside its range
        let text = format_tunables(&t, "test");
        assert_eq!(parse_tunables(&text).unwrap(), t);
        assert_eq!(
            t[Tunable::LmrDivisor],
            TUNABLE_SPECS[Tunable::LmrDivisor as usize].max
        );
        assert!(parse_tunables("NoSuchNumber 3")
            .unwrap_err()
            .contains("unknown tunable"));
        assert!(parse_tunables("FpBase x")
            .unwrap_err()
            .contains("not an integer"));
        assert!(parse_tunables("FpBase 1 2")
            .unwrap_err()
            .contains("expected"));
    }

    #[test]
    fn the_numbers_reach_the_search() {
        use crate::params::TUNABLE_SPECS;
        let pos = Position::startpos();
        let nodes = |t: Tunables| {
            let mut e = Engine::new(1);
            e.options.tunables = t;
            e.search(&pos, &Limits::depth(9), &[]).nodes
        };
        let default = nodes(Tunables::default());
        assert_eq!(default, nodes(Tunables::default()));
        for (tunable, value) in [
            (Tunable::LmrBase, 150),
            (Tunable::RfpMargin, 25),
            (Tunable::NmpBaseReduction, 1),
        ] {
            let mut t = Tunables::default();
            t.set(tunable as usize, value);
            assert_ne!(
                nodes(t),
                default,
                "{} changed nothing",
                TUNABLE_SPECS[tunable as usize].name
            );
        }
    }

    #[test]
    fn a_one_thread_run_is_repeatable_and_moves_only_the_tuned_numbers() {
        let config = SpsaConfig {
            pairs: 3,
            nodes: 300,
            hash_mib: 1,
            tune: vec![Tunable::RfpMargin as usize, Tunable::FpBase as usize],
            ..SpsaConfig::default()
        };
        let mut seen = Vec::new();
        let a = spsa(&config, &[], |p| seen.push(p.pairs));
        let b = spsa(&config, &[], |_| {});
        assert_eq!(seen, vec![1, 2, 3]);
        assert_eq!(a.theta, b.theta);
        assert_eq!(a.wdl, b.wdl);
        assert_eq!(a.wdl.iter().sum::<usize>(), 6);
        for (i, spec) in TUNABLE_SPECS.iter().enumerate() {
            let v = a.theta[i];
            assert!(v >= f64::from(spec.min) && v <= f64::from(spec.max));
            if !config.tune.contains(&i) {
                assert_eq!(v, f64::from(spec.default), "{} moved", spec.name);
            }
        }
    }
}

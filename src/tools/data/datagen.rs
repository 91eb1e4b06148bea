//! `lull datagen`: self-play games between two Lull engines at a fixed node count per move,
//! from the positions of an opening book (or a few random plies from the start position),
//! written as training positions for `lull tune`: one quiet position per line with the game's
//! result and the search score,
//!
//! ```text
//! <FEN> | <result 1.0/0.5/0.0 from White> | <search score, White's view>
//! ```
//!
//! A position is written when the side to move is not in check, the move played is neither a
//! capture nor a promotion, the score is not a mate score and the game is past its first
//! plies. Games end by the rules (mate, stalemate, repetition, fifty moves, insufficient
//! material) or by adjudication on the scores, as match tools do. Every game has its own
//! random generator (from the seed and its number) and a cleared engine, so the output is the
//! same for a seed whatever the number of threads. With `--format bin` the positions are
//! written as the 32-byte records of [`crate::tools::data::packed`] instead, for `lull train`.

use std::io::{self, Seek, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use cozy_chess::{Color, Move};

use crate::position::Position;
use crate::search::{Engine, SearchReport, SearchResult};
use crate::tablebase::Tablebases;
use crate::tablebase::Wdl;
use crate::time::Limits;
use crate::tools::cli::{apply_engine_options, fail, read_book};
use crate::tools::common::progress::progress_bar;
use crate::tools::data::gameformat::{Entry, SeqGame, ShardHeader, ShardWriter, TrainingFilter};
use crate::tools::data::packed::{result_code, PackedRecord};

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Number of games.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at once (one engine each).
    pub threads: usize,
    /// Seed of the random choices (book line, random plies).
    pub seed: u64,
    /// Random legal moves played from the chosen start position before the engines play.
    pub random_plies: usize,
    /// Positions in the first this many plies of a game (random plies included) are not
    /// written.
    pub skip_plies: usize,
    /// Hash per engine, in MiB.
    pub hash_mib: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// `NAME=VALUE` engine options set on every engine (checked before the games start).
    pub options: Vec<String>,
    /// Soft node limit: no new iteration is started past this many nodes (`nodes` stays the
    /// hard cap). `None`: the search stops at `nodes` only.
    pub soft_nodes: Option<u64>,
    /// An opening whose first search scores beyond this (centipawns, either side) is drawn
    /// again (up to [`OPENING_TRIES`] times); `None` keeps every opening.
    pub opening_max_score: Option<i32>,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        Self {
            games: 100,
            nodes: 5000,
            threads: 1,
            seed: 1,
            random_plies: 8,
            skip_plies: 8,
            hash_mib: 16,
            max_plies: 400,
            options: Vec::new(),
            soft_nodes: None,
            opening_max_score: Some(OPENING_MAX_SCORE),
        }
    }
}

/// The default of [`DatagenConfig::opening_max_score`]: openings beyond ±500 cp are drawn
/// again, as Stormphrax does.
pub const OPENING_MAX_SCORE: i32 = 500;
/// Openings drawn at most per game before one beyond the score bound is kept.
pub const OPENING_TRIES: usize = 10;

/// Score adjudication (cutechess-cli style): a side loses when the score is at least this
/// much against it for [`RESIGN_PLIES`] plies in a row (both engines agree).
pub const RESIGN_SCORE: i32 = 1000;
/// See [`RESIGN_SCORE`].
pub const RESIGN_PLIES: usize = 4;
/// A game is a draw when the score stays within this many centipawns of zero for
/// [`DRAW_PLIES`] plies in a row after [`DRAW_MIN_PLY`].
pub const DRAW_SCORE: i32 = 10;
/// See [`DRAW_SCORE`].
pub const DRAW_PLIES: usize = 8;
/// See [`DRAW_SCORE`].
pub const DRAW_MIN_PLY: usize = 70;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// Checkmate.
    Mate,
    /// Stalemate.
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// Fifty-move rule.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// Adjudicated: one side's score was hopeless.
    Resign,
    /// Adjudicated: the score stayed near zero.
    DrawScore,
    /// The ply limit.
    MaxPlies,
    /// Adjudicated by the Syzygy tables (`--option SyzygyPath=...`).
    Tablebase,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Result from White's point of view: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// How it ended.
    pub ending: Ending,
    /// Plies played (random plies included).
    pub plies: usize,
    /// Every searched position, from the first after the random plies: the move played and
    /// the search score (White's view).
    pub game: SeqGame,
    /// The game's ply at `game.start` (the random plies).
    pub first_ply: usize,
    /// Positions before this ply are not training positions (`skip_plies`).
    pub skip_plies: usize,
}

impl GameRecord {
    /// The training positions (quiet, past `skip_plies`: see the module header): FEN,
    /// White-relative score and the move played (UCI).
    pub fn positions(&self) -> Vec<(String, i32, String)> {
        self.quiet(|pos, score, mv| (pos.fen(), score, pos.move_to_uci(mv)))
    }

    /// `f` of each training position.
    fn quiet<T>(&self, mut f: impl FnMut(&Position, i32, Move) -> T) -> Vec<T> {
        let filter = TrainingFilter::default();
        let mut board = self.game.start.clone();
        let mut out = Vec::new();
        for (i, e) in self.game.entries.iter().enumerate() {
            let Some(mv) = e.mv else { break };
            if self.first_ply + i >= self.skip_plies && filter.keeps(&board, e) {
                out.push(f(
                    &Position::from_board(board.clone()),
                    i32::from(e.score),
                    mv,
                ));
            }
            board.play_unchecked(mv);
        }
        out
    }

    /// Number of training positions.
    pub fn training_positions(&self) -> usize {
        self.quiet(|_, _, _| ()).len()
    }

    /// The data lines of this game.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.positions()
            .into_iter()
            .map(|(fen, score, _)| format!("{fen} | {:.1} | {score}", self.result))
    }

    /// The packed records of this game's training positions.
    pub fn records(&self) -> Vec<PackedRecord> {
        self.quiet(|pos, score, _| PackedRecord::encode(pos.board(), self.result, score))
    }

    /// Writes the positions of this game to `out` in `format` (text or records; a shard is
    /// written through [`ShardWriter`]).
    pub fn write(&self, out: &mut impl Write, format: DataFormat) -> io::Result<()> {
        match format {
            DataFormat::Text => self.lines().try_for_each(|line| writeln!(out, "{line}")),
            DataFormat::Bin => self.records().iter().try_for_each(|r| out.write_all(&r.0)),
            DataFormat::Games => out.write_all(&self.game.to_bytes()),
        }
    }
}

/// How `lull datagen` writes its positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DataFormat {
    /// Text lines, `<FEN> | <result> | <score>` (for `lull tune`).
    #[default]
    Text,
    /// 32-byte packed records (for `lull train`).
    Bin,
    /// A game shard: every searched position with its move and score, about 4 bytes a
    /// position; the trainer filters when it reads.
    Games,
}

/// Totals of a run.
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    /// Games played.
    pub games: usize,
    /// White wins, draws, Black wins.
    pub results: [usize; 3],
    /// Training positions (quiet, past the skipped plies).
    pub positions: usize,
    /// Positions searched and stored in a shard (every one of the games).
    pub stored: usize,
    /// Plies played.
    pub plies: usize,
    /// Games per ending.
    pub endings: std::collections::BTreeMap<String, usize>,
}

impl DatagenSummary {
    /// Adds a game.
    pub fn add(&mut self, game: &GameRecord) {
        self.games += 1;
        let i = if game.result > 0.75 {
            0
        } else if game.result > 0.25 {
            1
        } else {
            2
        };
        self.results[i] += 1;
        self.positions += game.training_positions();
        self.stored += game.game.entries.len();
        self.plies += game.plies;
        *self
            .endings
            .entry(format!("{:?}", game.ending))
            .or_default() += 1;
    }

    /// A one-paragraph report.
    pub fn text(&self) -> String {
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!(
            "{} games (+{} ={} -{} for White), {} plies, {} training positions ({} searched)\nendings: {}",
            self.games,
            self.results[0],
            self.results[1],
            self.results[2],
            self.plies,
            self.positions,
            self.stored,
            endings.join(", ")
        )
    }
}

/// A small deterministic random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// `start` after `plies` random legal moves drawn by `rng`: the opening of `lull datagen` and
/// of OpenBench's `genfens`. A line that ends the game early (no legal move) is drawn again,
/// up to ten times; the last one drawn is returned even if it is over.
pub fn random_opening(start: &Position, plies: usize, rng: &mut Rng) -> Position {
    let mut pos = start.clone();
    for _attempt in 0..10 {
        pos = start.clone();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        if !pos.legal_moves().is_empty() {
            break;
        }
    }
    pos
}

/// Plays one game from `start` (after `config.random_plies` or one more random moves, drawn
/// by `rng`) with `engine` for both sides. An opening whose first search scores beyond
/// `config.opening_max_score` is drawn again. The table is cleared once per game and kept
/// across its moves.
pub fn play_game(
    engine: &mut Engine,
    start: &Position,
    config: &DatagenConfig,
    rng: &mut Rng,
) -> GameRecord {
    let limits = Limits::nodes(config.nodes);
    let mut tries = 0;
    loop {
        engine.clear();
        // 1. Random plies: `random_plies` or one more, so that either side may move first.
        let random = if config.random_plies > 0 {
            config.random_plies + rng.below(2)
        } else {
            0
        };
        let pos = random_opening(start, random, rng);
        tries += 1;
        let bound = config.opening_max_score.filter(|_| tries < OPENING_TRIES);
        if let Some(game) = play_from(engine, pos, random, config, &limits, bound) {
            return game;
        }
    }
}

/// The game from `pos` (after `random` random plies); `None` when the first search scores
/// beyond `bound`.
fn play_from(
    engine: &mut Engine,
    pos: Position,
    random: usize,
    config: &DatagenConfig,
    limits: &Limits,
    bound: Option<i32>,
) -> Option<GameRecord> {
    let tb = engine.shared_tablebases();
    play_out(pos, random, config, &tb, bound, |p| {
        engine.search(p, limits, &[])
    })
}

/// The game from `pos` (after `random` random plies) with the adjudication of `lull
/// datagen`, each move chosen by `search` (which may hand the position to the engine of the
/// side to move); `tb` adjudicates when it has tables. `None` when the first search scores
/// beyond `bound`.
pub(crate) fn play_out(
    mut pos: Position,
    random: usize,
    config: &DatagenConfig,
    tb: &Tablebases,
    bound: Option<i32>,
    mut search: impl FnMut(&Position) -> SearchResult,
) -> Option<GameRecord> {
    let mut plies = random;
    let start = pos.board().clone();
    pos.reserve_plies(config.max_plies.saturating_sub(plies) + 1);
    let mut entries: Vec<Entry> = Vec::with_capacity(config.max_plies.saturating_sub(plies));
    let tb_adjudication = tb.max_pieces() > 0;
    // 2. The engines play until the rules or the adjudication end the game.
    let (result, ending) = loop {
        let moves = pos.legal_moves();
        let white_to_move = pos.side_to_move() == Color::White;
        if moves.is_empty() {
            if pos.in_check() {
                break (if white_to_move { 0.0 } else { 1.0 }, Ending::Mate);
            }
            break (0.5, Ending::Stalemate);
        }
        if pos.is_insufficient_material() {
            break (0.5, Ending::InsufficientMaterial);
        }
        if pos.is_fifty_move_draw() {
            break (0.5, Ending::FiftyMoves);
        }
        if pos.is_repetition(0) {
            break (0.5, Ending::Repetition);
        }
        if plies >= config.max_plies {
            break (0.5, Ending::MaxPlies);
        }
        if tb_adjudication && !entries.is_empty() {
            if let Some(wdl) = tb.probe_wdl(pos.board()) {
                let stm = match wdl {
                    Wdl::Win => 1.0,
                    Wdl::Loss => 0.0,
                    _ => 0.5,
                };
                break (
                    if white_to_move { stm } else { 1.0 - stm },
                    Ending::Tablebase,
                );
            }
        }
        let found = search(&pos);
        if entries.is_empty() && bound.is_some_and(|b| found.score.abs() > b) {
            return None;
        }
        let mv = found.best_move.unwrap_or(moves[0]);
        let white_score = if white_to_move {
            found.score
        } else {
            -found.score
        };
        // 3. Every searched position is kept; the training filter is applied when written.
        entries.push(Entry {
            mv: Some(mv),
            score: white_score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
            marked: false,
        });
        // 4. Adjudication on the last scores.
        if let Some(last) = entries
            .len()
            .checked_sub(RESIGN_PLIES)
            .map(|i| &entries[i..])
        {
            if last.iter().all(|e| i32::from(e.score) >= RESIGN_SCORE) {
                break (1.0, Ending::Resign);
            }
            if last.iter().all(|e| i32::from(e.score) <= -RESIGN_SCORE) {
                break (0.0, Ending::Resign);
            }
        }
        if plies >= DRAW_MIN_PLY && entries.len() >= DRAW_PLIES {
            let last = &entries[entries.len() - DRAW_PLIES..];
            if last.iter().all(|e| i32::from(e.score).abs() <= DRAW_SCORE) {
                break (0.5, Ending::DrawScore);
            }
        }
        pos.play(mv);
        plies += 1;
    };
    Some(GameRecord {
        result,
        ending,
        plies,
        game: SeqGame {
            start,
            result: result_code(result),
            entries,
        },
        first_ply: random,
        skip_plies: config.skip_plies,
    })
}

/// Plays `config.games` games from `starts` (one drawn at random per game; the start position
/// when empty) on `config.threads` threads and writes their positions to `out` in game order,
/// as text lines. `on_game` is called after each game is written, in order.
pub fn datagen(
    config: &DatagenConfig,
    starts: &[Position],
    out: &mut impl Write,
    on_game: impl FnMut(&GameRecord, &DatagenSummary),
) -> io::Result<DatagenSummary> {
    datagen_as(config, starts, out, DataFormat::Text, on_game)
}

/// As [`datagen`], writing the positions in `format` (for [`DataFormat::Games`], the game
/// blocks without a shard header: [`datagen_with`] and a [`ShardWriter`] write a shard).
pub fn datagen_as(
    config: &DatagenConfig,
    starts: &[Position],
    out: &mut impl Write,
    format: DataFormat,
    on_game: impl FnMut(&GameRecord, &DatagenSummary),
) -> io::Result<DatagenSummary> {
    let summary = datagen_with(config, starts, |record| record.write(out, format), on_game)?;
    out.flush()?;
    Ok(summary)
}

/// Sets the soft node limit on `engine`: after an iteration that ends past `soft` nodes, the
/// search stops (it reports each iteration, and the stop flag is read right after).
pub fn set_soft_nodes(engine: &mut Engine, soft: Option<u64>) {
    let Some(soft) = soft else {
        engine.set_report_sink(None);
        return;
    };
    let control = engine.control();
    engine.set_report_sink(Some(std::sync::Arc::new(move |report: &SearchReport| {
        if let SearchReport::Iteration(it) = report {
            if it.nodes >= soft {
                control.stop.store(true, Ordering::Relaxed);
            }
        }
    })));
}

/// Plays the games as [`datagen`] does and hands each finished one, in game order, to
/// `write`; a write error stops the run and is returned.
pub fn datagen_with(
    config: &DatagenConfig,
    starts: &[Position],
    mut write: impl FnMut(&GameRecord) -> io::Result<()>,
    mut on_game: impl FnMut(&GameRecord, &DatagenSummary),
) -> io::Result<DatagenSummary> {
    let default_start = [Position::startpos()];
    let starts = if starts.is_empty() {
        &default_start[..]
    } else {
        starts
    };
    let next = AtomicUsize::new(0);
    let mut summary = DatagenSummary::default();
    let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
    std::thread::scope(|scope| -> io::Result<()> {
        // 1. Workers: each takes the next game number and plays it with its own engine.
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut engine = Engine::new(config.hash_mib.max(1));
                // Checked by the caller (`run`); a failure here plays with the defaults.
                let _ = apply_engine_options(&mut engine, &config.options);
                set_soft_nodes(&mut engine, config.soft_nodes);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= config.games {
                        break;
                    }
                    let mut rng = Rng::new(config.seed ^ (game as u64).wrapping_mul(0x2545_F491));
                    let start = &starts[rng.below(starts.len())];
                    let record = play_game(&mut engine, start, config, &mut rng);
                    if tx.send((game, record)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // 2. The writer: games in their order, whatever thread finished them first.
        let mut pending = std::collections::BTreeMap::new();
        let mut expected = 0;
        let mut failure = None;
        for (game, record) in rx {
            pending.insert(game, record);
            while let Some(record) = pending.remove(&expected) {
                expected += 1;
                if failure.is_none() {
                    if let Err(e) = write(&record) {
                        failure = Some(e);
                        // Stop the workers at their next game.
                        next.store(config.games, Ordering::Relaxed);
                    }
                }
                summary.add(&record);
                on_game(&record, &summary);
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })?;
    Ok(summary)
}

/// Arguments of `lull datagen`.
#[derive(Clone, Debug, clap::Args)]
pub struct DatagenArgs {
    /// Output file.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Games played at once (one engine each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Opening book (EPD or FEN lines); a line is drawn at random for each game.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies played before the engines (default: 8 without a book, 0 with one).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub random_plies: Option<u32>,
    /// Positions in a game's first this many plies are not written.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub skip_plies: u32,
    /// Hash per engine, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Output format: text lines (for `lull tune`), 32-byte packed records or a game shard
    /// (both for `lull train`; a shard keeps every searched position in about 4 bytes).
    #[arg(long, value_enum, default_value_t = DataFormat::Text)]
    pub format: DataFormat,
    /// Soft node limit: no new iteration past this many nodes (--nodes stays the hard cap).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub soft_nodes: Option<u64>,
    /// Openings whose first search scores beyond this many centipawns are drawn again
    /// (0: keep every opening).
    #[arg(long, default_value_t = OPENING_MAX_SCORE as u32)]
    pub opening_max_score: u32,
    /// A UCI option for every engine, e.g. --option EvalFile=nets/lull-2.nnue --option
    /// "Use NNUE=true" to play the next generation's games with a network (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Plays the games into a shard on `file`: each game is written and flushed as it finishes (a
/// run that is stopped leaves the games written so far, a valid shard), and the header gets
/// its final counts at the end.
pub fn write_shard(
    config: &DatagenConfig,
    starts: &[Position],
    out: impl Write + Seek,
    on_game: impl FnMut(&GameRecord, &DatagenSummary),
) -> io::Result<DatagenSummary> {
    let mut header = ShardHeader::new("datagen");
    header.seed = config.seed;
    header.nodes = config.nodes;
    let mut engine = Engine::new(1);
    // Checked by the caller.
    let _ = apply_engine_options(&mut engine, &config.options);
    if engine.use_nnue() {
        header.net_hash = engine
            .network()
            .map_or(0, |n| crate::tools::data::gameformat::fnv1a(&n.to_bytes()));
    }
    let mut writer = ShardWriter::new(out, header)?;
    let summary = datagen_with(
        config,
        starts,
        |record| {
            writer.write_game(&record.game)?;
            writer.flush()
        },
        on_game,
    )?;
    writer.finish()?;
    Ok(summary)
}

/// `lull datagen`: plays the games with a progress bar, writes the positions and prints the
/// summary. Exit code 2 for an unreadable book or an output that cannot be created, 1 for a
/// book with no position or a failed write.
pub fn run(args: DatagenArgs) -> ExitCode {
    // 1. The book: malformed lines are reported and skipped.
    let starts = match read_book(args.book.as_deref()) {
        Ok(starts) => starts,
        Err(code) => return code,
    };
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
        options: args.options.clone(),
        soft_nodes: args.soft_nodes,
        opening_max_score: (args.opening_max_score > 0).then_some(args.opening_max_score as i32),
        ..DatagenConfig::default()
    };
    // The options on a trial engine first: a typo or an unreadable network ends the run
    // here, not silently in every worker.
    if let Err(e) = apply_engine_options(&mut Engine::new(1), &config.options) {
        return fail(2, e);
    }
    // The hash of one worker, tried once: a size that cannot be had is said, not shrunk
    // without a word in every worker.
    if let Err(e) = Engine::new(1).set_hash(config.hash_mib) {
        eprintln!("warning: {e}: each game is played with a smaller hash table");
    }
    let inputs: Vec<&std::path::Path> = args.book.iter().map(|p| p.as_path()).collect();
    if let Err(e) = crate::tools::common::atomic::check_output(&args.output, &inputs) {
        return fail(2, e);
    }
    let mut out = match crate::tools::common::atomic::AtomicFile::create(&args.output) {
        Ok(f) => f,
        Err(e) => return fail(2, e),
    };
    eprintln!(
        "datagen: {} games, {} nodes/move, {} thread(s), {} start position(s), {} random plies, seed {}{}",
        config.games,
        config.nodes,
        config.threads,
        starts.len().max(1),
        config.random_plies,
        config.seed,
        if config.options.is_empty() {
            String::new()
        } else {
            format!(", options {}", config.options.join(", "))
        }
    );
    // 2. Play, with a progress bar.
    let bar = progress_bar(args.games, "{pos}/{len} games");
    let on_game = |_: &GameRecord, summary: &DatagenSummary| {
        bar.set_message(format!(
            "+{} ={} -{}, {} positions",
            summary.results[0], summary.results[1], summary.results[2], summary.positions
        ));
        bar.inc(1);
    };
    let outcome = if args.format == DataFormat::Games {
        write_shard(&config, &starts, &mut out, on_game)
    } else {
        datagen_as(&config, &starts, &mut out, args.format, on_game)
    };
    bar.finish_and_clear();
    let outcome = outcome
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))
        .and_then(|summary| out.commit().map(|()| summary));
    match outcome {
        Ok(summary) => {
            println!("{}", summary.text());
            println!("written to {}", args.output.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(1, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::MATE_BOUND;

    /// Parses a data line into its three fields (the tuner's reading is tested in its module).
    fn fields(line: &str) -> (String, f32, i32) {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        (
            parts[0].to_string(),
            parts[1].parse().unwrap(),
            parts[2].parse().unwrap(),
        )
    }

    #[test]
    fn games_write_quiet_parseable_positions_deterministically() {
        let config = DatagenConfig {
            games: 3,
            nodes: 300,
            threads: 1,
            seed: 7,
            random_plies: 6,
            skip_plies: 6,
            hash_mib: 1,
            max_plies: 120,
            ..DatagenConfig::default()
        };
        let mut out = Vec::new();
        let mut calls = 0;
        let summary = datagen(&config, &[], &mut out, |_, _| calls += 1).unwrap();
        assert_eq!(calls, 3);
        assert_eq!(summary.games, 3);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), summary.positions);
        assert!(!lines.is_empty());
        for line in &lines {
            let (fen, result, score) = fields(line);
            assert!([0.0, 0.5, 1.0].contains(&result), "{line}");
            assert!(score.abs() < MATE_BOUND, "{line}");
            let pos = Position::from_fen(&fen).unwrap();
            assert!(!pos.in_check(), "{line}");
        }
        // The same seed gives the same data, with one thread or two.
        let mut again = Vec::new();
        let config2 = DatagenConfig {
            threads: 2,
            ..config.clone()
        };
        datagen(&config2, &[], &mut again, |_, _| {}).unwrap();
        assert_eq!(String::from_utf8(again).unwrap(), text);
        // The binary format holds the same positions, results and scores.
        let mut bin = Vec::new();
        datagen_as(&config, &[], &mut bin, DataFormat::Bin, |_, _| {}).unwrap();
        let records = crate::tools::data::packed::records_from_bytes(&bin).unwrap();
        assert_eq!(records.len(), lines.len());
        for (record, line) in records.iter().zip(&lines) {
            let (fen, result, score) = fields(line);
            let (board, r, s) = record.decode().unwrap();
            assert_eq!(board, crate::position::parse_fen(&fen).unwrap(), "{line}");
            assert_eq!((r, s), (result, score), "{line}");
        }
    }

    #[test]
    fn a_datagen_shard_holds_every_searched_position_and_the_same_training_positions() {
        let config = DatagenConfig {
            games: 3,
            nodes: 300,
            seed: 5,
            random_plies: 6,
            skip_plies: 6,
            hash_mib: 1,
            max_plies: 100,
            ..DatagenConfig::default()
        };
        let mut text = Vec::new();
        let summary = datagen(&config, &[], &mut text, |_, _| {}).unwrap();
        let path = std::env::temp_dir().join(format!("lull-datagen-{}.games", std::process::id()));
        let file = std::fs::File::create(&path).unwrap();
        let again = write_shard(&config, &[], file, |_, _| {}).unwrap();
        let shard = crate::tools::data::gameformat::read_shard(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(shard.problems().is_empty(), "{:?}", shard.problems());
        let h = &shard.header;
        assert!(h.complete);
        assert_eq!((h.seed, h.nodes, h.source.as_str()), (5, 300, "datagen"));
        assert_eq!(h.games, 3);
        assert_eq!(h.positions as usize, again.stored);
        assert_eq!(shard.positions(), summary.stored);
        // Every position has a score and a move; the plies searched are all there.
        let plies: usize = shard.games.iter().map(|g| g.entries.len()).sum();
        assert!(plies > summary.positions);
        assert!(shard
            .games
            .iter()
            .flat_map(|g| &g.entries)
            .all(|e| e.mv.is_some() && e.score != crate::tools::data::gameformat::NO_SCORE));
        // The trainer's filter gives back the text lines of the same seed.
        let lines: Vec<String> = shard
            .games
            .iter()
            .flat_map(|g| g.records(TrainingFilter::default()).unwrap())
            .map(|r| {
                let (board, result, score) = r.decode().unwrap();
                format!(
                    "{} | {result:.1} | {score}",
                    crate::position::board_fen(&board)
                )
            })
            .collect();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(lines, text.lines().collect::<Vec<_>>());
    }

    #[test]
    fn the_soft_node_limit_ends_the_search_after_the_iteration_that_passes_it() {
        let pos = Position::startpos();
        let mut engine = Engine::new(1);
        set_soft_nodes(&mut engine, Some(3000));
        let r = engine.search(&pos, &Limits::nodes(50_000_000), &[]);
        assert!(r.nodes >= 3000 && r.nodes < 1_000_000, "{}", r.nodes);
        // The iteration before the last ended below the soft limit.
        let mut fresh = Engine::new(1);
        let before = fresh.search(&pos, &Limits::depth(r.depth - 1), &[]);
        assert!(
            before.nodes < 3000,
            "{} at depth {}",
            before.nodes,
            r.depth - 1
        );
        let last = Engine::new(1).search(&pos, &Limits::depth(r.depth), &[]);
        assert_eq!((last.nodes, last.best_move), (r.nodes, r.best_move));
        // Off again: the hard limit alone.
        set_soft_nodes(&mut engine, None);
        engine.clear();
        let hard = engine.search(&pos, &Limits::nodes(3000), &[]);
        assert!(hard.nodes >= 3000 && hard.nodes <= 4096, "{}", hard.nodes);
    }

    #[test]
    fn games_from_a_chess960_book_are_read_back_by_the_tuner() {
        // Rooks on b and g: `KQkq` must name them, or the tuner would refuse every line.
        let start =
            Position::from_fen("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1").unwrap();
        let config = DatagenConfig {
            games: 1,
            nodes: 200,
            random_plies: 2,
            skip_plies: 0,
            hash_mib: 1,
            max_plies: 24,
            ..DatagenConfig::default()
        };
        let game = play_game(&mut Engine::new(1), &start, &config, &mut Rng::new(5));
        let lines: Vec<String> = game.lines().collect();
        assert!(!lines.is_empty());
        let mut with_rights = 0;
        for (line, (fen, _, _)) in lines.iter().zip(&game.positions()) {
            let (board, _, _) = crate::tools::training::tune::parse_line(line).expect(line);
            assert_eq!(&board, Position::from_fen(fen).unwrap().board(), "{line}");
            with_rights += usize::from(board.castle_rights(Color::White).short.is_some());
        }
        assert!(with_rights > 0, "{lines:?}");
    }

    #[test]
    fn the_opening_plies_are_skipped_and_moves_are_quiet() {
        // From a book position, with no random plies: the game's positions are written only
        // after `skip_plies`, and the move played in each is neither a capture nor a
        // promotion.
        let start =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let config = DatagenConfig {
            games: 1,
            nodes: 400,
            random_plies: 0,
            skip_plies: 10,
            hash_mib: 1,
            max_plies: 60,
            ..DatagenConfig::default()
        };
        let mut engine = Engine::new(1);
        let game = play_game(&mut engine, &start, &config, &mut Rng::new(3));
        assert!(game.plies <= 60);
        assert!(!game.positions().is_empty());
        for (fen, score, mv) in &game.positions() {
            let pos = Position::from_fen(fen).unwrap();
            let b = pos.board();
            let black = usize::from(b.side_to_move() == Color::Black);
            let ply = 2 * (b.fullmove_number() as usize - 3) + black;
            assert!(ply >= 10, "{fen}");
            let mv = crate::position::parse_uci_move(b, mv, false).unwrap();
            assert!(!pos.is_capture(mv) && mv.promotion.is_none(), "{fen} {mv}");
            assert!(!pos.in_check() && score.abs() < MATE_BOUND, "{fen}");
        }
    }
}

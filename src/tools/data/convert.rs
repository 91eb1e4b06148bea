//! `lull data`: the training data files of `lull train`. `lull data convert IN OUT` packs the
//! text lines of `lull datagen` (`<FEN> | <result> | <score>`) into 32-byte records
//! ([`crate::tools::data::packed`]); `lull data merge -o OUT IN...` reads several shards (text or
//! binary), shuffles their records with a seed (Fisher–Yates) and writes a training file and
//! a validation file (`OUT.valid`).
//!
//! A file is binary when its name ends in `.bin` or `.valid`, text when it ends in `.txt`, and otherwise
//! text when its first bytes are printable ASCII.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::lines::Lines;
use crate::tools::cli::{fail, warn_skipped};
use crate::tools::common::atomic::{check_output, AtomicFile};
use crate::tools::common::progress::progress_bar;
use crate::tools::data::datagen::Rng;
use crate::tools::data::packed::{read_records, write_records, PackedRecord, BLACK_WIN, WHITE_WIN};
use crate::tools::training::tune::parse_line;

/// Arguments of `lull data`.
#[derive(Clone, Debug, clap::Args)]
pub struct DataArgs {
    /// The data command.
    #[command(subcommand)]
    pub command: DataCommand,
}

/// The `lull data` commands.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum DataCommand {
    /// Pack a text data file (`<FEN> | <result> | <score>` lines) into 32-byte records.
    /// Malformed lines are reported and skipped.
    Convert(ConvertArgs),
    /// Merge data files (text or binary), shuffle them with a seed and split off a
    /// validation file (OUT.valid).
    Merge(MergeArgs),
    /// Write data files (text, packed, OpenBench PGN, shards) into one game shard.
    Import(crate::tools::data::shard::ImportArgs),
    /// Write the positions of data files (shards, ...) as text lines or packed records.
    Export(crate::tools::data::shard::ExportArgs),
    /// List what data directories or files hold; damaged shards are named (exit code 1).
    Status(crate::tools::data::shard::StatusArgs),
}

/// Arguments of `lull data convert`.
#[derive(Clone, Debug, clap::Args)]
pub struct ConvertArgs {
    /// The text data file.
    pub input: PathBuf,
    /// The binary file to write.
    pub output: PathBuf,
}

/// Arguments of `lull data merge`.
#[derive(Clone, Debug, clap::Args)]
pub struct MergeArgs {
    /// The data files (text or binary).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The training file to write; the validation records go to this name plus `.valid`.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Share of the records written to the validation file.
    #[arg(long, default_value_t = 0.02, value_parser = parse_fraction)]
    pub valid_fraction: f64,
    /// Which records are held out for validation.
    #[arg(long, value_enum, default_value_t = ValidSplit::Positions)]
    pub valid_split: ValidSplit,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// How `lull data merge` chooses the validation records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ValidSplit {
    /// A random sample of all positions: neighbours of training positions from the same
    /// games, so a network that memorises games still scores well on it.
    Positions,
    /// The last share of each input file: `lull datagen` writes games in order, so these are
    /// whole games that training never sees (one game may be cut at the boundary). The loss
    /// on them shows when more epochs stop generalising.
    Games,
}

/// A fraction in [0, 1).
fn parse_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if (0.0..1.0).contains(&f) => Ok(f),
        _ => Err(format!("'{text}' is not a number in [0, 1)")),
    }
}

/// `lull data`: runs the data command.
pub fn run(args: DataArgs) -> ExitCode {
    match args.command {
        DataCommand::Convert(args) => cmd_convert(&args),
        DataCommand::Merge(args) => cmd_merge(&args),
        DataCommand::Import(args) => crate::tools::data::shard::cmd_import(&args),
        DataCommand::Export(args) => crate::tools::data::shard::cmd_export(&args),
        DataCommand::Status(args) => crate::tools::data::shard::cmd_status(&args),
    }
}

/// Counts of a set of records: positions, White wins, draws, Black wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataSummary {
    /// Records.
    pub positions: usize,
    /// Records from games White won, drew, lost.
    pub wdl: [usize; 3],
}

impl DataSummary {
    /// The counts of `records`.
    pub fn of(records: &[PackedRecord]) -> Self {
        let mut s = Self::default();
        for r in records {
            s.add(r);
        }
        s
    }

    /// Counts one record.
    pub fn add(&mut self, r: &PackedRecord) {
        self.positions += 1;
        let i = match r.result() {
            WHITE_WIN => 0,
            BLACK_WIN => 2,
            _ => 1,
        };
        self.wdl[i] += 1;
    }

    /// `N positions (W w / D d / L l for White)`.
    pub fn text(&self) -> String {
        format!(
            "{} positions (+{} ={} -{} for White)",
            self.positions, self.wdl[0], self.wdl[1], self.wdl[2]
        )
    }
}

/// Whether `path` holds binary records (see the module header).
pub fn is_binary(path: &Path) -> Result<bool, String> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("bin" | "valid") => return Ok(true),
        Some("txt") => return Ok(false),
        _ => {}
    }
    let mut head = [0u8; 256];
    let mut file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let n = file
        .read(&mut head)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(!head[..n]
        .iter()
        .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace()))
}

/// Refuses compressed files with a hint (they would read as corrupt records).
fn refuse_compressed(path: &Path) -> Result<(), String> {
    let mut head = [0u8; 6];
    if let Ok(mut f) = File::open(path) {
        let n = f.read(&mut head).unwrap_or(0);
        if head[..n].starts_with(b"\xFD7zXZ") || head[..n].starts_with(b"\x1F\x8B") {
            return Err(format!(
                "{} is compressed (xz or gzip): decompress it first (xz -dk, gunzip -k)",
                path.display()
            ));
        }
    }
    Ok(())
}

/// Packs the text data lines read from `input` into `out`, calling `on_bytes` with the bytes
/// read so far every 64 KiB or so. Returns the counts written and the malformed lines
/// (`line N: why`, skipped: also a line that is not UTF-8 or too long, see
/// [`crate::lines`]); blank lines and `#` comments are ignored. Only an I/O error is an error.
pub fn convert_text(
    input: impl BufRead,
    out: &mut impl Write,
    mut on_bytes: impl FnMut(u64),
) -> Result<(DataSummary, Vec<String>), String> {
    let mut summary = DataSummary::default();
    let mut errors = Vec::new();
    let mut read = 0u64;
    let mut reported = 0u64;
    let mut lines = Lines::new(input);
    while let Some((no, line)) = lines.next_line().map_err(|e| e.to_string())? {
        read = lines.bytes_read();
        if read - reported >= 1 << 16 {
            on_bytes(read);
            reported = read;
        }
        let line = match &line {
            Ok(text) => text.trim(),
            Err(why) => {
                errors.push(format!("line {no}: {why}"));
                continue;
            }
        };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok((board, result, score)) => {
                let record = PackedRecord::encode(&board, result, score);
                out.write_all(&record.0)
                    .map_err(|e| format!("cannot write: {e}"))?;
                summary.add(&record);
            }
            Err(e) => errors.push(format!("line {no}: {e}")),
        }
    }
    on_bytes(read);
    Ok((summary, errors))
}

/// Reads a data file, text, binary or a game shard (its training positions), as records; malformed text lines are warned about on
/// standard error and skipped, a corrupt binary record is an error.
pub fn read_any(path: &Path) -> Result<Vec<PackedRecord>, String> {
    crate::lines::check_input_file(path)?;
    refuse_compressed(path)?;
    if crate::tools::data::shard::file_kind(path)? == crate::tools::data::shard::FileKind::Shard {
        return crate::tools::data::shard::shard_records(path, Default::default());
    }
    if is_binary(path)? {
        // Records are read whole: only from a regular file (`/dev/zero` never ends).
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(format!(
                "{} is not a regular file (binary records are read from files only)",
                path.display()
            ));
        }
        return read_records(path);
    }
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    let (_, errors) = convert_text(BufReader::new(file), &mut bytes, |_| {})
        .map_err(|e| format!("{}: {e}", path.display()))?;
    warn_skipped(&path.display(), &errors);
    Ok(bytes
        .chunks_exact(32)
        .map(|c| PackedRecord(c.try_into().unwrap_or([0; 32])))
        .collect())
}

/// Shuffles `records` in place with Fisher–Yates, drawing from [`Rng`] seeded with `seed`.
pub fn shuffle<T>(records: &mut [T], seed: u64) {
    let mut rng = Rng::new(seed);
    for i in (1..records.len()).rev() {
        let j = rng.below(i + 1);
        records.swap(i, j);
    }
}

/// Merges `shards`: the validation records (see [`ValidSplit`]: the first
/// `round(n * valid_fraction)` shuffled records, or the last that share of each shard) and
/// the training records, each shuffled with `seed`.
pub fn merge(
    shards: Vec<Vec<PackedRecord>>,
    valid_fraction: f64,
    split: ValidSplit,
    seed: u64,
) -> (Vec<PackedRecord>, Vec<PackedRecord>) {
    match split {
        ValidSplit::Positions => {
            let mut all: Vec<PackedRecord> = shards.into_iter().flatten().collect();
            shuffle(&mut all, seed);
            let n_valid = ((all.len() as f64 * valid_fraction).round() as usize).min(all.len());
            let train = all.split_off(n_valid);
            (train, all)
        }
        ValidSplit::Games => {
            let (mut train, mut valid) = (Vec::new(), Vec::new());
            for mut shard in shards {
                let n_valid =
                    ((shard.len() as f64 * valid_fraction).round() as usize).min(shard.len());
                valid.extend(shard.split_off(shard.len() - n_valid));
                train.extend(shard);
            }
            shuffle(&mut train, seed);
            shuffle(&mut valid, seed ^ 0x5eed);
            (train, valid)
        }
    }
}

/// The validation file that goes with training file `output`: its name plus `.valid`.
pub fn valid_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".valid");
    PathBuf::from(name)
}

/// Writes records to `path` (whole or not at all), with a progress bar.
fn write_file(path: &Path, records: &[PackedRecord]) -> Result<(), String> {
    let mut out = AtomicFile::create(path)?;
    let bar = progress_bar(records.len() as u64, "{pos}/{len} records");
    for chunk in records.chunks(1 << 16) {
        write_records(&mut out, chunk)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    out.commit()
}

/// `lull data convert`: exit code 2 when the input cannot be read or the output cannot be
/// written there (the input itself, a directory that takes no file), 1 when a write fails or
/// no line was a position. The output is written whole or not at all: on an error the old
/// file stays.
pub fn cmd_convert(args: &ConvertArgs) -> ExitCode {
    if let Err(e) = check_output(&args.output, &[&args.input]) {
        return fail(2, e);
    }
    if let Err(e) =
        crate::lines::check_input_file(&args.input).and_then(|()| refuse_compressed(&args.input))
    {
        return fail(2, e);
    }
    let file = match File::open(&args.input) {
        Ok(f) => f,
        Err(e) => return fail(2, format!("cannot open {}: {e}", args.input.display())),
    };
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut out = match AtomicFile::create(&args.output) {
        Ok(f) => f,
        Err(e) => return fail(2, e),
    };
    let bar = progress_bar(size, "{bytes}/{total_bytes}");
    let outcome = convert_text(BufReader::new(file), &mut out, |n| bar.set_position(n));
    bar.finish_and_clear();
    let (summary, errors) = match outcome {
        Ok(done) => done,
        Err(e) => return fail(1, format!("{}: {e}", args.input.display())),
    };
    warn_skipped(&args.input.display(), &errors);
    if summary.positions == 0 {
        return fail(
            1,
            format!(
                "{}: no position in the file ({} left as it was)",
                args.input.display(),
                args.output.display()
            ),
        );
    }
    if let Err(e) = out.commit() {
        return fail(1, e);
    }
    println!("{} written to {}", summary.text(), args.output.display());
    if !errors.is_empty() {
        println!("{} malformed lines skipped", errors.len());
    }
    ExitCode::SUCCESS
}

/// `lull data merge`: exit code 2 when an input cannot be read (missing, truncated, corrupt)
/// or an output created, 1 when a write fails or there is no record at all.
pub fn cmd_merge(args: &MergeArgs) -> ExitCode {
    let inputs: Vec<&Path> = args.inputs.iter().map(PathBuf::as_path).collect();
    for output in [args.output.clone(), valid_path(&args.output)] {
        if let Err(e) = check_output(&output, &inputs) {
            return fail(2, e);
        }
    }
    let mut shards = Vec::new();
    for path in &args.inputs {
        match read_any(path) {
            Ok(records) => {
                eprintln!("{}: {}", path.display(), DataSummary::of(&records).text());
                shards.push(records);
            }
            Err(e) => return fail(2, e),
        }
    }
    let (train, valid) = merge(shards, args.valid_fraction, args.valid_split, args.seed);
    if train.is_empty() && valid.is_empty() {
        return fail(1, "no record in the inputs");
    }
    let valid_path = valid_path(&args.output);
    for (path, records) in [(&args.output, &train), (&valid_path, &valid)] {
        if let Err(e) = write_file(path, records) {
            return fail(1, e);
        }
    }
    println!(
        "training:   {} written to {}",
        DataSummary::of(&train).text(),
        args.output.display()
    );
    println!(
        "validation: {} written to {}",
        DataSummary::of(&valid).text(),
        valid_path.display()
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_fen;

    fn records(n: usize) -> Vec<PackedRecord> {
        let board = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        (0..n)
            .map(|i| PackedRecord::encode(&board, [0.0, 0.5, 1.0][i % 3], i as i32))
            .collect()
    }

    #[test]
    fn a_games_split_holds_out_the_tail_of_each_shard() {
        let shards = vec![records(700), records(300)];
        let (train, valid) = merge(shards.clone(), 0.1, ValidSplit::Games, 42);
        assert_eq!((train.len(), valid.len()), (900, 100));
        // The validation records are exactly the last 70 of the first shard and the last 30
        // of the second; the training records are the rest, shuffled.
        let key = |r: &PackedRecord| r.0;
        let mut held: Vec<[u8; 32]> = valid.iter().map(key).collect();
        let mut tails: Vec<[u8; 32]> = shards[0][630..]
            .iter()
            .chain(&shards[1][270..])
            .map(key)
            .collect();
        held.sort();
        tails.sort();
        assert_eq!(held, tails);
        let heads: Vec<PackedRecord> = shards[0][..630]
            .iter()
            .chain(&shards[1][..270])
            .copied()
            .collect();
        assert_ne!(train, heads);
        let mut trained: Vec<[u8; 32]> = train.iter().map(key).collect();
        let mut expected: Vec<[u8; 32]> = heads.iter().map(key).collect();
        trained.sort();
        expected.sort();
        assert_eq!(trained, expected);
    }

    #[test]
    fn merge_is_a_reproducible_permutation() {
        let shards = vec![records(700), records(300)];
        let (train, valid) = merge(shards.clone(), 0.1, ValidSplit::Positions, 42);
        assert_eq!((train.len(), valid.len()), (900, 100));
        // The same multiset of records.
        let mut all: Vec<[u8; 32]> = train.iter().chain(&valid).map(|r| r.0).collect();
        let mut expected: Vec<[u8; 32]> = shards.iter().flatten().map(|r| r.0).collect();
        all.sort();
        expected.sort();
        assert_eq!(all, expected);
        // Shuffled, and the same for the same seed; another seed gives another order.
        let in_order: Vec<PackedRecord> = shards.iter().flatten().copied().collect();
        assert_ne!(&train[..], &in_order[100..]);
        assert_eq!(
            merge(shards.clone(), 0.1, ValidSplit::Positions, 42),
            (train.clone(), valid.clone())
        );
        assert_ne!(merge(shards, 0.1, ValidSplit::Positions, 43).0, train);
    }

    #[test]
    fn text_converts_with_malformed_lines_skipped() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0.5 | 12\n\
                    # a comment\n\
                    not a fen | 1.0 | 3\n\
                    nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN b GBgb - 0 1 | 0.0 | -40\n";
        let mut out = Vec::new();
        let (summary, errors) = convert_text(text.as_bytes(), &mut out, |_| {}).unwrap();
        assert_eq!(summary.positions, 2);
        assert_eq!(summary.wdl, [0, 1, 1]);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("line 3:"), "{errors:?}");
        let recs = crate::tools::data::packed::records_from_bytes(&out).unwrap();
        let (board, result, score) = recs[1].decode().unwrap();
        assert_eq!(
            board,
            parse_fen("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN b GBgb - 0 1").unwrap()
        );
        assert_eq!((result, score), (0.0, -40));
    }

    #[test]
    fn fractions_and_paths() {
        assert!(parse_fraction("0.02").is_ok());
        assert!(parse_fraction("1").is_err());
        assert!(parse_fraction("-0.1").is_err());
        assert!(parse_fraction("x").is_err());
        assert_eq!(
            valid_path(Path::new("/tmp/a.bin")),
            PathBuf::from("/tmp/a.bin.valid")
        );
    }
}

//! `lull data import`, `lull data export` and `lull data status`: game shards
//! ([`crate::tools::data::gameformat`]) from and to the other data formats, and what a data
//! directory holds.
//!
//! - `import -o OUT IN...` reads text lines (`<FEN> | <result> | <score>`), 32-byte packed
//!   records, PGN files (OpenBench's data-generation games: see [`crate::tools::data::obpgn`]) and
//!   other shards, and writes one shard. Single positions in game order are joined back into
//!   games where one legal move (or two, with the position between them stored without a
//!   score) leads from one to the next with the same result; other positions start a new
//!   game, which may hold only one position. Nothing is lost: exporting the shard gives back
//!   every position with its result and score.
//! - `export IN... -o OUT` writes the training positions (or with `--all` every scored
//!   position) as text lines or packed records.
//! - `status PATH...` lists each data file (shards, packed records, text, PGN) with its games,
//!   positions and bytes per position, and names the damaged shards (exit code 1).
//!
//! Outputs are written to a temporary file next to the target and renamed when complete, so
//! an interrupted command never leaves a half-written file under the target's name.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::tools::cli::fail;
use crate::tools::common::progress::progress_bar;
use crate::tools::data::gameformat::{
    is_shard, read_shard, GameBuilder, SeqGame, ShardHeader, ShardWriter, TrainingFilter,
};
use crate::tools::data::obpgn;
use crate::tools::data::packed::{result_code, PackedRecord, RECORD_SIZE};
use crate::tools::training::tune::parse_line;

/// The kinds of data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A game shard.
    Shard,
    /// 32-byte packed records.
    Packed,
    /// Text lines.
    Text,
    /// PGN games.
    Pgn,
    /// xz or gzip: not read.
    Compressed,
    /// An executable (ELF, PE, Mach-O), such as an engine binary kept beside the data: not
    /// data, skipped.
    Program,
}

/// What kind of data file `path` is: by its first bytes (shard magic, compression), then by
/// its name (`.pgn`, `.bin`/`.valid`, `.txt`), then by its first bytes (`[` starts a PGN,
/// printable text is text lines, anything else packed records).
pub fn file_kind(path: &Path) -> Result<FileKind, String> {
    let mut head = [0u8; 256];
    let mut file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let n = file
        .read(&mut head)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let head = &head[..n];
    if is_shard(head) {
        return Ok(FileKind::Shard);
    }
    if head.starts_with(b"\xFD7zXZ") || head.starts_with(b"\x1F\x8B") {
        return Ok(FileKind::Compressed);
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("pgn") => return Ok(FileKind::Pgn),
        Some("bin" | "valid") => return Ok(FileKind::Packed),
        Some("txt") => return Ok(FileKind::Text),
        _ => {}
    }
    const PROGRAMS: [&[u8]; 5] = [
        b"\x7FELF",
        b"MZ",
        b"\xCF\xFA\xED\xFE",
        b"\xFE\xED\xFA\xCF",
        b"\xCA\xFE\xBA\xBE",
    ];
    if PROGRAMS.iter().any(|magic| head.starts_with(magic)) {
        return Ok(FileKind::Program);
    }
    if !head
        .iter()
        .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace())
    {
        return Ok(FileKind::Packed);
    }
    let first = head.iter().find(|b| !b.is_ascii_whitespace());
    Ok(if first == Some(&b'[') {
        FileKind::Pgn
    } else {
        FileKind::Text
    })
}

/// Counts of an import.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Inputs lines, records or PGN games that could not be read (`FILE: why`).
    pub skipped: Vec<String>,
}

/// Feeds the games of `path` to `sink`, in order. Malformed lines, records or PGN games are
/// listed in `skipped` and left out; a file that cannot be read is an error.
pub fn read_games(
    path: &Path,
    skipped: &mut Vec<String>,
    mut sink: impl FnMut(SeqGame) -> Result<(), String>,
) -> Result<(), String> {
    let name = path.display();
    let open = || File::open(path).map_err(|e| format!("cannot open {name}: {e}"));
    match file_kind(path)? {
        FileKind::Compressed => Err(format!(
            "{name} is compressed (xz or gzip): decompress it first (xz -dk, gunzip -k)"
        )),
        FileKind::Program => Err(format!("{name} is a program, not a data file")),
        FileKind::Shard => {
            let c = read_shard(path)?;
            for p in c.problems() {
                skipped.push(format!("{name}: {p}"));
            }
            c.games.into_iter().try_for_each(sink)
        }
        FileKind::Text => {
            let mut builder = GameBuilder::new();
            for (i, line) in BufReader::new(open()?).lines().enumerate() {
                let line = line.map_err(|e| format!("{name}: line {}: {e}", i + 1))?;
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                match parse_line(line) {
                    Ok((board, result, score)) => {
                        builder.push(board, result_code(result), clamp16(score));
                    }
                    Err(e) => skipped.push(format!("{name}: line {}: {e}", i + 1)),
                }
                for g in builder.take_done() {
                    sink(g)?;
                }
            }
            builder.finish().into_iter().try_for_each(sink)
        }
        FileKind::Packed => {
            let mut builder = GameBuilder::new();
            let mut reader = BufReader::new(open()?);
            let mut record = PackedRecord([0; RECORD_SIZE]);
            let mut i = 0u64;
            loop {
                match read_full(&mut reader, &mut record.0) {
                    Ok(0) => break,
                    Ok(RECORD_SIZE) => {}
                    Ok(n) => {
                        skipped.push(format!(
                            "{name}: truncated: {n} bytes after the last record"
                        ));
                        break;
                    }
                    Err(e) => return Err(format!("cannot read {name}: {e}")),
                }
                i += 1;
                match record.decode() {
                    Ok((board, _, score)) => builder.push(board, record.result(), clamp16(score)),
                    Err(e) => skipped.push(format!("{name}: record {i}: {e}")),
                }
                for g in builder.take_done() {
                    sink(g)?;
                }
            }
            builder.finish().into_iter().try_for_each(sink)
        }
        FileKind::Pgn => obpgn::read_pgn_games(BufReader::new(open()?), |outcome| match outcome {
            Ok(game) => sink(game),
            Err(e) => {
                skipped.push(format!("{name}: {e}"));
                Ok(())
            }
        }),
    }
}

fn clamp16(score: i32) -> i16 {
    score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The training records of a shard file (see [`TrainingFilter`]); damaged games are warned
/// about on standard error and left out.
pub fn shard_records(path: &Path, filter: TrainingFilter) -> Result<Vec<PackedRecord>, String> {
    let c = read_shard(path)?;
    for p in c.problems() {
        eprintln!("warning: {}: {p}", path.display());
    }
    let mut out = Vec::with_capacity(c.positions());
    for g in &c.games {
        out.extend(
            g.records(filter)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        );
    }
    Ok(out)
}

/// A temporary path next to `path`, renamed to it by [`commit_file`].
fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".tmp-{}", std::process::id()));
    PathBuf::from(name)
}

fn commit_file(tmp: &Path, path: &Path) -> Result<(), String> {
    std::fs::rename(tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(tmp);
        format!("cannot rename {} to {}: {e}", tmp.display(), path.display())
    })
}

/// Imports `inputs` into a shard at `output`. `source` goes into the header.
pub fn import(
    inputs: &[PathBuf],
    output: &Path,
    source: &str,
    mut on_game: impl FnMut(),
) -> Result<ImportSummary, String> {
    let tmp = temp_path(output);
    let file =
        File::create(&tmp).map_err(|e| format!("cannot create {}: {e}", output.display()))?;
    let outcome = (|| {
        let mut writer = ShardWriter::new(BufWriter::new(file), ShardHeader::new(source))
            .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
        let mut skipped = Vec::new();
        for path in inputs {
            read_games(path, &mut skipped, |game| {
                on_game();
                writer
                    .write_game(&game)
                    .map_err(|e| format!("cannot write {}: {e}", output.display()))
            })?;
        }
        let (_, header) = writer
            .finish()
            .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
        Ok(ImportSummary {
            games: header.games,
            positions: header.positions,
            skipped,
        })
    })();
    match outcome {
        Ok(summary) => {
            commit_file(&tmp, output)?;
            Ok(summary)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// How `lull data export` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Text lines `<FEN> | <result> | <score>`.
    #[default]
    Text,
    /// 32-byte packed records.
    Bin,
}

/// Exports the positions of `inputs` (any data files) to `output`: the training positions,
/// or every scored position with `filter` = [`TrainingFilter::ALL`]. Returns the positions
/// written and what was skipped.
pub fn export(
    inputs: &[PathBuf],
    output: &Path,
    format: ExportFormat,
    filter: TrainingFilter,
) -> Result<(u64, Vec<String>), String> {
    let tmp = temp_path(output);
    let file =
        File::create(&tmp).map_err(|e| format!("cannot create {}: {e}", output.display()))?;
    let mut out = BufWriter::new(file);
    let mut written = 0u64;
    let mut skipped = Vec::new();
    let werr = |e: std::io::Error| format!("cannot write {}: {e}", output.display());
    let outcome = inputs.iter().try_for_each(|path| {
        read_games(path, &mut skipped, |game| {
            let result = game.white_result();
            for p in game.positions()? {
                if !filter.keeps(&p.board, &p.entry) {
                    continue;
                }
                let score = i32::from(p.entry.score);
                match format {
                    ExportFormat::Text => writeln!(
                        out,
                        "{} | {result:.1} | {score}",
                        crate::position::board_fen(&p.board)
                    )
                    .map_err(werr)?,
                    ExportFormat::Bin => out
                        .write_all(&PackedRecord::encode(&p.board, result, score).0)
                        .map_err(werr)?,
                }
                written += 1;
            }
            Ok(())
        })
    });
    let outcome = outcome.and_then(|()| out.flush().map_err(werr));
    drop(out);
    match outcome {
        Ok(()) => {
            commit_file(&tmp, output)?;
            Ok((written, skipped))
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// One line of `lull data status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileStatus {
    /// The file.
    pub path: PathBuf,
    /// Its kind.
    pub kind: FileKind,
    /// Bytes on disk.
    pub bytes: u64,
    /// Games (shards and PGN).
    pub games: Option<u64>,
    /// Positions (for a PGN: positions with a score).
    pub positions: Option<u64>,
    /// Training positions (shards: what the trainer keeps).
    pub training: Option<u64>,
    /// The shard's header.
    pub header: Option<ShardHeader>,
    /// What is wrong (a damaged shard, a truncated record file, malformed lines).
    pub problems: Vec<String>,
}

impl FileStatus {
    /// The report lines.
    pub fn text(&self) -> String {
        let kind = match self.kind {
            FileKind::Shard => "shard",
            FileKind::Packed => "packed",
            FileKind::Text => "text",
            FileKind::Pgn => "pgn",
            FileKind::Compressed => "compressed",
            FileKind::Program => "program (not a data file: skipped)",
        };
        let mut s = format!("{}  {kind}  {} bytes", self.path.display(), self.bytes);
        if let Some(g) = self.games {
            s += &format!("  {g} games");
        }
        if let Some(p) = self.positions {
            s += &format!("  {p} positions");
            if p > 0 {
                s += &format!("  {:.2} bytes/position", self.bytes as f64 / p as f64);
            }
        }
        if let Some(t) = self.training {
            s += &format!("  {t} training");
        }
        if let Some(h) = &self.header {
            s += &format!(
                "\n    {} | source {} | nodes {} | seed {} | net {:016x}{}",
                h.build,
                h.source,
                h.nodes,
                h.seed,
                h.net_hash,
                if h.complete {
                    ""
                } else {
                    " | not closed (interrupted run): complete games counted"
                }
            );
        }
        for p in &self.problems {
            s += &format!("\n    DAMAGED: {p}");
        }
        s
    }
}

/// The status of one data file.
pub fn file_status(path: &Path) -> Result<FileStatus, String> {
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    let kind = file_kind(path)?;
    let mut st = FileStatus {
        path: path.to_path_buf(),
        kind,
        bytes,
        games: None,
        positions: None,
        training: None,
        header: None,
        problems: Vec::new(),
    };
    match kind {
        FileKind::Shard => match read_shard(path) {
            Ok(c) => {
                st.games = Some(c.games.len() as u64);
                st.positions = Some(c.positions() as u64);
                let filter = TrainingFilter::default();
                let mut training = 0u64;
                for g in &c.games {
                    if let Ok(ps) = g.positions() {
                        training += ps
                            .iter()
                            .filter(|p| filter.keeps(&p.board, &p.entry))
                            .count() as u64;
                    }
                }
                st.training = Some(training);
                st.problems = c.problems();
                st.header = Some(c.header);
            }
            Err(e) => st.problems.push(e),
        },
        FileKind::Packed => {
            st.positions = Some(bytes / RECORD_SIZE as u64);
            if bytes % RECORD_SIZE as u64 != 0 {
                st.problems.push(format!(
                    "truncated: {} bytes after the last whole record",
                    bytes % RECORD_SIZE as u64
                ));
            }
            // Each record checked: one damaged in place (the size still right) is named, as
            // the trainer would refuse the file at it.
            if let Some(p) = corrupt_records(path)? {
                st.problems.push(p);
            }
        }
        FileKind::Text => {
            let file =
                File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            // Lines of bounded length (one over 1 MiB, or not UTF-8, counted as bad).
            let (mut n, mut bad) = (0u64, 0u64);
            let mut lines = crate::lines::Lines::new(BufReader::new(file));
            while let Some((_, line)) = lines
                .next_line()
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            {
                match line {
                    Ok(t) => {
                        let t = t.trim();
                        n += u64::from(!t.is_empty() && !t.starts_with('#'));
                    }
                    Err(_) => bad += 1,
                }
            }
            st.positions = Some(n);
            if bad > 0 {
                st.problems.push(format!(
                    "{bad} lines not UTF-8 or over {} bytes",
                    crate::lines::MAX_LINE
                ));
            }
        }
        FileKind::Pgn => {
            let file =
                File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            let (mut games, mut positions, mut bad) = (0u64, 0u64, 0u64);
            obpgn::read_pgn_games(BufReader::new(file), |g| {
                match g {
                    Ok(g) => {
                        games += 1;
                        positions += g.entries.len() as u64;
                    }
                    Err(_) => bad += 1,
                }
                Ok(())
            })?;
            st.games = Some(games);
            st.positions = Some(positions);
            if bad > 0 {
                st.problems.push(format!("{bad} games could not be read"));
            }
        }
        FileKind::Compressed | FileKind::Program => {}
    }
    Ok(st)
}

/// The corrupt records of a packed file, checked as the trainer checks them (read in pieces,
/// never whole): how many, and the first; `None` when every whole record is sound.
fn corrupt_records(path: &Path) -> Result<Option<String>, String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut file = BufReader::new(File::open(path).map_err(cannot)?);
    let (mut index, mut bad, mut first) = (0u64, 0u64, None);
    let mut record = PackedRecord([0; RECORD_SIZE]);
    loop {
        match file.read_exact(&mut record.0) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(cannot(e)),
        }
        index += 1;
        if let Err(e) = record.check() {
            bad += 1;
            first.get_or_insert_with(|| {
                format!(
                    "record {index} (byte {}): {e}",
                    (index - 1) * RECORD_SIZE as u64
                )
            });
        }
    }
    Ok(first.map(|f| format!("{bad} corrupt record(s), the first {f}")))
}

/// The data files under `path` (itself if a file; a directory's files, sorted, one level
/// down into subdirectories too).
pub fn data_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut dirs = vec![(path.to_path_buf(), 0)];
    while let Some((dir, depth)) = dirs.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                if depth < 1 {
                    dirs.push((p, depth + 1));
                }
            } else if !p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.') || n.ends_with(".md"))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Arguments of `lull data import`.
#[derive(Clone, Debug, clap::Args)]
pub struct ImportArgs {
    /// Data files: text lines, packed records, PGN (OpenBench datagen games) or shards.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The shard to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

/// Arguments of `lull data export`.
#[derive(Clone, Debug, clap::Args)]
pub struct ExportArgs {
    /// Data files (shards, or any format `import` reads).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Text lines or packed records.
    #[arg(long, value_enum, default_value_t = ExportFormat::Text)]
    pub format: ExportFormat,
    /// Every scored position, not only the training positions (quiet, not in check, no mate
    /// score).
    #[arg(long)]
    pub all: bool,
}

/// Arguments of `lull data status`.
#[derive(Clone, Debug, clap::Args)]
pub struct StatusArgs {
    /// Data directories or files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// `lull data import`: exit code 2 when an input cannot be read or the output created, 1 when
/// a write fails or nothing was imported.
pub fn cmd_import(args: &ImportArgs) -> ExitCode {
    let source = format!(
        "import {}{}",
        args.inputs[0]
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        if args.inputs.len() > 1 { " ..." } else { "" }
    );
    let bar = progress_bar(0, "{pos} games");
    let outcome = import(&args.inputs, &args.output, &source, || bar.inc(1));
    bar.finish_and_clear();
    match outcome {
        Ok(s) => {
            for line in s.skipped.iter().take(10) {
                eprintln!("warning: skipped {line}");
            }
            if s.skipped.len() > 10 {
                eprintln!("warning: ... {} more skipped", s.skipped.len() - 10);
            }
            if s.positions == 0 {
                return fail(1, "no position in the inputs");
            }
            println!(
                "{} games, {} positions written to {}",
                s.games,
                s.positions,
                args.output.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(2, e),
    }
}

/// `lull data export`: exit code 2 when an input cannot be read or the output created.
pub fn cmd_export(args: &ExportArgs) -> ExitCode {
    let filter = if args.all {
        TrainingFilter::ALL
    } else {
        TrainingFilter::default()
    };
    match export(&args.inputs, &args.output, args.format, filter) {
        Ok((n, skipped)) => {
            for line in skipped.iter().take(10) {
                eprintln!("warning: skipped {line}");
            }
            println!("{n} positions written to {}", args.output.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(2, e),
    }
}

/// `lull data status`: one entry per data file and a total; exit code 1 when a file is
/// damaged, 2 when a path cannot be read.
pub fn cmd_status(args: &StatusArgs) -> ExitCode {
    let mut damaged = 0;
    let (mut files, mut bytes, mut positions, mut training) = (0, 0u64, 0u64, 0u64);
    for path in &args.paths {
        let list = match data_files(path) {
            Ok(l) => l,
            Err(e) => return fail(2, e),
        };
        for file in list {
            match file_status(&file) {
                Ok(st) => {
                    println!("{}", st.text());
                    files += 1;
                    bytes += st.bytes;
                    positions += st.positions.unwrap_or(0);
                    training += st.training.unwrap_or(0);
                    damaged += usize::from(!st.problems.is_empty());
                }
                Err(e) => return fail(2, e),
            }
        }
    }
    println!(
        "total: {files} files, {bytes} bytes, {positions} positions ({training} training positions in shards), {damaged} damaged"
    );
    if damaged > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

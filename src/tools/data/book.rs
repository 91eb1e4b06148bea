//! The `lull book build` and `lull book probe` commands, on top of the Polyglot library in
//! [`crate::book`].

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::TypedValueParser as _;

use crate::book::build::{
    BookBuilder, BuildOptions, BuildSummary, DEFAULT_MAX_PLY, DEFAULT_MIN_GAMES,
};
use crate::book::pgn::PgnReader;
use crate::book::{play_moves, polyglot_key, write_entries, Book, Probe};
use crate::position::{move_to_uci, Position, STARTPOS_FEN};
use crate::san::move_to_san;
use crate::tools::cli::{fail, position_from_words};
use crate::tools::common::atomic::{check_output, AtomicFile};
use crate::tools::common::progress::progress_bar;

/// Arguments of `lull book`.
#[derive(Clone, Debug, clap::Args)]
pub struct BookArgs {
    /// The book command.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `lull book` commands.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Build a Polyglot book from the games of a PGN file. Each move of the first --max-ply
    /// plies is weighted as PolyGlot does: 2 points per game won by the side that played it,
    /// 1 per draw (or unknown result), 0 per loss.
    Build(BuildArgs),
    /// List the book moves of a position (UCI and SAN, weight and share) and its Polyglot key.
    Probe(ProbeArgs),
}

/// `lull book`: runs the book command.
pub fn run(args: BookArgs) -> ExitCode {
    match args.command {
        BookCommand::Build(args) => cmd_build(&args),
        BookCommand::Probe(args) => cmd_probe(&args),
    }
}

/// Arguments of `lull book build`.
#[derive(Clone, Debug, clap::Args)]
pub struct BuildArgs {
    /// The PGN file.
    pub pgn: PathBuf,
    /// The book to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Plies read from the start of each game.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_PLY,
          value_parser = clap::value_parser!(u16).range(1..=1024).map(usize::from))]
    pub max_ply: usize,
    /// Keep only moves played in at least this many games.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MIN_GAMES,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
}

impl BuildArgs {
    /// What the build keeps.
    pub fn options(&self) -> BuildOptions {
        BuildOptions {
            max_ply: self.max_ply,
            min_games: self.min_games,
        }
    }
}

/// `lull book build`: reads the games, reports each unusable one on stderr (and goes on),
/// writes the book (whole or not at all) and a summary. Exit code 1 when the output is the
/// PGN itself or cannot be written, when the PGN cannot be read (a directory, a device), or when
/// no entry is left (a book with no entry is not written: the old one stays), 0 otherwise.
pub fn cmd_build(args: &BuildArgs) -> ExitCode {
    if let Err(e) = check_output(&args.output, &[&args.pgn])
        .and_then(|()| crate::lines::check_input_file(&args.pgn))
    {
        return fail(1, e);
    }
    let file = match File::open(&args.pgn) {
        Ok(f) => f,
        Err(e) => return fail(1, format!("cannot read {}: {e}", args.pgn.display())),
    };
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = progress_bar(size, "{bytes}/{total_bytes}");
    let options = args.options();
    let mut reader = PgnReader::new(BufReader::new(file));
    let mut builder = BookBuilder::new(options);
    let mut count = 0usize;
    loop {
        let game = match reader.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(e) => {
                bar.finish_and_clear();
                return fail(1, format!("reading {}: {e}", args.pgn.display()));
            }
        };
        count += 1;
        if let Err(e) = builder.add_game(&game) {
            bar.suspend(|| {
                eprintln!(
                    "warning: game {} (line {}): {e} (skipped)",
                    game.number, game.line
                )
            });
        }
        if count.is_multiple_of(256) {
            bar.set_position(reader.bytes_read());
            bar.set_message(format!("{count} games"));
        }
    }
    bar.finish_and_clear();
    let (entries, summary) = builder.finish();
    if entries.is_empty() {
        eprintln!(
            "{}",
            summary_text(&summary, &options, &args.pgn, &args.output)
        );
        return fail(
            1,
            format!(
                "no book entry from {}: {} not written",
                args.pgn.display(),
                args.output.display()
            ),
        );
    }
    let written = AtomicFile::create(&args.output).and_then(|mut out| {
        write_entries(&mut out, &entries)
            .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
        out.commit()
    });
    if let Err(e) = written {
        return fail(1, e);
    }
    eprintln!(
        "{}",
        summary_text(&summary, &options, &args.pgn, &args.output)
    );
    ExitCode::SUCCESS
}

/// The summary of a build, for stderr.
pub fn summary_text(s: &BuildSummary, o: &BuildOptions, pgn: &Path, out: &Path) -> String {
    let mut text = format!(
        "{}: {} games read, {} used, {} skipped; first {} plies\n\
         {}: {} entries for {} positions",
        pgn.display(),
        s.games + s.skipped,
        s.games,
        s.skipped,
        o.max_ply,
        out.display(),
        s.entries,
        s.positions
    );
    if s.rare > 0 {
        text.push_str(&format!(
            "; {} moves dropped as seen in fewer than {} games (--min-games)",
            s.rare, o.min_games
        ));
    }
    if s.lost > 0 {
        text.push_str(&format!("; {} moves dropped as they only lost", s.lost));
    }
    text
}

/// Arguments of `lull book probe`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ProbeArgs {
    /// Position (FEN, quoted or as separate words; default: the start position).
    pub fen: Vec<String>,
    /// The book file (without it, only the key is shown).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Moves played from the position first (UCI or SAN), e.g. --moves e2e4 e7e5.
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub moves: Vec<String>,
}

/// The position of a probe: the FEN (or the start position) and the moves after it.
pub fn probe_position(args: &ProbeArgs) -> Result<Position, String> {
    let mut pos = position_from_words(&args.fen, STARTPOS_FEN)?;
    play_moves(&mut pos, &args.moves)?;
    Ok(pos)
}

/// The listing of a probe: position, key, and the book moves with weight and share.
pub fn probe_text(pos: &Position, probe: &Probe, book: Option<(&Path, &Book)>) -> String {
    let mut out = format!("fen  {}\nkey  {:016x}\n", pos.fen(), probe.key);
    let Some((path, book)) = book else {
        out.push_str("no book given (--book FILE)\n");
        return out;
    };
    out.push_str(&format!(
        "book {} ({} entries)\n",
        path.display(),
        book.len()
    ));
    if probe.moves.is_empty() {
        out.push_str("no book moves\n");
    } else {
        let total = probe.total_weight();
        out.push_str(&format!(
            "{:<7} {:<8} {:>6} {:>8}\n",
            "move", "san", "weight", "share"
        ));
        let board = pos.board();
        for m in &probe.moves {
            let share = if total == 0 {
                0.0
            } else {
                100.0 * f64::from(m.weight) / f64::from(total)
            };
            out.push_str(&format!(
                "{:<7} {:<8} {:>6} {:>7.2}%\n",
                move_to_uci(board, m.mv, pos.chess960()),
                move_to_san(board, m.mv),
                m.weight,
                share
            ));
        }
        out.push_str(&format!(
            "{} moves, total weight {total}\n",
            probe.moves.len()
        ));
    }
    if probe.ignored > 0 {
        out.push_str(&format!(
            "{} entries of this key name no legal move here (ignored)\n",
            probe.ignored
        ));
    }
    out
}

/// `lull book probe`: prints the listing of [`probe_text`]. Exit code 2 for a bad position or
/// move, 1 for a book that cannot be read.
pub fn cmd_probe(args: &ProbeArgs) -> ExitCode {
    let pos = match probe_position(args) {
        Ok(p) => p,
        Err(e) => return fail(2, e),
    };
    let book = match args.book.as_deref().map(Book::open) {
        None => None,
        Some(Ok(b)) => Some(b),
        Some(Err(e)) => return fail(1, e),
    };
    let probe = match &book {
        Some(b) => b.probe(pos.board()),
        None => Probe {
            key: polyglot_key(pos.board()),
            moves: Vec::new(),
            ignored: 0,
        },
    };
    let shown = args.book.as_deref().zip(book.as_ref());
    let text = probe_text(&pos, &probe, shown);
    let mut stdout = io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    ExitCode::SUCCESS
}

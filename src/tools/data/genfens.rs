//! OpenBench's opening generator, `genfens`, and the command lines given as arguments that
//! carry it. For its data-generation workloads OpenBench runs the engine as
//!
//! ```text
//! ./lull "genfens N seed S book <None|FILE> [extra words]" "quit"
//! ```
//!
//! (each argument one UCI command line) and collects the lines `info string genfens <FEN>`:
//! `N` positions drawn reproducibly from the seed, each a start position (a line of the book,
//! or the standard start position with `None`) followed by 8 or 9 random legal plies, as
//! `lull datagen` opens its games ([`random_opening`]). Positions where the game is over are
//! drawn again. Words after the book are ignored. A failure (a book that cannot be read, a
//! malformed request) is one `info string error ...` line, which OpenBench does not take for
//! a position.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::epd::read_epd_file;
use crate::position::Position;
use crate::tools::data::datagen::{random_opening, Rng};

/// Random plies played after the start position: this many, or one more (drawn per position).
pub const GENFENS_PLIES: usize = 8;

/// Draws of one position before the request fails (a book of nearly finished games).
const MAX_DRAWS: usize = 1000;

/// The prefix of each position line, as OpenBench looks for it.
pub const GENFENS_PREFIX: &str = "info string genfens ";

/// A `genfens` request: `genfens N seed S book <None|FILE>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenfensRequest {
    /// Number of positions.
    pub count: usize,
    /// Seed of the random choices (64 bits: OpenBench puts the workload in the high half).
    pub seed: u64,
    /// The book (EPD or FEN lines), or `None` for the start position.
    pub book: Option<PathBuf>,
}

impl GenfensRequest {
    /// Reads a request line. The count comes first; `seed` and `book` take the next word;
    /// other words (OpenBench's extra arguments) are ignored. Without `seed` the seed is 0;
    /// a book named `None` (any case) is no book.
    pub fn parse(line: &str) -> Result<Self, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"genfens") {
            return Err("expected 'genfens N seed S book <None|FILE>'".to_string());
        }
        let count = words
            .get(1)
            .and_then(|w| w.parse::<usize>().ok())
            .ok_or("genfens: expected the number of positions after 'genfens'")?;
        let mut request = Self {
            count,
            seed: 0,
            book: None,
        };
        let mut i = 2;
        while i < words.len() {
            match words[i] {
                "seed" => {
                    let text = words.get(i + 1).copied().unwrap_or("");
                    request.seed = text
                        .parse()
                        .map_err(|_| format!("genfens: invalid seed '{text}'"))?;
                    i += 2;
                }
                "book" => {
                    let Some(&name) = words.get(i + 1) else {
                        return Err("genfens: expected a book file or None after 'book'".into());
                    };
                    request.book =
                        (!name.eq_ignore_ascii_case("none")).then(|| PathBuf::from(name));
                    i += 2;
                }
                _ => i += 1,
            }
        }
        Ok(request)
    }
}

/// Whether the game is over in `pos`: no legal move, insufficient material or fifty moves.
fn is_over(pos: &Position) -> bool {
    pos.legal_moves().is_empty() || pos.is_insufficient_material() || pos.is_fifty_move_draw()
}

/// `count` positions, as FEN, drawn from `seed`: each a random one of `starts` (the start
/// position when empty) after [`GENFENS_PLIES`] or one more random plies, never a position
/// where the game is over. The same arguments give the same positions. An error when no
/// playable position can be drawn (every start is over, or a thousand draws of one position
/// all end the game).
pub fn genfens(count: usize, seed: u64, starts: &[Position]) -> Result<Vec<String>, String> {
    let default_start = [Position::startpos()];
    let starts: Vec<&Position> = if starts.is_empty() {
        default_start.iter().collect()
    } else {
        starts.iter().filter(|p| !is_over(p)).collect()
    };
    if starts.is_empty() {
        return Err("no position of the book is playable".to_string());
    }
    let mut rng = Rng::new(seed);
    let mut fens = Vec::with_capacity(count);
    while fens.len() < count {
        let pos = (0..MAX_DRAWS)
            .map(|_| {
                let start = starts[rng.below(starts.len())];
                let plies = GENFENS_PLIES + rng.below(2);
                random_opening(start, plies, &mut rng)
            })
            .find(|pos| !is_over(pos))
            .ok_or_else(|| format!("no playable position in {MAX_DRAWS} draws"))?;
        fens.push(pos.fen());
    }
    Ok(fens)
}

/// Carries out a request: reads the book (its malformed lines are skipped), draws the
/// positions and returns the output lines: `info string genfens <FEN>` each, or a single
/// `info string error ...` line.
pub fn genfens_lines(request: &GenfensRequest) -> Vec<String> {
    let starts = match &request.book {
        None => Vec::new(),
        Some(path) => match read_epd_file(path) {
            Ok((records, _)) if records.is_empty() => {
                return vec![format!(
                    "info string error genfens: {}: no position in the book",
                    path.display()
                )]
            }
            Ok((records, _)) => records.iter().map(|r| r.position()).collect(),
            Err(e) => return vec![format!("info string error genfens: {e}")],
        },
    };
    match genfens(request.count, request.seed, &starts) {
        Ok(fens) => fens
            .into_iter()
            .map(|fen| format!("{GENFENS_PREFIX}{fen}"))
            .collect(),
        Err(e) => vec![format!("info string error genfens: {e}")],
    }
}

/// Whether the program's arguments are UCI command lines rather than a subcommand: the first
/// one is a `genfens` request (`lull "genfens 10 seed 1 book None" "quit"`).
pub fn are_command_lines(args: &[String]) -> bool {
    args.first()
        .and_then(|a| a.split_whitespace().next())
        .is_some_and(|w| w == "genfens")
}

/// Runs the command lines in order: `genfens` requests, `quit` (which ends the run; so does
/// the end of the lines). Another line is answered `info string unknown command ...`.
pub fn run_command_lines(lines: &[String], out: &mut impl Write) -> io::Result<()> {
    for line in lines {
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "quit" => break,
            "" => {}
            "genfens" => {
                let output = match GenfensRequest::parse(line) {
                    Ok(request) => genfens_lines(&request),
                    Err(e) => vec![format!("info string error {e}")],
                };
                for text in output {
                    writeln!(out, "{text}")?;
                }
            }
            _ => writeln!(
                out,
                "info string unknown command '{}'",
                crate::position::shorten(line.trim(), 60)
            )?,
        }
        out.flush()?;
    }
    Ok(())
}

/// `lull "genfens ..." "quit"`: runs the argument lines on standard output.
pub fn run(lines: &[String]) -> ExitCode {
    let stdout = io::stdout();
    match run_command_lines(lines, &mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_lines(lines: &[&str]) -> Vec<String> {
        let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let mut out = Vec::new();
        run_command_lines(&lines, &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn fens_of(lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                l.strip_prefix(GENFENS_PREFIX)
                    .unwrap_or_else(|| panic!("{l}"))
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn requests_are_read_with_extra_words_ignored() {
        assert_eq!(
            GenfensRequest::parse("genfens 12 seed 18446744073709551615 book None extra 3"),
            Ok(GenfensRequest {
                count: 12,
                seed: u64::MAX,
                book: None
            })
        );
        let r = GenfensRequest::parse("genfens 3 seed 9 book Books/UHO.epd --flag").unwrap();
        assert_eq!(r.book, Some(PathBuf::from("Books/UHO.epd")));
        assert!(GenfensRequest::parse("genfens").is_err());
        assert!(GenfensRequest::parse("genfens ten seed 1").is_err());
        assert!(GenfensRequest::parse("genfens 3 seed x book None").is_err());
        assert!(GenfensRequest::parse("genfens 3 seed 1 book").is_err());
    }

    #[test]
    fn n_legal_positions_reproducible_for_a_seed() {
        let out = run_lines(&["genfens 20 seed 42 book None", "quit", "genfens 5"]);
        // `quit` ends the run: the second request is not answered.
        assert_eq!(out.len(), 20, "{out:?}");
        let fens = fens_of(&out);
        for fen in &fens {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
            assert!(!is_over(&pos), "{fen}");
            // 8 or 9 plies from the start position: White or Black to move at move 5.
            assert_eq!(pos.board().fullmove_number(), 5, "{fen}");
            assert_eq!(pos.fen(), *fen);
        }
        let distinct: std::collections::HashSet<_> = fens.iter().collect();
        assert!(distinct.len() > 15, "{fens:?}");
        assert_eq!(
            run_lines(&["genfens 20 seed 42 book None"]),
            out,
            "same seed"
        );
        assert_ne!(
            run_lines(&["genfens 20 seed 43 book None"]),
            out,
            "another seed"
        );
    }

    #[test]
    fn positions_come_from_the_book() {
        let dir = std::env::temp_dir().join(format!("lull-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("book.epd");
        // One playable line (the start position without queens), one malformed line, one
        // where the game is over (Black has mated): only the first can be drawn.
        std::fs::write(
            &book,
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1\n\
             not a fen\n\
             rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n",
        )
        .unwrap();
        let line = format!("genfens 6 seed 7 book {} extra", book.display());
        let fens = fens_of(&run_lines(&[&line]));
        assert_eq!(fens.len(), 6);
        for fen in &fens {
            let pos = Position::from_fen(fen).unwrap();
            let b = pos.board();
            assert_eq!(b.fullmove_number(), 5, "{fen}");
            assert!(b.pieces(cozy_chess::Piece::Queen).is_empty(), "{fen}");
            assert!(!is_over(&pos), "{fen}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_book_or_bad_request_is_one_error_line() {
        for line in [
            "genfens 5 seed 1 book /nonexistent/lull/book.epd",
            "genfens five seed 1 book None",
        ] {
            let out = run_lines(&[line, "quit"]);
            assert_eq!(out.len(), 1, "{out:?}");
            assert!(out[0].starts_with("info string error"), "{}", out[0]);
            assert!(!out[0].starts_with(GENFENS_PREFIX));
        }
        let out = run_lines(&["go depth 3"]);
        assert_eq!(out, ["info string unknown command 'go depth 3'"]);
        // A book whose only position is over.
        let err = genfens(
            3,
            1,
            &[Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap()],
        );
        assert!(err.is_err());
    }

    #[test]
    fn command_lines_are_told_from_subcommands() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(are_command_lines(&args(&[
            "genfens 3 seed 1 book None",
            "quit"
        ])));
        assert!(!are_command_lines(&args(&["bench"])));
        assert!(!are_command_lines(&args(&[])));
        assert!(!are_command_lines(&args(&["datagen", "-o", "x"])));
    }
}

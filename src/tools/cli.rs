//! What the command-line tools share: `--option NAME=VALUE` handling, the warnings for the
//! malformed lines of an input file, the position given as FEN words, and a silent engine.

use std::fmt::Display;
use std::process::ExitCode;

use crate::options::{application_order, apply_option, parse_option, split_assignment};
use crate::position::Position;
use crate::search::Engine;

/// Ends a command with an error: `error: <message>` on standard error and exit code `code`
/// (2 for bad arguments or input that cannot be read, 1 for a failure of the work itself, as
/// each command documents).
pub fn fail(code: u8, message: impl Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}

/// A fresh engine with `hash_mib` MiB of hash that prints nothing while it searches. When
/// the memory cannot be had, a warning on standard error says so and the engine searches with
/// 1 MiB (it never shrinks without a word).
pub fn quiet_engine(hash_mib: usize) -> Engine {
    let mut engine = Engine::new(1);
    if hash_mib > 1 {
        if let Err(e) = engine.set_hash(hash_mib) {
            eprintln!("warning: {e}: searching with a 1 MiB hash table");
        }
    }
    engine.set_report_sink(None);
    engine
}

/// Applies the `--option NAME=VALUE` arguments to `engine`, in order (but `EvalFile` first:
/// see [`application_order`]); the error names the first bad one (`--option Foo=1: unknown
/// option 'Foo'`).
pub fn apply_engine_options(engine: &mut Engine, texts: &[String]) -> Result<(), String> {
    let mut texts: Vec<&String> = texts.iter().collect();
    texts.sort_by_key(|t| application_order(split_assignment(t).0));
    for text in texts {
        let (name, value) = split_assignment(text);
        // A note (how many tablebases were found) is for a person at a GUI: tools stay quiet.
        apply_option(engine, name, value).map_err(|e| format!("--option {text}: {e}"))?;
    }
    Ok(())
}

/// Checks the `--option NAME=VALUE` arguments without an engine, for tools that set up
/// engines later (a typo should not cost a whole run): each as the option's own name and the
/// value text, in the order to apply them (see [`application_order`]). The error names the
/// first bad one.
pub fn check_engine_options(texts: &[String]) -> Result<Vec<(String, Option<String>)>, String> {
    let mut texts: Vec<&String> = texts.iter().collect();
    texts.sort_by_key(|t| application_order(split_assignment(t).0));
    texts
        .into_iter()
        .map(|text| {
            let (name, value) = split_assignment(text);
            parse_option(name, value)
                .map(|(spec, _)| (spec.name.to_string(), value.map(str::to_string)))
                .map_err(|e| format!("--option {text}: {e}"))
        })
        .collect()
}

/// Warns on standard error about the malformed lines of `source` that are skipped: the
/// first ten, then how many more.
pub fn warn_skipped(source: &dyn Display, errors: &[impl Display]) {
    for e in errors.iter().take(10) {
        eprintln!("warning: {source}: {e} (skipped)");
    }
    if errors.len() > 10 {
        eprintln!(
            "warning: {} more malformed lines skipped",
            errors.len() - 10
        );
    }
}

/// The start positions of a book of EPD or FEN lines (malformed lines warned about and
/// skipped), or none without a book. An unreadable or empty book is an error, as
/// `lull datagen` and `lull spsa` report it: exit code 2 and 1.
pub fn read_book(book: Option<&std::path::Path>) -> Result<Vec<Position>, ExitCode> {
    let Some(path) = book else {
        return Ok(Vec::new());
    };
    let (records, errors) = crate::epd::read_epd_file(path).map_err(|e| fail(2, e))?;
    warn_skipped(&path.display(), &errors);
    let starts: Vec<Position> = records.iter().map(|r| r.position()).collect();
    if starts.is_empty() {
        return Err(fail(
            1,
            format!("{}: no position in the book", path.display()),
        ));
    }
    Ok(starts)
}

/// The position given as FEN words (quoted or not), or `default` when there are none.
pub fn position_from_words(words: &[String], default: &str) -> Result<Position, String> {
    if words.is_empty() {
        Position::from_fen(default)
    } else {
        Position::from_fen(&words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_are_checked_and_named() {
        let checked = check_engine_options(&texts(&["qsearch = false", "Hash=8"])).unwrap();
        assert_eq!(
            checked,
            vec![
                ("QSearch".to_string(), Some("false".to_string())),
                ("Hash".to_string(), Some("8".to_string()))
            ]
        );
        let e = check_engine_options(&texts(&["Hash=8", "Foo=1"])).unwrap_err();
        assert!(e.starts_with("--option Foo=1: unknown option"), "{e}");
        let mut engine = quiet_engine(1);
        assert!(apply_engine_options(&mut engine, &texts(&["QSearch=false"])).is_ok());
        assert!(!engine.options.qs.enabled);
        let e = apply_engine_options(&mut engine, &texts(&["QSearch=maybe"])).unwrap_err();
        assert!(e.starts_with("--option QSearch=maybe: "), "{e}");
    }

    #[test]
    fn fen_words_are_joined() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(position_from_words(&[], start).unwrap().fen(), start);
        let words = texts(&["8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"]);
        assert_eq!(
            position_from_words(&words, start).unwrap().fen(),
            "8/8/8/8/8/8/8/K6k w - - 0 1"
        );
        assert!(position_from_words(&texts(&["bad"]), start).is_err());
    }
}

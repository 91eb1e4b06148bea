//! One UCI command line, parsed ([`parse`]) into a [`UciCommand`] with typed fields, or
//! refused with the text of its error line. Nothing here needs the session: whatever does
//! (move and FEN legality, option values) is checked when the command is carried out.

use super::go::{parse_go, GoParams};
use crate::params::MAX_DEPTH;
use crate::position::shorten as truncate;

/// One UCI command line, parsed: what the command is and its typed fields. Whatever needs
/// the position or the session (move and FEN legality, option values) is checked when the
/// command is carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`: clear the tables.
    UciNewGame,
    /// `setoption name <name words…> [value <value words…>]`.
    SetOption {
        name: String,
        /// None when `value` is missing or has nothing after it.
        value: Option<String>,
    },
    /// `position (startpos | fen <FEN>) [moves <move>…]`.
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    /// `go …`: a search.
    Go(GoParams),
    /// `go perft <depth>`: count the leaf nodes below each root move.
    GoPerft { depth: u32 },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `debug` and `register`: accepted, nothing to do.
    Ignored,
    /// `d`: print the board, the FEN and the key.
    Display,
    /// `eval`: the static evaluation of the position.
    Eval,
    /// `bench [depth]`.
    Bench { depth: i32 },
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`.
    Startpos,
    /// `fen <FEN>`: the FEN words joined by single spaces (checked when carried out).
    Fen(String),
}

/// Parses one UCI command line. An error is the text of the `info string error:` line.
pub fn parse(line: &str) -> Result<UciCommand, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = tokens.split_first() else {
        return Err("empty line".to_string());
    };
    Ok(match cmd {
        "uci" => UciCommand::Uci,
        "isready" => UciCommand::IsReady,
        "ucinewgame" => UciCommand::UciNewGame,
        "setoption" => parse_setoption(args)?,
        "position" => parse_position(args)?,
        "go" => parse_go(args)?,
        "stop" => UciCommand::Stop,
        "ponderhit" => UciCommand::PonderHit,
        "quit" => UciCommand::Quit,
        "debug" | "register" => UciCommand::Ignored,
        "d" => UciCommand::Display,
        "eval" => UciCommand::Eval,
        "bench" => UciCommand::Bench {
            depth: match args.first() {
                None => crate::bench::BENCH_DEPTH,
                Some(t) => match t.parse::<i32>() {
                    Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
                    _ => {
                        return Err(format!(
                            "bench depth '{t}' is not a number from 1 to {MAX_DEPTH}"
                        ))
                    }
                },
            },
        },
        _ => return Err(format!("unknown command '{}'", truncate(cmd, 64))),
    })
}

/// `setoption name <name words…> [value <value words…>]`.
fn parse_setoption(args: &[&str]) -> Result<UciCommand, String> {
    let value_at = args.iter().position(|&t| t == "value");
    let name = args
        .get(1..value_at.unwrap_or(args.len()))
        .map(|words| words.join(" "))
        .unwrap_or_default();
    if args.first() != Some(&"name") || name.is_empty() {
        return Err("setoption needs 'name <option>'".to_string());
    }
    // `value` with nothing after it is no value.
    let value = value_at
        .map(|i| args[i + 1..].join(" "))
        .filter(|v| !v.is_empty());
    Ok(UciCommand::SetOption { name, value })
}

/// `position (startpos | fen <FEN>) [moves <move>…]`.
fn parse_position(args: &[&str]) -> Result<UciCommand, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let start = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => PositionStart::Startpos,
        Some(&"startpos") => {
            return Err("'position startpos' takes no further fields before 'moves'".to_string())
        }
        Some(&"fen") => PositionStart::Fen(setup[1..].join(" ")),
        Some(other) => {
            return Err(format!(
                "position needs 'startpos' or 'fen', got '{}'",
                truncate(other, 64)
            ))
        }
        None => return Err("position needs 'startpos' or 'fen <FEN>'".to_string()),
    };
    let moves = match moves_at {
        Some(i) => args[i + 1..].iter().map(|t| t.to_string()).collect(),
        None => Vec::new(),
    };
    Ok(UciCommand::Position { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_lines_parse_to_their_commands() {
        assert_eq!(parse("  uci \r"), Ok(UciCommand::Uci));
        assert_eq!(parse("isready"), Ok(UciCommand::IsReady));
        assert_eq!(parse("stop extra words"), Ok(UciCommand::Stop));
        assert_eq!(parse("debug on"), Ok(UciCommand::Ignored));
        assert_eq!(
            parse("bench"),
            Ok(UciCommand::Bench {
                depth: crate::bench::BENCH_DEPTH
            })
        );
        assert_eq!(parse("bench 3"), Ok(UciCommand::Bench { depth: 3 }));
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name Book File value  my  book.bin "),
            Ok(UciCommand::SetOption {
                name: "Book File".into(),
                value: Some("my book.bin".into())
            })
        );
        assert_eq!(
            parse("setoption name Hash value"),
            Ok(UciCommand::SetOption {
                name: "Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(UciCommand::Position {
                start: PositionStart::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5   w - - 0 1"),
            Ok(UciCommand::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![]
            })
        );
        assert_eq!(parse("go perft 4"), Ok(UciCommand::GoPerft { depth: 4 }));
    }

    #[test]
    fn malformed_lines_are_errors_that_name_the_problem() {
        let cases = [
            ("", "empty line"),
            (" \t ", "empty line"),
            ("xyzzy e2e4", "unknown command 'xyzzy'"),
            ("Position startpos", "unknown command 'Position'"),
            ("position", "position needs 'startpos' or 'fen <FEN>'"),
            (
                "position moves e2e4",
                "position needs 'startpos' or 'fen <FEN>'",
            ),
            (
                "position start",
                "position needs 'startpos' or 'fen', got 'start'",
            ),
            (
                "position startpos e2e4",
                "'position startpos' takes no further fields before 'moves'",
            ),
            ("setoption", "setoption needs 'name <option>'"),
            ("setoption name", "setoption needs 'name <option>'"),
            ("setoption name value 3", "setoption needs 'name <option>'"),
            ("setoption Hash value 3", "setoption needs 'name <option>'"),
            ("go perft", "go perft needs a depth from 1 to 10"),
            ("go perft 0", "go perft needs a depth from 1 to 10"),
            ("go perft 11", "go perft needs a depth from 1 to 10"),
            ("go perft -1", "go perft needs a depth from 1 to 10"),
            ("bench 0", "bench depth '0' is not a number from 1 to 64"),
            ("bench x", "bench depth 'x' is not a number from 1 to 64"),
        ];
        for (line, why) in cases {
            let why = why.replace("64", &MAX_DEPTH.to_string());
            assert_eq!(parse(line), Err(why), "{line:?}");
        }
    }

    #[test]
    fn garbage_and_long_lines_never_panic() {
        let long_word = "é".repeat(100_000);
        let err = parse(&long_word).unwrap_err();
        assert!(err.starts_with("unknown command 'éé") && err.ends_with("…'"));
        assert!(err.chars().count() < 100);
        let err = parse(&format!("position {long_word}")).unwrap_err();
        assert!(err.chars().count() < 120, "{err}");
        for line in [
            "\u{0}\u{7f}",
            "go \u{fffd} \u{0}",
            "\u{feff}uci",
            "setoption name \u{0}",
        ] {
            let _ = parse(line);
        }
        assert!(parse("\u{0}").is_err());
        let bytes: Vec<u8> = (0u32..5000).map(|i| (i * 7919 % 251) as u8).collect();
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }
}

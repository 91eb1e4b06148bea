//! One CECP command line, parsed ([`parse`]) into an [`XboardCommand`] with typed fields, or
//! refused as a [`BadLine`] that says what is wrong. Nothing here needs the game: whatever
//! does (move and FEN legality, whether there is a move to take back, option values) is
//! checked when the command is carried out.

use super::clock::{parse_level, parse_seconds, TimeControl};
use super::features::VARIANTS;
use super::moves::looks_like_move;
use crate::options::{find_option, split_assignment, OptionKind, MAX_HASH, MAX_THREADS};
use crate::params::MAX_DEPTH;
use crate::protocol::MAX_GO_MS;

/// One CECP command line, parsed: what the command is and its typed fields. Whatever needs
/// the position or the game state (move and FEN legality, whether there is a move to take
/// back, option values) is checked when the command is carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XboardCommand {
    /// An empty line, or a command the engine has nothing to do for (`xboard`, `accepted`,
    /// `rejected`, `random`, `computer`, `name`, `rating`, `ics`).
    Ignored,
    /// `protover N`: features are announced from version 2 on.
    Protover(u32),
    /// `new`.
    New,
    /// `variant normal` or `variant fischerandom`.
    Variant { chess960: bool },
    /// `force`.
    Force,
    /// `go`.
    Go,
    /// `playother`.
    PlayOther,
    /// `usermove MOVE`, or a coordinate move or castling sent alone.
    Usermove(String),
    /// `setboard FEN` (checked when carried out).
    SetBoard(String),
    /// `level MPS BASE INC` (always a [`TimeControl::Level`]).
    Level(TimeControl),
    /// `st SECONDS`, in milliseconds (more than zero).
    St(u64),
    /// `sd DEPTH`, cut to the deepest search.
    Sd(i32),
    /// `time CENTISECONDS`: the engine's clock, in milliseconds.
    Time(u64),
    /// `otim CENTISECONDS`: the opponent's clock, in milliseconds.
    Otim(u64),
    /// `ping N`: the text after `ping`, echoed in `pong`.
    Ping(String),
    /// `?`: move now.
    MoveNow,
    /// `result …`.
    Result,
    /// `undo`.
    Undo,
    /// `remove`.
    Remove,
    /// `post`.
    Post,
    /// `nopost`.
    NoPost,
    /// `hard`: pondering on.
    Hard,
    /// `easy`: pondering off.
    Easy,
    /// `analyze`.
    Analyze,
    /// `exit`: leave analysis.
    Exit,
    /// `.`: the analysis status line.
    Status,
    /// `draw`: a draw offer.
    Draw,
    /// `hint`.
    Hint,
    /// `memory N`: the hash size in MiB, cut to the largest.
    Memory(i64),
    /// `cores N`: the number of threads, cut to the largest.
    Cores(i64),
    /// `egtpath syzygy PATH`: the Syzygy tablebase directories (the `SyzygyPath` option).
    EgtPath(String),
    /// `option NAME[=VALUE]`, a check's `1`/`0` made `true`/`false`.
    Option { name: String, value: Option<String> },
    /// `quit`.
    Quit,
}

/// A line [`parse`] rejects: the `Error (why): command` line's two parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// What is wrong.
    pub why: String,
    /// What the error line quotes: the line, or the unknown command word.
    pub command: String,
}

/// Parses one CECP command line.
pub fn parse(line: &str) -> Result<XboardCommand, BadLine> {
    let line = line.trim();
    let bad = |why: &str| BadLine {
        why: why.to_string(),
        command: line.to_string(),
    };
    if line.is_empty() {
        return Ok(XboardCommand::Ignored);
    }
    let (cmd, rest) = match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
    };
    let args: Vec<&str> = rest.split_whitespace().collect();
    Ok(match cmd {
        "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" => {
            XboardCommand::Ignored
        }
        "protover" => match rest.parse::<u32>() {
            Ok(v) => XboardCommand::Protover(v),
            Err(_) => return Err(bad("protover needs a version number")),
        },
        "new" => XboardCommand::New,
        "variant" => match rest {
            "normal" => XboardCommand::Variant { chess960: false },
            "fischerandom" => XboardCommand::Variant { chess960: true },
            "" => return Err(bad("variant needs a name")),
            _ => return Err(bad(&format!("unsupported variant, only {VARIANTS}"))),
        },
        "force" => XboardCommand::Force,
        "go" => XboardCommand::Go,
        "playother" => XboardCommand::PlayOther,
        "usermove" => match args.as_slice() {
            [mv] => XboardCommand::Usermove(mv.to_string()),
            [] => return Err(bad("usermove needs a move")),
            _ => return Err(bad("usermove takes one move")),
        },
        "setboard" if rest.is_empty() => return Err(bad("setboard needs a FEN")),
        "setboard" => XboardCommand::SetBoard(rest.to_string()),
        "level" => match args.as_slice() {
            [mps, base, inc] => {
                XboardCommand::Level(parse_level(mps, base, inc).map_err(|e| bad(&e))?)
            }
            _ => return Err(bad("level needs MPS BASE INC, e.g. level 40 5 0")),
        },
        "st" => match args.as_slice() {
            [secs] => match parse_seconds(secs) {
                Some(ms) if ms > 0 => XboardCommand::St(ms),
                _ => {
                    return Err(bad(&format!(
                        "st needs a positive number of seconds, at most {}",
                        MAX_GO_MS / 1000
                    )))
                }
            },
            _ => return Err(bad("st needs a number of seconds")),
        },
        "sd" => match args.as_slice() {
            [d] => match d.parse::<i64>() {
                Ok(d) if (1..=MAX_DEPTH as i64).contains(&d) => XboardCommand::Sd(d as i32),
                _ => return Err(bad(&format!("sd needs a depth from 1 to {MAX_DEPTH}"))),
            },
            _ => return Err(bad("sd needs a depth")),
        },
        "time" => XboardCommand::Time(centiseconds(&args).ok_or_else(|| bad(NEEDS_CENTIS))?),
        "otim" => XboardCommand::Otim(centiseconds(&args).ok_or_else(|| bad(NEEDS_CENTIS))?),
        "ping" => XboardCommand::Ping(rest.to_string()),
        "?" => XboardCommand::MoveNow,
        "result" => XboardCommand::Result,
        "undo" => XboardCommand::Undo,
        "remove" => XboardCommand::Remove,
        "post" => XboardCommand::Post,
        "nopost" => XboardCommand::NoPost,
        "hard" => XboardCommand::Hard,
        "easy" => XboardCommand::Easy,
        "analyze" => XboardCommand::Analyze,
        "exit" => XboardCommand::Exit,
        "." => XboardCommand::Status,
        "draw" => XboardCommand::Draw,
        "hint" => XboardCommand::Hint,
        "memory" => XboardCommand::Memory(positive(&args, MAX_HASH).map_err(|e| bad(&e))?),
        "cores" => XboardCommand::Cores(positive(&args, MAX_THREADS).map_err(|e| bad(&e))?),
        "egtpath" => {
            let (kind, path) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if !kind.eq_ignore_ascii_case("syzygy") {
                return Err(bad(
                    "only Syzygy tablebases are supported [egtpath syzygy PATH]",
                ));
            }
            XboardCommand::EgtPath(path.trim().to_string())
        }
        "option" => {
            let (name, value) = split_assignment(rest);
            // CECP sends a check's value as 1 or 0.
            let value = match value {
                Some(v @ ("1" | "0"))
                    if find_option(name)
                        .is_some_and(|s| matches!(s.kind, OptionKind::Check { .. })) =>
                {
                    Some(if v == "1" { "true" } else { "false" })
                }
                v => v,
            };
            XboardCommand::Option {
                name: name.to_string(),
                value: value.map(str::to_string),
            }
        }
        "quit" => XboardCommand::Quit,
        _ if args.is_empty() && looks_like_move(cmd) => XboardCommand::Usermove(cmd.to_string()),
        _ => {
            return Err(BadLine {
                why: "unknown command".to_string(),
                command: cmd.to_string(),
            })
        }
    })
}

/// The error of a bad `time`/`otim`.
const NEEDS_CENTIS: &str = "needs a time in centiseconds, at most 100000000000 (about 31 years)";

/// The one argument of `memory`/`cores`: a positive integer, values above `max` cut.
fn positive(args: &[&str], max: i64) -> Result<i64, String> {
    match args {
        [n] => match n.parse::<i64>() {
            Ok(v) if (1..=max).contains(&v) => Ok(v),
            _ => Err(format!("needs a positive integer, at most {max}")),
        },
        _ => Err("needs one number".to_string()),
    }
}

/// The one argument of `time`/`otim` (centiseconds) in milliseconds; a negative clock (a flag
/// fell) counts as zero.
fn centiseconds(args: &[&str]) -> Option<u64> {
    match args {
        [t] => t
            .parse::<i64>()
            .ok()
            .map(|cs| (cs.max(0) as u64).saturating_mul(10))
            .filter(|&ms| ms <= MAX_GO_MS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_lines_parse_to_their_commands() {
        assert_eq!(parse(""), Ok(XboardCommand::Ignored));
        assert_eq!(parse("  xboard \r"), Ok(XboardCommand::Ignored));
        assert_eq!(parse("name Some Body"), Ok(XboardCommand::Ignored));
        assert_eq!(parse("protover 2"), Ok(XboardCommand::Protover(2)));
        assert_eq!(parse("protover 1"), Ok(XboardCommand::Protover(1)));
        assert_eq!(
            parse("variant fischerandom"),
            Ok(XboardCommand::Variant { chess960: true })
        );
        assert_eq!(
            parse("usermove e2e4"),
            Ok(XboardCommand::Usermove("e2e4".into()))
        );
        assert_eq!(parse("e7e8q"), Ok(XboardCommand::Usermove("e7e8q".into())));
        assert_eq!(parse("O-O"), Ok(XboardCommand::Usermove("O-O".into())));
        assert_eq!(
            parse("usermove Nf3"),
            Ok(XboardCommand::Usermove("Nf3".into()))
        );
        assert_eq!(
            parse("setboard  8/8/8/8/8/8/8/K1k5 w - - 0 1 "),
            Ok(XboardCommand::SetBoard(
                "8/8/8/8/8/8/8/K1k5 w - - 0 1".into()
            ))
        );
        assert_eq!(
            parse("level 40 0:30 2.5"),
            Ok(XboardCommand::Level(TimeControl::Level {
                mps: 40,
                base_ms: 30_000,
                inc_ms: 2500
            }))
        );
        assert_eq!(parse("st 0.5"), Ok(XboardCommand::St(500)));
        assert_eq!(parse("sd 7"), Ok(XboardCommand::Sd(7)));
        assert!(parse("sd 100000").is_err());
        assert_eq!(
            parse(&format!("sd {MAX_DEPTH}")),
            Ok(XboardCommand::Sd(MAX_DEPTH))
        );
        assert_eq!(parse("time 12345"), Ok(XboardCommand::Time(123_450)));
        assert_eq!(parse("otim -40"), Ok(XboardCommand::Otim(0)));
        // Beyond about 31 years a clock is an error (as `sd`, `memory` and UCI's `go`), not
        // a silent clamp.
        assert!(parse("time 99999999999999").is_err());
        assert!(parse("time 100000000001").is_err());
        assert_eq!(
            parse("time 100000000000"),
            Ok(XboardCommand::Time(MAX_GO_MS))
        );
        assert!(parse("st 1e308").is_err());
        assert!(parse("level 40 1e300 0").is_err());
        assert!(parse("level 40 99999999999:00 0").is_err());
        assert!(parse("level 40 5 1e300").is_err());
        assert_eq!(parse("ping 17"), Ok(XboardCommand::Ping("17".into())));
        assert_eq!(parse("ping"), Ok(XboardCommand::Ping(String::new())));
        assert_eq!(parse("?"), Ok(XboardCommand::MoveNow));
        assert_eq!(parse("."), Ok(XboardCommand::Status));
        assert_eq!(parse("result 1-0 {White mates}"), Ok(XboardCommand::Result));
        assert_eq!(parse("undo"), Ok(XboardCommand::Undo));
        assert_eq!(parse("remove"), Ok(XboardCommand::Remove));
        assert_eq!(parse("memory 64"), Ok(XboardCommand::Memory(64)));
        assert!(parse("memory 99999999").is_err());
        assert_eq!(
            parse(&format!("memory {MAX_HASH}")),
            Ok(XboardCommand::Memory(MAX_HASH))
        );
        assert_eq!(parse("cores 4"), Ok(XboardCommand::Cores(4)));
        assert_eq!(
            parse("option QSearch=0"),
            Ok(XboardCommand::Option {
                name: "QSearch".into(),
                value: Some("false".into())
            })
        );
        assert_eq!(
            parse("option MultiPV = 1"),
            Ok(XboardCommand::Option {
                name: "MultiPV".into(),
                value: Some("1".into())
            })
        );
        assert_eq!(
            parse("option Clear Hash"),
            Ok(XboardCommand::Option {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(parse("quit"), Ok(XboardCommand::Quit));
    }

    #[test]
    fn malformed_lines_are_errors_that_name_the_problem() {
        let bad = |line: &str, why: &str| {
            assert_eq!(
                parse(line),
                Err(BadLine {
                    why: why.to_string(),
                    command: line.trim().to_string()
                }),
                "{line:?}"
            );
        };
        bad("protover two", "protover needs a version number");
        bad("protover -2", "protover needs a version number");
        bad("variant", "variant needs a name");
        bad(
            "variant crazyhouse",
            "unsupported variant, only normal,fischerandom",
        );
        bad("usermove", "usermove needs a move");
        bad("usermove e2e4 e7e5", "usermove takes one move");
        bad("setboard", "setboard needs a FEN");
        bad("level 40 5", "level needs MPS BASE INC, e.g. level 40 5 0");
        bad(
            "level x 5 0",
            "level: moves per session 'x' is not a number",
        );
        bad("level 40 5:99 0", "level: bad base time '5:99'");
        bad("level 40 5 -1", "level: bad increment '-1'");
        bad("st", "st needs a number of seconds");
        bad(
            "st 0",
            "st needs a positive number of seconds, at most 1000000000",
        );
        bad(
            "st inf",
            "st needs a positive number of seconds, at most 1000000000",
        );
        bad("sd", "sd needs a depth");
        bad("sd 0", &format!("sd needs a depth from 1 to {MAX_DEPTH}"));
        bad("sd 1.5", &format!("sd needs a depth from 1 to {MAX_DEPTH}"));
        bad("time", NEEDS_CENTIS);
        bad("otim 1 2", NEEDS_CENTIS);
        bad("time 9e9", NEEDS_CENTIS);
        bad("memory", "needs one number");
        bad(
            "memory 0",
            &format!("needs a positive integer, at most {MAX_HASH}"),
        );
        bad(
            "memory 16385",
            &format!("needs a positive integer, at most {MAX_HASH}"),
        );
        bad(
            "cores many",
            &format!("needs a positive integer, at most {MAX_THREADS}"),
        );
        // An unknown command is quoted alone; a move-like word with arguments is unknown.
        assert_eq!(
            parse("xyzzy 1 2"),
            Err(BadLine {
                why: "unknown command".into(),
                command: "xyzzy".into()
            })
        );
        assert_eq!(parse("e2e4 e7e5").unwrap_err().command, "e2e4");
        assert_eq!(parse("e2e9").unwrap_err().why, "unknown command");
    }

    #[test]
    fn garbage_and_long_lines_never_panic() {
        let long_word = "ü".repeat(200_000);
        assert_eq!(parse(&long_word).unwrap_err().why, "unknown command");
        let e = parse(&format!("level {long_word} 5 0")).unwrap_err();
        assert!(e.why.chars().count() < 80, "{}", e.why);
        let e = parse(&format!("st {long_word}")).unwrap_err();
        assert_eq!(
            e.why,
            "st needs a positive number of seconds, at most 1000000000"
        );
        let many = format!("usermove{}", " e2e4".repeat(100_000));
        assert_eq!(parse(&many).unwrap_err().why, "usermove takes one move");
        for line in [
            "\u{0}",
            "\u{7f}\u{0} x",
            "option =",
            "option",
            "level 1 : 0",
            "é2é4",
        ] {
            let _ = parse(line);
        }
        let bytes: Vec<u8> = (0u32..5000).map(|i| (i * 7919 % 251) as u8).collect();
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }
}

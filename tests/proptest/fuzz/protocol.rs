//! The lines of the protocol properties: UCI and CECP vocabularies, valid lines to mutate,
//! and the strategies that mix random, token and mutated lines.

use proptest::prelude::*;

use super::{mutated, random_text, seed_fens, token_line};

/// The words of UCI: commands, `go` parameters, option names and values.
pub const UCI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "perft",
    "stop",
    "ponderhit",
    "quit",
    "debug",
    "on",
    "off",
    "register",
    "later",
    "d",
    "eval",
    "bench",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "Hash",
    "Threads",
    "MultiPV",
    "Clear",
    "Move",
    "Overhead",
    "Ponder",
    "UCI_Chess960",
    "OwnBook",
    "BookFile",
    "BookDepth",
    "BookBestMove",
    "QSearch",
    "QSearchMaxPly",
    "QSearchMaxNodes",
    "QSearchChecks",
    "QSearchSEE",
    "QSearchDelta",
    "QSearchTT",
    "QSearchNullMove",
    "true",
    "false",
    "<empty>",
];

/// Valid UCI lines, the seeds of the mutations.
pub fn uci_seeds() -> Vec<String> {
    let mut lines: Vec<String> = [
        "uci",
        "isready",
        "ucinewgame",
        "position startpos",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4",
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8",
        "position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8q",
        "go depth 5",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
        "go infinite",
        "go ponder wtime 100 btime 100",
        "go searchmoves e2e4 d2d4 depth 3",
        "go nodes 1000",
        "go mate 3",
        "go movetime 100",
        "go perft 3",
        "setoption name Hash value 32",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 50",
        "setoption name UCI_Chess960 value true",
        "setoption name QSearchSEE value -50",
        "setoption name BookFile value /nonexistent/book.bin",
        "setoption name MultiPV value 3",
        "stop",
        "ponderhit",
        "quit",
        "debug on",
        "register later",
        "d",
        "eval",
        "bench 3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.extend(
        seed_fens()
            .iter()
            .take(40)
            .map(|f| format!("position fen {f}")),
    );
    lines
}

/// Random lines, UCI token lines and mutated UCI lines.
pub fn uci_lines() -> BoxedStrategy<String> {
    let words = UCI_WORDS.to_vec();
    prop_oneof![
        1 => random_text(120),
        3 => token_line(words.clone(), 14),
        4 => mutated(uci_seeds(), b" \tabcdefgh12345678qrbnk-+0", words, 4),
    ]
    .boxed()
}

/// The words of CECP: commands and their arguments.
pub const XBOARD_WORDS: &[&str] = &[
    "xboard",
    "protover",
    "2",
    "new",
    "variant",
    "normal",
    "fischerandom",
    "force",
    "go",
    "playother",
    "usermove",
    "setboard",
    "level",
    "st",
    "sd",
    "time",
    "otim",
    "ping",
    "?",
    "result",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "undo",
    "remove",
    "post",
    "nopost",
    "hard",
    "easy",
    "analyze",
    "exit",
    ".",
    "draw",
    "hint",
    "memory",
    "cores",
    "option",
    "quit",
    "accepted",
    "rejected",
    "random",
    "computer",
    "name",
    "rating",
    "ics",
    "QSearch=1",
    "QSearchSEE=-20",
    "Clear Hash",
    "Hash=1",
    "Threads=2",
    "=",
    "{",
    "}",
];

/// Valid CECP lines, the seeds of the mutations.
pub fn xboard_seeds() -> Vec<String> {
    let mut lines: Vec<String> = [
        "xboard",
        "protover 2",
        "new",
        "variant fischerandom",
        "variant normal",
        "force",
        "go",
        "playother",
        "usermove e2e4",
        "e2e4",
        "e7e5",
        "O-O",
        "level 40 5 0",
        "level 0 2:30 1.5",
        "st 10",
        "sd 5",
        "time 30000",
        "otim 30000",
        "ping 7",
        "?",
        "result 1-0 {White mates}",
        "undo",
        "remove",
        "post",
        "nopost",
        "hard",
        "easy",
        "analyze",
        "exit",
        ".",
        "draw",
        "hint",
        "memory 64",
        "cores 2",
        "option QSearch=0",
        "option Clear Hash",
        "option QSearchSEE=-20",
        "quit",
        "accepted setboard",
        "rejected usermove",
        "computer",
        "name Some One",
        "rating 2000 1800",
        "ics -",
        "random",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.extend(seed_fens().iter().take(40).map(|f| format!("setboard {f}")));
    lines
}

/// Random lines, CECP token lines and mutated CECP lines.
pub fn xboard_lines() -> BoxedStrategy<String> {
    let words = XBOARD_WORDS.to_vec();
    prop_oneof![
        1 => random_text(120),
        3 => token_line(words.clone(), 8),
        4 => mutated(xboard_seeds(), b" \tabcdefgh12345678qrbnkO-=:.0", words, 4),
    ]
    .boxed()
}

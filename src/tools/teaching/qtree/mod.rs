//! `lull qtree`: the quiescence search tree of one position, drawn.
//!
//! [`Engine::quiesce`](crate::search::Engine::quiesce) records a traced quiescence search as
//! a flat stream of events; [`tree`] builds the tree of nodes from it ([`build_tree`],
//! [`qtree`]) and [`render`](mod@render) draws it: [`render_text`] (an indented tree, one
//! node per line), [`render_dot`] (a Graphviz digraph) and [`render_html`] (one
//! self-contained page with the board and a collapsible tree). This module holds the command:
//! its arguments ([`QtreeArgs`]), [`run_qtree`] (the document) and [`run`] (the whole command).
//!
//! Every score in the tree (window, stand pat, returned score) is from the point of view of
//! the side to move at that node, as negamax computes it: a child's score is negated in its
//! parent, and the child's window is the parent's window negated and swapped.

pub mod render;
/// The tree model and its builder, in the engine library ([`crate::research::tree`]).
pub use crate::research::tree;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser as _};

use crate::params::INFINITY;
use crate::tools::cli::{apply_engine_options, fail, position_from_words, quiet_engine};

pub use render::{render, render_dot, render_html, render_text, Format};
pub use tree::{build_tree, qtree, PrunedMove, QChild, QNode, QTree};

/// The built-in position: an exchange on d5 and an overloaded defender. White's knight,
/// bishop and rook attack the pawn on d5, Black's knight and rook defend it, and the knight on
/// f6 is also the only defender of the bishop on g4 (see [`QTREE_NOTE`]).
pub const QTREE_FEN: &str = "3r2k1/pp3ppp/5n2/3p4/6b1/2N2B2/PP3PPP/3R2K1 w - - 0 1";

/// Why the built-in position is interesting.
pub const QTREE_NOTE: &str = "\
Built-in example: Nc3, Bf3 and Rd1 attack the pawn on d5, which Nf6 and Rd8 defend; Nf6 also
guards the bishop on g4 and is overloaded: after Nxd5 Nxd5 the bishop hangs. The tree shows
captures and recaptures on d5, SEE- and delta-pruned captures, checks answered by evasions,
and stand-pat cutoffs where the side to move is already doing well enough.";

/// Default for `--max-nodes`: tree nodes shown (searched nodes plus pruned leaves).
pub const DEFAULT_MAX_NODES: usize = 2000;
/// Largest accepted `--max-nodes`.
pub const MAX_MAX_NODES: usize = 1_000_000;
/// Hash size of the engine `lull qtree` runs, in MiB.
pub const QTREE_HASH_MIB: usize = 16;

/// The arguments of `lull qtree`.
#[derive(Clone, Debug, clap::Args)]
pub struct QtreeArgs {
    /// Position (FEN, quoted or as separate words; default: a built-in exchange).
    pub fen: Vec<String>,
    /// Root alpha, in centipawns (-32500 is minus infinity: no bound).
    #[arg(long, default_value_t = -INFINITY, allow_negative_numbers = true,
          value_parser = clap::value_parser!(i32).range(-(INFINITY as i64)..=INFINITY as i64))]
    pub alpha: i32,
    /// Root beta, in centipawns (32500 is plus infinity: no bound).
    #[arg(long, default_value_t = INFINITY, allow_negative_numbers = true,
          value_parser = clap::value_parser!(i32).range(-(INFINITY as i64)..=INFINITY as i64))]
    pub beta: i32,
    /// At most this many tree nodes (searched nodes plus pruned leaves) are shown.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64)
              .range(1..=MAX_MAX_NODES as u64)
              .map(|n| n as usize))]
    pub max_nodes: usize,
    /// Output format.
    #[arg(long, default_value = "text",
          value_parser = PossibleValuesParser::new(["text", "dot", "html"])
              .try_map(|s| s.parse::<Format>()))]
    pub format: Format,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// A UCI option for the engine, e.g. --option QSearchDelta=0 (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

impl Default for QtreeArgs {
    fn default() -> Self {
        Self {
            fen: Vec::new(),
            alpha: -INFINITY,
            beta: INFINITY,
            max_nodes: DEFAULT_MAX_NODES,
            format: Format::Text,
            output: None,
            options: Vec::new(),
        }
    }
}

/// Runs `lull qtree` and returns the document to print. Errors (bad FEN, bad window, bad
/// option) are messages for the user.
pub fn run_qtree(args: &QtreeArgs) -> Result<String, String> {
    let builtin = args.fen.is_empty();
    let pos = position_from_words(&args.fen, QTREE_FEN)?;
    for (name, value) in [("alpha", args.alpha), ("beta", args.beta)] {
        if !(-INFINITY..=INFINITY).contains(&value) {
            return Err(format!(
                "--{name} {value} is outside [-{INFINITY}, {INFINITY}]"
            ));
        }
    }
    if args.alpha >= args.beta {
        return Err(format!(
            "--alpha ({}) must be below --beta ({})",
            args.alpha, args.beta
        ));
    }
    if args.max_nodes == 0 || args.max_nodes > MAX_MAX_NODES {
        return Err(format!(
            "--max-nodes must be from 1 to {MAX_MAX_NODES}, not {}",
            args.max_nodes
        ));
    }
    let mut engine = quiet_engine(QTREE_HASH_MIB);
    apply_engine_options(&mut engine, &args.options)?;
    let tree = qtree(&mut engine, &pos, args.alpha, args.beta, args.max_nodes);
    let mut doc = render(&tree, &pos, args.format);
    if builtin && args.format == Format::Text {
        doc.push('\n');
        doc.push_str(QTREE_NOTE);
        doc.push('\n');
    }
    Ok(doc)
}

/// The whole `lull qtree` command: runs it and writes the document to `output` (a file) or to
/// standard output. Errors go to standard error: exit code 2 for bad arguments, 1 when the
/// output cannot be written.
pub fn run(args: QtreeArgs) -> ExitCode {
    if let Some(path) = &args.output {
        if let Err(e) = crate::tools::common::atomic::check_output(path, &[]) {
            return fail(1, e);
        }
    }
    let doc = match run_qtree(&args) {
        Ok(doc) => doc,
        Err(e) => return fail(2, e),
    };
    let written = match &args.output {
        Some(path) => crate::tools::common::atomic::write_atomic(path, doc.as_bytes()),
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            lock.write_all(doc.as_bytes()).and_then(|()| lock.flush())
        }
        .or_else(|e| {
            // A closed pipe (`lull qtree | head`) is the reader's choice, not an error.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                Ok(())
            } else {
                Err(format!("cannot write to standard output: {e}"))
            }
        }),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(1, e),
    }
}

//! `lull horizon`: the horizon effect, shown. One position is searched to the same depth twice,
//! once with the quiescence search off (the leaves are evaluated statically, in the middle of
//! exchanges) and once with it on, and the two answers are printed side by side.

use std::process::ExitCode;

use serde::Serialize;

use crate::params::MAX_DEPTH;
use crate::position::board_ascii;
use crate::position::Position;
use crate::san::{line_to_san, move_to_san};
use crate::search::SearchResult;
use crate::time::Limits;
use crate::tools::cli::{apply_engine_options, fail, position_from_words, quiet_engine};
use crate::tools::{uci_score_text, wrap_words};

/// The built-in example (see [`HORIZON_NOTE`]): White's queen can take a knight that only a
/// pawn defends, and the recapture opens a file.
pub const HORIZON_FEN: &str = "4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1 w - - 0 1";

/// Why the built-in example shows the horizon effect.
pub const HORIZON_NOTE: &str = "\
Built-in example: White, a knight down for two pawns, can take the knight on d4 with the queen
(Qxd4), and if ...exd4 the e-file opens and the rook takes the queen on e7 (Rxe7). At depth 1
Qxd4 is the last ply: the search without quiescence stops there and counts a knight won; it
never sees ...exd4. Just beyond the horizon, the quiescence search plays ...exd4 Rxe7 Rxe7 and
sees that Qxd4 gives queen and rook for knight and queen.";

/// Default depth in plies: in the built-in example the refuting capture (...exd4) is on ply
/// 2, one beyond the horizon. (At depth 3 the selective search now avoids Qxd4 without
/// quiescence too: the pruning of iteration 3 uses the TT scores of iteration 2, which saw
/// ...exd4.)
pub const HORIZON_DEPTH: i32 = 1;

/// One of the two searches.
#[derive(Clone, Debug, Serialize)]
pub struct HorizonRun {
    /// Whether the quiescence search was on.
    pub qsearch: bool,
    /// The best move in SAN.
    pub best: Option<String>,
    /// Score from the side to move, in centipawns.
    pub score: i32,
    /// The principal variation in SAN.
    pub pv: Vec<String>,
    /// The whole search result (statistics included).
    pub result: SearchResult,
}

/// Both searches of one position.
#[derive(Clone, Debug, Serialize)]
pub struct HorizonReport {
    /// The position.
    pub fen: String,
    /// Depth of both searches.
    pub depth: i32,
    /// Quiescence search off.
    pub without: HorizonRun,
    /// Quiescence search on.
    pub with: HorizonRun,
}

/// Searches `pos` to `depth` with a fresh engine, the `NAME=VALUE` engine `options` applied
/// and then the quiescence search on or off. An error names a bad option.
pub fn search_once(
    pos: &Position,
    depth: i32,
    qsearch: bool,
    hash_mib: usize,
    options: &[String],
) -> Result<HorizonRun, String> {
    let mut engine = quiet_engine(hash_mib);
    apply_engine_options(&mut engine, options)?;
    engine.options.qs.enabled = qsearch;
    let result = engine.search(pos, &Limits::depth(depth), &[]);
    let board = pos.board();
    Ok(HorizonRun {
        qsearch,
        best: result.best_move.map(|m| move_to_san(board, m)),
        score: result.score,
        pv: line_to_san(board, &result.pv),
        result,
    })
}

/// Searches `pos` to `depth` without and with the quiescence search, with the engine
/// `options` (e.g. `Use NNUE=false`) in both.
pub fn run_horizon(
    pos: &Position,
    depth: i32,
    hash_mib: usize,
    options: &[String],
) -> Result<HorizonReport, String> {
    Ok(HorizonReport {
        fen: pos.fen(),
        depth,
        without: search_once(pos, depth, false, hash_mib, options)?,
        with: search_once(pos, depth, true, hash_mib, options)?,
    })
}

impl HorizonReport {
    /// Whether the two scores have opposite signs (one above zero, the other below).
    pub fn signs_differ(&self) -> bool {
        (self.without.score > 0 && self.with.score < 0)
            || (self.without.score < 0 && self.with.score > 0)
    }

    /// The text `lull horizon` prints: board, the two searches side by side, and the
    /// quiescence statistics of the second.
    pub fn render(&self, pos: &Position) -> String {
        const LABEL: usize = 12;
        const COL: usize = 34;
        let mut out = String::new();
        out.push_str(&board_ascii(pos));
        out.push('\n');
        out.push_str(&format!("Fen: {}\n", self.fen));
        out.push_str(&format!(
            "{} to move, depth {}\n\n",
            if pos.side_to_move() == cozy_chess::Color::White {
                "White"
            } else {
                "Black"
            },
            self.depth
        ));
        let mut row = |label: &str, left: &str, right: &str| {
            out.push_str(&format!("{label:<LABEL$}{left:<COL$}{right}\n"));
        };
        row("", "QSearch off", "QSearch on");
        row("", "-----------", "----------");
        let best = |r: &HorizonRun| r.best.clone().unwrap_or_else(|| "(none)".into());
        row("best move", &best(&self.without), &best(&self.with));
        row(
            "score",
            &uci_score_text(self.without.score),
            &uci_score_text(self.with.score),
        );
        row(
            "nodes",
            &self.without.result.nodes.to_string(),
            &self.with.result.nodes.to_string(),
        );
        row(
            "seldepth",
            &self.without.result.seldepth.to_string(),
            &self.with.result.seldepth.to_string(),
        );
        let left = wrap_words(&self.without.pv, COL - 2);
        let right = wrap_words(&self.with.pv, COL - 2);
        for i in 0..left.len().max(right.len()) {
            row(
                if i == 0 { "PV" } else { "" },
                left.get(i).map_or("", String::as_str),
                right.get(i).map_or("", String::as_str),
            );
        }
        out.push('\n');
        if self.signs_differ() {
            out.push_str(
                "The scores have opposite signs: without the quiescence search the last ply's \
                 capture is scored before the reply that refutes it (the horizon effect).\n",
            );
        } else if self.without.best != self.with.best {
            out.push_str(
                "The best moves differ: the leaves the search without quiescence scores \
                 statically are not quiet.\n",
            );
        } else {
            out.push_str("Both searches agree on the move and the sign of the score.\n");
        }
        out.push_str("\nQuiescence statistics (QSearch on):\n");
        out.push_str(&self.with.result.stats.table());
        out
    }
}

/// Arguments of `lull horizon`.
#[derive(Clone, Debug, clap::Args)]
pub struct HorizonArgs {
    /// Position (FEN, quoted or as separate words; default: a built-in example).
    pub fen: Vec<String>,
    /// Depth in plies.
    #[arg(long, default_value_t = HORIZON_DEPTH,
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: i32,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// A UCI option for both searches, e.g. --option "Use NNUE=false" (repeatable; QSearch
    /// itself is what the two searches differ in).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// `lull horizon`: both searches side by side (and, for the built-in position, why it is
/// interesting). Exit code 2 for a bad FEN.
pub fn run(args: HorizonArgs) -> ExitCode {
    let pos = match position_from_words(&args.fen, HORIZON_FEN) {
        Ok(p) => p,
        Err(e) => return fail(2, e),
    };
    let report = match run_horizon(&pos, args.depth, args.hash as usize, &args.options) {
        Ok(r) => r,
        Err(e) => return fail(2, e),
    };
    print!("{}", report.render(&pos));
    if args.fen.is_empty() {
        println!();
        println!("{HORIZON_NOTE}");
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_example_shows_the_horizon_effect() {
        let pos = Position::from_fen(HORIZON_FEN).unwrap();
        let report = run_horizon(&pos, HORIZON_DEPTH, 2, &[]).unwrap();
        let text = report.render(&pos);
        assert!(report.signs_differ(), "{text}");
        assert!(report.without.score > 0 && report.with.score < 0, "{text}");
        // Without quiescence the greedy capture is played; with it, it is not.
        assert_eq!(report.without.best.as_deref(), Some("Qxd4"), "{text}");
        assert_ne!(report.with.best.as_deref(), Some("Qxd4"), "{text}");
        // Searched alone with quiescence, Qxd4 is worse than what the search prefers.
        let mv = crate::san::parse_san(pos.board(), "Qxd4").unwrap();
        let mut engine = crate::search::Engine::new(2);
        let forced = engine.search(&pos, &Limits::depth(HORIZON_DEPTH), &[mv]);
        assert_eq!(forced.best_move, Some(mv));
        assert!(
            forced.score < report.with.score && forced.score < -200,
            "Qxd4 with quiescence scores {}",
            forced.score
        );
        // The rendering shows both columns and the statistics of the second search.
        assert!(text.contains("QSearch off") && text.contains("QSearch on"));
        assert!(text.contains("opposite signs"));
        assert!(text.contains("quiescence nodes"));
        assert_eq!(report.without.result.stats.qnodes, 0);
        assert!(report.with.result.stats.qnodes > 0);
    }

    #[test]
    fn positions_without_moves_render() {
        // Checkmated side to move: both searches return no move.
        let pos = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        let report = run_horizon(&pos, 2, 1, &[]).unwrap();
        assert!(report.without.best.is_none() && report.with.best.is_none());
        assert!(report.render(&pos).contains("(none)"));
    }
}

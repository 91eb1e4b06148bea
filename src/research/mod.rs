//! A small API for research: search a position with chosen options and read what the search
//! did, or run the quiescence search alone and look at its tree.
//!
//! - [`Lab::builder`] builds an engine with options (any option of the UCI table, by name and
//!   value, as `setoption` takes them), a hash size and a thread count.
//! - [`Lab::search`] searches a position to a [`Budget`] (a depth or a node count) and returns
//!   the [`SearchResult`]: best move, score, the principal variation, nodes and the
//!   [`SearchStats`] (quiescence nodes, stand-pat cutoffs, the q-ply histogram, the moves
//!   delta and SEE pruning skipped, …).
//! - [`Lab::quiesce`] runs only the quiescence search on a position with a window
//!   ([`QuiesceResult`]: score, line, statistics); [`Lab::quiescence_tree`] also records the
//!   tree it searched ([`QTree`]: each node with its window, stand pat, score and why it
//!   ended, pruned moves as leaves) — the tree `lull qtree` draws.
//! - [`position`] reads a FEN, [`uci_line`] and [`san_line`] write a line of moves.
//!
//! Everything here runs on the engine alone: a crate that depends on Lull with
//! `default-features = false` gets it without the command-line tools' dependencies.
//! `examples/compare_quiescence.rs` compares two quiescence settings on a list of FENs,
//! `examples/quiescence_tree.rs` prints a quiescence tree.
//!
//! ```
//! use lull::research::{position, uci_line, Budget, Lab};
//!
//! let mut lab = Lab::builder().option("QSearchChecks", "1").build()?;
//! let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")?;
//! let result = lab.search(&pos, Budget::Depth(5));
//! assert!(result.best_move.is_some());
//! assert!(result.stats.qnodes > 0 && result.stats.qnodes <= result.nodes);
//! println!("{} {}", result.score, uci_line(&pos, &result.pv).join(" "));
//!
//! let q = lab.quiesce(&pos, -50, 50);
//! assert!(q.stats.qnodes >= 1);
//! # Ok::<(), String>(())
//! ```

pub mod tree;

use cozy_chess::Move;

use crate::options::{application_order, apply_option, DEFAULT_HASH};
use crate::position::Position;
use crate::search::Engine;
use crate::time::Limits;

pub use crate::search::{QuiesceResult, SearchResult, SearchStats};
pub use tree::{build_tree, PrunedMove, QChild, QNode, QTree};

/// How far a search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Iterative deepening up to this depth, in plies (at least 1).
    Depth(i32),
    /// Iterative deepening until this many nodes (main and quiescence) are searched.
    Nodes(u64),
}

impl Budget {
    /// The search limits of this budget.
    pub fn limits(self) -> Limits {
        match self {
            Budget::Depth(depth) => Limits::depth(depth.max(1)),
            Budget::Nodes(nodes) => Limits::nodes(nodes.max(1)),
        }
    }
}

/// Builds a [`Lab`]: the options, hash size and thread count it searches with.
#[derive(Clone, Debug)]
pub struct LabBuilder {
    hash_mib: usize,
    threads: usize,
    options: Vec<(String, String)>,
}

impl Default for LabBuilder {
    fn default() -> Self {
        Self {
            hash_mib: DEFAULT_HASH,
            threads: 1,
            options: Vec::new(),
        }
    }
}

impl LabBuilder {
    /// Sets an option of the UCI table (`QSearchChecks`, `QSearchSEE`, `Use NNUE`, …; the
    /// names are case-insensitive). Checked by [`LabBuilder::build`].
    pub fn option(mut self, name: &str, value: &str) -> Self {
        self.options.push((name.to_string(), value.to_string()));
        self
    }

    /// The hash table size in MiB (16 by default).
    pub fn hash_mib(mut self, mib: usize) -> Self {
        self.hash_mib = mib;
        self
    }

    /// The number of search threads (1 by default: a one-thread search with a depth or a
    /// node budget gives the same result on every run).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Builds the engine and applies the options (`EvalFile` before the others, so that
    /// `Use NNUE` finds its network). The error names the first option that is unknown or
    /// has a bad value, or a hash that cannot be had.
    pub fn build(self) -> Result<Lab, String> {
        let mut engine = Engine::new(1);
        engine.set_report_sink(None);
        engine
            .set_hash(self.hash_mib)
            .map_err(|e| format!("hash {} MiB: {e}", self.hash_mib))?;
        engine.set_threads(self.threads);
        let mut options: Vec<&(String, String)> = self.options.iter().collect();
        options.sort_by_key(|(name, _)| application_order(name));
        for (name, value) in options {
            apply_option(&mut engine, name, Some(value)).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(Lab { engine })
    }
}

/// An engine for experiments: searches and quiescence searches, with their statistics.
pub struct Lab {
    engine: Engine,
}

impl Lab {
    /// A builder with the defaults: every option at its default, a 16 MiB hash, one thread.
    pub fn builder() -> LabBuilder {
        LabBuilder::default()
    }

    /// Sets one more option (as [`LabBuilder::option`]); on an error the engine is unchanged.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        apply_option(&mut self.engine, name, Some(value)).map(|_| ())
    }

    /// Searches `pos` to `budget`. The result holds the best move, the score (centipawns from
    /// the side to move, or a mate score: see [`crate::params::MATE`]), the principal
    /// variation, the nodes and the statistics of this search alone. The hash table keeps what
    /// earlier searches stored: call [`Lab::clear`] between searches to compare them cleanly.
    pub fn search(&mut self, pos: &Position, budget: Budget) -> SearchResult {
        self.engine.search(pos, &budget.limits(), &[])
    }

    /// Runs only the quiescence search of `pos` in the window (`alpha`, `beta`), as the main
    /// search does at its horizon: the score, the quiescence line and the statistics.
    pub fn quiesce(&mut self, pos: &Position, alpha: i32, beta: i32) -> QuiesceResult {
        self.engine.quiesce(pos, alpha, beta, 0)
    }

    /// Runs the quiescence search of `pos` in the window (`alpha`, `beta`) and returns its
    /// tree, keeping at most `max_nodes` tree nodes (searched nodes and pruned leaves, in the
    /// order the search met them; [`QTree::truncated`] says whether any were left out).
    pub fn quiescence_tree(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        max_nodes: usize,
    ) -> QTree {
        tree::qtree(&mut self.engine, pos, alpha, beta, max_nodes)
    }

    /// Empties the hash table.
    pub fn clear(&mut self) {
        self.engine.clear();
    }

    /// The engine itself, for what this API does not cover ([`Engine::options`] holds every
    /// search setting).
    pub fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }
}

/// Reads a position from a FEN (or the four fields of an EPD record); the error says what is
/// wrong.
pub fn position(fen: &str) -> Result<Position, String> {
    Position::from_fen(fen)
}

/// A line of moves from `pos` in UCI notation, as far as the moves are legal.
pub fn uci_line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !p.board().is_legal(mv) {
            break;
        }
        out.push(p.move_to_uci(mv));
        p.play(mv);
    }
    out
}

/// A line of moves from `pos` in Standard Algebraic Notation, as far as the moves are legal.
pub fn san_line(pos: &Position, moves: &[Move]) -> Vec<String> {
    crate::san::line_to_san(pos.board(), moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

    #[test]
    fn a_lab_searches_as_the_engine_does_with_the_same_options() {
        let pos = position(FEN).unwrap();
        let mut lab = Lab::builder()
            .option("QSearchChecks", "1")
            .hash_mib(8)
            .build()
            .unwrap();
        let a = lab.search(&pos, Budget::Depth(6));
        let mut engine = Engine::new(8);
        engine.set_report_sink(None);
        apply_option(&mut engine, "QSearchChecks", Some("1")).unwrap();
        let b = engine.search(&pos, &Limits::depth(6), &[]);
        assert_eq!((a.nodes, a.score, &a.pv), (b.nodes, b.score, &b.pv));
        assert_eq!(a.stats.qnodes, b.stats.qnodes);
        assert!(a.stats.qnodes > 0 && a.stats.qnodes < a.nodes);
        // The line is legal all the way and starts with the best move.
        let uci = uci_line(&pos, &a.pv);
        assert_eq!(uci.len(), a.pv.len());
        assert_eq!(Some(a.pv[0]), a.best_move);
        assert_eq!(san_line(&pos, &a.pv).len(), a.pv.len());
    }

    #[test]
    fn a_node_budget_stops_the_search_near_it() {
        let pos = position(FEN).unwrap();
        let mut lab = Lab::builder().build().unwrap();
        let r = lab.search(&pos, Budget::Nodes(5_000));
        assert!(r.best_move.is_some());
        assert!(
            r.nodes >= 1 && r.nodes <= 5_000 + 1_000,
            "{} nodes",
            r.nodes
        );
    }

    #[test]
    fn bad_options_are_named() {
        let e = Lab::builder().option("QSearchChecks", "x").build().err();
        assert!(e.unwrap().starts_with("QSearchChecks: "));
        let e = Lab::builder().option("NoSuchOption", "1").build().err();
        assert!(e.unwrap().contains("unknown option 'NoSuchOption'"));
        let mut lab = Lab::builder().build().unwrap();
        assert!(lab.set_option("QSearchSEE", "-100").is_ok());
        assert_eq!(lab.engine().options.qs.see_threshold, -100);
        assert!(lab.set_option("QSearchSEE", "100000").is_err());
        assert_eq!(lab.engine().options.qs.see_threshold, -100);
    }

    #[test]
    fn the_quiescence_tree_counts_what_the_quiesce_call_counts() {
        // White to move wins the undefended rook on d5 and nothing else.
        let pos = position("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1").unwrap();
        let mut lab = Lab::builder().build().unwrap();
        let q = lab.quiesce(&pos, -1000, 1000);
        let tree = lab.quiescence_tree(&pos, -1000, 1000, 1000);
        assert_eq!(tree.qnodes, q.stats.qnodes);
        assert_eq!(tree.score, q.score);
        assert!(!tree.truncated);
        assert_eq!(tree.node_count() as u64, q.stats.qnodes);
        let root = tree.root.as_ref().unwrap();
        assert_eq!((root.alpha, root.beta), (-1000, 1000));
        assert!(root.child("Qxd5+").is_some() || root.child("Qxd5").is_some());
        assert_eq!(
            uci_line(&pos, &q.pv).first().map(String::as_str),
            Some("d1d5")
        );
    }
}

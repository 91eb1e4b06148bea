//! What every thread of a search holds a handle to ([`Shared`]): the transposition table, the
//! stop and ponder flags, each thread's published node count, and the Syzygy tables with the
//! count of their hits. A thread owns everything else it reads (`searcher.rs`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::tablebase::Tablebases;
use crate::tt::TranspositionTable;

use super::control::Control;

/// The handles one search thread shares with the others.
pub(super) struct Shared {
    /// The transposition table.
    pub(super) tt: Arc<TranspositionTable>,
    /// Stop and ponder flags.
    pub(super) control: Arc<Control>,
    /// Each thread's node count, as it published it at its last poll.
    pub(super) node_counters: Arc<Vec<AtomicU64>>,
    /// The Syzygy tables (none unless `SyzygyPath` is set).
    pub(super) tb: Arc<Tablebases>,
    /// Tablebase hits of all threads in the current search.
    pub(super) tb_hits: Arc<AtomicU64>,
}

impl Shared {
    /// Counts `n` tablebase hits.
    #[inline]
    pub(super) fn add_tb_hits(&self, n: u64) {
        self.tb_hits.fetch_add(n, Ordering::Relaxed);
    }

    /// Tablebase hits of all threads so far.
    pub(super) fn tb_hits(&self) -> u64 {
        self.tb_hits.load(Ordering::Relaxed)
    }

    /// Publishes the node count of thread `thread` for the others to read.
    #[inline]
    pub(super) fn publish_nodes(&self, thread: usize, nodes: u64) {
        self.node_counters[thread].store(nodes, Ordering::Relaxed);
    }

    /// The nodes of every thread but `thread`, as they last published them.
    pub(super) fn nodes_of_others(&self, thread: usize) -> u64 {
        let mut total = 0;
        for (i, c) in self.node_counters.iter().enumerate() {
            if i != thread {
                total += c.load(Ordering::Relaxed);
            }
        }
        total
    }

    /// Whether the stop flag is set.
    #[inline]
    pub(super) fn stop_requested(&self) -> bool {
        self.control.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is pondering (no `ponderhit` yet).
    pub(super) fn pondering(&self) -> bool {
        self.control.pondering.load(Ordering::Relaxed)
    }
}

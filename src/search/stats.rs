//! Search statistics: plain counters bumped as the search goes (a few additions per node),
//! summed over threads, shown after every `go`, by `lull bench` and as JSON.

use serde::{Deserialize, Serialize};

use super::trace::{QEnd, QPrune};

/// Length of the q-ply histogram; deeper q-plies are counted in the last bucket.
pub const QPLY_BUCKETS: usize = 16;

/// Counters of one search (or a sum of searches).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct SearchStats {
    /// Nodes of the main (alpha-beta) search.
    pub main_nodes: u64,
    /// Nodes of the quiescence search.
    pub qnodes: u64,
    /// Quiescence nodes at q-ply 0 (entered straight from the main search's horizon).
    pub qnodes_ply0: u64,
    /// Sum of q-plies over quiescence nodes (for the mean).
    pub qply_sum: u64,
    /// Deepest q-ply reached.
    pub qply_max: u64,
    /// Quiescence nodes per q-ply.
    pub qply_hist: [u64; QPLY_BUCKETS],
    /// Quiescence nodes not in check (where stand pat is allowed).
    pub standpat_nodes: u64,
    /// Quiescence nodes that returned at once because stand pat reached beta.
    pub standpat_cutoffs: u64,
    /// Main-search nodes that searched at least one move.
    pub main_expanded: u64,
    /// Main-search nodes that failed high.
    pub main_cutoffs: u64,
    /// ... of which on the first move searched.
    pub main_first_cutoffs: u64,
    /// Quiescence nodes that searched at least one move.
    pub q_expanded: u64,
    /// Quiescence nodes that failed high after a move.
    pub q_cutoffs: u64,
    /// ... of which on the first move searched.
    pub q_first_cutoffs: u64,
    /// Captures skipped because their SEE was below the threshold.
    pub see_skips: u64,
    /// Captures skipped by delta pruning.
    pub delta_skips: u64,
    /// Moves skipped because only recaptures were allowed at that q-ply.
    pub recapture_skips: u64,
    /// Transposition-table probes in the quiescence search.
    pub q_tt_probes: u64,
    /// ... that found the position.
    pub q_tt_hits: u64,
    /// ... that ended the node with the stored bound.
    pub q_tt_cutoffs: u64,
    /// Quiescence nodes in check (all evasions searched, no stand pat).
    pub evasion_nodes: u64,
    /// Checkmates found inside the quiescence search.
    pub q_mates: u64,
    /// Stalemates found inside the quiescence search.
    pub q_stalemates: u64,
    /// Quiet moves searched in the quiescence search (checks, and pushes to the seventh).
    pub q_checks_searched: u64,
    /// Null-move (Beal) stand-pat searches made.
    pub null_standpats: u64,
    /// ... that lowered the stand pat below the static evaluation.
    pub null_standpat_lowered: u64,
    /// Quiescence nodes that stopped at the q-ply or q-node cap.
    pub q_capped: u64,
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

impl SearchStats {
    /// All nodes (main and quiescence).
    pub fn nodes(&self) -> u64 {
        self.main_nodes + self.qnodes
    }

    /// Counts a quiescence node at `qply` (nodes, q-ply mean, maximum and histogram).
    #[inline]
    pub fn q_node(&mut self, qply: i32) {
        let qply = qply.max(0) as u64;
        self.qnodes += 1;
        self.qply_sum += qply;
        self.qply_max = self.qply_max.max(qply);
        self.qply_hist[(qply as usize).min(QPLY_BUCKETS - 1)] += 1;
        if qply == 0 {
            self.qnodes_ply0 += 1;
        }
    }

    /// Counts how a quiescence node ended.
    #[inline]
    pub fn q_exit(&mut self, end: QEnd) {
        match end {
            QEnd::PlyCap | QEnd::NodeCap => self.q_capped += 1,
            QEnd::TtCutoff => self.q_tt_cutoffs += 1,
            QEnd::StandPat => self.standpat_cutoffs += 1,
            QEnd::BetaCutoff { after } => {
                self.q_cutoffs += 1;
                if after == 1 {
                    self.q_first_cutoffs += 1;
                }
            }
            QEnd::Mate => self.q_mates += 1,
            QEnd::Stalemate => self.q_stalemates += 1,
            QEnd::Stopped
            | QEnd::Draw
            | QEnd::MateDistance
            | QEnd::AllSearched
            | QEnd::Quiet
            | QEnd::Tablebase => {}
        }
    }

    /// Counts a transposition-table probe of the quiescence search, and whether it hit.
    #[inline]
    pub fn q_tt_probe(&mut self, hit: bool) {
        self.q_tt_probes += 1;
        self.q_tt_hits += u64::from(hit);
    }

    /// Counts a quiescence move that was not searched, by reason.
    #[inline]
    pub fn q_pruned(&mut self, reason: QPrune) {
        match reason {
            QPrune::Delta => self.delta_skips += 1,
            QPrune::See => self.see_skips += 1,
            QPrune::NotRecapture => self.recapture_skips += 1,
        }
    }

    /// Counts a beta cutoff of the main search after `searched` moves.
    #[inline]
    pub fn main_cutoff(&mut self, searched: usize) {
        self.main_cutoffs += 1;
        if searched == 1 {
            self.main_first_cutoffs += 1;
        }
    }

    /// Adds another search's counters to these.
    pub fn add(&mut self, o: &SearchStats) {
        self.main_nodes += o.main_nodes;
        self.qnodes += o.qnodes;
        self.qnodes_ply0 += o.qnodes_ply0;
        self.qply_sum += o.qply_sum;
        self.qply_max = self.qply_max.max(o.qply_max);
        for (a, b) in self.qply_hist.iter_mut().zip(o.qply_hist.iter()) {
            *a += b;
        }
        self.standpat_nodes += o.standpat_nodes;
        self.standpat_cutoffs += o.standpat_cutoffs;
        self.main_expanded += o.main_expanded;
        self.main_cutoffs += o.main_cutoffs;
        self.main_first_cutoffs += o.main_first_cutoffs;
        self.q_expanded += o.q_expanded;
        self.q_cutoffs += o.q_cutoffs;
        self.q_first_cutoffs += o.q_first_cutoffs;
        self.see_skips += o.see_skips;
        self.delta_skips += o.delta_skips;
        self.recapture_skips += o.recapture_skips;
        self.q_tt_probes += o.q_tt_probes;
        self.q_tt_hits += o.q_tt_hits;
        self.q_tt_cutoffs += o.q_tt_cutoffs;
        self.evasion_nodes += o.evasion_nodes;
        self.q_mates += o.q_mates;
        self.q_stalemates += o.q_stalemates;
        self.q_checks_searched += o.q_checks_searched;
        self.null_standpats += o.null_standpats;
        self.null_standpat_lowered += o.null_standpat_lowered;
        self.q_capped += o.q_capped;
    }

    /// Share of quiescence nodes, in percent.
    pub fn qnode_share(&self) -> f64 {
        pct(self.qnodes, self.nodes())
    }

    /// Stand-pat cutoffs per quiescence node where stand pat was allowed, in percent.
    pub fn standpat_rate(&self) -> f64 {
        pct(self.standpat_cutoffs, self.standpat_nodes)
    }

    /// Mean q-ply of quiescence nodes.
    pub fn mean_qply(&self) -> f64 {
        if self.qnodes == 0 {
            0.0
        } else {
            self.qply_sum as f64 / self.qnodes as f64
        }
    }

    /// The one-line summary sent as `info string` after every search.
    pub fn summary_line(&self) -> String {
        let hist: Vec<String> = self
            .qply_hist
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, n)| {
                if i == QPLY_BUCKETS - 1 {
                    format!("{i}+:{n}")
                } else {
                    format!("{i}:{n}")
                }
            })
            .collect();
        format!(
            "stats nodes {} qnodes {} ({:.1}%) qply0 {:.1}% qply mean {:.2} max {} \
             standpat-cut {:.1}% main-cut {:.1}% first {:.1}% q-cut {:.1}% first {:.1}% \
             see-skip {} delta-skip {} recap-skip {} qtt-hit {:.1}% evasions {} q-mates {} \
             qply-hist {}",
            self.nodes(),
            self.qnodes,
            self.qnode_share(),
            pct(self.qnodes_ply0, self.qnodes),
            self.mean_qply(),
            self.qply_max,
            self.standpat_rate(),
            pct(self.main_cutoffs, self.main_expanded),
            pct(self.main_first_cutoffs, self.main_cutoffs),
            pct(self.q_cutoffs, self.q_expanded),
            pct(self.q_first_cutoffs, self.q_cutoffs),
            self.see_skips,
            self.delta_skips,
            self.recapture_skips,
            pct(self.q_tt_hits, self.q_tt_probes),
            self.evasion_nodes,
            self.q_mates,
            hist.join(" ")
        )
    }

    /// A readable multi-line table (for `lull bench` and the analysis tools).
    pub fn table(&self) -> String {
        let mut out = String::new();
        let mut row = |name: &str, value: String| {
            out.push_str(&format!("{name:<34} {value}\n"));
        };
        row("nodes", self.nodes().to_string());
        row("main-search nodes", self.main_nodes.to_string());
        row(
            "quiescence nodes",
            format!("{} ({:.1}% of all)", self.qnodes, self.qnode_share()),
        );
        row(
            "q-nodes at q-ply 0",
            format!(
                "{} ({:.1}%)",
                self.qnodes_ply0,
                pct(self.qnodes_ply0, self.qnodes)
            ),
        );
        row(
            "q-ply mean / max",
            format!("{:.2} / {}", self.mean_qply(), self.qply_max),
        );
        row(
            "stand-pat cutoffs",
            format!(
                "{} ({:.1}% of {} stand-pat nodes)",
                self.standpat_cutoffs,
                self.standpat_rate(),
                self.standpat_nodes
            ),
        );
        row(
            "main beta cutoffs / first move",
            format!(
                "{:.1}% / {:.1}%",
                pct(self.main_cutoffs, self.main_expanded),
                pct(self.main_first_cutoffs, self.main_cutoffs)
            ),
        );
        row(
            "q beta cutoffs / first move",
            format!(
                "{:.1}% / {:.1}%",
                pct(self.q_cutoffs, self.q_expanded),
                pct(self.q_first_cutoffs, self.q_cutoffs)
            ),
        );
        row("captures skipped by SEE", self.see_skips.to_string());
        row("captures skipped by delta", self.delta_skips.to_string());
        row(
            "moves skipped (recaptures only)",
            self.recapture_skips.to_string(),
        );
        row(
            "q TT probes / hits / cutoffs",
            format!(
                "{} / {} ({:.1}%) / {}",
                self.q_tt_probes,
                self.q_tt_hits,
                pct(self.q_tt_hits, self.q_tt_probes),
                self.q_tt_cutoffs
            ),
        );
        row("evasion nodes (in check)", self.evasion_nodes.to_string());
        row(
            "mates / stalemates in qsearch",
            format!("{} / {}", self.q_mates, self.q_stalemates),
        );
        row(
            "quiet checks and pushes searched",
            self.q_checks_searched.to_string(),
        );
        row(
            "null-move stand pats / lowered",
            format!("{} / {}", self.null_standpats, self.null_standpat_lowered),
        );
        row("q-nodes stopped by a cap", self.q_capped.to_string());
        let mut hist = String::new();
        for (i, n) in self.qply_hist.iter().enumerate() {
            if *n > 0 {
                let label = if i == QPLY_BUCKETS - 1 {
                    format!("{i}+")
                } else {
                    i.to_string()
                };
                hist.push_str(&format!(
                    "  q-ply {label:>3}: {n:>12} ({:>5.1}%)\n",
                    pct(*n, self.qnodes)
                ));
            }
        }
        out.push_str("q-ply histogram\n");
        out.push_str(&hist);
        out
    }
}

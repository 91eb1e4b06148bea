//! What a search tells its caller: the report of each iteration while it runs
//! ([`SearchReport`], sent to a [`ReportSink`]) and the result at its end ([`SearchResult`],
//! [`QuiesceResult`]).

use std::sync::Arc;

use cozy_chess::Move;
use serde::Serialize;

use super::stats::SearchStats;
use super::trace::QTrace;
use crate::params::{MATE_BOUND, TB_BOUND, TB_WIN, TB_WIN_SHOWN};

/// A score that is not a mate as the protocols show it in centipawns: itself, or a
/// tablebase win or loss (the band from [`TB_BOUND`] to the mate scores) as
/// ±([`TB_WIN_SHOWN`] less its distance in plies).
pub fn shown_centipawns(score: i32) -> i32 {
    let magnitude = score.abs();
    if (TB_BOUND..MATE_BOUND).contains(&magnitude) {
        score.signum() * (TB_WIN_SHOWN - (TB_WIN - magnitude))
    } else {
        score
    }
}

/// What the score of a report is: exact (a completed iteration) or a bound (an aspiration
/// search that failed high or low and is searched again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score of a completed iteration.
    #[default]
    Exact,
    /// The search failed high: the score is at least this (UCI `lowerbound`).
    Lower,
    /// The search failed low: the score is at most this (UCI `upperbound`).
    Upper,
}

/// One completed iteration of the main thread (or, with `bound` not `Exact`, a failed
/// aspiration search of one): everything a front end prints about it (UCI `info` lines,
/// XBoard thinking lines and status).
#[derive(Clone, Debug)]
pub struct IterationReport {
    /// Depth of the iteration.
    pub depth: i32,
    /// Deepest ply reached (at least `depth`).
    pub seldepth: usize,
    /// Score of the best line in centipawns from the side to move (mate scores near +/-
    /// [`crate::params::MATE`]).
    pub score: i32,
    /// Nodes searched by all threads so far.
    pub nodes: u64,
    /// Nodes per second so far: `nodes` over `time_ms`.
    pub nps: u64,
    /// Exact, or the bound of a failed aspiration search.
    pub bound: ScoreBound,
    /// Milliseconds since the search started (a ponder search: since pondering began, so
    /// that `nodes`, `time_ms` and `nps` count the same search).
    pub time_ms: u64,
    /// Transposition-table occupancy in permille.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads, so far.
    pub tbhits: u64,
    /// The principal variation of the best line.
    pub pv: Vec<Move>,
    /// Every line of the iteration, best first (one line without `MultiPV`; the first is
    /// `score` and `pv`).
    pub lines: Vec<RootLine>,
}

/// What the main search thread reports while it runs.
#[derive(Clone, Debug)]
pub enum SearchReport {
    /// An iteration completed, or (with a bound) an aspiration search failed.
    Iteration(IterationReport),
    /// The root move being searched, sent after `SearchOptions::progress_after_ms`.
    CurrMove {
        /// Depth of the iteration.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its number in the iteration's order, from 1.
        number: usize,
    },
    /// The root has no legal move (or none of the `searchmoves`): nothing is searched. The
    /// score is `-MATE` when the side to move is checkmated, 0 when stalemated.
    NoLegalMove {
        /// Score from the side to move.
        score: i32,
    },
}

/// Where search reports go.
pub type ReportSink = Arc<dyn Fn(&SearchReport) + Send + Sync>;

/// What a search found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SearchResult {
    /// The move to play (`None` only when the root has no legal move).
    #[serde(serialize_with = "ser_move")]
    pub best_move: Option<Move>,
    /// The expected reply (second move of the PV), for pondering.
    #[serde(serialize_with = "ser_move")]
    pub ponder_move: Option<Move>,
    /// Score in centipawns from the side to move (mate scores near +/- [`crate::params::MATE`]).
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// The principal variation, including the captures the quiescence search resolved.
    #[serde(serialize_with = "ser_moves")]
    pub pv: Vec<Move>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Tablebase probes that answered (all threads; the root's ranking counts one per move).
    pub tbhits: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// The iteration in which the final best move first became best.
    pub best_found_depth: i32,
    /// Milliseconds after which the final best move first became best.
    pub best_found_ms: u64,
    /// Statistics summed over threads.
    pub stats: SearchStats,
    /// With `MultiPV` above one: the best root moves of the last completed iteration, best
    /// first, each with its score and line (the first is `best_move`, `score` and `pv`).
    pub lines: Vec<RootLine>,
    /// Depth of the iteration that gave `score` and `pv`: `depth`, or the next one when
    /// that iteration was stopped after it had searched a better move (0: no iteration
    /// gave a score; the move is the first legal one).
    #[serde(skip)]
    pub pv_depth: i32,
    /// What `score` is: exact, or a lower bound when the move failed high in the
    /// iteration that was stopped.
    #[serde(skip)]
    pub bound: ScoreBound,
    /// Transposition-table occupancy in permille at the end.
    #[serde(skip)]
    pub hashfull: u32,
    /// Milliseconds the search took, pondering included (the base of the reports' `time_ms`
    /// and `nps`, with `nodes`).
    #[serde(skip)]
    pub clock_ms: u64,
}

impl SearchResult {
    /// The line of the move to play: the PV when it starts with `best_move`, else the move
    /// alone, with `ponder_move` as its second move when there is one (empty without a
    /// move).
    pub fn played_line(&self) -> Vec<Move> {
        let Some(best) = self.best_move else {
            return Vec::new();
        };
        let mut line = if self.pv.first() == Some(&best) {
            self.pv.clone()
        } else {
            vec![best]
        };
        if let Some(reply) = self.ponder_move {
            if line.get(1) != Some(&reply) {
                line.truncate(1);
                line.push(reply);
            }
        }
        line
    }

    /// The report of the move to play, for a front end to show as its last line before the
    /// move ([`SearchResult::played_line`] with its score, at `pv_depth`, with the search's
    /// final counts). `None` without a move, or when no iteration gave the move a score
    /// (`pv_depth` 0).
    pub fn final_report(&self) -> Option<IterationReport> {
        let pv = self.played_line();
        if pv.is_empty() || self.pv_depth < 1 {
            return None;
        }
        let nodes = self.nodes;
        Some(IterationReport {
            depth: self.pv_depth,
            seldepth: self.seldepth.max(self.pv_depth as usize),
            score: self.score,
            nodes,
            nps: nodes * 1000 / self.clock_ms.max(1),
            bound: self.bound,
            time_ms: self.clock_ms,
            hashfull: self.hashfull,
            tbhits: self.tbhits,
            lines: vec![RootLine {
                score: self.score,
                pv: pv.clone(),
            }],
            pv,
        })
    }
}

/// One line of a MultiPV search: a root move's score and principal variation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RootLine {
    /// Score in centipawns from the side to move.
    pub score: i32,
    /// The line, starting with the root move.
    #[serde(serialize_with = "ser_moves")]
    pub pv: Vec<Move>,
}

fn ser_move<S: serde::Serializer>(mv: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match mv {
        Some(m) => s.serialize_str(&m.to_string()),
        None => s.serialize_none(),
    }
}

fn ser_moves<S: serde::Serializer>(mvs: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(mvs.iter().map(|m| m.to_string()))
}

/// What [`super::Engine::quiesce`] found.
#[derive(Clone, Debug)]
pub struct QuiesceResult {
    /// Score from the side to move.
    pub score: i32,
    /// The quiescence line.
    pub pv: Vec<Move>,
    /// Statistics of this quiescence search.
    pub stats: SearchStats,
    /// The recorded tree (empty unless tracing was asked for).
    pub trace: Vec<QTrace>,
    /// Whether the trace was cut at its limit.
    pub truncated: bool,
}

//! Playing strength below Lull's best: `Skill Level` (0–20) and `UCI_LimitStrength` with
//! `UCI_Elo`, as players know them from Stockfish. The mechanism weakens the play in two
//! principled ways and never by a random move:
//!
//! - a **node budget** that grows geometrically with the level
//!   ([`params::SKILL_BASE_NODES`] × [`params::SKILL_NODE_GROWTH`]^level): a lower level sees
//!   less deep, so it misses what lies further ahead;
//! - a **softmax choice among the search's best lines**: the search runs with at least
//!   [`params::SKILL_MULTIPV`] lines, and the move is drawn among them with weights
//!   `exp((score − best) / T)`, the temperature `T` falling with the level. Lines more than
//!   [`max_loss`] below the best, and lines the search sees losing to a mate (unless every line
//!   does), are never chosen: a weak level plays a plausible second-best move, never a king
//!   walk into a mate.
//!
//! Level 20 (and `UCI_LimitStrength` false with `Skill Level` 20) is the full search,
//! unchanged. `UCI_Elo` maps onto the levels that matches against Stockfish 15.1 at its own
//! `UCI_Elo` settings and Glaurung 2.2 measured ([`elo_to_level`], docs/strength-levels.md);
//! its range is the range they measured.

use cozy_chess::Move;

use crate::params::{self, MATE_BOUND};
use crate::position::Position;
use crate::search::{Engine, RootLine, SearchResult};
use crate::time::Limits;

/// The highest level: the full search.
pub const MAX_LEVEL: i64 = 20;

/// The strength settings of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `UCI_LimitStrength`: `elo` decides the level.
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: i64,
    /// `Skill Level`, 0–20 (used when `limit` is off).
    pub level: i64,
}

impl Default for Strength {
    fn default() -> Self {
        Self {
            limit: false,
            elo: params::SKILL_ELO_MAX,
            level: MAX_LEVEL,
        }
    }
}

impl Strength {
    /// The level to play at, `None` for full strength.
    pub fn level(&self) -> Option<f64> {
        if self.limit {
            Some(elo_to_level(self.elo))
        } else if self.level < MAX_LEVEL {
            Some(self.level.clamp(0, MAX_LEVEL) as f64)
        } else {
            None
        }
    }
}

/// The level of a `UCI_Elo`: linear between the measured levels of
/// [`params::SKILL_LEVEL_ELO`], clamped to their range.
pub fn elo_to_level(elo: i64) -> f64 {
    let points = params::SKILL_LEVEL_ELO;
    let elo = elo.clamp(params::SKILL_ELO_MIN, params::SKILL_ELO_MAX);
    for pair in points.windows(2) {
        let ((lo_level, lo_elo), (hi_level, hi_elo)) = (pair[0], pair[1]);
        if elo <= hi_elo {
            let t = (elo - lo_elo) as f64 / (hi_elo - lo_elo) as f64;
            return lo_level + t * (hi_level - lo_level);
        }
    }
    points[points.len() - 1].0
}

/// Nodes a search at this level may spend.
pub fn node_budget(level: f64) -> u64 {
    (params::SKILL_BASE_NODES as f64 * params::SKILL_NODE_GROWTH.powf(level)).round() as u64
}

/// The softmax temperature at this level, in centipawns: quadratic in the weakness, so that
/// the high levels stay close to the full search and the low ones spread widely.
pub fn temperature(level: f64) -> f64 {
    let weakness = 1.0 - level / MAX_LEVEL as f64;
    params::SKILL_TEMPERATURE_MIN
        + (params::SKILL_TEMPERATURE_MAX - params::SKILL_TEMPERATURE_MIN) * weakness * weakness
}

/// How far below the best line a chosen line may score at this level, in centipawns.
pub fn max_loss(level: f64) -> i32 {
    let weakness = 1.0 - level / MAX_LEVEL as f64;
    (params::SKILL_MAX_LOSS_MIN as f64
        + (params::SKILL_MAX_LOSS_MAX - params::SKILL_MAX_LOSS_MIN) as f64 * weakness)
        .round() as i32
}

/// SplitMix64: a seeded, reproducible stream of numbers.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The index of the line to play among `lines` (best first or not) at `level`, drawn with
/// `seed`: softmax over the lines that are allowed (see the module comment).
pub fn choose(lines: &[RootLine], level: f64, seed: u64) -> usize {
    let Some(best) = lines.iter().map(|l| l.score).max() else {
        return 0;
    };
    let any_safe = lines.iter().any(|l| l.score > -MATE_BOUND);
    let floor = best.saturating_sub(max_loss(level));
    let t = temperature(level);
    let weights: Vec<f64> = lines
        .iter()
        .map(|l| {
            let allowed = l.score >= floor && (l.score > -MATE_BOUND || !any_safe);
            if allowed && !l.pv.is_empty() {
                (f64::from(l.score - best) / t).exp()
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let best_index = lines.iter().position(|l| l.score == best).unwrap_or(0);
    if total.is_nan() || total <= 0.0 {
        return best_index;
    }
    let mut state = seed;
    let r = (splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if r < acc && *w > 0.0 {
            return i;
        }
    }
    best_index
}

/// The seed of the choice in a position at a level: the same position at the same level
/// gives the same move (reproducible games and tests); different positions vary.
pub fn seed(pos: &Position, level: f64) -> u64 {
    pos.hash() ^ ((level * 1000.0) as u64).wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// Searches `pos` as [`Engine::search_keep_flags`] does, at `level` (`None`: full strength,
/// the search unchanged). With a level, the search runs with at least
/// [`params::SKILL_MULTIPV`] lines and, unless it is pondering or infinite, within the
/// level's node budget; the move is then chosen among the lines (not for `go infinite`,
/// which is analysis). The engine's `MultiPV` is restored afterwards.
pub fn search(
    engine: &mut Engine,
    pos: &Position,
    limits: &Limits,
    searchmoves: &[Move],
    level: Option<f64>,
) -> SearchResult {
    let Some(level) = level else {
        return engine.search_keep_flags(pos, limits, searchmoves);
    };
    let multipv = engine.options.multipv;
    engine.options.multipv = multipv.max(params::SKILL_MULTIPV);
    let mut limits = limits.clone();
    if !limits.ponder && !limits.infinite {
        let budget = node_budget(level);
        limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
    }
    let mut result = engine.search_keep_flags(pos, &limits, searchmoves);
    engine.options.multipv = multipv;
    if limits.infinite || result.lines.is_empty() {
        return result;
    }
    let chosen = &result.lines[choose(&result.lines, level, seed(pos, level))];
    if let Some(&mv) = chosen.pv.first() {
        result.best_move = Some(mv);
        result.score = chosen.score;
        result.ponder_move = chosen.pv.get(1).copied();
        result.pv = chosen.pv.clone();
        // A line of the last completed iteration.
        result.pv_depth = result.depth;
        result.bound = crate::search::ScoreBound::Exact;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(score: i32, mv: &str) -> RootLine {
        RootLine {
            score,
            pv: vec![mv.parse().unwrap()],
        }
    }

    #[test]
    fn lower_levels_search_less_and_choose_more_freely() {
        for level in 0..20 {
            let (l, n) = (f64::from(level), f64::from(level + 1));
            assert!(node_budget(l) < node_budget(n));
            assert!(temperature(l) > temperature(n));
            assert!(max_loss(l) >= max_loss(n));
        }
        assert_eq!(Strength::default().level(), None);
        let s = Strength {
            limit: true,
            ..Strength::default()
        };
        let (weakest, strongest) = (
            params::SKILL_LEVEL_ELO[0],
            params::SKILL_LEVEL_ELO[params::SKILL_LEVEL_ELO.len() - 1],
        );
        assert_eq!(s.level(), Some(strongest.0));
        let s = Strength {
            limit: true,
            elo: params::SKILL_ELO_MIN,
            level: 20,
        };
        assert_eq!(s.level(), Some(weakest.0));
        // Outside the measured range: its ends.
        assert_eq!(elo_to_level(weakest.1 - 500), weakest.0);
        assert_eq!(elo_to_level(strongest.1 + 500), strongest.0);
    }

    #[test]
    fn a_level_cut_short_by_its_budget_plays_the_mate_it_found() {
        // Rd8# on the board. At levels 5 and 10 the node budget stops the search inside an
        // iteration; the move of that unfinished iteration must be at least as good as the
        // last finished one's (the best so far is searched first, not the TT move of the
        // last MultiPV line).
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let mate: Move = "d1d8".parse().unwrap();
        for level in [0.0, 5.0, 10.0, 15.0] {
            let mut engine = Engine::new(16);
            let r = search(&mut engine, &pos, &Limits::depth(12), &[], Some(level));
            assert_eq!(r.best_move, Some(mate), "level {level}: {r:?}");
            assert!(r.score >= MATE_BOUND, "level {level}: {}", r.score);
        }
    }

    #[test]
    fn a_mated_line_is_never_chosen_when_another_holds() {
        let lines = [line(-30, "e2e4"), line(-(MATE_BOUND + 5), "g1h3")];
        for seed in 0..500 {
            assert_eq!(choose(&lines, 0.0, seed), 0);
        }
        // Every line mated: the least bad is still a legal answer.
        let lost = [
            line(-(MATE_BOUND + 9), "e2e4"),
            line(-(MATE_BOUND + 3), "d2d4"),
        ];
        assert!(choose(&lost, 0.0, 1) < 2);
    }

    #[test]
    fn level_0_spreads_its_choices_and_level_19_keeps_to_the_best() {
        let lines = [
            line(40, "e2e4"),
            line(25, "d2d4"),
            line(0, "g1f3"),
            line(-20, "c2c4"),
        ];
        let count = |level: f64| -> usize {
            (0..2000u64)
                .filter(|&s| choose(&lines, level, s.wrapping_mul(0x9e37)) != 0)
                .count()
        };
        let (weak, strong) = (count(0.0), count(19.0));
        assert!(
            weak > 800,
            "level 0 left the best line {weak} times of 2000"
        );
        assert!(strong < weak / 2, "level 19 {strong}, level 0 {weak}");
        // Lines far below the best are out of reach even at level 0.
        let far = [line(300, "e2e4"), line(300 - max_loss(0.0) - 1, "d2d4")];
        assert!((0..500).all(|s| choose(&far, 0.0, s) == 0));
    }
}

//! The checks of what `lull report --replot` reads back from data.json before anything is
//! drawn: every number a figure plots or a claim quotes must be one a measurement can give.
//! A file edited or damaged in place could otherwise hold a time of 1e308 ms, whose doubled
//! axis end is infinite (the plotting crate's logarithmic axis then loops for ever), a node
//! budget of 0 on a logarithmic axis, a percentage of 1e308 or a depth of 2^31. Each value out
//! of its range is an error that names the field, the option set and the value.

use super::measure::{MeasureConfig, VariantMeasure};
use crate::params::MAX_DEPTH;

/// Largest data.json read, in bytes (the measured one is about 230 KB): a larger file is
/// refused before it is read whole.
pub const MAX_DATA_JSON_BYTES: u64 = 64 << 20;
/// Largest node count believed (a sum over the bench positions): 10^15, a month at 400 M
/// nodes per second.
pub const MAX_NODES: u64 = 1_000_000_000_000_000;
/// Largest time believed, in milliseconds (a sum over the bench positions): 10^10, about
/// 115 days.
pub const MAX_TIME_MS: f64 = 1e10;
/// Smallest time above zero believed, in milliseconds: a nanosecond.
pub const MIN_TIME_MS: f64 = 1e-6;
/// Largest number of positions believed (WAC has 300, the bench fewer).
pub const MAX_POSITIONS: usize = 1_000_000;

/// `what = value` is out of `range`: the error, for a file edited or damaged in place.
fn out_of_range(what: &str, value: impl std::fmt::Display, range: &str) -> String {
    format!(
        "{what} = {value} is out of range ({range}): the file was changed or damaged; \
         run `lull report` again to measure"
    )
}

/// A float as people read it: `4.73`, `1e308` (not 309 digits), `1e-300`.
fn float(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-4..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

fn count(what: &str, n: u64) -> Result<(), String> {
    if n > MAX_NODES {
        return Err(out_of_range(what, n, &format!("0 to {MAX_NODES}")));
    }
    Ok(())
}

fn percent(what: &str, v: f64) -> Result<(), String> {
    if !(v.is_finite() && (0.0..=100.0).contains(&v)) {
        return Err(out_of_range(what, float(v), "0 to 100 %"));
    }
    Ok(())
}

/// Checks the measurements of one evaluation (`key`: `measures` or `nnue_measures`).
pub fn check_measures(key: &str, measures: &[VariantMeasure]) -> Result<(), String> {
    for (i, m) in measures.iter().enumerate() {
        let at = |field: String| format!("{key}[{i}] ({}): {field}", m.variant.key);
        for (j, d) in m.depths.iter().enumerate() {
            if !(1..=MAX_DEPTH).contains(&d.depth) {
                return Err(out_of_range(
                    &at(format!("depths[{j}].depth")),
                    d.depth,
                    &format!("1 to {MAX_DEPTH} plies"),
                ));
            }
            count(&at(format!("depths[{j}].nodes")), d.nodes)?;
            count(&at(format!("depths[{j}].qnodes")), d.qnodes)?;
            if d.qnodes > d.nodes {
                return Err(out_of_range(
                    &at(format!("depths[{j}].qnodes")),
                    d.qnodes,
                    &format!("at most the {} nodes", d.nodes),
                ));
            }
            let t = d.time_ms;
            if !(t == 0.0 || (MIN_TIME_MS..=MAX_TIME_MS).contains(&t)) {
                return Err(out_of_range(
                    &at(format!("depths[{j}].time_ms")),
                    float(t),
                    &format!("0, or {MIN_TIME_MS:e} to {MAX_TIME_MS:e} ms"),
                ));
            }
        }
        for (j, p) in m.positions.iter().enumerate() {
            count(&at(format!("positions[{j}].nodes")), p.nodes)?;
            percent(&at(format!("positions[{j}].qnode_share")), p.qnode_share)?;
            percent(
                &at(format!("positions[{j}].standpat_rate")),
                p.standpat_rate,
            )?;
        }
        for (j, w) in m.wac.iter().enumerate() {
            if w.nodes == 0 || w.nodes > MAX_NODES {
                return Err(out_of_range(
                    &at(format!("wac[{j}].nodes")),
                    w.nodes,
                    &format!("1 to {MAX_NODES}"),
                ));
            }
            if w.total == 0 || w.total > MAX_POSITIONS {
                return Err(out_of_range(
                    &at(format!("wac[{j}].total")),
                    w.total,
                    &format!("1 to {MAX_POSITIONS}"),
                ));
            }
            if w.solved > w.total {
                return Err(out_of_range(
                    &at(format!("wac[{j}].solved")),
                    w.solved,
                    &format!("at most the {} tried", w.total),
                ));
            }
        }
        let s = &m.stats;
        count(&at("stats.qnodes".into()), s.qnodes)?;
        count(&at("stats.main_nodes".into()), s.main_nodes)?;
        let hist = s
            .qply_hist
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n));
        if hist != Some(s.qnodes) {
            return Err(out_of_range(
                &at("stats.qply_hist".into()),
                hist.map_or_else(|| "more than 2^64".to_string(), |h| h.to_string()),
                &format!("its buckets sum to stats.qnodes, {}", s.qnodes),
            ));
        }
    }
    Ok(())
}

/// Checks how the measurements were made, and how long they took.
pub fn check_config(config: &MeasureConfig, elapsed_s: f64) -> Result<(), String> {
    if !(1..=MAX_DEPTH).contains(&config.depth) {
        return Err(out_of_range(
            "config.depth",
            config.depth,
            &format!("1 to {MAX_DEPTH} plies"),
        ));
    }
    for (what, n) in [
        ("config.positions", config.positions),
        ("config.wac_positions", config.wac_positions),
    ] {
        if n > MAX_POSITIONS {
            return Err(out_of_range(what, n, &format!("0 to {MAX_POSITIONS}")));
        }
    }
    for (j, &b) in config.wac_budgets.iter().enumerate() {
        if b == 0 || b > MAX_NODES {
            return Err(out_of_range(
                &format!("config.wac_budgets[{j}]"),
                b,
                &format!("1 to {MAX_NODES}"),
            ));
        }
    }
    if !(elapsed_s.is_finite() && (0.0..=MAX_TIME_MS / 1000.0).contains(&elapsed_s)) {
        return Err(out_of_range(
            "elapsed_s",
            float(elapsed_s),
            &format!("0 to {:e} s", MAX_TIME_MS / 1000.0),
        ));
    }
    Ok(())
}

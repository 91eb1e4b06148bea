//! The figures of the report, drawn by `plotters` into SVG text (its SVG backend only: no
//! font files, no bitmap). Each function returns a [`Figure`]: one self-contained `<svg>`
//! document with its axis labels named, so that the pages and the tests can check them.
//!
//! Every figure that measures the search has one panel per evaluation, side by side on the
//! same axes: the hand-crafted evaluation on the left, the network on the right. Integer axes
//! (depth, q-ply) carry integer ticks only, the minor grid is left out, and the legend sits in
//! a strip of its own under the panels, clear of the data.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::matches::{elo_text, MatchResult};
use super::measure::VariantMeasure;
use crate::search::stats::QPLY_BUCKETS;

/// Width of one panel, in pixels.
const PANEL_W: u32 = 620;
/// Height of the panels, in pixels (the legend strip comes under it).
const PANEL_H: u32 = 440;
/// Height of one row of the legend strip.
const LEGEND_ROW: u32 = 22;
/// Legend entries per row.
const LEGEND_COLUMNS: usize = 4;

/// One colour per option set, in the order of [`super::measure::variants`] (the Tableau 10
/// colours, which stay apart for the usual kinds of colour blindness).
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The colour of the `i`-th option set.
pub fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

/// A figure: its SVG text and the labels of its axes (with units).
#[derive(Clone, Debug)]
pub struct Figure {
    /// The SVG document.
    pub svg: String,
    /// The x axis label, as drawn.
    pub x_label: String,
    /// The y axis label, as drawn.
    pub y_label: String,
}

/// One panel: its title (the evaluation) and the measures drawn in it.
pub type Panel<'a> = (&'a str, &'a [VariantMeasure]);

fn err(e: impl std::fmt::Debug) -> String {
    format!("cannot draw a figure: {e:?}")
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Mark {
    /// A line with a dot.
    Line,
    /// A dot.
    Dot,
    /// A pale band (a claimed range).
    Band,
}

/// A legend entry.
type Entry = (String, RGBColor, Mark);

/// The lines of one panel: its title and each series' colour and points.
type LinePanel<'a> = (&'a str, Vec<(RGBColor, Vec<(f64, f64)>)>);

/// Draws `panels` panels side by side and the legend strip under them into a fresh SVG
/// string; `draw` draws panel `i` into its area.
fn svg(
    panels: usize,
    legend: &[Entry],
    mut draw: impl FnMut(usize, &DrawingArea<SVGBackend, Shift>) -> Result<(), String>,
) -> Result<String, String> {
    let panels = panels.max(1);
    let rows = legend.len().div_ceil(LEGEND_COLUMNS) as u32;
    let strip = if rows == 0 { 0 } else { rows * LEGEND_ROW + 12 };
    let size = (PANEL_W * panels as u32, PANEL_H + strip);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (top, bottom) = root.split_vertically(PANEL_H);
        for (i, area) in top.split_evenly((1, panels)).iter().enumerate() {
            draw(i, area)?;
        }
        let col_w = size.0 as i32 / LEGEND_COLUMNS as i32;
        for (k, (label, c, mark)) in legend.iter().enumerate() {
            let x = 16 + col_w * (k % LEGEND_COLUMNS) as i32;
            let y = 10 + LEGEND_ROW as i32 * (k / LEGEND_COLUMNS) as i32 + LEGEND_ROW as i32 / 2;
            match mark {
                Mark::Line => {
                    bottom
                        .draw(&PathElement::new(
                            vec![(x, y), (x + 22, y)],
                            c.stroke_width(2),
                        ))
                        .map_err(err)?;
                    bottom
                        .draw(&Circle::new((x + 11, y), 3, c.filled()))
                        .map_err(err)?;
                }
                Mark::Dot => bottom
                    .draw(&Circle::new((x + 11, y), 4, c.filled()))
                    .map_err(err)?,
                Mark::Band => bottom
                    .draw(&Rectangle::new(
                        [(x, y - 6), (x + 22, y + 6)],
                        c.mix(0.25).filled(),
                    ))
                    .map_err(err)?,
            }
            bottom
                .draw(&Text::new(
                    label.clone(),
                    (x + 30, y - 7),
                    ("sans-serif", 13).into_font(),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// Refuses a logarithmic axis from `lo` to `hi` that cannot be drawn: an end that is not
/// finite or not above zero (the plotting crate's key points never end on one), or more than
/// [`MAX_DECADES`] decades.
fn log_range_ok(caption: &str, lo: f64, hi: f64) -> Result<(), String> {
    let decades = (hi / lo).log10();
    if lo > 0.0 && hi.is_finite() && lo < hi && decades <= MAX_DECADES {
        Ok(())
    } else {
        Err(format!(
            "{caption}: the values cannot be drawn on a logarithmic axis ({lo:e} to {hi:e})"
        ))
    }
}

/// Most decades a logarithmic axis spans (the report's span a few).
const MAX_DECADES: f64 = 40.0;

/// Integer tick labels: `7`, never `7.0`.
fn integer(v: &f64) -> String {
    format!("{:.0}", v)
}

/// A count for a logarithmic axis: `300`, `20k`, `1.5M`.
fn count(v: &f64) -> String {
    let v = *v;
    if v >= 1e6 {
        let m = v / 1e6;
        if (m - m.round()).abs() < 0.05 {
            format!("{:.0}M", m)
        } else {
            format!("{m:.1}M")
        }
    } else if v >= 1e3 {
        format!("{:.0}k", v / 1e3)
    } else if v >= 1.0 {
        format!("{v:.0}")
    } else if v > 0.0 {
        // One significant digit: 0.1, 0.01, 0.001.
        let digits = (-v.log10()).ceil().max(1.0) as usize;
        format!("{v:.digits$}")
    } else {
        "0".to_string()
    }
}

/// How many tick labels to ask for on an integer axis from `lo` to `hi`: never more than the
/// integers in it, so that plotters' steps (1, 2, 5, 10...) stay whole numbers, and at most 13.
fn label_count(lo: i64, hi: i64) -> usize {
    ((hi - lo).max(1) as usize + 1).min(13)
}

/// One series drawn as a line with a dot at each point.
fn marked_line<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    c: RGBColor,
    pts: Vec<(f64, f64)>,
) -> Result<(), String>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let dots: Vec<Circle<(f64, f64), i32>> =
        pts.iter().map(|&p| Circle::new(p, 3, c.filled())).collect();
    chart
        .draw_series(LineSeries::new(pts, c.stroke_width(2)))
        .map_err(err)?;
    chart.draw_series(dots).map_err(err)?;
    Ok(())
}

/// The option sets of the panels as legend entries (the first panel's names and colours).
fn variant_legend(panels: &[Panel<'_>], keep: impl Fn(&VariantMeasure) -> bool) -> Vec<Entry> {
    panels
        .first()
        .map(|(_, ms)| {
            ms.iter()
                .enumerate()
                .filter(|(_, m)| keep(m))
                .map(|(i, m)| (m.variant.label.to_string(), colour(i), Mark::Line))
                .collect()
        })
        .unwrap_or_default()
}

/// Lines on a logarithmic y axis over integer x, one panel per evaluation; each panel's
/// series are `(colour, points)`, points with a value ≤ 0 left out. The y range is shared.
fn log_lines(
    caption: &str,
    x_label: &str,
    y_label: &str,
    x_range: (i64, i64),
    panels: &[LinePanel<'_>],
    legend: &[Entry],
) -> Result<Figure, String> {
    let positive = panels
        .iter()
        .flat_map(|(_, s)| s.iter())
        .flat_map(|(_, p)| p.iter().map(|&(_, y)| y))
        .filter(|&y| y > 0.0);
    let (lo, hi) = positive.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let (lo, hi) = if lo > hi {
        (0.1, 1.0)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    log_range_ok(caption, lo, hi)?;
    let ticks = label_count(x_range.0, x_range.1);
    let svg = svg(panels.len(), legend, |i, area| {
        let (title, series) = &panels[i];
        let mut chart = ChartBuilder::on(area)
            .caption(format!("{caption}: {title}"), ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(x_range.0 as f64..x_range.1 as f64, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .max_light_lines(0)
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .x_labels(ticks)
            .x_label_formatter(&integer)
            .y_label_formatter(&count)
            .x_desc(x_label)
            .y_desc(y_label)
            .draw()
            .map_err(err)?;
        for (c, points) in series {
            let pts: Vec<(f64, f64)> = points.iter().copied().filter(|&(_, y)| y > 0.0).collect();
            marked_line(&mut chart, *c, pts)?;
        }
        Ok(())
    })?;
    Ok(Figure {
        svg,
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
    })
}

/// The share of quiescence nodes at each q-ply, one line per option set (log scale), one
/// panel per evaluation.
pub fn qply_histogram(panels: &[Panel<'_>]) -> Result<Figure, String> {
    let data: Vec<LinePanel<'_>> = panels
        .iter()
        .map(|(title, ms)| {
            let series = ms
                .iter()
                .enumerate()
                .filter(|(_, m)| m.stats.qnodes > 0)
                .map(|(i, m)| {
                    let q = m.stats.qnodes as f64;
                    let pts = (0..QPLY_BUCKETS)
                        .map(|p| (p as f64, 100.0 * m.stats.qply_hist[p] as f64 / q))
                        .collect();
                    (colour(i), pts)
                })
                .collect();
            (*title, series)
        })
        .collect();
    log_lines(
        "Quiescence nodes per q-ply",
        &format!(
            "q-ply (plies past the horizon; {} = all deeper)",
            QPLY_BUCKETS - 1
        ),
        "share of quiescence nodes (%, log scale)",
        (0, QPLY_BUCKETS as i64 - 1),
        &data,
        &variant_legend(panels, |m| m.stats.qnodes > 0),
    )
}

/// Nodes (`time == false`) or milliseconds to each depth, one line per option set, one panel
/// per evaluation.
pub fn to_depth(panels: &[Panel<'_>], time: bool) -> Result<Figure, String> {
    let max_depth = panels
        .iter()
        .flat_map(|(_, ms)| ms.iter())
        .flat_map(|m| m.depths.iter().map(|d| d.depth))
        .max()
        .unwrap_or(1);
    let data: Vec<LinePanel<'_>> = panels
        .iter()
        .map(|(title, ms)| {
            let series = ms
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let pts = m
                        .depths
                        .iter()
                        .map(|d| {
                            let y = if time { d.time_ms } else { d.nodes as f64 };
                            (d.depth as f64, y)
                        })
                        .collect();
                    (colour(i), pts)
                })
                .collect();
            (*title, series)
        })
        .collect();
    let (caption, y_label) = if time {
        (
            "Time to depth",
            "time, sum over the bench positions (ms, log scale)",
        )
    } else {
        (
            "Nodes to depth",
            "nodes, sum over the bench positions (log scale)",
        )
    };
    log_lines(
        caption,
        "depth (plies)",
        y_label,
        (1, max_depth.max(2) as i64),
        &data,
        &variant_legend(panels, |_| true),
    )
}

/// The q-node share and the stand-pat cut rate of each bench position (default settings),
/// over the ranges the literature gives (shaded), one panel per evaluation.
pub fn bench_positions(panels: &[(&str, &VariantMeasure)]) -> Result<Figure, String> {
    let n = panels
        .iter()
        .map(|(_, m)| m.positions.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let share = colour(0);
    let standpat = colour(3);
    let bands = [
        (50.0, 90.0, share, "q-node share, CPW: 50–90 %"),
        (30.0, 50.0, colour(2), "q-node share, ChessML: 30–50 %"),
        (40.0, 60.0, standpat, "stand pat, quoted: 40–60 %"),
    ];
    let mut legend: Vec<Entry> = vec![
        ("q-node share".to_string(), share, Mark::Dot),
        ("stand-pat cut rate".to_string(), standpat, Mark::Dot),
    ];
    legend.extend(
        bands
            .iter()
            .map(|(_, _, c, label)| (label.to_string(), *c, Mark::Band)),
    );
    let x_label = "bench position (1–8 openings, 9–20 middlegames, 21–36 WAC, 37– endgames)";
    let y_label = "% (q-nodes of all nodes; stand-pat cuts of the q-nodes that reached it)";
    let ticks = label_count(1, n as i64);
    let svg = svg(panels.len(), &legend, |i, area| {
        let (title, m) = panels[i];
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!("Q-node share and stand-pat rate per position: {title}"),
                ("sans-serif", 17),
            )
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5..n as f64 + 0.5, 0.0..100.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .max_light_lines(0)
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 13))
            .x_labels(ticks)
            .y_labels(6)
            .x_label_formatter(&integer)
            .y_label_formatter(&integer)
            .x_desc(x_label)
            .y_desc(y_label)
            .draw()
            .map_err(err)?;
        for (lo, hi, c, _) in bands {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(0.5, lo), (n as f64 + 0.5, hi)],
                    c.mix(0.08).filled(),
                )))
                .map_err(err)?;
        }
        for (c, pick) in [(share, 0usize), (standpat, 1)] {
            let pts: Vec<(f64, f64)> = m
                .positions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let y = if pick == 0 {
                        p.qnode_share
                    } else {
                        p.standpat_rate
                    };
                    ((i + 1) as f64, y)
                })
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(1)))
                .map_err(err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(err)?;
        }
        Ok(())
    })?;
    Ok(Figure {
        svg,
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
    })
}

/// WAC positions solved (percent) against the node budget, one line per option set, one
/// panel per evaluation. The budgets are the x ticks.
pub fn wac_budget(panels: &[Panel<'_>]) -> Result<Figure, String> {
    let mut budgets: Vec<f64> = panels
        .iter()
        .flat_map(|(_, ms)| ms.iter())
        .flat_map(|m| m.wac.iter().map(|w| w.nodes as f64))
        .collect();
    budgets.sort_by(f64::total_cmp);
    budgets.dedup();
    let (lo, hi) = match (budgets.first(), budgets.last()) {
        (Some(&a), Some(&b)) => (a / 1.5, b * 1.5),
        _ => (1e3, 1e6),
    };
    log_range_ok("Win At Chess solved against the node budget", lo, hi)?;
    let total = panels
        .iter()
        .flat_map(|(_, ms)| ms.iter())
        .flat_map(|m| m.wac.first().map(|w| w.total))
        .next()
        .unwrap_or(0);
    let x_label = "node budget per position (nodes, log scale)";
    let y_label = format!("WAC positions solved (% of {total})");
    let svg = svg(
        panels.len(),
        &variant_legend(panels, |_| true),
        |i, area| {
            let (title, ms) = panels[i];
            let mut chart = ChartBuilder::on(area)
                .caption(
                    format!("Win At Chess solved against the node budget: {title}"),
                    ("sans-serif", 17),
                )
                .margin(12)
                .x_label_area_size(44)
                .y_label_area_size(56)
                .build_cartesian_2d((lo..hi).log_scale(), 0.0..100.0)
                .map_err(err)?;
            chart
                .configure_mesh()
                .max_light_lines(0)
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 14))
                // The budgets' own ticks are drawn below (plotters' log key points miss them);
                // plotters' own x labels stay empty.
                .x_labels(0)
                .x_label_formatter(&|_| String::new())
                .y_labels(6)
                .y_label_formatter(&integer)
                .x_desc(x_label)
                .y_desc(&y_label)
                .draw()
                .map_err(err)?;
            let base = area.get_base_pixel();
            let style = TextStyle::from(("sans-serif", 13).into_font())
                .pos(Pos::new(HPos::Center, VPos::Top));
            for &b in &budgets {
                let (x, y) = chart.backend_coord(&(b, 0.0));
                let (x, y) = (x - base.0, y - base.1);
                area.draw(&PathElement::new(vec![(x, y), (x, y + 5)], BLACK))
                    .map_err(err)?;
                area.draw(&Text::new(count(&b), (x, y + 8), style.clone()))
                    .map_err(err)?;
            }
            for (k, m) in ms.iter().enumerate() {
                let pts: Vec<(f64, f64)> = m
                    .wac
                    .iter()
                    .map(|w| {
                        (
                            w.nodes as f64,
                            100.0 * w.solved as f64 / w.total.max(1) as f64,
                        )
                    })
                    .collect();
                marked_line(&mut chart, colour(k), pts)?;
            }
            Ok(())
        },
    )?;
    Ok(Figure {
        svg,
        x_label: x_label.to_string(),
        y_label,
    })
}

/// The Elo of each variant against the default, with its 95 % interval (pentanomial) written
/// beside it, one row per match, one panel per evaluation (a panel without stored matches
/// says so); open ends are drawn to the edge of the panel.
pub fn elo(
    panels: &[(&str, &[MatchResult])],
    labels: &[(String, usize)],
) -> Result<Figure, String> {
    let all: Vec<_> = panels
        .iter()
        .flat_map(|(_, ms)| ms.iter())
        .filter_map(|m| m.pentanomial.or(m.trinomial))
        .collect();
    let finite = all
        .iter()
        .flat_map(|e| [e.lo, e.hi, e.elo])
        .filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    // Room on the left for the names, on the right for the values.
    let span = (hi - lo).max(100.0);
    let (lo, hi) = (lo - 0.45 * span, hi + 0.45 * span);
    let x_label = "Elo, variant minus default (95 % interval, game pairs)";
    let y_label = "variant (games played)";
    let ticks: Vec<f64> = {
        let step = [25.0, 50.0, 100.0, 200.0, 500.0]
            .into_iter()
            .find(|s| (hi - lo) / s <= 10.0)
            .unwrap_or(1000.0);
        let first = (lo / step).ceil() as i64;
        let last = (hi / step).floor() as i64;
        (first..=last).map(|k| k as f64 * step).collect()
    };
    let svg = svg(panels.len(), &[], |i, area| {
        let (title, matches) = panels[i];
        let rows: Vec<_> = matches
            .iter()
            .filter_map(|m| m.pentanomial.or(m.trinomial).map(|e| (m, e)))
            .collect();
        let n = rows.len().max(1) as f64;
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!("Elo against the default: {title}"),
                ("sans-serif", 17),
            )
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(24)
            .build_cartesian_2d(lo..hi, -0.5..n - 0.5)
            .map_err(err)?;
        chart
            .configure_mesh()
            .max_light_lines(0)
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(ticks.len().max(2))
            .x_label_formatter(&integer)
            .x_desc(x_label)
            .y_desc(y_label)
            .draw()
            .map_err(err)?;
        if rows.is_empty() {
            chart
                .draw_series(std::iter::once(Text::new(
                    "no stored matches with this evaluation".to_string(),
                    (lo + (hi - lo) * 0.05, 0.0),
                    ("sans-serif", 15).into_font(),
                )))
                .map_err(err)?;
            return Ok(());
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, -0.5), (0.0, n - 0.5)],
                BLACK.stroke_width(1),
            )))
            .map_err(err)?;
        for (row, (m, e)) in rows.iter().enumerate() {
            let y = n - 1.0 - row as f64;
            let ci = labels
                .iter()
                .find(|(k, _)| *k == m.name)
                .map_or(row + 1, |(_, i)| *i);
            let c = colour(ci);
            let clamp = |v: f64| v.clamp(lo, hi);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(clamp(e.lo), y), (clamp(e.hi), y)],
                    c.stroke_width(3),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (clamp(e.elo), y),
                    6,
                    c.filled(),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{} ({} games)", m.name, m.games()),
                    (lo + (hi - lo) * 0.01, y + 0.38),
                    ("sans-serif", 13).into_font(),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!(
                        "{} [{}, {}]",
                        elo_text(e.elo),
                        elo_text(e.lo),
                        elo_text(e.hi)
                    ),
                    (clamp(e.hi) + (hi - lo) * 0.015, y + 0.12),
                    ("sans-serif", 13).into_font(),
                )))
                .map_err(err)?;
        }
        Ok(())
    })?;
    Ok(Figure {
        svg,
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_counts_and_count_labels() {
        assert_eq!(label_count(1, 12), 12);
        assert_eq!(label_count(0, 15), 13);
        assert_eq!(label_count(1, 1), 2);
        assert_eq!(integer(&7.0), "7");
        assert_eq!(count(&30_000.0), "30k");
        assert_eq!(count(&2_000_000.0), "2M");
        assert_eq!(count(&1_500_000.0), "1.5M");
        assert_eq!(count(&300.0), "300");
        assert_eq!(count(&0.1), "0.1");
        assert_eq!(count(&0.01), "0.01");
        assert_eq!(count(&0.001), "0.001");
    }

    /// The logarithmic axes refuse what they cannot draw (an infinite end looped for ever in
    /// the plotting crate) instead of drawing it.
    #[test]
    fn a_logarithmic_axis_refuses_ends_it_cannot_draw() {
        assert!(log_range_ok("t", 0.5, 2e8).is_ok());
        for (lo, hi) in [
            (0.5, f64::INFINITY),
            (0.0, 10.0),
            (-1.0, 10.0),
            (5.0, 5.0),
            (f64::NAN, 1.0),
            (1e-300, 1.0),
        ] {
            let e = log_range_ok("Time to depth", lo, hi).unwrap_err();
            assert!(
                e.starts_with("Time to depth: the values cannot be drawn"),
                "{e}"
            );
        }
    }
}

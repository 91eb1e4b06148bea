//! The figures of the report, drawn by `plotters` into SVG text (its SVG backend only: no
//! font files, no bitmap). Each function returns one self-contained `<svg>` document.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::matches::MatchResult;
use super::measure::VariantMeasure;
use crate::search::stats::QPLY_BUCKETS;

/// Size of every figure, in pixels.
const SIZE: (u32, u32) = (820, 460);

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

fn err(e: impl std::fmt::Debug) -> String {
    format!("cannot draw a figure: {e:?}")
}

/// Draws into a fresh SVG string with a white background.
fn svg(
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<(), String>,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// One line of a figure: its label, colour and points.
type Series = (String, RGBColor, Vec<(f64, f64)>);

/// The legend box of a chart's labelled series, at `at`.
fn legend<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    at: SeriesLabelPosition,
) -> Result<(), String>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)
}

/// One series drawn as a line with a dot at each point, with its legend entry.
fn marked_line<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    label: &str,
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
        .map_err(err)?
        .label(label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
    chart.draw_series(dots).map_err(err)?;
    Ok(())
}

/// Lines on a logarithmic y axis, one per series `(label, colour, points)`; points with a
/// value ≤ 0 are left out.
fn log_lines(
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    x_range: (f64, f64),
    series: &[Series],
) -> Result<String, String> {
    let positive = series
        .iter()
        .flat_map(|(_, _, p)| p.iter().map(|&(_, y)| y))
        .filter(|&y| y > 0.0);
    let (lo, hi) = positive.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let (lo, hi) = if lo > hi {
        (0.1, 1.0)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x_range.0..x_range.1, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        for (label, c, points) in series {
            let pts: Vec<(f64, f64)> = points.iter().copied().filter(|&(_, y)| y > 0.0).collect();
            let c = *c;
            marked_line(&mut chart, label, c, pts)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}

/// The share of quiescence nodes at each q-ply, one line per option set (log scale).
pub fn qply_histogram(measures: &[VariantMeasure]) -> Result<String, String> {
    let series: Vec<Series> = measures
        .iter()
        .enumerate()
        .filter(|(_, m)| m.stats.qnodes > 0)
        .map(|(i, m)| {
            let q = m.stats.qnodes as f64;
            let pts = (0..QPLY_BUCKETS)
                .map(|p| (p as f64, 100.0 * m.stats.qply_hist[p] as f64 / q))
                .collect();
            (m.variant.label.to_string(), colour(i), pts)
        })
        .collect();
    log_lines(
        "Quiescence nodes per q-ply (bench positions, deepest depth)",
        "q-ply (the last bucket holds all deeper ones)",
        "% of quiescence nodes",
        (0.0, (QPLY_BUCKETS - 1) as f64),
        &series,
    )
}

/// Nodes (`time == false`) or milliseconds to each depth, one line per option set.
pub fn to_depth(measures: &[VariantMeasure], time: bool) -> Result<String, String> {
    let max_depth = measures
        .iter()
        .flat_map(|m| m.depths.iter().map(|d| d.depth))
        .max()
        .unwrap_or(1);
    let series: Vec<Series> = measures
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
            (m.variant.label.to_string(), colour(i), pts)
        })
        .collect();
    let (caption, y_desc) = if time {
        (
            "Time to depth (sum over the bench positions)",
            "milliseconds",
        )
    } else {
        ("Nodes to depth (sum over the bench positions)", "nodes")
    };
    log_lines(
        caption,
        "depth",
        y_desc,
        (1.0, max_depth.max(2) as f64),
        &series,
    )
}

/// The q-node share and the stand-pat cut rate of each bench position (default settings),
/// over the ranges the literature gives (shaded).
pub fn bench_positions(m: &VariantMeasure) -> Result<String, String> {
    let n = m.positions.len().max(1) as f64;
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Q-node share and stand-pat cut rate per bench position (default)",
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.5..n + 0.5, 0.0..100.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .x_desc("bench position (1-8 openings, 9-20 middlegames, 21-36 WAC, 37- endgames)")
            .y_desc("%")
            .draw()
            .map_err(err)?;
        let share = colour(0);
        let standpat = colour(3);
        // The claims: q-nodes 50-90 % (CPW) and 30-50 % (ChessML), stand pat 40-60 %.
        for (lo, hi, c, label) in [
            (50.0, 90.0, share, "q-node share, CPW 50-90 %"),
            (30.0, 50.0, colour(2), "q-node share, ChessML 30-50 %"),
            (40.0, 60.0, standpat, "stand pat, 40-60 %"),
        ] {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(0.5, lo), (n + 0.5, hi)],
                    c.mix(0.08).filled(),
                )))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 18, y + 5)], c.mix(0.25).filled())
                });
        }
        for (c, label, pick) in [
            (share, "q-node share", 0usize),
            (standpat, "stand-pat cut rate", 1),
        ] {
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
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| Circle::new((x + 9, y), 4, c.filled()));
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

/// WAC positions solved (percent) against the node budget, one line per option set.
pub fn wac_budget(measures: &[VariantMeasure]) -> Result<String, String> {
    let budgets: Vec<f64> = measures
        .iter()
        .flat_map(|m| m.wac.iter().map(|w| w.nodes as f64))
        .collect();
    let lo = budgets.iter().copied().fold(f64::MAX, f64::min);
    let hi = budgets.iter().copied().fold(f64::MIN, f64::max);
    let (lo, hi) = if lo > hi {
        (1e3, 1e6)
    } else {
        (lo / 1.5, hi * 1.5)
    };
    let total = measures
        .iter()
        .flat_map(|m| m.wac.first().map(|w| w.total))
        .next()
        .unwrap_or(0);
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("Win At Chess solved against nodes per position ({total} positions)"),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d((lo..hi).log_scale(), 0.0..100.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .x_labels(4)
            .x_label_formatter(&|x| format!("{:.0}k", x / 1000.0))
            .x_desc("nodes per position")
            .y_desc("% solved")
            .draw()
            .map_err(err)?;
        for (i, m) in measures.iter().enumerate() {
            let c = colour(i);
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
            marked_line(&mut chart, m.variant.label, c, pts)?;
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

/// The Elo of each variant against the default, with its 95 % interval (pentanomial), one
/// row per match; open ends are drawn to the edge of the figure.
pub fn elo(matches: &[MatchResult], labels: &[(String, usize)]) -> Result<String, String> {
    let rows: Vec<_> = matches
        .iter()
        .filter_map(|m| m.pentanomial.or(m.trinomial).map(|e| (m, e)))
        .collect();
    let finite = rows
        .iter()
        .flat_map(|(_, e)| [e.lo, e.hi, e.elo])
        .filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = (lo - 40.0, hi + 40.0);
    let n = rows.len().max(1) as f64;
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Elo of each variant against the default (95 % interval, game pairs)",
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(10)
            .build_cartesian_2d(lo..hi, -0.5..n - 0.5)
            .map_err(err)?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .disable_y_mesh()
            .y_labels(0)
            .x_desc("Elo (variant minus default)")
            .draw()
            .map_err(err)?;
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
                    (lo + (hi - lo) * 0.01, y + 0.3),
                    ("sans-serif", 14).into_font(),
                )))
                .map_err(err)?;
        }
        Ok(())
    })
}

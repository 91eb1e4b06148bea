//! The report's second edition, on a tiny configuration: both evaluations side by side in
//! every claim row and every figure, axis labels with units drawn in every figure, integer
//! ticks, the legend in a strip under the panels (clear of the data), values written on the
//! Elo intervals, and an NNUE column that holds numbers.

use crate::common::temp_file_of;
use lull::tools::teaching::report::measure::MeasureConfig;
use lull::tools::teaching::report::{collect_with, reload, write_report, CollectOptions};

/// A stored match of two pairs: the variant scores 1 of 4 points (+190.8 Elo for the
/// default by the claim's sign).
const QSEARCH_OFF_PGN: &str = "[Event \"t\"]\n[Round \"1.1\"]\n[White \"qsearch-off\"]\n\
[Black \"default\"]\n[Result \"0-1\"]\n[TimeControl \"movetime 30 ms\"]\n\n1. e4 0-1\n\n\
[Round \"1.2\"]\n[White \"default\"]\n[Black \"qsearch-off\"]\n[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n\n\
[Round \"2.1\"]\n[White \"qsearch-off\"]\n[Black \"default\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n\
[Round \"2.2\"]\n[White \"default\"]\n[Black \"qsearch-off\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n";

/// The height of the panels in every figure (plots::PANEL_H): the legend strip lies below.
const PANEL_H: f64 = 440.0;

fn tiny() -> MeasureConfig {
    MeasureConfig {
        depth: 3,
        positions: 4,
        wac_positions: 3,
        wac_budgets: vec![2_000, 10_000],
        hash_mib: 1,
        eval_options: vec![("Use NNUE".to_string(), "false".to_string())],
    }
}

/// The `<text …>content</text>` elements of an SVG: (attributes, content).
fn svg_texts(svg: &str) -> Vec<(String, String)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|rest| {
            let (attrs, after) = rest.split_once('>')?;
            let (content, _) = after.split_once("</text>")?;
            Some((attrs.to_string(), content.trim().to_string()))
        })
        .collect()
}

fn attr(attrs: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let rest = attrs.split(&key).nth(1)?;
    rest.split('"').next()?.parse().ok()
}

/// The figures of index.html: (file, x axis label, y axis label).
fn figures(html: &str) -> Vec<(String, String, String)> {
    html.split("<figure")
        .skip(1)
        .map(|f| {
            let get = |key: &str| {
                f.split(&format!("{key}=\""))
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .unwrap_or("")
                    .to_string()
            };
            (get("src"), get("data-x-axis"), get("data-y-axis"))
        })
        .collect()
}

/// Undoes the escapes of an HTML attribute and of SVG text.
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn every_figure_has_both_evaluations_axis_labels_and_integer_ticks() {
    let dir = temp_file_of("report2", "tiny");
    let matches = dir.join("matches");
    std::fs::create_dir_all(matches.join("nnue")).unwrap();
    std::fs::write(matches.join("qsearch-off.pgn"), QSEARCH_OFF_PGN).unwrap();
    std::fs::write(
        matches.join("nnue").join("qsearch-off.pgn"),
        QSEARCH_OFF_PGN,
    )
    .unwrap();
    let opts = CollectOptions {
        jobs: 2,
        build: Some("abc1234".to_string()),
        bench: Some(1234567),
    };
    let data = collect_with(&tiny(), &matches, None, "test".into(), &opts, |_| {}).unwrap();
    // Both evaluations measured, and they search different trees.
    let nnue = data.nnue_measures.as_ref().expect("the embedded network");
    assert_eq!((data.measures.len(), nnue.len()), (8, 8));
    assert_ne!(data.measures[0].stats, nnue[0].stats);
    assert_eq!(data.nnue_matches.len(), 1);
    assert_eq!(data.jobs, 2);

    let out = dir.join("out");
    write_report(&data, &out).unwrap();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("build abc1234"), "the build is named");

    // The NNUE column holds numbers in every row (the Elo row from the stored nnue/ match).
    let cells: Vec<&str> = html
        .split("<td class=\"nnue\">")
        .skip(1)
        .filter_map(|r| r.split("</td>").next())
        .collect();
    assert_eq!(cells.len(), data.claims.len());
    for (cell, claim) in cells.iter().zip(&data.claims) {
        assert!(
            cell.chars().any(|c| c.is_ascii_digit()),
            "claim {}: NNUE cell '{cell}' holds no number",
            claim.id
        );
    }
    let elo_row = data.claims.iter().find(|c| c.id == "qsearch-elo").unwrap();
    assert!(
        elo_row
            .lull_nnue
            .as_deref()
            .unwrap()
            .starts_with("+190.8 ["),
        "{:?}",
        elo_row.lull_nnue
    );
    assert_eq!(elo_row.holds_nnue, Some(true));

    let figs = figures(&html);
    assert!(figs.len() >= 6, "{figs:?}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    // The quiescence search's own Elo, once for each evaluation (both matches are stored):
    // the variant scored 1 of 4 points, 25.0 %.
    assert!(
        readme.contains(
            "Without the quiescence search Lull scored 25.0 % (-190.8 Elo) with the \
             hand-crafted evaluation and 25.0 % (-190.8 Elo) with the network."
        ),
        "the note on the quiescence search's Elo names both evaluations"
    );
    for (file, x, y) in &figs {
        let (x, y) = (unescape(x), unescape(y));
        assert!(!x.is_empty() && !y.is_empty(), "{file}: axis labels");
        let svg = std::fs::read_to_string(out.join(file)).unwrap();
        let texts = svg_texts(&svg);
        let contents: Vec<String> = texts.iter().map(|(_, c)| unescape(c)).collect();
        // Both axis labels drawn, in every panel.
        let xs = contents.iter().filter(|c| **c == x).count();
        let ys = contents.iter().filter(|c| **c == y).count();
        assert!(
            xs == 2 && ys == 2,
            "{file}: x label '{x}' {xs}×, y '{y}' {ys}×"
        );
        // Units: every y axis says what it counts in (%, ms, nodes, games).
        assert!(
            ["%", "ms", "nodes", "games"].iter().any(|u| y.contains(u)),
            "{file}: y '{y}'"
        );
        // One panel per evaluation.
        assert!(
            contents
                .iter()
                .any(|c| c.ends_with(": hand-crafted evaluation"))
                && contents.iter().any(|c| c.ends_with(": NNUE")),
            "{file}: panels {contents:?}"
        );
        // Integer ticks: no label like "7.0".
        for c in &contents {
            let t = c.trim_start_matches(['-', '+']);
            let whole_dot_zero = t
                .strip_suffix(".0")
                .is_some_and(|d| !d.is_empty() && d.chars().all(|ch| ch.is_ascii_digit()));
            assert!(!whole_dot_zero, "{file}: tick label '{c}'");
        }
        assert!(
            readme.contains(&format!("]({file})")),
            "{file} in README.md"
        );
    }
    // The legend of the option sets sits under the panels, clear of the data.
    let nodes = std::fs::read_to_string(out.join("nodes_to_depth.svg")).unwrap();
    let legend_y = svg_texts(&nodes)
        .into_iter()
        .find(|(_, c)| c == "SEE pruning off")
        .and_then(|(a, _)| attr(&a, "y"))
        .expect("a legend entry for SEE pruning off");
    assert!(legend_y > PANEL_H, "legend at y {legend_y}");
    // Values on the Elo intervals (the variant minus the default), in both panels.
    let elo = std::fs::read_to_string(out.join("elo.svg")).unwrap();
    let values = svg_texts(&elo)
        .into_iter()
        .filter(|(_, c)| c.starts_with("-190.8 ["))
        .count();
    assert_eq!(values, 2, "{elo}");
    // Every node budget of the WAC figure has its tick label, in both panels.
    let wac = std::fs::read_to_string(out.join("wac_budget.svg")).unwrap();
    // (10k is also where plotters' log axis puts a label of its own: one per panel only.)
    let labels: Vec<String> = svg_texts(&wac).into_iter().map(|(_, c)| c).collect();
    let ticks: Vec<&String> = labels.iter().filter(|c| c.ends_with('k')).collect();
    assert_eq!(ticks.len(), 4, "no other x tick label: {ticks:?}");
    for budget in ["2k", "10k"] {
        let n = labels.iter().filter(|c| *c == budget).count();
        assert_eq!(n, 2, "tick {budget} in {labels:?}");
    }

    // --replot: the same report from data.json, without measuring; the build that redrew it
    // is named, the measuring build kept.
    let again = reload(&out.join("data.json"), &matches, Some("def5678".into())).unwrap();
    assert_eq!(again.measures.len(), 8);
    assert_eq!(again.measures[0].stats, data.measures[0].stats);
    assert_eq!(
        again.nnue_measures.as_ref().unwrap()[3].stats,
        nnue[3].stats
    );
    let texts = |d: &lull::tools::teaching::report::ReportData| {
        d.claims
            .iter()
            .map(|c| (c.lull.clone(), c.lull_nnue.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&again), texts(&data));
    let redrawn = dir.join("redrawn");
    write_report(&again, &redrawn).unwrap();
    let html2 = std::fs::read_to_string(redrawn.join("index.html")).unwrap();
    assert!(
        html2.contains("Measured by build abc1234 of lull"),
        "the measuring build"
    );
    assert!(html2
        .contains("redrawn from data.json by <code>lull report --replot</code>, build def5678"));
    assert_eq!(
        again.bench_signature,
        Some(1234567),
        "the measuring build's signature"
    );
    assert_eq!(
        std::fs::read_to_string(redrawn.join("wac_budget.svg")).unwrap(),
        wac,
        "the same figure from the same data"
    );
    assert!(reload(&dir.join("nothing.json"), &matches, None)
        .unwrap_err()
        .contains("cannot read"));
    let _ = std::fs::remove_dir_all(&dir);
}

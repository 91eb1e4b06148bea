//! The two pages of the report: index.html (self-contained: inline style, the figures as
//! SVG files beside it) and its Markdown twin README.md, with the same tables.

use std::fmt::Write;

use super::matches::{elo_text, MatchResult};
use super::{find, ReportData};

/// Text for HTML: `&`, `<`, `>` and `"` escaped.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escaped text with `code` spans as `<code>` elements.
pub fn escape_code(s: &str) -> String {
    escape(s)
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

/// The claims' own markup (`<em>`, `&lt;`) as Markdown, with `|` escaped for a table cell.
fn md(s: &str) -> String {
    s.replace("<em>", "*")
        .replace("</em>", "*")
        .replace("&lt;", "<")
        .replace("&amp;", "&")
        .replace('|', "\\|")
}

/// A figure as the pages show it: its file, caption and axis labels.
#[derive(Clone, Copy, Debug)]
pub struct FigureRef<'a> {
    /// The SVG file, beside the page.
    pub file: &'a str,
    /// The caption.
    pub caption: &'a str,
    /// The x axis label drawn in it.
    pub x_label: &'a str,
    /// The y axis label drawn in it.
    pub y_label: &'a str,
}

/// The network column of a claim: the figure, or why there is none.
fn nnue_cell(data: &ReportData, figure: Option<&str>) -> String {
    match (figure, &data.nnue_measures) {
        (Some(f), _) => f.to_string(),
        (None, Some(_)) => "not measured with the network".to_string(),
        (None, None) => "no network in this build".to_string(),
    }
}

fn verdict(h: Option<bool>) -> &'static str {
    match h {
        Some(true) => "in range",
        Some(false) => "outside",
        None => "—",
    }
}

/// Both verdicts: `in range / outside` (hand-crafted / NNUE), one when they agree.
fn verdicts(c: &super::Claim) -> String {
    match (c.holds, c.holds_nnue) {
        (a, None) => verdict(a).to_string(),
        (a, b) if a == b => verdict(a).to_string(),
        (a, b) => format!("{} / {}", verdict(a), verdict(b)),
    }
}

/// The class of the verdict cell: green when every figure checked holds, red when none does.
fn verdict_class(c: &super::Claim) -> &'static str {
    let all: Vec<bool> = [c.holds, c.holds_nnue].into_iter().flatten().collect();
    if all.is_empty() {
        ""
    } else if all.iter().all(|&h| h) {
        " class=\"in-range\""
    } else if all.iter().all(|&h| !h) {
        " class=\"outside\""
    } else {
        ""
    }
}

/// The rows of the option-set table: one `Vec` of cells per option set (plain text).
fn option_rows(
    data: &ReportData,
    measures: &[super::measure::VariantMeasure],
    matches: &[super::matches::MatchResult],
) -> (Vec<String>, Vec<Vec<String>>) {
    let budgets: Vec<u64> = data.config.wac_budgets.clone();
    let mut head: Vec<String> = [
        "option set",
        "UCI options",
        "nodes",
        "× default",
        "q-node share",
        "stand-pat rate",
        "q-ply mean / max",
        "SEE / delta skips",
        "time (ms)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for b in &budgets {
        head.push(format!("WAC @{}k", b / 1000));
    }
    head.push("Elo vs default".to_string());
    let base = find(measures, "default").map_or(0, |m| m.nodes()) as f64;
    let rows = measures
        .iter()
        .map(|m| {
            let s = &m.stats;
            let mut row = vec![
                m.variant.label.to_string(),
                m.variant.options_text(),
                m.nodes().to_string(),
                if base > 0.0 {
                    format!("{:.2}", m.nodes() as f64 / base)
                } else {
                    "—".to_string()
                },
                format!("{:.1} %", s.qnode_share()),
                format!("{:.1} %", s.standpat_rate()),
                format!("{:.2} / {}", s.mean_qply(), s.qply_max),
                format!("{} / {}", s.see_skips, s.delta_skips),
                format!("{:.0}", m.depths.last().map_or(0.0, |d| d.time_ms)),
            ];
            for w in &m.wac {
                row.push(format!("{} / {}", w.solved, w.total));
            }
            row.push(
                matches
                    .iter()
                    .find(|x| x.name == m.variant.key)
                    .and_then(|x| x.pentanomial.or(x.trinomial))
                    .map_or_else(|| "—".to_string(), |e| e.text()),
            );
            row
        })
        .collect();
    (head, rows)
}

/// The rows of the match table.
fn match_rows(matches: &[super::matches::MatchResult]) -> (Vec<String>, Vec<Vec<String>>) {
    let head = [
        "variant",
        "time control",
        "games (pairs)",
        "W / D / L (variant)",
        "pairs LL / LD / WL+DD / WD / WW",
        "Elo, games (95 %)",
        "Elo, pairs (95 %)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let rows = matches
        .iter()
        .map(|m| {
            let p = m.penta;
            vec![
                m.name.clone(),
                m.time_control.clone(),
                format!("{} ({})", m.games(), m.pairs()),
                format!("{} / {} / {}", m.wins, m.draws, m.losses),
                format!("{} / {} / {} / {} / {}", p[0], p[1], p[2], p[3], p[4]),
                m.trinomial.map_or("—".to_string(), |e| e.text()),
                m.pentanomial.map_or("—".to_string(), |e| e.text()),
            ]
        })
        .collect();
    (head, rows)
}

fn html_table(out: &mut String, id: &str, head: &[String], rows: &[Vec<String>]) {
    let _ = writeln!(out, "<table id=\"{id}\">\n<thead><tr>");
    for h in head {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            let _ = write!(out, "<td>{}</td>", escape(c));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
}

fn md_table(out: &mut String, head: &[String], rows: &[Vec<String>]) {
    let cells = |r: &[String]| {
        r.iter()
            .map(|c| c.replace('|', "\\|"))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let _ = writeln!(out, "| {} |", cells(head));
    let _ = writeln!(out, "|{}", "---|".repeat(head.len()));
    for r in rows {
        let _ = writeln!(out, "| {} |", cells(r));
    }
    out.push('\n');
}

/// What was measured, in one paragraph (plain text).
fn method(data: &ReportData) -> String {
    let c = &data.config;
    let wac = data
        .measures
        .first()
        .and_then(|m| m.wac.first())
        .map_or(0, |w| w.total);
    let mut build = data
        .build
        .as_ref()
        .map_or(String::new(), |b| format!(", build {b}"));
    if let Some(r) = &data.redrawn_by {
        build.push_str(&format!(
            "; figures and pages redrawn from data.json by `lull report --replot`, build {r}"
        ));
    }
    let evaluations = if data.nnue_measures.is_some() {
        "with the hand-crafted evaluation and with the network (NNUE), "
    } else {
        "with the hand-crafted evaluation, "
    };
    format!(
        "Every option set searched, {evaluations}the first {} bench positions of `lull bench` \
         (openings, middlegames, WAC tactics, endgames) at each fixed depth from 1 to {} (one \
         thread per search, Hash {} MiB, cleared before each search); the statistics are those \
         of the deepest depth, summed over the positions. Win At Chess: {} positions spread \
         over the 300 of the embedded suite, at {} nodes per position. The Elo figures come \
         from the games stored in {} (the variant against the default, same binary; the \
         network's in its nnue/ folder). Times are wall-clock and move with the load of the \
         machine ({} option sets were measured at once); node counts do not. Measured in \
         {:.0} s by `{}` (lull {}{build}).",
        c.positions,
        c.depth,
        c.hash_mib,
        wac,
        c.wac_budgets
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        data.matches_dir,
        data.jobs,
        data.elapsed_s,
        data.command,
        data.version
    )
}

const REGENERATE: &str = "cargo build --release\n\
# the matches (about 30 minutes per lane on a loaded 2-core machine; appends to the PGNs):\n\
sh docs/report/play_matches.sh target/release/lull 50\n\
# the measurements and the pages, both evaluations, one option set per core\n\
# (the time it took is in the first paragraph; --quick: about a tenth of it):\n\
target/release/lull report -o docs/report --build \"$(git rev-parse --short HEAD)\"";

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:1250px;margin:2em auto;\
padding:0 1em;color:#222;line-height:1.45}table{border-collapse:collapse;margin:1em 0;\
font-size:14px}th,td{border:1px solid #bbb;padding:4px 8px;vertical-align:top}\
th{background:#eef}tr:nth-child(even) td{background:#f8f8f8}td.in-range{color:#070;\
font-weight:600}td.outside{color:#a00;font-weight:600}figure{margin:1.5em 0}\
figure img{max-width:100%;border:1px solid #ddd}code,pre{background:#f4f4f4}\
pre{padding:.6em;overflow:auto}";

/// The option-set tables: one per evaluation, (title, id, measures, matches).
fn option_tables(
    data: &ReportData,
) -> Vec<(
    &'static str,
    &'static str,
    &[super::measure::VariantMeasure],
    &[super::matches::MatchResult],
)> {
    let mut out = vec![(
        "Hand-crafted evaluation",
        "options-table",
        data.measures.as_slice(),
        data.matches.as_slice(),
    )];
    if let Some(n) = &data.nnue_measures {
        out.push((
            "NNUE",
            "options-table-nnue",
            n.as_slice(),
            data.nnue_matches.as_slice(),
        ));
    }
    out
}

/// The claims table's head.
const CLAIMS_HEAD: [&str; 5] = [
    "claim",
    "source",
    "Lull (hand-crafted evaluation)",
    "Lull (NNUE)",
    "claim's range (hand-crafted / NNUE)",
];

/// index.html: the claims, the option sets, the figures, the matches, how to regenerate.
pub fn html(data: &ReportData, figures: &[FigureRef<'_>]) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Lull: the quiescence search against the literature</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>Lull's quiescence search against the literature</h1>\n\
         <p>{}</p>\n",
        escape_code(&method(data))
    );
    o.push_str("<h2 id=\"claims\">The claims and Lull's figures</h2>\n<table id=\"claims-table\">\n<thead><tr>");
    for h in CLAIMS_HEAD {
        let _ = write!(o, "<th>{}</th>", escape(h));
    }
    o.push_str("</tr></thead>\n<tbody>\n");
    for c in &data.claims {
        let _ = writeln!(
            o,
            "<tr id=\"claim-{}\"><td>{}</td><td>{}</td><td>{}</td><td class=\"nnue\">{}</td><td{}>{}</td></tr>",
            c.id,
            c.claim,
            c.source,
            escape(&c.lull),
            escape(&nnue_cell(data, c.lull_nnue.as_deref())),
            verdict_class(c),
            verdicts(c)
        );
    }
    o.push_str("</tbody></table>\n");
    let _ = writeln!(
        o,
        "<p id=\"nnue-note\">{}</p>",
        escape_code(&data.nnue_note)
    );
    o.push_str("<h2 id=\"options\">Per option set</h2>\n");
    for (title, id, ms, games) in option_tables(data) {
        let _ = writeln!(o, "<h3>{}</h3>", escape(title));
        let (head, rows) = option_rows(data, ms, games);
        html_table(&mut o, id, &head, &rows);
    }
    o.push_str("<h2 id=\"figures\">Figures</h2>\n");
    for f in figures {
        let _ = writeln!(
            o,
            "<figure data-x-axis=\"{}\" data-y-axis=\"{}\"><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
            escape(f.x_label),
            escape(f.y_label),
            escape(f.file),
            escape(f.caption),
            escape(f.caption)
        );
    }
    o.push_str("<h2 id=\"matches\">Matches</h2>\n");
    if data.matches.is_empty() {
        let _ = writeln!(
            o,
            "<p>No stored match games in {}.</p>",
            escape(&data.matches_dir)
        );
    } else {
        o.push_str("<h3>Hand-crafted evaluation</h3>\n");
        let (head, rows) = match_rows(&data.matches);
        html_table(&mut o, "matches-table", &head, &rows);
    }
    if data.nnue_measures.is_some() {
        o.push_str("<h3>NNUE</h3>\n");
        if data.nnue_matches.is_empty() {
            let _ = writeln!(o, "<p>{}</p>", escape(&no_nnue_matches(data)));
        } else {
            let (head, rows) = match_rows(&data.nnue_matches);
            html_table(&mut o, "matches-table-nnue", &head, &rows);
        }
    }
    let _ = write!(
        o,
        "<p>Elo is logistic, the variant minus the default; the pair interval (pentanomial) \
         accounts for the colour-swapped game pairs. {}</p>\n\
         <h2 id=\"regenerate\">Regenerate</h2>\n<pre>{}</pre>\n</body>\n</html>\n",
        escape(&qsearch_elo_note(data)),
        escape(REGENERATE)
    );
    o
}

/// Why the network has no Elo figures.
fn no_nnue_matches(data: &ReportData) -> String {
    format!(
        "No stored match games with the network in {}/nnue: its Elo cells stay empty. \
         `EVAL=nnue sh docs/report/play_matches.sh` plays them.",
        data.matches_dir
    )
}

/// One sentence on the Elo of the quiescence search itself, with each evaluation that has
/// its match stored.
fn qsearch_elo_note(data: &ReportData) -> String {
    let score = |matches: &[MatchResult]| {
        let m = matches.iter().find(|m| m.name == "qsearch-off")?;
        let e = m.pentanomial.or(m.trinomial)?;
        Some(format!(
            "{:.1} % ({} Elo)",
            100.0 * e.score,
            elo_text(e.elo)
        ))
    };
    match (score(&data.matches), score(&data.nnue_matches)) {
        (Some(hce), Some(nnue)) => format!(
            "Without the quiescence search Lull scored {hce} with the hand-crafted evaluation \
             and {nnue} with the network."
        ),
        (Some(hce), None) => format!("Without the quiescence search Lull scored {hce}."),
        (None, Some(nnue)) => {
            format!("Without the quiescence search Lull scored {nnue} with the network.")
        }
        (None, None) => String::new(),
    }
}

/// README.md: the same content as index.html, in Markdown.
pub fn markdown(data: &ReportData, figures: &[FigureRef<'_>]) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "# Lull's quiescence search against the literature\n\n\
         Generated by `lull report` (the same page as HTML: [index.html](index.html)).\n\n{}\n\n\
         ## The claims and Lull's figures\n\n",
        method(data)
    );
    let head: Vec<String> = CLAIMS_HEAD.iter().map(|s| s.to_string()).collect();
    let rows: Vec<Vec<String>> = data
        .claims
        .iter()
        .map(|c| {
            vec![
                md(&c.claim),
                md(&c.source),
                c.lull.clone(),
                nnue_cell(data, c.lull_nnue.as_deref()),
                verdicts(c),
            ]
        })
        .collect();
    md_table(&mut o, &head, &rows);
    let _ = writeln!(o, "{}\n\n## Per option set\n", data.nnue_note);
    for (title, _, ms, games) in option_tables(data) {
        let _ = writeln!(o, "### {title}\n");
        let (head, rows) = option_rows(data, ms, games);
        md_table(&mut o, &head, &rows);
    }
    o.push_str("## Figures\n\n");
    for f in figures {
        let _ = writeln!(
            o,
            "![{}]({})\n\n*x: {}; y: {}.*\n",
            f.caption, f.file, f.x_label, f.y_label
        );
    }
    o.push_str("## Matches\n\n");
    if data.matches.is_empty() {
        let _ = writeln!(o, "No stored match games in {}.\n", data.matches_dir);
    } else {
        o.push_str("### Hand-crafted evaluation\n\n");
        let (head, rows) = match_rows(&data.matches);
        md_table(&mut o, &head, &rows);
    }
    if data.nnue_measures.is_some() {
        o.push_str("### NNUE\n\n");
        if data.nnue_matches.is_empty() {
            let _ = writeln!(o, "{}\n", no_nnue_matches(data));
        } else {
            let (head, rows) = match_rows(&data.nnue_matches);
            md_table(&mut o, &head, &rows);
        }
    }
    let _ = write!(
        o,
        "Elo is logistic, the variant minus the default; the pair interval (pentanomial) \
         accounts for the colour-swapped game pairs. {}\n\n## Regenerate\n\n```sh\n{}\n```\n",
        qsearch_elo_note(data),
        REGENERATE
    );
    o
}

//! The two pages of the report: index.html (self-contained: inline style, the figures as
//! SVG files beside it) and its Markdown twin README.md, with the same tables.

use std::fmt::Write;

use super::matches::{elo_text, MatchResult, PlayedBy};
use super::{find, played_by_short, ReportData};

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
    /// One line: what to see in it.
    pub what: &'a str,
    /// The id of the claim it is the evidence of (its row: `claim-<id>`).
    pub claim: &'a str,
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

/// The verdict on a claim: `inside` when Lull's figure is in the claimed range (an
/// interval: overlaps it), `outside` when it is not, `—` when there is no range.
pub fn verdict(h: Option<bool>) -> &'static str {
    match h {
        Some(true) => "inside",
        Some(false) => "outside",
        None => "—",
    }
}

/// Both verdicts: `inside / outside` (hand-crafted / NNUE), one when they agree.
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
        " class=\"inside\""
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
    played_by: Option<&PlayedBy>,
) -> (Vec<String>, Vec<Vec<String>>) {
    let budgets: Vec<u64> = data.config.wac_budgets.clone();
    let mut head: Vec<String> = [
        "option set",
        "UCI options",
        "nodes",
        "× default",
        "q-nodes",
        "q-nodes × default",
        "q-node share",
        "stand-pat cuts (% of the q-nodes that reached it)",
        "q-ply mean / max",
        "captures skipped by SEE / delta",
        "time (ms)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for b in &budgets {
        head.push(format!("WAC @{}k", b / 1000));
    }
    head.push(format!(
        "Elo vs default (games of {})",
        played_by_short(played_by)
    ));
    let base = find(measures, "default").map_or(0, |m| m.nodes()) as f64;
    let qbase = find(measures, "default").map_or(0, |m| m.stats.qnodes) as f64;
    let times = |x: u64, base: f64| {
        if base > 0.0 {
            format!("{:.2}", x as f64 / base)
        } else {
            "—".to_string()
        }
    };
    let rows = measures
        .iter()
        .map(|m| {
            let s = &m.stats;
            let mut row = vec![
                m.variant.label.to_string(),
                m.variant.options_text(),
                m.nodes().to_string(),
                times(m.nodes(), base),
                s.qnodes.to_string(),
                times(s.qnodes, qbase),
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

/// The build that measured, in one line: the header of both pages.
pub fn build_text(data: &ReportData) -> String {
    let build = data
        .build
        .as_ref()
        .map_or("an unnamed build".to_string(), |b| format!("build {b}"));
    let bench = data.bench_signature.map_or_else(
        || "bench signature not recorded".to_string(),
        |b| format!("bench signature {b} (what its `lull bench` prints)"),
    );
    let network = match (&data.network, &data.nnue_measures) {
        (Some(n), _) => format!("network {}", n.text()),
        (None, Some(_)) => "network not recorded".to_string(),
        (None, None) => "no network".to_string(),
    };
    let mut out = format!(
        "Measured by {build} of lull {}: {bench}; {network}.",
        data.version
    );
    if let Some(r) = &data.redrawn_by {
        let _ = write!(
            out,
            " Figures and pages redrawn from data.json by `lull report --replot`, build {r}."
        );
    }
    out.push_str(
        " The match games were not played by this run: the Matches section names the build \
         that played each set.",
    );
    out
}

/// Which build played a folder's games, in a sentence, and whether it is the build that
/// measured (the same bench signature).
pub fn played_by_text(data: &ReportData, p: Option<&PlayedBy>) -> String {
    let Some(p) = p else {
        return "the games do not record which build played them (it may be older than the \
                build that measured)"
            .to_string();
    };
    let mut out = format!("played by {}", played_by_short(Some(p)));
    match p.bench {
        Some(b) => {
            let _ = write!(out, ", bench {b}");
        }
        None => out.push_str(", bench not recorded"),
    }
    if let Some(e) = &p.evaluation {
        let _ = write!(out, ", {e}");
    }
    if let Some(r) = &p.runner {
        let _ = write!(out, ", run by {r}");
    }
    match (p.bench, data.bench_signature) {
        (Some(a), Some(b)) if a == b => out.push_str(": the build that measured"),
        (_, Some(b)) => {
            let _ = write!(out, ": not the build that measured (bench {b})");
        }
        _ => {}
    }
    if let Some(n) = &p.note {
        let _ = write!(out, " ({n})");
    }
    out
}

/// Which build played a folder's games, in a few words for a caption: `build dc0b7a5, not
/// the build that measured`.
pub fn played_by_brief(data: &ReportData, p: Option<&PlayedBy>) -> String {
    let who = played_by_short(p);
    match (p.and_then(|p| p.bench), data.bench_signature) {
        (Some(a), Some(b)) if a == b => format!("{who}, the build that measured"),
        (_, Some(_)) if p.is_some() => format!("{who}, not the build that measured"),
        _ => who,
    }
}

/// What the pages say when no match game was found: the folder, and whether it exists.
pub fn no_matches_text(data: &ReportData) -> String {
    if data.matches_dir_found {
        format!(
            "No match games were found in {}: no Elo figures.",
            data.matches_dir
        )
    } else {
        format!(
            "No match games were found: there is no folder {} here (the stored games come \
             with a clone of Lull's repository; `--matches DIR` reads them elsewhere, \
             docs/report/play_matches.sh plays them), so this report has no Elo figures.",
            data.matches_dir
        )
    }
}

/// What was measured, in one paragraph (plain text).
fn method(data: &ReportData) -> String {
    let c = &data.config;
    let wac = data
        .measures
        .first()
        .and_then(|m| m.wac.first())
        .map_or(0, |w| w.total);
    let evaluations = if data.nnue_measures.is_some() {
        "with the hand-crafted evaluation and with the network (NNUE), "
    } else {
        "with the hand-crafted evaluation, "
    };
    let games = if data.matches.is_empty() && data.nnue_matches.is_empty() {
        "No match games were found, so there are no Elo figures (see Matches).".to_string()
    } else {
        format!(
            "The Elo figures come from the games stored in {} (the variant against the \
             default, both played by one binary; the network's in its nnue/ folder), which \
             this run did not play: the Matches section names the build that played them.",
            data.matches_dir
        )
    };
    format!(
        "Every option set searched, {evaluations}the first {} bench positions of `lull bench` \
         (openings, middlegames, WAC tactics, endgames) at each fixed depth from 1 to {} (one \
         thread per search, Hash {} MiB, cleared before each search); the statistics are those \
         of the deepest depth, summed over the positions. Win At Chess: {} positions spread \
         over the 300 of the embedded suite, at {} nodes per position. {games} Times are \
         wall-clock and move with the load of the machine ({} option sets were measured at \
         once); node counts do not. Measured in {:.0} s by `{}`.",
        c.positions,
        c.depth,
        c.hash_mib,
        wac,
        c.wac_budgets
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        data.jobs,
        data.elapsed_s,
        data.command,
    )
}

/// How to make the report again, as a shell session in the clone's root: every command runs
/// as printed once the opening book is there.
pub const REGENERATE: &str = "cargo build --release\n\
# The matches: fastchess or cutechess-cli on PATH (or FASTCHESS=/path, CUTECHESS=/path),\n\
# and an EPD opening book in BOOK (the stored games used UHO_4060_v4.epd, from\n\
# UHO_4060_v4.zip of github.com/official-stockfish/books). 7 variants x 100 games at\n\
# 30 ms a move, about 40 minutes of one core per evaluation; the games are appended, so\n\
# delete docs/report/matches/*.pgn (and nnue/*.pgn) with their played_by.yaml first.\n\
BOOK=UHO_4060_v4.epd EVAL=hce sh docs/report/play_matches.sh target/release/lull 50\n\
BOOK=UHO_4060_v4.epd EVAL=nnue sh docs/report/play_matches.sh target/release/lull 50\n\
# The measurements and the pages, both evaluations, one option set per core (the time it\n\
# took is in the first paragraph; --quick measures less):\n\
target/release/lull report -o docs/report --build \"$(git rev-parse --short HEAD)\"";

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:1250px;margin:2em auto;\
padding:0 1em;color:#222;line-height:1.45}table{border-collapse:collapse;margin:1em 0;\
font-size:14px}th,td{border:1px solid #bbb;padding:4px 8px;vertical-align:top}\
th{background:#eef}tr:nth-child(even) td{background:#f8f8f8}td.inside{color:#070;\
font-weight:600}td.outside{color:#a00;font-weight:600}figure{margin:1.5em 0}\
figure img{max-width:100%;border:1px solid #ddd}code,pre{background:#f4f4f4}\
pre{padding:.6em;overflow:auto}#build{font-weight:600}";

/// One option-set table: its title, HTML id, measures, matches and who played them.
struct OptionTable<'a> {
    title: &'static str,
    id: &'static str,
    measures: &'a [super::measure::VariantMeasure],
    matches: &'a [MatchResult],
    played_by: Option<&'a PlayedBy>,
}

/// The option-set tables: one per evaluation.
fn option_tables(data: &ReportData) -> Vec<OptionTable<'_>> {
    let mut out = vec![OptionTable {
        title: "Hand-crafted evaluation",
        id: "options-table",
        measures: &data.measures,
        matches: &data.matches,
        played_by: data.matches_played_by.as_ref(),
    }];
    if let Some(n) = &data.nnue_measures {
        out.push(OptionTable {
            title: "NNUE",
            id: "options-table-nnue",
            measures: n,
            matches: &data.nnue_matches,
            played_by: data.nnue_matches_played_by.as_ref(),
        });
    }
    out
}

/// The match tables: (title, HTML id, games, who played them), the network's when it was
/// measured.
fn match_tables(
    data: &ReportData,
) -> Vec<(
    &'static str,
    &'static str,
    &[MatchResult],
    Option<&PlayedBy>,
)> {
    let mut out = vec![(
        "Hand-crafted evaluation",
        "matches-table",
        data.matches.as_slice(),
        data.matches_played_by.as_ref(),
    )];
    if data.nnue_measures.is_some() || !data.nnue_matches.is_empty() {
        out.push((
            "NNUE",
            "matches-table-nnue",
            data.nnue_matches.as_slice(),
            data.nnue_matches_played_by.as_ref(),
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

/// The sentence under a match table's title: who played the games, and that it is the
/// Elo of that build.
fn match_provenance(data: &ReportData, p: Option<&PlayedBy>) -> String {
    let mut s = played_by_text(data, p);
    if let Some(first) = s.get(..1) {
        s = first.to_uppercase() + &s[1..];
    }
    s + "."
}

/// The claim a figure links to, in words (its row's claim, without markup).
fn claim_title(data: &ReportData, id: &str) -> String {
    data.claims
        .iter()
        .find(|c| c.id == id)
        .map_or_else(|| id.to_string(), |c| md(&c.claim).replace("\\|", "|"))
}

/// index.html: the claims, the option sets, the figures, the matches, how to regenerate.
pub fn html(data: &ReportData, figures: &[FigureRef<'_>]) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Lull: the quiescence search against the literature</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>Lull's quiescence search against the literature</h1>\n\
         <p id=\"build\">{}</p>\n<p>{}</p>\n",
        escape_code(&build_text(data)),
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
        "<p>{}</p>\n<p id=\"nnue-note\">{}</p>",
        escape(VERDICT_NOTE),
        escape_code(&data.nnue_note)
    );
    o.push_str("<h2 id=\"options\">Per option set</h2>\n");
    for t in option_tables(data) {
        let _ = writeln!(o, "<h3>{}</h3>", escape(t.title));
        let (head, rows) = option_rows(data, t.measures, t.matches, t.played_by);
        html_table(&mut o, t.id, &head, &rows);
    }
    o.push_str("<h2 id=\"figures\">Figures</h2>\n");
    for f in figures {
        let _ = writeln!(
            o,
            "<figure data-x-axis=\"{}\" data-y-axis=\"{}\"><img src=\"{}\" alt=\"{}\"><figcaption>{}<br>\
             <span class=\"what\">{} Claim: <a href=\"#claim-{}\">{}</a>.</span></figcaption></figure>",
            escape(f.x_label),
            escape(f.y_label),
            escape(f.file),
            escape(f.caption),
            escape(f.caption),
            escape(f.what),
            escape(f.claim),
            escape(&claim_title(data, f.claim))
        );
    }
    o.push_str("<h2 id=\"matches\">Matches</h2>\n");
    if data.matches.is_empty() && data.nnue_matches.is_empty() {
        let _ = writeln!(o, "<p>{}</p>", escape_code(&no_matches_text(data)));
    } else {
        for (title, id, games, p) in match_tables(data) {
            let _ = writeln!(o, "<h3>{}</h3>", escape(title));
            if games.is_empty() {
                let _ = writeln!(o, "<p>{}</p>", escape_code(&no_games_in(data, title)));
                continue;
            }
            let _ = writeln!(
                o,
                "<p class=\"played-by\">{}</p>",
                escape_code(&match_provenance(data, p))
            );
            let (head, rows) = match_rows(games);
            html_table(&mut o, id, &head, &rows);
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

/// How the verdicts are given.
const VERDICT_NOTE: &str = "A verdict is \"inside\" when Lull's figure lies in the claimed \
range or, for an Elo figure, when its 95 % interval overlaps the range (the games cannot tell \
the claim wrong); \"outside\" only when the figure, or its whole interval, lies beyond it.";

/// Why one evaluation's match table is empty.
fn no_games_in(data: &ReportData, title: &str) -> String {
    if title == "NNUE" {
        format!(
            "No stored match games with the network in {}/nnue: its Elo cells stay empty. \
             `EVAL=nnue sh docs/report/play_matches.sh` plays them.",
            data.matches_dir
        )
    } else {
        format!(
            "No stored match games with the hand-crafted evaluation in {}: its Elo cells \
             stay empty. `EVAL=hce sh docs/report/play_matches.sh` plays them.",
            data.matches_dir
        )
    }
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
         Generated by `lull report` (the same page as HTML: [index.html](index.html)).\n\n\
         **{}**\n\n{}\n\n\
         ## The claims and Lull's figures\n\n",
        build_text(data),
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
    let _ = writeln!(
        o,
        "{VERDICT_NOTE}\n\n{}\n\n## Per option set\n",
        data.nnue_note
    );
    for t in option_tables(data) {
        let _ = writeln!(o, "### {}\n", t.title);
        let (head, rows) = option_rows(data, t.measures, t.matches, t.played_by);
        md_table(&mut o, &head, &rows);
    }
    o.push_str("## Figures\n\n");
    for f in figures {
        let _ = writeln!(
            o,
            "![{}]({})\n\n*x: {}; y: {}.*\n\n{} Claim: [{}](#the-claims-and-lulls-figures).\n",
            f.caption,
            f.file,
            f.x_label,
            f.y_label,
            f.what,
            claim_title(data, f.claim)
        );
    }
    o.push_str("## Matches\n\n");
    if data.matches.is_empty() && data.nnue_matches.is_empty() {
        let _ = writeln!(o, "{}\n", no_matches_text(data));
    } else {
        for (title, _, games, p) in match_tables(data) {
            let _ = writeln!(o, "### {title}\n");
            if games.is_empty() {
                let _ = writeln!(o, "{}\n", no_games_in(data, title));
                continue;
            }
            let _ = writeln!(o, "{}\n", match_provenance(data, p));
            let (head, rows) = match_rows(games);
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

//! The renderings of a quiescence tree: [`text`] (an indented tree, one node per line),
//! [`dot`] (a Graphviz digraph) and [`html`] (one self-contained page with the board and a
//! collapsible tree), and what they share (the header, the truncation note, names).

pub mod dot;
pub mod html;
pub mod text;

use std::str::FromStr;

use cozy_chess::Color;

use super::tree::{QNode, QTree};
use crate::position::{shorten, Position};
use crate::tools::signed_score_text;

pub use dot::render_dot;
pub use html::render_html;
pub use text::render_text;
/// Output formats of `lull qtree`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An indented tree, one node per line.
    Text,
    /// A Graphviz digraph.
    Dot,
    /// One self-contained HTML page.
    Html,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "text" | "txt" => Ok(Format::Text),
            "dot" | "graphviz" => Ok(Format::Dot),
            "html" => Ok(Format::Html),
            other => Err(format!(
                "unknown format '{}' (expected text, dot or html)",
                shorten(other, 32)
            )),
        }
    }
}

/// Renders the tree in `format`.
pub fn render(tree: &QTree, pos: &Position, format: Format) -> String {
    match format {
        Format::Text => render_text(tree, pos),
        Format::Dot => render_dot(tree),
        Format::Html => render_html(tree, pos),
    }
}

/// The name of a side.
pub(super) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The line that stands for the `n` moves of a node left out by `--max-nodes`.
pub(super) fn hidden_text(n: usize) -> String {
    format!(
        "... {n} more move{} not shown (--max-nodes)",
        if n == 1 { "" } else { "s" }
    )
}

/// The quiescence line the search returned, or why there is none.
pub(super) fn pv_text(tree: &QTree) -> String {
    if tree.pv.is_empty() {
        format!("(none: {})", tree.no_line_text())
    } else {
        tree.pv.join(" ")
    }
}

/// How much of the tree is shown, and how many nodes the search visited in all.
pub(super) fn size_text(tree: &QTree) -> String {
    format!(
        "{} nodes shown: {} searched, {} pruned leaves; {} q-nodes searched in all.",
        tree.node_count() + tree.pruned_count(),
        tree.node_count(),
        tree.pruned_count(),
        tree.qnodes
    )
}

/// The header shared by the text renderings: position, perspective, result, size.
pub(super) fn header_lines(tree: &QTree) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Quiescence tree of {} ({} to move)",
            tree.fen,
            color_name(tree.side_to_move)
        ),
        "Scores in centipawns, each from the point of view of the side to move at that node \
         (W/B); [alpha, beta] is the window at entry; +Mn/-Mn: mate n plies from the root; \
         +TBn/-TBn: a tablebase win/loss n plies from the root; below a (pass) the window is \
         the null-move search's, shifted, and written as numbers."
            .to_string(),
        format!(
            "Root window [{}, {}]; result {} for {}; PV: {}",
            signed_score_text(tree.alpha),
            signed_score_text(tree.beta),
            signed_score_text(tree.score),
            color_name(tree.side_to_move),
            pv_text(tree)
        ),
        format!("{} * marks the PV.", size_text(tree)),
    ];
    if tree.truncated {
        lines.push(truncation_text(tree));
    }
    lines
}

/// What the cut by `--max-nodes` means.
pub(super) fn truncation_text(tree: &QTree) -> String {
    format!(
        "TRUNCATED: the tree was cut at --max-nodes {} (the search itself ran to the end); \
         raise --max-nodes to see the rest.",
        tree.max_nodes
    )
}

/// `*` before a move on the principal variation (not before the root).
pub(super) fn pv_mark(node: &QNode) -> &'static str {
    if node.on_pv && node.mv.is_some() {
        "*"
    } else {
        ""
    }
}

/// The window of a node at entry, `[alpha, beta]`: scores as [`signed_score_text`] writes
/// them, but as plain numbers inside the search after a null move, whose window is shifted
/// (a bound there that falls in the mate range is no mate).
pub(super) fn window_text(node: &QNode) -> String {
    if node.in_null_search {
        format!("[{:+}, {:+}]", node.alpha, node.beta)
    } else {
        format!(
            "[{}, {}]",
            signed_score_text(node.alpha),
            signed_score_text(node.beta)
        )
    }
}

/// The returned score of a node, or `?` when the trace was cut before the node returned.
pub(super) fn result_text(node: &QNode) -> String {
    match node.result {
        Some((s, _)) => signed_score_text(s),
        None => "?".to_string(),
    }
}

/// `s` with each character that `replace` names replaced by its text.
pub(super) fn escape(s: &str, replace: impl Fn(char) -> Option<&'static str>) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match replace(c) {
            Some(text) => out.push_str(text),
            None => out.push(c),
        }
    }
    out
}

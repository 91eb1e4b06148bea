//! The quiescence tree as indented text: a header, the board, then one node per line.

use std::fmt::Write as _;

use cozy_chess::Color;

use super::{header_lines, hidden_text, pv_mark, result_text, truncation_text, window_text};
use crate::position::board_ascii;
use crate::position::Position;
use crate::tools::signed_score_text;
use crate::tools::teaching::qtree::tree::{QChild, QNode, QTree};

/// The indented text tree: a header, the board, then one node per line.
pub fn render_text(tree: &QTree, pos: &Position) -> String {
    let mut out = String::new();
    for line in header_lines(tree) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&board_ascii(pos));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
    match &tree.root {
        None => out.push_str("(the trace is empty)\n"),
        Some(root) => {
            let _ = writeln!(
                out,
                "{}{}  {}",
                pv_mark(root),
                root.label,
                node_fields(root)
            );
            text_children(root, "", &mut out);
        }
    }
    if tree.truncated {
        out.push('\n');
        out.push_str(&truncation_text(tree));
        out.push('\n');
    }
    out
}

fn side_letter(node: &QNode) -> &'static str {
    match node.side_to_move() {
        Some(Color::White) => "W",
        Some(Color::Black) => "B",
        None => "?",
    }
}

/// The fields of a node after its label: side, window, stand pat, score, end.
fn node_fields(node: &QNode) -> String {
    let sp = if node.in_check {
        "in check".to_string()
    } else {
        match node.stand_pat {
            Some(s) => format!("stand pat {}", signed_score_text(s)),
            None => "stand pat -".to_string(),
        }
    };
    let score = result_text(node);
    format!(
        "{}  {}  {}  score {}  {}",
        side_letter(node),
        window_text(node),
        sp,
        score,
        node.end_text()
    )
}

fn text_children(node: &QNode, prefix: &str, out: &mut String) {
    let total = node.children.len() + usize::from(node.hidden > 0);
    for (i, child) in node.children.iter().enumerate() {
        let last = i + 1 == total;
        let (branch, cont) = if last {
            ("└─ ", "   ")
        } else {
            ("├─ ", "│  ")
        };
        match child {
            QChild::Node(n) => {
                let _ = writeln!(
                    out,
                    "{prefix}{branch}{}{}  {}",
                    pv_mark(n),
                    n.label,
                    node_fields(n)
                );
                text_children(n, &format!("{prefix}{cont}"), out);
            }
            QChild::Pruned(p) => {
                let _ = writeln!(out, "{prefix}{branch}{}  {}", p.label, p.reason_text());
            }
        }
    }
    if node.hidden > 0 {
        let _ = writeln!(out, "{prefix}└─ {}", hidden_text(node.hidden));
    }
}

//! The quiescence tree as a Graphviz digraph.

use std::fmt::Write as _;

use super::{
    color_name, escape, header_lines, hidden_text, pv_mark, result_text, truncation_text,
    window_text,
};
use crate::tools::signed_score_text;
use crate::tools::teaching::qtree::tree::{QChild, QNode, QTree};

/// The tree as a Graphviz digraph: one node statement per tree node (searched nodes solid,
/// pruned leaves dashed, the PV bold), edges from parent to child.
pub fn render_dot(tree: &QTree) -> String {
    let mut title: Vec<String> = header_lines(tree)
        .into_iter()
        .take(3)
        .map(|line| line.replace(" (W/B)", ""))
        .collect();
    if tree.truncated {
        title.push(truncation_text(tree));
    }
    let mut out = String::from("digraph qtree {\n");
    let _ = writeln!(
        out,
        "  graph [label=\"{}\", labelloc=t, fontname=\"monospace\"];",
        dot_escape(&title.join("\n"))
    );
    out.push_str("  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    out.push_str("  edge [arrowsize=0.6];\n");
    if let Some(root) = &tree.root {
        let mut next = 0usize;
        dot_node(root, None, &mut next, &mut out);
    }
    out.push_str("}\n");
    out
}

fn dot_node(node: &QNode, parent: Option<usize>, next: &mut usize, out: &mut String) {
    let id = *next;
    *next += 1;
    let mut lines = vec![
        format!(
            "{}{} ({} to move)",
            pv_mark(node),
            node.label,
            node.side_to_move().map_or("?", color_name)
        ),
        format!("window {}", window_text(node)),
    ];
    if node.in_check {
        lines.push("in check: no stand pat".to_string());
    } else if let Some(sp) = node.stand_pat {
        lines.push(format!("stand pat {}", signed_score_text(sp)));
    }
    lines.push(format!("score {}", result_text(node)));
    lines.push(node.end_text());
    if node.hidden > 0 {
        lines.push(hidden_text(node.hidden));
    }
    let style = if node.on_pv {
        ", style=bold, penwidth=2"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "  n{id} [label=\"{}\"{style}];",
        dot_escape(&lines.join("\n"))
    );
    if let Some(p) = parent {
        let _ = writeln!(out, "  n{p} -> n{id};");
    }
    for child in &node.children {
        match child {
            QChild::Node(n) => dot_node(n, Some(id), next, out),
            QChild::Pruned(p) => {
                let pid = *next;
                *next += 1;
                let _ = writeln!(
                    out,
                    "  n{pid} [label=\"{}\", style=dashed, fontcolor=gray40, color=gray40];",
                    dot_escape(&format!("{}\n{}", p.label, p.reason_text()))
                );
                let _ = writeln!(out, "  n{id} -> n{pid} [style=dashed, color=gray40];");
            }
        }
    }
}

/// Escapes a string for a double-quoted DOT label (`\n` separates lines).
fn dot_escape(s: &str) -> String {
    escape(s, |c| match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        '\n' => Some("\\n"),
        _ => None,
    })
}

//! The quiescence tree as one self-contained HTML page: the board, the header and the
//! collapsible tree (plain `<details>`); the style sheet and the script that redraws the board
//! for the node under the mouse are `qtree.css` and `qtree.js` beside this file.

use std::fmt::Write as _;

use cozy_chess::{Board, Color, Move, Piece, Square};

use super::{
    color_name, escape, hidden_text, pv_mark, pv_text, result_text, size_text, truncation_text,
    window_text,
};
use crate::position::{shorten, Position};
use crate::search::QEnd;
use crate::tools::signed_score_text;
use crate::tools::teaching::qtree::tree::{QChild, QNode, QTree};

/// The style sheet of the page.
const HTML_STYLE: &str = include_str!("qtree.css");

/// The script of the page: draws the position of the node under the mouse.
const HTML_SCRIPT: &str = include_str!("qtree.js");

/// One self-contained HTML page: the board, the header and the collapsible tree (plain
/// `<details>`; the inline script only redraws the board for the node under the mouse).
pub fn render_html(tree: &QTree, pos: &Position) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        out,
        "<title>lull qtree: {}</title>",
        html_escape(&shorten(&tree.fen, 80))
    );
    let _ = writeln!(out, "<style>\n{HTML_STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(
        out,
        "<h1>Quiescence tree</h1>\n<p class=\"meta\">Position <code>{}</code> ({} to move)</p>",
        html_escape(&tree.fen),
        color_name(tree.side_to_move)
    );
    let _ = writeln!(
        out,
        "<p class=\"meta\">Root window [{}, {}]; result <b>{}</b> for {}; PV: <b>{}</b></p>",
        html_escape(&signed_score_text(tree.alpha)),
        html_escape(&signed_score_text(tree.beta)),
        html_escape(&signed_score_text(tree.score)),
        color_name(tree.side_to_move),
        html_escape(&pv_text(tree))
    );
    let _ = writeln!(out, "<p class=\"meta\">{}</p>", size_text(tree));
    if tree.truncated {
        let _ = writeln!(
            out,
            "<p class=\"trunc\"><b>Truncated.</b> {}</p>",
            html_escape(&truncation_text(tree))
        );
    }
    out.push_str("<div class=\"layout\">\n<div class=\"side-panel\">\n");
    out.push_str(&html_board(pos.board()));
    out.push_str(
        "<div id=\"where\">Root position</div>\n<p class=\"legend\">Scores are in centipawns, \
         each from the point of view of the side to move at that node (negamax: a child's \
         score is negated in its parent). [alpha, beta] is the window at entry, &rarr; the \
         returned score, then why the node ended; +Mn/-Mn is a mate n plies from the root, \
         +TBn/-TBn a tablebase win/loss n plies from the root. Blue frame: the principal \
         variation (also marked *). Dashed grey: moves that were not searched. Point at a \
         node to see its position.</p>\n</div>\n<div class=\"tree-panel\">\n",
    );
    out.push_str(
        "<p><button type=\"button\" onclick=\"qtreeToggle(true)\">Expand all</button>\
         <button type=\"button\" onclick=\"qtreeToggle(false)\">Collapse all</button></p>\n",
    );
    out.push_str("<ul class=\"tree\">\n");
    match &tree.root {
        Some(root) => {
            let shown = tree.node_count() + tree.pruned_count();
            let open_depth = if shown <= 300 { i32::MAX } else { 2 };
            html_node(root, "", open_depth, 0, &mut out);
        }
        None => out.push_str("<li>(the trace is empty)</li>\n"),
    }
    out.push_str("</ul>\n</div>\n</div>\n");
    let _ = writeln!(out, "<script>\n{HTML_SCRIPT}</script>\n</body>\n</html>");
    out
}

/// Data attributes for hovering: the position at a tree node, the move that led there and
/// the path from the root.
fn html_data(board: Option<&Board>, mv: Option<Move>, path: &str) -> String {
    let mut out = String::new();
    if let Some(b) = board {
        let _ = write!(
            out,
            " data-fen=\"{}\"",
            html_escape(&crate::position::board_fen(b))
        );
    }
    if let Some(m) = mv {
        let _ = write!(out, " data-from=\"{}\" data-to=\"{}\"", m.from, m.to);
    }
    let _ = write!(out, " data-path=\"{}\"", html_escape(path));
    out
}

fn html_fields(node: &QNode) -> String {
    let side = node.side_to_move().map_or("?", color_name);
    let sp = if node.in_check {
        "<span class=\"chk\">in check</span>".to_string()
    } else {
        match node.stand_pat {
            Some(s) => format!("stand pat <b>{}</b>", html_escape(&signed_score_text(s))),
            None => "stand pat -".to_string(),
        }
    };
    let score = result_text(node);
    let end_class = match node.result {
        Some((_, QEnd::StandPat)) | Some((_, QEnd::BetaCutoff { .. })) => "end cut",
        Some((_, QEnd::TtCutoff)) => "end tt",
        Some((_, QEnd::Mate)) | Some((_, QEnd::Stalemate)) | Some((_, QEnd::Draw)) => "end over",
        None => "end trunc",
        _ => "end",
    };
    format!(
        "<span class=\"mv\">{}{}</span> <span class=\"side\" title=\"side to move\">{}</span> \
         <span class=\"win\" title=\"window at entry\">{}</span> <span class=\"sp\">{}</span> \
         <span class=\"score\" title=\"returned score\">&rarr; {}</span> <span class=\"{}\">{}</span>",
        pv_mark(node),
        html_escape(&node.label),
        side,
        html_escape(&window_text(node)),
        sp,
        html_escape(&score),
        end_class,
        html_escape(&node.end_text())
    )
}

fn html_node(node: &QNode, path: &str, open_depth: i32, depth: i32, out: &mut String) {
    let pv = if node.on_pv { " pv" } else { "" };
    let data = html_data(node.board.as_ref(), node.mv, path);
    if node.children.is_empty() && node.hidden == 0 {
        let _ = writeln!(
            out,
            "<li><div class=\"node leaf{pv}\" tabindex=\"0\"{data}>{}</div></li>",
            html_fields(node)
        );
        return;
    }
    let open = if depth < open_depth { " open" } else { "" };
    let _ = writeln!(
        out,
        "<li><details{open}><summary class=\"node{pv}\"{data}>{}</summary>\n<ul>",
        html_fields(node)
    );
    for child in &node.children {
        match child {
            QChild::Node(n) => {
                let p = join_path(path, &n.label);
                html_node(n, &p, open_depth, depth + 1, out);
            }
            QChild::Pruned(p) => {
                let data = html_data(p.board.as_ref(), Some(p.mv), &join_path(path, &p.label));
                let _ = writeln!(
                    out,
                    "<li><div class=\"node pruned\" tabindex=\"0\"{data}><span class=\"mv\">{}</span> \
                     <span class=\"why\">{}</span></div></li>",
                    html_escape(&p.label),
                    html_escape(&p.reason_text())
                );
            }
        }
    }
    if node.hidden > 0 {
        let _ = writeln!(
            out,
            "<li><div class=\"node more\">{}</div></li>",
            html_escape(&hidden_text(node.hidden))
        );
    }
    out.push_str("</ul></details></li>\n");
}

fn join_path(path: &str, label: &str) -> String {
    if path.is_empty() {
        label.to_string()
    } else {
        format!("{path} {label}")
    }
}

/// Escapes text for HTML (element content and double-quoted attributes).
fn html_escape(s: &str) -> String {
    escape(s, |c| match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    })
}

/// The Unicode glyph of a piece (text presentation for the black pawn).
fn glyph(piece: Piece, color: Color) -> &'static str {
    match (color, piece) {
        (Color::White, Piece::King) => "♔",
        (Color::White, Piece::Queen) => "♕",
        (Color::White, Piece::Rook) => "♖",
        (Color::White, Piece::Bishop) => "♗",
        (Color::White, Piece::Knight) => "♘",
        (Color::White, Piece::Pawn) => "♙",
        (Color::Black, Piece::King) => "♚",
        (Color::Black, Piece::Queen) => "♛",
        (Color::Black, Piece::Rook) => "♜",
        (Color::Black, Piece::Bishop) => "♝",
        (Color::Black, Piece::Knight) => "♞",
        (Color::Black, Piece::Pawn) => "♟\u{FE0E}",
    }
}

/// The board as an 8x8 table (White at the bottom), cells with ids for the script.
fn html_board(board: &Board) -> String {
    let mut out = String::from("<table class=\"board\" aria-label=\"board\">\n");
    for rank in (0..8).rev() {
        let _ = write!(out, "<tr><th>{}</th>", rank + 1);
        for file in 0..8 {
            let sq = Square::new(cozy_chess::File::index(file), cozy_chess::Rank::index(rank));
            let shade = if (file + rank) % 2 == 0 { "dk" } else { "lt" };
            let piece = match (board.piece_on(sq), board.color_on(sq)) {
                (Some(p), Some(c)) => glyph(p, c),
                _ => "",
            };
            let _ = write!(out, "<td id=\"sq-{sq}\" class=\"{shade}\">{piece}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("<tr><th></th>");
    for f in 'a'..='h' {
        let _ = write!(out, "<th>{f}</th>");
    }
    out.push_str("</tr>\n</table>\n");
    out
}

//! `lull qtree`: the quiescence search tree of one position, drawn (issue #4).
//!
//! [`Engine::quiesce`] records a traced quiescence search as a flat stream of events
//! ([`QTrace`]): each node is an `Enter` … `Exit` pair with its stand pat, its pruned moves and
//! its children nested in between. [`build_tree`] turns that stream into a tree of
//! [`QNode`]s, following the moves on a board so that each one can be written in SAN, and the
//! three renderers draw it: [`render_text`] (an indented tree, one node per line),
//! [`render_dot`] (a Graphviz digraph) and [`render_html`] (one self-contained page with the
//! board and a collapsible tree).
//!
//! Every score in the tree (window, stand pat, returned score) is from the point of view of
//! the side to move at that node, as negamax computes it: a child's score is negated in its
//! parent, and the child's window is the parent's window negated and swapped.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;

use cozy_chess::{Board, Color, Move, Piece, Square};

use crate::options::{apply_option, split_assignment};
use crate::params::{INFINITY, MATE, MATE_BOUND};
use crate::position::board_ascii;
use crate::position::Position;
use crate::san::move_to_san;
use crate::search::{see, Engine, QEnd, QPrune, QTrace, QuiesceResult};

/// The built-in position: an exchange on d5 and an overloaded defender. White's knight,
/// bishop and rook attack the pawn on d5, Black's knight and rook defend it, and the knight on
/// f6 is also the only defender of the bishop on g4 (see [`QTREE_NOTE`]).
pub const QTREE_FEN: &str = "3r2k1/pp3ppp/5n2/3p4/6b1/2N2B2/PP3PPP/3R2K1 w - - 0 1";

/// Why the built-in position is interesting.
pub const QTREE_NOTE: &str = "\
Built-in example: Nc3, Bf3 and Rd1 attack the pawn on d5, which Nf6 and Rd8 defend; Nf6 also
guards the bishop on g4 and is overloaded: after Nxd5 Nxd5 the bishop hangs. The tree shows
captures and recaptures on d5, SEE- and delta-pruned captures, checks answered by evasions,
and stand-pat cutoffs where the side to move is already doing well enough.";

/// Default for `--max-nodes`: tree nodes shown (searched nodes plus pruned leaves).
pub const DEFAULT_MAX_NODES: usize = 2000;
/// Largest accepted `--max-nodes`.
pub const MAX_MAX_NODES: usize = 1_000_000;
/// Hash size of the engine `lull qtree` runs, in MiB.
pub const QTREE_HASH_MIB: usize = 16;

/// A searched node of the quiescence tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QNode {
    /// The move that led here (`None` at the root and after Beal's null move).
    pub mv: Option<Move>,
    /// Whether this node is the answer to a null move (Beal's null-move stand pat).
    pub null: bool,
    /// The move in SAN (UCI if it could not be written in SAN), `root` or `(pass)`.
    pub label: String,
    /// The position at this node (`None` if the move could not be followed on the board,
    /// which only a corrupt trace can cause).
    pub board: Option<Board>,
    /// Alpha at entry, from the side to move.
    pub alpha: i32,
    /// Beta at entry, from the side to move.
    pub beta: i32,
    /// Plies past the root of the quiescence search.
    pub qply: i32,
    /// Whether the side to move is in check (no stand pat then).
    pub in_check: bool,
    /// The stand-pat score, if the node got that far.
    pub stand_pat: Option<i32>,
    /// The returned score and why the node ended; `None` if the trace was cut (by
    /// `--max-nodes`) before the node returned.
    pub result: Option<(i32, QEnd)>,
    /// Whether the node lies on the principal variation the search returned.
    pub on_pv: bool,
    /// The searched children and the pruned moves, in the order the search met them.
    pub children: Vec<QChild>,
    /// Moves (searched or pruned) of this node left out of the tree by `--max-nodes`.
    pub hidden: usize,
}

/// A move that was not searched: a leaf of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrunedMove {
    /// The move.
    pub mv: Move,
    /// The move in SAN (UCI if it could not be written in SAN).
    pub label: String,
    /// Why it was not searched.
    pub reason: QPrune,
    /// Its static exchange value (for SEE-pruned moves the reason, for the others a hint).
    pub see: Option<i32>,
    /// The position the move would have led to.
    pub board: Option<Board>,
}

/// A child of a node: a searched move or a pruned one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QChild {
    /// A searched move: a node with its own subtree.
    Node(QNode),
    /// A move that was not searched.
    Pruned(PrunedMove),
}

impl QNode {
    /// The searched children, in search order.
    pub fn nodes(&self) -> impl Iterator<Item = &QNode> {
        self.children.iter().filter_map(|c| match c {
            QChild::Node(n) => Some(n),
            QChild::Pruned(_) => None,
        })
    }

    /// The pruned moves, in the order the search met them.
    pub fn pruned(&self) -> impl Iterator<Item = &PrunedMove> {
        self.children.iter().filter_map(|c| match c {
            QChild::Pruned(p) => Some(p),
            QChild::Node(_) => None,
        })
    }

    /// The searched child reached by the move written `label` (SAN or UCI).
    pub fn child(&self, label: &str) -> Option<&QNode> {
        self.nodes()
            .find(|n| n.label == label || n.mv.is_some_and(|m| m.to_string() == label))
    }

    /// Searched nodes in this subtree, this one included.
    pub fn count_nodes(&self) -> usize {
        1 + self.nodes().map(QNode::count_nodes).sum::<usize>()
    }

    /// Pruned leaves in this subtree.
    pub fn count_pruned(&self) -> usize {
        self.pruned().count() + self.nodes().map(QNode::count_pruned).sum::<usize>()
    }

    /// The side to move at this node.
    pub fn side_to_move(&self) -> Option<Color> {
        self.board.as_ref().map(Board::side_to_move)
    }

    /// Why the node ended, in words (`cut by --max-nodes` if the trace ends inside it).
    pub fn end_text(&self) -> String {
        let Some((_, end)) = self.result else {
            return "cut by --max-nodes before it returned".to_string();
        };
        match end {
            QEnd::Stopped => "search stopped".to_string(),
            QEnd::Draw => "draw".to_string(),
            QEnd::PlyCap => "ply cap (static evaluation)".to_string(),
            QEnd::NodeCap => "q-node cap (static evaluation)".to_string(),
            QEnd::MateDistance => "mate distance pruning".to_string(),
            QEnd::TtCutoff => "TT cutoff".to_string(),
            QEnd::StandPat => "stand pat >= beta".to_string(),
            QEnd::BetaCutoff { after } => {
                let which = self
                    .nodes()
                    .nth((after as usize).saturating_sub(1))
                    .map(|n| format!(" ({})", n.label))
                    .unwrap_or_default();
                format!("beta cutoff after move {after}{which}")
            }
            QEnd::AllSearched => {
                if self.nodes().next().is_none() && self.hidden == 0 {
                    "every move pruned".to_string()
                } else {
                    "all moves searched".to_string()
                }
            }
            QEnd::Quiet => "no captures left".to_string(),
            QEnd::Mate => "checkmate".to_string(),
            QEnd::Stalemate => "stalemate".to_string(),
        }
    }
}

impl PrunedMove {
    /// Why the move was pruned, in words.
    pub fn reason_text(&self) -> String {
        match self.reason {
            QPrune::See => match self.see {
                Some(v) => format!("SEE pruned (exchange {v:+})"),
                None => "SEE pruned".to_string(),
            },
            QPrune::Delta => "delta pruned (cannot reach alpha)".to_string(),
            QPrune::NotRecapture => "pruned: not a recapture".to_string(),
        }
    }
}

/// The quiescence tree of one position, with what the search returned.
#[derive(Clone, Debug)]
pub struct QTree {
    /// The position (FEN).
    pub fen: String,
    /// Side to move at the root.
    pub side_to_move: Color,
    /// The root window.
    pub alpha: i32,
    /// The root window.
    pub beta: i32,
    /// The score the search returned (from the side to move at the root).
    pub score: i32,
    /// The quiescence line the search returned, in SAN.
    pub pv: Vec<String>,
    /// Quiescence nodes the search visited (all of them, also those cut from the tree).
    pub qnodes: u64,
    /// The tree (`None` only if the trace recorded nothing).
    pub root: Option<QNode>,
    /// Whether the tree was cut by `max_nodes`.
    pub truncated: bool,
    /// The bound on the tree's size: searched nodes plus pruned leaves.
    pub max_nodes: usize,
}

impl QTree {
    /// Searched nodes shown.
    pub fn node_count(&self) -> usize {
        self.root.as_ref().map_or(0, QNode::count_nodes)
    }

    /// Pruned leaves shown.
    pub fn pruned_count(&self) -> usize {
        self.root.as_ref().map_or(0, QNode::count_pruned)
    }
}

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

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

/// Builds the tree from a traced quiescence search of `pos`, keeping at most `max_items`
/// tree nodes (searched nodes plus pruned leaves, in the order the search met them). Returns
/// the root and whether anything was left out. Never panics, whatever the events: events
/// that do not fit the nesting are ignored, and nodes still open when the events end are
/// kept without a result.
pub fn build_tree(pos: &Position, trace: &[QTrace], max_items: usize) -> (Option<QNode>, bool) {
    let mut stack: Vec<QNode> = Vec::new();
    let mut root: Option<QNode> = None;
    let mut items = 0usize;
    // Depth of the subtree being skipped (its nodes did not fit); 0 when not skipping.
    let mut skip = 0usize;
    let mut cut = false;
    for event in trace {
        match *event {
            QTrace::Enter {
                mv,
                alpha,
                beta,
                qply,
                in_check,
            } => {
                if skip > 0 {
                    skip += 1;
                    continue;
                }
                if items >= max_items || (stack.is_empty() && root.is_some()) {
                    if let Some(top) = stack.last_mut() {
                        top.hidden += 1;
                    }
                    cut = true;
                    skip = 1;
                    continue;
                }
                items += 1;
                let parent_board = match stack.last() {
                    Some(parent) => parent.board.clone(),
                    None => Some(pos.board().clone()),
                };
                let is_root = stack.is_empty();
                let (label, board, null) = match (mv, is_root) {
                    (None, true) => ("root".to_string(), parent_board, false),
                    (None, false) => (
                        "(pass)".to_string(),
                        parent_board.and_then(|b| b.null_move()),
                        true,
                    ),
                    (Some(m), _) => {
                        let (label, board) = follow(parent_board.as_ref(), m);
                        (label, board, false)
                    }
                };
                stack.push(QNode {
                    mv,
                    null,
                    label,
                    board,
                    alpha,
                    beta,
                    qply,
                    in_check,
                    stand_pat: None,
                    result: None,
                    on_pv: false,
                    children: Vec::new(),
                    hidden: 0,
                });
            }
            QTrace::StandPat(score) => {
                if skip == 0 {
                    if let Some(top) = stack.last_mut() {
                        top.stand_pat = Some(score);
                    }
                }
            }
            QTrace::Pruned { mv, reason } => {
                if skip > 0 {
                    continue;
                }
                let Some(top) = stack.last_mut() else {
                    continue;
                };
                if items >= max_items {
                    top.hidden += 1;
                    cut = true;
                    continue;
                }
                items += 1;
                let before = top.board.as_ref();
                let (label, board) = follow(before, mv);
                let see = before.filter(|b| b.is_legal(mv)).map(|b| see(b, mv));
                top.children.push(QChild::Pruned(PrunedMove {
                    mv,
                    label,
                    reason,
                    see,
                    board,
                }));
            }
            QTrace::Exit { score, end } => {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                if let Some(mut node) = stack.pop() {
                    node.result = Some((score, end));
                    attach(&mut stack, &mut root, node);
                }
            }
        }
    }
    while let Some(node) = stack.pop() {
        attach(&mut stack, &mut root, node);
    }
    (root, cut)
}

/// The label of `mv` on `board` and the board after it (both best effort).
fn follow(board: Option<&Board>, mv: Move) -> (String, Option<Board>) {
    match board {
        Some(b) if b.is_legal(mv) => {
            let mut after = b.clone();
            after.play_unchecked(mv);
            (move_to_san(b, mv), Some(after))
        }
        _ => (mv.to_string(), None),
    }
}

fn attach(stack: &mut [QNode], root: &mut Option<QNode>, node: QNode) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(QChild::Node(node)),
        None => {
            if root.is_none() {
                *root = Some(node);
            }
        }
    }
}

/// Marks the nodes of the principal variation `pv` (moves from the root).
fn mark_pv(node: &mut QNode, pv: &[Move]) {
    node.on_pv = true;
    let Some((first, rest)) = pv.split_first() else {
        return;
    };
    for child in &mut node.children {
        if let QChild::Node(n) = child {
            if n.mv == Some(*first) && !n.null {
                mark_pv(n, rest);
                return;
            }
        }
    }
}

/// Runs a traced quiescence search of `pos` in the window (`alpha`, `beta`) on `engine` and
/// builds its tree, at most `max_nodes` tree nodes (searched nodes plus pruned leaves).
pub fn qtree(
    engine: &mut Engine,
    pos: &Position,
    alpha: i32,
    beta: i32,
    max_nodes: usize,
) -> QTree {
    let max_nodes = max_nodes.max(1);
    // A tree node costs at most three events (enter, stand pat, exit; a pruned move one), so
    // this many events hold the first `max_nodes` tree nodes; the builder cuts at exactly
    // `max_nodes`, and the events after them give the scores of the nodes that were kept.
    let limit = max_nodes.saturating_mul(3);
    let result: QuiesceResult = engine.quiesce(pos, alpha, beta, limit);
    let (mut root, cut) = build_tree(pos, &result.trace, max_nodes);
    if let Some(r) = &mut root {
        mark_pv(r, &result.pv);
    }
    let alpha = alpha.clamp(-INFINITY, INFINITY);
    QTree {
        fen: pos.fen(),
        side_to_move: pos.side_to_move(),
        alpha,
        beta: beta.clamp(-INFINITY, INFINITY).max(alpha + 1),
        score: result.score,
        pv: crate::san::line_to_san(pos.board(), &result.pv),
        qnodes: result.stats.qnodes,
        root,
        truncated: cut || result.truncated,
        max_nodes,
    }
}

/// A score for people: `+35`, `-120`, `0`, `+inf`/`-inf` for the open window, and mate
/// scores as `+M3` / `-M3` (mate that many plies from the root of the quiescence search).
pub fn score_text(score: i32) -> String {
    if score >= INFINITY {
        "+inf".to_string()
    } else if score <= -INFINITY {
        "-inf".to_string()
    } else if score >= MATE_BOUND {
        format!("+M{}", MATE - score)
    } else if score <= -MATE_BOUND {
        format!("-M{}", MATE + score)
    } else if score == 0 {
        "0".to_string()
    } else {
        format!("{score:+}")
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
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
            Some(s) => format!("stand pat {}", score_text(s)),
            None => "stand pat -".to_string(),
        }
    };
    let score = match node.result {
        Some((s, _)) => score_text(s),
        None => "?".to_string(),
    };
    format!(
        "{}  [{}, {}]  {}  score {}  {}",
        side_letter(node),
        score_text(node.alpha),
        score_text(node.beta),
        sp,
        score,
        node.end_text()
    )
}

fn hidden_text(n: usize) -> String {
    format!(
        "... {n} more move{} not shown (--max-nodes)",
        if n == 1 { "" } else { "s" }
    )
}

/// The header shared by the text renderings: position, perspective, result, size.
fn header_lines(tree: &QTree) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Quiescence tree of {} ({} to move)",
            tree.fen,
            color_name(tree.side_to_move)
        ),
        "Scores in centipawns, each from the point of view of the side to move at that node \
         (W/B); [alpha, beta] is the window at entry; +Mn/-Mn: mate n plies from the root."
            .to_string(),
        format!(
            "Root window [{}, {}]; result {} for {}; PV: {}",
            score_text(tree.alpha),
            score_text(tree.beta),
            score_text(tree.score),
            color_name(tree.side_to_move),
            if tree.pv.is_empty() {
                "(none: standing pat is best)".to_string()
            } else {
                tree.pv.join(" ")
            }
        ),
        format!(
            "{} nodes shown: {} searched, {} pruned leaves; {} q-nodes searched in all. \
             * marks the PV.",
            tree.node_count() + tree.pruned_count(),
            tree.node_count(),
            tree.pruned_count(),
            tree.qnodes
        ),
    ];
    if tree.truncated {
        lines.push(truncation_text(tree));
    }
    lines
}

fn truncation_text(tree: &QTree) -> String {
    format!(
        "TRUNCATED: the tree was cut at --max-nodes {} (the search itself ran to the end); \
         raise --max-nodes to see the rest.",
        tree.max_nodes
    )
}

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

fn pv_mark(node: &QNode) -> &'static str {
    if node.on_pv && node.mv.is_some() {
        "*"
    } else {
        ""
    }
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

/// Escapes a string for a double-quoted DOT label (`\n` separates lines).
fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out
}

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
        format!(
            "window [{}, {}]",
            score_text(node.alpha),
            score_text(node.beta)
        ),
    ];
    if node.in_check {
        lines.push("in check: no stand pat".to_string());
    } else if let Some(sp) = node.stand_pat {
        lines.push(format!("stand pat {}", score_text(sp)));
    }
    lines.push(match node.result {
        Some((s, _)) => format!("score {}", score_text(s)),
        None => "score ?".to_string(),
    });
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

/// Escapes text for HTML (element content and double-quoted attributes).
fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
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

/// Data attributes for hovering: the position at a tree node, the move that led there and
/// the path from the root.
fn html_data(board: Option<&Board>, mv: Option<Move>, path: &str) -> String {
    let mut out = String::new();
    if let Some(b) = board {
        let _ = write!(out, " data-fen=\"{}\"", html_escape(&b.to_string()));
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
            Some(s) => format!("stand pat <b>{}</b>", html_escape(&score_text(s))),
            None => "stand pat -".to_string(),
        }
    };
    let score = match node.result {
        Some((s, _)) => score_text(s),
        None => "?".to_string(),
    };
    let end_class = match node.result {
        Some((_, QEnd::StandPat)) | Some((_, QEnd::BetaCutoff { .. })) => "end cut",
        Some((_, QEnd::TtCutoff)) => "end tt",
        Some((_, QEnd::Mate)) | Some((_, QEnd::Stalemate)) | Some((_, QEnd::Draw)) => "end over",
        None => "end trunc",
        _ => "end",
    };
    format!(
        "<span class=\"mv\">{}{}</span> <span class=\"side\" title=\"side to move\">{}</span> \
         <span class=\"win\" title=\"window at entry\">[{}, {}]</span> <span class=\"sp\">{}</span> \
         <span class=\"score\" title=\"returned score\">&rarr; {}</span> <span class=\"{}\">{}</span>",
        pv_mark(node),
        html_escape(&node.label),
        side,
        html_escape(&score_text(node.alpha)),
        html_escape(&score_text(node.beta)),
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

const HTML_STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 1.2em; color: #222; background: #fafafa; }
h1 { font-size: 1.3em; margin: 0 0 .4em 0; }
p.meta { margin: .2em 0; }
code { font-family: ui-monospace, monospace; background: #eee; padding: 0 .25em; }
.layout { display: flex; gap: 2em; align-items: flex-start; }
.side-panel { position: sticky; top: 1em; flex: none; }
.tree-panel { flex: 1; min-width: 0; overflow-x: auto; }
table.board { border-collapse: collapse; }
table.board td { width: 1.45em; height: 1.45em; text-align: center; vertical-align: middle;
  font-size: 1.7em; line-height: 1; padding: 0;
  font-family: "DejaVu Sans", "Segoe UI Symbol", "Noto Sans Symbols2", serif; }
table.board th { font-weight: normal; font-size: .8em; color: #666; padding: 0 .3em; }
td.lt { background: #f0d9b5; } td.dk { background: #b58863; }
td.hl { box-shadow: inset 0 0 0 3px #2a7de1; }
#where { font-family: ui-monospace, monospace; margin-top: .4em; max-width: 22em; }
.trunc { background: #fff3cd; border: 1px solid #e0b000; padding: .4em .6em; }
.legend { font-size: .9em; color: #444; max-width: 24em; }
.tree, .tree ul { list-style: none; margin: 0; padding-left: 1.3em; }
.tree { padding-left: 0; font-family: ui-monospace, monospace; font-size: .92em; }
.tree li { margin: .12em 0; }
.node { display: inline-block; padding: .05em .35em; border: 1px solid #ccc;
  border-radius: 4px; background: #fff; cursor: default; }
summary.node { cursor: pointer; }
summary.node::-webkit-details-marker { display: none; }
summary.node::before { content: "\25B8\00A0"; color: #888; }
details[open] > summary.node::before { content: "\25BE\00A0"; }
.node:hover, .node:focus, .node.sel { background: #e8f0fe; outline: none; }
.node.pv { border: 2px solid #2a7de1; }
.node.pruned { border-style: dashed; color: #777; background: #f4f4f4; }
.node.more { border: none; background: none; color: #a06000; }
.mv { font-weight: bold; }
.side { color: #888; }
.win { color: #555; }
.end { color: #555; font-style: italic; }
.end.cut { color: #b35c00; }
.end.tt { color: #6b3fa0; }
.end.over { color: #b00020; }
.end.trunc { color: #a06000; }
.chk { color: #b00020; }
.why { font-style: italic; }
button { margin-right: .4em; }
"#;

const HTML_SCRIPT: &str = r#"
(function () {
  var glyphs = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
                 k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F\uFE0E' };
  var files = 'abcdefgh';
  function draw(el) {
    var fen = el.getAttribute('data-fen');
    if (!fen) { return; }
    var rows = fen.split(' ')[0].split('/');
    if (rows.length !== 8) { return; }
    var from = el.getAttribute('data-from'), to = el.getAttribute('data-to');
    for (var r = 0; r < 8; r++) {
      var f = 0, row = rows[r];
      for (var i = 0; i < row.length && f < 8; i++) {
        var c = row.charAt(i);
        if (c >= '1' && c <= '8') {
          for (var k = 0; k < +c && f < 8; k++, f++) { set(f, 7 - r, ''); }
        } else { set(f, 7 - r, glyphs[c] || ''); f++; }
      }
      for (; f < 8; f++) { set(f, 7 - r, ''); }
    }
    function set(file, rank, text) {
      var name = files.charAt(file) + (rank + 1);
      var td = document.getElementById('sq-' + name);
      if (!td) { return; }
      td.textContent = text;
      td.classList.toggle('hl', name === from || name === to);
    }
    var side = fen.split(' ')[1] === 'b' ? 'Black' : 'White';
    var path = el.getAttribute('data-path') || '';
    document.getElementById('where').textContent =
      (path ? 'After ' + path : 'Root position') + ' (' + side + ' to move)';
    var old = document.querySelector('.node.sel');
    if (old) { old.classList.remove('sel'); }
    el.classList.add('sel');
  }
  var nodes = document.querySelectorAll('[data-fen]');
  for (var i = 0; i < nodes.length; i++) {
    (function (el) {
      el.addEventListener('mouseenter', function () { draw(el); });
      el.addEventListener('focus', function () { draw(el); });
    })(nodes[i]);
  }
  window.qtreeToggle = function (open) {
    var ds = document.querySelectorAll('.tree details');
    for (var i = 0; i < ds.length; i++) { ds[i].open = open; }
  };
})();
"#;

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
    let _ = writeln!(out, "<style>{HTML_STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(
        out,
        "<h1>Quiescence tree</h1>\n<p class=\"meta\">Position <code>{}</code> ({} to move)</p>",
        html_escape(&tree.fen),
        color_name(tree.side_to_move)
    );
    let _ = writeln!(
        out,
        "<p class=\"meta\">Root window [{}, {}]; result <b>{}</b> for {}; PV: <b>{}</b></p>",
        html_escape(&score_text(tree.alpha)),
        html_escape(&score_text(tree.beta)),
        html_escape(&score_text(tree.score)),
        color_name(tree.side_to_move),
        html_escape(&if tree.pv.is_empty() {
            "(none: standing pat is best)".to_string()
        } else {
            tree.pv.join(" ")
        })
    );
    let _ = writeln!(
        out,
        "<p class=\"meta\">{} nodes shown: {} searched, {} pruned leaves; {} q-nodes searched in all.</p>",
        tree.node_count() + tree.pruned_count(),
        tree.node_count(),
        tree.pruned_count(),
        tree.qnodes
    );
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
         returned score, then why the node ended; +Mn/-Mn is a mate n plies from the root. Blue frame: the principal variation (also \
         marked *). Dashed grey: moves that were not searched. Point at a node to see its \
         position.</p>\n</div>\n<div class=\"tree-panel\">\n",
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
    let _ = writeln!(out, "<script>{HTML_SCRIPT}</script>\n</body>\n</html>");
    out
}

/// Renders the tree in `format`.
pub fn render(tree: &QTree, pos: &Position, format: Format) -> String {
    match format {
        Format::Text => render_text(tree, pos),
        Format::Dot => render_dot(tree),
        Format::Html => render_html(tree, pos),
    }
}

/// The arguments of `lull qtree`.
#[derive(Clone, Debug)]
pub struct QtreeArgs {
    /// FEN words (joined with spaces); empty for the built-in position.
    pub fen: Vec<String>,
    /// Root alpha.
    pub alpha: i32,
    /// Root beta.
    pub beta: i32,
    /// At most this many tree nodes (searched nodes plus pruned leaves).
    pub max_nodes: usize,
    /// Output format.
    pub format: Format,
    /// UCI options for the engine, as `Name=Value`.
    pub options: Vec<String>,
}

impl Default for QtreeArgs {
    fn default() -> Self {
        Self {
            fen: Vec::new(),
            alpha: -INFINITY,
            beta: INFINITY,
            max_nodes: DEFAULT_MAX_NODES,
            format: Format::Text,
            options: Vec::new(),
        }
    }
}

/// Runs `lull qtree` and returns the document to print. Errors (bad FEN, bad window, bad
/// option) are messages for the user.
pub fn run_qtree(args: &QtreeArgs) -> Result<String, String> {
    let builtin = args.fen.is_empty();
    let text = if builtin {
        QTREE_FEN.to_string()
    } else {
        args.fen.join(" ")
    };
    let pos = Position::from_fen(&text)?;
    for (name, value) in [("alpha", args.alpha), ("beta", args.beta)] {
        if !(-INFINITY..=INFINITY).contains(&value) {
            return Err(format!(
                "--{name} {value} is outside [-{INFINITY}, {INFINITY}]"
            ));
        }
    }
    if args.alpha >= args.beta {
        return Err(format!(
            "--alpha ({}) must be below --beta ({})",
            args.alpha, args.beta
        ));
    }
    if args.max_nodes == 0 || args.max_nodes > MAX_MAX_NODES {
        return Err(format!(
            "--max-nodes must be from 1 to {MAX_MAX_NODES}, not {}",
            args.max_nodes
        ));
    }
    let mut engine = Engine::new(QTREE_HASH_MIB);
    engine.set_report_sink(None);
    for opt in &args.options {
        let (name, value) = split_assignment(opt);
        apply_option(&mut engine, name, value).map_err(|e| format!("--option {opt}: {e}"))?;
    }
    let tree = qtree(&mut engine, &pos, args.alpha, args.beta, args.max_nodes);
    let mut doc = render(&tree, &pos, args.format);
    if builtin && args.format == Format::Text {
        doc.push('\n');
        doc.push_str(QTREE_NOTE);
        doc.push('\n');
    }
    Ok(doc)
}

/// The whole `lull qtree` command: runs it and writes the document to `output` (a file) or to
/// standard output. Errors go to standard error: exit code 2 for bad arguments, 1 when the
/// output cannot be written.
pub fn cmd_qtree(args: &QtreeArgs, output: Option<&PathBuf>) -> ExitCode {
    let doc = match run_qtree(args) {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let written = match output {
        Some(path) => std::fs::write(path, doc.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            lock.write_all(doc.as_bytes()).and_then(|()| lock.flush())
        }
        .or_else(|e| {
            // A closed pipe (`lull qtree | head`) is the reader's choice, not an error.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                Ok(())
            } else {
                Err(format!("cannot write to standard output: {e}"))
            }
        }),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

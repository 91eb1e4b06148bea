//! The quiescence tree: its model ([`QTree`], [`QNode`], [`PrunedMove`]) and its builder.
//!
//! [`Engine::quiesce`] records a traced quiescence search as a flat stream of events
//! ([`QTrace`]): each node is an `Enter` … `Exit` pair with its stand pat, its pruned moves and
//! its children nested in between. [`build_tree`] turns that stream into a tree of
//! [`QNode`]s, following the moves on a board so that each one can be written in SAN.
//!
//! Every score in the tree (window, stand pat, returned score) is from the point of view of
//! the side to move at that node, as negamax computes it: a child's score is negated in its
//! parent, and the child's window is the parent's window negated and swapped.

use cozy_chess::{Board, Color, Move};

use crate::params::INFINITY;
use crate::position::Position;
use crate::san::move_to_san;
use crate::search::{see, Engine, QEnd, QPrune, QTrace, QuiesceResult};

/// A searched node of the quiescence tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QNode {
    /// The move that led here (`None` at the root and after Beal's null move).
    pub mv: Option<Move>,
    /// Whether this node is the answer to a null move (Beal's null-move stand pat).
    pub null: bool,
    /// Whether this node lies in the search after a null move (the `(pass)` node and every
    /// node below it): its window is the parent's shifted by the stand pat and the evaluation
    /// after the pass, so its ends are numbers, never mates or infinity.
    pub in_null_search: bool,
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
            QEnd::Tablebase => "tablebase".to_string(),
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

    /// Why the search returned no line, in words, from what ended the root: a checkmate, a
    /// stalemate or a draw by rule has no move to play; standing pat is best where the root
    /// stood pat and no capture beat it; otherwise the root's end (a cap, a stop).
    pub fn no_line_text(&self) -> String {
        let Some(root) = &self.root else {
            return "the search recorded nothing".to_string();
        };
        match root.result.map(|(_, end)| end) {
            Some(QEnd::Mate) => "checkmate: the side to move has no legal move".to_string(),
            Some(QEnd::Stalemate) => "stalemate: no legal move, a draw".to_string(),
            Some(QEnd::Draw) => "a draw by rule (fifty moves or insufficient material)".to_string(),
            Some(QEnd::StandPat | QEnd::AllSearched | QEnd::Quiet | QEnd::BetaCutoff { .. })
                if root.stand_pat.is_some() =>
            {
                "standing pat is best".to_string()
            }
            _ => root.end_text(),
        }
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
                let parent_in_null = stack.last().is_some_and(|p| p.in_null_search);
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
                    in_null_search: null || parent_in_null,
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

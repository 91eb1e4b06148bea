//! `lull qtree`: the tree built from the trace of a quiescence search, checked node by node on
//! a small position worked out by hand, and its three renderings (text, Graphviz dot, HTML),
//! the `--max-nodes` cut, bad input, and robustness against any event stream.

use std::process::{Command, Output};

use lull::cozy_chess::Move;
use lull::eval::evaluate;
use lull::params::{INFINITY, MATE};
use lull::position::Position;
use lull::search::{Engine, QEnd, QPrune, QTrace};
use lull::tools::signed_score_text;
use lull::tools::teaching::qtree::{
    build_tree, qtree, render_dot, render_html, render_text, QChild, QNode, QTree, QTREE_FEN,
};

/// White to move. The black rook on d5 is defended once, by the pawn on e6; the pawn on a6
/// hangs to Ra1; the pawn on h6 is defended once, by the pawn on g7, and attacked by Ng4.
///
/// Worked out by hand from the rules of `qsearch.rs` (SEE values P=100 N=B=325 R=500;
/// delta margin 200; SEE threshold 0). The stand-pat numbers are `evaluate()`'s (material,
/// piece squares, mobility, pawn structure, king safety and tempo; the test checks each
/// against it), so a change of the evaluation means re-deriving them here.
///
/// * Root (White, window (-inf, +inf)): stand pat 515. Alpha = 515. Captures, in order: Bxd5
///   (rook for bishop: exchange +175, a good capture; the rook is the most valuable victim,
///   so first), Rxa6 (nothing defends a6: SEE +100, good), Nxh6+ (gxh6 wins the knight for
///   a pawn: SEE -225, a bad capture, last).
/// * Bxd5 (Black): window (-(MATE-1), -515): the root's beta was clamped to MATE-1 by mate
///   distance pruning before the child was entered. Stand pat -1040 < beta. The only
///   capture is exd5 (pawn takes bishop, +225).
///   * exd5 (White): window (515, 1040). Stand pat 699 < 1040; alpha = 699. Rxa6 (SEE +100)
///     first, then Nxh6+ (SEE -225).
///     * Rxa6 (Black): window (-1040, -699). Stand pat -816 < -699; Black has no capture
///       left: score -816.
///     * Back at exd5: 816 > alpha, < beta: alpha = 816. Nxh6+: delta does not prune it
///       (699 + 100 + 200 = 999 > 816), SEE does (-225 < 0): a SEE-pruned leaf.
///       All moves searched: score 816.
///   * Back at Bxd5: -816 > -1040 but < beta -515: all moves searched, score -816.
/// * Root: 816 > 515: alpha = 816 (PV Bxd5 exd5 Rxa6).
///   * Rxa6: delta-pruned: 515 + 100 + 200 = 815 cannot reach alpha 816.
///   * Nxh6+: delta-pruned likewise (delta is tested before SEE).
///   * All moves searched: score 816.
///
/// So: 4 searched nodes and 3 pruned leaves.
const HAND_FEN: &str = "6k1/6p1/p3p2p/3r4/6N1/1B6/5PPP/R5K1 w - - 0 1";

/// The text tree of [`HAND_FEN`], exactly.
const HAND_TREE: &str = "\
root  W  [-inf, +inf]  stand pat +515  score +816  all moves searched
├─ *Bxd5  B  [-M1, -515]  stand pat -1040  score -816  all moves searched
│  └─ *exd5  W  [+515, +1040]  stand pat +699  score +816  all moves searched
│     ├─ *Rxa6  B  [-1040, -699]  stand pat -816  score -816  no captures left
│     └─ Nxh6+  SEE pruned (exchange -225)
├─ Rxa6  delta pruned (cannot reach alpha)
└─ Nxh6+  delta pruned (cannot reach alpha)
";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid test FEN")
}

fn tree_of(fen: &str, max_nodes: usize) -> (Position, QTree) {
    let p = pos(fen);
    let mut engine = Engine::new(16);
    // The hand-checked tree is the hand-crafted evaluation's.
    engine.set_use_nnue(false).unwrap();
    let t = qtree(&mut engine, &p, -INFINITY, INFINITY, max_nodes);
    (p, t)
}

/// `lull` with `args`, and with the hand-crafted evaluation when the command is `qtree` (the
/// hand-checked tree is its).
fn lull(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lull"));
    command.args(args);
    if args.first() == Some(&"qtree") {
        command.args(["--option", "Use NNUE=false"]);
    }
    command.output().expect("run lull")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every node and leaf label of a tree, in pre-order.
fn labels(node: &QNode, out: &mut Vec<String>) {
    out.push(node.label.clone());
    for c in &node.children {
        match c {
            QChild::Node(n) => labels(n, out),
            QChild::Pruned(p) => out.push(p.label.clone()),
        }
    }
}

/// Checks what holds at every node whatever the position: the stand pat is the static
/// evaluation, a child's window is its parent's negated and swapped (with alpha raised by
/// the stand pat and the earlier children), and the parent's score is the best of its
/// stand pat and its children's negated scores.
fn check_negamax(node: &QNode) {
    let board = node.board.as_ref().expect("board followed");
    if let Some(sp) = node.stand_pat {
        assert_eq!(sp, evaluate(board), "stand pat of {}", node.label);
    }
    let Some((score, end)) = node.result else {
        return;
    };
    let mut best = node.stand_pat.unwrap_or(-MATE);
    for child in node.nodes() {
        check_negamax(child);
        let (cs, _) = child.result.expect("complete tree");
        best = best.max(-cs);
        assert!(
            child.beta <= -node.alpha,
            "child window inside the parent's"
        );
    }
    if matches!(end, QEnd::AllSearched | QEnd::Quiet | QEnd::StandPat) {
        assert_eq!(score, best, "score of {}", node.label);
    }
}

#[test]
fn hand_checked_tree_node_by_node() {
    let (p, t) = tree_of(HAND_FEN, 1000);
    assert!(!t.truncated);
    assert_eq!(t.score, 816);
    assert_eq!(t.pv, ["Bxd5", "exd5", "Rxa6"]);
    assert_eq!((t.node_count(), t.pruned_count()), (4, 3));
    let root = t.root.as_ref().expect("a tree");
    check_negamax(root);

    assert_eq!(root.label, "root");
    assert_eq!((root.alpha, root.beta), (-INFINITY, INFINITY));
    assert_eq!(root.stand_pat, Some(515));
    assert_eq!(root.stand_pat, Some(evaluate(p.board())));
    assert_eq!(root.result, Some((816, QEnd::AllSearched)));
    let kids: Vec<String> = root
        .children
        .iter()
        .map(|c| match c {
            QChild::Node(n) => n.label.clone(),
            QChild::Pruned(p) => format!("{} pruned", p.label),
        })
        .collect();
    assert_eq!(kids, ["Bxd5", "Rxa6 pruned", "Nxh6+ pruned"]);

    let bxd5 = root.child("Bxd5").expect("Bxd5 searched");
    assert!(bxd5.on_pv);
    assert_eq!((bxd5.alpha, bxd5.beta), (-(MATE - 1), -515));
    assert_eq!(bxd5.stand_pat, Some(-1040));
    assert_eq!(bxd5.result, Some((-816, QEnd::AllSearched)));
    assert_eq!(bxd5.children.len(), 1);

    let exd5 = bxd5.child("exd5").expect("exd5 searched");
    assert_eq!((exd5.alpha, exd5.beta), (515, 1040));
    assert_eq!(exd5.stand_pat, Some(699));
    assert_eq!(exd5.result, Some((816, QEnd::AllSearched)));
    assert_eq!(exd5.children.len(), 2);

    let deep_rxa6 = exd5.child("Rxa6").expect("Rxa6 searched");
    assert!(deep_rxa6.on_pv);
    assert_eq!((deep_rxa6.alpha, deep_rxa6.beta), (-1040, -699));
    assert_eq!(deep_rxa6.stand_pat, Some(-816));
    assert_eq!(deep_rxa6.result, Some((-816, QEnd::Quiet)));
    assert!(deep_rxa6.children.is_empty());

    let deep_pruned: Vec<_> = exd5.pruned().collect();
    assert_eq!(deep_pruned.len(), 1);
    assert_eq!(deep_pruned[0].label, "Nxh6+");
    assert_eq!(deep_pruned[0].reason, QPrune::See);
    assert_eq!(deep_pruned[0].see, Some(-225));

    let root_pruned: Vec<_> = root.pruned().collect();
    assert_eq!(root_pruned.len(), 2);
    assert!(root_pruned.iter().all(|p| p.reason == QPrune::Delta));
    assert_eq!(root_pruned[0].mv, p.parse_uci_move("a1a6").unwrap());
    assert_eq!(root_pruned[1].mv, p.parse_uci_move("g4h6").unwrap());
}

#[test]
fn hand_checked_tree_as_text() {
    let (p, t) = tree_of(HAND_FEN, 1000);
    let text = render_text(&t, &p);
    let tree: String = text
        .lines()
        .skip_while(|l| !l.starts_with("root"))
        .take_while(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(tree, HAND_TREE);
    assert!(text.contains("from the point of view of the side to move"));
    assert!(text.contains("result +816 for White; PV: Bxd5 exd5 Rxa6"));
    assert!(text.contains("7 nodes shown: 4 searched, 3 pruned leaves"));
    assert!(!text.contains("TRUNCATED"));

    // The command prints the same tree.
    let out = lull(&["qtree", HAND_FEN]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(HAND_TREE), "{}", stdout(&out));
}

#[test]
fn window_from_the_command_line() {
    // Root window (-50, 50): the stand pat 515 already reaches beta.
    let out = lull(&["qtree", HAND_FEN, "--alpha", "-50", "--beta", "50"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("root  W  [-50, +50]  stand pat +515  score +515  stand pat >= beta"),
        "{text}"
    );
    assert!(text.contains("1 nodes shown: 1 searched, 0 pruned leaves"));
    // A window above everything: every move fails low.
    let out = lull(&["qtree", HAND_FEN, "--alpha=900", "--beta=1000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("root  W  [+900, +1000]"));
}

/// Braces outside double-quoted strings balance, and never go negative.
fn dot_braces_balance(dot: &str) -> bool {
    let mut depth = 0i32;
    let mut in_string = false;
    let mut escaped = false;
    for c in dot.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0 && !in_string
}

fn dot_node_lines(dot: &str) -> usize {
    dot.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with('n')
                && l.split_whitespace()
                    .nth(1)
                    .is_some_and(|w| w.starts_with('['))
                && l[1..].chars().take_while(char::is_ascii_digit).count() > 0
        })
        .count()
}

#[test]
fn dot_is_a_digraph_with_one_line_per_node() {
    for fen in [HAND_FEN, QTREE_FEN] {
        let (_, t) = tree_of(fen, 1000);
        let dot = render_dot(&t);
        assert!(dot.starts_with("digraph"), "{dot}");
        assert!(dot.trim_end().ends_with('}'));
        assert!(dot_braces_balance(&dot), "{dot}");
        let shown = t.node_count() + t.pruned_count();
        assert_eq!(dot_node_lines(&dot), shown, "{dot}");
        // Edges: one per node but the root.
        assert_eq!(dot.matches(" -> ").count(), shown - 1);
        // Pruned leaves are dashed, and there are as many as pruned moves.
        assert_eq!(
            dot.lines()
                .filter(|l| l.contains("style=dashed, fontcolor"))
                .count(),
            t.pruned_count()
        );
    }
    // Through the command too.
    let out = lull(&["qtree", HAND_FEN, "--format", "dot"]);
    assert!(out.status.success());
    let dot = stdout(&out);
    assert!(dot.starts_with("digraph"));
    assert_eq!(dot_node_lines(&dot), 7);
    assert!(dot.contains("delta pruned"));
    assert!(dot.contains("SEE pruned (exchange -225)"));
}

#[test]
fn html_is_self_contained_and_shows_every_move() {
    for fen in [HAND_FEN, QTREE_FEN] {
        let (p, t) = tree_of(fen, 1000);
        let html = render_html(&t, &p);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.trim_end().ends_with("</html>"));
        let lower = html.to_ascii_lowercase();
        assert!(!lower.contains("http://") && !lower.contains("https://"));
        assert!(!lower.contains("src=") && !lower.contains("<link"));
        assert!(!lower.contains("href="));
        assert!(lower.contains("<style>") && lower.contains("<script>"));
        assert!(html.contains("<table class=\"board\""));
        assert!(html.contains("<details") && html.contains("<summary"));
        // Every move of the tree appears, and the board shows every piece of the position.
        let mut all = Vec::new();
        labels(t.root.as_ref().unwrap(), &mut all);
        for label in &all {
            assert!(
                html.contains(&format!("<span class=\"mv\">{label}</span>"))
                    || html.contains(&format!("<span class=\"mv\">*{label}</span>")),
                "{label} missing"
            );
        }
        let pieces = p.board().occupied().len() as usize;
        let glyphs = "♔♕♖♗♘♙♚♛♜♝♞♟";
        let board_html = &html[html.find("<table class=\"board\"").unwrap()..];
        let board_html = &board_html[..board_html.find("</table>").unwrap()];
        assert_eq!(
            board_html.chars().filter(|c| glyphs.contains(*c)).count(),
            pieces
        );
        assert_eq!(
            html.matches("<details").count(),
            html.matches("</details>").count()
        );
    }
    // Written to a file by the command.
    let path = std::env::temp_dir().join(format!("lull-qtree-test-{}.html", std::process::id()));
    let out = lull(&[
        "qtree",
        "--format",
        "html",
        "-o",
        path.to_str().expect("utf-8 temp path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let html = std::fs::read_to_string(&path).expect("html written");
    let _ = std::fs::remove_file(&path);
    assert!(html.contains("Bxg4") && html.contains("Nxd5"));
}

#[test]
fn max_nodes_cuts_the_tree_and_says_so() {
    let (_, full) = tree_of(QTREE_FEN, 100_000);
    assert!(!full.truncated);
    let total = full.node_count() + full.pruned_count();
    assert!(
        total > 20,
        "the built-in position has an interesting tree: {total}"
    );
    for n in 1..=total + 2 {
        let (p, t) = tree_of(QTREE_FEN, n);
        let shown = t.node_count() + t.pruned_count();
        assert_eq!(shown, n.min(total), "max {n}");
        assert_eq!(t.truncated, n < total, "max {n}");
        for text in [render_text(&t, &p), render_dot(&t), render_html(&t, &p)] {
            assert_eq!(text.contains("TRUNCATED"), n < total, "max {n}");
        }
        // The kept part is the beginning of the full tree.
        let (mut a, mut b) = (Vec::new(), Vec::new());
        labels(t.root.as_ref().unwrap(), &mut a);
        labels(full.root.as_ref().unwrap(), &mut b);
        assert_eq!(a[..], b[..a.len()], "max {n}");
    }
    let out = lull(&["qtree", "--max-nodes", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("TRUNCATED"), "{text}");
    assert!(text.contains("--max-nodes 5"), "{text}");
    assert!(text.contains("not shown (--max-nodes)"), "{text}");
    let node_lines = text
        .lines()
        .filter(|l| (l.starts_with("root") || l.contains("─ ")) && !l.contains("not shown"))
        .count();
    assert_eq!(node_lines, 5, "{text}");
    assert!(text.contains("5 nodes shown"));
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    let cases: &[&[&str]] = &[
        &["qtree", "not a fen"],
        &["qtree", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["qtree", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR", "w"],
        &["qtree", "--alpha", "10", "--beta", "10"],
        &["qtree", "--alpha", "100", "--beta", "-100"],
        &["qtree", "--beta", "99999"],
        &["qtree", "--max-nodes", "0"],
        &["qtree", "--format", "pdf"],
        &["qtree", "--option", "NoSuchOption=1"],
        &["qtree", "--option", "QSearchSEE=lots"],
    ];
    for args in cases {
        let out = lull(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = lull(&["qtree", "not a fen"]);
    assert!(
        stderr(&out).starts_with("error: invalid FEN"),
        "{}",
        stderr(&out)
    );
    // An unwritable output file is an error too.
    let out = lull(&["qtree", "-o", "/nonexistent-dir/x/tree.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot write"));
}

#[test]
fn game_ends_and_checks_are_named() {
    let cases = [
        // Fool's mate: White to move is mated at the root.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "checkmate",
        ),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", "draw"),
        // In check: every evasion is searched, no stand pat.
        ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "in check"),
        // Quiet: nothing to capture.
        ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "no captures left"),
    ];
    for (fen, words) in cases {
        let (p, t) = tree_of(fen, 1000);
        let text = render_text(&t, &p);
        assert!(text.contains(words), "{fen}: {text}");
        let _ = render_dot(&t);
        let _ = render_html(&t, &p);
    }
    // A mate found inside the quiescence search is written as a mate.
    assert_eq!(signed_score_text(MATE - 3), "+M3");
    assert_eq!(signed_score_text(-(MATE - 2)), "-M2");
    assert_eq!(signed_score_text(INFINITY), "+inf");
    assert_eq!(signed_score_text(-INFINITY), "-inf");
    assert_eq!(signed_score_text(0), "0");
    assert_eq!(signed_score_text(-35), "-35");
}

/// `lull qtree` on a checkmated root said "PV: (none: standing pat is best)", and the same on a
/// stalemate, where no one stands pat: the line now says what ended the root. `LULL_BIN` names
/// another build to run.
#[test]
fn a_game_end_at_the_root_says_why_there_is_no_line() {
    let bin = std::env::var("LULL_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_lull").into());
    for (fen, why) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "PV: (none: checkmate: the side to move has no legal move)",
        ),
        (
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "PV: (none: checkmate: the side to move has no legal move)",
        ),
        (
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "PV: (none: stalemate: no legal move, a draw)",
        ),
        (
            "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
            "PV: (none: a draw by rule",
        ),
        (
            "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1",
            "PV: (none: standing pat is best)",
        ),
    ] {
        let out = Command::new(&bin)
            .args(["qtree", fen])
            .output()
            .expect("run lull");
        let text = stdout(&out);
        assert!(out.status.success(), "{fen}: {}", stderr(&out));
        assert!(text.contains(why), "{fen}: {text}");
        let html = Command::new(&bin)
            .args(["qtree", "--format", "html", fen])
            .output()
            .expect("run lull");
        let why_html = why.replace("(", "").replace(")", "");
        let why_html = why_html.trim_start_matches("PV: none: ");
        assert!(stdout(&html).contains(why_html), "{fen}: html");
    }
}

/// A small deterministic generator for the robustness test.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn any_event_stream_builds_and_renders_without_panic() {
    let p = pos(QTREE_FEN);
    let mut legal = p.legal_moves();
    // Moves that are illegal here, or nonsense.
    legal.push("a1a1".parse::<Move>().unwrap());
    legal.push("h7h8q".parse::<Move>().unwrap());
    legal.push("e8g8".parse::<Move>().unwrap());
    let ends = [
        QEnd::Stopped,
        QEnd::Draw,
        QEnd::PlyCap,
        QEnd::NodeCap,
        QEnd::MateDistance,
        QEnd::TtCutoff,
        QEnd::Tablebase,
        QEnd::StandPat,
        QEnd::BetaCutoff { after: 7 },
        QEnd::AllSearched,
        QEnd::Quiet,
        QEnd::Mate,
        QEnd::Stalemate,
    ];
    let reasons = [QPrune::Delta, QPrune::See, QPrune::NotRecapture];
    let mut rng = Lcg(42);
    for round in 0..300u32 {
        let len = (rng.next() % 60) as usize;
        let trace: Vec<QTrace> = (0..len)
            .map(|_| {
                let r = rng.next();
                let mv = legal[(r as usize / 7) % legal.len()];
                let score = (r % 70_000) as i32 - 35_000;
                match r % 4 {
                    0 => QTrace::Enter {
                        mv: if r.is_multiple_of(5) { None } else { Some(mv) },
                        alpha: score,
                        beta: score.saturating_add((r % 1000) as i32),
                        qply: (r % 40) as i32,
                        in_check: r.is_multiple_of(3),
                    },
                    1 => QTrace::StandPat(score),
                    2 => QTrace::Pruned {
                        mv,
                        reason: reasons[(r % 3) as usize],
                    },
                    _ => QTrace::Exit {
                        score,
                        end: ends[(r % ends.len() as u64) as usize],
                    },
                }
            })
            .collect();
        let max = 1 + (rng.next() % 50) as usize;
        let (root, _) = build_tree(&p, &trace, max);
        let t = QTree {
            fen: p.fen(),
            side_to_move: p.side_to_move(),
            alpha: -INFINITY,
            beta: INFINITY,
            score: 0,
            pv: Vec::new(),
            qnodes: 0,
            root,
            truncated: round.is_multiple_of(2),
            max_nodes: max,
        };
        assert!(t.node_count() + t.pruned_count() <= max);
        let text = render_text(&t, &p);
        let dot = render_dot(&t);
        let html = render_html(&t, &p);
        assert!(dot.starts_with("digraph") && dot_braces_balance(&dot));
        assert!(!text.is_empty() && html.ends_with("</html>\n"));
    }
}

/// A window bound beyond the mate scores but short of infinity (`--beta 32499`) was written
/// as a mate in a negative number of plies (`+M-499`); it is written as its number.
/// `LULL_BIN` names another build to run.
#[test]
fn a_window_beyond_the_mate_scores_is_written_as_its_number() {
    let bin = std::env::var("LULL_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_lull").into());
    let out = Command::new(&bin)
        .args(["qtree", "--alpha", "-32100", "--beta", "32499"])
        .output()
        .expect("run lull");
    let text = stdout(&out);
    assert!(text.contains("Root window [-32100, +32499]"), "{text}");
    assert!(!text.contains("M-"), "{text}");
    // After Beal's null move the window is the parent's shifted by the stand pat and the
    // evaluation after the pass: its ends fell in the mate range and read `[-M42, +M-41]`.
    let out = Command::new(&bin)
        .args([
            "qtree",
            "--option",
            "QSearchNullMove=2",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        ])
        .output()
        .expect("run lull");
    let text = stdout(&out);
    let pass = text
        .lines()
        .find(|l| l.contains("(pass)  "))
        .unwrap_or_else(|| panic!("no null move: {text}"));
    let window = pass.split(['[', ']']).nth(1).unwrap_or_default();
    assert!(
        !window.contains('M') && !window.contains("inf") && window.starts_with('-'),
        "{pass}"
    );
}

/// `lull qtree --help` gives each argument's default once (the bounds said "-infinity" in
/// their text and -32500 in clap's `[default: …]`).
#[test]
fn qtree_help_gives_each_default_once() {
    let twice = crate::tools::defaults_said_twice(&["qtree"]);
    assert!(
        twice.is_empty(),
        "defaults given twice:\n{}",
        twice.join("\n")
    );
}

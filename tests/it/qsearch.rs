//! The quiescence search and its options, tested on positions from the literature and on
//! positions built to show one idea each. Every test states the direction an option moves
//! the result in, and checks it with a score bound and a sign.

use lull::cozy_chess::Move;
use lull::eval::evaluate;
use lull::params::{MATE, MATE_BOUND};
use lull::position::Position;
use lull::search::{Engine, NullMoveQs, QEnd, QPrune, QSearchOptions, QTrace, SearchResult};
use lull::time::Limits;

const INF: i32 = lull::params::INFINITY;

/// An engine with the hand-crafted evaluation: the examples of this file were worked out by
/// hand with its numbers (the network's differ and would move every margin).
fn hce_engine() -> Engine {
    let mut e = Engine::new(16);
    e.set_use_nnue(false).unwrap();
    e
}

fn engine_with(f: impl FnOnce(&mut QSearchOptions)) -> Engine {
    let mut e = hce_engine();
    f(&mut e.options.qs);
    e
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid test FEN")
}

fn mv(p: &Position, uci: &str) -> Move {
    p.parse_uci_move(uci).expect("legal test move")
}

fn search(e: &mut Engine, p: &Position, depth: i32, only: &[&str]) -> SearchResult {
    let moves: Vec<Move> = only.iter().map(|m| mv(p, m)).collect();
    e.clear();
    e.search(p, &Limits::depth(depth), &moves)
}

/// Queen takes a pawn defended by a pawn at the last ply of the main search.
const QXP_DEFENDED: &str = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1";

#[test]
fn horizon_effect_queen_takes_defended_pawn() {
    let p = pos(QXP_DEFENDED);
    let before = evaluate(p.board());
    // Without the quiescence search the line ends after QxP: a pawn won.
    let mut off = engine_with(|q| q.enabled = false);
    let r_off = search(&mut off, &p, 1, &["d1d5"]);
    assert!(
        r_off.score > before + 50,
        "without qsearch QxP looks like a won pawn: {} vs {before}",
        r_off.score
    );
    // With it, exd5 is seen: the queen is lost.
    let mut on = engine_with(|_| {});
    let r_on = search(&mut on, &p, 1, &["d1d5"]);
    assert!(
        r_on.score < before - 700,
        "with qsearch QxP loses the queen: {} vs {before}",
        r_on.score
    );
    // The PV shows the recapture that the quiescence search resolved.
    assert_eq!(r_on.pv.len(), 2, "pv {:?}", r_on.pv);
    assert_eq!(
        r_on.pv[1],
        mv(
            &{
                let mut q = p.clone();
                q.play(mv(&p, "d1d5"));
                q
            },
            "e6d5"
        )
    );
    // Left free to choose, the engine with qsearch does not take.
    let free = search(&mut on, &p, 1, &[]);
    assert_ne!(free.best_move, Some(mv(&p, "d1d5")));
}

/// Literature example (a): material up a little, a queen grabs a defended pawn at the
/// horizon. A d-ply search without quiescence scores the line about +300; with it, the queen
/// is lost and the line scores about -700.
#[test]
fn horizon_score_flips_from_plus_300_to_minus_700() {
    let p = pos("rn4k1/5ppp/4p3/3p4/8/6NP/5PP1/3Q2K1 w - - 0 1");
    for depth in [1, 3] {
        let mut off = engine_with(|q| q.enabled = false);
        let mut on = engine_with(|_| {});
        let s_off = search(&mut off, &p, depth, &["d1d5"]).score;
        let s_on = search(&mut on, &p, depth, &["d1d5"]).score;
        eprintln!("depth {depth}: QxP scores {s_off} without qsearch, {s_on} with it");
        if depth == 1 {
            assert!((150..=500).contains(&s_off), "about +300: {s_off}");
        }
        assert!((-950..=-450).contains(&s_on), "about -700: {s_on}");
    }
}

/// The pinned queen of the literature (5r1k/4Qpq1/...): the black queen on g7 is pinned by
/// the bishop on a1, and a search with a weak quiescence search pushes pawns into the diagonal
/// (…d4, …c3, …b2) to move the loss past the horizon. The real defence is ...f6: it blocks the
/// diagonal with a pawn that the rook and queen defend, and after Bxf6 Rxf6 gxf6 the queen is
/// free (Stockfish at depth 20: f6, 0.00). At 12 plies Lull blocks the diagonal with its
/// default quiescence search (…f6, or …e5, which a pawn that takes it keeps closed) and is
/// not lost. The README's table of what each setting plays at 12 plies is what this test
/// measures (move, score, nodes), row for row.
#[test]
fn pinned_queen_with_pawn_sacrifices() {
    let p = pos("5r1k/4Qpq1/4p3/1p1p2P1/2p2P2/1p2P3/3P4/BK6 b - - 0 1");
    type Config = (&'static str, fn(&mut QSearchOptions));
    let configs: [Config; 4] = [
        ("default (captures only)", |_| {}),
        ("`QSearch false`", |q| q.enabled = false),
        ("`QSearchChecks 1`", |q| q.check_plies = 1),
        ("`QSearchNullMove 2`", |q| {
            q.null_move = NullMoveQs::EveryPly
        }),
    ];
    let mut measured = Vec::new();
    for (name, f) in configs {
        let mut e = engine_with(f);
        let r = search(&mut e, &p, 12, &[]);
        let best = r.best_move.expect("a move");
        if name.starts_with("default") {
            // A block of the diagonal (…f6, or …e5 which a pawn that takes it keeps
            // closed), never a pawn thrown in to push the loss past the horizon.
            let uci = p.move_to_uci(best);
            assert!(["f7f6", "e6e5"].contains(&uci.as_str()), "a block: {uci}");
            assert!(r.score > -200, "not lost: {}", r.score);
        }
        let san = lull::san::line_to_san(p.board(), &[best]).remove(0);
        // The README writes a minus sign, not a hyphen.
        let score = format!("{:+.2}", f64::from(r.score) / 100.0).replace('-', "−");
        measured.push(format!(
            "| {name} | …{san} | {score} | {} |",
            thousands(r.nodes)
        ));
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let section = readme
        .split("### The pinned queen of the literature")
        .nth(1)
        .expect("the README's pinned-queen section");
    // The first four columns of the table's rows (the fifth says why).
    let quoted: Vec<String> = section
        .lines()
        .skip_while(|l| !l.starts_with("| setting "))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').collect();
            format!("|{}|", cells[1..5].join("|"))
        })
        .collect();
    assert_eq!(
        quoted,
        measured,
        "the README's pinned-queen table should read\n{}",
        measured.join("\n")
    );
}

/// `n` with a comma between thousands, as the README writes node counts.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn mate_inside_qsearch_is_found_and_suffered() {
    // Black to move is checkmated (back rank): the quiescence search, entered in check,
    // finds no evasion and returns a mate score.
    let p = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    let mut e = engine_with(|_| {});
    let r = e.quiesce(&p, -INF, INF, 0);
    assert_eq!(r.score, -MATE, "mated at the root of the quiescence search");
    // White to move mates with a capture: Qxf7# (queen protected by the bishop).
    let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let r = e.quiesce(&p, -INF, INF, 0);
    assert_eq!(r.score, MATE - 1, "Qxf7# found as a capture: {:?}", r.pv);
    assert_eq!(r.pv.first(), Some(&mv(&p, "h5f7")));
    assert!(r.stats.q_mates >= 1);
}

#[test]
fn stalemate_inside_qsearch_is_a_draw() {
    // Black to move has no legal move and is not in check: 0, although the static
    // evaluation says Black is a queen down.
    let p = pos("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
    assert!(evaluate(p.board()) < -500);
    let mut e = engine_with(|_| {});
    let r = e.quiesce(&p, -INF, INF, 0);
    assert_eq!(r.score, 0);
    assert_eq!(r.stats.q_stalemates, 1);
    // One ply earlier: White's queen capture Qxg6 leaves Black stalemated; the quiescence
    // search below it sees a draw, not a won queen.
    let p = pos("7k/5K2/6n1/8/6Q1/8/8/8 w - - 0 1");
    let mut e = engine_with(|_| {});
    let r = search(&mut e, &p, 1, &["g4g6"]);
    assert_eq!(r.score, 0, "Qxg6 stalemates");
}

#[test]
fn fifty_move_rule_in_both_searches_but_mate_stands() {
    // The hundredth ply without capture or pawn move: a draw, in the quiescence search too,
    // although White is a queen up.
    let p = pos("4k3/8/8/8/8/8/3Q4/4K3 w - - 100 80");
    assert!(evaluate(p.board()) > 500);
    let mut e = engine_with(|_| {});
    let r = e.quiesce(&p, -INF, INF, 1000);
    assert_eq!(r.score, 0);
    assert!(
        matches!(
            r.trace.last(),
            Some(QTrace::Exit {
                end: QEnd::Draw,
                ..
            })
        ),
        "{:?}",
        r.trace.last()
    );
    // After 99 plies the main search sees that every queen move reaches the hundredth ply
    // (a draw), and so does every king move.
    let p99 = pos("4k3/8/8/8/8/8/3Q4/4K3 w - - 99 80");
    let r = search(&mut e, &p99, 2, &[]);
    assert_eq!(
        r.score, 0,
        "every move draws by the fifty-move rule: {:?}",
        r.pv
    );
    // A mate on the hundredth ply still stands: mated, in both searches.
    let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
    let r = e.quiesce(&mated, -INF, INF, 0);
    assert_eq!(r.score, -MATE);
    let p99 = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    let r = search(&mut e, &p99, 2, &["a1a8"]);
    assert_eq!(r.score, MATE - 1, "Ra8# on the hundredth ply wins");
}

/// Many queens that can take each other: the quiescence search must stay bounded.
const EXPLOSIVE: &str = "qqqqkqqq/8/8/8/8/8/8/QQQQKQQQ w - - 0 1";
const EXPLOSIVE_OPEN: &str = "1q1qkq1q/q1q3q1/8/8/8/8/Q1Q3Q1/1Q1QKQ1Q w - - 0 1";

#[test]
fn exploding_positions_stay_bounded() {
    for fen in [EXPLOSIVE, EXPLOSIVE_OPEN] {
        let p = pos(fen);
        // Worst case: no SEE pruning, no delta pruning, no TT.
        let mut wild = engine_with(|q| {
            q.see_threshold = -100_000;
            q.delta_margin = 0;
            q.use_tt = false;
        });
        let r = wild.quiesce(&p, -INF, INF, 0);
        eprintln!(
            "{fen}: {} q-nodes unpruned, max q-ply {}",
            r.stats.qnodes, r.stats.qply_max
        );
        assert!(r.stats.qply_max <= QSearchOptions::default().max_ply as u64);
        // With a node budget it is cut hard.
        let mut capped = engine_with(|q| {
            q.see_threshold = -100_000;
            q.delta_margin = 0;
            q.use_tt = false;
            q.max_nodes = 1_000;
        });
        let r = capped.quiesce(&p, -INF, INF, 0);
        assert!(
            r.stats.qnodes <= 1_000 + 64,
            "budget respected: {}",
            r.stats.qnodes
        );
        assert!(r.stats.q_capped > 0);
        // Default settings keep it small.
        let mut def = engine_with(|_| {});
        let r = def.quiesce(&p, -INF, INF, 0);
        assert!(
            r.stats.qnodes < 200_000,
            "default bounded: {}",
            r.stats.qnodes
        );
        // A depth-3 search of the position finishes too.
        let r = search(&mut def, &p, 3, &[]);
        assert!(r.best_move.is_some());
    }
}

#[test]
fn option_qsearch_max_ply_cuts_the_capture_chain() {
    // A long exchange on d5 (searched in full: no SEE pruning); with one q-ply the
    // recaptures are not seen.
    let p = pos("3r2k1/3r4/2n5/3p4/4P3/2N2N2/8/3R2K1 w - - 0 1");
    let mut full = engine_with(|q| q.see_threshold = -100_000);
    let mut short = engine_with(|q| {
        q.see_threshold = -100_000;
        q.max_ply = 1
    });
    let rf = full.quiesce(&p, -INF, INF, 0);
    let rs = short.quiesce(&p, -INF, INF, 0);
    assert!(rf.stats.qply_max >= 2);
    assert!(rs.stats.qply_max <= 1);
    assert!(rs.stats.q_capped > 0);
    assert_eq!(rf.stats.q_capped, 0);
}

#[test]
fn option_qsearch_checks_finds_quiet_mate_at_the_horizon() {
    // White mates with a quiet rook move (Re8#) — not a capture.
    let p = pos("6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1");
    let mut no_checks = engine_with(|q| q.check_plies = 0);
    let mut checks = engine_with(|q| q.check_plies = 1);
    let r0 = no_checks.quiesce(&p, -INF, INF, 0);
    let r1 = checks.quiesce(&p, -INF, INF, 0);
    assert!(
        r0.score < MATE_BOUND,
        "captures only: no mate seen ({})",
        r0.score
    );
    assert_eq!(
        r1.score,
        MATE - 1,
        "quiet check at q-ply 0 mates: {:?}",
        r1.pv
    );
    assert_eq!(r1.pv.first(), Some(&mv(&p, "e1e8")));
    assert!(r1.stats.q_checks_searched > 0);
    // At depth 1, Black to move: ...Kh8 walks into the same quiet mate. Only with checks
    // in the quiescence search is the mate seen at the horizon.
    let p = pos("6k1/5ppp/8/8/8/8/5PPP/4R1K1 b - - 0 1");
    let s0 = search(&mut no_checks, &p, 1, &["g8h8"]).score;
    let s1 = search(&mut checks, &p, 1, &["g8h8"]).score;
    assert!(s0 > -MATE_BOUND, "captures only: Kh8 looks fine ({s0})");
    assert_eq!(s1, -(MATE - 2), "with checks: Kh8 is mated by Re8#");
    // And free to choose, Black makes luft instead.
    let r = search(&mut checks, &p, 1, &[]);
    assert!(r.score > -MATE_BOUND, "a defence exists: {:?}", r.best_move);
}

#[test]
fn option_qsearch_see_threshold() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut strict = engine_with(|q| q.see_threshold = 0);
    let mut none = engine_with(|q| q.see_threshold = -100_000);
    let a = search(&mut strict, &p, 3, &[]).stats;
    let b = search(&mut none, &p, 3, &[]).stats;
    assert!(a.see_skips > 0);
    assert_eq!(b.see_skips, 0);
    assert!(
        b.qnodes > a.qnodes,
        "no SEE pruning searches more: {} vs {}",
        b.qnodes,
        a.qnodes
    );
}

#[test]
fn option_qsearch_delta_and_promotions_are_exempt() {
    // White is a queen and a rook down; Nxd5 cannot restore the balance, so it is
    // delta-pruned; the promotion bxa8=Q is never pruned, and wins.
    let p = pos("r3k2q/1P6/8/3p4/8/2N5/8/4K3 w - - 0 1");
    let mut delta = engine_with(|q| q.delta_margin = 200);
    let r = delta.quiesce(&p, -50, INF, 1000);
    assert!(r.stats.delta_skips >= 1, "Nxd5 is delta-pruned");
    let pruned: Vec<_> = r
        .trace
        .iter()
        .filter_map(|e| match e {
            QTrace::Pruned {
                mv,
                reason: QPrune::Delta,
            } => Some(*mv),
            _ => None,
        })
        .collect();
    assert!(pruned.iter().all(|m| m.promotion.is_none()), "{pruned:?}");
    assert!(
        r.score > -50,
        "the promotion bxa8=Q is searched and wins: {}",
        r.score
    );
    assert_eq!(r.pv.first(), Some(&mv(&p, "b7a8q")));
    let mut off = engine_with(|q| q.delta_margin = 0);
    let r = off.quiesce(&p, -50, INF, 0);
    assert_eq!(r.stats.delta_skips, 0);
}

#[test]
fn option_qsearch_tt() {
    let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let mut off = engine_with(|q| q.use_tt = false);
    let mut on = engine_with(|q| q.use_tt = true);
    let a = search(&mut off, &p, 4, &[]).stats;
    let b = search(&mut on, &p, 4, &[]).stats;
    assert_eq!(a.q_tt_probes, 0);
    assert!(b.q_tt_probes > 0 && b.q_tt_hits > 0);
}

#[test]
fn option_qsearch_underpromotions_finds_the_knight_fork() {
    // d8=N+ forks king e6 and queen b7; d8=Q wins less.
    let p = pos("8/1q1P4/4k3/8/8/7K/7P/8 w - - 0 1");
    let mut off = engine_with(|q| q.underpromotions = false);
    let mut on = engine_with(|q| q.underpromotions = true);
    let a = off.quiesce(&p, -INF, INF, 0);
    let b = on.quiesce(&p, -INF, INF, 0);
    eprintln!(
        "queen-only {} {:?}; with under-promotions {} {:?}",
        a.score, a.pv, b.score, b.pv
    );
    assert!(b.score > a.score + 150, "{} vs {}", b.score, a.score);
    assert_eq!(b.pv.first(), Some(&mv(&p, "d7d8n")));
}

#[test]
fn option_qsearch_pawn_pushes() {
    // A passed pawn on the sixth: the push to the seventh is searched only with the option.
    let p = pos("8/8/4P3/8/8/k7/8/K7 w - - 0 1");
    let mut off = engine_with(|q| q.pawn_pushes = false);
    let mut on = engine_with(|q| q.pawn_pushes = true);
    let a = off.quiesce(&p, -INF, INF, 0);
    let b = on.quiesce(&p, -INF, INF, 0);
    assert!(a.pv.is_empty());
    assert_eq!(b.pv.first(), Some(&mv(&p, "e6e7")));
    assert!(b.score > a.score);
}

#[test]
fn option_qsearch_recaptures_after() {
    let p = pos(EXPLOSIVE_OPEN);
    let mut all = engine_with(|q| q.recaptures_after = 0);
    let mut recap = engine_with(|q| q.recaptures_after = 1);
    let a = all.quiesce(&p, -INF, INF, 0).stats;
    let b = recap.quiesce(&p, -INF, INF, 0).stats;
    assert_eq!(a.recapture_skips, 0);
    assert!(b.recapture_skips > 0);
    assert!(b.qnodes < a.qnodes, "{} vs {}", b.qnodes, a.qnodes);
}

#[test]
fn option_qsearch_null_move_sees_hanging_pieces() {
    // White to move, its knight on d4 is attacked by a pawn and there is no capture: the
    // ordinary stand pat ignores the threat; Beal's null-move stand pat subtracts it.
    let p = pos("4k3/pp6/8/4p3/3N4/8/PP6/4K3 w - - 0 1");
    let mut plain = engine_with(|q| q.null_move = NullMoveQs::Off);
    let mut beal = engine_with(|q| q.null_move = NullMoveQs::Root);
    let a = plain.quiesce(&p, -INF, INF, 0);
    let b = beal.quiesce(&p, -INF, INF, 0);
    assert!(
        b.score < a.score - 150,
        "null-move stand pat {} vs {}",
        b.score,
        a.score
    );
    assert_eq!(b.stats.null_standpats, 1);
    assert_eq!(b.stats.null_standpat_lowered, 1);
    // Pawn-only material: no null move (zugzwang).
    let p = pos("4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1");
    let r = beal.quiesce(&p, -INF, INF, 0);
    assert_eq!(r.stats.null_standpats, 0);
}

#[test]
fn no_mate_score_from_a_pruned_position() {
    // Not in check, all captures lose (pruned by SEE): the result is the stand pat, never a
    // mate score.
    let p = pos("4k3/8/3p4/4p3/8/8/8/4KQ2 w - - 0 1");
    let mut e = engine_with(|_| {});
    let r = e.quiesce(&p, -INF, INF, 1000);
    assert!(r.score.abs() < MATE_BOUND);
    assert_eq!(r.score, evaluate(p.board()));
    // In check: every evasion is searched, even one that SEE would call losing.
    let p = pos("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    let r = e.quiesce(&p, -INF, INF, 1000);
    assert!(r.score > -MATE_BOUND, "Kxd2 is found: {:?}", r.pv);
    assert!(r.stats.evasion_nodes >= 1);
    assert!(matches!(r.trace.last(), Some(QTrace::Exit { end, .. }) if *end != QEnd::Mate));
}

/// The `CaptureHistory` option (main-search capture ordering, off by default): it changes
/// the tree, every search with it is deterministic, and both find the winning capture.
#[test]
fn capture_history_option_changes_the_tree_not_the_answer() {
    // The black knight on d5 hangs to the knight on c3.
    let p = pos("r3k2r/ppp2ppp/2n5/3n4/8/2N2N2/PPP2PPP/R1B1KB1R w KQkq - 0 1");
    let run = |on: bool| {
        let mut e = hce_engine();
        e.options.capture_history = on;
        let r = search(&mut e, &p, 8, &[]);
        (r.best_move, r.nodes, r.score)
    };
    let (off_move, off_nodes, off_score) = run(false);
    let (on_move, on_nodes, on_score) = run(true);
    assert_eq!(run(true).1, on_nodes, "deterministic with the option");
    assert_ne!(on_nodes, off_nodes, "the option changes the search tree");
    let nxd5 = mv(&p, "c3d5");
    assert_eq!(off_move, Some(nxd5));
    assert_eq!(on_move, Some(nxd5));
    assert!(off_score > 200 && on_score > 200, "{off_score} {on_score}");
}

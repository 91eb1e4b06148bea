//! The guided tour of `lull explore`: a handful of positions of the quiescence search's
//! literature, each opening with the settings that show its point and two sentences on what
//! to look at. Each stop was chosen by what Lull's search shows for it today, and
//! `tests/it/explore_tour.rs` checks that it still shows it (the scores' signs, the best moves,
//! the tree nodes the text names).

use serde::Serialize;
use serde_json::{json, Value};

/// One stop of the tour.
#[derive(Clone, Debug, Serialize)]
pub struct TourStop {
    /// Short identifier (the page's URL names it: `?tour=<id>`).
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The position.
    pub fen: &'static str,
    /// Depth of the searches.
    pub depth: i32,
    /// Option set A (or of the horizon pair), as `(name, value)`.
    pub options: Vec<(&'static str, &'static str)>,
    /// Option set B: the stop opens as an A/B comparison.
    pub options_b: Option<Vec<(&'static str, &'static str)>>,
    /// Where the quiescence tree opens: moves in UCI from the position (`None`: the horizon).
    pub tree: Option<Vec<&'static str>>,
    /// What to look at, in two sentences.
    pub text: &'static str,
}

/// The stops, in the order the page lists them.
pub fn tour() -> Vec<TourStop> {
    vec![
        TourStop {
            id: "refuted-capture",
            title: "The capture refuted one ply later",
            fen: crate::tools::teaching::horizon::HORIZON_FEN,
            depth: 1,
            options: vec![],
            options_b: None,
            tree: None,
            text: "At depth 1 the search without quiescence plays Qxd4 and counts a knight \
                   won, because the recapture ...exd4 lies beyond its horizon; the quiescence \
                   search plays on to ...exd4 Rxe7 Rxe7 and turns the score negative. Open the \
                   tree at the end of the left PV and follow exd4 on the big board.",
        },
        TourStop {
            id: "pinned-piece",
            title: "The pinned queen",
            fen: "5r1k/4Qpq1/4p3/1p1p2P1/2p2P2/1p2P3/3P4/BK6 b - - 0 1",
            depth: 1,
            options: vec![("Use NNUE", "false")],
            options_b: None,
            tree: None,
            text: "The black queen on g7 is pinned by the bishop on a1. At depth 1 without \
                   the quiescence search Black pushes ...b2 and counts a pawn one step from \
                   queening, because the capture Bxb2 lies beyond the horizon; the quiescence \
                   search plays on to Bxb2, and Black finds the real defence ...f6, which \
                   blocks the diagonal with a defended pawn (hand-crafted evaluation). Now \
                   raise the depth to 6 and watch the iterations chart: from depth 3 the \
                   search *with* quiescence plays ...b2, and at depth 6 its line throws three \
                   pawns into the diagonal (...b2, ...c3, ...d4, each taken by the bishop), \
                   delaying moves that push what it fears beyond its horizon, while the search \
                   without it plays ...f6: the horizon effect in its other form, and the \
                   quiescence search does not cure it.",
        },
        TourStop {
            id: "overloaded-defender",
            title: "The overloaded defender",
            fen: crate::tools::teaching::qtree::QTREE_FEN,
            depth: 2,
            options: vec![("Use NNUE", "false")],
            options_b: None,
            tree: None,
            text: "The knight on f6 guards both the bishop on g4 and the pawn on d5: after \
                   Bxg4 Nxg4 it has left d5. At depth 2 the search without quiescence stops \
                   after ...Nxg4 and scores a bishop for a bishop, below zero; the tree there \
                   shows what it missed, Nxd5 on the quiescence PV, and the search with it \
                   scores the pawn won (hand-crafted evaluation).",
        },
        TourStop {
            id: "quiet-check",
            title: "The quiet check the captures-only search misses",
            fen: "6k1/5ppp/8/8/8/8/Pq3PPP/4R1K1 b - - 0 1",
            depth: 1,
            options: vec![("QSearchChecks", "0")],
            options_b: Some(vec![("QSearchChecks", "1")]),
            tree: Some(vec!["b2a2"]),
            text: "Black can take the pawn on a2, but then Re8 is mate, a quiet move no \
                   capture search looks at: with QSearchChecks 0 (A) Black plays ...Qxa2 at \
                   depth 1, with QSearchChecks 1 (B) the quiescence search tries the check at \
                   the horizon and Black makes luft instead. The trees after ...Qxa2 show it: \
                   A stands pat, B finds Re8 and the mate (M1).",
        },
        TourStop {
            id: "promotion-race",
            title: "The promotion race",
            fen: "8/8/P7/8/8/6p1/8/k3K3 w - - 0 1",
            depth: 2,
            options: vec![("Use NNUE", "false")],
            options_b: None,
            tree: None,
            text: "Both sides push a passed pawn; White's queens first, and with check on the \
                   a-file. At depth 2 the search without quiescence cannot see a promotion at \
                   its horizon and runs the king back (Kf1); the quiescence search looks at \
                   promotions at every leaf and plays a7, winning the race (hand-crafted \
                   evaluation).",
        },
        TourStop {
            id: "beal-null-move",
            title: "Beal's null move: the threat a stand pat ignores",
            fen: "1r1r2k1/5pp1/7p/8/3N4/7P/5PP1/6K1 w - - 0 1",
            depth: 1,
            options: vec![("Use NNUE", "false"), ("QSearchNullMove", "0")],
            options_b: Some(vec![("Use NNUE", "false"), ("QSearchNullMove", "1")]),
            tree: Some(vec!["d4c6"]),
            text: "Nc6 forks both rooks, but it captures nothing: after it Black stands pat, \
                   and the static evaluation still counts both rooks. With QSearchNullMove 0 \
                   (A) White plays Nf5 at depth 1. Beal's null-move quiescence (B, \
                   QSearchNullMove 1) lets the side to move pass first and lowers its stand pat \
                   by what the opponent's captures then win: White plays the fork Nc6 and \
                   scores it higher. The trees after Nc6 show it: B's root has a (pass) node \
                   under which White takes a rook; A's has none.",
        },
        TourStop {
            id: "delta-misses-mate",
            title: "Delta pruning skips a mate",
            fen: "5rk1/5ppp/8/6NQ/3q4/8/5PPP/3R2K1 w - - 0 1",
            depth: 1,
            options: vec![("Use NNUE", "false"), ("QSearchDeltaChecks", "false")],
            options_b: Some(vec![("Use NNUE", "false"), ("QSearchDeltaChecks", "true")]),
            tree: Some(vec![]),
            text: "Delta pruning skips a capture when the stand pat plus the captured piece \
                   plus a margin (QSearchDelta, 200 centipawns) cannot reach alpha. Look at the \
                   trees at the root: Rxd4 wins the queen first and lifts alpha, so Qxh7, \
                   which takes only a pawn, is delta-pruned in A (its arithmetic is shown \
                   beside the tree), though Qxh7 is mate. With QSearchDeltaChecks (B) a \
                   capture that gives check is never delta-pruned, and the tree finds Qxh7# \
                   (M1).",
        },
        TourStop {
            id: "see-ignores-pin",
            title: "SEE misjudges a capture: the recapturing pawn is pinned",
            fen: "6k1/5p2/6n1/8/8/1B6/8/6RK w - - 0 1",
            depth: 1,
            options: vec![("Use NNUE", "false"), ("QSearchSEE", "0")],
            options_b: Some(vec![("Use NNUE", "false"), ("QSearchSEE", "-10000")]),
            tree: Some(vec![]),
            text: "Static exchange evaluation plays out the captures on one square and ignores \
                   pins: for Rxg6+ it counts the rook lost to ...fxg6, a losing exchange. \
                   But the pawn on f7 is pinned by the bishop on b3 and cannot take. Look at \
                   the trees at the root: with QSearchSEE 0 (A) Rxg6+ is SEE-pruned and White \
                   stands pat; with SEE pruning off (B, QSearchSEE -10000) the tree searches \
                   it and wins the knight (line Rxg6+), a score higher by about a knight.",
        },
        TourStop {
            id: "null-move-zugzwang",
            title: "The null move and zugzwang",
            fen: "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
            depth: 13,
            options: vec![("NullMovePruning", "true")],
            options_b: Some(vec![("NullMovePruning", "false")]),
            tree: None,
            text: "Null-move pruning, in the main search: the side to move passes, and when a \
                   reduced search after the pass still beats beta the node ends. That is sound \
                   while having the move is worth something; in zugzwang, where every move \
                   costs, the pass is a move the player does not have. From the null-move test \
                   suites: Black wins with ...Nxd5 Rxd5 Re6, the rook pinning the knight to its \
                   king. At depth 13 with NullMovePruning (A) the search plays ...Rd8 and \
                   scores it below zero; with it off (B) it plays ...Nxd5 and scores the \
                   position higher.",
        },
    ]
}

/// The tour as the page reads it: `{stops: [...]}` with options as objects.
pub fn tour_json() -> Value {
    let opts = |o: &[(&str, &str)]| {
        Value::Object(
            o.iter()
                .map(|(n, v)| (n.to_string(), json!(v)))
                .collect::<serde_json::Map<_, _>>(),
        )
    };
    let stops: Vec<Value> = tour()
        .iter()
        .map(|s| {
            json!({
                "id": s.id,
                "title": s.title,
                "fen": s.fen,
                "depth": s.depth,
                "options": opts(&s.options),
                "options_b": s.options_b.as_deref().map(opts),
                "tree": s.tree,
                "text": s.text,
            })
        })
        .collect();
    json!({ "stops": stops })
}

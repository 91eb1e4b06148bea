//! `lull explore`'s tree anywhere and A/B over HTTP: `POST /api/tree` at a node after moves,
//! `POST /api/search` with `options_b` (main-search switches, `Use NNUE`, `QSearch` in each
//! set) and with `tree`, and the errors of both for bad input (the server goes on).

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use lull::tools::teaching::explore::ExploreServer;
use serde_json::{json, Value};

const HORIZON: &str = "4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1 w - - 0 1";

struct Client {
    agent: ureq::Agent,
    base: String,
}

impl Client {
    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let mut r = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", "application/json")
            .send(body.to_string())
            .unwrap();
        let status = r.status().as_u16();
        let text = r.body_mut().read_to_string().unwrap();
        (status, serde_json::from_str(&text).unwrap())
    }

    fn job(&self, body: &Value) -> Value {
        let (status, v) = self.post("api/search", body);
        assert_eq!(status, 200, "{v}");
        let id = v["id"].as_u64().unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = self
                .agent
                .get(format!("{}api/job/{id}", self.base))
                .call()
                .unwrap()
                .body_mut()
                .read_to_string()
                .unwrap();
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["state"] != "running" {
                assert_eq!(v["state"], "done", "{v}");
                return v["result"].clone();
            }
            assert!(Instant::now() < deadline);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn client(server: &ExploreServer) -> Client {
    Client {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into(),
        base: server.url(),
    }
}

#[test]
fn the_tree_at_any_node_and_its_errors() {
    let server = ExploreServer::start(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).unwrap();
    let c = client(&server);
    // After Qxd4: ...exd4 refutes it; the path gives each move's SAN, UCI and FEN.
    let (status, t) = c.post(
        "api/tree",
        &json!({"fen": HORIZON, "moves": ["d1d4"], "options": {}}),
    );
    assert_eq!(status, 200, "{t}");
    assert_eq!(t["path"], json!(["Qxd4"]));
    assert_eq!(t["path_line"][0]["uci"], "d1d4");
    assert_eq!(
        t["path_line"][0]["fen"],
        "4r1k1/4qppp/8/4p3/2PQ4/1P6/P4PPP/4R1K1 b - - 0 1"
    );
    assert_eq!(t["root"]["window"], json!(["-\u{221e}", "+\u{221e}"]));
    let exd4 = t["root"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["label"] == "exd4")
        .expect("exd4");
    assert_eq!(exd4["uci"], "e5d4");
    assert_eq!(exd4["on_pv"], true);
    // Black is better after Qxd4 (the tree's score is from Black, to move there).
    assert!(t["score"].as_i64().unwrap() > 200, "{}", t["score"]);
    // At the root (no moves): the tree of the position itself.
    let (_, root) = c.post("api/tree", &json!({"fen": HORIZON, "moves": []}));
    assert_eq!(root["path"], json!([]));
    // QSearchMaxPly 0: the tree is a stand pat.
    let (_, flat) = c.post(
        "api/tree",
        &json!({"fen": HORIZON, "moves": ["d1d4"], "options": {"QSearchMaxPly": 0}}),
    );
    assert!(flat["root"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["kind"] != "node"));
    for (body, part) in [
        (json!({"fen": HORIZON, "moves": ["d1d5"]}), "move 'd1d5'"),
        (json!({"fen": HORIZON, "moves": "d1d4"}), "must be a list"),
        (json!({"fen": HORIZON, "moves": [7]}), "is not a move"),
        (
            json!({"fen": HORIZON, "colour": 1}),
            "unknown field 'colour'",
        ),
        (
            json!({"fen": HORIZON, "options": {"Hash": 8}}),
            "cannot be set here",
        ),
        (json!({"fen": "nonsense"}), "bad FEN"),
    ] {
        let (status, v) = c.post("api/tree", &body);
        assert_eq!(status, 400, "{body}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains(part), "{body}: {msg}");
    }
    // A search's tree where the request asks; an illegal one is refused before any search.
    let r = c.job(&json!({"fen": HORIZON, "depth": 1, "tree": ["d1d4", "e5d4"]}));
    assert_eq!(r["tree_requested"], true);
    assert_eq!(r["tree"]["path"], json!(["Qxd4", "exd4"]));
    let (status, v) = c.post(
        "api/search",
        &json!({"fen": HORIZON, "depth": 1, "tree": ["d1d4", "d1d4"]}),
    );
    assert_eq!(status, 400, "{v}");
}

#[test]
fn ab_searches_each_set_with_its_own_switches() {
    let server = ExploreServer::start(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).unwrap();
    let c = client(&server);
    // A: the defaults; B: no quiescence search. At depth 1 B walks into the horizon effect.
    let r = c.job(&json!({"fen": HORIZON, "depth": 1, "options": {},
        "options_b": {"QSearch": false}}));
    assert_eq!(r["mode"], "ab");
    assert!(r["a"]["score"].as_i64().unwrap() < 0);
    assert_eq!(r["b"]["best"], "Qxd4");
    assert!(r["b"]["score"].as_i64().unwrap() > 0);
    assert_eq!(r["b"]["stats"]["qnodes"], 0);
    assert_eq!(r["options_b"], json!({"QSearch": false}));
    // The trees of both sets at the same node.
    assert_eq!(r["tree"]["path"], r["tree_b"]["path"]);
    // Main-search switches and the evaluation: B with the hand-crafted evaluation and no
    // null-move pruning or reductions searches another tree at depth 5.
    let r = c.job(&json!({"fen": HORIZON, "depth": 5, "options": {},
        "options_b": {"Use NNUE": false, "NullMovePruning": false, "LateMoveReductions": false,
                      "TacticalMode": true}}));
    assert_ne!(r["a"]["nodes"], r["b"]["nodes"]);
    assert_ne!(r["a"]["score"], r["b"]["score"]);
    // Iterations: one per depth, each with its best move.
    let its = r["b"]["iterations"].as_array().unwrap();
    assert_eq!(
        its.iter()
            .map(|i| i["depth"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    assert!(its.iter().all(|i| i["best"].is_string()));
    // The threat: Black's best move were it to move now.
    assert!(r["threat"]["san"].is_string(), "{}", r["threat"]);
    // QSearch in the pair is refused: the pair sets it.
    let (status, v) = c.post(
        "api/search",
        &json!({"fen": HORIZON, "depth": 1, "options": {"QSearch": false}}),
    );
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("cannot be set here"));
    let (status, v) = c.post(
        "api/search",
        &json!({"fen": HORIZON, "depth": 1, "options_b": {"Use NNUE": "maybe"}}),
    );
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("must be true or false"),
        "{v}"
    );
}

/// The tree of a checkmated or stalemated position said, on the page, "standing pat" for its
/// empty line: it now says why there is no line (the position is a mate, or a draw).
#[test]
fn a_tree_at_a_game_end_says_why_it_has_no_line() {
    let server = ExploreServer::start(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).unwrap();
    let c = client(&server);
    for (fen, why) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "checkmate"),
        (
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "stalemate: no legal move, a draw",
        ),
        (
            "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1",
            "standing pat is best",
        ),
    ] {
        let (status, t) = c.post("api/tree", &json!({"fen": fen}));
        assert_eq!(status, 200, "{t}");
        assert_eq!(t["pv"], json!([]), "{t}");
        let no_line = t["no_line"].as_str().unwrap_or_default();
        assert!(no_line.starts_with(why), "{fen}: {t}");
    }
    // A position with a line has none of it.
    let (_, t) = c.post("api/tree", &json!({"fen": HORIZON, "moves": ["d1d4"]}));
    assert!(
        t["no_line"].is_null() && !t["pv"].as_array().unwrap().is_empty(),
        "{t}"
    );
}

//! The guided tour of `lull explore` shows what its texts say, checked through the JSON API
//! (no browser needed): each stop is searched with its settings, as the page opens it, and
//! the scores' signs, the best moves and the tree nodes its text names are asserted.

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use lull::tools::teaching::explore::tour::{tour, TourStop};
use lull::tools::teaching::explore::ExploreServer;
use serde_json::{json, Value};

fn post(agent: &ureq::Agent, url: &str, body: &Value) -> Value {
    let mut r = agent
        .post(url)
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    assert_eq!(status, 200, "{url}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Searches a stop as the page does and returns the job's result.
fn search(agent: &ureq::Agent, base: &str, stop: &TourStop) -> Value {
    search_at(agent, base, stop, None)
}

/// [`search`] at another depth than the stop's (where its text says "raise the depth").
fn search_at(agent: &ureq::Agent, base: &str, stop: &TourStop, depth: Option<i32>) -> Value {
    let tour = agent
        .get(format!("{base}api/tour"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    let tour: Value = serde_json::from_str(&tour).unwrap();
    let served = tour["stops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == stop.id)
        .expect("the stop is served")
        .clone();
    let depth = depth.map_or_else(|| served["depth"].clone(), |d| json!(d));
    let mut body = json!({"fen": served["fen"], "depth": depth, "options": served["options"]});
    if !served["options_b"].is_null() {
        body["options_b"] = served["options_b"].clone();
    }
    if !served["tree"].is_null() {
        body["tree"] = served["tree"].clone();
    }
    let id = post(agent, &format!("{base}api/search"), &body)["id"]
        .as_u64()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let text = agent
            .get(format!("{base}api/job/{id}"))
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        if v["state"] != "running" {
            assert_eq!(v["state"], "done", "{}: {v}", stop.id);
            return v["result"].clone();
        }
        assert!(Instant::now() < deadline, "{}: still running", stop.id);
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn score(v: &Value) -> i64 {
    v["score"].as_i64().unwrap()
}

/// The SAN moves of a search's line.
fn line(v: &Value) -> Vec<String> {
    v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}

/// Whether one of the result's notes contains `part`.
fn noted(r: &Value, part: &str) -> bool {
    r["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap_or_default().contains(part))
}

/// The searched children of a tree's root: (label, score text).
fn root_children(tree: &Value) -> Vec<(String, String)> {
    tree["root"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "node")
        .map(|c| {
            (
                c["label"].as_str().unwrap().to_string(),
                c["score_text"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_tour_stop_shows_what_its_text_says() {
    let server = ExploreServer::start(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).unwrap();
    let base = server.url();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let stops = tour();
    let ids: Vec<&str> = stops.iter().map(|s| s.id).collect();
    assert_eq!(
        ids,
        [
            "refuted-capture",
            "pinned-piece",
            "overloaded-defender",
            "quiet-check",
            "promotion-race",
            "beal-null-move",
            "delta-misses-mate",
            "see-ignores-pin",
            "null-move-zugzwang"
        ]
    );
    for stop in &stops {
        let r = search(&agent, &base, stop);
        let (w, q) = (&r["without"], &r["with"]);
        match stop.id {
            "refuted-capture" => {
                assert_eq!(w["best"], "Qxd4");
                assert!(score(w) > 0 && score(q) < 0, "{} / {}", score(w), score(q));
                assert_eq!(r["tree"]["path"], json!(["Qxd4"]));
                let kids = root_children(&r["tree"]);
                assert!(kids.iter().any(|(l, _)| l == "exd4"), "{kids:?}");
                // "the quiescence search plays on to ...exd4 Rxe7 Rxe7"
                assert_eq!(r["tree"]["pv"], json!(["exd4", "Rxe7", "Rxe7"]));
                // From Black's side, to move there: the knight won back and more.
                assert!(score(&r["tree"]) > 0, "{}", r["tree"]["score"]);
                assert!(
                    noted(&r, "ends its line with the capture Qxd4"),
                    "{}",
                    r["notes"]
                );
            }
            "pinned-piece" => {
                // Without: the pawn pushed into the diagonal, its capture beyond the horizon,
                // and a score above the one of the search that sees it; with: the defence ...f6.
                assert_eq!(w["best"], "b2");
                assert_eq!(q["best"], "f6");
                let pv: Vec<&str> = w["pv"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["san"].as_str().unwrap())
                    .collect();
                assert_eq!(pv, ["b2"], "{pv:?}");
                assert!(score(w) > score(q) + 100, "{} / {}", score(w), score(q));
                assert!(noted(&r, "Bxb2 winning"), "{}", r["notes"]);
                // "raise the depth to 6 and watch the iterations chart: from depth 3 the
                // search with quiescence plays ...b2, and at depth 6 its line throws three
                // pawns ... while the search without it plays ...f6"
                let r6 = search_at(&agent, &base, stop, Some(6));
                let (w6, q6) = (&r6["without"], &r6["with"]);
                let bests = |s: &Value| -> Vec<String> {
                    s["iterations"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|i| i["best"].as_str().unwrap_or_default().to_string())
                        .collect()
                };
                assert_eq!(bests(q6)[2..], ["b2", "b2", "b2", "b2"], "{:?}", bests(q6));
                assert_eq!(line(q6), ["b2", "Bxb2", "c3", "Bxc3", "d4", "Bxd4"]);
                assert_eq!(w6["best"], "f6");
                assert!(
                    noted(&r6, "The search with quiescence's line gives away 3 pawns"),
                    "{}",
                    r6["notes"]
                );
            }
            "overloaded-defender" => {
                assert!(score(w) < 0 && score(q) > 0, "{} / {}", score(w), score(q));
                assert_eq!(r["tree"]["path"], json!(["Bxg4", "Nxg4"]));
                let kids = root_children(&r["tree"]);
                let nxd5 = r["tree"]["root"]["children"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["label"] == "Nxd5")
                    .unwrap_or_else(|| panic!("Nxd5 in {kids:?}"));
                assert_eq!(nxd5["on_pv"], true);
                assert!(r["tree"]["score"].as_i64().unwrap() > 0);
            }
            "quiet-check" => {
                let (a, b) = (&r["a"], &r["b"]);
                assert_eq!(r["mode"], "ab");
                assert_eq!(a["best"], "Qxa2");
                // "Black makes luft instead": a pawn move on the king's side.
                let luft = b["best"].as_str().unwrap();
                assert!(
                    ["f6", "f5", "g6", "g5", "h6", "h5"].contains(&luft),
                    "{luft}"
                );
                // "A stands pat": no line after ...Qxa2 in A's tree.
                assert_eq!(r["tree"]["pv"], json!([]), "{}", r["tree"]["pv"]);
                assert!(score(a) > score(b), "A counts the pawn it takes");
                assert_eq!(r["tree"]["path"], json!(["Qxa2"]));
                let (ta, tb) = (root_children(&r["tree"]), root_children(&r["tree_b"]));
                assert!(!ta.iter().any(|(l, _)| l.starts_with("Re8")), "{ta:?}");
                let re8 = tb
                    .iter()
                    .find(|(l, _)| l.starts_with("Re8"))
                    .expect("Re8 in B");
                // Re8 is mate: the node's score, from Black's side (to move, no move), is
                // "mated" (counted from the node); the root's, White's, mate in 1.
                assert_eq!(re8.1, "mated", "{tb:?}");
                assert_eq!(r["tree_b"]["score_text"], "M1");
            }
            "promotion-race" => {
                assert_eq!(w["best"], "Kf1");
                assert_eq!(q["best"], "a7");
                assert!(
                    score(q) > 300 && score(w) < 100,
                    "{} / {}",
                    score(q),
                    score(w)
                );
            }
            "beal-null-move" => {
                let (a, b) = (&r["a"], &r["b"]);
                assert_eq!(a["best"], "Nf5");
                assert_eq!(b["best"], "Nc6");
                assert!(score(b) > score(a), "{} / {}", score(a), score(b));
                assert_eq!(r["tree"]["path"], json!(["Nc6"]));
                let passes = |t: &Value| {
                    t["root"]["children"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|c| c["label"] == "(pass)")
                        .count()
                };
                assert_eq!(passes(&r["tree"]), 0);
                assert_eq!(passes(&r["tree_b"]), 1, "{}", r["tree_b"]["root"]);
                // Under the pass White takes a rook.
                let pass = r["tree_b"]["root"]["children"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["label"] == "(pass)")
                    .unwrap();
                let kids = root_children(&json!({ "root": pass }));
                assert!(
                    kids.iter().any(|(l, _)| l == "Nxd8" || l == "Nxb8"),
                    "{kids:?}"
                );
            }
            "delta-misses-mate" => {
                let root = &r["tree"]["root"];
                let qxh7 = root["children"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["label"].as_str().unwrap_or_default().starts_with("Qxh7"))
                    .expect("Qxh7 in A's tree");
                assert_eq!(qxh7["kind"], "pruned");
                assert!(
                    qxh7["reason"].as_str().unwrap().starts_with("delta"),
                    "{qxh7}"
                );
                let arithmetic = qxh7["delta"].as_str().unwrap();
                assert!(
                    arithmetic.contains("pawn 100") && arithmetic.contains("margin 200"),
                    "{arithmetic}"
                );
                assert_eq!(r["tree"]["pv"], json!(["Rxd4"]));
                assert_eq!(r["tree_b"]["score_text"], "M1");
                assert_eq!(r["tree_b"]["pv"], json!(["Qxh7#"]));
            }
            "see-ignores-pin" => {
                let root = &r["tree"]["root"];
                let rxg6 = root["children"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["label"] == "Rxg6+")
                    .expect("Rxg6+ in A's tree");
                assert_eq!(rxg6["kind"], "pruned");
                assert!(rxg6["see"].as_i64().unwrap() < 0, "{rxg6}");
                assert_eq!(r["tree"]["pv"], json!([]));
                assert_eq!(r["tree_b"]["pv"][0], "Rxg6+");
                let gain = score(&r["tree_b"]) - score(&r["tree"]);
                assert!((200..=400).contains(&gain), "{gain}");
            }
            "null-move-zugzwang" => {
                // A passes where it cannot afford to and misses ...Nxd5; B finds it.
                let (a, b) = (&r["a"], &r["b"]);
                assert_eq!(r["mode"], "ab");
                assert_eq!(a["best"], "Rd8");
                assert_eq!(b["best"], "Nxd5");
                assert!(
                    score(a) < 0 && score(b) > score(a),
                    "{} / {}",
                    score(a),
                    score(b)
                );
            }
            other => panic!("a tour stop without a check: {other}"),
        }
    }
}

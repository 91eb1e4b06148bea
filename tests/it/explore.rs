//! `lull explore` over HTTP: the server started in-process on a free port, driven with a
//! real HTTP client (ureq). Bad input of every kind gets an error status with a JSON message
//! and the server goes on answering; the horizon example gives the horizon pair; jobs run
//! side by side and stop on request; the binary serves the same page.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lull::tools::teaching::explore::ExploreServer;
use serde_json::{json, Value};

const HORIZON_FEN: &str = "4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1 w - - 0 1";
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct Client {
    base: String,
    agent: ureq::Agent,
}

impl Client {
    fn new(server: &ExploreServer) -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build();
        Self {
            base: format!("http://{}", server.addr()),
            agent: ureq::Agent::new_with_config(config),
        }
    }

    fn read(resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, String) {
        let mut resp = resp.expect("the server answers");
        let status = resp.status().as_u16();
        let body = resp.body_mut().read_to_string().expect("a text body");
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        Self::read(self.agent.get(format!("{}{path}", self.base)).call())
    }

    fn post(&self, path: &str, body: &str) -> (u16, String) {
        Self::read(
            self.agent
                .post(format!("{}{path}", self.base))
                .header("Content-Type", "application/json")
                .send(body),
        )
    }

    fn post_bytes(&self, path: &str, body: &[u8]) -> (u16, String) {
        Self::read(self.agent.post(format!("{}{path}", self.base)).send(body))
    }

    fn json(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = match method {
            "GET" => self.get(path),
            _ => self.post(path, body),
        };
        let v = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, v)
    }

    /// A good request: the options list.
    fn still_serves(&self, after: &str) {
        let (status, v) = self.json("GET", "/api/options", "");
        assert_eq!(status, 200, "after {after}: {v}");
        assert!(v["options"].as_array().is_some_and(|a| a.len() > 5), "{v}");
    }

    fn start(&self, fen: &str, depth: i64, options: Value) -> u64 {
        let body = json!({"fen": fen, "depth": depth, "options": options}).to_string();
        let (status, v) = self.json("POST", "/api/search", &body);
        assert_eq!(status, 200, "{v}");
        v["id"].as_u64().expect("a job id")
    }

    fn wait(&self, id: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (status, v) = self.json("GET", &format!("/api/job/{id}"), "");
            assert_eq!(status, 200, "{v}");
            if v["state"] != "running" {
                return v;
            }
            assert!(Instant::now() < deadline, "job {id} still running: {v}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn server() -> ExploreServer {
    ExploreServer::start(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).expect("the server starts")
}

fn search_body(fen: &str, depth: Value, options: Value) -> String {
    json!({"fen": fen, "depth": depth, "options": options}).to_string()
}

#[test]
fn bad_input_gets_an_error_status_and_the_server_goes_on() {
    let server = server();
    let c = Client::new(&server);
    let k = "8/8/8/8/8/8/8/K6k w - - 0 1";
    let cases: Vec<(&str, &str, String, u16, &str)> = vec![
        (
            "POST",
            "/api/search",
            search_body("nonsense", json!(1), json!({})),
            400,
            "bad FEN",
        ),
        (
            "POST",
            "/api/search",
            search_body("8/8/8/8/8/8/8/8 w - - 0 1", json!(1), json!({})),
            400,
            "bad FEN",
        ),
        (
            "POST",
            "/api/search",
            json!({"depth": 1}).to_string(),
            400,
            "missing field 'fen'",
        ),
        (
            "POST",
            "/api/search",
            json!({"fen": 7, "depth": 1}).to_string(),
            400,
            "'fen' must be a string",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(0), json!({})),
            400,
            "depth 0: must be an integer from 1 to",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1000), json!({})),
            400,
            "depth 1000",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!("x"), json!({})),
            400,
            "depth 'x'",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(-3), json!({})),
            400,
            "depth -3",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1.5), json!({})),
            400,
            "depth 1.5",
        ),
        (
            "POST",
            "/api/search",
            json!({"fen": k}).to_string(),
            400,
            "missing field 'depth'",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1), json!({"Foo": 1})),
            400,
            "unknown option 'Foo'",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1), json!({"Hash": 8})),
            400,
            "cannot be set here",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1), json!({"QSearch": false})),
            400,
            "cannot be set here",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1), json!({"QSearchTT": "maybe"})),
            400,
            "must be true or false",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1), json!({"QSearchSEE": 99999})),
            400,
            "out of range",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1), json!({"QSearchMaxPly": [1]})),
            400,
            "must be a boolean, a number or a string",
        ),
        (
            "POST",
            "/api/search",
            search_body(k, json!(1), json!([1])),
            400,
            "'options' must be an object",
        ),
        (
            "POST",
            "/api/search",
            json!({"fen": k, "depth": 1, "colour": "red"}).to_string(),
            400,
            "unknown field 'colour'",
        ),
        (
            "POST",
            "/api/search",
            "{\"fen\": ".to_string(),
            400,
            "bad JSON",
        ),
        (
            "POST",
            "/api/search",
            "[1, 2]".to_string(),
            400,
            "must be a JSON object",
        ),
        (
            "POST",
            "/api/moves",
            json!({"fen": "rnbqkbnr/pppppppp w"}).to_string(),
            400,
            "bad FEN",
        ),
        (
            "GET",
            "/api/job/987654",
            String::new(),
            404,
            "no job 987654",
        ),
        (
            "GET",
            "/api/job/abc",
            String::new(),
            400,
            "job id 'abc' is not a number",
        ),
        (
            "POST",
            "/api/job/987654/stop",
            String::new(),
            404,
            "no job 987654",
        ),
        ("GET", "/no/such/page", String::new(), 404, "no such page"),
        ("GET", "/api/search", String::new(), 405, "use POST"),
        ("POST", "/api/options", "{}".to_string(), 405, "use GET"),
    ];
    assert!(cases.len() >= 15);
    for (method, path, body, status, part) in &cases {
        let (got, v) = c.json(method, path, body);
        assert_eq!(got, *status, "{method} {path} {body}: {v}");
        let message = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no message: {v}"));
        assert!(
            message.contains(part),
            "{method} {path} {body}: '{message}' lacks '{part}'"
        );
        c.still_serves(&format!("{method} {path} {body}"));
    }
    // A body that is not UTF-8, and one too large.
    let (status, text) = c.post_bytes("/api/search", &[0xff, 0xfe, 0x7b]);
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("not UTF-8"), "{text}");
    c.still_serves("a body that is not UTF-8");
    let big = format!("{{\"fen\": \"{}\"}}", "x".repeat(100_000));
    let (status, text) = c.post("/api/moves", &big);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("request body over"), "{text}");
    c.still_serves("a body too large");
    // After all that, a good search still runs.
    let id = c.start(HORIZON_FEN, 1, json!({}));
    assert_eq!(c.wait(id)["state"], "done");
}

#[test]
fn a_host_header_naming_another_site_is_refused() {
    let server = server();
    let raw = |host: &str| {
        let mut s = TcpStream::connect(server.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "GET /api/options HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        answer
    };
    // DNS rebinding: a page of evil.example whose name now points at 127.0.0.1.
    let refused = raw("evil.example:7654");
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(
        refused.contains("Host header must name this machine"),
        "{refused}"
    );
    let served = raw(&format!("localhost:{}", server.addr().port()));
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
    assert!(served.contains("QSearchSEE"), "{served}");
}

#[test]
fn the_horizon_example_shows_both_scores_the_tree_and_the_statistics() {
    let server = server();
    let c = Client::new(&server);
    let (status, page) = c.get("/?fen=x&depth=1");
    assert_eq!(status, 200);
    assert!(
        page.contains("id=\"score-without-qsearch\"") && page.contains("id=\"score-with-qsearch\"")
    );
    let (status, js) = c.get("/explore.js");
    assert_eq!(status, 200);
    assert!(js.contains("/api/search"));

    let job = c.wait(c.start(HORIZON_FEN, 1, json!({})));
    assert_eq!(job["state"], "done", "{job}");
    let r = &job["result"];
    let without = &r["without"];
    let with = &r["with"];
    // `lull horizon`: Qxd4 +291 without, Qh5 -75 with the quiescence search.
    assert_eq!(without["best"], "Qxd4", "{without}");
    let s_without = without["score"].as_i64().unwrap();
    let s_with = with["score"].as_i64().unwrap();
    assert!((150..=450).contains(&s_without), "{s_without}");
    assert!((-250..0).contains(&s_with), "{s_with}");
    assert_ne!(with["best"], "Qxd4");
    assert_eq!(without["score_text"], format!("+{s_without}"));
    assert_eq!(with["score_text"], format!("{s_with}"));
    // The PV with the FEN after each move.
    assert_eq!(without["pv"][0]["san"], "Qxd4");
    assert_eq!(
        without["pv"][0]["fen"],
        "4r1k1/4qppp/8/4p3/2PQ4/1P6/P4PPP/4R1K1 b - - 0 1"
    );
    // The statistics: no quiescence nodes without it, some with it, and the table's rows.
    assert_eq!(without["stats"]["qnodes"], 0);
    assert!(with["stats"]["qnodes"].as_u64().unwrap() > 0);
    let rows = with["stats_table"].as_array().unwrap();
    assert!(
        rows.iter().any(|row| row[0] == "quiescence nodes"),
        "{rows:?}"
    );
    // The tree after Qxd4, where the search without quiescence stopped: Black recaptures.
    let tree = &r["tree"];
    assert_eq!(tree["path"], json!(["Qxd4"]));
    let root = &tree["root"];
    assert_eq!(root["label"], "root");
    let exd4 = root["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "exd4")
        .expect("exd4 in the tree");
    assert_eq!(exd4["on_pv"], true);
    assert_eq!(exd4["qply"], 1);
    assert!(exd4["fen"]
        .as_str()
        .unwrap()
        .starts_with("4r1k1/4qppp/8/8/2Pp4/"));

    // Options change the result: with no q-plies the quiescence search is a static
    // evaluation and the horizon effect is back.
    let capped = c.wait(c.start(HORIZON_FEN, 1, json!({"QSearchMaxPly": "0"})));
    assert_eq!(capped["result"]["options"], json!({"QSearchMaxPly": 0}));
    assert_eq!(capped["result"]["with"]["best"], "Qxd4");
    assert!(capped["result"]["with"]["score"].as_i64().unwrap() > 0);
}

#[test]
fn jobs_run_side_by_side_and_stop_on_request() {
    let server = server();
    let c = Client::new(&server);
    // A search that would take far too long, and a short one beside it.
    let long = c.start(START_FEN, 100, json!({}));
    let short = c.start(HORIZON_FEN, 2, json!({"QSearchDelta": 0}));
    let done = c.wait(short);
    assert_eq!(done["state"], "done");
    assert_eq!(done["result"]["fen"], HORIZON_FEN);
    // The long one reports progress while it runs.
    let deadline = Instant::now() + Duration::from_secs(30);
    let progress = loop {
        let (_, v) = c.json("GET", &format!("/api/job/{long}"), "");
        assert_eq!(v["state"], "running", "{v}");
        if v["progress"]["depth"].as_i64().unwrap_or(0) >= 3 {
            break v["progress"].clone();
        }
        assert!(Instant::now() < deadline, "no progress: {v}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(progress["phase"], "without");
    assert!(progress["nodes"].as_u64().unwrap() > 0);
    assert!(!progress["pv"].as_array().unwrap().is_empty());
    let (status, v) = c.json("POST", &format!("/api/job/{long}/stop"), "");
    assert_eq!(status, 200, "{v}");
    let stopped = c.wait(long);
    assert_eq!(stopped["state"], "stopped", "{stopped}");
    // What was finished is kept: the search without quiescence, not the one with it.
    assert!(
        stopped["result"]["without"]["best"].is_string(),
        "{stopped}"
    );
    assert!(stopped["result"]["with"].is_null(), "{stopped}");
}

#[test]
fn legal_moves_for_click_to_move() {
    let server = server();
    let c = Client::new(&server);
    let (status, v) = c.json(
        "POST",
        "/api/moves",
        &json!({"fen": HORIZON_FEN}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["side"], "white");
    let moves = v["moves"].as_array().unwrap();
    let qxd4 = moves
        .iter()
        .find(|m| m["san"] == "Qxd4")
        .expect("Qxd4 is legal");
    assert_eq!(
        (qxd4["from"].as_str(), qxd4["to"].as_str()),
        (Some("d1"), Some("d4"))
    );
    // Following the FEN of a move gives the position after it.
    let (_, after) = c.json(
        "POST",
        "/api/moves",
        &json!({"fen": qxd4["fen"]}).to_string(),
    );
    assert_eq!(after["side"], "black");
    assert!(after["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["san"] == "exd4"));
}

#[test]
fn the_binary_serves_the_page() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lull"))
        .args(["explore", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("lull runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .map(str::to_string);
    let answer = addr.map(|addr| {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        text
    });
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("lull explore: open http://127.0.0.1:"),
        "{line}"
    );
    let answer = answer.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("score-with-qsearch"), "{answer}");
    // A bad address is refused with a message.
    let out = Command::new(env!("CARGO_BIN_EXE_lull"))
        .args(["explore", "--host", "not-an-address"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--host"));
}

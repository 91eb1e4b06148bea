//! `lull explore` in a real browser: headless Chromium driven through chromedriver with the
//! W3C WebDriver protocol (plain JSON over HTTP, with ureq). The page opens the horizon
//! example from its URL, both scores are read from `#score-without-qsearch` and
//! `#score-with-qsearch`, a tree node is clicked and its details read, option switches re-run
//! the search, a bad FEN gives a message on the page, and a move is played by clicking.
//!
//! Without Chromium or chromedriver (Debian `chromium` and `chromium-driver`; `.ci/run`
//! installs them where it can) the test prints `skipped: ...` and passes.

use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lull::tools::explore::ExploreServer;
use serde_json::{json, Value};

/// The key W3C WebDriver gives element references.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find_in_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A chromedriver process and one browser session in it.
struct Browser {
    driver: Child,
    agent: ureq::Agent,
    base: String,
    session: Option<String>,
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path) -> Result<Self, String> {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", chromedriver.display()))?;
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build();
        let mut b = Self {
            driver,
            agent: ureq::Agent::new_with_config(config),
            base: format!("http://127.0.0.1:{port}"),
            session: None,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(v) = b.call("GET", "/status", None) {
                if v["ready"] == true {
                    break;
                }
            }
            if Instant::now() > deadline {
                return Err("chromedriver did not get ready in 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1400,1000"],
            },
        }}});
        let v = b
            .call("POST", "/session", Some(caps))
            .map_err(|e| format!("chromedriver could not start Chromium: {e}"))?;
        let id = v["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session id in {v}"))?;
        b.session = Some(id.to_string());
        Ok(b)
    }

    /// One WebDriver command; its `value`, or the error it answered.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let resp = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or_else(|| json!({})).to_string()),
        };
        let mut resp = resp.map_err(|e| format!("{method} {path}: {e}"))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
        if status == 200 {
            Ok(v["value"].clone())
        } else {
            Err(format!("{method} {path}: {status} {}", v["value"]))
        }
    }

    fn session(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let id = self.session.as_deref().unwrap();
        self.call(method, &format!("/session/{id}{path}"), body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn open(&self, url: &str) {
        self.session("POST", "/url", Some(json!({ "url": url })));
    }

    fn find_all(&self, css: &str) -> Vec<String> {
        let v = self.session(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|e| {
                e[ELEMENT]
                    .as_str()
                    .unwrap_or_else(|| panic!("{e}"))
                    .to_string()
            })
            .collect()
    }

    fn find(&self, css: &str) -> String {
        self.find_all(css)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no element {css}"))
    }

    fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.session("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn value(&self, css: &str) -> String {
        let e = self.find(css);
        self.session("GET", &format!("/element/{e}/property/value"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn click(&self, css: &str) {
        let e = self.find(css);
        self.click_element(&e);
    }

    fn click_element(&self, e: &str) {
        self.session("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.session("POST", &format!("/element/{e}/clear"), Some(json!({})));
        self.session(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Waits until the text of `css` passes `ok`, and returns it.
    fn wait_text(&self, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let t = if self.find_all(css).is_empty() {
                String::new()
            } else {
                self.text(css)
            };
            if ok(&t) {
                return t;
            }
            assert!(
                Instant::now() < deadline,
                "waited 30 s for {css} to show {what}; it shows '{t}' (error: '{}')",
                self.text("#error")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(id) = self.session.take() {
            let _ = self.call("DELETE", &format!("/session/{id}"), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// A score as the page writes it (`+291`, `-75`, `#3`, `#-2`) as a number with its sign
/// (mates as +/- 100000).
fn score_value(text: &str) -> i64 {
    let t = text.trim();
    if let Some(m) = t.strip_prefix('#') {
        if m.starts_with('-') {
            -100_000
        } else {
            100_000
        }
    } else {
        t.trim_start_matches('+')
            .parse()
            .unwrap_or_else(|_| panic!("not a score: '{t}'"))
    }
}

#[test]
fn the_page_shows_the_horizon_effect_in_chromium() {
    let Some(chromium) = find_in_path(&["chromium", "chromium-browser", "google-chrome"]) else {
        println!("skipped: Chromium is not installed (apt-get install chromium chromium-driver)");
        return;
    };
    let Some(chromedriver) = find_in_path(&["chromedriver"]) else {
        println!("skipped: chromedriver is not installed (apt-get install chromium-driver)");
        return;
    };
    let browser = match Browser::start(&chromium, &chromedriver) {
        Ok(b) => b,
        Err(e) => {
            println!("skipped: {e}");
            return;
        }
    };
    let server = ExploreServer::start(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).unwrap();
    let base = server.url();
    browser.open(&format!(
        "{base}?fen=4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1%20w%20-%20-%200%201&depth=1"
    ));

    // The horizon pair, read from the page.
    let nonempty = |t: &str| !t.trim().is_empty();
    let without = browser.wait_text("#score-without-qsearch", "a score", nonempty);
    let with = browser.wait_text("#score-with-qsearch", "a score", nonempty);
    let (sw, sq) = (score_value(&without), score_value(&with));
    assert!(
        sw > 0 && sq < 0,
        "without {without}, with {with}: the signs should differ"
    );
    assert_eq!(browser.text("#best-without-qsearch"), "Qxd4");
    assert!(browser.text("#horizon-note").contains("opposite signs"));
    assert!(browser.text("#stats").contains("quiescence nodes"));

    // The quiescence tree: click the node exd4 and read its details.
    let nodes = browser.find_all("#tree .qnode");
    assert!(nodes.len() >= 2, "tree nodes: {}", nodes.len());
    let exd4 = nodes
        .iter()
        .find(|e| {
            let t = browser.session("GET", &format!("/element/{e}/text"), None);
            t.as_str().unwrap_or_default().starts_with("exd4")
        })
        .expect("a node exd4 in the tree")
        .clone();
    browser.click_element(&exd4);
    assert_eq!(browser.text("#node-title"), "exd4");
    let fields = browser.text("#node-fields");
    assert!(
        fields.contains("q-ply") && fields.contains("window"),
        "{fields}"
    );
    assert!(fields.contains("4r1k1/4qppp/8/8/2Pp4/"), "{fields}");

    // PV stepping: one step forward on the board of the search without quiescence.
    browser.click("#pv-without .fwd");
    browser.wait_text("#pv-without .moves .cur", "the current move", |t| {
        t == "Qxd4"
    });

    // An option switch re-runs the search with it.
    browser.click("#opt-QSearchTT");
    browser.wait_text("#run-options", "QSearchTT=false", |t| {
        t.contains("QSearchTT=false")
    });
    let with_tt_off = browser.wait_text("#score-with-qsearch", "a score", nonempty);
    assert!(score_value(&with_tt_off) < 0, "{with_tt_off}");
    // No q-plies: the quiescence search is a static evaluation, the horizon effect is back.
    browser.type_into("#opt-QSearchMaxPly", "0");
    browser.click("#depth"); // leaving the field sends its change
    browser.wait_text("#run-options", "QSearchMaxPly=0", |t| {
        t.contains("QSearchMaxPly=0")
    });
    let capped = browser.wait_text("#score-with-qsearch", "a score", nonempty);
    assert!(score_value(&capped) > 0, "QSearchMaxPly=0: {capped}");
    assert_eq!(browser.text("#best-with-qsearch"), "Qxd4");

    // A move played by clicking: Qxd4.
    browser.click("#board [data-square=d1]");
    browser.click("#board [data-square=d4]");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !browser.value("#fen").contains(" b ") {
        assert!(Instant::now() < deadline, "the move was not played");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        browser.value("#fen"),
        "4r1k1/4qppp/8/4p3/2PQ4/1P6/P4PPP/4R1K1 b - - 0 1"
    );

    // A bad FEN: a message on the page, and the page goes on working.
    browser.type_into("#fen", "this is not a position");
    browser.click("#set-fen");
    let error = browser.wait_text("#error", "an error", |t| t.contains("bad FEN"));
    assert!(!error.is_empty());
    browser.type_into("#fen", "4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1 w - - 0 1");
    browser.click("#set-fen");
    browser.wait_text("#position-status", "White to move", |t| {
        t.starts_with("White to move")
    });
}

//! A small W3C WebDriver client (plain JSON over HTTP, with ureq) for the browser tests of
//! `lull explore`: one chromedriver process with one headless Chromium session in it.
//!
//! [`Browser::launch`] finds Chromium and chromedriver in `PATH`; without them it returns
//! `Err` with the line to print (`skipped: ...`): a fresh machine may lack them (Debian
//! `chromium` and `chromium-driver`; `.ci/run` installs them where it can).

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The key W3C WebDriver gives element references.
pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// How long a wait for the page lasts before the test fails.
pub const WAIT: Duration = Duration::from_secs(60);

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
pub struct Browser {
    driver: Child,
    agent: ureq::Agent,
    base: String,
    session: Option<String>,
}

impl Browser {
    /// Chromium and chromedriver from `PATH`, started with a window of `width` × `height`;
    /// `Err(reason)` when they are missing or do not start.
    pub fn launch(width: u32, height: u32) -> Result<Self, String> {
        let chromium = find_in_path(&["chromium", "chromium-browser", "google-chrome"])
            .ok_or("Chromium is not installed (apt-get install chromium chromium-driver)")?;
        let chromedriver = find_in_path(&["chromedriver"])
            .ok_or("chromedriver is not installed (apt-get install chromium-driver)")?;
        Self::start(&chromium, &chromedriver, width, height)
    }

    fn start(
        chromium: &Path,
        chromedriver: &Path,
        width: u32,
        height: u32,
    ) -> Result<Self, String> {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", chromedriver.display()))?;
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(90)))
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
                         "--disable-dev-shm-usage", "--hide-scrollbars",
                         format!("--window-size={width},{height}")],
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
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
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
            .with_config()
            .limit(64 * 1024 * 1024)
            .read_to_string()
            .map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
        if status == 200 {
            Ok(v["value"].clone())
        } else {
            Err(format!("{method} {path}: {status} {}", v["value"]))
        }
    }

    /// A command of the session; panics on an error.
    pub fn session(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let id = self.session.as_deref().unwrap();
        self.call(method, &format!("/session/{id}{path}"), body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.session("POST", "/url", Some(json!({ "url": url })));
    }

    /// The address the page shows now.
    pub fn url(&self) -> String {
        self.session("GET", "/url", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value.
    pub fn script(&self, script: &str, args: Value) -> Value {
        self.session(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// The elements `css` selects.
    pub fn find_all(&self, css: &str) -> Vec<String> {
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

    /// The first element `css` selects; panics if none.
    pub fn find(&self, css: &str) -> String {
        self.find_all(css)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no element {css}"))
    }

    /// The visible text of an element.
    pub fn element_text(&self, e: &str) -> String {
        self.session("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The visible text of the first element `css` selects ("" if none).
    pub fn text(&self, css: &str) -> String {
        match self.find_all(css).first() {
            Some(e) => self.element_text(e),
            None => String::new(),
        }
    }

    /// A property of the first element `css` selects (`value`, `checked`, `className`...).
    pub fn property(&self, css: &str, name: &str) -> Value {
        let e = self.find(css);
        self.session("GET", &format!("/element/{e}/property/{name}"), None)
    }

    /// An attribute of an element.
    pub fn attribute(&self, e: &str, name: &str) -> String {
        self.session("GET", &format!("/element/{e}/attribute/{name}"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Clicks the first element `css` selects.
    pub fn click(&self, css: &str) {
        let e = self.find(css);
        self.click_element(&e);
    }

    /// Clicks an element.
    pub fn click_element(&self, e: &str) {
        self.session("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    /// Chooses the `<option>` with `value` in the `<select>` `css` (and fires its change).
    pub fn select(&self, css: &str, value: &str) {
        let option = self.find(&format!("{css} option[value='{value}']"));
        self.click_element(&option);
    }

    /// Clears an input and types `text` into it.
    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.session("POST", &format!("/element/{e}/clear"), Some(json!({})));
        self.session(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Waits until the text of `css` passes `ok`, and returns it.
    pub fn wait_text(&self, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let t = self.text(css);
            if ok(&t) {
                return t;
            }
            assert!(
                Instant::now() < deadline,
                "waited {WAIT:?} for {css} to show {what}; it shows '{t}' (error: '{}')",
                self.text("#error")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until `check` (a script returning true or false) is true.
    pub fn wait_until(&self, what: &str, check: &str) {
        let deadline = Instant::now() + WAIT;
        while self.script(check, json!([])) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "waited {WAIT:?} for {what} (error: '{}')",
                self.text("#error")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.session("GET", "/screenshot", None);
        decode_base64(v.as_str().unwrap_or_default())
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

/// Standard base64 (RFC 4648, with padding) decoded; other bytes are skipped.
pub fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(c);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// A score as the page writes it (`+291`, `-75`, `M3`, `-M2`) as a number with its sign
/// (mates as +/- 100000).
pub fn score_value(text: &str) -> i64 {
    let t = text.trim();
    if let Some(m) = t.strip_prefix("-M") {
        let _ = m;
        -100_000
    } else if t.starts_with('M') || t.starts_with("+M") {
        100_000
    } else {
        t.trim_start_matches('+')
            .parse()
            .unwrap_or_else(|_| panic!("not a score: '{t}'"))
    }
}

//! The routes of `lull explore`: the page and its two assets, and the JSON API. Every
//! handler takes the method, the path and the body and returns a [`Reply`]; a bad request
//! gets an error status (400, 404, 405, 413, 503) with `{"error": "<message>"}`.
//!
//! - `GET /api/options`: the options the page can set, with type, default, range and group
//!   (`quiescence`, `main` for the main search's switches and `TacticalMode`, `evaluation`
//!   for `Use NNUE`).
//! - `GET /api/tour`: the guided tour ([`super::tour`]).
//! - `POST /api/moves` `{fen}`: the position (board, side to move) and its legal moves, each
//!   with SAN, UCI and the FEN after it.
//! - `POST /api/search` `{fen, depth, options: {Name: value}, options_b?, tree?: [uci]}`:
//!   starts a job (the horizon pair, or with `options_b` an A/B comparison, and the
//!   quiescence tree, see [`super::jobs`]); answers `{id}`.
//! - `POST /api/eval` `{fen}`: the static evaluation taken apart (hand-crafted terms, the
//!   network's output bucket and output)
//! - `POST /api/tree` `{fen, moves: [uci], options}`: the quiescence tree at the position
//!   after `moves`, at once.
//! - `GET /api/job/<id>`: the job's state, progress and, once done, its result.
//! - `POST /api/job/<id>/stop`: stops it.

use serde_json::{json, Map, Value};

use super::jobs::{JobTable, SearchRequest};
use crate::options::{find_option, OptionKind, OptionSpec, OptionValue, PRUNING_SWITCHES};
use crate::params::MAX_DEPTH;
use crate::position::{board_fen, shorten, Position};
use crate::san::move_to_san;

/// The page, embedded.
pub const PAGE_HTML: &str = include_str!("page/explore.html");
/// Its style sheet.
pub const PAGE_CSS: &str = include_str!("page/explore.css");
/// Its script.
pub const PAGE_JS: &str = include_str!("page/explore.js");

/// Its icon (a knight on a square, SVG): served for `/favicon.svg` and `/favicon.ico`.
pub const FAVICON_SVG: &str = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>\
<rect width='16' height='16' rx='3' fill='#86a666'/>\
<text x='8' y='13' font-size='13' text-anchor='middle' fill='#fff'>\u{265E}</text></svg>";

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Deepest search the page may ask for (the stop button ends long ones).
pub const MAX_EXPLORE_DEPTH: i64 = MAX_DEPTH as i64;

/// An answer: status, content type, body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: &'static str,
    /// Body.
    pub body: String,
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, value: &Value) -> Self {
        Self {
            status,
            content_type: "application/json; charset=utf-8",
            body: value.to_string(),
        }
    }

    /// An error: `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> Self {
        Self::json(status, &json!({ "error": message.into() }))
    }

    fn text(content_type: &'static str, body: &str) -> Self {
        Self {
            status: 200,
            content_type,
            body: body.to_string(),
        }
    }
}

/// The quiescence options the page can switch: every engine option named `QSearch…` but
/// `QSearch` itself, which the horizon pair sets (off, then on).
pub fn quiescence_options() -> Vec<OptionSpec> {
    crate::options::option_specs()
        .iter()
        .filter(|s| s.name.starts_with("QSearch") && s.name != "QSearch")
        .copied()
        .collect()
}

/// The main search's switches the page can set besides its pruning and reductions
/// ([`PRUNING_SWITCHES`]): the capture history, singular extensions and `TacticalMode`.
pub const MAIN_SEARCH_EXTRA_OPTIONS: [&str; 3] =
    ["CaptureHistory", "SingularExtensions", "TacticalMode"];

/// Whether `name` is one of the main search's switches the page can set.
fn is_main_search_option(name: &str) -> bool {
    PRUNING_SWITCHES.contains(&name) || MAIN_SEARCH_EXTRA_OPTIONS.contains(&name)
}

/// Every option the page can set, with its group: `QSearch` and the quiescence options
/// (`quiescence`), the main search's switches (`main`), `Use NNUE` (`evaluation`). `QSearch`
/// itself only in an A/B comparison: the horizon pair sets it.
pub fn explorer_options() -> Vec<(OptionSpec, &'static str)> {
    crate::options::option_specs()
        .iter()
        .filter_map(|s| {
            let group = if s.name.starts_with("QSearch") {
                "quiescence"
            } else if is_main_search_option(s.name) {
                "main"
            } else if s.name == "Use NNUE" {
                "evaluation"
            } else {
                return None;
            };
            Some((*s, group))
        })
        .collect()
}

fn options_json() -> Value {
    let list: Vec<Value> = explorer_options()
        .iter()
        .map(|(s, group)| {
            let mut v = match s.kind {
                OptionKind::Spin { default, min, max } => {
                    json!({"name": s.name, "type": "spin", "default": default, "min": min, "max": max})
                }
                OptionKind::Check { default } => {
                    json!({"name": s.name, "type": "check", "default": default})
                }
                OptionKind::Button => json!({"name": s.name, "type": "button"}),
                OptionKind::String { default } => {
                    json!({"name": s.name, "type": "string", "default": default})
                }
            };
            v["group"] = json!(group);
            v["ab_only"] = json!(s.name == "QSearch");
            v
        })
        .collect();
    json!({ "options": list })
}

/// Answers one request. `path` may carry a query (`?…`), which only the page reads.
pub fn handle(method: &str, path: &str, body: &[u8], jobs: &JobTable) -> Reply {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let get = method.eq_ignore_ascii_case("GET") || method.eq_ignore_ascii_case("HEAD");
    let post = method.eq_ignore_ascii_case("POST");
    let wrong_method = |allowed: &str| {
        Reply::error(
            405,
            format!(
                "{method} is not allowed on {}; use {allowed}",
                shorten(path, 64)
            ),
        )
    };
    match segments.as_slice() {
        [] | ["index.html"] if get => Reply::text("text/html; charset=utf-8", PAGE_HTML),
        ["explore.css"] if get => Reply::text("text/css; charset=utf-8", PAGE_CSS),
        ["explore.js"] if get => Reply::text("text/javascript; charset=utf-8", PAGE_JS),
        ["favicon.ico"] | ["favicon.svg"] if get => Reply::text("image/svg+xml", FAVICON_SVG),
        []
        | ["index.html"]
        | ["explore.css"]
        | ["explore.js"]
        | ["favicon.ico"]
        | ["favicon.svg"] => wrong_method("GET"),
        ["api", "options"] if get => Reply::json(200, &options_json()),
        ["api", "tour"] if get => Reply::json(200, &super::tour::tour_json()),
        ["api", "options"] | ["api", "tour"] => wrong_method("GET"),
        ["api", "moves"] if post => with_body(body, moves),
        ["api", "search"] if post => with_body(body, |v| search(v, jobs)),
        ["api", "tree"] if post => with_body(body, |v| tree(v, jobs)),
        ["api", "eval"] if post => with_body(body, eval),
        ["api", "moves"] | ["api", "search"] | ["api", "tree"] | ["api", "eval"] => {
            wrong_method("POST")
        }
        ["api", "job", id] if get => match job_id(id, jobs) {
            Ok(job) => Reply::json(200, &job.to_json()),
            Err(r) => r,
        },
        ["api", "job", id, "stop"] if post => match job_id(id, jobs) {
            Ok(job) => {
                job.stop();
                Reply::json(200, &json!({"id": job.id, "stopping": true}))
            }
            Err(r) => r,
        },
        ["api", "job", _] => wrong_method("GET"),
        ["api", "job", _, "stop"] => wrong_method("POST"),
        _ => Reply::error(404, format!("no such page: {}", shorten(path, 64))),
    }
}

fn job_id(text: &str, jobs: &JobTable) -> Result<std::sync::Arc<super::jobs::Job>, Reply> {
    let id: u64 = text.parse().map_err(|_| {
        Reply::error(
            400,
            format!("job id '{}' is not a number", shorten(text, 32)),
        )
    })?;
    jobs.get(id)
        .ok_or_else(|| Reply::error(404, format!("no job {id} (unknown or forgotten)")))
}

/// Parses the body as a JSON object and hands it on.
fn with_body(body: &[u8], f: impl FnOnce(&Map<String, Value>) -> Reply) -> Reply {
    if body.len() > MAX_BODY {
        return Reply::error(413, format!("request body over {MAX_BODY} bytes"));
    }
    let Ok(text) = std::str::from_utf8(body) else {
        return Reply::error(400, "request body is not UTF-8");
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => f(&map),
        Ok(_) => Reply::error(400, "request body must be a JSON object"),
        Err(e) => Reply::error(400, format!("bad JSON: {e}")),
    }
}

/// Reads `fen` from the request.
fn fen_field(req: &Map<String, Value>) -> Result<Position, Reply> {
    match req.get("fen") {
        None | Some(Value::Null) => Err(Reply::error(400, "missing field 'fen'")),
        Some(Value::String(s)) => {
            Position::from_fen(s.trim()).map_err(|e| Reply::error(400, format!("bad FEN: {e}")))
        }
        Some(_) => Err(Reply::error(400, "field 'fen' must be a string")),
    }
}

/// `POST /api/moves`: the board and the legal moves of a position.
/// `POST /api/eval {fen}`: the static evaluation of the position taken apart
/// ([`super::breakdown`]).
fn eval(req: &Map<String, Value>) -> Reply {
    match fen_field(req) {
        Ok(pos) => Reply::json(200, &super::breakdown::breakdown(pos.board())),
        Err(r) => r,
    }
}

fn moves(req: &Map<String, Value>) -> Reply {
    let pos = match fen_field(req) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let board = pos.board();
    let legal: Vec<Value> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let uci = pos.move_to_uci(mv);
            let mut after = board.clone();
            after.play_unchecked(mv);
            json!({
                "uci": uci,
                "san": move_to_san(board, mv),
                "from": &uci[0..2],
                "to": &uci[2..4],
                "promotion": mv.promotion.map(|p| p.to_string()),
                "fen": board_fen(&after),
            })
        })
        .collect();
    let status = if !legal.is_empty() {
        "playing"
    } else if pos.in_check() {
        "checkmate"
    } else {
        "stalemate"
    };
    Reply::json(
        200,
        &json!({
            "fen": pos.fen(),
            "side": if pos.side_to_move() == cozy_chess::Color::White { "white" } else { "black" },
            "in_check": pos.in_check(),
            "status": status,
            "moves": legal,
        }),
    )
}

/// Reads `depth`: an integer from 1 to [`MAX_EXPLORE_DEPTH`] (a string of digits too, as a URL
/// gives it).
fn depth_field(req: &Map<String, Value>) -> Result<i32, Reply> {
    let bad = |what: String| {
        Reply::error(
            400,
            format!("depth {what}: must be an integer from 1 to {MAX_EXPLORE_DEPTH}"),
        )
    };
    let n = match req.get("depth") {
        None | Some(Value::Null) => return Err(Reply::error(400, "missing field 'depth'")),
        Some(Value::Number(n)) => n.as_i64().ok_or_else(|| bad(n.to_string()))?,
        Some(Value::String(s)) => s
            .trim()
            .parse::<i64>()
            .map_err(|_| bad(format!("'{}'", shorten(s, 32))))?,
        Some(v) => return Err(bad(shorten(&v.to_string(), 32))),
    };
    if (1..=MAX_EXPLORE_DEPTH).contains(&n) {
        Ok(n as i32)
    } else {
        Err(bad(n.to_string()))
    }
}

/// Reads the option set `key` (`options`, `options_b`): an object of option names and values
/// (booleans, numbers, or their text), each one of [`explorer_options`] (`QSearch` only where
/// `qsearch_allowed`), checked against its range.
fn options_field(
    req: &Map<String, Value>,
    key: &str,
    qsearch_allowed: bool,
) -> Result<Vec<(OptionSpec, OptionValue)>, Reply> {
    let map = match req.get(key) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(m)) => m,
        Some(_) => {
            return Err(Reply::error(
                400,
                format!("field '{key}' must be an object"),
            ))
        }
    };
    let allowed: Vec<OptionSpec> = explorer_options()
        .into_iter()
        .map(|(s, _)| s)
        .filter(|s| qsearch_allowed || s.name != "QSearch")
        .collect();
    let mut out = Vec::new();
    for (name, value) in map {
        let Some(spec) = find_option(name) else {
            return Err(Reply::error(
                400,
                format!("unknown option '{}'", shorten(name, 64)),
            ));
        };
        if !allowed.iter().any(|s| s.name == spec.name) {
            return Err(Reply::error(
                400,
                if spec.name == "QSearch" {
                    "option 'QSearch' cannot be set here: the horizon pair searches without and \
                     with it (an A/B comparison, with options_b, sets it in each set)"
                        .to_string()
                } else {
                    format!(
                        "option '{}' cannot be set here (only the options of /api/options)",
                        spec.name
                    )
                },
            ));
        }
        let text = match value {
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            other => {
                return Err(Reply::error(
                    400,
                    format!(
                        "value {} for option '{}' must be a boolean, a number or a string",
                        shorten(&other.to_string(), 32),
                        spec.name
                    ),
                ))
            }
        };
        let value = spec
            .parse_value(Some(&text))
            .map_err(|e| Reply::error(400, e))?;
        out.push((spec, value));
    }
    Ok(out)
}

/// Reads `key` (`tree`, `moves`): a list of at most [`MAX_TREE_MOVES`] moves in UCI
/// (checked against the position later). Absent: `None`.
fn moves_field(req: &Map<String, Value>, key: &str) -> Result<Option<Vec<String>>, Reply> {
    let list = match req.get(key) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(a)) => a,
        Some(_) => {
            return Err(Reply::error(
                400,
                format!("field '{key}' must be a list of moves in UCI"),
            ))
        }
    };
    if list.len() > MAX_TREE_MOVES {
        return Err(Reply::error(
            400,
            format!("field '{key}': more than {MAX_TREE_MOVES} moves"),
        ));
    }
    list.iter()
        .map(|m| match m {
            Value::String(s) if s.len() <= 8 => Ok(s.trim().to_string()),
            other => Err(Reply::error(
                400,
                format!(
                    "field '{key}': {} is not a move in UCI",
                    shorten(&other.to_string(), 24)
                ),
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Longest line of moves to a tree node.
pub const MAX_TREE_MOVES: usize = 256;

/// Refuses fields other than `known`.
fn known_fields(req: &Map<String, Value>, known: &[&str]) -> Result<(), Reply> {
    match req.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(Reply::error(
            400,
            format!(
                "unknown field '{}' (expected {})",
                shorten(key, 32),
                known.join(", ")
            ),
        )),
        None => Ok(()),
    }
}

/// Checks that each move of `moves` is legal in turn from `pos`.
fn check_line(pos: &Position, moves: &[String]) -> Result<(), Reply> {
    let mut p = pos.clone();
    for m in moves {
        let mv = p
            .parse_uci_move(m)
            .map_err(|e| Reply::error(400, format!("move '{}': {e}", shorten(m, 16))))?;
        p.play(mv);
    }
    Ok(())
}

/// `POST /api/search`: checks the request and starts a job.
fn search(req: &Map<String, Value>, jobs: &JobTable) -> Reply {
    if let Err(r) = known_fields(req, &["fen", "depth", "options", "options_b", "tree"]) {
        return r;
    }
    let request = (|| {
        let ab = !matches!(req.get("options_b"), None | Some(Value::Null));
        let pos = fen_field(req)?;
        let tree_moves = moves_field(req, "tree")?;
        if let Some(m) = &tree_moves {
            check_line(&pos, m)?;
        }
        Ok::<_, Reply>(SearchRequest {
            pos,
            depth: depth_field(req)?,
            options: options_field(req, "options", ab)?,
            options_b: if ab {
                Some(options_field(req, "options_b", true)?)
            } else {
                None
            },
            tree_moves,
        })
    })();
    let request = match request {
        Ok(r) => r,
        Err(reply) => return reply,
    };
    match jobs.start(request) {
        Ok(job) => Reply::json(200, &json!({ "id": job.id, "state": job.state() })),
        Err(e) => Reply::error(503, e),
    }
}

/// `POST /api/tree`: the quiescence tree at the position after `moves`, with `options`, within
/// the caps of the server's jobs.
fn tree(req: &Map<String, Value>, jobs: &JobTable) -> Reply {
    if let Err(r) = known_fields(req, &["fen", "moves", "options"]) {
        return r;
    }
    let checked = (|| {
        let pos = fen_field(req)?;
        let moves = moves_field(req, "moves")?.unwrap_or_default();
        check_line(&pos, &moves)?;
        let options = options_field(req, "options", true)?;
        Ok::<_, Reply>((pos, moves, options))
    })();
    match checked {
        Ok((pos, moves, options)) => {
            match super::jobs::tree_at(&pos, &moves, &options, None, &jobs.caps()) {
                Ok(t) => Reply::json(200, &t),
                Err(e) => Reply::error(400, e),
            }
        }
        Err(r) => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(method: &str, path: &str, body: &str) -> (u16, Value) {
        let jobs = JobTable::new();
        let r = handle(method, path, body.as_bytes(), &jobs);
        (
            r.status,
            serde_json::from_str(&r.body).unwrap_or(Value::Null),
        )
    }

    #[test]
    fn the_static_evaluation_is_served_taken_apart() {
        let fen = "4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1 b - - 0 1";
        let (status, v) = call("POST", "/api/eval", &format!("{{\"fen\": \"{fen}\"}}"));
        assert_eq!(status, 200, "{v}");
        let board: cozy_chess::Board = fen.parse().unwrap();
        assert_eq!(v["hce"]["total"], crate::eval::evaluate(&board));
        assert_eq!(v["hce"]["terms"][0]["term"], "material");
        if crate::nnue::Network::embedded().is_some() {
            assert!(v["nnue"]["bucket"].is_u64(), "{v}");
        }
        let (status, v) = call("POST", "/api/eval", "{\"fen\": \"8/8/8 w\"}");
        assert_eq!(status, 400, "{v}");
        assert_eq!(call("GET", "/api/eval", "").0, 405);
    }

    #[test]
    fn pages_and_options_are_served() {
        let jobs = JobTable::new();
        let page = handle("GET", "/?fen=x&depth=3", b"", &jobs);
        assert_eq!(page.status, 200);
        assert!(page.body.contains("score-without-qsearch"));
        let (status, v) = call("GET", "/api/options", "");
        assert_eq!(status, 200);
        let names: Vec<&str> = v["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"QSearchSEE") && names.contains(&"QSearch"));
        for name in PRUNING_SWITCHES
            .iter()
            .chain(&MAIN_SEARCH_EXTRA_OPTIONS)
            .chain(&["Use NNUE"])
        {
            assert!(names.contains(name), "{name}");
        }
        assert!(!names.contains(&"Hash"));
        let group = |n: &str| {
            v["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == n)
                .map(|o| o["group"].clone())
                .unwrap()
        };
        assert_eq!(group("NullMovePruning"), "main");
        assert_eq!(group("TacticalMode"), "main");
        assert_eq!(group("Use NNUE"), "evaluation");
        assert_eq!(group("QSearchChecks"), "quiescence");
    }

    #[test]
    fn legal_moves_come_with_san_and_fen() {
        let (status, v) = call(
            "POST",
            "/api/moves",
            r#"{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}"#,
        );
        assert_eq!(status, 200);
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 20);
        let e4 = moves.iter().find(|m| m["uci"] == "e2e4").unwrap();
        assert_eq!(e4["san"], "e4");
        assert_eq!(
            e4["fen"],
            // No en-passant square: no black pawn can take on e3.
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        let (status, v) = call(
            "POST",
            "/api/moves",
            r#"{"fen":"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}"#,
        );
        assert_eq!((status, v["status"].as_str()), (200, Some("checkmate")));
    }

    #[test]
    fn bad_requests_get_an_error_status_and_message() {
        for (method, path, body, status, part) in [
            (
                "POST",
                "/api/search",
                r#"{"fen":"nonsense","depth":1}"#,
                400,
                "bad FEN",
            ),
            (
                "POST",
                "/api/search",
                r#"{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","depth":0}"#,
                400,
                "depth 0",
            ),
            (
                "POST",
                "/api/search",
                r#"{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","depth":"x"}"#,
                400,
                "depth 'x'",
            ),
            (
                "POST",
                "/api/search",
                r#"{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","depth":1,"options":{"Foo":1}}"#,
                400,
                "unknown option 'Foo'",
            ),
            (
                "POST",
                "/api/search",
                r#"{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","depth":1,"options":{"Hash":1}}"#,
                400,
                "cannot be set here",
            ),
            ("POST", "/api/search", "{", 400, "bad JSON"),
            ("POST", "/api/search", "[]", 400, "JSON object"),
            ("GET", "/api/job/77", "", 404, "no job 77"),
            ("GET", "/api/job/x", "", 400, "not a number"),
            ("GET", "/nowhere", "", 404, "no such page"),
            ("DELETE", "/api/search", "", 405, "use POST"),
        ] {
            let (s, v) = call(method, path, body);
            assert_eq!(s, status, "{method} {path} {body}: {v}");
            let msg = v["error"].as_str().unwrap_or_default();
            assert!(msg.contains(part), "{method} {path} {body}: {msg}");
        }
    }
}

//! `lull explore`'s interactions in a real browser (headless Chromium through chromedriver,
//! W3C WebDriver over HTTP): the quiescence tree at a PV node and after a root move, stepped
//! on the big board; an A/B comparison with a main-search switch and `Use NNUE`; the
//! iterations chart; each stop of the guided tour opening with its settings; and a shared
//! URL that reproduces the page's state.
//!
//! Without Chromium or chromedriver each test prints `skipped: ...` and passes (Debian
//! `chromium` and `chromium-driver`; `.ci/run` installs them where it can). The tests take
//! turns (one browser at a time). With `LULL_SCREENSHOTS=DIR` they also save the screenshots
//! of docs/img (`tree-view.png`, `ab-view.png`, `tour-quiet-check.png`) into DIR.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Mutex;

use crate::webdriver::{score_value, Browser};
use lull::tools::teaching::explore::tour::tour;
use lull::tools::teaching::explore::ExploreServer;
use serde_json::json;

/// One browser at a time: the tests share two cores with the rest of the suite.
static TURN: Mutex<()> = Mutex::new(());

const HORIZON: &str = "4r1k1/4qppp/8/4p3/2Pn4/1P6/P4PPP/3QR1K1%20w%20-%20-%200%201";

/// The browser (or the reason to skip), the server, and the turn held.
fn setup(
    width: u32,
    height: u32,
) -> Option<(Browser, ExploreServer, std::sync::MutexGuard<'static, ()>)> {
    let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let browser = match Browser::launch(width, height) {
        Ok(b) => b,
        Err(e) => {
            println!("skipped: {e}");
            return None;
        }
    };
    let server = ExploreServer::start(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).unwrap();
    Some((browser, server, turn))
}

/// With `LULL_SCREENSHOTS=DIR`: the page as a 1280 × 800 window shows it, scrolled so that
/// `at` (a CSS selector) is near the top (`None`: the page's top), as a PNG in DIR. The
/// window is set back to its size afterwards.
fn screenshot(browser: &Browser, name: &str, at: Option<&str>) {
    if let Some(dir) = std::env::var_os("LULL_SCREENSHOTS") {
        let rect = browser.session("GET", "/window/rect", None);
        set_viewport(browser, 1280, 800);
        match at {
            Some(css) => browser.script(
                "const e = document.querySelector(arguments[0]); \
                 window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 8); return true;",
                json!([css]),
            ),
            None => browser.script("window.scrollTo(0, 0); return true;", json!([])),
        };
        std::thread::sleep(std::time::Duration::from_millis(200));
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), browser.screenshot()).unwrap();
        browser.session(
            "POST",
            "/window/rect",
            Some(json!({"width": rect["width"], "height": rect["height"]})),
        );
    }
}

/// Sizes the window so that the page's viewport is `width` × `height` (the window's frame
/// takes some of its size, headless too).
fn set_viewport(browser: &Browser, width: i64, height: i64) {
    let inner = || {
        let v = browser.script("return [window.innerWidth, window.innerHeight];", json!([]));
        (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
    };
    let (mut w, mut h) = (width, height);
    for _ in 0..3 {
        browser.session(
            "POST",
            "/window/rect",
            Some(json!({"width": w, "height": h})),
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
        let (iw, ih) = inner();
        if (iw, ih) == (width, height) {
            break;
        }
        w += width - iw;
        h += height - ih;
    }
}

fn nonempty(t: &str) -> bool {
    !t.trim().is_empty()
}

/// Waits for the search the page started to be shown (`#progress` says done).
fn wait_done(b: &Browser) {
    b.wait_text("#progress", "done", |t| t == "done");
}

/// Where a tree header says the tree is: `after Qxd4` or `at the root`.
fn tree_place(header: &str) -> String {
    let rest = header
        .strip_prefix("Quiescence search ")
        .unwrap_or_default();
    rest.split([',', '('])
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// The first tree node (in `tree`, `#tree` or `#tree-b`) whose text starts with `label`.
fn tree_node(b: &Browser, tree: &str, label: &str) -> Option<String> {
    b.find_all(&format!("{tree} .qnode"))
        .into_iter()
        .find(|e| b.element_text(e).starts_with(label))
}

#[test]
fn the_tree_opens_at_a_pv_node_and_after_a_root_move() {
    let Some((b, server, _turn)) = setup(1400, 1700) else {
        return;
    };
    b.open(&format!("{}?fen={HORIZON}&depth=3", server.url()));
    wait_done(&b);
    // Windows are numbers, the open ends written ∞.
    let root = b.text("#tree .qnode");
    assert!(root.contains("[-\u{221e}, +\u{221e}]"), "{root}");

    // A move of the PV with quiescence: the tree from the position after it.
    let first = b.text("#pv-with .moves span[data-ply='1']");
    b.click("#pv-with .moves span[data-ply='1']");
    let header = b.wait_text("#tree-header", "the tree after the PV move", |t| {
        tree_place(t) == format!("after {first}")
    });
    assert!(header.contains("full window"), "{header}");
    assert!(b.url().contains("tree="), "{}", b.url());
    assert!(!b.find_all("#tree .qnode").is_empty());
    // The second move of the other PV: the path names both moves.
    let second = b.text("#pv-without .moves span[data-ply='2']");
    let first_without = b.text("#pv-without .moves span[data-ply='1']");
    b.click("#pv-without .moves span[data-ply='2']");
    b.wait_text("#tree-header", "the tree two plies into the PV", |t| {
        tree_place(t) == format!("after {first_without} {second}")
    });

    // A root move: Qxd4, whose refutation ...exd4 the tree shows.
    b.select("#tree-at", "d1d4");
    b.wait_text("#tree-header", "the tree after Qxd4", |t| {
        tree_place(t) == "after Qxd4"
    });
    assert!(b.url().contains("tree=d1d4"), "{}", b.url());
    let exd4 = tree_node(&b, "#tree", "exd4").expect("exd4 in the tree after Qxd4");
    b.click_element(&exd4);
    assert_eq!(b.text("#node-title"), "exd4");
    // Its line on the big board: Qxd4 exd4, a black pawn on d4; one step back, the queen.
    let bar = b.wait_text("#view-text", "the line", |t| t.contains("Qxd4 exd4"));
    assert!(bar.contains("(2/2)"), "{bar}");
    assert_eq!(b.text("#board [data-square=d4] .pc-b"), "\u{265F}");
    b.click("#view-back");
    b.wait_text("#view-text", "one move back", |t| t.contains("(1/2)"));
    assert_eq!(b.text("#board [data-square=d4] .pc-w"), "\u{265B}");
    // An arrow for the move shown, and coordinates on the board.
    let arrow = b.find("#board-wrap svg.arrows line.arrow-line");
    assert_eq!(
        (
            b.attribute(&arrow, "data-from"),
            b.attribute(&arrow, "data-to")
        ),
        ("d1".to_string(), "d4".to_string())
    );
    assert_eq!(b.text("#board [data-square=a1] .coord.rank"), "1");
    assert_eq!(b.text("#board [data-square=h1] .coord.file"), "h");
    b.click("#view-close");
    // Back at the position: the arrows of the best move and of the threat.
    let best = b.find("#board-wrap svg.arrows line.arrow-best");
    let best_uci = format!(
        "{}{}",
        b.attribute(&best, "data-from"),
        b.attribute(&best, "data-to")
    );
    let pv = b.text("#pv-with .moves span[data-ply='1']");
    assert!(!best_uci.is_empty() && !pv.is_empty());
    assert_eq!(
        b.find_all("#board-wrap svg.arrows line.arrow-threat").len(),
        1
    );
    assert!(
        b.text("#threat").starts_with("Threat: "),
        "{}",
        b.text("#threat")
    );
}

#[test]
fn ab_compares_a_main_search_switch_and_the_evaluation() {
    let Some((b, server, _turn)) = setup(1400, 1400) else {
        return;
    };
    b.open(&format!("{}?fen={HORIZON}&depth=4", server.url()));
    wait_done(&b);
    b.click("#ab-mode");
    wait_done(&b);
    assert!(b.property("#ab-view", "hidden") == json!(false));
    // Set B: no null-move pruning, the hand-crafted evaluation.
    b.click("input[data-set=b][data-option=NullMovePruning]");
    b.click("input[data-set=b][data-option='Use NNUE']");
    let b_opts = b.wait_text("#options-b", "B's options", |t| {
        t.contains("NullMovePruning=false") && t.contains("Use NNUE=false")
    });
    wait_done(&b);
    assert_eq!(b.text("#options-a"), "defaults", "{b_opts}");
    // The two evaluations score on different scales and search different trees: the score
    // and node cells are highlighted as different.
    let (sa, sb) = (b.text("#score-a"), b.text("#score-b"));
    assert_ne!(sa, sb);
    for cell in ["#score-a", "#score-b", "#nodes-a", "#nodes-b", "#options-a"] {
        let class = b.property(cell, "className");
        assert!(
            class.as_str().unwrap_or_default().contains("diff"),
            "{cell}: {class}"
        );
    }
    let (na, nb) = (b.text("#nodes-a"), b.text("#nodes-b"));
    assert_ne!(na, nb);
    // The inputs that differ are marked, and so are statistics rows.
    let marked = b.property(
        "input[data-set=b][data-option=NullMovePruning]",
        "className",
    );
    assert!(marked.as_str().unwrap_or_default().contains("differs"));
    assert!(!b.find_all("#stats tr.diff").is_empty());
    // Both trees, at the same node.
    assert_eq!(b.property("#tree-b-box", "hidden"), json!(false));
    let (ha, hb) = (b.text("#tree-header"), b.text("#tree-b-header"));
    assert_eq!(tree_place(&ha), tree_place(&hb));
    assert!(tree_place(&ha).starts_with("after "), "{ha}");
    assert!(!b.find_all("#tree-b .qnode").is_empty());
    screenshot(&b, "ab-view.png", Some("#ab-view"));
    let url = b.url();
    assert!(
        url.contains("ab=1") && url.contains("b.NullMovePruning=false"),
        "{url}"
    );
    assert!(
        url.contains("b.Use+NNUE=false") || url.contains("b.Use%20NNUE=false"),
        "{url}"
    );
}

#[test]
fn the_iterations_chart_shows_the_horizon_effect_appearing() {
    let Some((b, server, _turn)) = setup(1400, 1200) else {
        return;
    };
    b.open(&format!("{}?fen={HORIZON}&depth=3", server.url()));
    wait_done(&b);
    let points = b.find_all("#iterations-chart circle.it-point");
    assert_eq!(points.len(), 6, "three depths, two searches");
    let point = |series: &str, depth: u32| {
        points
            .iter()
            .find(|p| {
                b.attribute(p, "data-series") == series
                    && b.attribute(p, "data-depth") == depth.to_string()
            })
            .unwrap_or_else(|| panic!("{series} at depth {depth}"))
            .clone()
    };
    // Depth 1: without quiescence Qxd4 looks like a knight won; with it, it is refuted.
    let off1 = point("QSearch off", 1);
    assert_eq!(b.attribute(&off1, "data-best"), "Qxd4");
    assert!(score_value(&b.attribute(&off1, "data-score")) > 100);
    let on1 = point("QSearch on", 1);
    assert_ne!(b.attribute(&on1, "data-best"), "Qxd4");
    assert!(score_value(&b.attribute(&on1, "data-score")) < 0);
    // From depth 2 the search without quiescence sees ...exd4 too: no Qxd4 any more.
    let off2 = point("QSearch off", 2);
    assert_ne!(b.attribute(&off2, "data-best"), "Qxd4");
    // The axes are labelled.
    let chart = b.text("#iterations");
    assert!(chart.contains("depth (plies)"), "{chart}");
    assert!(
        chart.contains("score (centipawns, side to move)"),
        "{chart}"
    );
    // The q-ply histogram has no empty column: QSearch off has no quiescence nodes.
    let head = b.text("#qply-table thead");
    assert!(
        head.contains("QSearch on") && !head.contains("QSearch off"),
        "{head}"
    );
    assert!(b.text("#qply-note").contains("QSearch off"));
}

#[test]
fn each_tour_stop_opens_with_its_settings() {
    let Some((b, server, _turn)) = setup(1400, 1750) else {
        return;
    };
    b.open(&server.url());
    b.wait_text("#tour-list", "the tour", nonempty);
    let stops = tour();
    assert!(stops.len() >= 5);
    for stop in &stops {
        // Two stops in a row may share a depth, so the run options alone do not show that
        // the next stop's search ran: the progress line is cleared first, and only the new
        // search writes "done" into it again.
        b.script(
            "document.getElementById('progress').textContent = '';",
            json!([]),
        );
        b.click(&format!(".tour-stop[data-tour='{}']", stop.id));
        b.wait_text("#run-options", "the stop's search", |t| {
            t.starts_with(&format!("Depth {};", stop.depth))
        });
        wait_done(&b);
        let fen = b.property("#fen", "value");
        assert_eq!(fen, json!(stop.fen), "{}", stop.id);
        assert!(b.text("#tour-text").starts_with(stop.title), "{}", stop.id);
        assert!(
            b.url().contains(&format!("tour={}", stop.id)),
            "{}",
            b.url()
        );
        let ab = stop.options_b.is_some();
        assert_eq!(b.property("#ab-mode", "checked"), json!(ab), "{}", stop.id);
        for (set, opts) in [("a", Some(&stop.options)), ("b", stop.options_b.as_ref())] {
            for (name, value) in opts.into_iter().flatten() {
                let css = format!("input[data-set={set}][data-option='{name}']");
                let v = if *value == "true" || *value == "false" {
                    b.property(&css, "checked")
                } else {
                    b.property(&css, "value")
                };
                assert_eq!(
                    v.to_string().trim_matches('"'),
                    *value,
                    "{} {set}.{name}",
                    stop.id
                );
            }
        }
        // What each stop's text says, as the page shows it.
        match stop.id {
            "refuted-capture" => {
                assert_eq!(b.text("#best-without-qsearch"), "Qxd4");
                assert!(score_value(&b.text("#score-without-qsearch")) > 0);
                assert!(score_value(&b.text("#score-with-qsearch")) < 0);
                assert!(tree_node(&b, "#tree", "exd4").is_some());
            }
            "pinned-piece" => {
                assert_eq!(b.text("#best-without-qsearch"), "b2");
                assert_eq!(b.text("#best-with-qsearch"), "f6");
            }
            "overloaded-defender" => {
                assert!(score_value(&b.text("#score-without-qsearch")) < 0);
                assert!(score_value(&b.text("#score-with-qsearch")) > 0);
                let h = b.text("#tree-header");
                assert_eq!(tree_place(&h), "after Bxg4 Nxg4", "{h}");
                assert!(tree_node(&b, "#tree", "Nxd5").is_some());
            }
            "quiet-check" => {
                assert_eq!(b.text("#best-a"), "Qxa2");
                assert_ne!(b.text("#best-b"), "Qxa2");
                let h = b.text("#tree-header");
                assert_eq!(tree_place(&h), "after Qxa2", "{h}");
                let re8 = tree_node(&b, "#tree-b", "Re8").expect("Re8 in B's tree");
                assert!(
                    b.element_text(&re8).contains("mated"),
                    "{}",
                    b.element_text(&re8)
                );
                assert!(tree_node(&b, "#tree", "Re8").is_none());
                screenshot(&b, "tour-quiet-check.png", Some("#tree-section"));
            }
            "promotion-race" => {
                assert_eq!(b.text("#best-without-qsearch"), "Kf1");
                assert_eq!(b.text("#best-with-qsearch"), "a7");
            }
            "beal-null-move" => {
                assert_eq!(b.text("#best-a"), "Nf5");
                assert_eq!(b.text("#best-b"), "Nc6");
                assert!(tree_node(&b, "#tree-b", "(pass)").is_some());
            }
            "delta-misses-mate" => {
                let tree = b
                    .text("#tree")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(tree.contains("Qxh7# (delta pruned"), "{tree}");
                assert!(tree_node(&b, "#tree-b", "Qxh7#").is_some());
            }
            "see-ignores-pin" => {
                let tree = b
                    .text("#tree")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(tree.contains("Rxg6+ (SEE pruned"), "{tree}");
                assert!(tree_node(&b, "#tree-b", "Rxg6+").is_some());
            }
            "null-move-zugzwang" => {
                assert_eq!(b.text("#best-a"), "Rd8");
                assert_eq!(b.text("#best-b"), "Nxd5");
            }
            other => panic!("a tour stop without a check: {other}"),
        }
    }
}

#[test]
fn a_shared_url_reproduces_the_page() {
    let Some((b, server, _turn)) = setup(1400, 1200) else {
        return;
    };
    b.open(&format!("{}?fen={HORIZON}&depth=2", server.url()));
    wait_done(&b);
    // A state: A/B, an option in each set, another depth, the tree after a root move.
    b.click("#ab-mode");
    wait_done(&b);
    b.type_into("input[data-set=a][data-option=QSearchChecks]", "1");
    b.click("input[data-set=b][data-option=LateMoveReductions]");
    b.wait_text("#options-b", "B's option", |t| {
        t.contains("LateMoveReductions=false")
    });
    b.wait_text("#options-a", "A's option", |t| {
        t.contains("QSearchChecks=1")
    });
    wait_done(&b);
    b.select("#tree-at", "d1d4");
    b.wait_text("#tree-header", "the tree after Qxd4", |t| {
        tree_place(t) == "after Qxd4"
    });
    let url = b.url();
    let before = [
        b.text("#score-a"),
        b.text("#score-b"),
        b.text("#best-a"),
        b.text("#best-b"),
        b.text("#options-a"),
        b.text("#options-b"),
    ];
    let tree_before = b.text("#tree-header");
    // The same address in a fresh page.
    b.open("about:blank");
    b.open(&url);
    wait_done(&b);
    assert_eq!(b.property("#ab-mode", "checked"), json!(true));
    assert_eq!(
        b.property("input[data-set=a][data-option=QSearchChecks]", "value"),
        json!("1")
    );
    assert_eq!(
        b.property(
            "input[data-set=b][data-option=LateMoveReductions]",
            "checked"
        ),
        json!(false)
    );
    assert_eq!(b.property("#depth", "value"), json!("2"));
    let after = [
        b.text("#score-a"),
        b.text("#score-b"),
        b.text("#best-a"),
        b.text("#best-b"),
        b.text("#options-a"),
        b.text("#options-b"),
    ];
    assert_eq!(before, after);
    assert!(after[4].contains("QSearchChecks=1") && after[5].contains("LateMoveReductions=false"));
    assert_eq!(b.text("#tree-header"), tree_before);
    assert_eq!(b.url(), url);
}

/// The bounding box of the first element `css` selects: (left, top, right, bottom) in the
/// viewport.
fn rect(b: &Browser, css: &str) -> (f64, f64, f64, f64) {
    let v = b.script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect(); \
         return [r.left, r.top, r.right, r.bottom];",
        json!([css]),
    );
    let n = |i: usize| v[i].as_f64().unwrap();
    (n(0), n(1), n(2), n(3))
}

/// At 1280 × 800 the board and the tree are on screen together once a tree node is selected
/// (the board column stays in view while the results scroll), the board shows the node's line,
/// and the arrow keys step through it with move numbers.
#[test]
fn at_1280_by_800_the_board_and_the_selected_tree_node_are_on_screen_together() {
    let Some((b, server, _turn)) = setup(1280, 800) else {
        return;
    };
    set_viewport(&b, 1280, 800);
    b.open(&format!("{}?fen={HORIZON}&depth=1", server.url()));
    wait_done(&b);
    let exd4 = tree_node(&b, "#tree", "exd4").expect("exd4 in the tree at the horizon");
    b.click_element(&exd4);
    b.wait_text("#view-text", "the line", |t| t.contains("1. Qxd4 exd4"));
    // The node's static evaluation taken apart: the hand-crafted terms and the network's
    // bucket (exd4 left White a queen down: material says so).
    b.wait_text("#node-eval", "the static evaluation", |t| {
        t.contains("material -") && t.contains("output bucket")
    });
    let inner = b.script("return [window.innerWidth, window.innerHeight];", json!([]));
    assert_eq!(inner, json!([1280, 800]), "the viewport");
    let (w, h) = (1280.0, 800.0);
    for css in ["#board-wrap", "#tree .qnode.selected"] {
        let (l, t, r, bt) = rect(&b, css);
        assert!(
            l >= 0.0 && t >= 0.0 && r <= w && bt <= h,
            "{css} at ({l}, {t}, {r}, {bt}): not within {w} x {h}"
        );
    }
    // The board beside the tree, not above it.
    assert!(rect(&b, "#board-wrap").2 <= rect(&b, "#tree").0);
    screenshot(&b, "tree-view.png", Some("#tree-section"));
    // Keys step through the line.
    let key = |k: &str| {
        b.script(
            "document.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0]})); return true;",
            json!([k]),
        );
    };
    key("ArrowLeft");
    b.wait_text("#view-text", "one move back", |t| t.contains("(1/2)"));
    assert_eq!(b.text("#board [data-square=d4] .pc-w"), "\u{265B}");
    key("ArrowRight");
    b.wait_text("#view-text", "forward again", |t| t.contains("(2/2)"));
    // White's view: the node exd4 has White to move, its score unchanged; its parent, the
    // root after Qxd4, has Black to move and shows the negated score.
    let root_before = b.text("#tree .qnode");
    b.click("#white-view");
    let root_after = b.text("#tree .qnode");
    assert_ne!(root_before, root_after);
    // Move numbers in the PVs.
    assert!(
        b.text("#pv-without .moves").starts_with("1."),
        "{}",
        b.text("#pv-without .moves")
    );
}

/// A move on the board after a search marks the results stale, and "Tree at" works on the
/// new position (it sent the old FEN: "move 'e5d4': illegal move"); Undo back to the
/// searched position makes them current again; a refused search leaves no "searching...".
#[test]
fn a_move_after_a_search_marks_the_results_stale_and_tree_at_follows_the_board() {
    let Some((b, server, _turn)) = setup(1280, 800) else {
        return;
    };
    b.open(&format!("{}?fen={HORIZON}&depth=1", server.url()));
    wait_done(&b);
    assert_eq!(b.property("#stale-banner", "hidden"), json!(true));
    b.click("#board [data-square=d1]");
    b.click("#board [data-square=d4]");
    b.wait_text("#position-status", "Black to move", |t| {
        t.starts_with("Black to move")
    });
    assert_eq!(b.property("#stale-banner", "hidden"), json!(false));
    assert!(
        b.text("#stale-banner").starts_with("Stale"),
        "{}",
        b.text("#stale-banner")
    );
    let class = b.property("#results", "className");
    assert!(class.as_str().unwrap().contains("stale"), "{class}");
    b.select("#tree-at", "e5d4");
    b.wait_text("#tree-header", "the tree after exd4", |t| {
        tree_place(t) == "after exd4"
    });
    assert_eq!(b.text("#error"), "");
    assert!(!b.find_all("#tree .qnode").is_empty());
    // The tree is of the position on the board: not greyed.
    let tree_class = b.property("#tree-section", "className");
    assert!(
        !tree_class.as_str().unwrap().contains("stale"),
        "{tree_class}"
    );
    // Undo: the searched position again, the results current.
    b.click("#undo");
    b.wait_text("#position-status", "White to move", |t| {
        t.starts_with("White to move")
    });
    assert_eq!(b.property("#stale-banner", "hidden"), json!(true));
    // Set FEN: another position, stale again.
    b.type_into("#fen", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    b.click("#set-fen");
    b.wait_text("#position-status", "in check", |t| t.contains("in check"));
    assert_eq!(b.property("#stale-banner", "hidden"), json!(false));
    // A refused depth: an error, and the progress line does not say "searching".
    b.type_into("#depth", "0");
    b.click("#search");
    b.wait_text("#error", "the refusal", |t| t.contains("depth"));
    assert!(
        !b.text("#progress").contains("searching"),
        "{}",
        b.text("#progress")
    );
}

/// Windows clamped by mate-distance pruning read as the open bounds they are (no `-M1`,
/// `M0`), a checkmated root reads "mated", and the page has an icon.
#[test]
fn infinite_bounds_read_as_infinite_and_a_mated_root_as_mated() {
    let Some((b, server, _turn)) = setup(1280, 800) else {
        return;
    };
    // In check at the root of the tree: no stand pat, the evasions' windows are open.
    b.open(&format!(
        "{}?fen=4k3/8/8/8/8/8/4r3/4K3%20w%20-%20-%200%201&depth=1&tree=",
        server.url()
    ));
    wait_done(&b);
    let nodes: Vec<String> = b
        .find_all("#tree .qnode")
        .iter()
        .map(|e| b.element_text(e))
        .collect();
    assert!(nodes.len() >= 2, "{nodes:?}");
    for n in &nodes {
        assert!(!n.contains("M0") && !n.contains("-M1"), "{n}");
    }
    assert!(nodes[1].contains("[-\u{221e}, +\u{221e}]"), "{nodes:?}");
    // A checkmated root.
    b.open(&format!(
        "{}?fen=7k/6Q1/6K1/8/8/8/8/8%20b%20-%20-%200%201&depth=1",
        server.url()
    ));
    wait_done(&b);
    let score = b.text("#score-with-qsearch");
    assert!(!score.contains("M0"), "{score}");
    assert!(
        b.text("#horizon-note").contains("Black is checkmated"),
        "{}",
        b.text("#horizon-note")
    );
    assert!(
        !b.text("#tree-header").contains("standing pat"),
        "{}",
        b.text("#tree-header")
    );
    let icon = b.script(
        "return fetch('/favicon.ico').then(r => r.status + ' ' + r.headers.get('content-type'));",
        json!([]),
    );
    assert_eq!(icon, json!("200 image/svg+xml"));
}

/// The pinned-queen stop at depth 6: the note names the search whose line throws the pawns
/// (the one with quiescence), as its line shows.
#[test]
fn the_pinned_queen_note_names_the_search_that_throws_the_pawns() {
    let Some((b, server, _turn)) = setup(1280, 800) else {
        return;
    };
    b.open(&format!("{}?tour=pinned-piece", server.url()));
    wait_done(&b);
    b.type_into("#depth", "6");
    b.click("#search");
    b.wait_text("#run-options", "depth 6", |t| t.starts_with("Depth 6;"));
    wait_done(&b);
    let line = b.text("#pv-with .moves");
    assert!(line.contains("b2") && line.contains("Bxd4"), "{line}");
    let note = b.text("#horizon-note");
    assert!(
        note.contains("The search with quiescence's line gives away 3 pawns"),
        "{note}"
    );
    assert!(
        !note.contains("The search without quiescence's line gives away"),
        "{note}"
    );
}

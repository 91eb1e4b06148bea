//! `lull explore` in a real browser: headless Chromium driven through chromedriver with the
//! W3C WebDriver protocol (plain JSON over HTTP, with ureq). The page opens the horizon
//! example from its URL, both scores are read from `#score-without-qsearch` and
//! `#score-with-qsearch`, a tree node is clicked and its details read, option switches re-run
//! the search, a bad FEN gives a message on the page, and a move is played by clicking.
//!
//! Without Chromium or chromedriver (Debian `chromium` and `chromium-driver`; `.ci/run`
//! installs them where it can) the test prints `skipped: ...` and passes.

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use lull::tools::teaching::explore::ExploreServer;

use crate::webdriver::{score_value, Browser};

/// The FEN field's current text.
fn fen_field(browser: &Browser) -> String {
    browser
        .property("#fen", "value")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_page_shows_the_horizon_effect_in_chromium() {
    let browser = match Browser::launch(1400, 1000) {
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
    while !fen_field(&browser).contains(" b ") {
        assert!(Instant::now() < deadline, "the move was not played");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        fen_field(&browser),
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

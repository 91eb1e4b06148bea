//! No data lost, no request that kills the server: the binary run as a careful user runs it,
//! with bad paths and bad input. One test per defect found that way (each names it), then the
//! kill test: every writer killed at random moments leaves the complete old file or the
//! complete new one.
//!
//! `LULL_BIN=/path/to/lull cargo test --profile ci --test it no_data_lost::` runs the same tests
//! against another build of the binary (how they were seen to fail before the fixes).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The binary under test.
fn bin() -> String {
    std::env::var("LULL_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_lull").to_string())
}

fn lull(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("lull runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lull-nodata-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Data lines of `lull datagen`'s text format: `n` positions from the start of a game.
fn data_lines(n: usize) -> String {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ];
    let results = ["1.0", "0.5", "0.0"];
    (0..n)
        .map(|i| {
            format!(
                "{} | {} | {}\n",
                fens[i % fens.len()],
                results[i % 3],
                (i as i32 % 7 - 3) * 25
            )
        })
        .collect()
}

/// A PGN of `games` short games, each a few plies of the same opening.
fn pgn(games: usize) -> String {
    (0..games)
        .map(|i| {
            let result = ["1-0", "1/2-1/2", "0-1"][i % 3];
            format!(
                "[Event \"t\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {result}\n\n"
            )
        })
        .collect()
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_default()
}

// ---- Defect 1: one HTTP request killed `lull explore`. ----

/// The server of `lull explore --port 0` and its address.
struct Explorer {
    child: std::process::Child,
    addr: String,
}

impl Explorer {
    fn start() -> Self {
        let mut child = Command::new(bin())
            .args(["explore", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("lull explore runs");
        let mut line = Vec::new();
        let mut out = child.stdout.take().unwrap();
        let mut byte = [0u8];
        while out.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
            line.push(byte[0]);
        }
        let line = text(&line);
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Self { child, addr }
    }

    /// Sends raw request bytes, closes the sending side, and reads the answer (empty when
    /// the connection fails).
    fn raw(&self, request: &[u8]) -> String {
        let Ok(mut s) = TcpStream::connect(&self.addr) else {
            return String::new();
        };
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let _ = s.write_all(request);
        let _ = s.shutdown(std::net::Shutdown::Write);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        text(&answer)
    }

    fn post(&self, headers: &str, body: &[u8]) -> String {
        let mut req = format!(
            "POST /api/moves HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{headers}\r\n",
            self.addr
        )
        .into_bytes();
        req.extend_from_slice(body);
        self.raw(&req)
    }

    fn alive(&mut self) -> bool {
        let answer = self.raw(
            format!(
                "GET /api/options HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                self.addr
            )
            .as_bytes(),
        );
        self.child.try_wait().ok().flatten().is_none() && answer.starts_with("HTTP/1.1 200")
    }
}

impl Drop for Explorer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn defect_1_a_huge_declared_body_gets_413_and_the_server_lives() {
    let mut server = Explorer::start();
    let fen = r#"{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}"#;
    // The request of the report: a terabyte declared, two bytes sent.
    let answer = server.post("Content-Length: 1000000000000\r\n", b"{}");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:?}");
    assert!(server.alive(), "the server died");
    // Lengths and encodings around the cap: each answered, the server still up.
    let big = vec![b' '; 100_000];
    let cases: Vec<(String, Vec<u8>, &str)> = vec![
        (
            format!("Content-Length: {}\r\n", u64::MAX),
            b"{}".to_vec(),
            "413",
        ),
        (
            "Content-Length: 18446744073709551616\r\n".into(),
            b"{}".to_vec(),
            "400",
        ),
        ("Content-Length: -5\r\n".into(), b"{}".to_vec(), "400"),
        (
            format!("Content-Length: {}\r\n", big.len()),
            big.clone(),
            "413",
        ),
        // Chunked: the real length is over the cap whatever the header says.
        (
            "Transfer-Encoding: chunked\r\n".into(),
            [
                format!("{:x}\r\n", big.len()).into_bytes(),
                big.clone(),
                b"\r\n0\r\n\r\n".to_vec(),
            ]
            .concat(),
            "413",
        ),
        // A body shorter than declared, and one that is not UTF-8.
        ("Content-Length: 5000\r\n".into(), b"{}".to_vec(), "400"),
        (
            "Content-Length: 4\r\n".into(),
            b"\xff\xfe{}".to_vec(),
            "400",
        ),
        (
            format!("Content-Length: {}\r\n", fen.len()),
            fen.as_bytes().to_vec(),
            "200",
        ),
    ];
    for (headers, body, status) in cases {
        let answer = server.post(&headers, &body);
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{headers:?}: {answer:?}"
        );
        assert!(server.alive(), "the server died after {headers:?}");
    }
}

// ---- Defects 2 and 3: `lull data convert`. ----

#[test]
fn defect_2_data_convert_onto_its_own_input_is_refused_and_the_input_kept() {
    let dir = scratch("d2");
    let d = dir.join("d.txt");
    std::fs::write(&d, data_lines(6)).unwrap();
    let before = read(&d);
    let out = lull(&["data", "convert", s(&d), s(&d)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("is the input"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(&d), before, "the input was changed");
    // Through a link to it, too.
    #[cfg(unix)]
    {
        let link = dir.join("link.bin");
        std::os::unix::fs::symlink(&d, &link).unwrap();
        let out = lull(&["data", "convert", s(&d), s(&link)]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert_eq!(read(&d), before, "the input was changed through a link");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn defect_3_data_convert_skips_and_counts_a_line_that_is_not_utf8() {
    let dir = scratch("d3");
    let d = dir.join("d.txt");
    let mut bytes = data_lines(2).into_bytes();
    bytes.extend_from_slice(b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0.5 | \xff\xfe\n");
    bytes.extend_from_slice(data_lines(3).as_bytes());
    std::fs::write(&d, &bytes).unwrap();
    let o = dir.join("o.bin");
    std::fs::write(&o, b"the old file").unwrap();
    let out = lull(&["data", "convert", s(&d), s(&o)]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("5 positions"), "{stdout}");
    assert!(stdout.contains("1 malformed lines skipped"), "{stdout}");
    assert!(stderr.contains("line 3: not UTF-8"), "{stderr}");
    assert_eq!(read(&o).len(), 5 * 32);
    // Nothing to convert: an error, and the old output stays as it was.
    std::fs::write(&o, b"the old file").unwrap();
    let empty = dir.join("e.txt");
    std::fs::write(&empty, b"\xff\n").unwrap();
    let out = lull(&["data", "convert", s(&empty), s(&o)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(read(&o), b"the old file");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Defect 4: tools that overwrote their own input. ----

#[test]
fn defect_4_book_tune_and_train_refuse_to_overwrite_their_input() {
    let dir = scratch("d4");
    let g = dir.join("g.pgn");
    std::fs::write(&g, pgn(6)).unwrap();
    let d = dir.join("d.txt");
    std::fs::write(&d, data_lines(60)).unwrap();
    let bin = dir.join("d.bin");
    let out = lull(&["data", "convert", s(&d), s(&bin)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a = dir.join("a.bin");
    std::fs::copy(&bin, &a).unwrap();
    let v = dir.join("v.bin");
    std::fs::copy(&bin, &v).unwrap();
    let runs: Vec<(Vec<&str>, &Path)> = vec![
        (vec!["book", "build", s(&g), "-o", s(&g)], &g),
        (vec!["tune", s(&d), "--epochs", "1", "-o", s(&d)], &d),
        (
            vec![
                "train",
                s(&bin),
                "--epochs",
                "1",
                "--hidden",
                "16",
                "-o",
                s(&bin),
            ],
            &bin,
        ),
        (
            vec![
                "train",
                s(&a),
                "--valid",
                s(&v),
                "--epochs",
                "1",
                "--hidden",
                "16",
                "-o",
                s(&v),
            ],
            &v,
        ),
    ];
    for (args, input) in runs {
        let before = read(input);
        let out = lull(&args);
        assert!(
            !out.status.success(),
            "{args:?} succeeded: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("is the input"),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(read(input), before, "{args:?} changed its input");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Defect 5: an empty book written over the old one. ----

#[test]
fn defect_5_book_build_from_an_empty_or_binary_pgn_keeps_the_old_book() {
    let dir = scratch("d5");
    let book = dir.join("b.bin");
    let good = dir.join("good.pgn");
    std::fs::write(&good, pgn(6)).unwrap();
    let out = lull(&["book", "build", s(&good), "-o", s(&book)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let old = read(&book);
    assert!(!old.is_empty() && old.len().is_multiple_of(16));
    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, b"").unwrap();
    let binary = dir.join("binary.pgn");
    std::fs::write(
        &binary,
        (0..4096u32)
            .map(|i| (i * 7919 % 251) as u8)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let junk = dir.join("junk.pgn");
    std::fs::write(&junk, b"this is not a game at all\n1. e9 e5 *\n").unwrap();
    for pgn in [&empty, &binary, &junk] {
        let out = lull(&["book", "build", s(pgn), "-o", s(&book)]);
        assert_eq!(out.status.code(), Some(1), "{pgn:?}: {}", text(&out.stderr));
        assert_eq!(read(&book), old, "{pgn:?} replaced the book");
        // The book is still one Lull reads.
        let probe = lull(&["book", "probe", "--book", s(&book)]);
        assert!(probe.status.success(), "{}", text(&probe.stderr));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Defect 6: networks the engine refuses to load. ----

#[test]
fn defect_6_train_accepts_only_the_hidden_sizes_the_engine_loads() {
    let dir = scratch("d6");
    let d = dir.join("d.txt");
    std::fs::write(&d, data_lines(30)).unwrap();
    for hidden in ["17", "1040", "2048", "0"] {
        let net = dir.join(format!("n{hidden}.nnue"));
        let out = lull(&[
            "train",
            s(&d),
            "--epochs",
            "1",
            "--hidden",
            hidden,
            "-o",
            s(&net),
        ]);
        assert_eq!(out.status.code(), Some(2), "--hidden {hidden}");
        assert!(
            text(&out.stderr).contains("multiple of 16"),
            "--hidden {hidden}: {}",
            text(&out.stderr)
        );
        assert!(!net.exists(), "--hidden {hidden} wrote a network");
    }
    // A size the engine loads trains, and the engine takes the network.
    let net = dir.join("n32.nnue");
    let out = lull(&[
        "train",
        s(&d),
        "--epochs",
        "1",
        "--hidden",
        "32",
        "-o",
        s(&net),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut uci = Command::new(bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(
        uci.stdin.as_mut().unwrap(),
        "uci\nsetoption name EvalFile value {}\nisready\nquit",
        s(&net)
    )
    .unwrap();
    let out = uci.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("readyok"), "{stdout}");
    assert!(!stdout.contains("error"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Defect 7: `solve --json` into a directory that does not exist. ----

#[test]
fn defect_7_solve_json_into_a_missing_directory_fails_before_any_search() {
    let dir = scratch("d7");
    let epd = dir.join("s.epd");
    std::fs::write(
        &epd,
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n",
    )
    .unwrap();
    let start = Instant::now();
    let out = lull(&[
        "solve",
        s(&epd),
        "--nodes",
        "20000",
        "--json",
        "/nonexistent/dir/x.json",
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(stderr.contains("/nonexistent/dir"), "{stderr}");
    // Nothing was searched: no result line, no summary.
    assert!(!stdout.contains("WAC.001"), "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(20));
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Defect 8: XBoard `sd` beyond the maximum depth. ----

/// The lines XBoard answers to `input` (after `xboard` and `protover 2`).
fn xboard(input: &str) -> Vec<String> {
    let mut child = Command::new(bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    write!(
        child.stdin.as_mut().unwrap(),
        "xboard\nprotover 2\n{input}ping 99\nquit\n"
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    text(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn defect_8_xboard_sd_out_of_range_is_an_error_at_both_ends() {
    let lines = xboard("sd 100000\nsd 0\nmemory 16385\ncores 100000\nsd 12\n");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error")).collect();
    assert_eq!(errors.len(), 4, "{lines:#?}");
    for (e, cmd) in errors
        .iter()
        .zip(["sd 100000", "sd 0", "memory 16385", "cores 100000"])
    {
        assert!(e.contains(cmd), "{e} should name {cmd}");
    }
    assert!(lines.iter().any(|l| l == "pong 99"), "{lines:#?}");
}

// ---- A write past the file-size limit (`ulimit -f`, as on a full disk). ----

/// `lull args…` under `ulimit -f blocks` (512-byte blocks in POSIX sh).
fn lull_under_file_limit(blocks: u32, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -f {blocks} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

/// The temporary files left in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("lull-tmp"))
        .collect()
}

/// `qtree -o`, `solve --json` and `book build -o` writing more than `ulimit -f` allows: the
/// process was killed by SIGXFSZ without a word and left `.NAME.lull-tmp-*` beside the old
/// file. Now each says why (EFBIG, "File too large"), exits 1, keeps the old file and leaves
/// no temporary file; written in full, the limit higher, each succeeds.
#[test]
fn a_write_past_the_file_size_limit_is_an_error_that_leaves_no_temporary_file() {
    let dir = scratch("fsize");
    let epd = dir.join("s.epd");
    std::fs::write(
        &epd,
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
         r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - bm Bxc6; id \"WAC.003\";\n",
    )
    .unwrap();
    // 400 drawn games, each a different first move pair: a book of 420 entries (6720 bytes).
    let (white, black) = (
        "a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Na3 Nc3 Nf3 Nh3",
        "a6 a5 b6 b5 c6 c5 d6 d5 e6 e5 f6 f5 g6 g5 h6 h5 Na6 Nc6 Nf6 Nh6",
    );
    let games: String = white
        .split(' ')
        .flat_map(|w| black.split(' ').map(move |b| (w, b)))
        .map(|(w, b)| format!("[Result \"1/2-1/2\"]\n\n1. {w} {b} 1/2-1/2\n\n"))
        .collect();
    let games_file = dir.join("g.pgn");
    std::fs::write(&games_file, games).unwrap();
    let games = games_file;
    let (tree, json, book) = (dir.join("t.txt"), dir.join("s.json"), dir.join("b.bin"));
    let cases: [(&Path, Vec<&str>); 3] = [
        (&tree, vec!["qtree", "--max-nodes", "300", "-o", s(&tree)]),
        (
            &json,
            vec!["solve", s(&epd), "--nodes", "2000", "--json", s(&json)],
        ),
        (
            &book,
            vec![
                "book",
                "build",
                s(&games),
                "--min-games",
                "1",
                "-o",
                s(&book),
            ],
        ),
    ];
    for (out, args) in &cases {
        std::fs::write(out, b"old").unwrap();
        // 2 blocks: 1 KiB, less than each of these files.
        let run = lull_under_file_limit(2, args);
        let stderr = text(&run.stderr);
        assert_eq!(
            run.status.code(),
            Some(1),
            "{args:?}: {:?} {stderr}",
            run.status
        );
        assert!(
            stderr.contains("File too large") && stderr.contains(s(out)),
            "{args:?}: {stderr}"
        );
        assert_eq!(read(out), b"old", "{args:?} changed the old file");
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "{args:?}");
        let run = lull_under_file_limit(4096, args);
        assert!(run.status.success(), "{args:?}: {}", text(&run.stderr));
        assert!(read(out).len() > 1024, "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `lull wdl fit DATA --holdout-out DATA` truncated its own input before reading it, and a
/// run that failed after it had started left a half-written held-back file in place of the
/// old one. Now an output that is an input is refused, and the file is written whole or not
/// at all.
#[test]
fn wdl_fit_never_writes_over_its_input_or_leaves_half_a_file() {
    let dir = scratch("wdl");
    let data = dir.join("d.txt");
    std::fs::write(&data, data_lines(400)).unwrap();
    let before = read(&data);
    let held = dir.join("held.txt");
    let fit = |inputs: &[&Path], out: &Path, every: &str| {
        let mut args = vec!["wdl", "fit", "--steps", "10", "--holdout-sample", "1"];
        args.extend(["--holdout-every", every, "--holdout-out", s(out)]);
        args.extend(inputs.iter().map(|p| s(p)));
        lull(&args)
    };
    let out = fit(&[&data], &data, "2");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("is the input"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(&data), before, "the input was changed");
    // The second input cannot be read: the run fails, the old held-back file stays.
    std::fs::write(&held, b"old").unwrap();
    let out = fit(&[&data, &dir], &held, "2");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(read(&held), b"old");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    // A good run writes it.
    let out = fit(&[&data], &held, "2");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(read(&held).len() > 100, "{:?}", text(&read(&held)));
}

/// One line that is not UTF-8 in a data file stopped `lull wdl fit` ("stream did not contain
/// valid UTF-8": the lines before and after it lost), and `lull data status` counted it as a
/// position. Both now skip it and say so.
#[test]
fn a_line_that_is_not_utf8_is_skipped_and_counted_by_wdl_fit_and_data_status() {
    let dir = scratch("utf8");
    let data = dir.join("d.txt");
    let mut bytes = data_lines(200).into_bytes();
    bytes.extend_from_slice(b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0.5 | \xff\xfe\n");
    bytes.extend_from_slice(data_lines(200).as_bytes());
    std::fs::write(&data, bytes).unwrap();
    let out = lull(&["wdl", "fit", s(&data), "--steps", "5"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("positions fitted") && stdout.contains("1 lines skipped"),
        "{stdout}"
    );
    let out = lull(&["data", "status", s(&data)]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("400 positions"), "{stdout}");
    assert!(stdout.contains("DAMAGED: 1 lines not UTF-8"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- The kill test. ----

/// One writer of the kill test: the command, the files it writes, and how a complete new
/// file is recognised (`None`: equal to the file of an undisturbed run).
struct Writer {
    name: &'static str,
    args: Vec<String>,
    outputs: Vec<PathBuf>,
    complete: Option<fn(&[u8]) -> bool>,
}

/// The writers of Lull, each set up with inputs in `dir` that take it a moment to write.
fn writers(dir: &Path) -> Vec<Writer> {
    let d = dir.join("d.txt");
    std::fs::write(&d, data_lines(20_000)).unwrap();
    let small = dir.join("small.txt");
    std::fs::write(&small, data_lines(300)).unwrap();
    let g = dir.join("g.pgn");
    std::fs::write(&g, pgn(3000)).unwrap();
    let epd = dir.join("s.epd");
    let wac: Vec<&str> = lull::tools::testing::solve::WAC_EPD
        .lines()
        .take(4)
        .collect();
    std::fs::write(&epd, wac.join("\n")).unwrap();
    let p = |name: &str| dir.join(name);
    let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let complete_json: fn(&[u8]) -> bool = |b| {
        serde_json::from_slice::<serde_json::Value>(b)
            .is_ok_and(|v| v["positions"].as_array().is_some_and(|p| p.len() == 4))
    };
    vec![
        Writer {
            name: "data convert",
            args: a(&["data", "convert", s(&d), s(&p("c.bin"))]),
            outputs: vec![p("c.bin")],
            complete: None,
        },
        Writer {
            name: "data merge",
            args: a(&["data", "merge", s(&d), "-o", s(&p("m.bin"))]),
            outputs: vec![p("m.bin"), p("m.bin.valid")],
            complete: None,
        },
        Writer {
            name: "book build",
            args: a(&[
                "book",
                "build",
                s(&g),
                "-o",
                s(&p("b.bin")),
                "--min-games",
                "1",
            ]),
            outputs: vec![p("b.bin")],
            complete: None,
        },
        Writer {
            name: "tune",
            args: a(&["tune", s(&small), "--epochs", "20", "-o", s(&p("w.rs"))]),
            outputs: vec![p("w.rs")],
            complete: None,
        },
        Writer {
            name: "train",
            args: a(&[
                "train",
                s(&small),
                "--epochs",
                "2",
                "--hidden",
                "16",
                "--threads",
                "1",
                "-o",
                s(&p("n.nnue")),
            ]),
            outputs: vec![p("n.nnue")],
            complete: None,
        },
        Writer {
            name: "solve --json",
            args: a(&[
                "solve",
                s(&epd),
                "--nodes",
                "3000",
                "--json",
                s(&p("s.json")),
            ]),
            outputs: vec![p("s.json")],
            complete: Some(complete_json),
        },
        Writer {
            name: "qtree -o",
            args: a(&["qtree", "--format", "html", "-o", s(&p("q.html"))]),
            outputs: vec![p("q.html")],
            complete: None,
        },
        Writer {
            name: "datagen",
            args: a(&[
                "datagen",
                "-o",
                s(&p("g.txt")),
                "--games",
                "3",
                "--nodes",
                "300",
                "--seed",
                "5",
            ]),
            outputs: vec![p("g.txt")],
            complete: None,
        },
    ]
}

/// Kills every writer `per_writer` times at random moments (SIGKILL) and checks that each
/// output is then the complete old file or the complete new one; returns the kills.
fn kill_writers(name: &str, per_writer: usize) -> usize {
    let dir = scratch(name);
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15 ^ std::process::id() as u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut kills = 0;
    for w in writers(&dir) {
        let old: Vec<Vec<u8>> = (0..w.outputs.len())
            .map(|i| format!("the complete old file {i} of {}\n", w.name).into_bytes())
            .collect();
        let reset = || {
            for (o, text) in w.outputs.iter().zip(&old) {
                std::fs::write(o, text).unwrap();
            }
        };
        // An undisturbed run: the new files, and how long it takes.
        reset();
        let start = Instant::now();
        let out = Command::new(bin())
            .args(&w.args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let took = start.elapsed();
        assert!(out.status.success(), "{}: {}", w.name, text(&out.stderr));
        let new: Vec<Vec<u8>> = w.outputs.iter().map(|o| read(o)).collect();
        for (n, o) in new.iter().zip(&old) {
            assert_ne!(n, o, "{}: the run wrote nothing", w.name);
        }
        for _ in 0..per_writer {
            reset();
            let mut child = Command::new(bin())
                .args(&w.args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            // Anywhere from the start to a little past the undisturbed run's end.
            let micros = took.as_micros() as u64 * 11 / 10 + 1;
            std::thread::sleep(Duration::from_micros(next() % micros));
            let _ = child.kill();
            let _ = child.wait();
            kills += 1;
            for ((o, old), new) in w.outputs.iter().zip(&old).zip(&new) {
                let now = read(o);
                let whole = now == *old
                    || match w.complete {
                        Some(check) => check(&now),
                        None => now == *new,
                    };
                assert!(
                    whole,
                    "{}: after a kill {} holds {} bytes, neither the old file nor the new one",
                    w.name,
                    o.display(),
                    now.len()
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    kills
}

#[test]
fn every_writer_killed_at_random_leaves_the_old_file_or_the_new_one() {
    let kills = kill_writers("kill", 4);
    assert_eq!(kills, 32);
    eprintln!("kill test: {kills} kills");
}

#[test]
#[ignore = "slow: 50 kills per writer (run with --ignored)"]
fn every_writer_killed_at_random_many_times() {
    let kills = kill_writers("kill-many", 50);
    assert_eq!(kills, 400);
    eprintln!("kill test (many): {kills} kills");
}

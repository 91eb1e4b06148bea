//! The front ends: one engine session ([`session::Session`]: the engine, the position, the
//! options the user set, the search thread) behind two protocol skins, [`uci`] and [`xboard`]
//! (CECP v2), which parse command lines and format output. This module holds what both share:
//! the bounded line reader, the output, the command loop ([`run_loop`]) and the default mode
//! of the binary ([`run_default`]: UCI unless the first command is `xboard`).

pub mod book_moves;
pub mod session;
pub mod shown_line;
pub mod uci;
pub mod xboard;

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Engine name and version, as sent by `id name` and `feature myname`.
pub const ENGINE_NAME: &str = concat!("Lull ", env!("CARGO_PKG_VERSION"));
/// Author line.
pub const ENGINE_AUTHOR: &str = "the Lull developers";
/// Longest accepted input line, in bytes (a 1000-move game fits many times over).
pub const MAX_LINE: usize = 1 << 20;
/// Largest time accepted in `go` (wtime, btime, winc, binc, movetime) and in XBoard's clocks,
/// in milliseconds: about 31 years. Larger values are clamped, so that the time arithmetic
/// cannot overflow.
pub const MAX_GO_MS: u64 = 1_000_000_000_000;
/// How often the command loop looks at a running search when the skin asks for it (to take
/// back the engine, apply the move it sent and start pondering).
const POLL: Duration = Duration::from_millis(5);

/// Prints one line to stdout and flushes it. Control characters (an echoed ESC sequence, a
/// NUL, a CR from the input) are written escaped (`\u{1b}`), so that no input can reach the
/// GUI's or the terminal's control codes or split a line in two.
pub fn say(line: &str) {
    let shown = visible(line);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{shown}");
    let _ = out.flush();
}

/// Prints text of several lines that Lull composed itself (the board of `d`), one output
/// line per line of it, each through [`say`]: its line ends are the text's own, never input
/// from outside, and any other control character in it is still escaped.
pub fn say_lines(text: &str) {
    for line in text.lines() {
        say(line);
    }
}

/// `text` with its control characters (but tabs) escaped as Rust writes them.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Reads one line of at most `max` bytes. A line ends at LF, CR LF or a CR alone (old Mac
/// line ends: `uci\risready\r` is two commands). `Ok(None)` at end of input; an over-long
/// line is consumed to its end and reported as an error, as is invalid UTF-8.
pub fn read_line_bounded(
    reader: &mut impl BufRead,
    max: usize,
) -> io::Result<Option<Result<String, String>>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    let mut saw_any = false;
    // The line ended with a CR at the end of the bytes available: a LF right after it
    // belongs to it.
    let mut after_cr = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if after_cr {
            if available.first() == Some(&b'\n') {
                reader.consume(1);
            }
            break;
        }
        if available.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        if let Some(i) = available.iter().position(|&b| b == b'\n' || b == b'\r') {
            if !too_long && buf.len() + i <= max {
                buf.extend_from_slice(&available[..i]);
            } else {
                too_long = true;
            }
            match (available[i], available.get(i + 1)) {
                (b'\r', Some(b'\n')) => reader.consume(i + 2),
                (b'\r', None) => {
                    reader.consume(i + 1);
                    after_cr = true;
                    continue;
                }
                _ => reader.consume(i + 1),
            }
            break;
        }
        let n = available.len();
        if !too_long && buf.len() + n <= max {
            buf.extend_from_slice(available);
        } else {
            too_long = true;
            buf.clear();
        }
        reader.consume(n);
    }
    if too_long {
        return Ok(Some(Err(format!("line longer than {max} bytes ignored"))));
    }
    Ok(Some(
        String::from_utf8(buf).map_err(|_| "line is not valid UTF-8".to_string()),
    ))
}

/// What a protocol skin does with the input the command loop reads.
pub trait Frontend {
    /// Handles one command line. Returns false on `quit`.
    fn handle(&mut self, line: &str) -> bool;
    /// Reports a line that could not be read (too long, not UTF-8).
    fn unreadable(&mut self, why: &str);
    /// The input has ended: finish or stop the running search as the protocol wants.
    fn end_of_input(&mut self);
    /// Whether the loop must look at the running search while no input arrives (calling
    /// [`Frontend::watch`] every few milliseconds).
    fn watching(&self) -> bool {
        false
    }
    /// Looks at the running search (see [`Frontend::watching`]).
    fn watch(&mut self) {}
}

/// One line of input.
enum Input {
    Line(Result<String, String>),
    End,
}

/// Reads stdin on its own thread, so that the command loop can also watch the search.
fn spawn_reader() -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("lull-input".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut reader = stdin.lock();
            loop {
                match read_line_bounded(&mut reader, MAX_LINE) {
                    Ok(Some(line)) => {
                        if tx.send(Input::Line(line)).is_err() {
                            return;
                        }
                    }
                    Ok(None) | Err(_) => {
                        let _ = tx.send(Input::End);
                        return;
                    }
                }
            }
        });
    if spawned.is_err() {
        // Without a reader there is no input: the loop sees its end at once.
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(Input::End);
        return rx;
    }
    rx
}

/// The command loop of both protocols: runs `front` on stdin until `quit` or end of input.
pub fn run_loop(front: &mut impl Frontend) {
    let input = spawn_reader();
    loop {
        let next = if front.watching() {
            match input.recv_timeout(POLL) {
                Ok(next) => next,
                Err(RecvTimeoutError::Timeout) => {
                    front.watch();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => Input::End,
            }
        } else {
            input.recv().unwrap_or(Input::End)
        };
        match next {
            Input::End => {
                front.end_of_input();
                return;
            }
            Input::Line(Err(e)) => front.unreadable(&e),
            Input::Line(Ok(line)) => {
                if !front.handle(&line) {
                    return;
                }
            }
        }
    }
}

/// The default mode of the binary: UCI, unless the first command is `xboard`, in which case
/// the session speaks CECP.
pub fn run_default() {
    let first = {
        let stdin = io::stdin();
        let mut reader = stdin.lock();
        read_line_bounded(&mut reader, MAX_LINE)
    };
    match first {
        Ok(None) | Err(_) => {}
        Ok(Some(Ok(line))) if line.trim() == "xboard" => xboard::Xboard::new().run(),
        Ok(Some(Ok(line))) => {
            let mut uci = uci::Uci::new();
            if uci.handle(&line) {
                uci.run();
            }
        }
        Ok(Some(Err(e))) => {
            let mut uci = uci::Uci::new();
            uci.unreadable(&e);
            uci.run();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reader_handles_long_lines_crlf_and_eof() {
        let data = b"isready\r\nxxxxxxxxxxxxxxxxxxxx\nquit".to_vec();
        let mut r = io::BufReader::with_capacity(4, &data[..]);
        assert_eq!(
            read_line_bounded(&mut r, 10).unwrap(),
            Some(Ok("isready".into()))
        );
        assert!(read_line_bounded(&mut r, 10).unwrap().unwrap().is_err());
        assert_eq!(
            read_line_bounded(&mut r, 10).unwrap(),
            Some(Ok("quit".into()))
        );
        assert_eq!(read_line_bounded(&mut r, 10).unwrap(), None);
        // CR alone ends a line too, CR LF is one line end wherever the buffer splits it.
        for capacity in [1, 2, 3, 64] {
            let data = b"uci\risready\r\n\r\nquit\r".to_vec();
            let mut r = io::BufReader::with_capacity(capacity, &data[..]);
            let mut lines = Vec::new();
            while let Some(line) = read_line_bounded(&mut r, 10).unwrap() {
                lines.push(line.unwrap());
            }
            assert_eq!(lines, ["uci", "isready", "", "quit"], "{capacity}");
        }
        assert_eq!(visible("a\u{1b}[31mb\0\tc"), "a\\u{1b}[31mb\\u{0}\tc");
        let bad = [0xffu8, 0xfe, b'\n'];
        let mut r = io::BufReader::new(&bad[..]);
        assert!(read_line_bounded(&mut r, 10).unwrap().unwrap().is_err());
    }
}

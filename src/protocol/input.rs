//! The input of both skins: stdin read line by line, each line bounded in length and
//! checked to be UTF-8, on a reader thread of its own so that the command loop can also
//! watch the search while no input arrives.

use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver};

/// Longest accepted input line, in bytes (a 1000-move game fits many times over).
pub const MAX_LINE: usize = 1 << 20;

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

/// One line of input, or its end.
pub enum Input {
    Line(Result<String, String>),
    End,
}

/// Reads stdin on its own thread, so that the command loop can also watch the search.
pub fn spawn_reader() -> Receiver<Input> {
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
        let bad = [0xffu8, 0xfe, b'\n'];
        let mut r = io::BufReader::new(&bad[..]);
        assert!(read_line_bounded(&mut r, 10).unwrap().unwrap().is_err());
    }
}

//! The lines of a text file, as every file reader of Lull reads them: a line ends at `\n`
//! (a `\r` before it is dropped), and a line that is not UTF-8 (a NUL, stray binary bytes) or
//! longer than [`MAX_LINE`] bytes is handed on as a bad line: the reader counts and skips it
//! and goes on, it never stops there, and memory stays bounded whatever the file holds
//! (`/dev/zero` through a pipe is one endless bad line). [`check_input_file`] refuses, before
//! any reading, what is no file to read: a directory or a device.

use std::io::{self, BufRead};
use std::path::Path;

/// The longest line a file reader takes, in bytes (a longer one is skipped whole).
pub const MAX_LINE: usize = 1 << 20;

/// Checks that `path` is something to read as an input file: a regular file or a pipe (FIFO,
/// `<(command)`), not a directory nor a device such as `/dev/zero`, which never ends. The
/// error names the path. A path that cannot be looked at (missing) passes: the reader's own
/// open then says why, in its words.
pub fn check_input_file(path: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if meta.is_dir() {
        return Err(format!("{} is a directory, not a file", path.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() || t.is_socket() {
            return Err(format!(
                "{} is a device, not a file to read",
                path.display()
            ));
        }
    }
    Ok(())
}

/// One line of a file: its number (from 1) and its text, or why it cannot be read.
pub type Line = (usize, Result<String, String>);

/// The lines of a text source, bounded in length.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line_no: usize,
    bytes: u64,
    lossy: bool,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            reader,
            buf: Vec::new(),
            line_no: 0,
            bytes: 0,
            lossy: false,
        }
    }

    /// The lines of `reader`, bytes that are not UTF-8 read as U+FFFD (for formats such as
    /// PGN where a stray byte in a comment harms nothing).
    pub fn lossy(reader: R) -> Self {
        Self {
            lossy: true,
            ..Self::new(reader)
        }
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// The next line, `None` at the end of the input. An I/O error is an error; a bad line
    /// is an `Err` inside the line.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buf.clear();
        let mut long = false;
        let mut any = false;
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if !long {
                if self.buf.len() + take > MAX_LINE + 2 {
                    long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(&chunk[..take]);
                }
            }
            self.reader.consume(take);
            self.bytes += take as u64;
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no += 1;
        if long {
            return Ok(Some((
                self.line_no,
                Err(format!("line over {MAX_LINE} bytes")),
            )));
        }
        while self.buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            self.buf.pop();
        }
        let text = match std::str::from_utf8(&self.buf) {
            Ok(t) => Ok(t.to_string()),
            Err(_) if self.lossy => Ok(String::from_utf8_lossy(&self.buf).into_owned()),
            Err(_) => Err("not UTF-8 text".to_string()),
        };
        Ok(Some((self.line_no, text)))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> io::Result<Vec<Line>> {
        Lines::new(bytes).collect()
    }

    #[test]
    fn bad_lines_are_handed_on_and_reading_goes_on() {
        let mut text = b"one\r\ntw\xffo\n".to_vec();
        text.extend(vec![b'x'; MAX_LINE + 10]);
        text.extend(b"\nlast");
        let lines = all(&text).unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], (1, Ok("one".to_string())));
        assert_eq!(lines[1], (2, Err("not UTF-8 text".to_string())));
        assert!(lines[2].1.as_ref().unwrap_err().contains("over"));
        assert_eq!(lines[3], (4, Ok("last".to_string())));
        assert!(all(b"").unwrap().is_empty());
        // A NUL is a bad byte like any other: its line is skipped, the next one read.
        let lines = all(b"abc\0def\nok\n").unwrap();
        assert_eq!(lines[0], (1, Ok("abc\0def".to_string())));
        assert_eq!(lines[1], (2, Ok("ok".to_string())));
        assert!(check_input_file(Path::new("/dev/zero")).is_err());
        assert!(check_input_file(Path::new("/")).is_err());
    }
}

//! The lines of a text file, as every file reader of Lull reads them: a line ends at `\n`
//! (a `\r` before it is dropped), a line that is not UTF-8 or longer than [`MAX_LINE`] bytes is
//! handed on as a bad line (the reader counts and skips it, it never stops there), and a
//! file whose first bytes hold a NUL is binary, not text (`/dev/zero`, a book, a packed data
//! file), and is refused before anything is read as a line.

use std::io::{self, BufRead};

/// The longest line a file reader takes, in bytes (a longer one is skipped whole).
pub const MAX_LINE: usize = 1 << 20;

/// Bytes looked at for a NUL before a file counts as text.
pub const TEXT_SNIFF: usize = 4096;

/// Whether `head` (the first bytes of a file) looks like text: no NUL byte.
pub fn looks_like_text(head: &[u8]) -> bool {
    !head[..head.len().min(TEXT_SNIFF)].contains(&0)
}

/// Checks that `path` can be read as a text file before it is read whole: not a directory,
/// and no NUL byte in its first bytes (`/dev/zero`, a binary file). The error names the file.
pub fn check_text_file(path: &std::path::Path) -> Result<(), String> {
    use std::io::Read;
    if path.is_dir() {
        return Err(format!("{} is a directory, not a file", path.display()));
    }
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut head = vec![0u8; TEXT_SNIFF];
    let mut n = 0;
    while n < head.len() {
        match file.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
    }
    if looks_like_text(&head[..n]) {
        Ok(())
    } else {
        Err(format!(
            "{} is a binary file (NUL bytes), not text",
            path.display()
        ))
    }
}

/// One line of a file: its number (from 1) and its text, or why it cannot be read.
pub type Line = (usize, Result<String, String>);

/// The lines of a text source, bounded in length.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line_no: usize,
    bytes: u64,
    checked: bool,
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
            checked: false,
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

    /// The next line, `None` at the end of the input. An I/O error (or a binary file, as
    /// `InvalidData`) is an error; a bad line is an `Err` inside the line.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        if !self.checked {
            self.checked = true;
            let head = self.reader.fill_buf()?;
            if !looks_like_text(head) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "a binary file (NUL bytes), not text",
                ));
            }
        }
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
        let e = all(b"abc\0def").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    }
}

//! The output of both skins: one line at a time to stdout, flushed, with the control
//! characters of any text that came from outside escaped.

use std::io::{self, Write};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(visible("a\u{1b}[31mb\0\tc"), "a\\u{1b}[31mb\\u{0}\tc");
    }
}

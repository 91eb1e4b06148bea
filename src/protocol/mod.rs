//! The front ends: one engine session ([`session::Session`]: the engine, the position, the
//! options the user set, the search thread) behind two protocol skins, [`uci`] and [`xboard`]
//! (CECP v2), which parse command lines and format output. What both share has a module of
//! its own: the bounded line reader ([`input`]), the output ([`output`]) and the command loop
//! ([`command_loop`]); this one holds the engine's name, the limits both skins apply and the
//! default mode of the binary ([`run_default`]: UCI unless the first command is `xboard`).

pub mod book_moves;
pub mod command_loop;
pub mod input;
pub mod output;
pub mod session;
pub mod shown_line;
pub mod uci;
pub mod xboard;

use std::io;

pub use command_loop::{run_loop, Frontend};
pub use input::{read_line_bounded, MAX_LINE};
pub use output::{say, say_lines, visible};

/// Engine name and version, as sent by `id name` and `feature myname`.
pub const ENGINE_NAME: &str = concat!("Lull ", env!("CARGO_PKG_VERSION"));
/// Author line.
pub const ENGINE_AUTHOR: &str = "the Lull developers";
/// Largest time accepted in `go` (wtime, btime, winc, binc, movetime) and in XBoard's clocks,
/// in milliseconds: about 31 years. Larger values are clamped, so that the time arithmetic
/// cannot overflow.
pub const MAX_GO_MS: u64 = 1_000_000_000_000;

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

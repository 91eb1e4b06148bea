//! The engine's time as CECP gives it: the time control (`level`, `st`), the clocks (`time`,
//! `otim`), and the search limits of a move that follow from them.

use cozy_chess::Color;

use crate::position::{shorten, Position};
use crate::protocol::MAX_GO_MS;
use crate::time::Limits;

/// How the engine's time is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `level MPS BASE INC`: `mps` moves (0: the whole game) in `base_ms`, plus `inc_ms` a move.
    Level { mps: u64, base_ms: u64, inc_ms: u64 },
    /// `st SECONDS`: this long for every move.
    PerMove(u64),
}

/// xboard's default: 40 moves in 5 minutes.
const DEFAULT_TIME_CONTROL: TimeControl = TimeControl::Level {
    mps: 40,
    base_ms: 300_000,
    inc_ms: 0,
};

/// The time control and the clocks as the GUI last sent them, in milliseconds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clocks {
    pub control: TimeControl,
    /// Remaining time of the engine and of its opponent (`time`, `otim`).
    pub own_ms: Option<u64>,
    pub opp_ms: Option<u64>,
}

impl Clocks {
    /// xboard's default time control, the clocks not yet sent.
    pub fn new() -> Self {
        Self {
            control: DEFAULT_TIME_CONTROL,
            own_ms: None,
            opp_ms: None,
        }
    }

    /// `level`: a new time control, whose clocks start full.
    pub fn set_level(&mut self, control: TimeControl) {
        self.control = control;
        self.own_ms = None;
        self.opp_ms = None;
    }

    /// A new game: the clocks start full, the time control stays.
    pub fn reset(&mut self) {
        self.own_ms = None;
        self.opp_ms = None;
    }

    /// The engine moved after thinking `used_ms`: its clock as far as we know it, until the
    /// GUI sends `time` again.
    pub fn moved(&mut self, used_ms: u64) {
        if let (TimeControl::Level { inc_ms, .. }, Some(ms)) = (self.control, self.own_ms) {
            self.own_ms = Some(ms.saturating_sub(used_ms).saturating_add(inc_ms));
        }
    }

    /// The limits of the engine's move in `pos` (the engine is to move there), with the
    /// depth limit of `sd`.
    pub fn limits(&self, pos: &Position, depth: Option<i32>) -> Limits {
        let mut limits = Limits {
            depth,
            ..Limits::default()
        };
        match self.control {
            TimeControl::PerMove(ms) => limits.movetime = Some(ms),
            TimeControl::Level {
                mps,
                base_ms,
                inc_ms,
            } => {
                let own = self.own_ms.unwrap_or(base_ms);
                let opp = self.opp_ms.unwrap_or(base_ms);
                let (w, b) = match pos.side_to_move() {
                    Color::White => (own, opp),
                    Color::Black => (opp, own),
                };
                limits.wtime = Some(w);
                limits.btime = Some(b);
                limits.winc = Some(inc_ms);
                limits.binc = Some(inc_ms);
                if mps > 0 {
                    let played = u64::from(pos.board().fullmove_number().max(1) - 1);
                    limits.movestogo = Some(mps - played % mps);
                }
            }
        }
        limits
    }
}

/// Parses `level MPS BASE INC`: BASE in minutes (`5`, `0.5`) or `minutes:seconds`, INC in
/// seconds (fractions allowed).
pub(super) fn parse_level(mps: &str, base: &str, inc: &str) -> Result<TimeControl, String> {
    let mps: u64 = mps.parse().map_err(|_| {
        format!(
            "level: moves per session '{}' is not a number",
            shorten(mps, 16)
        )
    })?;
    let base_ms = match base.split_once(':') {
        Some((m, s)) => match (m.parse::<u64>(), s.parse::<u64>()) {
            (Ok(m), Ok(s)) if s < 60 && m <= MAX_GO_MS / 60_000 => m * 60_000 + s * 1000,
            _ => return Err(format!("level: bad base time '{}'", shorten(base, 16))),
        },
        None => match base.parse::<f64>() {
            Ok(m) if m.is_finite() && m >= 0.0 && m * 60_000.0 <= MAX_GO_MS as f64 => {
                (m * 60_000.0) as u64
            }
            _ => {
                return Err(format!(
                    "level: bad base time '{}' (minutes, at most {})",
                    shorten(base, 16),
                    MAX_GO_MS / 60_000
                ))
            }
        },
    };
    let inc_ms =
        parse_seconds(inc).ok_or_else(|| format!("level: bad increment '{}'", shorten(inc, 16)))?;
    Ok(TimeControl::Level {
        mps,
        base_ms: base_ms.min(MAX_GO_MS),
        inc_ms,
    })
}

/// Seconds (fractions allowed, not negative, at most [`MAX_GO_MS`] / 1000) as milliseconds.
/// A larger value is refused, as UCI refuses it (no silent clamp).
pub(super) fn parse_seconds(t: &str) -> Option<u64> {
    match t.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 && (s * 1000.0).round() <= MAX_GO_MS as f64 => {
            Some((s * 1000.0).round() as u64)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_seconds_parse() {
        assert_eq!(
            parse_level("40", "5", "0"),
            Ok(TimeControl::Level {
                mps: 40,
                base_ms: 300_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            parse_level("0", "2:30", "1.5"),
            Ok(TimeControl::Level {
                mps: 0,
                base_ms: 150_000,
                inc_ms: 1500
            })
        );
        assert!(parse_level("x", "5", "0").is_err());
        assert!(parse_level("40", "5:75", "0").is_err());
        assert!(parse_level("40", "-1", "0").is_err());
        assert!(parse_level("40", "5", "NaN").is_err());
        assert_eq!(parse_seconds("0.05"), Some(50));
        assert_eq!(parse_seconds("1e300"), None);
        assert_eq!(parse_seconds("1e9"), Some(MAX_GO_MS));
        assert_eq!(parse_seconds("1000000000.001"), None);
        assert_eq!(parse_seconds("-1"), None);
    }
}

//! The late-move reduction table: plies by which the `m`-th move of a node at depth `d` is
//! searched shallower first, `base + ln(d) · ln(m) / divisor`, rounded down (both numbers in
//! hundredths: `params::LMR_BASE` and `params::LMR_DIVISOR`, tunable).

/// Reductions indexed by [depth][move number], both capped at 63.
pub(super) struct LmrTable {
    base: i32,
    divisor: i32,
    table: Box<[[i32; 64]; 64]>,
}

impl LmrTable {
    /// The table of `base` and `divisor` (hundredths; a divisor below 1 counts as 1).
    pub(super) fn new(base: i32, divisor: i32) -> Self {
        let (b, div) = (f64::from(base) / 100.0, f64::from(divisor.max(1)) / 100.0);
        let mut table = Box::new([[0; 64]; 64]);
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (b + (d as f64).ln() * (m as f64).ln() / div) as i32;
            }
        }
        Self {
            base,
            divisor,
            table,
        }
    }

    /// Whether this is the table of `base` and `divisor`.
    pub(super) fn is_for(&self, base: i32, divisor: i32) -> bool {
        self.base == base && self.divisor == divisor
    }

    /// The reduction of the `moves`-th move at `depth`.
    #[inline(always)]
    pub(super) fn get(&self, depth: i32, moves: usize) -> i32 {
        self.table[depth.clamp(0, 63) as usize][moves.min(63)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{LMR_BASE, LMR_DIVISOR};

    #[test]
    fn the_default_table_grows_with_depth_and_move_number() {
        let t = LmrTable::new(LMR_BASE, LMR_DIVISOR);
        assert_eq!(t.get(1, 1), 0);
        // 0.75 + ln 8 · ln 8 / 2.25 = 2.67, 0.75 + ln 20 · ln 30 / 2.25 = 5.28.
        assert_eq!(t.get(8, 8), 2);
        assert_eq!(t.get(20, 30), 5);
        assert!(t.get(63, 63) >= t.get(62, 63) && t.get(63, 63) >= t.get(63, 62));
        assert!(t.is_for(LMR_BASE, LMR_DIVISOR) && !t.is_for(LMR_BASE + 1, LMR_DIVISOR));
        // Out-of-range indices are capped, never a panic.
        assert_eq!(t.get(500, 500), t.get(63, 63));
        assert_eq!(t.get(-3, 0), 0);
    }
}

//! The accumulator: the hidden layer of the network before its activation, for both
//! perspectives, sized at run time by the network's hidden size.

use cozy_chess::Color;

/// The hidden layer of one position for both perspectives: White's N values, then Black's
/// (by colour, not by side to move, so that a null move leaves it unchanged). Built and
/// updated by [`Network::refresh`](super::Network::refresh) and
/// [`Network::update`](super::Network::update).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Box<[i16]>,
}

impl Accumulator {
    /// An accumulator of hidden size `hidden`, all zeros.
    pub fn zeroed(hidden: usize) -> Self {
        Self {
            values: vec![0; 2 * hidden].into_boxed_slice(),
        }
    }

    /// [`Accumulator::zeroed`], or `None` when the memory cannot be had (a search under a
    /// memory limit then does without this accumulator instead of aborting).
    pub fn try_zeroed(hidden: usize) -> Option<Self> {
        let mut values = Vec::new();
        values.try_reserve_exact(2 * hidden).ok()?;
        values.resize(2 * hidden, 0);
        Some(Self {
            values: values.into_boxed_slice(),
        })
    }

    /// The hidden size.
    pub fn hidden(&self) -> usize {
        self.values.len() / 2
    }

    /// Reallocates (zeros) if the hidden size differs.
    pub(super) fn resize(&mut self, hidden: usize) {
        if self.hidden() != hidden {
            *self = Self::zeroed(hidden);
        }
    }

    /// The values from `perspective`'s view.
    #[inline]
    pub fn half(&self, perspective: Color) -> &[i16] {
        let n = self.values.len() / 2;
        match perspective {
            Color::White => &self.values[..n],
            Color::Black => &self.values[n..],
        }
    }

    /// The values from `perspective`'s view, to write.
    #[inline]
    pub fn half_mut(&mut self, perspective: Color) -> &mut [i16] {
        let n = self.values.len() / 2;
        match perspective {
            Color::White => &mut self.values[..n],
            Color::Black => &mut self.values[n..],
        }
    }
}

//! The move list of the picker ([`MoveList`]): moves with their ordering scores, picked
//! best-first.
//!
//! Each region of a list is picked by selection sort (a cutoff after the first moves never
//! pays for sorting the rest): the first index of the maximum is swapped into the next slot.
//! The order among equal scores follows that swap history; the search's node counts depend
//! on it, so these mechanics are part of the engine's behaviour, not an implementation
//! detail.

use std::mem::MaybeUninit;

use super::ordering::MAX_MOVES;

/// A list of moves (of entries that carry one) with ordering scores, picked best-first.
///
/// Lives on the stack and is not initialised up front: a node that cuts off after the
/// first move never pays for 256 entries (a measurable share of all time otherwise).
pub(super) struct MoveList<T: Copy> {
    entries: [MaybeUninit<T>; MAX_MOVES],
    scores: [MaybeUninit<i32>; MAX_MOVES],
    pub(super) len: usize,
}

impl<T: Copy> MoveList<T> {
    #[inline]
    pub(super) fn new() -> Self {
        Self {
            entries: [const { MaybeUninit::uninit() }; MAX_MOVES],
            scores: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move with its score (dropped when the list is full, which legal chess
    /// never reaches).
    #[inline]
    pub(super) fn push(&mut self, entry: T, score: i32) {
        if self.len < MAX_MOVES {
            self.entries[self.len] = MaybeUninit::new(entry);
            self.scores[self.len] = MaybeUninit::new(score);
            self.len += 1;
        }
    }

    /// The scores of the entries `0..len`.
    #[inline]
    fn scores(&self) -> &[i32] {
        // SAFETY: entries below `len` were written by `push` (and only moved around within
        // `0..len` by `pick` and `put`); MaybeUninit<i32> has the layout of i32.
        unsafe { std::slice::from_raw_parts(self.scores.as_ptr() as *const i32, self.len) }
    }

    #[inline]
    fn entry(&self, i: usize) -> (T, i32) {
        debug_assert!(i < self.len);
        // SAFETY: as in `scores`: every index below `len` is initialised.
        let entry = unsafe { self.entries[i].assume_init() };
        (entry, self.scores()[i])
    }

    /// Overwrites slot `i` (below `len`) with another entry of the list.
    #[inline]
    pub(super) fn put(&mut self, i: usize, entry: T, score: i32) {
        debug_assert!(i < self.len);
        self.entries[i] = MaybeUninit::new(entry);
        self.scores[i] = MaybeUninit::new(score);
    }

    /// Selection sort, one step: takes the best-scored move of `*next..end` (the first of
    /// equal ones) by swapping it into slot `*next`, and advances `*next`.
    #[inline(always)]
    pub(super) fn pick(&mut self, next: &mut usize, end: usize) -> Option<(T, i32)> {
        let end = end.min(self.len);
        if *next >= end {
            return None;
        }
        let scores = &self.scores()[..end];
        let mut best = *next;
        let mut best_score = scores[best];
        for (i, &sc) in scores.iter().enumerate().skip(*next + 1) {
            if sc > best_score {
                best = i;
                best_score = sc;
            }
        }
        self.entries.swap(*next, best);
        self.scores.swap(*next, best);
        *next += 1;
        Some(self.entry(*next - 1))
    }
}

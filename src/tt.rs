//! The transposition table: a hash table of search results keyed by the Zobrist key.
//!
//! Layout: buckets of four 16-byte entries (one 64-byte cache line). Each entry is two
//! `AtomicU64`: the packed data and `key ^ data`. A reader accepts an entry only if
//! `stored_key ^ data == key`, so a torn write from another thread reads as a miss: the table
//! can be shared by search threads without locks (the "lockless hashing" of Hyatt and Mann).
//!
//! Replacement: an entry for the same position is overwritten unless the old one is deeper
//! (by more than 3 plies) and from the current search; otherwise the entry with the lowest
//! `depth - 4 * age` in the bucket is replaced, so stale entries from earlier searches go first.
//! Mate scores are stored relative to the node (distance to mate from here), and converted back
//! to distance from the root on probe.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use cozy_chess::{Move, Piece, Square};

use crate::params::TB_BOUND;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Bound {
    /// The true value is at least the score (fail high).
    Lower,
    /// The true value is at most the score (fail low).
    Upper,
    /// The exact value (a PV node).
    Exact,
}

impl Bound {
    /// The bound a fail-soft search result proves for a node searched in the window
    /// (`alpha`, `beta`): at or above beta a lower bound, at or below alpha an upper bound,
    /// exact in between.
    #[inline]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Self {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a score with this bound settles a node searched in the window (`alpha`,
    /// `beta`): an exact score always, a lower bound at or above beta, an upper bound at or
    /// below alpha (the test of a TT or tablebase cutoff).
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// A probed entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Best or refutation move, if one was found.
    pub mv: Option<Move>,
    /// Score, already converted to distance from the root.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Remaining depth of the search that stored it (0 = quiescence).
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
}

impl TtEntry {
    /// `eval`, or this entry's score where its bound says that the searched score is nearer
    /// the truth: a lower bound above `eval`, an upper bound below it, an exact score (never
    /// a mate or tablebase score). What both searches prune and stand pat by.
    #[inline]
    pub fn sharpen(&self, eval: i32) -> i32 {
        let nearer = self.score.abs() < TB_BOUND
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.score > eval,
                Bound::Upper => self.score < eval,
            };
        if nearer {
            self.score
        } else {
            eval
        }
    }
}

const ENTRIES_PER_BUCKET: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [(AtomicU64, AtomicU64); ENTRIES_PER_BUCKET],
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Buckets,
    age: AtomicU8,
}

// Data word layout (64 bits):
//   0..16  move (from 6 | to 6 | promotion 3, 0 = none; 0xFFFF = no move)
//  16..32  score (i16)
//  32..48  static eval (i16)
//  48..56  depth + DEPTH_OFFSET (0 marks an empty entry)
//  56..58  bound
//  58..64  age
const DEPTH_OFFSET: i32 = 2;
const NO_MOVE: u64 = 0xFFFF;

fn pack_move(mv: Option<Move>) -> u64 {
    match mv {
        None => NO_MOVE,
        Some(mv) => {
            let promo = match mv.promotion {
                None => 0,
                Some(p) => p as u64 + 1,
            };
            (mv.from as u64) | ((mv.to as u64) << 6) | (promo << 12)
        }
    }
}

fn unpack_move(bits: u64) -> Option<Move> {
    if bits == NO_MOVE {
        return None;
    }
    let from = Square::index((bits & 63) as usize);
    let to = Square::index(((bits >> 6) & 63) as usize);
    let promo = (bits >> 12) & 7;
    let promotion = if promo == 0 {
        None
    } else {
        Piece::try_index(promo as usize - 1)
    };
    Some(Move {
        from,
        to,
        promotion,
    })
}

/// Converts a score from "distance from the root" to "distance from this node" for storing
/// (mate scores and tablebase wins and losses, which count plies too).
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored score back to distance from the root.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Asks Linux to back `bytes` from `ptr` with transparent huge pages (2 MiB) where the system
/// allows it (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise` or `always`), as
/// Stockfish does: fewer TLB misses in the search, and a large table is set up and given back
/// (at `quit`, or when `Hash` changes) in a fraction of the time. With 4 KiB pages, freeing a
/// 1 GiB table took 0.3-0.4 s on a loaded 2-core machine. Only a hint: the memory and its
/// contents are the same with or without it, and a refusal is ignored.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *const u8, bytes: usize) {
    const PAGE: usize = 4096;
    if bytes < (2 << 20) {
        return;
    }
    let start = ptr as usize & !(PAGE - 1);
    let len = ptr as usize + bytes - start;
    // SAFETY: madvise(MADV_HUGEPAGE) changes no memory and no mapping's contents, only how
    // the kernel may back it; the range starts at the page that holds `ptr` (a page of the
    // same mapping) and ends with the allocation. An error (range not mapped, THP off) is
    // harmless and ignored.
    unsafe {
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *const u8, _bytes: usize) {}

/// The buckets of a table, in zeroed memory: on Linux straight from the system (`mmap`),
/// whose pages are zero when first touched, so that a 16 GiB `Hash` is ready at once instead
/// of after every page was written (36 s on a small machine: the allocator zeroes memory
/// aligned to a cache line by writing it); elsewhere from the allocator.
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
}

// SAFETY: a bucket is atomics only; the memory is owned by this value alone.
unsafe impl Send for Buckets {}
// SAFETY: as above: shared access goes through the atomics.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `count` empty buckets (all-zero bits are an empty bucket, as `Bucket::default()`), or
    /// `None` when the memory cannot be had.
    fn zeroed(count: usize) -> Option<Self> {
        let layout = std::alloc::Layout::array::<Bucket>(count.max(1)).ok()?;
        let ptr = Self::map(layout)?;
        Some(Self {
            ptr,
            len: count.max(1),
        })
    }

    #[cfg(target_os = "linux")]
    fn map(layout: std::alloc::Layout) -> Option<std::ptr::NonNull<Bucket>> {
        // SAFETY: an anonymous private mapping of `layout.size()` bytes: page aligned (more
        // than a bucket needs) and zero filled by the kernel.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                layout.size(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        std::ptr::NonNull::new(p.cast())
    }

    #[cfg(not(target_os = "linux"))]
    fn map(layout: std::alloc::Layout) -> Option<std::ptr::NonNull<Bucket>> {
        // SAFETY: the layout is not zero sized (at least one bucket).
        std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) }.cast())
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` zero-initialised buckets live at `ptr` for the life of `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        let layout = std::alloc::Layout::array::<Bucket>(self.len).expect("the layout it had");
        // SAFETY: the memory was obtained in `map` with this layout and is not used after.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), layout.size());
        }
        #[cfg(not(target_os = "linux"))]
        unsafe {
            std::alloc::dealloc(self.ptr.as_ptr().cast(), layout);
        }
    }
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket).
    pub fn new(mib: usize) -> Self {
        Self::try_new(mib).unwrap_or_else(|_| Self::try_new(1).expect("a 1 MiB table"))
    }

    /// A table of about `mib` mebibytes, or an error if the memory cannot be had.
    pub fn try_new(mib: usize) -> Result<Self, String> {
        let count = (mib.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = Buckets::zeroed(count)
            .ok_or_else(|| format!("cannot allocate {mib} MiB for the hash table"))?;
        // Before the memory is first touched, so that the pages come huge from the start.
        advise_huge_pages(
            buckets.as_ptr().cast(),
            count * std::mem::size_of::<Bucket>(),
        );
        Ok(Self {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for (k, d) in &b.entries {
                k.store(0, Ordering::Relaxed);
                d.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto the bucket count (no power of two needed).
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Asks the processor to bring the bucket of `key` into the cache, so that the probe of
    /// that position, which follows soon after the move that led to it, waits less for memory
    /// (what Stockfish does in `do_move`). A hint: it changes no result.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch never faults and reads nothing into the program; the pointer
            // is that of a live bucket anyway.
            unsafe { _mm_prefetch(bucket.cast::<i8>(), _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks the position up. `ply` converts mate scores.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let bucket = self.bucket(key);
        for (k, d) in &bucket.entries {
            let data = d.load(Ordering::Relaxed);
            let stored = k.load(Ordering::Relaxed);
            if data != 0 && stored ^ data == key {
                let depth_bits = ((data >> 48) & 0xFF) as i32;
                if depth_bits == 0 {
                    continue;
                }
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Lower,
                    2 => Bound::Upper,
                    _ => Bound::Exact,
                };
                return Some(TtEntry {
                    mv: unpack_move(data & 0xFFFF),
                    score: score_from_tt(((data >> 16) & 0xFFFF) as u16 as i16 as i32, ply),
                    eval: ((data >> 32) & 0xFFFF) as u16 as i16 as i32,
                    depth: depth_bits - DEPTH_OFFSET,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result. `score` is relative to the root; `ply` converts mate scores.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let age = self.age.load(Ordering::Relaxed) as u64;
        let bucket = self.bucket(key);
        let depth = depth.clamp(-DEPTH_OFFSET + 1, 255 - DEPTH_OFFSET);
        // Choose the slot: same key first, else the least valuable entry.
        let mut slot = 0;
        let mut worst = i32::MAX;
        let mut same_key = false;
        for (i, (k, d)) in bucket.entries.iter().enumerate() {
            let data = d.load(Ordering::Relaxed);
            let stored = k.load(Ordering::Relaxed);
            if data == 0 {
                if worst > i32::MIN {
                    slot = i;
                    worst = i32::MIN;
                }
                continue;
            }
            if stored ^ data == key {
                slot = i;
                same_key = true;
                break;
            }
            let e_depth = ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET;
            let e_age = (data >> 58) & 63;
            let age_diff = ((age + 64 - e_age) & 63) as i32;
            let value = e_depth - 4 * age_diff;
            if value < worst {
                worst = value;
                slot = i;
            }
        }
        let (k, d) = &bucket.entries[slot];
        let mut mv = mv;
        if same_key {
            let old = d.load(Ordering::Relaxed);
            let old_depth = ((old >> 48) & 0xFF) as i32 - DEPTH_OFFSET;
            let old_age = (old >> 58) & 63;
            // Keep a deeper entry of this search unless the new one is exact.
            if bound != Bound::Exact && old_age == age && old_depth > depth + 3 {
                return;
            }
            // Keep the old move when the new result has none.
            if mv.is_none() {
                mv = unpack_move(old & 0xFFFF);
            }
        }
        let bound_bits: u64 = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let score = score_to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32);
        let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32);
        let data = pack_move(mv)
            | ((score as i16 as u16 as u64) << 16)
            | ((eval as i16 as u16 as u64) << 32)
            | (((depth + DEPTH_OFFSET) as u64) << 48)
            | (bound_bits << 56)
            | (age << 58);
        k.store(key ^ data, Ordering::Relaxed);
        d.store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries filled by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) as u64;
        let mut filled: u32 = 0;
        let mut seen: u32 = 0;
        'outer: for b in self.buckets.iter() {
            for (_, d) in &b.entries {
                if seen == 1000 {
                    break 'outer;
                }
                let data = d.load(Ordering::Relaxed);
                if data != 0 && (data >> 58) & 63 == age {
                    filled += 1;
                }
                seen += 1;
            }
        }
        (filled * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::MATE;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let mv: Move = "e7e8q".parse().unwrap();
        tt.store(0xDEAD_BEEF, Some(mv), -123, 45, 7, Bound::Lower, 3);
        let e = tt.probe(0xDEAD_BEEF, 3).expect("stored entry");
        assert_eq!(e.mv, Some(mv));
        assert_eq!(e.score, -123);
        assert_eq!(e.eval, 45);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0xDEAD_BEEE, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 2: mate in 3 from the node.
        tt.store(42, None, MATE - 5, 0, 4, Bound::Exact, 2);
        // The same node reached at ply 6: mate in 3 from there is mate in 9 from the root.
        let e = tt.probe(42, 6).unwrap();
        assert_eq!(e.score, MATE - 9);
        assert_eq!(e.mv, None);
    }

    #[test]
    fn qsearch_depth_and_hashfull() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        tt.store(7, None, 10, 10, 0, Bound::Upper, 0);
        assert_eq!(tt.probe(7, 0).unwrap().depth, 0);
        for key in 0..100_000u64 {
            tt.store(
                key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                0,
                0,
                1,
                Bound::Exact,
                0,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }
}

//! The hot loops of the network: the accumulator updates (copy plus fused additions and
//! subtractions of weight rows) and the output's SCReLU dot product.
//!
//! Each loop is written once in plain Rust over slices of equal length, which the compiler
//! vectorises for the target it builds for. On x86-64 a second copy of each loop is compiled
//! with AVX2 enabled (`#[target_feature(enable = "avx2")]` around the same generic code, and
//! std::arch intrinsics for the dot product); [`Kernels::detect`] asks the CPU once, when a
//! network is built, and every call dispatches on that stored answer. A plain
//! `cargo build --release` thus uses AVX2 where the CPU has it and the plain path elsewhere.
//!
//! All integer arithmetic wraps (as the SIMD instructions do), so no input can make a loop
//! panic, and the plain and AVX2 paths agree bit for bit.

/// Which implementation of the loops to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernels {
    avx2: bool,
}

impl Kernels {
    /// The fastest implementation this CPU runs (asked once per network).
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            Self {
                avx2: std::arch::is_x86_feature_detected!("avx2"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self { avx2: false }
        }
    }

    /// The plain-Rust loops only (tests compare them with the AVX2 ones).
    pub const PORTABLE: Self = Self { avx2: false };

    /// Whether the AVX2 loops are used.
    pub fn uses_avx2(self) -> bool {
        self.avx2
    }
}

/// Generates a public dispatcher, its AVX2 twin and uses the same generic body for both.
macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident, $avx2:ident, $generic:ident, ($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(k: Kernels, $($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            if k.avx2 {
                // SAFETY: `k.avx2` is true only when the CPU reported AVX2.
                unsafe { $avx2($($arg),*) };
                return;
            }
            let _ = k;
            $generic($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn $avx2($($arg: $ty),*) {
            $generic($($arg),*)
        }
    };
}

#[inline(always)]
fn add_generic(dst: &mut [i16], a: &[i16]) {
    for (d, &x) in dst.iter_mut().zip(a) {
        *d = d.wrapping_add(x);
    }
}

#[inline(always)]
fn sub_generic(dst: &mut [i16], s: &[i16]) {
    for (d, &x) in dst.iter_mut().zip(s) {
        *d = d.wrapping_sub(x);
    }
}

#[inline(always)]
fn add_sub_generic(dst: &mut [i16], src: &[i16], a: &[i16], s: &[i16]) {
    let n = dst.len();
    let (src, a, s) = (&src[..n], &a[..n], &s[..n]);
    for i in 0..n {
        dst[i] = src[i].wrapping_add(a[i]).wrapping_sub(s[i]);
    }
}

#[inline(always)]
fn add_sub2_generic(dst: &mut [i16], src: &[i16], a: &[i16], s1: &[i16], s2: &[i16]) {
    let n = dst.len();
    let (src, a, s1, s2) = (&src[..n], &a[..n], &s1[..n], &s2[..n]);
    for i in 0..n {
        dst[i] = src[i]
            .wrapping_add(a[i])
            .wrapping_sub(s1[i])
            .wrapping_sub(s2[i]);
    }
}

#[inline(always)]
fn add2_sub2_generic(dst: &mut [i16], src: &[i16], a1: &[i16], a2: &[i16], s1: &[i16], s2: &[i16]) {
    let n = dst.len();
    let (src, a1, a2, s1, s2) = (&src[..n], &a1[..n], &a2[..n], &s1[..n], &s2[..n]);
    for i in 0..n {
        dst[i] = src[i]
            .wrapping_add(a1[i])
            .wrapping_add(a2[i])
            .wrapping_sub(s1[i])
            .wrapping_sub(s2[i]);
    }
}

dispatch!(
    /// `dst += a`, element by element.
    add, add_avx2, add_generic, (dst: &mut [i16], a: &[i16])
);
dispatch!(
    /// `dst -= s`, element by element.
    sub, sub_avx2, sub_generic, (dst: &mut [i16], s: &[i16])
);
dispatch!(
    /// `dst = src + a - s` (a quiet move: one feature on, one off).
    add_sub, add_sub_avx2, add_sub_generic, (dst: &mut [i16], src: &[i16], a: &[i16], s: &[i16])
);
dispatch!(
    /// `dst = src + a - s1 - s2` (a capture, en passant, a promotion without capture).
    add_sub2, add_sub2_avx2, add_sub2_generic,
    (dst: &mut [i16], src: &[i16], a: &[i16], s1: &[i16], s2: &[i16])
);
dispatch!(
    /// `dst = src + a1 + a2 - s1 - s2` (castling).
    add2_sub2, add2_sub2_avx2, add2_sub2_generic,
    (dst: &mut [i16], src: &[i16], a1: &[i16], a2: &[i16], s1: &[i16], s2: &[i16])
);

/// `sum_j clamp(acc[j], 0, qa)^2 * w[j]` in the madd form of the specification: `v * w[j]`
/// as an i16 (exact while `|w[j]| * qa` fits an i16, which loading checks), times `v` in
/// i32, summed in wrapping i32.
#[inline]
pub fn screlu_dot(k: Kernels, acc: &[i16], w: &[i16], qa: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if k.avx2 {
        // SAFETY: `k.avx2` is true only when the CPU reported AVX2.
        return unsafe { screlu_dot_avx2(acc, w, qa) };
    }
    let _ = k;
    screlu_dot_generic(acc, w, qa)
}

#[inline(always)]
fn screlu_dot_generic(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in acc.iter().zip(w) {
        let v = x.clamp(0, qa);
        let vw = v.wrapping_mul(w);
        sum = sum.wrapping_add(i32::from(vw) * i32::from(v));
    }
    sum
}

/// The AVX2 dot product: 16 lanes at a time, `_mm256_madd_epi16` for the last multiply.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    use std::arch::x86_64::*;
    let n = acc.len();
    let w = &w[..n];
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(qa);
    let mut sum = _mm256_setzero_si256();
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: i + 16 <= n, and both slices hold n elements; unaligned loads.
        let x = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
        let wv = _mm256_loadu_si256(w.as_ptr().add(i).cast());
        let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
        let vw = _mm256_mullo_epi16(v, wv);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        i += 16;
    }
    let lo = _mm256_castsi256_si128(sum);
    let hi = _mm256_extracti128_si256::<1>(sum);
    let s = _mm_add_epi32(lo, hi);
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s).wrapping_add(screlu_dot_generic(&acc[i..], &w[i..], qa))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(n: usize, seed: u64) -> Vec<i16> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 48) as i16
            })
            .collect()
    }

    #[test]
    fn avx2_and_portable_loops_agree() {
        let fast = Kernels::detect();
        for n in [16, 48, 128, 1024] {
            let src = data(n, 1);
            let (a1, a2, s1, s2) = (data(n, 2), data(n, 3), data(n, 4), data(n, 5));
            for k in [fast, Kernels::PORTABLE] {
                let mut one = vec![0; n];
                add2_sub2(k, &mut one, &src, &a1, &a2, &s1, &s2);
                let mut two = src.clone();
                add(k, &mut two, &a1);
                add(k, &mut two, &a2);
                sub(k, &mut two, &s1);
                sub(k, &mut two, &s2);
                assert_eq!(one, two);
                let mut three = vec![0; n];
                add_sub2(k, &mut three, &src, &a1, &s1, &s2);
                let mut four = vec![0; n];
                add_sub(k, &mut four, &src, &a1, &s1);
                sub(k, &mut four, &s2);
                assert_eq!(three, four);
            }
            let w: Vec<i16> = data(n, 6).iter().map(|x| x % 128).collect();
            let acc: Vec<i16> = data(n, 7).iter().map(|x| x % 400).collect();
            let exact: i64 = acc
                .iter()
                .zip(&w)
                .map(|(&x, &w)| i64::from(x.clamp(0, 255)).pow(2) * i64::from(w))
                .sum();
            assert_eq!(i64::from(screlu_dot(fast, &acc, &w, 255)), exact);
            assert_eq!(
                i64::from(screlu_dot(Kernels::PORTABLE, &acc, &w, 255)),
                exact
            );
        }
    }
}

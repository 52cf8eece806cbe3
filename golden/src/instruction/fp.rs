//! The binary32 arithmetic of the ARITH ops, independent of the host (D50).
//!
//! IEEE 754 fixes every result that is a number, but leaves a NaN result's
//! sign and payload to the implementation: x86 propagates the first NaN
//! operand and makes `inf - inf` 0xffc00000, Arm and RISC-V give other bits.
//! Every NaN that ARITH produces — a converted element, a product by `scale`,
//! a sum — is therefore the one canonical quiet NaN, 0x7fc00000, whatever the
//! operands' NaNs were; hardware built to match needs no NaN propagation.

use crate::campaign::SplitMix64;

/// The canonical quiet NaN: positive, quiet bit only.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// `x`, or the canonical NaN when `x` is any NaN.
#[inline]
pub fn canonical(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(CANONICAL_NAN)
    } else {
        x
    }
}

/// `a + b` rounded to nearest even; a NaN result is [`CANONICAL_NAN`].
#[inline]
pub fn add(a: f32, b: f32) -> f32 {
    canonical(a + b)
}

/// `a × b` rounded to nearest even; a NaN result is [`CANONICAL_NAN`].
#[inline]
pub fn mul(a: f32, b: f32) -> f32 {
    canonical(a * b)
}

/// Operands at the edges of binary32's classes, + and −: zero, the
/// smallest and largest subnormal, the smallest normal, one, the largest
/// finite, infinity, a quiet and a signalling NaN (22 values).
pub const fn edge_values() -> [u32; 22] {
    const EDGES: [u32; 11] = [
        0,
        1,
        0x007f_ffff,
        0x0080_0000,
        0x0080_0001,
        0x3f80_0000,
        0x7f7f_fffe,
        0x7f7f_ffff,
        0x7f80_0000,
        0x7fc0_0000,
        0x7f80_0001,
    ];
    let mut out = [0; 22];
    let mut i = 0;
    while i < EDGES.len() {
        out[2 * i] = EDGES[i];
        out[2 * i + 1] = EDGES[i] | 0x8000_0000;
        i += 1;
    }
    out
}

/// A deterministic stream of operand pairs for checking binary32 adders
/// and multipliers (splitmix64 from `seed`): a sixth each of
///
/// - random bits;
/// - `b`'s exponent `a`'s plus a difference of 0, ±1, ±2, ±23, ±24, ±25,
///   ±26 or random, so alignment shifts every guard/round/sticky case;
/// - near cancellation: `b` is `−a` moved by a few units in the last place;
/// - a tie: `b`'s lowest set bit lands exactly on half of `a`'s last place;
/// - an edge value ([`edge_values`]) with a random or edge operand;
/// - subnormals, the smallest normals and the largest finite numbers
///   (products that land on the subnormal boundary and on overflow).
#[derive(Clone, Debug)]
pub struct OperandPairs {
    rng: SplitMix64,
}

impl OperandPairs {
    pub fn new(seed: u64) -> Self {
        OperandPairs { rng: SplitMix64(seed) }
    }

    fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// `next_u64() % n` (not `SplitMix64::below`: the stream is fixed).
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// `{sign, exponent, fraction}` packed, the exponent clamped into 0 ..= 255.
fn pack(sign: u64, exp: i64, frac: u64) -> u32 {
    ((sign as u32 & 1) << 31) | ((exp.clamp(0, 255) as u32) << 23) | (frac as u32 & 0x007f_ffff)
}

impl Iterator for OperandPairs {
    type Item = (u32, u32);

    fn next(&mut self) -> Option<(u32, u32)> {
        let r = self.next_u64();
        let a = r as u32;
        let kind = self.below(6);
        let exp_a = i64::from((a >> 23) & 0xff);
        let pair = match kind {
            0 => (a, (r >> 32) as u32),
            1 => {
                const DIFFS: [i64; 8] = [0, 1, 2, 23, 24, 25, 26, 40];
                let d = DIFFS[self.below(8) as usize] * if self.below(2) == 0 { 1 } else { -1 };
                let d = if self.below(8) == 0 { self.below(64) as i64 - 32 } else { d };
                (a, pack(self.below(2), exp_a + d, self.next_u64()))
            }
            2 => {
                let moved = (a ^ 0x8000_0000) as i64 + self.below(9) as i64 - 4;
                (a, moved.clamp(0, u32::MAX as i64) as u32)
            }
            3 => {
                // b, d binades below a, shifted right by d to align: its
                // bits shifted out are exactly half of a's last place (for
                // d = 24 the whole significand, 1.0, is the half).
                let d = 1 + self.below(24) as i64;
                let frac = if d == 24 { 0 } else { (self.next_u64() << d) | (1 << (d - 1)) };
                (a, pack(self.below(2), exp_a - d, frac))
            }
            4 => {
                let edges = edge_values();
                let e = edges[self.below(edges.len() as u64) as usize];
                let other = if self.below(2) == 0 { a } else { edges[self.below(edges.len() as u64) as usize] };
                if self.below(2) == 0 {
                    (e, other)
                } else {
                    (other, e)
                }
            }
            _ => {
                let mut near = || {
                    let exp = [0, 1, 2, 63, 64, 127, 190, 191, 253, 254][self.below(10) as usize];
                    pack(self.below(2), exp, self.next_u64())
                };
                (near(), near())
            }
        };
        Some(pair)
    }
}

/// A deterministic stream of operand pairs for checking binary32
/// multipliers (splitmix64 from `seed`): every other pair from
/// [`OperandPairs`], the others products that land where a multiplier
/// rounds at a boundary: the product's exponent field before normalizing
/// (`ea + eb − 127`) at −25 ..= 2 (subnormal results, underflow to zero,
/// a subnormal rounding up to the smallest normal) or at 252 ..= 256 (the
/// largest binades and overflow), with
/// random fractions, fractions of all ones (products that round up across
/// the boundary) or of only the lowest bit (products with a lone low bit
/// that only the sticky bit keeps), one operand a subnormal a quarter of
/// the time.
#[derive(Clone, Debug)]
pub struct ProductPairs {
    pairs: OperandPairs,
    rng: SplitMix64,
}

impl ProductPairs {
    pub fn new(seed: u64) -> Self {
        ProductPairs { pairs: OperandPairs::new(seed), rng: SplitMix64(seed ^ 0x6d75_6c74) }
    }
}

impl Iterator for ProductPairs {
    type Item = (u32, u32);

    fn next(&mut self) -> Option<(u32, u32)> {
        let r = self.rng.next_u64();
        if r & 1 == 0 {
            return self.pairs.next();
        }
        // The product's exponent field (before normalization) is ea + eb − 127.
        let target = if (r >> 1) & 1 == 0 { -25 + ((r >> 2) % 28) as i64 } else { 252 + ((r >> 2) % 5) as i64 };
        let ea = 1 + ((r >> 8) % 254) as i64;
        let eb = (target + 127 - ea).clamp(0, 254);
        let frac = |x: u64| match x & 3 {
            0 => 0x007f_ffff,
            1 => 1,
            _ => x >> 2,
        };
        let (fa, fb) = (frac(self.rng.next_u64()), frac(self.rng.next_u64()));
        let sign = r >> 16;
        let (a, b) = (pack(sign, ea, fa), pack(sign >> 1, eb, fb));
        // With a subnormal operand (about 2^-127) the other's exponent carries the product.
        let carrying = (target + 127).clamp(1, 254);
        Some(match (r >> 20) % 8 {
            0 => (a & 0x807f_ffff, pack(sign >> 1, carrying, fb)),
            1 => (pack(sign, carrying, fa), b & 0x807f_ffff),
            _ => (a, b),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(bits: u32) -> f32 {
        f32::from_bits(bits)
    }

    /// Bits, never values: each of these is a different NaN on x86 without
    /// the rule (0xffc11234, 0x7fc00001, 0xffc00000, …).
    #[test]
    fn every_nan_result_is_the_canonical_one() {
        let (qnan_neg, snan) = (f(0xffc1_1234), f(0x7f80_0001));
        let (inf, ninf) = (f32::INFINITY, f32::NEG_INFINITY);
        for (a, b) in [(qnan_neg, snan), (snan, qnan_neg), (inf, ninf), (ninf, inf), (qnan_neg, 1.0), (2.0, snan)] {
            assert_eq!(add(a, b).to_bits(), CANONICAL_NAN, "{:08x} + {:08x}", a.to_bits(), b.to_bits());
        }
        for (a, b) in [(0.0, inf), (ninf, -0.0), (snan, 2.0), (3.0, qnan_neg), (qnan_neg, snan)] {
            assert_eq!(mul(a, b).to_bits(), CANONICAL_NAN, "{:08x} × {:08x}", a.to_bits(), b.to_bits());
        }
        assert_eq!(canonical(f(0xff80_0001)).to_bits(), CANONICAL_NAN);
    }

    #[test]
    fn numbers_are_ieee_round_to_nearest_even() {
        assert_eq!(add(1.0, -1.0).to_bits(), 0); // x + (-x) = +0
        assert_eq!(add(-0.0, -0.0).to_bits(), 0x8000_0000);
        assert_eq!(add(f(1), f(1)).to_bits(), 2); // subnormals kept
        assert_eq!(add(1.0, f(0x3380_0000)).to_bits(), 0x3f80_0000); // 1 + 2^-24: tie to even
        assert_eq!(add(f(0x3f80_0001), f(0x3380_0000)).to_bits(), 0x3f80_0002);
        assert_eq!(mul(f(0x0080_0000), 0.5).to_bits(), 0x0040_0000);
        assert_eq!(mul(-1.0, 0.0).to_bits(), 0x8000_0000);
    }
}

//! The binary32 arithmetic of the ARITH ops, independent of the host (D50).
//!
//! IEEE 754 fixes every result that is a number, but leaves a NaN result's
//! sign and payload to the implementation: x86 propagates the first NaN
//! operand and makes `inf - inf` 0xffc00000, Arm and RISC-V give other bits.
//! Every NaN that ARITH produces — a converted element, a product by `scale`,
//! a sum — is therefore the one canonical quiet NaN, 0x7fc00000, whatever the
//! operands' NaNs were; hardware built to match needs no NaN propagation.

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

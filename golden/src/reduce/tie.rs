//! The rb* tie mask: bit `l` set where lane `l` of the vector equals the
//! result.
//!
//! One function, two bodies. On x86_64 (where SSE2 is part of the base ISA)
//! it is four lane compares and a byte-mask move through `safe_arch`'s safe
//! wrappers of the SSE2 intrinsics: no portable Rust formulation we measured
//! makes LLVM emit `pmovmskb`, and without it the mask costs ~10 ns a vector
//! against ~1 ns (docs/decisions.md, "The batch API"). Elsewhere it is
//! [`tie_mask_swar`], a portable SWAR form on 64-bit words; the tests hold
//! the two to each other and to a lane-by-lane loop, and the `portable`
//! feature builds the SWAR body on x86_64 too, so that the whole model test
//! suite runs through it (`./dev test` does).

use crate::vector::Vec512;

/// Bit `l` set where lane `l` (of `lane_bits` = 8, 16 or 32 bits) equals
/// the low `lane_bits` bits of `value`.
#[inline(always)]
pub(crate) fn tie_mask(lane_bits: u32, v: &Vec512, value: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "portable")))]
    {
        tie_mask_sse2(lane_bits, v, value)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "portable"))))]
    {
        tie_mask_swar(lane_bits, v, value)
    }
}

/// SSE2: compare each 128-bit quarter with the broadcast value, narrow the
/// all-ones / all-zeros lanes to bytes with signed saturation (which keeps
/// them as they are), and move the bytes' top bits out.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "portable")))]
#[inline(always)]
pub(crate) fn tie_mask_sse2(lane_bits: u32, v: &Vec512, value: u32) -> u64 {
    use safe_arch::*;
    let (quarters, _) = v.0.as_chunks::<16>();
    let quarter = |k: usize| quarters.get(k).map_or(m128i::default(), load_unaligned_m128i);
    let moved = |x: m128i| move_mask_i8_m128i(x) as u32 as u64;
    match lane_bits {
        8 => {
            let b = set_splat_i8_m128i(value as i8);
            (0..4).fold(0, |m, k| m | moved(cmp_eq_mask_i8_m128i(quarter(k), b)) << (16 * k))
        }
        16 => {
            let b = set_splat_i16_m128i(value as i16);
            let eq = |k: usize| cmp_eq_mask_i16_m128i(quarter(k), b);
            moved(pack_i16_to_i8_m128i(eq(0), eq(1))) | moved(pack_i16_to_i8_m128i(eq(2), eq(3))) << 16
        }
        _ => {
            let b = set_splat_i32_m128i(value as i32);
            let eq = |k: usize| cmp_eq_mask_i32_m128i(quarter(k), b);
            let words = pack_i16_to_i8_m128i(pack_i32_to_i16_m128i(eq(0), eq(1)), pack_i32_to_i16_m128i(eq(2), eq(3)));
            moved(words)
        }
    }
}

/// Portable SWAR on the eight 64-bit words: XOR with the broadcast value,
/// find the zero lanes exactly, and gather each lane's flag with one
/// multiply.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "portable")), allow(dead_code))] // used by the tests there
#[inline(always)]
pub(crate) fn tie_mask_swar(lane_bits: u32, v: &Vec512, value: u32) -> u64 {
    let w = lane_bits;
    let ones = u64::MAX / ((1u128 << w) - 1) as u64; // 0x0101.. / 0x0001_0001.. / 0x0000_0001_0000_0001
    let top = ones << (w - 1); // the top bit of every lane
    let low = !top & (top | (top - ones)); // every bit but the top of each lane
    let b = (value as u64 & (u64::MAX >> (64 - w))) * ones;
    let per_word = 64 / w;
    // Multiplier gathering the flag of lane i (at bit w*i after the shift) to bit 64-per_word+i.
    let gather: u64 = (0..per_word).fold(0u64, |m, i| m | 1u64 << (64 - per_word - (w - 1) * i));
    let (words, _) = v.0.as_chunks::<8>();
    words.iter().enumerate().fold(0u64, |mask, (k, word)| {
        let d = u64::from_le_bytes(*word) ^ b;
        let nonzero = (((d & low).wrapping_add(low)) | d) & top;
        let eq = (!nonzero & top) >> (w - 1);
        let bits = eq.wrapping_mul(gather) >> (64 - per_word);
        mask | bits << (k as u32 * per_word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lane by lane, the definition.
    fn by_lane(lane_bits: u32, v: &Vec512, value: u32) -> u64 {
        let n = lane_bits as usize / 8;
        let value = value as u64 & (u64::MAX >> (64 - lane_bits));
        v.0.chunks_exact(n).enumerate().fold(0, |m, (l, c)| {
            let lane = c.iter().rev().fold(0u64, |a, &b| a << 8 | b as u64);
            m | ((lane == value) as u64) << l
        })
    }

    fn check(lane_bits: u32, v: &Vec512, value: u32) {
        let want = by_lane(lane_bits, v, value);
        assert_eq!(tie_mask_swar(lane_bits, v, value), want, "swar, {lane_bits}-bit lanes, value {value:#x}, {v:?}");
        assert_eq!(tie_mask(lane_bits, v, value), want, "tie_mask, {lane_bits}-bit lanes, value {value:#x}, {v:?}");
    }

    /// A vector whose lanes take `a` where `pattern` has a bit and `b`
    /// elsewhere.
    fn two_valued(lane_bits: u32, a: u32, b: u32, pattern: u64) -> Vec512 {
        let n = lane_bits as usize / 8;
        let mut v = Vec512([0; 64]);
        for (l, c) in v.0.chunks_exact_mut(n).enumerate() {
            let x = if (pattern >> l) & 1 == 1 { a } else { b };
            c.copy_from_slice(&x.to_le_bytes()[..n]);
        }
        v
    }

    #[test]
    fn every_byte_pair_in_every_byte_position() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let pattern = 0x9e37_79b9_7f4a_7c15u64.rotate_left(a ^ b);
                let v = two_valued(8, a, b, pattern);
                check(8, &v, a);
                check(8, &v, b);
            }
        }
    }

    #[test]
    fn near_misses_of_every_bit_at_every_width() {
        for lane_bits in [8, 16, 32] {
            let all = u32::MAX >> (32 - lane_bits);
            for value in [0, 1, all, all >> 1, !(all >> 1) & all, 0x5a5a_5a5a & all] {
                for bit in 0..lane_bits {
                    let v = two_valued(lane_bits, value, value ^ 1 << bit, 0xf0f0_3c3c_aaaa_6666);
                    check(lane_bits, &v, value);
                    check(lane_bits, &v, value ^ 1 << bit);
                    // The bits above the lane width of `value` are ignored.
                    check(lane_bits, &v, value | !all);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn matches_the_lane_loop(bytes in prop::array::uniform32(any::<u8>()), more in prop::array::uniform32(any::<u8>()),
                                 pick in any::<usize>(), pattern in any::<u64>(), lane_bits in prop::sample::select(vec![8u32, 16, 32])) {
            let mut v = Vec512([0; 64]);
            v.0[..32].copy_from_slice(&bytes);
            v.0[32..].copy_from_slice(&more);
            let n = lane_bits as usize / 8;
            let lanes = 64 / n;
            let l = pick % lanes;
            let value = v.0[l * n..l * n + n].iter().rev().fold(0u32, |a, &b| a << 8 | b as u32);
            // Plant ties with the picked lane where the pattern says.
            for k in 0..lanes {
                if (pattern >> k) & 1 == 1 {
                    v.0.copy_within(l * n..l * n + n, k * n);
                }
            }
            check(lane_bits, &v, value);
            check(lane_bits, &v, value ^ 1);
        }
    }
}

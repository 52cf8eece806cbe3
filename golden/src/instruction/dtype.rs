//! The 15 dtypes of instruction.md §2 and their conversions to and from
//! binary32.
//!
//! Float formats are described by one [`MiniFloat`] table row each; the
//! exact encodings (see `docs/decisions.md`):
//!
//! | dtype | exp | man | bias | infinities | NaN | max finite |
//! |---|---|---|---|---|---|---|
//! | FP32 / FP32R | 8 | 23 | 127 | yes | exp all ones, man ≠ 0 | 3.4e38 |
//! | BFLOAT16 | 8 | 7 | 127 | yes | exp all ones, man ≠ 0 | 3.39e38 |
//! | FP16 | 5 | 10 | 15 | yes | exp all ones, man ≠ 0 | 65504 |
//! | FP8_EXP5 (E5M2) | 5 | 2 | 15 | yes | exp all ones, man ≠ 0 | 57344 |
//! | FP8_EXP4 (E4M3) | 4 | 3 | 7 | no | S.1111.111 only | 448 |
//! | FP8_EXP3 (E3M4) | 3 | 4 | 3 | no | S.111.1111 only | 30 |
//!
//! Conversion from binary32 rounds to nearest, ties to even. A result too
//! large for a format with infinities becomes ±inf; a format without them
//! saturates to ±max finite (and ±inf saturates too). NaN becomes the
//! format's quiet NaN (sign kept); binary32 NaNs pass through unchanged.
use super::fp::{canonical, CANONICAL_NAN};

/// The dtype codes of instruction.md §2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    Invalid = 0x0,
    Uint64 = 0x1,
    Int8 = 0x2,
    Uint8 = 0x3,
    Int16 = 0x4,
    Uint16 = 0x5,
    Bfloat16 = 0x6,
    Fp16 = 0x7,
    Int32 = 0x8,
    Uint32 = 0x9,
    Fp32 = 0xa,
    Fp32r = 0xb,
    Int64 = 0xc,
    Fp8Exp3 = 0xd,
    Fp8Exp4 = 0xe,
    Fp8Exp5 = 0xf,
}

impl Dtype {
    pub const ALL: [Dtype; 16] = [
        Dtype::Invalid,
        Dtype::Uint64,
        Dtype::Int8,
        Dtype::Uint8,
        Dtype::Int16,
        Dtype::Uint16,
        Dtype::Bfloat16,
        Dtype::Fp16,
        Dtype::Int32,
        Dtype::Uint32,
        Dtype::Fp32,
        Dtype::Fp32r,
        Dtype::Int64,
        Dtype::Fp8Exp3,
        Dtype::Fp8Exp4,
        Dtype::Fp8Exp5,
    ];

    /// The dtype of a 4-bit code (the high bits must already be checked).
    pub fn from_code(code: u8) -> Option<Dtype> {
        Dtype::ALL.get(code as usize).copied()
    }

    pub fn code(self) -> u8 {
        self as u8
    }

    /// The seed's name.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::Invalid => "INVALID",
            Dtype::Uint64 => "UINT64",
            Dtype::Int8 => "INT8",
            Dtype::Uint8 => "UINT8",
            Dtype::Int16 => "INT16",
            Dtype::Uint16 => "UINT16",
            Dtype::Bfloat16 => "BFLOAT16",
            Dtype::Fp16 => "FP16",
            Dtype::Int32 => "INT32",
            Dtype::Uint32 => "UINT32",
            Dtype::Fp32 => "FP32",
            Dtype::Fp32r => "FP32R",
            Dtype::Int64 => "INT64",
            Dtype::Fp8Exp3 => "FP8_EXP3",
            Dtype::Fp8Exp4 => "FP8_EXP4",
            Dtype::Fp8Exp5 => "FP8_EXP5",
        }
    }

    pub fn from_name(name: &str) -> Option<Dtype> {
        Dtype::ALL.into_iter().find(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// Bytes of one element (0 for INVALID).
    pub fn size(self) -> usize {
        match self {
            Dtype::Invalid => 0,
            Dtype::Int8 | Dtype::Uint8 | Dtype::Fp8Exp3 | Dtype::Fp8Exp4 | Dtype::Fp8Exp5 => 1,
            Dtype::Int16 | Dtype::Uint16 | Dtype::Bfloat16 | Dtype::Fp16 => 2,
            Dtype::Int32 | Dtype::Uint32 | Dtype::Fp32 | Dtype::Fp32r => 4,
            Dtype::Uint64 | Dtype::Int64 => 8,
        }
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            Dtype::Uint64
                | Dtype::Int8
                | Dtype::Uint8
                | Dtype::Int16
                | Dtype::Uint16
                | Dtype::Int32
                | Dtype::Uint32
                | Dtype::Int64
        )
    }

    /// The float format of a float dtype.
    pub fn minifloat(self) -> Option<MiniFloat> {
        match self {
            Dtype::Fp32 | Dtype::Fp32r => Some(MiniFloat::F32),
            Dtype::Bfloat16 => Some(MiniFloat::BF16),
            Dtype::Fp16 => Some(MiniFloat::F16),
            Dtype::Fp8Exp5 => Some(MiniFloat::E5M2),
            Dtype::Fp8Exp4 => Some(MiniFloat::E4M3),
            Dtype::Fp8Exp3 => Some(MiniFloat::E3M4),
            _ => None,
        }
    }

    /// Read one element (little-endian) as its raw bits.
    pub fn load_bits(self, bytes: &[u8]) -> u64 {
        let mut b = [0u8; 8];
        let n = self.size().min(bytes.len());
        b[..n].copy_from_slice(&bytes[..n]);
        u64::from_le_bytes(b)
    }

    /// An element's value as binary32: integers round to nearest even; a
    /// NaN of any float dtype is the canonical NaN (D50).
    pub fn to_f32(self, bits: u64) -> f32 {
        match self {
            Dtype::Invalid => 0.0,
            Dtype::Uint64 => bits as f32,
            Dtype::Int64 => bits as i64 as f32,
            Dtype::Int8 => bits as u8 as i8 as f32,
            Dtype::Uint8 => bits as u8 as f32,
            Dtype::Int16 => bits as u16 as i16 as f32,
            Dtype::Uint16 => bits as u16 as f32,
            Dtype::Int32 => bits as u32 as i32 as f32,
            Dtype::Uint32 => bits as u32 as f32,
            Dtype::Fp32 | Dtype::Fp32r => canonical(f32::from_bits(bits as u32)),
            float => float.minifloat().map_or(0.0, |m| m.decode(bits as u32)),
        }
    }

    /// A binary32 value as this dtype's raw bits: floats round to nearest
    /// even, a NaN is the format's canonical quiet NaN (positive; D50);
    /// integers round to nearest even, then saturate; NaN → 0.
    pub fn from_f32(self, x: f32) -> u64 {
        let r = x.round_ties_even();
        match self {
            Dtype::Invalid => 0,
            // `as` saturates and maps NaN to 0.
            Dtype::Uint64 => r as u64,
            Dtype::Int64 => r as i64 as u64,
            Dtype::Int8 => r as i8 as u8 as u64,
            Dtype::Uint8 => r as u8 as u64,
            Dtype::Int16 => r as i16 as u16 as u64,
            Dtype::Uint16 => r as u16 as u64,
            Dtype::Int32 => r as i32 as u32 as u64,
            Dtype::Uint32 => r as u32 as u64,
            Dtype::Fp32 | Dtype::Fp32r => canonical(x).to_bits() as u64,
            float => float.minifloat().map_or(0, |m| m.encode(x) as u64),
        }
    }
}

/// A binary floating-point format of at most 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MiniFloat {
    pub exp_bits: u32,
    pub man_bits: u32,
    pub bias: i32,
    /// IEEE-style: the all-ones exponent holds ±inf and NaNs. Otherwise
    /// only the all-ones code (exponent and mantissa) is NaN.
    pub has_inf: bool,
}

impl MiniFloat {
    pub const F32: MiniFloat = MiniFloat { exp_bits: 8, man_bits: 23, bias: 127, has_inf: true };
    pub const BF16: MiniFloat = MiniFloat { exp_bits: 8, man_bits: 7, bias: 127, has_inf: true };
    pub const F16: MiniFloat = MiniFloat { exp_bits: 5, man_bits: 10, bias: 15, has_inf: true };
    pub const E5M2: MiniFloat = MiniFloat { exp_bits: 5, man_bits: 2, bias: 15, has_inf: true };
    pub const E4M3: MiniFloat = MiniFloat { exp_bits: 4, man_bits: 3, bias: 7, has_inf: false };
    pub const E3M4: MiniFloat = MiniFloat { exp_bits: 3, man_bits: 4, bias: 3, has_inf: false };

    pub fn bits(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    fn exp_max(self) -> u32 {
        (1 << self.exp_bits) - 1
    }

    fn man_mask(self) -> u32 {
        (1 << self.man_bits) - 1
    }

    fn sign_bit(self) -> u32 {
        1 << (self.exp_bits + self.man_bits)
    }

    /// The largest finite code (positive).
    pub fn max_finite(self) -> u32 {
        if self.has_inf {
            ((self.exp_max() - 1) << self.man_bits) | self.man_mask()
        } else {
            (self.exp_max() << self.man_bits) | (self.man_mask() - 1)
        }
    }

    /// The quiet NaN (positive): top mantissa bit set, or all ones.
    pub fn qnan(self) -> u32 {
        if self.has_inf {
            (self.exp_max() << self.man_bits) | (1 << (self.man_bits - 1))
        } else {
            (self.exp_max() << self.man_bits) | self.man_mask()
        }
    }

    pub fn is_nan(self, code: u32) -> bool {
        let mag = code & (self.sign_bit() - 1);
        if self.has_inf {
            mag > self.exp_max() << self.man_bits
        } else {
            mag == (self.exp_max() << self.man_bits) | self.man_mask()
        }
    }

    /// The exact binary32 value of a code (every format here fits in f32).
    pub fn decode(self, code: u32) -> f32 {
        let code = code & ((self.sign_bit() << 1) - 1);
        if self == MiniFloat::F32 {
            return canonical(f32::from_bits(code));
        }
        let neg = code & self.sign_bit() != 0;
        let exp = (code >> self.man_bits) & self.exp_max();
        let man = code & self.man_mask();
        let sign = if neg { -1.0f32 } else { 1.0 };
        if self.is_nan(code) {
            return f32::from_bits(CANONICAL_NAN);
        }
        if self.has_inf && exp == self.exp_max() {
            return sign * f32::INFINITY;
        }
        // value = man × 2^(e - bias - man_bits), exactly representable in f32.
        let (m, e) = if exp == 0 {
            (man, 1 - self.bias - self.man_bits as i32)
        } else {
            (man | (1 << self.man_bits), exp as i32 - self.bias - self.man_bits as i32)
        };
        sign * (m as f32) * pow2(e)
    }

    /// Round a binary32 value to this format: nearest, ties to even.
    pub fn encode(self, x: f32) -> u32 {
        if x.is_nan() {
            return self.qnan();
        }
        if self == MiniFloat::F32 {
            return x.to_bits();
        }
        let sign = if x.is_sign_negative() { self.sign_bit() } else { 0 };
        let a = x.abs();
        if a.is_infinite() {
            return sign | if self.has_inf { self.exp_max() << self.man_bits } else { self.max_finite() };
        }
        if a == 0.0 {
            return sign;
        }
        // Work on the binary32 fields: a = m × 2^e with m < 2^24.
        let b = a.to_bits();
        let (m, e) =
            if b >> 23 == 0 { (b & 0x7f_ffff, -149) } else { ((b & 0x7f_ffff) | 0x80_0000, (b >> 23) as i32 - 150) };
        // The target's quantum at this magnitude: 2^q, q = max(E - man_bits, emin - man_bits).
        let top = 31 - m.leading_zeros() as i32 + e; // floor(log2(a))
        let emin = 1 - self.bias;
        let q = top.max(emin) - self.man_bits as i32;
        // Round m × 2^e to a multiple of 2^q, ties to even.
        let shift = q - e;
        let n: u64 = if shift <= 0 {
            (m as u64) << (-shift) as u32
        } else if shift >= 40 {
            0
        } else {
            let s = shift as u32;
            let whole = (m as u64) >> s;
            let rem = (m as u64) & ((1u64 << s) - 1);
            let half = 1u64 << (s - 1);
            if rem > half || (rem == half && whole & 1 == 1) {
                whole + 1
            } else {
                whole
            }
        };
        // n × 2^q; normalise into exponent and mantissa fields.
        if n == 0 {
            return sign;
        }
        // (A carry into the next binade, n = 2^(man_bits+1), lands here too.)
        let (exp_field, man) = if q == emin - self.man_bits as i32 && n < (1 << self.man_bits) {
            (0u64, n)
        } else {
            let lead = 63 - n.leading_zeros() as i32; // n < 2^(man_bits + 2)
            let e_unb = q + lead;
            ((e_unb + self.bias) as u64, n & self.man_mask() as u64)
        };
        let code = (exp_field << self.man_bits) as u32 | man as u32;
        if code > self.max_finite() {
            return sign | if self.has_inf { self.exp_max() << self.man_bits } else { self.max_finite() };
        }
        sign | code
    }
}

/// 2^e for the exponents a ≤ 32-bit format can need, exactly.
fn pow2(e: i32) -> f32 {
    if e >= -126 {
        f32::from_bits(((e + 127) as u32) << 23)
    } else {
        f32::from_bits(1 << (e + 149) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMATS: [MiniFloat; 5] =
        [MiniFloat::BF16, MiniFloat::F16, MiniFloat::E5M2, MiniFloat::E4M3, MiniFloat::E3M4];

    #[test]
    fn every_code_round_trips_through_f32() {
        for f in FORMATS {
            for code in 0..(1u32 << f.bits()) {
                let x = f.decode(code);
                if f.is_nan(code) {
                    // Any NaN decodes to the canonical NaN and encodes to the
                    // format's positive quiet NaN (D50): bits, not values.
                    assert_eq!(x.to_bits(), CANONICAL_NAN, "{f:?} {code:#x}");
                    assert_eq!(f.encode(x), f.qnan());
                    assert_eq!(f.encode(f32::from_bits(0xff80_0001)), f.qnan());
                } else {
                    assert_eq!(f.encode(x), code, "{f:?} {code:#x} = {x}");
                }
            }
        }
    }

    #[test]
    fn fp8_encodings_are_the_documented_ones() {
        let e3 = MiniFloat::E3M4;
        assert_eq!(e3.decode(0x38), 1.5);
        assert_eq!(e3.decode(0x30), 1.0);
        assert_eq!(e3.decode(0xd0), -4.0);
        assert_eq!(e3.decode(0x01), 1.0 / 64.0); // smallest subnormal 2^(1-3-4)
        assert_eq!(e3.decode(0x7e), 30.0);
        assert!(e3.decode(0x7f).is_nan() && e3.decode(0xff).is_nan());
        assert_eq!(e3.encode(100.0), 0x7e); // saturates
        assert_eq!(e3.encode(f32::NEG_INFINITY), 0xfe);
        let e4 = MiniFloat::E4M3;
        assert_eq!(e4.decode(0x7e), 448.0);
        assert!(e4.decode(0x7f).is_nan());
        assert_eq!(e4.decode(0x78), 256.0); // exp 15 is finite: no infinities
        assert_eq!(e4.decode(0x01), 2f32.powi(-9));
        let e5 = MiniFloat::E5M2;
        assert_eq!(e5.decode(0x7b), 57344.0);
        assert_eq!(e5.decode(0x7c), f32::INFINITY);
        assert!(e5.decode(0x7d).is_nan());
        assert_eq!(e5.encode(1e6), 0x7c);
        assert_eq!(e5.encode(61440.0), 0x7c); // halfway to the next binade rounds up to inf
    }

    #[test]
    fn f16_and_bf16_round_like_ieee() {
        let h = MiniFloat::F16;
        assert_eq!(h.encode(1.0 + 1.0 / 2048.0), 0x3c00); // tie to even
        assert_eq!(h.encode(1.0 + 3.0 / 2048.0), 0x3c02);
        assert_eq!(h.encode(65520.0), 0x7c00); // rounds to inf
        assert_eq!(h.encode(65519.0), 0x7bff);
        assert_eq!(h.encode(2f32.powi(-25)), 0x0000); // tie to even at the smallest subnormal
        assert_eq!(h.encode(2f32.powi(-25) * 1.5), 0x0001);
        assert_eq!(h.encode(-0.0), 0x8000);
        let b = MiniFloat::BF16;
        assert_eq!(b.encode(f32::from_bits(0x3f80_8000)), 0x3f80); // tie to even
        assert_eq!(b.encode(f32::from_bits(0x3f81_8000)), 0x3f82);
        assert_eq!(b.encode(f32::MAX), 0x7f80);
        assert_eq!(b.encode(f32::from_bits(1)), 0x0000);
    }

    #[test]
    fn integer_conversions_round_to_even_and_saturate() {
        assert_eq!(Dtype::Int8.from_f32(2.5), 2);
        assert_eq!(Dtype::Int8.from_f32(3.5), 4);
        assert_eq!(Dtype::Int8.from_f32(-1000.0), 0x80);
        assert_eq!(Dtype::Uint8.from_f32(-3.0), 0);
        assert_eq!(Dtype::Uint8.from_f32(300.0), 0xff);
        assert_eq!(Dtype::Int32.from_f32(f32::NAN), 0);
        assert_eq!(Dtype::Uint64.from_f32(f32::INFINITY), u64::MAX);
        assert_eq!(Dtype::Int16.to_f32(0x8000), -32768.0);
        assert_eq!(Dtype::Uint32.to_f32(0xffff_ffff), 4294967296.0);
        assert_eq!(Dtype::Int32.to_f32(16_777_217), 16_777_216.0); // ties to even
    }
}

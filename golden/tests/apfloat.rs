//! golden's binary32 arithmetic and conversions against an independent
//! soft-float, LLVM's APFloat (`rustc_apfloat`): every input of at most 16
//! bits, and random wider inputs with the special classes in every position
//! (`CROSSLANE_APFLOAT_CASES`, default 10^7 a function). NaN results are
//! held to D50's rule (canonical 0x7fc00000, the out format's positive quiet
//! NaN, 0 for integers); every other result bit for bit. E3M4 is APFloat's
//! NaN-only semantics with three exponent bits; the two NaN-only formats
//! saturate where APFloat gives NaN for a finite or infinite input (D6).

use crosslane_golden::instruction::fp::{add, mul, CANONICAL_NAN};
use crosslane_golden::instruction::{Dtype, MiniFloat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_apfloat::ieee::{BFloat, Float8E4M3FN, Float8E5M2, Half, IeeeFloat, NonfiniteBehavior, Semantics, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

/// FP8_EXP3: S1E3M4, bias 3, no infinities, NaN S.111.1111 (D6).
struct E3M4S;
impl Semantics for E3M4S {
    const BITS: usize = 8;
    const EXP_BITS: usize = 3;
    const NONFINITE_BEHAVIOR: NonfiniteBehavior = NonfiniteBehavior::NanOnly;
}
type E3M4 = IeeeFloat<E3M4S>;

const RNE: Round = Round::NearestTiesToEven;

fn cases() -> usize {
    std::env::var("CROSSLANE_APFLOAT_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000_000)
}

fn single_bits(x: Single) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        x.to_bits() as u32
    }
}

/// A code of a ≤ 16-bit float format, exactly as binary32.
fn ref_float_to_f32<F: Float + FloatConvert<Single>>(code: u64) -> u32 {
    single_bits(F::from_bits(code as u128).convert(&mut false).value)
}

/// binary32 to a float format: round to nearest even; NaN the format's
/// positive quiet NaN; NaN-only formats saturate.
fn ref_f32_to_float<F: Float>(x: Single, qnan: u64, max_finite: u64, nan_only: bool) -> u64
where
    Single: FloatConvert<F>,
{
    if x.is_nan() {
        return qnan;
    }
    let sign = 1u64 << (F::BITS - 1);
    let y: F = x.convert_r(RNE, &mut false).value;
    if y.is_nan() {
        assert!(nan_only, "APFloat gave NaN for {:08x}", x.to_bits());
        return max_finite | if x.is_negative() { sign } else { 0 };
    }
    y.to_bits() as u64
}

/// The reference of `Dtype::to_f32`.
fn ref_to_f32(d: Dtype, bits: u64) -> u32 {
    let int = |v: i128| single_bits(Single::from_i128_r(v, RNE).value);
    match d {
        Dtype::Int8 => int(bits as u8 as i8 as i128),
        Dtype::Uint8 => int(bits as u8 as i128),
        Dtype::Int16 => int(bits as u16 as i16 as i128),
        Dtype::Uint16 => int(bits as u16 as i128),
        Dtype::Int32 => int(bits as u32 as i32 as i128),
        Dtype::Uint32 => int(bits as u32 as i128),
        Dtype::Int64 => int(bits as i64 as i128),
        Dtype::Uint64 => single_bits(Single::from_u128_r(bits as u128, RNE).value),
        Dtype::Fp32 | Dtype::Fp32r => single_bits(Single::from_bits(bits as u32 as u128)),
        Dtype::Bfloat16 => ref_float_to_f32::<BFloat>(bits),
        Dtype::Fp16 => ref_float_to_f32::<Half>(bits),
        Dtype::Fp8Exp5 => ref_float_to_f32::<Float8E5M2>(bits),
        Dtype::Fp8Exp4 => ref_float_to_f32::<Float8E4M3FN>(bits),
        Dtype::Fp8Exp3 => ref_float_to_f32::<E3M4>(bits),
        Dtype::Invalid => 0,
    }
}

/// The reference of `Dtype::from_f32`.
fn ref_from_f32(d: Dtype, bits: u32) -> u64 {
    let x = Single::from_bits(bits as u128);
    let mask = |w: usize| if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let signed = |w: usize| {
        if x.is_nan() {
            0
        } else {
            (x.to_i128_r(w, RNE, &mut false).value as u64) & mask(w)
        }
    };
    let unsigned = |w: usize| if x.is_nan() { 0 } else { x.to_u128_r(w, RNE, &mut false).value as u64 };
    let mf = |m: MiniFloat| (m.qnan() as u64, m.max_finite() as u64);
    match d {
        Dtype::Int8 => signed(8),
        Dtype::Int16 => signed(16),
        Dtype::Int32 => signed(32),
        Dtype::Int64 => signed(64),
        Dtype::Uint8 => unsigned(8),
        Dtype::Uint16 => unsigned(16),
        Dtype::Uint32 => unsigned(32),
        Dtype::Uint64 => unsigned(64),
        Dtype::Fp32 | Dtype::Fp32r => single_bits(x) as u64,
        Dtype::Bfloat16 => {
            let (q, m) = mf(MiniFloat::BF16);
            ref_f32_to_float::<BFloat>(x, q, m, false)
        }
        Dtype::Fp16 => {
            let (q, m) = mf(MiniFloat::F16);
            ref_f32_to_float::<Half>(x, q, m, false)
        }
        Dtype::Fp8Exp5 => {
            let (q, m) = mf(MiniFloat::E5M2);
            ref_f32_to_float::<Float8E5M2>(x, q, m, false)
        }
        Dtype::Fp8Exp4 => {
            let (q, m) = mf(MiniFloat::E4M3);
            ref_f32_to_float::<Float8E4M3FN>(x, q, m, true)
        }
        Dtype::Fp8Exp3 => {
            let (q, m) = mf(MiniFloat::E3M4);
            ref_f32_to_float::<E3M4>(x, q, m, true)
        }
        Dtype::Invalid => 0,
    }
}

/// binary32 values of the special classes, each sign.
const SPECIALS: [u32; 13] = [
    0x0000_0000, // 0
    0x0000_0001, // min subnormal
    0x007f_ffff, // max subnormal
    0x0080_0000, // min normal
    0x3f80_0000, // 1
    0x7f7f_ffff, // max finite
    0x7f80_0000, // inf
    0x7fc0_0000, // qNaN
    0x7f80_0001, // sNaN
    0x7fc1_2345, // qNaN with a payload
    0x3f00_0000, // 0.5 (ties of integer rounding)
    0x4f00_0000, // 2^31
    0x5f80_0000, // 2^64
];

/// A random binary32 input: a special class, any bits, a number whose
/// low mantissa bits are a rounding tie, or a magnitude near the integer
/// limits (2^-2 .. 2^66).
fn sample(rng: &mut ChaCha8Rng) -> u32 {
    let sign = if rng.gen::<bool>() { 0x8000_0000 } else { 0 };
    sign | match rng.gen_range(0..8) {
        0 => SPECIALS[rng.gen_range(0..SPECIALS.len())],
        1 | 2 => rng.gen::<u32>() & 0x7fff_ffff,
        3 => {
            // A tie at bit p of the mantissa, around any exponent.
            let p = rng.gen_range(1..23);
            let man = (rng.gen::<u32>() & (0x7f_ffff << p) & 0x7f_ffff) | 1 << (p - 1);
            rng.gen_range(0..255u32) << 23 | man
        }
        4 | 5 => rng.gen_range(125..=193u32) << 23 | (rng.gen::<u32>() & 0x7f_ffff),
        6 => rng.gen_range(0..3u32) << 23 | (rng.gen::<u32>() & 0x7f_ffff), // subnormal or tiny
        _ => {
            let special = SPECIALS[rng.gen_range(0..SPECIALS.len())];
            special.wrapping_add(rng.gen_range(0..5)).wrapping_sub(2) & 0x7fff_ffff
        }
    }
}

/// A second operand for `a`: random, a special class, or the same exponent
/// or one 1, 2, 23, 24, 25, 26 or more away (carries into rounding,
/// cancellation, operands shifted out).
fn partner(rng: &mut ChaCha8Rng, a: u32) -> u32 {
    let sign = if rng.gen::<bool>() { 0x8000_0000 } else { 0 };
    match rng.gen_range(0..4) {
        0 => sample(rng),
        1 => sign | SPECIALS[rng.gen_range(0..SPECIALS.len())],
        _ => {
            let d = [0i32, 0, 1, -1, 2, 23, -23, 24, -24, 25, -25, 26, 30][rng.gen_range(0..13)];
            let e = (((a >> 23) & 0xff) as i32 + d).clamp(0, 254) as u32;
            let man = if rng.gen_range(0..4) == 0 { a & 0x7f_ffff ^ 1 } else { rng.gen::<u32>() & 0x7f_ffff };
            sign | e << 23 | man
        }
    }
}

/// Run `check` on `n` seeds' worth of inputs across two threads; the
/// mismatches (at most 10 shown) and the count checked.
fn split(n: usize, seed: u64, check: impl Fn(&mut ChaCha8Rng) -> Option<String> + Sync) -> (Vec<String>, usize) {
    let threads = 2;
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|s| {
        let check = &check;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((t as u64 + 1) * 0x9e37_79b9_7f4a_7c15));
                    let mut bad = Vec::new();
                    let share = n / threads + usize::from(t < n % threads);
                    for _ in 0..share {
                        if let Some(m) = check(&mut rng) {
                            if bad.len() < 10 {
                                bad.push(m);
                            }
                        }
                    }
                    (bad, share)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a checking thread panicked")).collect()
    });
    let checked = results.iter().map(|r| r.1).sum();
    (results.into_iter().flat_map(|r| r.0).collect(), checked)
}

fn dtypes() -> Vec<Dtype> {
    Dtype::ALL.into_iter().filter(|d| *d != Dtype::Invalid).collect()
}

#[test]
fn to_f32_of_every_input_of_at_most_16_bits() {
    let mut checked = 0;
    for d in dtypes().into_iter().filter(|d| d.size() <= 2) {
        for bits in 0..1u64 << (8 * d.size()) {
            let (got, want) = (d.to_f32(bits).to_bits(), ref_to_f32(d, bits));
            assert_eq!(got, want, "{d:?}.to_f32({bits:#x}): golden {got:08x}, APFloat {want:08x}");
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * 256 + 4 * 65536);
}

#[test]
fn to_f32_of_random_wide_inputs() {
    for d in dtypes().into_iter().filter(|d| d.size() > 2) {
        let (bad, checked) = split(cases(), d.code() as u64, |rng| {
            // Any bits, and values near powers of two (rounding ties of the
            // 32- and 64-bit integers).
            let bits: u64 = match rng.gen_range(0..3) {
                0 => rng.gen(),
                1 => (rng.gen::<u64>() >> rng.gen_range(0..64)) | 1 << rng.gen_range(0..64),
                _ => (1u64 << rng.gen_range(24..64)).wrapping_add(rng.gen_range(0..1 << 12)).wrapping_sub(1 << 11),
            };
            let bits = if d.size() == 4 { bits & 0xffff_ffff } else { bits };
            let (got, want) = (d.to_f32(bits).to_bits(), ref_to_f32(d, bits));
            (got != want).then(|| format!("{d:?}.to_f32({bits:#x}): golden {got:08x}, APFloat {want:08x}"))
        });
        assert!(bad.is_empty(), "{} mismatches, first: {bad:#?}", bad.len());
        assert_eq!(checked, cases());
    }
}

#[test]
fn from_f32_to_every_dtype() {
    let all = dtypes();
    // Every binary32 value whose low 16 bits are zero (every bfloat16), then random ones.
    for hi in 0..1u32 << 16 {
        for &d in &all {
            let bits = hi << 16;
            let (got, want) = (d.from_f32(f32::from_bits(bits)), ref_from_f32(d, bits));
            assert_eq!(got, want, "{d:?}.from_f32({bits:08x}): golden {got:#x}, APFloat {want:#x}");
        }
    }
    let (bad, checked) = split(cases(), 0xf32, |rng| {
        let bits = sample(rng);
        for &d in &all {
            let (got, want) = (d.from_f32(f32::from_bits(bits)), ref_from_f32(d, bits));
            if got != want {
                return Some(format!("{d:?}.from_f32({bits:08x}): golden {got:#x}, APFloat {want:#x}"));
            }
        }
        None
    });
    assert!(bad.is_empty(), "mismatches: {bad:#?}");
    assert_eq!(checked, cases());
}

#[test]
fn add_and_mul_of_random_pairs() {
    for (name, golden, apfloat) in [
        ("+", add as fn(f32, f32) -> f32, (|a, b| (a + b).value) as fn(Single, Single) -> Single),
        ("×", mul, |a, b| (a * b).value),
    ] {
        let (bad, checked) = split(cases(), name.len() as u64, |rng| {
            let a = sample(rng);
            let b = partner(rng, a);
            let (a, b) = if rng.gen() { (a, b) } else { (b, a) };
            let got = golden(f32::from_bits(a), f32::from_bits(b)).to_bits();
            let want = single_bits(apfloat(Single::from_bits(a as u128), Single::from_bits(b as u128)));
            (got != want).then(|| format!("{a:08x} {name} {b:08x}: golden {got:08x}, APFloat {want:08x}"))
        });
        assert!(bad.is_empty(), "mismatches: {bad:#?}");
        assert_eq!(checked, cases());
    }
}

/// The special classes pairwise, both orders: every pair, exhaustively.
#[test]
fn add_and_mul_of_every_pair_of_special_classes() {
    let specials: Vec<u32> = SPECIALS.iter().flat_map(|&s| [s, s | 0x8000_0000]).collect();
    for &a in &specials {
        for &b in &specials {
            let (x, y) = (Single::from_bits(a as u128), Single::from_bits(b as u128));
            let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
            assert_eq!(add(fa, fb).to_bits(), single_bits((x + y).value), "{a:08x} + {b:08x}");
            assert_eq!(mul(fa, fb).to_bits(), single_bits((x * y).value), "{a:08x} × {b:08x}");
        }
    }
}

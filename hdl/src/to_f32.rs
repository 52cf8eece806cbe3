//! `ToF32`: an element of any in_dtype to binary32, one a clock, for the
//! ARITH ops' first step (instruction.md §4).
//!
//! Bit-exact to golden's `Dtype::to_f32`: integers (8 to 64 bits, signed
//! or not) round to nearest even; BFLOAT16, FP16 and the fp8 formats are
//! exact in binary32 (their subnormals become normal numbers); FP32 and
//! FP32R pass; every NaN becomes the canonical quiet NaN 0x7fc00000 (D50);
//! an infinity stays one; FP8_EXP4 and FP8_EXP3 have no infinity and one
//! NaN code a sign (all ones), as golden's `MiniFloat` says; the Invalid
//! dtype gives +0. Only the dtype's own low bits of `bits_i` are read.
//!
//! Every number goes one way: a sign, an unsigned significand `mag` of up
//! to 64 bits and the exponent it would have if its leading one were bit 63;
//! [`ToF32Normalize`] counts the leading zeros and shifts them out,
//! [`ToF32Round`] rounds the top 24 bits to nearest even (nothing to round
//! but for integers wider than 24 bits). FP32, BFLOAT16 (binary32's upper
//! half) and the special values pass beside it.
//!
//! Latency is a parameter ([`ToF32::new`]): 1 (an output register only), 2
//! (a register after unpacking too) or 3 (after normalizing too).

use crate::k;
use crate::pipe::Pipe;
use crosslane_golden::instruction::dtype::{Dtype, MiniFloat};
use rust_hdl::prelude::*;

/// The latencies [`ToF32::new`] builds.
pub const TO_F32_LATENCIES: [usize; 3] = [1, 2, 3];

/// The exponent field a significand's leading one at bit 63 stands for,
/// for a value `mag` × 2^0: 127 + 63.
const EXP_AT_63: i64 = 190;

/// One minifloat format's code (in the low bits of `code_i`) as sign,
/// significand and exponent base, or a NaN or an infinity. The format is
/// given by constants ([`MiniFloatUnpack::new`]), so the four formats
/// share one module.
#[derive(LogicBlock)]
pub struct MiniFloatUnpack {
    pub code_i: Signal<In, Bits<16>>,
    pub sign_o: Signal<Out, Bit>,
    pub mag_o: Signal<Out, Bits<64>>,
    pub exp_o: Signal<Out, Bits<8>>,
    pub nan_o: Signal<Out, Bit>,
    pub inf_o: Signal<Out, Bit>,
    exp16: Signal<Local, Bits<16>>,
    exp: Signal<Local, Bits<8>>,
    man: Signal<Local, Bits<16>>,
    sig: Signal<Local, Bits<16>>,
    man_bits: Constant<Bits<16>>,
    exp_mask: Constant<Bits<16>>,
    man_mask: Constant<Bits<16>>,
    sign_bit: Constant<Bits<16>>,
    hidden: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    has_inf: Constant<Bit>,
    /// The exponent base of exponent field 0: 190 − bias − man_bits + 1
    /// (a subnormal's exponent is the smallest normal one's).
    exp_sub: Constant<Bits<8>>,
    /// The exponent base of exponent field e is e − 1 more.
    exp_step: Constant<Bits<8>>,
}

impl MiniFloatUnpack {
    pub fn new(f: MiniFloat) -> Self {
        let exp_sub = EXP_AT_63 - i64::from(f.bias) - i64::from(f.man_bits) + 1;
        Self {
            code_i: Default::default(),
            sign_o: Default::default(),
            mag_o: Default::default(),
            exp_o: Default::default(),
            nan_o: Default::default(),
            inf_o: Default::default(),
            exp16: Default::default(),
            exp: Default::default(),
            man: Default::default(),
            sig: Default::default(),
            man_bits: k(f.man_bits.into()),
            exp_mask: k((1 << f.exp_bits) - 1),
            man_mask: k((1 << f.man_bits) - 1),
            sign_bit: k(1 << (f.exp_bits + f.man_bits)),
            hidden: k(1 << f.man_bits),
            zero16: k(0),
            has_inf: Constant::new(f.has_inf),
            exp_sub: k(exp_sub as u64),
            exp_step: k((exp_sub - 1) as u64),
        }
    }
}

impl Logic for MiniFloatUnpack {
    #[hdl_gen]
    fn update(&mut self) {
        self.exp16.next = (self.code_i.val() >> self.man_bits.val()) & self.exp_mask.val();
        self.exp.next = self.exp16.val().get_bits::<8>(0);
        self.man.next = self.code_i.val() & self.man_mask.val();
        self.sig.next = self.man.val() | self.hidden.val();
        self.sign_o.next = (self.code_i.val() & self.sign_bit.val()) != self.zero16.val();
        self.mag_o.next = bit_cast::<64, 16>(self.man.val());
        self.exp_o.next = self.exp_sub.val();
        if self.exp16.val() != self.zero16.val() {
            self.mag_o.next = bit_cast::<64, 16>(self.sig.val());
            self.exp_o.next = self.exp_step.val() + self.exp.val();
        }
        // IEEE-style: the all-ones exponent holds the infinities and NaNs;
        // otherwise only the all-ones code is NaN and nothing is infinite.
        self.nan_o.next = (self.exp16.val() == self.exp_mask.val()) & (self.man.val() == self.man_mask.val());
        self.inf_o.next = false;
        if self.has_inf.val() {
            self.nan_o.next = (self.exp16.val() == self.exp_mask.val()) & (self.man.val() != self.zero16.val());
            self.inf_o.next = (self.exp16.val() == self.exp_mask.val()) & (self.man.val() == self.zero16.val());
        }
    }
}

/// Stage 1: the dtype's bits to sign, significand and exponent base, or a
/// value that passes (FP32, BFLOAT16, NaN, infinity, Invalid).
#[derive(LogicBlock)]
pub struct ToF32Unpack {
    pub bits_i: Signal<In, Bits<64>>,
    pub dtype_i: Signal<In, Bits<4>>,
    pub sign_o: Signal<Out, Bit>,
    pub mag_o: Signal<Out, Bits<64>>,
    pub exp_o: Signal<Out, Bits<8>>,
    /// `pass_val_o` is the result.
    pub pass_o: Signal<Out, Bit>,
    pub pass_val_o: Signal<Out, Bits<32>>,
    mini_f16: MiniFloatUnpack,
    mini_e5m2: MiniFloatUnpack,
    mini_e4m3: MiniFloatUnpack,
    mini_e3m4: MiniFloatUnpack,
    mask: Signal<Local, Bits<64>>,
    top: Signal<Local, Bits<64>>,
    is_signed: Signal<Local, Bit>,
    val: Signal<Local, Bits<64>>,
    neg: Signal<Local, Bit>,
    f32: Signal<Local, Bits<32>>,
    mini_sign: Signal<Local, Bit>,
    mini_nan: Signal<Local, Bit>,
    mini_inf: Signal<Local, Bit>,
    mini: Signal<Local, Bit>,
    dt_invalid: Constant<Bits<4>>,
    dt_i8: Constant<Bits<4>>,
    dt_u8: Constant<Bits<4>>,
    dt_i16: Constant<Bits<4>>,
    dt_u16: Constant<Bits<4>>,
    dt_bf16: Constant<Bits<4>>,
    dt_f16: Constant<Bits<4>>,
    dt_i32: Constant<Bits<4>>,
    dt_u32: Constant<Bits<4>>,
    dt_f32: Constant<Bits<4>>,
    dt_f32r: Constant<Bits<4>>,
    dt_i64: Constant<Bits<4>>,
    dt_e3: Constant<Bits<4>>,
    dt_e4: Constant<Bits<4>>,
    dt_e5: Constant<Bits<4>>,
    mask8: Constant<Bits<64>>,
    mask16: Constant<Bits<64>>,
    mask32: Constant<Bits<64>>,
    mask64: Constant<Bits<64>>,
    top8: Constant<Bits<64>>,
    top16: Constant<Bits<64>>,
    top32: Constant<Bits<64>>,
    top64: Constant<Bits<64>>,
    zero64: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
    exp_int: Constant<Bits<8>>,
    exp_f32: Constant<Bits<32>>,
    man_f32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    qnan: Constant<Bits<32>>,
    inf: Constant<Bits<32>>,
    sign32: Constant<Bits<32>>,
}

impl Default for ToF32Unpack {
    fn default() -> Self {
        let dt = |d: Dtype| k::<4>(d as u64);
        Self {
            bits_i: Default::default(),
            dtype_i: Default::default(),
            sign_o: Default::default(),
            mag_o: Default::default(),
            exp_o: Default::default(),
            pass_o: Default::default(),
            pass_val_o: Default::default(),
            mini_f16: MiniFloatUnpack::new(MiniFloat::F16),
            mini_e5m2: MiniFloatUnpack::new(MiniFloat::E5M2),
            mini_e4m3: MiniFloatUnpack::new(MiniFloat::E4M3),
            mini_e3m4: MiniFloatUnpack::new(MiniFloat::E3M4),
            mask: Default::default(),
            top: Default::default(),
            is_signed: Default::default(),
            val: Default::default(),
            neg: Default::default(),
            f32: Default::default(),
            mini_sign: Default::default(),
            mini_nan: Default::default(),
            mini_inf: Default::default(),
            mini: Default::default(),
            dt_invalid: dt(Dtype::Invalid),
            dt_i8: dt(Dtype::Int8),
            dt_u8: dt(Dtype::Uint8),
            dt_i16: dt(Dtype::Int16),
            dt_u16: dt(Dtype::Uint16),
            dt_bf16: dt(Dtype::Bfloat16),
            dt_f16: dt(Dtype::Fp16),
            dt_i32: dt(Dtype::Int32),
            dt_u32: dt(Dtype::Uint32),
            dt_f32: dt(Dtype::Fp32),
            dt_f32r: dt(Dtype::Fp32r),
            dt_i64: dt(Dtype::Int64),
            dt_e3: dt(Dtype::Fp8Exp3),
            dt_e4: dt(Dtype::Fp8Exp4),
            dt_e5: dt(Dtype::Fp8Exp5),
            mask8: k(0xff),
            mask16: k(0xffff),
            mask32: k(0xffff_ffff),
            mask64: k(u64::MAX),
            top8: k(0x80),
            top16: k(0x8000),
            top32: k(0x8000_0000),
            top64: k(1 << 63),
            zero64: k(0),
            one64: k(1),
            exp_int: k(EXP_AT_63 as u64),
            exp_f32: k(0x7f80_0000),
            man_f32: k(0x007f_ffff),
            zero32: k(0),
            qnan: k(crosslane_golden::instruction::fp::CANONICAL_NAN.into()),
            inf: k(0x7f80_0000),
            sign32: k(0x8000_0000),
        }
    }
}

impl Logic for ToF32Unpack {
    #[hdl_gen]
    fn update(&mut self) {
        self.mini_f16.code_i.next = self.bits_i.val().get_bits::<16>(0);
        // (A format reads only its own low bits of the code.)
        self.mini_e5m2.code_i.next = self.bits_i.val().get_bits::<16>(0);
        self.mini_e4m3.code_i.next = self.bits_i.val().get_bits::<16>(0);
        self.mini_e3m4.code_i.next = self.bits_i.val().get_bits::<16>(0);
        // Integers: the dtype's bits, its sign bit, signed or not.
        self.mask.next = self.mask64.val();
        self.top.next = self.top64.val();
        self.is_signed.next = false;
        if (self.dtype_i.val() == self.dt_i8.val()) | (self.dtype_i.val() == self.dt_u8.val()) {
            self.mask.next = self.mask8.val();
            self.top.next = self.top8.val();
        }
        if (self.dtype_i.val() == self.dt_i16.val()) | (self.dtype_i.val() == self.dt_u16.val()) {
            self.mask.next = self.mask16.val();
            self.top.next = self.top16.val();
        }
        if (self.dtype_i.val() == self.dt_i32.val()) | (self.dtype_i.val() == self.dt_u32.val()) {
            self.mask.next = self.mask32.val();
            self.top.next = self.top32.val();
        }
        if (self.dtype_i.val() == self.dt_i8.val())
            | (self.dtype_i.val() == self.dt_i16.val())
            | (self.dtype_i.val() == self.dt_i32.val())
            | (self.dtype_i.val() == self.dt_i64.val())
        {
            self.is_signed.next = true;
        }
        self.val.next = self.bits_i.val() & self.mask.val();
        self.neg.next = self.is_signed.val() & ((self.val.val() & self.top.val()) != self.zero64.val());
        self.sign_o.next = self.neg.val();
        self.mag_o.next = self.val.val();
        if self.neg.val() {
            self.mag_o.next = ((self.val.val() ^ self.mask.val()) + self.one64.val()) & self.mask.val();
        }
        self.exp_o.next = self.exp_int.val();
        // The minifloats.
        self.mini.next = true;
        self.mini_sign.next = self.mini_f16.sign_o.val();
        self.mini_nan.next = self.mini_f16.nan_o.val();
        self.mini_inf.next = self.mini_f16.inf_o.val();
        if self.dtype_i.val() == self.dt_f16.val() {
            self.mag_o.next = self.mini_f16.mag_o.val();
            self.exp_o.next = self.mini_f16.exp_o.val();
        } else if self.dtype_i.val() == self.dt_e5.val() {
            self.mag_o.next = self.mini_e5m2.mag_o.val();
            self.exp_o.next = self.mini_e5m2.exp_o.val();
            self.mini_sign.next = self.mini_e5m2.sign_o.val();
            self.mini_nan.next = self.mini_e5m2.nan_o.val();
            self.mini_inf.next = self.mini_e5m2.inf_o.val();
        } else if self.dtype_i.val() == self.dt_e4.val() {
            self.mag_o.next = self.mini_e4m3.mag_o.val();
            self.exp_o.next = self.mini_e4m3.exp_o.val();
            self.mini_sign.next = self.mini_e4m3.sign_o.val();
            self.mini_nan.next = self.mini_e4m3.nan_o.val();
            self.mini_inf.next = self.mini_e4m3.inf_o.val();
        } else if self.dtype_i.val() == self.dt_e3.val() {
            self.mag_o.next = self.mini_e3m4.mag_o.val();
            self.exp_o.next = self.mini_e3m4.exp_o.val();
            self.mini_sign.next = self.mini_e3m4.sign_o.val();
            self.mini_nan.next = self.mini_e3m4.nan_o.val();
            self.mini_inf.next = self.mini_e3m4.inf_o.val();
        } else {
            self.mini.next = false;
        }
        if self.mini.val() {
            self.sign_o.next = self.mini_sign.val();
        }
        // What passes: FP32 and BFLOAT16 (binary32's upper half) as they
        // are, a NaN canonical, an infinity, and the Invalid dtype's 0.
        self.f32.next = self.bits_i.val().get_bits::<32>(0);
        if self.dtype_i.val() == self.dt_bf16.val() {
            self.f32.next = self.bits_i.val().get_bits::<32>(0) << 16;
        }
        self.pass_val_o.next = self.f32.val();
        if ((self.f32.val() & self.exp_f32.val()) == self.exp_f32.val())
            & ((self.f32.val() & self.man_f32.val()) != self.zero32.val())
        {
            self.pass_val_o.next = self.qnan.val();
        }
        self.pass_o.next = (self.dtype_i.val() == self.dt_f32.val())
            | (self.dtype_i.val() == self.dt_f32r.val())
            | (self.dtype_i.val() == self.dt_bf16.val());
        if self.mini.val() & self.mini_inf.val() {
            self.pass_o.next = true;
            self.pass_val_o.next = self.inf.val();
            if self.mini_sign.val() {
                self.pass_val_o.next = self.inf.val() | self.sign32.val();
            }
        }
        if self.mini.val() & self.mini_nan.val() {
            self.pass_o.next = true;
            self.pass_val_o.next = self.qnan.val();
        }
        if self.dtype_i.val() == self.dt_invalid.val() {
            self.pass_o.next = true;
            self.pass_val_o.next = self.zero32.val();
        }
    }
}

/// Stage 2: the leading zeros of the significand counted and shifted out.
#[derive(LogicBlock)]
pub struct ToF32Normalize {
    pub mag_i: Signal<In, Bits<64>>,
    pub exp_i: Signal<In, Bits<8>>,
    /// `{23 fraction bits, guard, sticky}` (the leading one is implied by
    /// the exponent field).
    pub man_o: Signal<Out, Bits<25>>,
    /// The exponent field before rounding.
    pub exp_o: Signal<Out, Bits<8>>,
    pub zero_o: Signal<Out, Bit>,
    t0: Signal<Local, Bits<63>>,
    t1: Signal<Local, Bits<31>>,
    t2: Signal<Local, Bits<15>>,
    t3: Signal<Local, Bits<7>>,
    t4: Signal<Local, Bits<3>>,
    msb: Signal<Local, Bit>,
    c32: Signal<Local, Bits<6>>,
    c16: Signal<Local, Bits<6>>,
    c8: Signal<Local, Bits<6>>,
    c4: Signal<Local, Bits<6>>,
    c2: Signal<Local, Bits<6>>,
    lz: Signal<Local, Bits<6>>,
    /// The significand shifted, without its leading one (bit 63 of the shift).
    shifted: Signal<Local, Bits<63>>,
    zero64: Constant<Bits<64>>,
    zero32: Constant<Bits<32>>,
    zero16: Constant<Bits<16>>,
    zero8: Constant<Bits<8>>,
    zero4: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    zero38: Constant<Bits<38>>,
    lz0: Constant<Bits<6>>,
    lz32: Constant<Bits<6>>,
    lz16: Constant<Bits<6>>,
    lz8: Constant<Bits<6>>,
    lz4: Constant<Bits<6>>,
    lz2: Constant<Bits<6>>,
    lz1: Constant<Bits<6>>,
    sticky: Constant<Bits<25>>,
}

impl Default for ToF32Normalize {
    fn default() -> Self {
        Self {
            mag_i: Default::default(),
            exp_i: Default::default(),
            man_o: Default::default(),
            exp_o: Default::default(),
            zero_o: Default::default(),
            t0: Default::default(),
            t1: Default::default(),
            t2: Default::default(),
            t3: Default::default(),
            t4: Default::default(),
            msb: Default::default(),
            c32: Default::default(),
            c16: Default::default(),
            c8: Default::default(),
            c4: Default::default(),
            c2: Default::default(),
            lz: Default::default(),
            shifted: Default::default(),
            zero64: k(0),
            zero32: k(0),
            zero16: k(0),
            zero8: k(0),
            zero4: k(0),
            zero2: k(0),
            zero38: k(0),
            lz0: k(0),
            lz32: k(32),
            lz16: k(16),
            lz8: k(8),
            lz4: k(4),
            lz2: k(2),
            lz1: k(1),
            sticky: k(1),
        }
    }
}

impl Logic for ToF32Normalize {
    #[hdl_gen]
    fn update(&mut self) {
        self.zero_o.next = self.mag_i.val() == self.zero64.val();
        // Halving steps on the significand without its lowest bit, which
        // never decides a count (the significand is not 0 where it counts):
        // bit j of each t is bit j + 1 of the half it keeps.
        self.t0.next = self.mag_i.val().get_bits::<63>(1);
        self.t1.next = self.t0.val().get_bits::<31>(32);
        self.c32.next = self.lz0.val();
        if self.t0.val().get_bits::<32>(31) == self.zero32.val() {
            self.t1.next = self.t0.val().get_bits::<31>(0);
            self.c32.next = self.lz32.val();
        }
        self.t2.next = self.t1.val().get_bits::<15>(16);
        self.c16.next = self.c32.val();
        if self.t1.val().get_bits::<16>(15) == self.zero16.val() {
            self.t2.next = self.t1.val().get_bits::<15>(0);
            self.c16.next = self.c32.val() | self.lz16.val();
        }
        self.t3.next = self.t2.val().get_bits::<7>(8);
        self.c8.next = self.c16.val();
        if self.t2.val().get_bits::<8>(7) == self.zero8.val() {
            self.t3.next = self.t2.val().get_bits::<7>(0);
            self.c8.next = self.c16.val() | self.lz8.val();
        }
        self.t4.next = self.t3.val().get_bits::<3>(4);
        self.c4.next = self.c8.val();
        if self.t3.val().get_bits::<4>(3) == self.zero4.val() {
            self.t4.next = self.t3.val().get_bits::<3>(0);
            self.c4.next = self.c8.val() | self.lz4.val();
        }
        self.msb.next = self.t4.val().get_bit(2);
        self.c2.next = self.c4.val();
        if self.t4.val().get_bits::<2>(1) == self.zero2.val() {
            self.msb.next = self.t4.val().get_bit(0);
            self.c2.next = self.c4.val() | self.lz2.val();
        }
        self.lz.next = self.c2.val();
        if !self.msb.val() {
            self.lz.next = self.c2.val() | self.lz1.val();
        }
        self.shifted.next = self.mag_i.val().get_bits::<63>(0) << self.lz.val();
        // Bits 62..40 are the fraction, 39 the guard bit.
        self.man_o.next = self.shifted.val().get_bits::<25>(38);
        if self.shifted.val().get_bits::<38>(0) != self.zero38.val() {
            self.man_o.next = self.shifted.val().get_bits::<25>(38) | self.sticky.val();
        }
        self.exp_o.next = self.exp_i.val() - bit_cast::<8, 6>(self.lz.val());
    }
}

/// Stage 3: round to nearest even, pack, or what passes.
#[derive(LogicBlock)]
pub struct ToF32Round {
    pub sign_i: Signal<In, Bit>,
    pub man_i: Signal<In, Bits<25>>,
    pub exp_i: Signal<In, Bits<8>>,
    pub zero_i: Signal<In, Bit>,
    pub pass_i: Signal<In, Bit>,
    pub pass_val_i: Signal<In, Bits<32>>,
    pub f32_o: Signal<Out, Bits<32>>,
    word: Signal<Local, Bits<31>>,
    rounded: Signal<Local, Bits<31>>,
    one31: Constant<Bits<31>>,
    zero32: Constant<Bits<32>>,
    sign32: Constant<Bits<32>>,
}

impl Default for ToF32Round {
    fn default() -> Self {
        Self {
            sign_i: Default::default(),
            man_i: Default::default(),
            exp_i: Default::default(),
            zero_i: Default::default(),
            pass_i: Default::default(),
            pass_val_i: Default::default(),
            f32_o: Default::default(),
            word: Default::default(),
            rounded: Default::default(),
            one31: k(1),
            zero32: k(0),
            sign32: k(0x8000_0000),
        }
    }
}

impl Logic for ToF32Round {
    #[hdl_gen]
    fn update(&mut self) {
        self.word.next =
            (bit_cast::<31, 8>(self.exp_i.val()) << 23) | bit_cast::<31, 23>(self.man_i.val().get_bits::<23>(2));
        self.rounded.next = self.word.val();
        // Guard, and sticky or the last kept bit (ties to even).
        if self.man_i.val().get_bit(1) & (self.man_i.val().get_bit(0) | self.man_i.val().get_bit(2)) {
            self.rounded.next = self.word.val() + self.one31.val();
        }
        self.f32_o.next = bit_cast::<32, 31>(self.rounded.val());
        if self.sign_i.val() {
            self.f32_o.next = bit_cast::<32, 31>(self.rounded.val()) | self.sign32.val();
        }
        if self.zero_i.val() {
            self.f32_o.next = self.zero32.val();
            if self.sign_i.val() {
                self.f32_o.next = self.sign32.val();
            }
        }
        if self.pass_i.val() {
            self.f32_o.next = self.pass_val_i.val();
        }
    }
}

/// The converter: the three stages and their registers.
#[derive(LogicBlock)]
pub struct ToF32 {
    pub clk_i: Signal<In, Clock>,
    pub bits_i: Signal<In, Bits<64>>,
    pub dtype_i: Signal<In, Bits<4>>,
    pub f32_o: Signal<Out, Bits<32>>,
    unpack: ToF32Unpack,
    normalize: ToF32Normalize,
    round: ToF32Round,
    // After unpacking.
    u_sign: Pipe<Bit>,
    u_mag: Pipe<Bits<64>>,
    u_exp: Pipe<Bits<8>>,
    u_pass: Pipe<Bit>,
    u_pass_val: Pipe<Bits<32>>,
    // After normalizing.
    n_sign: Pipe<Bit>,
    n_man: Pipe<Bits<25>>,
    n_exp: Pipe<Bits<8>>,
    n_zero: Pipe<Bit>,
    n_pass: Pipe<Bit>,
    n_pass_val: Pipe<Bits<32>>,
    out: Pipe<Bits<32>>,
    _latency: usize,
}

impl ToF32 {
    /// The converter with `latency` registers (1, 2 or 3; see the module docs).
    pub fn new(latency: usize) -> Self {
        assert!(TO_F32_LATENCIES.contains(&latency), "ToF32 latency {latency}: 1, 2 or 3");
        let unpacked = latency >= 2;
        let normalized = latency >= 3;
        Self {
            clk_i: Default::default(),
            bits_i: Default::default(),
            dtype_i: Default::default(),
            f32_o: Default::default(),
            unpack: Default::default(),
            normalize: Default::default(),
            round: Default::default(),
            u_sign: Pipe::new(unpacked),
            u_mag: Pipe::new(unpacked),
            u_exp: Pipe::new(unpacked),
            u_pass: Pipe::new(unpacked),
            u_pass_val: Pipe::new(unpacked),
            n_sign: Pipe::new(normalized),
            n_man: Pipe::new(normalized),
            n_exp: Pipe::new(normalized),
            n_zero: Pipe::new(normalized),
            n_pass: Pipe::new(normalized),
            n_pass_val: Pipe::new(normalized),
            out: Pipe::new(true),
            _latency: latency,
        }
    }

    pub fn latency(&self) -> usize {
        self._latency
    }
}

impl Default for ToF32 {
    fn default() -> Self {
        Self::new(2)
    }
}

impl Logic for ToF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.u_sign.clock.next = self.clk_i.val();
        self.u_mag.clock.next = self.clk_i.val();
        self.u_exp.clock.next = self.clk_i.val();
        self.u_pass.clock.next = self.clk_i.val();
        self.u_pass_val.clock.next = self.clk_i.val();
        self.n_sign.clock.next = self.clk_i.val();
        self.n_man.clock.next = self.clk_i.val();
        self.n_exp.clock.next = self.clk_i.val();
        self.n_zero.clock.next = self.clk_i.val();
        self.n_pass.clock.next = self.clk_i.val();
        self.n_pass_val.clock.next = self.clk_i.val();
        self.out.clock.next = self.clk_i.val();

        self.unpack.bits_i.next = self.bits_i.val();
        self.unpack.dtype_i.next = self.dtype_i.val();
        self.u_sign.d.next = self.unpack.sign_o.val();
        self.u_mag.d.next = self.unpack.mag_o.val();
        self.u_exp.d.next = self.unpack.exp_o.val();
        self.u_pass.d.next = self.unpack.pass_o.val();
        self.u_pass_val.d.next = self.unpack.pass_val_o.val();

        self.normalize.mag_i.next = self.u_mag.q.val();
        self.normalize.exp_i.next = self.u_exp.q.val();
        self.n_sign.d.next = self.u_sign.q.val();
        self.n_man.d.next = self.normalize.man_o.val();
        self.n_exp.d.next = self.normalize.exp_o.val();
        self.n_zero.d.next = self.normalize.zero_o.val();
        self.n_pass.d.next = self.u_pass.q.val();
        self.n_pass_val.d.next = self.u_pass_val.q.val();

        self.round.sign_i.next = self.n_sign.q.val();
        self.round.man_i.next = self.n_man.q.val();
        self.round.exp_i.next = self.n_exp.q.val();
        self.round.zero_i.next = self.n_zero.q.val();
        self.round.pass_i.next = self.n_pass.q.val();
        self.round.pass_val_i.next = self.n_pass_val.q.val();
        self.out.d.next = self.round.f32_o.val();
        self.f32_o.next = self.out.q.val();
    }
}

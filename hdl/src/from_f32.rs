//! `FromF32`: a binary32 value to any out_dtype, one a clock, for the ARITH
//! ops' last step (instruction.md §4).
//!
//! Bit-exact to golden's `Dtype::from_f32`: integers round to nearest even,
//! then saturate (a NaN gives 0, a negative value 0 in an unsigned dtype);
//! BFLOAT16, FP16 and the fp8 formats round to nearest even, overflow to
//! ±inf where the format has one (BFLOAT16, FP16, FP8_EXP5) and to ±max
//! finite where it has none (FP8_EXP4, FP8_EXP3, an infinity too), a NaN
//! gives the format's positive quiet NaN; FP32 and FP32R pass, a NaN
//! canonical (D50); the Invalid dtype gives 0. The result is in the low
//! bits of `bits_o`, the bits above the dtype's width 0.
//!
//! One datapath for every dtype. The value is `sig24` × 2^(e − 150) (the
//! significand with its hidden bit, e the exponent field, 1 for a
//! subnormal). [`FromF32Align`] picks the right shift that leaves the
//! target's last kept bit at bit 0 (a float format's quantum at this
//! magnitude, or 2^0 for an integer) or, for an integer of 2^24 and more,
//! the left shift; [`FromF32Shift`] shifts, keeping guard and sticky, and
//! rounds; [`FromF32Pack`] packs the float code (the hidden bit carries into
//! the exponent field, so a subnormal that rounds up becomes normal) or
//! saturates the integer.
//!
//! Latency is a parameter ([`FromF32::new`]): 1, 2 or 3.

use crate::k;
use crate::pipe::Pipe;
use crosslane_golden::instruction::dtype::{Dtype, MiniFloat};
use rust_hdl::prelude::*;

/// The latencies [`FromF32::new`] builds.
pub const FROM_F32_LATENCIES: [usize; 3] = [1, 2, 3];

/// The right shift that leaves a float format's last kept bit at bit 0 of
/// a 24-bit significand is `23 − man_bits` more its subnormal shift.
const SIG_LAST: u64 = 23;

/// Stage 1: the fields, the shift, the exponent field's base.
#[derive(LogicBlock)]
pub struct FromF32Align {
    /// The value's magnitude bits (its sign is not needed here).
    pub x_i: Signal<In, Bits<31>>,
    pub dtype_i: Signal<In, Bits<4>>,
    /// The significand with its hidden bit.
    pub sig_o: Signal<Out, Bits<24>>,
    pub rshift_o: Signal<Out, Bits<6>>,
    pub lshift_o: Signal<Out, Bits<6>>,
    /// Beyond every format's range: an integer of 2^64 or more, a float
    /// whose exponent is past the format's largest (infinities too).
    pub huge_o: Signal<Out, Bit>,
    pub nan_o: Signal<Out, Bit>,
    /// A float format's exponent field less one for the hidden bit to carry
    /// into (0 for a subnormal result).
    pub tm1_o: Signal<Out, Bits<10>>,
    exp: Signal<Local, Bits<8>>,
    exp_eff: Signal<Local, Bits<10>>,
    tm1: Signal<Local, Bits<10>>,
    lshift: Signal<Local, Bits<10>>,
    te_off: Signal<Local, Bits<10>>,
    extra: Signal<Local, Bits<10>>,
    rshift_f: Signal<Local, Bits<10>>,
    rshift_i: Signal<Local, Bits<10>>,
    bias: Signal<Local, Bits<10>>,
    man_bits: Signal<Local, Bits<10>>,
    exp_max: Signal<Local, Bits<10>>,
    mini: Signal<Local, Bit>,
    dt_bf16: Constant<Bits<4>>,
    dt_f16: Constant<Bits<4>>,
    dt_e3: Constant<Bits<4>>,
    dt_e4: Constant<Bits<4>>,
    dt_e5: Constant<Bits<4>>,
    bias_bf16: Constant<Bits<10>>,
    bias_f16: Constant<Bits<10>>,
    bias_e3: Constant<Bits<10>>,
    bias_e4: Constant<Bits<10>>,
    bias_e5: Constant<Bits<10>>,
    mb_bf16: Constant<Bits<10>>,
    mb_f16: Constant<Bits<10>>,
    mb_e3: Constant<Bits<10>>,
    mb_e4: Constant<Bits<10>>,
    mb_e5: Constant<Bits<10>>,
    em_bf16: Constant<Bits<10>>,
    em_f16: Constant<Bits<10>>,
    em_e3: Constant<Bits<10>>,
    em_e4: Constant<Bits<10>>,
    em_e5: Constant<Bits<10>>,
    zero8: Constant<Bits<8>>,
    zero10: Constant<Bits<10>>,
    zero23: Constant<Bits<23>>,
    ones8: Constant<Bits<8>>,
    hidden: Constant<Bits<24>>,
    one10: Constant<Bits<10>>,
    k128: Constant<Bits<10>>,
    k150: Constant<Bits<10>>,
    k40: Constant<Bits<10>>,
    sig_last: Constant<Bits<10>>,
    max_shift: Constant<Bits<10>>,
    max_shift6: Constant<Bits<6>>,
    zero6: Constant<Bits<6>>,
}

impl Default for FromF32Align {
    fn default() -> Self {
        let dt = |d: Dtype| k::<4>(d as u64);
        let bias = |f: MiniFloat| k::<10>(f.bias as u64);
        let mb = |f: MiniFloat| k::<10>(f.man_bits.into());
        let em = |f: MiniFloat| k::<10>((1 << f.exp_bits) - 1);
        Self {
            x_i: Default::default(),
            dtype_i: Default::default(),
            sig_o: Default::default(),
            rshift_o: Default::default(),
            lshift_o: Default::default(),
            huge_o: Default::default(),
            nan_o: Default::default(),
            tm1_o: Default::default(),
            exp: Default::default(),
            exp_eff: Default::default(),
            tm1: Default::default(),
            lshift: Default::default(),
            te_off: Default::default(),
            extra: Default::default(),
            rshift_f: Default::default(),
            rshift_i: Default::default(),
            bias: Default::default(),
            man_bits: Default::default(),
            exp_max: Default::default(),
            mini: Default::default(),
            dt_bf16: dt(Dtype::Bfloat16),
            dt_f16: dt(Dtype::Fp16),
            dt_e3: dt(Dtype::Fp8Exp3),
            dt_e4: dt(Dtype::Fp8Exp4),
            dt_e5: dt(Dtype::Fp8Exp5),
            bias_bf16: bias(MiniFloat::BF16),
            bias_f16: bias(MiniFloat::F16),
            bias_e3: bias(MiniFloat::E3M4),
            bias_e4: bias(MiniFloat::E4M3),
            bias_e5: bias(MiniFloat::E5M2),
            mb_bf16: mb(MiniFloat::BF16),
            mb_f16: mb(MiniFloat::F16),
            mb_e3: mb(MiniFloat::E3M4),
            mb_e4: mb(MiniFloat::E4M3),
            mb_e5: mb(MiniFloat::E5M2),
            em_bf16: em(MiniFloat::BF16),
            em_f16: em(MiniFloat::F16),
            em_e3: em(MiniFloat::E3M4),
            em_e4: em(MiniFloat::E4M3),
            em_e5: em(MiniFloat::E5M2),
            zero8: k(0),
            zero10: k(0),
            zero23: k(0),
            ones8: k(0xff),
            hidden: k(1 << 23),
            one10: k(1),
            k128: k(128),
            k150: k(150),
            k40: k(40),
            sig_last: k(SIG_LAST),
            max_shift: k(63),
            max_shift6: k(63),
            zero6: k(0),
        }
    }
}

impl Logic for FromF32Align {
    #[hdl_gen]
    fn update(&mut self) {
        self.exp.next = self.x_i.val().get_bits::<8>(23);
        self.sig_o.next = bit_cast::<24, 23>(self.x_i.val().get_bits::<23>(0));
        self.exp_eff.next = self.one10.val();
        if self.exp.val() != self.zero8.val() {
            self.sig_o.next = bit_cast::<24, 23>(self.x_i.val().get_bits::<23>(0)) | self.hidden.val();
            self.exp_eff.next = bit_cast::<10, 8>(self.exp.val());
        }
        self.nan_o.next =
            (self.exp.val() == self.ones8.val()) & (self.x_i.val().get_bits::<23>(0) != self.zero23.val());
        // The float formats' constants.
        self.mini.next = true;
        self.bias.next = self.bias_f16.val();
        self.man_bits.next = self.mb_f16.val();
        self.exp_max.next = self.em_f16.val();
        if self.dtype_i.val() == self.dt_bf16.val() {
            self.bias.next = self.bias_bf16.val();
            self.man_bits.next = self.mb_bf16.val();
            self.exp_max.next = self.em_bf16.val();
        } else if self.dtype_i.val() == self.dt_e5.val() {
            self.bias.next = self.bias_e5.val();
            self.man_bits.next = self.mb_e5.val();
            self.exp_max.next = self.em_e5.val();
        } else if self.dtype_i.val() == self.dt_e4.val() {
            self.bias.next = self.bias_e4.val();
            self.man_bits.next = self.mb_e4.val();
            self.exp_max.next = self.em_e4.val();
        } else if self.dtype_i.val() == self.dt_e3.val() {
            self.bias.next = self.bias_e3.val();
            self.man_bits.next = self.mb_e3.val();
            self.exp_max.next = self.em_e3.val();
        } else if self.dtype_i.val() != self.dt_f16.val() {
            self.mini.next = false;
        }
        // A float: its exponent field would be te = e + bias − 127; from 1
        // up the hidden bit carries into tm1 = te − 1, below it the
        // significand shifts right by 1 − te more (a subnormal result).
        self.te_off.next = self.exp_eff.val() + self.bias.val();
        self.tm1.next = self.zero10.val();
        self.extra.next = self.k128.val() - self.te_off.val();
        if self.te_off.val() >= self.k128.val() {
            self.tm1.next = self.te_off.val() - self.k128.val();
            self.extra.next = self.zero10.val();
        }
        self.tm1_o.next = self.tm1.val();
        self.rshift_f.next = self.sig_last.val() - self.man_bits.val() + self.extra.val();
        // An integer: value = sig × 2^(e − 150).
        self.rshift_i.next = self.k150.val() - self.exp_eff.val();
        self.lshift.next = self.exp_eff.val() - self.k150.val();
        self.lshift_o.next = self.zero6.val();
        self.huge_o.next = false;
        if self.exp_eff.val() >= self.k150.val() {
            self.rshift_i.next = self.zero10.val();
            self.lshift_o.next = self.lshift.val().get_bits::<6>(0);
            // 2^64 and more: a left shift past 40.
            self.huge_o.next = self.lshift.val() > self.k40.val();
        }
        if self.mini.val() {
            self.huge_o.next = self.tm1.val() >= self.exp_max.val();
            self.rshift_i.next = self.rshift_f.val();
            self.lshift_o.next = self.zero6.val();
        }
        self.rshift_o.next = self.rshift_i.val().get_bits::<6>(0);
        if self.rshift_i.val() > self.max_shift.val() {
            self.rshift_o.next = self.max_shift6.val();
        }
    }
}

/// Stage 2: shift, keeping guard and sticky, and round to nearest even
/// (or, for an integer of 2^24 and more, shift left).
#[derive(LogicBlock)]
pub struct FromF32Shift {
    pub sig_i: Signal<In, Bits<24>>,
    pub rshift_i: Signal<In, Bits<6>>,
    pub lshift_i: Signal<In, Bits<6>>,
    /// The rounded magnitude in units of the last kept bit.
    pub mag_o: Signal<Out, Bits<64>>,
    wide: Signal<Local, Bits<64>>,
    shifted: Signal<Local, Bits<64>>,
    kept: Signal<Local, Bits<64>>,
    zero6: Constant<Bits<6>>,
    zero39: Constant<Bits<64>>,
    low39: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
}

impl Default for FromF32Shift {
    fn default() -> Self {
        Self {
            sig_i: Default::default(),
            rshift_i: Default::default(),
            lshift_i: Default::default(),
            mag_o: Default::default(),
            wide: Default::default(),
            shifted: Default::default(),
            kept: Default::default(),
            zero6: k(0),
            zero39: k(0),
            low39: k((1 << 39) - 1),
            one64: k(1),
        }
    }
}

impl Logic for FromF32Shift {
    #[hdl_gen]
    fn update(&mut self) {
        // The significand at the top: bit 40 is its last bit unshifted.
        self.wide.next = bit_cast::<64, 24>(self.sig_i.val()) << 40;
        self.shifted.next = self.wide.val() >> self.rshift_i.val();
        self.kept.next = self.shifted.val() >> 40;
        self.mag_o.next = self.kept.val();
        // Guard, and sticky or the last kept bit (ties to even).
        if self.shifted.val().get_bit(39)
            & (((self.shifted.val() & self.low39.val()) != self.zero39.val()) | self.shifted.val().get_bit(40))
        {
            self.mag_o.next = self.kept.val() + self.one64.val();
        }
        if self.lshift_i.val() != self.zero6.val() {
            self.mag_o.next = bit_cast::<64, 24>(self.sig_i.val()) << self.lshift_i.val();
        }
    }
}

/// Stage 3: the float code packed, or the integer saturated, or what passes.
#[derive(LogicBlock)]
pub struct FromF32Pack {
    pub x_i: Signal<In, Bits<32>>,
    pub dtype_i: Signal<In, Bits<4>>,
    pub mag_i: Signal<In, Bits<64>>,
    pub tm1_i: Signal<In, Bits<10>>,
    pub huge_i: Signal<In, Bit>,
    pub nan_i: Signal<In, Bit>,
    pub bits_o: Signal<Out, Bits<64>>,
    mb: Signal<Local, Bits<16>>,
    max_finite: Signal<Local, Bits<16>>,
    overflow: Signal<Local, Bits<16>>,
    qnan: Signal<Local, Bits<16>>,
    sign_bit: Signal<Local, Bits<16>>,
    is_mini: Signal<Local, Bit>,
    word: Signal<Local, Bits<16>>,
    code: Signal<Local, Bits<16>>,
    limit: Signal<Local, Bits<64>>,
    min: Signal<Local, Bits<64>>,
    mask: Signal<Local, Bits<64>>,
    is_signed: Signal<Local, Bit>,
    is_int: Signal<Local, Bit>,
    neg: Signal<Local, Bit>,
    ires: Signal<Local, Bits<64>>,
    f32: Signal<Local, Bits<32>>,
    dt_bf16: Constant<Bits<4>>,
    bf16_mb: Constant<Bits<16>>,
    bf16_maxf: Constant<Bits<16>>,
    bf16_ovf: Constant<Bits<16>>,
    bf16_qnan: Constant<Bits<16>>,
    bf16_sign: Constant<Bits<16>>,
    dt_f16: Constant<Bits<4>>,
    f16_mb: Constant<Bits<16>>,
    f16_maxf: Constant<Bits<16>>,
    f16_ovf: Constant<Bits<16>>,
    f16_qnan: Constant<Bits<16>>,
    f16_sign: Constant<Bits<16>>,
    dt_e5: Constant<Bits<4>>,
    e5_mb: Constant<Bits<16>>,
    e5_maxf: Constant<Bits<16>>,
    e5_ovf: Constant<Bits<16>>,
    e5_qnan: Constant<Bits<16>>,
    e5_sign: Constant<Bits<16>>,
    dt_e4: Constant<Bits<4>>,
    e4_mb: Constant<Bits<16>>,
    e4_maxf: Constant<Bits<16>>,
    e4_ovf: Constant<Bits<16>>,
    e4_qnan: Constant<Bits<16>>,
    e4_sign: Constant<Bits<16>>,
    dt_e3: Constant<Bits<4>>,
    e3_mb: Constant<Bits<16>>,
    e3_maxf: Constant<Bits<16>>,
    e3_ovf: Constant<Bits<16>>,
    e3_qnan: Constant<Bits<16>>,
    e3_sign: Constant<Bits<16>>,
    dt_i8: Constant<Bits<4>>,
    dt_u8: Constant<Bits<4>>,
    dt_i16: Constant<Bits<4>>,
    dt_u16: Constant<Bits<4>>,
    dt_i32: Constant<Bits<4>>,
    dt_u32: Constant<Bits<4>>,
    dt_i64: Constant<Bits<4>>,
    dt_u64: Constant<Bits<4>>,
    mask8: Constant<Bits<64>>,
    smax8: Constant<Bits<64>>,
    smin8: Constant<Bits<64>>,
    mask16: Constant<Bits<64>>,
    smax16: Constant<Bits<64>>,
    smin16: Constant<Bits<64>>,
    mask32: Constant<Bits<64>>,
    smax32: Constant<Bits<64>>,
    smin32: Constant<Bits<64>>,
    mask64: Constant<Bits<64>>,
    smax64: Constant<Bits<64>>,
    smin64: Constant<Bits<64>>,
    dt_f32: Constant<Bits<4>>,
    dt_f32r: Constant<Bits<4>>,
    zero64: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
    exp_f32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    man_f32: Constant<Bits<32>>,
    qnan32: Constant<Bits<32>>,
}

impl Default for FromF32Pack {
    fn default() -> Self {
        // man_bits, max finite, what an overflow gives (the infinity or the
        // largest finite), the quiet NaN, the sign bit.
        let fmt = |f: MiniFloat| -> [Constant<Bits<16>>; 5] {
            let exp_max = (1u64 << f.exp_bits) - 1;
            [
                k(f.man_bits.into()),
                k(f.max_finite().into()),
                k(if f.has_inf { exp_max << f.man_bits } else { f.max_finite().into() }),
                k(f.qnan().into()),
                k(1 << (f.exp_bits + f.man_bits)),
            ]
        };
        Self {
            x_i: Default::default(),
            dtype_i: Default::default(),
            mag_i: Default::default(),
            tm1_i: Default::default(),
            huge_i: Default::default(),
            nan_i: Default::default(),
            bits_o: Default::default(),
            mb: Default::default(),
            max_finite: Default::default(),
            overflow: Default::default(),
            qnan: Default::default(),
            sign_bit: Default::default(),
            is_mini: Default::default(),
            word: Default::default(),
            code: Default::default(),
            limit: Default::default(),
            min: Default::default(),
            mask: Default::default(),
            is_signed: Default::default(),
            is_int: Default::default(),
            neg: Default::default(),
            ires: Default::default(),
            f32: Default::default(),
            dt_bf16: k(Dtype::Bfloat16 as u64),
            bf16_mb: fmt(MiniFloat::BF16)[0],
            bf16_maxf: fmt(MiniFloat::BF16)[1],
            bf16_ovf: fmt(MiniFloat::BF16)[2],
            bf16_qnan: fmt(MiniFloat::BF16)[3],
            bf16_sign: fmt(MiniFloat::BF16)[4],
            dt_f16: k(Dtype::Fp16 as u64),
            f16_mb: fmt(MiniFloat::F16)[0],
            f16_maxf: fmt(MiniFloat::F16)[1],
            f16_ovf: fmt(MiniFloat::F16)[2],
            f16_qnan: fmt(MiniFloat::F16)[3],
            f16_sign: fmt(MiniFloat::F16)[4],
            dt_e5: k(Dtype::Fp8Exp5 as u64),
            e5_mb: fmt(MiniFloat::E5M2)[0],
            e5_maxf: fmt(MiniFloat::E5M2)[1],
            e5_ovf: fmt(MiniFloat::E5M2)[2],
            e5_qnan: fmt(MiniFloat::E5M2)[3],
            e5_sign: fmt(MiniFloat::E5M2)[4],
            dt_e4: k(Dtype::Fp8Exp4 as u64),
            e4_mb: fmt(MiniFloat::E4M3)[0],
            e4_maxf: fmt(MiniFloat::E4M3)[1],
            e4_ovf: fmt(MiniFloat::E4M3)[2],
            e4_qnan: fmt(MiniFloat::E4M3)[3],
            e4_sign: fmt(MiniFloat::E4M3)[4],
            dt_e3: k(Dtype::Fp8Exp3 as u64),
            e3_mb: fmt(MiniFloat::E3M4)[0],
            e3_maxf: fmt(MiniFloat::E3M4)[1],
            e3_ovf: fmt(MiniFloat::E3M4)[2],
            e3_qnan: fmt(MiniFloat::E3M4)[3],
            e3_sign: fmt(MiniFloat::E3M4)[4],
            dt_i8: k(Dtype::Int8 as u64),
            dt_u8: k(Dtype::Uint8 as u64),
            dt_i16: k(Dtype::Int16 as u64),
            dt_u16: k(Dtype::Uint16 as u64),
            dt_i32: k(Dtype::Int32 as u64),
            dt_u32: k(Dtype::Uint32 as u64),
            dt_i64: k(Dtype::Int64 as u64),
            dt_u64: k(Dtype::Uint64 as u64),
            mask8: k(0xff_u64),
            smax8: k(u64::MAX >> 57),
            smin8: k(1 << 7),
            mask16: k(0xffff_u64),
            smax16: k(u64::MAX >> 49),
            smin16: k(1 << 15),
            mask32: k(0xffffffff_u64),
            smax32: k(u64::MAX >> 33),
            smin32: k(1 << 31),
            mask64: k(0xffffffffffffffff_u64),
            smax64: k(u64::MAX >> 1),
            smin64: k(1 << 63),
            dt_f32: k(Dtype::Fp32 as u64),
            dt_f32r: k(Dtype::Fp32r as u64),
            zero64: k(0),
            one64: k(1),
            exp_f32: k(0x7f80_0000),
            zero32: k(0),
            man_f32: k(0x007f_ffff),
            qnan32: k(crosslane_golden::instruction::fp::CANONICAL_NAN.into()),
        }
    }
}

impl Logic for FromF32Pack {
    #[hdl_gen]
    fn update(&mut self) {
        // A float format: its constants by the dtype.
        self.is_mini.next = true;
        self.mb.next = self.bf16_mb.val();
        self.max_finite.next = self.bf16_maxf.val();
        self.overflow.next = self.bf16_ovf.val();
        self.qnan.next = self.bf16_qnan.val();
        self.sign_bit.next = self.bf16_sign.val();
        if self.dtype_i.val() == self.dt_bf16.val() {
            self.mb.next = self.bf16_mb.val();
            self.max_finite.next = self.bf16_maxf.val();
            self.overflow.next = self.bf16_ovf.val();
            self.qnan.next = self.bf16_qnan.val();
            self.sign_bit.next = self.bf16_sign.val();
        } else if self.dtype_i.val() == self.dt_f16.val() {
            self.mb.next = self.f16_mb.val();
            self.max_finite.next = self.f16_maxf.val();
            self.overflow.next = self.f16_ovf.val();
            self.qnan.next = self.f16_qnan.val();
            self.sign_bit.next = self.f16_sign.val();
        } else if self.dtype_i.val() == self.dt_e5.val() {
            self.mb.next = self.e5_mb.val();
            self.max_finite.next = self.e5_maxf.val();
            self.overflow.next = self.e5_ovf.val();
            self.qnan.next = self.e5_qnan.val();
            self.sign_bit.next = self.e5_sign.val();
        } else if self.dtype_i.val() == self.dt_e4.val() {
            self.mb.next = self.e4_mb.val();
            self.max_finite.next = self.e4_maxf.val();
            self.overflow.next = self.e4_ovf.val();
            self.qnan.next = self.e4_qnan.val();
            self.sign_bit.next = self.e4_sign.val();
        } else if self.dtype_i.val() == self.dt_e3.val() {
            self.mb.next = self.e3_mb.val();
            self.max_finite.next = self.e3_maxf.val();
            self.overflow.next = self.e3_ovf.val();
            self.qnan.next = self.e3_qnan.val();
            self.sign_bit.next = self.e3_sign.val();
        } else {
            self.is_mini.next = false;
        }
        // The hidden bit (mag's bit man_bits, or bit man_bits + 1 after a
        // carry) adds into the exponent field.
        self.word.next = (bit_cast::<16, 10>(self.tm1_i.val()) << self.mb.val()) + self.mag_i.val().get_bits::<16>(0);
        self.code.next = self.word.val();
        if self.huge_i.val() | (self.word.val() > self.max_finite.val()) {
            self.code.next = self.overflow.val();
        }
        if self.x_i.val().get_bit(31) {
            self.code.next = self.word.val() | self.sign_bit.val();
            if self.huge_i.val() | (self.word.val() > self.max_finite.val()) {
                self.code.next = self.overflow.val() | self.sign_bit.val();
            }
        }
        if self.nan_i.val() {
            self.code.next = self.qnan.val();
        }
        // An integer: its width and signedness by the dtype.
        self.is_int.next = true;
        self.is_signed.next = false;
        self.mask.next = self.mask64.val();
        self.limit.next = self.mask64.val();
        self.min.next = self.smin64.val();
        if self.dtype_i.val() == self.dt_i8.val() {
            self.mask.next = self.mask8.val();
            self.limit.next = self.smax8.val();
            self.min.next = self.smin8.val();
            self.is_signed.next = true;
        } else if self.dtype_i.val() == self.dt_u8.val() {
            self.mask.next = self.mask8.val();
            self.limit.next = self.mask8.val();
            self.min.next = self.smin8.val();
        } else if self.dtype_i.val() == self.dt_i16.val() {
            self.mask.next = self.mask16.val();
            self.limit.next = self.smax16.val();
            self.min.next = self.smin16.val();
            self.is_signed.next = true;
        } else if self.dtype_i.val() == self.dt_u16.val() {
            self.mask.next = self.mask16.val();
            self.limit.next = self.mask16.val();
            self.min.next = self.smin16.val();
        } else if self.dtype_i.val() == self.dt_i32.val() {
            self.mask.next = self.mask32.val();
            self.limit.next = self.smax32.val();
            self.min.next = self.smin32.val();
            self.is_signed.next = true;
        } else if self.dtype_i.val() == self.dt_u32.val() {
            self.mask.next = self.mask32.val();
            self.limit.next = self.mask32.val();
            self.min.next = self.smin32.val();
        } else if self.dtype_i.val() == self.dt_i64.val() {
            self.mask.next = self.mask64.val();
            self.limit.next = self.smax64.val();
            self.min.next = self.smin64.val();
            self.is_signed.next = true;
        } else if self.dtype_i.val() == self.dt_u64.val() {
            self.mask.next = self.mask64.val();
            self.limit.next = self.mask64.val();
            self.min.next = self.smin64.val();
        } else {
            self.is_int.next = false;
        }
        self.neg.next = self.x_i.val().get_bit(31) & (self.huge_i.val() | (self.mag_i.val() != self.zero64.val()));
        self.ires.next = self.mag_i.val();
        if self.huge_i.val() | (self.mag_i.val() > self.limit.val()) {
            self.ires.next = self.limit.val();
        }
        if self.neg.val() {
            self.ires.next = self.zero64.val();
            if self.is_signed.val() {
                self.ires.next = ((self.mag_i.val() ^ self.mask.val()) + self.one64.val()) & self.mask.val();
                if self.huge_i.val() | (self.mag_i.val() > self.min.val()) {
                    self.ires.next = self.min.val();
                }
            }
        }
        if self.nan_i.val() {
            self.ires.next = self.zero64.val();
        }
        // FP32 and FP32R pass, a NaN canonical.
        self.f32.next = self.x_i.val();
        if ((self.x_i.val() & self.exp_f32.val()) == self.exp_f32.val())
            & ((self.x_i.val() & self.man_f32.val()) != self.zero32.val())
        {
            self.f32.next = self.qnan32.val();
        }
        self.bits_o.next = self.zero64.val();
        if self.is_mini.val() {
            self.bits_o.next = bit_cast::<64, 16>(self.code.val());
        }
        if self.is_int.val() {
            self.bits_o.next = self.ires.val();
        }
        if (self.dtype_i.val() == self.dt_f32.val()) | (self.dtype_i.val() == self.dt_f32r.val()) {
            self.bits_o.next = bit_cast::<64, 32>(self.f32.val());
        }
    }
}

/// The converter: the three stages and their registers.
#[derive(LogicBlock)]
pub struct FromF32 {
    pub clk_i: Signal<In, Clock>,
    pub x_i: Signal<In, Bits<32>>,
    pub dtype_i: Signal<In, Bits<4>>,
    pub bits_o: Signal<Out, Bits<64>>,
    align: FromF32Align,
    shift: FromF32Shift,
    pack: FromF32Pack,
    // After alignment.
    a_x: Pipe<Bits<32>>,
    a_dtype: Pipe<Bits<4>>,
    a_sig: Pipe<Bits<24>>,
    a_rshift: Pipe<Bits<6>>,
    a_lshift: Pipe<Bits<6>>,
    a_tm1: Pipe<Bits<10>>,
    a_huge: Pipe<Bit>,
    a_nan: Pipe<Bit>,
    // After the shift.
    s_x: Pipe<Bits<32>>,
    s_dtype: Pipe<Bits<4>>,
    s_mag: Pipe<Bits<64>>,
    s_tm1: Pipe<Bits<10>>,
    s_huge: Pipe<Bit>,
    s_nan: Pipe<Bit>,
    out: Pipe<Bits<64>>,
    _latency: usize,
}

impl FromF32 {
    /// The converter with `latency` registers (1, 2 or 3).
    pub fn new(latency: usize) -> Self {
        assert!(FROM_F32_LATENCIES.contains(&latency), "FromF32 latency {latency}: 1, 2 or 3");
        let aligned = latency >= 2;
        let shifted = latency >= 3;
        Self {
            clk_i: Default::default(),
            x_i: Default::default(),
            dtype_i: Default::default(),
            bits_o: Default::default(),
            align: Default::default(),
            shift: Default::default(),
            pack: Default::default(),
            a_x: Pipe::new(aligned),
            a_dtype: Pipe::new(aligned),
            a_sig: Pipe::new(aligned),
            a_rshift: Pipe::new(aligned),
            a_lshift: Pipe::new(aligned),
            a_tm1: Pipe::new(aligned),
            a_huge: Pipe::new(aligned),
            a_nan: Pipe::new(aligned),
            s_x: Pipe::new(shifted),
            s_dtype: Pipe::new(shifted),
            s_mag: Pipe::new(shifted),
            s_tm1: Pipe::new(shifted),
            s_huge: Pipe::new(shifted),
            s_nan: Pipe::new(shifted),
            out: Pipe::new(true),
            _latency: latency,
        }
    }

    pub fn latency(&self) -> usize {
        self._latency
    }
}

impl Default for FromF32 {
    fn default() -> Self {
        Self::new(2)
    }
}

impl Logic for FromF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.a_x.clock.next = self.clk_i.val();
        self.a_dtype.clock.next = self.clk_i.val();
        self.a_sig.clock.next = self.clk_i.val();
        self.a_rshift.clock.next = self.clk_i.val();
        self.a_lshift.clock.next = self.clk_i.val();
        self.a_tm1.clock.next = self.clk_i.val();
        self.a_huge.clock.next = self.clk_i.val();
        self.a_nan.clock.next = self.clk_i.val();
        self.s_x.clock.next = self.clk_i.val();
        self.s_dtype.clock.next = self.clk_i.val();
        self.s_mag.clock.next = self.clk_i.val();
        self.s_tm1.clock.next = self.clk_i.val();
        self.s_huge.clock.next = self.clk_i.val();
        self.s_nan.clock.next = self.clk_i.val();
        self.out.clock.next = self.clk_i.val();

        self.align.x_i.next = self.x_i.val().get_bits::<31>(0);
        self.align.dtype_i.next = self.dtype_i.val();
        self.a_x.d.next = self.x_i.val();
        self.a_dtype.d.next = self.dtype_i.val();
        self.a_sig.d.next = self.align.sig_o.val();
        self.a_rshift.d.next = self.align.rshift_o.val();
        self.a_lshift.d.next = self.align.lshift_o.val();
        self.a_tm1.d.next = self.align.tm1_o.val();
        self.a_huge.d.next = self.align.huge_o.val();
        self.a_nan.d.next = self.align.nan_o.val();

        self.shift.sig_i.next = self.a_sig.q.val();
        self.shift.rshift_i.next = self.a_rshift.q.val();
        self.shift.lshift_i.next = self.a_lshift.q.val();
        self.s_x.d.next = self.a_x.q.val();
        self.s_dtype.d.next = self.a_dtype.q.val();
        self.s_mag.d.next = self.shift.mag_o.val();
        self.s_tm1.d.next = self.a_tm1.q.val();
        self.s_huge.d.next = self.a_huge.q.val();
        self.s_nan.d.next = self.a_nan.q.val();

        self.pack.x_i.next = self.s_x.q.val();
        self.pack.dtype_i.next = self.s_dtype.q.val();
        self.pack.mag_i.next = self.s_mag.q.val();
        self.pack.tm1_i.next = self.s_tm1.q.val();
        self.pack.huge_i.next = self.s_huge.q.val();
        self.pack.nan_i.next = self.s_nan.q.val();
        self.out.d.next = self.pack.bits_o.val();
        self.bits_o.next = self.out.q.val();
    }
}

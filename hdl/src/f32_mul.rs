//! `F32Mul`: IEEE 754 binary32 multiplication, round to nearest even, one
//! operation a clock, for AVERAGE's element × `scale` (instruction.md §4).
//!
//! Bit-exact to golden's `instruction::fp::mul`: subnormal inputs and
//! results kept (no flush), the sign of every result (zeros included) the
//! exclusive or of the operands' signs, an infinity times a nonzero number
//! an infinity, `inf × 0` and any NaN operand the canonical quiet NaN
//! 0x7fc00000 (D50; no NaN propagation). No exception flags.
//!
//! Three stages:
//!
//! 1. [`MulUnpack`]: the significands with their hidden bits (a subnormal
//!    has none and exponent 1), the sum of the exponent fields, the special
//!    cases; the 24 × 24-bit product as four 12 × 12-bit partial products
//!    (rust-hdl multiplies 16 × 16 bits; each partial product is one
//!    18 × 18 DSP on ECP5).
//! 2. [`MulNormalize`]: the partial products summed to the 48-bit product
//!    `p`. With `p`'s bits 47..24 read as the significand, a left shift by
//!    `L` gives exponent field `ea + eb − 126 − L`. The shift is the leading
//!    zeros of `p` (a subnormal operand leaves some) but at most
//!    `ea + eb − 127` (a bit planted there stops the count), so a product
//!    below the normal range comes out a subnormal with field 0; where
//!    `ea + eb < 127` it shifts right by `127 − ea − eb` instead (at most
//!    48: beyond, everything is sticky), the bits out or-ed into sticky.
//! 3. [`AddRound`] (the adder's, shared): `{exponent field, fraction}` plus
//!    the round-to-nearest-even increment, so a fraction that rounds up
//!    carries into the exponent (a subnormal becomes normal, the largest
//!    finite becomes infinity); an exponent field of 255 or more is an
//!    infinity; then the special results.
//!
//! Latency is a parameter ([`F32Mul::new`]): 1 (an output register only),
//! 2 (a register after the partial products too) or 3 (after normalizing
//! too). A pair sampled at rising edge k is on `product_o` after edge
//! k + L − 1.

use crate::f32_add::AddRound;
use crate::k;
use crate::pipe::Pipe;
use rust_hdl::prelude::*;

/// The latencies [`F32Mul::new`] builds.
pub const F32_MUL_LATENCIES: [usize; 3] = [1, 2, 3];

/// Stage 1: unpack, the special cases, the four partial products.
#[derive(LogicBlock)]
pub struct MulUnpack {
    pub a_i: Signal<In, Bits<32>>,
    pub b_i: Signal<In, Bits<32>>,
    /// The product's sign.
    pub sign_o: Signal<Out, Bit>,
    /// The sum of the operands' exponent fields, each 1 for a subnormal (2 ..= 508).
    pub exp_o: Signal<Out, Bits<10>>,
    /// The partial products of the significands' 12-bit halves (high × high,
    /// high × low, low × high, low × low; 24 bits in a 32-bit product,
    /// whose top bits synthesis finds are 0).
    pub hh_o: Signal<Out, Bits<32>>,
    pub hl_o: Signal<Out, Bits<32>>,
    pub lh_o: Signal<Out, Bits<32>>,
    pub ll_o: Signal<Out, Bits<32>>,
    /// The result is the canonical NaN; an infinity; a zero.
    pub nan_o: Signal<Out, Bit>,
    pub inf_o: Signal<Out, Bit>,
    pub zero_o: Signal<Out, Bit>,
    ea: Signal<Local, Bits<8>>,
    eb: Signal<Local, Bits<8>>,
    ea_eff: Signal<Local, Bits<10>>,
    eb_eff: Signal<Local, Bits<10>>,
    sa: Signal<Local, Bits<24>>,
    sb: Signal<Local, Bits<24>>,
    ah: Signal<Local, Bits<16>>,
    al: Signal<Local, Bits<16>>,
    bh: Signal<Local, Bits<16>>,
    bl: Signal<Local, Bits<16>>,
    nan_a: Signal<Local, Bit>,
    nan_b: Signal<Local, Bit>,
    inf_a: Signal<Local, Bit>,
    inf_b: Signal<Local, Bit>,
    zero_a: Signal<Local, Bit>,
    zero_b: Signal<Local, Bit>,
    exp0: Constant<Bits<8>>,
    exp_max: Constant<Bits<8>>,
    exp1: Constant<Bits<10>>,
    frac0: Constant<Bits<23>>,
    hidden: Constant<Bits<24>>,
}

impl Default for MulUnpack {
    fn default() -> Self {
        Self {
            a_i: Default::default(),
            b_i: Default::default(),
            sign_o: Default::default(),
            exp_o: Default::default(),
            hh_o: Default::default(),
            hl_o: Default::default(),
            lh_o: Default::default(),
            ll_o: Default::default(),
            nan_o: Default::default(),
            inf_o: Default::default(),
            zero_o: Default::default(),
            ea: Default::default(),
            eb: Default::default(),
            ea_eff: Default::default(),
            eb_eff: Default::default(),
            sa: Default::default(),
            sb: Default::default(),
            ah: Default::default(),
            al: Default::default(),
            bh: Default::default(),
            bl: Default::default(),
            nan_a: Default::default(),
            nan_b: Default::default(),
            inf_a: Default::default(),
            inf_b: Default::default(),
            zero_a: Default::default(),
            zero_b: Default::default(),
            exp0: k(0),
            exp_max: k(0xff),
            exp1: k(1),
            frac0: k(0),
            hidden: k(1 << 23),
        }
    }
}

impl Logic for MulUnpack {
    #[hdl_gen]
    fn update(&mut self) {
        self.ea.next = self.a_i.val().get_bits::<8>(23);
        self.eb.next = self.b_i.val().get_bits::<8>(23);
        // Significands with the hidden bit; a subnormal's exponent is 1.
        self.sa.next = bit_cast::<24, 23>(self.a_i.val().get_bits::<23>(0));
        self.sb.next = bit_cast::<24, 23>(self.b_i.val().get_bits::<23>(0));
        self.ea_eff.next = self.exp1.val();
        self.eb_eff.next = self.exp1.val();
        if self.ea.val() != self.exp0.val() {
            self.sa.next = bit_cast::<24, 23>(self.a_i.val().get_bits::<23>(0)) | self.hidden.val();
            self.ea_eff.next = bit_cast::<10, 8>(self.ea.val());
        }
        if self.eb.val() != self.exp0.val() {
            self.sb.next = bit_cast::<24, 23>(self.b_i.val().get_bits::<23>(0)) | self.hidden.val();
            self.eb_eff.next = bit_cast::<10, 8>(self.eb.val());
        }
        self.exp_o.next = self.ea_eff.val() + self.eb_eff.val();
        self.sign_o.next = self.a_i.val().get_bit(31) ^ self.b_i.val().get_bit(31);
        // Four 12 × 12-bit products (of 16-bit operands: rust-hdl's multiply).
        self.ah.next = bit_cast::<16, 12>(self.sa.val().get_bits::<12>(12));
        self.al.next = bit_cast::<16, 12>(self.sa.val().get_bits::<12>(0));
        self.bh.next = bit_cast::<16, 12>(self.sb.val().get_bits::<12>(12));
        self.bl.next = bit_cast::<16, 12>(self.sb.val().get_bits::<12>(0));
        self.hh_o.next = self.ah.val() * self.bh.val();
        self.hl_o.next = self.ah.val() * self.bl.val();
        self.lh_o.next = self.al.val() * self.bh.val();
        self.ll_o.next = self.al.val() * self.bl.val();
        // The special cases.
        self.nan_a.next =
            (self.ea.val() == self.exp_max.val()) & (self.a_i.val().get_bits::<23>(0) != self.frac0.val());
        self.nan_b.next =
            (self.eb.val() == self.exp_max.val()) & (self.b_i.val().get_bits::<23>(0) != self.frac0.val());
        self.inf_a.next =
            (self.ea.val() == self.exp_max.val()) & (self.a_i.val().get_bits::<23>(0) == self.frac0.val());
        self.inf_b.next =
            (self.eb.val() == self.exp_max.val()) & (self.b_i.val().get_bits::<23>(0) == self.frac0.val());
        self.zero_a.next = (self.ea.val() == self.exp0.val()) & (self.a_i.val().get_bits::<23>(0) == self.frac0.val());
        self.zero_b.next = (self.eb.val() == self.exp0.val()) & (self.b_i.val().get_bits::<23>(0) == self.frac0.val());
        self.nan_o.next = self.nan_a.val()
            | self.nan_b.val()
            | (self.inf_a.val() & self.zero_b.val())
            | (self.zero_a.val() & self.inf_b.val());
        self.inf_o.next = self.inf_a.val() | self.inf_b.val();
        self.zero_o.next = self.zero_a.val() | self.zero_b.val();
    }
}

/// Stage 2: the product, normalized or denormalized.
#[derive(LogicBlock)]
pub struct MulNormalize {
    pub exp_i: Signal<In, Bits<10>>,
    pub hh_i: Signal<In, Bits<32>>,
    pub hl_i: Signal<In, Bits<32>>,
    pub lh_i: Signal<In, Bits<32>>,
    pub ll_i: Signal<In, Bits<32>>,
    /// `{fraction, guard, round, sticky}` (the hidden bit is implied by the
    /// exponent field: 0 for a subnormal or zero result).
    pub man_o: Signal<Out, Bits<26>>,
    /// The exponent field before rounding: 0 for a subnormal, 255 when the
    /// product overflowed.
    pub exp_o: Signal<Out, Bits<8>>,
    p: Signal<Local, Bits<48>>,
    lim: Signal<Local, Bits<10>>,
    marked: Signal<Local, Bits<48>>,
    t0: Signal<Local, Bits<63>>,
    t1: Signal<Local, Bits<31>>,
    t2: Signal<Local, Bits<15>>,
    t3: Signal<Local, Bits<7>>,
    t4: Signal<Local, Bits<3>>,
    msb: Signal<Local, Bit>,
    lz: Signal<Local, Bits<6>>,
    right: Signal<Local, Bits<10>>,
    right_c: Signal<Local, Bits<6>>,
    shifted: Signal<Local, Bits<48>>,
    out_sticky: Signal<Local, Bit>,
    exp_norm: Signal<Local, Bits<10>>,
    exp_bias: Constant<Bits<10>>,
    exp_bias1: Constant<Bits<10>>,
    exp_over: Constant<Bits<10>>,
    exp0: Constant<Bits<8>>,
    exp_max: Constant<Bits<8>>,
    top48: Constant<Bits<48>>,
    ones48: Constant<Bits<48>>,
    zero48: Constant<Bits<48>>,
    low22: Constant<Bits<48>>,
    ones15: Constant<Bits<63>>,
    right_max: Constant<Bits<10>>,
    right_max6: Constant<Bits<6>>,
    zero32: Constant<Bits<32>>,
    zero16: Constant<Bits<16>>,
    zero8: Constant<Bits<8>>,
    zero4: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    lz0: Constant<Bits<6>>,
    lz_32: Constant<Bits<6>>,
    lz_16: Constant<Bits<6>>,
    lz_8: Constant<Bits<6>>,
    lz_4: Constant<Bits<6>>,
    lz_2: Constant<Bits<6>>,
    lz_1: Constant<Bits<6>>,
    sticky: Constant<Bits<26>>,
}

impl Default for MulNormalize {
    fn default() -> Self {
        Self {
            exp_i: Default::default(),
            hh_i: Default::default(),
            hl_i: Default::default(),
            lh_i: Default::default(),
            ll_i: Default::default(),
            man_o: Default::default(),
            exp_o: Default::default(),
            p: Default::default(),
            lim: Default::default(),
            marked: Default::default(),
            t0: Default::default(),
            t1: Default::default(),
            t2: Default::default(),
            t3: Default::default(),
            t4: Default::default(),
            msb: Default::default(),
            lz: Default::default(),
            right: Default::default(),
            right_c: Default::default(),
            shifted: Default::default(),
            out_sticky: Default::default(),
            exp_norm: Default::default(),
            exp_bias: k(127),
            exp_bias1: k(126),
            exp_over: k(255),
            exp0: k(0),
            exp_max: k(0xff),
            top48: k(1 << 47),
            ones48: k((1 << 48) - 1),
            zero48: k(0),
            low22: k((1 << 22) - 1),
            ones15: k(0x7fff),
            right_max: k(48),
            right_max6: k(48),
            zero32: k(0),
            zero16: k(0),
            zero8: k(0),
            zero4: k(0),
            zero2: k(0),
            lz0: k(0),
            lz_32: k(32),
            lz_16: k(16),
            lz_8: k(8),
            lz_4: k(4),
            lz_2: k(2),
            lz_1: k(1),
            sticky: k(1),
        }
    }
}

impl Logic for MulNormalize {
    #[hdl_gen]
    fn update(&mut self) {
        self.p.next = (bit_cast::<48, 32>(self.hh_i.val()) << 24)
            + (bit_cast::<48, 32>(self.hl_i.val()) << 12)
            + (bit_cast::<48, 32>(self.lh_i.val()) << 12)
            + bit_cast::<48, 32>(self.ll_i.val());
        // Left: the leading zeros of p, stopped at ea + eb − 127 (a bit
        // planted there; none beyond bit 0) and by ones below p (p is 0
        // only with a zero operand, a special case): 0 ..= 48.
        self.lim.next = self.exp_i.val() - self.exp_bias.val();
        self.marked.next = self.p.val() | (self.top48.val() >> self.lim.val());
        // The 64-bit word {marked, 16 ones} without its lowest bit, which
        // never decides a count (the ones stop it first): bit j of t0 is
        // the word's bit j + 1, and likewise in each halving step below.
        self.t0.next = (bit_cast::<63, 48>(self.marked.val()) << 15) | self.ones15.val();
        // Halving steps: the upper half when it has a one, else the lower.
        self.t1.next = self.t0.val().get_bits::<31>(32);
        self.lz.next = self.lz0.val();
        if self.t0.val().get_bits::<32>(31) == self.zero32.val() {
            self.t1.next = self.t0.val().get_bits::<31>(0);
            self.lz.next = self.lz_32.val();
        }
        self.t2.next = self.t1.val().get_bits::<15>(16);
        if self.t1.val().get_bits::<16>(15) == self.zero16.val() {
            self.t2.next = self.t1.val().get_bits::<15>(0);
            self.lz.next = self.lz.val() | self.lz_16.val();
        }
        self.t3.next = self.t2.val().get_bits::<7>(8);
        if self.t2.val().get_bits::<8>(7) == self.zero8.val() {
            self.t3.next = self.t2.val().get_bits::<7>(0);
            self.lz.next = self.lz.val() | self.lz_8.val();
        }
        self.t4.next = self.t3.val().get_bits::<3>(4);
        if self.t3.val().get_bits::<4>(3) == self.zero4.val() {
            self.t4.next = self.t3.val().get_bits::<3>(0);
            self.lz.next = self.lz.val() | self.lz_4.val();
        }
        self.msb.next = self.t4.val().get_bit(2);
        if self.t4.val().get_bits::<2>(1) == self.zero2.val() {
            self.msb.next = self.t4.val().get_bit(0);
            self.lz.next = self.lz.val() | self.lz_2.val();
        }
        if !self.msb.val() {
            self.lz.next = self.lz.val() | self.lz_1.val();
        }
        self.shifted.next = self.p.val() << self.lz.val();
        self.exp_norm.next = self.exp_i.val() - self.exp_bias1.val() - bit_cast::<10, 6>(self.lz.val());
        self.out_sticky.next = false;
        // Right, where ea + eb < 127: by 127 − ea − eb, at most 48.
        self.right.next = self.exp_bias.val() - self.exp_i.val();
        self.right_c.next = self.right.val().get_bits::<6>(0);
        if self.right.val() > self.right_max.val() {
            self.right_c.next = self.right_max6.val();
        }
        if self.exp_i.val() < self.exp_bias.val() {
            self.shifted.next = self.p.val() >> self.right_c.val();
            self.out_sticky.next = (self.p.val() & !(self.ones48.val() << self.right_c.val())) != self.zero48.val();
        }
        // {fraction, guard, round, sticky}; the field 0 without a hidden bit.
        self.man_o.next = bit_cast::<26, 25>(self.shifted.val().get_bits::<25>(22)) << 1;
        if ((self.shifted.val() & self.low22.val()) != self.zero48.val()) | self.out_sticky.val() {
            self.man_o.next = (bit_cast::<26, 25>(self.shifted.val().get_bits::<25>(22)) << 1) | self.sticky.val();
        }
        self.exp_o.next = self.exp_norm.val().get_bits::<8>(0);
        if self.exp_norm.val() >= self.exp_over.val() {
            self.exp_o.next = self.exp_max.val();
        }
        if !self.shifted.val().get_bit(47) {
            self.exp_o.next = self.exp0.val();
        }
    }
}

/// The multiplier: the three stages and their registers.
#[derive(LogicBlock)]
pub struct F32Mul {
    pub clk_i: Signal<In, Clock>,
    pub a_i: Signal<In, Bits<32>>,
    pub b_i: Signal<In, Bits<32>>,
    pub product_o: Signal<Out, Bits<32>>,
    unpack: MulUnpack,
    normalize: MulNormalize,
    round: AddRound,
    // After the partial products.
    u_sign: Pipe<Bit>,
    u_exp: Pipe<Bits<10>>,
    u_hh: Pipe<Bits<32>>,
    u_hl: Pipe<Bits<32>>,
    u_lh: Pipe<Bits<32>>,
    u_ll: Pipe<Bits<32>>,
    u_nan: Pipe<Bit>,
    u_inf: Pipe<Bit>,
    u_zero: Pipe<Bit>,
    // After normalization.
    n_sign: Pipe<Bit>,
    n_man: Pipe<Bits<26>>,
    n_exp: Pipe<Bits<8>>,
    n_nan: Pipe<Bit>,
    n_inf: Pipe<Bit>,
    n_zero: Pipe<Bit>,
    out: Pipe<Bits<32>>,
    _latency: usize,
}

impl F32Mul {
    /// The multiplier with `latency` registers (1, 2 or 3; see the module docs).
    pub fn new(latency: usize) -> Self {
        assert!(F32_MUL_LATENCIES.contains(&latency), "F32Mul latency {latency}: 1, 2 or 3");
        let unpacked = latency >= 2;
        let normalized = latency >= 3;
        Self {
            clk_i: Default::default(),
            a_i: Default::default(),
            b_i: Default::default(),
            product_o: Default::default(),
            unpack: Default::default(),
            normalize: Default::default(),
            round: Default::default(),
            u_sign: Pipe::new(unpacked),
            u_exp: Pipe::new(unpacked),
            u_hh: Pipe::new(unpacked),
            u_hl: Pipe::new(unpacked),
            u_lh: Pipe::new(unpacked),
            u_ll: Pipe::new(unpacked),
            u_nan: Pipe::new(unpacked),
            u_inf: Pipe::new(unpacked),
            u_zero: Pipe::new(unpacked),
            n_sign: Pipe::new(normalized),
            n_man: Pipe::new(normalized),
            n_exp: Pipe::new(normalized),
            n_nan: Pipe::new(normalized),
            n_inf: Pipe::new(normalized),
            n_zero: Pipe::new(normalized),
            out: Pipe::new(true),
            _latency: latency,
        }
    }

    /// Rising edges from a pair sampled to its product on `product_o`, the
    /// sampling edge the first.
    pub fn latency(&self) -> usize {
        self._latency
    }
}

impl Default for F32Mul {
    fn default() -> Self {
        Self::new(3)
    }
}

impl Logic for F32Mul {
    #[hdl_gen]
    fn update(&mut self) {
        self.u_sign.clock.next = self.clk_i.val();
        self.u_exp.clock.next = self.clk_i.val();
        self.u_hh.clock.next = self.clk_i.val();
        self.u_hl.clock.next = self.clk_i.val();
        self.u_lh.clock.next = self.clk_i.val();
        self.u_ll.clock.next = self.clk_i.val();
        self.u_nan.clock.next = self.clk_i.val();
        self.u_inf.clock.next = self.clk_i.val();
        self.u_zero.clock.next = self.clk_i.val();
        self.n_sign.clock.next = self.clk_i.val();
        self.n_man.clock.next = self.clk_i.val();
        self.n_exp.clock.next = self.clk_i.val();
        self.n_nan.clock.next = self.clk_i.val();
        self.n_inf.clock.next = self.clk_i.val();
        self.n_zero.clock.next = self.clk_i.val();
        self.out.clock.next = self.clk_i.val();

        self.unpack.a_i.next = self.a_i.val();
        self.unpack.b_i.next = self.b_i.val();
        self.u_sign.d.next = self.unpack.sign_o.val();
        self.u_exp.d.next = self.unpack.exp_o.val();
        self.u_hh.d.next = self.unpack.hh_o.val();
        self.u_hl.d.next = self.unpack.hl_o.val();
        self.u_lh.d.next = self.unpack.lh_o.val();
        self.u_ll.d.next = self.unpack.ll_o.val();
        self.u_nan.d.next = self.unpack.nan_o.val();
        self.u_inf.d.next = self.unpack.inf_o.val();
        self.u_zero.d.next = self.unpack.zero_o.val();

        self.normalize.exp_i.next = self.u_exp.q.val();
        self.normalize.hh_i.next = self.u_hh.q.val();
        self.normalize.hl_i.next = self.u_hl.q.val();
        self.normalize.lh_i.next = self.u_lh.q.val();
        self.normalize.ll_i.next = self.u_ll.q.val();
        self.n_sign.d.next = self.u_sign.q.val();
        self.n_man.d.next = self.normalize.man_o.val();
        self.n_exp.d.next = self.normalize.exp_o.val();
        self.n_nan.d.next = self.u_nan.q.val();
        self.n_inf.d.next = self.u_inf.q.val();
        self.n_zero.d.next = self.u_zero.q.val();

        // A zero product's sign is the product's sign.
        self.round.sign_i.next = self.n_sign.q.val();
        self.round.man_i.next = self.n_man.q.val();
        self.round.exp_i.next = self.n_exp.q.val();
        self.round.zero_i.next = self.n_zero.q.val();
        self.round.nan_i.next = self.n_nan.q.val();
        self.round.inf_i.next = self.n_inf.q.val();
        self.round.zero_sign_i.next = self.n_sign.q.val();
        self.out.d.next = self.round.sum_o.val();
        self.product_o.next = self.out.q.val();
    }
}

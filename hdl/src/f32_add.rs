//! `F32Add`: IEEE 754 binary32 addition, round to nearest even, one
//! operation a clock, for ADD's and AVERAGE's sums (instruction.md §4).
//!
//! Bit-exact to golden's `instruction::fp::add`: subnormal inputs and
//! results kept (no flush), `x + (−x)` = +0, `−0 + −0` = −0, an infinity
//! of either sign wins over a number, `inf − inf` and any NaN operand give
//! the canonical quiet NaN 0x7fc00000 (D50; no NaN propagation). No
//! exception flags: the instruction has none to report.
//!
//! Five components, the textbook far/near-free single path:
//!
//! 1. [`AddOrder`]: the operand of larger magnitude is `x` (ties keep `a`);
//!    significands with their hidden bits, the exponent difference (at
//!    most 31), the special cases. [`AddAlign`]: `y`'s significand, with
//!    three bits below (guard, round, sticky), shifted right by it, every
//!    bit shifted out or-ed into the sticky bit (31 leaves sticky only).
//! 2. [`AddSum`]: `x ± y` on 28 bits. [`AddNormalize`]: a carry shifts
//!    right one (the bit out into sticky), otherwise the leading zeros are
//!    shifted out, at most `e − 1` of them (a bit planted at `e − 1` stops
//!    the count), so a result below the normal range stays a subnormal
//!    with exponent field 0. Guard, round and sticky are enough: a left
//!    shift of more than one needs an exponent difference of at most one,
//!    which shifted nothing into sticky.
//! 3. [`AddRound`]: `{exponent field, fraction}` plus the round-to-nearest-
//!    even increment as one 31-bit add, so a fraction that rounds up past
//!    its top carries into the exponent (a subnormal becomes normal, the
//!    largest finite becomes infinity); then the special results.
//!
//! Latency is a parameter ([`F32Add::new`]): 1 (an output register only),
//! 2 (a register after alignment too), 3 (after normalization too), 4
//! (between ordering and alignment too) or 5 (between the sum and
//! normalization too). A pair sampled at rising edge k is on `sum_o` after
//! edge k + L − 1.

use crate::k;
use crate::pipe::Pipe;
use rust_hdl::prelude::*;

/// The latencies [`F32Add::new`] builds.
pub const F32_ADD_LATENCIES: [usize; 5] = [1, 2, 3, 4, 5];

/// Stage 1a: order the operands, the alignment shift, decide the special cases.
#[derive(LogicBlock)]
pub struct AddOrder {
    pub a_i: Signal<In, Bits<32>>,
    pub b_i: Signal<In, Bits<32>>,
    /// The sign of the larger operand (the result's, when it is a number).
    pub sign_o: Signal<Out, Bit>,
    /// The signs differ: subtract.
    pub sub_o: Signal<Out, Bit>,
    /// The larger operand's exponent, 1 for a subnormal.
    pub exp_o: Signal<Out, Bits<8>>,
    /// `{hidden, fraction, guard, round, sticky}` of x.
    pub mx_o: Signal<Out, Bits<27>>,
    /// y's significand with its hidden bit, and the right shift that aligns it (at most 31).
    pub sy_o: Signal<Out, Bits<24>>,
    pub shift_o: Signal<Out, Bits<8>>,
    /// The result is the canonical NaN; the result is x's infinity.
    pub nan_o: Signal<Out, Bit>,
    pub inf_o: Signal<Out, Bit>,
    /// The sign of a zero result: − only for −0 + −0.
    pub zero_sign_o: Signal<Out, Bit>,
    swap: Signal<Local, Bit>,
    x: Signal<Local, Bits<32>>,
    y: Signal<Local, Bits<32>>,
    ex: Signal<Local, Bits<8>>,
    ey: Signal<Local, Bits<8>>,
    ex_eff: Signal<Local, Bits<8>>,
    ey_eff: Signal<Local, Bits<8>>,
    sx: Signal<Local, Bits<24>>,
    sy: Signal<Local, Bits<24>>,
    diff: Signal<Local, Bits<8>>,
    shift: Signal<Local, Bits<8>>,
    nan_a: Signal<Local, Bit>,
    nan_b: Signal<Local, Bit>,
    inf_a: Signal<Local, Bit>,
    inf_b: Signal<Local, Bit>,
    exp0: Constant<Bits<8>>,
    exp1: Constant<Bits<8>>,
    exp_max: Constant<Bits<8>>,
    shift_max: Constant<Bits<8>>,
    frac0: Constant<Bits<23>>,
    hidden: Constant<Bits<24>>,
}

impl Default for AddOrder {
    fn default() -> Self {
        Self {
            a_i: Default::default(),
            b_i: Default::default(),
            sign_o: Default::default(),
            sub_o: Default::default(),
            exp_o: Default::default(),
            mx_o: Default::default(),
            sy_o: Default::default(),
            shift_o: Default::default(),
            nan_o: Default::default(),
            inf_o: Default::default(),
            zero_sign_o: Default::default(),
            swap: Default::default(),
            x: Default::default(),
            y: Default::default(),
            ex: Default::default(),
            ey: Default::default(),
            ex_eff: Default::default(),
            ey_eff: Default::default(),
            sx: Default::default(),
            sy: Default::default(),
            diff: Default::default(),
            shift: Default::default(),
            nan_a: Default::default(),
            nan_b: Default::default(),
            inf_a: Default::default(),
            inf_b: Default::default(),
            exp0: k(0),
            exp1: k(1),
            exp_max: k(0xff),
            shift_max: k(31),
            frac0: k(0),
            hidden: k(1 << 23),
        }
    }
}

impl Logic for AddOrder {
    #[hdl_gen]
    fn update(&mut self) {
        self.swap.next = self.b_i.val().get_bits::<31>(0) > self.a_i.val().get_bits::<31>(0);
        self.x.next = self.a_i.val();
        self.y.next = self.b_i.val();
        if self.swap.val() {
            self.x.next = self.b_i.val();
            self.y.next = self.a_i.val();
        }
        self.ex.next = self.x.val().get_bits::<8>(23);
        self.ey.next = self.y.val().get_bits::<8>(23);
        // Significands with the hidden bit; a subnormal's exponent is 1.
        self.sx.next = bit_cast::<24, 23>(self.x.val().get_bits::<23>(0));
        self.sy.next = bit_cast::<24, 23>(self.y.val().get_bits::<23>(0));
        self.ex_eff.next = self.exp1.val();
        self.ey_eff.next = self.exp1.val();
        if self.ex.val() != self.exp0.val() {
            self.sx.next = bit_cast::<24, 23>(self.x.val().get_bits::<23>(0)) | self.hidden.val();
            self.ex_eff.next = self.ex.val();
        }
        if self.ey.val() != self.exp0.val() {
            self.sy.next = bit_cast::<24, 23>(self.y.val().get_bits::<23>(0)) | self.hidden.val();
            self.ey_eff.next = self.ey.val();
        }
        // The difference, at most 31 (beyond, y is all sticky either way).
        self.diff.next = self.ex_eff.val() - self.ey_eff.val();
        self.shift.next = self.diff.val();
        if self.diff.val() > self.shift_max.val() {
            self.shift.next = self.shift_max.val();
        }
        self.mx_o.next = bit_cast::<27, 24>(self.sx.val()) << 3;
        self.sy_o.next = self.sy.val();
        self.shift_o.next = self.shift.val();
        self.exp_o.next = self.ex_eff.val();
        self.sign_o.next = self.x.val().get_bit(31);
        self.sub_o.next = self.x.val().get_bit(31) ^ self.y.val().get_bit(31);
        self.zero_sign_o.next = self.a_i.val().get_bit(31) & self.b_i.val().get_bit(31);
        self.nan_a.next = (self.a_i.val().get_bits::<8>(23) == self.exp_max.val())
            & (self.a_i.val().get_bits::<23>(0) != self.frac0.val());
        self.nan_b.next = (self.b_i.val().get_bits::<8>(23) == self.exp_max.val())
            & (self.b_i.val().get_bits::<23>(0) != self.frac0.val());
        self.inf_a.next = (self.a_i.val().get_bits::<8>(23) == self.exp_max.val())
            & (self.a_i.val().get_bits::<23>(0) == self.frac0.val());
        self.inf_b.next = (self.b_i.val().get_bits::<8>(23) == self.exp_max.val())
            & (self.b_i.val().get_bits::<23>(0) == self.frac0.val());
        self.nan_o.next = self.nan_a.val()
            | self.nan_b.val()
            | (self.inf_a.val() & self.inf_b.val() & (self.a_i.val().get_bit(31) ^ self.b_i.val().get_bit(31)));
        self.inf_o.next = self.inf_a.val() | self.inf_b.val();
    }
}

/// Stage 1b: `y`'s significand aligned to `x`'s, the bits shifted out
/// or-ed into sticky.
#[derive(LogicBlock)]
pub struct AddAlign {
    pub sy_i: Signal<In, Bits<24>>,
    pub shift_i: Signal<In, Bits<8>>,
    /// `{hidden, fraction, guard, round, sticky}` of y aligned to x.
    pub my_o: Signal<Out, Bits<27>>,
    y_wide: Signal<Local, Bits<64>>,
    y_shifted: Signal<Local, Bits<64>>,
    low37: Constant<Bits<64>>,
    zero64: Constant<Bits<64>>,
    sticky: Constant<Bits<27>>,
}

impl Default for AddAlign {
    fn default() -> Self {
        Self {
            sy_i: Default::default(),
            shift_i: Default::default(),
            my_o: Default::default(),
            y_wide: Default::default(),
            y_shifted: Default::default(),
            low37: k((1 << 37) - 1),
            zero64: k(0),
            sticky: k(1),
        }
    }
}

impl Logic for AddAlign {
    #[hdl_gen]
    fn update(&mut self) {
        // y's significand at the top of 64 bits, shifted right (at most 31:
        // its lowest bit stays above bit 8).
        self.y_wide.next = bit_cast::<64, 24>(self.sy_i.val()) << 40;
        self.y_shifted.next = self.y_wide.val() >> self.shift_i.val();
        self.my_o.next = self.y_shifted.val().get_bits::<27>(37);
        if (self.y_shifted.val() & self.low37.val()) != self.zero64.val() {
            self.my_o.next = self.y_shifted.val().get_bits::<27>(37) | self.sticky.val();
        }
    }
}

/// Stage 2a: add or subtract the aligned significands.
#[derive(LogicBlock)]
pub struct AddSum {
    pub sub_i: Signal<In, Bit>,
    pub mx_i: Signal<In, Bits<27>>,
    pub my_i: Signal<In, Bits<27>>,
    /// `x ± y` with its carry bit.
    pub total_o: Signal<Out, Bits<28>>,
    /// The sum is exactly zero.
    pub zero_o: Signal<Out, Bit>,
    wide_x: Signal<Local, Bits<28>>,
    wide_y: Signal<Local, Bits<28>>,
    total: Signal<Local, Bits<28>>,
    zero28: Constant<Bits<28>>,
}

impl Default for AddSum {
    fn default() -> Self {
        Self {
            sub_i: Default::default(),
            mx_i: Default::default(),
            my_i: Default::default(),
            total_o: Default::default(),
            zero_o: Default::default(),
            wide_x: Default::default(),
            wide_y: Default::default(),
            total: Default::default(),
            zero28: k(0),
        }
    }
}

impl Logic for AddSum {
    #[hdl_gen]
    fn update(&mut self) {
        self.wide_x.next = bit_cast::<28, 27>(self.mx_i.val());
        self.wide_y.next = bit_cast::<28, 27>(self.my_i.val());
        self.total.next = self.wide_x.val() + self.wide_y.val();
        if self.sub_i.val() {
            self.total.next = self.wide_x.val() - self.wide_y.val();
        }
        self.total_o.next = self.total.val();
        self.zero_o.next = self.total.val() == self.zero28.val();
    }
}

/// Stage 2b: normalize the sum.
#[derive(LogicBlock)]
pub struct AddNormalize {
    pub exp_i: Signal<In, Bits<8>>,
    /// `x ± y` with its carry bit.
    pub total_i: Signal<In, Bits<28>>,
    /// `{fraction, guard, round, sticky}`, normalized (the hidden bit is
    /// implied by the exponent field: 0 for a subnormal or zero result).
    pub man_o: Signal<Out, Bits<26>>,
    /// The exponent field before rounding: 0 for a subnormal, 255 when the
    /// sum overflowed.
    pub exp_o: Signal<Out, Bits<8>>,
    low: Signal<Local, Bits<27>>,
    limit: Signal<Local, Bits<27>>,
    marked: Signal<Local, Bits<27>>,
    t0: Signal<Local, Bits<31>>,
    t1: Signal<Local, Bits<15>>,
    t2: Signal<Local, Bits<7>>,
    t3: Signal<Local, Bits<3>>,
    msb: Signal<Local, Bit>,
    lz16: Signal<Local, Bits<5>>,
    lz8: Signal<Local, Bits<5>>,
    lz4: Signal<Local, Bits<5>>,
    lz2: Signal<Local, Bits<5>>,
    lz: Signal<Local, Bits<5>>,
    shifted: Signal<Local, Bits<27>>,
    exp_norm: Signal<Local, Bits<8>>,
    exp1: Constant<Bits<8>>,
    exp0: Constant<Bits<8>>,
    top27: Constant<Bits<27>>,
    ones4: Constant<Bits<31>>,
    zero16: Constant<Bits<16>>,
    zero8: Constant<Bits<8>>,
    zero4: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    lz0: Constant<Bits<5>>,
    lz_16: Constant<Bits<5>>,
    lz_8: Constant<Bits<5>>,
    lz_4: Constant<Bits<5>>,
    lz_2: Constant<Bits<5>>,
    lz_1: Constant<Bits<5>>,
    sticky: Constant<Bits<26>>,
}

impl Default for AddNormalize {
    fn default() -> Self {
        Self {
            exp_i: Default::default(),
            total_i: Default::default(),
            man_o: Default::default(),
            exp_o: Default::default(),
            low: Default::default(),
            limit: Default::default(),
            marked: Default::default(),
            t0: Default::default(),
            t1: Default::default(),
            t2: Default::default(),
            t3: Default::default(),
            msb: Default::default(),
            lz16: Default::default(),
            lz8: Default::default(),
            lz4: Default::default(),
            lz2: Default::default(),
            lz: Default::default(),
            shifted: Default::default(),
            exp_norm: Default::default(),
            exp1: k(1),
            exp0: k(0),
            top27: k(1 << 26),
            ones4: k(0xf),
            zero16: k(0),
            zero8: k(0),
            zero4: k(0),
            zero2: k(0),
            lz0: k(0),
            lz_16: k(16),
            lz_8: k(8),
            lz_4: k(4),
            lz_2: k(2),
            lz_1: k(1),
            sticky: k(1),
        }
    }
}

impl Logic for AddNormalize {
    #[hdl_gen]
    fn update(&mut self) {
        // Leading zeros of the low 27 bits, stopped by a bit at e − 1 (none
        // when e − 1 > 26) and by five ones below: 0 ..= 27.
        self.low.next = self.total_i.val().get_bits::<27>(0);
        self.limit.next = self.top27.val() >> (self.exp_i.val() - self.exp1.val());
        self.marked.next = self.low.val() | self.limit.val();
        // The 32-bit word {marked, 5 ones} without its lowest bit, which
        // never decides a count (the ones stop it first): bit j of t0 is
        // the word's bit j + 1, and likewise in each halving step below.
        self.t0.next = (bit_cast::<31, 27>(self.marked.val()) << 4) | self.ones4.val();
        // Halving steps: the upper half when it has a one, else the lower.
        self.t1.next = self.t0.val().get_bits::<15>(16);
        self.lz16.next = self.lz0.val();
        if self.t0.val().get_bits::<16>(15) == self.zero16.val() {
            self.t1.next = self.t0.val().get_bits::<15>(0);
            self.lz16.next = self.lz_16.val();
        }
        self.t2.next = self.t1.val().get_bits::<7>(8);
        self.lz8.next = self.lz16.val();
        if self.t1.val().get_bits::<8>(7) == self.zero8.val() {
            self.t2.next = self.t1.val().get_bits::<7>(0);
            self.lz8.next = self.lz16.val() | self.lz_8.val();
        }
        self.t3.next = self.t2.val().get_bits::<3>(4);
        self.lz4.next = self.lz8.val();
        if self.t2.val().get_bits::<4>(3) == self.zero4.val() {
            self.t3.next = self.t2.val().get_bits::<3>(0);
            self.lz4.next = self.lz8.val() | self.lz_4.val();
        }
        self.msb.next = self.t3.val().get_bit(2);
        self.lz2.next = self.lz4.val();
        if self.t3.val().get_bits::<2>(1) == self.zero2.val() {
            self.msb.next = self.t3.val().get_bit(0);
            self.lz2.next = self.lz4.val() | self.lz_2.val();
        }
        self.lz.next = self.lz2.val();
        if !self.msb.val() {
            self.lz.next = self.lz2.val() | self.lz_1.val();
        }
        self.shifted.next = self.low.val() << self.lz.val();
        self.exp_norm.next = self.exp_i.val() - bit_cast::<8, 5>(self.lz.val());
        self.man_o.next = self.shifted.val().get_bits::<26>(0);
        self.exp_o.next = self.exp_norm.val();
        if !self.shifted.val().get_bit(26) {
            self.exp_o.next = self.exp0.val();
        }
        if self.total_i.val().get_bit(27) {
            // A carry: one right, the bit out into sticky; e + 1 ≤ 255.
            self.man_o.next = self.total_i.val().get_bits::<26>(1);
            if self.total_i.val().get_bit(0) {
                self.man_o.next = self.total_i.val().get_bits::<26>(1) | self.sticky.val();
            }
            self.exp_o.next = self.exp_i.val() + self.exp1.val();
        }
    }
}

/// Stage 3: round to nearest even, pack, the special results.
#[derive(LogicBlock)]
pub struct AddRound {
    pub sign_i: Signal<In, Bit>,
    pub man_i: Signal<In, Bits<26>>,
    pub exp_i: Signal<In, Bits<8>>,
    pub zero_i: Signal<In, Bit>,
    pub nan_i: Signal<In, Bit>,
    pub inf_i: Signal<In, Bit>,
    pub zero_sign_i: Signal<In, Bit>,
    pub sum_o: Signal<Out, Bits<32>>,
    word: Signal<Local, Bits<31>>,
    round_up: Signal<Local, Bit>,
    one31: Constant<Bits<31>>,
    rounded: Signal<Local, Bits<31>>,
    exp_max: Constant<Bits<8>>,
    inf31: Constant<Bits<31>>,
    sign32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    qnan: Constant<Bits<32>>,
}

impl Default for AddRound {
    fn default() -> Self {
        Self {
            sign_i: Default::default(),
            man_i: Default::default(),
            exp_i: Default::default(),
            zero_i: Default::default(),
            nan_i: Default::default(),
            inf_i: Default::default(),
            zero_sign_i: Default::default(),
            sum_o: Default::default(),
            word: Default::default(),
            round_up: Default::default(),
            one31: k(1),
            rounded: Default::default(),
            exp_max: k(0xff),
            inf31: k(0x7f80_0000),
            sign32: k(0x8000_0000),
            zero32: k(0),
            qnan: k(crosslane_golden::instruction::fp::CANONICAL_NAN as u64),
        }
    }
}

impl Logic for AddRound {
    #[hdl_gen]
    fn update(&mut self) {
        self.word.next =
            (bit_cast::<31, 8>(self.exp_i.val()) << 23) | bit_cast::<31, 23>(self.man_i.val().get_bits::<23>(3));
        // Guard, and round or sticky or the last kept bit (ties to even).
        self.round_up.next = self.man_i.val().get_bit(2)
            & (self.man_i.val().get_bit(1) | self.man_i.val().get_bit(0) | self.man_i.val().get_bit(3));
        self.rounded.next = self.word.val();
        if self.round_up.val() {
            self.rounded.next = self.word.val() + self.one31.val();
        }
        if self.exp_i.val() == self.exp_max.val() {
            self.rounded.next = self.inf31.val();
        }
        self.sum_o.next = bit_cast::<32, 31>(self.rounded.val());
        if self.sign_i.val() {
            self.sum_o.next = bit_cast::<32, 31>(self.rounded.val()) | self.sign32.val();
        }
        if self.zero_i.val() {
            self.sum_o.next = self.zero32.val();
            if self.zero_sign_i.val() {
                self.sum_o.next = self.sign32.val();
            }
        }
        if self.inf_i.val() {
            self.sum_o.next = bit_cast::<32, 31>(self.inf31.val());
            if self.sign_i.val() {
                self.sum_o.next = bit_cast::<32, 31>(self.inf31.val()) | self.sign32.val();
            }
        }
        if self.nan_i.val() {
            self.sum_o.next = self.qnan.val();
        }
    }
}

/// The adder: the stages and their registers.
#[derive(LogicBlock)]
pub struct F32Add {
    pub clk_i: Signal<In, Clock>,
    pub a_i: Signal<In, Bits<32>>,
    pub b_i: Signal<In, Bits<32>>,
    pub sum_o: Signal<Out, Bits<32>>,
    order: AddOrder,
    align: AddAlign,
    sum: AddSum,
    normalize: AddNormalize,
    round: AddRound,
    // After ordering (latencies 4 and 5).
    o_sign: Pipe<Bit>,
    o_sub: Pipe<Bit>,
    o_exp: Pipe<Bits<8>>,
    o_mx: Pipe<Bits<27>>,
    o_sy: Pipe<Bits<24>>,
    o_shift: Pipe<Bits<8>>,
    o_nan: Pipe<Bit>,
    o_inf: Pipe<Bit>,
    o_zero_sign: Pipe<Bit>,
    // After alignment (latency 2 and up).
    a_sign: Pipe<Bit>,
    a_sub: Pipe<Bit>,
    a_exp: Pipe<Bits<8>>,
    a_mx: Pipe<Bits<27>>,
    a_my: Pipe<Bits<27>>,
    a_nan: Pipe<Bit>,
    a_inf: Pipe<Bit>,
    a_zero_sign: Pipe<Bit>,
    // After the sum (latency 5).
    s_sign: Pipe<Bit>,
    s_exp: Pipe<Bits<8>>,
    s_total: Pipe<Bits<28>>,
    s_zero: Pipe<Bit>,
    s_nan: Pipe<Bit>,
    s_inf: Pipe<Bit>,
    s_zero_sign: Pipe<Bit>,
    // After normalization (latency 3 and up).
    n_sign: Pipe<Bit>,
    n_man: Pipe<Bits<26>>,
    n_exp: Pipe<Bits<8>>,
    n_zero: Pipe<Bit>,
    n_nan: Pipe<Bit>,
    n_inf: Pipe<Bit>,
    n_zero_sign: Pipe<Bit>,
    out: Pipe<Bits<32>>,
    _latency: usize,
}

impl F32Add {
    /// The adder with `latency` registers (1 to 5; see the module docs).
    pub fn new(latency: usize) -> Self {
        assert!(F32_ADD_LATENCIES.contains(&latency), "F32Add latency {latency}: 1 to 5");
        let ordered = latency >= 4;
        let aligned = latency >= 2;
        let summed = latency >= 5;
        let normalized = latency >= 3;
        Self {
            clk_i: Default::default(),
            a_i: Default::default(),
            b_i: Default::default(),
            sum_o: Default::default(),
            order: Default::default(),
            align: Default::default(),
            sum: Default::default(),
            normalize: Default::default(),
            round: Default::default(),
            o_sign: Pipe::new(ordered),
            o_sub: Pipe::new(ordered),
            o_exp: Pipe::new(ordered),
            o_mx: Pipe::new(ordered),
            o_sy: Pipe::new(ordered),
            o_shift: Pipe::new(ordered),
            o_nan: Pipe::new(ordered),
            o_inf: Pipe::new(ordered),
            o_zero_sign: Pipe::new(ordered),
            a_sign: Pipe::new(aligned),
            a_sub: Pipe::new(aligned),
            a_exp: Pipe::new(aligned),
            a_mx: Pipe::new(aligned),
            a_my: Pipe::new(aligned),
            a_nan: Pipe::new(aligned),
            a_inf: Pipe::new(aligned),
            a_zero_sign: Pipe::new(aligned),
            s_sign: Pipe::new(summed),
            s_exp: Pipe::new(summed),
            s_total: Pipe::new(summed),
            s_zero: Pipe::new(summed),
            s_nan: Pipe::new(summed),
            s_inf: Pipe::new(summed),
            s_zero_sign: Pipe::new(summed),
            n_sign: Pipe::new(normalized),
            n_man: Pipe::new(normalized),
            n_exp: Pipe::new(normalized),
            n_zero: Pipe::new(normalized),
            n_nan: Pipe::new(normalized),
            n_inf: Pipe::new(normalized),
            n_zero_sign: Pipe::new(normalized),
            out: Pipe::new(true),
            _latency: latency,
        }
    }

    /// Rising edges from a pair sampled to its sum on `sum_o`, the sampling
    /// edge the first.
    pub fn latency(&self) -> usize {
        self._latency
    }
}

impl Default for F32Add {
    fn default() -> Self {
        Self::new(3)
    }
}

impl Logic for F32Add {
    #[hdl_gen]
    fn update(&mut self) {
        self.o_sign.clock.next = self.clk_i.val();
        self.o_sub.clock.next = self.clk_i.val();
        self.o_exp.clock.next = self.clk_i.val();
        self.o_mx.clock.next = self.clk_i.val();
        self.o_sy.clock.next = self.clk_i.val();
        self.o_shift.clock.next = self.clk_i.val();
        self.o_nan.clock.next = self.clk_i.val();
        self.o_inf.clock.next = self.clk_i.val();
        self.o_zero_sign.clock.next = self.clk_i.val();
        self.a_sign.clock.next = self.clk_i.val();
        self.a_sub.clock.next = self.clk_i.val();
        self.a_exp.clock.next = self.clk_i.val();
        self.a_mx.clock.next = self.clk_i.val();
        self.a_my.clock.next = self.clk_i.val();
        self.a_nan.clock.next = self.clk_i.val();
        self.a_inf.clock.next = self.clk_i.val();
        self.a_zero_sign.clock.next = self.clk_i.val();
        self.s_sign.clock.next = self.clk_i.val();
        self.s_exp.clock.next = self.clk_i.val();
        self.s_total.clock.next = self.clk_i.val();
        self.s_zero.clock.next = self.clk_i.val();
        self.s_nan.clock.next = self.clk_i.val();
        self.s_inf.clock.next = self.clk_i.val();
        self.s_zero_sign.clock.next = self.clk_i.val();
        self.n_sign.clock.next = self.clk_i.val();
        self.n_man.clock.next = self.clk_i.val();
        self.n_exp.clock.next = self.clk_i.val();
        self.n_zero.clock.next = self.clk_i.val();
        self.n_nan.clock.next = self.clk_i.val();
        self.n_inf.clock.next = self.clk_i.val();
        self.n_zero_sign.clock.next = self.clk_i.val();
        self.out.clock.next = self.clk_i.val();

        self.order.a_i.next = self.a_i.val();
        self.order.b_i.next = self.b_i.val();
        self.o_sign.d.next = self.order.sign_o.val();
        self.o_sub.d.next = self.order.sub_o.val();
        self.o_exp.d.next = self.order.exp_o.val();
        self.o_mx.d.next = self.order.mx_o.val();
        self.o_sy.d.next = self.order.sy_o.val();
        self.o_shift.d.next = self.order.shift_o.val();
        self.o_nan.d.next = self.order.nan_o.val();
        self.o_inf.d.next = self.order.inf_o.val();
        self.o_zero_sign.d.next = self.order.zero_sign_o.val();

        self.align.sy_i.next = self.o_sy.q.val();
        self.align.shift_i.next = self.o_shift.q.val();
        self.a_sign.d.next = self.o_sign.q.val();
        self.a_sub.d.next = self.o_sub.q.val();
        self.a_exp.d.next = self.o_exp.q.val();
        self.a_mx.d.next = self.o_mx.q.val();
        self.a_my.d.next = self.align.my_o.val();
        self.a_nan.d.next = self.o_nan.q.val();
        self.a_inf.d.next = self.o_inf.q.val();
        self.a_zero_sign.d.next = self.o_zero_sign.q.val();

        self.sum.sub_i.next = self.a_sub.q.val();
        self.sum.mx_i.next = self.a_mx.q.val();
        self.sum.my_i.next = self.a_my.q.val();
        self.s_sign.d.next = self.a_sign.q.val();
        self.s_exp.d.next = self.a_exp.q.val();
        self.s_total.d.next = self.sum.total_o.val();
        self.s_zero.d.next = self.sum.zero_o.val();
        self.s_nan.d.next = self.a_nan.q.val();
        self.s_inf.d.next = self.a_inf.q.val();
        self.s_zero_sign.d.next = self.a_zero_sign.q.val();

        self.normalize.exp_i.next = self.s_exp.q.val();
        self.normalize.total_i.next = self.s_total.q.val();
        self.n_sign.d.next = self.s_sign.q.val();
        self.n_man.d.next = self.normalize.man_o.val();
        self.n_exp.d.next = self.normalize.exp_o.val();
        self.n_zero.d.next = self.s_zero.q.val();
        self.n_nan.d.next = self.s_nan.q.val();
        self.n_inf.d.next = self.s_inf.q.val();
        self.n_zero_sign.d.next = self.s_zero_sign.q.val();

        self.round.sign_i.next = self.n_sign.q.val();
        self.round.man_i.next = self.n_man.q.val();
        self.round.exp_i.next = self.n_exp.q.val();
        self.round.zero_i.next = self.n_zero.q.val();
        self.round.nan_i.next = self.n_nan.q.val();
        self.round.inf_i.next = self.n_inf.q.val();
        self.round.zero_sign_i.next = self.n_zero_sign.q.val();
        self.out.d.next = self.round.sum_o.val();
        self.sum_o.next = self.out.q.val();
    }
}

//! The leaf key of one 32-bit window of the vector (bytes 4w..4w+3): every
//! lane in it turned into the value the tree folds, so that each node needs
//! only sum, unsigned max, and, or, xor.
//!
//! - unsigned sums, or, xor: the lane as it is;
//! - signed sums: the lane biased by its sign bit (lane ^ sign bit; an
//!   inactive lane is a biased 0, the sign bit), so the tree sums unsigned
//!   and the result formatting takes the bias out (the seed's bias trick);
//! - and: the lane, inactive lanes all ones (the identity);
//! - integer extrema: the seed's sign-flip compare (lane ^ sign bit) for
//!   signed order, and the key inverted within the lane for minima, so a max
//!   tree computes every extremum;
//! - maximumNumber / minimumNumber: the total-order key (sign bit set for
//!   positive lanes, negative lanes inverted; inverted again for min), NaN
//!   mapped to 0, which never wins;
//! - vbool folds: the predicate bit of each lane start in the lane's bit 0.
//!
//! Inactive lanes (`_t` ops, predicate clear) take the identity: 0, or all
//! ones for and. `act_o` bit k is set when slot 4w+k starts an active lane.

use crate::c32;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LeafKey {
    /// The window: bytes 4w..4w+3 of the vector.
    pub win_i: Signal<In, Bits<32>>,
    /// The vbool bits of slots 4w..4w+3.
    pub vb_i: Signal<In, Bits<4>>,
    pub b8_i: Signal<In, Bit>,
    pub w32_i: Signal<In, Bit>,
    pub k_and_i: Signal<In, Bit>,
    pub sext_i: Signal<In, Bit>,
    pub sflip_i: Signal<In, Bit>,
    pub minimum_i: Signal<In, Bit>,
    pub num_i: Signal<In, Bit>,
    pub vbool_fold_i: Signal<In, Bit>,
    pub predicated_i: Signal<In, Bit>,
    /// The keys, each lane in place.
    pub key_o: Signal<Out, Bits<32>>,
    /// Bit k: slot 4w+k starts an active lane (bits 4..63 are 0).
    pub act_o: Signal<Out, Bits<64>>,
    // Slot k starts an active lane.
    act0: Signal<Local, Bit>,
    act1: Signal<Local, Bit>,
    act2: Signal<Local, Bit>,
    act3: Signal<Local, Bit>,
    /// The bytes of active lanes.
    live: Signal<Local, Bits<32>>,
    /// What the window is xor-ed with to make extremum / number keys.
    flip: Signal<Local, Bits<32>>,
    /// The float lanes that are NaN.
    nan: Signal<Local, Bits<32>>,
    /// The lane sign bits of the form; the lanes that are negative.
    signs: Signal<Local, Bits<32>>,
    neg: Signal<Local, Bits<32>>,
    /// Controls as masks (all ones when set).
    m_sign: Signal<Local, Bits<32>>,
    m_num: Signal<Local, Bits<32>>,
    m_min: Signal<Local, Bits<32>>,
    m_and: Signal<Local, Bits<32>>,
    m_sext: Signal<Local, Bits<32>>,
    m_lane: Signal<Local, Bits<32>>,
    /// The window bits kept, and the bits set regardless of the window.
    keep: Signal<Local, Bits<32>>,
    fill: Signal<Local, Bits<32>>,
    t_vbool: Signal<Local, Bits<32>>,
    byte0: Constant<Bits<32>>,
    byte1: Constant<Bits<32>>,
    byte2: Constant<Bits<32>>,
    byte3: Constant<Bits<32>>,
    half0: Constant<Bits<32>>,
    half1: Constant<Bits<32>>,
    ones: Constant<Bits<32>>,
    zero: Constant<Bits<32>>,
    signs8: Constant<Bits<32>>,
    signs16: Constant<Bits<32>>,
    sign32: Constant<Bits<32>>,
    exp16_0: Constant<Bits<32>>,
    man16_0: Constant<Bits<32>>,
    exp16_1: Constant<Bits<32>>,
    man16_1: Constant<Bits<32>>,
    exp32: Constant<Bits<32>>,
    man32: Constant<Bits<32>>,
    bit0: Constant<Bits<32>>,
    bit8: Constant<Bits<32>>,
    bit16: Constant<Bits<32>>,
    bit24: Constant<Bits<32>>,
    zero64: Constant<Bits<64>>,
    slot0: Constant<Bits<64>>,
    slot1: Constant<Bits<64>>,
    slot2: Constant<Bits<64>>,
    slot3: Constant<Bits<64>>,
}

impl Default for LeafKey {
    fn default() -> Self {
        Self {
            win_i: Default::default(),
            vb_i: Default::default(),
            b8_i: Default::default(),
            w32_i: Default::default(),
            k_and_i: Default::default(),
            sext_i: Default::default(),
            sflip_i: Default::default(),
            minimum_i: Default::default(),
            num_i: Default::default(),
            vbool_fold_i: Default::default(),
            predicated_i: Default::default(),
            key_o: Default::default(),
            act_o: Default::default(),
            act0: Default::default(),
            act1: Default::default(),
            act2: Default::default(),
            act3: Default::default(),
            live: Default::default(),
            flip: Default::default(),
            nan: Default::default(),
            signs: Default::default(),
            neg: Default::default(),
            m_sign: Default::default(),
            m_num: Default::default(),
            m_min: Default::default(),
            m_and: Default::default(),
            m_sext: Default::default(),
            m_lane: Default::default(),
            keep: Default::default(),
            fill: Default::default(),
            t_vbool: Default::default(),
            byte0: c32(0xff),
            byte1: c32(0xff00),
            byte2: c32(0xff_0000),
            byte3: c32(0xff00_0000),
            half0: c32(0xffff),
            half1: c32(0xffff_0000),
            ones: c32(0xffff_ffff),
            zero: c32(0),
            signs8: c32(0x8080_8080),
            signs16: c32(0x8000_8000),
            sign32: c32(0x8000_0000),
            exp16_0: c32(0x7c00),
            man16_0: c32(0x03ff),
            exp16_1: c32(0x7c00_0000),
            man16_1: c32(0x03ff_0000),
            exp32: c32(0x7f80_0000),
            man32: c32(0x007f_ffff),
            bit0: c32(1),
            bit8: c32(1 << 8),
            bit16: c32(1 << 16),
            bit24: c32(1 << 24),
            zero64: Constant::new(0u64.into()),
            slot0: Constant::new(1u64.into()),
            slot1: Constant::new(2u64.into()),
            slot2: Constant::new(4u64.into()),
            slot3: Constant::new(8u64.into()),
        }
    }
}

impl Logic for LeafKey {
    #[hdl_gen]
    fn update(&mut self) {
        // Lane starts: every slot for 8-bit lanes, slots 0 and 2 for 16-bit,
        // slot 0 for 32-bit; a `_t` op keeps those whose predicate is set.
        self.act0.next = !self.predicated_i.val() | self.vb_i.val().get_bit(0);
        self.act1.next = self.b8_i.val() & (!self.predicated_i.val() | self.vb_i.val().get_bit(1));
        self.act2.next = !self.w32_i.val() & (!self.predicated_i.val() | self.vb_i.val().get_bit(2));
        self.act3.next = self.b8_i.val() & (!self.predicated_i.val() | self.vb_i.val().get_bit(3));
        self.act_o.next = self.zero64.val();
        if self.act0.val() {
            self.act_o.next = self.act_o.val() | self.slot0.val();
        }
        if self.act1.val() {
            self.act_o.next = self.act_o.val() | self.slot1.val();
        }
        if self.act2.val() {
            self.act_o.next = self.act_o.val() | self.slot2.val();
        }
        if self.act3.val() {
            self.act_o.next = self.act_o.val() | self.slot3.val();
        }
        // Each byte is live when the lane it belongs to is active.
        self.live.next = self.zero.val();
        if self.act0.val() {
            self.live.next = self.live.val() | self.byte0.val();
        }
        if (self.b8_i.val() & self.act1.val()) | (!self.b8_i.val() & self.act0.val()) {
            self.live.next = self.live.val() | self.byte1.val();
        }
        if (self.w32_i.val() & self.act0.val()) | (!self.w32_i.val() & self.act2.val()) {
            self.live.next = self.live.val() | self.byte2.val();
        }
        if (self.b8_i.val() & self.act3.val())
            | (!self.b8_i.val() & self.w32_i.val() & self.act0.val())
            | (!self.b8_i.val() & !self.w32_i.val() & self.act2.val())
        {
            self.live.next = self.live.val() | self.byte3.val();
        }
        // The form's lane sign bits, and the lanes that are negative numbers.
        self.signs.next = self.signs16.val();
        if self.b8_i.val() {
            self.signs.next = self.signs8.val();
        }
        if self.w32_i.val() {
            self.signs.next = self.sign32.val();
        }
        self.neg.next = self.zero.val();
        if self.win_i.val().get_bit(15) & !self.w32_i.val() {
            self.neg.next = self.half0.val();
        }
        if self.win_i.val().get_bit(31) {
            self.neg.next = self.neg.val() | self.half1.val();
            if self.w32_i.val() {
                self.neg.next = self.ones.val();
            }
        }
        // NaN lanes: exponent all ones, mantissa not zero.
        self.nan.next = self.zero.val();
        if ((self.win_i.val() & self.exp16_0.val()) == self.exp16_0.val())
            & (self.win_i.val() & self.man16_0.val()).any()
        {
            self.nan.next = self.half0.val();
        }
        if ((self.win_i.val() & self.exp16_1.val()) == self.exp16_1.val())
            & (self.win_i.val() & self.man16_1.val()).any()
        {
            self.nan.next = self.nan.val() | self.half1.val();
        }
        if self.w32_i.val() {
            self.nan.next = self.zero.val();
            if ((self.win_i.val() & self.exp32.val()) == self.exp32.val()) & (self.win_i.val() & self.man32.val()).any()
            {
                self.nan.next = self.ones.val();
            }
        }
        // Each control as a mask of all ones or zero, so that every key bit
        // is one and-or of the window bit: key = ((win ^ flip) & keep) | fill.
        self.m_sign.next = self.zero.val();
        if self.sflip_i.val() | self.num_i.val() | self.sext_i.val() {
            self.m_sign.next = self.ones.val();
        }
        self.m_sext.next = self.zero.val();
        if self.sext_i.val() {
            self.m_sext.next = self.ones.val();
        }
        self.m_num.next = self.zero.val();
        if self.num_i.val() {
            self.m_num.next = self.ones.val();
        }
        self.m_min.next = self.zero.val();
        if self.minimum_i.val() {
            self.m_min.next = self.ones.val();
        }
        self.m_and.next = self.zero.val();
        if self.k_and_i.val() & !self.vbool_fold_i.val() {
            self.m_and.next = self.ones.val();
        }
        self.m_lane.next = self.ones.val();
        if self.vbool_fold_i.val() {
            self.m_lane.next = self.zero.val();
        }
        // The xor that makes keys: the sign bit for signed order, for signed
        // sums (the bias) and for positive numbers, every bit of a negative
        // number, all bits for minima.
        self.flip.next = (self.signs.val() & self.m_sign.val()) | (self.neg.val() & self.m_num.val());
        self.flip.next = self.flip.val() ^ self.m_min.val();
        // What survives of the window: live lanes that are not NaN (numbers).
        self.keep.next = self.live.val() & !(self.nan.val() & self.m_num.val()) & self.m_lane.val();
        // vbool folds: the predicate bit of each lane start.
        self.t_vbool.next = self.zero.val();
        if self.vbool_fold_i.val() {
            if self.vb_i.val().get_bit(0) {
                self.t_vbool.next = self.t_vbool.val() | self.bit0.val();
            }
            if self.b8_i.val() & self.vb_i.val().get_bit(1) {
                self.t_vbool.next = self.t_vbool.val() | self.bit8.val();
            }
            if !self.w32_i.val() & self.vb_i.val().get_bit(2) {
                self.t_vbool.next = self.t_vbool.val() | self.bit16.val();
            }
            if self.b8_i.val() & self.vb_i.val().get_bit(3) {
                self.t_vbool.next = self.t_vbool.val() | self.bit24.val();
            }
        }
        // Inactive lanes: all ones for an and-fold (its identity), the bias
        // (the sign bit: a biased 0) for a signed sum.
        self.fill.next = (!self.live.val() & self.m_and.val())
            | (!self.live.val() & self.signs.val() & self.m_sext.val())
            | self.t_vbool.val();
        self.key_o.next = ((self.win_i.val() ^ self.flip.val()) & self.keep.val()) | self.fill.val();
    }
}

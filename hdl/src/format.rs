//! The result formatting: the root's value and tie mask to `result_o` and
//! `mask_o`. Sums are widened to their result (sign-extended for signed
//! sums; radds saturated to int16); keys are turned back into lanes;
//! maximumNumber / minimumNumber with no number (root key 0, told by
//! `none_i`) give the canonical quiet NaN; the tie mask is compressed to one
//! bit per lane and reported for rb* ops only.

use crate::c32;
use crosslane_golden::{Family, Form, Op};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ResultFormat {
    pub root_i: Signal<In, Bits<32>>,
    /// maximumNumber / minimumNumber found no number: both of the root's
    /// children are 0 (the root is the larger, 0 only if both are), given
    /// beside the root so that the NaN's choice does not wait for the root's
    /// compare.
    pub none_i: Signal<In, Bit>,
    pub mask_i: Signal<In, Bits<64>>,
    pub b8_i: Signal<In, Bit>,
    pub h16_i: Signal<In, Bit>,
    pub w32_i: Signal<In, Bit>,
    pub k_sum_i: Signal<In, Bit>,
    pub sext_i: Signal<In, Bit>,
    pub saturate_i: Signal<In, Bit>,
    pub extremum_i: Signal<In, Bit>,
    pub sflip_i: Signal<In, Bit>,
    pub minimum_i: Signal<In, Bit>,
    pub num_i: Signal<In, Bit>,
    pub has_mask_i: Signal<In, Bit>,
    pub vbool_fold_i: Signal<In, Bit>,
    pub result_o: Signal<Out, Bits<32>>,
    pub mask_o: Signal<Out, Bits<64>>,
    /// All ones of the lane, the lane's sign bit.
    lane: Signal<Local, Bits<32>>,
    sign: Signal<Local, Bits<32>>,
    /// The root key with a minimum's inversion undone.
    key: Signal<Local, Bits<32>>,
    /// A sum with the bias of a signed sum taken out, sign-extended.
    sum: Signal<Local, Bits<32>>,
    /// The result of each kind of op (0 unless selected).
    t_bits: Signal<Local, Bits<32>>,
    t_sum: Signal<Local, Bits<32>>,
    t_ext: Signal<Local, Bits<32>>,
    t_num: Signal<Local, Bits<32>>,
    t_vbool: Signal<Local, Bits<32>>,
    mask8: Constant<Bits<32>>,
    mask16: Constant<Bits<32>>,
    ones: Constant<Bits<32>>,
    sign8: Constant<Bits<32>>,
    sign16: Constant<Bits<32>>,
    sign32: Constant<Bits<32>>,
    /// Sign bit and extension of the sums at the root (14 bits for 8-bit
    /// lanes, 21 for 16-bit lanes).
    sum_sign_b8: Constant<Bits<32>>,
    sum_ext_b8: Constant<Bits<32>>,
    sum_sign_h16: Constant<Bits<32>>,
    sum_ext_h16: Constant<Bits<32>>,
    /// Bits 20..15 of a 21-bit sum: all equal when it fits int16.
    int16_high: Constant<Bits<32>>,
    int16_max: Constant<Bits<32>>,
    int16_min: Constant<Bits<32>>,
    qnan16: Constant<Bits<32>>,
    qnan32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    zero64: Constant<Bits<64>>,
}

impl Default for ResultFormat {
    fn default() -> Self {
        use crate::node::{sum_width_b8, sum_width_h16};
        let root = crate::LEVELS + 1;
        let (b8, h16) = (sum_width_b8(root), sum_width_h16(root));
        let ext = |w: usize| c32(0xffff_ffff & !((1u64 << w) - 1));
        Self {
            root_i: Default::default(),
            none_i: Default::default(),
            mask_i: Default::default(),
            b8_i: Default::default(),
            h16_i: Default::default(),
            w32_i: Default::default(),
            k_sum_i: Default::default(),
            sext_i: Default::default(),
            saturate_i: Default::default(),
            extremum_i: Default::default(),
            sflip_i: Default::default(),
            minimum_i: Default::default(),
            num_i: Default::default(),
            has_mask_i: Default::default(),
            vbool_fold_i: Default::default(),
            result_o: Default::default(),
            mask_o: Default::default(),
            lane: Default::default(),
            sign: Default::default(),
            key: Default::default(),
            sum: Default::default(),
            t_bits: Default::default(),
            t_sum: Default::default(),
            t_ext: Default::default(),
            t_num: Default::default(),
            t_vbool: Default::default(),
            mask8: c32(0xff),
            mask16: c32(0xffff),
            ones: c32(0xffff_ffff),
            sign8: c32(0x80),
            sign16: c32(0x8000),
            sign32: c32(0x8000_0000),
            sum_sign_b8: c32(1 << (b8 - 1)),
            sum_ext_b8: ext(b8),
            sum_sign_h16: c32(1 << (h16 - 1)),
            sum_ext_h16: ext(h16),
            int16_high: c32(((1u64 << h16) - 1) & !0x7fff),
            int16_max: c32(0x7fff),
            int16_min: c32(0x8000),
            qnan16: c32(Op::new(Family::MaxNum, Form::F16, false).identity() as u64),
            qnan32: c32(Op::new(Family::MaxNum, Form::F32, false).identity() as u64),
            zero32: c32(0),
            one32: c32(1),
            zero64: Constant::new(0u64.into()),
        }
    }
}

impl Logic for ResultFormat {
    #[hdl_gen]
    fn update(&mut self) {
        self.lane.next = self.mask16.val();
        self.sign.next = self.sign16.val();
        if self.b8_i.val() {
            self.lane.next = self.mask8.val();
            self.sign.next = self.sign8.val();
        }
        if self.w32_i.val() {
            self.lane.next = self.ones.val();
            self.sign.next = self.sign32.val();
        }
        self.key.next = self.root_i.val();
        if self.minimum_i.val() {
            self.key.next = self.root_i.val() ^ self.lane.val();
        }
        // One term per kind of result (the controls select one), or-ed.
        // and, or, xor: the root as it is.
        self.t_bits.next = self.zero32.val();
        if !(self.k_sum_i.val() | self.extremum_i.val() | self.num_i.val() | self.vbool_fold_i.val()) {
            self.t_bits.next = self.root_i.val();
        }
        // Sums: the root is unsigned; a signed sum takes the bias out (flips
        // the top bit of the root's width: 64 x 128 = 2^13 for 8-bit lanes,
        // 32 x 2^15 = 2^20 for 16-bit lanes, 16 x 2^31 = 0 mod 2^32) and is
        // sign-extended from it; radds saturates to int16.
        self.sum.next = self.root_i.val();
        if self.sext_i.val() & self.b8_i.val() {
            self.sum.next = self.root_i.val() ^ self.sum_sign_b8.val();
            if !(self.root_i.val() & self.sum_sign_b8.val()).any() {
                self.sum.next = (self.root_i.val() ^ self.sum_sign_b8.val()) | self.sum_ext_b8.val();
            }
        }
        if self.sext_i.val() & self.h16_i.val() {
            self.sum.next = self.root_i.val() ^ self.sum_sign_h16.val();
            if !(self.root_i.val() & self.sum_sign_h16.val()).any() {
                self.sum.next = (self.root_i.val() ^ self.sum_sign_h16.val()) | self.sum_ext_h16.val();
            }
        }
        self.t_sum.next = self.zero32.val();
        if self.k_sum_i.val() {
            self.t_sum.next = self.sum.val();
            if self.b8_i.val() {
                self.t_sum.next = self.sum.val() & self.mask16.val();
            }
            if self.saturate_i.val() {
                self.t_sum.next = self.sum.val() & self.mask16.val();
                if self.sum.val().get_bit(31) & ((self.sum.val() & self.int16_high.val()) != self.int16_high.val()) {
                    self.t_sum.next = self.int16_min.val();
                }
                if !self.sum.val().get_bit(31) & (self.sum.val() & self.int16_high.val()).any() {
                    self.t_sum.next = self.int16_max.val();
                }
            }
        }
        // Integer extrema: the key back to the lane.
        self.t_ext.next = self.zero32.val();
        if self.extremum_i.val() {
            self.t_ext.next = self.key.val();
            if self.sflip_i.val() {
                self.t_ext.next = self.key.val() ^ self.sign.val();
            }
        }
        // Numbers: a positive number's key has the sign bit set, a negative
        // one's is inverted; no number at all is the canonical quiet NaN.
        self.t_num.next = self.zero32.val();
        if self.num_i.val() {
            self.t_num.next = self.key.val() ^ self.lane.val();
            if (self.key.val() & self.sign.val()).any() {
                self.t_num.next = self.key.val() ^ self.sign.val();
            }
            if self.none_i.val() {
                self.t_num.next = self.qnan16.val();
                if self.w32_i.val() {
                    self.t_num.next = self.qnan32.val();
                }
            }
        }
        // vbool folds: one bit.
        self.t_vbool.next = self.zero32.val();
        if self.vbool_fold_i.val() {
            self.t_vbool.next = self.root_i.val() & self.one32.val();
        }
        self.result_o.next =
            self.t_bits.val() | self.t_sum.val() | self.t_ext.val() | self.t_num.val() | self.t_vbool.val();
        // The tie mask, one bit per lane.
        self.mask_o.next = self.mask_i.val();
        if self.h16_i.val() {
            self.mask_o.next = self.zero64.val();
            for l in 0..32 {
                self.mask_o.next = self.mask_o.val().replace_bit(l, self.mask_i.val().get_bit(2 * l));
            }
        }
        if self.w32_i.val() {
            self.mask_o.next = self.zero64.val();
            for l in 0..16 {
                self.mask_o.next = self.mask_o.val().replace_bit(l, self.mask_i.val().get_bit(4 * l));
            }
        }
        if !self.has_mask_i.val() {
            self.mask_o.next = self.zero64.val();
        }
    }
}

//! `crosslane_reduce`: the pipelined log-step reduce tree.
//!
//! The 512-bit vector is cut into 64 byte *slots*. A lane of any form starts
//! at a slot (every slot for 2nx8, every second for nx16/nxf16, every fourth
//! for n_2x32/n_2xf32); the slots in between are padding and hold the node's
//! identity, so one 64-leaf tree of 32-bit nodes serves every form: a 16-bit
//! lane passes its level-0 node unchanged, a 32-bit lane its first two. The
//! vbool bit of the lane starting at slot `s` is bit `s` in every form.
//!
//! Every leaf is turned into a 32-bit *key* so that each node needs only five
//! operators — sum, unsigned max, and, or, xor:
//! - sums: the lane sign- or zero-extended (widening is free: 32-bit nodes);
//! - integer extrema: lane ^ sign bit for signed order (the seed's sign-flip
//!   compare), and the key inverted within the lane for minima, so a max
//!   tree computes every extremum;
//! - maximumNumber / minimumNumber: the total-order key (sign-flip; negative
//!   lanes inverted; inverted again for min) with NaN mapped to 0, which
//!   never wins; a root of 0 means no number: the canonical quiet NaN;
//! - vbool folds: the predicate bit of each lane start, folded by and / or.
//!
//! Inactive `_t` lanes and padding take the identity key (0, or all ones for
//! and), exactly the golden model's "replace by the identity".
//!
//! Beside each node's value runs the seed's tie mask: a node keeps the mask
//! bits of both children on a tie and only the winner's otherwise.
//!
//! Pipeline (index i holds the signal after i register stages; do not change
//! without changing [`LATENCY`]):
//! 1. input register (raw lane windows, vbool, op, valid);
//! 2. leaf keys and the active-lane mask;
//! 3. tree levels 64→32→16→8→4→2→1, one register each (stages 3 to 8);
//! 9. result formatting (saturation, key to value, mask compression).
//!
//! One vector is accepted every clock. An input sampled at rising edge k
//! is on the outputs, `out_valid_o` high, after rising edge k + [`LATENCY`]
//! − 1: [`LATENCY`] edges in all, the sampling edge the first, one per
//! register stage (measured by every testbench's pipeline model). Reset
//! (`rst_ni` low at a rising edge) is synchronous and clears the valid
//! pipeline only.
//!
//! Worked example: `op_i` = rbmax_nx16 (`0x061`), lanes 3 and 9 = 5, the
//! rest 0 → nine clocks later `result_o` = `0x0005`, `mask_o` = `0x208`.

use crate::decode::OpDecode;
use crosslane_golden::OP_SELECT_BITS;
use rust_hdl::prelude::*;

/// Register stages from input to output: an input sampled at rising edge k
/// is on `result_o` / `mask_o` with `out_valid_o` high after edge
/// k + LATENCY − 1 (the sampling edge counts as the first of the LATENCY).
pub const LATENCY: usize = 9;

/// Node operator codes carried down the tree (`kind_q`).
const KIND_XOR: u64 = 0;
const KIND_SUM: u64 = 1;
const KIND_MAX: u64 = 2;
const KIND_AND: u64 = 3;
const KIND_OR: u64 = 4;

#[derive(LogicBlock)]
pub struct CrosslaneReduce {
    pub clk_i: Signal<In, Clock>,
    /// Synchronous reset, active low.
    pub rst_ni: Signal<In, Bit>,
    pub in_valid_i: Signal<In, Bit>,
    /// The op select: `{predicated, family[4:0], form[2:0]}` (golden's table).
    pub op_i: Signal<In, Bits<OP_SELECT_BITS>>,
    pub vec_i: Signal<In, Bits<512>>,
    /// The predicate of a `_t` op, the input of a vbool fold.
    pub vbool_i: Signal<In, Bits<64>>,
    pub out_valid_o: Signal<Out, Bit>,
    /// The result in its low `result_bits`.
    pub result_o: Signal<Out, Bits<32>>,
    /// rb* ops: bit `l` set for every active lane equal to the result.
    pub mask_o: Signal<Out, Bits<64>>,
    // Stage 1: input register.
    raw_q: [DFF<Bits<32>>; 64],
    vbool_q: DFF<Bits<64>>,
    // op_q[k] / valid_q[k]: the op and valid after k+1 register stages.
    op_q: [DFF<Bits<OP_SELECT_BITS>>; 8],
    valid_q: [DFF<Bit>; 8],
    // kind_q[k]: the node operator applied to level k's values.
    kind_q: [DFF<Bits<3>>; 6],
    // Stage 2: leaf keys and their active mask.
    dec_leaf: OpDecode,
    active: Signal<Local, Bits<64>>,
    l0_q: [DFF<Bits<32>>; 64],
    m0_q: DFF<Bits<64>>,
    // Stages 3-8: the tree levels and their tie masks.
    l1_q: [DFF<Bits<32>>; 32],
    l2_q: [DFF<Bits<32>>; 16],
    l3_q: [DFF<Bits<32>>; 8],
    l4_q: [DFF<Bits<32>>; 4],
    l5_q: [DFF<Bits<32>>; 2],
    l6_q: [DFF<Bits<32>>; 1],
    keep1: Signal<Local, Bits<64>>,
    keep2: Signal<Local, Bits<64>>,
    keep3: Signal<Local, Bits<64>>,
    keep4: Signal<Local, Bits<64>>,
    keep5: Signal<Local, Bits<64>>,
    keep6: Signal<Local, Bits<64>>,
    m1_q: DFF<Bits<64>>,
    m2_q: DFF<Bits<64>>,
    m3_q: DFF<Bits<64>>,
    m4_q: DFF<Bits<64>>,
    m5_q: DFF<Bits<64>>,
    m6_q: DFF<Bits<64>>,
    // Stage 9: result formatting.
    dec_out: OpDecode,
    mask_c: Signal<Local, Bits<64>>,
    result_q: DFF<Bits<32>>,
    mask_q: DFF<Bits<64>>,
    out_valid_q: DFF<Bit>,
    dec_in: OpDecode,
    kind_xor: Constant<Bits<3>>,
    kind_sum: Constant<Bits<3>>,
    kind_max: Constant<Bits<3>>,
    kind_and: Constant<Bits<3>>,
    kind_or: Constant<Bits<3>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    mask16: Constant<Bits<32>>,
    int16_high: Constant<Bits<32>>,
    int16_max: Constant<Bits<32>>,
    int16_min: Constant<Bits<32>>,
    zero64: Constant<Bits<64>>,
}

impl Default for CrosslaneReduce {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            rst_ni: Default::default(),
            in_valid_i: Default::default(),
            op_i: Default::default(),
            vec_i: Default::default(),
            vbool_i: Default::default(),
            out_valid_o: Default::default(),
            result_o: Default::default(),
            mask_o: Default::default(),
            raw_q: array_init::array_init(|_| Default::default()),
            vbool_q: Default::default(),
            op_q: array_init::array_init(|_| Default::default()),
            valid_q: array_init::array_init(|_| Default::default()),
            kind_q: array_init::array_init(|_| Default::default()),
            dec_leaf: Default::default(),
            active: Default::default(),
            l0_q: array_init::array_init(|_| Default::default()),
            m0_q: Default::default(),
            l1_q: array_init::array_init(|_| Default::default()),
            l2_q: array_init::array_init(|_| Default::default()),
            l3_q: array_init::array_init(|_| Default::default()),
            l4_q: array_init::array_init(|_| Default::default()),
            l5_q: array_init::array_init(|_| Default::default()),
            l6_q: array_init::array_init(|_| Default::default()),
            keep1: Default::default(),
            keep2: Default::default(),
            keep3: Default::default(),
            keep4: Default::default(),
            keep5: Default::default(),
            keep6: Default::default(),
            m1_q: Default::default(),
            m2_q: Default::default(),
            m3_q: Default::default(),
            m4_q: Default::default(),
            m5_q: Default::default(),
            m6_q: Default::default(),
            dec_out: Default::default(),
            mask_c: Default::default(),
            result_q: Default::default(),
            mask_q: Default::default(),
            out_valid_q: Default::default(),
            dec_in: Default::default(),
            kind_xor: Constant::new(KIND_XOR.into()),
            kind_sum: Constant::new(KIND_SUM.into()),
            kind_max: Constant::new(KIND_MAX.into()),
            kind_and: Constant::new(KIND_AND.into()),
            kind_or: Constant::new(KIND_OR.into()),
            zero32: Constant::new(0u64.into()),
            one32: Constant::new(1u64.into()),
            mask16: Constant::new(0xffffu64.into()),
            int16_high: Constant::new(0xffff_8000u64.into()),
            int16_max: Constant::new(0x7fffu64.into()),
            int16_min: Constant::new(0x8000u64.into()),
            zero64: Constant::new(0u64.into()),
        }
    }
}

/// The update function, with each tree level written out by the macro
/// (rust-hdl's `#[hdl_gen]` needs literal array names and widths).
/// Level rows: (source values, source mask, keep, destination values,
/// destination mask, nodes, child width, kind stage).
macro_rules! crosslane_reduce_update {
    ($(($src:ident, $msrc:ident, $keep:ident, $dst:ident, $mdst:ident, $n:tt, $w:tt, $k:tt)),*) => {
        impl Logic for CrosslaneReduce {
            #[hdl_gen]
            fn update(&mut self) {
                // Clocks.
                for i in 0..64 {
                    self.raw_q[i].clock.next = self.clk_i.val();
                    self.l0_q[i].clock.next = self.clk_i.val();
                }
                for i in 0..8 {
                    self.op_q[i].clock.next = self.clk_i.val();
                    self.valid_q[i].clock.next = self.clk_i.val();
                }
                for i in 0..6 {
                    self.kind_q[i].clock.next = self.clk_i.val();
                }
                self.vbool_q.clock.next = self.clk_i.val();
                self.m0_q.clock.next = self.clk_i.val();
                self.result_q.clock.next = self.clk_i.val();
                self.mask_q.clock.next = self.clk_i.val();
                self.out_valid_q.clock.next = self.clk_i.val();

                // Op and valid down the pipeline; reset clears the valids.
                self.op_q[0].d.next = self.op_i.val();
                self.valid_q[0].d.next = self.in_valid_i.val() & self.rst_ni.val();
                for i in 1..8 {
                    self.op_q[i].d.next = self.op_q[i - 1].q.val();
                    self.valid_q[i].d.next = self.valid_q[i - 1].q.val() & self.rst_ni.val();
                }
                for i in 1..6 {
                    self.kind_q[i].d.next = self.kind_q[i - 1].q.val();
                }

                // Stage 1: the raw lane window of every slot, zero-extended.
                // Slots 61..63 take their window from the top 32 bits, shifted,
                // so no select runs past bit 511.
                self.dec_in.op_i.next = self.op_i.val();
                for i in 0..61 {
                    self.raw_q[i].d.next = self.vec_i.val().get_bits::<32>(i * 8) & self.dec_in.lane_mask_o.val();
                }
                self.raw_q[61].d.next = (self.vec_i.val().get_bits::<32>(480) >> 8) & self.dec_in.lane_mask_o.val();
                self.raw_q[62].d.next = (self.vec_i.val().get_bits::<32>(480) >> 16) & self.dec_in.lane_mask_o.val();
                self.raw_q[63].d.next = (self.vec_i.val().get_bits::<32>(480) >> 24) & self.dec_in.lane_mask_o.val();
                self.vbool_q.d.next = self.vbool_i.val();

                // Stage 2: leaf keys.
                self.dec_leaf.op_i.next = self.op_q[0].q.val();
                self.active.next = self.dec_leaf.lane_starts_o.val();
                if self.dec_leaf.predicated_o.val() {
                    self.active.next = self.dec_leaf.lane_starts_o.val() & self.vbool_q.q.val();
                }
                self.m0_q.d.next = self.active.val();
                self.kind_q[0].d.next = self.kind_xor.val();
                if self.dec_leaf.k_sum_o.val() {
                    self.kind_q[0].d.next = self.kind_sum.val();
                }
                if self.dec_leaf.k_max_o.val() {
                    self.kind_q[0].d.next = self.kind_max.val();
                }
                if self.dec_leaf.k_and_o.val() {
                    self.kind_q[0].d.next = self.kind_and.val();
                }
                if self.dec_leaf.k_or_o.val() {
                    self.kind_q[0].d.next = self.kind_or.val();
                }
                for i in 0..64 {
                    self.l0_q[i].d.next = self.dec_leaf.ident_o.val();
                    if self.active.val().get_bit(i) {
                        self.l0_q[i].d.next = self.raw_q[i].q.val();
                        if self.dec_leaf.sext_o.val() & (self.raw_q[i].q.val() & self.dec_leaf.sign_bit_o.val()).any() {
                            self.l0_q[i].d.next = self.raw_q[i].q.val() | !self.dec_leaf.lane_mask_o.val();
                        }
                        if self.dec_leaf.extremum_o.val() {
                            self.l0_q[i].d.next = self.raw_q[i].q.val() ^ self.dec_leaf.flip_mask_o.val();
                        }
                        if self.dec_leaf.num_o.val() {
                            self.l0_q[i].d.next =
                                (self.raw_q[i].q.val() | self.dec_leaf.sign_bit_o.val()) ^ self.dec_leaf.min_mask_o.val();
                            if (self.raw_q[i].q.val() & self.dec_leaf.sign_bit_o.val()).any() {
                                self.l0_q[i].d.next = self.raw_q[i].q.val()
                                    ^ self.dec_leaf.lane_mask_o.val()
                                    ^ self.dec_leaf.min_mask_o.val();
                            }
                            if (self.raw_q[i].q.val() & (self.dec_leaf.lane_mask_o.val() ^ self.dec_leaf.sign_bit_o.val()))
                                > self.dec_leaf.inf_o.val()
                            {
                                self.l0_q[i].d.next = self.zero32.val();
                            }
                        }
                    }
                    if self.dec_leaf.vbool_fold_o.val() & self.dec_leaf.lane_starts_o.val().get_bit(i) {
                        self.l0_q[i].d.next = self.zero32.val();
                        if self.vbool_q.q.val().get_bit(i) {
                            self.l0_q[i].d.next = self.one32.val();
                        }
                    }
                }

                // Stages 3-8: the tree.
                $(
                    self.$mdst.clock.next = self.clk_i.val();
                    self.$keep.next = self.$msrc.q.val();
                    for j in 0..$n {
                        self.$dst[j].clock.next = self.clk_i.val();
                        self.$dst[j].d.next = self.$src[2 * j].q.val() ^ self.$src[2 * j + 1].q.val();
                        if self.kind_q[$k].q.val() == self.kind_sum.val() {
                            self.$dst[j].d.next = self.$src[2 * j].q.val() + self.$src[2 * j + 1].q.val();
                        }
                        if self.kind_q[$k].q.val() == self.kind_and.val() {
                            self.$dst[j].d.next = self.$src[2 * j].q.val() & self.$src[2 * j + 1].q.val();
                        }
                        if self.kind_q[$k].q.val() == self.kind_or.val() {
                            self.$dst[j].d.next = self.$src[2 * j].q.val() | self.$src[2 * j + 1].q.val();
                        }
                        if self.kind_q[$k].q.val() == self.kind_max.val() {
                            self.$dst[j].d.next = self.$src[2 * j].q.val();
                            if self.$src[2 * j + 1].q.val() > self.$src[2 * j].q.val() {
                                self.$dst[j].d.next = self.$src[2 * j + 1].q.val();
                            }
                        }
                        // The tie mask: the loser's bits are cleared, a tie keeps both.
                        if self.$src[2 * j + 1].q.val() > self.$src[2 * j].q.val() {
                            for t in 0..$w {
                                self.$keep.next = self.$keep.val().replace_bit(2 * j * $w + t, false);
                            }
                        }
                        if self.$src[2 * j].q.val() > self.$src[2 * j + 1].q.val() {
                            for t in 0..$w {
                                self.$keep.next = self.$keep.val().replace_bit((2 * j + 1) * $w + t, false);
                            }
                        }
                    }
                    self.$mdst.d.next = self.$keep.val();
                )*

                // Stage 9: the result.
                self.dec_out.op_i.next = self.op_q[7].q.val();
                self.result_q.d.next = self.l6_q[0].q.val() & self.dec_out.lane_mask_o.val();
                if self.dec_out.k_sum_o.val() {
                    self.result_q.d.next = self.l6_q[0].q.val() & self.dec_out.res_mask_o.val();
                }
                if self.dec_out.saturate_o.val() {
                    self.result_q.d.next = self.l6_q[0].q.val() & self.mask16.val();
                    if !self.l6_q[0].q.val().get_bit(31) & (self.l6_q[0].q.val() & self.int16_high.val()).any() {
                        self.result_q.d.next = self.int16_max.val();
                    }
                    if self.l6_q[0].q.val().get_bit(31)
                        & ((self.l6_q[0].q.val() & self.int16_high.val()) != self.int16_high.val())
                    {
                        self.result_q.d.next = self.int16_min.val();
                    }
                }
                if self.dec_out.extremum_o.val() {
                    self.result_q.d.next =
                        (self.l6_q[0].q.val() ^ self.dec_out.flip_mask_o.val()) & self.dec_out.lane_mask_o.val();
                }
                if self.dec_out.num_o.val() {
                    self.result_q.d.next = self.l6_q[0].q.val()
                        ^ self.dec_out.min_mask_o.val()
                        ^ self.dec_out.lane_mask_o.val();
                    if ((self.l6_q[0].q.val() ^ self.dec_out.min_mask_o.val()) & self.dec_out.sign_bit_o.val()).any() {
                        self.result_q.d.next =
                            self.l6_q[0].q.val() ^ self.dec_out.min_mask_o.val() ^ self.dec_out.sign_bit_o.val();
                    }
                    if self.l6_q[0].q.val() == self.zero32.val() {
                        self.result_q.d.next = self.dec_out.qnan_o.val();
                    }
                }
                if self.dec_out.vbool_fold_o.val() {
                    self.result_q.d.next = self.l6_q[0].q.val() & self.one32.val();
                }
                // The tie mask, one bit per lane.
                self.mask_c.next = self.m6_q.q.val();
                if self.dec_out.form_h16_o.val() {
                    self.mask_c.next = self.zero64.val();
                    for l in 0..32 {
                        self.mask_c.next = self.mask_c.val().replace_bit(l, self.m6_q.q.val().get_bit(2 * l));
                    }
                }
                if self.dec_out.form_w32_o.val() {
                    self.mask_c.next = self.zero64.val();
                    for l in 0..16 {
                        self.mask_c.next = self.mask_c.val().replace_bit(l, self.m6_q.q.val().get_bit(4 * l));
                    }
                }
                if !self.dec_out.has_mask_o.val() {
                    self.mask_c.next = self.zero64.val();
                }
                self.mask_q.d.next = self.mask_c.val();
                self.out_valid_q.d.next = self.valid_q[7].q.val() & self.rst_ni.val();
                self.result_o.next = self.result_q.q.val();
                self.mask_o.next = self.mask_q.q.val();
                self.out_valid_o.next = self.out_valid_q.q.val();
            }
        }
    };
}

crosslane_reduce_update!(
    (l0_q, m0_q, keep1, l1_q, m1_q, 32, 1, 0),
    (l1_q, m1_q, keep2, l2_q, m2_q, 16, 2, 1),
    (l2_q, m2_q, keep3, l3_q, m3_q, 8, 4, 2),
    (l3_q, m3_q, keep4, l4_q, m4_q, 4, 8, 3),
    (l4_q, m4_q, keep5, l5_q, m5_q, 2, 16, 4),
    (l5_q, m5_q, keep6, l6_q, m6_q, 1, 32, 5)
);

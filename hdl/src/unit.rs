//! `crosslane_reduce`: the top, registers and wiring.
//!
//! The 512-bit vector is 64 byte *slots*; a lane of any form starts at a
//! slot (every slot for 2nx8, every second for nx16/nxf16, every fourth for
//! n_2x32/n_2xf32), and the vbool bit of the lane starting at slot `s` is
//! bit `s` in every form. The tree has six levels over the slots:
//!
//! | register | holds | present |
//! |---|---|---|
//! | `in_*` | the op decoded ([`OpDecode`]), the [`LeafKey`] of each 32-bit window | always (the input register) |
//! | `s2_*` | levels 1 and 2 ([`TreeNode`]; level 2 compares and adds from the keys, [`WindowCompare`], [`WindowSum`]) | when `every` divides 4 |
//! | `s3_*` … `s5_*` | levels 3 … 5 | when `every` divides 6 − level |
//! | `f_*` | level 6 (the root), its tie mask, the op's controls | in the default configuration ([`Config::format_stage`]) |
//! | `out_*` | the root through [`ResultFormat`] (level 6 too where there is no `f_*`) | always (the output register) |
//!
//! Levels 4 to 6 whose level below has no register take their compare from
//! their grandchildren ([`AheadCompare`], [`Config::compare_ahead`]), beside
//! the level below rather than after it; in the default configuration every
//! level compares its children.
//!
//! The op is decoded once, before the input register, and the leaf keys are
//! made from the ports with it (`in_ctl`): the input register holds the keys
//! (512 bits, as many as the vector) and the lanes' active bits (64, as many
//! as vbool), so the first tree stage starts at a register rather than behind
//! the decoder and the key logic. The leaves take the op's controls from the
//! decoder's shallow field-by-field decode (`leaf_o`). The control word
//! travels with the data: each level takes its node controls, decoded for
//! the level, straight from the register before it ([`NodeControls`],
//! `l1_ctl` … `l6_ctl`), and the result format the op's controls
//! ([`Controls`], `out_ctl`), so no control fans out across the whole tree
//! and none passes through decode logic on its way to a level's nodes.
//! One vector is accepted every clock. An input sampled at rising edge k is
//! on the outputs, `out_valid_o` high, after rising edge k + L − 1, L =
//! [`Config::latency`] (7, 4, 3 for every = 1, 2, 3): L edges in all, the
//! sampling edge the first. Reset (`rst_ni` low at a rising edge) is
//! synchronous and clears the valid pipeline only.
//!
//! Worked example: `op_i` = rbmax_nx16 (`0x061`), lanes 3 and 9 = 5, the
//! rest 0 → L clocks later `result_o` = `0x0005`, `mask_o` = `0x208`.

use crate::compare::{AheadCompare, WindowCompare, WindowSum};
use crate::decode::{Controls, NodeControls, OpDecode, CONTROL_BITS, OP_CONTROL_BITS};
use crate::format::ResultFormat;
use crate::leaf::LeafKey;
use crate::node::TreeNode;
use crate::pipe::Pipe;
use crate::Config;
use crosslane_golden::OP_SELECT_BITS;
use rust_hdl::prelude::*;

// `#[hdl_gen]` takes the op's controls from the word as `get_bits::<17>(0)`.
const _: () = assert!(OP_CONTROL_BITS == 17);

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
    // The op decoded and the leaf keys, into the input register.
    in_dec: OpDecode,
    in_ctl: Controls,
    leaf: [LeafKey; 16],
    in_key: [Pipe<Bits<32>>; 16],
    in_act: [Pipe<Bits<64>>; 16],
    in_ctrl: Pipe<Bits<CONTROL_BITS>>,
    in_valid: Pipe<Bit>,
    // Levels 1-2.
    l1_ctl: NodeControls,
    l2_ctl: NodeControls,
    l1: [TreeNode; 32],
    l2_cmp: [WindowCompare; 16],
    l2_sum: [WindowSum; 16],
    l2: [TreeNode; 16],
    s2_val: [Pipe<Bits<32>>; 16],
    s2_mask: [Pipe<Bits<64>>; 16],
    s2_ctrl: Pipe<Bits<CONTROL_BITS>>,
    s2_valid: Pipe<Bit>,
    // Level 3.
    l3_ctl: NodeControls,
    l3: [TreeNode; 8],
    s3_val: [Pipe<Bits<32>>; 8],
    s3_mask: [Pipe<Bits<64>>; 8],
    s3_ctrl: Pipe<Bits<CONTROL_BITS>>,
    s3_valid: Pipe<Bit>,
    // Level 4, and its compare from level 2's values where compared ahead.
    l4_ctl: NodeControls,
    l4_ahead: [AheadCompare; 4],
    l4: [TreeNode; 4],
    s4_val: [Pipe<Bits<32>>; 4],
    s4_mask: [Pipe<Bits<64>>; 4],
    s4_ctrl: Pipe<Bits<CONTROL_BITS>>,
    s4_valid: Pipe<Bit>,
    // Level 5 (its compare ahead from level 3's values).
    l5_ctl: NodeControls,
    l5_ahead: [AheadCompare; 2],
    l5: [TreeNode; 2],
    s5_val: [Pipe<Bits<32>>; 2],
    s5_mask: [Pipe<Bits<64>>; 2],
    s5_ctrl: Pipe<Bits<CONTROL_BITS>>,
    s5_valid: Pipe<Bit>,
    // Level 6, the result and the output register.
    l6_ctl: NodeControls,
    out_ctl: Controls,
    l6_ahead: AheadCompare,
    l6: TreeNode,
    // The format stage's register (a wire where the configuration has none):
    // the root, its tie mask, no number, the op's controls, valid.
    f_root: Pipe<Bits<32>>,
    f_mask: Pipe<Bits<64>>,
    f_none: Pipe<Bit>,
    f_ctrl: Pipe<Bits<OP_CONTROL_BITS>>,
    f_valid: Pipe<Bit>,
    format: ResultFormat,
    out_result: Pipe<Bits<32>>,
    out_mask: Pipe<Bits<64>>,
    out_valid: Pipe<Bit>,
    low_byte: Constant<Bits<32>>,
    low_slot: Constant<Bits<64>>,
    /// The compare inputs of the nodes that compare their children; the sum
    /// controls of levels 1 and 2 (their sums are [`WindowSum`]'s).
    no: Constant<Bit>,
}

impl CrosslaneReduce {
    /// The unit with the registers of `config`.
    pub fn new(config: Config) -> Self {
        let reg = |level: usize| config.registered_after(level);
        let ahead = |level: usize| config.compare_ahead(level);
        let node = |level: usize| TreeNode::with_compare_given(level, ahead(level));
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
            in_dec: Default::default(),
            in_ctl: Default::default(),
            leaf: array_init::array_init(|_| Default::default()),
            in_key: array_init::array_init(|_| Pipe::new(true)),
            in_act: array_init::array_init(|_| Pipe::new(true)),
            in_ctrl: Pipe::new(true),
            in_valid: Pipe::with_init(true),
            l1_ctl: NodeControls::new(1),
            l2_ctl: NodeControls::new(2),
            l1: array_init::array_init(|_| TreeNode::new(1)),
            l2_cmp: array_init::array_init(|_| Default::default()),
            l2_sum: array_init::array_init(|_| Default::default()),
            l2: array_init::array_init(|_| TreeNode::new(2)),
            s2_val: array_init::array_init(|_| Pipe::new(reg(2))),
            s2_mask: array_init::array_init(|_| Pipe::new(reg(2))),
            s2_ctrl: Pipe::new(reg(2)),
            s2_valid: Pipe::with_init(reg(2)),
            l3_ctl: NodeControls::new(3),
            l3: array_init::array_init(|_| TreeNode::new(3)),
            s3_val: array_init::array_init(|_| Pipe::new(reg(3))),
            s3_mask: array_init::array_init(|_| Pipe::new(reg(3))),
            s3_ctrl: Pipe::new(reg(3)),
            s3_valid: Pipe::with_init(reg(3)),
            l4_ctl: NodeControls::new(4),
            l4_ahead: array_init::array_init(|_| AheadCompare::new(ahead(4))),
            l4: array_init::array_init(|_| node(4)),
            s4_val: array_init::array_init(|_| Pipe::new(reg(4))),
            s4_mask: array_init::array_init(|_| Pipe::new(reg(4))),
            s4_ctrl: Pipe::new(reg(4)),
            s4_valid: Pipe::with_init(reg(4)),
            l5_ctl: NodeControls::new(5),
            l5_ahead: array_init::array_init(|_| AheadCompare::new(ahead(5))),
            l5: array_init::array_init(|_| node(5)),
            s5_val: array_init::array_init(|_| Pipe::new(reg(5))),
            s5_mask: array_init::array_init(|_| Pipe::new(reg(5))),
            s5_ctrl: Pipe::new(reg(5)),
            s5_valid: Pipe::with_init(reg(5)),
            l6_ctl: NodeControls::new(6),
            out_ctl: Default::default(),
            l6_ahead: AheadCompare::new(ahead(6)),
            l6: node(6),
            f_root: Pipe::new(config.format_stage()),
            f_mask: Pipe::new(config.format_stage()),
            f_none: Pipe::new(config.format_stage()),
            f_ctrl: Pipe::new(config.format_stage()),
            f_valid: Pipe::with_init(config.format_stage()),
            format: Default::default(),
            out_result: Pipe::new(true),
            out_mask: Pipe::new(true),
            out_valid: Pipe::with_init(true),
            low_byte: Constant::new(0xffu64.into()),
            low_slot: Constant::new(1u64.into()),
            no: Constant::new(false),
        }
    }
}

impl Default for CrosslaneReduce {
    fn default() -> Self {
        Self::new(Config::DEFAULT)
    }
}

/// The update function. The level rows are written out by the macro
/// (rust-hdl's `#[hdl_gen]` needs literal field names): (controls, nodes,
/// node count, source values, source masks, destination values, masks,
/// control word, valid, source control word, source valid); then the levels
/// whose nodes can take their compare from an [`AheadCompare`] array (the
/// compares, nodes, node count, grandchildren's values). Level 6, one node,
/// is wired by hand.
macro_rules! crosslane_reduce_update {
    ($(($dec:ident, $node:ident, $n:tt, $sv:ident, $sm:ident, $dv:ident, $dm:ident, $dop:ident, $dok:ident, $sop:ident, $sok:ident)),*;
     $(($ahead:ident, $anode:ident, $an:tt, $gv:ident)),*) => {
        impl Logic for CrosslaneReduce {
            #[hdl_gen]
            fn update(&mut self) {
                // The op decoded and the leaf keys of each 32-bit window, into the input register.
                self.in_dec.op_i.next = self.op_i.val();
                self.in_ctl.ctrl_i.next = self.in_dec.leaf_o.val();
                self.in_ctrl.clock.next = self.clk_i.val();
                self.in_valid.clock.next = self.clk_i.val();
                self.in_ctrl.d.next = self.in_dec.ctrl_o.val();
                self.in_valid.d.next = self.in_valid_i.val() & self.rst_ni.val();
                for w in 0..16 {
                    self.leaf[w].win_i.next = self.vec_i.val().get_bits::<32>(32 * w);
                    self.leaf[w].vb_i.next = self.vbool_i.val().get_bits::<4>(4 * w);
                    self.leaf[w].b8_i.next = self.in_ctl.b8_o.val();
                    self.leaf[w].w32_i.next = self.in_ctl.w32_o.val();
                    self.leaf[w].k_and_i.next = self.in_ctl.k_and_o.val();
                    self.leaf[w].sext_i.next = self.in_ctl.sext_o.val();
                    self.leaf[w].sflip_i.next = self.in_ctl.sflip_o.val();
                    self.leaf[w].minimum_i.next = self.in_ctl.minimum_o.val();
                    self.leaf[w].num_i.next = self.in_ctl.num_o.val();
                    self.leaf[w].vbool_fold_i.next = self.in_ctl.vbool_fold_o.val();
                    self.leaf[w].predicated_i.next = self.in_ctl.predicated_o.val();
                    self.in_key[w].clock.next = self.clk_i.val();
                    self.in_act[w].clock.next = self.clk_i.val();
                    self.in_key[w].d.next = self.leaf[w].key_o.val();
                    self.in_act[w].d.next = self.leaf[w].act_o.val();
                }

                // Levels 1-2, one 32-bit window at a time.
                self.l1_ctl.ctrl_i.next = self.in_ctrl.q.val();
                self.l2_ctl.ctrl_i.next = self.in_ctrl.q.val();
                for w in 0..16 {
                    // Level 1: the byte pairs of the window.
                    self.l1[2 * w].a_i.next = self.in_key[w].q.val() & self.low_byte.val();
                    self.l1[2 * w].b_i.next = (self.in_key[w].q.val() >> 8) & self.low_byte.val();
                    self.l1[2 * w + 1].a_i.next = (self.in_key[w].q.val() >> 16) & self.low_byte.val();
                    self.l1[2 * w + 1].b_i.next = (self.in_key[w].q.val() >> 24) & self.low_byte.val();
                    self.l1[2 * w].ma_i.next = self.in_act[w].q.val() & self.low_slot.val();
                    self.l1[2 * w].mb_i.next = (self.in_act[w].q.val() >> 1) & self.low_slot.val();
                    self.l1[2 * w + 1].ma_i.next = (self.in_act[w].q.val() >> 2) & self.low_slot.val();
                    self.l1[2 * w + 1].mb_i.next = (self.in_act[w].q.val() >> 3) & self.low_slot.val();
                    // Level 2: the two halves of the window, compared from the keys.
                    self.l2_cmp[w].key_i.next = self.in_key[w].q.val();
                    self.l2_cmp[w].pairs_i.next = !self.l1_ctl.pass_o.val();
                    self.l2[w].b_wins_i.next = self.l2_cmp[w].b_wins_o.val();
                    self.l2[w].a_wins_i.next = self.l2_cmp[w].a_wins_o.val();
                    self.l2[w].a_i.next = self.l1[2 * w].val_o.val();
                    self.l2[w].b_i.next = self.l1[2 * w + 1].val_o.val();
                    self.l2[w].ma_i.next = self.l1[2 * w].mask_o.val();
                    self.l2[w].mb_i.next = self.l1[2 * w + 1].mask_o.val();
                    self.l2[w].pass_i.next = self.l2_ctl.pass_o.val();
                    // Level 2's sum, from the keys too: levels 1 and 2 add nothing.
                    self.l2_sum[w].key_i.next = self.in_key[w].q.val();
                    self.l2_sum[w].pairs_i.next = !self.l1_ctl.pass_o.val();
                    self.l2_sum[w].sum_i.next = self.l2_ctl.sum_o.val();
                    self.l2[w].sum_i.next = self.no.val();
                    self.l2[w].max_i.next = self.l2_ctl.max_o.val();
                    self.l2[w].and_i.next = self.l2_ctl.and_o.val();
                    self.l2[w].or_i.next = self.l2_ctl.or_o.val();
                    self.l2[w].xor_i.next = self.l2_ctl.xor_o.val();
                    self.s2_val[w].clock.next = self.clk_i.val();
                    self.s2_mask[w].clock.next = self.clk_i.val();
                    self.s2_val[w].d.next = self.l2[w].val_o.val() | self.l2_sum[w].sum_o.val();
                    self.s2_mask[w].d.next = self.l2[w].mask_o.val();
                }
                for j in 0..32 {
                    self.l1[j].pass_i.next = self.l1_ctl.pass_o.val();
                    self.l1[j].sum_i.next = self.no.val();
                    self.l1[j].max_i.next = self.l1_ctl.max_o.val();
                    self.l1[j].and_i.next = self.l1_ctl.and_o.val();
                    self.l1[j].or_i.next = self.l1_ctl.or_o.val();
                    self.l1[j].xor_i.next = self.l1_ctl.xor_o.val();
                    self.l1[j].b_wins_i.next = self.no.val();
                    self.l1[j].a_wins_i.next = self.no.val();
                }
                self.s2_ctrl.clock.next = self.clk_i.val();
                self.s2_valid.clock.next = self.clk_i.val();
                self.s2_ctrl.d.next = self.in_ctrl.q.val();
                self.s2_valid.d.next = self.in_valid.q.val() & self.rst_ni.val();

                // Levels 3-5.
                $(
                    self.$dec.ctrl_i.next = self.$sop.q.val();
                    for j in 0..$n {
                        self.$node[j].a_i.next = self.$sv[2 * j].q.val();
                        self.$node[j].b_i.next = self.$sv[2 * j + 1].q.val();
                        self.$node[j].ma_i.next = self.$sm[2 * j].q.val();
                        self.$node[j].mb_i.next = self.$sm[2 * j + 1].q.val();
                        self.$node[j].pass_i.next = self.$dec.pass_o.val();
                        self.$node[j].sum_i.next = self.$dec.sum_o.val();
                        self.$node[j].max_i.next = self.$dec.max_o.val();
                        self.$node[j].and_i.next = self.$dec.and_o.val();
                        self.$node[j].or_i.next = self.$dec.or_o.val();
                        self.$node[j].xor_i.next = self.$dec.xor_o.val();
                        self.$dv[j].clock.next = self.clk_i.val();
                        self.$dm[j].clock.next = self.clk_i.val();
                        self.$dv[j].d.next = self.$node[j].val_o.val();
                        self.$dm[j].d.next = self.$node[j].mask_o.val();
                    }
                    self.$dop.clock.next = self.clk_i.val();
                    self.$dok.clock.next = self.clk_i.val();
                    self.$dop.d.next = self.$sop.q.val();
                    self.$dok.d.next = self.$sok.q.val() & self.rst_ni.val();
                )*

                // The compares: level 3 compares its children; levels 4 to 6 take
                // theirs from their grandchildren (used where the configuration
                // compares ahead, else ignored).
                for j in 0..8 {
                    self.l3[j].b_wins_i.next = self.no.val();
                    self.l3[j].a_wins_i.next = self.no.val();
                }
                $(
                    for k in 0..$an {
                        self.$ahead[k].l0_i.next = self.$gv[4 * k].q.val();
                        self.$ahead[k].l1_i.next = self.$gv[4 * k + 1].q.val();
                        self.$ahead[k].r0_i.next = self.$gv[4 * k + 2].q.val();
                        self.$ahead[k].r1_i.next = self.$gv[4 * k + 3].q.val();
                        self.$anode[k].b_wins_i.next = self.$ahead[k].b_wins_o.val();
                        self.$anode[k].a_wins_i.next = self.$ahead[k].a_wins_o.val();
                    }
                )*
                self.l6_ahead.l0_i.next = self.s4_val[0].q.val();
                self.l6_ahead.l1_i.next = self.s4_val[1].q.val();
                self.l6_ahead.r0_i.next = self.s4_val[2].q.val();
                self.l6_ahead.r1_i.next = self.s4_val[3].q.val();

                // Level 6, the result and the output register.
                self.l6_ctl.ctrl_i.next = self.s5_ctrl.q.val();
                self.l6.a_i.next = self.s5_val[0].q.val();
                self.l6.b_i.next = self.s5_val[1].q.val();
                self.l6.ma_i.next = self.s5_mask[0].q.val();
                self.l6.mb_i.next = self.s5_mask[1].q.val();
                self.l6.pass_i.next = self.l6_ctl.pass_o.val();
                self.l6.sum_i.next = self.l6_ctl.sum_o.val();
                self.l6.max_i.next = self.l6_ctl.max_o.val();
                self.l6.and_i.next = self.l6_ctl.and_o.val();
                self.l6.or_i.next = self.l6_ctl.or_o.val();
                self.l6.xor_i.next = self.l6_ctl.xor_o.val();
                self.l6.b_wins_i.next = self.l6_ahead.b_wins_o.val();
                self.l6.a_wins_i.next = self.l6_ahead.a_wins_o.val();
                self.f_root.clock.next = self.clk_i.val();
                self.f_mask.clock.next = self.clk_i.val();
                self.f_none.clock.next = self.clk_i.val();
                self.f_ctrl.clock.next = self.clk_i.val();
                self.f_valid.clock.next = self.clk_i.val();
                self.f_root.d.next = self.l6.val_o.val();
                // No number: the root's children are both 0 (level 6 compares keys).
                self.f_none.d.next = !(self.s5_val[0].q.val() | self.s5_val[1].q.val()).any();
                self.f_mask.d.next = self.l6.mask_o.val();
                self.f_ctrl.d.next = self.s5_ctrl.q.val().get_bits::<17>(0);
                self.f_valid.d.next = self.s5_valid.q.val() & self.rst_ni.val();
                self.out_ctl.ctrl_i.next = self.f_ctrl.q.val();
                self.format.root_i.next = self.f_root.q.val();
                self.format.none_i.next = self.f_none.q.val();
                self.format.mask_i.next = self.f_mask.q.val();
                self.format.b8_i.next = self.out_ctl.b8_o.val();
                self.format.h16_i.next = self.out_ctl.h16_o.val();
                self.format.w32_i.next = self.out_ctl.w32_o.val();
                self.format.k_sum_i.next = self.out_ctl.k_sum_o.val();
                self.format.sext_i.next = self.out_ctl.sext_o.val();
                self.format.saturate_i.next = self.out_ctl.saturate_o.val();
                self.format.extremum_i.next = self.out_ctl.extremum_o.val();
                self.format.sflip_i.next = self.out_ctl.sflip_o.val();
                self.format.minimum_i.next = self.out_ctl.minimum_o.val();
                self.format.num_i.next = self.out_ctl.num_o.val();
                self.format.has_mask_i.next = self.out_ctl.has_mask_o.val();
                self.format.vbool_fold_i.next = self.out_ctl.vbool_fold_o.val();
                self.out_result.clock.next = self.clk_i.val();
                self.out_mask.clock.next = self.clk_i.val();
                self.out_valid.clock.next = self.clk_i.val();
                self.out_result.d.next = self.format.result_o.val();
                self.out_mask.d.next = self.format.mask_o.val();
                self.out_valid.d.next = self.f_valid.q.val() & self.rst_ni.val();
                self.result_o.next = self.out_result.q.val();
                self.mask_o.next = self.out_mask.q.val();
                self.out_valid_o.next = self.out_valid.q.val();
            }
        }
    };
}

crosslane_reduce_update!(
    (l3_ctl, l3, 8, s2_val, s2_mask, s3_val, s3_mask, s3_ctrl, s3_valid, s2_ctrl, s2_valid),
    (l4_ctl, l4, 4, s3_val, s3_mask, s4_val, s4_mask, s4_ctrl, s4_valid, s3_ctrl, s3_valid),
    (l5_ctl, l5, 2, s4_val, s4_mask, s5_val, s5_mask, s5_ctrl, s5_valid, s4_ctrl, s4_valid);
    (l4_ahead, l4, 4, s2_val),
    (l5_ahead, l5, 2, s3_val)
);

/// The stack that building the unit or one step of its simulation may
/// need. rust-hdl's unit is a large value, built on the stack, and its
/// update is one function with a large frame: 2–3 MB in all for every1,
/// more than a spawned thread's default 2 MB. Where less than this remains,
/// the work runs on a stack of its own (`stacker`; the main thread's 8 MB
/// needs none).
const UNIT_STACK: usize = 4 << 20;

/// Run `f`, on a stack of its own where less than [`UNIT_STACK`] remains.
pub fn with_unit_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(UNIT_STACK, 4 * UNIT_STACK, f)
}

/// `config`'s unit, built, connected and boxed on a stack with room for it:
/// what the simulation steps and the generator emits.
pub fn connected_unit(config: Config) -> Box<CrosslaneReduce> {
    with_unit_stack(|| {
        let mut uut = Box::new(CrosslaneReduce::new(config));
        uut.connect_all();
        uut
    })
}

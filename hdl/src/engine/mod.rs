//! The CrossLaneReduce engine: the 64-byte instruction in, validated
//! ([`check::InstCheck`]), its src pattern walked over the active
//! partitions ([`walk::Walk4d`]), read from the SBUF's banks, folded, and
//! the results written to the dst pattern (docs/engine.md).
//!
//! Up to 16 elements a clock from one row when dimension 0 has a unit
//! stride and the axis is All (D60), a column's partitions 16 a clock with
//! axis Partitions (D61), one element a clock otherwise (D59); 8 and 8 in
//! the engine of 8 lanes ([`Engine::new`], D65).
//! The datapath, clock by clock after a read request in clock t (the SBUF
//! answers in clock t + [`READ_LATENCY`]):
//!
//! | clock | stage |
//! |---|---|
//! | t | request: partition p0 + channel (+ j on lane j), the chunk's 64-byte row |
//! | t+1 | the rows on `rd_data_i`; the chunk's elements picked out into 16 (8) lanes |
//! | t+2 .. t+6 | a `ToF32` a lane (2), × scale by an `F32Mul` a lane for AVERAGE (2); BITVEC's raw bits wait beside |
//! | t+6 | [`fill::BeatPack`]: into beats of 16 32-bit lanes, golden's beats |
//! | t+7 .. t+15 | the beat folded: `BeatSum` (ADD, AVERAGE) or the reduce unit (`rmaxnum_n_2xf32_t`, `ror`/`rand`/`rxor` `_t`) |
//! | t+15 | [`fold::FoldAcc`]: the beats of a fold combined in order |
//! | t+16 .. t+18 | `FromF32` (2) for ARITH |
//! | t+19 | the write on the port: dst partition, row, data, byte strobes |
//!
//! Axis All folds every element of every active partition (partition
//! outer, the walk inner) into one value; axis Partitions folds each
//! element of the walk across the partitions (the channel inner). With
//! axis Partitions and a dst that meets the src, each column waits for
//! the write before it ([`DEPTH`] clocks; D58).

pub mod check;
pub mod fill;
pub mod fold;
pub mod lane;
pub mod walk;

use crate::beat_sum::BeatSum;
use crate::from_f32::FromF32;
use crate::unit::CrosslaneReduce;
use crate::{k, Config};
use check::{InstCheck, CHECK_LATENCY};
use crosslane_golden::instruction::ReduceOp;
use crosslane_golden::ops::{Family, Form, Op};
use fill::{BeatPack, LANES};
use fold::FoldAcc;
use lane::LaneConv;
use rust_hdl::prelude::*;
use walk::Walk4d;

/// Clocks from a read request to its row on `rd_data_i`.
pub const READ_LATENCY: usize = 1;

/// Clocks from a read request to the write of the result it completes, at
/// most: 19, and 20 when a fold's last chunk spills into a short last beat
/// (`BeatPack` sends that beat a clock after the full one).
pub const DEPTH: usize = 20;

/// The reduce unit's configuration inside the engine.
pub const UNIT_CONFIG: Config = Config::DEFAULT;

const _: () = assert!(UNIT_CONFIG.latency() == 7, "the engine delays the unit's result by 8 - 7 clocks");

/// The FSM's states.
pub const IDLE: u64 = 0;
pub const CHECK: u64 = 1;
pub const RUN: u64 = 2;
pub const WAIT: u64 = 3;
pub const DRAIN: u64 = 4;

#[derive(LogicBlock)]
pub struct Engine {
    pub clk_i: Signal<In, Clock>,
    /// Synchronous reset, active low.
    pub rst_ni: Signal<In, Bit>,
    /// Bytes of each SBUF partition (1 to 2^21), as rule 9 checks against.
    pub pb_i: Signal<In, Bits<22>>,
    /// An instruction is taken when valid and ready are high at a rising edge.
    pub inst_valid_i: Signal<In, Bit>,
    /// The 64 bytes in memory order: byte b in bits 8b+7..8b.
    pub inst_i: Signal<In, Bits<512>>,
    pub inst_ready_o: Signal<Out, Bit>,
    /// One clock: the instruction is finished (accepted and every write
    /// issued), or rejected with nothing written.
    pub done_o: Signal<Out, Bit>,
    pub accepted_o: Signal<Out, Bit>,
    /// On a reject, the first failing rule (instruction.md §3), 1 to 13.
    pub rule_o: Signal<Out, Bits<4>>,
    /// A read of one partition's 64-byte row; the row comes back on
    /// `rd_data_i` READ_LATENCY clocks after the clock it is taken in.
    /// Bit j: a read of partition `rd_partition_o` + j (axis Partitions
    /// reads up to 16 partitions a clock, axis All only partition + 0).
    pub rd_valid_o: Signal<Out, Bits<16>>,
    /// The SBUF takes this clock's read (every lane of it); low: a stall,
    /// the same read stays on the port (D62).
    pub rd_ready_i: Signal<In, Bit>,
    pub rd_partition_o: Signal<Out, Bits<7>>,
    pub rd_row_o: Signal<Out, Bits<15>>,
    /// Lane j's row in bits 512j+511..512j.
    pub rd_data_i: Signal<In, Bits<8192>>,
    /// A write of the bytes of a row whose strobe bit is set.
    pub wr_valid_o: Signal<Out, Bit>,
    pub wr_partition_o: Signal<Out, Bits<7>>,
    pub wr_row_o: Signal<Out, Bits<15>>,
    pub wr_data_o: Signal<Out, Bits<512>>,
    pub wr_strb_o: Signal<Out, Bits<64>>,
    // Control.
    inst: DFF<Bits<512>>,
    pb: DFF<Bits<22>>,
    state: DFF<Bits<3>>,
    count: DFF<Bits<8>>,
    channel: DFF<Bits<8>>,
    first_pending: DFF<Bit>,
    overlap: DFF<Bit>,
    done: DFF<Bit>,
    accepted: DFF<Bit>,
    rule: DFF<Bits<4>>,
    check: InstCheck,
    /// The src pattern the walk takes: dimensions 0 and 1 merged into one
    /// run when they are contiguous (D63), registered during the check.
    src_tensor: DFF<Bits<160>>,
    src_walk: Walk4d,
    dst_walk: Walk4d,
    // The datapath.
    /// A chunk's flags (bit 0 valid, 1 first, 2 last) and count (bits 7..3).
    m1: DFF<Bits<8>>,
    m1_byte: DFF<Bits<6>>,
    m2: DFF<Bits<8>>,
    /// The chunk's elements, one a lane: picked, converted, scaled.
    lanes: Vec<LaneConv>,
    conv_wait: [DFF<Bits<512>>; 2],
    raw_wait: [DFF<Bits<512>>; 4],
    meta_wait: [DFF<Bits<8>>; 4],
    fill: BeatPack,
    beat_sum: BeatSum,
    unit: CrosslaneReduce,
    unit_wait: DFF<Bits<32>>,
    beat_meta: [DFF<Bits<3>>; 8],
    fold: FoldAcc,
    from_f32: FromF32,
    res_wait: [DFF<Bits<32>>; 2],
    res_valid: [DFF<Bit>; 2],
    wr_valid: DFF<Bit>,
    wr_partition: DFF<Bits<7>>,
    wr_row: DFF<Bits<15>>,
    wr_data: DFF<Bits<512>>,
    wr_strb: DFF<Bits<64>>,
    // Fields and wires.
    in_dt: Signal<Local, Bits<4>>,
    out_dt: Signal<Local, Bits<4>>,
    in_lg: Signal<Local, Bits<2>>,
    out_lg: Signal<Local, Bits<2>>,
    in_sizes: Signal<Local, Bits<32>>,
    out_sizes: Signal<Local, Bits<32>>,
    op: Signal<Local, Bits<8>>,
    bitvec: Signal<Local, Bit>,
    partitions: Signal<Local, Bit>,
    nac_last: Signal<Local, Bits<8>>,
    chan_last: Signal<Local, Bit>,
    fold_first: Signal<Local, Bit>,
    fold_last: Signal<Local, Bit>,
    final_elem: Signal<Local, Bit>,
    /// A read this clock (of the lanes in `chunk`).
    rd: Signal<Local, Bit>,
    /// The read taken by the SBUF (no stall): the walk moves on.
    taken: Signal<Local, Bit>,
    /// Axis Partitions: the active partitions from `channel` on.
    left: Signal<Local, Bits<8>>,
    ones16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    /// The lanes, for axis Partitions' channel count.
    max_chunk8: Constant<Bits<8>>,
    conv: Signal<Local, Bits<512>>,
    product: Signal<Local, Bits<512>>,
    raw: Signal<Local, Bits<512>>,
    value6: Signal<Local, Bits<512>>,
    vbool: Signal<Local, Bits<64>>,
    /// Dimension 0 has a unit stride and the axis is All: chunks of a row.
    wide: Signal<Local, Bit>,
    /// num_elem[0] × num_elem[1] of the src.
    n01: Signal<Local, Bits<32>>,
    /// Dimension 1 continues dimension 0's run (step_elem[1] = num_elem[0])
    /// and the two fit one 16-bit count.
    merge: Signal<Local, Bit>,
    merged: Signal<Local, Bits<160>>,
    row_left: Signal<Local, Bits<16>>,
    chunk: Signal<Local, Bits<16>>,
    beat_value: Signal<Local, Bits<32>>,
    res_value: Signal<Local, Bits<64>>,
    pattern: Signal<Local, Bits<64>>,
    wr_wide: Signal<Local, Bits<512>>,
    width_mask: Signal<Local, Bits<64>>,
    sizes: Constant<Bits<32>>,
    op_max: Constant<Bits<9>>,
    op_or: Constant<Bits<9>>,
    op_and: Constant<Bits<9>>,
    op_xor: Constant<Bits<9>>,
    one16: Constant<Bits<16>>,
    zero64: Constant<Bits<64>>,
    /// The lanes: the largest chunk.
    max_chunk: Constant<Bits<16>>,
    row_bytes: Constant<Bits<16>>,
    ones: Constant<Bits<64>>,
    zero3: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
    zero4: Constant<Bits<4>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    zero512: Constant<Bits<512>>,
    lg0: Constant<Bits<2>>,
    lg2: Constant<Bits<2>>,
    lg3: Constant<Bits<2>>,
    op_average: Constant<Bits<8>>,
    op_maximum: Constant<Bits<8>>,
    op_bor: Constant<Bits<8>>,
    op_band: Constant<Bits<8>>,
    op_bxor: Constant<Bits<8>>,
    one64: Constant<Bits<64>>,
    eight: Constant<Bits<64>>,
    check_done: Constant<Bits<8>>,
    depth_done: Constant<Bits<8>>,
    s_idle: Constant<Bits<3>>,
    s_check: Constant<Bits<3>>,
    s_run: Constant<Bits<3>>,
    s_wait: Constant<Bits<3>>,
    s_drain: Constant<Bits<3>>,
}

fn op_code(family: Family, form: Form) -> Constant<Bits<9>> {
    k(Op::new(family, form, true).code().into())
}

/// The lanes an engine can have: elements picked, converted and scaled a
/// clock (the 8-lane engine fits the largest ECP5; D65).
pub const LANE_COUNTS: [usize; 2] = [8, LANES];

impl Default for Engine {
    /// The engine of 16 lanes.
    fn default() -> Self {
        Self::new(LANES)
    }
}

impl Engine {
    /// An engine of `lanes` lanes (one of [`LANE_COUNTS`]): up to `lanes`
    /// elements of a row a clock with axis All, `lanes` partitions a clock
    /// with axis Partitions. Beats stay golden's 16 lanes: `BeatPack` fills
    /// them from chunks of up to `lanes`.
    pub fn new(lanes: usize) -> Self {
        assert!(LANE_COUNTS.contains(&lanes), "an engine has 8 or 16 lanes, not {lanes}");
        Self {
            clk_i: Default::default(),
            rst_ni: Default::default(),
            pb_i: Default::default(),
            inst_valid_i: Default::default(),
            inst_i: Default::default(),
            inst_ready_o: Default::default(),
            done_o: Default::default(),
            accepted_o: Default::default(),
            rule_o: Default::default(),
            rd_valid_o: Default::default(),
            rd_ready_i: Default::default(),
            rd_partition_o: Default::default(),
            rd_row_o: Default::default(),
            rd_data_i: Default::default(),
            wr_valid_o: Default::default(),
            wr_partition_o: Default::default(),
            wr_row_o: Default::default(),
            wr_data_o: Default::default(),
            wr_strb_o: Default::default(),
            inst: Default::default(),
            pb: Default::default(),
            state: Default::default(),
            count: Default::default(),
            channel: Default::default(),
            first_pending: Default::default(),
            overlap: Default::default(),
            done: Default::default(),
            accepted: Default::default(),
            rule: Default::default(),
            check: Default::default(),
            src_tensor: Default::default(),
            src_walk: Default::default(),
            dst_walk: Default::default(),
            m1: Default::default(),
            m1_byte: Default::default(),
            m2: Default::default(),
            lanes: (0..lanes).map(LaneConv::new).collect(),
            conv_wait: Default::default(),
            raw_wait: Default::default(),
            meta_wait: Default::default(),
            fill: Default::default(),
            beat_sum: BeatSum::new(2),
            unit: CrosslaneReduce::new(UNIT_CONFIG),
            unit_wait: Default::default(),
            beat_meta: Default::default(),
            fold: Default::default(),
            from_f32: FromF32::new(2),
            res_wait: Default::default(),
            res_valid: Default::default(),
            wr_valid: Default::default(),
            wr_partition: Default::default(),
            wr_row: Default::default(),
            wr_data: Default::default(),
            wr_strb: Default::default(),
            in_dt: Default::default(),
            out_dt: Default::default(),
            in_lg: Default::default(),
            out_lg: Default::default(),
            in_sizes: Default::default(),
            out_sizes: Default::default(),
            op: Default::default(),
            bitvec: Default::default(),
            partitions: Default::default(),
            nac_last: Default::default(),
            chan_last: Default::default(),
            fold_first: Default::default(),
            fold_last: Default::default(),
            final_elem: Default::default(),
            rd: Default::default(),
            taken: Default::default(),
            left: Default::default(),
            ones16: k(0xffff),
            zero16: k(0),
            max_chunk8: k(lanes as u64),
            conv: Default::default(),
            product: Default::default(),
            raw: Default::default(),
            value6: Default::default(),
            vbool: Default::default(),
            wide: Default::default(),
            n01: Default::default(),
            merge: Default::default(),
            merged: Default::default(),
            row_left: Default::default(),
            chunk: Default::default(),
            beat_value: Default::default(),
            res_value: Default::default(),
            pattern: Default::default(),
            wr_wide: Default::default(),
            width_mask: Default::default(),
            sizes: k(check::size_table()),
            op_max: op_code(Family::MaxNum, Form::F32),
            // The bitwise folds on 32-bit lanes (the elements zero-extended).
            op_or: op_code(Family::Or, Form::W32),
            op_and: op_code(Family::And, Form::W32),
            op_xor: op_code(Family::Xor, Form::W32),
            one16: k(1),
            zero64: k(0),
            max_chunk: k(lanes as u64),
            row_bytes: k(64),
            ones: k(u64::MAX),
            zero3: k(0),
            one3: k(1),
            zero4: k(0),
            zero8: k(0),
            one8: k(1),
            zero512: k(0),
            lg0: k(0),
            lg2: k(2),
            lg3: k(3),
            op_average: k(ReduceOp::Average as u64),
            op_maximum: k(ReduceOp::Max as u64),
            op_bor: k(ReduceOp::BitwiseOr as u64),
            op_band: k(ReduceOp::BitwiseAnd as u64),
            op_bxor: k(ReduceOp::BitwiseXor as u64),
            one64: k(1),
            eight: k(8),
            check_done: k(CHECK_LATENCY as u64),
            depth_done: k(DEPTH as u64 - 1),
            s_idle: k(IDLE),
            s_check: k(CHECK),
            s_run: k(RUN),
            s_wait: k(WAIT),
            s_drain: k(DRAIN),
        }
    }
}

impl Logic for Engine {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clk_i,
            inst,
            pb,
            src_tensor,
            state,
            count,
            channel,
            first_pending,
            overlap,
            done,
            accepted,
            rule,
            m1,
            m1_byte,
            m2,
            unit_wait,
            wr_valid,
            wr_partition,
            wr_row,
            wr_data,
            wr_strb
        );
        for i in 0..2 {
            self.conv_wait[i].clock.next = self.clk_i.val();
            self.res_wait[i].clock.next = self.clk_i.val();
            self.res_valid[i].clock.next = self.clk_i.val();
        }
        for i in 0..4 {
            self.raw_wait[i].clock.next = self.clk_i.val();
            self.meta_wait[i].clock.next = self.clk_i.val();
        }
        for i in 0..8 {
            self.beat_meta[i].clock.next = self.clk_i.val();
        }
        // The instruction's fields.
        self.in_dt.next = self.inst.q.val().get_bits::<4>(256);
        self.out_dt.next = self.inst.q.val().get_bits::<4>(264);
        self.in_sizes.next = self.sizes.val() >> (bit_cast::<32, 4>(self.in_dt.val()) << 1);
        self.out_sizes.next = self.sizes.val() >> (bit_cast::<32, 4>(self.out_dt.val()) << 1);
        self.in_lg.next = self.in_sizes.val().get_bits::<2>(0);
        self.out_lg.next = self.out_sizes.val().get_bits::<2>(0);
        self.op.next = self.inst.q.val().get_bits::<8>(280);
        self.bitvec.next = self.inst.q.val().get_bit(0);
        self.partitions.next = self.inst.q.val().get_bit(288);
        self.nac_last.next = self.inst.q.val().get_bits::<8>(272) - self.one8.val();
        self.check.clk_i.next = self.clk_i.val();
        self.check.inst_i.next = self.inst.q.val();
        self.check.pb_i.next = self.pb.q.val();
        self.src_walk.clk_i.next = self.clk_i.val();
        // Axis All over a unit-stride dimension 0 that dimension 1 continues
        // (step_elem[1] = num_elem[0]): one run of n0·n1 elements, the
        // dimensions above moved down one (D63). The same elements in the
        // same order; only the chunks grow past n0.
        self.wide.next = !self.partitions.val() & (self.inst.q.val().get_bits::<16>(128) == self.one16.val());
        self.n01.next = self.inst.q.val().get_bits::<16>(192) * self.inst.q.val().get_bits::<16>(208);
        self.merge.next = self.wide.val()
            & (self.inst.q.val().get_bits::<16>(144) == self.inst.q.val().get_bits::<16>(192))
            & (self.n01.val().get_bits::<16>(16) == self.zero16.val());
        self.merged.next = self.inst.q.val().get_bits::<160>(96);
        if self.merge.val() {
            self.merged.next = bit_cast::<160, 32>(self.inst.q.val().get_bits::<32>(96))
                | (bit_cast::<160, 16>(self.one16.val()) << 32)
                | (bit_cast::<160, 16>(self.inst.q.val().get_bits::<16>(160)) << 48)
                | (bit_cast::<160, 16>(self.inst.q.val().get_bits::<16>(176)) << 64)
                | (bit_cast::<160, 16>(self.n01.val().get_bits::<16>(0)) << 96)
                | (bit_cast::<160, 16>(self.inst.q.val().get_bits::<16>(224)) << 112)
                | (bit_cast::<160, 16>(self.inst.q.val().get_bits::<16>(240)) << 128)
                | (bit_cast::<160, 16>(self.one16.val()) << 144);
        }
        self.src_tensor.d.next = self.merged.val();
        self.src_walk.tensor_i.next = self.src_tensor.q.val();
        self.src_walk.lg_i.next = self.in_lg.val();
        self.dst_walk.clk_i.next = self.clk_i.val();
        self.dst_walk.tensor_i.next = self.inst.q.val().get_bits::<160>(352);
        self.dst_walk.lg_i.next = self.out_lg.val();
        self.src_walk.load_i.next = false;
        self.src_walk.step_i.next = false;
        self.dst_walk.load_i.next = false;
        self.dst_walk.adv_i.next = self.one16.val().get_bits::<5>(0);
        // The chunk: up to a lane each (16 or 8) of dimension 0's run in the current
        // row when its stride is 1 and the axis All (D60), else 1 element.
        self.row_left.next = (self.row_bytes.val() - bit_cast::<16, 6>(self.src_walk.offset_o.val().get_bits::<6>(0)))
            >> bit_cast::<16, 2>(self.in_lg.val());
        self.chunk.next = self.max_chunk.val();
        if self.row_left.val() < self.chunk.val() {
            self.chunk.next = self.row_left.val();
        }
        if self.src_walk.run_left_o.val() < self.chunk.val() {
            self.chunk.next = self.src_walk.run_left_o.val();
        }
        if !self.wide.val() {
            self.chunk.next = self.one16.val();
        }
        self.src_walk.adv_i.next = self.chunk.val().get_bits::<5>(0);
        // Axis Partitions: a column's partitions a lane each (16 or 8) at a time.
        self.left.next = self.inst.q.val().get_bits::<8>(272) - self.channel.q.val();
        if self.partitions.val() {
            self.chunk.next = self.max_chunk.val();
            if self.left.val() < self.max_chunk8.val() {
                self.chunk.next = bit_cast::<16, 8>(self.left.val());
            }
        }
        // The FSM.
        self.done.d.next = false;
        self.chan_last.next = self.channel.q.val() == self.nac_last.val();
        if self.partitions.val() {
            self.chan_last.next = self.left.val() <= self.max_chunk8.val();
        }
        self.final_elem.next = self.chan_last.val() & self.src_walk.last_o.val();
        self.fold_first.next = self.first_pending.q.val();
        self.fold_last.next = self.final_elem.val();
        if self.partitions.val() {
            self.fold_first.next = self.channel.q.val() == self.zero8.val();
            self.fold_last.next = self.chan_last.val();
        }
        self.rd.next = false;
        if self.state.q.val() == self.s_idle.val() {
            if self.inst_valid_i.val() {
                self.inst.d.next = self.inst_i.val();
                self.pb.d.next = self.pb_i.val();
                self.state.d.next = self.s_check.val();
                self.count.d.next = self.zero8.val();
            }
        } else if self.state.q.val() == self.s_check.val() {
            self.count.d.next = self.count.q.val() + self.one8.val();
            if self.count.q.val() == self.check_done.val() {
                if self.check.rule_o.val() != self.zero4.val() {
                    self.done.d.next = true;
                    self.accepted.d.next = false;
                    self.rule.d.next = self.check.rule_o.val();
                    self.state.d.next = self.s_idle.val();
                } else {
                    self.src_walk.load_i.next = true;
                    self.dst_walk.load_i.next = true;
                    self.channel.d.next = self.zero8.val();
                    self.first_pending.d.next = true;
                    self.overlap.d.next = self.check.overlap_o.val();
                    self.state.d.next = self.s_run.val();
                }
            }
        } else if self.state.q.val() == self.s_run.val() {
            self.rd.next = true;
            // A stall holds the read, the walk and the counts where they are.
            if self.rd_ready_i.val() {
                self.first_pending.d.next = false;
                if self.partitions.val() {
                    if self.chan_last.val() {
                        self.channel.d.next = self.zero8.val();
                        self.src_walk.step_i.next = true;
                        if self.overlap.q.val() {
                            self.state.d.next = self.s_wait.val();
                            self.count.d.next = self.zero8.val();
                        }
                    } else {
                        self.channel.d.next = self.channel.q.val() + self.max_chunk8.val();
                    }
                } else if self.src_walk.last_o.val() {
                    self.channel.d.next = self.channel.q.val() + self.one8.val();
                    self.src_walk.load_i.next = true;
                } else {
                    self.src_walk.step_i.next = true;
                }
                if self.final_elem.val() {
                    self.state.d.next = self.s_drain.val();
                    self.count.d.next = self.zero8.val();
                }
            }
        } else if self.state.q.val() == self.s_wait.val() {
            self.count.d.next = self.count.q.val() + self.one8.val();
            if self.count.q.val() == self.depth_done.val() {
                self.state.d.next = self.s_run.val();
            }
        } else if self.state.q.val() == self.s_drain.val() {
            self.count.d.next = self.count.q.val() + self.one8.val();
            if self.count.q.val() == self.depth_done.val() {
                self.done.d.next = true;
                self.accepted.d.next = true;
                self.rule.d.next = self.zero4.val();
                self.state.d.next = self.s_idle.val();
            }
        } else {
            self.state.d.next = self.s_idle.val();
        }
        if !self.rst_ni.val() {
            self.state.d.next = self.s_idle.val();
            self.done.d.next = false;
        }
        self.inst_ready_o.next = self.state.q.val() == self.s_idle.val();
        self.done_o.next = self.done.q.val();
        self.accepted_o.next = self.accepted.q.val();
        self.rule_o.next = self.rule.q.val();
        self.rd_partition_o.next = self.inst.q.val().get_bits::<7>(96 + 21) + self.channel.q.val().get_bits::<7>(0);
        // The lanes read: partition + 0 (axis All), or the chunk's partitions.
        self.rd_valid_o.next = self.zero16.val();
        if self.rd.val() {
            self.rd_valid_o.next = self.one16.val();
            if self.partitions.val() {
                self.rd_valid_o.next = !(self.ones16.val() << self.chunk.val());
            }
        }
        self.rd_row_o.next = self.src_walk.offset_o.val().get_bits::<15>(6);
        // Clock t+1: the row comes; the chunk's elements are picked out of
        // it, element j of 2^lg bytes into lane j.
        self.taken.next = self.rd.val() & self.rd_ready_i.val();
        self.m1.d.next = bit_cast::<8, 1>(self.taken.val().into())
            | (bit_cast::<8, 1>(self.fold_first.val().into()) << 1)
            | (bit_cast::<8, 1>(self.fold_last.val().into()) << 2)
            | (bit_cast::<8, 5>(self.chunk.val().get_bits::<5>(0)) << 3);
        if !self.rst_ni.val() {
            self.m1.d.next = self.zero8.val();
        }
        self.m1_byte.d.next = self.src_walk.offset_o.val().get_bits::<6>(0);
        self.m2.d.next = self.m1.q.val();
        // Clocks t+2 .. t+6: to binary32, × scale, lane by lane.
        self.conv.next = self.zero512.val();
        self.product.next = self.zero512.val();
        self.raw.next = self.zero512.val();
        for j in 0..self.lanes.len() {
            self.lanes[j].clk_i.next = self.clk_i.val();
            // Axis All: every lane picks from the one row; axis Partitions:
            // lane j takes the element of its own partition's row.
            self.lanes[j].row_i.next = self.rd_data_i.val().get_bits::<512>(0);
            if self.partitions.val() {
                self.lanes[j].row_i.next = self.rd_data_i.val().get_bits::<512>(512 * j);
            }
            self.lanes[j].byte_i.next = self.m1_byte.q.val();
            self.lanes[j].own_i.next = self.partitions.val();
            self.lanes[j].lg_i.next = self.in_lg.val();
            self.lanes[j].dtype_i.next = self.in_dt.val();
            self.lanes[j].scale_i.next = self.inst.q.val().get_bits::<32>(320);
            self.conv.next = self.conv.val() | self.lanes[j].conv_o.val();
            self.product.next = self.product.val() | self.lanes[j].product_o.val();
            self.raw.next = self.raw.val() | self.lanes[j].raw_o.val();
        }
        self.conv_wait[0].d.next = self.conv.val();
        self.conv_wait[1].d.next = self.conv_wait[0].q.val();
        self.raw_wait[0].d.next = self.raw.val();
        self.meta_wait[0].d.next = self.m2.q.val();
        for i in 1..4 {
            self.raw_wait[i].d.next = self.raw_wait[i - 1].q.val();
            self.meta_wait[i].d.next = self.meta_wait[i - 1].q.val();
        }
        self.value6.next = self.conv_wait[1].q.val();
        if self.op.val() == self.op_average.val() {
            self.value6.next = self.product.val();
        }
        if self.bitvec.val() {
            self.value6.next = self.raw_wait[3].q.val();
        }
        // Clock t+6: into beats.
        self.fill.clk_i.next = self.clk_i.val();
        self.fill.clear_i.next = !self.rst_ni.val();
        self.fill.valid_i.next = self.meta_wait[3].q.val().get_bit(0);
        self.fill.first_i.next = self.meta_wait[3].q.val().get_bit(1);
        self.fill.last_i.next = self.meta_wait[3].q.val().get_bit(2);
        self.fill.count_i.next = self.meta_wait[3].q.val().get_bits::<5>(3);
        self.fill.lanes_i.next = self.value6.val();
        // Clocks t+7 .. t+15: each beat folded. The unit's predicate of
        // 32-bit lane l is vbool bit 4l.
        self.vbool.next = self.zero64.val();
        for l in 0..16 {
            self.vbool.next = self.vbool.val().replace_bit(4 * l, self.fill.mask_o.val().get_bit(l));
        }
        self.beat_sum.clk_i.next = self.clk_i.val();
        self.beat_sum.lanes_i.next = self.fill.beat_o.val();
        self.beat_sum.valid_i.next = self.fill.mask_o.val();
        self.unit.clk_i.next = self.clk_i.val();
        self.unit.rst_ni.next = self.rst_ni.val();
        self.unit.in_valid_i.next = self.fill.valid_o.val();
        self.unit.vec_i.next = self.fill.beat_o.val();
        self.unit.vbool_i.next = self.vbool.val();
        self.unit.op_i.next = self.op_max.val();
        if self.op.val() == self.op_bor.val() {
            self.unit.op_i.next = self.op_or.val();
        }
        if self.op.val() == self.op_band.val() {
            self.unit.op_i.next = self.op_and.val();
        }
        if self.op.val() == self.op_bxor.val() {
            self.unit.op_i.next = self.op_xor.val();
        }
        self.unit_wait.d.next = self.unit.result_o.val();
        self.beat_meta[0].d.next = bit_cast::<3, 1>(self.fill.valid_o.val().into())
            | (bit_cast::<3, 1>(self.fill.first_o.val().into()) << 1)
            | (bit_cast::<3, 1>(self.fill.last_o.val().into()) << 2);
        for i in 1..8 {
            self.beat_meta[i].d.next = self.beat_meta[i - 1].q.val();
        }
        if !self.rst_ni.val() {
            for i in 0..8 {
                self.beat_meta[i].d.next = self.zero3.val();
            }
        }
        self.beat_value.next = self.unit_wait.q.val();
        if self.op.val() < self.op_maximum.val() {
            self.beat_value.next = self.beat_sum.sum_o.val();
        }
        // Clock t+15: the beats of a fold combined.
        self.fold.clk_i.next = self.clk_i.val();
        self.fold.valid_i.next = self.beat_meta[7].q.val().get_bit(0);
        self.fold.first_i.next = self.beat_meta[7].q.val().get_bit(1);
        self.fold.last_i.next = self.beat_meta[7].q.val().get_bit(2);
        self.fold.value_i.next = self.beat_value.val();
        self.fold.kind_i.next = self.zero3.val();
        if self.op.val() > self.op_average.val() {
            self.fold.kind_i.next = self.op.val().get_bits::<3>(0) - self.one3.val();
        }
        // Clocks t+16 .. t+18: to out_dtype.
        self.from_f32.clk_i.next = self.clk_i.val();
        self.from_f32.x_i.next = self.fold.value_o.val();
        self.from_f32.dtype_i.next = self.out_dt.val();
        self.res_wait[0].d.next = self.fold.value_o.val();
        self.res_wait[1].d.next = self.res_wait[0].q.val();
        self.res_valid[0].d.next = self.fold.valid_o.val() & self.rst_ni.val();
        self.res_valid[1].d.next = self.res_valid[0].q.val() & self.rst_ni.val();
        self.res_value.next = self.from_f32.bits_o.val();
        if self.bitvec.val() {
            self.res_value.next = bit_cast::<64, 32>(self.res_wait[1].q.val());
        }
        // Clock t+18: the write, registered onto the port.
        // 2^lg bytes of ones (8 << lg bits; all 64 for lg 3, never shifted by 64).
        if self.out_lg.val() == self.lg3.val() {
            self.width_mask.next = self.ones.val();
        } else {
            self.width_mask.next = !(self.ones.val() << (self.eight.val() << bit_cast::<64, 2>(self.out_lg.val())));
        }
        self.pattern.next = self.res_value.val() & self.width_mask.val();
        if self.out_lg.val() == self.lg0.val() {
            self.pattern.next = self.pattern.val() | (self.pattern.val() << 8);
        }
        if self.out_lg.val() < self.lg2.val() {
            self.pattern.next = self.pattern.val() | (self.pattern.val() << 16);
        }
        if self.out_lg.val() < self.lg3.val() {
            self.pattern.next = self.pattern.val() | (self.pattern.val() << 32);
        }
        self.wr_wide.next = self.zero512.val();
        for i in 0..8 {
            self.wr_wide.next = self.wr_wide.val() | (bit_cast::<512, 64>(self.pattern.val()) << (64 * i));
        }
        self.dst_walk.step_i.next = self.res_valid[1].q.val();
        self.wr_valid.d.next = self.res_valid[1].q.val() & (self.state.q.val() != self.s_idle.val());
        self.wr_partition.d.next = self.inst.q.val().get_bits::<7>(352 + 21);
        self.wr_row.d.next = self.dst_walk.offset_o.val().get_bits::<15>(6);
        self.wr_data.d.next = self.wr_wide.val();
        self.wr_strb.d.next = (!(self.ones.val() << (self.one64.val() << bit_cast::<64, 2>(self.out_lg.val()))))
            << bit_cast::<64, 6>(self.dst_walk.offset_o.val().get_bits::<6>(0));
        self.wr_valid_o.next = self.wr_valid.q.val();
        self.wr_partition_o.next = self.wr_partition.q.val();
        self.wr_row_o.next = self.wr_row.q.val();
        self.wr_data_o.next = self.wr_data.q.val();
        self.wr_strb_o.next = self.wr_strb.q.val();
    }
}

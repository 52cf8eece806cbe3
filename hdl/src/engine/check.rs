//! `InstCheck`: the validation of instruction.md §3 in hardware, rule by
//! rule in the spec's order, and the overlap that the engine's interlock
//! needs (D58). Two register stages ([`CHECK_LATENCY`]): the products of
//! the tensors' bounds and element counts, then the comparisons.

use crate::k;
use crate::pipe::Pipe;
use crosslane_golden::instruction::Dtype;
use rust_hdl::prelude::*;

/// Clocks from a stable instruction to a stable `rule_o`.
pub const CHECK_LATENCY: usize = 2;

/// log2 of each dtype's size, 2 bits a code (code c in bits 2c+1..2c),
/// from golden's [`Dtype::size`]; Invalid reads as 1 byte.
pub fn size_table() -> u64 {
    Dtype::ALL.iter().fold(0u64, |t, d| t | (d.size().max(1).trailing_zeros() as u64) << (2 * d.code()))
}

/// One TENSOR4D against the partition (rule 9 for one side), and its
/// byte range and element count for rules 10 and the interlock.
#[derive(LogicBlock)]
pub struct TensorCheck {
    pub clk_i: Signal<In, Clock>,
    /// The 20 bytes: start_addr, step_elem[4], num_elem[4].
    pub tensor_i: Signal<In, Bits<160>>,
    /// log2 of the element size.
    pub lg_i: Signal<In, Bits<2>>,
    pub pb_i: Signal<In, Bits<22>>,
    /// Some byte outside the partition, a misaligned start or an empty dimension.
    pub bad_o: Signal<Out, Bit>,
    /// The first byte touched and one past the last (when not bad).
    pub first_o: Signal<Out, Bits<40>>,
    pub end_o: Signal<Out, Bits<40>>,
    /// The pattern's element count.
    pub elements_o: Signal<Out, Bits<64>>,
    // Stage 1: |step| × (num − 1) for each dimension, signs, the count's halves.
    reach: [Pipe<Bits<32>>; 4],
    neg: [Pipe<Bit>; 4],
    p01: Pipe<Bits<32>>,
    p23: Pipe<Bits<32>>,
    empty: Pipe<Bit>,
    misaligned: Pipe<Bit>,
    offset: Pipe<Bits<40>>,
    lg: Pipe<Bits<2>>,
    mag: [Signal<Local, Bits<16>>; 4],
    num: [Signal<Local, Bits<16>>; 4],
    num_less: [Signal<Local, Bits<16>>; 4],
    lo: Signal<Local, Bits<40>>,
    hi: Signal<Local, Bits<40>>,
    hh: Signal<Local, Bits<32>>,
    hl: Signal<Local, Bits<32>>,
    lh: Signal<Local, Bits<32>>,
    ll: Signal<Local, Bits<32>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    one40: Constant<Bits<40>>,
    zero40: Constant<Bits<40>>,
    zero3: Constant<Bits<3>>,
    lg_mask: Constant<Bits<3>>,
}

impl Default for TensorCheck {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            tensor_i: Default::default(),
            lg_i: Default::default(),
            pb_i: Default::default(),
            bad_o: Default::default(),
            first_o: Default::default(),
            end_o: Default::default(),
            elements_o: Default::default(),
            reach: Default::default(),
            neg: Default::default(),
            p01: Default::default(),
            p23: Default::default(),
            empty: Default::default(),
            misaligned: Default::default(),
            offset: Default::default(),
            lg: Default::default(),
            mag: Default::default(),
            num: Default::default(),
            num_less: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            hh: Default::default(),
            hl: Default::default(),
            lh: Default::default(),
            ll: Default::default(),
            one16: k(1),
            zero16: k(0),
            one40: k(1),
            zero40: k(0),
            zero3: k(0),
            lg_mask: k(7),
        }
    }
}

impl Logic for TensorCheck {
    #[hdl_gen]
    fn update(&mut self) {
        for d in 0..4 {
            self.reach[d].clock.next = self.clk_i.val();
            self.neg[d].clock.next = self.clk_i.val();
            self.num[d].next = self.tensor_i.val().get_bits::<16>(96 + 16 * d);
            self.mag[d].next = self.tensor_i.val().get_bits::<16>(32 + 16 * d);
            if self.tensor_i.val().get_bit(47 + 16 * d) {
                self.mag[d].next = self.zero16.val() - self.tensor_i.val().get_bits::<16>(32 + 16 * d);
            }
            self.num_less[d].next = self.num[d].val() - self.one16.val();
            self.reach[d].d.next = self.mag[d].val() * self.num_less[d].val();
            self.neg[d].d.next = self.tensor_i.val().get_bit(47 + 16 * d);
        }
        self.p01.clock.next = self.clk_i.val();
        self.p23.clock.next = self.clk_i.val();
        self.empty.clock.next = self.clk_i.val();
        self.misaligned.clock.next = self.clk_i.val();
        self.offset.clock.next = self.clk_i.val();
        self.lg.clock.next = self.clk_i.val();
        self.p01.d.next = self.num[0].val() * self.num[1].val();
        self.p23.d.next = self.num[2].val() * self.num[3].val();
        self.empty.d.next = (self.num[0].val() == self.zero16.val())
            | (self.num[1].val() == self.zero16.val())
            | (self.num[2].val() == self.zero16.val())
            | (self.num[3].val() == self.zero16.val());
        // The start is aligned when its low lg bits are zero.
        self.misaligned.d.next = (self.tensor_i.val().get_bits::<3>(0)
            & ((self.lg_mask.val() << bit_cast::<3, 2>(self.lg_i.val())) ^ self.lg_mask.val()))
            != self.zero3.val();
        self.offset.d.next = bit_cast::<40, 21>(self.tensor_i.val().get_bits::<21>(0));
        self.lg.d.next = self.lg_i.val();
        // Stage 2: the reaches summed by sign, scaled to bytes, compared.
        self.lo.next = self.zero40.val();
        self.hi.next = self.zero40.val();
        // Written out: `bit_cast` of a loop variable's element fails inside `#[hdl_gen]`.
        if self.neg[0].q.val() {
            self.lo.next = self.lo.val() + bit_cast::<40, 32>(self.reach[0].q.val());
        } else {
            self.hi.next = self.hi.val() + bit_cast::<40, 32>(self.reach[0].q.val());
        }
        if self.neg[1].q.val() {
            self.lo.next = self.lo.val() + bit_cast::<40, 32>(self.reach[1].q.val());
        } else {
            self.hi.next = self.hi.val() + bit_cast::<40, 32>(self.reach[1].q.val());
        }
        if self.neg[2].q.val() {
            self.lo.next = self.lo.val() + bit_cast::<40, 32>(self.reach[2].q.val());
        } else {
            self.hi.next = self.hi.val() + bit_cast::<40, 32>(self.reach[2].q.val());
        }
        if self.neg[3].q.val() {
            self.lo.next = self.lo.val() + bit_cast::<40, 32>(self.reach[3].q.val());
        } else {
            self.hi.next = self.hi.val() + bit_cast::<40, 32>(self.reach[3].q.val());
        }
        self.first_o.next = self.offset.q.val() - (self.lo.val() << bit_cast::<40, 2>(self.lg.q.val()));
        self.end_o.next =
            self.offset.q.val() + ((self.hi.val() + self.one40.val()) << bit_cast::<40, 2>(self.lg.q.val()));
        self.bad_o.next = self.empty.q.val()
            | self.misaligned.q.val()
            | ((self.lo.val() << bit_cast::<40, 2>(self.lg.q.val())) > self.offset.q.val())
            | (self.end_o.val() > bit_cast::<40, 22>(self.pb_i.val()));
        // The count: (n0 n1) × (n2 n3) from four 16 × 16 products.
        self.hh.next = self.p01.q.val().get_bits::<16>(16) * self.p23.q.val().get_bits::<16>(16);
        self.hl.next = self.p01.q.val().get_bits::<16>(16) * self.p23.q.val().get_bits::<16>(0);
        self.lh.next = self.p01.q.val().get_bits::<16>(0) * self.p23.q.val().get_bits::<16>(16);
        self.ll.next = self.p01.q.val().get_bits::<16>(0) * self.p23.q.val().get_bits::<16>(0);
        self.elements_o.next = (bit_cast::<64, 32>(self.hh.val()) << 32)
            + (bit_cast::<64, 32>(self.hl.val()) << 16)
            + (bit_cast::<64, 32>(self.lh.val()) << 16)
            + bit_cast::<64, 32>(self.ll.val());
    }
}

/// The rules in order: `rule_o` is 0 for a valid instruction, else the
/// first failing rule's number (golden's `Reject::code`, `RULE_NAMES`).
#[derive(LogicBlock)]
pub struct InstCheck {
    pub clk_i: Signal<In, Clock>,
    /// The 64 bytes, byte b in bits 8b+7..8b.
    pub inst_i: Signal<In, Bits<512>>,
    pub pb_i: Signal<In, Bits<22>>,
    pub rule_o: Signal<Out, Bits<4>>,
    /// Axis Partitions with the dst's bytes meeting the src's in an active
    /// partition: columns wait for the write before them (D58).
    pub overlap_o: Signal<Out, Bit>,
    src: TensorCheck,
    dst: TensorCheck,
    // The field rules, registered to line up with the tensors' stage 2.
    r: [Pipe<Bit>; 9],
    r13: Pipe<Bit>,
    shares: Pipe<Bit>,
    partitions: Pipe<Bit>,
    sizes: Constant<Bits<32>>,
    /// Bit c set: dtype code c fails rule 3 (Invalid, FP32R) / is a BITVEC integer.
    bad_in: Constant<Bits<16>>,
    int_dtypes: Constant<Bits<16>>,
    code: [Constant<Bits<4>>; 14],
    arith: Constant<Bits<8>>,
    bitvec_code: Constant<Bits<8>>,
    op1: Constant<Bits<8>>,
    op2: Constant<Bits<8>>,
    op3: Constant<Bits<8>>,
    op5: Constant<Bits<8>>,
    zero4: Constant<Bits<4>>,
    zero9: Constant<Bits<9>>,
    zero24: Constant<Bits<24>>,
    p128: Constant<Bits<9>>,
    one64: Constant<Bits<64>>,
    in_sizes: Signal<Local, Bits<32>>,
    out_sizes: Signal<Local, Bits<32>>,
    in_lg: Signal<Local, Bits<2>>,
    out_lg: Signal<Local, Bits<2>>,
    in_dt: Signal<Local, Bits<4>>,
    out_dt: Signal<Local, Bits<4>>,
    op: Signal<Local, Bits<8>>,
    p0: Signal<Local, Bits<9>>,
    dp: Signal<Local, Bits<9>>,
    nac: Signal<Local, Bits<9>>,
    bitvec: Signal<Local, Bit>,
    in_int: Signal<Local, Bit>,
    rule: [Signal<Local, Bit>; 13],
}

impl Default for InstCheck {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            inst_i: Default::default(),
            pb_i: Default::default(),
            rule_o: Default::default(),
            overlap_o: Default::default(),
            src: Default::default(),
            dst: Default::default(),
            r: Default::default(),
            r13: Default::default(),
            shares: Default::default(),
            partitions: Default::default(),
            sizes: k(size_table()),
            bad_in: k(1 << Dtype::Invalid.code() | 1 << Dtype::Fp32r.code()),
            int_dtypes: k([Dtype::Int8, Dtype::Uint8, Dtype::Int16, Dtype::Uint16, Dtype::Int32, Dtype::Uint32]
                .iter()
                .fold(0, |m, d| m | 1 << d.code())),
            code: std::array::from_fn(|i| k(i as u64)),
            arith: k(0x7c),
            bitvec_code: k(0x7d),
            op1: k(1),
            op2: k(2),
            op3: k(3),
            op5: k(5),
            zero4: k(0),
            zero9: k(0),
            zero24: k(0),
            p128: k(128),
            one64: k(1),
            in_sizes: Default::default(),
            out_sizes: Default::default(),
            in_lg: Default::default(),
            out_lg: Default::default(),
            in_dt: Default::default(),
            out_dt: Default::default(),
            op: Default::default(),
            p0: Default::default(),
            dp: Default::default(),
            nac: Default::default(),
            bitvec: Default::default(),
            in_int: Default::default(),
            rule: Default::default(),
        }
    }
}

impl Logic for InstCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.in_dt.next = self.inst_i.val().get_bits::<4>(256);
        self.out_dt.next = self.inst_i.val().get_bits::<4>(264);
        self.in_sizes.next = self.sizes.val() >> (bit_cast::<32, 4>(self.in_dt.val()) << 1);
        self.out_sizes.next = self.sizes.val() >> (bit_cast::<32, 4>(self.out_dt.val()) << 1);
        self.in_lg.next = self.in_sizes.val().get_bits::<2>(0);
        self.out_lg.next = self.out_sizes.val().get_bits::<2>(0);
        self.op.next = self.inst_i.val().get_bits::<8>(280);
        self.bitvec.next = self.inst_i.val().get_bit(0);
        self.p0.next = bit_cast::<9, 7>(self.inst_i.val().get_bits::<7>(96 + 21));
        self.dp.next = bit_cast::<9, 7>(self.inst_i.val().get_bits::<7>(352 + 21));
        self.nac.next = bit_cast::<9, 8>(self.inst_i.val().get_bits::<8>(272));
        self.src.clk_i.next = self.clk_i.val();
        self.dst.clk_i.next = self.clk_i.val();
        self.src.tensor_i.next = self.inst_i.val().get_bits::<160>(96);
        self.dst.tensor_i.next = self.inst_i.val().get_bits::<160>(352);
        self.src.lg_i.next = self.in_lg.val();
        self.dst.lg_i.next = self.out_lg.val();
        self.src.pb_i.next = self.pb_i.val();
        self.dst.pb_i.next = self.pb_i.val();
        // Rules 1 to 8 (src_addr and dst_addr are 8 and 9).
        self.r[0].d.next = (self.inst_i.val().get_bits::<8>(0) != self.arith.val())
            & (self.inst_i.val().get_bits::<8>(0) != self.bitvec_code.val());
        self.r[1].d.next = (self.inst_i.val().get_bits::<24>(296) != self.zero24.val())
            | (self.inst_i.val().get_bits::<4>(260) != self.zero4.val())
            | (self.inst_i.val().get_bits::<4>(268) != self.zero4.val());
        self.r[2].d.next = self.bad_in.val().get_bit(self.in_dt.val().index());
        self.r[3].d.next = self.out_dt.val() == self.zero4.val();
        self.r[4].d.next = (self.op.val() > self.op5.val())
            | (!self.bitvec.val() & (self.op.val() > self.op2.val()))
            | (self.bitvec.val() & (self.op.val() < self.op3.val()));
        self.r[5].d.next = self.inst_i.val().get_bits::<8>(288) > self.op1.val();
        self.r[6].d.next = (self.nac.val() == self.zero9.val()) | ((self.p0.val() + self.nac.val()) > self.p128.val());
        self.r[7].d.next = self.inst_i.val().get_bits::<4>(96 + 28) != self.zero4.val();
        self.r[8].d.next = self.inst_i.val().get_bits::<4>(352 + 28) != self.zero4.val();
        // Rule 13: BITVEC takes 1-, 2- and 4-byte integers, out the same width.
        self.in_int.next = self.int_dtypes.val().get_bit(self.in_dt.val().index());
        self.r13.d.next = self.bitvec.val() & !(self.in_int.val() & (self.in_lg.val() == self.out_lg.val()));
        // For rule 12 and the interlock.
        self.partitions.d.next = self.inst_i.val().get_bit(288);
        self.shares.d.next = (self.dp.val() >= self.p0.val()) & (self.dp.val() < (self.p0.val() + self.nac.val()));
        for i in 0..9 {
            self.r[i].clock.next = self.clk_i.val();
        }
        self.r13.clock.next = self.clk_i.val();
        self.partitions.clock.next = self.clk_i.val();
        self.shares.clock.next = self.clk_i.val();
        // Stage 2.
        for i in 0..9 {
            self.rule[i].next = self.r[i].q.val();
        }
        self.rule[9].next = self.src.bad_o.val();
        self.rule[10].next = self.dst.bad_o.val();
        self.rule[11].next = self.dst.elements_o.val() != self.src.elements_o.val();
        if !self.partitions.q.val() {
            self.rule[11].next = self.dst.elements_o.val() != self.one64.val();
        }
        self.rule[12].next = self.r13.q.val();
        self.rule_o.next = self.code[0].val();
        if self.rule[12].val() {
            self.rule_o.next = self.code[13].val();
        }
        if self.rule[11].val() {
            self.rule_o.next = self.code[12].val();
        }
        if self.rule[10].val() {
            self.rule_o.next = self.code[11].val();
        }
        if self.rule[9].val() {
            self.rule_o.next = self.code[10].val();
        }
        if self.rule[8].val() {
            self.rule_o.next = self.code[9].val();
        }
        if self.rule[7].val() {
            self.rule_o.next = self.code[8].val();
        }
        if self.rule[6].val() {
            self.rule_o.next = self.code[7].val();
        }
        if self.rule[5].val() {
            self.rule_o.next = self.code[6].val();
        }
        if self.rule[4].val() {
            self.rule_o.next = self.code[5].val();
        }
        if self.rule[3].val() {
            self.rule_o.next = self.code[4].val();
        }
        if self.rule[2].val() {
            self.rule_o.next = self.code[3].val();
        }
        if self.rule[1].val() {
            self.rule_o.next = self.code[2].val();
        }
        if self.rule[0].val() {
            self.rule_o.next = self.code[1].val();
        }
        self.overlap_o.next = self.partitions.q.val()
            & self.shares.q.val()
            & (self.src.first_o.val() < self.dst.end_o.val())
            & (self.dst.first_o.val() < self.src.end_o.val());
    }
}

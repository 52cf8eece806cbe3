//! `BeatSum`: the sum of one beat of 16 binary32 lanes in golden's order
//! (instruction.md §4, golden's `exec::sum` with `SumOrder::Tree`), one
//! beat a clock, for ADD's and AVERAGE's sums.
//!
//! A log-step tree of [`F32Add`]s in fixed positions: level 1 adds lanes
//! (0, 1), (2, 3), …, level 2 the pairs of those, and so on to the root. Each
//! lane has a valid bit: a node whose two inputs are valid adds them, a node
//! with one valid input passes it up unchanged, a node with none passes
//! nothing. For the lanes of a short beat (a prefix 0..n) this is golden's
//! tree exactly: its unpaired last lane moves up to the position the fixed
//! tree gives it. With no valid lane the sum is +0 and `valid_o` low.
//!
//! Latency: four levels of the adder's latency `L` ([`BeatSum::new`]); the
//! operands a node passes up wait `L` clocks beside the adder.

use crate::f32_add::F32Add;
use crate::pipe::Pipe;
use rust_hdl::prelude::*;

/// The adder latencies [`BeatSum::new`] builds with (its latency is 4×).
pub const BEAT_SUM_ADD_LATENCIES: [usize; 3] = [1, 2, 3];

/// The latencies of the unit: 4 × the adder's.
pub const BEAT_SUM_LATENCIES: [usize; 3] = [4, 8, 12];

/// Lanes of a beat.
pub const LANES: usize = 16;

/// One node: the adder, and its operands delayed as long as it takes.
#[derive(LogicBlock)]
pub struct BeatNode {
    pub clk_i: Signal<In, Clock>,
    pub a_i: Signal<In, Bits<32>>,
    pub b_i: Signal<In, Bits<32>>,
    pub va_i: Signal<In, Bit>,
    pub vb_i: Signal<In, Bit>,
    pub sum_o: Signal<Out, Bits<32>>,
    pub v_o: Signal<Out, Bit>,
    add: F32Add,
    // The delay: the first `L` of each chain are registers, the rest wires.
    da: [Pipe<Bits<32>>; 3],
    db: [Pipe<Bits<32>>; 3],
    dva: [Pipe<Bit>; 3],
    dvb: [Pipe<Bit>; 3],
    zero: Constant<Bits<32>>,
}

impl BeatNode {
    pub fn new(add_latency: usize) -> Self {
        fn chain<T: Synth>(registers: usize) -> [Pipe<T>; 3] {
            std::array::from_fn(|i| Pipe::new(i < registers))
        }
        Self {
            clk_i: Default::default(),
            a_i: Default::default(),
            b_i: Default::default(),
            va_i: Default::default(),
            vb_i: Default::default(),
            sum_o: Default::default(),
            v_o: Default::default(),
            add: F32Add::new(add_latency),
            da: chain(add_latency),
            db: chain(add_latency),
            dva: chain(add_latency),
            dvb: chain(add_latency),
            zero: Constant::new(0u64.into()),
        }
    }
}

impl Logic for BeatNode {
    #[hdl_gen]
    fn update(&mut self) {
        self.add.clk_i.next = self.clk_i.val();
        self.add.a_i.next = self.a_i.val();
        self.add.b_i.next = self.b_i.val();
        for i in 0..3 {
            self.da[i].clock.next = self.clk_i.val();
            self.db[i].clock.next = self.clk_i.val();
            self.dva[i].clock.next = self.clk_i.val();
            self.dvb[i].clock.next = self.clk_i.val();
        }
        self.da[0].d.next = self.a_i.val();
        self.db[0].d.next = self.b_i.val();
        self.dva[0].d.next = self.va_i.val();
        self.dvb[0].d.next = self.vb_i.val();
        for i in 1..3 {
            self.da[i].d.next = self.da[i - 1].q.val();
            self.db[i].d.next = self.db[i - 1].q.val();
            self.dva[i].d.next = self.dva[i - 1].q.val();
            self.dvb[i].d.next = self.dvb[i - 1].q.val();
        }
        self.v_o.next = self.dva[2].q.val() | self.dvb[2].q.val();
        self.sum_o.next = self.zero.val();
        if self.dva[2].q.val() & self.dvb[2].q.val() {
            self.sum_o.next = self.add.sum_o.val();
        } else if self.dva[2].q.val() {
            self.sum_o.next = self.da[2].q.val();
        } else if self.dvb[2].q.val() {
            self.sum_o.next = self.db[2].q.val();
        }
    }
}

/// The tree: 8 + 4 + 2 + 1 nodes.
#[derive(LogicBlock)]
pub struct BeatSum {
    pub clk_i: Signal<In, Clock>,
    /// Lane l in bits 32l..32l+31.
    pub lanes_i: Signal<In, Bits<512>>,
    pub valid_i: Signal<In, Bits<16>>,
    pub sum_o: Signal<Out, Bits<32>>,
    /// Some lane was valid.
    pub valid_o: Signal<Out, Bit>,
    l1: [BeatNode; 8],
    l2: [BeatNode; 4],
    l3: [BeatNode; 2],
    l4: BeatNode,
    _latency: usize,
}

impl BeatSum {
    /// The tree of adders of latency `add_latency` (1, 2 or 3): latency
    /// 4 × `add_latency`.
    pub fn new(add_latency: usize) -> Self {
        assert!(BEAT_SUM_ADD_LATENCIES.contains(&add_latency), "BeatSum adder latency {add_latency}: 1, 2 or 3");
        Self {
            clk_i: Default::default(),
            lanes_i: Default::default(),
            valid_i: Default::default(),
            sum_o: Default::default(),
            valid_o: Default::default(),
            l1: std::array::from_fn(|_| BeatNode::new(add_latency)),
            l2: std::array::from_fn(|_| BeatNode::new(add_latency)),
            l3: std::array::from_fn(|_| BeatNode::new(add_latency)),
            l4: BeatNode::new(add_latency),
            _latency: 4 * add_latency,
        }
    }

    pub fn latency(&self) -> usize {
        self._latency
    }
}

impl Default for BeatSum {
    fn default() -> Self {
        Self::new(2)
    }
}

impl Logic for BeatSum {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..8 {
            self.l1[i].clk_i.next = self.clk_i.val();
            self.l1[i].a_i.next = self.lanes_i.val().get_bits::<32>(64 * i);
            self.l1[i].b_i.next = self.lanes_i.val().get_bits::<32>(64 * i + 32);
            self.l1[i].va_i.next = self.valid_i.val().get_bit(2 * i);
            self.l1[i].vb_i.next = self.valid_i.val().get_bit(2 * i + 1);
        }
        for i in 0..4 {
            self.l2[i].clk_i.next = self.clk_i.val();
            self.l2[i].a_i.next = self.l1[2 * i].sum_o.val();
            self.l2[i].b_i.next = self.l1[2 * i + 1].sum_o.val();
            self.l2[i].va_i.next = self.l1[2 * i].v_o.val();
            self.l2[i].vb_i.next = self.l1[2 * i + 1].v_o.val();
        }
        for i in 0..2 {
            self.l3[i].clk_i.next = self.clk_i.val();
            self.l3[i].a_i.next = self.l2[2 * i].sum_o.val();
            self.l3[i].b_i.next = self.l2[2 * i + 1].sum_o.val();
            self.l3[i].va_i.next = self.l2[2 * i].v_o.val();
            self.l3[i].vb_i.next = self.l2[2 * i + 1].v_o.val();
        }
        self.l4.clk_i.next = self.clk_i.val();
        self.l4.a_i.next = self.l3[0].sum_o.val();
        self.l4.b_i.next = self.l3[1].sum_o.val();
        self.l4.va_i.next = self.l3[0].v_o.val();
        self.l4.vb_i.next = self.l3[1].v_o.val();
        self.sum_o.next = self.l4.sum_o.val();
        self.valid_o.next = self.l4.v_o.val();
    }
}

//! `Walk4d`: a TENSOR4D's byte offsets in walk order (dimension 0
//! innermost), as golden's `Tensor4d::offsets`: a step advances one
//! element, or `adv_i` elements of a unit-stride dimension 0 at once.
//!
//! Registers hold the indices and the offsets where the current runs of
//! dimensions 1, 2 and 3 began; a step adds one dimension's stride (signed,
//! scaled to bytes) to one of them. Offsets are 24-bit two's complement:
//! every offset the walk visits is inside the partition (rule 9), so they
//! never wrap.

use crate::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Walk4d {
    pub clk_i: Signal<In, Clock>,
    /// Back to the first element (wins over `step_i`).
    pub load_i: Signal<In, Bit>,
    /// To the next element (at the last one: stays).
    pub step_i: Signal<In, Bit>,
    /// The tensor's 20 bytes (start_addr, step_elem[4], num_elem[4]).
    pub tensor_i: Signal<In, Bits<160>>,
    /// log2 of the element size.
    pub lg_i: Signal<In, Bits<2>>,
    /// Elements a step advances in dimension 0 (1 to 16, at most
    /// `run_left_o`); more than 1 only for a unit stride (D60).
    pub adv_i: Signal<In, Bits<5>>,
    /// Elements left in the current run of dimension 0, this one included.
    pub run_left_o: Signal<Out, Bits<16>>,
    /// The current element's byte offset in its partition.
    pub offset_o: Signal<Out, Bits<21>>,
    /// The current `adv_i` elements end the pattern.
    pub last_o: Signal<Out, Bit>,
    idx: [DFF<Bits<16>>; 4],
    /// Where the current element is (0) and where the runs of dimensions 1..3 began.
    at: [DFF<Bits<24>>; 4],
    step16: [Signal<Local, Bits<16>>; 4],
    stride: [Signal<Local, Bits<24>>; 4],
    end: [Signal<Local, Bit>; 4],
    next1: Signal<Local, Bits<24>>,
    next2: Signal<Local, Bits<24>>,
    next3: Signal<Local, Bits<24>>,
    adv16: Signal<Local, Bits<16>>,
    /// The byte step of dimension 0: its stride, or `adv_i` elements.
    step0: Signal<Local, Bits<24>>,
    one5: Constant<Bits<5>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    sign_ext: Constant<Bits<24>>,
}

impl Default for Walk4d {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            load_i: Default::default(),
            step_i: Default::default(),
            tensor_i: Default::default(),
            lg_i: Default::default(),
            offset_o: Default::default(),
            last_o: Default::default(),
            idx: Default::default(),
            at: Default::default(),
            step16: Default::default(),
            stride: Default::default(),
            end: Default::default(),
            next1: Default::default(),
            next2: Default::default(),
            next3: Default::default(),
            adv16: Default::default(),
            step0: Default::default(),
            adv_i: Default::default(),
            run_left_o: Default::default(),
            one5: k(1),
            one16: k(1),
            zero16: k(0),
            sign_ext: k(0xff_0000),
        }
    }
}

impl Logic for Walk4d {
    #[hdl_gen]
    fn update(&mut self) {
        for d in 0..4 {
            self.idx[d].clock.next = self.clk_i.val();
            self.at[d].clock.next = self.clk_i.val();
            self.idx[d].d.next = self.idx[d].q.val();
            self.at[d].d.next = self.at[d].q.val();
            self.step16[d].next = self.tensor_i.val().get_bits::<16>(32 + 16 * d);
        }
        for d in 1..4 {
            self.end[d].next =
                self.idx[d].q.val() == (self.tensor_i.val().get_bits::<16>(96 + 16 * d) - self.one16.val());
        }
        // Dimension 0 ends when the step's elements reach its count.
        self.adv16.next = bit_cast::<16, 5>(self.adv_i.val());
        self.end[0].next = (self.idx[0].q.val() + self.adv16.val()) == self.tensor_i.val().get_bits::<16>(96);
        self.run_left_o.next = self.tensor_i.val().get_bits::<16>(96) - self.idx[0].q.val();
        // Written out: `bit_cast` of a loop variable's element fails inside `#[hdl_gen]`.
        self.stride[0].next = bit_cast::<24, 16>(self.step16[0].val()) << bit_cast::<24, 2>(self.lg_i.val());
        if self.step16[0].val().get_bit(15) {
            self.stride[0].next =
                (bit_cast::<24, 16>(self.step16[0].val()) | self.sign_ext.val()) << bit_cast::<24, 2>(self.lg_i.val());
        }
        self.stride[1].next = bit_cast::<24, 16>(self.step16[1].val()) << bit_cast::<24, 2>(self.lg_i.val());
        if self.step16[1].val().get_bit(15) {
            self.stride[1].next =
                (bit_cast::<24, 16>(self.step16[1].val()) | self.sign_ext.val()) << bit_cast::<24, 2>(self.lg_i.val());
        }
        self.stride[2].next = bit_cast::<24, 16>(self.step16[2].val()) << bit_cast::<24, 2>(self.lg_i.val());
        if self.step16[2].val().get_bit(15) {
            self.stride[2].next =
                (bit_cast::<24, 16>(self.step16[2].val()) | self.sign_ext.val()) << bit_cast::<24, 2>(self.lg_i.val());
        }
        self.stride[3].next = bit_cast::<24, 16>(self.step16[3].val()) << bit_cast::<24, 2>(self.lg_i.val());
        if self.step16[3].val().get_bit(15) {
            self.stride[3].next =
                (bit_cast::<24, 16>(self.step16[3].val()) | self.sign_ext.val()) << bit_cast::<24, 2>(self.lg_i.val());
        }
        self.step0.next = self.stride[0].val();
        if self.adv_i.val() != self.one5.val() {
            self.step0.next = bit_cast::<24, 5>(self.adv_i.val()) << bit_cast::<24, 2>(self.lg_i.val());
        }
        self.next1.next = self.at[1].q.val() + self.stride[1].val();
        self.next2.next = self.at[2].q.val() + self.stride[2].val();
        self.next3.next = self.at[3].q.val() + self.stride[3].val();
        self.offset_o.next = self.at[0].q.val().get_bits::<21>(0);
        self.last_o.next = self.end[0].val() & self.end[1].val() & self.end[2].val() & self.end[3].val();
        if self.load_i.val() {
            for d in 0..4 {
                self.idx[d].d.next = self.zero16.val();
                self.at[d].d.next = bit_cast::<24, 21>(self.tensor_i.val().get_bits::<21>(0));
            }
        } else if self.step_i.val() {
            if !self.end[0].val() {
                self.idx[0].d.next = self.idx[0].q.val() + self.adv16.val();
                self.at[0].d.next = self.at[0].q.val() + self.step0.val();
            } else if !self.end[1].val() {
                self.idx[0].d.next = self.zero16.val();
                self.idx[1].d.next = self.idx[1].q.val() + self.one16.val();
                self.at[0].d.next = self.next1.val();
                self.at[1].d.next = self.next1.val();
            } else if !self.end[2].val() {
                self.idx[0].d.next = self.zero16.val();
                self.idx[1].d.next = self.zero16.val();
                self.idx[2].d.next = self.idx[2].q.val() + self.one16.val();
                self.at[0].d.next = self.next2.val();
                self.at[1].d.next = self.next2.val();
                self.at[2].d.next = self.next2.val();
            } else if !self.end[3].val() {
                self.idx[0].d.next = self.zero16.val();
                self.idx[1].d.next = self.zero16.val();
                self.idx[2].d.next = self.zero16.val();
                self.idx[3].d.next = self.idx[3].q.val() + self.one16.val();
                self.at[0].d.next = self.next3.val();
                self.at[1].d.next = self.next3.val();
                self.at[2].d.next = self.next3.val();
                self.at[3].d.next = self.next3.val();
            }
        }
    }
}

//! `FoldAcc`: a fold's beats combined into its result, in order (golden's
//! `ArithFold`: beat 0, then `acc ∘ beat` for each next beat), and
//! `MaxNum2`, maximumNumber of two binary32 values as the reduce unit's
//! `rmaxnum` of a two-lane beat gives it.
//!
//! The sum uses an `F32Add` of latency 1, so a beat may follow the one
//! before it on the next clock (a one-value last beat after a full one).

use crate::f32_add::F32Add;
use crate::{c32, k};
use rust_hdl::prelude::*;

/// The fold's operator (`kind_i`).
pub const FOLD_ADD: u64 = 0;
pub const FOLD_MAX: u64 = 1;
pub const FOLD_OR: u64 = 2;
pub const FOLD_AND: u64 = 3;
pub const FOLD_XOR: u64 = 4;

/// maximumNumber of two binary32 values: a NaN never wins, −0 < +0, two
/// NaNs give the canonical quiet NaN 0x7fc00000.
#[derive(LogicBlock)]
pub struct MaxNum2 {
    pub a_i: Signal<In, Bits<32>>,
    pub b_i: Signal<In, Bits<32>>,
    pub max_o: Signal<Out, Bits<32>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_key: Signal<Local, Bits<32>>,
    b_key: Signal<Local, Bits<32>>,
    exp: Constant<Bits<32>>,
    sign: Constant<Bits<32>>,
    qnan: Constant<Bits<32>>,
}

impl Default for MaxNum2 {
    fn default() -> Self {
        Self {
            a_i: Default::default(),
            b_i: Default::default(),
            max_o: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            a_key: Default::default(),
            b_key: Default::default(),
            exp: c32(0x7f80_0000),
            sign: c32(0x8000_0000),
            qnan: c32(0x7fc0_0000),
        }
    }
}

impl Logic for MaxNum2 {
    #[hdl_gen]
    fn update(&mut self) {
        self.a_nan.next = (self.a_i.val() & !self.sign.val()) > self.exp.val();
        self.b_nan.next = (self.b_i.val() & !self.sign.val()) > self.exp.val();
        // Sign-flip keys: unsigned order is the numbers' order, −0 below +0.
        self.a_key.next = self.a_i.val() | self.sign.val();
        if self.a_i.val().get_bit(31) {
            self.a_key.next = !self.a_i.val();
        }
        self.b_key.next = self.b_i.val() | self.sign.val();
        if self.b_i.val().get_bit(31) {
            self.b_key.next = !self.b_i.val();
        }
        self.max_o.next = self.b_i.val();
        if self.a_key.val() >= self.b_key.val() {
            self.max_o.next = self.a_i.val();
        }
        if self.a_nan.val() {
            self.max_o.next = self.b_i.val();
        }
        if self.b_nan.val() {
            self.max_o.next = self.a_i.val();
        }
        if self.a_nan.val() & self.b_nan.val() {
            self.max_o.next = self.qnan.val();
        }
    }
}

#[derive(LogicBlock)]
pub struct FoldAcc {
    pub clk_i: Signal<In, Clock>,
    pub valid_i: Signal<In, Bit>,
    /// A beat's result: binary32 for ADD and MAX, the lanes' bits for the bitwise folds.
    pub value_i: Signal<In, Bits<32>>,
    pub first_i: Signal<In, Bit>,
    pub last_i: Signal<In, Bit>,
    /// `FOLD_ADD`, `FOLD_MAX`, `FOLD_OR`, `FOLD_AND` or `FOLD_XOR`.
    pub kind_i: Signal<In, Bits<3>>,
    /// A fold's result, the clock after its last beat came in.
    pub valid_o: Signal<Out, Bit>,
    pub value_o: Signal<Out, Bits<32>>,
    add: F32Add,
    max: MaxNum2,
    hold: DFF<Bits<32>>,
    /// The adder's output is the accumulator (an add was issued last clock).
    pending: DFF<Bit>,
    done: DFF<Bit>,
    acc: Signal<Local, Bits<32>>,
    kind_add: Constant<Bits<3>>,
    kind_max: Constant<Bits<3>>,
    kind_or: Constant<Bits<3>>,
    kind_and: Constant<Bits<3>>,
}

impl Default for FoldAcc {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            valid_i: Default::default(),
            value_i: Default::default(),
            first_i: Default::default(),
            last_i: Default::default(),
            kind_i: Default::default(),
            valid_o: Default::default(),
            value_o: Default::default(),
            add: F32Add::new(1),
            max: Default::default(),
            hold: Default::default(),
            pending: Default::default(),
            done: Default::default(),
            acc: Default::default(),
            kind_add: k(FOLD_ADD),
            kind_max: k(FOLD_MAX),
            kind_or: k(FOLD_OR),
            kind_and: k(FOLD_AND),
        }
    }
}

impl Logic for FoldAcc {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk_i, hold, pending, done);
        self.add.clk_i.next = self.clk_i.val();
        self.acc.next = self.hold.q.val();
        if self.pending.q.val() {
            self.acc.next = self.add.sum_o.val();
        }
        self.add.a_i.next = self.acc.val();
        self.add.b_i.next = self.value_i.val();
        self.max.a_i.next = self.acc.val();
        self.max.b_i.next = self.value_i.val();
        self.hold.d.next = self.acc.val();
        self.pending.d.next = false;
        self.done.d.next = self.valid_i.val() & self.last_i.val();
        if self.valid_i.val() {
            if self.first_i.val() {
                self.hold.d.next = self.value_i.val();
            } else if self.kind_i.val() == self.kind_add.val() {
                self.pending.d.next = true;
            } else if self.kind_i.val() == self.kind_max.val() {
                self.hold.d.next = self.max.max_o.val();
            } else if self.kind_i.val() == self.kind_or.val() {
                self.hold.d.next = self.acc.val() | self.value_i.val();
            } else if self.kind_i.val() == self.kind_and.val() {
                self.hold.d.next = self.acc.val() & self.value_i.val();
            } else {
                self.hold.d.next = self.acc.val() ^ self.value_i.val();
            }
        }
        self.valid_o.next = self.done.q.val();
        self.value_o.next = self.acc.val();
    }
}

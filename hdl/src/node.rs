//! One node of the log-step tree at a given level: two children (values and
//! tie masks) to one. Node widths grow with the level: a child value is kept
//! at its form's width (zeros above it) and every sum is unsigned (signed
//! sums are biased at the leaves, the seed's bias trick), so a sum is one
//! bit wider than its children and, with the op fixed, the tree is exactly
//! as wide as a hand-written one. Forms whose lanes are wider than the level's
//! children only place them side by side (`pass`): 16- and 32-bit lanes at
//! level 1, 32-bit lanes at level 2. The controls come decoded for the level
//! ([`crate::decode::NodeControl`], one-hot), so each value bit is one
//! and-or of the operators' terms.
//!
//! The tie mask: a node keeps the mask bits of both children on a tie and
//! only the winner's otherwise (the seed's argmax that returns every tie).

use crate::c32;
use rust_hdl::prelude::*;

/// Width of a sum's child at `level` for 8-bit lanes (8 bits at level 1).
pub const fn sum_width_b8(level: usize) -> usize {
    7 + level
}

/// Width of a sum's child at `level` for 16-bit lanes (16 bits at level 2).
pub const fn sum_width_h16(level: usize) -> usize {
    14 + level
}

fn low(bits: usize) -> u64 {
    (1u64 << bits) - 1
}

#[derive(LogicBlock)]
pub struct TreeNode {
    pub a_i: Signal<In, Bits<32>>,
    pub b_i: Signal<In, Bits<32>>,
    /// The children's tie masks, one bit per byte slot from the node's first.
    pub ma_i: Signal<In, Bits<64>>,
    pub mb_i: Signal<In, Bits<64>>,
    /// The level's node controls ([`crate::decode::NodeControl`]).
    pub pass_i: Signal<In, Bit>,
    pub sum_i: Signal<In, Bit>,
    pub max_i: Signal<In, Bit>,
    pub and_i: Signal<In, Bit>,
    pub or_i: Signal<In, Bit>,
    pub xor_i: Signal<In, Bit>,
    /// The compare when given (see [`TreeNode::with_compare_given`]): b beats
    /// a, a beats b. Otherwise the node compares its children.
    pub b_wins_i: Signal<In, Bit>,
    pub a_wins_i: Signal<In, Bit>,
    pub val_o: Signal<Out, Bits<32>>,
    pub mask_o: Signal<Out, Bits<64>>,
    /// b beats a, a beats b (keys).
    b_wins: Signal<Local, Bit>,
    a_wins: Signal<Local, Bit>,
    /// Controls as masks (all ones when set): sum, max, and, or, xor, side by side.
    m_sum: Signal<Local, Bits<32>>,
    m_max: Signal<Local, Bits<32>>,
    m_and: Signal<Local, Bits<32>>,
    m_or: Signal<Local, Bits<32>>,
    m_xor: Signal<Local, Bits<32>>,
    m_pass: Signal<Local, Bits<32>>,
    /// The value of every operator but max; the larger key.
    other: Signal<Local, Bits<32>>,
    winner: Signal<Local, Bits<32>>,
    // The level: the compare given, the child width in bits and in slots.
    given_compare: Constant<Bit>,
    child_bits: Constant<Bits<32>>,
    child_slots: Constant<Bits<64>>,
    /// The bits a value can have at this level (keys are compared within them).
    live: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    ones32: Constant<Bits<32>>,
    zero64: Constant<Bits<64>>,
}

impl TreeNode {
    /// A node at `level` (1 = byte pairs … 6 = the root) that compares its
    /// children, or at level 2 takes the compare made from the keys.
    pub fn new(level: usize) -> Self {
        Self::with_compare_given(level, level == 2)
    }

    /// A node at `level` that takes its compare from `b_wins_i` / `a_wins_i`
    /// when `given` (level 2's from the keys, [`crate::compare::WindowCompare`];
    /// levels 4 to 6 where the configuration compares ahead,
    /// [`crate::compare::AheadCompare`]), else compares its children.
    pub fn with_compare_given(level: usize, given: bool) -> Self {
        assert!((1..=crate::LEVELS).contains(&level), "tree level {level}");
        // The bits a value can have at this level: 9 at level 1 (a sum of
        // two bytes), 17 at level 2 (of two 16-bit lanes; 32-bit lanes are
        // still side by side there), 32 above. Keys are compared within them.
        let live = match level {
            1 => low(sum_width_b8(1) + 1),
            2 => low(sum_width_h16(2) + 1),
            _ => low(32),
        };
        let child_bits = if level <= 2 { 8u64 << (level - 1) } else { 0 };
        Self {
            a_i: Default::default(),
            b_i: Default::default(),
            ma_i: Default::default(),
            mb_i: Default::default(),
            pass_i: Default::default(),
            sum_i: Default::default(),
            max_i: Default::default(),
            and_i: Default::default(),
            or_i: Default::default(),
            xor_i: Default::default(),
            b_wins_i: Default::default(),
            a_wins_i: Default::default(),
            val_o: Default::default(),
            mask_o: Default::default(),
            b_wins: Default::default(),
            a_wins: Default::default(),
            m_sum: Default::default(),
            m_max: Default::default(),
            m_and: Default::default(),
            m_or: Default::default(),
            m_xor: Default::default(),
            m_pass: Default::default(),
            other: Default::default(),
            winner: Default::default(),
            given_compare: Constant::new(given),
            child_bits: c32(child_bits),
            child_slots: Constant::new((1u64 << (level - 1)).into()),
            live: c32(live),
            zero32: c32(0),
            ones32: c32(low(32)),
            zero64: Constant::new(0u64.into()),
        }
    }
}

impl Logic for TreeNode {
    #[hdl_gen]
    fn update(&mut self) {
        // Keys: unsigned compare of the live bits (given at level 2).
        self.b_wins.next = (self.b_i.val() & self.live.val()) > (self.a_i.val() & self.live.val());
        self.a_wins.next = (self.a_i.val() & self.live.val()) > (self.b_i.val() & self.live.val());
        if self.given_compare.val() {
            self.b_wins.next = self.b_wins_i.val();
            self.a_wins.next = self.a_wins_i.val();
        }
        // Each operator's term selected by a control mask (the controls are
        // one-hot): the terms that do not wait for the compare (sum, and,
        // or, xor, the children side by side), then the winner of a max
        // (a or b) joins them, so that the compare is one select from the
        // value.
        self.m_sum.next = self.zero32.val();
        if self.sum_i.val() {
            self.m_sum.next = self.ones32.val();
        }
        self.m_max.next = self.zero32.val();
        if self.max_i.val() {
            self.m_max.next = self.ones32.val();
        }
        self.m_and.next = self.zero32.val();
        if self.and_i.val() {
            self.m_and.next = self.ones32.val();
        }
        self.m_or.next = self.zero32.val();
        if self.or_i.val() {
            self.m_or.next = self.ones32.val();
        }
        self.m_xor.next = self.zero32.val();
        if self.xor_i.val() {
            self.m_xor.next = self.ones32.val();
        }
        self.m_pass.next = self.zero32.val();
        if self.pass_i.val() {
            self.m_pass.next = self.ones32.val();
        }
        self.other.next = ((self.a_i.val() + self.b_i.val()) & self.m_sum.val())
            | (self.a_i.val() & self.b_i.val() & self.m_and.val())
            | ((self.a_i.val() | self.b_i.val()) & self.m_or.val())
            | ((self.a_i.val() ^ self.b_i.val()) & self.m_xor.val())
            | ((self.a_i.val() | (self.b_i.val() << self.child_bits.val())) & self.m_pass.val());
        self.winner.next = self.a_i.val();
        if self.b_wins.val() {
            self.winner.next = self.b_i.val();
        }
        self.val_o.next = self.other.val() | (self.winner.val() & self.m_max.val());
        // The tie mask: the loser's bits are cleared, a tie keeps both; a
        // form that only places its children here keeps both.
        self.mask_o.next = self.zero64.val();
        if self.pass_i.val() | !self.b_wins.val() {
            self.mask_o.next = self.ma_i.val();
        }
        if self.pass_i.val() | !self.a_wins.val() {
            self.mask_o.next = self.mask_o.val() | (self.mb_i.val() << self.child_slots.val());
        }
    }
}

//! Level 2's compare, made from a 32-bit window's keys in parallel with level
//! 1 rather than from level 1's results, so that the first tree stage is
//! one compare deep. Level 2's children are the window's halves: for 8-bit
//! lanes the larger of bytes 0, 1 and of bytes 2, 3 (level 1 folded the
//! byte pairs), else the 16-bit halves themselves (level 1 only placed
//! them). The larger of bytes 2, 3 beats the larger of bytes 0, 1 exactly
//! when byte 2 or byte 3 beats both bytes 0 and 1, so eight byte compares
//! give both outcomes without waiting for level 1. Level 2's sum is made
//! from the keys the same way ([`WindowSum`]), so neither of level 2's
//! carry chains waits for level 1's.

use crate::c32;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WindowCompare {
    /// The window's keys, from the input register.
    pub key_i: Signal<In, Bits<32>>,
    /// Level 1 folded byte pairs (8-bit lanes): compare the four bytes;
    /// else the two halves.
    pub pairs_i: Signal<In, Bit>,
    /// The high half beats the low half; the low half beats the high half.
    pub b_wins_o: Signal<Out, Bit>,
    pub a_wins_o: Signal<Out, Bit>,
    k0: Signal<Local, Bits<32>>,
    k1: Signal<Local, Bits<32>>,
    k2: Signal<Local, Bits<32>>,
    k3: Signal<Local, Bits<32>>,
    lo: Signal<Local, Bits<32>>,
    hi: Signal<Local, Bits<32>>,
    byte_mask: Constant<Bits<32>>,
    half_mask: Constant<Bits<32>>,
}

impl Default for WindowCompare {
    fn default() -> Self {
        Self {
            key_i: Default::default(),
            pairs_i: Default::default(),
            b_wins_o: Default::default(),
            a_wins_o: Default::default(),
            k0: Default::default(),
            k1: Default::default(),
            k2: Default::default(),
            k3: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            byte_mask: c32(0xff),
            half_mask: c32(0xffff),
        }
    }
}

impl Logic for WindowCompare {
    #[hdl_gen]
    fn update(&mut self) {
        self.k0.next = self.key_i.val() & self.byte_mask.val();
        self.k1.next = (self.key_i.val() >> 8) & self.byte_mask.val();
        self.k2.next = (self.key_i.val() >> 16) & self.byte_mask.val();
        self.k3.next = (self.key_i.val() >> 24) & self.byte_mask.val();
        self.lo.next = self.key_i.val() & self.half_mask.val();
        self.hi.next = (self.key_i.val() >> 16) & self.half_mask.val();
        self.b_wins_o.next = self.hi.val() > self.lo.val();
        self.a_wins_o.next = self.lo.val() > self.hi.val();
        if self.pairs_i.val() {
            self.b_wins_o.next = ((self.k2.val() > self.k0.val()) & (self.k2.val() > self.k1.val()))
                | ((self.k3.val() > self.k0.val()) & (self.k3.val() > self.k1.val()));
            self.a_wins_o.next = ((self.k0.val() > self.k2.val()) & (self.k0.val() > self.k3.val()))
                | ((self.k1.val() > self.k2.val()) & (self.k1.val() > self.k3.val()));
        }
    }
}

/// Level 2's sum made from a 32-bit window's keys, the way [`WindowCompare`]
/// makes its compare: for 8-bit lanes (k0 + k1) + (k2 + k3), else the low
/// half plus the high half, so that level 2's add waits for no compare and
/// select of level 1 (the unit's levels 1 and 2 then add nothing for a
/// sum: their nodes' sum controls are off and this is or-ed onto level 2's
/// value). The keys of a sum are its lanes, signed ones biased at the
/// leaves, so this is what levels 1 and 2 would add. 0 unless `sum_i` (the
/// level-2 node control).
#[derive(LogicBlock)]
pub struct WindowSum {
    /// The window's keys, from the input register.
    pub key_i: Signal<In, Bits<32>>,
    /// 8-bit lanes: add the four bytes; else the two halves.
    pub pairs_i: Signal<In, Bit>,
    /// The op is a sum (level 2's `sum` node control).
    pub sum_i: Signal<In, Bit>,
    /// The sum at level 2 (10 bits for 8-bit lanes, 17 for 16-bit), or 0.
    pub sum_o: Signal<Out, Bits<32>>,
    byte_mask: Constant<Bits<32>>,
    half_mask: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
}

impl Default for WindowSum {
    fn default() -> Self {
        Self {
            key_i: Default::default(),
            pairs_i: Default::default(),
            sum_i: Default::default(),
            sum_o: Default::default(),
            byte_mask: c32(0xff),
            half_mask: c32(0xffff),
            zero32: c32(0),
        }
    }
}

impl Logic for WindowSum {
    #[hdl_gen]
    fn update(&mut self) {
        self.sum_o.next = (self.key_i.val() & self.half_mask.val()) + ((self.key_i.val() >> 16) & self.half_mask.val());
        if self.pairs_i.val() {
            self.sum_o.next = ((self.key_i.val() & self.byte_mask.val())
                + ((self.key_i.val() >> 8) & self.byte_mask.val()))
                + (((self.key_i.val() >> 16) & self.byte_mask.val())
                    + ((self.key_i.val() >> 24) & self.byte_mask.val()));
        }
        if !self.sum_i.val() {
            self.sum_o.next = self.zero32.val();
        }
    }
}

/// A node's compare made one level ahead, from its four grandchildren (the
/// values two levels below it) rather than from its children, so that it
/// runs beside the level below instead of after it: the larger of the right
/// pair beats the larger of the left pair exactly when one of the right pair
/// beats both of the left pair, and the other way round. Keys are compared
/// in full (32 bits: the grandchildren of levels 4 to 6). A configuration
/// uses it at a level whose children have no register before the node
/// ([`crate::Config::compare_ahead`]), where the compare would otherwise
/// wait for the level below's own compare and select in the same stage;
/// elsewhere it is built unused (`used` clear: both outputs 0) and the node
/// compares its children.
#[derive(LogicBlock)]
pub struct AheadCompare {
    /// The left child's children; the right child's children.
    pub l0_i: Signal<In, Bits<32>>,
    pub l1_i: Signal<In, Bits<32>>,
    pub r0_i: Signal<In, Bits<32>>,
    pub r1_i: Signal<In, Bits<32>>,
    /// The right child beats the left child; the left beats the right.
    pub b_wins_o: Signal<Out, Bit>,
    pub a_wins_o: Signal<Out, Bit>,
    used: Constant<Bit>,
}

impl AheadCompare {
    /// The compare, `used` by its node or not.
    pub fn new(used: bool) -> Self {
        Self {
            l0_i: Default::default(),
            l1_i: Default::default(),
            r0_i: Default::default(),
            r1_i: Default::default(),
            b_wins_o: Default::default(),
            a_wins_o: Default::default(),
            used: Constant::new(used),
        }
    }
}

impl Logic for AheadCompare {
    #[hdl_gen]
    fn update(&mut self) {
        self.b_wins_o.next = false;
        self.a_wins_o.next = false;
        if self.used.val() {
            self.b_wins_o.next = ((self.r0_i.val() > self.l0_i.val()) & (self.r0_i.val() > self.l1_i.val()))
                | ((self.r1_i.val() > self.l0_i.val()) & (self.r1_i.val() > self.l1_i.val()));
            self.a_wins_o.next = ((self.l0_i.val() > self.r0_i.val()) & (self.l0_i.val() > self.r1_i.val()))
                | ((self.l1_i.val() > self.r0_i.val()) & (self.l1_i.val() > self.r1_i.val()));
        }
    }
}

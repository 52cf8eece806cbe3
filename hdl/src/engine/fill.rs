//! `LaneFill`: values one a clock into beats, the 512-bit vectors the
//! reduce unit and `BeatSum` fold (D59). A value of 2^lg bytes goes to lane
//! l at byte 2^lg × l; its slot bit (byte 2^lg × l) is set in the mask, as the
//! reduce unit's vbool and (every fourth bit) BeatSum's lane-valid bits
//! take it. A beat leaves, registered, when its last lane is filled or its
//! fold ends; lanes after a short beat's last are zero and not valid.

use crate::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LaneFill {
    pub clk_i: Signal<In, Clock>,
    /// Clears a partial beat (reset; nothing is partial between instructions).
    pub clear_i: Signal<In, Bit>,
    pub valid_i: Signal<In, Bit>,
    /// The value in its low 2^lg bytes (higher bits are ignored).
    pub value_i: Signal<In, Bits<64>>,
    /// The value is the first / last of its fold.
    pub first_i: Signal<In, Bit>,
    pub last_i: Signal<In, Bit>,
    /// log2 of a lane's bytes: 0, 1 or 2.
    pub lg_i: Signal<In, Bits<2>>,
    pub valid_o: Signal<Out, Bit>,
    pub beat_o: Signal<Out, Bits<512>>,
    pub mask_o: Signal<Out, Bits<64>>,
    /// The beat holds its fold's first value / last value.
    pub first_o: Signal<Out, Bit>,
    pub last_o: Signal<Out, Bit>,
    beat: DFF<Bits<512>>,
    mask: DFF<Bits<64>>,
    /// The next lane's byte.
    slot: DFF<Bits<7>>,
    first: DFF<Bit>,
    out_valid: DFF<Bit>,
    out_beat: DFF<Bits<512>>,
    out_mask: DFF<Bits<64>>,
    out_first: DFF<Bit>,
    out_last: DFF<Bit>,
    width_mask: Signal<Local, Bits<64>>,
    masked: Signal<Local, Bits<64>>,
    placed: Signal<Local, Bits<512>>,
    cur_beat: Signal<Local, Bits<512>>,
    cur_mask: Signal<Local, Bits<64>>,
    next_slot: Signal<Local, Bits<7>>,
    beat_first: Signal<Local, Bit>,
    flush: Signal<Local, Bit>,
    ones: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
    eight: Constant<Bits<64>>,
    one7: Constant<Bits<7>>,
    zero7: Constant<Bits<7>>,
    zero64: Constant<Bits<64>>,
    zero512: Constant<Bits<512>>,
    lg3: Constant<Bits<2>>,
}

impl Default for LaneFill {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            clear_i: Default::default(),
            valid_i: Default::default(),
            value_i: Default::default(),
            first_i: Default::default(),
            last_i: Default::default(),
            lg_i: Default::default(),
            valid_o: Default::default(),
            beat_o: Default::default(),
            mask_o: Default::default(),
            first_o: Default::default(),
            last_o: Default::default(),
            beat: Default::default(),
            mask: Default::default(),
            slot: Default::default(),
            first: Default::default(),
            out_valid: Default::default(),
            out_beat: Default::default(),
            out_mask: Default::default(),
            out_first: Default::default(),
            out_last: Default::default(),
            width_mask: Default::default(),
            masked: Default::default(),
            placed: Default::default(),
            cur_beat: Default::default(),
            cur_mask: Default::default(),
            next_slot: Default::default(),
            beat_first: Default::default(),
            flush: Default::default(),
            ones: k(u64::MAX),
            one64: k(1),
            eight: k(8),
            one7: k(1),
            zero7: k(0),
            zero64: k(0),
            zero512: k(0),
            lg3: k(3),
        }
    }
}

impl Logic for LaneFill {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk_i, beat, mask, slot, first, out_valid, out_beat, out_mask, out_first, out_last);
        // 2^lg bytes of ones: 8 << lg bits (never shifted by 64).
        if self.lg_i.val() == self.lg3.val() {
            self.width_mask.next = self.ones.val();
        } else {
            self.width_mask.next = !(self.ones.val() << (self.eight.val() << bit_cast::<64, 2>(self.lg_i.val())));
        }
        self.masked.next = self.value_i.val() & self.width_mask.val();
        self.placed.next = bit_cast::<512, 64>(self.masked.val()) << (bit_cast::<10, 7>(self.slot.q.val()) << 3);
        self.cur_beat.next = self.beat.q.val() | self.placed.val();
        self.cur_mask.next = self.mask.q.val() | (self.one64.val() << bit_cast::<64, 7>(self.slot.q.val()));
        self.next_slot.next = self.slot.q.val() + (self.one7.val() << bit_cast::<7, 2>(self.lg_i.val()));
        self.beat_first.next = self.first.q.val();
        if self.slot.q.val() == self.zero7.val() {
            self.beat_first.next = self.first_i.val();
        }
        self.flush.next = self.valid_i.val() & (self.last_i.val() | self.next_slot.val().get_bit(6));
        self.out_valid.d.next = self.flush.val();
        self.out_beat.d.next = self.cur_beat.val();
        self.out_mask.d.next = self.cur_mask.val();
        self.out_first.d.next = self.beat_first.val();
        self.out_last.d.next = self.last_i.val();
        if self.valid_i.val() {
            self.beat.d.next = self.cur_beat.val();
            self.mask.d.next = self.cur_mask.val();
            self.slot.d.next = self.next_slot.val();
            self.first.d.next = self.beat_first.val();
        }
        if self.flush.val() | self.clear_i.val() {
            self.beat.d.next = self.zero512.val();
            self.mask.d.next = self.zero64.val();
            self.slot.d.next = self.zero7.val();
        }
        if self.clear_i.val() {
            self.out_valid.d.next = false;
        }
        self.valid_o.next = self.out_valid.q.val();
        self.beat_o.next = self.out_beat.q.val();
        self.mask_o.next = self.out_mask.q.val();
        self.first_o.next = self.out_first.q.val();
        self.last_o.next = self.out_last.q.val();
    }
}

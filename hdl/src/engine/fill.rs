//! `BeatPack`: chunks of up to 16 values a clock packed into beats, the
//! 16 × 32-bit vectors `BeatSum` and the reduce unit fold (D60). A fold's
//! values fill lanes 0, 1, … of its first beat, then of the next: value i of
//! a fold goes to lane i mod 16 of beat i / 16, which is golden's cut of the
//! values into beats of 16 (D7), whatever the chunks were. A chunk of
//! `count_i` values at lane `pos` lands in lanes pos.. of the current beat
//! (rotated into place) and spills the rest into the next. A beat leaves,
//! registered, when its lane 15 is filled or its fold ends; a fold whose last
//! chunk spills leaves its short last beat the clock after (no chunk may come
//! in that clock: a fold's end is followed by at least one idle clock).
//! Lanes after a short beat's last are zero and not valid.

use crate::k;
use rust_hdl::prelude::*;

/// Lanes of a beat.
pub const LANES: usize = 16;

#[derive(LogicBlock)]
pub struct BeatPack {
    pub clk_i: Signal<In, Clock>,
    /// Clears a partial beat (reset; nothing is partial between instructions).
    pub clear_i: Signal<In, Bit>,
    pub valid_i: Signal<In, Bit>,
    /// The chunk: value j in lane j (bits 32j+31..32j), j < `count_i`.
    pub lanes_i: Signal<In, Bits<512>>,
    /// Values in the chunk, 1 to 16.
    pub count_i: Signal<In, Bits<5>>,
    /// The chunk holds its fold's first value / last value.
    pub first_i: Signal<In, Bit>,
    pub last_i: Signal<In, Bit>,
    pub valid_o: Signal<Out, Bit>,
    pub beat_o: Signal<Out, Bits<512>>,
    /// Lane l holds a value.
    pub mask_o: Signal<Out, Bits<16>>,
    /// The beat holds its fold's first value / last value.
    pub first_o: Signal<Out, Bit>,
    pub last_o: Signal<Out, Bit>,
    beat: DFF<Bits<512>>,
    mask: DFF<Bits<16>>,
    /// The next free lane.
    pos: DFF<Bits<5>>,
    /// The partial beat holds its fold's first value.
    first: DFF<Bit>,
    /// The partial beat is a fold's short last beat, to leave now.
    flush: DFF<Bit>,
    out_valid: DFF<Bit>,
    out_beat: DFF<Bits<512>>,
    out_mask: DFF<Bits<16>>,
    out_first: DFF<Bit>,
    out_last: DFF<Bit>,
    /// The chunk's lanes, `pos` lanes on: what stays in this beat and what spills.
    in_mask: Signal<Local, Bits<32>>,
    rot_lo: Signal<Local, Bits<512>>,
    rot_hi: Signal<Local, Bits<512>>,
    wide_lo: Signal<Local, Bits<512>>,
    wide_hi: Signal<Local, Bits<512>>,
    merged: Signal<Local, Bits<512>>,
    merged_mask: Signal<Local, Bits<16>>,
    spill: Signal<Local, Bits<512>>,
    spill_mask: Signal<Local, Bits<16>>,
    total: Signal<Local, Bits<5>>,
    /// 16 − pos: the lanes a spill moves back.
    back: Signal<Local, Bits<5>>,
    full: Signal<Local, Bit>,
    beat_first: Signal<Local, Bit>,
    ones32: Constant<Bits<32>>,
    lane_ones: Constant<Bits<512>>,
    /// Lane l's bit offset, 32l.
    at32: [Constant<Bits<10>>; LANES],
    sixteen: Constant<Bits<5>>,
    zero5: Constant<Bits<5>>,
    zero16: Constant<Bits<16>>,
    zero512: Constant<Bits<512>>,
}

impl Default for BeatPack {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            clear_i: Default::default(),
            valid_i: Default::default(),
            lanes_i: Default::default(),
            count_i: Default::default(),
            first_i: Default::default(),
            last_i: Default::default(),
            valid_o: Default::default(),
            beat_o: Default::default(),
            mask_o: Default::default(),
            first_o: Default::default(),
            last_o: Default::default(),
            beat: Default::default(),
            mask: Default::default(),
            pos: Default::default(),
            first: Default::default(),
            flush: Default::default(),
            out_valid: Default::default(),
            out_beat: Default::default(),
            out_mask: Default::default(),
            out_first: Default::default(),
            out_last: Default::default(),
            in_mask: Default::default(),
            rot_lo: Default::default(),
            rot_hi: Default::default(),
            wide_lo: Default::default(),
            wide_hi: Default::default(),
            merged: Default::default(),
            merged_mask: Default::default(),
            spill: Default::default(),
            spill_mask: Default::default(),
            total: Default::default(),
            back: Default::default(),
            full: Default::default(),
            beat_first: Default::default(),
            ones32: k(0xffff_ffff),
            lane_ones: k(0xffff_ffff),
            at32: std::array::from_fn(|l| k(32 * l as u64)),
            sixteen: k(16),
            zero5: k(0),
            zero16: k(0),
            zero512: k(0),
        }
    }
}

impl Logic for BeatPack {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk_i, beat, mask, pos, first, flush, out_valid, out_beat, out_mask, out_first, out_last);
        // count ones from lane pos: the low 16 stay, the high 16 spill.
        self.in_mask.next =
            (!(self.ones32.val() << bit_cast::<32, 5>(self.count_i.val()))) << bit_cast::<32, 5>(self.pos.q.val());
        self.rot_lo.next = self.lanes_i.val() << (bit_cast::<10, 5>(self.pos.q.val()) << 5);
        // For pos 0 the shift is the whole width: nothing spills.
        self.back.next = self.sixteen.val() - self.pos.q.val();
        self.rot_hi.next = self.lanes_i.val() >> (bit_cast::<10, 5>(self.back.val()) << 5);
        self.wide_lo.next = self.zero512.val();
        self.wide_hi.next = self.zero512.val();
        for l in 0..16 {
            if self.in_mask.val().get_bit(l) {
                self.wide_lo.next = self.wide_lo.val() | (self.lane_ones.val() << self.at32[l].val());
            }
            if self.in_mask.val().get_bit(l + 16) {
                self.wide_hi.next = self.wide_hi.val() | (self.lane_ones.val() << self.at32[l].val());
            }
        }
        self.merged.next = self.beat.q.val() | (self.rot_lo.val() & self.wide_lo.val());
        self.merged_mask.next = self.mask.q.val() | self.in_mask.val().get_bits::<16>(0);
        self.spill.next = self.rot_hi.val() & self.wide_hi.val();
        self.spill_mask.next = self.in_mask.val().get_bits::<16>(16);
        self.total.next = self.pos.q.val() + self.count_i.val();
        self.full.next = self.total.val() >= self.sixteen.val();
        self.beat_first.next = self.first.q.val() | self.first_i.val();
        // Nothing leaves unless a beat fills or a fold ends.
        self.out_valid.d.next = false;
        self.out_beat.d.next = self.merged.val();
        self.out_mask.d.next = self.merged_mask.val();
        self.out_first.d.next = self.beat_first.val();
        self.out_last.d.next = self.last_i.val();
        self.flush.d.next = false;
        if self.valid_i.val() {
            if self.full.val() {
                // A full beat leaves; the spill starts the next.
                self.out_valid.d.next = true;
                self.out_last.d.next = self.last_i.val() & (self.spill_mask.val() == self.zero16.val());
                self.beat.d.next = self.spill.val();
                self.mask.d.next = self.spill_mask.val();
                self.pos.d.next = self.total.val() - self.sixteen.val();
                self.first.d.next = false;
                self.flush.d.next = self.last_i.val() & (self.spill_mask.val() != self.zero16.val());
            } else if self.last_i.val() {
                self.out_valid.d.next = true;
                self.beat.d.next = self.zero512.val();
                self.mask.d.next = self.zero16.val();
                self.pos.d.next = self.zero5.val();
                self.first.d.next = false;
            } else {
                self.beat.d.next = self.merged.val();
                self.mask.d.next = self.merged_mask.val();
                self.pos.d.next = self.total.val();
                self.first.d.next = self.beat_first.val();
            }
        } else if self.flush.q.val() {
            // A fold's short last beat, after its full one.
            self.out_valid.d.next = true;
            self.out_beat.d.next = self.beat.q.val();
            self.out_mask.d.next = self.mask.q.val();
            self.out_first.d.next = false;
            self.out_last.d.next = true;
            self.beat.d.next = self.zero512.val();
            self.mask.d.next = self.zero16.val();
            self.pos.d.next = self.zero5.val();
        }
        if self.clear_i.val() {
            self.beat.d.next = self.zero512.val();
            self.mask.d.next = self.zero16.val();
            self.pos.d.next = self.zero5.val();
            self.first.d.next = false;
            self.flush.d.next = false;
            self.out_valid.d.next = false;
        }
        self.valid_o.next = self.out_valid.q.val();
        self.beat_o.next = self.out_beat.q.val();
        self.mask_o.next = self.out_mask.q.val();
        self.first_o.next = self.out_first.q.val();
        self.last_o.next = self.out_last.q.val();
    }
}

//! `LaneConv`: one lane of the engine's chunk datapath (D60). It picks an
//! element of 2^lg bytes out of a row, element `lane` from byte `byte_i` on
//! (a chunk of one row, axis All) or the element at byte `byte_i` of its own
//! row (`own_i`: axis Partitions, lane j reading partition p + j), registers
//! it zero-extended, converts it to binary32 (`ToF32`,
//! latency 2) and multiplies it by the scale (`F32Mul`, latency 2), and puts
//! each of the three (the raw bits, low 32; the binary32; the product) at the
//! lane's place in a 512-bit beat, lane l in bits 32l+31..32l, so the engine
//! ORs its 16 lanes into beats.
//!
//! | output | clocks after `row_i` |
//! |---|---|
//! | `raw_o` | 1 |
//! | `conv_o` | 3 |
//! | `product_o` | 5 |

use crate::f32_mul::F32Mul;
use crate::k;
use crate::to_f32::ToF32;
use rust_hdl::prelude::*;

/// Clocks from `row_i` to `raw_o`, `conv_o` and `product_o`.
pub const RAW_LATENCY: usize = 1;
pub const CONV_LATENCY: usize = 3;
pub const PRODUCT_LATENCY: usize = 5;

#[derive(LogicBlock)]
pub struct LaneConv {
    pub clk_i: Signal<In, Clock>,
    /// The row the element is in.
    pub row_i: Signal<In, Bits<512>>,
    /// The byte of the chunk's first element in the row.
    pub byte_i: Signal<In, Bits<6>>,
    /// The row is this lane's own: its element is at `byte_i` (not `lane` elements on).
    pub own_i: Signal<In, Bit>,
    /// log2 of the element's bytes.
    pub lg_i: Signal<In, Bits<2>>,
    pub dtype_i: Signal<In, Bits<4>>,
    /// AVERAGE's scale (binary32).
    pub scale_i: Signal<In, Bits<32>>,
    pub raw_o: Signal<Out, Bits<512>>,
    pub conv_o: Signal<Out, Bits<512>>,
    pub product_o: Signal<Out, Bits<512>>,
    elem: DFF<Bits<64>>,
    to_f32: ToF32,
    mul: F32Mul,
    shifted: Signal<Local, Bits<512>>,
    /// The element's bit in the row (up to 8·63 + 8·15·8: 11 bits).
    at: Signal<Local, Bits<11>>,
    picked: Signal<Local, Bits<64>>,
    low: Signal<Local, Bits<64>>,
    width_mask: Signal<Local, Bits<64>>,
    /// The element's bit offset in the row for lg 0 (8 × lane); lg shifts it.
    at8: Constant<Bits<10>>,
    /// The lane's bit offset in a beat (32 × lane).
    at32: Constant<Bits<10>>,
    ones: Constant<Bits<64>>,
    ones32: Constant<Bits<64>>,
    eight: Constant<Bits<64>>,
    lg3: Constant<Bits<2>>,
}

impl LaneConv {
    /// Lane `lane` (0 to 15).
    pub fn new(lane: usize) -> Self {
        assert!(lane < super::fill::LANES, "lane {lane}: 0 to 15");
        Self {
            clk_i: Default::default(),
            row_i: Default::default(),
            lg_i: Default::default(),
            dtype_i: Default::default(),
            scale_i: Default::default(),
            raw_o: Default::default(),
            conv_o: Default::default(),
            product_o: Default::default(),
            elem: Default::default(),
            to_f32: ToF32::new(2),
            mul: F32Mul::new(2),
            shifted: Default::default(),
            at: Default::default(),
            byte_i: Default::default(),
            own_i: Default::default(),
            picked: Default::default(),
            low: Default::default(),
            width_mask: Default::default(),
            at8: k(8 * lane as u64),
            at32: k(32 * lane as u64),
            ones: k(u64::MAX),
            ones32: k(0xffff_ffff),
            eight: k(8),
            lg3: k(3),
        }
    }
}

impl Logic for LaneConv {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk_i, elem);
        // Element `lane` starts at bit 8·byte + (8·lane << lg): past the row
        // (zero) only for lanes beyond the row's last element, never valid.
        self.at.next = (bit_cast::<11, 6>(self.byte_i.val()) << 3)
            + (bit_cast::<11, 10>(self.at8.val()) << bit_cast::<11, 2>(self.lg_i.val()));
        if self.own_i.val() {
            self.at.next = bit_cast::<11, 6>(self.byte_i.val()) << 3;
        }
        self.shifted.next = self.row_i.val() >> self.at.val();
        self.picked.next = self.shifted.val().get_bits::<64>(0);
        // 2^lg bytes of ones (8 << lg bits; all 64 for lg 3, never shifted by 64).
        if self.lg_i.val() == self.lg3.val() {
            self.width_mask.next = self.ones.val();
        } else {
            self.width_mask.next = !(self.ones.val() << (self.eight.val() << bit_cast::<64, 2>(self.lg_i.val())));
        }
        self.elem.d.next = self.picked.val() & self.width_mask.val();
        self.to_f32.clk_i.next = self.clk_i.val();
        self.to_f32.bits_i.next = self.elem.q.val();
        self.to_f32.dtype_i.next = self.dtype_i.val();
        self.mul.clk_i.next = self.clk_i.val();
        self.mul.a_i.next = self.to_f32.f32_o.val();
        self.mul.b_i.next = self.scale_i.val();
        self.low.next = self.elem.q.val() & self.ones32.val();
        self.raw_o.next = bit_cast::<512, 64>(self.low.val()) << self.at32.val();
        self.conv_o.next = bit_cast::<512, 32>(self.to_f32.f32_o.val()) << self.at32.val();
        self.product_o.next = bit_cast::<512, 32>(self.mul.product_o.val()) << self.at32.val();
    }
}

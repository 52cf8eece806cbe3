//! The op decoder: purely combinational, from the 9-bit op select (the
//! golden table's codes, `{predicated, family[4:0], form[2:0]}`) to the
//! controls of the tree stages. The unit instantiates one per stage that
//! needs controls, so the op travels down the pipeline as 9 bits.

use crosslane_golden::{Family, Form, Op, OP_SELECT_BITS};
use rust_hdl::prelude::*;

/// Family constants of the op select, from the golden table.
fn fam(f: Family) -> Constant<Bits<5>> {
    Constant::new((f.code() as u64).into())
}

fn form(f: Form) -> Constant<Bits<3>> {
    Constant::new((f.code() as u64).into())
}

fn c32(x: u64) -> Constant<Bits<32>> {
    Constant::new(x.into())
}

fn c64(x: u64) -> Constant<Bits<64>> {
    Constant::new(x.into())
}

#[derive(LogicBlock)]
pub struct OpDecode {
    pub op_i: Signal<In, Bits<OP_SELECT_BITS>>,
    /// All ones of the lane width.
    pub lane_mask_o: Signal<Out, Bits<32>>,
    /// The sign bit of the lane width.
    pub sign_bit_o: Signal<Out, Bits<32>>,
    /// Slot `s` (a byte position) starts a lane: every slot for 2nx8, even
    /// slots for 16-bit forms, every fourth for 32-bit forms.
    pub lane_starts_o: Signal<Out, Bits<64>>,
    pub form_h16_o: Signal<Out, Bit>,
    pub form_w32_o: Signal<Out, Bit>,
    pub predicated_o: Signal<Out, Bit>,
    pub vbool_fold_o: Signal<Out, Bit>,
    /// The node operator: sum, unsigned max of keys, and, or, xor.
    pub k_sum_o: Signal<Out, Bit>,
    pub k_max_o: Signal<Out, Bit>,
    pub k_and_o: Signal<Out, Bit>,
    pub k_or_o: Signal<Out, Bit>,
    pub k_xor_o: Signal<Out, Bit>,
    /// Signed sum: sign-extend the lanes.
    pub sext_o: Signal<Out, Bit>,
    /// radds: saturate the root to int16.
    pub saturate_o: Signal<Out, Bit>,
    /// Integer extremum (r*max*, r*min*, rb*).
    pub extremum_o: Signal<Out, Bit>,
    /// maximumNumber / minimumNumber.
    pub num_o: Signal<Out, Bit>,
    /// rb*: the unit reports the tie mask.
    pub has_mask_o: Signal<Out, Bit>,
    /// Extremum key = lane ^ flip: the sign bit for signed, lane mask for min.
    pub flip_mask_o: Signal<Out, Bits<32>>,
    /// Lane mask for minimumNumber (its keys are inverted), else 0.
    pub min_mask_o: Signal<Out, Bits<32>>,
    /// The leaf value of a padding or inactive slot (the node's identity).
    pub ident_o: Signal<Out, Bits<32>>,
    /// Width of a sum's result.
    pub res_mask_o: Signal<Out, Bits<32>>,
    /// +infinity and the canonical quiet NaN of the float form.
    pub inf_o: Signal<Out, Bits<32>>,
    pub qnan_o: Signal<Out, Bits<32>>,
    f_add: Constant<Bits<5>>,
    f_addu: Constant<Bits<5>>,
    f_adds: Constant<Bits<5>>,
    f_max: Constant<Bits<5>>,
    f_min: Constant<Bits<5>>,
    f_maxu: Constant<Bits<5>>,
    f_minu: Constant<Bits<5>>,
    f_maxnum: Constant<Bits<5>>,
    f_minnum: Constant<Bits<5>>,
    f_and: Constant<Bits<5>>,
    f_or: Constant<Bits<5>>,
    f_xor: Constant<Bits<5>>,
    f_bmax: Constant<Bits<5>>,
    f_bmin: Constant<Bits<5>>,
    f_bmaxu: Constant<Bits<5>>,
    f_bminu: Constant<Bits<5>>,
    f_andb: Constant<Bits<5>>,
    f_orb: Constant<Bits<5>>,
    form_b8: Constant<Bits<3>>,
    form_h16: Constant<Bits<3>>,
    form_w32: Constant<Bits<3>>,
    form_f16: Constant<Bits<3>>,
    form_f32: Constant<Bits<3>>,
    zero32: Constant<Bits<32>>,
    ones32: Constant<Bits<32>>,
    mask8: Constant<Bits<32>>,
    mask16: Constant<Bits<32>>,
    sign8: Constant<Bits<32>>,
    sign16: Constant<Bits<32>>,
    sign32: Constant<Bits<32>>,
    inf16: Constant<Bits<32>>,
    inf32: Constant<Bits<32>>,
    qnan16: Constant<Bits<32>>,
    qnan32: Constant<Bits<32>>,
    starts8: Constant<Bits<64>>,
    starts16: Constant<Bits<64>>,
    starts32: Constant<Bits<64>>,
}

impl Default for OpDecode {
    fn default() -> Self {
        use Family::*;
        let probe = Op::new(MaxNum, Form::F16, false);
        Self {
            op_i: Default::default(),
            lane_mask_o: Default::default(),
            sign_bit_o: Default::default(),
            lane_starts_o: Default::default(),
            form_h16_o: Default::default(),
            form_w32_o: Default::default(),
            predicated_o: Default::default(),
            vbool_fold_o: Default::default(),
            k_sum_o: Default::default(),
            k_max_o: Default::default(),
            k_and_o: Default::default(),
            k_or_o: Default::default(),
            k_xor_o: Default::default(),
            sext_o: Default::default(),
            saturate_o: Default::default(),
            extremum_o: Default::default(),
            num_o: Default::default(),
            has_mask_o: Default::default(),
            flip_mask_o: Default::default(),
            min_mask_o: Default::default(),
            ident_o: Default::default(),
            res_mask_o: Default::default(),
            inf_o: Default::default(),
            qnan_o: Default::default(),
            f_add: fam(Add),
            f_addu: fam(AddU),
            f_adds: fam(AddS),
            f_max: fam(Max),
            f_min: fam(Min),
            f_maxu: fam(MaxU),
            f_minu: fam(MinU),
            f_maxnum: fam(MaxNum),
            f_minnum: fam(MinNum),
            f_and: fam(And),
            f_or: fam(Or),
            f_xor: fam(Xor),
            f_bmax: fam(BMax),
            f_bmin: fam(BMin),
            f_bmaxu: fam(BMaxU),
            f_bminu: fam(BMinU),
            f_andb: fam(AndB),
            f_orb: fam(OrB),
            form_b8: form(Form::B8),
            form_h16: form(Form::H16),
            form_w32: form(Form::W32),
            form_f16: form(Form::F16),
            form_f32: form(Form::F32),
            zero32: c32(0),
            ones32: c32(0xffff_ffff),
            mask8: c32(0xff),
            mask16: c32(0xffff),
            sign8: c32(0x80),
            sign16: c32(0x8000),
            sign32: c32(0x8000_0000),
            inf16: c32(0x7c00),
            inf32: c32(0x7f80_0000),
            qnan16: c32(probe.identity() as u64),
            qnan32: c32(Op::new(MaxNum, Form::F32, false).identity() as u64),
            starts8: c64(Form::B8.full_vbool()),
            starts16: c64(Form::H16.full_vbool()),
            starts32: c64(Form::W32.full_vbool()),
        }
    }
}

impl Logic for OpDecode {
    #[hdl_gen]
    fn update(&mut self) {
        // Defaults: a 2nx8 integer sum.
        self.lane_mask_o.next = self.mask8.val();
        self.sign_bit_o.next = self.sign8.val();
        self.lane_starts_o.next = self.starts8.val();
        self.form_h16_o.next = false;
        self.form_w32_o.next = false;
        self.inf_o.next = self.inf16.val();
        self.qnan_o.next = self.qnan16.val();
        self.predicated_o.next = self.op_i.val().get_bit(8);
        self.vbool_fold_o.next = false;
        self.k_sum_o.next = false;
        self.k_max_o.next = false;
        self.k_and_o.next = false;
        self.k_or_o.next = false;
        self.k_xor_o.next = false;
        self.sext_o.next = false;
        self.saturate_o.next = false;
        self.extremum_o.next = false;
        self.num_o.next = false;
        self.has_mask_o.next = false;
        self.flip_mask_o.next = self.zero32.val();
        self.min_mask_o.next = self.zero32.val();
        self.ident_o.next = self.zero32.val();
        self.res_mask_o.next = self.ones32.val();
        // The form: lane width and where lanes start.
        if (self.op_i.val().get_bits::<3>(0) == self.form_h16.val())
            | (self.op_i.val().get_bits::<3>(0) == self.form_f16.val())
        {
            self.lane_mask_o.next = self.mask16.val();
            self.sign_bit_o.next = self.sign16.val();
            self.lane_starts_o.next = self.starts16.val();
            self.form_h16_o.next = true;
        }
        if (self.op_i.val().get_bits::<3>(0) == self.form_w32.val())
            | (self.op_i.val().get_bits::<3>(0) == self.form_f32.val())
        {
            self.lane_mask_o.next = self.ones32.val();
            self.sign_bit_o.next = self.sign32.val();
            self.lane_starts_o.next = self.starts32.val();
            self.form_w32_o.next = true;
            self.inf_o.next = self.inf32.val();
            self.qnan_o.next = self.qnan32.val();
        }
        if self.op_i.val().get_bits::<3>(0) == self.form_b8.val() {
            self.res_mask_o.next = self.mask16.val();
        }
        // The family.
        if (self.op_i.val().get_bits::<5>(3) == self.f_add.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_adds.val())
        {
            self.k_sum_o.next = true;
            self.sext_o.next = true;
        }
        if self.op_i.val().get_bits::<5>(3) == self.f_adds.val() {
            self.saturate_o.next = true;
        }
        if self.op_i.val().get_bits::<5>(3) == self.f_addu.val() {
            self.k_sum_o.next = true;
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_max.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_bmax.val())
        {
            self.k_max_o.next = true;
            self.extremum_o.next = true;
            self.flip_mask_o.next = self.sign_bit_o.val();
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_min.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_bmin.val())
        {
            self.k_max_o.next = true;
            self.extremum_o.next = true;
            self.flip_mask_o.next = self.sign_bit_o.val() ^ self.lane_mask_o.val();
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_maxu.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_bmaxu.val())
        {
            self.k_max_o.next = true;
            self.extremum_o.next = true;
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_minu.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_bminu.val())
        {
            self.k_max_o.next = true;
            self.extremum_o.next = true;
            self.flip_mask_o.next = self.lane_mask_o.val();
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_bmax.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_bmin.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_bmaxu.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_bminu.val())
        {
            self.has_mask_o.next = true;
        }
        if self.op_i.val().get_bits::<5>(3) == self.f_maxnum.val() {
            self.k_max_o.next = true;
            self.num_o.next = true;
        }
        if self.op_i.val().get_bits::<5>(3) == self.f_minnum.val() {
            self.k_max_o.next = true;
            self.num_o.next = true;
            self.min_mask_o.next = self.lane_mask_o.val();
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_and.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_andb.val())
        {
            self.k_and_o.next = true;
            self.ident_o.next = self.ones32.val();
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_or.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_orb.val())
        {
            self.k_or_o.next = true;
        }
        if self.op_i.val().get_bits::<5>(3) == self.f_xor.val() {
            self.k_xor_o.next = true;
        }
        if (self.op_i.val().get_bits::<5>(3) == self.f_andb.val())
            | (self.op_i.val().get_bits::<5>(3) == self.f_orb.val())
        {
            self.vbool_fold_o.next = true;
            self.predicated_o.next = false;
        }
    }
}

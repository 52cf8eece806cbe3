//! The op decoder: the 9-bit op select (golden's codes, `{predicated,
//! family[4:0], form[2:0]}`) to a control word, and [`Controls`], the word
//! split into named controls. The table is built from golden's op table and
//! each family's [`Fold`], so the field layout and the fold are stated once,
//! in golden; the Verilog is one `case` with a line per op, named in a
//! comment. Codes outside the table decode to all zeros.

use crosslane_golden::{Fold, Form, Op, OP_SELECT_BITS};
use rust_hdl::prelude::*;

/// The controls of one op, in the order of the control word's bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Control {
    /// Lane form: 8-bit lanes; 16-bit (nx16, nxf16); 32-bit (n_2x32, n_2xf32).
    pub b8: bool,
    pub h16: bool,
    pub w32: bool,
    /// The node operator: sum, unsigned max of keys, and, or, xor.
    pub k_sum: bool,
    pub k_max: bool,
    pub k_and: bool,
    pub k_or: bool,
    pub k_xor: bool,
    /// Signed sum: lanes sign-extended.
    pub sext: bool,
    /// radds: the root saturated to int16.
    pub saturate: bool,
    /// Integer extremum (rmax…, rbmax…).
    pub extremum: bool,
    /// Signed extremum: keys have the sign bit flipped.
    pub sflip: bool,
    /// Minimum (integer or number): keys inverted within the lane.
    pub minimum: bool,
    /// maximumNumber / minimumNumber.
    pub num: bool,
    /// rb*: the unit reports the tie mask.
    pub has_mask: bool,
    /// randb / rorb: the lanes are the vbool's predicates.
    pub vbool_fold: bool,
    /// `_t`: lanes whose predicate is clear are skipped.
    pub predicated: bool,
}

/// Port names of the controls, in bit order (bit 0 first).
pub const CONTROL_NAMES: [&str; CONTROL_BITS] = [
    "b8",
    "h16",
    "w32",
    "k_sum",
    "k_max",
    "k_and",
    "k_or",
    "k_xor",
    "sext",
    "saturate",
    "extremum",
    "sflip",
    "minimum",
    "num",
    "has_mask",
    "vbool_fold",
    "predicated",
];

impl Control {
    /// The controls of an op, from its form and its family's fold.
    pub fn of(op: Op) -> Control {
        let fold = op.family.fold();
        let mut c = Control {
            b8: op.form == Form::B8,
            h16: matches!(op.form, Form::H16 | Form::F16),
            w32: matches!(op.form, Form::W32 | Form::F32),
            has_mask: op.family.has_mask(),
            vbool_fold: op.family.is_vbool_fold(),
            predicated: op.predicated,
            ..Control::default()
        };
        match fold {
            Fold::Sum { signed, saturate } => {
                c.k_sum = true;
                c.sext = signed;
                c.saturate = saturate;
            }
            Fold::Extremum { signed, max } => {
                c.k_max = true;
                c.extremum = true;
                c.sflip = signed;
                c.minimum = !max;
            }
            Fold::Num { max } => {
                c.k_max = true;
                c.num = true;
                c.minimum = !max;
            }
            Fold::And => c.k_and = true,
            Fold::Or => c.k_or = true,
            Fold::Xor => c.k_xor = true,
        }
        c
    }

    /// The control word, bit i = control `CONTROL_NAMES[i]`.
    pub fn word(self) -> u32 {
        [
            self.b8,
            self.h16,
            self.w32,
            self.k_sum,
            self.k_max,
            self.k_and,
            self.k_or,
            self.k_xor,
            self.sext,
            self.saturate,
            self.extremum,
            self.sflip,
            self.minimum,
            self.num,
            self.has_mask,
            self.vbool_fold,
            self.predicated,
        ]
        .iter()
        .enumerate()
        .fold(0, |w, (i, &b)| w | (u32::from(b) << i))
    }
}

/// The control word of every op code (512 entries; 0 for codes not in the table).
fn table() -> Vec<u32> {
    let mut t = vec![0; 1 << OP_SELECT_BITS];
    for op in Op::all() {
        t[op.code() as usize] = Control::of(op).word();
    }
    t
}

/// Bits of the control word.
pub const CONTROL_BITS: usize = 17;

/// The op decoder: a case table from the op select to the control word.
#[derive(LogicBlock)]
pub struct OpDecode {
    pub op_i: Signal<In, Bits<OP_SELECT_BITS>>,
    /// The control word, bit i = control `CONTROL_NAMES[i]`.
    pub ctrl_o: Signal<Out, Bits<CONTROL_BITS>>,
    _table: Vec<u32>,
}

impl Default for OpDecode {
    fn default() -> Self {
        Self { op_i: Default::default(), ctrl_o: Default::default(), _table: table() }
    }
}

impl Logic for OpDecode {
    fn update(&mut self) {
        self.ctrl_o.next = (self._table[self.op_i.val().index()] as u64).into();
    }

    fn connect(&mut self) {
        self.ctrl_o.connect();
    }

    fn hdl(&self) -> Verilog {
        let n = CONTROL_BITS;
        let mut v = format!(
            "// Control word, bit 0 first: {}.\nalways @(*) begin\n    case (op_i)\n",
            CONTROL_NAMES.join(", ")
        );
        for op in Op::all() {
            v.push_str(&format!(
                "        {OP_SELECT_BITS}'h{:03x}: ctrl_o = {n}'b{:0n$b}; // {}\n",
                op.code(),
                self._table[op.code() as usize],
                op.name()
            ));
        }
        v.push_str(&format!("        default: ctrl_o = {n}'b0;\n    endcase\nend\n"));
        Verilog::Custom(v)
    }
}

/// The control word split into its named controls: wiring, no logic. Each
/// level has one, next to the logic it drives.
#[derive(LogicBlock, Default)]
pub struct Controls {
    pub ctrl_i: Signal<In, Bits<CONTROL_BITS>>,
    pub b8_o: Signal<Out, Bit>,
    pub h16_o: Signal<Out, Bit>,
    pub w32_o: Signal<Out, Bit>,
    pub k_sum_o: Signal<Out, Bit>,
    pub k_max_o: Signal<Out, Bit>,
    pub k_and_o: Signal<Out, Bit>,
    pub k_or_o: Signal<Out, Bit>,
    pub k_xor_o: Signal<Out, Bit>,
    pub sext_o: Signal<Out, Bit>,
    pub saturate_o: Signal<Out, Bit>,
    pub extremum_o: Signal<Out, Bit>,
    pub sflip_o: Signal<Out, Bit>,
    pub minimum_o: Signal<Out, Bit>,
    pub num_o: Signal<Out, Bit>,
    pub has_mask_o: Signal<Out, Bit>,
    pub vbool_fold_o: Signal<Out, Bit>,
    pub predicated_o: Signal<Out, Bit>,
}

impl Controls {
    fn outputs(&mut self) -> [&mut Signal<Out, Bit>; CONTROL_BITS] {
        [
            &mut self.b8_o,
            &mut self.h16_o,
            &mut self.w32_o,
            &mut self.k_sum_o,
            &mut self.k_max_o,
            &mut self.k_and_o,
            &mut self.k_or_o,
            &mut self.k_xor_o,
            &mut self.sext_o,
            &mut self.saturate_o,
            &mut self.extremum_o,
            &mut self.sflip_o,
            &mut self.minimum_o,
            &mut self.num_o,
            &mut self.has_mask_o,
            &mut self.vbool_fold_o,
            &mut self.predicated_o,
        ]
    }
}

impl Logic for Controls {
    fn update(&mut self) {
        let word = self.ctrl_i.val();
        for (i, o) in self.outputs().into_iter().enumerate() {
            o.next = word.get_bit(i);
        }
    }

    fn connect(&mut self) {
        for o in self.outputs() {
            o.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::from("always @(*) begin\n");
        for (i, name) in CONTROL_NAMES.iter().enumerate() {
            v.push_str(&format!("    {name}_o = ctrl_i[{i}];\n"));
        }
        v.push_str("end\n");
        Verilog::Custom(v)
    }
}

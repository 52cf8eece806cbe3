//! The op decoder: the 9-bit op select (golden's codes, `{predicated,
//! family[4:0], form[2:0]}`) to a control word, and [`Controls`], the word
//! split into named controls. The table is built from golden's op table and
//! each family's [`Fold`], so the field layout and the fold are stated once,
//! in golden; the Verilog is one `case` with a line per op, named in a
//! comment. Codes outside the table decode to all zeros.
//!
//! The leaves, before the input register, take the op's controls from a
//! second, shallower decode (`leaf_o`): each control from the one op field
//! (form, family, predicated) it depends on, which golden's table is
//! checked to allow. It equals the word's for every op; for a code that is
//! no op it is whatever the fields give: the registered word, all zeros,
//! makes every node's value zero and the result format report no mask, so
//! the keys do not reach the outputs.
//!
//! The word also holds each tree level's node controls ([`NodeControl`]),
//! decoded here rather than at the level: a level's nodes are driven straight
//! from the pipeline register that carries the word ([`NodeControls`]), with
//! no decode logic between that register and the fan-out across the level.

use crate::LEVELS;
use crosslane_golden::{Fold, Form, Op, OP_FIELDS, OP_SELECT_BITS};
use rust_hdl::prelude::*;

/// The op's controls, each named once: `Control`'s fields, their order in
/// the control word, their names (`CONTROL_NAMES`), and [`Controls`]'
/// output ports (`<name>_o`) all come from this one list.
macro_rules! op_controls {
    ($($(#[$doc:meta])* $name:ident => $port:ident,)+) => {
        /// The controls of one op, in the order of the control word's bits.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Control {
            $($(#[$doc])* pub $name: bool,)+
        }

        /// Port names of the controls, in bit order (bit 0 first).
        pub const CONTROL_NAMES: [&str; OP_CONTROL_BITS] = [$(stringify!($name)),+];

        /// Bits of the op's controls (`CONTROL_NAMES`), the low bits of the word.
        pub const OP_CONTROL_BITS: usize = [$(stringify!($name)),+].len();

        impl Control {
            /// The controls in bit order.
            fn bits(self) -> [bool; OP_CONTROL_BITS] {
                [$(self.$name),+]
            }
        }

        /// The control word split into its named controls: wiring, no logic. Each
        /// level has one, next to the logic it drives.
        #[derive(LogicBlock, Default)]
        pub struct Controls {
            pub ctrl_i: Signal<In, Bits<OP_CONTROL_BITS>>,
            $(pub $port: Signal<Out, Bit>,)+
        }

        impl Controls {
            fn outputs(&mut self) -> [&mut Signal<Out, Bit>; OP_CONTROL_BITS] {
                [$(&mut self.$port),+]
            }
        }
    };
}

op_controls! {
    /// Lane form: 8-bit lanes; 16-bit (nx16, nxf16); 32-bit (n_2x32, n_2xf32).
    b8 => b8_o,
    h16 => h16_o,
    w32 => w32_o,
    /// The node operator: sum, unsigned max of keys, and, or, xor.
    k_sum => k_sum_o,
    k_max => k_max_o,
    k_and => k_and_o,
    k_or => k_or_o,
    k_xor => k_xor_o,
    /// Signed sum: lanes sign-extended.
    sext => sext_o,
    /// radds: the root saturated to int16.
    saturate => saturate_o,
    /// Integer extremum (rmax…, rbmax…).
    extremum => extremum_o,
    /// Signed extremum: keys have the sign bit flipped.
    sflip => sflip_o,
    /// Minimum (integer or number): keys inverted within the lane.
    minimum => minimum_o,
    /// maximumNumber / minimumNumber.
    num => num_o,
    /// rb*: the unit reports the tie mask.
    has_mask => has_mask_o,
    /// randb / rorb: the lanes are the vbool's predicates.
    vbool_fold => vbool_fold_o,
    /// `_t`: lanes whose predicate is clear are skipped.
    predicated => predicated_o,
}

/// The controls of the nodes at one tree level, one-hot (all clear for a
/// code that is no op): the op's form only places the level's children side
/// by side (`pass`: 16- and 32-bit lanes at level 1, 32-bit lanes at level
/// 2), or the node operator of its fold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeControl {
    pub pass: bool,
    pub sum: bool,
    pub max: bool,
    pub and: bool,
    pub or: bool,
    pub xor: bool,
}

/// Port names of a level's node controls, in bit order.
pub const NODE_CONTROL_NAMES: [&str; NODE_CONTROL_BITS] = ["pass", "sum", "max", "and", "or", "xor"];

/// Bits of one level's node controls.
pub const NODE_CONTROL_BITS: usize = 6;

impl NodeControl {
    fn bits(self) -> [bool; NODE_CONTROL_BITS] {
        [self.pass, self.sum, self.max, self.and, self.or, self.xor]
    }
}

/// The control word's bit of `NODE_CONTROL_NAMES[i]` at tree level `level` (1..=6).
pub const fn node_control_bit(level: usize, i: usize) -> usize {
    OP_CONTROL_BITS + NODE_CONTROL_BITS * (level - 1) + i
}

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

    /// The controls of this op's nodes at tree level `level` (1..=6).
    pub fn node(self, level: usize) -> NodeControl {
        let pass = (level == 1 && (self.h16 || self.w32)) || (level == 2 && self.w32);
        NodeControl {
            pass,
            sum: !pass && self.k_sum,
            max: !pass && self.k_max,
            and: !pass && self.k_and,
            or: !pass && self.k_or,
            xor: !pass && self.k_xor,
        }
    }

    /// The control word: bit i = control `CONTROL_NAMES[i]`, then each
    /// level's node controls ([`node_control_bit`]).
    pub fn word(self) -> u64 {
        self.bits()
            .into_iter()
            .chain((1..=LEVELS).flat_map(|level| self.node(level).bits()))
            .enumerate()
            .fold(0, |w, (i, b)| w | (u64::from(b) << i))
    }
}

/// The control word of every op code (512 entries; 0 for codes not in the table).
fn table() -> Vec<u64> {
    let mut t = vec![0; 1 << OP_SELECT_BITS];
    for op in Op::all() {
        t[op.code() as usize] = Control::of(op).word();
    }
    t
}

/// Bits of the control word: the op's controls, then every level's node controls.
pub const CONTROL_BITS: usize = OP_CONTROL_BITS + NODE_CONTROL_BITS * LEVELS;

// A word bit's index is a 6-bit constant (NodeControls).
const _: () = assert!(CONTROL_BITS <= 64);

/// The value of op field `(lowest bit, width)` in an op-select code.
fn field(code: usize, (lo, width): (usize, usize)) -> usize {
    (code >> lo) & ((1 << width) - 1)
}

/// For each op field (`OP_FIELDS`), a table from the field's value to the
/// op's controls it alone decides: every control goes to the first field
/// that decides it over golden's table. Panics if a control needs more than
/// one field (the shallow decode would then be wrong).
fn field_tables() -> Vec<Vec<u64>> {
    let words: Vec<(usize, u64)> =
        Op::all().into_iter().map(|op| (usize::from(op.code()), Control::of(op).word())).collect();
    let mut tables: Vec<Vec<u64>> = OP_FIELDS.iter().map(|&(_, w)| vec![0; 1 << w]).collect();
    'control: for (i, name) in CONTROL_NAMES.iter().enumerate() {
        for (f, table) in tables.iter_mut().enumerate() {
            let mut value: Vec<Option<bool>> = vec![None; table.len()];
            let decides = words.iter().all(|&(code, word)| {
                let bit = word >> i & 1 == 1;
                *value[field(code, OP_FIELDS[f])].get_or_insert(bit) == bit
            });
            if decides {
                for (v, bit) in value.into_iter().enumerate() {
                    table[v] |= u64::from(bit == Some(true)) << i;
                }
                continue 'control;
            }
        }
        panic!("control {name} depends on more than one op field");
    }
    tables
}

/// The op decoder: a case table from the op select to the control word,
/// and the op's controls for the leaves decoded field by field.
#[derive(LogicBlock)]
pub struct OpDecode {
    pub op_i: Signal<In, Bits<OP_SELECT_BITS>>,
    /// The control word, bit i = control `CONTROL_NAMES[i]`, then the node controls.
    pub ctrl_o: Signal<Out, Bits<CONTROL_BITS>>,
    /// The op's controls for the leaves: the word's low bits for every op.
    pub leaf_o: Signal<Out, Bits<OP_CONTROL_BITS>>,
    _table: Vec<u64>,
    _fields: Vec<Vec<u64>>,
}

impl Default for OpDecode {
    fn default() -> Self {
        Self {
            op_i: Default::default(),
            ctrl_o: Default::default(),
            leaf_o: Default::default(),
            _table: table(),
            _fields: field_tables(),
        }
    }
}

impl Logic for OpDecode {
    fn update(&mut self) {
        let op = self.op_i.val().index();
        self.ctrl_o.next = self._table[op].into();
        let leaf = OP_FIELDS.iter().zip(&self._fields).fold(0, |w, (&f, t)| w | t[field(op, f)]);
        self.leaf_o.next = leaf.into();
    }

    fn connect(&mut self) {
        self.ctrl_o.connect();
        self.leaf_o.connect();
    }

    fn hdl(&self) -> Verilog {
        let n = CONTROL_BITS;
        let mut v = format!(
            "// Control word, bit 0 first: {}; then levels 1 to {LEVELS}, each: {}.\nalways @(*) begin\n    case (op_i)\n",
            CONTROL_NAMES.join(", "),
            NODE_CONTROL_NAMES.join(", ")
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
        let m = OP_CONTROL_BITS;
        v.push_str(&format!(
            "// The op's controls for the leaves, each from the one field that decides it\n\
             // (form, family, predicated): equal to ctrl_o[{}:0] for every op above.\n\
             always @(*) begin\n    leaf_o = {m}'b0;\n",
            m - 1
        ));
        for (&(lo, width), t) in OP_FIELDS.iter().zip(&self._fields) {
            v.push_str(&format!("    case (op_i[{}:{lo}])\n", lo + width - 1));
            for (value, &bits) in t.iter().enumerate().filter(|(_, &b)| b != 0) {
                v.push_str(&format!("        {width}'h{value:x}: leaf_o = leaf_o | {m}'b{bits:0m$b};\n"));
            }
            v.push_str("        default: ;\n    endcase\n");
        }
        v.push_str("end\n");
        Verilog::Custom(v)
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

/// One tree level's node controls taken from the control word: wiring, no
/// logic. Each level has one, driven by the pipeline register before it.
#[derive(LogicBlock)]
pub struct NodeControls {
    pub ctrl_i: Signal<In, Bits<CONTROL_BITS>>,
    pub pass_o: Signal<Out, Bit>,
    pub sum_o: Signal<Out, Bit>,
    pub max_o: Signal<Out, Bit>,
    pub and_o: Signal<Out, Bit>,
    pub or_o: Signal<Out, Bit>,
    pub xor_o: Signal<Out, Bit>,
    /// The word bits of the level's node controls.
    pass_at: Constant<Bits<6>>,
    sum_at: Constant<Bits<6>>,
    max_at: Constant<Bits<6>>,
    and_at: Constant<Bits<6>>,
    or_at: Constant<Bits<6>>,
    xor_at: Constant<Bits<6>>,
    _first: usize,
}

impl NodeControls {
    /// The node controls of tree level `level` (1..=6).
    pub fn new(level: usize) -> Self {
        assert!((1..=LEVELS).contains(&level), "tree level {level}");
        let first = node_control_bit(level, 0);
        let at = |i: usize| Constant::new(((first + i) as u64).into());
        Self {
            ctrl_i: Default::default(),
            pass_o: Default::default(),
            sum_o: Default::default(),
            max_o: Default::default(),
            and_o: Default::default(),
            or_o: Default::default(),
            xor_o: Default::default(),
            pass_at: at(0),
            sum_at: at(1),
            max_at: at(2),
            and_at: at(3),
            or_at: at(4),
            xor_at: at(5),
            _first: first,
        }
    }

    fn outputs(&mut self) -> [&mut Signal<Out, Bit>; NODE_CONTROL_BITS] {
        [&mut self.pass_o, &mut self.sum_o, &mut self.max_o, &mut self.and_o, &mut self.or_o, &mut self.xor_o]
    }
}

impl Logic for NodeControls {
    fn update(&mut self) {
        let word = self.ctrl_i.val();
        let first = self._first;
        for (i, o) in self.outputs().into_iter().enumerate() {
            o.next = word.get_bit(first + i);
        }
    }

    fn connect(&mut self) {
        for o in self.outputs() {
            o.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::from("always @(*) begin\n");
        for name in NODE_CONTROL_NAMES {
            v.push_str(&format!("    {name}_o = ctrl_i[{name}_at];\n"));
        }
        v.push_str("end\n");
        Verilog::Custom(v)
    }
}

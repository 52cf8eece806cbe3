//! The one table of cross-lane reduce primitives (ops.md §2).
//!
//! Every consumer — the golden model, the `eval` parser, the hardware's op
//! select, the testbench generators and the tests — reads the ops from
//! [`BASE_OPS`] and the codes below. Adding an op is one row in
//! [`BASE_OPS`] (plus its meaning in `reduce.rs` if the family is new).

use std::collections::HashMap;
use std::sync::OnceLock;

/// How the 512 bits of a vector are cut into lanes (ops.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// `2nx8`: 64 lanes of 8 bits.
    B8,
    /// `nx16`: 32 lanes of 16 bits.
    H16,
    /// `n_2x32`: 16 lanes of 32 bits.
    W32,
    /// `nxf16`: 32 lanes of IEEE binary16.
    F16,
    /// `n_2xf32`: 16 lanes of IEEE binary32.
    F32,
}

impl Form {
    pub const ALL: [Form; 5] = [Form::B8, Form::H16, Form::W32, Form::F16, Form::F32];

    /// The seed's suffix for the form (`radd_nx16`).
    pub const fn name(self) -> &'static str {
        match self {
            Form::B8 => "2nx8",
            Form::H16 => "nx16",
            Form::W32 => "n_2x32",
            Form::F16 => "nxf16",
            Form::F32 => "n_2xf32",
        }
    }

    /// The suffix of a vbool fold over this form's lane count (`randb2n`).
    pub const fn vbool_name(self) -> &'static str {
        match self {
            Form::B8 => "2n",
            Form::H16 | Form::F16 => "n",
            Form::W32 | Form::F32 => "n_2",
        }
    }

    pub const fn lane_bits(self) -> u32 {
        match self {
            Form::B8 => 8,
            Form::H16 | Form::F16 => 16,
            Form::W32 | Form::F32 => 32,
        }
    }

    pub const fn lanes(self) -> usize {
        512 / self.lane_bits() as usize
    }

    /// Bits of the vbool each lane owns; its predicate is the low one.
    pub const fn vbool_stride(self) -> u32 {
        64 / self.lanes() as u32
    }

    /// All-ones of the lane width.
    pub const fn lane_mask(self) -> u32 {
        if self.lane_bits() == 32 {
            u32::MAX
        } else {
            (1u32 << self.lane_bits()) - 1
        }
    }

    /// The 3-bit code of the form in the op select.
    pub const fn code(self) -> u8 {
        match self {
            Form::B8 => 0,
            Form::H16 => 1,
            Form::W32 => 2,
            Form::F16 => 3,
            Form::F32 => 4,
        }
    }

    /// Lanes as a vbool: bit `l * vbool_stride` of each lane set.
    pub const fn full_vbool(self) -> u64 {
        match self.vbool_stride() {
            1 => u64::MAX,
            2 => 0x5555_5555_5555_5555,
            _ => 0x1111_1111_1111_1111,
        }
    }
}

/// What an op computes, independent of the lane form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// `radd`: signed sum, widening 8→16, 16→32, wrapping at 32.
    Add,
    /// `raddu`: unsigned sum, same widths.
    AddU,
    /// `radds`: signed sum in a 21-bit accumulator, saturated to int16.
    AddS,
    /// `rmax`: signed maximum.
    Max,
    /// `rmin`: signed minimum.
    Min,
    /// `rmaxu`: unsigned maximum.
    MaxU,
    /// `rminu`: unsigned minimum.
    MinU,
    /// `rmaxnum`: IEEE 754-2019 maximumNumber.
    MaxNum,
    /// `rminnum`: IEEE 754-2019 minimumNumber.
    MinNum,
    /// `rand`: bitwise AND of the lanes.
    And,
    /// `ror`: bitwise OR of the lanes.
    Or,
    /// `rxor`: bitwise XOR of the lanes.
    Xor,
    /// `rbmax`: signed maximum and the mask of every lane equal to it.
    BMax,
    /// `rbmin`: signed minimum and its tie mask.
    BMin,
    /// `rbmaxu`: unsigned maximum and its tie mask.
    BMaxU,
    /// `rbminu`: unsigned minimum and its tie mask.
    BMinU,
    /// `randb`: AND of the lane predicates of a vbool.
    AndB,
    /// `rorb`: OR of the lane predicates of a vbool.
    OrB,
}

/// How a family folds: the operator of the reduce tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fold {
    /// Integer sum (`signed` selects sign extension of the lanes).
    Sum {
        signed: bool,
        saturate: bool,
    },
    /// Integer extremum (`max` false means minimum).
    Extremum {
        signed: bool,
        max: bool,
    },
    /// maximumNumber / minimumNumber.
    Num {
        max: bool,
    },
    And,
    Or,
    Xor,
}

impl Family {
    pub const ALL: [Family; 18] = [
        Family::Add,
        Family::AddU,
        Family::AddS,
        Family::Max,
        Family::Min,
        Family::MaxU,
        Family::MinU,
        Family::MaxNum,
        Family::MinNum,
        Family::And,
        Family::Or,
        Family::Xor,
        Family::BMax,
        Family::BMin,
        Family::BMaxU,
        Family::BMinU,
        Family::AndB,
        Family::OrB,
    ];

    /// The mnemonic prefix in the seed's words.
    pub const fn name(self) -> &'static str {
        match self {
            Family::Add => "radd",
            Family::AddU => "raddu",
            Family::AddS => "radds",
            Family::Max => "rmax",
            Family::Min => "rmin",
            Family::MaxU => "rmaxu",
            Family::MinU => "rminu",
            Family::MaxNum => "rmaxnum",
            Family::MinNum => "rminnum",
            Family::And => "rand",
            Family::Or => "ror",
            Family::Xor => "rxor",
            Family::BMax => "rbmax",
            Family::BMin => "rbmin",
            Family::BMaxU => "rbmaxu",
            Family::BMinU => "rbminu",
            Family::AndB => "randb",
            Family::OrB => "rorb",
        }
    }

    /// The 5-bit code of the family in the op select.
    pub const fn code(self) -> u8 {
        self as u8
    }

    pub const fn fold(self) -> Fold {
        match self {
            Family::Add => Fold::Sum { signed: true, saturate: false },
            Family::AddU => Fold::Sum { signed: false, saturate: false },
            Family::AddS => Fold::Sum { signed: true, saturate: true },
            Family::Max | Family::BMax => Fold::Extremum { signed: true, max: true },
            Family::Min | Family::BMin => Fold::Extremum { signed: true, max: false },
            Family::MaxU | Family::BMaxU => Fold::Extremum { signed: false, max: true },
            Family::MinU | Family::BMinU => Fold::Extremum { signed: false, max: false },
            Family::MaxNum => Fold::Num { max: true },
            Family::MinNum => Fold::Num { max: false },
            Family::And | Family::AndB => Fold::And,
            Family::Or | Family::OrB => Fold::Or,
            Family::Xor => Fold::Xor,
        }
    }

    /// The rb* ops return a lane mask beside the value.
    pub const fn has_mask(self) -> bool {
        matches!(self, Family::BMax | Family::BMin | Family::BMaxU | Family::BMinU)
    }

    /// The vbool folds read a vbool instead of a vector and have no `_t` form.
    pub const fn is_vbool_fold(self) -> bool {
        matches!(self, Family::AndB | Family::OrB)
    }
}

/// One primitive: a family at a form, predicated or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Op {
    pub family: Family,
    pub form: Form,
    /// The `_t` sibling: folds only the lanes whose predicate is set.
    pub predicated: bool,
}

use Family::*;
use Form::*;

/// The base primitives of ops.md §2: 44 value ops and 6 vbool folds. Every
/// row but the vbool folds also has a `_t` sibling.
pub const BASE_OPS: [(Family, Form); 50] = [
    (Add, B8),
    (Add, H16),
    (Add, W32),
    (AddU, B8),
    (AddU, H16),
    (AddU, W32),
    (AddS, H16),
    (Max, B8),
    (Max, H16),
    (Max, W32),
    (Min, B8),
    (Min, H16),
    (Min, W32),
    (MaxU, B8),
    (MaxU, H16),
    (MaxU, W32),
    (MinU, B8),
    (MinU, H16),
    (MinU, W32),
    (MaxNum, F16),
    (MaxNum, F32),
    (MinNum, F16),
    (MinNum, F32),
    (And, B8),
    (And, H16),
    (And, W32),
    (Or, B8),
    (Or, H16),
    (Or, W32),
    (Xor, B8),
    (Xor, H16),
    (Xor, W32),
    (BMax, B8),
    (BMax, H16),
    (BMax, W32),
    (BMin, B8),
    (BMin, H16),
    (BMin, W32),
    (BMaxU, B8),
    (BMaxU, H16),
    (BMaxU, W32),
    (BMinU, B8),
    (BMinU, H16),
    (BMinU, W32),
    (AndB, H16),
    (AndB, B8),
    (AndB, W32),
    (OrB, H16),
    (OrB, B8),
    (OrB, W32),
];

/// Width of the op-select port: `{predicated, family[4:0], form[2:0]}`.
pub const OP_SELECT_BITS: usize = 9;

/// How many primitives the table holds (ops.md: each base op and its `_t`
/// form, but the vbool folds, which have none). [`Op::all`] has exactly this many.
pub const OP_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < BASE_OPS.len() {
        n += if BASE_OPS[i].0.is_vbool_fold() { 1 } else { 2 };
        i += 1;
    }
    n
};

/// The op-select code's fields, each (lowest bit, width): form, family, predicated.
pub const OP_FIELDS: [(usize, usize); 3] = [(0, 3), (3, 5), (8, 1)];

impl Op {
    pub const fn new(family: Family, form: Form, predicated: bool) -> Op {
        Op { family, form, predicated }
    }

    /// Every primitive, in table order, each base op followed by its `_t`.
    pub fn all() -> Vec<Op> {
        let mut ops = Vec::with_capacity(OP_COUNT);
        for (family, form) in BASE_OPS {
            ops.push(Op::new(family, form, false));
            if !family.is_vbool_fold() {
                ops.push(Op::new(family, form, true));
            }
        }
        ops
    }

    /// The mnemonic, e.g. `rbmax_nx16_t`, `randb2n`.
    pub fn name(self) -> String {
        if self.family.is_vbool_fold() {
            format!("{}{}", self.family.name(), self.form.vbool_name())
        } else {
            let t = if self.predicated { "_t" } else { "" };
            format!("{}_{}{}", self.family.name(), self.form.name(), t)
        }
    }

    /// Look a mnemonic up in the table (an index built on first use).
    pub fn from_name(name: &str) -> Option<Op> {
        static BY_NAME: OnceLock<HashMap<String, Op>> = OnceLock::new();
        BY_NAME.get_or_init(|| Op::all().into_iter().map(|op| (op.name(), op)).collect()).get(name).copied()
    }

    pub const fn lanes(self) -> usize {
        self.form.lanes()
    }

    /// Width of the result in bits (ops.md §2).
    pub const fn result_bits(self) -> u32 {
        match self.family {
            Add | AddU => match self.form {
                B8 => 16,
                _ => 32,
            },
            AddS => 16,
            AndB | OrB => 1,
            _ => self.form.lane_bits(),
        }
    }

    /// Hex digits of the result as text.
    pub const fn result_digits(self) -> usize {
        self.result_bits().div_ceil(4) as usize
    }

    /// The value a lane takes when its predicate is clear, and the result of
    /// a `_t` op with no lane active (ops.md §2, identity table).
    pub const fn identity(self) -> u32 {
        let w = self.form.lane_bits();
        let ones = self.form.lane_mask();
        match self.family.fold() {
            Fold::Sum { .. } | Fold::Or | Fold::Xor => 0,
            Fold::And => ones,
            Fold::Extremum { signed: false, max: true } => 0,
            Fold::Extremum { signed: false, max: false } => ones,
            Fold::Extremum { signed: true, max: true } => 1 << (w - 1),
            Fold::Extremum { signed: true, max: false } => ones >> 1,
            Fold::Num { .. } => match self.form {
                F16 => 0x7e00,
                _ => 0x7fc0_0000,
            },
        }
    }

    /// The op-select code shared by golden, hdl and sim:
    /// `{predicated, family[4:0], form[2:0]}`.
    pub const fn code(self) -> u16 {
        ((self.predicated as u16) << OP_FIELDS[2].0)
            | ((self.family.code() as u16) << OP_FIELDS[1].0)
            | ((self.form.code() as u16) << OP_FIELDS[0].0)
    }

    /// The op of an op-select code, if it names one of the 94 primitives.
    pub fn from_code(code: u16) -> Option<Op> {
        Op::all().into_iter().find(|op| op.code() == code)
    }

    /// Lanes whose predicate is set in `vbool`, as a lane mask (bit `l` = lane `l`).
    pub const fn active_lanes(self, vbool: u64) -> u64 {
        if !self.predicated {
            return lane_mask_all(self.lanes());
        }
        compress_vbool(vbool, self.form)
    }
}

/// A mask of the low `lanes` bits.
pub const fn lane_mask_all(lanes: usize) -> u64 {
    if lanes >= 64 {
        u64::MAX
    } else {
        (1u64 << lanes) - 1
    }
}

/// The lane predicates of a vbool: bit `l` of the result is bit
/// `l * stride` of the vbool (the low bit of each lane's group).
pub const fn compress_vbool(vbool: u64, form: Form) -> u64 {
    let stride = form.vbool_stride();
    let lanes = form.lanes();
    if stride == 1 {
        return vbool;
    }
    let mut out = 0u64;
    let mut l = 0;
    while l < lanes {
        out |= ((vbool >> (l as u32 * stride)) & 1) << l;
        l += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_the_94_primitives_with_unique_names_and_codes() {
        let ops = Op::all();
        assert_eq!(ops.len(), 94);
        assert_eq!(OP_COUNT, 94);
        let mut names: Vec<String> = ops.iter().map(|o| o.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 94);
        let mut codes: Vec<u16> = ops.iter().map(|o| o.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), 94);
        assert!(codes.iter().all(|&c| c < (1 << OP_SELECT_BITS)));
        // The fields tile the code, low to high.
        assert_eq!(OP_FIELDS.iter().map(|f| f.1).sum::<usize>(), OP_SELECT_BITS);
        assert!(OP_FIELDS.windows(2).all(|w| w[0].0 + w[0].1 == w[1].0));
        for op in ops {
            assert_eq!(Op::from_name(&op.name()), Some(op));
            assert_eq!(Op::from_code(op.code()), Some(op));
        }
    }

    #[test]
    fn vbool_fold_names() {
        for (name, form) in [("randbn", H16), ("randb2n", B8), ("randbn_2", W32)] {
            assert_eq!(Op::from_name(name), Some(Op::new(AndB, form, false)));
        }
        for (name, form) in [("rorbn", H16), ("rorb2n", B8), ("rorbn_2", W32)] {
            assert_eq!(Op::from_name(name), Some(Op::new(OrB, form, false)));
        }
        assert_eq!(Op::from_name("randbn_t"), None);
    }

    #[test]
    fn compress_vbool_takes_the_low_bit_of_each_group() {
        assert_eq!(compress_vbool(0xaaaa_aaaa_aaaa_aaaa, H16), 0);
        assert_eq!(compress_vbool(0x5555_5555_5555_5555, H16), 0xffff_ffff);
        assert_eq!(compress_vbool(0x1111_1111_1111_1111, W32), 0xffff);
        assert_eq!(compress_vbool(0xeeee_eeee_eeee_eeee, W32), 0);
        assert_eq!(compress_vbool(0x8000_0000_0000_0001, B8), 0x8000_0000_0000_0001);
        assert_eq!(compress_vbool(0x0000_0000_0000_0010, W32), 0b10);
    }
}

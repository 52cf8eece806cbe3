//! Functional coverage: what a campaign exercised, sampled from the golden
//! model's view of each case (never from an engine under test).
//!
//! The bins are defined here once ([`bins`]): one group per op of the
//! reduce unit (`op <name>`) and the instruction's groups (`inst …`). Every
//! bin has a name, and a bin no input can reach says why
//! ([`Bin::unreachable`]); closure is every reachable bin hit. A
//! [`Coverage`] holds a count per bin; shards add up ([`Coverage::merge`]).
//! The table of bins with their meaning is docs/coverage.md.
//!
//! Pure and panic-free as the rest of the crate: no I/O here (the command
//! line writes and reads the counts, keyed by the bins' names).

use crate::instruction::exec::{check_work, execute_observed, ExecObserver, Sbuf, SumOrder};
use crate::instruction::{Dtype, Opcode, RawInstruction, ReduceAxis, ReduceOp, RULE_NAMES};
use crate::ops::{compress_vbool, Fold, Form, Op};
use crate::vector::Vec512;
use std::sync::OnceLock;

/// One bin of the coverage model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bin {
    /// `op <name>` for an op of the reduce unit, `inst <what>` for the instruction.
    pub group: String,
    pub name: String,
    /// Why no input reaches it; `None` for a bin closure needs.
    pub unreachable: Option<String>,
}

/// What can happen to one op of the reduce unit on one vector; which of
/// them are bins of an op depends on its fold (see [`unit_bins`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnitEvent {
    ResultZero,
    ResultMin,
    ResultMax,
    SaturatedHigh,
    SaturatedLow,
    Wrapped,
    ResultNan,
    ResultInf,
    ResultSubnormal,
    WinnerFirst,
    WinnerLast,
    WinnerOther,
    Ties1,
    Ties2,
    TiesSome,
    TiesAll,
    ActiveNone,
    ActiveOne,
    ActiveAll,
    ActiveSome,
    JunkVbool,
    JunkVec,
    NanNone,
    NanSome,
    NanAll,
    ZeroSignDecides,
    InfIn,
    SubnormalIn,
    /// Two equal children at tree level 1 + i (over the 64 byte slots).
    TieAt(u8),
    /// A node's sum needs a bit more than its children's width at level 1 + i.
    CarryAt(u8),
    /// A node's right child wins outright at level 1 + i.
    ChangeAt(u8),
}

use UnitEvent::*;

/// The events of the unit, in the order of the table: fixed slots.
const EVENT_SLOTS: usize = 28 + 3 * LEVELS;
const LEVELS: usize = 6;

impl UnitEvent {
    fn slot(self) -> usize {
        match self {
            ResultZero => 0,
            ResultMin => 1,
            ResultMax => 2,
            SaturatedHigh => 3,
            SaturatedLow => 4,
            Wrapped => 5,
            ResultNan => 6,
            ResultInf => 7,
            ResultSubnormal => 8,
            WinnerFirst => 9,
            WinnerLast => 10,
            WinnerOther => 11,
            Ties1 => 12,
            Ties2 => 13,
            TiesSome => 14,
            TiesAll => 15,
            ActiveNone => 16,
            ActiveOne => 17,
            ActiveAll => 18,
            ActiveSome => 19,
            JunkVbool => 20,
            JunkVec => 21,
            NanNone => 22,
            NanSome => 23,
            NanAll => 24,
            ZeroSignDecides => 25,
            InfIn => 26,
            SubnormalIn => 27,
            TieAt(l) => 28 + l as usize,
            CarryAt(l) => 28 + LEVELS + l as usize,
            ChangeAt(l) => 28 + 2 * LEVELS + l as usize,
        }
    }

    fn name(self) -> String {
        match self {
            ResultZero => "result zero".into(),
            ResultMin => "result min".into(),
            ResultMax => "result max".into(),
            SaturatedHigh => "saturated high".into(),
            SaturatedLow => "saturated low".into(),
            Wrapped => "wrapped".into(),
            ResultNan => "result NaN".into(),
            ResultInf => "result inf".into(),
            ResultSubnormal => "result subnormal".into(),
            WinnerFirst => "winner lane 0".into(),
            WinnerLast => "winner last lane".into(),
            WinnerOther => "winner another lane".into(),
            Ties1 => "ties 1".into(),
            Ties2 => "ties 2".into(),
            TiesSome => "ties 3..N-1".into(),
            TiesAll => "ties all active".into(),
            ActiveNone => "active none".into(),
            ActiveOne => "active one".into(),
            ActiveAll => "active all".into(),
            ActiveSome => "active some".into(),
            JunkVbool => "junk in ignored vbool bits".into(),
            JunkVec => "junk in the ignored vector".into(),
            NanNone => "NaN none".into(),
            NanSome => "NaN some".into(),
            NanAll => "NaN all".into(),
            ZeroSignDecides => "±0 decides".into(),
            InfIn => "±inf in".into(),
            SubnormalIn => "subnormal in".into(),
            TieAt(l) => format!("tie at level {}", l + 1),
            CarryAt(l) => format!("carry at level {}", l + 1),
            ChangeAt(l) => format!("winner changes at level {}", l + 1),
        }
    }
}

/// The first tree level (0-based over the byte slots) that joins lanes of
/// `form`: 0 for bytes, 1 for 16-bit lanes, 2 for 32-bit ones.
fn first_level(form: Form) -> usize {
    (form.lane_bits() / 8).trailing_zeros() as usize
}

/// The events that are bins of `op`, each with the reason it is unreachable
/// where it is.
fn unit_bins(op: Op) -> Vec<(UnitEvent, Option<String>)> {
    let mut out: Vec<(UnitEvent, Option<String>)> = Vec::new();
    let mut add = |e: UnitEvent| out.push((e, None));
    let form = op.form;
    let levels = first_level(form)..LEVELS;
    let junk_vbool = !op.predicated || form.vbool_stride() > 1;
    if op.family.is_vbool_fold() {
        for e in [ResultZero, ResultMax, ActiveNone, ActiveOne, ActiveAll, ActiveSome, JunkVec] {
            add(e);
        }
        if form.vbool_stride() > 1 {
            add(JunkVbool);
        }
        return out;
    }
    if op.predicated {
        for e in [ActiveNone, ActiveOne, ActiveAll, ActiveSome] {
            add(e);
        }
    }
    if junk_vbool {
        add(JunkVbool);
    }
    match op.family.fold() {
        Fold::Sum { signed, saturate } => {
            let lanes = op.lanes() as i64;
            let w = form.lane_bits();
            let (lane_min, lane_max) =
                if signed { (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1) } else { (0, (1i64 << w) - 1) };
            let r = op.result_bits();
            let (res_min, res_max) =
                if signed { (-(1i64 << (r - 1)), (1i64 << (r - 1)) - 1) } else { (0, (1i64 << r) - 1) };
            add(ResultZero);
            let reach = |bound: i64, extreme: i64, what: &str| {
                (extreme.abs() < bound.abs()).then(|| {
                    format!("{lanes} lanes sum to at most {} in magnitude, short of the {what} {bound}", extreme.abs())
                })
            };
            if saturate {
                out.push((SaturatedHigh, reach(res_max, lanes * lane_max, "saturation bound")));
                out.push((SaturatedLow, reach(res_min, lanes * lane_min, "saturation bound")));
            } else {
                if signed {
                    out.push((ResultMin, reach(res_min, lanes * lane_min, "result's minimum")));
                }
                out.push((ResultMax, reach(res_max, lanes * lane_max, "result's maximum")));
                if r == 32 {
                    out.push((Wrapped, reach(res_max, lanes * lane_max, "32-bit bound")));
                }
            }
            for l in levels {
                out.push((CarryAt(l as u8), None));
            }
        }
        Fold::Extremum { signed, .. } => {
            add(ResultZero);
            if signed {
                add(ResultMin);
            }
            add(ResultMax);
            for e in [WinnerFirst, WinnerLast, WinnerOther, Ties1, Ties2, TiesSome, TiesAll] {
                add(e);
            }
            for l in levels {
                add(TieAt(l as u8));
                add(ChangeAt(l as u8));
            }
        }
        Fold::Num { .. } => {
            for e in [
                ResultZero,
                ResultNan,
                ResultInf,
                ResultSubnormal,
                WinnerFirst,
                WinnerLast,
                WinnerOther,
                Ties1,
                Ties2,
                TiesSome,
                TiesAll,
                NanNone,
                NanSome,
                NanAll,
                ZeroSignDecides,
                InfIn,
                SubnormalIn,
            ] {
                add(e);
            }
            for l in levels {
                add(TieAt(l as u8));
                add(ChangeAt(l as u8));
            }
        }
        Fold::And | Fold::Or | Fold::Xor => {
            add(ResultZero);
            add(ResultMax);
        }
    }
    out
}

/// The instruction's groups.
const INST_COMBO: &str = "inst reduce_op × in × out";
const INST_AXIS: &str = "inst opcode × axis";
const INST_CHANNELS: &str = "inst channels";
const INST_STRIDE: [&str; 4] = ["inst stride d0", "inst stride d1", "inst stride d2", "inst stride d3"];
const INST_ELEMENTS: &str = "inst elements";
const INST_CONVERSION: &str = "inst conversion";
const INST_SUM: &str = "inst sum";
const INST_REJECT: &str = "inst reject";

const CHANNEL_CLASSES: [&str; 5] = ["1", "2..15", "16", "17..127", "128"];
const STRIDE_CLASSES: [&str; 4] = ["negative", "0", "1", ">1"];
const ELEMENT_CLASSES: [&str; 5] = ["1", "2..15", "16", "a multiple of 16", "other"];
const CONVERSIONS: [&str; 7] =
    ["in inexact", "in NaN", "out inexact", "out saturated", "out overflow to inf", "out NaN to 0", "out subnormal"];
const SUMS: [&str; 4] = ["cancellation to ±0", "inf - inf", "NaN in", "all NaN for MAX"];

/// Every (reduce_op, in_dtype, out_dtype) the rules allow (instruction.md §3).
pub fn valid_combos() -> Vec<(ReduceOp, Dtype, Dtype)> {
    let mut out = Vec::new();
    for op in ReduceOp::ALL {
        for i in Dtype::ALL {
            for o in Dtype::ALL {
                let ok = i != Dtype::Invalid
                    && i != Dtype::Fp32r
                    && o != Dtype::Invalid
                    && (op.opcode() == Opcode::CrossLaneReduceArith
                        || (i.is_integer() && i.size() <= 4 && o.size() == i.size()));
                if ok {
                    out.push((op, i, o));
                }
            }
        }
    }
    out
}

fn combo_slot(op: ReduceOp, i: Dtype, o: Dtype) -> usize {
    (op as usize * 16 + i.code() as usize) * 16 + o.code() as usize
}

fn combo_name(op: ReduceOp, i: Dtype, o: Dtype) -> String {
    format!("{} {} → {}", op.name(), i.name(), o.name())
}

/// The whole table, built once.
struct Table {
    bins: Vec<Bin>,
    /// By op code (9 bits): each event's bin, if it is one of the op's.
    unit: Vec<[Option<u32>; EVENT_SLOTS]>,
    /// By (reduce_op, in, out) codes: the combination's bin.
    combo: Vec<Option<u32>>,
    axis: usize,
    channels: usize,
    stride: [usize; 4],
    elements: usize,
    conversion: usize,
    sum: usize,
    reject: usize,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut bins = Vec::new();
        let mut unit = vec![[None; EVENT_SLOTS]; 1 << crate::ops::OP_SELECT_BITS];
        for op in Op::all() {
            let group = format!("op {}", op.name());
            for (e, unreachable) in unit_bins(op) {
                unit[op.code() as usize][e.slot()] = Some(bins.len() as u32);
                bins.push(Bin { group: group.clone(), name: e.name(), unreachable });
            }
        }
        let mut group = |g: &str, names: Vec<String>| {
            let first = bins.len();
            bins.extend(names.into_iter().map(|name| Bin { group: g.to_string(), name, unreachable: None }));
            first
        };
        let first = group(INST_COMBO, valid_combos().into_iter().map(|(r, i, o)| combo_name(r, i, o)).collect());
        let mut combo = vec![None; 6 * 16 * 16];
        for (k, (r, i, o)) in valid_combos().into_iter().enumerate() {
            combo[combo_slot(r, i, o)] = Some((first + k) as u32);
        }
        let axis = group(
            INST_AXIS,
            ["ARITH All", "ARITH Partitions", "BITVEC All", "BITVEC Partitions"].map(String::from).to_vec(),
        );
        let channels = group(INST_CHANNELS, CHANNEL_CLASSES.map(String::from).to_vec());
        let stride = INST_STRIDE.map(|g| group(g, STRIDE_CLASSES.map(String::from).to_vec()));
        let elements = group(INST_ELEMENTS, ELEMENT_CLASSES.map(String::from).to_vec());
        let conversion = group(INST_CONVERSION, CONVERSIONS.map(String::from).to_vec());
        let sum = group(INST_SUM, SUMS.map(String::from).to_vec());
        let reject = group(INST_REJECT, RULE_NAMES.map(String::from).to_vec());
        Table { bins, unit, combo, axis, channels, stride, elements, conversion, sum, reject }
    })
}

/// Every bin, in the report's order.
pub fn bins() -> &'static [Bin] {
    &table().bins
}

/// The prefix of the unit's groups' names.
pub const UNIT: &str = "op ";
/// The prefix of the instruction's groups' names.
pub const INSTRUCTION: &str = "inst ";

/// A count per bin of [`bins`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    hits: Vec<u64>,
}

impl Default for Coverage {
    fn default() -> Self {
        Coverage::new()
    }
}

/// A group's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupSummary {
    pub group: String,
    /// Reachable bins hit, reachable bins.
    pub hit: usize,
    pub reachable: usize,
    /// The reachable bins not hit, by name.
    pub unhit: Vec<String>,
}

impl Coverage {
    /// Every bin at 0.
    pub fn new() -> Coverage {
        Coverage { hits: vec![0; bins().len()] }
    }

    /// The counts, one per bin of [`bins`].
    pub fn counts(&self) -> &[u64] {
        &self.hits
    }

    /// From counts by bin (group, name), as a report lists them: every bin
    /// of [`bins`] exactly once, or an error naming what does not match.
    pub fn from_counts<'a>(counts: impl IntoIterator<Item = (&'a str, &'a str, u64)>) -> Result<Coverage, String> {
        let index: std::collections::HashMap<(&str, &str), usize> =
            bins().iter().enumerate().map(|(i, b)| ((b.group.as_str(), b.name.as_str()), i)).collect();
        let mut seen = vec![false; bins().len()];
        let mut c = Coverage::new();
        for (g, n, k) in counts {
            let i =
                *index.get(&(g, n)).ok_or_else(|| format!("no bin '{n}' in group '{g}' in this version's model"))?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(format!("bin '{n}' of '{g}' is listed twice"));
            }
            c.hits[i] = k;
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            let b = &bins()[i];
            return Err(format!("bin '{}' of '{}' is missing: a report of another version's model", b.name, b.group));
        }
        Ok(c)
    }

    /// Add another campaign's (or shard's) counts.
    pub fn merge(&mut self, other: &Coverage) {
        for (a, b) in self.hits.iter_mut().zip(&other.hits) {
            *a = a.saturating_add(*b);
        }
    }

    fn hit(&mut self, bin: usize) {
        if let Some(h) = self.hits.get_mut(bin) {
            *h = h.saturating_add(1);
        }
    }

    /// Per group, in the order of [`bins`].
    pub fn summary(&self) -> Vec<GroupSummary> {
        let mut out: Vec<GroupSummary> = Vec::new();
        for (b, &k) in bins().iter().zip(&self.hits) {
            if out.last().is_none_or(|g| g.group != b.group) {
                out.push(GroupSummary { group: b.group.clone(), hit: 0, reachable: 0, unhit: Vec::new() });
            }
            let Some(g) = out.last_mut() else { continue };
            if b.unreachable.is_some() {
                continue;
            }
            g.reachable += 1;
            if k > 0 {
                g.hit += 1;
            } else {
                g.unhit.push(b.name.clone());
            }
        }
        out
    }

    /// (reachable bins hit, reachable bins) over the groups whose name
    /// starts with `prefix` (`op ` for the unit, `inst ` for the instruction).
    pub fn total(&self, prefix: &str) -> (usize, usize) {
        self.summary()
            .iter()
            .filter(|g| g.group.starts_with(prefix))
            .fold((0, 0), |(h, r), g| (h + g.hit, r + g.reachable))
    }

    /// One line: the reachable bins hit of the groups under `prefix`
    /// ([`UNIT`] or [`INSTRUCTION`]), `what` naming them.
    pub fn total_line(&self, prefix: &str, what: &str) -> String {
        let (hit, reachable) = self.total(prefix);
        let unreachable = bins().iter().filter(|b| b.group.starts_with(prefix) && b.unreachable.is_some()).count();
        format!(
            "coverage of {what}: {hit} of {reachable} reachable bins ({:.2}%), {unreachable} unreachable",
            100.0 * hit as f64 / reachable.max(1) as f64
        )
    }

    /// A line a group under `prefix`: bins hit of the reachable ones, and
    /// the unhit bins by name (the report `crosslane verify --coverage`
    /// and the Python package's `Coverage.report` print).
    pub fn render(&self, prefix: &str) -> String {
        let mut s = String::new();
        for g in self.summary().into_iter().filter(|g| g.group.starts_with(prefix)) {
            s.push_str(&format!("{:<32} {:>4}/{:<4}", g.group, g.hit, g.reachable));
            if !g.unhit.is_empty() {
                s.push_str(&format!("  unhit: {}", g.unhit.join(", ")));
            }
            s.push('\n');
        }
        s
    }

    /// Sample one case of the reduce unit.
    pub fn sample_case(&mut self, op: Op, vec: &Vec512, vbool: u64) {
        let t = table();
        let slots = &t.unit[op.code() as usize & ((1 << crate::ops::OP_SELECT_BITS) - 1)];
        let mut events = [false; EVENT_SLOTS];
        unit_events(op, vec, vbool, &mut |e| events[e.slot()] = true);
        for (slot, bin) in slots.iter().enumerate() {
            if let (true, Some(b)) = (events[slot], bin) {
                self.hit(*b as usize);
            }
        }
    }
}

impl Coverage {
    /// Sample one instruction: checked against `sbuf`'s partition size and,
    /// when accepted, run on `sbuf` (changed as [`execute_observed`]
    /// changes it) with its folds observed.
    pub fn sample_instruction(&mut self, raw: &RawInstruction, sbuf: &mut Sbuf) {
        let t = table();
        let inst = match raw.validate(sbuf.partition_bytes) {
            Ok(i) => i,
            Err(r) => {
                if let Some(k) = (r.code() as usize).checked_sub(1) {
                    self.hit(t.reject + k);
                }
                return;
            }
        };
        if let Some(&Some(b)) = t.combo.get(combo_slot(inst.reduce_op(), inst.in_dtype(), inst.out_dtype())) {
            self.hit(b as usize);
        }
        let arith = inst.opcode() == Opcode::CrossLaneReduceArith;
        let partitions = inst.reduce_axis() == ReduceAxis::Partitions;
        self.hit(t.axis + 2 * usize::from(!arith) + usize::from(partitions));
        self.hit(
            t.channels
                + match inst.channels() {
                    1 => 0,
                    2..=15 => 1,
                    16 => 2,
                    17..=127 => 3,
                    _ => 4,
                },
        );
        let src = &raw.src;
        for d in 0..4 {
            if src.num_elem[d] > 1 {
                self.hit(
                    t.stride[d]
                        + match src.step_elem[d] {
                            i16::MIN..=-1 => 0,
                            0 => 1,
                            1 => 2,
                            _ => 3,
                        },
                );
            }
        }
        let n = src.elements();
        self.hit(
            t.elements
                + match n {
                    1 => 0,
                    2..=15 => 1,
                    16 => 2,
                    _ if n.is_multiple_of(16) => 3,
                    _ => 4,
                },
        );
        if !arith || check_work(&inst).is_err() {
            return;
        }
        let mut seen = InstSeen {
            op: inst.reduce_op(),
            in_dtype: inst.in_dtype(),
            out_dtype: inst.out_dtype(),
            conversion: [false; CONVERSIONS.len()],
            sum: [false; SUMS.len()],
            fold: FoldStats::default(),
        };
        if execute_observed(&inst, sbuf, SumOrder::Tree, &mut seen).is_err() {
            return;
        }
        for (k, &s) in seen.conversion.iter().enumerate() {
            if s {
                self.hit(t.conversion + k);
            }
        }
        for (k, &s) in seen.sum.iter().enumerate() {
            if s {
                self.hit(t.sum + k);
            }
        }
    }
}

/// One fold's elements as the instruction's events need them.
#[derive(Default)]
struct FoldStats {
    count: u64,
    nans: u64,
    nonzero: bool,
    pos_inf: bool,
    neg_inf: bool,
}

/// The instruction's conversion and sum events, fold by fold.
struct InstSeen {
    op: ReduceOp,
    in_dtype: Dtype,
    out_dtype: Dtype,
    conversion: [bool; CONVERSIONS.len()],
    sum: [bool; SUMS.len()],
    fold: FoldStats,
}

/// An integer dtype's element as its exact value.
fn int_value(d: Dtype, bits: u64) -> Option<i128> {
    Some(match d {
        Dtype::Int8 => bits as u8 as i8 as i128,
        Dtype::Uint8 => bits as u8 as i128,
        Dtype::Int16 => bits as u16 as i16 as i128,
        Dtype::Uint16 => bits as u16 as i128,
        Dtype::Int32 => bits as u32 as i32 as i128,
        Dtype::Uint32 => bits as u32 as i128,
        Dtype::Int64 => bits as i64 as i128,
        Dtype::Uint64 => bits as i128,
        _ => return None,
    })
}

impl ExecObserver for InstSeen {
    fn begin_fold(&mut self) {
        self.fold = FoldStats::default();
    }

    fn element(&mut self, bits: u64, value: f32) {
        let f = &mut self.fold;
        f.count += 1;
        if value.is_nan() {
            f.nans += 1;
            self.conversion[1] = true;
        } else if value != 0.0 {
            f.nonzero = true;
        }
        f.pos_inf |= value == f32::INFINITY;
        f.neg_inf |= value == f32::NEG_INFINITY;
        if let Some(exact) = int_value(self.in_dtype, bits) {
            if value as i128 != exact {
                self.conversion[0] = true;
            }
        }
    }

    fn folded(&mut self, value: f32, out: u64) {
        let f = &self.fold;
        if self.op == ReduceOp::Max {
            self.sum[3] |= f.count > 0 && f.nans == f.count;
        } else {
            self.sum[0] |= value == 0.0 && f.nonzero;
            self.sum[1] |= f.pos_inf && f.neg_inf;
            self.sum[2] |= f.nans > 0;
        }
        let c = &mut self.conversion;
        if let Some(exact) = int_value(self.out_dtype, out) {
            if value.is_nan() {
                c[5] = true;
            } else if value.round_ties_even() as i128 != exact || value.is_infinite() {
                c[3] = true;
            } else if value.fract() != 0.0 {
                c[2] = true;
            }
            return;
        }
        let Some(m) = self.out_dtype.minifloat() else { return };
        if value.is_nan() || m == crate::instruction::MiniFloat::F32 {
            return;
        }
        let back = m.decode(out as u32);
        let max = m.decode(m.max_finite());
        let min_normal = m.decode(1 << m.man_bits);
        if back.is_infinite() && value.is_finite() {
            c[4] = true;
        } else if !m.has_inf && back.abs() == max && value.abs() > max {
            c[3] = true;
        } else if back != value {
            c[2] = true;
        }
        if back != 0.0 && back.abs() < min_normal {
            c[6] = true;
        }
    }
}

/// Sign-magnitude bits made an ordered key (−0 just below +0), NaN at the
/// end that never wins: golden's maximumNumber / minimumNumber order.
fn num_key(bits: u32, w: u32, max: bool) -> i64 {
    let sign = 1u32 << (w - 1);
    let mag = bits & (sign - 1);
    let inf = if w == 16 { 0x7c00 } else { 0x7f80_0000 };
    if mag > inf {
        return if max { i64::MIN } else { i64::MAX };
    }
    if bits & sign != 0 {
        -(mag as i64) - 1
    } else {
        mag as i64
    }
}

/// Call `seen` with every event of `op` on (vec, vbool); the ones that are
/// not bins of the op are dropped by the caller.
fn unit_events(op: Op, vec: &Vec512, vbool: u64, seen: &mut impl FnMut(UnitEvent)) {
    let form = op.form;
    let lanes = op.lanes();
    let w = form.lane_bits();
    let lane_starts = form.full_vbool();
    // Ignored inputs.
    if op.family.is_vbool_fold() && *vec != Vec512::ZERO {
        seen(JunkVec);
    }
    let ignored_vbool = if op.predicated || op.family.is_vbool_fold() { !lane_starts } else { u64::MAX };
    if vbool & ignored_vbool != 0 {
        seen(JunkVbool);
    }
    let active = if op.family.is_vbool_fold() { compress_vbool(vbool, form) } else { op.active_lanes(vbool) };
    let n_active = active.count_ones() as usize;
    if op.predicated || op.family.is_vbool_fold() {
        seen(match n_active {
            0 => ActiveNone,
            1 => ActiveOne,
            n if n == lanes => ActiveAll,
            _ => ActiveSome,
        });
    }
    let out = op.eval(vec, vbool);
    if op.family.is_vbool_fold() {
        seen(if out.value == 0 { ResultZero } else { ResultMax });
        return;
    }
    // The lanes as the tree takes them: inactive ones replaced by the identity.
    let id = op.identity();
    let x: Vec<u32> =
        (0..lanes).map(|l| if (active >> l) & 1 == 1 { vec.lane(w, l) } else { id & form.lane_mask() }).collect();
    let sext = |v: u32| -> i64 {
        let s = 64 - w;
        ((v as u64) << s) as i64 >> s
    };
    let value = out.value;
    let level0 = first_level(form);
    match op.family.fold() {
        Fold::Sum { signed, saturate } => {
            let exact: i64 = x.iter().map(|&v| if signed { sext(v) } else { v as i64 }).sum();
            let r = op.result_bits();
            let (res_min, res_max) =
                if signed { (-(1i64 << (r - 1)), (1i64 << (r - 1)) - 1) } else { (0, (1i64 << r) - 1) };
            if value == 0 {
                seen(ResultZero);
            }
            if saturate {
                if exact >= res_max {
                    seen(SaturatedHigh);
                }
                if exact <= res_min {
                    seen(SaturatedLow);
                }
            } else {
                if exact == res_min && signed {
                    seen(ResultMin);
                }
                if exact == res_max {
                    seen(ResultMax);
                }
                if exact > res_max || exact < res_min {
                    seen(Wrapped);
                }
            }
            // The tree: each level's node sums its children's, which are w + j bits wide.
            let mut cur: Vec<i64> = x.iter().map(|&v| if signed { sext(v) } else { v as i64 }).collect();
            let mut width = w;
            let mut level = level0;
            while cur.len() > 1 {
                let next: Vec<i64> = cur.chunks(2).map(|p| p.iter().sum()).collect();
                let fits = |s: i64| {
                    if signed {
                        s >= -(1i64 << (width - 1)) && s < (1i64 << (width - 1))
                    } else {
                        s < (1i64 << width)
                    }
                };
                if next.iter().any(|&s| !fits(s)) {
                    seen(CarryAt(level as u8));
                }
                cur = next;
                width += 1;
                level += 1;
            }
        }
        Fold::Extremum { signed, max } => {
            let key = |v: u32| if signed { sext(v) } else { v as i64 };
            if value == 0 {
                seen(ResultZero);
            }
            if signed && key(value) == -(1i64 << (w - 1)) {
                seen(ResultMin);
            }
            let top = if signed { (1i64 << (w - 1)) - 1 } else { (1i64 << w) - 1 };
            if key(value) == top {
                seen(ResultMax);
            }
            winner_and_ties(&x, active, lanes, value, seen);
            tree_compares(x.iter().map(|&v| key(v)).collect(), max, level0, seen);
        }
        Fold::Num { max } => {
            let exp_mask = if w == 16 { 0x7c00 } else { 0x7f80_0000 };
            let mag = |v: u32| v & ((1 << (w - 1)) - 1);
            let is_nan = |v: u32| mag(v) > exp_mask;
            let is_sub = |v: u32| mag(v) != 0 && mag(v) & exp_mask == 0;
            if mag(value) == 0 {
                seen(ResultZero);
            }
            if is_nan(value) {
                seen(ResultNan);
            }
            if mag(value) == exp_mask {
                seen(ResultInf);
            }
            if is_sub(value) {
                seen(ResultSubnormal);
            }
            let act: Vec<u32> = (0..lanes).filter(|l| (active >> l) & 1 == 1).map(|l| x[l]).collect();
            let nans = act.iter().filter(|&&v| is_nan(v)).count();
            if !act.is_empty() {
                seen(match nans {
                    0 => NanNone,
                    n if n == act.len() => NanAll,
                    _ => NanSome,
                });
            }
            if mag(value) == 0 && act.contains(&0) && act.contains(&(1 << (w - 1))) {
                seen(ZeroSignDecides);
            }
            if act.iter().any(|&v| mag(v) == exp_mask) {
                seen(InfIn);
            }
            if act.iter().any(|&v| is_sub(v)) {
                seen(SubnormalIn);
            }
            if !is_nan(value) {
                winner_and_ties(&x, active, lanes, value, seen);
            }
            tree_compares(x.iter().map(|&v| num_key(v, w, max)).collect(), max, level0, seen);
        }
        Fold::And | Fold::Or | Fold::Xor => {
            if value == 0 {
                seen(ResultZero);
            }
            if value == form.lane_mask() {
                seen(ResultMax);
            }
        }
    }
}

/// The winner's position and the tie set: the active lanes holding the result's bits.
fn winner_and_ties(x: &[u32], active: u64, lanes: usize, value: u32, seen: &mut impl FnMut(UnitEvent)) {
    let n_active = active.count_ones() as usize;
    let ties: Vec<usize> = (0..lanes).filter(|&l| (active >> l) & 1 == 1 && x[l] == value).collect();
    let Some(&first) = ties.first() else { return };
    seen(if first == 0 {
        WinnerFirst
    } else if first == lanes - 1 {
        WinnerLast
    } else {
        WinnerOther
    });
    seen(match ties.len() {
        n if n == n_active => TiesAll,
        1 => Ties1,
        2 => Ties2,
        _ => TiesSome,
    });
}

/// The compare tree over ordered keys: a tie (equal children) and a change
/// (the right child strictly better) at each level.
fn tree_compares(mut cur: Vec<i64>, max: bool, level0: usize, seen: &mut impl FnMut(UnitEvent)) {
    let mut level = level0;
    while cur.len() > 1 {
        let mut tie = false;
        let mut change = false;
        let next: Vec<i64> = cur
            .chunks(2)
            .map(|p| match p {
                [a, b] => {
                    tie |= a == b;
                    let right = if max { b > a } else { b < a };
                    change |= right;
                    if right {
                        *b
                    } else {
                        *a
                    }
                }
                [a] => *a,
                _ => 0,
            })
            .collect();
        if tie {
            seen(TieAt(level as u8));
        }
        if change {
            seen(ChangeAt(level as u8));
        }
        cur = next;
        level += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_has_a_group_and_names_are_unique() {
        let b = bins();
        let mut keys: Vec<(&str, &str)> = b.iter().map(|b| (b.group.as_str(), b.name.as_str())).collect();
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n);
        for op in Op::all() {
            assert!(b.iter().any(|x| x.group == format!("op {}", op.name())), "{}", op.name());
        }
        assert_eq!(b.iter().filter(|x| x.group == INST_REJECT).count(), 13);
        assert_eq!(valid_combos().len(), 3 * 14 * 15 + 3 * 26);
    }

    #[test]
    fn unreachable_bins_say_why_and_are_the_sums_that_cannot_get_there() {
        let why: Vec<&Bin> = bins().iter().filter(|b| b.unreachable.is_some()).collect();
        assert!(!why.is_empty());
        for b in &why {
            assert!(b.group.starts_with("op radd") || b.group.starts_with("op raddu"), "{b:?}");
        }
        // 64 lanes of int8 sum to at most 8,128: a 16-bit result never reaches 32,767.
        assert!(why.iter().any(|b| b.group == "op radd_2nx8" && b.name == "result max"));
        // radds saturates: reachable.
        assert!(!why.iter().any(|b| b.group.starts_with("op radds")));
    }

    fn hits_of(op: Op, vec: &Vec512, vbool: u64) -> Vec<String> {
        let mut c = Coverage::new();
        c.sample_case(op, vec, vbool);
        bins().iter().zip(c.counts()).filter(|(_, &k)| k > 0).map(|(b, _)| b.name.clone()).collect()
    }

    #[test]
    fn a_max_with_two_ties_in_the_last_lanes_hits_what_it_should() {
        let op = Op::from_name("rbmax_nx16").unwrap();
        let mut lanes = [0u32; 32];
        lanes[30] = 5;
        lanes[31] = 5;
        let got = hits_of(op, &Vec512::from_lanes(16, &lanes), 0);
        for want in ["winner another lane", "ties 2", "tie at level 2", "winner changes at level 6"] {
            assert!(got.iter().any(|g| g == want), "{want} not in {got:?}");
        }
        assert!(!got.iter().any(|g| g == "ties 1" || g == "winner lane 0"), "{got:?}");
        // Ties at level 2 (lanes 30, 31 equal, and every pair of zeros), none at level 6 (0 vs 5).
        assert!(!got.iter().any(|g| g == "tie at level 6"), "{got:?}");
    }

    #[test]
    fn sums_saturate_and_carry() {
        let op = Op::from_name("radds_nx16").unwrap();
        let got = hits_of(op, &Vec512::from_lanes(16, &[0x7fff; 32]), 0);
        assert!(got.iter().any(|g| g == "saturated high"), "{got:?}");
        assert!(got.iter().any(|g| g == "carry at level 2"), "{got:?}");
        let got = hits_of(Op::from_name("radd_n_2x32").unwrap(), &Vec512::from_lanes(32, &[0x7fff_ffff; 16]), 0);
        assert!(got.iter().any(|g| g == "wrapped"), "{got:?}");
        let got = hits_of(Op::from_name("radd_2nx8").unwrap(), &Vec512::ZERO, 0);
        assert!(got.iter().any(|g| g == "result zero") && !got.iter().any(|g| g.starts_with("carry")), "{got:?}");
    }

    #[test]
    fn fp_classes_and_the_sign_of_zero() {
        let op = Op::from_name("rmaxnum_nxf16").unwrap();
        let mut lanes = [0x7e00u32; 32]; // NaN
        lanes[3] = 0x8000; // -0
        lanes[7] = 0x0000; // +0
        let got = hits_of(op, &Vec512::from_lanes(16, &lanes), 0);
        for want in ["NaN some", "±0 decides", "result zero", "ties 1", "winner another lane"] {
            assert!(got.iter().any(|g| g == want), "{want} not in {got:?}");
        }
        let got = hits_of(op, &Vec512::from_lanes(16, &[0x7e00; 32]), 0);
        assert!(got.iter().any(|g| g == "NaN all") && got.iter().any(|g| g == "result NaN"), "{got:?}");
    }

    #[test]
    fn predicates_and_junk() {
        let op = Op::from_name("rmin_nx16_t").unwrap();
        let got = hits_of(op, &Vec512::ZERO, 0b10);
        assert!(got.iter().any(|g| g == "active none") && got.iter().any(|g| g == "junk in ignored vbool bits"));
        let got = hits_of(Op::from_name("rorb2n").unwrap(), &Vec512::from_lanes(8, &[1]), 1);
        assert!(got.iter().any(|g| g == "junk in the ignored vector") && got.iter().any(|g| g == "active one"));
    }

    /// The bins one instruction hits, over one partition's elements.
    fn inst_hits(op: ReduceOp, in_d: Dtype, out_d: Dtype, elems: &[u64]) -> Vec<String> {
        use crate::instruction::Tensor4d;
        let size = in_d.size();
        let mut sbuf = Sbuf::new(1024);
        let bytes: Vec<u8> = elems.iter().flat_map(|e| e.to_le_bytes()[..size].to_vec()).collect();
        sbuf.write(0, 0, &bytes).unwrap();
        let t = |p, n: u16| Tensor4d {
            start_addr: Tensor4d::immediate(p, 0),
            step_elem: [1, 0, 0, 0],
            num_elem: [n, 1, 1, 1],
        };
        let raw = RawInstruction {
            opcode: op.opcode() as u8,
            header: [0; 3],
            events: [0; 8],
            src: t(0, elems.len() as u16),
            in_dtype: in_d.code(),
            out_dtype: out_d.code(),
            num_active_channels: 1,
            reduce_op: op as u8,
            reduce_axis: 0,
            reserved0: [0; 3],
            scale: 1.0f32.to_bits(),
            dst: t(1, 1),
        };
        let mut c = Coverage::new();
        c.sample_instruction(&raw, &mut sbuf);
        bins().iter().zip(c.counts()).filter(|(_, &k)| k > 0).map(|(b, _)| format!("{}: {}", b.group, b.name)).collect()
    }

    #[test]
    fn an_instruction_hits_its_shape_and_its_events() {
        let one = 1.0f32.to_bits() as u64;
        let minus_one = (-1.0f32).to_bits() as u64;
        let got = inst_hits(ReduceOp::Add, Dtype::Fp32, Dtype::Fp32, &[one, minus_one]);
        for want in [
            "inst reduce_op × in × out: ADD FP32 → FP32",
            "inst opcode × axis: ARITH All",
            "inst channels: 1",
            "inst stride d0: 1",
            "inst elements: 2..15",
            "inst sum: cancellation to ±0",
        ] {
            assert!(got.iter().any(|g| g == want), "{want} not in {got:?}");
        }
        assert_eq!(got.len(), 6, "{got:?}");
        let inf = f32::INFINITY.to_bits() as u64;
        let got = inst_hits(ReduceOp::Add, Dtype::Fp32, Dtype::Int8, &[inf, f32::NEG_INFINITY.to_bits() as u64]);
        assert!(
            got.iter().any(|g| g == "inst sum: inf - inf") && got.iter().any(|g| g == "inst conversion: out NaN to 0")
        );
        // 2^24 + 1 is not a binary32; 300 is no int8.
        let got = inst_hits(ReduceOp::Max, Dtype::Int32, Dtype::Int8, &[(1 << 24) + 1, 300]);
        assert!(got.iter().any(|g| g == "inst conversion: in inexact"), "{got:?}");
        assert!(got.iter().any(|g| g == "inst conversion: out saturated"), "{got:?}");
        let got = inst_hits(ReduceOp::Add, Dtype::Fp32, Dtype::Fp16, &[1e6f32.to_bits() as u64]);
        assert!(got.iter().any(|g| g == "inst conversion: out overflow to inf"), "{got:?}");
        let got = inst_hits(ReduceOp::Add, Dtype::Fp32, Dtype::Fp16, &[1e-6f32.to_bits() as u64]);
        assert!(got.iter().any(|g| g == "inst conversion: out subnormal"), "{got:?}");
        // A reject: the rule and nothing else.
        let got = inst_hits(ReduceOp::BitwiseOr, Dtype::Fp32, Dtype::Fp32, &[1]);
        assert_eq!(got, ["inst reject: bitvec_dtype"]);
    }

    #[test]
    fn counts_round_trip_by_name_and_a_foreign_report_is_refused() {
        let mut c = Coverage::new();
        c.sample_case(Op::from_name("radd_2nx8").unwrap(), &Vec512::ZERO, 0);
        let listed: Vec<(&str, &str, u64)> =
            bins().iter().zip(c.counts()).map(|(b, &k)| (b.group.as_str(), b.name.as_str(), k)).collect();
        assert_eq!(Coverage::from_counts(listed.iter().copied()).unwrap(), c);
        let mut short = listed.clone();
        short.pop();
        assert!(Coverage::from_counts(short).unwrap_err().contains("missing"));
        let mut extra = listed.clone();
        extra.push(("op radd_2nx8", "no such bin", 1));
        assert!(Coverage::from_counts(extra).unwrap_err().contains("no bin 'no such bin'"));
        let mut twice = c.clone();
        twice.merge(&c);
        assert_eq!(twice.counts().iter().sum::<u64>(), 2 * c.counts().iter().sum::<u64>());
    }
}

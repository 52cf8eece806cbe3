//! Test cases every engine is run on: the observed vectors of ops.md §3 and a
//! seeded, corner-heavy random campaign. Pure and deterministic (its own
//! SplitMix64, no outside RNG), so generated vector files are reproducible
//! byte for byte on any machine and any crate version.

use crate::ops::{Form, Op};
use crate::reduce::Outcome;
use crate::vector::Vec512;

/// One case: an op, its vector and its vbool (predicate or fold input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub op: Op,
    pub vec: Vec512,
    pub vbool: u64,
}

impl Case {
    pub fn new(op: Op, vec: Vec512, vbool: u64) -> Case {
        Case { op, vec, vbool }
    }

    pub fn eval(&self) -> Outcome {
        self.op.eval(&self.vec, self.vbool)
    }
}

/// An observed vector of ops.md §3 with the result the seed saw.
#[derive(Clone, Debug)]
pub struct Observed {
    pub case: Case,
    pub value: u32,
    pub mask: Option<u64>,
}

fn op(name: &str) -> Op {
    Op::from_name(name).unwrap_or_else(|| panic!("observed table names unknown op {name}"))
}

/// Lanes from lane 0, the last value repeated up to the lane count.
fn fill(bits: u32, lanes: &[u32]) -> Vec512 {
    let n = 512 / bits as usize;
    let mut all: Vec<u32> = lanes.to_vec();
    let last = *lanes.last().unwrap_or(&0);
    all.resize(n, last);
    Vec512::from_lanes(bits, &all)
}

/// Every observed vector of ops.md §3, in the spec's order.
pub fn observed() -> Vec<Observed> {
    let v = |name: &str, lanes: &[u32], value: u32| Observed {
        case: Case::new(op(name), fill(op(name).form.lane_bits(), lanes), u64::MAX),
        value,
        mask: None,
    };
    let b = |name: &str, vbool: u64, value: u32| Observed {
        case: Case::new(op(name), Vec512::ZERO, vbool),
        value,
        mask: None,
    };
    let mixed = [0xffff, 0x0001, (-1000i32) as u32 & 0xffff];
    let mut rows = vec![
        v("radd_nx16", &[1], 0x20),
        v("radd_nx16", &[32767], 0x000f_ffe0),
        v("radd_nx16", &[0x8000], 0xfff0_0000),
        v("radd_nx16", &[100, 0xffce, 0], 0x32),
        v("raddu_nx16", &[0xffff], 0x001f_ffe0),
        v("radd_2nx8", &[127], 0x1fc0),
        v("radd_n_2x32", &[0x1000_0000], 0),
        v("radds_nx16", &[32767], 0x7fff),
        v("radds_nx16", &[0x8000], 0x8000),
        v("radds_nx16", &[100, 0xffce, 0], 0x0032),
        v("rmax_nx16", &mixed, 0x0001),
        v("rmaxu_nx16", &mixed, 0xffff),
        v("rmin_nx16", &mixed, 0xfc18),
        v("rmax_nx16", &[0x8000, 0x0001, 0], 0x0001),
        v("rmaxu_nx16", &[0x8000, 0x0001, 0], 0x8000),
    ];
    for (vbool, and, or) in [
        (u64::MAX, 1, 1),
        (0x5555_5555_5555_5555, 1, 1),
        (0xaaaa_aaaa_aaaa_aaaa, 0, 0),
        (0, 0, 0),
        (3, 0, 1),
        (1, 0, 1),
    ] {
        rows.push(b("randbn", vbool, and));
        rows.push(b("rorbn", vbool, or));
    }
    let mut tie = vec![0u32; 32];
    tie[3] = 5;
    tie[9] = 5;
    rows.push(Observed {
        case: Case::new(op("rbmax_nx16"), Vec512::from_lanes(16, &tie), u64::MAX),
        value: 5,
        mask: Some(0x208),
    });
    rows
}

/// SplitMix64: small, fast, and fixed forever (the campaign depends on it).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; n = 0 gives 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            ((self.next_u64() as u128 * n as u128) >> 64) as u64
        }
    }
}

/// Lane values that break reimplementations of this form: the integer
/// extremes (INT_MIN, INT_MAX, 0, ±1, all ones) and for floats ±0, ±inf,
/// quiet and signalling NaNs of both signs, the smallest subnormal, ±1.
pub fn corner_lanes(form: Form) -> Vec<u32> {
    match form {
        Form::F16 => vec![
            0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd55, 0x7fff, 0x0001, 0x8001, 0x3c00, 0xbc00,
            0x7bff, 0xfbff,
        ],
        Form::F32 => vec![
            0x0000_0000,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffc0_0000,
            0x7f80_0001,
            0xffa0_0000,
            0x7fff_ffff,
            0x0000_0001,
            0x8000_0001,
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0xff7f_ffff,
        ],
        _ => {
            let m = form.lane_mask();
            let sign = 1u32 << (form.lane_bits() - 1);
            vec![0, 1, m, sign, sign - 1, sign + 1, m - 1, 2]
        }
    }
}

/// How a random vector is drawn; the campaign cycles through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Uniform random bits.
    Random,
    /// Every lane the same value (often a corner).
    AllEqual,
    /// Lanes drawn from a small pool of values, so extrema tie.
    Ties,
    /// Lanes drawn from the corner values.
    Corners,
    /// Random lanes with a few corners sprinkled in.
    Sprinkled,
}

const SHAPES: [Shape; 5] = [Shape::Random, Shape::AllEqual, Shape::Ties, Shape::Corners, Shape::Sprinkled];

fn lane_value(rng: &mut SplitMix64, form: Form, corners: &[u32]) -> u32 {
    if rng.below(2) == 0 {
        corners[rng.below(corners.len() as u64) as usize]
    } else {
        rng.next_u64() as u32 & form.lane_mask()
    }
}

fn random_vector(rng: &mut SplitMix64, form: Form, shape: Shape) -> Vec512 {
    let corners = corner_lanes(form);
    let bits = form.lane_bits();
    let lanes = form.lanes();
    let mut v = Vec512::ZERO;
    match shape {
        Shape::Random => {
            for b in v.0.iter_mut() {
                *b = rng.next_u64() as u8;
            }
        }
        Shape::AllEqual => {
            let x = lane_value(rng, form, &corners);
            for l in 0..lanes {
                v.set_lane(bits, l, x);
            }
        }
        Shape::Ties => {
            let pool: Vec<u32> = (0..1 + rng.below(3)).map(|_| lane_value(rng, form, &corners)).collect();
            for l in 0..lanes {
                let x = pool[rng.below(pool.len() as u64) as usize];
                v.set_lane(bits, l, x);
            }
        }
        Shape::Corners => {
            for l in 0..lanes {
                let x = corners[rng.below(corners.len() as u64) as usize];
                v.set_lane(bits, l, x);
            }
        }
        Shape::Sprinkled => {
            for b in v.0.iter_mut() {
                *b = rng.next_u64() as u8;
            }
            for _ in 0..1 + rng.below(4) {
                let l = rng.below(lanes as u64) as usize;
                v.set_lane(bits, l, corners[rng.below(corners.len() as u64) as usize]);
            }
        }
    }
    v
}

/// A vbool: empty, full (all bits or only the predicate bits), a single
/// lane, or random bits.
fn random_vbool(rng: &mut SplitMix64, form: Form) -> u64 {
    match rng.below(8) {
        0 => 0,
        1 => u64::MAX,
        2 => form.full_vbool(),
        3 => !form.full_vbool(),
        4 => 1u64 << (rng.below(form.lanes() as u64) as u32 * form.vbool_stride()),
        5 => form.full_vbool() & !(1u64 << (rng.below(form.lanes() as u64) as u32 * form.vbool_stride())),
        _ => rng.next_u64(),
    }
}

/// `n` random corner-heavy cases of one op from `seed`.
pub fn random_cases(op: Op, seed: u64, n: usize) -> Vec<Case> {
    let mut rng = op_rng(op, seed);
    (0..n).map(|i| random_case(op, &mut rng, i)).collect()
}

fn op_rng(op: Op, seed: u64) -> SplitMix64 {
    SplitMix64(seed ^ (op.code() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d))
}

/// The `i`-th random case of `op`, drawn from `rng`.
fn random_case(op: Op, rng: &mut SplitMix64, i: usize) -> Case {
    let shape = SHAPES[i % SHAPES.len()];
    let vec = if op.family.is_vbool_fold() { Vec512::ZERO } else { random_vector(rng, op.form, shape) };
    let vbool = if op.predicated || op.family.is_vbool_fold() { random_vbool(rng, op.form) } else { u64::MAX };
    Case::new(op, vec, vbool)
}

/// Cases for bins of the coverage model ([`crate::coverage`]) the random
/// campaign does not reach at its default length: each sum of 32-bit lanes
/// with one lane at its largest value and the rest 0 (raddu's sum is then
/// exactly its result's maximum).
pub fn directed() -> Vec<Case> {
    let mut out = Vec::new();
    for op in Op::all() {
        if matches!(op.family, crate::Family::Add | crate::Family::AddU) && op.form == Form::W32 {
            let top = if op.family == crate::Family::AddU { u32::MAX } else { i32::MAX as u32 };
            let mut lanes = [0u32; 16];
            lanes[0] = top;
            out.push(Case::new(op, Vec512::from_lanes(32, &lanes), u64::MAX));
        }
    }
    out
}

/// The campaign as a stream, ops mixed from one vector to the next: the
/// observed vectors and the [`directed`] cases, then `per_op` rounds, each presenting the next random
/// case of every op (the same cases as [`random_cases`]) in an order shuffled
/// per round. With `junk`, the inputs an op ignores carry random bits (the
/// vbool of a base op, the vector of a vbool fold), which must change no
/// result. Memory is independent of the campaign's length.
pub struct Mixed {
    ops: Vec<Op>,
    rngs: Vec<SplitMix64>,
    order: Vec<usize>,
    observed: std::vec::IntoIter<Case>,
    shuffle: SplitMix64,
    junk: SplitMix64,
    with_junk: bool,
    round: usize,
    pos: usize,
    per_op: usize,
}

impl Mixed {
    pub fn new(seed: u64, per_op: usize, with_junk: bool) -> Mixed {
        let ops = Op::all();
        let rngs = ops.iter().map(|&op| op_rng(op, seed)).collect();
        let order = (0..ops.len()).collect();
        let observed: Vec<Case> = observed().into_iter().map(|o| o.case).chain(directed()).collect();
        let mut m = Mixed {
            ops,
            rngs,
            order,
            observed: observed.into_iter(),
            shuffle: SplitMix64(seed ^ 0x6d69_7865_6400_0001),
            junk: SplitMix64(seed ^ 0x6a75_6e6b_0000_0002),
            with_junk,
            round: 0,
            pos: 0,
            per_op,
        };
        m.reshuffle();
        m
    }

    /// Cases in all: observed + per_op × 94.
    pub fn len(&self) -> usize {
        observed().len() + directed().len() + self.per_op * self.ops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn reshuffle(&mut self) {
        for i in (1..self.order.len()).rev() {
            let j = self.shuffle.below(i as u64 + 1) as usize;
            self.order.swap(i, j);
        }
    }

    fn add_junk(&mut self, mut c: Case) -> Case {
        if self.with_junk {
            if c.op.family.is_vbool_fold() {
                c.vec = Vec512::from_words(std::array::from_fn(|_| self.junk.next_u64()));
            } else if !c.op.predicated {
                c.vbool = self.junk.next_u64();
            }
        }
        c
    }
}

impl Iterator for Mixed {
    type Item = Case;

    fn next(&mut self) -> Option<Case> {
        if let Some(c) = self.observed.next() {
            return Some(self.add_junk(c));
        }
        if self.round >= self.per_op {
            return None;
        }
        let k = self.order[self.pos];
        let c = random_case(self.ops[k], &mut self.rngs[k], self.round);
        self.pos += 1;
        if self.pos == self.order.len() {
            self.pos = 0;
            self.round += 1;
            self.reshuffle();
        }
        Some(self.add_junk(c))
    }
}

/// The campaign every engine runs: the observed vectors and the
/// [`directed`] cases, then `per_op` random cases of every op in table order.
pub fn campaign(seed: u64, per_op: usize) -> Vec<Case> {
    let mut cases: Vec<Case> = observed().into_iter().map(|o| o.case).chain(directed()).collect();
    for op in Op::all() {
        cases.extend(random_cases(op, seed, per_op));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn campaign_is_deterministic_and_covers_every_op() {
        let a = campaign(7, 3);
        let b = campaign(7, 3);
        assert_eq!(a, b);
        assert_eq!(a.len(), observed().len() + directed().len() + 94 * 3);
        assert_ne!(campaign(8, 3), a);
    }

    #[test]
    fn the_mixed_stream_is_the_campaign_reordered_with_ops_changing() {
        let mut a = campaign(5, 4);
        let mixed: Vec<Case> = Mixed::new(5, 4, false).collect();
        assert_eq!(mixed.len(), Mixed::new(5, 4, false).len());
        let changes = mixed.windows(2).filter(|w| w[0].op != w[1].op).count();
        assert!(changes > mixed.len() * 9 / 10, "ops change between {changes} of {} pairs", mixed.len());
        let mut b = mixed.clone();
        a.sort_by_key(|c| (c.op, c.vec.0, c.vbool));
        b.sort_by_key(|c| (c.op, c.vec.0, c.vbool));
        assert_eq!(a, b);
        assert_eq!(Mixed::new(5, 4, false).collect::<Vec<_>>(), mixed);
    }

    #[test]
    fn junk_lands_only_on_ignored_inputs_and_changes_no_result() {
        let plain: Vec<Case> = Mixed::new(9, 3, false).collect();
        let junk: Vec<Case> = Mixed::new(9, 3, true).collect();
        let mut vbools = 0;
        let mut vecs = 0;
        for (p, j) in plain.iter().zip(&junk) {
            assert_eq!(p.op, j.op);
            assert_eq!(p.eval(), j.eval(), "{}", p.op.name());
            if p.op.predicated {
                assert_eq!((p.vec, p.vbool), (j.vec, j.vbool));
            }
            vbools += (p.vbool != j.vbool) as usize;
            vecs += (p.vec != j.vec) as usize;
        }
        assert!(vbools > 100 && vecs > 10, "junk vbools {vbools}, vecs {vecs}");
    }

    #[test]
    fn random_cases_hit_the_most_negative_lane() {
        for op in Op::all().into_iter().filter(|o| !o.family.is_vbool_fold()) {
            let sign = 1u32 << (op.form.lane_bits() - 1);
            let bits = op.form.lane_bits();
            let hit = random_cases(op, 1, 200).iter().any(|c| (0..op.lanes()).any(|l| c.vec.lane(bits, l) == sign));
            assert!(hit, "{} never drew 0x{sign:x}", op.name());
        }
    }
}

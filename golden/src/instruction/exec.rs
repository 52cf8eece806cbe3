//! Executing a validated instruction over an SBUF image.
//!
//! ## The fp32 sum order (ADD, AVERAGE)
//!
//! The ISA leaves the order free; the project fixes it so golden and RTL
//! agree bit for bit ([`SumOrder::Tree`], the default):
//!
//! 1. The values to fold form a sequence: for axis All, every element of
//!    partition p0 in walk order, then p0+1, …; for axis Partitions, for each
//!    dst element k, element k of partition p0, p0+1, ….
//! 2. The sequence is cut into *beats* of 16 values (one 512-bit vector of
//!    fp32 lanes); the last beat may be short.
//! 3. Each beat folds as a log-step tree: lane pairs (0,1), (2,3), … are
//!    added, then pairs of those sums, until one is left; a lane without a
//!    partner (in a short beat) passes up unchanged.
//! 4. Beat sums accumulate left to right: `acc = beat0; acc = acc + beat1; …`.
//!
//! [`SumOrder::Sequential`] is the plain left-to-right fold, for comparison.
//! MAX (maximumNumber) and the BITVEC folds do not depend on order.

use super::fp::{add, canonical, mul, CANONICAL_NAN};
use super::{Dtype, Instruction, Opcode, ReduceAxis, ReduceOp, PARTITIONS};
use crate::{Family, Form, Op, Vec512};

/// The SBUF: 128 partitions of `partition_bytes`, byte-addressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sbuf {
    pub partition_bytes: usize,
    data: Vec<u8>,
}

/// A region outside the SBUF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    pub partition: usize,
    pub offset: usize,
    pub len: usize,
    pub partition_bytes: usize,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "partition {} bytes {}..{} are outside the SBUF (128 partitions of {} bytes)",
            self.partition,
            self.offset,
            self.offset.saturating_add(self.len),
            self.partition_bytes
        )
    }
}

impl Sbuf {
    /// A zeroed SBUF.
    pub fn new(partition_bytes: usize) -> Sbuf {
        Sbuf { partition_bytes, data: vec![0; PARTITIONS * partition_bytes] }
    }

    fn range(&self, partition: usize, offset: usize, len: usize) -> Result<std::ops::Range<usize>, OutOfRange> {
        let end = offset.checked_add(len).filter(|&e| e <= self.partition_bytes && partition < PARTITIONS);
        match end {
            Some(end) => Ok(partition * self.partition_bytes + offset..partition * self.partition_bytes + end),
            None => Err(OutOfRange { partition, offset, len, partition_bytes: self.partition_bytes }),
        }
    }

    pub fn read(&self, partition: usize, offset: usize, len: usize) -> Result<&[u8], OutOfRange> {
        let r = self.range(partition, offset, len)?;
        Ok(&self.data[r])
    }

    pub fn write(&mut self, partition: usize, offset: usize, bytes: &[u8]) -> Result<(), OutOfRange> {
        let r = self.range(partition, offset, bytes.len())?;
        self.data[r].copy_from_slice(bytes);
        Ok(())
    }

    /// One partition's bytes.
    pub fn partition(&self, p: usize) -> &[u8] {
        let start = (p.min(PARTITIONS - 1)) * self.partition_bytes;
        &self.data[start..start + self.partition_bytes]
    }
}

/// How fp32 sums are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SumOrder {
    /// Beats of 16 lanes, a log-step tree in each, beats left to right.
    #[default]
    Tree,
    /// Left to right.
    Sequential,
}

/// Lanes of fp32 in one 512-bit beat.
pub const BEAT_LANES: usize = 16;

/// The most elements one instruction may read (channels × the src pattern's
/// elements): 2^28, about 0.4 s of folding. A pattern may revisit bytes (a
/// step of 0), so its work is not bounded by the SBUF's size; callers refuse
/// an instruction beyond it with [`check_work`]'s `work:` message.
pub const MAX_WORK: u64 = 1 << 28;

/// `Err("work: …")` when `inst` would read more than [`MAX_WORK`] elements.
pub fn check_work(inst: &Instruction) -> Result<(), String> {
    let work = inst.raw().src.elements() as u128 * inst.channels() as u128;
    if work > MAX_WORK as u128 {
        return Err(format!(
            "work: the instruction reads {work} elements ({} channels × {} per channel), more than the {MAX_WORK} one instruction may read",
            inst.channels(),
            inst.raw().src.elements()
        ));
    }
    Ok(())
}

/// One beat's log-step tree (1 to 16 values).
fn beat_tree(v: &[f32]) -> f32 {
    let mut lanes = [0f32; BEAT_LANES];
    let mut n = v.len().min(BEAT_LANES);
    lanes[..n].copy_from_slice(&v[..n]);
    while n > 1 {
        let half = n / 2;
        for i in 0..half {
            lanes[i] = add(lanes[2 * i], lanes[2 * i + 1]);
        }
        if n % 2 == 1 {
            lanes[half] = lanes[n - 1];
        }
        n = n.div_ceil(2);
    }
    lanes[0]
}

/// One beat in the fixed 16-lane tree with a valid bit a lane (the
/// hardware's `BeatSum`, D54): neighbours added where both are valid, a
/// lone valid operand passed up, nothing where neither is; `None` when no
/// lane is valid. For a prefix of n lanes (a short beat) it is
/// [`beat_tree`] of those lanes.
pub fn beat_tree_masked(lanes: &[f32; BEAT_LANES], valid: u16) -> Option<f32> {
    let mut level: Vec<Option<f32>> = (0..BEAT_LANES).map(|l| (valid >> l & 1 == 1).then_some(lanes[l])).collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| match (p[0], p[1]) {
                (Some(a), Some(b)) => Some(add(a, b)),
                (a, b) => a.or(b),
            })
            .collect();
    }
    level[0]
}

/// Sum a non-empty sequence in the given order (an empty one sums to +0).
pub fn sum(values: &[f32], order: SumOrder) -> f32 {
    match order {
        SumOrder::Sequential => values.iter().copied().reduce(add).unwrap_or(0.0),
        SumOrder::Tree => {
            let mut beats = values.chunks(BEAT_LANES).map(beat_tree);
            let first = beats.next().unwrap_or(0.0);
            beats.fold(first, add)
        }
    }
}

/// maximumNumber over a sequence: NaNs never win, −0 < +0, all-NaN gives
/// the canonical quiet NaN. It is the golden model's one `rmaxnum`: values go
/// through `rmaxnum_n_2xf32_t` sixteen lanes at a time (unused lanes
/// predicated off), and the beats' results through it again.
pub fn maximum_number(values: &[f32]) -> f32 {
    let mut fold = ArithFold::new(ReduceOp::Max, SumOrder::Tree);
    values.iter().for_each(|&x| fold.push(x));
    fold.finish()
}

/// `rmaxnum_n_2xf32_t` of the first `n` of `lanes`.
fn rmaxnum(lanes: &[f32; BEAT_LANES], n: usize) -> f32 {
    let op = Op::new(Family::MaxNum, Form::F32, true);
    let words: Vec<u32> = lanes.iter().map(|x| x.to_bits()).collect();
    let vbool = (0..n.min(BEAT_LANES)).fold(0u64, |v, l| v | 1 << (4 * l));
    f32::from_bits(op.eval(&Vec512::from_lanes(32, &words), vbool).value)
}

/// An ARITH fold that takes values one at a time, holding one beat: memory
/// is independent of the number of values.
pub struct ArithFold {
    max: bool,
    order: SumOrder,
    beat: [f32; BEAT_LANES],
    n: usize,
    acc: Option<f32>,
}

impl ArithFold {
    pub fn new(op: ReduceOp, order: SumOrder) -> ArithFold {
        ArithFold { max: op == ReduceOp::Max, order, beat: [0.0; BEAT_LANES], n: 0, acc: None }
    }

    pub fn push(&mut self, x: f32) {
        if !self.max && self.order == SumOrder::Sequential {
            self.acc = Some(self.acc.map_or(x, |a| add(a, x)));
            return;
        }
        self.beat[self.n] = x;
        self.n += 1;
        if self.n == BEAT_LANES {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.n == 0 {
            return;
        }
        let b = if self.max { rmaxnum(&self.beat, self.n) } else { beat_tree(&self.beat[..self.n]) };
        self.n = 0;
        self.acc = Some(match self.acc {
            None => b,
            Some(a) if self.max => {
                let mut pair = [0.0; BEAT_LANES];
                pair[0] = a;
                pair[1] = b;
                rmaxnum(&pair, 2)
            }
            Some(a) => add(a, b),
        });
    }

    /// The result: +0 for an empty sum, the canonical NaN for an empty max.
    pub fn finish(mut self) -> f32 {
        self.flush();
        self.acc.unwrap_or(if self.max { f32::from_bits(CANONICAL_NAN) } else { 0.0 })
    }
}

/// One element's bits as the ARITH fold takes it: binary32, × scale for AVERAGE.
fn arith_value(inst: &Instruction, bits: u64) -> f32 {
    let x = inst.in_dtype.to_f32(bits);
    if inst.reduce_op == ReduceOp::Average {
        mul(x, inst.scale)
    } else {
        x
    }
}

/// What [`execute_observed`] shows of a run, fold by fold: the coverage
/// model's view ([`crate::coverage`]). Every method does nothing by default.
pub trait ExecObserver {
    /// An ARITH fold begins (axis All: the one; axis Partitions: a column's).
    fn begin_fold(&mut self) {}
    /// An ARITH element: its raw bits and the binary32 the fold takes
    /// (before the scale of AVERAGE).
    fn element(&mut self, _bits: u64, _value: f32) {}
    /// An ARITH fold's binary32 result and the bits written for it.
    fn folded(&mut self, _value: f32, _out: u64) {}
}

/// The observer that sees nothing: [`execute`]'s.
struct Unobserved;
impl ExecObserver for Unobserved {}

/// Call `f` on each element of one partition as binary32, in walk order.
fn each_f32(sbuf: &Sbuf, inst: &Instruction, p: usize, obs: &mut impl ExecObserver, mut f: impl FnMut(f32)) {
    let size = inst.in_dtype.size();
    let part = sbuf.partition(p);
    let src = &inst.raw.src;
    let dtype = inst.in_dtype;
    let average = inst.reduce_op == ReduceOp::Average;
    // Fast path: fp32 with a contiguous innermost dimension.
    if dtype == Dtype::Fp32 && src.step_elem[0] == 1 && !average {
        let n0 = src.num_elem[0] as usize;
        let [_, n1, n2, n3] = src.num_elem.map(|n| n as i64);
        let [_, s1, s2, s3] = src.step_elem.map(|s| s as i64);
        let base = src.offset() as i64;
        for i3 in 0..n3 {
            for i2 in 0..n2 {
                for i1 in 0..n1 {
                    let start = (base + (i1 * s1 + i2 * s2 + i3 * s3) * 4) as usize;
                    part[start..start + 4 * n0].chunks_exact(4).for_each(|c| {
                        let bits = [c[0], c[1], c[2], c[3]];
                        let x = canonical(f32::from_le_bytes(bits));
                        obs.element(u32::from_le_bytes(bits) as u64, x);
                        f(x)
                    });
                }
            }
        }
        return;
    }
    src.offsets(size).for_each(|o| {
        let bits = dtype.load_bits(&part[o..o + size]);
        obs.element(bits, dtype.to_f32(bits));
        f(arith_value(inst, bits))
    });
}

fn fold_bits(op: ReduceOp, values: impl Iterator<Item = u64>) -> u64 {
    match op {
        ReduceOp::BitwiseAnd => values.fold(u64::MAX, |a, b| a & b),
        ReduceOp::BitwiseOr => values.fold(0, |a, b| a | b),
        _ => values.fold(0, |a, b| a ^ b),
    }
}

/// The SBUF is not the size the instruction was validated against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbufMismatch {
    pub validated: usize,
    pub sbuf: usize,
}

impl std::fmt::Display for SbufMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the instruction was validated for partitions of {} bytes but the SBUF has {}",
            self.validated, self.sbuf
        )
    }
}

/// Run a validated instruction: read the src pattern in every active
/// partition, fold, and write the dst pattern. Validation guarantees every
/// access is inside an SBUF of the validated size.
///
/// When the writes happen (D58): axis All writes its one element after
/// every element is read. Axis Partitions folds column by column (element
/// k of the pattern in every active partition) and writes dst element k
/// before it reads column k + 1, so a dst that overlaps the src is seen by
/// the columns after the one that wrote it. The order depends on the
/// instruction alone; the RTL engine keeps it with an interlock.
pub fn execute(inst: &Instruction, sbuf: &mut Sbuf, order: SumOrder) -> Result<(), SbufMismatch> {
    execute_observed(inst, sbuf, order, &mut Unobserved)
}

/// [`execute`], showing `obs` each ARITH fold's elements and result.
pub fn execute_observed(
    inst: &Instruction,
    sbuf: &mut Sbuf,
    order: SumOrder,
    obs: &mut impl ExecObserver,
) -> Result<(), SbufMismatch> {
    if inst.partition_bytes != sbuf.partition_bytes {
        return Err(SbufMismatch { validated: inst.partition_bytes, sbuf: sbuf.partition_bytes });
    }
    let p0 = inst.raw.src.partition();
    let partitions = p0..p0 + inst.channels;
    let out_size = inst.out_dtype.size();
    let dst = inst.raw.dst;
    let dp = dst.partition();
    let write = |sbuf: &mut Sbuf, o: usize, value: u64| {
        // In range: rule 9 checked every byte of the dst pattern.
        let _ = sbuf.write(dp, o, &value.to_le_bytes()[..out_size]);
    };
    let size = inst.in_dtype.size();
    let src = &inst.raw.src;
    match (inst.opcode, inst.reduce_axis) {
        (Opcode::CrossLaneReduceArith, ReduceAxis::All) => {
            // Folded as the elements come: nothing is collected.
            let mut fold = ArithFold::new(inst.reduce_op, order);
            obs.begin_fold();
            for p in partitions {
                each_f32(sbuf, inst, p, obs, |x| fold.push(x));
            }
            let o = dst.offsets(out_size).next().unwrap_or(0);
            let value = fold.finish();
            let out = inst.out_dtype.from_f32(value);
            obs.folded(value, out);
            write(sbuf, o, out);
        }
        (Opcode::CrossLaneReduceBitvec, ReduceAxis::All) => {
            let bits = partitions.flat_map(|p| {
                let part = sbuf.partition(p);
                src.offsets(size).map(move |o| inst.in_dtype.load_bits(&part[o..o + size]))
            });
            let value = fold_bits(inst.reduce_op, bits);
            let o = dst.offsets(out_size).next().unwrap_or(0);
            write(sbuf, o, value);
        }
        (opcode, ReduceAxis::Partitions) => {
            for (so, o) in src.offsets(size).zip(dst.offsets(out_size)) {
                let element = |sbuf: &Sbuf, p: usize| inst.in_dtype.load_bits(&sbuf.partition(p)[so..so + size]);
                let value = if opcode == Opcode::CrossLaneReduceArith {
                    let mut fold = ArithFold::new(inst.reduce_op, order);
                    obs.begin_fold();
                    for p in partitions.clone() {
                        let bits = element(sbuf, p);
                        obs.element(bits, inst.in_dtype.to_f32(bits));
                        fold.push(arith_value(inst, bits));
                    }
                    let value = fold.finish();
                    let out = inst.out_dtype.from_f32(value);
                    obs.folded(value, out);
                    out
                } else {
                    fold_bits(inst.reduce_op, partitions.clone().map(|p| element(sbuf, p)))
                };
                write(sbuf, o, value);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_masked_tree_is_the_beat_tree_on_every_prefix() {
        let lanes: [f32; BEAT_LANES] = std::array::from_fn(|l| (l as f32 + 1.0) * if l % 3 == 0 { 1e7 } else { -0.3 });
        for n in 0..=BEAT_LANES {
            let valid = ((1u32 << n) - 1) as u16;
            let want = (n > 0).then(|| beat_tree(&lanes[..n]).to_bits());
            assert_eq!(beat_tree_masked(&lanes, valid).map(f32::to_bits), want, "{n} lanes");
        }
        // Lane 3 alone of the right half: passed up to the root's right side.
        let valid = 0b0000_0000_0000_1011;
        let want = add(add(lanes[0], lanes[1]), lanes[3]);
        assert_eq!(beat_tree_masked(&lanes, valid).map(f32::to_bits), Some(want.to_bits()));
    }

    #[test]
    fn beat_tree_pairs_neighbours_and_passes_the_odd_lane_up() {
        // ((a+b)+(c+d)) + e, not (((a+b)+c)+d)+e.
        let v = [1e8f32, 1.0, -1e8, 1.0, 0.5];
        assert_eq!(beat_tree(&v), ((1e8f32 + 1.0) + (-1e8 + 1.0)) + 0.5);
        assert_eq!(sum(&[-0.0], SumOrder::Tree).to_bits(), (-0.0f32).to_bits());
        assert_eq!(sum(&[-0.0, -0.0], SumOrder::Tree).to_bits(), (-0.0f32).to_bits());
        // 2^24 + 1 rounds back to 2^24; 2^24 + 2 is exact.
        let seq = [16_777_216f32, 1.0, 1.0, 1.0];
        assert_eq!(sum(&seq, SumOrder::Sequential), 16_777_216.0);
        assert_eq!(sum(&seq, SumOrder::Tree), 16_777_218.0);
        assert_ne!(sum(&seq, SumOrder::Tree), sum(&seq, SumOrder::Sequential));
    }

    #[test]
    fn beats_accumulate_left_to_right() {
        let v: Vec<f32> = (0..40).map(|i| i as f32 * 0.1).collect();
        let want = (beat_tree(&v[0..16]) + beat_tree(&v[16..32])) + beat_tree(&v[32..40]);
        assert_eq!(sum(&v, SumOrder::Tree).to_bits(), want.to_bits());
    }

    #[test]
    fn the_streaming_fold_matches_the_collected_one_at_every_length() {
        for n in [0usize, 1, 15, 16, 17, 33, 100] {
            let xs: Vec<f32> = (0..n).map(|i| ((i * 7919) % 23) as f32 - 11.5).collect();
            assert_eq!(
                ArithFold::finish({
                    let mut f = ArithFold::new(ReduceOp::Add, SumOrder::Tree);
                    xs.iter().for_each(|&x| f.push(x));
                    f
                })
                .to_bits(),
                if n == 0 { 0 } else { sum(&xs, SumOrder::Tree).to_bits() }
            );
            let want = xs.iter().copied().fold(f32::NAN, f32::max);
            let got = maximum_number(&xs);
            assert_eq!(got.to_bits(), if n == 0 { 0x7fc0_0000 } else { want.to_bits() }, "n = {n}");
        }
    }

    #[test]
    fn maximum_number_ignores_nans_and_orders_zeros() {
        assert_eq!(maximum_number(&[f32::NAN, -0.0, 0.0]).to_bits(), 0);
        assert_eq!(maximum_number(&[0.0, -0.0]).to_bits(), 0);
        assert_eq!(maximum_number(&[-0.0, f32::NAN]).to_bits(), 0x8000_0000);
        assert_eq!(maximum_number(&[f32::NAN, f32::NAN]).to_bits(), 0x7fc0_0000);
        assert_eq!(maximum_number(&[f32::NEG_INFINITY, -3.0]), -3.0);
    }
}

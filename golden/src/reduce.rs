//! The meaning of every primitive: one fold per [`Fold`], run over the lanes.
//!
//! The model folds the lanes in any order it likes: every fold here is
//! associative and commutative bit for bit (ops.md §2), so a flat scan, a
//! log-step tree and the hardware's pipelined tree all give the same bits.
//! Predicated (`_t`) forms replace inactive lanes by the op's identity before
//! the fold, exactly as the hardware does before its first level.

use crate::ops::{compress_vbool, lane_mask_all, Family, Fold, Form, Op};
use crate::vector::Vec512;
use std::ops::{BitAnd, BitOr, BitXor, Not};

mod tie;

/// The result of one primitive on one vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The result, in the low `result_bits` bits (two's complement when signed).
    pub value: u32,
    /// For the rb* ops: bit `l` set for every active lane equal to the result.
    pub mask: Option<u64>,
}

/// A lane's raw bits, 8, 16 or 32 wide.
trait Lane:
    Copy + Ord + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Not<Output = Self> + 'static
{
    const ZERO: Self;
    const ONES: Self;
    /// The lane width in bits.
    const BITS_: u32;

    /// The sign bit.
    const SIGN: Self;
    /// The bits of +infinity, for the float forms of this width.
    const INF: Self;
    /// The type whose native max/min the target vectorises best for this
    /// width (pmaxub for bytes, pmaxsw for halfwords).
    type Fast: Copy + Ord;
    const FAST_MIN: Self::Fast;
    const FAST_MAX: Self::Fast;
    /// Map a lane so that the Fast order is the signed (or unsigned) order.
    fn to_fast(self, signed: bool) -> Self::Fast;
    fn from_fast(x: Self::Fast, signed: bool) -> Self;
    /// The signed integer of the lane's width, whose order is the order of
    /// maximumNumber / minimumNumber keys.
    type Signed: Copy + Ord + Eq;
    /// The key that never wins: the most negative for max, the most
    /// positive for min.
    fn num_never(max: bool) -> Self::Signed;
    /// The key of maximumNumber (`max`) or minimumNumber: a number maps to
    /// its sign-magnitude bits made two's complement (−0 just below +0); a
    /// NaN maps to the end that never wins (the most negative key for max,
    /// the most positive for min). No number maps there: −inf keys above the
    /// most negative, and the most positive key is a NaN's bits.
    fn num_key(self, max: bool) -> Self::Signed;
    /// The number whose key is `key`.
    fn num_unkey(key: Self::Signed) -> Self;
    fn from_u32(x: u32) -> Self;
    fn to_u32(self) -> u32;
    /// Sign-extended to 32 bits.
    fn sext(self) -> i32;
    fn load<const L: usize>(v: &Vec512) -> [Self; L];
    /// The lanes straight from the bytes, lane 0 first.
    fn lanes(v: &Vec512) -> impl Iterator<Item = Self> + '_;
}

macro_rules! lane_impl {
    ($t:ty, $s:ty, $inf:expr, $fast:ty, $fast_signed:expr) => {
        impl Lane for $t {
            type Fast = $fast;
            const FAST_MIN: $fast = <$fast>::MIN;
            const FAST_MAX: $fast = <$fast>::MAX;
            #[inline(always)]
            fn to_fast(self, signed: bool) -> $fast {
                // Flip the sign bit when the wanted order differs from Fast's.
                let flip = if signed != $fast_signed { Self::SIGN } else { 0 };
                (self ^ flip) as $fast
            }
            #[inline(always)]
            fn from_fast(x: $fast, signed: bool) -> Self {
                let flip = if signed != $fast_signed { Self::SIGN } else { 0 };
                (x as $t) ^ flip
            }
            type Signed = $s;
            #[inline(always)]
            fn num_never(max: bool) -> $s {
                if max {
                    <$s>::MIN
                } else {
                    <$s>::MAX
                }
            }
            // Bytes have no float form: their INF is all ones and no byte is a NaN.
            #[allow(clippy::bad_bit_mask)]
            #[inline(always)]
            fn num_key(self, max: bool) -> $s {
                if (self & !Self::SIGN) > Self::INF {
                    Self::num_never(max)
                } else {
                    Self::num_unkey(self as $s) as $s
                }
            }
            #[inline(always)]
            fn num_unkey(key: $s) -> Self {
                // Flipping the magnitude bits of negative values is its own inverse.
                (key ^ ((key >> (<$s>::BITS - 1)) & <$s>::MAX)) as $t
            }
            const ZERO: Self = 0;
            const BITS_: u32 = <$t>::BITS;
            const ONES: Self = <$t>::MAX;
            const SIGN: Self = 1 << (<$t>::BITS - 1);
            const INF: Self = $inf;
            #[inline(always)]
            fn from_u32(x: u32) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u32(self) -> u32 {
                self as u32
            }
            #[inline(always)]
            fn sext(self) -> i32 {
                self as $s as i32
            }
            #[inline(always)]
            fn lanes(v: &Vec512) -> impl Iterator<Item = Self> + '_ {
                const N: usize = std::mem::size_of::<$t>();
                v.0.chunks_exact(N).map(|c| <$t>::from_le_bytes(c.try_into().unwrap_or([0; N])))
            }
            #[inline(always)]
            fn load<const L: usize>(v: &Vec512) -> [Self; L] {
                let mut out = [0 as $t; L];
                for (o, x) in out.iter_mut().zip(Self::lanes(v)) {
                    *o = x;
                }
                out
            }
        }
    };
}

lane_impl!(u8, i8, 0xff, u8, false);
lane_impl!(u16, i16, 0x7c00, i16, true);
lane_impl!(u32, i32, 0x7f80_0000, i32, true);

/// One value op on one vector, with `active` the lane mask (all lanes for a
/// base op).
#[inline(always)]
fn reduce<T: Lane, const L: usize>(op: Op, v: &Vec512, active: u64) -> Outcome {
    let mut x: [T; L] = T::load(v);
    if active != lane_mask_all(L) {
        let id = T::from_u32(op.identity());
        for (l, lane) in x.iter_mut().enumerate() {
            if (active >> l) & 1 == 0 {
                *lane = id;
            }
        }
    }
    let result_mask = lane_mask_all(op.result_bits() as usize) as u32;
    let value = match op.family.fold() {
        Fold::Sum { signed: true, saturate } => {
            let s = x.iter().fold(0i32, |a, &b| a.wrapping_add(b.sext()));
            if saturate {
                s.clamp(i16::MIN as i32, i16::MAX as i32) as u32 & result_mask
            } else {
                s as u32 & result_mask
            }
        }
        Fold::Sum { signed: false, .. } => sum_unsigned(x.iter().copied()) & result_mask,
        Fold::Extremum { signed, max } => {
            let value = extremum_of(x.iter().copied(), signed, max);
            if op.family.has_mask() {
                // Active lanes hold their own bits, so the raw vector's ties,
                // restricted to the active lanes, are the tie set.
                return Outcome {
                    value: value.to_u32(),
                    mask: Some(tie::tie_mask(T::BITS_, v, value.to_u32()) & active),
                };
            }
            value.to_u32()
        }
        Fold::Num { max: true } => num_fold::<T, L, true>(&x, op.identity()),
        Fold::Num { max: false } => num_fold::<T, L, false>(&x, op.identity()),
        fold @ (Fold::And | Fold::Or | Fold::Xor) => bitwise(fold, x.iter().copied()),
    };
    Outcome { value, mask: None }
}

/// The vbool folds: AND / OR of the lane predicates.
fn vbool_fold(op: Op, vbool: u64) -> Outcome {
    let preds = compress_vbool(vbool, op.form);
    let all = lane_mask_all(op.lanes());
    let value = match op.family {
        Family::AndB => preds == all,
        _ => preds != 0,
    };
    Outcome { value: value as u32, mask: None }
}

impl Op {
    /// Run the primitive. `vbool` is the predicate of a `_t` op and the input
    /// of a vbool fold; other ops ignore it (and vbool folds ignore `vec`).
    pub fn eval(self, vec: &Vec512, vbool: u64) -> Outcome {
        if self.family.is_vbool_fold() {
            return vbool_fold(self, vbool);
        }
        let active = self.active_lanes(vbool);
        match self.form {
            Form::B8 => reduce::<u8, 64>(self, vec, active),
            Form::H16 | Form::F16 => reduce::<u16, 32>(self, vec, active),
            Form::W32 | Form::F32 => reduce::<u32, 16>(self, vec, active),
        }
    }
}

/// Why a batch could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchLengthError {
    pub vectors: usize,
    pub vbools: usize,
}

impl std::fmt::Display for BatchLengthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "batch has {} vectors but {} vbools; give one vbool per case or none", self.vectors, self.vbools)
    }
}

impl std::error::Error for BatchLengthError {}

/// Results of a batch as two columns: every value, and for the rb* ops
/// every mask (empty for other ops). Columns keep the hot loop's stores
/// small: 4 bytes a case, 12 for rb*, instead of a 24-byte [`Outcome`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchOut {
    pub values: Vec<u32>,
    pub masks: Vec<u64>,
}

impl BatchOut {
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Case `i` as an [`Outcome`].
    pub fn get(&self, i: usize) -> Option<Outcome> {
        let value = *self.values.get(i)?;
        Some(Outcome { value, mask: self.masks.get(i).copied() })
    }

    pub fn outcomes(&self) -> impl Iterator<Item = Outcome> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    fn clear(&mut self) {
        self.values.clear();
        self.masks.clear();
    }
}

/// Signed sum of the lanes, wrapping at 32 bits.
///
/// The seed's bias trick, as the hardware does it: a lane's signed value is
/// its sign-flipped bits read unsigned, minus 2^(w-1); so the signed sum is
/// the unsigned sum of the flipped lanes minus lanes × 2^(w-1). Unsigned
/// lanes add without widening each to i32 first (for bytes, 2.6× faster).
#[inline(always)]
fn sum_signed<T: Lane>(v: &Vec512) -> i32 {
    let n = T::BITS_ as usize / 8;
    // Flip the sign bits in the bytes, before the lanes widen.
    let flipped = Vec512(std::array::from_fn(|i| v.0[i] ^ if i % n == n - 1 { 0x80 } else { 0 }));
    let flipped = T::lanes(&flipped).fold(0u32, |a, b| a.wrapping_add(b.to_u32()));
    let lanes = 512 / T::BITS_;
    flipped.wrapping_sub(lanes.wrapping_mul(T::SIGN.to_u32())) as i32
}

/// Extremum of the lanes of a vector in the Fast order.
#[inline(always)]
fn extremum<T: Lane>(v: &Vec512, signed: bool, max: bool) -> T {
    extremum_of(T::lanes(v), signed, max)
}

/// The one extremum kernel, over any lanes (the batch loop's and the
/// single case's).
#[inline(always)]
fn extremum_of<T: Lane>(lanes: impl Iterator<Item = T>, signed: bool, max: bool) -> T {
    let keys = lanes.map(|x| x.to_fast(signed));
    let best = if max { keys.fold(T::FAST_MIN, |a, b| a.max(b)) } else { keys.fold(T::FAST_MAX, |a, b| a.min(b)) };
    T::from_fast(best, signed)
}

/// The one unsigned-sum kernel, wrapping at 32 bits.
#[inline(always)]
fn sum_unsigned<T: Lane>(lanes: impl Iterator<Item = T>) -> u32 {
    lanes.fold(0u32, |a, b| a.wrapping_add(b.to_u32()))
}

/// The one kernel of the bitwise folds.
#[inline(always)]
fn bitwise<T: Lane>(fold: Fold, lanes: impl Iterator<Item = T>) -> u32 {
    match fold {
        Fold::And => lanes.fold(T::ONES, |a, b| a & b).to_u32(),
        Fold::Or => lanes.fold(T::ZERO, |a, b| a | b).to_u32(),
        _ => lanes.fold(T::ZERO, |a, b| a ^ b).to_u32(),
    }
}

/// maximumNumber (`MAX`) or minimumNumber of the lanes, by a log-step tree
/// over their keys (each level one vertical max or min, which vectorises);
/// `all_nan` when every lane is a NaN.
#[inline(always)]
fn num_fold<T: Lane, const L: usize, const MAX: bool>(x: &[T; L], all_nan: u32) -> u32 {
    let mut k: [T::Signed; L] = std::array::from_fn(|l| x[l].num_key(MAX));
    let mut w = L / 2;
    while w > 0 {
        for j in 0..w {
            k[j] = if MAX { k[j].max(k[j + w]) } else { k[j].min(k[j + w]) };
        }
        w /= 2;
    }
    if k[0] == T::num_never(MAX) {
        all_nan
    } else {
        T::num_unkey(k[0]).to_u32()
    }
}

/// The batch loop of the max / min folds, one loop per order; the rb* ops
/// compute the value and the tie mask in one pass, while the vector is in
/// registers.
fn batch_extremum<T: Lane, const SIGNED: bool, const MAX: bool>(vecs: &[Vec512], with_mask: bool, out: &mut BatchOut) {
    let value = |v: &Vec512| extremum::<T>(v, SIGNED, MAX);
    if !with_mask {
        out.values.extend(vecs.iter().map(|v| value(v).to_u32()));
        return;
    }
    out.values.resize(vecs.len(), 0);
    out.masks.resize(vecs.len(), 0);
    for ((v, x), m) in vecs.iter().zip(out.values.iter_mut()).zip(out.masks.iter_mut()) {
        let best = value(v).to_u32();
        *x = best;
        *m = tie::tie_mask(T::BITS_, v, best);
    }
}

/// The batch loop of a base op (every lane active), one tight loop per
/// fold: the per-case work is only the fold itself.
fn batch_full<T: Lane, const L: usize>(op: Op, vecs: &[Vec512], out: &mut BatchOut) {
    let rm = lane_mask_all(op.result_bits() as usize) as u32;
    let vals = &mut out.values;
    match op.family.fold() {
        Fold::Sum { signed: true, saturate: false } => vals.extend(vecs.iter().map(|v| sum_signed::<T>(v) as u32 & rm)),
        Fold::Sum { signed: true, saturate: true } => {
            vals.extend(vecs.iter().map(|v| sum_signed::<T>(v) as u32));
            // Saturate in a second pass over the column: it keeps the sum loop
            // the same tight loop as radd's.
            for x in vals.iter_mut() {
                *x = (*x as i32).clamp(i16::MIN as i32, i16::MAX as i32) as u32 & rm;
            }
        }
        Fold::Sum { signed: false, .. } => vals.extend(vecs.iter().map(|v| sum_unsigned(T::lanes(v)) & rm)),
        Fold::Extremum { signed, max } => {
            let with_mask = op.family.has_mask();
            match (signed, max) {
                (true, true) => batch_extremum::<T, true, true>(vecs, with_mask, out),
                (true, false) => batch_extremum::<T, true, false>(vecs, with_mask, out),
                (false, true) => batch_extremum::<T, false, true>(vecs, with_mask, out),
                (false, false) => batch_extremum::<T, false, false>(vecs, with_mask, out),
            }
        }
        Fold::Num { max: true } => vals.extend(vecs.iter().map(|v| num_fold::<T, L, true>(&T::load(v), op.identity()))),
        Fold::Num { max: false } => {
            vals.extend(vecs.iter().map(|v| num_fold::<T, L, false>(&T::load(v), op.identity())))
        }
        // One arm per fold, so the kernel's match folds away in each loop.
        Fold::And => vals.extend(vecs.iter().map(|v| bitwise(Fold::And, T::lanes(v)))),
        Fold::Or => vals.extend(vecs.iter().map(|v| bitwise(Fold::Or, T::lanes(v)))),
        Fold::Xor => vals.extend(vecs.iter().map(|v| bitwise(Fold::Xor, T::lanes(v)))),
    }
}

/// The batch loop: base ops (or no vbools) take [`batch_full`]; `_t` ops
/// with their vbools fold case by case.
#[inline(never)]
fn batch_of<T: Lane, const L: usize>(op: Op, vecs: &[Vec512], vbools: Option<&[u64]>, out: &mut BatchOut) {
    let vb = match vbools {
        Some(vb) if op.predicated => vb,
        _ => return batch_full::<T, L>(op, vecs, out),
    };
    let cases = vecs.iter().zip(vb);
    if op.family.has_mask() {
        for (v, &p) in cases {
            let o = reduce::<T, L>(op, v, op.active_lanes(p));
            out.values.push(o.value);
            out.masks.push(o.mask.unwrap_or(0));
        }
    } else {
        out.values.extend(cases.map(|(v, &p)| reduce::<T, L>(op, v, op.active_lanes(p)).value));
    }
}

/// Run one primitive over many cases.
///
/// `vbools`, when given, holds one vbool per case (the predicate of a `_t`
/// op); `None` means every lane is active. A vbool fold reads only `vbools`
/// (its `vecs` may be empty). Results come back in case order.
pub fn eval_batch(op: Op, vecs: &[Vec512], vbools: Option<&[u64]>) -> Result<Vec<Outcome>, BatchLengthError> {
    let mut out = BatchOut::default();
    eval_batch_into(op, vecs, vbools, &mut out)?;
    Ok(out.outcomes().collect())
}

/// [`eval_batch`] into a caller's columns (cleared first), so repeated
/// batches reuse one allocation. On error `out` is left empty.
pub fn eval_batch_into(
    op: Op,
    vecs: &[Vec512],
    vbools: Option<&[u64]>,
    out: &mut BatchOut,
) -> Result<(), BatchLengthError> {
    out.clear();
    if op.family.is_vbool_fold() {
        let vb = vbools.unwrap_or(&[]);
        if !vecs.is_empty() && vecs.len() != vb.len() {
            return Err(BatchLengthError { vectors: vecs.len(), vbools: vb.len() });
        }
        out.values.extend(vb.iter().map(|&p| vbool_fold(op, p).value));
        return Ok(());
    }
    if let Some(vb) = vbools {
        if vb.len() != vecs.len() {
            return Err(BatchLengthError { vectors: vecs.len(), vbools: vb.len() });
        }
    }
    out.values.reserve(vecs.len());
    if op.family.has_mask() {
        out.masks.reserve(vecs.len());
    }
    match op.form {
        Form::B8 => batch_of::<u8, 64>(op, vecs, vbools, out),
        Form::H16 | Form::F16 => batch_of::<u16, 32>(op, vecs, vbools, out),
        Form::W32 | Form::F32 => batch_of::<u32, 16>(op, vecs, vbools, out),
    }
    Ok(())
}

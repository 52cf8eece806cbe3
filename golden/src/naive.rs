//! A deliberately naive second model — i128 sums, sorted lanes, floats
//! through f64, one lane at a time — written apart from `reduce.rs` so the two
//! can check each other (`crosslane verify` and the tests do). Slow on
//! purpose: it is the obvious reading of ops.md, not the fast one.

use crate::ops::{Family, Form, Op};
use crate::vector::Vec512;

fn sext(x: u32, bits: u32) -> i128 {
    ((x as i128) << (128 - bits)) >> (128 - bits)
}

fn f16_to_f64(h: u32) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let man = (h & 0x3ff) as f64;
    match exp {
        0 => sign * man * 2f64.powi(-24),
        31 if man == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + man / 1024.0) * 2f64.powi(e as i32 - 15),
    }
}

fn as_f64(x: u32, form: Form) -> f64 {
    match form {
        Form::F16 => f16_to_f64(x),
        _ => f32::from_bits(x) as f64,
    }
}

/// The reference: (value, mask) for one case.
pub fn naive(op: Op, vec: &Vec512, vbool: u64) -> (u32, Option<u64>) {
    let form = op.form;
    let bits = form.lane_bits();
    let stride = form.vbool_stride();
    let pred = |l: usize| (vbool >> (l as u32 * stride)) & 1 == 1;
    if op.family.is_vbool_fold() {
        let all = (0..op.lanes()).all(pred);
        let any = (0..op.lanes()).any(pred);
        return ((if op.family == Family::AndB { all } else { any }) as u32, None);
    }
    let active: Vec<usize> = (0..op.lanes()).filter(|&l| !op.predicated || pred(l)).collect();
    let lanes: Vec<u32> = active.iter().map(|&l| vec.lane(bits, l)).collect();
    let res_mask = if op.result_bits() == 32 { u32::MAX } else { (1u32 << op.result_bits()) - 1 };
    let ones = if bits == 32 { u32::MAX } else { (1u32 << bits) - 1 };
    let int_extremum = |signed: bool, max: bool| -> Option<u32> {
        let mut sorted: Vec<(i128, u32)> =
            lanes.iter().map(|&x| (if signed { sext(x, bits) } else { x as i128 }, x)).collect();
        sorted.sort();
        let pick = if max { sorted.last() } else { sorted.first() };
        pick.map(|p| p.1)
    };
    use Family::*;
    let value = match op.family {
        Add => (lanes.iter().map(|&x| sext(x, bits)).sum::<i128>() as u32) & res_mask,
        AddU => (lanes.iter().map(|&x| x as i128).sum::<i128>() as u32) & res_mask,
        AddS => {
            let s: i128 = lanes.iter().map(|&x| sext(x, bits)).sum();
            (s.clamp(-32768, 32767) as u32) & 0xffff
        }
        Max | BMax => int_extremum(true, true).unwrap_or(1 << (bits - 1)),
        Min | BMin => int_extremum(true, false).unwrap_or(ones >> 1),
        MaxU | BMaxU => int_extremum(false, true).unwrap_or(0),
        MinU | BMinU => int_extremum(false, false).unwrap_or(ones),
        MaxNum | MinNum => {
            let mut nums: Vec<u32> = lanes.iter().copied().filter(|&x| !as_f64(x, form).is_nan()).collect();
            nums.sort_by(|a, b| as_f64(*a, form).total_cmp(&as_f64(*b, form)));
            let pick = if op.family == MaxNum { nums.last() } else { nums.first() };
            pick.copied().unwrap_or(if form == Form::F16 { 0x7e00 } else { 0x7fc0_0000 })
        }
        And => lanes.iter().fold(ones, |a, &b| a & b),
        Or => lanes.iter().fold(0, |a, &b| a | b),
        Xor => lanes.iter().fold(0, |a, &b| a ^ b),
        AndB | OrB => 0, // answered above
    };
    let mask = op
        .family
        .has_mask()
        .then(|| active.iter().filter(|&&l| vec.lane(bits, l) == value).fold(0u64, |m, &l| m | 1 << l));
    (value, mask)
}

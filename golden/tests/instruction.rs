//! The CrossLaneReduce instruction: codec round trip, every validation rule
//! on both sides of its boundary, execution semantics, and a naive
//! reference on random valid instructions.

use crosslane_golden::instruction::exec::{execute, Sbuf, SumOrder};
use crosslane_golden::instruction::{Dtype, RawInstruction, ReduceAxis, ReduceOp, Reject, Tensor4d};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const PB: usize = 4096;

fn tensor(partition: usize, offset: usize, step: [i16; 4], num: [u16; 4]) -> Tensor4d {
    Tensor4d { start_addr: Tensor4d::immediate(partition, offset), step_elem: step, num_elem: num }
}

/// A valid ARITH ADD over 4 fp32 elements in partitions 0..2, All axis.
fn base() -> RawInstruction {
    RawInstruction {
        opcode: 0x7c,
        header: [1, 2, 3],
        events: [9; 8],
        src: tensor(0, 0, [1, 4, 4, 4], [4, 1, 1, 1]),
        in_dtype: Dtype::Fp32.code(),
        out_dtype: Dtype::Fp32.code(),
        num_active_channels: 2,
        reduce_op: ReduceOp::Add as u8,
        reduce_axis: ReduceAxis::All as u8,
        reserved0: [0; 3],
        scale: 1f32.to_bits(),
        dst: tensor(5, 64, [1, 1, 1, 1], [1, 1, 1, 1]),
    }
}

fn rule(raw: &RawInstruction) -> Option<String> {
    raw.validate(PB).err().map(|e| {
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("{}: ", e.rule())), "{msg}");
        e.rule()
    })
}

fn accepts(f: impl Fn(&mut RawInstruction)) {
    let mut r = base();
    f(&mut r);
    assert_eq!(rule(&r), None, "{r:?}: {:?}", r.validate(PB).err().map(|e| e.to_string()));
}

fn rejects(want: &str, f: impl Fn(&mut RawInstruction)) {
    let mut r = base();
    f(&mut r);
    assert_eq!(rule(&r).as_deref(), Some(want), "{r:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any 64 bytes decode and encode back exactly (header and events too),
    /// and validation always decides without panicking.
    #[test]
    fn any_bytes_round_trip_and_get_a_decision(bytes in prop::array::uniform32(any::<u8>()), rest in prop::array::uniform32(any::<u8>())) {
        let mut b = [0u8; 64];
        b[..32].copy_from_slice(&bytes);
        b[32..].copy_from_slice(&rest);
        let raw = RawInstruction::decode(&b);
        prop_assert_eq!(raw.encode(), b);
        prop_assert_eq!(RawInstruction::from_hex(&raw.to_hex()).unwrap(), raw);
        let _ = raw.validate(PB);
    }

    /// Mostly-valid instructions (small fields) execute without panicking.
    #[test]
    fn valid_instructions_always_execute(
        op in 0u8..6, axis in 0u8..2, ind in 1u8..16, outd in 1u8..16, ch in 1u8..4,
        step in prop::array::uniform4(-3i16..4), num in prop::array::uniform4(1u16..4), off in 0usize..64,
    ) {
        let mut r = base();
        r.opcode = if op < 3 { 0x7c } else { 0x7d };
        r.reduce_op = op;
        r.reduce_axis = axis;
        r.in_dtype = ind;
        r.out_dtype = outd;
        r.num_active_channels = ch;
        r.src = tensor(0, off * 8 + 512, step, num);
        r.dst = if axis == 0 { tensor(9, 16, [1; 4], [1; 4]) } else { tensor(9, 1024, step, num) };
        if let Ok(inst) = r.validate(PB) {
            let mut sbuf = Sbuf::new(PB);
            execute(&inst, &mut sbuf, SumOrder::Tree).unwrap();
        }
    }
}

#[test]
fn rule_opcode() {
    accepts(|r| r.opcode = 0x7c);
    rejects("opcode", |r| r.opcode = 0x7b);
    rejects("opcode", |r| r.opcode = 0x7e);
    accepts(|r| {
        r.opcode = 0x7d;
        r.reduce_op = ReduceOp::BitwiseOr as u8;
        r.in_dtype = Dtype::Int32.code();
        r.out_dtype = Dtype::Uint32.code();
    });
}

#[test]
fn rule_reserved() {
    rejects("reserved", |r| r.reserved0 = [0, 0, 1]);
    rejects("reserved", |r| r.in_dtype = 0x1a);
    rejects("reserved", |r| r.out_dtype = 0x8a);
    accepts(|r| r.reserved0 = [0, 0, 0]);
}

#[test]
fn rule_in_dtype() {
    rejects("in_dtype", |r| r.in_dtype = Dtype::Fp32r.code());
    rejects("in_dtype", |r| r.in_dtype = Dtype::Invalid.code());
    accepts(|r| r.in_dtype = Dtype::Fp32.code());
}

#[test]
fn rule_out_dtype() {
    accepts(|r| r.out_dtype = Dtype::Fp32r.code());
    rejects("out_dtype", |r| r.out_dtype = Dtype::Invalid.code());
}

#[test]
fn rule_reduce_op() {
    rejects("reduce_op", |r| r.reduce_op = 6);
    rejects("reduce_op", |r| r.reduce_op = ReduceOp::BitwiseOr as u8);
    rejects("reduce_op", |r| {
        r.opcode = 0x7d;
        r.reduce_op = ReduceOp::Add as u8;
    });
    accepts(|r| r.reduce_op = ReduceOp::Max as u8);
    accepts(|r| r.reduce_op = ReduceOp::Average as u8);
}

#[test]
fn rule_reduce_axis() {
    rejects("reduce_axis", |r| r.reduce_axis = 2);
    accepts(|r| {
        r.reduce_axis = 1;
        r.dst = tensor(5, 64, [1; 4], [4, 1, 1, 1]);
    });
}

#[test]
fn rule_active_channels() {
    accepts(|r| {
        r.src = tensor(127, 0, [1; 4], [4, 1, 1, 1]);
        r.num_active_channels = 1;
    });
    rejects("active_channels", |r| {
        r.src = tensor(127, 0, [1; 4], [4, 1, 1, 1]);
        r.num_active_channels = 2;
    });
    rejects("active_channels", |r| r.num_active_channels = 0);
    accepts(|r| r.num_active_channels = 128);
}

#[test]
fn rule_addresses() {
    rejects("src_addr", |r| r.src.start_addr |= 0x8000_0000);
    rejects("src_addr", |r| r.src.start_addr |= 0x2000_0000);
    rejects("src_addr", |r| r.src.start_addr |= 0x1000_0000);
    rejects("dst_addr", |r| r.dst.start_addr |= 0x4000_0000);
    accepts(|r| r.dst.start_addr = Tensor4d::immediate(127, 0));
}

#[test]
fn rule_tensors() {
    rejects("src_tensor", |r| r.src.num_elem[2] = 0);
    rejects("dst_tensor", |r| r.dst.num_elem[0] = 0);
    // The last fp32 ends exactly at the partition's end, then one past it.
    accepts(|r| r.src = tensor(0, PB - 16, [1; 4], [4, 1, 1, 1]));
    rejects("src_tensor", |r| r.src = tensor(0, PB - 12, [1; 4], [4, 1, 1, 1]));
    // A negative stride may reach byte 0 but not below it.
    accepts(|r| r.src = tensor(0, 12, [-1, 1, 1, 1], [4, 1, 1, 1]));
    rejects("src_tensor", |r| r.src = tensor(0, 8, [-1, 1, 1, 1], [4, 1, 1, 1]));
    rejects("src_tensor", |r| r.src = tensor(0, 2, [1; 4], [4, 1, 1, 1]));
    rejects("dst_tensor", |r| r.dst = tensor(0, PB, [1; 4], [1; 4]));
    // Alignment follows the dtype: 2 is fine for fp16.
    accepts(|r| {
        r.in_dtype = Dtype::Fp16.code();
        r.src = tensor(0, 2, [1; 4], [4, 1, 1, 1]);
    });
}

#[test]
fn rule_dst_elements() {
    rejects("dst_elements", |r| r.dst.num_elem = [2, 1, 1, 1]);
    rejects("dst_elements", |r| {
        r.reduce_axis = 1;
        r.dst.num_elem = [3, 1, 1, 1];
    });
    accepts(|r| {
        r.reduce_axis = 1;
        r.dst = tensor(3, 0, [1, 2, 1, 1], [2, 2, 1, 1]);
    });
}

#[test]
fn rule_bitvec_dtype() {
    let bitvec = |r: &mut RawInstruction| {
        r.opcode = 0x7d;
        r.reduce_op = ReduceOp::BitwiseXor as u8;
    };
    rejects("bitvec_dtype", |r| {
        bitvec(r);
        r.in_dtype = Dtype::Fp32.code();
        r.out_dtype = Dtype::Uint32.code();
    });
    rejects("bitvec_dtype", |r| {
        bitvec(r);
        r.in_dtype = Dtype::Int64.code();
        r.out_dtype = Dtype::Int64.code();
        r.src = tensor(0, 0, [1; 4], [2, 1, 1, 1]);
        r.dst = tensor(0, 64, [1; 4], [1; 4]);
    });
    rejects("bitvec_dtype", |r| {
        bitvec(r);
        r.in_dtype = Dtype::Uint16.code();
        r.out_dtype = Dtype::Uint8.code();
    });
    accepts(|r| {
        bitvec(r);
        r.in_dtype = Dtype::Uint16.code();
        r.out_dtype = Dtype::Int16.code();
    });
}

#[test]
fn rules_are_checked_in_order() {
    let mut r = base();
    r.opcode = 0;
    r.reserved0 = [1, 0, 0];
    r.num_active_channels = 0;
    assert_eq!(rule(&r).as_deref(), Some("opcode"));
    r.opcode = 0x7c;
    assert_eq!(rule(&r).as_deref(), Some("reserved"));
    r.reserved0 = [0; 3];
    assert_eq!(rule(&r).as_deref(), Some("active_channels"));
    let msg = {
        let mut r = base();
        r.src = tensor(120, 0, [1; 4], [4, 1, 1, 1]);
        r.num_active_channels = 16;
        r.validate(PB).unwrap_err().to_string()
    };
    assert_eq!(msg, "active_channels: start partition 120 + 16 channels > 128");
}

/// Write `values` of `dtype` along a tensor pattern in partition `p`.
fn put(sbuf: &mut Sbuf, p: usize, t: &Tensor4d, dtype: Dtype, values: &[u64]) {
    for (o, v) in t.offsets(dtype.size()).zip(values) {
        sbuf.write(p, o, &v.to_le_bytes()[..dtype.size()]).unwrap();
    }
}

fn get(sbuf: &Sbuf, p: usize, t: &Tensor4d, dtype: Dtype) -> Vec<u64> {
    t.offsets(dtype.size()).map(|o| dtype.load_bits(sbuf.read(p, o, dtype.size()).unwrap())).collect()
}

/// The naive reference: explicit loops, f64 accumulation (exact for the
/// small values used), the same conversions.
fn naive(raw: &RawInstruction, sbuf: &Sbuf) -> Vec<u64> {
    let inst = raw.validate(PB).unwrap();
    let p0 = raw.src.partition();
    let mut per: Vec<Vec<u64>> = Vec::new();
    for p in p0..p0 + inst.channels() {
        let mut v = Vec::new();
        let s = raw.src;
        for i3 in 0..s.num_elem[3] as i64 {
            for i2 in 0..s.num_elem[2] as i64 {
                for i1 in 0..s.num_elem[1] as i64 {
                    for i0 in 0..s.num_elem[0] as i64 {
                        let e = i0 * s.step_elem[0] as i64
                            + i1 * s.step_elem[1] as i64
                            + i2 * s.step_elem[2] as i64
                            + i3 * s.step_elem[3] as i64;
                        let o = (s.offset() as i64 + e * inst.in_dtype().size() as i64) as usize;
                        v.push(inst.in_dtype().load_bits(sbuf.read(p, o, inst.in_dtype().size()).unwrap()));
                    }
                }
            }
        }
        per.push(v);
    }
    let groups: Vec<Vec<u64>> = match inst.reduce_axis() {
        ReduceAxis::All => vec![per.concat()],
        ReduceAxis::Partitions => (0..per[0].len()).map(|k| per.iter().map(|v| v[k]).collect()).collect(),
    };
    groups
        .iter()
        .map(|g| match inst.reduce_op() {
            ReduceOp::BitwiseOr => g.iter().fold(0, |a, b| a | b),
            ReduceOp::BitwiseAnd => g.iter().fold(u64::MAX, |a, b| a & b),
            ReduceOp::BitwiseXor => g.iter().fold(0, |a, b| a ^ b),
            op => {
                let xs: Vec<f32> = g.iter().map(|&b| inst.in_dtype().to_f32(b)).collect();
                let r = match op {
                    ReduceOp::Add => xs.iter().map(|&x| x as f64).sum::<f64>() as f32,
                    ReduceOp::Average => xs.iter().map(|&x| (x * inst.scale()) as f64).sum::<f64>() as f32,
                    _ => naive_maximum_number(&xs),
                };
                inst.out_dtype().from_f32(r)
            }
        })
        .map(|v| v & if inst.out_dtype().size() == 8 { u64::MAX } else { (1u64 << (8 * inst.out_dtype().size())) - 1 })
        .collect()
}

/// maximumNumber written here, apart from the model: the largest number by
/// value, +0 over −0, NaNs skipped, the canonical quiet NaN when none is left.
fn naive_maximum_number(xs: &[f32]) -> f32 {
    let mut best: Option<f32> = None;
    for &x in xs.iter().filter(|x| !x.is_nan()) {
        best = Some(match best {
            None => x,
            Some(b) if x > b || (x == 0.0 && b == 0.0 && b.is_sign_negative() && x.is_sign_positive()) => x,
            Some(b) => b,
        });
    }
    best.unwrap_or(f32::from_bits(0x7fc0_0000))
}

/// A small value of `dtype` whose sums stay exact in fp32 and f64.
fn small_value(rng: &mut ChaCha8Rng, dtype: Dtype) -> u64 {
    let x: i32 = rng.gen_range(-8..=8);
    match dtype {
        d if d.is_integer() => {
            let x = if matches!(d, Dtype::Uint8 | Dtype::Uint16 | Dtype::Uint32 | Dtype::Uint64) { x.abs() } else { x };
            (x as i64 as u64) & if d.size() == 8 { u64::MAX } else { (1u64 << (8 * d.size())) - 1 }
        }
        d => d.from_f32(x as f32 * 0.5),
    }
}

#[test]
fn random_valid_instructions_match_the_naive_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x1257);
    let dtypes: Vec<Dtype> = Dtype::ALL.into_iter().filter(|d| *d != Dtype::Invalid && *d != Dtype::Fp32r).collect();
    let mut checked = 0;
    for _ in 0..3000 {
        let mut r = base();
        let op = ReduceOp::ALL[rng.gen_range(0..6)];
        r.reduce_op = op as u8;
        r.opcode = op.opcode() as u8;
        let ind = dtypes[rng.gen_range(0..dtypes.len())];
        let outd = if r.opcode == 0x7d { ind } else { Dtype::ALL[rng.gen_range(1..16)] };
        r.in_dtype = ind.code();
        r.out_dtype = outd.code();
        r.scale = [1.0f32, 0.5, -2.0, 0.25][rng.gen_range(0..4)].to_bits();
        let axis = rng.gen_range(0..2);
        r.reduce_axis = axis;
        let step: [i16; 4] = std::array::from_fn(|_| rng.gen_range(-3..=3));
        let num: [u16; 4] = std::array::from_fn(|d| rng.gen_range(1..=if d < 2 { 5 } else { 2 }));
        let p0 = rng.gen_range(0..120);
        r.num_active_channels = rng.gen_range(1..=(128 - p0) as u8);
        r.src = tensor(p0, 1024 + 8 * rng.gen_range(0..16), step, num);
        r.dst = if axis == 0 {
            tensor(rng.gen_range(0..128), 2048, [1; 4], [1; 4])
        } else {
            tensor(rng.gen_range(0..128), 3072, step, num)
        };
        let Ok(inst) = r.validate(PB) else { continue };
        let mut sbuf = Sbuf::new(PB);
        for p in p0..p0 + inst.channels() {
            let vals: Vec<u64> = (0..r.src.elements()).map(|_| small_value(&mut rng, ind)).collect();
            put(&mut sbuf, p, &r.src, ind, &vals);
        }
        let want = naive(&r, &sbuf);
        execute(&inst, &mut sbuf, SumOrder::Tree).unwrap();
        let got = get(&sbuf, r.dst.partition(), &r.dst, outd);
        // Where src elements repeat (stride 0 or overlap) the dst pattern may
        // revisit addresses too: compare the last write of each address.
        let offs: Vec<usize> = r.dst.offsets(outd.size()).collect();
        for (k, o) in offs.iter().enumerate() {
            if offs[k + 1..].contains(o) {
                continue;
            }
            assert_eq!(got[k], want[k], "element {k}: {:?} {:?} {:?} {:?}", op, ind, outd, r);
        }
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} valid random instructions");
}

#[test]
fn average_with_scale_one_over_n_is_the_mean() {
    let mut r = base();
    r.reduce_op = ReduceOp::Average as u8;
    r.num_active_channels = 4;
    r.scale = (1.0f32 / 16.0).to_bits();
    let mut sbuf = Sbuf::new(PB);
    for p in 0..4 {
        put(&mut sbuf, p, &r.src, Dtype::Fp32, &[1.0f32, 2.0, 3.0, 10.0].map(|x| (x + p as f32).to_bits() as u64));
    }
    execute(&r.validate(PB).unwrap(), &mut sbuf, SumOrder::Tree).unwrap();
    // Values 1..=13, sum 16 + 4 × (0+1+2+3) ... mean of the 16 values.
    let vals: Vec<f32> = (0..4).flat_map(|p| [1.0f32, 2.0, 3.0, 10.0].map(|x| x + p as f32)).collect();
    let mean = vals.iter().sum::<f32>() / 16.0;
    assert_eq!(f32::from_bits(get(&sbuf, 5, &r.dst, Dtype::Fp32)[0] as u32), mean);
}

#[test]
fn max_with_nans_and_signed_zeros() {
    let mut r = base();
    r.reduce_op = ReduceOp::Max as u8;
    r.reduce_axis = 1;
    r.dst = tensor(5, 64, [1; 4], [4, 1, 1, 1]);
    let mut sbuf = Sbuf::new(PB);
    let nan = 0x7fc0_0001u64;
    let snan = 0xff80_0001u64;
    put(&mut sbuf, 0, &r.src, Dtype::Fp32, &[nan, 0x8000_0000, snan, 0xff80_0000]);
    put(&mut sbuf, 1, &r.src, Dtype::Fp32, &[0x3f80_0000, 0, snan, nan]);
    execute(&r.validate(PB).unwrap(), &mut sbuf, SumOrder::Tree).unwrap();
    assert_eq!(get(&sbuf, 5, &r.dst, Dtype::Fp32), vec![0x3f80_0000, 0, 0x7fc0_0000, 0xff80_0000]);
}

#[test]
fn strides_negative_and_zero() {
    // Partitions axis, UINT8 → UINT16 ADD, src walks backwards with a
    // broadcast (stride 0) second dimension.
    let mut r = base();
    r.in_dtype = Dtype::Uint8.code();
    r.out_dtype = Dtype::Uint16.code();
    r.reduce_axis = 1;
    r.num_active_channels = 3;
    r.src = tensor(10, 100, [-1, 0, 1, 1], [3, 2, 1, 1]);
    r.dst = tensor(0, 200, [1, 3, 1, 1], [3, 2, 1, 1]);
    let mut sbuf = Sbuf::new(PB);
    for p in 10..13 {
        sbuf.write(p, 98, &[1, 2, 3].map(|x| x * (p as u8 - 9))).unwrap();
    }
    execute(&r.validate(PB).unwrap(), &mut sbuf, SumOrder::Tree).unwrap();
    // Element k reads byte 100 - k: values 3, 2, 1 scaled by 1, 2, 3 → ×6.
    assert_eq!(get(&sbuf, 0, &r.dst, Dtype::Uint16), vec![18, 12, 6, 18, 12, 6]);
}

#[test]
fn every_dtype_converts_on_the_way_in_and_out() {
    for ind in Dtype::ALL.into_iter().filter(|d| *d != Dtype::Invalid && *d != Dtype::Fp32r) {
        for outd in Dtype::ALL.into_iter().filter(|d| *d != Dtype::Invalid) {
            let mut r = base();
            r.in_dtype = ind.code();
            r.out_dtype = outd.code();
            r.num_active_channels = 1;
            r.src = tensor(0, 0, [1; 4], [3, 1, 1, 1]);
            r.dst = tensor(1, 0, [1; 4], [1; 4]);
            let mut sbuf = Sbuf::new(PB);
            // 1 + 2 + 3 = 6 in every dtype (fp8 included).
            let vals: Vec<u64> = [1.0f32, 2.0, 3.0].iter().map(|&x| ind.from_f32(x)).collect();
            put(&mut sbuf, 0, &r.src, ind, &vals);
            execute(&r.validate(PB).unwrap(), &mut sbuf, SumOrder::Tree).unwrap();
            let got = get(&sbuf, 1, &r.dst, outd)[0];
            assert_eq!(outd.to_f32(got), 6.0, "{} -> {}", ind.name(), outd.name());
        }
    }
}

#[test]
fn an_instruction_runs_only_on_the_sbuf_it_was_validated_for() {
    let mut r = base();
    r.dst.num_elem = [2, 1, 1, 1];
    assert!(matches!(r.validate(PB).unwrap_err(), Reject::DstElements { .. }));
    // Valid for 4096-byte partitions, near the end: a smaller SBUF is refused.
    let mut r = base();
    r.src = tensor(0, PB - 16, [1; 4], [4, 1, 1, 1]);
    let inst = r.validate(PB).unwrap();
    let mut small = Sbuf::new(1024);
    let err = execute(&inst, &mut small, SumOrder::Tree).unwrap_err();
    assert_eq!(err.to_string(), "the instruction was validated for partitions of 4096 bytes but the SBUF has 1024");
    assert_eq!(small, Sbuf::new(1024), "nothing written");
}

#[test]
fn tree_and_sequential_orders_differ_where_fp32_rounds() {
    let mut r = base();
    r.num_active_channels = 1;
    let mut sbuf = Sbuf::new(PB);
    put(&mut sbuf, 0, &r.src, Dtype::Fp32, &[16_777_216f32, 1.0, 1.0, 1.0].map(|x| x.to_bits() as u64));
    let inst = r.validate(PB).unwrap();
    let mut tree = sbuf.clone();
    execute(&inst, &mut tree, SumOrder::Tree).unwrap();
    execute(&inst, &mut sbuf, SumOrder::Sequential).unwrap();
    assert_eq!(f32::from_bits(get(&tree, 5, &r.dst, Dtype::Fp32)[0] as u32), 16_777_218.0);
    assert_eq!(f32::from_bits(get(&sbuf, 5, &r.dst, Dtype::Fp32)[0] as u32), 16_777_216.0);
}

/// D50: every NaN ADD or AVERAGE produces (a converted element, a product by
/// `scale`, a sum) is the canonical 0x7fc00000, and each out dtype writes its
/// own positive quiet NaN. Bits, never values: on x86 without the rule the
/// first case gives 0xffc11234 and the second 0x7fc00001 (issue 27).
#[test]
fn nan_results_are_canonical_whatever_the_host() {
    let run = |op: ReduceOp, scale: f32, out: Dtype, values: &[u64]| {
        let mut r = base();
        r.reduce_op = op as u8;
        r.scale = scale.to_bits();
        r.out_dtype = out.code();
        r.num_active_channels = 1;
        r.src = tensor(0, 0, [1; 4], [values.len() as u16, 1, 1, 1]);
        let mut sbuf = Sbuf::new(PB);
        put(&mut sbuf, 0, &r.src, Dtype::Fp32, values);
        execute(&r.validate(PB).unwrap(), &mut sbuf, SumOrder::Tree).unwrap();
        get(&sbuf, r.dst.partition(), &r.dst, out)[0]
    };
    let (qnan_neg, snan, inf, ninf) = (0xffc1_1234, 0x7f80_0001, 0x7f80_0000, 0xff80_0000);
    for values in
        [&[qnan_neg, snan][..], &[snan, qnan_neg], &[inf, ninf], &[ninf, inf], &[0xff80_0001], &[1, qnan_neg, 3]]
    {
        assert_eq!(run(ReduceOp::Add, 1.0, Dtype::Fp32, values), 0x7fc0_0000, "ADD {values:x?}");
        assert_eq!(run(ReduceOp::Average, 0.5, Dtype::Fp32, values), 0x7fc0_0000, "AVERAGE {values:x?}");
    }
    // 0 × inf and inf × 0 in AVERAGE's products; a NaN scale.
    assert_eq!(run(ReduceOp::Average, f32::INFINITY, Dtype::Fp32, &[0, 0x3f80_0000]), 0x7fc0_0000);
    assert_eq!(run(ReduceOp::Average, 0.0, Dtype::Fp32, &[inf]), 0x7fc0_0000);
    assert_eq!(run(ReduceOp::Average, f32::from_bits(0xff80_0001), Dtype::Fp32, &[0x3f80_0000]), 0x7fc0_0000);
    // Each out dtype's NaN.
    for (out, nan) in [
        (Dtype::Fp32r, 0x7fc0_0000),
        (Dtype::Bfloat16, 0x7fc0),
        (Dtype::Fp16, 0x7e00),
        (Dtype::Fp8Exp5, 0x7e),
        (Dtype::Fp8Exp4, 0x7f),
        (Dtype::Fp8Exp3, 0x7f),
        (Dtype::Int32, 0),
        (Dtype::Uint64, 0),
    ] {
        assert_eq!(run(ReduceOp::Add, 1.0, out, &[ninf, inf]), nan, "{out:?}");
    }
    // MAX is unchanged: NaNs never win, all NaN gives 0x7fc00000.
    assert_eq!(run(ReduceOp::Max, 1.0, Dtype::Fp32, &[qnan_neg, snan]), 0x7fc0_0000);
    assert_eq!(run(ReduceOp::Max, 1.0, Dtype::Fp32, &[qnan_neg, 0xbf80_0000, snan]), 0xbf80_0000);
}

/// D58: axis Partitions writes dst element k before it reads column k + 1,
/// so a dst overlapping the src feeds the columns after it. One channel,
/// dst one element above src: every element becomes the first.
#[test]
fn partitions_writes_each_column_before_reading_the_next() {
    let mut r = base();
    r.num_active_channels = 1;
    r.reduce_axis = ReduceAxis::Partitions as u8;
    r.src = tensor(3, 0, [1; 4], [4, 1, 1, 1]);
    r.dst = tensor(3, 4, [1; 4], [4, 1, 1, 1]);
    let mut sbuf = Sbuf::new(PB);
    put(&mut sbuf, 3, &r.src, Dtype::Fp32, &[1.0f32, 2.0, 3.0, 4.0].map(|x| x.to_bits() as u64));
    execute(&r.validate(PB).unwrap(), &mut sbuf, SumOrder::Tree).unwrap();
    let whole = tensor(3, 0, [1; 4], [5, 1, 1, 1]);
    assert_eq!(get(&sbuf, 3, &whole, Dtype::Fp32), vec![1f32.to_bits() as u64; 5]);
    // Axis All reads everything first: its one write sees nothing of itself.
    let mut r = base();
    r.num_active_channels = 1;
    r.src = tensor(3, 0, [1; 4], [4, 1, 1, 1]);
    r.dst = tensor(3, 0, [1; 4], [1; 4]);
    let mut sbuf = Sbuf::new(PB);
    put(&mut sbuf, 3, &r.src, Dtype::Fp32, &[1.0f32, 2.0, 3.0, 4.0].map(|x| x.to_bits() as u64));
    execute(&r.validate(PB).unwrap(), &mut sbuf, SumOrder::Tree).unwrap();
    assert_eq!(get(&sbuf, 3, &whole, Dtype::Fp32)[0], 10f32.to_bits() as u64);
}

/// The engine reports a reject by number: `Reject::code` is the rule's
/// place in `RULE_NAMES` plus one, for every rule.
#[test]
fn reject_codes_number_the_rules_in_order() {
    use crosslane_golden::instruction::RULE_NAMES;
    let mut seen = Vec::new();
    let mut check = |f: &dyn Fn(&mut RawInstruction)| {
        let mut r = base();
        f(&mut r);
        let e = r.validate(PB).unwrap_err();
        assert_eq!(RULE_NAMES[e.code() as usize - 1], e.rule());
        seen.push(e.code());
    };
    check(&|r| r.opcode = 0);
    check(&|r| r.reserved0 = [1, 0, 0]);
    check(&|r| r.in_dtype = 0);
    check(&|r| r.out_dtype = 0);
    check(&|r| r.reduce_op = 9);
    check(&|r| r.reduce_axis = 2);
    check(&|r| r.num_active_channels = 0);
    check(&|r| r.src.start_addr |= 1 << 28);
    check(&|r| r.dst.start_addr |= 1 << 28);
    check(&|r| r.src.num_elem[0] = 0);
    check(&|r| r.dst.num_elem[0] = 0);
    check(&|r| r.dst.num_elem[0] = 2);
    check(&|r| {
        r.opcode = 0x7d;
        r.reduce_op = 3;
    });
    assert_eq!(seen, (1..=13).collect::<Vec<u8>>());
}

//! The fp32 units of hdl/ (docs/fp-units.md): a synthesis test each
//! (rust-hdl's checks, then yosys reads and synthesizes the Verilog) and an
//! operation test in rust-hdl's simulation against golden's binary32
//! arithmetic, compared by bits. Their emitted Verilog is checked on
//! Verilator by `crosslane prove --fp` (sim/tests/fp_units.rs).
//!
//! yosys is needed for the synthesis tests: outside CI a missing yosys
//! prints one SKIPPED line; with CI or CROSSLANE_REQUIRE_SIMULATORS set it
//! fails the test.

use crosslane_golden::instruction::dtype::Dtype;
use crosslane_golden::instruction::exec::beat_tree_masked;
use crosslane_golden::instruction::fp::{self, edge_values, OperandPairs, ProductPairs};
use crosslane_hdl::beat_sum::{BeatSum, BEAT_SUM_ADD_LATENCIES};
use crosslane_hdl::f32_add::{F32Add, F32_ADD_LATENCIES};
use crosslane_hdl::f32_mul::{F32Mul, F32_MUL_LATENCIES};
use crosslane_hdl::from_f32::{FromF32, FROM_F32_LATENCIES};
use crosslane_hdl::to_f32::{ToF32, TO_F32_LATENCIES};
use rust_hdl::prelude::*;

#[path = "../../testdata/tool_present.rs"]
mod tool;

fn have_yosys() -> bool {
    tool::tool_present(tool::on_path(&["yosys"], "yosys"))
}

fn synthesizes<B: Block>(name: &str, mut uut: B) -> String {
    uut.connect_all();
    check_all(&uut).unwrap_or_else(|e| panic!("{name}: rust-hdl's checks: {e:?}"));
    let vlog = generate_verilog(&uut);
    if have_yosys() {
        yosys_validate(name, &vlog).unwrap_or_else(|e| panic!("{name}: yosys: {e:?}"));
    }
    vlog
}

fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 200), "the unit settles");
}

/// Feed `inputs` to a unit one a clock (`set` puts one on its ports,
/// `clock` drives its clock), then `latency` − 1 idle clocks; the outputs
/// `get` reads, in order (the first `latency` − 1 clocks' skipped).
fn run<B: Block, T: Copy>(
    mut uut: B,
    latency: usize,
    inputs: &[T],
    idle: T,
    clock: impl Fn(&mut B, bool),
    set: impl Fn(&mut B, T),
    get: impl Fn(&B) -> u64,
) -> Vec<u64> {
    uut.connect_all();
    let mut out = Vec::with_capacity(inputs.len());
    for (i, x) in inputs.iter().copied().chain(std::iter::repeat_n(idle, latency - 1)).enumerate() {
        clock(&mut uut, false);
        set(&mut uut, x);
        settle(&mut uut);
        clock(&mut uut, true);
        settle(&mut uut);
        if i + 1 >= latency {
            out.push(get(&uut));
        }
    }
    out
}

fn run_add(latency: usize, pairs: &[(u32, u32)]) -> Vec<u32> {
    let set = |u: &mut F32Add, (a, b): (u32, u32)| {
        u.a_i.next = u64::from(a).into();
        u.b_i.next = u64::from(b).into();
    };
    let clock = |u: &mut F32Add, clk| u.clk_i.next = Clock { clk };
    let get = |u: &F32Add| u.sum_o.val().to_u64();
    run(F32Add::new(latency), latency, pairs, (0, 0), clock, set, get).into_iter().map(|x| x as u32).collect()
}

fn run_mul(latency: usize, pairs: &[(u32, u32)]) -> Vec<u32> {
    let set = |u: &mut F32Mul, (a, b): (u32, u32)| {
        u.a_i.next = u64::from(a).into();
        u.b_i.next = u64::from(b).into();
    };
    let clock = |u: &mut F32Mul, clk| u.clk_i.next = Clock { clk };
    let get = |u: &F32Mul| u.product_o.val().to_u64();
    run(F32Mul::new(latency), latency, pairs, (0, 0), clock, set, get).into_iter().map(|x| x as u32).collect()
}

/// A binary32 unit's run at a latency on pairs ([`run_add`], [`run_mul`]).
type RunPairs = fn(usize, &[(u32, u32)]) -> Vec<u32>;

/// A binary32 unit (`run`: F32Add or F32Mul at `latency`) against golden's
/// `op`, by bits; the pairs checked.
fn check_binary(name: &str, latency: usize, pairs: &[(u32, u32)], run: RunPairs, op: fn(f32, f32) -> f32) -> usize {
    let got = run(latency, pairs);
    assert_eq!(got.len(), pairs.len());
    for (&(a, b), &g) in pairs.iter().zip(&got) {
        let want = op(f32::from_bits(a), f32::from_bits(b)).to_bits();
        assert_eq!(g, want, "{name} latency {latency}: {a:08x}, {b:08x} gave {g:08x}, golden {want:08x}");
    }
    got.len()
}

fn check_add(latency: usize, pairs: &[(u32, u32)]) -> usize {
    check_binary("F32Add", latency, pairs, run_add, fp::add)
}

fn check_mul(latency: usize, pairs: &[(u32, u32)]) -> usize {
    check_binary("F32Mul", latency, pairs, run_mul, fp::mul)
}

fn edge_pairs() -> Vec<(u32, u32)> {
    let edges = edge_values();
    edges.iter().flat_map(|&a| edges.iter().map(move |&b| (a, b))).collect()
}

#[test]
fn f32_add_synthesizes_at_every_latency() {
    for latency in F32_ADD_LATENCIES {
        let vlog = synthesizes(&format!("f32_add_{latency}"), F32Add::new(latency));
        let registers = vlog.matches("always @(posedge clock) q <= d;").count();
        // One register of 32 bits for latency 1; eight fields after
        // alignment, seven after normalization, nine after ordering, seven
        // after the sum.
        let want = 1
            + if latency >= 2 { 8 } else { 0 }
            + if latency >= 3 { 7 } else { 0 }
            + if latency >= 4 { 9 } else { 0 }
            + if latency >= 5 { 7 } else { 0 };
        assert_eq!(registers, want, "latency {latency}: {registers} registers");
    }
}

#[test]
fn f32_add_is_golden_on_every_pair_of_edge_values() {
    assert_eq!(check_add(3, &edge_pairs()), 22 * 22);
}

#[test]
fn f32_add_is_golden_on_random_pairs_at_every_latency() {
    for latency in F32_ADD_LATENCIES {
        let pairs: Vec<(u32, u32)> = OperandPairs::new(latency as u64).take(20_000).collect();
        assert_eq!(check_add(latency, &pairs), 20_000);
    }
}

#[test]
fn f32_add_spec_cases() {
    // x + (−x) = +0, −0 + −0 = −0, inf − inf = NaN, subnormals kept, a tie
    // to even, overflow to infinity, a subnormal sum that becomes normal.
    let cases = [
        (0x3f80_0000, 0xbf80_0000, 0x0000_0000),
        (0x8000_0000, 0x8000_0000, 0x8000_0000),
        (0x0000_0000, 0x8000_0000, 0x0000_0000),
        (0x7f80_0000, 0xff80_0000, fp::CANONICAL_NAN),
        (0x0000_0001, 0x0000_0001, 0x0000_0002),
        (0x3f80_0000, 0x3380_0000, 0x3f80_0000),
        (0x3f80_0001, 0x3380_0000, 0x3f80_0002),
        (0x7f7f_ffff, 0x7f7f_ffff, 0x7f80_0000),
        (0x007f_ffff, 0x0000_0001, 0x0080_0000),
        (0xffc1_1234, 0x7f80_0001, fp::CANONICAL_NAN),
    ];
    let pairs: Vec<(u32, u32)> = cases.iter().map(|&(a, b, _)| (a, b)).collect();
    let sums = run_add(2, &pairs);
    for (&(a, b, want), s) in cases.iter().zip(sums) {
        assert_eq!(s, want, "{a:08x} + {b:08x} = {s:08x}, want {want:08x}");
        assert_eq!(fp::add(f32::from_bits(a), f32::from_bits(b)).to_bits(), want, "golden");
    }
}

#[test]
fn f32_mul_synthesizes_at_every_latency() {
    for latency in F32_MUL_LATENCIES {
        let vlog = synthesizes(&format!("f32_mul_{latency}"), F32Mul::new(latency));
        let registers = vlog.matches("always @(posedge clock) q <= d;").count();
        // One register of 32 bits for latency 1; nine fields after the
        // partial products, six after normalization.
        let want = 1 + if latency >= 2 { 9 } else { 0 } + if latency >= 3 { 6 } else { 0 };
        assert_eq!(registers, want, "latency {latency}: {registers} registers");
        assert_eq!(vlog.matches(" * ").count(), 4, "four partial products");
    }
}

#[test]
fn f32_mul_is_golden_on_every_pair_of_edge_values() {
    assert_eq!(check_mul(3, &edge_pairs()), 22 * 22);
}

#[test]
fn f32_mul_is_golden_on_random_and_boundary_pairs_at_every_latency() {
    for latency in F32_MUL_LATENCIES {
        let pairs: Vec<(u32, u32)> = ProductPairs::new(latency as u64).take(20_000).collect();
        assert_eq!(check_mul(latency, &pairs), 20_000);
    }
}

#[test]
fn f32_mul_spec_cases() {
    // Signs of zeros, inf × 0 = NaN, subnormals kept and made, a tie to
    // even, overflow to infinity, underflow to zero, a subnormal product
    // that rounds up to the smallest normal.
    let cases = [
        (0x3f80_0000, 0x8000_0000, 0x8000_0000),
        (0x8000_0000, 0x8000_0000, 0x0000_0000),
        (0x7f80_0000, 0x0000_0000, fp::CANONICAL_NAN),
        (0x0000_0000, 0xff80_0000, fp::CANONICAL_NAN),
        (0xff80_0000, 0x0000_0001, 0xff80_0000),
        (0x0000_0001, 0x3f80_0000, 0x0000_0001),
        (0x0000_0001, 0x4b00_0000, 0x0080_0000),
        (0x0080_0000, 0x3f00_0000, 0x0040_0000),
        (0x0000_0001, 0x3f00_0000, 0x0000_0000),
        (0x0000_0001, 0x3f00_0001, 0x0000_0001),
        (0x0000_0003, 0x3f00_0000, 0x0000_0002),
        (0x007f_ffff, 0x3f80_0001, 0x0080_0000),
        (0x7f7f_ffff, 0x4000_0000, 0x7f80_0000),
        (0x7f7f_ffff, 0xbf80_0000, 0xff7f_ffff),
        (0x3f80_0001, 0x3f80_0001, 0x3f80_0002),
        (0xffc1_1234, 0x7f80_0001, fp::CANONICAL_NAN),
    ];
    let pairs: Vec<(u32, u32)> = cases.iter().map(|&(a, b, _)| (a, b)).collect();
    let products = run_mul(2, &pairs);
    for (&(a, b, want), p) in cases.iter().zip(products) {
        assert_eq!(fp::mul(f32::from_bits(a), f32::from_bits(b)).to_bits(), want, "golden {a:08x} × {b:08x}");
        assert_eq!(p, want, "{a:08x} × {b:08x} = {p:08x}, want {want:08x}");
    }
}

fn run_to_f32(latency: usize, inputs: &[(u64, Dtype)]) -> Vec<u32> {
    let set = |u: &mut ToF32, (bits, dtype): (u64, Dtype)| {
        u.bits_i.next = bits.into();
        u.dtype_i.next = (dtype as u64).into();
    };
    let clock = |u: &mut ToF32, clk| u.clk_i.next = Clock { clk };
    let get = |u: &ToF32| u.f32_o.val().to_u64();
    let idle = (0, Dtype::Invalid);
    run(ToF32::new(latency), latency, inputs, idle, clock, set, get).into_iter().map(|x| x as u32).collect()
}

fn check_to_f32(latency: usize, inputs: &[(u64, Dtype)]) -> usize {
    let got = run_to_f32(latency, inputs);
    assert_eq!(got.len(), inputs.len());
    for (&(bits, dtype), &g) in inputs.iter().zip(&got) {
        let want = dtype.to_f32(bits).to_bits();
        assert_eq!(g, want, "ToF32 latency {latency}: {dtype:?} {bits:016x} gave {g:08x}, golden {want:08x}");
    }
    got.len()
}

/// Inputs of every dtype: every code of the 8-bit ones, every 5th of the
/// 16-bit ones, random 64-bit words (the bits above a dtype's width
/// random too), integers near powers of two.
fn to_f32_inputs(seed: u64, random: usize) -> Vec<(u64, Dtype)> {
    let mut rng = crosslane_golden::campaign::SplitMix64(seed);
    let mut next = move || rng.next_u64();
    let mut v = Vec::new();
    for dtype in Dtype::ALL {
        let width = dtype.size() * 8;
        if width <= 8 {
            v.extend((0..256u64).map(|c| (c | (next() << 8), dtype)));
        } else if width <= 16 {
            v.extend((0..65536u64).step_by(5).map(|c| (c | (next() << 16), dtype)));
        }
        for _ in 0..random {
            let r = next();
            let shift = next() % 64;
            // Any bits, or a value with its leading one at a random place and
            // random bits below (ties and near ties for the wide integers).
            v.push((r, dtype));
            v.push(((1u64 << shift) | (r >> (64 - shift.max(1))), dtype));
            v.push(((1u64 << shift) | (1u64 << shift.saturating_sub(25)), dtype));
        }
    }
    v
}

#[test]
fn to_f32_synthesizes_at_every_latency() {
    for latency in TO_F32_LATENCIES {
        let vlog = synthesizes(&format!("to_f32_{latency}"), ToF32::new(latency));
        let registers = vlog.matches("always @(posedge clock) q <= d;").count();
        let want = 1 + if latency >= 2 { 5 } else { 0 } + if latency >= 3 { 6 } else { 0 };
        assert_eq!(registers, want, "latency {latency}: {registers} registers");
    }
}

#[test]
fn to_f32_is_golden_on_every_dtype_at_every_latency() {
    for latency in TO_F32_LATENCIES {
        let inputs = to_f32_inputs(latency as u64, 300);
        assert!(inputs.len() > 60_000);
        assert_eq!(check_to_f32(latency, &inputs), inputs.len());
    }
}

#[test]
fn to_f32_spec_cases() {
    let cases = [
        (0xffu64, Dtype::Int8, 0xbf80_0000u32),
        (0x80, Dtype::Int8, 0xc300_0000),
        (0x80, Dtype::Uint8, 0x4300_0000),
        (0x8000_0000_0000_0000, Dtype::Int64, 0xdf00_0000),
        (u64::MAX, Dtype::Uint64, 0x5f80_0000),
        // 2^24 + 1 ties to even (down), 2^24 + 3 up.
        (0x0100_0001, Dtype::Int32, 0x4b80_0000),
        (0x0100_0003, Dtype::Uint32, 0x4b80_0002),
        (0x0001, Dtype::Fp16, 0x3380_0000),
        (0x7c00, Dtype::Fp16, 0x7f80_0000),
        (0xfe01, Dtype::Fp16, crosslane_golden::instruction::fp::CANONICAL_NAN),
        (0x7f, Dtype::Fp8Exp4, crosslane_golden::instruction::fp::CANONICAL_NAN),
        (0x7e, Dtype::Fp8Exp4, 0x43e0_0000),
        (0x8000, Dtype::Bfloat16, 0x8000_0000),
        (0xffc1_1234, Dtype::Fp32, crosslane_golden::instruction::fp::CANONICAL_NAN),
        (0x1234_5678, Dtype::Invalid, 0),
    ];
    let inputs: Vec<(u64, Dtype)> = cases.iter().map(|&(b, d, _)| (b, d)).collect();
    let got = run_to_f32(2, &inputs);
    for (&(bits, dtype, want), g) in cases.iter().zip(got) {
        assert_eq!(dtype.to_f32(bits).to_bits(), want, "golden {dtype:?} {bits:x}");
        assert_eq!(g, want, "{dtype:?} {bits:x}: {g:08x}, want {want:08x}");
    }
}

fn run_from_f32(latency: usize, inputs: &[(u32, Dtype)]) -> Vec<u64> {
    let set = |u: &mut FromF32, (x, dtype): (u32, Dtype)| {
        u.x_i.next = u64::from(x).into();
        u.dtype_i.next = (dtype as u64).into();
    };
    let clock = |u: &mut FromF32, clk| u.clk_i.next = Clock { clk };
    let get = |u: &FromF32| u.bits_o.val().to_u64();
    run(FromF32::new(latency), latency, inputs, (0, Dtype::Invalid), clock, set, get)
}

fn check_from_f32(latency: usize, inputs: &[(u32, Dtype)]) -> usize {
    let got = run_from_f32(latency, inputs);
    assert_eq!(got.len(), inputs.len());
    for (&(x, dtype), &g) in inputs.iter().zip(&got) {
        let want = dtype.from_f32(f32::from_bits(x));
        assert_eq!(g, want, "FromF32 latency {latency}: {x:08x} to {dtype:?} gave {g:x}, golden {want:x}");
    }
    got.len()
}

/// Every dtype with the edge values, values near each format's limits and
/// rounding points, and random values of every magnitude.
fn from_f32_inputs(seed: u64, random: usize) -> Vec<(u32, Dtype)> {
    let mut pairs = OperandPairs::new(seed);
    let mut v = Vec::new();
    for dtype in Dtype::ALL {
        for &e in &edge_values() {
            v.push((e, dtype));
        }
        // Integer limits and halves: 2^k and its neighbours, ±(2^k ± 0.5).
        for k in 0..70u32 {
            for x in [
                (k as f32).exp2(),
                (k as f32).exp2() + 0.5,
                (k as f32).exp2() - 0.5,
                -(k as f32).exp2(),
                0.5 - (k as f32).exp2(),
            ] {
                v.push((x.to_bits(), dtype));
                v.push((x.to_bits() + 1, dtype));
                v.push((x.to_bits().wrapping_sub(1), dtype));
            }
        }
        for _ in 0..random {
            let (a, b) = pairs.next().unwrap();
            v.push((a, dtype));
            // A magnitude near the formats' ranges: exponents 90 to 170.
            v.push(((b & 0x807f_ffff) | ((90 + (b >> 8) % 80) << 23), dtype));
        }
    }
    v
}

#[test]
fn from_f32_synthesizes_at_every_latency() {
    for latency in FROM_F32_LATENCIES {
        let vlog = synthesizes(&format!("from_f32_{latency}"), FromF32::new(latency));
        let registers = vlog.matches("always @(posedge clock) q <= d;").count();
        let want = 1 + if latency >= 2 { 8 } else { 0 } + if latency >= 3 { 6 } else { 0 };
        assert_eq!(registers, want, "latency {latency}: {registers} registers");
    }
}

#[test]
fn from_f32_is_golden_on_every_dtype_at_every_latency() {
    for latency in FROM_F32_LATENCIES {
        let inputs = from_f32_inputs(latency as u64, 1000);
        assert!(inputs.len() > 40_000);
        assert_eq!(check_from_f32(latency, &inputs), inputs.len());
    }
}

fn run_beat(add_latency: usize, beats: &[([u32; 16], u16)]) -> Vec<u64> {
    let set = |u: &mut BeatSum, (lanes, valid): ([u32; 16], u16)| {
        let mut v = Bits::<512>::default();
        for (l, x) in lanes.iter().enumerate() {
            v = v | (Bits::<512>::from(u64::from(*x)) << (32 * l as u64));
        }
        u.lanes_i.next = v;
        u.valid_i.next = u64::from(valid).into();
    };
    let clock = |u: &mut BeatSum, clk| u.clk_i.next = Clock { clk };
    let get = |u: &BeatSum| u.sum_o.val().to_u64() | (u64::from(u.valid_o.val()) << 32);
    let idle = ([0u32; 16], 0u16);
    run(BeatSum::new(add_latency), 4 * add_latency, beats, idle, clock, set, get)
}

#[test]
fn beat_sum_synthesizes() {
    let vlog = synthesizes("beat_sum_2", BeatSum::new(2));
    // 15 adders of 9 registers each (latency 2), and 2 × 4 delay registers a node.
    assert_eq!(vlog.matches("always @(posedge clock) q <= d;").count(), 15 * (9 + 2 * 4));
}

#[test]
fn beat_sum_is_golden_on_every_short_beat_and_random_masks() {
    let mut pairs = OperandPairs::new(11);
    let mut beats = Vec::new();
    for k in 0..200u32 {
        let lanes: [u32; 16] = std::array::from_fn(|_| pairs.next().unwrap().0);
        let n = k % 17;
        let valid = if k % 5 == 4 { (pairs.next().unwrap().1 & 0xffff) as u16 } else { ((1u32 << n) - 1) as u16 };
        beats.push((lanes, valid));
    }
    for add_latency in BEAT_SUM_ADD_LATENCIES {
        let got = run_beat(add_latency, &beats);
        assert_eq!(got.len(), beats.len());
        for ((lanes, valid), g) in beats.iter().zip(got) {
            let sum = beat_tree_masked(&lanes.map(f32::from_bits), *valid).map(f32::to_bits);
            let want = sum.unwrap_or(0);
            assert_eq!(
                g,
                u64::from(want) | (u64::from(sum.is_some()) << 32),
                "adder latency {add_latency}: mask {valid:04x}"
            );
            if valid.trailing_ones() == valid.count_ones() {
                // A prefix: golden's own short beat.
                let values: Vec<f32> =
                    lanes[..valid.count_ones() as usize].iter().map(|&x| f32::from_bits(x)).collect();
                let golden = crosslane_golden::instruction::exec::sum(&values, Default::default());
                assert_eq!(
                    want,
                    golden.to_bits(),
                    "the fixed tree is golden's tree on a prefix of {} lanes",
                    values.len()
                );
            }
        }
    }
}

//! The fp32 units of hdl/ (docs/fp-units.md): a synthesis test each
//! (rust-hdl's checks, then yosys reads and synthesizes the Verilog) and an
//! operation test in rust-hdl's simulation against golden's binary32
//! arithmetic, compared by bits. Their emitted Verilog is checked on
//! Verilator by `crosslane prove --fp` (sim/tests/fp_units.rs).
//!
//! yosys is needed for the synthesis tests: outside CI a missing yosys
//! prints one SKIPPED line; with CI or CROSSLANE_REQUIRE_SIMULATORS set it
//! fails the test.

use crosslane_golden::instruction::fp::{self, edge_values, OperandPairs};
use crosslane_hdl::f32_add::{F32Add, F32_ADD_LATENCIES};
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

/// Feed `pairs` one a clock; the sums in order (the first `latency` − 1
/// clocks' outputs skipped).
fn run_add(latency: usize, pairs: &[(u32, u32)]) -> Vec<u32> {
    let mut uut = F32Add::new(latency);
    uut.connect_all();
    let mut out = Vec::with_capacity(pairs.len());
    let idle = std::iter::repeat_n((0u32, 0u32), latency - 1);
    for (i, (a, b)) in pairs.iter().copied().chain(idle).enumerate() {
        uut.clk_i.next = Clock { clk: false };
        uut.a_i.next = (a as u64).into();
        uut.b_i.next = (b as u64).into();
        settle(&mut uut);
        uut.clk_i.next = Clock { clk: true };
        settle(&mut uut);
        if i + 1 >= latency {
            out.push(uut.sum_o.val().to_u64() as u32);
        }
    }
    out
}

fn check_add(latency: usize, pairs: &[(u32, u32)]) -> usize {
    let sums = run_add(latency, pairs);
    assert_eq!(sums.len(), pairs.len());
    for (&(a, b), &s) in pairs.iter().zip(&sums) {
        let want = fp::add(f32::from_bits(a), f32::from_bits(b)).to_bits();
        assert_eq!(s, want, "F32Add latency {latency}: {a:08x} + {b:08x} = {s:08x}, golden {want:08x}");
    }
    sums.len()
}

#[test]
fn f32_add_synthesizes_at_every_latency() {
    for latency in F32_ADD_LATENCIES {
        let vlog = synthesizes(&format!("f32_add_{latency}"), F32Add::new(latency));
        let registers = vlog.matches("always @(posedge clock) q <= d;").count();
        // One register of 32 bits for latency 1; eight fields after
        // alignment, seven after normalization.
        let want = 1 + if latency >= 2 { 8 } else { 0 } + if latency >= 3 { 7 } else { 0 };
        assert_eq!(registers, want, "latency {latency}: {registers} registers");
    }
}

#[test]
fn f32_add_is_golden_on_every_pair_of_edge_values() {
    let edges = edge_values();
    let pairs: Vec<(u32, u32)> = edges.iter().flat_map(|&a| edges.iter().map(move |&b| (a, b))).collect();
    assert_eq!(check_add(3, &pairs), 22 * 22);
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

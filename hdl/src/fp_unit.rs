//! The fp32 units as data, for everything that emits, simulates or checks
//! them without knowing each one: name, ports, the latencies built and the
//! one the engine uses, and a constructor.

use rust_hdl::prelude::*;

/// One fp unit: a pipelined block with a clock `clk_i`, data inputs and
/// outputs (no valid: one operation a clock, a fixed latency).
#[derive(Debug)]
pub struct FpUnit {
    /// The unit's name in the RTL (`crosslane_<name>`) and on the command line.
    pub name: &'static str,
    /// What it computes, one line.
    pub what: &'static str,
    /// Data inputs, (port, bits), in the order a vector record packs them.
    pub inputs: &'static [(&'static str, usize)],
    /// Data outputs, (port, bits).
    pub outputs: &'static [(&'static str, usize)],
    /// The latencies it is built at; an input sampled at rising edge k is on
    /// the outputs after edge k + latency − 1.
    pub latencies: &'static [usize],
    /// The latency the engine uses and the wrapper's default.
    pub default_latency: usize,
    verilog: fn(usize) -> String,
}

impl FpUnit {
    /// The unit at `latency` (one of [`FpUnit::latencies`]) as rust-hdl
    /// emits it (top module `top`).
    pub fn verilog(&self, latency: usize) -> Option<String> {
        self.latencies.contains(&latency).then(|| (self.verilog)(latency))
    }

    /// The RTL module of the unit at `latency`.
    pub fn module(&self, latency: usize) -> String {
        format!("crosslane_{}_l{latency}", self.name)
    }

    /// Bytes of one input record and of one result: each port in whole
    /// bytes, little-endian, in the order of [`FpUnit::inputs`] / [`FpUnit::outputs`].
    pub fn in_bytes(&self) -> usize {
        record_bytes(self.inputs)
    }

    pub fn out_bytes(&self) -> usize {
        record_bytes(self.outputs)
    }

    /// The wrapper picking the latency by a parameter.
    pub fn wrapper(&self) -> String {
        format!("crosslane_{}", self.name)
    }
}

/// Bytes of a record of `ports`, each in whole bytes.
pub fn record_bytes(ports: &[(&str, usize)]) -> usize {
    ports.iter().map(|(_, w)| w.div_ceil(8)).sum()
}

/// Every fp unit.
pub const FP_UNITS: &[FpUnit] = &[
    FpUnit {
        name: "f32_add",
        what: "binary32 addition, round to nearest even, for ADD's and AVERAGE's sums",
        inputs: &[("a_i", 32), ("b_i", 32)],
        outputs: &[("sum_o", 32)],
        latencies: &crate::f32_add::F32_ADD_LATENCIES,
        default_latency: 2,
        verilog: |l| emit(crate::f32_add::F32Add::new(l)),
    },
    FpUnit {
        name: "f32_mul",
        what: "binary32 multiplication, round to nearest even, for AVERAGE's element × scale",
        inputs: &[("a_i", 32), ("b_i", 32)],
        outputs: &[("product_o", 32)],
        latencies: &crate::f32_mul::F32_MUL_LATENCIES,
        default_latency: 2,
        verilog: |l| emit(crate::f32_mul::F32Mul::new(l)),
    },
    FpUnit {
        name: "to_f32",
        what: "an element of any in_dtype (bits_i's low bits) to binary32, as golden's Dtype::to_f32",
        inputs: &[("bits_i", 64), ("dtype_i", 4)],
        outputs: &[("f32_o", 32)],
        latencies: &crate::to_f32::TO_F32_LATENCIES,
        default_latency: 2,
        verilog: |l| emit(crate::to_f32::ToF32::new(l)),
    },
    FpUnit {
        name: "from_f32",
        what: "a binary32 value to any out_dtype (in bits_o's low bits), as golden's Dtype::from_f32",
        inputs: &[("x_i", 32), ("dtype_i", 4)],
        outputs: &[("bits_o", 64)],
        latencies: &crate::from_f32::FROM_F32_LATENCIES,
        default_latency: 2,
        verilog: |l| emit(crate::from_f32::FromF32::new(l)),
    },
    FpUnit {
        name: "beat_sum",
        what: "the sum of one beat of 16 binary32 lanes with a lane-valid mask, in golden's tree order",
        inputs: &[("lanes_i", 512), ("valid_i", 16)],
        outputs: &[("sum_o", 32), ("valid_o", 1)],
        latencies: &crate::beat_sum::BEAT_SUM_LATENCIES,
        default_latency: 8,
        verilog: |l| emit(crate::beat_sum::BeatSum::new(l / 4)),
    },
];

fn emit<B: Block>(mut uut: B) -> String {
    uut.connect_all();
    generate_verilog(&uut)
}

/// The unit named `name`.
pub fn fp_unit(name: &str) -> Option<&'static FpUnit> {
    FP_UNITS.iter().find(|u| u.name == name)
}

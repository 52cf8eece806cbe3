//! crosslane-hdl: the CrossLaneReduce unit in rust-hdl 0.46, as components.
//!
//! - [`decode::OpDecode`]: the op select to named controls, a case table
//!   built from golden's op table (`crosslane_golden::ops`);
//! - [`leaf::LeafKey`]: one 32-bit window of the vector to its lane keys;
//! - [`node::TreeNode`]: one node of the log-step tree, at a given level;
//! - [`compare::WindowCompare`]: level 2's compare, from a window's keys;
//! - [`compare::AheadCompare`]: a node's compare from its grandchildren, one
//!   level ahead (levels 4 to 6 of the configurations with fewer registers);
//! - [`format::ResultFormat`]: the root to `result_o` / `mask_o`;
//! - [`pipe::Pipe`]: a pipeline boundary, a register or a wire by configuration;
//! - [`unit::CrosslaneReduce`]: the top, registers and wiring.
//!
//! The fp32 arithmetic of the instruction's ARITH ops (docs/fp-units.md):
//!
//! - [`f32_add::F32Add`]: binary32 addition, round to nearest even;
//! - [`f32_mul::F32Mul`]: binary32 multiplication, round to nearest even;
//! - [`to_f32::ToF32`]: an element of any in_dtype to binary32;
//! - [`from_f32::FromF32`]: binary32 to any out_dtype;
//! - [`beat_sum::BeatSum`]: one beat's 16 lanes summed in golden's tree order;
//! - [`fp_unit::FP_UNITS`]: the units as data (ports, latencies), for the
//!   generator and the checks.
//!
//! The pipeline depth is a parameter, [`Config`]: registers after every
//! level, every second level or every third, plus the input and output
//! registers. Each configuration is its own generated module. [`Config`]
//! itself is plain data in `crosslane_golden::config`, re-exported here.

pub mod beat_sum;
pub mod compare;
pub mod decode;
pub mod engine;
pub mod f32_add;
pub mod f32_mul;
pub mod format;
pub mod fp_unit;
pub mod from_f32;
pub mod leaf;
pub mod node;
pub mod pipe;
pub mod to_f32;
pub mod unit;

pub use unit::{connected_unit, with_unit_stack, CrosslaneReduce};

pub use crosslane_golden::config::{Config, LATENCY, LEVELS};

/// An N-bit constant of a component (masks, widths, identities).
pub(crate) fn k<const N: usize>(x: u64) -> rust_hdl::prelude::Constant<rust_hdl::prelude::Bits<N>> {
    rust_hdl::prelude::Constant::new(x.into())
}

/// A 32-bit constant of a component (masks, widths, identities).
pub(crate) fn c32(x: u64) -> rust_hdl::prelude::Constant<rust_hdl::prelude::Bits<32>> {
    k(x)
}

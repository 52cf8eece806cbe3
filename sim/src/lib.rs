//! crosslane-sim: everything that runs the unit — the engines (golden model,
//! rust-hdl simulation, Verilator, Icarus), the `eval` protocol, `verify`,
//! and the generators of `generated/`. The `crosslane` binary is its front.

pub mod cost;
pub mod engine;
pub mod exec_protocol;
pub mod generate;
pub mod hdl_sim;
pub mod postpass;
pub mod protocol;
pub mod prove;
pub mod simulators;
pub mod verify;
pub mod wave;

//! crosslane-sim: everything that runs the unit, and the `crosslane`
//! command line (`src/main.rs`) in front of it.
//!
//! Modules, each importing only those listed before it (a test,
//! `tests/layers.rs`, holds them to it):
//!
//! - [`tools`]: the outside world: installed tools, time-limited commands,
//!   where `generated/` and the cache are, files written whole;
//! - [`engine`]: the engine interface and names, what a unit's ports show;
//! - [`wave`]: VCDs of the unit's ports drawn as SVG pictures;
//! - [`emit`]: the generator of `generated/` (rust-hdl's Verilog and its
//!   post-passes, the askama testbench templates, the vector file);
//! - [`engines`]: the rust-hdl simulation and the RTL under Verilator and
//!   Icarus behind the engine interface;
//! - [`verify`]: the campaign of every engine against the golden model, its
//!   reports and their merge;
//! - [`bench`]: the engines' throughput against a same-run reference;
//! - [`prove`]: the formal proof of the emitted RTL (yosys + ABC);
//! - [`cost`]: yosys cell counts of the emitted RTL;
//! - [`cli`]: the eval and exec line protocols.

pub mod tools;

/// Coverage counts as JSON (the bins are golden's); imports no module of the crate.
pub mod coverage;

pub mod engine;

pub mod wave;

pub mod emit;

pub mod engines;
pub mod exec_campaign;

/// The engine's throughput by pattern and dtype (`crosslane bench --exec`).
pub mod exec_bench;

pub mod verify;

pub mod bench;

pub mod prove;

pub mod cost;

pub mod cli;

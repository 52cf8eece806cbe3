//! The engines behind [`crate::engine::Engine`]: the rust-hdl simulation
//! ([`hdl`]) and the emitted RTL under Verilator and Icarus ([`rtl`]);
//! [`open`] starts one by name.

pub mod hdl;
pub mod hdl_instr;
pub mod instr;
pub mod rtl;

use crate::engine::{Engine, EngineError, EngineKind, Golden, Runner};
use crosslane_golden::Case;
use rtl::{RtlEngine, Simulator};
use std::path::{Path, PathBuf};

/// Start an engine by kind.
pub fn open(kind: EngineKind) -> Result<Box<dyn Engine>, EngineError> {
    let config = kind.config();
    match kind.runner() {
        Runner::Golden => Ok(Box::new(Golden)),
        Runner::Hdl => Ok(Box::new(hdl::Hdl::new(config)?)),
        Runner::Verilator => Ok(Box::new(RtlEngine::new_form(Simulator::Verilator, config, kind.fast())?)),
        Runner::Icarus => Ok(Box::new(RtlEngine::new_form(Simulator::Icarus, config, kind.fast())?)),
    }
}

/// Re-run one case on `kind`'s unit with a VCD dump (rust-hdl's own for the
/// hdl engines, Icarus' of the RTL otherwise); returns the VCD's path.
pub fn trace_case(kind: EngineKind, case: &Case, dir: &Path) -> Result<PathBuf, EngineError> {
    match kind.runner() {
        Runner::Hdl => hdl::trace_case(case, dir, kind.config()),
        _ => rtl::trace_case(case, dir, kind.config(), kind.fast()),
    }
}

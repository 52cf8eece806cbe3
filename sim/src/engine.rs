//! Engines: anything that can run cases and return outcomes. Every engine
//! answers the same cases with the same bits as the golden model.

use crate::simulators::{RtlEngine, Simulator};
use crosslane_golden::{Case, Outcome};
use std::fmt;

/// The engines `eval` and `verify` know by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The bit-exact software model.
    Golden,
    /// The rust-hdl unit in rust-hdl's cycle-accurate simulation.
    Hdl,
    /// The emitted Verilog under Verilator.
    Verilator,
    /// The emitted Verilog under Icarus Verilog.
    Icarus,
}

impl EngineKind {
    pub const ALL: [EngineKind; 4] = [EngineKind::Golden, EngineKind::Hdl, EngineKind::Verilator, EngineKind::Icarus];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Golden => "golden",
            EngineKind::Hdl => "hdl",
            EngineKind::Verilator => "verilator",
            EngineKind::Icarus => "icarus",
        }
    }
}

/// An engine that could not start or could not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError(pub String);

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineError {}

pub trait Engine {
    fn kind(&self) -> EngineKind;
    /// Run every case, results in case order.
    fn run(&mut self, cases: &[Case]) -> Result<Vec<Outcome>, EngineError>;
}

/// The golden model as an engine.
pub struct Golden;

impl Engine for Golden {
    fn kind(&self) -> EngineKind {
        EngineKind::Golden
    }

    fn run(&mut self, cases: &[Case]) -> Result<Vec<Outcome>, EngineError> {
        Ok(cases.iter().map(Case::eval).collect())
    }
}

/// Start an engine by kind.
pub fn open(kind: EngineKind) -> Result<Box<dyn Engine>, EngineError> {
    match kind {
        EngineKind::Golden => Ok(Box::new(Golden)),
        EngineKind::Hdl => Ok(Box::new(crate::hdl_sim::Hdl::new()?)),
        EngineKind::Verilator => Ok(Box::new(RtlEngine::new(Simulator::Verilator)?)),
        EngineKind::Icarus => Ok(Box::new(RtlEngine::new(Simulator::Icarus)?)),
    }
}

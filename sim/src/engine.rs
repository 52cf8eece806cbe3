//! Engines: anything that can run cases and return outcomes. Every engine
//! answers the same cases with the same bits as the golden model.

use crate::simulators::{RtlEngine, Simulator};
use crosslane_golden::{Case, Outcome};
use crosslane_hdl::Config;
use std::fmt;

/// The engines `eval` and `verify` know by name. `hdl`, `verilator` and
/// `icarus` run the default configuration (`crosslane_reduce`); the
/// `-every2` / `-every3` engines run the others.
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
    #[value(name = "hdl-every2")]
    HdlEvery2,
    #[value(name = "hdl-every3")]
    HdlEvery3,
    #[value(name = "verilator-every2")]
    VerilatorEvery2,
    #[value(name = "verilator-every3")]
    VerilatorEvery3,
    #[value(name = "icarus-every2")]
    IcarusEvery2,
    #[value(name = "icarus-every3")]
    IcarusEvery3,
}

/// What runs an engine, whatever its configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runner {
    Golden,
    Hdl,
    Verilator,
    Icarus,
}

impl EngineKind {
    pub const ALL: [EngineKind; 10] = [
        EngineKind::Golden,
        EngineKind::Hdl,
        EngineKind::Verilator,
        EngineKind::Icarus,
        EngineKind::HdlEvery2,
        EngineKind::HdlEvery3,
        EngineKind::VerilatorEvery2,
        EngineKind::VerilatorEvery3,
        EngineKind::IcarusEvery2,
        EngineKind::IcarusEvery3,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Golden => "golden",
            EngineKind::Hdl => "hdl",
            EngineKind::Verilator => "verilator",
            EngineKind::Icarus => "icarus",
            EngineKind::HdlEvery2 => "hdl-every2",
            EngineKind::HdlEvery3 => "hdl-every3",
            EngineKind::VerilatorEvery2 => "verilator-every2",
            EngineKind::VerilatorEvery3 => "verilator-every3",
            EngineKind::IcarusEvery2 => "icarus-every2",
            EngineKind::IcarusEvery3 => "icarus-every3",
        }
    }

    pub fn runner(self) -> Runner {
        match self {
            EngineKind::Golden => Runner::Golden,
            EngineKind::Hdl | EngineKind::HdlEvery2 | EngineKind::HdlEvery3 => Runner::Hdl,
            EngineKind::Verilator | EngineKind::VerilatorEvery2 | EngineKind::VerilatorEvery3 => Runner::Verilator,
            EngineKind::Icarus | EngineKind::IcarusEvery2 | EngineKind::IcarusEvery3 => Runner::Icarus,
        }
    }

    /// The unit configuration it runs (the default for golden).
    pub fn config(self) -> Config {
        match self {
            EngineKind::HdlEvery2 | EngineKind::VerilatorEvery2 | EngineKind::IcarusEvery2 => Config { every: 2 },
            EngineKind::HdlEvery3 | EngineKind::VerilatorEvery3 | EngineKind::IcarusEvery3 => Config { every: 3 },
            _ => Config::DEFAULT,
        }
    }

    /// The engine of `runner` on `config`.
    pub fn of(runner: Runner, config: Config) -> EngineKind {
        EngineKind::ALL
            .into_iter()
            .find(|k| k.runner() == runner && (runner == Runner::Golden || k.config() == config))
            .unwrap_or(EngineKind::Golden)
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
    let config = kind.config();
    match kind.runner() {
        Runner::Golden => Ok(Box::new(Golden)),
        Runner::Hdl => Ok(Box::new(crate::hdl_sim::Hdl::with_config(config)?)),
        Runner::Verilator => Ok(Box::new(RtlEngine::with_config(Simulator::Verilator, config)?)),
        Runner::Icarus => Ok(Box::new(RtlEngine::with_config(Simulator::Icarus, config)?)),
    }
}

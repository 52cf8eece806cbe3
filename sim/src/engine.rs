//! The engine interface: anything that can run cases and return outcomes,
//! the engines' names, and what a unit's ports show. Every engine answers
//! the same cases with the same bits as the golden model. This module
//! imports no other module of this crate; the engines themselves are in
//! the `engines` module.

use crosslane_golden::{Case, Config, Outcome};
use std::fmt;

/// The engines `eval` and `verify` know by name. `hdl`, `verilator` and
/// `icarus` run the default configuration (`crosslane_reduce`); the
/// `-every2` / `-every3` engines run the others; the `-fast` engines run a
/// configuration's fast simulation form (`crosslane_reduce*_fast`, proven
/// equal to it at the ports) under the same simulator.
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
    #[value(name = "verilator-fast")]
    VerilatorFast,
    #[value(name = "verilator-every2-fast")]
    VerilatorEvery2Fast,
    #[value(name = "verilator-every3-fast")]
    VerilatorEvery3Fast,
    #[value(name = "icarus-fast")]
    IcarusFast,
    #[value(name = "icarus-every2-fast")]
    IcarusEvery2Fast,
    #[value(name = "icarus-every3-fast")]
    IcarusEvery3Fast,
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
    pub const ALL: [EngineKind; 16] = [
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
        EngineKind::VerilatorFast,
        EngineKind::VerilatorEvery2Fast,
        EngineKind::VerilatorEvery3Fast,
        EngineKind::IcarusFast,
        EngineKind::IcarusEvery2Fast,
        EngineKind::IcarusEvery3Fast,
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
            EngineKind::VerilatorFast => "verilator-fast",
            EngineKind::VerilatorEvery2Fast => "verilator-every2-fast",
            EngineKind::VerilatorEvery3Fast => "verilator-every3-fast",
            EngineKind::IcarusFast => "icarus-fast",
            EngineKind::IcarusEvery2Fast => "icarus-every2-fast",
            EngineKind::IcarusEvery3Fast => "icarus-every3-fast",
        }
    }

    pub fn runner(self) -> Runner {
        match self {
            EngineKind::Golden => Runner::Golden,
            EngineKind::Hdl | EngineKind::HdlEvery2 | EngineKind::HdlEvery3 => Runner::Hdl,
            EngineKind::Verilator
            | EngineKind::VerilatorEvery2
            | EngineKind::VerilatorEvery3
            | EngineKind::VerilatorFast
            | EngineKind::VerilatorEvery2Fast
            | EngineKind::VerilatorEvery3Fast => Runner::Verilator,
            EngineKind::Icarus
            | EngineKind::IcarusEvery2
            | EngineKind::IcarusEvery3
            | EngineKind::IcarusFast
            | EngineKind::IcarusEvery2Fast
            | EngineKind::IcarusEvery3Fast => Runner::Icarus,
        }
    }

    /// It runs the fast simulation form of its configuration.
    pub fn fast(self) -> bool {
        matches!(
            self,
            EngineKind::VerilatorFast
                | EngineKind::VerilatorEvery2Fast
                | EngineKind::VerilatorEvery3Fast
                | EngineKind::IcarusFast
                | EngineKind::IcarusEvery2Fast
                | EngineKind::IcarusEvery3Fast
        )
    }

    /// The unit configuration it runs (the default for golden).
    pub fn config(self) -> Config {
        match self {
            EngineKind::HdlEvery2
            | EngineKind::VerilatorEvery2
            | EngineKind::IcarusEvery2
            | EngineKind::VerilatorEvery2Fast
            | EngineKind::IcarusEvery2Fast => Config::ALL[1],
            EngineKind::HdlEvery3
            | EngineKind::VerilatorEvery3
            | EngineKind::IcarusEvery3
            | EngineKind::VerilatorEvery3Fast
            | EngineKind::IcarusEvery3Fast => Config::ALL[2],
            _ => Config::DEFAULT,
        }
    }

    /// The engine of `runner` on `config`; `None` where there is none (a
    /// configuration no engine of that runner runs; golden runs only the default).
    pub fn of(runner: Runner, config: Config) -> Option<EngineKind> {
        EngineKind::of_form(runner, config, false)
    }

    /// [`EngineKind::of`] of the synthesis form (`fast` false) or the fast
    /// simulation form.
    pub fn of_form(runner: Runner, config: Config, fast: bool) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|k| k.runner() == runner && k.config() == config && k.fast() == fast)
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

/// Every engine that clocks the unit (the rust-hdl simulation, the Verilator
/// harness, the SV testbench and so the Icarus engine) resets it in
/// mid-stream every this many cases, each time with a valid input in every
/// stage that must not come out. A prime, so that resets fall at every
/// position of a campaign's op order and the checked-in vectors see resets
/// in both of the testbench's phases.
pub const RESET_EVERY: usize = 997;

/// What the unit drives out after one clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observed {
    pub valid: bool,
    pub result: u32,
    pub mask: u64,
}

/// The unit's outputs as the golden model's outcome, every port bit kept:
/// all 32 bits of `result_o` (the contract puts 0 above the result's
/// width), and `mask_o` for rb* ops or whenever it is not 0 (the contract
/// puts 0 there for every other op), so a stray bit is a mismatch.
pub fn to_outcome(c: &Case, o: Observed) -> Outcome {
    let mask = (c.op.family.has_mask() || o.mask != 0).then_some(o.mask);
    Outcome { value: o.result, mask }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_golden::{Op, Vec512};

    #[test]
    fn every_port_bit_counts() {
        let c = Case::new(Op::from_name("radd_2nx8").unwrap(), Vec512::ZERO, u64::MAX);
        let clean = Observed { valid: true, result: 0, mask: 0 };
        assert_eq!(to_outcome(&c, clean), c.eval());
        // A bit above the 16-bit result, or a mask bit on a non-rb op, is a mismatch.
        assert_ne!(to_outcome(&c, Observed { result: 1 << 20, ..clean }), c.eval());
        assert_ne!(to_outcome(&c, Observed { mask: 1 << 63, ..clean }), c.eval());
        let rb = Case::new(Op::from_name("rbmax_n_2x32").unwrap(), Vec512::ZERO, u64::MAX);
        // rbmax_n_2x32 has 16 lanes: mask bits above them must be 0.
        assert_eq!(to_outcome(&rb, Observed { mask: 0xffff, ..clean }), rb.eval());
        assert_ne!(to_outcome(&rb, Observed { mask: 0x1_ffff, ..clean }), rb.eval());
    }

    #[test]
    fn every_engine_is_found_by_its_runner_and_configuration() {
        for k in EngineKind::ALL {
            assert_eq!(EngineKind::of_form(k.runner(), k.config(), k.fast()), Some(k), "{}", k.name());
        }
        // Golden runs no configuration but the default: no engine is made up.
        assert_eq!(EngineKind::of(Runner::Golden, Config::ALL[2]), None);
    }
}

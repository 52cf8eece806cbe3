//! A pipeline boundary: a register (`q` follows `d` at the rising edge of
//! `clock`) or, where the configuration puts no register, a wire. The unit
//! is the same wiring in every configuration; only its boundaries differ.
//!
//! Only the valid bits have an initial value (0): data and control
//! registers load every clock and are read only behind a valid, and without
//! an initial value a register whose input is constant (an op tied off in a
//! design that uses one op) is a constant to synthesis and disappears.

use rust_hdl::prelude::*;

#[derive(Clone, Debug, LogicBlock)]
pub struct Pipe<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
    _registered: bool,
    _init: bool,
}

impl<T: Synth> Pipe<T> {
    /// A register when `registered`, else a wire; no initial value.
    pub fn new(registered: bool) -> Self {
        Self {
            d: Default::default(),
            q: Default::default(),
            clock: Default::default(),
            _registered: registered,
            _init: false,
        }
    }

    /// A register (when `registered`) starting at 0: for valid bits.
    pub fn with_init(registered: bool) -> Self {
        Self { _init: true, ..Self::new(registered) }
    }

    pub fn registered(&self) -> bool {
        self._registered
    }
}

impl<T: Synth> Default for Pipe<T> {
    fn default() -> Self {
        Self::new(true)
    }
}

impl<T: Synth> Logic for Pipe<T> {
    fn update(&mut self) {
        if !self._registered || self.clock.pos_edge() {
            self.q.next = self.d.val();
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        if self._registered && self._init {
            Verilog::Custom(format!(
                "// A pipeline register.\ninitial q = {:x};\nalways @(posedge clock) q <= d;\n",
                T::default().verilog()
            ))
        } else if self._registered {
            Verilog::Custom("// A pipeline register.\nalways @(posedge clock) q <= d;\n".into())
        } else {
            Verilog::Custom(
                "// No register at this boundary in this configuration: a wire.\nalways @(*) q = d;\n".into(),
            )
        }
    }

    fn timing(&self) -> Vec<TimingInfo> {
        if self._registered {
            vec![TimingInfo {
                name: "pipe".into(),
                clock: "clock".into(),
                inputs: vec!["d".into()],
                outputs: vec!["q".into()],
            }]
        } else {
            vec![]
        }
    }
}

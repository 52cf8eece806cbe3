//! The `hdl` engines: the rust-hdl unit in rust-hdl's own cycle-accurate simulation, driven
//! directly: inputs settle before each rising edge, one vector per clock.

use crate::engine::{to_outcome, Engine, EngineError, EngineKind, Observed, Runner, RESET_EVERY};
use crosslane_golden::{Case, Outcome, Vec512};
use crosslane_hdl::{connected_unit, with_unit_stack, Config, CrosslaneReduce};
use num_bigint::BigUint;
use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_dump, write_vcd_header, VCDProbe};
use rust_hdl::prelude::*;
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// One clock's inputs: `None` is a cycle with `in_valid_i` low.
pub type Beat = Option<Case>;

/// A byte buffer the VCD probe writes into and the simulation reads back.
#[derive(Clone, Default)]
struct SharedBuf(Rc<RefCell<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The unit under simulation, optionally tracing every change to a VCD.
pub struct HdlSim {
    /// Boxed: the unit is a large value (see `crosslane_hdl::with_unit_stack`).
    uut: Box<CrosslaneReduce>,
    /// The configuration simulated; its latency is what the pipeline model expects.
    pub config: Config,
    vcd: Option<VCDProbe<SharedBuf>>,
    trace: SharedBuf,
    time: u64,
    /// Settles so far, and rust-hdl's `update_all` passes over the whole
    /// unit in them (each pass runs every block's update once): where the
    /// engine's time goes.
    pub settles: u64,
    pub passes: u64,
}

fn vec_bits(v: &Vec512) -> Bits<512> {
    BigUint::from_bytes_le(&v.0).into()
}

impl HdlSim {
    /// The unit of `config`, traced into a VCD when `trace`.
    pub fn new(trace: bool, config: Config) -> Result<HdlSim, EngineError> {
        let uut = connected_unit(config);
        let mut sim = HdlSim { uut, config, vcd: None, trace: SharedBuf::default(), time: 0, settles: 0, passes: 0 };
        if trace {
            let vcd = write_vcd_header(sim.trace.clone(), &*sim.uut);
            sim.vcd = Some(write_vcd_dump(vcd, &*sim.uut));
        }
        sim.uut.rst_ni.next = true;
        sim.settle()?;
        Ok(sim)
    }

    fn settle(&mut self) -> Result<(), EngineError> {
        // rust-hdl's `simulate`, counting its passes.
        let uut = &mut *self.uut;
        let passes = with_unit_stack(|| {
            for pass in 1..=200u64 {
                uut.update_all();
                if !uut.has_changed() {
                    return Some(pass);
                }
            }
            None
        });
        let Some(passes) = passes else {
            return Err(EngineError("hdl: the rust-hdl simulation did not settle".into()));
        };
        self.settles += 1;
        self.passes += passes;
        if let Some(vcd) = self.vcd.take() {
            let mut vcd = vcd;
            self.time += 5;
            let _ = vcd.timestamp(self.time);
            self.vcd = Some(write_vcd_change(vcd, &*self.uut));
        }
        Ok(())
    }

    /// Drive one clock: the falling edge and the inputs (and `rst_ni`)
    /// settle together (the flip-flops act on rising edges only), then the
    /// rising edge. Returns the outputs after the rising edge. Two settles a
    /// clock rather than three: the falling edge's own settle changed
    /// nothing but the clock (docs/performance.md).
    pub fn clock(&mut self, beat: Beat, reset: bool) -> Result<Observed, EngineError> {
        let u = &mut self.uut;
        u.clk_i.next = Clock { clk: false };
        u.rst_ni.next = !reset;
        match beat {
            Some(c) => {
                u.in_valid_i.next = true;
                u.op_i.next = (c.op.code() as u64).into();
                u.vec_i.next = vec_bits(&c.vec);
                u.vbool_i.next = c.vbool.into();
            }
            None => u.in_valid_i.next = false,
        }
        self.settle()?;
        self.uut.clk_i.next = Clock { clk: true };
        self.settle()?;
        Ok(Observed {
            valid: self.uut.out_valid_o.val(),
            result: self.uut.result_o.val().to_u64() as u32,
            mask: self.uut.mask_o.val().to_u64(),
        })
    }

    /// Run beats back to back and latency idle clocks after them.
    pub fn run_beats(&mut self, beats: &[(Beat, bool)]) -> Result<Vec<Observed>, EngineError> {
        let latency = self.config.latency();
        let mut out = Vec::with_capacity(beats.len() + latency);
        for &(b, reset) in beats {
            out.push(self.clock(b, reset)?);
        }
        for _ in 0..latency {
            out.push(self.clock(None, false)?);
        }
        Ok(out)
    }

    /// Write the trace so far to `path`.
    pub fn write_vcd(&mut self, path: &Path) -> std::io::Result<()> {
        if self.vcd.is_none() {
            return Err(std::io::Error::other("this simulation was not traced"));
        }
        let bytes = self.trace.0.borrow().clone();
        std::fs::write(path, bytes)
    }
}

/// Run cases back to back (one per clock) and collect each result exactly
/// latency clocks after its input. Every [`RESET_EVERY`] cases the
/// pipeline is drained, every stage filled with a sacrificial valid input,
/// and `rst_ni` held low for a clock with one more: none may come out.
/// `out_valid_o` is checked after every clock against a model of the valid
/// pipeline (what each stage holds; a reset empties it).
pub fn run_cases(sim: &mut HdlSim, cases: &[Case]) -> Result<Vec<Outcome>, EngineError> {
    let latency = sim.config.latency();
    // (beat, reset, the case index entering, if it must come out)
    let mut beats: Vec<(Beat, bool)> = Vec::with_capacity(cases.len() + 2 * latency);
    let mut entering: Vec<Option<usize>> = Vec::with_capacity(beats.capacity());
    for (i, c) in cases.iter().enumerate() {
        if i > 0 && i % RESET_EVERY == 0 {
            let junk = cases[i - 1];
            for k in 0..2 * latency {
                let valid = k >= latency;
                beats.push((valid.then_some(junk), k == 2 * latency - 1));
                entering.push(None);
            }
        }
        beats.push((Some(*c), false));
        entering.push(Some(i));
    }
    let obs = sim.run_beats(&beats)?;
    let mut pipe: Vec<Option<usize>> = vec![None; latency];
    let mut out = Vec::with_capacity(cases.len());
    for (t, o) in obs.iter().enumerate() {
        let (reset, enter) = match beats.get(t) {
            Some(&(_, reset)) => (reset, entering[t]),
            None => (false, None),
        };
        if reset {
            pipe.iter_mut().for_each(|p| *p = None);
        } else {
            pipe.rotate_right(1);
            pipe[0] = enter;
        }
        let want = pipe[latency - 1];
        if o.valid != want.is_some() {
            return Err(EngineError(format!(
                "hdl: out_valid_o is {} after clock {t} of a run of {} cases; want {} (latency {latency})",
                o.valid as u8,
                cases.len(),
                want.is_some() as u8
            )));
        }
        if let Some(i) = want {
            if i != out.len() {
                return Err(EngineError(format!("hdl: case {i} came out in place of case {}", out.len())));
            }
            out.push(to_outcome(&cases[i], *o));
        }
    }
    if out.len() != cases.len() {
        return Err(EngineError(format!("hdl: {} results for {} cases", out.len(), cases.len())));
    }
    Ok(out)
}

/// Re-run one case on the unit of `config` with tracing on and keep the
/// VCD; returns its path.
pub fn trace_case(case: &Case, dir: &Path, config: Config) -> Result<PathBuf, EngineError> {
    let mut sim = HdlSim::new(true, config)?;
    run_cases(&mut sim, std::slice::from_ref(case))?;
    std::fs::create_dir_all(dir).map_err(|e| EngineError(format!("hdl: cannot create {}: {e}", dir.display())))?;
    let path = dir.join(format!("hdl-{}-{}.vcd", config.name(), case.op.name()));
    sim.write_vcd(&path).map_err(|e| EngineError(format!("hdl: cannot write {}: {e}", path.display())))?;
    Ok(path)
}

/// The rust-hdl simulation as an engine.
pub struct Hdl {
    sim: HdlSim,
    kind: EngineKind,
}

impl Hdl {
    pub fn new(config: Config) -> Result<Hdl, EngineError> {
        let kind = EngineKind::of(Runner::Hdl, config)
            .ok_or_else(|| EngineError(format!("no hdl engine runs {}", config.name())))?;
        Ok(Hdl { sim: HdlSim::new(false, config)?, kind })
    }
}

impl Engine for Hdl {
    fn kind(&self) -> EngineKind {
        self.kind
    }

    fn run(&mut self, cases: &[Case]) -> Result<Vec<Outcome>, EngineError> {
        run_cases(&mut self.sim, cases)
    }
}

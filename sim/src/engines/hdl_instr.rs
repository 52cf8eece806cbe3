//! The instruction engine in rust-hdl's own simulation (`exec --engine hdl`):
//! `crosslane_hdl::engine::Engine` driven directly, with the SBUF and the
//! protocol checks of the RTL harnesses (`generated/tb/crosslane_engine_harness.cpp`)
//! written in Rust. Slow (rust-hdl's simulator): for the spec's examples and
//! a sample of the campaign, the large campaigns run on Verilator.

use super::instr::{
    clock_limit, read_ready, InstrCase, InstrOutcome, InstrRunner, AFTER_LAST, JUNK, READY_CLOCKS, STALL_SEED,
};
use crosslane_hdl::engine::fill::LANES;
use crosslane_hdl::engine::Engine;
use crosslane_hdl::with_unit_stack;
use num_bigint::BigUint;
use rust_hdl::prelude::*;

/// Bytes of an SBUF row, the width of the ports.
const ROW: usize = 64;

/// The engine under rust-hdl's simulation and the SBUF it reads and writes.
pub struct HdlInstrEngine {
    /// Boxed: the engine holds the reduce unit, a large value.
    uut: Box<Engine>,
    pb: usize,
    /// Partitions are laid out in whole rows: pitch = pb rounded up to 64.
    pitch: usize,
    sbuf: Vec<u8>,
    clocks: u64,
    fault: Option<String>,
    /// Between taking an instruction and its done_o: the only time a write may come.
    executing: bool,
    /// Reads taken since the instruction was: a write before the first is never the instruction's.
    reads_taken: u64,
    /// The read port's stalls: percent of clocks and the xorshift32 state (the RTL harnesses').
    stall: u8,
    rng: u32,
}

fn to_bits<const N: usize>(bytes: &[u8]) -> Bits<N> {
    BigUint::from_bytes_le(bytes).into()
}

fn to_bytes(bits: Bits<512>) -> [u8; ROW] {
    let mut row = [0u8; ROW];
    let le = BigUint::from(bits).to_bytes_le();
    row[..le.len().min(ROW)].copy_from_slice(&le[..le.len().min(ROW)]);
    row
}

impl HdlInstrEngine {
    /// The engine, reset.
    pub fn new() -> Result<HdlInstrEngine, String> {
        let uut = with_unit_stack(|| {
            let mut e = Box::new(Engine::default());
            e.connect_all();
            e
        });
        let mut engine = HdlInstrEngine {
            uut,
            pb: 0,
            pitch: 0,
            sbuf: Vec::new(),
            clocks: 0,
            fault: None,
            executing: false,
            reads_taken: 0,
            stall: 0,
            rng: STALL_SEED,
        };
        engine.uut.inst_valid_i.next = false;
        engine.reset()?;
        Ok(engine)
    }

    /// Reset: four clocks low, one high.
    fn reset(&mut self) -> Result<(), String> {
        self.uut.rst_ni.next = false;
        for _ in 0..4 {
            self.tick()?;
        }
        self.uut.rst_ni.next = true;
        self.tick()
    }

    fn settle(&mut self) -> Result<(), String> {
        let uut = &mut *self.uut;
        let settled = with_unit_stack(|| {
            for _ in 0..200 {
                uut.update_all();
                if !uut.has_changed() {
                    return true;
                }
            }
            false
        });
        if settled {
            Ok(())
        } else {
            Err("hdl: the rust-hdl simulation did not settle".into())
        }
    }

    /// One clock: the inputs settle with the clock low, the rising edge,
    /// then the SBUF's edge (a read returns the row as it was before this
    /// edge's write).
    fn tick(&mut self) -> Result<(), String> {
        let ready = read_ready(self.stall, &mut self.rng);
        self.uut.rd_ready_i.next = ready;
        self.uut.clk_i.next = Clock { clk: false };
        self.settle()?;
        let u = &self.uut;
        let lanes = if ready { u.rd_valid_o.val().to_u64() } else { 0 };
        self.reads_taken += u64::from(lanes != 0);
        let rd = (lanes, u.rd_partition_o.val().index(), u.rd_row_o.val().index());
        let wr = u.wr_valid_o.val().then(|| {
            (
                u.wr_partition_o.val().index(),
                u.wr_row_o.val().index(),
                to_bytes(u.wr_data_o.val()),
                u.wr_strb_o.val().to_u64(),
            )
        });
        self.uut.clk_i.next = Clock { clk: true };
        self.settle()?;
        self.clocks += 1;
        // Lane j's row: partition p + j; lanes not read, junk.
        let mut rows = [JUNK; ROW * LANES];
        let (lanes, p, r) = rd;
        for j in (0..LANES).filter(|j| lanes >> j & 1 == 1) {
            if p + j < 128 && r * ROW < self.pb {
                let at = (p + j) * self.pitch + r * ROW;
                rows[j * ROW..(j + 1) * ROW].copy_from_slice(&self.sbuf[at..at + ROW]);
            } else {
                self.fault.get_or_insert_with(|| "a read outside the SBUF".into());
            }
        }
        if let Some((p, r, data, strb)) = wr {
            if !self.executing {
                self.fault.get_or_insert_with(|| "a write between instructions".into());
            } else if self.reads_taken == 0 {
                self.fault.get_or_insert_with(|| "a write before the instruction's first read".into());
            }
            if p < 128 && r * ROW < self.pb {
                for (b, byte) in data.iter().enumerate().filter(|(b, _)| strb >> b & 1 == 1) {
                    if r * ROW + b >= self.pb {
                        self.fault.get_or_insert_with(|| "a write outside the SBUF".into());
                    } else {
                        self.sbuf[p * self.pitch + r * ROW + b] = *byte;
                    }
                }
            } else {
                self.fault.get_or_insert_with(|| "a write outside the SBUF".into());
            }
        }
        self.uut.rd_data_i.next = to_bits(&rows);
        Ok(())
    }

    fn run_case(&mut self, case: &InstrCase) -> Result<InstrOutcome, String> {
        if case.partition_bytes == 0 || case.partition_bytes > 1 << 21 {
            return Err(format!("hdl: partition_bytes {} is outside 1 to 2^21", case.partition_bytes));
        }
        self.pb = case.partition_bytes;
        self.pitch = self.pb.div_ceil(ROW) * ROW;
        self.stall = case.read_stall.min(100);
        self.rng = STALL_SEED;
        self.sbuf.clear();
        self.sbuf.resize(128 * self.pitch, 0);
        self.fault = None;
        for (p, o, bytes) in &case.writes {
            if *p >= 128 || o + bytes.len() > self.pb {
                return Err(format!("hdl: a write of {} bytes at {p}:{o} is outside the SBUF", bytes.len()));
            }
            let at = p * self.pitch + o;
            self.sbuf[at..at + bytes.len()].copy_from_slice(bytes);
        }
        for _ in 0..READY_CLOCKS {
            if self.uut.inst_ready_o.val() {
                break;
            }
            self.tick()?;
        }
        if !self.uut.inst_ready_o.val() {
            self.fault = Some(format!("inst_ready_o low for {READY_CLOCKS} clocks"));
        }
        self.uut.pb_i.next = (self.pb as u64).into();
        self.uut.inst_i.next = to_bits(&case.inst.encode());
        self.uut.inst_valid_i.next = self.fault.is_none();
        self.executing = true;
        self.reads_taken = 0;
        self.tick()?;
        self.uut.inst_valid_i.next = false;
        let start = self.clocks;
        let limit = clock_limit(&case.inst);
        while self.fault.is_none() {
            self.uut.clk_i.next = Clock { clk: false };
            self.settle()?;
            if self.uut.done_o.val() {
                break;
            }
            if self.clocks - start > limit {
                self.fault.get_or_insert_with(|| format!("no done_o in {limit} clocks"));
                break;
            }
            self.tick()?;
        }
        let cycles = self.clocks - start + 1;
        // Every write is issued before done_o: none in its clock.
        if self.uut.done_o.val() && self.uut.wr_valid_o.val() {
            self.fault.get_or_insert_with(|| "a write in the done_o clock".into());
        }
        self.executing = false;
        let (accepted, rule) = (self.uut.accepted_o.val(), self.uut.rule_o.val().to_u64() as u8);
        if self.fault.is_some() {
            // The engine broke the protocol: reset, so the next case starts clean.
            self.reset()?;
        }
        // Else the engine stays in the done clock: the next instruction is taken in it.
        if let Some(why) = self.fault.take() {
            return Ok(InstrOutcome::Fail(why));
        }
        if !accepted {
            return Ok(InstrOutcome::Reject { rule, cycles });
        }
        let mut reads = Vec::with_capacity(case.reads.len());
        for &(p, o, len) in &case.reads {
            if p >= 128 || o + len > self.pb {
                return Err(format!("hdl: a read of {len} bytes at {p}:{o} is outside the SBUF"));
            }
            reads.push(self.sbuf[p * self.pitch + o..p * self.pitch + o + len].to_vec());
        }
        Ok(InstrOutcome::Done { cycles, reads })
    }
}

impl InstrRunner for HdlInstrEngine {
    fn run(&mut self, case: &InstrCase) -> Result<InstrOutcome, String> {
        self.run_case(case)
    }

    fn name(&self) -> &'static str {
        "hdl"
    }

    fn finish(&mut self) -> Result<(), String> {
        for _ in 0..AFTER_LAST {
            self.tick()?;
            if self.uut.wr_valid_o.val() {
                return Err("hdl: a write after the last instruction's done_o".into());
            }
        }
        Ok(())
    }
}

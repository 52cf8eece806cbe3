//! The instruction engine (`generated/rtl/crosslane_engine.v`) under
//! Verilator or Icarus, behind a harness that holds the SBUF
//! (`generated/tb/crosslane_engine_harness.cpp`, `..._icarus.sv`): a case in (an SBUF image, the instruction, the
//! regions to read back), the engine's verdict, its clocks and the regions out.

use super::rtl::{cached_build, Simulator, VERILATOR_BUILD};
use crate::emit::{
    GeneratedFile, ENGINE_HARNESS, ENGINE_HARNESS_ICARUS, ENGINE_LANES8_MODULE, ENGINE_LANES8_RTL, ENGINE_MODULE,
    ENGINE_RTL,
};
use crate::tools::{generated_dir, require};
use crosslane_golden::instruction::{RawInstruction, RULE_NAMES};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// One instruction on an SBUF image.
#[derive(Clone, Debug)]
pub struct InstrCase {
    pub partition_bytes: usize,
    /// (partition, offset, bytes) written before the instruction.
    pub writes: Vec<(usize, usize, Vec<u8>)>,
    pub inst: RawInstruction,
    /// (partition, offset, length) read after it.
    pub reads: Vec<(usize, usize, usize)>,
    /// How the harness serves the read port: it stalls (rd_ready_i low) in
    /// this percent of clocks, drawn by [`read_ready`] (0: never; D62).
    /// The results may not depend on it, only the clocks.
    pub read_stall: u8,
}

pub use crate::emit::{AFTER_LAST, JUNK, READY_CLOCKS, STALL_SEED};

/// The read port's stall draw of every harness, one a clock: xorshift32
/// from [`STALL_SEED`] at each case, ready unless the draw mod 100 falls
/// below `stall`. (The C++ and SystemVerilog harnesses have it too.)
pub fn read_ready(stall: u8, rng: &mut u32) -> bool {
    if stall == 0 {
        return true;
    }
    *rng ^= *rng << 13;
    *rng ^= *rng >> 17;
    *rng ^= *rng << 5;
    *rng % 100 >= u32::from(stall)
}

/// What the engine did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstrOutcome {
    /// Accepted and finished: the regions read back, the clocks from the
    /// instruction taken to `done_o`.
    Done { cycles: u64, reads: Vec<Vec<u8>> },
    /// Rejected by rule `rule` (1 to 13, [`RULE_NAMES`]).
    Reject { rule: u8, cycles: u64 },
    /// The harness saw the engine break its protocol (no `done_o` in time,
    /// a write after it, an access outside the SBUF).
    Fail(String),
}

impl InstrOutcome {
    /// The rule's name of a reject.
    pub fn rule_name(rule: u8) -> &'static str {
        RULE_NAMES.get((rule as usize).wrapping_sub(1)).copied().unwrap_or("(no such rule)")
    }
}

/// An engine that runs instructions: the RTL under a simulator
/// ([`InstrEngine`]) or rust-hdl's simulation
/// ([`super::hdl_instr::HdlInstrEngine`]).
pub trait InstrRunner {
    /// Run one case.
    fn run(&mut self, case: &InstrCase) -> Result<InstrOutcome, String>;
    /// The engine's name (`hdl`, `verilator`, `icarus`).
    fn name(&self) -> &'static str;
    /// After the last case: the engine watched for a stray write (instructions
    /// run back to back, so a write after a `done_o` shows as one before the
    /// next instruction's first read; after the last one, here).
    fn finish(&mut self) -> Result<(), String>;
}

/// A runner whose every case stalls the read port `stall` percent of its
/// clocks (`exec --read-stall`): the answers the same, the clocks more.
pub struct WithStall {
    pub inner: Box<dyn InstrRunner>,
    pub stall: u8,
}

impl InstrRunner for WithStall {
    fn run(&mut self, case: &InstrCase) -> Result<InstrOutcome, String> {
        self.inner.run(&InstrCase { read_stall: self.stall, ..case.clone() })
    }

    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn finish(&mut self) -> Result<(), String> {
        self.inner.finish()
    }
}

/// The instruction engines' names: the engine of 16 lanes in rust-hdl's
/// simulation, Verilator and Icarus; the engine of 8 lanes (the one that
/// fits an ECP5; D66) in Verilator and Icarus.
pub const ENGINES: [&str; 5] = ["hdl", "verilator", "icarus", "verilator-lanes8", "icarus-lanes8"];

/// The instruction engines by name ([`ENGINES`]).
pub fn open(name: &str) -> Result<Box<dyn InstrRunner>, String> {
    Ok(match name {
        "hdl" => Box::new(super::hdl_instr::HdlInstrEngine::new()?),
        "verilator" => Box::new(InstrEngine::new(Simulator::Verilator)?),
        "icarus" => Box::new(InstrEngine::new(Simulator::Icarus)?),
        "verilator-lanes8" => Box::new(InstrEngine::lanes8(Simulator::Verilator)?),
        "icarus-lanes8" => Box::new(InstrEngine::lanes8(Simulator::Icarus)?),
        other => return Err(format!("unknown engine '{other}' (golden, {})", ENGINES.join(", "))),
    })
}

/// The harness each simulator runs the engine in.
fn harness(sim: Simulator) -> &'static str {
    match sim {
        Simulator::Verilator => ENGINE_HARNESS,
        Simulator::Icarus => ENGINE_HARNESS_ICARUS,
    }
}

/// The checked-in files `sim`'s build compiles: the engine and its harness.
pub fn sources(sim: Simulator) -> Result<Vec<GeneratedFile>, String> {
    [ENGINE_RTL, harness(sim)].iter().map(|p| checked_in(p)).collect()
}

/// The same with the engine of 8 lanes in the engine's place: its modules
/// renamed to the 16-lane engine's, which the harnesses instantiate (the
/// ports are the same; D66).
pub fn sources_lanes8(sim: Simulator) -> Result<Vec<GeneratedFile>, String> {
    let engine = checked_in(ENGINE_LANES8_RTL)?;
    let renamed = engine.contents.replace(ENGINE_LANES8_MODULE, ENGINE_MODULE);
    Ok(vec![GeneratedFile { path: PathBuf::from(ENGINE_RTL), contents: renamed }, checked_in(harness(sim))?])
}

fn checked_in(p: &str) -> Result<GeneratedFile, String> {
    let path = generated_dir().join(p);
    std::fs::read_to_string(&path)
        .map(|contents| GeneratedFile { path: PathBuf::from(p), contents })
        .map_err(|e| format!("cannot read {}: {e} (run `crosslane generate`)", path.display()))
}

/// Build (or find in the cache) the engine's model under `sim` over `files`
/// ([`sources`] or a variant of them): the executable (Verilator) or the
/// vvp image (Icarus).
pub fn build(sim: Simulator, files: &[GeneratedFile]) -> Result<PathBuf, String> {
    let built = match sim {
        Simulator::Verilator => {
            require("the Verilator engine", &["verilator", "make", "g++"], "verilator")?;
            cached_build("verilator-engine", b"", files, "harness", |dir| {
                let mut c = Command::new("verilator");
                c.args(VERILATOR_BUILD)
                    .args(["-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", ENGINE_MODULE])
                    .arg("-Mdir")
                    .arg(dir.join("obj"))
                    .arg("-o")
                    .arg(dir.join("harness"))
                    .args(files.iter().map(|f| dir.join(&f.path)))
                    .args(["-CFLAGS", "-O2"])
                    // Code run once unoptimized, as the unit's (D57).
                    .args(["-MAKEFLAGS", "OPT_SLOW=-O0"]);
                c
            })
        }
        Simulator::Icarus => {
            require("the Icarus engine", &["iverilog", "vvp"], "iverilog")?;
            cached_build("icarus-engine", b"", files, "harness.vvp", |dir| {
                let mut c = Command::new("iverilog");
                c.args(["-g2012", "-s", &format!("{ENGINE_MODULE}_harness_icarus"), "-o"])
                    .arg(dir.join("harness.vvp"))
                    .args(files.iter().map(|f| dir.join(&f.path)));
                c
            })
        }
    };
    Ok(built.map_err(|e| e.0)?.exe)
}

/// The engine running under a simulator, one case at a time.
pub struct InstrEngine {
    /// `verilator`, `icarus` or their `-lanes8`.
    name: &'static str,
    child: Child,
    /// None once closed (the harness then ends).
    input: Option<BufWriter<ChildStdin>>,
    output: BufReader<ChildStdout>,
    cases: u64,
}

impl InstrEngine {
    /// On the checked-in RTL.
    pub fn new(sim: Simulator) -> Result<InstrEngine, String> {
        InstrEngine::on(sim, &sources(sim)?)
    }

    /// On the checked-in RTL of the engine of 8 lanes.
    pub fn lanes8(sim: Simulator) -> Result<InstrEngine, String> {
        let mut e = InstrEngine::on(sim, &sources_lanes8(sim)?)?;
        e.name = match sim {
            Simulator::Verilator => "verilator-lanes8",
            Simulator::Icarus => "icarus-lanes8",
        };
        Ok(e)
    }

    /// On `files` ([`sources`], some of them changed: a planted bug).
    pub fn on(sim: Simulator, files: &[GeneratedFile]) -> Result<InstrEngine, String> {
        InstrEngine::start(sim, &build(sim, files)?, None)
    }

    fn start(sim: Simulator, exe: &Path, vcd: Option<&Path>) -> Result<InstrEngine, String> {
        let mut command = match sim {
            Simulator::Verilator => Command::new(exe),
            Simulator::Icarus => {
                let mut c = Command::new("vvp");
                c.arg("-n").arg(exe);
                if let Some(vcd) = vcd {
                    c.arg(format!("+vcd={}", vcd.display()));
                }
                c
            }
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let input = BufWriter::new(child.stdin.take().ok_or("the harness has no stdin")?);
        let output = BufReader::new(child.stdout.take().ok_or("the harness has no stdout")?);
        Ok(InstrEngine { name: sim.name(), child, input: Some(input), output, cases: 0 })
    }
}

impl InstrRunner for InstrEngine {
    fn name(&self) -> &'static str {
        self.name
    }

    fn run(&mut self, case: &InstrCase) -> Result<InstrOutcome, String> {
        self.cases += 1;
        let id = self.cases;
        let name = self.name;
        let io = |e: std::io::Error| format!("the engine's harness ({name}): {e}");
        let text = requests(id, case);
        let input = self.input.as_mut().ok_or("the engine's harness is closed")?;
        input.write_all(text.as_bytes()).map_err(io)?;
        input.flush().map_err(io)?;
        let mut line = String::new();
        // vvp prints its own "VCD info: ..." lines on stdout when dumping.
        while line.is_empty() || line.starts_with("VCD ") {
            line.clear();
            if self.output.read_line(&mut line).map_err(io)? == 0 {
                return Err(format!("the engine's harness ({name}) stopped without answering"));
            }
        }
        parse_answer(line.trim_end_matches('\n'), id, case.reads.len())
    }

    fn finish(&mut self) -> Result<(), String> {
        let name = self.name;
        // End of input: the harness watches the clocks after the last done_o, then exits.
        self.input = None;
        let mut rest = String::new();
        let read = std::io::Read::read_to_string(&mut self.output, &mut rest);
        let status = self.child.wait().map_err(|e| format!("the engine's harness ({name}): {e}"))?;
        read.map_err(|e| format!("the engine's harness ({name}): {e}"))?;
        // Its last line says; vvp's own "VCD info" lines may come before it.
        match rest.lines().rev().find(|l| l.starts_with("end ")) {
            Some("end ok") if status.success() => Ok(()),
            Some(end) => Err(format!("the engine's harness ({name}): {}", end.trim_start_matches("end "))),
            None => Err(format!("the engine's harness ({name}) ended without its end line ({status})")),
        }
    }
}

impl Drop for InstrEngine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The harness's request lines for case `id` (the protocol in
/// `generated/tb/crosslane_engine_harness.cpp`); writes cut into lines of at
/// most 64 bytes, which both harnesses take.
fn requests(id: u64, case: &InstrCase) -> String {
    let mut text = format!("C {id} {} {}\n", case.partition_bytes, case.read_stall.min(100));
    for (p, o, bytes) in &case.writes {
        for (i, chunk) in bytes.chunks(WRITE_LINE_BYTES).enumerate() {
            text.push_str(&format!("W {p} {} {}\n", o + i * WRITE_LINE_BYTES, hex(chunk)));
        }
    }
    text.push_str(&format!("I {} {}\n", case.inst.to_hex(), clock_limit(&case.inst)));
    for (p, o, len) in &case.reads {
        text.push_str(&format!("R {p} {o} {len}\n"));
    }
    text.push_str("E\n");
    text
}

/// The clocks a harness waits for an invalid instruction's reject (the
/// engine's check takes a few).
pub const REJECT_CLOCKS: u64 = 100;

/// The most bytes a `W` line carries (the Icarus harness reads one into a 512-bit number).
const WRITE_LINE_BYTES: usize = 64;

/// Run `case` alone on the Icarus engine over `files` with its waves dumped
/// to `vcd`: what a failing instruction leaves behind. The engine starts from
/// reset, so the waves show this instruction alone.
pub fn trace(files: &[GeneratedFile], case: &InstrCase, vcd: &Path) -> Result<InstrOutcome, String> {
    let icarus: Vec<GeneratedFile> = files
        .iter()
        .filter(|f| ![ENGINE_HARNESS, ENGINE_HARNESS_ICARUS].iter().any(|h| f.path.as_path() == Path::new(h)))
        .cloned()
        .chain(sources(Simulator::Icarus)?.into_iter().filter(|f| f.path.as_path() == Path::new(ENGINE_HARNESS_ICARUS)))
        .collect();
    let exe = build(Simulator::Icarus, &icarus)?;
    let mut engine = InstrEngine::start(Simulator::Icarus, &exe, Some(vcd))?;
    let outcome = engine.run(case)?;
    // Close stdin so the harness ends and writes the whole VCD.
    engine.input = None;
    engine.child.wait().map_err(|e| format!("the Icarus harness: {e}"))?;
    Ok(outcome)
}

/// The clocks an instruction may take before the harness calls it hung:
/// every element read with a column's wait after it, and room to spare; an
/// invalid instruction's reject comes within [`REJECT_CLOCKS`].
pub fn clock_limit(inst: &RawInstruction) -> u64 {
    if inst.validate(crosslane_golden::instruction::MAX_PARTITION_BYTES).is_err() {
        return REJECT_CLOCKS;
    }
    let work = inst.src.elements().saturating_mul(inst.num_active_channels.max(1) as u64);
    work.saturating_mul(2 + crosslane_hdl::engine::DEPTH as u64).saturating_add(1000).min(1 << 40)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len() / 2).map(|i| u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()).collect()
}

/// The harness's answer line to case `id` with `reads` regions.
fn parse_answer(line: &str, id: u64, reads: usize) -> Result<InstrOutcome, String> {
    let bad = || format!("the engine's harness answered '{line}' to case {id}");
    let mut words = line.split(' ');
    if words.next() != Some(id.to_string().as_str()) {
        return Err(bad());
    }
    match words.next() {
        Some("ok") => {
            let cycles = words.next().and_then(|c| c.parse().ok()).ok_or_else(bad)?;
            let regions: Vec<Vec<u8>> = words.map(unhex).collect::<Option<_>>().ok_or_else(bad)?;
            // An empty answer for zero regions, one word a region otherwise.
            let regions =
                if reads == 0 && regions.len() <= 1 && regions.iter().all(Vec::is_empty) { vec![] } else { regions };
            if regions.len() != reads {
                return Err(bad());
            }
            Ok(InstrOutcome::Done { cycles, reads: regions })
        }
        Some("reject") => {
            let rule = words.next().and_then(|r| r.parse().ok()).ok_or_else(bad)?;
            let cycles = words.next().and_then(|c| c.parse().ok()).ok_or_else(bad)?;
            Ok(InstrOutcome::Reject { rule, cycles })
        }
        Some("fail") => Ok(InstrOutcome::Fail(words.collect::<Vec<_>>().join(" "))),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_or_are_refused() {
        assert_eq!(
            parse_answer("3 ok 24 0a00 ff", 3, 2),
            Ok(InstrOutcome::Done { cycles: 24, reads: vec![vec![10, 0], vec![255]] })
        );
        assert_eq!(parse_answer("3 ok 24", 3, 0), Ok(InstrOutcome::Done { cycles: 24, reads: vec![] }));
        assert_eq!(parse_answer("3 reject 7 4", 3, 1), Ok(InstrOutcome::Reject { rule: 7, cycles: 4 }));
        assert_eq!(
            parse_answer("3 fail a write after done_o", 3, 1),
            Ok(InstrOutcome::Fail("a write after done_o".into()))
        );
        assert!(parse_answer("4 ok 24 0a00", 3, 1).is_err());
        assert!(parse_answer("3 ok 24 0a00", 3, 2).is_err());
        assert!(parse_answer("3 ok x 0a00", 3, 1).is_err());
        assert!(parse_answer("3 maybe", 3, 1).is_err());
        assert_eq!(InstrOutcome::rule_name(1), "opcode");
        assert_eq!(InstrOutcome::rule_name(13), "bitvec_dtype");
        assert_eq!(InstrOutcome::rule_name(0), "(no such rule)");
    }
}

//! `crosslane prove`: a formal equivalence check of the RTL (by default the
//! checked-in `generated/rtl/crosslane_reduce.v`) against an independent
//! reference ([`crate::emit::reference`]), one proof per op.
//!
//! (An op that fails is solved again with `PRE` clocks unrolled before the
//! checked one, so that the counterexample's state is reachable and
//! replays; see [`unroll`].)
//!
//! The proof is sequential and leaves everything free but the op of the
//! checked clock. yosys cuts the unit's flip-flops and [`unroll`] chains
//! `LATENCY + 1` clocks of it into one combinational circuit with a free
//! start state, free inputs at every clock, and `op_i` tied to the op only
//! at clock 0. The miter is high when, `LATENCY` edges later, `out_valid_o`
//! differs from "`in_valid_i` at clock 0 and no reset in between", or
//! `result_o` / `mask_o` (all 32 and 64 bits) differ from the reference of
//! clock 0's `vec_i` / `vbool_i` while `out_valid_o` is high. A free start
//! state covers every reachable state and more, so a proof holds at every
//! clock of every run. yosys turns the miter into an AIG with the op
//! constant-folded; ABC (`&cec -m` or `iprove`, see [`abc`]) proves it unsatisfiable or gives a
//! counterexample, which [`replay`] runs through the RTL under Icarus and
//! checks against the golden model.

pub mod aig;
pub mod fp;
pub mod replay;
pub mod sound;
pub mod unroll;

use crate::emit::reference;
use crate::tools::{cache_root, fnv1a, require, run_limited, tail};
use crosslane_golden::Config;
use crosslane_golden::{Fold, Op};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use unroll::Register;

/// Clocks unrolled before the checked one (see [`unroll`]): the latency.
pub const fn pre(config: Config) -> usize {
    config.latency()
}

/// Bits of the op select (`op_i`, `op_checked`).
const OP_BITS: usize = crosslane_golden::OP_SELECT_BITS;

/// From this many ops on, [`Prover::prove`] builds one shared miter.
pub const SHARED_MIN: usize = 8;

/// The inputs of a counterexample at each clock: `pre` clocks, the checked
/// clock (its op the op proved), and `latency` more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cex {
    pub clocks: Vec<Clock>,
    pub pre: usize,
    pub latency: usize,
}

impl Cex {
    /// The checked clock's inputs.
    pub fn checked(&self) -> Option<&Clock> {
        self.clocks.get(self.pre)
    }
}

/// The unit's inputs at one clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub op: u16,
    pub vec: [u8; 64],
    pub vbool: u64,
    pub in_valid: bool,
    pub rst_n: bool,
}

/// How one op's proof ended.
#[derive(Clone, Debug)]
pub enum Status {
    Proven,
    /// The miter is satisfiable; the replay's verdict beside it.
    Counterexample {
        cex: Cex,
        replay: Result<replay::Replayed, String>,
    },
    /// The solver ran out of time: not a proof.
    Timeout,
    /// A tool failed; the message says which and why.
    Error(String),
}

#[derive(Clone, Debug)]
pub struct OpProof {
    pub op: Op,
    pub status: Status,
    pub secs: f64,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock { op: 0, vec: [0; 64], vbool: 0, in_valid: false, rst_n: false }
    }
}

impl OpProof {
    pub fn proven(&self) -> bool {
        matches!(self.status, Status::Proven)
    }

    /// One word for the table.
    pub fn verdict(&self) -> &'static str {
        self.status.verdict()
    }
}

impl Status {
    /// One word for the table.
    pub fn verdict(&self) -> &'static str {
        match self {
            Status::Proven => "proven",
            Status::Counterexample { .. } => "counterexample",
            Status::Timeout => "timeout",
            Status::Error(_) => "error",
        }
    }
}

/// What one proof is about: one op, or every code of `op_i` that is no op
/// (D1: the unit gives `result_o` and `mask_o` 0 for them, `out_valid_o` as
/// for any op), proven at once with the checked clock's code free among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Op(Op),
    NoOp,
}

/// The name of [`Target::NoOp`] (on the command line, in tables and reports).
pub const NO_OP_NAME: &str = "no-op";

impl Target {
    pub fn name(&self) -> String {
        match self {
            Target::Op(op) => op.name(),
            Target::NoOp => NO_OP_NAME.to_string(),
        }
    }

    /// The op the checked clock is tied to (`None`: the no-op codes).
    pub fn op(&self) -> Option<Op> {
        match self {
            Target::Op(op) => Some(*op),
            Target::NoOp => None,
        }
    }

    fn reference(&self) -> (String, String) {
        match self {
            Target::Op(op) => (reference::verilog(*op), reference::module(*op)),
            Target::NoOp => (reference::no_op_verilog(), reference::NO_OP_MODULE.to_string()),
        }
    }

    /// Whether `&cec` is slow on it (see [`abc`]).
    fn numeric(&self) -> bool {
        matches!(self, Target::Op(op) if matches!(op.family.fold(), Fold::Num { .. }))
    }
}

/// The codes that are ops, in golden's table order.
pub fn op_codes() -> Vec<u16> {
    Op::all().iter().map(|op| op.code()).collect()
}

/// How many codes of `op_i` are no op.
pub fn no_op_count() -> usize {
    (1usize << OP_BITS) - op_codes().len()
}

/// Check that the tools are installed.
pub fn available() -> Result<(), String> {
    require("crosslane prove", &["yosys", "yosys-abc"], "yosys")?;
    require("crosslane prove", &["iverilog", "vvp"], "iverilog")
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The cache key: the RTL and the generators' own sources.
fn key(rtl: &[u8]) -> u64 {
    fnv1a(&[rtl, include_bytes!("unroll.rs"), include_bytes!("mod.rs")])
}

/// Cut and unroll `rtl` with `pre` clocks before the checked one into
/// `cache/prove-KEY-preN/` (`unrolled.il`, `step.json`), or reuse it.
fn prepare(rtl: &[PathBuf], text: &[u8], config: Config, top: &str, pre: usize) -> Result<PathBuf, String> {
    let dir_for = |pre: usize| cache_root().join(format!("prove-{:016x}-{top}-pre{pre}", key(text)));
    let proof = dir_for(0);
    cached(dir_for(pre), &["step.json", "unrolled.il"], |tmp| {
        // The cut is the same for every `pre`: a counterexample's unrolling
        // takes the proof's when it is there.
        if pre > 0 && CUT_FILES.iter().all(|f| proof.join(f).is_file()) {
            for f in CUT_FILES {
                std::fs::copy(proof.join(f), tmp.join(f)).map_err(|e| format!("cannot copy the cut {f}: {e}"))?;
            }
        } else {
            cut(rtl, top, tmp)?;
        }
        let regs = unroll::registers(&read(&tmp.join("step.json"))?)?;
        write(&tmp.join("unrolled.v"), &unroll::unrolled(&regs, pre, config.latency()))?;
        let unrolled = format!(
            "read_verilog step.v\nread_verilog unrolled.v\nhierarchy -check -top {}\nproc\nflatten\nopt_clean\n\
             write_rtlil unrolled.il\n",
            unroll::UNROLLED_MODULE
        );
        write(&tmp.join("unroll.ys"), &unrolled)?;
        run_yosys_in(tmp, "unroll.ys", Duration::from_secs(600))
    })
}

/// What [`cut`] writes.
const CUT_FILES: [&str; 2] = ["step.v", "step.json"];

/// yosys cuts the unit's flip-flops: `tmp/step.v` (and `step.json`) is one
/// clock of it, each register's q an input and its d an output.
fn cut(rtl: &[PathBuf], top: &str, tmp: &Path) -> Result<(), String> {
    let files: Vec<String> = rtl.iter().map(|f| f.display().to_string()).collect();
    let cut = format!(
        "read_verilog {rtl}\nhierarchy -check -top {top}\nproc\nflatten\nopt_clean -purge\nwrite_json unit.json\n\
         expose -evert-dff t:$dff\nopt_clean -purge\nrename {top} {step}\n\
         write_verilog -noattr step.v\nwrite_json step.json\n",
        rtl = files.join(" "),
        top = top,
        step = unroll::STEP_MODULE
    );
    write(&tmp.join("cut.ys"), &cut)?;
    run_yosys_in(tmp, "cut.ys", Duration::from_secs(600))?;
    // What the cut would get wrong is refused before anything is proven.
    sound::check_netlist(&read(&tmp.join("unit.json"))?, top)
}

/// `dir` with the files `made`, built by `build` in a temporary folder beside
/// it and moved into place whole (so a run cut short leaves nothing half
/// made), or reused when it is already there.
fn cached(dir: PathBuf, made: &[&str], build: impl FnOnce(&Path) -> Result<(), String>) -> Result<PathBuf, String> {
    if made.iter().all(|f| dir.join(f).is_file()) {
        return Ok(dir);
    }
    let tmp = dir.with_extension(format!("tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    build(&tmp)?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&tmp, &dir).map_err(|e| format!("cannot move {} into place: {e}", tmp.display()))?;
    Ok(dir)
}

/// yosys' AIGER map (`input|output INDEX BIT WIRE` lines): (kind, index,
/// bit, wire) of each; other lines are skipped, a malformed one is an error.
fn map_lines(map: &str) -> Result<Vec<(&str, usize, usize, &str)>, String> {
    let mut out = Vec::new();
    for line in map.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [kind @ ("input" | "output"), index, bit, wire] = f[..] {
            let bad = || format!("bad map line '{line}'");
            out.push((kind, index.parse().map_err(|_| bad())?, bit.parse().map_err(|_| bad())?, wire));
        }
    }
    Ok(out)
}

/// yosys' steps from a miter's sources to an AIG. `opt_muxtree` drops the
/// mux branches a tied op never takes while the design is still words, so
/// `techmap` has half as much to lower: a one-op miter of every1 in 11 s of
/// CPU and 380 MB instead of 20 s and 880 MB.
const TO_AIG: &str = "hierarchy -check -top crosslane_miter\nproc\nflatten\nopt_expr\nopt_clean\nopt_muxtree\n\
                      opt_expr\nopt_clean\ntechmap\nopt_expr\nopt_clean\nsetundef -anyseq\naigmap\n";

/// Build the AIG of each target's miter, `op_checked` tied to the op (or
/// free among the no-op codes), in `base/ops/NAME/` with one yosys run.
fn build_aigs(
    base: &Path,
    regs: &[Register],
    pre: usize,
    latency: usize,
    targets: &[Target],
    tag: &str,
    limit: Duration,
) -> Vec<Result<(), String>> {
    let mut script = String::from("read_rtlil unrolled.il\ndesign -save unrolled\n");
    let mut prepared = Vec::new();
    let codes = op_codes();
    for target in targets {
        let d = base.join("ops").join(target.name());
        let (text, module) = target.reference();
        let checked = match target {
            Target::Op(op) => unroll::Checked::Tied(op.code()),
            Target::NoOp => unroll::Checked::NoOp(&codes),
        };
        let made = std::fs::create_dir_all(&d)
            .map_err(|e| format!("cannot create {}: {e}", d.display()))
            .and_then(|_| write(&d.join("reference.v"), &text))
            .and_then(|_| write(&d.join("miter.v"), &unroll::miter(regs, pre, latency, &[module], checked)));
        if let Err(e) = made {
            prepared.push(Err(e));
            continue;
        }
        let _ = std::fs::remove_file(d.join("miter.aig"));
        script.push_str(&format!(
            "design -load unrolled\nread_verilog {d}/reference.v {d}/miter.v\n{TO_AIG}write_aiger -zinit -map {d}/miter.map {d}/miter.aig\n",
            d = d.display()
        ));
        prepared.push(Ok(()));
    }
    let script_path = base.join(format!("batch-{tag}.ys"));
    let built =
        write(&script_path, &script).and_then(|_| run_yosys_in(base, &script_path.to_string_lossy(), limit * 4));
    prepared.into_iter().map(|p| p.and(built.clone())).collect()
}

/// One AIG of the miter of many ops with `op_checked` free, from which
/// each op's miter is a cofactor.
struct Shared {
    aig: aig::Aig,
    /// The AIG input of each `op_checked` bit (`None`: yosys dropped it).
    op_inputs: [Option<usize>; OP_BITS],
    /// The AIG output of each op's `bad` bit, in the order of the ops.
    outputs: Vec<usize>,
}

impl Shared {
    /// Build it with one yosys run into `base/shared-KEY/`, or reuse it.
    fn build(base: &Path, regs: &[Register], latency: usize, ops: &[Op], limit: Duration) -> Result<Shared, String> {
        let references: String = ops.iter().map(|&op| reference::verilog(op)).collect();
        let modules: Vec<String> = ops.iter().map(|&op| reference::module(op)).collect();
        let miter = unroll::miter(regs, 0, latency, &modules, unroll::Checked::Free);
        // The sources name the cache: a changed reference or op list builds anew.
        let dir = base.join(format!("shared-{:016x}", fnv1a(&[references.as_bytes(), miter.as_bytes()])));
        let dir = cached(dir, &["miter.aig", "miter.map"], |tmp| {
            write(&tmp.join("references.v"), &references)?;
            write(&tmp.join("miter.v"), &miter)?;
            let script = format!(
                "read_rtlil ../unrolled.il\nread_verilog references.v miter.v\n{TO_AIG}write_aiger -zinit -map miter.map miter.aig\n"
            );
            write(&tmp.join("shared.ys"), &script)?;
            run_yosys_in(tmp, "shared.ys", limit * 4)
        })?;
        let bytes = std::fs::read(dir.join("miter.aig")).map_err(|e| format!("cannot read the shared AIG: {e}"))?;
        let aig = aig::Aig::parse(&bytes)?;
        let mut op_inputs = [None; OP_BITS];
        let mut outputs = vec![None; ops.len()];
        for (kind, index, bit, wire) in map_lines(&read(&dir.join("miter.map"))?)? {
            match (kind, wire) {
                ("input", "op_checked") if bit < OP_BITS => op_inputs[bit] = Some(index),
                ("output", "bad") if bit < ops.len() => outputs[bit] = Some(index),
                _ => {}
            }
        }
        let outputs = outputs
            .into_iter()
            .enumerate()
            .map(|(i, o)| o.ok_or_else(|| format!("the shared AIG has no output for {}", ops[i].name())))
            .collect::<Result<Vec<usize>, String>>()?;
        Ok(Shared { aig, op_inputs, outputs })
    }

    /// Op `i`'s miter (`op` is `ops[i]`) into `d/miter.aig`.
    fn write_op(&self, i: usize, op: Op, d: &Path) -> Result<(), String> {
        let ties: Vec<(usize, bool)> = (0..OP_BITS)
            .filter_map(|bit| self.op_inputs[bit].map(|input| (input, op.code() >> bit & 1 == 1)))
            .collect();
        let one = self.aig.cofactor(&ties, self.outputs[i])?;
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        std::fs::write(d.join("miter.aig"), one.write()).map_err(|e| format!("cannot write {}: {e}", d.display()))
    }
}

/// ABC's verdict on a miter.
enum Verdict {
    Unsat,
    Sat,
    Timeout,
}

/// How long `&cec` may take on an op before [`abc`] hands it to `iprove`.
const CEC_LIMIT: Duration = Duration::from_secs(20);

/// ABC on the miter in `d`: proven (`Unsat`), a counterexample written to
/// `d/miter.cex` (`Sat`), or out of time. Two engines, each where it is
/// faster (measured on every1's 94 miters, one at a time): `&cec -m`
/// (SAT sweeping of the miter) proves the 86 integer and bitwise ops in
/// 72 s against `iprove`'s 190 s, but takes 7–64 s on each of the 8
/// maximumNumber/minimumNumber ops, which `iprove` proves in 8–11 s. So
/// those go to `iprove` and the rest to `&cec`, falling back to `iprove`
/// when `&cec` leaves one undecided within [`CEC_LIMIT`]. Both are sound
/// and both write a counterexample.
fn abc(d: &Path, target: Target, limit: Duration) -> Result<Verdict, String> {
    let start = Instant::now();
    if !target.numeric() {
        if let Ok(decided @ (Verdict::Unsat | Verdict::Sat)) = abc_engine(d, "&get; &cec -m", limit.min(CEC_LIMIT))? {
            return Ok(decided);
        }
    }
    abc_engine(d, "iprove", limit.saturating_sub(start.elapsed()))?
        .map_err(|text| format!("ABC gave no verdict:\n{}", tail(&text, 15)))
}

/// One ABC engine on the miter in `d`: its verdict (`Timeout` when it ran
/// out of `limit`), or what it printed when it gave none.
fn abc_engine(d: &Path, engine: &str, limit: Duration) -> Result<Result<Verdict, String>, String> {
    let script = format!("read_aiger {0}/miter.aig; strash; {engine}; write_cex -n {0}/miter.cex", d.display());
    let _ = std::fs::remove_file(d.join("miter.cex"));
    let out = match run_limited(Command::new("yosys-abc").arg("-q").arg(&script), limit)? {
        None => return Ok(Ok(Verdict::Timeout)),
        Some(o) => o,
    };
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    Ok(if text.contains("UNSATISFIABLE") || text.contains("Networks are equivalent") {
        Ok(Verdict::Unsat)
    } else if text.contains("SATISFIABLE") || text.contains("Networks are NOT EQUIVALENT") {
        Ok(Verdict::Sat)
    } else {
        Err(text)
    })
}

/// The unrolled unit of one configuration's RTL files, built once into the cache. Proofs run
/// on the unit unrolled from the checked clock with a free state (the
/// strongest claim, and the fastest); an op that fails is solved again on
/// the unit unrolled with [`pre`] clocks before, for a counterexample whose
/// state inputs reach, which [`replay`] runs in a simulator.
pub struct Prover {
    /// The RTL files: the configuration's top and the components it instantiates.
    pub rtl: Vec<PathBuf>,
    /// The configuration the RTL is (its latency).
    pub config: Config,
    /// The top module proven: the configuration's, or its fast simulation form's.
    pub module: String,
    pub dir: PathBuf,
    pub regs: Vec<Register>,
    /// Time to cut and unroll (near 0 when it came from the cache).
    pub prepare_secs: f64,
    text: Vec<u8>,
    replay_base: Mutex<Option<PathBuf>>,
}

impl Prover {
    /// Cut and unroll the unit in the files `rtl` (the configuration's top
    /// module and the components it instantiates), or reuse the cache.
    pub fn new(rtl: &[PathBuf], config: Config) -> Result<Prover, String> {
        Prover::new_top(rtl, config, &config.module())
    }

    /// [`Prover::new`] with `module`, a module of `config`'s ports and latency,
    /// as the top (the fast simulation form's).
    pub fn new_top(rtl: &[PathBuf], config: Config, module: &str) -> Result<Prover, String> {
        let module = module.to_string();
        available()?;
        if rtl.is_empty() {
            return Err("no RTL file to prove".into());
        }
        let mut text = Vec::new();
        let mut files = Vec::new();
        let mut texts = Vec::new();
        for f in rtl {
            let bytes = std::fs::read(f).map_err(|e| format!("cannot read the RTL {}: {e}", f.display()))?;
            let name = f.file_name().map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into_owned());
            texts.push((name, String::from_utf8_lossy(&bytes).into_owned()));
            text.extend_from_slice(f.file_name().map_or(&[][..], |n| n.as_encoded_bytes()));
            text.push(0);
            text.extend(bytes);
            text.push(0);
            files.push(std::fs::canonicalize(f).map_err(|e| format!("{}: {e}", f.display()))?);
        }
        sound::check_text(&texts)?;
        let rtl = files;
        let start = Instant::now();
        let dir = prepare(&rtl, &text, config, &module, 0)?;
        let regs = unroll::registers(&read(&dir.join("step.json"))?)?;
        Ok(Prover {
            rtl,
            config,
            module,
            dir,
            regs,
            prepare_secs: start.elapsed().as_secs_f64(),
            text,
            replay_base: Mutex::new(None),
        })
    }

    /// Prove `ops` on `jobs` threads, each op given `limit` of solver time.
    /// `progress` is called after each op. From [`SHARED_MIN`] ops on,
    /// each job's yosys run builds one miter of every `jobs`-th op (see
    /// [`aig`]); fewer ops are built one by one.
    pub fn prove(
        &self,
        ops: &[Op],
        jobs: usize,
        limit: Duration,
        progress: &(dyn Fn(&OpProof) + Sync),
    ) -> Vec<OpProof> {
        let start = Instant::now();
        // The shared miters: one per job, of every `jobs`-th op, built side by side.
        let groups = if ops.len() >= SHARED_MIN { jobs.clamp(1, ops.len()) } else { 0 };
        let built: Vec<Result<Shared, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..groups)
                .map(|g| {
                    let group: Vec<Op> = ops.iter().skip(g).step_by(groups).copied().collect();
                    s.spawn(move || Shared::build(&self.dir, &self.regs, self.config.latency(), &group, limit))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("building a shared miter panicked".into())))
                .collect()
        });
        if let Some(Err(e)) = built.iter().find(|b| b.is_err()) {
            let out: Vec<OpProof> =
                ops.iter().map(|&op| OpProof { op, status: Status::Error(e.clone()), secs: 0.0 }).collect();
            out.iter().for_each(progress);
            return out;
        }
        let shared: Vec<Shared> = built.into_iter().flatten().collect();
        let shared_secs = start.elapsed().as_secs_f64() * groups as f64 / ops.len().max(1) as f64;
        let next = AtomicUsize::new(0);
        let results = Mutex::new(Vec::new());
        let batch = if groups > 0 { 1 } else { 6 };
        std::thread::scope(|s| {
            for worker in 0..jobs.max(1) {
                let (next, results, shared) = (&next, &results, &shared);
                s.spawn(move || loop {
                    let start = next.fetch_add(batch, Ordering::SeqCst);
                    if start >= ops.len() {
                        break;
                    }
                    let chunk = &ops[start..(start + batch).min(ops.len())];
                    let done = if groups > 0 {
                        let miter = &shared[start % groups];
                        vec![self.prove_shared(miter, start / groups, ops[start], shared_secs, limit)]
                    } else {
                        self.prove_batch(chunk, worker, limit)
                    };
                    for p in done {
                        progress(&p);
                        results.lock().unwrap_or_else(|e| e.into_inner()).push(p);
                    }
                });
            }
        });
        let mut out = results.into_inner().unwrap_or_else(|e| e.into_inner());
        out.sort_by_key(|p| ops.iter().position(|o| *o == p.op));
        out
    }

    /// Op `i` of the shared miter: cofactor, then ABC.
    fn prove_shared(&self, shared: &Shared, i: usize, op: Op, shared_secs: f64, limit: Duration) -> OpProof {
        let t = Instant::now();
        let status = match shared.write_op(i, op, &self.dir.join("ops").join(op.name())) {
            Err(e) => Status::Error(e),
            Ok(()) => self.solve(Target::Op(op), limit),
        };
        OpProof { op, status, secs: shared_secs + t.elapsed().as_secs_f64() }
    }

    /// One yosys run builds the AIGs of a batch of ops; ABC proves each.
    fn prove_batch(&self, ops: &[Op], worker: usize, limit: Duration) -> Vec<OpProof> {
        let start = Instant::now();
        let targets: Vec<Target> = ops.iter().map(|&op| Target::Op(op)).collect();
        let built = build_aigs(&self.dir, &self.regs, 0, self.config.latency(), &targets, &worker.to_string(), limit);
        let build_secs = start.elapsed().as_secs_f64() / ops.len() as f64;
        ops.iter()
            .zip(built)
            .map(|(&op, built)| {
                let t = Instant::now();
                let status = match built {
                    Err(e) => Status::Error(e),
                    Ok(()) => self.solve(Target::Op(op), limit),
                };
                OpProof { op, status, secs: build_secs + t.elapsed().as_secs_f64() }
            })
            .collect()
    }

    /// Prove what every code of `op_i` that is no op gives ([`Target::NoOp`]):
    /// its status and seconds.
    pub fn prove_no_op(&self, limit: Duration) -> (Status, f64) {
        let start = Instant::now();
        let built = build_aigs(&self.dir, &self.regs, 0, self.config.latency(), &[Target::NoOp], "no-op", limit);
        let status = match built.into_iter().next() {
            Some(Ok(())) => self.solve(Target::NoOp, limit),
            Some(Err(e)) => Status::Error(e),
            None => Status::Error("no miter was built".into()),
        };
        (status, start.elapsed().as_secs_f64())
    }

    fn solve(&self, target: Target, limit: Duration) -> Status {
        match abc(&self.dir.join("ops").join(target.name()), target, limit) {
            Err(e) => Status::Error(e),
            Ok(Verdict::Timeout) => Status::Timeout,
            Ok(Verdict::Unsat) => Status::Proven,
            Ok(Verdict::Sat) => self.counterexample(target, limit),
        }
    }

    /// The op failed: solve it again with [`pre`] clocks before the checked
    /// one for a counterexample that replays, and replay it.
    fn counterexample(&self, target: Target, limit: Duration) -> Status {
        let base = {
            let mut slot = self.replay_base.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                match prepare(&self.rtl, &self.text, self.config, &self.module, pre(self.config)) {
                    Ok(d) => *slot = Some(d),
                    Err(e) => return Status::Error(format!("not proven; unrolling for a counterexample failed: {e}")),
                }
            }
            slot.clone().unwrap_or_default()
        };
        let tag = format!("cex-{}", target.name());
        if let Some(Err(e)) =
            build_aigs(&base, &self.regs, pre(self.config), self.config.latency(), &[target], &tag, limit).pop()
        {
            return Status::Error(format!("not proven; building the counterexample's miter failed: {e}"));
        }
        let d = base.join("ops").join(target.name());
        match abc(&d, target, limit) {
            Err(e) => Status::Error(format!("not proven; {e}")),
            Ok(Verdict::Timeout) => Status::Error("not proven; no counterexample within the time limit".into()),
            Ok(Verdict::Unsat) => Status::Error(
                "not proven: the outputs go wrong only from a register state no input sequence reaches".into(),
            ),
            Ok(Verdict::Sat) => {
                let cex = read(&d.join("miter.cex"))
                    .and_then(|c| read(&d.join("miter.map")).and_then(|m| parse_cex(&c, &m, target.op(), self.config)));
                match cex {
                    Ok(cex) => {
                        let replay = replay::replay(&self.rtl, &cex, &d, &self.module);
                        Status::Counterexample { cex, replay }
                    }
                    Err(e) => Status::Error(format!("ABC found a counterexample that cannot be read: {e}")),
                }
            }
        }
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn run_yosys_in(dir: &Path, script: &str, limit: Duration) -> Result<(), String> {
    let mut cmd = Command::new("yosys");
    cmd.current_dir(dir).arg("-q").arg("-s").arg(script);
    match run_limited(&mut cmd, limit)? {
        None => Err(format!("yosys did not finish {script} within {limit:?}")),
        Some(o) if !o.status.success() => Err(format!(
            "yosys failed on {script} in {}:\n{}{}",
            dir.display(),
            tail(&String::from_utf8_lossy(&o.stdout), 15),
            tail(&String::from_utf8_lossy(&o.stderr), 15)
        )),
        Some(_) => Ok(()),
    }
}

/// A counterexample from ABC's `write_cex -n` (`piN@0=V` lines) and
/// yosys' AIGER map (`input N BIT WIRE`). Inputs the circuit lost to
/// constant folding do not matter and read as 0. The checked clock's op is
/// `op`, or (`None`, the no-op codes) the counterexample's `op_checked`.
pub fn parse_cex(cex: &str, map: &str, op: Option<Op>, config: Config) -> Result<Cex, String> {
    let (pre, latency) = (pre(config), config.latency());
    let names: std::collections::HashMap<usize, (&str, usize)> = map_lines(map)?
        .into_iter()
        .filter(|(kind, ..)| *kind == "input")
        .map(|(_, index, bit, wire)| (index, (wire, bit)))
        .collect();
    let mut clocks = vec![Clock::default(); pre + latency + 1];
    if let Some(op) = op {
        clocks[pre].op = op.code();
    }
    let mut seen = 0;
    for line in cex.lines().filter(|l| l.starts_with("pi")) {
        let (lhs, value) = line.split_once('=').ok_or_else(|| format!("bad counterexample line '{line}'"))?;
        let index: usize = lhs
            .trim_start_matches("pi")
            .split('@')
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("bad counterexample line '{line}'"))?;
        let one = value.trim() == "1";
        // Inputs the map does not name stand for undefined bits (`setundef
        // -anyseq`): the proof holds for any value of them; nothing drives them.
        let Some((wire, bit)) = names.get(&index) else { continue };
        seen += 1;
        if !one {
            continue;
        }
        if *wire == "op_checked" {
            if op.is_none() {
                clocks[pre].op |= 1 << bit;
            }
            continue;
        }
        // `vec_3` and the like; the start state (`s0_…_q`) has no clock
        // number and cannot be driven in a simulator.
        let Some((name, k)) = wire.rsplit_once('_') else { continue };
        let Ok(k) = k.parse::<usize>() else { continue };
        if k > pre + latency {
            continue;
        }
        let c = &mut clocks[k];
        match name {
            "op" => c.op |= 1 << bit,
            "vec" => c.vec[bit / 8] |= 1 << (bit % 8),
            "vbool" => c.vbool |= 1 << bit,
            "in_valid" => c.in_valid = true,
            "rst" => c.rst_n = true,
            _ => {}
        }
    }
    if seen == 0 {
        return Err("the counterexample names no input".into());
    }
    Ok(Cex { clocks, pre, latency })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_golden::{Family, Form};

    #[test]
    fn counterexamples_are_read_bit_by_bit() {
        let map = format!(
            "input 0 0 vec_{p}\ninput 1 9 vec_{p}\ninput 2 0 in_valid_{p}\ninput 3 0 rst_3\ninput 4 2 op_4\ninput 5 1 vbool_{p}\ninput 6 0 s0_valid_q_0_q\n",
            p = pre(Config::DEFAULT)
        );
        let map = map.as_str();
        let cex =
            "# FALSIFYING OUTPUTS: po0\npi000@0=1\npi001@0=1\npi002@0=1\npi003@0=1\npi004@0=1\npi005@0=0\npi006@0=1\n";
        let op = Op::new(Family::Add, Form::H16, false);
        let c = parse_cex(cex, map, Some(op), Config::DEFAULT).unwrap();
        assert_eq!(c.clocks.len(), pre(Config::DEFAULT) + Config::DEFAULT.latency() + 1);
        let k = c.checked().unwrap();
        assert_eq!(k.op, op.code());
        assert_eq!(k.vec[0], 1);
        assert_eq!(k.vec[1], 2);
        assert!(k.in_valid);
        assert_eq!(k.vbool, 0);
        assert!(c.clocks[3].rst_n && !c.clocks[2].rst_n);
        assert_eq!(c.clocks[4].op, 4);
        assert!(parse_cex("pi009@0=1", map, Some(op), Config::DEFAULT).unwrap_err().contains("names no input"));
        assert!(parse_cex("", map, Some(op), Config::DEFAULT).unwrap_err().contains("names no input"));
        // The no-op codes: the checked clock's code is the counterexample's.
        let map = format!("input 0 0 op_checked\ninput 1 8 op_checked\ninput 2 0 in_valid_{}\n", pre(Config::DEFAULT));
        let c = parse_cex("pi000@0=1\npi001@0=1\npi002@0=1\n", &map, None, Config::DEFAULT).unwrap();
        assert_eq!(c.checked().unwrap().op, 0x101);
        assert!(c.checked().unwrap().in_valid);
    }
}

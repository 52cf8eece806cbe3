//! The `verilator` and `icarus` engines: build the generated RTL and
//! testbench once into a cache directory (keyed by a hash of the sources),
//! run the self-checking testbench, and serve cases to the RTL.

use crate::emit::{self, GeneratedFile, CASE_BYTES, MAX_VECTORS, RESULT_BYTES};
use crate::engine::{to_outcome, Engine, EngineError, EngineKind, Observed, Runner, RESET_EVERY};
use crate::tools::{cache_root, fnv1a, require, run_limited_input, tail, write_atomic, TempFile};
use crosslane_golden::{Case, Config, Outcome};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The two simulators of the generated RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulator {
    Verilator,
    Icarus,
}

impl Simulator {
    pub fn name(self) -> &'static str {
        match self {
            Simulator::Verilator => "verilator",
            Simulator::Icarus => "icarus",
        }
    }

    /// The commands it needs and the Debian package that brings them.
    fn tools(self) -> (&'static [&'static str], &'static str) {
        match self {
            Simulator::Verilator => (&["verilator", "make", "g++"], "verilator"),
            Simulator::Icarus => (&["iverilog", "vvp"], "iverilog"),
        }
    }

    fn entry(self) -> &'static str {
        match self {
            Simulator::Verilator => "crosslane_reduce_tb",
            Simulator::Icarus => "crosslane_reduce_tb.vvp",
        }
    }
}

/// Check that the simulator's tools are installed.
pub fn available(sim: Simulator) -> Result<(), EngineError> {
    let (tools, package) = sim.tools();
    require(&format!("engine '{}'", sim.name()), tools, package).map_err(EngineError)
}

/// The checked-in RTL and testbench sources ([`emit::checked_in`]).
pub fn sources() -> Result<Vec<GeneratedFile>, EngineError> {
    emit::checked_in().map_err(EngineError)
}

/// A built simulation: its directory and the file that runs it.
#[derive(Clone, Debug)]
pub struct Build {
    pub sim: Simulator,
    pub config: Config,
    /// The fast simulation form rather than the synthesis form.
    pub fast: bool,
    pub dir: PathBuf,
    pub exe: PathBuf,
    /// Seconds the build took (0 when it came from the cache).
    pub build_secs: f64,
    pub cached: bool,
}

/// How every Verilator model here is built: C++ with its makefile run
/// (2 jobs), Verilator's optimizations on, X values resolved the fast way.
pub const VERILATOR_BUILD: &[&str] =
    &["--cc", "--exe", "--build", "-j", "2", "-O3", "--x-assign", "fast", "--x-initial", "fast"];

fn build_command(sim: Simulator, config: Config, fast: bool, dir: &Path, files: &[GeneratedFile]) -> Command {
    let rtl: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.path.starts_with("rtl") && f.path.extension().is_some_and(|e| e == "v"))
        .map(|f| dir.join(&f.path))
        .collect();
    let vlt = dir.join("rtl/crosslane_reduce.vlt");
    let tb = dir.join("tb/crosslane_reduce_tb.sv");
    let every = config.every();
    match sim {
        Simulator::Verilator => {
            let mut c = Command::new("verilator");
            c.args(VERILATOR_BUILD)
                .args(["-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", "crosslane_reduce_tb"])
                .arg(format!("-GEVERY={every}"))
                .arg(format!("-GFAST={}", u8::from(fast)))
                .arg("-Mdir")
                .arg(dir.join("obj"))
                .arg("-o")
                .arg(dir.join(sim.entry()))
                .arg(&vlt)
                .args(&rtl)
                .arg(&tb)
                .arg(dir.join("tb/crosslane_reduce_tb_verilator.cpp"))
                .args(["-CFLAGS", &format!("-O2 -DCROSSLANE_EVERY={every}")])
                // The fast form's model is one large function per trigger: -O1 builds
                // it in half the time of -O2 (24 s against 51 s here) and runs it as fast.
                // The __Slow files (construction, initial values, the first settle: run
                // once) unoptimized: a third of the synthesis form's C++, and 44 s of its
                // build against 13 s (D57).
                .args([
                    "-MAKEFLAGS",
                    if fast {
                        "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O2"
                    } else {
                        "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2"
                    },
                ]);
            c
        }
        Simulator::Icarus => {
            let mut c = Command::new("iverilog");
            c.args(["-g2012", "-s", "crosslane_reduce_tb_icarus"])
                .arg(format!("-Pcrosslane_reduce_tb_icarus.EVERY={every}"))
                .arg(format!("-Pcrosslane_reduce_tb_icarus.FAST={}", u8::from(fast)))
                .arg("-o")
                .arg(dir.join(sim.entry()))
                .args(&rtl)
                .arg(&tb)
                .arg(dir.join("tb/crosslane_reduce_tb_icarus.sv"));
            c
        }
    }
}

/// Build (or find in the cache) the testbench of `config` for `sim`. Builds
/// in one process run one at a time, so concurrent callers share one build.
pub fn build(sim: Simulator, config: Config) -> Result<Build, EngineError> {
    build_files(sim, config, sources()?)
}

/// [`build`] of the synthesis form (`fast` false) or of the fast simulation form.
pub fn build_form(sim: Simulator, config: Config, fast: bool) -> Result<Build, EngineError> {
    build_files_form(sim, config, fast, sources()?)
}

/// Build (or find in the cache) the testbench of `files` — the generated
/// RTL and testbench sources, or a variant of them (tests build planted
/// mutants this way).
pub fn build_files(sim: Simulator, config: Config, files: Vec<GeneratedFile>) -> Result<Build, EngineError> {
    build_files_form(sim, config, false, files)
}

/// [`build_files`] of either form.
pub fn build_files_form(
    sim: Simulator,
    config: Config,
    fast: bool,
    files: Vec<GeneratedFile>,
) -> Result<Build, EngineError> {
    available(sim)?;
    let every = format!("{}{}", config.every(), if fast { "-fast" } else { "" });
    let built = cached_build(sim.name(), every.as_bytes(), &files, sim.entry(), |tmp| {
        build_command(sim, config, fast, tmp, &files)
    })?;
    Ok(Build { sim, config, fast, dir: built.dir, exe: built.exe, build_secs: built.build_secs, cached: built.cached })
}

/// A build in the cache: its directory, the file that runs it, the seconds
/// it took (0 when it was found in the cache).
pub struct Cached {
    pub dir: PathBuf,
    pub exe: PathBuf,
    pub build_secs: f64,
    pub cached: bool,
}

/// Build `files` with the command `command(dir)` gives (run with the files
/// written under `dir`), or find the build in the cache under a key of
/// `tool`, `variant` and the files' paths and contents. `entry` is the file
/// the build makes, relative to `dir`. Builds in one process run one at a
/// time, so concurrent callers share one build; concurrent processes each
/// build in a private directory and the first to finish is kept.
pub fn cached_build(
    tool: &str,
    variant: &[u8],
    files: &[GeneratedFile],
    entry: &str,
    command: impl FnOnce(&Path) -> Command,
) -> Result<Cached, EngineError> {
    static BUILD_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = BUILD_LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut parts: Vec<&[u8]> = vec![tool.as_bytes(), variant];
    for f in files {
        parts.push(f.path.as_os_str().as_encoded_bytes());
        parts.push(f.contents.as_bytes());
    }
    let key = fnv1a(&parts);
    let root = cache_root();
    let dir = root.join(format!("{tool}-{key:016x}"));
    let exe = dir.join(entry);
    if exe.is_file() {
        return Ok(Cached { dir, exe, build_secs: 0.0, cached: true });
    }
    // Build in a private directory and rename it into place when complete.
    let tmp = root.join(format!("{tool}-{key:016x}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    for f in files {
        write_atomic(&tmp.join(&f.path), f.contents.as_bytes()).map_err(EngineError)?;
    }
    let start = Instant::now();
    let out =
        command(&tmp).output().map_err(|e| EngineError(format!("engine '{tool}' could not start the build: {e}")))?;
    let build_secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        let log = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(EngineError(format!("{tool} build failed:\n{}", tail(&log, 40))));
    }
    // Verilator bakes its object directory into nothing we run again, so
    // the built tree can move.
    if !tmp.join(entry).is_file() {
        return Err(EngineError(format!("{tool} build produced no {entry}")));
    }
    match std::fs::rename(&tmp, &dir) {
        Ok(()) => {}
        // Another process finished the same build first: use theirs.
        Err(_) if exe.is_file() => {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        Err(e) => return Err(EngineError(format!("cannot move the build into {}: {e}", dir.display()))),
    }
    Ok(Cached { dir, exe, build_secs, cached: false })
}

/// What a self-checking testbench run printed and decided.
#[derive(Clone, Debug)]
pub struct TbRun {
    pub passed: u64,
    pub failed: u64,
    /// The process exited zero.
    pub exit_ok: bool,
    pub stdout: String,
    pub secs: f64,
    /// For a failing run: a VCD of the failing vectors re-run under Icarus.
    pub vcd: Option<PathBuf>,
}

impl TbRun {
    /// Passed: at least one vector checked, none failed, exit status zero.
    pub fn ok(&self) -> bool {
        self.exit_ok && self.passed > 0 && self.failed == 0
    }
}

/// Parse the testbench's last line, `N passed, M failed`.
pub fn summary(stdout: &str) -> Option<(u64, u64)> {
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty())?;
    let (p, f) = last.trim().split_once(" passed, ")?;
    let f = f.strip_suffix(" failed")?;
    Some((p.parse().ok()?, f.parse().ok()?))
}

fn run_command(build: &Build) -> Command {
    match build.sim {
        Simulator::Verilator => Command::new(&build.exe),
        Simulator::Icarus => {
            let mut c = Command::new("vvp");
            c.arg("-n").arg(&build.exe);
            c
        }
    }
}

/// Run the self-checking testbench on a vector file (it reads every record).
/// With `vcd`, Icarus also dumps `crosslane_reduce_tb.vcd` into `workdir`.
/// The run is killed with an error after the simulator's [`time_limit`] for
/// the file's records.
pub fn run_tb(build: &Build, vectors: &Path, vcd: bool, workdir: &Path) -> Result<TbRun, EngineError> {
    // An unreadable file is the testbench's to report; it gets the base limit.
    let records = std::fs::read_to_string(vectors).map(|t| emit::vector_records(&t).len()).unwrap_or(0);
    run_tb_limited(build, vectors, vcd, workdir, time_limit(build.sim, records))
}

/// [`run_tb`] killed after `limit`.
pub fn run_tb_limited(
    build: &Build,
    vectors: &Path,
    vcd: bool,
    workdir: &Path,
    limit: Duration,
) -> Result<TbRun, EngineError> {
    let mut c = run_command(build);
    c.arg(format!("+vectors={}", vectors.display())).current_dir(workdir);
    if vcd {
        c.arg("+vcd");
    }
    let start = Instant::now();
    let out = run_or_kill(&mut c, None, limit, build.sim, "testbench", &vectors.display().to_string())?;
    let secs = start.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let (passed, failed) = summary(&stdout).unwrap_or((0, 0));
    Ok(TbRun { passed, failed, exit_ok: out.status.success(), stdout, secs, vcd: None })
}

/// Indices of the vectors a testbench run reported as wrong.
pub fn failing_vectors(stdout: &str) -> Vec<usize> {
    let mut v: Vec<usize> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("ERROR vector ")?.split_whitespace().next()?.parse().ok())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Run the testbench; when it fails, re-run the vectors it reported (at
/// most 20) under Icarus with a VCD dump into `workdir` and keep its path.
pub fn run_tb_keeping_vcd(build: &Build, vectors: &Path, workdir: &Path) -> Result<TbRun, EngineError> {
    let mut run = run_tb(build, vectors, false, workdir)?;
    if run.ok() {
        return Ok(run);
    }
    let text = std::fs::read_to_string(vectors).unwrap_or_default();
    let records = emit::vector_records(&text);
    let picked: Vec<&str> = failing_vectors(&run.stdout).into_iter().filter_map(|i| records.get(i).copied()).collect();
    if !picked.is_empty() {
        run.vcd = Some(dump_vcd(&picked, workdir, "failing-vectors", build.config, build.fast)?);
    }
    Ok(run)
}

/// Run vector records under Icarus on the unit of `config` (its fast
/// simulation form with `fast`) with a VCD dump; the VCD is kept as
/// `dir/NAME.vcd` (the records as `dir/NAME.hex`).
pub fn dump_vcd(records: &[&str], dir: &Path, name: &str, config: Config, fast: bool) -> Result<PathBuf, EngineError> {
    let icarus = build_form(Simulator::Icarus, config, fast)?;
    std::fs::create_dir_all(dir).map_err(|e| EngineError(format!("cannot create {}: {e}", dir.display())))?;
    let vectors = dir.join(format!("{name}.hex"));
    write_atomic(&vectors, (records.join("\n") + "\n").as_bytes()).map_err(EngineError)?;
    run_tb(&icarus, &vectors, true, dir)?;
    let vcd = dir.join(format!("{name}.vcd"));
    std::fs::rename(dir.join("crosslane_reduce_tb.vcd"), &vcd)
        .map_err(|e| EngineError(format!("icarus wrote no VCD: {e}")))?;
    Ok(vcd)
}

/// The binary stream of the Verilator harness: op u16, vbool u64, vec.
fn case_bytes(cases: &[Case]) -> Vec<u8> {
    let mut b = Vec::with_capacity(cases.len() * CASE_BYTES);
    for c in cases {
        b.extend_from_slice(&c.op.code().to_le_bytes());
        b.extend_from_slice(&c.vbool.to_le_bytes());
        b.extend_from_slice(&c.vec.0);
    }
    b
}

/// The result of a Verilator harness run in `+mode=ext`.
pub struct ExtRun {
    pub outcomes: Vec<Outcome>,
    /// Seconds of the harness's clock loop alone, as it reported them.
    pub loop_secs: Option<f64>,
}

/// Run `sim`'s `what` (testbench, harness) on `on`, killed after `limit`
/// with an error that says so; Icarus's asks whether the design settles
/// (Icarus re-runs a block that never settles without end, where Verilator
/// stops at its convergence limit).
fn run_or_kill(
    cmd: &mut Command,
    input: Option<Vec<u8>>,
    limit: Duration,
    sim: Simulator,
    what: &str,
    on: &str,
) -> Result<Output, EngineError> {
    let name = sim.name();
    run_limited_input(cmd, input, limit)
        .map_err(|e| EngineError(format!("cannot run the {name} {what}: {e}")))?
        .ok_or_else(|| {
            let hint = if sim == Simulator::Icarus { " (does the design settle?)" } else { "" };
            EngineError(format!(
                "the {name} {what} ran longer than {} s on {on} and was killed{hint}",
                limit.as_secs_f64()
            ))
        })
}

/// How long the Verilator harness may take on `cases` cases before it is
/// killed: a minute to start, and 10 µs a case, 14 times what a case takes
/// end to end (1.4 M a second). Verilator stops a design that does not
/// settle at its own convergence limit, but a harness that stops reading or
/// writing would otherwise hang the campaign, and CI with it.
pub fn verilator_limit(cases: usize) -> Duration {
    Duration::from_millis(60_000 + cases as u64 / 100)
}

/// How long `sim` may take on `cases` cases ([`verilator_limit`], [`icarus_limit`]).
pub fn time_limit(sim: Simulator, cases: usize) -> Duration {
    match sim {
        Simulator::Verilator => verilator_limit(cases),
        Simulator::Icarus => icarus_limit(cases),
    }
}

/// Run cases through the Verilator harness, one per clock, killed with an
/// error after [`verilator_limit`].
pub fn run_ext(build: &Build, cases: &[Case]) -> Result<ExtRun, EngineError> {
    run_ext_limited(build, cases, verilator_limit(cases.len()))
}

/// [`run_ext`] killed after `limit`.
pub fn run_ext_limited(build: &Build, cases: &[Case], limit: Duration) -> Result<ExtRun, EngineError> {
    let mut cmd = run_command(build);
    cmd.arg("+mode=ext").arg(format!("+reset_every={RESET_EVERY}"));
    let on = format!("{} cases", cases.len());
    let output = run_or_kill(&mut cmd, Some(case_bytes(cases)), limit, build.sim, "harness", &on)?;
    let (status, out) = (output.status, output.stdout);
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    if !status.success() || out.len() != cases.len() * RESULT_BYTES {
        return Err(EngineError(format!(
            "verilator harness failed ({status}), {} of {} result bytes: {}",
            out.len(),
            cases.len() * RESULT_BYTES,
            err.trim()
        )));
    }
    let outcomes = cases
        .iter()
        .zip(out.chunks_exact(RESULT_BYTES))
        .map(|(c, r)| {
            let result = u32::from_le_bytes(r[0..4].try_into().unwrap_or_default());
            let mask = u64::from_le_bytes(r[4..12].try_into().unwrap_or_default());
            to_outcome(c, Observed { valid: true, result, mask })
        })
        .collect();
    let loop_secs = err.lines().find_map(|l| {
        l.strip_prefix("harness: ")?.split(" vectors in ").nth(1)?.split_whitespace().next()?.parse().ok()
    });
    Ok(ExtRun { outcomes, loop_secs })
}

/// How long Icarus may take on `cases` cases before the run is killed: a
/// minute to start, and 20 ms a case, 10 times what a case takes (Icarus
/// scores about 600 a second). A design whose combinational logic never
/// settles under Icarus (it re-runs a block that reads what it assigns
/// without end) would otherwise hang the campaign, and CI with it.
pub fn icarus_limit(cases: usize) -> Duration {
    Duration::from_millis(60_000 + 20 * cases as u64)
}

/// Run cases through the Icarus testbench in `+mode=dump`, in chunks, each
/// killed with an error after [`icarus_limit`].
pub fn run_dump(build: &Build, cases: &[Case]) -> Result<Vec<Outcome>, EngineError> {
    run_dump_limited(build, cases, icarus_limit)
}

/// [`run_dump`] with the time each chunk of `n` cases may take given by
/// `limit(n)`; a chunk that runs longer is killed and the run is an error.
pub fn run_dump_limited(
    build: &Build,
    cases: &[Case],
    limit: impl Fn(usize) -> Duration,
) -> Result<Vec<Outcome>, EngineError> {
    let mut outcomes = Vec::with_capacity(cases.len());
    for chunk in cases.chunks(MAX_VECTORS) {
        let vectors = TempFile::new("cases.hex").map_err(EngineError)?;
        let results = TempFile::new("results.txt").map_err(EngineError)?;
        write_atomic(&vectors.0, emit::vector_file(chunk, "eval cases").as_bytes()).map_err(EngineError)?;
        let mut cmd = run_command(build);
        cmd.arg(format!("+vectors={}", vectors.0.display()))
            .arg("+mode=dump")
            .arg(format!("+out={}", results.0.display()));
        let allowed = limit(chunk.len());
        let on = format!("{} cases", chunk.len());
        let out = run_or_kill(&mut cmd, None, allowed, build.sim, "testbench", &on)?;
        let text = std::fs::read_to_string(&results.0).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() != chunk.len() {
            return Err(EngineError(format!(
                "icarus returned {} results for {} cases: {}",
                lines.len(),
                chunk.len(),
                tail(&String::from_utf8_lossy(&out.stdout), 5)
            )));
        }
        if !out.status.success() {
            return Err(EngineError(format!(
                "the icarus testbench failed ({}): {}",
                out.status,
                tail(&String::from_utf8_lossy(&out.stdout), 5)
            )));
        }
        for (i, (c, line)) in chunk.iter().zip(lines).enumerate() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let [valid, r, m] = f[..] else {
                return Err(EngineError(format!("icarus result line '{line}' is not 'valid result mask'")));
            };
            if valid != "1" {
                return Err(EngineError(format!(
                    "icarus: out_valid_o is {valid} {} clocks after case {i}",
                    build.config.latency()
                )));
            }
            let result =
                u32::from_str_radix(r, 16).map_err(|_| EngineError(format!("icarus result '{r}' is not hex")))?;
            let mask = u64::from_str_radix(m, 16).map_err(|_| EngineError(format!("icarus mask '{m}' is not hex")))?;
            outcomes.push(to_outcome(c, Observed { valid: true, result, mask }));
        }
    }
    Ok(outcomes)
}

/// Re-run one case on the unit of `config` (or its fast form) under Icarus
/// with a VCD dump; returns the VCD's path.
pub fn trace_case(case: &Case, dir: &Path, config: Config, fast: bool) -> Result<PathBuf, EngineError> {
    let name = format!("rtl-{}{}-{}", config.name(), if fast { "-fast" } else { "" }, case.op.name());
    dump_vcd(&[&emit::record_hex(case)], dir, &name, config, fast)
}

/// The emitted RTL under Verilator or Icarus, as an engine.
pub struct RtlEngine {
    pub build: Build,
    kind: EngineKind,
}

impl RtlEngine {
    pub fn new(sim: Simulator, config: Config) -> Result<RtlEngine, EngineError> {
        RtlEngine::new_form(sim, config, false)
    }

    /// The engine of the synthesis form (`fast` false) or of the fast simulation form.
    pub fn new_form(sim: Simulator, config: Config, fast: bool) -> Result<RtlEngine, EngineError> {
        let runner = match sim {
            Simulator::Verilator => Runner::Verilator,
            Simulator::Icarus => Runner::Icarus,
        };
        let kind = EngineKind::of_form(runner, config, fast)
            .ok_or_else(|| EngineError(format!("no {} engine runs {}", sim.name(), config.name())))?;
        Ok(RtlEngine { build: build_form(sim, config, fast)?, kind })
    }
}

impl Engine for RtlEngine {
    fn kind(&self) -> EngineKind {
        self.kind
    }

    fn run(&mut self, cases: &[Case]) -> Result<Vec<Outcome>, EngineError> {
        if cases.is_empty() {
            return Ok(Vec::new());
        }
        match self.build.sim {
            Simulator::Verilator => Ok(run_ext(&self.build, cases)?.outcomes),
            Simulator::Icarus => run_dump(&self.build, cases),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_reads_the_last_line_only() {
        assert_eq!(summary("x\n12 passed, 0 failed\n"), Some((12, 0)));
        assert_eq!(summary("3 passed, 1 failed\nFATAL\n"), None);
        assert_eq!(summary(""), None);
    }

    #[test]
    fn failing_vectors_are_read_from_the_error_lines() {
        let out = "ERROR vector 7 (op 001, clock 9): got\nERROR clock 3: out_valid_o\nERROR vector 2 (op 1)\nERROR vector 7 (x)\n";
        assert_eq!(failing_vectors(out), vec![2, 7]);
    }
}

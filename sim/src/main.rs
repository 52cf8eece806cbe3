//! The `crosslane` command line.

use clap::{Parser, Subcommand};
use crosslane_sim::cli::eval as protocol;
use crosslane_sim::engine::EngineKind;
use crosslane_sim::{engines, verify};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{Read, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "crosslane", version, about = "The CrossLaneReduce unit: golden model, hardware, simulators")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer eval-protocol cases (JSON Lines on stdin) on one engine.
    Eval {
        #[arg(long, value_enum, default_value = "golden")]
        engine: EngineKind,
    },
    /// Run the generated self-checking testbench on Verilator and/or Icarus.
    Testbench {
        /// verilator, icarus, or both.
        #[arg(long, default_value = "both")]
        sim: String,
        /// Vector file ($readmemh records); default generated/tb/vectors.hex.
        #[arg(long, default_value = "generated/tb/vectors.hex")]
        vectors: std::path::PathBuf,
        /// Where runs write (VCDs of failing vectors land here).
        #[arg(long, default_value = "target/crosslane-tb")]
        workdir: std::path::PathBuf,
        /// Configurations, comma separated: every1, every2, every3 or all.
        #[arg(long, value_delimiter = ',', default_value = "all")]
        config: Vec<String>,
    },
    /// Print the fields of a 64-byte instruction (128 hex digits) and whether it is valid.
    Decode {
        hex: String,
        /// SBUF partition size the tensors are checked against.
        #[arg(long, default_value_t = 65536)]
        partition_bytes: usize,
    },
    /// The coverage of a campaign's cases, sampled without running an engine:
    /// what `verify` (the unit's Verilator campaign, --per-op cases an op) and
    /// `verify --exec N` (N instructions) would exercise (docs/coverage.md).
    Coverage {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cases an op of the unit's campaign (verify's --verilator-per-op).
        #[arg(long, default_value_t = crosslane_sim::verify::DEFAULT_VERILATOR_PER_OP)]
        per_op: usize,
        /// Instructions of the instruction campaign (`./dev verify` runs 100,000).
        #[arg(long, default_value_t = crosslane_sim::exec_campaign::DEFAULT_INSTRUCTIONS)]
        exec: u64,
        /// Exit 1 unless every reachable bin is hit.
        #[arg(long)]
        closed: bool,
        /// Write the counts as JSON here too.
        #[arg(long)]
        json: Option<std::path::PathBuf>,
    },
    /// Print the instruction campaign's cases (`verify --exec`) as `exec`
    /// input lines, for other testbenches (the cocotb one) to run.
    Cases {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cases to print.
        #[arg(long, default_value_t = 100)]
        count: u64,
        /// Skip cases that read more elements than this (channels × the
        /// pattern's elements), to keep slow simulators' runs short.
        #[arg(long)]
        max_work: Option<u64>,
    },
    /// Run instructions on SBUF images (instruction.md §5): JSON Lines on stdin.
    Exec {
        /// golden (the reference); hdl (the engine in rust-hdl's simulation),
        /// verilator or icarus (generated/rtl/crosslane_engine.v in that
        /// simulator), verilator-lanes8 or icarus-lanes8 (the engine of 8 lanes,
        /// crosslane_engine_lanes8.v): the engines' answers carry `cycles`.
        #[arg(long, default_value = "golden")]
        engine: String,
        /// The RTL engines' read port stalls in this percent of clocks (0 to 100; D62):
        /// the same answers, more `cycles`.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
        read_stall: u8,
    },
    /// Build an instruction from named fields (JSON, or stdin when absent); prints 128 hex digits.
    Encode {
        #[arg(long)]
        json: Option<String>,
    },
    /// Run every engine against the golden model and print a table.
    Verify {
        /// Seed of the random campaign.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random cases per op for the golden model.
        #[arg(long, default_value_t = 2000)]
        per_op: usize,
        /// Random cases per op for the rust-hdl simulation (slow: ~4k cases/s).
        #[arg(long, default_value_t = 200)]
        hdl_per_op: usize,
        /// Random cases per op for Verilator (the default is over 1M in all).
        #[arg(long, default_value_t = crosslane_sim::verify::DEFAULT_VERILATOR_PER_OP)]
        verilator_per_op: usize,
        /// Random cases per op for Icarus.
        #[arg(long, default_value_t = 60)]
        icarus_per_op: usize,
        /// Where VCDs of failing cases are written.
        #[arg(long, default_value = "target/crosslane-vcd")]
        vcd_dir: std::path::PathBuf,
        /// Run shard i of n (1 <= i <= n) of every campaign: case k is in
        /// shard (k mod n) + 1. `crosslane merge` combines the shards' reports.
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// Write the report as JSON here (for `crosslane merge`).
        #[arg(long)]
        json: Option<std::path::PathBuf>,
        /// Run the instruction campaign instead: N random instructions on the
        /// RTL engine under Verilator against golden, the first of them also
        /// under Icarus and rust-hdl (docs/engine.md); --shard, --json and
        /// `merge` work as for the unit's campaign.
        #[arg(long)]
        exec: Option<u64>,
        /// With --exec: the first M of its instructions also under Icarus.
        #[arg(long, default_value_t = 20)]
        exec_icarus: u64,
        /// With --exec: the first K of its instructions also in rust-hdl's simulation.
        #[arg(long, default_value_t = 20)]
        exec_hdl: u64,
        /// With --exec: the first L of its instructions also on the engine of 8 lanes under Verilator (D66).
        #[arg(long, default_value_t = 20)]
        exec_lanes8: u64,
        /// Print the coverage model's report by group (bins hit of the reachable
        /// ones, the unhit ones by name; docs/coverage.md) and, given a FILE,
        /// write its counts there as JSON. Without it, one line of totals.
        #[arg(long, value_name = "FILE")]
        coverage: Option<Option<std::path::PathBuf>>,
    },
    /// Draw a VCD's unit ports as an SVG, one column per clock (or, with
    /// --run N, first run the first N checked-in testbench vectors under
    /// Icarus with a VCD dump and draw that).
    Wave {
        /// The VCD (from a failing case, the testbench's +vcd, a counterexample).
        vcd: Option<std::path::PathBuf>,
        /// Run the first N records of generated/tb/vectors.hex under Icarus instead.
        #[arg(long)]
        run: Option<usize>,
        /// The SVG to write (default: beside the VCD, .svg).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// First clock drawn.
        #[arg(long, default_value_t = 0)]
        from: usize,
        /// Clocks drawn.
        #[arg(long, default_value_t = 32)]
        clocks: usize,
    },
    /// Combine the JSON reports of a sharded verify campaign: every shard
    /// exactly once, one campaign; prints the table, exit 1 on mismatches.
    Merge {
        /// The shards' reports (`verify --json`).
        #[arg(required = true)]
        reports: Vec<std::path::PathBuf>,
        /// Write the merged report here.
        #[arg(long)]
        json: Option<std::path::PathBuf>,
        /// Print the coverage model's report by group (bins hit of the reachable
        /// ones, the unhit ones by name; docs/coverage.md) and, given a FILE,
        /// write its counts there as JSON. Without it, one line of totals.
        #[arg(long, value_name = "FILE")]
        coverage: Option<Option<std::path::PathBuf>>,
    },
    /// Write generated/ (the emitted Verilog), or with --check report files that differ.
    Generate {
        #[arg(long, default_value = "generated")]
        out: std::path::PathBuf,
        /// Write nothing; exit 1 if any file differs from what would be generated.
        #[arg(long)]
        check: bool,
    },
    /// Synthesize the unit with yosys, whole and with op_i tied to each op
    /// named (default: one op of every family), and print cells and flip-flops.
    Cost {
        /// Ops to cost, comma separated (e.g. radd_nx16,rbmax_2nx8).
        #[arg(long, value_delimiter = ',')]
        ops: Vec<String>,
        #[arg(long, default_value = "target/crosslane-cost")]
        dir: std::path::PathBuf,
    },
    /// Prove the RTL equal to an independent reference, op by op (yosys + ABC).
    Prove {
        /// Configurations to prove, comma separated: every1 (the default
        /// unit, crosslane_reduce), every2, every3, or all.
        #[arg(long, value_delimiter = ',', default_value = "every1")]
        config: Vec<String>,
        /// The top's RTL file to prove, the components it instantiates read
        /// from the same folder (one configuration only; default:
        /// generated/rtl/<module>.v of each configuration).
        #[arg(long)]
        rtl: Option<std::path::PathBuf>,
        /// Ops to prove, comma separated; `no-op` stands for the 418 codes of
        /// op_i that are no op (default: all 94 and no-op).
        #[arg(long, value_delimiter = ',')]
        ops: Vec<String>,
        /// Solver time per op, seconds; an op that runs out is not proven.
        #[arg(long, default_value_t = 300)]
        timeout: u64,
        /// Parallel proofs (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Also write the table as JSON here.
        #[arg(long)]
        json: Option<std::path::PathBuf>,
        /// Which form of each configuration: synthesis (the RTL an integrator
        /// builds) or fast (its fast simulation form, crosslane_reduce*_fast,
        /// which the -fast engines run).
        #[arg(long, value_enum, default_value = "synthesis")]
        form: Form,
        /// Check the fp units instead (docs/fp-units.md): each at each of its
        /// latencies, built under Verilator, on its edge set and --vectors
        /// random vectors, compared by bits with golden; one line a unit.
        #[arg(long)]
        fp: bool,
        /// With --fp: random vectors for each unit and latency.
        #[arg(long, default_value_t = 1_000_000, requires = "fp")]
        vectors: u64,
        /// With --fp: the random vectors' seed.
        #[arg(long, default_value_t = 1, requires = "fp")]
        seed: u64,
        /// With --fp: the units to check, comma separated (default: all).
        #[arg(long, value_delimiter = ',', requires = "fp")]
        units: Vec<String>,
        /// With --fp: also prove each unit at each latency equal to its
        /// SMT-LIB floating-point reference (yosys write_smt2 + bitwuzla,
        /// --timeout seconds a proof).
        #[arg(long, requires = "fp")]
        smt: bool,
    },
    /// Measure an engine's throughput on random corner-heavy cases of every
    /// op, beside the golden reference of the same run; or with --suite every
    /// simulating engine (docs/performance.md).
    Bench {
        #[arg(long, value_enum, default_value = "hdl")]
        engine: EngineKind,
        /// Cases to run (spread over every op).
        #[arg(long, default_value_t = 20_000)]
        cases: usize,
        /// Runs of each measurement; the best is kept.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Every simulating engine of every configuration (about two minutes).
        #[arg(long)]
        suite: bool,
        /// With --suite: write the figures into these pages (the table into a
        /// page's bench block, the README's headline rows), comma separated.
        #[arg(long, requires = "suite", value_delimiter = ',')]
        docs: Vec<std::path::PathBuf>,
        /// With --suite: measure the suite 3 times and write each figure's median ratio to the reference here.
        #[arg(long, requires = "suite")]
        record: Option<std::path::PathBuf>,
        /// With --suite: exit 1 if a ratio fell more than 50% below this file's.
        #[arg(long, requires = "suite")]
        check: Option<std::path::PathBuf>,
        /// The RTL engine's throughput instead: clocks by pattern and dtype
        /// on --exec-engine (every case checked against golden).
        #[arg(long, conflicts_with = "suite")]
        exec: bool,
        /// With --exec: verilator, icarus or hdl (the clocks are the same on each),
        /// or verilator-lanes8, icarus-lanes8 (the engine of 8 lanes).
        #[arg(long, default_value = "verilator", requires = "exec")]
        exec_engine: String,
        /// With --exec: write the table into this page, between its markers.
        #[arg(long, requires = "exec")]
        exec_docs: Option<std::path::PathBuf>,
    },
}

fn generate(out: &std::path::Path, check: bool) -> Result<bool, String> {
    use crosslane_sim::emit as generate;
    if check {
        let stale = generate::check(out).map_err(|e| format!("crosslane generate: {e}"))?;
        for p in &stale {
            println!("differs from the generator (or is no file of it: remove it): {}", p.display());
        }
        if stale.is_empty() {
            println!("generated/ is up to date");
        } else {
            println!("rerun: {}", generate::COMMAND);
        }
        return Ok(stale.is_empty());
    }
    for p in generate::write(out).map_err(|e| format!("crosslane generate: {e}"))? {
        println!("wrote {}", p.display());
    }
    Ok(true)
}

fn testbench(
    which: &str,
    vectors: &std::path::Path,
    workdir: &std::path::Path,
    configs: &[String],
) -> Result<bool, String> {
    use crosslane_sim::engines::rtl::{self as simulators, Simulator};
    let sims = match which {
        "verilator" => vec![Simulator::Verilator],
        "icarus" => vec![Simulator::Icarus],
        "both" => vec![Simulator::Verilator, Simulator::Icarus],
        other => return Err(format!("crosslane testbench: --sim {other}: expected verilator, icarus or both")),
    };
    let vectors = std::fs::canonicalize(vectors)
        .map_err(|e| format!("crosslane testbench: cannot read {}: {e}", vectors.display()))?;
    let configs = parse_configs("testbench", configs)?;
    let mut all_ok = true;
    for config in configs {
        for &sim in &sims {
            let what = format!("{} {}", sim.name(), config.module());
            let dir = workdir.join(sim.name()).join(config.name());
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("crosslane testbench: cannot create {}: {e}", dir.display()))?;
            let build = simulators::build(sim, config).map_err(|e| format!("crosslane testbench: {e}"))?;
            let run = simulators::run_tb_keeping_vcd(&build, &vectors, &dir)
                .map_err(|e| format!("crosslane testbench: {e}"))?;
            print!("{}", run.stdout);
            println!("{what}: {} passed, {} failed in {:.2} s", run.passed, run.failed, run.secs);
            if let Some(vcd) = &run.vcd {
                println!("{what}: VCD of the failing vectors: {}", vcd.display());
                picture(sim.name(), vcd);
            }
            all_ok &= run.ok();
        }
    }
    Ok(all_ok)
}

fn decode(hex: &str, partition_bytes: usize) -> Result<bool, String> {
    crosslane_sim::cli::exec::check_partition_bytes(partition_bytes)
        .map_err(|e| format!("crosslane decode: --{}", e.replacen('_', "-", 1)))?;
    let raw = crosslane_golden::instruction::RawInstruction::from_hex(hex.trim())
        .map_err(|e| format!("crosslane decode: {e}"))?;
    let (text, valid) = crosslane_sim::cli::exec::describe(&raw, partition_bytes);
    print!("{text}");
    Ok(valid)
}

/// `verify --exec N`: the instruction campaign, case i the same on every
/// engine: the first `counts[0]` on Verilator, the first `counts[1]` of them
/// on Icarus and `counts[2]` in rust-hdl's simulation, each against golden.
/// A mismatch prints the case as an `exec` line and leaves a VCD of it (the
/// RTL under Icarus) in `vcd_dir`. `--json` writes the report for `merge`.
fn verify_exec(
    seed: u64,
    counts: [u64; 4],
    shard: &str,
    vcd_dir: &std::path::Path,
    json: Option<&std::path::Path>,
    coverage: Option<Option<&std::path::Path>>,
) -> Result<bool, String> {
    use crosslane_sim::engines::instr;
    use crosslane_sim::exec_campaign::{case, check, replay, EngineTally, ExecReport, Verdict};
    let shard = verify::Shard::parse(shard).map_err(|e| format!("crosslane verify: {e}"))?;
    if let Some(path) = json {
        crosslane_sim::tools::check_writable(path).map_err(|e| format!("crosslane verify: --json: {e}"))?;
    }
    coverage_writable(coverage, "verify")?;
    let counts = [counts[0], counts[1].min(counts[0]), counts[2].min(counts[0]), counts[3].min(counts[0])];
    let mut report = ExecReport {
        seed,
        counts,
        shard_count: shard.count,
        shards: vec![shard.index],
        engines: Vec::new(),
        coverage: crosslane_golden::coverage::Coverage::new(),
    };
    let mut all_ok = true;
    let run_start = std::time::Instant::now();
    let mut sampling = std::time::Duration::ZERO;
    for (name, count) in crosslane_sim::exec_campaign::EXEC_ENGINES.into_iter().zip(counts) {
        let mut engine = instr::open(name).map_err(|e| format!("crosslane verify: {e}"))?;
        let start = std::time::Instant::now();
        let mut t = EngineTally { engine: name.to_string(), ..EngineTally::default() };
        for i in shard.of(0..count) {
            let c = case(seed, i);
            // Coverage: of the instructions the Verilator engine ran (every one of the campaign's).
            if name == "verilator" {
                let t = std::time::Instant::now();
                crosslane_sim::exec_campaign::sample(&mut report.coverage, &c);
                sampling += t.elapsed();
            }
            match check(engine.as_mut(), &c).map_err(|e| format!("crosslane verify: {name} case {i}: {e}"))? {
                Verdict::Match { accepted: true, cycles: k } => {
                    t.accepted += 1;
                    t.clocks += k;
                }
                Verdict::Match { accepted: false, .. } => t.rejected += 1,
                Verdict::Mismatch(why) => {
                    t.mismatches += 1;
                    if t.mismatches <= 5 {
                        println!("MISMATCH {name} case {i} (seed {seed}): {why}\n  replay: {}", replay(name, &c));
                    }
                    if t.mismatches == 1 {
                        let vcd = vcd_dir.join(format!("exec-seed{seed}-case{i}.vcd"));
                        let traced = std::fs::create_dir_all(vcd_dir)
                            .map_err(|e| format!("cannot create {}: {e}", vcd_dir.display()))
                            .and_then(|_| {
                                // The engine that failed, traced under Icarus.
                                let sim = crosslane_sim::engines::rtl::Simulator::Icarus;
                                if name.ends_with("-lanes8") {
                                    instr::sources_lanes8(sim)
                                } else {
                                    instr::sources(sim)
                                }
                            })
                            .and_then(|files| instr::trace(&files, &c, &vcd));
                        match traced {
                            Ok(outcome) => println!("  VCD of case {i} under Icarus ({outcome:?}): {}", vcd.display()),
                            Err(e) => println!("  could not write a VCD of case {i}: {e}"),
                        }
                    }
                }
            }
        }
        // Back to back, the last instruction's stray writes show only after it.
        if let Err(e) = engine.finish() {
            println!("MISMATCH {name} after the last case: {e}");
            t.mismatches += 1;
        }
        let of = if shard == verify::Shard::WHOLE { String::new() } else { format!(", shard {shard}") };
        println!(
            "instructions: {} on {name} against golden (seed {seed}{of}): {} accepted, {} rejected, {} mismatches; {} clocks; {:.1} s",
            t.instructions(),
            t.accepted,
            t.rejected,
            t.mismatches,
            t.clocks,
            start.elapsed().as_secs_f64()
        );
        if t.instructions() == 0 && count > 0 && shard.len(count as usize) > 0 {
            println!("no instruction was checked on {name}");
            all_ok = false;
        }
        all_ok &= t.mismatches == 0;
        report.engines.push(t);
    }
    report_coverage(&report.coverage, crosslane_sim::coverage::INSTRUCTION, "the instruction", coverage, "verify")?;
    sampling_line(sampling, run_start.elapsed());
    if report.engines[0].instructions() == 0 {
        println!("no instruction was checked");
        all_ok = false;
    }
    if let Some(path) = json {
        let text = report.to_json().to_string() + "\n";
        crosslane_sim::tools::write_atomic(path, text.as_bytes()).map_err(|e| format!("crosslane verify: {e}"))?;
    }
    Ok(all_ok)
}

/// `crosslane cases`: the campaign's cases 0, 1, ... as exec lines (each
/// with its index as id), `count` of them within `max_work`.
fn cases(seed: u64, count: u64, max_work: Option<u64>) -> Result<bool, String> {
    use crosslane_sim::exec_campaign::{case, exec_line};
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut printed = 0;
    for i in 0.. {
        if printed == count {
            break;
        }
        if i > count.saturating_mul(100).max(1000) {
            return Err(format!("crosslane cases: fewer than {count} cases within --max-work"));
        }
        let c = case(seed, i);
        let work = c.inst.src.elements().saturating_mul(c.inst.num_active_channels.max(1) as u64);
        if max_work.is_some_and(|m| work > m) {
            continue;
        }
        let line = format!("{{\"id\": {i}, {}", &exec_line(&c)[1..]);
        if !written("cases", writeln!(out, "{line}"))? {
            return Ok(true);
        }
        printed += 1;
    }
    written("cases", out.flush())?;
    Ok(true)
}

/// Answer each line as it comes, flushed: an answer is out before the next
/// line is read, so no answer waits on (or is lost to) a later line.
fn exec(engine: &str, read_stall: u8) -> Result<(), String> {
    use crosslane_sim::engines::instr::{self, InstrRunner, WithStall};
    let mut rtl = match engine {
        "golden" if read_stall > 0 => return Err("crosslane exec: --read-stall is for the RTL engines".into()),
        "golden" => None,
        name => {
            let inner = instr::open(name).map_err(|e| format!("crosslane exec: {e}"))?;
            Some(Box::new(WithStall { inner, stall: read_stall }) as Box<dyn InstrRunner>)
        }
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    for (i, line) in crosslane_sim::cli::read_lines(std::io::stdin().lock()).enumerate() {
        let line = line.map_err(|e| format!("crosslane exec: cannot read line {}: {e}", i + 1))?;
        let wrote = match line {
            Ok(text) => crosslane_sim::cli::exec::answer_line_on(
                &text,
                i + 1,
                &mut out,
                rtl.as_mut().map(|e| e.as_mut() as &mut dyn InstrRunner),
            ),
            Err(why) => crosslane_sim::cli::exec::refuse_line_to(&why, i + 1, &mut out),
        };
        if !written("exec", wrote.and_then(|_| out.flush()))? {
            break;
        }
    }
    if let Some(engine) = rtl.as_mut() {
        engine.finish().map_err(|e| format!("crosslane exec: {e}"))?;
    }
    Ok(())
}

/// What a write to stdout gave: `Ok(true)` to go on; `Ok(false)` when the
/// reader has closed the pipe (`crosslane exec | head`: it wants no more
/// lines, which is no failure of this command: stop, exit 0); otherwise
/// the error, naming the command.
fn written(command: &str, result: std::io::Result<()>) -> Result<bool, String> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(format!("crosslane {command}: cannot write the output: {e}")),
    }
}

fn encode(json: Option<String>) -> Result<(), String> {
    let text = match json {
        Some(t) => t,
        None => read_stdin("encode")?,
    };
    let raw = crosslane_sim::cli::exec::encode_json(&text).map_err(|e| format!("crosslane encode: {e}"))?;
    if let Err(e) = raw.validate(crosslane_golden::instruction::DEFAULT_PARTITION_BYTES) {
        eprintln!("crosslane encode: warning: the instruction would be rejected: {e}");
    }
    println!("{}", raw.to_hex());
    Ok(())
}

fn cost(names: &[String], dir: &std::path::Path) -> Result<(), String> {
    use crosslane_golden::{Family, Form, Op};
    let ops: Vec<Op> = if names.is_empty() {
        Family::ALL
            .iter()
            .filter_map(|&f| Op::all().into_iter().find(|o| o.family == f && !o.predicated && o.form != Form::B8))
            .collect()
    } else {
        names
            .iter()
            .map(|n| Op::from_name(n).ok_or_else(|| format!("crosslane cost: unknown op '{n}'")))
            .collect::<Result<_, _>>()?
    };
    println!("{:<18} {:>8} {:>11}", "op_i tied to", "cells", "flip-flops");
    let whole = crosslane_sim::cost::cost(None, dir).map_err(|e| format!("crosslane cost: {e}"))?;
    println!("{:<18} {:>8} {:>11}", "(any op)", whole.cells, whole.flip_flops);
    for op in ops {
        match crosslane_sim::cost::cost(Some(op), dir) {
            Ok(c) => println!("{:<18} {:>8} {:>11}", op.name(), c.cells, c.flip_flops),
            Err(e) => println!("{:<18} error: {e}", op.name()),
        }
    }
    Ok(())
}

fn parse_ops(command: &str, names: &[String]) -> Result<Vec<crosslane_golden::Op>, String> {
    use crosslane_golden::Op;
    if names.is_empty() {
        return Ok(Op::all());
    }
    names.iter().map(|n| Op::from_name(n).ok_or_else(|| format!("crosslane {command}: unknown op '{n}'"))).collect()
}

/// The configurations named (`every1`, `crosslane_reduce_every2`, `all`).
fn parse_configs(command: &str, names: &[String]) -> Result<Vec<crosslane_golden::Config>, String> {
    use crosslane_golden::Config;
    let mut out = Vec::new();
    for n in names {
        if n == "all" {
            out.extend(Config::ALL);
        } else {
            out.push(Config::from_name(n).ok_or_else(|| {
                format!("crosslane {command}: unknown configuration '{n}' (every1, every2, every3 or all)")
            })?);
        }
    }
    out.dedup();
    if out.is_empty() {
        out.push(Config::DEFAULT);
    }
    Ok(out)
}

/// Prove each configuration; the JSON report has one entry per configuration.
/// The form of the RTL `prove` proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Form {
    Synthesis,
    Fast,
}

fn prove_configs(
    names: &[String],
    rtl: Option<&std::path::Path>,
    ops: &[String],
    timeout: u64,
    jobs: Option<usize>,
    json: Option<&std::path::Path>,
    fast: bool,
) -> Result<bool, String> {
    let configs = parse_configs("prove", names)?;
    if rtl.is_some() && configs.len() > 1 {
        return Err("crosslane prove: --rtl names one file: give one --config with it".into());
    }
    let mut all_proven = true;
    let mut reports = Vec::new();
    for config in configs {
        // The top's file and, beside it, those of the components it instantiates.
        let set = if fast {
            let fast_module = crosslane_sim::emit::sim_form::module(config);
            vec![
                std::path::PathBuf::from(format!("rtl/{fast_module}.v")),
                std::path::PathBuf::from(format!("rtl/{}.v", crosslane_sim::emit::sim_form::CORE)),
            ]
        } else {
            crosslane_sim::emit::rtl_set(config).map_err(|e| format!("crosslane prove: {e}"))?
        };
        let top = rtl
            .map(std::path::Path::to_path_buf)
            .unwrap_or_else(|| crosslane_sim::tools::generated_dir().join(&set[0]));
        let dir = top.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
        let mut files = vec![top];
        files.extend(set[1..].iter().filter_map(|p| p.file_name()).map(|n| dir.join(n)));
        let module = if fast { crosslane_sim::emit::sim_form::module(config) } else { config.module() };
        let (proven, report) = prove(config, &module, &files, ops, timeout, jobs)?;
        all_proven &= proven;
        reports.push(report);
    }
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "configs": reports }))
            .map_err(|e| format!("crosslane prove: {e}"))?;
        crosslane_sim::tools::write_atomic(path, text.as_bytes()).map_err(|e| format!("crosslane prove: {e}"))?;
    }
    Ok(all_proven)
}

/// `prove --fp`: every fp unit named (default all) at each latency.
fn prove_fp(
    names: &[String],
    vectors: u64,
    seed: u64,
    smt: Option<u64>,
    json: Option<&std::path::Path>,
) -> Result<bool, String> {
    use crosslane_hdl::fp_unit::{fp_unit, FP_UNITS};
    let units = if names.is_empty() {
        FP_UNITS.iter().collect::<Vec<_>>()
    } else {
        names
            .iter()
            .map(|n| {
                fp_unit(n).ok_or_else(|| {
                    let all: Vec<&str> = FP_UNITS.iter().map(|u| u.name).collect();
                    format!("crosslane prove --fp: no fp unit '{n}' (units: {})", all.join(", "))
                })
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    if let Some(path) = json {
        crosslane_sim::tools::check_writable(path).map_err(|e| format!("crosslane prove: {e}"))?;
    }
    let mut passed = true;
    let mut rows = Vec::new();
    for unit in units {
        for &latency in unit.latencies {
            let c = crosslane_sim::prove::fp::check(unit, latency, vectors, seed, None)
                .map_err(|e| format!("crosslane prove --fp: crosslane_{}_l{latency}: {e}", unit.name))?;
            println!("{}", c.line());
            passed &= c.passed();
            rows.push(serde_json::json!({
                "unit": unit.name, "latency": latency, "simulator": "verilator", "vectors": c.vectors,
                "edge_vectors": c.edge_vectors, "mismatches": c.mismatches, "seconds": c.secs,
                "build_seconds": c.build_secs, "counterexample": c.first.as_ref().map(|_| c.line()),
            }));
            if let Some(timeout) = smt {
                let files =
                    crosslane_sim::prove::fp::sources(unit).map_err(|e| format!("crosslane prove --fp: {e}"))?;
                let p =
                    crosslane_sim::prove::fp::smt_prove(unit, latency, &files, std::time::Duration::from_secs(timeout))
                        .map_err(|e| format!("crosslane prove --fp --smt: crosslane_{}_l{latency}: {e}", unit.name))?;
                println!("{}", p.line());
                let proven = p.verdict == crosslane_sim::prove::fp::SmtVerdict::Proven;
                passed &= proven;
                rows.push(serde_json::json!({
                    "unit": unit.name, "latency": latency, "solver": "bitwuzla", "proven": proven,
                    "seconds": p.secs, "line": p.line(),
                }));
            }
        }
    }
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "fp_units": rows, "seed": seed }))
            .map_err(|e| format!("crosslane prove: {e}"))?;
        crosslane_sim::tools::write_atomic(path, text.as_bytes()).map_err(|e| format!("crosslane prove: {e}"))?;
    }
    Ok(passed)
}

fn prove(
    config: crosslane_golden::Config,
    module: &str,
    rtl: &[std::path::PathBuf],
    names: &[String],
    timeout: u64,
    jobs: Option<usize>,
) -> Result<(bool, serde_json::Value), String> {
    use crosslane_sim::prove::{self, Status, NO_OP_NAME};
    let no_op = names.is_empty() || names.iter().any(|n| n == NO_OP_NAME);
    let named: Vec<String> = names.iter().filter(|n| *n != NO_OP_NAME).cloned().collect();
    let ops = if names.is_empty() || !named.is_empty() { parse_ops("prove", &named)? } else { Vec::new() };
    let prover = prove::Prover::new_top(rtl, config, module).map_err(|e| format!("crosslane prove: {e}"))?;
    println!(
        "prove: {} ({} files, {}) cut into {} registers, unrolled over {} clocks in {:.1} s ({})",
        rtl[0].display(),
        rtl.len(),
        module,
        prover.regs.len(),
        config.latency() + 1,
        prover.prepare_secs,
        prover.dir.display()
    );
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let start = std::time::Instant::now();
    let bar = ProgressBar::new(ops.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg:>14} [{bar:40}] {pos}/{len} ops ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let limit = std::time::Duration::from_secs(timeout);
    let results = prover.prove(&ops, jobs, limit, &|p| {
        bar.set_message(p.op.name());
        bar.inc(1);
    });
    bar.finish_and_clear();
    // The no-op codes: one proof, the checked clock's code free among them.
    let no_op = no_op.then(|| prover.prove_no_op(limit));
    println!("| op | code | verdict | seconds |");
    println!("|---|---|---|---|");
    for p in &results {
        println!("| {} | {:03x} | {} | {:.2} |", p.op.name(), p.op.code(), p.verdict(), p.secs);
    }
    if let Some((status, secs)) = &no_op {
        println!("| {NO_OP_NAME} | {} codes | {} | {secs:.2} |", prove::no_op_count(), status.verdict());
    }
    let rows_of = results.iter().map(|p| (p.op.name(), &p.status));
    for (name, status) in rows_of.chain(no_op.iter().map(|(s, _)| (NO_OP_NAME.to_string(), s))) {
        match status {
            Status::Proven => {}
            Status::Timeout => println!("{name}: not proven within {timeout} s"),
            Status::Error(e) => println!("{name}: error: {e}"),
            Status::Counterexample { cex, replay } => {
                let Some(c0) = cex.checked() else { continue };
                println!(
                    "{name}: counterexample: checked clock op_i={:03x} vec={} vbool={:016x} in_valid={}; rst_ni by clock {:?}",
                    c0.op,
                    crosslane_golden::Vec512(c0.vec).to_hex(),
                    c0.vbool,
                    c0.in_valid as u8,
                    cex.clocks.iter().map(|c| c.rst_n as u8).collect::<Vec<_>>()
                );
                match replay {
                    Ok(r) => println!("{name}: replay: {}", r.describe()),
                    Err(e) => println!("{name}: replay failed: {e}"),
                }
            }
        }
    }
    let proven = results.iter().filter(|p| p.proven()).count();
    let no_op_proven = no_op.as_ref().map(|(s, _)| matches!(s, Status::Proven));
    let mut parts = Vec::new();
    if !results.is_empty() {
        parts.push(format!("{proven} of {} ops proven", results.len()));
    }
    match no_op_proven {
        Some(true) => parts.push(format!("the {} no-op codes proven", prove::no_op_count())),
        Some(false) => parts.push(format!("the {} no-op codes NOT proven", prove::no_op_count())),
        None => {}
    }
    println!("prove: {}: {} in {:.1} s on {jobs} jobs", module, parts.join(", "), start.elapsed().as_secs_f64());
    let mut rows: Vec<serde_json::Value> = results
        .iter()
        .map(|p| serde_json::json!({"op": p.op.name(), "code": p.op.code(), "verdict": p.verdict(), "seconds": p.secs}))
        .collect();
    if let Some((status, secs)) = &no_op {
        rows.push(serde_json::json!({"op": NO_OP_NAME, "codes": prove::no_op_count(), "verdict": status.verdict(), "seconds": secs}));
    }
    let report = serde_json::json!({
        "config": config.name(),
        "module": module,
        "latency": config.latency(),
        "rtl": rtl.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
        "ops": rows,
    });
    Ok((proven == results.len() && no_op_proven != Some(false), report))
}

fn bench(kind: EngineKind, n: usize, runs: usize) -> Result<(), String> {
    use crosslane_sim::bench;
    if n == 0 {
        return Err("crosslane bench: --cases 0: nothing to measure".into());
    }
    let cases = bench::cases(n);
    let figures = bench::measure(kind, &cases, runs).map_err(|e| format!("crosslane bench: {e}"))?;
    for f in &figures {
        println!(
            "bench {}: {} vectors {} in {:.3} s = {} vectors/s ({:.3e} × the golden reference's {} measured beside it){}",
            kind.name(),
            f.vectors,
            f.span.name(),
            f.secs,
            bench::group(f.rate()),
            f.ratio(),
            bench::group(f.reference),
            if f.note.is_empty() { String::new() } else { format!("; {}", f.note) }
        );
    }
    Ok(())
}

/// `bench --exec`: the engine's clocks by pattern and dtype, and the
/// simulator's wall-clock rate beside them.
fn bench_exec(engine: &str, docs: Option<&std::path::Path>) -> Result<bool, String> {
    use crosslane_sim::exec_bench;
    let fail = |e: String| format!("crosslane bench --exec: {e}");
    // The page must have the markers before anything is measured.
    let page = match docs {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| fail(format!("cannot read {}: {e}", p.display())))?;
            exec_bench::write_into(&text, "").map_err(|e| fail(format!("{}: {e}", p.display())))?;
            Some((p, text))
        }
        None => None,
    };
    let mut runner = crosslane_sim::engines::instr::open(engine).map_err(fail)?;
    let rows = exec_bench::run(runner.as_mut()).map_err(fail)?;
    runner.finish().map_err(fail)?;
    let table = exec_bench::markdown(&rows);
    print!("{table}");
    let clocks: u64 = rows.iter().map(|r| r.cycles).sum();
    let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
    println!(
        "{engine}: {} instructions, {clocks} clocks in {seconds:.2} s: {:.0} clocks/s of simulation",
        rows.len(),
        clocks as f64 / seconds.max(1e-9)
    );
    if let Some((p, text)) = page {
        let new = exec_bench::write_into(&text, &table).map_err(fail)?;
        crosslane_sim::tools::write_atomic(p, new.as_bytes()).map_err(fail)?;
        println!("wrote the table into {}", p.display());
    }
    Ok(true)
}

fn bench_suite(
    runs: usize,
    docs: &[std::path::PathBuf],
    record: Option<&std::path::Path>,
    check: Option<&std::path::Path>,
) -> Result<bool, String> {
    use crosslane_sim::bench::{self, SuiteRun};
    let fail = |e: String| format!("crosslane bench: {e}");
    // Read what is to be written or compared before the measurements start.
    let recorded = match check {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))
                .and_then(|t| bench::parse_ratios(&t).map_err(|e| format!("{}: {e}", p.display())))
                .map_err(fail)?,
        ),
        None => None,
    };
    // Every page must have a place for the figures before they are measured.
    let mut pages = Vec::new();
    for p in docs {
        let text = std::fs::read_to_string(p).map_err(|e| fail(format!("cannot read {}: {e}", p.display())))?;
        let dry = SuiteRun { reference: 1.0, figures: bench::placeholder_figures() };
        bench::write_into(&text, &dry).map_err(|e| fail(format!("{}: {e}", p.display())))?;
        pages.push((p, text));
    }
    let measure = |kind| {
        let n = bench::suite().into_iter().find(|(k, _)| *k == kind).map_or(0, |(_, n)| n);
        let got = bench::measure(kind, &bench::cases(n), runs).map_err(|e| fail(e.0))?;
        for f in &got {
            println!("bench {}: {} {} vectors/s", f.engine.name(), f.span.name(), bench::group(f.rate()));
        }
        Ok::<_, String>(got)
    };
    // Recording: the median of several suites (D65); checking: one suite.
    let suites = if record.is_some() { bench::RECORD_RUNS } else { 1 };
    let mut runs = Vec::new();
    for i in 1..=suites {
        if suites > 1 {
            println!("bench: suite {i} of {suites}");
        }
        let mut run = SuiteRun { reference: 0.0, figures: Vec::new() };
        for (kind, _) in bench::suite() {
            run.figures.extend(measure(kind)?);
        }
        runs.push(run);
    }
    let mut run = bench::median_run(&runs);
    // A figure below its allowance: its engine measured again, the better ratio kept.
    if let Some(recorded) = &recorded {
        for attempt in 1..=bench::RETRIES {
            let low = bench::regressed_engines(&run, recorded);
            if low.is_empty() {
                break;
            }
            for kind in low {
                println!(
                    "bench {}: below its recorded ratio; measured again ({attempt} of {})",
                    kind.name(),
                    bench::RETRIES
                );
                let again = measure(kind)?;
                run.keep_better(again);
            }
        }
    }
    run.reference = run.figures.iter().map(|f| f.reference).fold(0.0, f64::max);
    print!("{}", run.markdown());
    for (p, text) in &pages {
        let text = bench::write_into(text, &run).map_err(|e| fail(format!("{}: {e}", p.display())))?;
        crosslane_sim::tools::write_atomic(p, text.as_bytes()).map_err(fail)?;
        println!("bench: figures written into {}", p.display());
    }
    if let Some(p) = record {
        crosslane_sim::tools::write_atomic(p, bench::ratios_json(&run.ratios()).as_bytes()).map_err(fail)?;
        println!("bench: ratios recorded in {}", p.display());
    }
    if let (Some(p), Some(recorded)) = (check, &recorded) {
        let bad = bench::regressions(&run, recorded);
        for b in &bad {
            println!("bench: regression: {b}");
        }
        if !bad.is_empty() {
            println!("bench: {} figures off their recorded ratios in {}", bad.len(), p.display());
            return Ok(false);
        }
        println!("bench: every figure within {:.0}% of {}", 100.0 * bench::ALLOWED_DROP, p.display());
    }
    Ok(true)
}

fn progress_bar(total: u64) -> ProgressBar {
    // Campaigns that finish well within a second get no bar.
    if total < 2_000 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} cases ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// All of stdin, or an error naming the command.
fn read_stdin(command: &str) -> Result<String, String> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("crosslane {command}: cannot read the input: {e}"))?;
    Ok(input)
}

/// Write output lines to stdout, or an error naming the command.
fn write_lines(command: &str, lines: impl IntoIterator<Item = String>) -> Result<(), String> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in lines {
        if !written(command, writeln!(out, "{line}"))? {
            return Ok(());
        }
    }
    written(command, out.flush()).map(|_| ())
}

/// The golden engine answers each line as it is read (a checker may send a
/// line and wait for its answer); the simulators take the whole input as
/// one batch, one case a clock (a process and a build per call otherwise).
fn eval(kind: EngineKind) -> Result<(), String> {
    use crosslane_sim::cli::read_lines;
    let mut engine = engines::open(kind).map_err(|e| format!("crosslane eval: {e}"))?;
    let read = |i: usize, l: std::io::Result<crosslane_sim::cli::Line>| {
        l.map_err(|e| format!("crosslane eval: cannot read line {}: {e}", i + 1))
    };
    if kind == EngineKind::Golden {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for (i, line) in read_lines(std::io::stdin().lock()).enumerate() {
            let line = read(i, line)?;
            let answers = protocol::answer_lines(std::slice::from_ref(&line), i + 1, |cases| engine.run(cases))
                .map_err(|e| format!("crosslane eval: {e}"))?;
            let wrote = answers.iter().try_for_each(|a| writeln!(out, "{a}")).and_then(|_| out.flush());
            if !written("eval", wrote)? {
                break;
            }
        }
        return Ok(());
    }
    let mut lines = Vec::new();
    for (i, line) in read_lines(std::io::stdin().lock()).enumerate() {
        lines.push(read(i, line)?);
    }
    let answers =
        protocol::answer_lines(&lines, 1, |cases| engine.run(cases)).map_err(|e| format!("crosslane eval: {e}"))?;
    write_lines("eval", answers)
}

fn run_verify(
    seed: u64,
    sizes: verify::Sizes,
    shard: &str,
    vcd_dir: &std::path::Path,
    json: Option<&std::path::Path>,
    coverage: Option<Option<&std::path::Path>>,
) -> Result<bool, String> {
    use verify::Mixed;
    let shard = verify::Shard::parse(shard).map_err(|e| format!("crosslane verify: {e}"))?;
    sizes.check(shard).map_err(|e| format!("crosslane verify: {e}"))?;
    // The report's place is checked before the campaign, not after it.
    if let Some(path) = json {
        crosslane_sim::tools::check_writable(path).map_err(|e| format!("crosslane verify: --json: {e}"))?;
    }
    coverage_writable(coverage, "verify")?;
    let run_start = std::time::Instant::now();
    let mut sampling = std::time::Duration::ZERO;
    let mut report = verify::Report::default();
    let cases = Mixed::new(seed, sizes.golden, true);
    let bar = progress_bar(shard.len(cases.len()) as u64);
    bar.set_message("golden");
    verify::verify_golden(shard.of(cases), shard.index == 1, &mut report, &|n| bar.inc(n));
    bar.finish_and_clear();
    for kind in EngineKind::ALL.into_iter().filter(|k| *k != EngineKind::Golden) {
        // An engine that cannot run fails the run: verify never passes by skipping.
        let mut e = engines::open(kind).map_err(|e| format!("crosslane verify: {e}"))?;
        let cases = Mixed::new(seed, sizes.per_op(kind), true);
        let bar = progress_bar(shard.len(cases.len()) as u64);
        bar.set_message(kind.name());
        // Coverage: of the cases the Verilator engine ran, the campaign's largest.
        let mut sampled = crosslane_golden::coverage::Coverage::new();
        let cases = shard.of(cases).inspect(|c| {
            if kind == EngineKind::Verilator {
                let t = std::time::Instant::now();
                sampled.sample_case(c.op, &c.vec, c.vbool);
                sampling += t.elapsed();
            }
        });
        verify::verify_engine(e.as_mut(), cases, &mut report, &|n| bar.inc(n))
            .map_err(|e| format!("crosslane verify: {e}"))?;
        report.coverage.merge(&sampled);
        bar.finish_and_clear();
        if let Some(m) = report.mismatches.iter().find(|m| m.engine == kind) {
            match engines::trace_case(kind, &m.case, vcd_dir) {
                Ok(path) => {
                    println!("{}: VCD of the first failing case: {}", kind.name(), path.display());
                    picture(kind.name(), &path);
                }
                Err(e) => println!("{}: could not write a VCD: {e}", kind.name()),
            }
        }
    }
    print!("{}", report.render());
    let bad = report.total_mismatches();
    let total: usize = report.rows.iter().map(|r| r.cases).sum();
    let of = if shard == verify::Shard::WHOLE { String::new() } else { format!(", shard {shard}") };
    report_coverage(&report.coverage, crosslane_sim::coverage::UNIT, "the unit", coverage, "verify")?;
    sampling_line(sampling, run_start.elapsed());
    println!("verify: {total} cases checked, {bad} mismatches (seed {seed}{of})");
    if let Some(path) = json {
        let text = verify::report_json(&report, seed, sizes, shard.count, &[shard.index]).to_string() + "\n";
        crosslane_sim::tools::write_atomic(path, text.as_bytes()).map_err(|e| format!("crosslane verify: {e}"))?;
    }
    Ok(bad == 0)
}

fn wave(
    vcd: Option<&std::path::Path>,
    run: Option<usize>,
    out: Option<&std::path::Path>,
    from: usize,
    clocks: usize,
) -> Result<bool, String> {
    use crosslane_sim::engines::rtl as simulators;
    use crosslane_sim::tools;
    use crosslane_sim::wave;
    let mut command = String::from("crosslane wave");
    let vcd = match (vcd, run) {
        (Some(v), None) => {
            command += &format!(" {}", v.display());
            v.to_path_buf()
        }
        (None, Some(n)) => {
            command += &format!(" --run {n}");
            let text = std::fs::read_to_string(tools::generated_dir().join("tb/vectors.hex"))
                .map_err(|e| format!("crosslane wave: cannot read the checked-in vectors: {e}"))?;
            let records: Vec<&str> = text.lines().filter(|l| !l.starts_with("//") && !l.is_empty()).take(n).collect();
            if records.len() < n.max(1) {
                return Err(format!(
                    "crosslane wave: --run {n}: the checked-in vectors have {} records",
                    records.len()
                ));
            }
            let dir = tools::cache_root().join("wave");
            simulators::dump_vcd(&records, &dir, &format!("first-{n}"), crosslane_golden::Config::DEFAULT, false)
                .map_err(|e| format!("crosslane wave: {e}"))?
        }
        _ => return Err("crosslane wave: give a VCD or --run N (not both)".into()),
    };
    let out = out.map_or_else(|| vcd.with_extension("svg"), |o| o.to_path_buf());
    if from != 0 {
        command += &format!(" --from {from}");
    }
    if clocks != 32 {
        command += &format!(" --clocks {clocks}");
    }
    wave::render(&vcd, &out, from, clocks, &command).map_err(|e| format!("crosslane wave: {e}"))?;
    println!("wave: {}", out.display());
    Ok(true)
}

/// Draw a failing case's VCD beside it and say where.
fn picture(what: &str, vcd: &std::path::Path) {
    match crosslane_sim::wave::beside(vcd, 32) {
        Ok(svg) => println!("{what}: picture: {}", svg.display()),
        Err(e) => println!("{what}: could not draw the VCD: {e}"),
    }
}

/// The coverage model's share of a verify run, measured in the run.
fn sampling_line(sampling: std::time::Duration, run: std::time::Duration) {
    println!(
        "coverage sampling: {:.2} s of the run's {:.1} s ({:.2}%)",
        sampling.as_secs_f64(),
        run.as_secs_f64(),
        100.0 * sampling.as_secs_f64() / run.as_secs_f64().max(1e-9)
    );
}

/// Check before a campaign that `--coverage FILE` can be written.
fn coverage_writable(coverage: Option<Option<&std::path::Path>>, command: &str) -> Result<(), String> {
    match coverage {
        Some(Some(p)) => {
            crosslane_sim::tools::check_writable(p).map_err(|e| format!("crosslane {command}: --coverage: {e}"))
        }
        _ => Ok(()),
    }
}

/// The coverage's totals; with `--coverage` its groups, and its counts
/// written to the FILE given.
fn report_coverage(
    c: &crosslane_golden::coverage::Coverage,
    prefix: &str,
    what: &str,
    flag: Option<Option<&std::path::Path>>,
    command: &str,
) -> Result<(), String> {
    use crosslane_sim::coverage;
    if let Some(file) = flag {
        print!("{}", c.render(prefix));
        if let Some(p) = file {
            let text = coverage::to_json(c).to_string() + "\n";
            crosslane_sim::tools::write_atomic(p, text.as_bytes()).map_err(|e| format!("crosslane {command}: {e}"))?;
            println!("coverage counts written to {}", p.display());
        }
    }
    println!("{}", c.total_line(prefix, what));
    Ok(())
}

/// `crosslane coverage`: the campaigns' cases sampled, no engine run.
fn coverage(seed: u64, per_op: usize, exec: u64, closed: bool, json: Option<&std::path::Path>) -> Result<bool, String> {
    use crosslane_sim::coverage::{INSTRUCTION, UNIT};
    use crosslane_sim::exec_campaign::{case, sample};
    coverage_writable(json.map(Some), "coverage")?;
    let mut c = crosslane_golden::coverage::Coverage::new();
    for k in verify::Mixed::new(seed, per_op, true) {
        c.sample_case(k.op, &k.vec, k.vbool);
    }
    for i in 0..exec {
        sample(&mut c, &case(seed, i));
    }
    report_coverage(&c, UNIT, "the unit", Some(None), "coverage")?;
    report_coverage(&c, INSTRUCTION, "the instruction", Some(json), "coverage")?;
    let ((uh, ur), (ih, ir)) = (c.total(UNIT), c.total(INSTRUCTION));
    Ok(!closed || (uh == ur && ih == ir))
}

fn merge(
    paths: &[std::path::PathBuf],
    json: Option<&std::path::Path>,
    coverage: Option<Option<&std::path::Path>>,
) -> Result<bool, String> {
    use crosslane_sim::exec_campaign::{is_exec_report, merge_exec, parse_exec_report};
    coverage_writable(coverage, "merge")?;
    // An instruction campaign's reports merge by their own rules.
    if let Some(first) = paths.first() {
        if std::fs::read_to_string(first).is_ok_and(|t| is_exec_report(&t)) {
            let mut parts = Vec::new();
            for p in paths {
                let name = p.display().to_string();
                let text =
                    std::fs::read_to_string(p).map_err(|e| format!("crosslane merge: cannot read {name}: {e}"))?;
                parts.push((
                    name.clone(),
                    parse_exec_report(&text, &name).map_err(|e| format!("crosslane merge: {e}"))?,
                ));
            }
            let merged = merge_exec(parts).map_err(|e| format!("crosslane merge: {e}"))?;
            print!("{}", merged.render());
            let inst = crosslane_sim::coverage::INSTRUCTION;
            report_coverage(&merged.coverage, inst, "the instruction", coverage, "merge")?;
            println!(
                "merge: {} shards of the instruction campaign, {} mismatches (seed {})",
                merged.shard_count,
                merged.mismatches(),
                merged.seed
            );
            if let Some(path) = json {
                let text = merged.to_json().to_string() + "\n";
                crosslane_sim::tools::write_atomic(path, text.as_bytes())
                    .map_err(|e| format!("crosslane merge: {e}"))?;
            }
            let checked = merged.engines.first().is_some_and(|e| e.instructions() > 0);
            if !checked {
                println!("no instruction was checked");
            }
            return Ok(merged.mismatches() == 0 && checked);
        }
    }
    let mut parts = Vec::new();
    for p in paths {
        let name = p.display().to_string();
        let text = std::fs::read_to_string(p).map_err(|e| format!("crosslane merge: cannot read {name}: {e}"))?;
        parts.push((name.clone(), verify::parse_report(&text, &name).map_err(|e| format!("crosslane merge: {e}"))?));
    }
    let merged = verify::merge(parts).map_err(|e| format!("crosslane merge: {e}"))?;
    print!("{}", merged.report.render());
    report_coverage(&merged.report.coverage, crosslane_sim::coverage::UNIT, "the unit", coverage, "merge")?;
    let bad = merged.report.total_mismatches();
    let total: usize = merged.report.rows.iter().map(|r| r.cases).sum();
    println!("merge: {} shards, {total} cases checked, {bad} mismatches (seed {})", merged.count, merged.seed);
    if let Some(path) = json {
        let text = verify::report_json(&merged.report, merged.seed, merged.sizes, merged.count, &merged.shards)
            .to_string()
            + "\n";
        crosslane_sim::tools::write_atomic(path, text.as_bytes()).map_err(|e| format!("crosslane merge: {e}"))?;
    }
    Ok(bad == 0)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Eval { engine } => eval(engine).map(|_| true),
        Command::Generate { out, check } => generate(&out, check),
        Command::Decode { hex, partition_bytes } => decode(&hex, partition_bytes),
        Command::Testbench { sim, vectors, workdir, config } => testbench(&sim, &vectors, &workdir, &config),
        Command::Exec { engine, read_stall } => exec(&engine, read_stall).map(|_| true),
        Command::Cases { seed, count, max_work } => cases(seed, count, max_work),
        Command::Encode { json } => encode(json).map(|_| true),
        Command::Cost { ops, dir } => cost(&ops, &dir).map(|_| true),
        Command::Prove { config, rtl, ops, timeout, jobs, json, form, fp, vectors, seed, units, smt } => {
            if fp {
                prove_fp(&units, vectors, seed, smt.then_some(timeout), json.as_deref())
            } else {
                prove_configs(&config, rtl.as_deref(), &ops, timeout, jobs, json.as_deref(), form == Form::Fast)
            }
        }
        Command::Bench { engine, cases, runs, suite, docs, record, check, exec, exec_engine, exec_docs } => {
            if exec {
                bench_exec(&exec_engine, exec_docs.as_deref())
            } else if suite {
                bench_suite(runs, &docs, record.as_deref(), check.as_deref())
            } else {
                bench(engine, cases, runs).map(|_| true)
            }
        }
        Command::Verify {
            exec: Some(n),
            exec_icarus,
            exec_hdl,
            exec_lanes8,
            seed,
            shard,
            vcd_dir,
            json,
            coverage,
            ..
        } => verify_exec(
            seed,
            [n, exec_icarus, exec_hdl, exec_lanes8],
            &shard,
            &vcd_dir,
            json.as_deref(),
            coverage.as_ref().map(Option::as_deref),
        ),
        Command::Verify {
            seed,
            per_op,
            hdl_per_op,
            verilator_per_op,
            icarus_per_op,
            vcd_dir,
            shard,
            json,
            coverage,
            exec: None,
            ..
        } => {
            let sizes =
                verify::Sizes { golden: per_op, hdl: hdl_per_op, verilator: verilator_per_op, icarus: icarus_per_op };
            run_verify(seed, sizes, &shard, &vcd_dir, json.as_deref(), coverage.as_ref().map(Option::as_deref))
        }
        Command::Coverage { seed, per_op, exec, closed, json } => coverage(seed, per_op, exec, closed, json.as_deref()),
        Command::Merge { reports, json, coverage } => {
            merge(&reports, json.as_deref(), coverage.as_ref().map(Option::as_deref))
        }
        Command::Wave { vcd, run, out, from, clocks } => wave(vcd.as_deref(), run, out.as_deref(), from, clocks),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}

//! The generated RTL under the real simulators: Verilator's -Wall lint, the
//! self-checking testbench on Verilator and Icarus (passing on the checked-in
//! vectors, failing on a corrupted vector and on zero vectors), and the
//! verilator / icarus engines against the golden model.
//!
//! Outside CI a missing simulator prints one SKIPPED line; with CI or
//! CROSSLANE_REQUIRE_SIMULATORS set it fails the test.

mod common;

use crosslane_golden::campaign::random_cases;
use crosslane_golden::Config;
use crosslane_golden::{Case, Op};
use crosslane_sim::emit as generate;
use crosslane_sim::emit::sim_form;
use crosslane_sim::engine::Engine;
use crosslane_sim::engine::RESET_EVERY;
use crosslane_sim::engines::rtl::{self as simulators, RtlEngine, Simulator};
use std::path::PathBuf;

fn generated() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated")
}

fn work(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Is the simulator here? Fails loudly when CI requires it.
fn have(sim: Simulator) -> bool {
    common::tool_present(simulators::available(sim).map_err(|e| e.to_string()))
}

fn vector_count() -> usize {
    let text = std::fs::read_to_string(generated().join("tb/vectors.hex")).unwrap();
    generate::vector_records(&text).len()
}

/// The unit's RTL files under generated/rtl: every module's own file. The
/// engines are each one file of their own modules (`crosslane_engine__*`,
/// `crosslane_engine_lanes8__*`), linted by tests/engine.rs.
fn rtl_files() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(generated().join("rtl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .filter(|p| {
            !p.ends_with(crosslane_sim::emit::ENGINE_RTL) && !p.ends_with(crosslane_sim::emit::ENGINE_LANES8_RTL)
        })
        .collect();
    v.sort();
    v
}

/// Every top (each configuration and the wrapper at each depth) is clean
/// under `verilator -Wall` with the checked-in waivers, and every file
/// holds one module named as the file.
#[test]
fn verilator_lint_wall_is_clean() {
    if !have(Simulator::Verilator) {
        return;
    }
    let files = rtl_files();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let stem = f.file_stem().unwrap().to_str().unwrap();
        assert_eq!(text.matches("\nmodule ").count(), 1, "{}: one module a file", f.display());
        assert!(
            text.contains(&format!("\nmodule {stem}(")) || text.contains(&format!("\nmodule {stem} #(")),
            "{}",
            f.display()
        );
        assert!(text.starts_with("// SPDX-License-Identifier: Apache-2.0\n"), "{}", f.display());
    }
    let mut tops: Vec<(String, Option<(usize, u8)>)> = Config::ALL.iter().map(|c| (c.module(), None)).collect();
    tops.extend(Config::ALL.iter().map(|c| (sim_form::module(*c), None)));
    for fast in [0, 1] {
        tops.extend(Config::ALL.iter().map(|c| (format!("{}_top", generate::MODULE), Some((c.every(), fast)))));
    }
    let mut params: Vec<(String, Vec<String>, Vec<std::path::PathBuf>)> = tops
        .into_iter()
        .map(|(top, every)| {
            let args = every.map_or_else(Vec::new, |(e, fast)| vec![format!("-GEVERY={e}"), format!("-GFAST={fast}")]);
            (top, args, files.clone())
        })
        .collect();
    // The fp units: each latency's top, and the wrapper at each latency,
    // with the unit's own files (the wrapper, every latency's top and what
    // they instantiate: the whole folder would cost most of the run).
    for unit in crosslane_hdl::fp_unit::FP_UNITS {
        let own: Vec<std::path::PathBuf> = crosslane_sim::prove::fp::sources(unit)
            .unwrap()
            .into_iter()
            .filter(|f| f.path.extension().is_some_and(|e| e == "v"))
            .map(|f| generated().join(f.path))
            .collect();
        for &l in unit.latencies {
            params.push((unit.module(l), Vec::new(), own.clone()));
            params.push((unit.wrapper(), vec![format!("-GLATENCY={l}")], own.clone()));
        }
    }
    for (top, every, files) in params {
        let mut cmd = std::process::Command::new("verilator");
        cmd.args(["--lint-only", "-Wall", "--top-module", &top]).args(&every);
        let out = cmd.arg(generated().join("rtl/crosslane_reduce.vlt")).args(&files).output().unwrap();
        let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.trim().is_empty(), "verilator -Wall {top} {every:?}:\n{text}");
    }
}

/// The package's op codes and latencies are golden's, and it compiles
/// under Icarus and Verilator.
#[test]
fn the_package_names_every_op_code() {
    let path = generated().join(format!("rtl/{}_pkg.sv", generate::MODULE));
    let text = std::fs::read_to_string(&path).unwrap();
    for op in Op::all() {
        let line = format!("localparam [OP_BITS-1:0] OP_{} = 9'h{:03x};", op.name().to_ascii_uppercase(), op.code());
        assert!(text.contains(&line), "{}: no '{line}'", path.display());
    }
    assert_eq!(text.matches("localparam [OP_BITS-1:0] OP_").count(), Op::all().len());
    for c in Config::ALL {
        assert!(text.contains(&format!("LATENCY_EVERY{} = {};", c.every(), c.latency())), "{}", c.name());
    }
    let dir = work("package");
    std::fs::create_dir_all(&dir).unwrap();
    let user = dir.join("use_pkg.sv");
    std::fs::write(
        &user,
        "module use_pkg(output wire [8:0] y);\n  assign y = crosslane_reduce_pkg::OP_RADD_NX16;\nendmodule\n",
    )
    .unwrap();
    if have(Simulator::Icarus) {
        let out = std::process::Command::new("iverilog")
            .args(["-g2012", "-o"])
            .arg(dir.join("pkg.vvp"))
            .arg(&path)
            .arg(&user)
            .output()
            .unwrap();
        assert!(out.status.success(), "iverilog: {}", String::from_utf8_lossy(&out.stderr));
    }
    if have(Simulator::Verilator) {
        let out = std::process::Command::new("verilator")
            .args(["--lint-only", "--top-module", "use_pkg"])
            .arg(&path)
            .arg(&user)
            .output()
            .unwrap();
        assert!(out.status.success(), "verilator: {}", String::from_utf8_lossy(&out.stderr));
    }
}

fn testbench_passes_on_checked_in_vectors(sim: Simulator, config: Config, fast: bool) {
    if !have(sim) {
        return;
    }
    let build = simulators::build_form(sim, config, fast).unwrap();
    let n = vector_count();
    assert!(n > 94 * generate::TB_PER_OP);
    let run = simulators::run_tb(&build, &generated().join("tb/vectors.hex"), false, &work(sim.name())).unwrap();
    // Both phases (back to back, then with valid gaps) check every vector.
    assert!(run.ok(), "{} testbench failed:\n{}", sim.name(), run.stdout);
    assert_eq!((run.passed, run.failed), (2 * n as u64, 0), "{}", run.stdout);
}

#[test]
fn icarus_testbench_passes() {
    testbench_passes_on_checked_in_vectors(Simulator::Icarus, Config::DEFAULT, false);
}

#[test]
fn verilator_testbench_passes() {
    testbench_passes_on_checked_in_vectors(Simulator::Verilator, Config::DEFAULT, false);
}

/// The fast simulation form of every configuration passes the same
/// testbench (resets, valid gaps, every vector checked) on both simulators.
#[test]
fn fast_forms_pass_the_testbench() {
    for config in Config::ALL {
        testbench_passes_on_checked_in_vectors(Simulator::Icarus, config, true);
        testbench_passes_on_checked_in_vectors(Simulator::Verilator, config, true);
    }
}

/// A testbench that cannot fail is a defect: a wrong expected value and an
/// empty vector file both fail it, with the summary as its last line.
fn testbench_fails_when_it_should(sim: Simulator) {
    if !have(sim) {
        return;
    }
    let build = simulators::build(sim, Config::DEFAULT).unwrap();
    let dir = work(&format!("{}-bad", sim.name()));
    let cases: Vec<Case> = random_cases(Op::from_name("radd_nx16").unwrap(), 1, 3);
    let mut text = generate::vector_file(&cases, "corrupted");
    // Flip the lowest digit of the second record's expected mask field.
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut bad = lines.clone();
    let second = lines.iter().position(|l| !l.starts_with("//")).unwrap() + 1;
    let rec = &mut bad[second];
    let last = rec.pop().unwrap();
    rec.push(if last == '0' { '1' } else { '0' });
    text = bad.join("\n") + "\n";
    let path = dir.join("bad.hex");
    std::fs::write(&path, text).unwrap();
    let run = simulators::run_tb_keeping_vcd(&build, &path, &dir).unwrap();
    assert!(!run.ok() && !run.exit_ok, "{}", run.stdout);
    assert_eq!((run.passed, run.failed), (4, 2), "{}", run.stdout);
    assert!(run.stdout.contains("ERROR vector 1"), "{}", run.stdout);
    // The failing vector was re-run under Icarus and its VCD kept.
    let vcd = run.vcd.expect("a VCD of the failing run");
    assert!(std::fs::metadata(&vcd).unwrap().len() > 1000, "{}", vcd.display());
}

/// Every code that is no op gives 0 and no mask in the generated RTL (the
/// decoder's table gives such a code an all-zero control word), whatever its
/// fields give the leaves; expecting anything else fails, so the check is
/// real.
fn codes_that_are_no_op_give_nothing(sim: Simulator) {
    if !have(sim) {
        return;
    }
    let build = simulators::build(sim, Config::DEFAULT).unwrap();
    let dir = work(&format!("{}-no-op", sim.name()));
    let known: Vec<u16> = Op::all().iter().map(|o| o.code()).collect();
    let unknown: Vec<u16> = (0..512u16).filter(|c| !known.contains(c)).collect();
    assert_eq!(unknown.len(), 512 - 94);
    // The vectors of an rb* op (a mask to report) under each code that is no op.
    let cases = random_cases(Op::from_name("rbmax_2nx8").unwrap(), 5, unknown.len());
    let records: Vec<String> = cases
        .iter()
        .zip(&unknown)
        .map(|(c, code)| {
            let r = generate::record_hex(c);
            format!("{code:04x}{}{}", &r[4..r.len() - 24], "0".repeat(24))
        })
        .collect();
    let path = dir.join("no-op.hex");
    std::fs::write(&path, records.join("\n") + "\n").unwrap();
    let run = simulators::run_tb(&build, &path, false, &dir).unwrap();
    assert!(run.ok() && run.failed == 0 && run.passed >= records.len() as u64, "{}", run.stdout);
    let mut wrong = records.clone();
    let r = &mut wrong[7];
    r.replace_range(r.len() - 24..r.len() - 16, "00000001");
    std::fs::write(&path, wrong.join("\n") + "\n").unwrap();
    let run = simulators::run_tb(&build, &path, false, &dir).unwrap();
    assert!(!run.ok() && run.stdout.contains("ERROR vector 7"), "{}", run.stdout);
}

#[test]
fn verilator_gives_nothing_for_codes_that_are_no_op() {
    codes_that_are_no_op_give_nothing(Simulator::Verilator);
}

#[test]
fn icarus_gives_nothing_for_codes_that_are_no_op() {
    codes_that_are_no_op_give_nothing(Simulator::Icarus);
}

/// The testbench reads its vectors honestly: every way of giving it no
/// vector, a broken one, or too many fails with a message naming why.
fn testbench_refuses_bad_vector_files(sim: Simulator) {
    if !have(sim) {
        return;
    }
    let build = simulators::build(sim, Config::DEFAULT).unwrap();
    let dir = work(&format!("{}-refuse", sim.name()));
    let cases: Vec<Case> = random_cases(Op::from_name("rmax_nx16").unwrap(), 1, 2);
    let good = generate::vector_file(&cases, "two records");
    let record = generate::record_hex(&cases[0]);
    let many = format!("{}\n", record).repeat(generate::MAX_VECTORS + 1);
    let long = format!("{}/{}", dir.display(), "./".repeat(2100)) + "good.hex";
    let files: Vec<(&str, String, &str)> = vec![
        ("missing.hex", String::new(), "cannot open"),
        ("empty.hex", "// nothing but a comment\n\n".into(), "holds no record"),
        ("short.hex", good.replace(&record, &record[1..]), "characters, want"),
        ("nothex.hex", good.replace(&record, &format!("{}g", &record[..record.len() - 1])), "is not hex"),
        ("many.hex", many, "more than 65536 records"),
        ("good.hex", good.clone(), ""),
    ];
    for (name, text, why) in &files {
        let path = dir.join(name);
        if *name != "missing.hex" {
            std::fs::write(&path, text).unwrap();
        }
        if why.is_empty() {
            continue;
        }
        let run = simulators::run_tb(&build, &path, false, &dir).unwrap();
        assert!(!run.ok() && !run.exit_ok, "{name} must fail:\n{}", run.stdout);
        assert!(run.stdout.contains(why), "{name}: no '{why}' in:\n{}", run.stdout);
        assert_eq!((run.passed, run.failed), (0, 1), "{name}:\n{}", run.stdout);
    }
    let run = simulators::run_tb(&build, std::path::Path::new(&long), false, &dir).unwrap();
    assert!(!run.ok() && run.stdout.contains("too long"), "a long path must fail:\n{}", run.stdout);
    let run = simulators::run_tb(&build, &dir.join("good.hex"), false, &dir).unwrap();
    assert!(run.ok() && run.passed == 4, "the good file must pass:\n{}", run.stdout);
}

#[test]
fn icarus_testbench_refuses_bad_vector_files() {
    testbench_refuses_bad_vector_files(Simulator::Icarus);
}

#[test]
fn verilator_testbench_refuses_bad_vector_files() {
    testbench_refuses_bad_vector_files(Simulator::Verilator);
}

#[test]
fn icarus_testbench_fails_when_it_should() {
    testbench_fails_when_it_should(Simulator::Icarus);
}

#[test]
fn verilator_testbench_fails_when_it_should() {
    testbench_fails_when_it_should(Simulator::Verilator);
}

fn engine_matches_golden(sim: Simulator, per_op: usize, fast: bool) {
    if !have(sim) {
        return;
    }
    let mut engine = RtlEngine::new_form(sim, Config::DEFAULT, fast).unwrap();
    let mut cases = Vec::new();
    for op in Op::all() {
        cases.extend(random_cases(op, 0xe6, per_op));
    }
    let got = engine.run(&cases).unwrap();
    assert_eq!(got.len(), cases.len());
    for (c, g) in cases.iter().zip(got) {
        assert_eq!(g, c.eval(), "{}: {} vec {} vbool {:016x}", sim.name(), c.op.name(), c.vec, c.vbool);
    }
}

#[test]
fn verilator_engine_matches_golden() {
    engine_matches_golden(Simulator::Verilator, 500, false);
}

#[test]
fn verilator_fast_engine_matches_golden() {
    engine_matches_golden(Simulator::Verilator, 2000, true);
}

#[test]
fn icarus_fast_engine_matches_golden() {
    engine_matches_golden(Simulator::Icarus, 100, true);
}

#[test]
fn icarus_engine_matches_golden() {
    engine_matches_golden(Simulator::Icarus, 20, false);
}

/// An Icarus run that outlives its time limit is killed and reported, not
/// waited on: a design that never settles must not hang a campaign.
#[test]
fn an_icarus_run_past_its_limit_is_killed_with_an_error() {
    if !have(Simulator::Icarus) {
        return;
    }
    let build = simulators::build(Simulator::Icarus, Config::DEFAULT).unwrap();
    let cases = random_cases(Op::all()[0], 0xe7, 200);
    let start = std::time::Instant::now();
    let err = simulators::run_dump_limited(&build, &cases, |_| std::time::Duration::from_millis(1)).unwrap_err();
    assert!(err.to_string().contains("ran longer than 0.001 s on 200 cases and was killed"), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(30), "killed at once, not waited on");
    // The same run with the real limit scores every case.
    let got = simulators::run_dump(&build, &cases).unwrap();
    assert_eq!(got.len(), cases.len());
    assert!(simulators::icarus_limit(cases.len()) >= std::time::Duration::from_secs(60));
}

/// The testbench runs and the Verilator engine are killed past their limits
/// too, with an error that says so: no simulator run can hang a campaign.
fn runs_past_their_limits_are_killed(sim: Simulator) {
    if !have(sim) {
        return;
    }
    let build = simulators::build(sim, Config::DEFAULT).unwrap();
    let tiny = std::time::Duration::from_millis(1);
    let dir = work(&format!("{}-limit", sim.name()));
    let start = std::time::Instant::now();
    let err = simulators::run_tb_limited(&build, &generated().join("tb/vectors.hex"), false, &dir, tiny).unwrap_err();
    assert!(err.0.contains("testbench ran longer than 0.001 s on") && err.0.contains("was killed"), "{}", err.0);
    if sim == Simulator::Verilator {
        let cases = random_cases(Op::from_name("radd_nx16").unwrap(), 0x11, 200_000);
        let err = simulators::run_ext_limited(&build, &cases, tiny).err().expect("killed");
        assert!(err.0.contains("harness ran longer than 0.001 s on 200000 cases and was killed"), "{}", err.0);
        // The real limit lets the same run through.
        assert_eq!(simulators::run_ext(&build, &cases).unwrap().outcomes.len(), cases.len());
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(60), "killed at once, not waited on");
    for n in [0, 1_000_000] {
        assert!(simulators::time_limit(sim, n) >= std::time::Duration::from_secs(60));
    }
    assert!(simulators::verilator_limit(3_000_000) >= std::time::Duration::from_secs(90));
}

#[test]
fn verilator_runs_past_their_limits_are_killed() {
    runs_past_their_limits_are_killed(Simulator::Verilator);
}

#[test]
fn icarus_runs_past_their_limits_are_killed() {
    runs_past_their_limits_are_killed(Simulator::Icarus);
}

#[test]
fn a_failing_case_leaves_a_vcd() {
    if !have(Simulator::Icarus) {
        return;
    }
    let case = random_cases(Op::from_name("rbmax_2nx8_t").unwrap(), 3, 1)[0];
    let vcd = simulators::trace_case(&case, &work("vcd"), Config::DEFAULT, false).unwrap();
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$enddefinitions") && text.contains("out_valid_o"), "{}", vcd.display());
}

/// Valid stage 4 ignoring reset survived every check before mid-stream
/// resets: both testbenches and the Verilator engine must now fail on it.
fn reset_mutant_is_caught(sim: Simulator) {
    if !have(sim) {
        return;
    }
    let mut files = simulators::sources().unwrap();
    let rtl = files.iter_mut().find(|f| f.path.ends_with("crosslane_reduce.v")).unwrap();
    let good = "s4_valid_d = s3_valid_q & rst_ni;";
    assert!(rtl.contents.contains(good));
    rtl.contents = rtl.contents.replace(good, "s4_valid_d = s3_valid_q;");
    let build = simulators::build_files(sim, Config::DEFAULT, files).unwrap();
    let dir = work(&format!("{}-reset-mutant", sim.name()));
    let run = simulators::run_tb(&build, &generated().join("tb/vectors.hex"), false, &dir).unwrap();
    assert!(!run.ok() && run.failed > 0, "{} testbench passed the mutant:\n{}", sim.name(), run.stdout);
    assert!(run.stdout.contains("out_valid_o is 1 with no input"), "{}", run.stdout);
    if sim == Simulator::Verilator {
        let cases = random_cases(Op::from_name("radd_nx16").unwrap(), 4, 2 * RESET_EVERY);
        let err = simulators::run_ext(&build, &cases).err().expect("the engine must fail the mutant");
        assert!(err.0.contains("out_valid_o is 1 after clock"), "{}", err.0);
    }
}

#[test]
fn icarus_catches_a_valid_stage_that_ignores_reset() {
    reset_mutant_is_caught(Simulator::Icarus);
}

#[test]
fn verilator_catches_a_valid_stage_that_ignores_reset() {
    reset_mutant_is_caught(Simulator::Verilator);
}

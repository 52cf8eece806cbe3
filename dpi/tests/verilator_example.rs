//! The DPI-C example: `example/crosslane_dpi_tb.sv` scores the checked-in
//! RTL of every configuration through the C library under Verilator, and
//! fails a planted bug.
//!
//! Outside CI a missing Verilator prints one SKIPPED line; with CI or
//! CROSSLANE_REQUIRE_SIMULATORS set it fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../testdata/wrong_stage_mutant.rs"]
mod wrong_stage;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[path = "../../testdata/tool_present.rs"]
mod tool;

fn have_verilator() -> bool {
    let check = tool::on_path(&["verilator", "make", "g++"], "verilator");
    tool::tool_present(check.map_err(|e| format!("the DPI-C example needs {e}")))
}

/// The static library: the lib target's `staticlib` crate type, built by
/// the same cargo invocation as this test (before it, into the deps folder
/// beside this test's executable; a staticlib's file name has no hash).
/// A second cargo into a target folder of its own would build the workspace
/// again (about a minute of CI).
fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let lib = exe.parent().expect("the deps folder").join("libcrosslane_dpi.a");
    assert!(
        lib.is_file(),
        "no {} beside the test: cargo builds it with the crate's lib (crate-type staticlib in dpi/Cargo.toml)",
        lib.display()
    );
    lib
}

/// The component modules' files under generated/rtl (`crosslane_leaf_key.v`,
/// …): every file but the configurations' tops, the wrapper and the
/// instruction engines (files of their own modules).
fn components() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("generated/rtl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("crosslane_")
                && !name.starts_with("crosslane_reduce")
                && !name.starts_with("crosslane_engine")
                && name.ends_with(".v")
        })
        .collect();
    v.sort();
    assert!(v.len() > 10, "{v:?}");
    v
}

/// Build the example around module `dut` of `rtl` (with the generated
/// components) in `dir` and run it: (exit code, stdout).
fn run_example(rtl: &Path, dut: &str, lib: &Path, dir: &Path, cycles: u32) -> (i32, String) {
    let d = root().join("dpi");
    // A fresh build: make would not relink a model whose library changed.
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap();
    }
    std::fs::create_dir_all(dir).unwrap();
    let out = Command::new("verilator")
        .args(["--cc", "--exe", "--build", "-j", "2", "-O2", "-Wno-fatal", "-Wno-lint", "-Wno-style"])
        .arg(format!("+define+CROSSLANE_DUT={dut}"))
        .args(["--top-module", "crosslane_dpi_tb", "--Mdir"])
        .arg(dir)
        .arg(d.join("sv/crosslane_dpi_pkg.sv"))
        .arg(rtl)
        .args(components())
        .arg(d.join("example/crosslane_dpi_tb.sv"))
        .arg(d.join("example/main.cpp"))
        .arg("-LDFLAGS")
        .arg(format!("{} -lpthread -ldl -lm", lib.display()))
        .output()
        .expect("verilator runs");
    assert!(out.status.success(), "verilator failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let run =
        Command::new(dir.join("Vcrosslane_dpi_tb")).arg(format!("+cycles={cycles}")).output().expect("the model runs");
    (run.status.code().unwrap_or(-1), String::from_utf8_lossy(&run.stdout).into_owned())
}

#[test]
fn the_example_scores_the_rtl_and_catches_a_planted_bug() {
    if !have_verilator() {
        return;
    }
    let lib = library();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dpi-example");
    let rtl = root().join("generated/rtl/crosslane_reduce.v");
    let (code, out) = run_example(&rtl, "crosslane_reduce", &lib, &tmp.join("good"), 100_000);
    assert_passed(code, &out, "crosslane_reduce, latency 7", 60_000);

    // A tree level taking its operator from the wrong stage must fail it.
    let text = std::fs::read_to_string(&rtl).unwrap();
    let (from, to) = wrong_stage::wrong_stage_mutant(&root());
    assert_eq!(text.matches(&from).count(), 1, "the RTL changed: update testdata/wrong-stage-mutant.txt");
    std::fs::create_dir_all(&tmp).unwrap();
    let mutant = tmp.join("mutant.v");
    std::fs::write(&mutant, text.replace(&from, &to)).unwrap();
    let (code, out) = run_example(&mutant, "crosslane_reduce", &lib, &tmp.join("mutant"), 20_000);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("crosslane_dpi_tb: FAIL: ") && !out.contains("PASS"), "{out}");
}

/// The run passed, checked more than `min` results, and says which unit and
/// latency it ran (`what`).
fn assert_passed(code: i32, out: &str, what: &str, min: u32) {
    assert_eq!(code, 0, "{out}");
    let pass = out.lines().find(|l| l.starts_with("crosslane_dpi_tb: PASS: ")).unwrap_or_else(|| panic!("{out}"));
    let checked: u32 = pass["crosslane_dpi_tb: PASS: ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(checked > min, "{pass}");
    assert!(pass.ends_with(what), "{pass}: want it to end with '{what}'");
    assert!(!out.contains("FAIL"), "{out}");
}

/// The other configurations, each at its own latency from the library.
#[test]
fn the_example_scores_every_configuration() {
    if !have_verilator() {
        return;
    }
    let lib = library();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dpi-example");
    for (dut, latency) in [("crosslane_reduce_every2", 4), ("crosslane_reduce_every3", 3)] {
        let rtl = root().join(format!("generated/rtl/{dut}.v"));
        let (code, out) = run_example(&rtl, dut, &lib, &tmp.join(dut), 30_000);
        assert_passed(code, &out, &format!("{dut}, latency {latency}"), 18_000);
    }
}

#[test]
fn the_c_header_and_library_agree_with_the_golden_model() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dpi-c");
    std::fs::create_dir_all(&tmp).unwrap();
    let lib = library();
    let exe = tmp.join("c_example");
    let d = root().join("dpi");
    let out = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Werror", "-O2", "-I"])
        .arg(d.join("include"))
        .arg(d.join("example/c_example.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("gcc runs");
    assert!(out.status.success(), "gcc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    let mut bytes = [0u8; 64];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = i as u8;
    }
    let vec = crosslane_golden::Vec512(bytes);
    let want: String = crosslane_golden::Op::all()
        .into_iter()
        .map(|op| {
            let o = op.eval(&vec, 0xaaaa_aaaa_aaaa_aaaa);
            format!("{} {:08x} {:016x}\n", op.name(), o.value, o.mask.unwrap_or(0))
        })
        .collect();
    assert_eq!(String::from_utf8_lossy(&run.stdout), want);
}

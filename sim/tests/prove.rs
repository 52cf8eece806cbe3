//! `crosslane prove` must catch real bugs: plausible one-line mutants of the
//! generated RTL that survived every simulation check each give a
//! counterexample, and the counterexample, replayed under Icarus, shows the
//! unit disagreeing with the golden model. The checked-in RTL itself
//! is proven for all 94 ops and the 418 no-op codes by `crosslane prove` in
//! `./dev test`.
//!
//! Outside CI a missing yosys or Icarus prints one SKIPPED line; with CI or
//! CROSSLANE_REQUIRE_SIMULATORS set it fails the test.

mod common;
#[path = "../../testdata/wrong_stage_mutant.rs"]
mod wrong_stage;

use crosslane_golden::Config;
use crosslane_golden::Op;
use crosslane_sim::prove::{self, Prover, Status};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default unit's RTL as one text: its top's file, then those of the
/// components it instantiates (a mutant is planted in it and proven as one file).
fn rtl() -> String {
    let generated = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated");
    let files = crosslane_sim::emit::rtl_set(Config::DEFAULT).unwrap();
    assert!(files.len() > 10, "{files:?}");
    files.iter().map(|f| std::fs::read_to_string(generated.join(f)).unwrap()).collect::<Vec<_>>().join("\n")
}

fn have_tools() -> bool {
    common::tool_present(prove::available())
}

fn ops(names: &[&str]) -> Vec<Op> {
    names.iter().map(|n| Op::from_name(n).unwrap_or_else(|| panic!("no op {n}"))).collect()
}

/// Replace the one occurrence of `from` after `after` with `to`.
fn mutate(text: &str, after: &str, from: &str, to: &str) -> String {
    let start = text.find(after).unwrap_or_else(|| panic!("the RTL has no '{after}'"));
    let at = start + text[start..].find(from).unwrap_or_else(|| panic!("the RTL has no '{from}' after '{after}'"));
    format!("{}{}{}", &text[..at], to, &text[at + from.len()..])
}

/// Ops the vbool-fold mutant cannot touch, proven beside it through the
/// shared miter (`prove::SHARED_MIN` ops or more): cofactoring by op must
/// both prove and refute.
const BESIDE_RORB2N: [&str; 7] =
    ["rand_2nx8", "ror_nx16", "raddu_nx16", "rmaxu_n_2x32", "rxor_n_2x32", "rand_n_2x32", "ror_2nx8"];

/// (name, mutated text, op that must fail)
fn mutants() -> Vec<(&'static str, String, &'static str)> {
    let text = rtl();
    let wrong_stage = wrong_stage::wrong_stage_mutant(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."));
    vec![
        (
            "valid stage 4 ignores reset",
            mutate(&text, "module crosslane_reduce(", "s4_valid_d = s3_valid_q & rst_ni;", "s4_valid_d = s3_valid_q;"),
            "radd_nx16",
        ),
        (
            "leaf 15 always predicated",
            mutate(&text, "module crosslane_reduce(", "leaf_15_predicated_i = in_ctl_predicated_o;", "leaf_15_predicated_i = 1'b1;"),
            // A maxNum op: ABC's `iprove` finds this one (`&cec` the others).
            "rmaxnum_nxf16",
        ),
        (
            "vbool fold: slot 3's bit from slot 2",
            mutate(
                &text,
                "module crosslane_leaf_key(",
                "if (b8_i & vb_i[32'h3]) begin\n                t_vbool",
                "if (b8_i & vb_i[32'h2]) begin\n                t_vbool",
            ),
            "rorb2n",
        ),
        (
            "an extra output register (latency + 1)",
            mutate(
                &mutate(
                    &text,
                    "module crosslane_reduce(",
                    "    input wire  rst_ni;\n",
                    "    input wire  rst_ni;\n    reg [31:0] late_result = 0;\n    reg [63:0] late_mask = 0;\n    reg late_valid = 0;\n    always @(posedge clk_i) begin\n        late_result <= out_result_q;\n        late_mask <= out_mask_q;\n        late_valid <= out_valid_q & rst_ni;\n    end\n",
                ),
                "out_valid_d = f_valid_q & rst_ni;",
                "    assign result_o = out_result_q;\n    assign mask_o = out_mask_q;\n    assign out_valid_o = out_valid_q;",
                "    assign result_o = late_result;\n    assign mask_o = late_mask;\n    assign out_valid_o = late_valid;",
            ),
            "rminu_n_2x32_t",
        ),
        (
            "a code that is no op decodes as radd_nx16",
            mutate(
                &text,
                "module crosslane_op_decode(",
                "        case (op_i)\n",
                "        case (op_i)\n            9'h1ff: ctrl_o = 53'b00001000001000001000001000001000000100000000100001010;\n",
            ),
            prove::NO_OP_NAME,
        ),
        (
            "level 4 controls from the wrong stage",
            mutate(&text, "module crosslane_reduce(", &wrong_stage.0, &wrong_stage.1),
            "rxor_nx16",
        ),
    ]
}

/// The mutants `./dev test` proves (a sample: each is a yosys run of its
/// own, 30 to 90 s); `./dev prove` proves them all.
const SAMPLE: [&str; 2] = ["vbool fold: slot 3's bit from slot 2", "level 4 controls from the wrong stage"];

#[test]
fn a_sample_of_the_planted_mutants_gives_counterexamples_the_simulator_confirms() {
    check_mutants(|name| SAMPLE.contains(&name));
}

#[test]
#[ignore = "every mutant, a few minutes: ./dev prove runs it (the test above proves a sample)"]
fn every_planted_mutant_gives_a_counterexample_the_simulator_confirms() {
    check_mutants(|_| true);
}

fn check_mutants(pick: impl Fn(&str) -> bool) {
    if !have_tools() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prove-mutants");
    std::fs::create_dir_all(&dir).unwrap();
    let mutants = mutants();
    assert!(SAMPLE.iter().all(|s| mutants.iter().any(|(name, ..)| name == s)), "a sampled mutant is gone");
    std::thread::scope(|s| {
        let handles: Vec<_> = mutants
            .iter()
            .enumerate()
            .filter(|(_, (name, ..))| pick(name))
            .map(|(i, (name, text, op))| {
                let path = dir.join(format!("mutant{i}.v"));
                s.spawn(move || {
                    let start = std::time::Instant::now();
                    check_mutant(name, text, op, &path);
                    eprintln!("mutant '{name}': a confirmed counterexample in {:.1} s", start.elapsed().as_secs_f64());
                })
            })
            .collect();
        for h in handles {
            h.join().expect("a mutant's check panicked");
        }
    });
}

fn check_mutant(name: &str, text: &str, op: &str, path: &Path) {
    std::fs::write(path, text).unwrap();
    let prover = Prover::new(&[path.to_path_buf()], Config::DEFAULT).unwrap_or_else(|e| panic!("{name}: {e}"));
    if op == prove::NO_OP_NAME {
        let (status, _) = prover.prove_no_op(Duration::from_secs(300));
        return confirmed(name, op, &status);
    }
    let mut names = vec![op];
    if op == "rorb2n" {
        names.extend(BESIDE_RORB2N);
        assert!(names.len() >= prove::SHARED_MIN);
    }
    let results = prover.prove(&ops(&names), 1, Duration::from_secs(300), &|_| {});
    assert_eq!(results.len(), names.len());
    for p in &results[1..] {
        assert!(p.proven(), "{name}: {} should be proven, got {:?}", p.op.name(), p.status);
    }
    assert_eq!(results[0].op.name(), op);
    confirmed(name, op, &results[0].status);
}

/// `status` is a counterexample the simulator confirms, with its VCD drawn.
fn confirmed(name: &str, op: &str, status: &Status) {
    match status {
        Status::Counterexample { cex, replay } => {
            let r = replay.as_ref().unwrap_or_else(|e| panic!("{name}: the replay failed: {e}"));
            assert!(r.confirms(), "{name}: the counterexample does not reproduce: {} ({cex:?})", r.describe());
            assert!(r.vcd.is_file(), "{name}: no VCD at {}", r.vcd.display());
            let svg = r.picture.as_ref().unwrap_or_else(|e| panic!("{name}: the VCD was not drawn: {e}"));
            assert!(std::fs::read_to_string(svg).unwrap().contains("out_valid_o"), "{name}");
        }
        other => panic!("{name}: {op} should have a counterexample, got {other:?}"),
    }
}

/// RTL the proof cannot reason about soundly, each kind planted in the
/// checked-in unit (each of which the simulators run differently from what
/// yosys reads, or which the cut would treat as a plain rising-edge
/// register): `Prover::new` refuses it, naming the construct and its line.
#[test]
fn rtl_outside_the_proof_is_refused_naming_the_construct() {
    if !have_tools() {
        return;
    }
    let text = rtl();
    let plants: Vec<(&str, String, &str)> = vec![
        (
            "a register on the falling edge",
            mutate(&text, "module crosslane_reg32(", "always @(posedge clock)", "always @(negedge clock)"),
            "`always @(negedge clock)`",
        ),
        (
            "an asynchronous reset",
            mutate(
                &text,
                "module crosslane_reg32(",
                "always @(posedge clock)",
                "always @(posedge clock or negedge d[0])",
            ),
            "`always @(posedge clock or negedge d[0])`",
        ),
        (
            "an incomplete sensitivity list",
            mutate(&text, "module crosslane_tree_node(", "always @(*) begin", "always @(a_i or b_i) begin"),
            "`always @(a_i or b_i)`",
        ),
        (
            "text only synthesis reads",
            mutate(
                &text,
                "module crosslane_reduce(",
                "    input wire  rst_ni;\n",
                "    input wire  rst_ni;\n`ifdef SYNTHESIS\n`endif\n",
            ),
            "`ifdef SYNTHESIS",
        ),
        (
            "an inverted clock",
            mutate(&text, "module crosslane_reduce(", ".clock(clk_i)", ".clock(~clk_i)"),
            "clocked by another net than clk_i",
        ),
        (
            "a port of the wrong width",
            mutate(&text, "module crosslane_reduce(", "output wire  [31:0] result_o;", "output wire  [15:0] result_o;"),
            "port result_o is output [16]; the contract's is output [32]",
        ),
    ];
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prove-unsound");
    std::fs::create_dir_all(&dir).unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = plants
            .iter()
            .enumerate()
            .map(|(k, (name, text, want))| {
                let path = dir.join(format!("plant{k}.v"));
                s.spawn(move || {
                    std::fs::write(&path, text).unwrap();
                    let e = match Prover::new(std::slice::from_ref(&path), Config::DEFAULT) {
                        Ok(_) => panic!("{name}: proven as if sound"),
                        Err(e) => e,
                    };
                    assert!(e.contains(want), "{name}: {e}");
                    // The message names where: a file and line, or the cell's source.
                    assert!(e.contains("plant") && e.contains(".v:"), "{name}: no line named: {e}");
                })
            })
            .collect();
        for h in handles {
            h.join().expect("a plant's check panicked");
        }
    });
}

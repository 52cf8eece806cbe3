//! The RTL engine (generated/rtl/crosslane_engine.v) under Verilator and
//! Icarus: the spec's exec examples, a sample of the instruction campaign
//! against golden, planted bugs the campaign must catch and the VCD a
//! failing instruction leaves (docs/engine.md).
//!
//! Outside CI a missing simulator prints one SKIPPED line; with CI or
//! CROSSLANE_REQUIRE_TOOLS set it fails.

mod common;

use crosslane_sim::emit::{GeneratedFile, ENGINE_RTL};
use crosslane_sim::engines::instr::{sources, InstrCase, InstrEngine, InstrOutcome, InstrRunner};
use crosslane_sim::engines::rtl::Simulator;
use crosslane_sim::exec_campaign::{case, check, golden, Verdict};
use serde_json::Value;

fn have_verilator() -> bool {
    common::tool_present(crosslane_sim::tools::require("the engine tests", &["verilator"], "verilator"))
}

fn without_cycles(line: &str) -> (Value, Option<u64>) {
    let mut v: Value = serde_json::from_str(line).expect("a JSON line");
    let cycles = v.as_object_mut().and_then(|o| o.remove("cycles")).and_then(|c| c.as_u64());
    (v, cycles)
}

fn have_icarus() -> bool {
    common::tool_present(crosslane_sim::tools::require("the engine tests", &["iverilog", "vvp"], "iverilog"))
}

#[test]
fn spec_exec_examples_pass_on_the_verilator_engine() {
    if have_verilator() {
        spec_exec_examples_pass_on("verilator");
    }
}

#[test]
fn spec_exec_examples_pass_on_the_icarus_engine() {
    if have_icarus() {
        spec_exec_examples_pass_on("icarus");
    }
}

#[test]
fn spec_exec_examples_pass_on_the_engine_of_8_lanes() {
    if have_verilator() {
        spec_exec_examples_pass_on("verilator-lanes8");
    }
}

#[test]
fn spec_exec_examples_pass_on_the_hdl_engine() {
    spec_exec_examples_pass_on("hdl");
}

fn spec_exec_examples_pass_on(engine: &str) {
    let cases = std::fs::read(common::examples().join("exec-cases.jsonl")).expect("exec-cases.jsonl");
    let expected = std::fs::read_to_string(common::examples().join("exec-expected.jsonl")).expect("expected");
    let (code, rtl, err) = common::run(&["exec", "--engine", engine], &cases);
    assert_eq!(code, 0, "{err}");
    let (code, gold, err) = common::run(&["exec"], &cases);
    assert_eq!(code, 0, "{err}");
    let rtl: Vec<&str> = rtl.lines().collect();
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(rtl.len(), expected.len());
    let mut ran = 0;
    for ((r, g), e) in rtl.iter().zip(gold.lines()).zip(&expected) {
        let (r, cycles) = without_cycles(r);
        assert_eq!(r, serde_json::from_str::<Value>(g).unwrap(), "the engine and golden differ: {r} / {g}");
        let e: Value = serde_json::from_str(e).unwrap();
        match (r.get("read"), e.get("read")) {
            (Some(got), Some(want)) => {
                assert_eq!(got, want);
                assert!(cycles.is_some_and(|c| c > 0), "an accepted case has its clocks: {r}");
                ran += 1;
            }
            (None, None) => {
                // The spec gives the rule only: the text before '…'.
                let want = e["error"].as_str().unwrap().trim_end_matches('\u{2026}');
                assert!(r["error"].as_str().unwrap().starts_with(want), "{r} / {e}");
            }
            _ => panic!("one of them ran: {r} / {e}"),
        }
    }
    assert!(ran >= 8, "only {ran} examples ran on the engine");
}

/// Run `n` campaign cases on `engine`: (matched accepted, matched rejected,
/// the first mismatch).
fn campaign(engine: &mut dyn InstrRunner, seed: u64, n: u64) -> (u64, u64, Option<String>) {
    let (mut acc, mut rej) = (0, 0);
    for i in 0..n {
        match check(engine, &case(seed, i)).unwrap_or_else(|e| panic!("case {i}: {e}")) {
            Verdict::Match { accepted: true, .. } => acc += 1,
            Verdict::Match { accepted: false, .. } => rej += 1,
            Verdict::Mismatch(why) => return (acc, rej, Some(format!("case {i}: {why}"))),
        }
    }
    (acc, rej, None)
}

#[test]
fn the_instruction_campaign_matches_golden() {
    if !have_verilator() {
        return;
    }
    let mut engine = InstrEngine::new(Simulator::Verilator).expect("the engine builds");
    let n = 800;
    let (acc, rej, bad) = campaign(&mut engine, 11, n);
    assert_eq!(bad, None);
    assert_eq!(acc + rej, n);
    assert!(acc > n / 2 && rej > n / 10, "{acc} accepted, {rej} rejected");
    // Every rule of §3 rejected some case.
    let mut rules = std::collections::BTreeSet::new();
    for i in 0..n {
        if let Some(Err(rule)) = golden(&case(11, i)) {
            rules.insert(rule);
        }
    }
    assert_eq!(rules.into_iter().collect::<Vec<_>>(), (1..=13).collect::<Vec<u8>>());
}

/// The engine's RTL with `from` replaced by `to` (exactly once).
fn planted(files: &[GeneratedFile], from: &str, to: &str) -> Vec<GeneratedFile> {
    // The last plant moves the reduce_op rule after the opcode rule (the
    // text removed is put back after `rule_0`'s block).
    let (from, to, after) = if to.is_empty() {
        (from, "", Some(("        if (rule_0) begin\n            rule_o = code_1;\n        end\n", from)))
    } else {
        (from, to, None)
    };
    files
        .iter()
        .map(|f| {
            let mut f = f.clone();
            if f.path.to_str() == Some(ENGINE_RTL) {
                assert_eq!(f.contents.matches(from).count(), 1, "the plant site '{from}' is not unique");
                f.contents = f.contents.replace(from, to);
                if let Some((anchor, moved)) = after {
                    assert_eq!(f.contents.matches(anchor).count(), 1);
                    f.contents = f.contents.replace(anchor, &format!("{anchor}{moved}"));
                }
            }
            f
        })
        .collect()
}

/// The campaign's cases of seed `seed` that read at most `max_work`
/// elements: the small ones, quick under Icarus.
fn small_cases(seed: u64, max_work: u64) -> impl Iterator<Item = (u64, InstrCase)> {
    (0..).map(move |i| (i, case(seed, i))).filter(move |(_, c)| {
        c.inst.src.elements().saturating_mul(c.inst.num_active_channels.max(1) as u64) <= max_work
    })
}

/// Bugs planted in the emitted engine, each of which the campaign must
/// catch: (what, the RTL's text, the text put in its place).
const PLANTED: [(&str, &str, &str); 7] = [
    ("a negative stride read as positive", "localparam  sign_ext = 24'hff0000;", "localparam  sign_ext = 24'h000000;"),
    (
        "dimension 0's bound one short",
        "end_0 = (idx_0_q + adv16) == tensor_i[(32'h60)+:(16)];",
        "end_0 = (idx_0_q + adv16) == (tensor_i[(32'h60)+:(16)] - 16'h1);",
    ),
    ("a short beat's odd lane dropped", "sum_o = da_2_q;", "sum_o = 32'h0;"),
    ("reduce_op checked before opcode", "        if (rule_4) begin\n            rule_o = code_5;\n        end\n", ""),
    (
        "a rejected instruction run (and written)",
        "rule_d = check_rule_o;\n                    state_d = s_idle;",
        "rule_d = check_rule_o;\n                    state_d = s_run;",
    ),
    ("a stalled read taken as if served", "taken = rd & rd_ready_i;", "taken = rd;"),
    ("done_o before the last write", "localparam  depth_done = 8'h13;", "localparam  depth_done = 8'h0c;"),
];

#[test]
fn planted_bugs_are_caught_by_the_campaign() {
    if !have_icarus() {
        return;
    }
    // Under Icarus (a build takes a fraction of a second, 16 s under
    // Verilator), on the campaign's small cases, back to back, some stalled.
    let files = sources(Simulator::Icarus).expect("the checked-in engine");
    for (what, from, to) in PLANTED {
        let start = std::time::Instant::now();
        let mut engine =
            InstrEngine::on(Simulator::Icarus, &planted(&files, from, to)).expect("the planted engine builds");
        let mut caught = None;
        for (i, c) in small_cases(5, 200).take(60) {
            match check(&mut engine, &c) {
                Ok(Verdict::Match { .. }) => {}
                Ok(Verdict::Mismatch(why)) => {
                    caught = Some(format!("case {i}: {why}"));
                    break;
                }
                Err(e) => {
                    caught = Some(format!("case {i}: {e}"));
                    break;
                }
            }
        }
        if caught.is_none() {
            caught = engine.finish().err();
        }
        eprintln!("{what}: {caught:?} in {:.1} s", start.elapsed().as_secs_f64());
        assert!(caught.is_some(), "planted bug not caught in 60 small cases: {what}");
    }
}

/// The engine of 8 lanes (D66): a sample of the campaign on Verilator, stalls
/// and back to back as the 16-lane engine's, a few on Icarus; its dense
/// chunks take about twice the clocks of the 16-lane engine's.
#[test]
fn the_engine_of_8_lanes_matches_golden() {
    if !have_verilator() {
        return;
    }
    let mut engine = crosslane_sim::engines::instr::open("verilator-lanes8").expect("the 8-lane engine builds");
    assert_eq!(engine.name(), "verilator-lanes8");
    let n = 500;
    let (acc, rej, bad) = campaign(engine.as_mut(), 23, n);
    assert_eq!(bad, None);
    assert_eq!(acc + rej, n);
    assert!(acc > n / 2, "{acc} accepted");
    engine.finish().expect("no write after the last done_o");
    if have_icarus() {
        let mut engine = crosslane_sim::engines::instr::open("icarus-lanes8").expect("the 8-lane engine builds");
        let (acc, rej, bad) = campaign(engine.as_mut(), 24, 3);
        assert_eq!((bad, acc + rej), (None, 3));
    }
    // fp32 ADD over 4,096 elements of unit stride: up to 8 a clock against
    // the 16-lane engine's 16.
    use crosslane_sim::exec_bench::{bench_case, KINDS, PATTERNS};
    let dense = |name: &str| {
        let mut e = crosslane_sim::engines::instr::open(name).expect("the engine builds");
        match e.run(&bench_case(&PATTERNS[0], KINDS[0])).expect("the harness answers") {
            crosslane_sim::engines::instr::InstrOutcome::Done { cycles, .. } => cycles,
            other => panic!("{name}: {other:?}"),
        }
    };
    let (c16, c8) = (dense("verilator"), dense("verilator-lanes8"));
    assert!(c8 as f64 >= 1.5 * c16 as f64 && 4096.0 / c8 as f64 >= 7.0, "16 lanes {c16} clocks, 8 lanes {c8}");
    // docs/engine.md quotes it.
    let page = std::fs::read_to_string(common::root().join("docs/engine.md")).expect("docs/engine.md");
    let quoted = format!("4,096 elements in {c8} clocks ({:.3} elements a clock)", 4096.0 / c8 as f64);
    assert!(page.contains(&quoted), "docs/engine.md does not say: {quoted}");
}

#[test]
fn the_campaign_matches_golden_on_icarus_and_hdl_too() {
    let mut engines = vec![crosslane_sim::engines::instr::open("hdl").expect("the hdl engine starts")];
    if have_icarus() {
        engines.push(Box::new(InstrEngine::new(Simulator::Icarus).expect("the Icarus engine builds")));
    }
    for mut engine in engines {
        let (acc, rej, bad) = campaign(engine.as_mut(), 11, 6);
        assert_eq!(bad, None, "{}", engine.name());
        assert_eq!(acc + rej, 6);
        assert!(acc >= 2, "{}: {acc} accepted", engine.name());
    }
}

#[test]
fn a_failing_instruction_leaves_a_vcd() {
    if !have_icarus() {
        return;
    }
    // The bug of a short beat's odd lane dropped: find a case it fails,
    // then trace that case alone.
    let files = sources(Simulator::Icarus).expect("the checked-in engine");
    let bug = planted(&files, "sum_o = da_2_q;", "sum_o = 32'h0;");
    let mut engine = InstrEngine::on(Simulator::Icarus, &bug).expect("the planted engine builds");
    let failing = small_cases(5, 200)
        .take(60)
        .map(|(_, c)| c)
        .find(|c| matches!(check(&mut engine, c), Ok(Verdict::Mismatch(_))))
        .expect("the planted bug fails a case");
    let dir = std::env::temp_dir().join(format!("crosslane-engine-vcd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let vcd = dir.join("failing.vcd");
    let outcome = crosslane_sim::engines::instr::trace(&bug, &failing, &vcd).expect("the trace runs");
    // The traced run fails the same way, and its waves are all there.
    let want = golden(&failing).expect("within golden's limits");
    match (&want, &outcome) {
        (Ok(w), InstrOutcome::Done { reads, .. }) => assert_ne!(w, reads, "the traced run passed"),
        (w, got) => panic!("golden {w:?}, the traced engine {got:?}"),
    }
    let text = std::fs::read_to_string(&vcd).expect("the VCD is written");
    assert!(text.contains("$enddefinitions") && text.contains("wr_valid_o"), "not a VCD of the engine");
    let last_time = text.lines().rev().find_map(|l| l.strip_prefix('#')).and_then(|t| t.parse::<u64>().ok());
    assert!(last_time.is_some_and(|t| t > 20), "the VCD ends early: {last_time:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hung_engine_is_a_failure_not_a_wait() {
    if !have_icarus() {
        return;
    }
    // The FSM never leaves RUN: the harness gives up after the case's limit,
    // resets the engine and answers the next case (a fail again).
    let files = sources(Simulator::Icarus).expect("the checked-in engine");
    let hung = planted(&files, "state_d = s_drain;", "state_d = s_run;");
    let mut engine = InstrEngine::on(Simulator::Icarus, &hung).expect("builds");
    let mut valid = small_cases(3, 8).map(|(_, c)| c).filter(|c| c.inst.validate(c.partition_bytes).is_ok());
    for c in [valid.next().unwrap(), valid.next().unwrap()] {
        match engine.run(&c).expect("the harness answers") {
            InstrOutcome::Fail(why) => assert!(why.contains("no done_o"), "{why}"),
            other => panic!("expected a failure, got {other:?}"),
        }
    }
}

#[rstest::rstest]
#[case(crosslane_sim::emit::ENGINE_MODULE, ENGINE_RTL)]
#[case(crosslane_sim::emit::ENGINE_LANES8_MODULE, crosslane_sim::emit::ENGINE_LANES8_RTL)]
fn the_engine_is_lint_clean_under_verilator_wall(#[case] module: &str, #[case] file: &str) {
    if !have_verilator() {
        return;
    }
    let root = crosslane_sim::tools::generated_dir();
    let out = std::process::Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", module])
        .arg(root.join(crosslane_sim::emit::ENGINE_WAIVERS))
        .arg(root.join(file))
        .output()
        .expect("verilator runs");
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && !text.contains("%Warning"), "{text}");
    // The waivers are narrow: without them there is something to waive.
    let out = std::process::Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", module])
        .arg(root.join(file))
        .output()
        .expect("verilator runs");
    assert!(!out.status.success());
}

#[test]
fn verify_exec_runs_every_engine_and_its_shards_merge_to_the_whole() {
    if !(have_verilator() && have_icarus()) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("crosslane-exec-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = |name: &str| dir.join(name).to_str().expect("a UTF-8 path").to_string();
    let run = |extra: &[&str], json: &str| {
        let mut args = vec![
            "verify",
            "--exec",
            "40",
            "--exec-icarus",
            "2",
            "--exec-hdl",
            "2",
            "--exec-lanes8",
            "3",
            "--seed",
            "12",
            "--json",
        ];
        let json = path(json);
        args.push(&json);
        args.extend_from_slice(extra);
        let (code, out, err) = common::run(&args, b"");
        assert_eq!(code, 0, "{out}{err}");
        for engine in ["verilator", "icarus", "hdl", "verilator-lanes8"] {
            assert!(out.contains(&format!(" on {engine} against golden")), "{engine} did not run: {out}");
        }
        std::fs::read_to_string(&json).expect("the report")
    };
    let whole = run(&[], "whole.json");
    run(&["--shard", "1/2"], "a.json");
    run(&["--shard", "2/2"], "b.json");
    let (code, out, err) =
        common::run(&["merge", &path("a.json"), &path("b.json"), "--json", &path("merged.json")], b"");
    assert_eq!(code, 0, "{out}{err}");
    let tallies = |text: &str| serde_json::from_str::<Value>(text).expect("JSON")["engines"].clone();
    let merged = std::fs::read_to_string(path("merged.json")).expect("the merged report");
    assert_eq!(tallies(&merged), tallies(&whole));
    // The shards' coverage adds up to the whole's.
    let coverage = |text: &str| serde_json::from_str::<Value>(text).expect("JSON")["coverage"].clone();
    assert_eq!(coverage(&merged), coverage(&whole));
    assert!(coverage(&whole)["bins"].as_array().is_some_and(|b| b.len() > 700));
    assert_eq!(tallies(&whole)[0]["accepted"].as_u64().unwrap() + tallies(&whole)[0]["rejected"].as_u64().unwrap(), 40);
    // One shard alone is not the campaign.
    let (code, _, err) = common::run(&["merge", &path("a.json")], b"");
    assert_eq!(code, 2);
    assert!(err.contains("shards missing: 2/2"), "{err}");
    // No instruction checked is a failure, never a pass.
    let (code, out, _) = common::run(&["verify", "--exec", "0"], b"");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no instruction was checked"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_throughput_table_in_the_docs_is_what_the_engine_does() {
    if !have_verilator() {
        return;
    }
    use crosslane_sim::exec_bench;
    let mut engine = InstrEngine::new(Simulator::Verilator).expect("the engine builds");
    let rows = exec_bench::run(&mut engine).expect("every bench case matches golden");
    assert_eq!(rows.len(), exec_bench::PATTERNS.len() * exec_bench::KINDS.len());
    assert!(rows.iter().all(|r| r.cycles > 0 && r.elements > 0));
    let page = std::fs::read_to_string(common::root().join("docs/engine.md")).expect("docs/engine.md");
    let table = exec_bench::markdown(&rows);
    assert_eq!(
        exec_bench::write_into(&page, &table).expect("the page has the markers"),
        page,
        "docs/engine.md's throughput table is stale: run `crosslane bench --exec --exec-docs docs/engine.md`"
    );
}

#[test]
fn chunks_that_spill_into_a_short_last_beat_are_written_before_done() {
    if !have_verilator() {
        return;
    }
    use crosslane_golden::instruction::{RawInstruction, Tensor4d};
    // fp32 ADD of n elements from byte 8 of a row: chunks of 14, 16, 16, ...
    // (the row's end cuts the first), so most n leave a last chunk that
    // spills past lane 15 of its beat.
    let mut engine = InstrEngine::new(Simulator::Verilator).expect("the engine builds");
    let mut spilled = 0;
    for n in 1..=80u16 {
        let tensor = |p, o, num| Tensor4d { start_addr: Tensor4d::immediate(p, o), step_elem: [1; 4], num_elem: num };
        let inst = RawInstruction {
            opcode: 0x7c,
            header: [0; 3],
            events: [0; 8],
            src: tensor(0, 8, [n, 1, 1, 1]),
            in_dtype: 0xa,
            out_dtype: 0xa,
            num_active_channels: 1,
            reduce_op: 0,
            reduce_axis: 0,
            reserved0: [0; 3],
            scale: 1f32.to_bits(),
            dst: tensor(1, 0, [1; 4]),
        };
        let values: Vec<u8> =
            (0..n as u32 + 2).flat_map(|i| (1.0f32 + i as f32 * 0.001 - (i % 3) as f32 * 1e4).to_le_bytes()).collect();
        let case = InstrCase {
            partition_bytes: 4096,
            writes: vec![(0, 0, values)],
            inst,
            reads: vec![(1, 0, 4)],
            read_stall: 0,
        };
        // The chunks: 14 (to the row's end), then 16s; does the last one spill?
        let (mut pos, mut left, mut spills) = (0usize, n as usize, false);
        let mut k = left.min(14);
        while left > 0 {
            spills = pos + k > 16;
            pos = (pos + k) % 16;
            left -= k;
            k = left.min(16);
        }
        spilled += usize::from(spills);
        match check(&mut engine, &case).expect("the harness answers") {
            Verdict::Match { accepted: true, .. } => {}
            other => panic!(
                "n = {n}: {}",
                match other {
                    Verdict::Mismatch(why) => why,
                    Verdict::Match { .. } => "rejected".into(),
                }
            ),
        }
    }
    assert!(spilled > 10, "only {spilled} cases spill");
}

#[test]
fn a_write_after_the_last_done_is_caught_when_the_run_ends() {
    if !have_icarus() {
        return;
    }
    // done_o 7 clocks early, and writes no longer held back once the FSM is
    // idle: the last instruction's late writes come after its done_o.
    let files = sources(Simulator::Icarus).expect("the checked-in engine");
    let early = planted(
        &planted(&files, "localparam  depth_done = 8'h13;", "localparam  depth_done = 8'h0c;"),
        "wr_valid_d = res_valid_1_q & (state_q != s_idle);",
        "wr_valid_d = res_valid_1_q;",
    );
    let mut engine = InstrEngine::on(Simulator::Icarus, &early).expect("builds");
    let c = small_cases(3, 8).map(|(_, c)| c).find(|c| c.inst.validate(c.partition_bytes).is_ok()).unwrap();
    engine.run(&c).expect("the harness answers");
    let err = engine.finish().expect_err("a write after the last done_o");
    assert!(err.contains("a write after the last instruction's done_o"), "{err}");
    // The checked-in engine ends clean.
    let mut engine = InstrEngine::on(Simulator::Icarus, &files).expect("builds");
    assert!(matches!(check(&mut engine, &c), Ok(Verdict::Match { .. })));
    engine.finish().expect("no write after the last done_o");
}

#[test]
fn a_stalling_read_port_changes_the_clocks_never_the_answers() {
    if !have_verilator() {
        return;
    }
    let mut engine = InstrEngine::new(Simulator::Verilator).expect("the engine builds");
    let mut slower = 0;
    for (i, c) in (0..60).map(|i| (i, case(13, i))).filter(|(_, c)| c.inst.validate(c.partition_bytes).is_ok()) {
        let mut clocks = Vec::new();
        for read_stall in [0, 10, 50, 90] {
            match check(&mut engine, &InstrCase { read_stall, ..c.clone() }).expect("the harness answers") {
                Verdict::Match { cycles, .. } => clocks.push(cycles),
                Verdict::Mismatch(why) => panic!("case {i} with the port stalling {read_stall}%: {why}"),
            }
        }
        assert!(clocks.windows(2).all(|w| w[0] <= w[1]), "case {i}: clocks {clocks:?}");
        slower += usize::from(clocks[3] > clocks[0]);
    }
    assert!(slower > 20, "only {slower} cases took longer with the port stalling");
    engine.finish().expect("no write after the last done_o");
}

//! `crosslane exec`, `decode` and `encode` through the built binary, and the
//! exec protocol on arbitrary lines.

use crosslane_sim::cli::exec::answer_line;
use proptest::prelude::*;
mod common;

use common::{examples, run};

/// Every worked example: reads byte for byte; errors begin with the rule
/// the example names (`…` stands for the rest of the message).
#[test]
fn exec_matches_the_worked_examples() {
    let cases = std::fs::read_to_string(examples().join("exec-cases.jsonl")).unwrap();
    let expected = std::fs::read_to_string(examples().join("exec-expected.jsonl")).unwrap();
    let (code, out, err) = run(&["exec"], cases.as_bytes());
    assert_eq!(code, 0, "{err}");
    let got: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let want: Vec<serde_json::Value> = expected.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g["id"], w["id"]);
        match w.get("error").and_then(|e| e.as_str()) {
            Some(e) => {
                let prefix = e.trim_end_matches('…');
                let msg = g["error"].as_str().unwrap_or_else(|| panic!("want an error, got {g}"));
                assert!(msg.starts_with(prefix), "{msg} does not start with {prefix}");
            }
            None => assert_eq!(g["read"], w["read"], "case {}", w["id"]),
        }
    }
    assert_eq!(got.len(), 14);
}

#[test]
fn decode_prints_fields_and_the_failing_rule() {
    let cases = std::fs::read_to_string(examples().join("exec-cases.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(cases.lines().nth(1).unwrap()).unwrap();
    let hex = first["inst"].as_str().unwrap();
    let (code, out, _) = run(&["decode", hex], b"");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("opcode: 0x7c CROSS_LANE_REDUCE_ARITH"), "{out}");
    assert!(out.contains("src.step_elem: [-1, 8, 16, 16]"), "{out}");
    assert!(out.contains("out_dtype: 0x0b FP32R"), "{out}");
    assert!(out.trim_end().ends_with("valid"), "{out}");
    let bad: serde_json::Value = serde_json::from_str(cases.lines().next().unwrap()).unwrap();
    let (code, out, _) = run(&["decode", bad["inst"].as_str().unwrap()], b"");
    assert_eq!(code, 1);
    assert!(out.trim_end().lines().last().unwrap().starts_with("rejected: out_dtype: "), "{out}");
    let (code, _, err) = run(&["decode", "12"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("expected 128 hex digits, found 2"), "{err}");
    // exec's limit on a partition's size, with exec's words (it took any and wrapped).
    for size in ["0", "2097153", "9223372036854775808"] {
        let (code, out, err) = run(&["decode", hex, "--partition-bytes", size], b"");
        assert_eq!(code, 2, "{size}: {out}");
        assert!(err.contains(&format!("--partition-bytes {size} is not in 1..=2097152")), "{size}: {err}");
    }
    let (code, out, _) = run(&["decode", hex, "--partition-bytes", "2097152"], b"");
    assert_eq!(code, 0, "{out}");
}

#[test]
fn encode_then_exec_runs_the_instruction() {
    let spec = r#"{"opcode": "ARITH", "in_dtype": "INT16", "out_dtype": "INT32", "num_active_channels": 2,
                   "reduce_op": "ADD", "reduce_axis": "All",
                   "src": {"partition": 4, "offset": 0, "step": [1, 1, 1, 1], "num": [4, 1, 1, 1]},
                   "dst": {"partition": 0, "offset": 64}}"#;
    let (code, hex, err) = run(&["encode", "--json", spec], b"");
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let hex = hex.trim();
    assert_eq!(hex.len(), 128);
    let case = format!(
        "{{\"id\": \"x\", \"inst\": \"{hex}\", \"sbuf\": {{\"partition_bytes\": 4096, \"writes\": [\
         {{\"partition\": 4, \"offset\": 0, \"hex\": \"01000200ffff0a00\"}},\
         {{\"partition\": 5, \"offset\": 0, \"hex\": \"0100010001000100\"}}]}},\
         \"read\": [{{\"partition\": 0, \"offset\": 64, \"len\": 4}}]}}\n"
    );
    let (code, out, err) = run(&["exec"], case.as_bytes());
    assert_eq!(code, 0, "{err}");
    // 1 + 2 - 1 + 10 + 4 × 1 = 16.
    assert_eq!(out.trim(), r#"{"id": "x", "read": ["10000000"]}"#);
    let (code, _, err) = run(&["encode"], b"{\"in_dtype\": \"FP33\"}");
    assert_eq!(code, 2);
    assert!(err.contains("'in_dtype' 'FP33' is not a known name"), "{err}");
}

#[test]
fn exec_errors_name_the_line_and_the_run_goes_on() {
    let input =
        "nope\n{\"id\": 2, \"inst\": \"00\"}\n\n{\"id\": 4, \"inst\": \"".to_string() + &"0".repeat(128) + "\"}\n";
    let (code, out, _) = run(&["exec"], input.as_bytes());
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with(r#"{"error": "input: line 1: not JSON"#), "{}", lines[0]);
    assert!(lines[1].contains("input: line 2: field 'inst': expected 128 hex digits"), "{}", lines[1]);
    assert_eq!(lines[2], r#"{"error": "input: line 3: empty line"}"#);
    assert!(lines[3].starts_with(r#"{"id": 4, "error": "opcode: "#), "{}", lines[3]);
}

#[test]
fn out_of_range_writes_and_reads_are_errors_and_write_nothing() {
    // A valid instruction (defaults: one fp32 at partition 0, offset 0).
    let inst = crosslane_sim::cli::exec::encode_json("{}").unwrap().to_hex();
    let line = format!(
        "{{\"inst\": \"{inst}\", \"sbuf\": {{\"partition_bytes\": 16, \"writes\": [{{\"partition\": 127, \"offset\": 15, \"hex\": \"0000\"}}]}}}}"
    );
    let out = answer_line(&line, 1);
    assert_eq!(
        out,
        r#"{"error": "input: line 1: sbuf.writes[0]: partition 127 bytes 15..+2 are outside the SBUF (128 partitions of 16 bytes)"}"#
    );
    let line = format!("{{\"inst\": \"{inst}\", \"sbuf\": {{\"partition_bytes\": 16}}, \"read\": [{{\"partition\": 0, \"offset\": 10, \"len\": 7}}]}}");
    let out = answer_line(&line, 2);
    assert!(out.contains("input: line 2: read[0]: partition 0 bytes 10..+7 are outside the SBUF"), "{out}");
    let big = format!("{{\"inst\": \"{inst}\", \"sbuf\": {{\"partition_bytes\": 4194304}}}}");
    assert!(answer_line(&big, 3).contains("input: line 3: sbuf.partition_bytes 4194304 is not in 1..=2097152"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn arbitrary_exec_lines_never_panic(line in ".{0,200}") {
        let out = answer_line(&line, 1);
        let ok = out.starts_with('{') && out.contains("\"error\"");
        prop_assert!(ok, "{}", out);
    }

    #[test]
    fn arbitrary_instructions_on_a_small_sbuf_always_decide(inst in prop::collection::vec(any::<u8>(), 64), pb in 1usize..300) {
        let hex: String = inst.iter().map(|b| format!("{b:02x}")).collect();
        let line = format!(
            "{{\"id\": 1, \"inst\": \"{hex}\", \"sbuf\": {{\"partition_bytes\": {pb}}}, \"read\": [{{\"partition\": 0, \"offset\": 0, \"len\": 1}}]}}"
        );
        let out = answer_line(&line, 1);
        prop_assert!(out.contains("\"read\"") || out.contains("\"error\""), "{}", out);
    }
}

#[test]
fn exec_bounds_the_work_of_one_instruction_and_goes_on() {
    // A valid instruction that revisits one element 65535^4 times on 128
    // channels: a `work:` error line, and the next line is still answered.
    let spec = r#"{"opcode": "ARITH", "in_dtype": "FP32", "out_dtype": "FP32", "num_active_channels": 128,
                   "reduce_op": "ADD", "reduce_axis": "All",
                   "src": {"partition": 0, "offset": 0, "step": [0, 0, 0, 0], "num": [65535, 65535, 65535, 65535]},
                   "dst": {"partition": 0, "offset": 64}}"#;
    let (code, huge, err) = run(&["encode", "--json", spec], b"");
    assert_eq!(code, 0, "{err}");
    let small = spec.replace("[65535, 65535, 65535, 65535]", "[16, 1, 1, 1]");
    let (code, ok, err) = run(&["encode", "--json", &small], b"");
    assert_eq!(code, 0, "{err}");
    let input = format!(
        "{{\"id\": 1, \"inst\": \"{}\"}}\n{{\"id\": 2, \"inst\": \"{}\", \"read\": [{{\"partition\": 0, \"offset\": 64, \"len\": 4}}]}}\n",
        huge.trim(),
        ok.trim()
    );
    let (code, out, err) = run(&["exec"], input.as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("\"error\": \"work: the instruction reads"), "{}", lines[0]);
    assert!(lines[0].contains("268435456"), "{}", lines[0]);
    assert_eq!(lines[1], r#"{"id": 2, "read": ["00000000"]}"#);
}

#[test]
fn exec_and_eval_stop_quietly_when_their_reader_closes_the_pipe() {
    // `crosslane exec | head -1`: the reader wants one line; the rest of the
    // answers have nowhere to go, which is no failure (exit 0, nothing on
    // stderr). Once it was exit 2 and "Broken pipe".
    let cases = std::fs::read(examples().join("exec-cases.jsonl")).unwrap();
    let (code, line, err) = common::run_reading_one_line(&["exec"], cases.repeat(2000));
    assert_eq!((code, err.as_str()), (0, ""), "{line}");
    assert!(line.starts_with('{'), "{line}");
    let cases = std::fs::read(examples().join("eval-cases.jsonl")).unwrap();
    // The golden engine answers line by line, the hdl engine the whole batch
    // at the end: both more than a pipe holds.
    for (engine, times) in [("golden", 2000), ("hdl", 200)] {
        let (code, line, err) = common::run_reading_one_line(&["eval", "--engine", engine], cases.repeat(times));
        assert_eq!((code, err.as_str()), (0, ""), "{engine}: {line}");
    }
}

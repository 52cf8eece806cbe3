//! The built `crosslane` binary on JSON Lines files with good and bad lines.

mod common;

use common::{examples, run, run_with_env};

#[test]
fn eval_reproduces_the_spec_examples() {
    let cases =
        std::fs::read_to_string(examples().join("eval-cases.jsonl")).expect("shared/spec/examples beside the repo");
    let expected = std::fs::read_to_string(examples().join("eval-expected.jsonl")).unwrap();
    let (code, out, err) = run(&["eval"], cases.as_bytes());
    assert_eq!(code, 0, "stderr: {err}");
    assert_eq!(out, expected);
    assert_eq!(expected.lines().count(), 32);
}

#[test]
fn eval_answers_every_line_and_goes_on_after_bad_ones() {
    let vec = "0".repeat(127) + "1";
    let input = format!(
        "{{\"id\": 1, \"op\": \"raddu_2nx8\", \"vec\": \"{vec}\"}}\n\
         not json\n\
         {{\"id\": 3, \"op\": \"radd_nx17\", \"vec\": \"{vec}\"}}\n\
         \n\
         {{\"id\": 5, \"op\": \"rbminu_2nx8_t\", \"vec\": \"0x{vec}\", \"pred\": \"0000000000000003\"}}\n\
         {{\"op\": \"randb2n\", \"vbool\": \"FFFFFFFFFFFFFFFF\"}}\n"
    );
    let (code, out, err) = run(&["eval"], input.as_bytes());
    assert_eq!(code, 0, "stderr: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        vec![
            r#"{"id": 1, "result": "0001"}"#,
            r#"{"error": "line 2: not JSON: expected ident at line 1 column 2"}"#,
            r#"{"id": 3, "error": "line 3: unknown op 'radd_nx17'"}"#,
            r#"{"error": "line 4: empty line"}"#,
            r#"{"id": 5, "result": "00", "mask": "0000000000000002"}"#,
            r#"{"result": "1"}"#,
        ]
    );
}

#[test]
fn eval_on_the_hdl_engine_reproduces_the_spec_examples() {
    let cases = std::fs::read_to_string(examples().join("eval-cases.jsonl")).unwrap();
    let expected = std::fs::read_to_string(examples().join("eval-expected.jsonl")).unwrap();
    let bad = "{\"id\": 99, \"op\": \"radd_nx16\", \"vec\": \"00\"}\n";
    let (code, out, err) = run(&["eval", "--engine", "hdl"], format!("{cases}{bad}").as_bytes());
    assert_eq!(code, 0, "stderr: {err}");
    assert_eq!(
        out,
        format!("{expected}{{\"id\": 99, \"error\": \"line 33: field 'vec': expected 128 hex digits, found 2\"}}\n")
    );
}

#[test]
fn eval_on_a_simulator_that_is_missing_exits_non_zero_with_one_message() {
    for (engine, tool) in [("verilator", "verilator"), ("icarus", "iverilog")] {
        let (code, out, err) = run_with_env(&["eval", "--engine", engine], b"{}\n", &[("PATH", "")]);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert_eq!(
            err.trim(),
            format!(
                "crosslane eval: engine '{engine}' could not start: '{tool}' is not installed (apt-get install {tool})"
            )
        );
    }
}

#[test]
fn eval_on_an_unknown_engine_fails_with_a_message() {
    let (code, out, err) = run(&["eval", "--engine", "spice"], b"");
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert!(err.contains("spice"), "{err}");
}

#[test]
fn eval_answers_input_that_is_not_utf8_with_an_error_line() {
    // Once the whole run was refused (exit 2, no line named): now the line is.
    let (code, out, err) = run(&["eval"], &[0xff, 0xfe, b'\n']);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "{\"error\": \"line 1: not UTF-8 (byte 1 of the line)\"}\n");
}

#[test]
fn verify_passes_and_prints_the_table() {
    let args = ["verify", "--per-op", "50", "--hdl-per-op", "3", "--verilator-per-op", "20", "--icarus-per-op", "2"];
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, 0, "stdout: {out}\nstderr: {err}");
    assert!(out.contains("golden     rbmax"), "{out}");
    assert!(out.contains("hdl        rbmax"), "{out}");
    // The simulators are rows too, or a loud skip line outside CI.
    for engine in ["verilator", "icarus"] {
        assert!(
            out.contains(&format!("{engine:<10} rbmax")) || out.contains(&format!("{engine:<10} skipped")),
            "{out}"
        );
    }
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("verify: ") && last.contains(" 0 mismatches"), "{last}");
    let checked: usize = last["verify: ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(checked >= 94 * 50, "{last}");
}

#[test]
fn verify_fails_when_an_engine_cannot_run() {
    // No simulator on PATH: verify must not pass by skipping them.
    let args = ["verify", "--per-op", "1", "--hdl-per-op", "1", "--verilator-per-op", "1", "--icarus-per-op", "1"];
    let (code, out, err) = run_with_env(&args, b"", &[("PATH", "/nonexistent")]);
    assert_eq!(code, 2, "stdout: {out}\nstderr: {err}");
    assert!(err.contains("engine 'verilator' could not start"), "stderr: {err}");
    assert!(!out.contains("0 mismatches"), "stdout: {out}");
}

fn checked(line: &str, prefix: &str) -> usize {
    assert!(line.starts_with(prefix), "{line}");
    let before = &line[..line.find(" cases checked").unwrap_or_else(|| panic!("{line}"))];
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn sharded_verify_merges_into_the_whole_campaign() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("shards");
    std::fs::create_dir_all(&dir).unwrap();
    let sizes = ["--per-op", "20", "--hdl-per-op", "1", "--verilator-per-op", "5", "--icarus-per-op", "1"];
    let mut whole = vec!["verify"];
    whole.extend(sizes);
    let whole_json = dir.join("whole.json");
    let mut whole_args = whole.clone();
    whole_args.extend(["--json", whole_json.to_str().unwrap()]);
    let (code, out, err) = run(&whole_args, b"");
    assert_eq!(code, 0, "stdout: {out}\nstderr: {err}");
    let total = checked(out.lines().last().unwrap(), "verify: ");
    let mut reports = Vec::new();
    let mut sum = 0;
    for i in 1..=2 {
        let report = dir.join(format!("shard{i}.json"));
        let shard = format!("{i}/2");
        let mut args = whole.clone();
        args.extend(["--shard", &shard, "--json", report.to_str().unwrap()]);
        let (code, out, err) = run(&args, b"");
        assert_eq!(code, 0, "stdout: {out}\nstderr: {err}");
        let last = out.lines().last().unwrap();
        assert!(last.ends_with(&format!("shard {i}/2)")), "{last}");
        sum += checked(last, "verify: ");
        reports.push(report.to_str().unwrap().to_string());
    }
    assert_eq!(sum, total);
    let merged = dir.join("merged.json");
    let mut args = vec!["merge", &reports[0], &reports[1], "--json", merged.to_str().unwrap()];
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, 0, "stdout: {out}\nstderr: {err}");
    assert_eq!(checked(out.lines().last().unwrap(), "merge: "), total);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    assert_eq!(json["cases"].as_u64(), Some(total as u64));
    assert_eq!(json["shards"], serde_json::json!([1, 2]));
    // The shards' coverage adds up to the whole run's.
    let whole_report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&whole_json).unwrap()).unwrap();
    assert_eq!(json["coverage"], whole_report["coverage"]);
    assert!(json["coverage"]["bins"].as_array().is_some_and(|b| b.len() > 1500));
    // A shard missing is an error, not a smaller pass.
    args = vec!["merge", &reports[1]];
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, 2, "stdout: {out}");
    assert!(err.contains("shards missing: 1/2"), "{err}");
    let (code, _, err) = run(&["verify", "--shard", "3/2"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("--shard '3/2'"), "{err}");
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_line_and_the_rest_are_answered() {
    let vec = "0".repeat(127) + "1";
    let good = format!("{{\"id\": 1, \"op\": \"raddu_2nx8\", \"vec\": \"{vec}\"}}");
    let mut input = format!("{good}\n").into_bytes();
    input.extend_from_slice(b"{\"id\": 2, \"op\": \"r\xffx\"}\n");
    input.extend_from_slice(format!("{}\n", good.replace("\"id\": 1", "\"id\": 3")).as_bytes());
    let (code, out, err) = run(&["eval"], &input);
    assert_eq!(code, 0, "stderr: {err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        vec![
            r#"{"id": 1, "result": "0001"}"#,
            r#"{"error": "line 2: not UTF-8 (byte 19 of the line)"}"#,
            r#"{"id": 3, "result": "0001"}"#,
        ]
    );
    // exec the same: line 3 is answered (an error of its own), not lost.
    let (code, out, err) = run(&["exec"], &input);
    assert_eq!(code, 0, "stderr: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[1], r#"{"error": "input: line 2: not UTF-8 (byte 19 of the line)"}"#);
    assert!(lines[2].contains("line 3"), "{out}");
}

#[test]
fn golden_eval_answers_a_line_before_the_next_is_sent() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .arg("eval")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let vec = "0".repeat(127) + "2";
    for id in 1..=3 {
        // The input stays open: an eval that waited for its end would block here.
        writeln!(stdin, "{{\"id\": {id}, \"op\": \"raddu_2nx8\", \"vec\": \"{vec}\"}}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, format!("{{\"id\": {id}, \"result\": \"0002\"}}\n"));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn verify_refuses_an_engine_given_no_case_and_an_unwritable_report_before_running() {
    let (code, _, err) = run(&["verify", "--hdl-per-op", "0"], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--hdl-per-op 0 would check the hdl engines on no case"), "{err}");
    let dir = std::env::temp_dir().join(format!("crosslane-cli-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("file"), "x").unwrap();
    let report = dir.join("file/r.json");
    let start = std::time::Instant::now();
    let (code, out, err) = run(&["verify", "--json", report.to_str().unwrap()], b"");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is not a folder"), "{err}");
    assert!(!out.contains("cases checked"), "the campaign ran first: {out}");
    assert!(start.elapsed().as_secs() < 30);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_refuses_zero_cases() {
    let (code, _, err) = run(&["bench", "--engine", "golden", "--cases", "0"], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--cases 0"), "{err}");
}

#[test]
fn ids_are_echoed_as_their_json_text() {
    // Byte for byte: digits, exponent form, string escapes, spacing inside
    // arrays and objects; of two ids the last, as of any key.
    let input = "{\"id\": 123456789012345678901234567890, \"op\": \"rorbn\", \"vbool\": \"0000000000000081\"}\n\
                 {\"id\": 1.50, \"op\": \"bad\"}\n{\"id\": -0.000, \"op\": \"bad\"}\n\
                 {\"id\": 1e5, \"op\": \"bad\"}\n{\"id\": \"\\u0041\\/\", \"op\": \"bad\"}\n\
                 {\"id\":[1 ,{ \"a\":2E-0}], \"op\": \"bad\"}\n{\"id\": 1, \"id\": 2.0, \"op\": \"bad\"}\n";
    let (code, out, err) = run(&["eval"], input.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        vec![
            r#"{"id": 123456789012345678901234567890, "result": "1"}"#,
            r#"{"id": 1.50, "error": "line 2: unknown op 'bad'"}"#,
            r#"{"id": -0.000, "error": "line 3: unknown op 'bad'"}"#,
            r#"{"id": 1e5, "error": "line 4: unknown op 'bad'"}"#,
            r#"{"id": "\u0041\/", "error": "line 5: unknown op 'bad'"}"#,
            r#"{"id": [1 ,{ "a":2E-0}], "error": "line 6: unknown op 'bad'"}"#,
            r#"{"id": 2.0, "error": "line 7: unknown op 'bad'"}"#,
        ]
    );
    let (code, out, err) = run(
        &["exec"],
        b"{\"id\": 98765432109876543210987654321, \"inst\": \"zz\"}\n{\"id\": 1E+5, \"inst\": \"zz\"}\n",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("{\"id\": 98765432109876543210987654321, \"error\""), "{out}");
    assert!(lines[1].starts_with("{\"id\": 1E+5, \"error\""), "{out}");
}

//! The coverage model through the command line: the default campaigns close
//! every reachable bin (a drop fails here), a short one names what it
//! missed, and shards' coverage merges to the whole's.

mod common;

use serde_json::Value;

#[test]
fn the_default_campaigns_close_every_reachable_bin() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let json = dir.join("default-coverage.json");
    let (code, out, err) = common::run(&["coverage", "--closed", "--json", json.to_str().unwrap()], b"");
    assert_eq!(code, 0, "the default campaigns no longer close their coverage:\n{out}{err}");
    for what in ["the unit", "the instruction"] {
        let line = out.lines().find(|l| l.starts_with(&format!("coverage of {what}: "))).expect("a totals line");
        assert!(line.contains("(100.00%)"), "{line}");
    }
    assert!(!out.contains("unhit:"), "{out}");
    // docs/coverage.md quotes the totals and lists every unreachable bin with its reason.
    let page = std::fs::read_to_string(common::root().join("docs/coverage.md")).expect("docs/coverage.md");
    let totals: Vec<&str> = out.lines().filter(|l| l.starts_with("coverage of ")).collect();
    let quoted = format!("<!-- coverage:default -->\n{}\n<!-- coverage:end -->", totals.join("\n"));
    assert!(page.contains(&quoted), "docs/coverage.md does not quote:\n{quoted}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let bins = v["bins"].as_array().unwrap();
    for b in bins.iter().filter(|b| b.get("unreachable").is_some()) {
        let row = format!(
            "| {} | {} | {} |",
            b["group"].as_str().unwrap(),
            b["bin"].as_str().unwrap(),
            b["unreachable"].as_str().unwrap()
        );
        assert!(page.contains(&row), "docs/coverage.md lacks: {row}");
    }
    assert!(bins.len() > 2000, "{} bins", bins.len());
    for b in bins {
        // An unreachable bin says why and is never hit; a reachable one is.
        match b.get("unreachable") {
            Some(why) => assert!(why.as_str().is_some_and(|w| w.len() > 20) && b["hits"] == 0, "{b}"),
            None => assert!(b["hits"].as_u64().unwrap() > 0, "{b}"),
        }
    }
}

#[test]
fn a_short_campaign_is_not_closed_and_names_what_it_missed() {
    let (code, out, _) = common::run(&["coverage", "--per-op", "2", "--exec", "5", "--closed"], b"");
    assert_eq!(code, 1, "{out}");
    assert!(out.lines().any(|l| l.starts_with("inst reduce_op × in × out") && l.contains("unhit: ")), "{out}");
    // Without --closed it reports and passes.
    let (code, out, _) = common::run(&["coverage", "--per-op", "2", "--exec", "5"], b"");
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_coverage_file_of_another_kind_is_refused_by_name() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("coverage-bad");
    std::fs::create_dir_all(&dir).unwrap();
    // A verify report whose coverage lost a bin: merge names the file and the bin.
    let report = dir.join("a.json");
    let (code, out, err) = common::run(
        &[
            "verify",
            "--per-op",
            "2",
            "--hdl-per-op",
            "1",
            "--verilator-per-op",
            "2",
            "--icarus-per-op",
            "1",
            "--json",
            report.to_str().unwrap(),
        ],
        b"",
    );
    if code == 2 && err.contains("could not start") {
        return; // no simulator here: tests/cli.rs fails that loudly in CI
    }
    assert_eq!(code, 0, "{out}{err}");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    v["coverage"]["bins"].as_array_mut().unwrap().remove(3);
    std::fs::write(&report, v.to_string()).unwrap();
    let (code, _, err) = common::run(&["merge", report.to_str().unwrap()], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a.json: coverage: bin ") && err.contains("is missing"), "{err}");
}

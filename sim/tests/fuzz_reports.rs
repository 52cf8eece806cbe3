//! Hostile input to the readers that take files and lines from outside:
//! `merge`'s report reader, the exec line reader and the line splitter
//! never panic, abort or allocate what a number says, and always decide.
//! Bounded here (`./dev test`); `CROSSLANE_FUZZ_CASES=1000000 cargo test
//! --release -p crosslane-sim --test fuzz_reports --test fuzz_protocol`
//! runs longer (docs/verification.md).

use crosslane_golden::Family;
use crosslane_sim::cli::{exec::answer_line, read_lines};
use crosslane_sim::engine::EngineKind;
use crosslane_sim::verify::{merge, parse_report, report_json, Report, Row, Sizes};
use proptest::prelude::*;
use std::time::Duration;

fn cases() -> u32 {
    std::env::var("CROSSLANE_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(5000)
}

/// A shard's valid report, as JSON.
fn report(index: usize, count: usize) -> serde_json::Value {
    let mut r = Report::default();
    r.rows.push(Row {
        engine: EngineKind::Golden,
        family: Family::ALL[0],
        cases: 10,
        mismatches: 0,
        time: Duration::from_millis(3),
    });
    let sizes = Sizes { golden: 1, hdl: 1, verilator: 1, icarus: 1 };
    report_json(&r, 7, sizes, count, &[index])
}

/// Any JSON value a forger might write where a number or list belongs.
fn hostile() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        any::<u64>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into)),
        Just(serde_json::json!(1e300)),
        Just(serde_json::json!(-1)),
        Just(serde_json::json!(18446744073709551615u64)),
        Just(serde_json::json!(1_000_000_000_000u64)),
        Just(serde_json::Value::Null),
        ".{0,12}".prop_map(serde_json::Value::from),
        prop::collection::vec(any::<u64>(), 0..4).prop_map(serde_json::Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn forged_reports_are_merged_or_refused_never_a_panic(
        field in prop_oneof![
            Just("seed"), Just("shard_count"), Just("shards"), Just("cases"), Just("mismatches"),
            Just("rows.cases"), Just("rows.mismatches"), Just("rows.seconds"), Just("rows.engine"),
            Just("sizes.golden"),
        ],
        value in hostile(),
        twice in any::<bool>(),
    ) {
        let forge = |mut v: serde_json::Value| {
            match field.split_once('.') {
                Some(("rows", f)) => v["rows"][0][f] = value.clone(),
                Some((outer, f)) => v[outer][f] = value.clone(),
                None => v[field] = value.clone(),
            }
            v.to_string()
        };
        let a = forge(report(1, 2));
        let b = if twice { forge(report(2, 2)) } else { report(2, 2).to_string() };
        let parts: Vec<_> = [("a", a), ("b", b)]
            .into_iter()
            .filter_map(|(n, t)| parse_report(&t, n).ok().map(|p| (n.to_string(), p)))
            .collect();
        if let Ok(m) = merge(parts) {
            // A merged report's totals are true sums that fit.
            let total: Option<usize> = m.report.rows.iter().try_fold(0usize, |s, r| s.checked_add(r.cases));
            prop_assert!(total.is_some());
            prop_assert!(m.report.rows.iter().all(|r| r.mismatches <= r.cases));
        }
    }

    #[test]
    fn report_text_of_any_shape_is_refused_or_read(text in ".{0,400}") {
        let _ = parse_report(&text, "x.json");
    }

    #[test]
    fn exec_answers_any_line_with_one_json_line(
        line in prop_oneof![
            ".{0,300}",
            "\\{\"id\": [0-9]{1,40}, \"inst\": \"[0-9a-f]{0,130}\", \"sbuf\": \\{\"partition_bytes\": ([0-9]{1,4}|[0-9]{19,22})\\}, \"read\": \\[\\]\\}",
        ],
    ) {
        let out = answer_line(&line, 1);
        prop_assert!(out.starts_with('{') && out.ends_with('}') && !out.contains('\n'), "{}", out);
        prop_assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok(), "{}", out);
    }

    #[test]
    fn any_bytes_split_into_lines_as_str_lines_would(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let lines: Vec<_> = read_lines(&bytes[..]).map(|l| l.unwrap()).collect();
        let text = String::from_utf8_lossy(&bytes);
        prop_assert_eq!(lines.len(), text.lines().count());
        for (got, want) in lines.iter().zip(text.lines()) {
            if let Ok(g) = got {
                prop_assert_eq!(g.as_str(), want);
            }
        }
    }
}

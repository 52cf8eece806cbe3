//! The eval parser never panics and always decides, on any bytes
//! (`CROSSLANE_FUZZ_CASES=N` for a longer run, as in fuzz_reports.rs).

use crosslane_sim::cli::eval::{answer, parse_line};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("CROSSLANE_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_lines_never_panic(line in ".{0,300}") {
        let _ = parse_line(&line, 1);
    }

    #[test]
    fn json_shaped_lines_never_panic(
        op in prop_oneof![Just("radd_nx16".to_string()), Just("rbmax_2nx8_t".to_string()), Just("rorbn".to_string()), "[a-z_0-9]{0,14}"],
        vec in "(0x)?[0-9a-fA-FxG]{0,130}",
        pred in prop::option::of("[0-9a-f]{0,18}"),
        id in prop::option::of(any::<i64>()),
    ) {
        let mut line = format!("{{\"op\": \"{op}\", \"vec\": \"{vec}\", \"vbool\": \"{vec}\"");
        if let Some(p) = pred { line.push_str(&format!(", \"pred\": \"{p}\"")); }
        if let Some(i) = id { line.push_str(&format!(", \"id\": {i}")); }
        line.push('}');
        let out = answer(&line, |cases| Ok::<_, ()>(cases.iter().map(|c| c.eval()).collect())).unwrap();
        prop_assert_eq!(out.len(), 1);
        prop_assert!(out[0].contains("\"result\"") || out[0].contains("\"error\": \"line 1: "));
    }
}

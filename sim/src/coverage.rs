//! The coverage model's counts (`crosslane_golden::coverage`) as JSON, as
//! `crosslane verify --coverage FILE` and every verify report carry them. The bins are golden's;
//! here they are only written and read back, keyed by (group, name).

use crosslane_golden::coverage::{bins, Coverage};
use serde_json::{json, Value};

/// The `format` of a coverage file and of a report's `coverage` field.
pub const COVERAGE_FORMAT: &str = "crosslane-coverage-1";

pub use crosslane_golden::coverage::{INSTRUCTION, UNIT};

/// Every bin with its count (and why it is unreachable, where it is).
pub fn to_json(c: &Coverage) -> Value {
    let rows: Vec<Value> = bins()
        .iter()
        .zip(c.counts())
        .map(|(b, &k)| match &b.unreachable {
            Some(why) => json!({"group": b.group, "bin": b.name, "hits": k, "unreachable": why}),
            None => json!({"group": b.group, "bin": b.name, "hits": k}),
        })
        .collect();
    json!({"format": COVERAGE_FORMAT, "bins": rows})
}

/// Counts written by [`to_json`]; `what` names the file in errors. A file
/// of another model (a bin missing, unknown or twice) is refused.
pub fn from_json(v: &Value, what: &str) -> Result<Coverage, String> {
    if v.get("format").and_then(|f| f.as_str()) != Some(COVERAGE_FORMAT) {
        return Err(format!("{what}: not coverage counts (no \"format\": \"{COVERAGE_FORMAT}\")"));
    }
    let rows = v.get("bins").and_then(|b| b.as_array()).ok_or_else(|| format!("{what}: 'bins' is not a list"))?;
    let mut counts = Vec::with_capacity(rows.len());
    for (k, r) in rows.iter().enumerate() {
        let s = |key: &str| r.get(key).and_then(|x| x.as_str()).ok_or_else(|| format!("{what}: bin {k}: no '{key}'"));
        let hits =
            r.get("hits").and_then(|x| x.as_u64()).ok_or_else(|| format!("{what}: bin {k}: 'hits' is not a count"))?;
        counts.push((s("group")?, s("bin")?, hits));
    }
    Coverage::from_counts(counts).map_err(|e| format!("{what}: {e}"))
}

/// Parse a coverage file's text.
pub fn parse(text: &str, what: &str) -> Result<Coverage, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))?;
    from_json(&v, what)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_golden::{Op, Vec512};

    #[test]
    fn counts_round_trip_and_other_files_are_refused_by_name() {
        let mut c = Coverage::new();
        c.sample_case(Op::from_name("rmax_nx16").unwrap(), &Vec512::ZERO, 0);
        let v = to_json(&c);
        assert_eq!(from_json(&v, "x").unwrap(), c);
        assert!(parse("{}", "f.json").unwrap_err().contains("f.json: not coverage counts"));
        let mut other = v.clone();
        other["bins"].as_array_mut().unwrap().pop();
        assert!(from_json(&other, "f.json").unwrap_err().contains("missing"));
        let mut bad = v.clone();
        bad["bins"][0]["hits"] = json!(-1);
        assert!(from_json(&bad, "f.json").unwrap_err().contains("'hits' is not a count"));
        let text = c.render(UNIT);
        assert!(text.lines().any(|l| l.starts_with("op rmax_nx16 ") && l.contains("unhit:")), "{text}");
        assert!(c.total_line(UNIT, "the unit").starts_with("coverage of the unit: "));
    }
}

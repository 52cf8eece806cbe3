//! The `eval` line protocol (eval-protocol.md): JSON Lines in, one JSON line
//! out per input line, in order.

use crosslane_golden::{Case, Op, Outcome, Vec512};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One parsed input line.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The `id` key's JSON text, echoed byte for byte.
    pub id: Option<String>,
    pub case: Case,
}

/// A line that could not be turned into a case: the message (already
/// prefixed with `line N: `) and the id, if one could be read.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    pub id: Option<String>,
    pub message: String,
}

fn string_field<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, String> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("field '{key}' must be a string, found {other}")),
    }
}

fn required<'a>(obj: &'a Map<String, Value>, key: &str, op: Op) -> Result<&'a str, String> {
    string_field(obj, key)?.ok_or_else(|| format!("missing field '{key}' for op '{}'", op.name()))
}

fn refuse(obj: &Map<String, Value>, key: &str, op: Op, why: &str) -> Result<(), String> {
    if obj.contains_key(key) {
        Err(format!("field '{key}' given but op '{}' {why}", op.name()))
    } else {
        Ok(())
    }
}

fn parse_object(obj: &Map<String, Value>) -> Result<Case, String> {
    let name = string_field(obj, "op")?.ok_or("missing field 'op'")?;
    let op = Op::from_name(name).ok_or_else(|| format!("unknown op '{name}'"))?;
    let vbool_of =
        |key: &str, text: &str| crosslane_golden::parse_hex_u64(text, 16).map_err(|e| format!("field '{key}': {e}"));
    if op.family.is_vbool_fold() {
        refuse(obj, "vec", op, "folds a vbool (give 'vbool')")?;
        refuse(obj, "pred", op, "folds a vbool (give 'vbool')")?;
        let vbool = vbool_of("vbool", required(obj, "vbool", op)?)?;
        return Ok(Case::new(op, Vec512::ZERO, vbool));
    }
    refuse(obj, "vbool", op, "is not a vbool fold")?;
    let vec = Vec512::from_hex(required(obj, "vec", op)?).map_err(|e| format!("field 'vec': {e}"))?;
    let vbool = if op.predicated {
        vbool_of("pred", required(obj, "pred", op)?)?
    } else {
        let hint = format!("has no predicate (the predicated form is '{}_t')", op.name());
        refuse(obj, "pred", op, &hint)?;
        u64::MAX
    };
    Ok(Case::new(op, vec, vbool))
}

/// The JSON text of the `id` key of `line`, a JSON object that has one,
/// exactly as the line writes it (a number keeps its form, `1e5` stays
/// `1e5`; a string keeps its escapes). Of keys given twice the last counts,
/// as in every other field.
pub fn raw_id(line: &str, obj: &Map<String, Value>) -> Option<String> {
    let value = obj.get("id")?;
    match serde_json::from_str::<BTreeMap<String, &RawValue>>(line) {
        Ok(keys) => keys.get("id").map(|raw| raw.get().to_string()),
        // Not reached: `line` was read as this object already.
        Err(_) => Some(value.to_string()),
    }
}

/// Parse input line `lineno` (1-based).
pub fn parse_line(line: &str, lineno: usize) -> Result<Request, LineError> {
    let fail = |id: Option<String>, msg: String| LineError { id, message: format!("line {lineno}: {msg}") };
    let value: Value = serde_json::from_str(line).map_err(|e| {
        if line.trim().is_empty() {
            fail(None, "empty line".into())
        } else {
            fail(None, format!("not JSON: {e}"))
        }
    })?;
    let Value::Object(obj) = value else {
        return Err(fail(None, format!("expected a JSON object, found {value}")));
    };
    let id = raw_id(line, &obj);
    match parse_object(&obj) {
        Ok(case) => Ok(Request { id, case }),
        Err(msg) => Err(fail(id, msg)),
    }
}

/// A string as a JSON literal.
pub fn json_str(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

/// An output line: `{"id": …, rest}`, or `{rest}` without an id. Both line
/// protocols write this shape (`"key": value` pairs, one space after `:`/`,`).
pub fn with_id(id: &Option<String>, rest: String) -> String {
    match id {
        Some(id) => format!("{{\"id\": {id}, {rest}}}"),
        None => format!("{{{rest}}}"),
    }
}

/// The output line of a case's result.
pub fn result_line(id: &Option<String>, op: Op, out: &Outcome) -> String {
    let mut rest = format!("\"result\": {}", json_str(&out.result_hex(op)));
    if let Some(mask) = out.mask_hex(op) {
        rest.push_str(&format!(", \"mask\": {}", json_str(&mask)));
    }
    with_id(id, rest)
}

/// The output line of a bad input line.
pub fn error_line(err: &LineError) -> String {
    with_id(&err.id, format!("\"error\": {}", json_str(&err.message)))
}

/// A case as an input line (for files the project writes for others).
pub fn case_line(id: Option<usize>, case: &Case) -> String {
    let mut rest = format!("\"op\": {}", json_str(&case.op.name()));
    if case.op.family.is_vbool_fold() {
        rest.push_str(&format!(", \"vbool\": \"{:016x}\"", case.vbool));
    } else {
        rest.push_str(&format!(", \"vec\": \"{}\"", case.vec));
        if case.op.predicated {
            rest.push_str(&format!(", \"pred\": \"{:016x}\"", case.vbool));
        }
    }
    with_id(&id.map(|n| n.to_string()), rest)
}

/// Answer a whole input with `run` (which evaluates every good case in one
/// batch, in order) and return the output lines.
pub fn answer<E>(input: &str, run: impl FnOnce(&[Case]) -> Result<Vec<Outcome>, E>) -> Result<Vec<String>, E> {
    let lines: Vec<super::Line> = input.lines().map(|l| Ok(l.to_string())).collect();
    answer_lines(&lines, 1, run)
}

/// Answer `lines`, the first of them input line `first` (1-based), with
/// `run` as [`answer`] does; a line that could not be read as text gets an
/// error line naming it.
pub fn answer_lines<E>(
    lines: &[super::Line],
    first: usize,
    run: impl FnOnce(&[Case]) -> Result<Vec<Outcome>, E>,
) -> Result<Vec<String>, E> {
    let parsed: Vec<Result<Request, LineError>> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| match line {
            Ok(text) => parse_line(text, first + i),
            Err(why) => Err(LineError { id: None, message: format!("line {}: {why}", first + i) }),
        })
        .collect();
    let cases: Vec<Case> = parsed.iter().filter_map(|p| p.as_ref().ok().map(|r| r.case)).collect();
    let mut outcomes = run(&cases)?.into_iter();
    Ok(parsed
        .iter()
        .map(|p| match p {
            Ok(req) => match outcomes.next() {
                Some(out) => result_line(&req.id, req.case.op, &out),
                None => error_line(&LineError {
                    id: req.id.clone(),
                    message: "engine returned no result for this case".into(),
                }),
            },
            Err(e) => error_line(e),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: &str) -> String {
        parse_line(line, 7).unwrap_err().message
    }

    #[test]
    fn bad_lines_name_the_line_and_the_problem() {
        let vec = "0".repeat(128);
        assert_eq!(err("{"), "line 7: not JSON: EOF while parsing an object at line 1 column 1");
        assert_eq!(err(""), "line 7: empty line");
        assert_eq!(err("[1]"), "line 7: expected a JSON object, found [1]");
        assert_eq!(err("{}"), "line 7: missing field 'op'");
        assert_eq!(err(r#"{"op": 3}"#), "line 7: field 'op' must be a string, found 3");
        assert_eq!(err(r#"{"op": "radd_nx17"}"#), "line 7: unknown op 'radd_nx17'");
        assert_eq!(err(r#"{"op": "radd_nx16"}"#), "line 7: missing field 'vec' for op 'radd_nx16'");
        assert_eq!(err(r#"{"op": "radd_nx16", "vec": "12"}"#), "line 7: field 'vec': expected 128 hex digits, found 2");
        assert_eq!(
            err(&format!(r#"{{"op": "radd_nx16", "vec": "{vec}", "pred": "{}"}}"#, "f".repeat(16))),
            "line 7: field 'pred' given but op 'radd_nx16' has no predicate (the predicated form is 'radd_nx16_t')"
        );
        assert_eq!(
            err(&format!(r#"{{"op": "radd_nx16_t", "vec": "{vec}"}}"#)),
            "line 7: missing field 'pred' for op 'radd_nx16_t'"
        );
        assert_eq!(
            err(r#"{"op": "rorbn", "vbool": "xyz0000000000000"}"#),
            "line 7: field 'vbool': 'x' at position 0 is not a hex digit"
        );
        assert_eq!(
            err(&format!(r#"{{"op": "rorbn", "vec": "{vec}"}}"#)),
            "line 7: field 'vec' given but op 'rorbn' folds a vbool (give 'vbool')"
        );
    }

    #[test]
    fn ids_are_echoed_even_on_errors() {
        let e = parse_line(r#"{"id": "abc", "op": "nope"}"#, 1).unwrap_err();
        assert_eq!(error_line(&e), r#"{"id": "abc", "error": "line 1: unknown op 'nope'"}"#);
        let lines = answer(
            &format!("{{\"id\": [1], \"op\": \"rbmax_nx16\", \"vec\": \"{}\", \"x\": 1}}\n", "0".repeat(128)),
            |cases| Ok::<_, ()>(cases.iter().map(|c| c.eval()).collect()),
        )
        .unwrap();
        assert_eq!(lines, vec![r#"{"id": [1], "result": "0000", "mask": "ffffffff"}"#]);
    }

    #[test]
    fn case_lines_parse_back() {
        for case in crosslane_golden::campaign::campaign(5, 2) {
            let line = case_line(Some(3), &case);
            let req = parse_line(&line, 1).unwrap();
            assert_eq!(req.case.op, case.op);
            assert_eq!(req.case.vec, case.vec);
            if case.op.predicated || case.op.family.is_vbool_fold() {
                assert_eq!(req.case.vbool, case.vbool);
            }
        }
    }
}

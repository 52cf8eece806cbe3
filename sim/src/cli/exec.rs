//! `crosslane exec`, `decode` and `encode`: the JSON Lines protocol of
//! instruction.md §5 and the field-level views of the 64-byte instruction.

use crate::cli::eval::{json_str, raw_id, with_id};
use crate::engines::instr::{InstrCase, InstrOutcome, InstrRunner};
use crosslane_golden::instruction::exec::{check_work, execute, Sbuf, SumOrder};
use crosslane_golden::instruction::{
    Dtype, Opcode, RawInstruction, ReduceAxis, ReduceOp, Tensor4d, DEFAULT_PARTITION_BYTES, PARTITIONS,
};
use serde_json::{Map, Value};
use std::io::Write;

pub use crosslane_golden::instruction::MAX_PARTITION_BYTES;

/// The one limit on an SBUF partition's size, for exec and decode alike.
pub fn check_partition_bytes(partition_bytes: usize) -> Result<(), String> {
    if partition_bytes == 0 || partition_bytes > MAX_PARTITION_BYTES {
        return Err(format!("partition_bytes {partition_bytes} is not in 1..={MAX_PARTITION_BYTES}"));
    }
    Ok(())
}

fn uint(obj: &Map<String, Value>, key: &str, what: &str) -> Result<usize, String> {
    match obj.get(key) {
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| format!("{what}.{key} must be a non-negative integer, found {n}")),
        Some(other) => Err(format!("{what}.{key} must be a non-negative integer, found {other}")),
        None => Err(format!("{what} has no '{key}'")),
    }
}

fn hex_bytes(text: &str, what: &str) -> Result<Vec<u8>, String> {
    let body = text.strip_prefix("0x").unwrap_or(text);
    if !body.len().is_multiple_of(2) {
        return Err(format!("{what} has an odd number of hex digits ({})", body.len()));
    }
    (0..body.len() / 2)
        .map(|i| {
            body.get(2 * i..2 * i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| format!("{what} is not hex at digit {}", 2 * i))
        })
        .collect()
}

/// One exec case, answered: `Ok(read regions as hex)` or `Err(message)`.
pub use crosslane_golden::instruction::exec::MAX_WORK;

/// A case run: the SBUF after the instruction and the reads to answer
/// (partition, offset, length), each checked to be inside it.
struct Ran {
    sbuf: Sbuf,
    reads: Vec<(usize, usize, usize)>,
}

/// A case read and checked (every write and read inside the SBUF), not run.
pub fn parse_case(obj: &Map<String, Value>) -> Result<InstrCase, String> {
    let inst = match obj.get("inst") {
        Some(Value::String(s)) => RawInstruction::from_hex(s).map_err(|e| format!("input: field 'inst': {e}"))?,
        Some(other) => return Err(format!("input: field 'inst' must be a string, found {other}")),
        None => return Err("input: missing field 'inst'".into()),
    };
    let empty = Map::new();
    let sbuf_obj = match obj.get("sbuf") {
        Some(Value::Object(o)) => o,
        None => &empty,
        Some(other) => return Err(format!("input: field 'sbuf' must be an object, found {other}")),
    };
    let partition_bytes = if sbuf_obj.contains_key("partition_bytes") {
        uint(sbuf_obj, "partition_bytes", "input: sbuf")?
    } else {
        DEFAULT_PARTITION_BYTES
    };
    check_partition_bytes(partition_bytes).map_err(|e| format!("input: sbuf.{e}"))?;
    let writes = match sbuf_obj.get("writes") {
        None => Vec::new(),
        Some(Value::Array(w)) => w.clone(),
        Some(other) => return Err(format!("input: sbuf.writes must be an array, found {other}")),
    };
    let reads = match obj.get("read") {
        None => Vec::new(),
        Some(Value::Array(r)) => r.clone(),
        Some(other) => return Err(format!("input: field 'read' must be an array, found {other}")),
    };
    // Check the writes and reads before touching anything.
    let mut parsed_writes = Vec::with_capacity(writes.len());
    for (i, w) in writes.iter().enumerate() {
        let what = format!("input: sbuf.writes[{i}]");
        let w = w.as_object().ok_or_else(|| format!("{what} must be an object"))?;
        let partition = uint(w, "partition", &what)?;
        let offset = uint(w, "offset", &what)?;
        let hex = w.get("hex").and_then(Value::as_str).ok_or_else(|| format!("{what} has no string 'hex'"))?;
        let bytes = hex_bytes(hex, &format!("{what}.hex"))?;
        if partition >= PARTITIONS || offset.checked_add(bytes.len()).is_none_or(|end| end > partition_bytes) {
            return Err(format!(
                "{what}: partition {partition} bytes {offset}..+{} are outside the SBUF (128 partitions of {partition_bytes} bytes)",
                bytes.len()
            ));
        }
        parsed_writes.push((partition, offset, bytes));
    }
    let mut parsed_reads = Vec::with_capacity(reads.len());
    for (i, r) in reads.iter().enumerate() {
        let what = format!("input: read[{i}]");
        let r = r.as_object().ok_or_else(|| format!("{what} must be an object"))?;
        parsed_reads.push((uint(r, "partition", &what)?, uint(r, "offset", &what)?, uint(r, "len", &what)?, what));
    }
    for (p, o, len, what) in &parsed_reads {
        if *p >= PARTITIONS || o.checked_add(*len).is_none_or(|end| end > partition_bytes) {
            return Err(format!(
                "{what}: partition {p} bytes {o}..+{len} are outside the SBUF (128 partitions of {partition_bytes} bytes)"
            ));
        }
    }
    Ok(InstrCase {
        partition_bytes,
        writes: parsed_writes,
        inst,
        reads: parsed_reads.into_iter().map(|(p, o, len, _)| (p, o, len)).collect(),
        read_stall: 0,
    })
}

fn run_case(obj: &Map<String, Value>) -> Result<Ran, String> {
    let case = parse_case(obj)?;
    let partition_bytes = case.partition_bytes;
    let valid = case.inst.validate(partition_bytes).map_err(|e| e.to_string())?;
    check_work(&valid)?;
    let mut sbuf = Sbuf::new(partition_bytes);
    for (i, (p, o, bytes)) in case.writes.iter().enumerate() {
        sbuf.write(*p, *o, bytes).map_err(|e| format!("input: sbuf.writes[{i}]: {e}"))?;
    }
    execute(&valid, &mut sbuf, SumOrder::Tree).map_err(|e| format!("input: {e}"))?;
    Ok(Ran { sbuf, reads: case.reads })
}

/// Write `bytes` as lower-case hex, a block at a time.
fn write_hex(out: &mut dyn Write, bytes: &[u8]) -> std::io::Result<()> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [0u8; 8192];
    for chunk in bytes.chunks(buf.len() / 2) {
        for (i, b) in chunk.iter().enumerate() {
            buf[2 * i] = DIGITS[(b >> 4) as usize];
            buf[2 * i + 1] = DIGITS[(b & 15) as usize];
        }
        out.write_all(&buf[..2 * chunk.len()])?;
    }
    Ok(())
}

/// Answer one input line (1-based `lineno`), without its newline.
pub fn answer_line(line: &str, lineno: usize) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = answer_line_to(line, lineno, &mut out);
    out.pop();
    String::from_utf8_lossy(&out).into_owned()
}

/// The error line of input line `lineno` that could not be read as text
/// (`why`, from [`super::read_lines`]), into `out`.
pub fn refuse_line_to(why: &str, lineno: usize, out: &mut dyn Write) -> std::io::Result<()> {
    let l = with_id(&None, format!("\"error\": {}", json_str(&format!("input: line {lineno}: {why}"))));
    writeln!(out, "{l}")
}

/// Answer one input line into `out`, with its newline. The reads are
/// hex-encoded straight from the SBUF into `out`: an answer's memory is the
/// SBUF's, however many bytes it reads.
pub fn answer_line_to(line: &str, lineno: usize, out: &mut dyn Write) -> std::io::Result<()> {
    answer_line_on(line, lineno, out, None)
}

/// [`answer_line_to`] on the RTL engine under Verilator when `rtl` is given:
/// the same answer (bit-identical reads, the same error for a reject whose
/// rule golden agrees with), plus the engine's `cycles`. A reject by a rule
/// golden does not give says both; a case golden refuses as too much work
/// is refused before the engine sees it.
pub fn answer_line_on(
    line: &str,
    lineno: usize,
    out: &mut dyn Write,
    rtl: Option<&mut dyn InstrRunner>,
) -> std::io::Result<()> {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            let msg = if line.trim().is_empty() { "empty line".to_string() } else { format!("not JSON: {e}") };
            let l = with_id(&None, format!("\"error\": {}", json_str(&format!("input: line {lineno}: {msg}"))));
            return writeln!(out, "{l}");
        }
    };
    let Value::Object(obj) = value else {
        let l = with_id(
            &None,
            format!("\"error\": {}", json_str(&format!("input: line {lineno}: expected a JSON object"))),
        );
        return writeln!(out, "{l}");
    };
    let id = raw_id(line, &obj);
    if let Some(engine) = rtl {
        let l = match rtl_answer(&obj, engine) {
            Ok(body) => with_id(&id, body),
            Err(msg) => with_id(&id, format!("\"error\": {}", json_str(&line_message(&msg, lineno)))),
        };
        return writeln!(out, "{l}");
    }
    match run_case(&obj) {
        Ok(ran) => {
            match &id {
                Some(id) => write!(out, "{{\"id\": {id}, \"read\": [")?,
                None => write!(out, "{{\"read\": [")?,
            }
            for (i, &(p, o, len)) in ran.reads.iter().enumerate() {
                out.write_all(if i == 0 { b"\"" } else { b", \"" })?;
                // In range: run_case read every one of them already.
                write_hex(out, ran.sbuf.read(p, o, len).unwrap_or_default())?;
                out.write_all(b"\"")?;
            }
            writeln!(out, "]}}")
        }
        Err(msg) => {
            // Malformed input names its line; a rejected instruction's message
            // begins with its rule.
            writeln!(out, "{}", with_id(&id, format!("\"error\": {}", json_str(&line_message(&msg, lineno)))))
        }
    }
}

/// Malformed input names its line; a rejected instruction's message
/// begins with its rule.
fn line_message(msg: &str, lineno: usize) -> String {
    match msg.strip_prefix("input: ") {
        Some(rest) => format!("input: line {lineno}: {rest}"),
        None => msg.to_string(),
    }
}

/// One case on the RTL engine: the JSON fields after the id, or the error.
fn rtl_answer(obj: &Map<String, Value>, engine: &mut dyn InstrRunner) -> Result<String, String> {
    let case = parse_case(obj)?;
    let golden = case.inst.validate(case.partition_bytes);
    if let Ok(valid) = &golden {
        check_work(valid)?;
    }
    match engine.run(&case)? {
        InstrOutcome::Done { cycles, reads } => {
            let hexes: Vec<String> = reads
                .iter()
                .map(|r| format!("\"{}\"", r.iter().map(|b| format!("{b:02x}")).collect::<String>()))
                .collect();
            Ok(format!("\"read\": [{}], \"cycles\": {cycles}", hexes.join(", ")))
        }
        InstrOutcome::Reject { rule, cycles } => {
            let name = InstrOutcome::rule_name(rule);
            let msg = match &golden {
                Err(e) if e.rule() == name => e.to_string(),
                Err(e) => format!("{name}: the engine rejects it by rule {rule}; golden by {e}"),
                Ok(_) => format!("{name}: the engine rejects it by rule {rule}; golden accepts it"),
            };
            Ok(format!("\"error\": {}, \"cycles\": {cycles}", json_str(&msg)))
        }
        InstrOutcome::Fail(why) => Err(format!("engine: {why}")),
    }
}

/// The fields of an instruction, one per line, then the verdict.
pub fn describe(raw: &RawInstruction, partition_bytes: usize) -> (String, bool) {
    let mut s = String::new();
    let opcode = Opcode::from_code(raw.opcode).map_or("(unknown)", Opcode::name);
    s.push_str(&format!("opcode: {:#04x} {opcode}\n", raw.opcode));
    s.push_str(&format!("header: {}\n", raw.header.iter().map(|b| format!("{b:02x}")).collect::<String>()));
    s.push_str(&format!("events: {}\n", raw.events.iter().map(|b| format!("{b:02x}")).collect::<String>()));
    let tensor = |name: &str, t: &Tensor4d| {
        format!(
            "{name}.start_addr: {:#010x} (mode {}, partition {}, offset {})\n{name}.step_elem: {:?}\n{name}.num_elem: {:?}\n",
            t.start_addr,
            if t.mode() == 0 && !t.bit28() { "immediate".to_string() } else { format!("{:03b}{}", t.mode(), if t.bit28() { " bit28" } else { "" }) },
            t.partition(),
            t.offset(),
            t.step_elem,
            t.num_elem
        )
    };
    s.push_str(&tensor("src", &raw.src));
    let dtype = |c: u8| Dtype::from_code(c).map_or("(invalid)".to_string(), |d| d.name().to_string());
    s.push_str(&format!("in_dtype: {:#04x} {}\n", raw.in_dtype, dtype(raw.in_dtype)));
    s.push_str(&format!("out_dtype: {:#04x} {}\n", raw.out_dtype, dtype(raw.out_dtype)));
    s.push_str(&format!("num_active_channels: {}\n", raw.num_active_channels));
    s.push_str(&format!(
        "reduce_op: {} {}\n",
        raw.reduce_op,
        ReduceOp::from_code(raw.reduce_op).map_or("(unknown)", ReduceOp::name)
    ));
    s.push_str(&format!(
        "reduce_axis: {} {}\n",
        raw.reduce_axis,
        ReduceAxis::from_code(raw.reduce_axis).map_or("(unknown)", ReduceAxis::name)
    ));
    s.push_str(&format!("reserved0: {}\n", raw.reserved0.iter().map(|b| format!("{b:02x}")).collect::<String>()));
    s.push_str(&format!("scale: {:#010x} ({:?})\n", raw.scale, f32::from_bits(raw.scale)));
    s.push_str(&tensor("dst", &raw.dst));
    match raw.validate(partition_bytes) {
        Ok(_) => {
            s.push_str("valid\n");
            (s, true)
        }
        Err(e) => {
            s.push_str(&format!("rejected: {e}\n"));
            (s, false)
        }
    }
}

fn code_or_name<T>(
    v: Option<&Value>,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    code: impl Fn(T) -> u8,
) -> Result<Option<u8>, String> {
    match v {
        None => Ok(None),
        Some(Value::Number(n)) => {
            n.as_u64().and_then(|x| u8::try_from(x).ok()).map(Some).ok_or_else(|| format!("'{key}' {n} is not a byte"))
        }
        Some(Value::String(s)) => {
            parse(s).map(|t| Some(code(t))).ok_or_else(|| format!("'{key}' '{s}' is not a known name"))
        }
        Some(other) => Err(format!("'{key}' must be a name or a number, found {other}")),
    }
}

fn fixed_hex<const N: usize>(v: Option<&Value>, key: &str) -> Result<[u8; N], String> {
    match v {
        None => Ok([0; N]),
        Some(Value::String(s)) => {
            let b = hex_bytes(s, key)?;
            b.try_into().map_err(|_| format!("'{key}' must be {} hex digits", 2 * N))
        }
        Some(other) => Err(format!("'{key}' must be a hex string, found {other}")),
    }
}

fn tensor_from(v: Option<&Value>, key: &str) -> Result<Tensor4d, String> {
    let mut t = Tensor4d { start_addr: 0, step_elem: [1; 4], num_elem: [1; 4] };
    let Some(v) = v else { return Ok(t) };
    let o = v.as_object().ok_or_else(|| format!("'{key}' must be an object"))?;
    // decode's names (start_addr, step_elem, num_elem) and the short ones.
    const KNOWN: [&str; 7] = ["start_addr", "partition", "offset", "step", "step_elem", "num", "num_elem"];
    if let Some(k) = o.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!("unknown field '{key}.{k}' (fields: {})", KNOWN.join(", ")));
    }
    for (a, b) in [("start_addr", "partition"), ("start_addr", "offset"), ("step", "step_elem"), ("num", "num_elem")] {
        if o.contains_key(a) && o.contains_key(b) {
            return Err(format!("'{key}' gives both '{a}' and '{b}': give one"));
        }
    }
    if let Some(a) = o.get("start_addr") {
        t.start_addr = a
            .as_u64()
            .and_then(|x| u32::try_from(x).ok())
            .ok_or_else(|| format!("'{key}.start_addr' must be a 32-bit number"))?;
    } else {
        let partition = if o.contains_key("partition") { uint(o, "partition", key)? } else { 0 };
        let offset = if o.contains_key("offset") { uint(o, "offset", key)? } else { 0 };
        if partition >= PARTITIONS || offset >= 1 << 21 {
            return Err(format!("'{key}' partition {partition} / offset {offset} do not fit an immediate address"));
        }
        t.start_addr = Tensor4d::immediate(partition, offset);
    }
    let given = |a: &'static str, b: &'static str| o.get(a).map(|v| (a, v)).or_else(|| o.get(b).map(|v| (b, v)));
    if let Some((name, s)) = given("step", "step_elem") {
        let a = s.as_array().filter(|a| a.len() == 4).ok_or_else(|| format!("'{key}.{name}' must be 4 numbers"))?;
        for (d, x) in a.iter().enumerate() {
            t.step_elem[d] = x
                .as_i64()
                .and_then(|x| i16::try_from(x).ok())
                .ok_or_else(|| format!("'{key}.{name}[{d}]' must be an int16"))?;
        }
    }
    if let Some((name, n)) = given("num", "num_elem") {
        let a = n.as_array().filter(|a| a.len() == 4).ok_or_else(|| format!("'{key}.{name}' must be 4 numbers"))?;
        for (d, x) in a.iter().enumerate() {
            t.num_elem[d] = x
                .as_u64()
                .and_then(|x| u16::try_from(x).ok())
                .ok_or_else(|| format!("'{key}.{name}[{d}]' must be a uint16"))?;
        }
    }
    Ok(t)
}

/// Build an instruction from named fields (JSON). Missing fields take
/// defaults: ARITH, FP32 in and out, 1 channel, ADD, All, scale 1.0, and
/// tensors at partition 0 offset 0 with steps and counts of 1.
pub fn encode_json(text: &str) -> Result<RawInstruction, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let o = v.as_object().ok_or("expected a JSON object")?;
    let known = [
        "opcode",
        "header",
        "events",
        "src",
        "in_dtype",
        "out_dtype",
        "num_active_channels",
        "reduce_op",
        "reduce_axis",
        "reserved0",
        "scale",
        "dst",
    ];
    if let Some(k) = o.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!("unknown field '{k}' (fields: {})", known.join(", ")));
    }
    let opcode = code_or_name(
        o.get("opcode"),
        "opcode",
        |s| match s.to_ascii_uppercase().as_str() {
            "ARITH" | "CROSS_LANE_REDUCE_ARITH" => Some(Opcode::CrossLaneReduceArith),
            "BITVEC" | "CROSS_LANE_REDUCE_BITVEC" => Some(Opcode::CrossLaneReduceBitvec),
            _ => None,
        },
        |op| op as u8,
    )?
    .unwrap_or(0x7c);
    let dtype = |key: &str| code_or_name(o.get(key), key, Dtype::from_name, Dtype::code);
    let reduce_op = code_or_name(
        o.get("reduce_op"),
        "reduce_op",
        |s| ReduceOp::ALL.into_iter().find(|r| r.name().eq_ignore_ascii_case(s)),
        |r| r as u8,
    )?
    .unwrap_or(0);
    let reduce_axis = code_or_name(
        o.get("reduce_axis"),
        "reduce_axis",
        |s| [ReduceAxis::All, ReduceAxis::Partitions].into_iter().find(|a| a.name().eq_ignore_ascii_case(s)),
        |a| a as u8,
    )?
    .unwrap_or(0);
    let channels = match o.get("num_active_channels") {
        None => 1,
        Some(n) => n.as_u64().and_then(|x| u8::try_from(x).ok()).ok_or("'num_active_channels' must be 0..255")?,
    };
    let scale = match o.get("scale") {
        None => 1.0f32,
        Some(x) => x.as_f64().ok_or("'scale' must be a number")? as f32,
    };
    Ok(RawInstruction {
        opcode,
        header: fixed_hex::<3>(o.get("header"), "header")?,
        events: fixed_hex::<8>(o.get("events"), "events")?,
        src: tensor_from(o.get("src"), "src")?,
        in_dtype: dtype("in_dtype")?.unwrap_or(Dtype::Fp32.code()),
        out_dtype: dtype("out_dtype")?.unwrap_or(Dtype::Fp32.code()),
        num_active_channels: channels,
        reduce_op,
        reduce_axis,
        reserved0: fixed_hex::<3>(o.get("reserved0"), "reserved0")?,
        scale: scale.to_bits(),
        dst: tensor_from(o.get("dst"), "dst")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_lines_name_the_line() {
        assert_eq!(
            answer_line("{", 3),
            r#"{"error": "input: line 3: not JSON: EOF while parsing an object at line 1 column 1"}"#
        );
        assert_eq!(answer_line(r#"{"id": 4}"#, 4), r#"{"id": 4, "error": "input: line 4: missing field 'inst'"}"#);
        assert_eq!(
            answer_line(r#"{"id": 5, "inst": "zz"}"#, 5),
            r#"{"id": 5, "error": "input: line 5: field 'inst': expected 128 hex digits, found 2"}"#
        );
    }

    #[test]
    fn encode_builds_what_decode_shows() {
        let raw = encode_json(
            r#"{"opcode": "BITVEC", "in_dtype": "UINT16", "out_dtype": "INT16", "num_active_channels": 8,
                "reduce_op": "BITWISE_XOR", "reduce_axis": "Partitions", "scale": 0.5,
                "src": {"partition": 3, "offset": 64, "step": [-1, 3, 9, 9], "num": [3, 3, 1, 1]},
                "dst": {"partition": 7, "offset": 128, "step": [1, 3, 9, 9], "num": [3, 3, 1, 1]},
                "events": "0102030405060708"}"#,
        )
        .unwrap();
        assert_eq!(raw.opcode, 0x7d);
        assert_eq!(raw.src.partition(), 3);
        assert_eq!(raw.src.step_elem, [-1, 3, 9, 9]);
        assert_eq!(raw.events, [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(f32::from_bits(raw.scale), 0.5);
        let (text, ok) = describe(&raw, 4096);
        assert!(ok, "{text}");
        assert!(text.contains("reduce_op: 5 BITWISE_XOR") && text.contains("src.step_elem: [-1, 3, 9, 9]"), "{text}");
        assert_eq!(RawInstruction::from_hex(&raw.to_hex()).unwrap(), raw);
        assert!(encode_json(r#"{"bogus": 1}"#).unwrap_err().starts_with("unknown field 'bogus'"));
    }

    #[test]
    fn tensor_fields_are_decodes_names_or_the_short_ones_and_nothing_else() {
        // decode's names round-trip.
        let raw =
            encode_json(r#"{"src": {"start_addr": 100663360, "num_elem": [4, 1, 1, 1], "step_elem": [2, 1, 1, 1]}}"#)
                .unwrap();
        assert_eq!((raw.src.start_addr, raw.src.num_elem, raw.src.step_elem), (100663360, [4, 1, 1, 1], [2, 1, 1, 1]));
        let (text, _) = describe(&raw, 4096);
        assert!(text.contains("src.num_elem: [4, 1, 1, 1]"), "{text}");
        // An unknown key inside a tensor is an error naming it, never ignored.
        let e = encode_json(r#"{"src": {"partition": 3, "nums": [4, 1, 1, 1]}}"#).unwrap_err();
        assert!(e.starts_with("unknown field 'src.nums'"), "{e}");
        // Two names for one field, or an address given two ways, are refused.
        for (bad, pair) in [
            (r#"{"dst": {"start_addr": 0, "partition": 1}}"#, "'start_addr' and 'partition'"),
            (r#"{"dst": {"start_addr": 0, "offset": 64}}"#, "'start_addr' and 'offset'"),
            (r#"{"src": {"num": [1, 1, 1, 1], "num_elem": [2, 1, 1, 1]}}"#, "'num' and 'num_elem'"),
            (r#"{"src": {"step": [1, 1, 1, 1], "step_elem": [2, 1, 1, 1]}}"#, "'step' and 'step_elem'"),
        ] {
            let e = encode_json(bad).unwrap_err();
            assert!(e.contains(pair), "{bad}: {e}");
        }
        assert!(encode_json(r#"{"src": {"num_elem": [1, 1]}}"#).unwrap_err().contains("'src.num_elem' must be 4"));
    }
}

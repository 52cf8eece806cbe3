//! The instruction campaign: random instructions on random SBUF images,
//! run on the RTL engine and on golden, compared region by region
//! (`crosslane verify --exec`, docs/engine.md).
//!
//! Each case is drawn from a seed and its index alone. One in four is made
//! invalid by one field or two (every rule of instruction.md §3); the
//! rest are valid: every reduce_op, in_dtype and out_dtype the rules allow,
//! both axes, strides negative, zero, unit and larger, 1 to 128 channels,
//! dst overlapping src, elements drawn from special classes (±0,
//! subnormals, ±inf, NaNs, extremes, integers beyond 2^24) or at random.

use crate::engines::instr::{InstrCase, InstrOutcome, InstrRunner};
use crosslane_golden::instruction::exec::{check_work, execute, Sbuf, SumOrder};
use crosslane_golden::instruction::{Dtype, RawInstruction, ReduceOp, Tensor4d};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The SBUF partition size of the campaign's cases.
pub const CAMPAIGN_PARTITION_BYTES: usize = 4096;

fn pick<T: Copy>(rng: &mut ChaCha8Rng, xs: &[T]) -> T {
    xs[rng.gen_range(0..xs.len())]
}

/// An element's bits of `dtype`, from a special class half the time.
fn element(rng: &mut ChaCha8Rng, dtype: Dtype) -> u64 {
    let bits = 8 * dtype.size() as u32;
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    if rng.gen_bool(0.5) {
        return rng.gen::<u64>() & mask;
    }
    let specials: &[u64] = match dtype {
        Dtype::Fp32 | Dtype::Fp32r => &[
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0xffc0_0001,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x4b80_0001,
            0xcb80_0001,
        ],
        Dtype::Fp16 => &[0, 0x8000, 1, 0x03ff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x7bff, 0xfbff, 0x3c00, 0xbc00],
        Dtype::Bfloat16 => &[0, 0x8000, 1, 0x007f, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x7f7f, 0xff7f, 0x3f80, 0xbf80],
        Dtype::Fp8Exp3 | Dtype::Fp8Exp4 | Dtype::Fp8Exp5 => {
            &[0, 0x80, 1, 0x81, 0x7f, 0xff, 0x7e, 0xfe, 0x7c, 0xfc, 0x38, 0xb8]
        }
        _ => &[0, 1, u64::MAX, u64::MAX >> 1, !(u64::MAX >> 1), 1 << 24 | 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000],
    };
    pick(rng, specials) & mask
}

fn tensor(partition: usize, offset: usize, step: [i16; 4], num: [u16; 4]) -> Tensor4d {
    Tensor4d { start_addr: Tensor4d::immediate(partition, offset), step_elem: step, num_elem: num }
}

/// A pattern of at most about `budget` elements whose span fits the
/// partition from a start near its middle.
fn pattern(rng: &mut ChaCha8Rng, budget: u64) -> ([i16; 4], [u16; 4]) {
    let mut num = [1u16; 4];
    let mut left = budget.max(1);
    for n in num.iter_mut() {
        let most = left.min(if rng.gen_bool(0.3) { 40 } else { 6 }) as u16;
        *n = rng.gen_range(1..=most.max(1));
        left /= *n as u64;
    }
    if rng.gen_bool(0.3) {
        num[0] = rng.gen_range(16..=64);
    }
    let step = std::array::from_fn(|d| match rng.gen_range(0..10) {
        0 => 0,
        1..=3 => 1,
        4 => -1,
        5 => rng.gen_range(-4..=-2),
        6 => rng.gen_range(2..=5),
        _ => (num[..d].iter().map(|&n| n as i16).product::<i16>()) * if rng.gen_bool(0.8) { 1 } else { -1 },
    });
    (step, num)
}

/// Case `index` of the campaign of `seed`.
pub fn case(seed: u64, index: u64) -> InstrCase {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let pb = CAMPAIGN_PARTITION_BYTES;
    let op = pick(&mut rng, &ReduceOp::ALL);
    let arith = op.opcode() as u8 == 0x7c;
    let ins: Vec<Dtype> = if arith {
        Dtype::ALL.into_iter().filter(|d| *d != Dtype::Invalid && *d != Dtype::Fp32r).collect()
    } else {
        vec![Dtype::Int8, Dtype::Uint8, Dtype::Int16, Dtype::Uint16, Dtype::Int32, Dtype::Uint32]
    };
    let in_dtype = pick(&mut rng, &ins);
    let out_dtype = if arith {
        pick(&mut rng, &Dtype::ALL[1..])
    } else {
        // BITVEC writes the raw bits as any dtype of the element's size,
        // floats too (the coverage model found floats never drawn here).
        pick(&mut rng, &Dtype::ALL[1..].iter().copied().filter(|d| d.size() == in_dtype.size()).collect::<Vec<_>>())
    };
    let axis = rng.gen_range(0..2u8);
    let channels = match rng.gen_range(0..6) {
        0 => 1,
        1 => rng.gen_range(2..16),
        2 => 16,
        3 => rng.gen_range(17..128),
        4 => 128,
        _ => rng.gen_range(1..8),
    };
    let p0 = rng.gen_range(0..=(128 - channels));
    let budget = (1500 / channels as u64).max(1);
    let (step, num) = pattern(&mut rng, budget);
    let size = in_dtype.size();
    let src = tensor(p0, (pb / 2) / size * size, step, num);
    let out_size = out_dtype.size();
    let (lo, hi) = src.span();
    let overlap = axis == 1 && rng.gen_bool(0.1);
    let dst = if axis == 0 {
        tensor(rng.gen_range(0..128), rng.gen_range(0..pb / out_size) * out_size, step, [1; 4])
    } else if overlap && out_size == size {
        // The dst over the src in one active partition, one element on.
        tensor(rng.gen_range(p0..p0 + channels), src.offset() + size, step, num)
    } else {
        // The same shape somewhere clear of the middle, in some partition.
        let dstep: [i16; 4] = if rng.gen_bool(0.5) {
            step
        } else {
            std::array::from_fn(|d| num[..d].iter().map(|&n| n as i16).product())
        };
        let t = tensor(0, 0, dstep, num);
        let (dlo, dhi) = t.span();
        let room = (pb as i64 / out_size as i64) - (dhi - dlo + 1);
        let at = if room > 0 { rng.gen_range(0..room) - dlo } else { -dlo };
        tensor(rng.gen_range(0..128), (at.max(0) as usize) * out_size, dstep, num)
    };
    let _ = (lo, hi);
    let mut raw = RawInstruction {
        opcode: op.opcode() as u8,
        header: rng.gen(),
        events: rng.gen(),
        src,
        in_dtype: in_dtype.code(),
        out_dtype: out_dtype.code(),
        num_active_channels: channels as u8,
        reduce_op: op as u8,
        reduce_axis: axis,
        reserved0: [0; 3],
        scale: pick(&mut rng, &[1f32, 0.5, -2.0, 1.0 / 3.0, 0.0, f32::INFINITY, f32::NAN, 1e-40, 3e38]).to_bits(),
        dst,
    };
    // One case in four invalid: one field, or two (the rules' order decides).
    if rng.gen_range(0..4) == 0 {
        spoil(&mut rng, &mut raw);
        if rng.gen_bool(0.5) {
            spoil(&mut rng, &mut raw);
        }
    }
    // The SBUF: the src's bytes in every active partition, elements drawn
    // from their classes; the dst's partition at random around the dst.
    let mut writes = Vec::new();
    if let Ok(valid) = raw.validate(pb) {
        let _ = valid;
        let (lo, hi) = raw.src.span();
        let first = (raw.src.offset() as i64 + lo * size as i64).max(0) as usize;
        let end = ((raw.src.offset() as i64 + (hi + 1) * size as i64) as usize).min(pb);
        for p in p0..p0 + channels {
            let mut bytes = vec![0u8; end - first];
            for (i, chunk) in bytes.chunks_mut(size).enumerate() {
                let _ = i;
                let v = element(&mut rng, in_dtype).to_le_bytes();
                chunk.copy_from_slice(&v[..chunk.len()]);
            }
            writes.push((p, first, bytes));
        }
    }
    let dp = raw.dst.partition();
    let mut junk = vec![0u8; 256];
    rng.fill(&mut junk[..]);
    let j = rng.gen_range(0..pb - 256);
    writes.push((dp, j, junk));
    // Read the dst's whole partition and one active src partition.
    let reads = vec![(dp, 0, pb), (p0, 0, pb)];
    // Three cases in seven with the read port stalling (D62).
    let read_stall = pick(&mut rng, &[0, 0, 0, 0, 10, 25, 50]);
    InstrCase { partition_bytes: pb, writes, inst: raw, reads, read_stall }
}

/// Make one field invalid, each rule of §3 in turn.
fn spoil(rng: &mut ChaCha8Rng, raw: &mut RawInstruction) {
    match rng.gen_range(0..13) {
        0 => raw.opcode = pick(rng, &[0, 0x7b, 0x7e, 0xff]),
        1 => raw.reserved0[rng.gen_range(0..3)] = rng.gen_range(1..=255),
        2 => raw.in_dtype = pick(rng, &[0, 0xb, 0x10 | raw.in_dtype]),
        3 => raw.out_dtype = pick(rng, &[0, 0x20 | raw.out_dtype]),
        4 => raw.reduce_op = pick(rng, &[6, 255, if raw.opcode == 0x7c { 3 } else { 0 }]),
        5 => raw.reduce_axis = rng.gen_range(2..=255),
        6 => {
            raw.num_active_channels = pick(rng, &[0, 129, 255]);
        }
        7 => raw.src.start_addr |= pick(rng, &[1u32 << 28, 1 << 29, 1 << 31]),
        8 => raw.dst.start_addr |= pick(rng, &[1u32 << 28, 1 << 30]),
        9 => match rng.gen_range(0..3) {
            0 => raw.src.num_elem[rng.gen_range(0..4)] = 0,
            1 => raw.src.start_addr += 1,
            _ => raw.src.step_elem[rng.gen_range(0..4)] = pick(rng, &[i16::MAX, i16::MIN]),
        },
        10 => match rng.gen_range(0..3) {
            0 => raw.dst.num_elem[rng.gen_range(0..4)] = 0,
            1 => raw.dst.start_addr += 1,
            _ => raw.dst.start_addr = raw.dst.start_addr & !0x1f_ffff | 0x1f_fff0,
        },
        11 => raw.dst.num_elem[3] = raw.dst.num_elem[3].saturating_add(1),
        _ => {
            raw.opcode = 0x7d;
            raw.reduce_op = 3;
            raw.in_dtype = pick(rng, &[0x1, 0xa, 0x6, 0xc]);
        }
    }
}

/// Golden's answer to a case: `Ok(the regions)` or `Err(rule number)`;
/// `None` for a case beyond golden's work limit.
pub fn golden(case: &InstrCase) -> Option<Result<Vec<Vec<u8>>, u8>> {
    let valid = match case.inst.validate(case.partition_bytes) {
        Ok(v) => v,
        Err(e) => return Some(Err(e.code())),
    };
    check_work(&valid).ok()?;
    let mut sbuf = loaded_sbuf(case)?;
    execute(&valid, &mut sbuf, SumOrder::Tree).ok()?;
    Some(Ok(case.reads.iter().map(|&(p, o, len)| sbuf.read(p, o, len).unwrap_or_default().to_vec()).collect()))
}

/// The case's SBUF before its instruction: None when a write is outside it.
fn loaded_sbuf(case: &InstrCase) -> Option<Sbuf> {
    let mut sbuf = Sbuf::new(case.partition_bytes);
    for (p, o, bytes) in &case.writes {
        sbuf.write(*p, *o, bytes).ok()?;
    }
    Some(sbuf)
}

/// Sample the coverage model on `case` (golden's view of it: its
/// instruction on its SBUF).
pub fn sample(coverage: &mut crosslane_golden::coverage::Coverage, case: &InstrCase) {
    if let Some(mut sbuf) = loaded_sbuf(case) {
        coverage.sample_instruction(&case.inst, &mut sbuf);
    }
}

/// A case's result on the engine against golden's.
pub enum Verdict {
    Match { accepted: bool, cycles: u64 },
    Mismatch(String),
}

/// Run `case` on the engine and compare.
pub fn check(engine: &mut dyn InstrRunner, case: &InstrCase) -> Result<Verdict, String> {
    let want = golden(case).ok_or("the case is beyond golden's limits")?;
    let got = engine.run(case)?;
    Ok(match (&want, &got) {
        (Ok(w), InstrOutcome::Done { cycles, reads }) if w == reads => {
            Verdict::Match { accepted: true, cycles: *cycles }
        }
        (Err(w), InstrOutcome::Reject { rule, cycles }) if w == rule => {
            Verdict::Match { accepted: false, cycles: *cycles }
        }
        (Ok(w), InstrOutcome::Done { reads, .. }) => {
            let (r, at) = w
                .iter()
                .zip(reads)
                .enumerate()
                .find_map(|(r, (a, b))| a.iter().zip(b).position(|(x, y)| x != y).map(|at| (r, at)))
                .unwrap_or((0, 0));
            Verdict::Mismatch(format!(
                "region {r} ({:?}) differs first at byte {at}: golden {:02x}, engine {:02x}",
                case.reads[r],
                w[r].get(at).copied().unwrap_or(0),
                reads[r].get(at).copied().unwrap_or(0)
            ))
        }
        (Ok(_), other) => Verdict::Mismatch(format!("golden accepts it; the engine: {other:?}")),
        (Err(w), other) => Verdict::Mismatch(format!(
            "golden rejects it by rule {w} ({}); the engine: {other:?}",
            InstrOutcome::rule_name(*w)
        )),
    })
}

/// How to replay a case: `crosslane exec` with its stall, on its line ([`exec_line`]).
pub fn replay(engine: &str, case: &InstrCase) -> String {
    let stall = if case.read_stall > 0 { format!(" --read-stall {}", case.read_stall) } else { String::new() };
    format!("crosslane exec --engine {engine}{stall} <<< '{}'", exec_line(case))
}

/// A case as an `exec` input line, to replay it.
pub fn exec_line(case: &InstrCase) -> String {
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let writes: Vec<String> = case
        .writes
        .iter()
        .map(|(p, o, b)| format!("{{\"partition\": {p}, \"offset\": {o}, \"hex\": \"{}\"}}", hex(b)))
        .collect();
    let reads: Vec<String> =
        case.reads.iter().map(|(p, o, l)| format!("{{\"partition\": {p}, \"offset\": {o}, \"len\": {l}}}")).collect();
    format!(
        "{{\"inst\": \"{}\", \"sbuf\": {{\"partition_bytes\": {}, \"writes\": [{}]}}, \"read\": [{}]}}",
        case.inst.to_hex(),
        case.partition_bytes,
        writes.join(", "),
        reads.join(", ")
    )
}

/// The format tag of an instruction campaign's JSON report.
pub const EXEC_REPORT_FORMAT: &str = "crosslane-exec-report-2";

/// The instruction campaign of `./dev verify` (and `crosslane coverage`).
pub const DEFAULT_INSTRUCTIONS: u64 = 100_000;

/// The engines of the instruction campaign, in its order: the 16-lane
/// engine under Verilator, Icarus and rust-hdl, the 8-lane one under
/// Verilator (D66).
pub const EXEC_ENGINES: [&str; 4] = ["verilator", "icarus", "hdl", "verilator-lanes8"];

/// What one engine did in (a shard of) the campaign.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineTally {
    pub engine: String,
    pub accepted: u64,
    pub rejected: u64,
    pub mismatches: u64,
    pub clocks: u64,
}

impl EngineTally {
    pub fn instructions(&self) -> u64 {
        self.accepted + self.rejected + self.mismatches
    }
}

/// The report of an instruction campaign or of some of its shards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecReport {
    pub seed: u64,
    /// The instructions asked of each engine ([`EXEC_ENGINES`]).
    pub counts: [u64; 4],
    pub shard_count: usize,
    pub shards: Vec<usize>,
    pub engines: Vec<EngineTally>,
    /// The coverage model over the instructions the Verilator engine ran
    /// (all of the campaign's; crosslane_golden::coverage).
    pub coverage: crosslane_golden::coverage::Coverage,
}

impl ExecReport {
    pub fn mismatches(&self) -> u64 {
        self.engines.iter().map(|e| e.mismatches).sum()
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "format": EXEC_REPORT_FORMAT,
            "seed": self.seed,
            "counts": EXEC_ENGINES.iter().zip(self.counts).map(|(e, n)| ((*e).to_string(), serde_json::json!(n))).collect::<serde_json::Map<_, _>>(),
            "shard_count": self.shard_count,
            "shards": self.shards,
            "engines": self.engines.iter().map(|e| serde_json::json!({
                "engine": e.engine, "accepted": e.accepted, "rejected": e.rejected,
                "mismatches": e.mismatches, "clocks": e.clocks,
            })).collect::<Vec<_>>(),
            "coverage": crate::coverage::to_json(&self.coverage),
        })
    }

    /// A line an engine: what it checked.
    pub fn render(&self) -> String {
        self.engines
            .iter()
            .map(|e| {
                format!(
                    "instructions: {} on {} against golden (seed {}): {} accepted, {} rejected, {} mismatches; {} clocks\n",
                    e.instructions(),
                    e.engine,
                    self.seed,
                    e.accepted,
                    e.rejected,
                    e.mismatches,
                    e.clocks
                )
            })
            .collect()
    }
}

/// Is `text` an instruction campaign's report (rather than the unit's)?
pub fn is_exec_report(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .is_some_and(|v| v.get("format").and_then(|f| f.as_str()) == Some(EXEC_REPORT_FORMAT))
}

/// Read a report `verify --exec --json` wrote; `what` names it in errors.
pub fn parse_exec_report(text: &str, what: &str) -> Result<ExecReport, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))?;
    if v.get("format").and_then(|f| f.as_str()) != Some(EXEC_REPORT_FORMAT) {
        return Err(format!("{what}: not an instruction campaign's report (no \"format\": \"{EXEC_REPORT_FORMAT}\")"));
    }
    let num = |v: &serde_json::Value, key: &str, w: &str| -> Result<u64, String> {
        v.get(key).and_then(|x| x.as_u64()).ok_or_else(|| format!("{w}: '{key}' is missing or not a whole number"))
    };
    let seed = num(&v, "seed", what)?;
    let c = v.get("counts").ok_or_else(|| format!("{what}: 'counts' is missing"))?;
    let counts = [
        num(c, EXEC_ENGINES[0], what)?,
        num(c, EXEC_ENGINES[1], what)?,
        num(c, EXEC_ENGINES[2], what)?,
        num(c, EXEC_ENGINES[3], what)?,
    ];
    let shard_count =
        usize::try_from(num(&v, "shard_count", what)?).map_err(|_| format!("{what}: 'shard_count' too large"))?;
    let listed = v.get("shards").and_then(|s| s.as_array()).ok_or_else(|| format!("{what}: 'shards' is not a list"))?;
    let shards: Vec<usize> = listed.iter().filter_map(|x| x.as_u64().and_then(|x| usize::try_from(x).ok())).collect();
    if shard_count == 0
        || shards.is_empty()
        || shards.len() != listed.len()
        || shards.iter().any(|&i| i == 0 || i > shard_count)
    {
        return Err(format!("{what}: 'shards' must list shards between 1 and 'shard_count' ({shard_count})"));
    }
    let mut engines = Vec::new();
    for (k, e) in v
        .get("engines")
        .and_then(|e| e.as_array())
        .ok_or_else(|| format!("{what}: 'engines' is not a list"))?
        .iter()
        .enumerate()
    {
        let w = format!("{what}: engine {k}");
        let engine = e.get("engine").and_then(|n| n.as_str()).ok_or_else(|| format!("{w}: 'engine' is not a name"))?;
        if !EXEC_ENGINES.contains(&engine) {
            return Err(format!("{w}: no instruction engine '{engine}'"));
        }
        let t = EngineTally {
            engine: engine.to_string(),
            accepted: num(e, "accepted", &w)?,
            rejected: num(e, "rejected", &w)?,
            mismatches: num(e, "mismatches", &w)?,
            clocks: num(e, "clocks", &w)?,
        };
        if t.accepted.checked_add(t.rejected).and_then(|x| x.checked_add(t.mismatches)).is_none() {
            return Err(format!("{w}: its counts add up past any true campaign"));
        }
        engines.push(t);
    }
    let coverage = crate::coverage::from_json(
        v.get("coverage").ok_or_else(|| format!("{what}: 'coverage' is missing"))?,
        &format!("{what}: coverage"),
    )?;
    Ok(ExecReport { seed, counts, shard_count, shards, engines, coverage })
}

/// Combine the reports of one instruction campaign's shards: every shard
/// exactly once, all of one campaign (seed, counts, shard count).
pub fn merge_exec(parts: Vec<(String, ExecReport)>) -> Result<ExecReport, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no reports given".into());
    };
    let (seed, counts, count) = (first.seed, first.counts, first.shard_count);
    for (name, p) in &parts {
        if (p.seed, p.counts, p.shard_count) != (seed, counts, count) {
            return Err(format!(
                "{name} is of another campaign than {first_name} (seed {} vs {seed}, counts {:?} vs {counts:?}, {} vs {count} shards)",
                p.seed, p.counts, p.shard_count
            ));
        }
    }
    crate::tools::every_shard_once(parts.iter().map(|(name, p)| (name.as_str(), p.shards.as_slice())), count)?;
    let mut engines: Vec<EngineTally> = Vec::new();
    let mut coverage = crosslane_golden::coverage::Coverage::new();
    for (_, p) in parts {
        coverage.merge(&p.coverage);
        for t in p.engines {
            let slot = match engines.iter_mut().find(|e| e.engine == t.engine) {
                Some(s) => s,
                None => {
                    engines.push(EngineTally { engine: t.engine.clone(), ..EngineTally::default() });
                    engines.last_mut().expect("just pushed")
                }
            };
            let sum = |a: u64, b: u64| a.checked_add(b).ok_or("the shards' counts add up past any true campaign");
            slot.accepted = sum(slot.accepted, t.accepted)?;
            slot.rejected = sum(slot.rejected, t.rejected)?;
            slot.mismatches = sum(slot.mismatches, t.mismatches)?;
            slot.clocks = sum(slot.clocks, t.clocks)?;
        }
    }
    Ok(ExecReport { seed, counts, shard_count: count, shards: (1..=count).collect(), engines, coverage })
}

#[cfg(test)]
mod report_tests {
    use super::*;

    fn shard(i: usize, n: usize, accepted: u64) -> ExecReport {
        ExecReport {
            seed: 7,
            counts: [100, 10, 5, 7],
            shard_count: n,
            shards: vec![i],
            engines: vec![EngineTally { engine: "verilator".into(), accepted, rejected: 2, mismatches: 0, clocks: 90 }],
            coverage: crosslane_golden::coverage::Coverage::new(),
        }
    }

    #[test]
    fn reports_round_trip_and_shards_merge_once_each() {
        let a = shard(1, 2, 30);
        let text = a.to_json().to_string();
        assert!(is_exec_report(&text));
        assert_eq!(parse_exec_report(&text, "a").unwrap(), a);
        let merged = merge_exec(vec![("a".into(), a.clone()), ("b".into(), shard(2, 2, 20))]).unwrap();
        assert_eq!(merged.engines[0].accepted, 50);
        assert_eq!(merged.engines[0].instructions(), 54);
        assert_eq!(merged.shards, vec![1, 2]);
        let twice = merge_exec(vec![("a".into(), a.clone()), ("b".into(), a.clone())]).unwrap_err();
        assert!(twice.contains("shard 1/2 is in both a and b"), "{twice}");
        let missing = merge_exec(vec![("a".into(), a.clone())]).unwrap_err();
        assert!(missing.contains("shards missing: 2/2"), "{missing}");
        let mut other = shard(2, 2, 1);
        other.seed = 8;
        assert!(merge_exec(vec![("a".into(), a), ("b".into(), other)]).unwrap_err().contains("another campaign"));
    }

    #[test]
    fn bad_reports_are_refused_by_name() {
        assert!(parse_exec_report("{", "r").unwrap_err().starts_with("r: not JSON"));
        assert!(parse_exec_report("{\"format\": \"crosslane-verify-report-1\"}", "r")
            .unwrap_err()
            .contains("not an instruction campaign's report"));
        let mut v = shard(1, 2, 3).to_json();
        v["shards"] = serde_json::json!([3]);
        assert!(parse_exec_report(&v.to_string(), "r").unwrap_err().contains("'shards' must list"));
        let mut v = shard(1, 2, 3).to_json();
        v["engines"][0]["engine"] = serde_json::json!("quartus");
        assert!(parse_exec_report(&v.to_string(), "r").unwrap_err().contains("no instruction engine 'quartus'"));
        let mut v = shard(1, 2, 3).to_json();
        v["engines"][0]["accepted"] = serde_json::json!(u64::MAX);
        v["engines"][0]["rejected"] = serde_json::json!(u64::MAX);
        assert!(parse_exec_report(&v.to_string(), "r").unwrap_err().contains("past any true campaign"));
    }
}

//! `crosslane bench --exec`: the engine's throughput by access pattern and
//! dtype, in clocks counted by the harness (deterministic: the same on
//! every simulator) and, beside them, the simulator's wall-clock rate.

use crate::engines::instr::{InstrCase, InstrOutcome, InstrRunner};
use crate::exec_campaign::golden;
use crosslane_golden::instruction::{Dtype, RawInstruction, ReduceOp, Tensor4d};
use std::time::Instant;

/// The partition size of the bench's cases.
const PB: usize = 65536;
/// Where the dst starts (the src stays below it).
const DST: usize = PB / 2;

/// An access pattern: its name and the instruction's shape for a dtype of
/// `size` bytes: (axis, channels, src step, src num).
pub struct Pattern {
    pub name: &'static str,
    pub axis: u8,
    pub channels: usize,
    pub step: [i16; 4],
    pub num: [u16; 4],
}

/// The patterns measured: the long unit-stride run, the same over several
/// partitions, axis Partitions over 16 and 128 partitions, strided,
/// negative and 4-D walks.
pub const PATTERNS: [Pattern; 7] = [
    Pattern { name: "All, unit stride, 1 × 4096", axis: 0, channels: 1, step: [1, 0, 0, 0], num: [4096, 1, 1, 1] },
    Pattern { name: "All, unit stride, 16 × 256", axis: 0, channels: 16, step: [1, 0, 0, 0], num: [256, 1, 1, 1] },
    Pattern { name: "All, stride 3, 1 × 1024", axis: 0, channels: 1, step: [3, 0, 0, 0], num: [1024, 1, 1, 1] },
    Pattern { name: "All, stride −1, 1 × 1024", axis: 0, channels: 1, step: [-1, 0, 0, 0], num: [1024, 1, 1, 1] },
    Pattern {
        name: "All, 4-D 8×8×4×4, 2 partitions", axis: 0, channels: 2, step: [1, 8, 64, 256], num: [8, 8, 4, 4]
    },
    Pattern { name: "Partitions, 16 × 256", axis: 1, channels: 16, step: [1, 0, 0, 0], num: [256, 1, 1, 1] },
    Pattern { name: "Partitions, 128 × 32", axis: 1, channels: 128, step: [1, 0, 0, 0], num: [32, 1, 1, 1] },
];

/// The (reduce_op, in dtype, out dtype) rows of the table.
pub const KINDS: [(ReduceOp, Dtype, Dtype); 5] = [
    (ReduceOp::Add, Dtype::Fp32, Dtype::Fp32),
    (ReduceOp::Average, Dtype::Bfloat16, Dtype::Fp32),
    (ReduceOp::Max, Dtype::Fp16, Dtype::Fp16),
    (ReduceOp::Add, Dtype::Int8, Dtype::Int32),
    (ReduceOp::BitwiseXor, Dtype::Uint32, Dtype::Uint32),
];

fn dtype_name(d: Dtype) -> String {
    format!("{d:?}").to_lowercase()
}

/// The case of `pattern` and `kind`: the src from partition 0 over its
/// channels, elements a simple ramp, the dst in partition 127 clear of it.
pub fn bench_case(pattern: &Pattern, kind: (ReduceOp, Dtype, Dtype)) -> InstrCase {
    let (op, in_dtype, out_dtype) = kind;
    let size = in_dtype.size();
    let elements: u64 = pattern.num.iter().map(|&n| n as u64).product();
    let span_lo: i64 = (0..4).map(|d| (pattern.step[d] as i64 * (pattern.num[d] as i64 - 1)).min(0)).sum();
    let offset = (-span_lo as usize) * size;
    let src = Tensor4d { start_addr: Tensor4d::immediate(0, offset), step_elem: pattern.step, num_elem: pattern.num };
    // The dst in partition 127 at the partition's middle, clear of the src.
    let dst = if pattern.axis == 0 {
        Tensor4d { start_addr: Tensor4d::immediate(127, DST), step_elem: [1, 0, 0, 0], num_elem: [1; 4] }
    } else {
        Tensor4d {
            start_addr: Tensor4d::immediate(127, DST),
            step_elem: [1, 0, 0, 0],
            num_elem: [elements as u16, 1, 1, 1],
        }
    };
    let inst = RawInstruction {
        opcode: op.opcode() as u8,
        header: [0; 3],
        events: [0; 8],
        src,
        in_dtype: in_dtype.code(),
        out_dtype: out_dtype.code(),
        num_active_channels: pattern.channels as u8,
        reduce_op: op as u8,
        reduce_axis: pattern.axis,
        reserved0: [0; 3],
        scale: 0.25f32.to_bits(),
        dst,
    };
    let (lo, hi) = src.span();
    let first = (offset as i64 + lo * size as i64) as usize;
    let end = (offset as i64 + (hi + 1) * size as i64) as usize;
    let writes = (0..pattern.channels)
        .map(|p| (p, first, (first..end).map(|b| (b * 7 + p * 13) as u8 & 0x3f).collect()))
        .collect();
    let out = if pattern.axis == 0 { out_dtype.size() } else { elements as usize * out_dtype.size() };
    InstrCase { partition_bytes: PB, writes, inst, reads: vec![(127, DST, out)], read_stall: 0 }
}

/// One row of the table.
pub struct BenchRow {
    pub pattern: &'static str,
    pub kind: String,
    pub elements: u64,
    pub cycles: u64,
    pub seconds: f64,
}

impl BenchRow {
    pub fn per_clock(&self) -> f64 {
        self.elements as f64 / self.cycles as f64
    }
}

/// Run every pattern × kind on `engine`, each checked against golden (a
/// mismatch is an error: a throughput of wrong answers is no figure).
pub fn run(engine: &mut dyn InstrRunner) -> Result<Vec<BenchRow>, String> {
    let mut rows = Vec::new();
    for pattern in &PATTERNS {
        for kind in KINDS {
            let case = bench_case(pattern, kind);
            let want = golden(&case).ok_or("a bench case is beyond golden's limits")?;
            let start = Instant::now();
            let got = engine.run(&case)?;
            let seconds = start.elapsed().as_secs_f64();
            let name =
                format!("{} {} → {}", format!("{:?}", kind.0).to_uppercase(), dtype_name(kind.1), dtype_name(kind.2));
            let cycles = match (&want, got) {
                (Ok(w), InstrOutcome::Done { cycles, reads }) if *w == reads => cycles,
                (want, got) => {
                    return Err(format!(
                        "bench case {} / {name}: golden {want:?}, {}: {got:?}",
                        pattern.name,
                        engine.name()
                    ))
                }
            };
            let elements = pattern.num.iter().map(|&n| n as u64).product::<u64>() * pattern.channels as u64;
            rows.push(BenchRow { pattern: pattern.name, kind: name, elements, cycles, seconds });
        }
    }
    Ok(rows)
}

/// The table of clocks (deterministic): what docs/engine.md carries.
pub fn markdown(rows: &[BenchRow]) -> String {
    let mut text =
        String::from("| pattern | op, in → out | elements | clocks | elements / clock |\n|---|---|---:|---:|---:|\n");
    for r in rows {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {:.3} |\n",
            r.pattern,
            r.kind,
            r.elements,
            r.cycles,
            r.per_clock()
        ));
    }
    text
}

/// The markers around the table in a page.
pub const BEGIN: &str = "<!-- bench --exec: begin (written by `crosslane bench --exec --exec-docs docs/engine.md`) -->";
pub const END: &str = "<!-- bench --exec: end -->";

/// `page` with the table between its markers replaced by `table`.
pub fn write_into(page: &str, table: &str) -> Result<String, String> {
    let a = page.find(BEGIN).ok_or_else(|| format!("no '{BEGIN}' marker"))?;
    let b = page[a..].find(END).map(|b| a + b).ok_or_else(|| format!("no '{END}' marker after the begin marker"))?;
    Ok(format!("{}{BEGIN}\n{table}{}", &page[..a], &page[b..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_goes_between_the_markers_and_nowhere_else() {
        let page = format!("intro\n{BEGIN}\nold\n{END}\nafter\n");
        assert_eq!(write_into(&page, "| new |\n").unwrap(), format!("intro\n{BEGIN}\n| new |\n{END}\nafter\n"));
        assert!(write_into("no markers", "x").unwrap_err().contains("no '<!-- bench --exec: begin"));
        assert!(write_into(&format!("{BEGIN}\n"), "x").unwrap_err().contains("end"));
    }

    #[test]
    fn every_bench_case_is_valid_and_golden_runs_it() {
        for p in &PATTERNS {
            for k in KINDS {
                let c = bench_case(p, k);
                assert!(
                    matches!(golden(&c), Some(Ok(_))),
                    "{} {:?}: {:?}",
                    p.name,
                    k,
                    c.inst.validate(c.partition_bytes)
                );
            }
        }
    }
}

//! `exec` of an All-axis ADD over 128 partitions × 16 KiB of fp32 (524,288
//! elements), tree sum order; throughput in elements.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use crosslane_golden::instruction::exec::{execute, Sbuf, SumOrder};
use crosslane_golden::instruction::{Dtype, RawInstruction, ReduceAxis, ReduceOp, Tensor4d};

fn bench(c: &mut Criterion) {
    const PB: usize = 32 * 1024;
    let n = 16 * 1024 / 4; // fp32 per partition
    let raw = RawInstruction {
        opcode: 0x7c,
        header: [0; 3],
        events: [0; 8],
        // 4096 elements as 64 × 64 (dimension 1 strides over rows).
        src: Tensor4d { start_addr: Tensor4d::immediate(0, 0), step_elem: [1, 64, 0, 0], num_elem: [64, 64, 1, 1] },
        in_dtype: Dtype::Fp32.code(),
        out_dtype: Dtype::Fp32.code(),
        num_active_channels: 128,
        reduce_op: ReduceOp::Add as u8,
        reduce_axis: ReduceAxis::All as u8,
        reserved0: [0; 3],
        scale: 1f32.to_bits(),
        dst: Tensor4d { start_addr: Tensor4d::immediate(0, 16 * 1024), step_elem: [1; 4], num_elem: [1; 4] },
    };
    let inst = raw.validate(PB).expect("valid benchmark instruction");
    let mut sbuf = Sbuf::new(PB);
    for p in 0..128 {
        let bytes: Vec<u8> = (0..n).flat_map(|i| ((i % 97) as f32 * 0.25 - p as f32).to_le_bytes()).collect();
        sbuf.write(p, 0, &bytes).unwrap();
    }
    let mut g = c.benchmark_group("exec");
    g.sample_size(20);
    g.throughput(Throughput::Elements(128 * n as u64));
    g.bench_function("all_add_fp32_128x16KiB", |b| {
        b.iter(|| execute(black_box(&inst), &mut sbuf, SumOrder::Tree).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! The batch API over 1M random vectors (64 MiB) for the six ops of issue 2
//! (and a few more), beside a baseline that only reads the same bytes (XOR
//! of all u64 words).
//! Throughput is reported in elements = vectors.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use crosslane_golden::{eval_batch_into, BatchOut, Op, Vec512};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

const VECTORS: usize = 1 << 20;

fn bench(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let vecs: Vec<Vec512> = (0..VECTORS)
        .map(|_| {
            let mut b = [0u8; 64];
            rng.fill_bytes(&mut b);
            Vec512(b)
        })
        .collect();
    let mut g = c.benchmark_group("batch_1M");
    g.sample_size(10);
    g.throughput(Throughput::Elements(VECTORS as u64));
    g.bench_function("read_baseline_xor_u64", |b| {
        b.iter(|| {
            let mut acc = [0u64; 8];
            for v in black_box(&vecs) {
                for (a, w) in acc.iter_mut().zip(v.0.chunks_exact(8)) {
                    *a ^= u64::from_le_bytes(w.try_into().unwrap());
                }
            }
            black_box(acc)
        })
    });
    // The six ops of issue 2, then the tie mask at the other two lane widths,
    // the other sums, the unsigned max and the fp16 maxNum.
    let ops = [
        "radd_nx16",
        "radds_nx16",
        "rmax_nx16",
        "rbmax_nx16",
        "rmaxnum_n_2xf32",
        "rxor_2nx8",
        "rbmaxu_2nx8",
        "rbmin_n_2x32",
        "radd_2nx8",
        "radd_n_2x32",
        "rmaxu_nx16",
        "rmaxnum_nxf16",
    ];
    for name in ops {
        let op = Op::from_name(name).unwrap();
        let mut out = BatchOut::default();
        g.bench_function(name, |b| {
            b.iter(|| {
                eval_batch_into(op, black_box(&vecs), None, &mut out).unwrap();
                black_box(out.len())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

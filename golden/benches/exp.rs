use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use crosslane_golden::Vec512;
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
    let mut g = c.benchmark_group("exp");
    g.sample_size(10);
    g.throughput(Throughput::Elements(VECTORS as u64));
    let mut out: Vec<u32> = Vec::with_capacity(VECTORS);
    g.bench_function("radd_direct_u32", |b| {
        b.iter(|| {
            out.clear();
            out.extend(black_box(&vecs).iter().map(|v| {
                let s: i32 =
                    v.0.chunks_exact(2)
                        .map(|c| i16::from_le_bytes([c[0], c[1]]) as i32)
                        .sum();
                s as u32
            }));
            black_box(out.len())
        })
    });
    let mut out2: Vec<crosslane_golden::Outcome> = Vec::with_capacity(VECTORS);
    g.bench_function("radd_direct_outcome", |b| {
        b.iter(|| {
            out2.clear();
            out2.extend(black_box(&vecs).iter().map(|v| {
                let s: i32 =
                    v.0.chunks_exact(2)
                        .map(|c| i16::from_le_bytes([c[0], c[1]]) as i32)
                        .sum();
                crosslane_golden::Outcome {
                    value: s as u32,
                    mask: None,
                }
            }));
            black_box(out2.len())
        })
    });
    g.bench_function("rmax_direct_u32", |b| {
        b.iter(|| {
            out.clear();
            out.extend(black_box(&vecs).iter().map(|v| {
                let s: i16 =
                    v.0.chunks_exact(2)
                        .map(|c| i16::from_le_bytes([c[0], c[1]]))
                        .fold(i16::MIN, |a, b| a.max(b));
                s as u16 as u32
            }));
            black_box(out.len())
        })
    });
    g.finish();
}
criterion_group!(benches, bench);
criterion_main!(benches);

//! A deliberately naive reference — i128 sums, sorted lanes, floats through
//! f64 — compared with the model on random vectors for every op.

use crosslane_golden::naive::naive;
use crosslane_golden::{campaign, Op, Vec512};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn naive_reference_agrees_on_uniform_random_vectors() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    for op in Op::all() {
        for _ in 0..300 {
            let mut bytes = [0u8; 64];
            rng.fill(&mut bytes[..]);
            let vec = Vec512(bytes);
            let vbool: u64 = rng.gen();
            let got = op.eval(&vec, vbool);
            assert_eq!((got.value, got.mask), naive(op, &vec, vbool), "op {} vec {vec} vbool {vbool:016x}", op.name());
        }
    }
}

#[test]
fn naive_reference_agrees_on_the_corner_campaign() {
    let cases = campaign::campaign(0xc0ffee, 400);
    assert!(cases.len() > 94 * 400);
    for c in cases {
        let got = c.eval();
        assert_eq!(
            (got.value, got.mask),
            naive(c.op, &c.vec, c.vbool),
            "op {} vec {} vbool {:016x}",
            c.op.name(),
            c.vec,
            c.vbool
        );
    }
}

/// The batch loops are code of their own (one tight loop per fold), so they
/// meet the naive reference on the corner campaign too: each op's cases as
/// one batch with their vbools, and as one batch of base-op cases (no
/// vbools: every lane active).
#[test]
fn batch_api_agrees_with_the_naive_reference_on_the_corner_campaign() {
    let cases = campaign::campaign(0xba7c4, 300);
    for op in Op::all() {
        let mine: Vec<_> = cases.iter().filter(|c| c.op == op).collect();
        assert!(mine.len() >= 300, "{}: {} cases", op.name(), mine.len());
        let vecs: Vec<Vec512> = mine.iter().map(|c| c.vec).collect();
        let vbools: Vec<u64> = mine.iter().map(|c| c.vbool).collect();
        let with_vbools = crosslane_golden::eval_batch(op, &vecs, Some(&vbools)).unwrap();
        for (c, got) in mine.iter().zip(&with_vbools) {
            let want = naive(op, &c.vec, c.vbool);
            assert_eq!((got.value, got.mask), want, "op {} vec {} vbool {:016x}", op.name(), c.vec, c.vbool);
        }
        if !op.family.is_vbool_fold() {
            let full = crosslane_golden::eval_batch(op, &vecs, None).unwrap();
            for (v, got) in vecs.iter().zip(&full) {
                assert_eq!(
                    (got.value, got.mask),
                    naive(op, v, u64::MAX),
                    "op {} vec {v}, every lane active",
                    op.name()
                );
            }
        }
    }
}

#[test]
fn batch_api_matches_single_vector_api() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let vecs: Vec<Vec512> = (0..64)
        .map(|_| {
            let mut b = [0u8; 64];
            rng.fill(&mut b[..]);
            Vec512(b)
        })
        .collect();
    let vbools: Vec<u64> = (0..64).map(|_| rng.gen()).collect();
    for op in Op::all() {
        let batch = crosslane_golden::eval_batch(op, &vecs, Some(&vbools)).unwrap();
        let single: Vec<_> = vecs.iter().zip(&vbools).map(|(v, &p)| op.eval(v, p)).collect();
        assert_eq!(batch, single, "{}", op.name());
        if !op.family.is_vbool_fold() {
            let full = crosslane_golden::eval_batch(op, &vecs, None).unwrap();
            let single: Vec<_> = vecs.iter().map(|v| op.eval(v, u64::MAX)).collect();
            assert_eq!(full, single, "{}", op.name());
        }
    }
    let op = Op::from_name("radd_nx16_t").unwrap();
    let err = crosslane_golden::eval_batch(op, &vecs, Some(&vbools[..3])).unwrap_err();
    assert_eq!(err.to_string(), "batch has 64 vectors but 3 vbools; give one vbool per case or none");
}

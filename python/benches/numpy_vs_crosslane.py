"""crosslane.eval_batch against numpy doing the same reductions, in one run.

    python python/benches/numpy_vs_crosslane.py [--n 1000000]

For each op: numpy's vectorised reduction over an (n, 64) uint8 array, then
crosslane.eval_batch on the same array; the integer results are checked
equal bit for bit (so both sides do the same work), and the table gives
millions of vectors per second and the ratio. Target: crosslane >= 5x numpy
on every op. Exit 1 if a result differs or a ratio misses the target.
"""

import argparse
import sys
import time

import numpy as np

import crosslane


def low(x, bits):
    return (x.astype(np.int64) & ((1 << bits) - 1)).astype(np.uint32)


def rbmax(lanes):
    m = lanes.max(axis=1)
    eq = lanes == m[:, None]
    mask = np.packbits(eq, axis=1, bitorder="little").view("<u4")[:, 0]
    return low(m.astype(np.int64), 16), mask.astype(np.uint64)


NUMPY = {
    "raddu_2nx8": lambda v: (v.sum(axis=1, dtype=np.uint32), None),
    "radd_nx16": lambda v: (low(v.view("<i2").sum(axis=1, dtype=np.int32), 32), None),
    "rmax_nx16": lambda v: (low(v.view("<i2").max(axis=1), 16), None),
    "rmaxu_2nx8": lambda v: (v.max(axis=1).astype(np.uint32), None),
    "rxor_nx16": lambda v: (np.bitwise_xor.reduce(v.view("<u2"), axis=1).astype(np.uint32), None),
    "rbmax_nx16": lambda v: rbmax(v.view("<i2")),
    # Same work (fmax ignores NaNs as maxNum does); not compared: numpy does
    # not order -0 below +0 or give the canonical NaN.
    "rmaxnum_nxf16": lambda v: (np.fmax.reduce(v.view("<f2"), axis=1).view("<u2").astype(np.uint32), None),
}
COMPARED = {"raddu_2nx8", "radd_nx16", "rmax_nx16", "rmaxu_2nx8", "rxor_nx16", "rbmax_nx16"}


def best(f, reps=3):
    t = float("inf")
    for _ in range(reps):
        s = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - s)
    return t, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    args = ap.parse_args()
    n = args.n
    vecs = np.random.default_rng(1).integers(0, 256, (n, 64), dtype=np.uint8)
    print(f"{n} vectors; M vectors/s (best of 3)")
    print(f"| op | numpy | crosslane | ratio |\n|---|---|---|---|")
    ok = True
    for op, f in NUMPY.items():
        t_np, (want, want_mask) = best(lambda: f(vecs))
        t_cl, (got, got_mask) = best(lambda: crosslane.eval_batch(op, vecs))
        if op in COMPARED:
            same = (want == got).all() and (want_mask is None or (want_mask == got_mask).all())
            if not same:
                print(f"{op}: numpy and crosslane differ", file=sys.stderr)
                ok = False
        ratio = t_np / t_cl
        ok &= ratio >= 5
        print(f"| {op} | {n / t_np / 1e6:.1f} | {n / t_cl / 1e6:.1f} | {ratio:.1f}x |")
    print("target (>= 5x numpy on every op):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

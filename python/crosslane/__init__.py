"""The crosslane golden model: bit-exact CrossLaneReduce from Python.

    >>> import crosslane, numpy as np
    >>> crosslane.eval("raddu_2nx8", bytes(range(64)))
    (2016, None)
    >>> vecs = np.random.default_rng(1).integers(0, 256, (1000, 64), dtype=np.uint8)
    >>> results, masks = crosslane.eval_batch("rbmax_nx16", vecs)

Functions: eval (a case as the eval protocol takes it), eval_ports (what the
unit's ports give), eval_batch, exec, ops, vec_bytes. Coverage: the golden
model's coverage model (sample, sample_exec, merge, totals, counts, report;
docs/coverage.md). Constants: LATENCY (the
unit's register stages: an input sampled at rising edge k is on
crosslane_reduce's outputs after edge k + LATENCY - 1), LATENCIES (the same
for each generated configuration, by module name), PARTITIONS, RULE_NAMES
(instruction.md §3's rules in order: rule n is RULE_NAMES[n - 1]). Errors: CrosslaneError
(a ValueError) and its UnknownOpError, InputError, InstructionError (.rule).
"""

from ._crosslane import (  # noqa: F401
    LATENCIES,
    LATENCY,
    PARTITIONS,
    RULE_NAMES,
    Coverage,
    CrosslaneError,
    InputError,
    InstructionError,
    UnknownOpError,
    eval,
    eval_batch,
    eval_ports,
    exec,
    ops,
    vec_bytes,
)

__all__ = [
    "LATENCIES",
    "LATENCY",
    "PARTITIONS",
    "RULE_NAMES",
    "Coverage",
    "CrosslaneError",
    "InputError",
    "InstructionError",
    "UnknownOpError",
    "eval",
    "eval_batch",
    "eval_ports",
    "exec",
    "ops",
    "vec_bytes",
]

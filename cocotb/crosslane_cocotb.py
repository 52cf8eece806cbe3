"""A cocotb testbench of the generated RTL (generated/rtl/crosslane_reduce.v or
another configuration's file) that scores it with the crosslane Python
package (the Rust golden model).

Every clock: a random op (ops change from one clock to the next), one clock
in four a gap carrying junk (any 9-bit op, random vec/vbool), a mid-stream
reset about every 300 clocks with valid inputs in flight. After every rising
edge the outputs are checked against a model of the pipeline: out_valid_o
exactly crosslane.LATENCIES[toplevel] clocks after a valid input with no reset since,
and then every bit of result_o and mask_o.

CROSSLANE_COCOTB_CLOCKS sets the number of clocks (default 4000).
"""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import crosslane

OPS = [o["code"] for o in crosslane.ops()]
NAMES = {o["code"]: o["name"] for o in crosslane.ops()}


@cocotb.test()
async def random_ops_gaps_and_resets(dut):
    coverage = crosslane.Coverage()
    clocks = int(os.environ.get("CROSSLANE_COCOTB_CLOCKS", "4000"))
    rng = random.Random(int(os.environ.get("CROSSLANE_COCOTB_SEED", "1")))
    latency = crosslane.LATENCIES[dut._name]  # the configuration's, by module name
    cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
    # The pipeline model: what each stage holds, None = no valid result.
    model = [None] * latency
    checked = resets = reset_left = 0
    reset_left = 2
    for clock in range(clocks):
        await FallingEdge(dut.clk_i)
        vec = rng.getrandbits(512)
        vbool = rng.getrandbits(64)
        if reset_left:
            rst_n, valid, op = 0, 1, rng.choice(OPS)  # in flight during a reset: must never come out
            reset_left -= 1
        else:
            rst_n = 1
            if clock > 2 * latency and rng.randrange(300) == 0:
                reset_left = rng.choice([1, 2])
                resets += 1
            valid = rng.randrange(4) != 0
            op = rng.choice(OPS) if valid or rng.randrange(2) else rng.getrandbits(9)
        dut.rst_ni.value = rst_n
        dut.in_valid_i.value = int(valid)
        dut.op_i.value = op
        dut.vec_i.value = vec
        dut.vbool_i.value = vbool
        await RisingEdge(dut.clk_i)
        await ReadOnly()
        if not rst_n:
            model = [None] * latency
        else:
            entering = None
            if valid:
                value, mask = crosslane.eval_ports(op, vec, vbool)
                entering = (op, value, mask or 0)
                if op in NAMES:
                    coverage.sample(op, vec, vbool)
            model = [entering] + model[:-1]
        want = model[-1]
        got_valid = int(dut.out_valid_o.value)
        assert got_valid == (want is not None), (
            f"clock {clock}: out_valid_o is {got_valid}, want {int(want is not None)} (latency {latency})"
        )
        if want is not None:
            w_op, w_value, w_mask = want
            result, mask = int(dut.result_o.value), int(dut.mask_o.value)
            assert (result, mask) == (w_value, w_mask), (
                f"clock {clock}: {NAMES[w_op]}: result_o {result:08x} mask_o {mask:016x}, "
                f"want {w_value:08x} {w_mask:016x}"
            )
            checked += 1
    assert checked > clocks // 2, f"only {checked} results checked in {clocks} clocks"
    assert resets > 0, "no mid-stream reset happened"
    dut._log.info(f"PASS: {checked} results checked over {clocks} clocks, {resets} mid-stream resets")
    report_coverage(dut, coverage, "op ")


def report_coverage(dut, coverage, prefix):
    """The coverage model's report (crosslane.Coverage, the bins of
    `crosslane verify --coverage`) in the log, and into the file
    CROSSLANE_COCOTB_COVERAGE names when it is set."""
    text = coverage.report(prefix)
    dut._log.info("coverage of the cases this run checked:\n" + text)
    path = os.environ.get("CROSSLANE_COCOTB_COVERAGE")
    if path:
        with open(path, "w") as f:
            f.write(text)

"""The stage timing (flows/stage_timing.py) on a small SDF written by hand in
nextpnr's form: two harness flip-flops (with a clock enable) feed a
two-stage pipeline; every delay is chosen so that each stage's slowest path
is a different one, and the answer is worked out by hand."""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import stage_timing  # noqa: E402


def ff(name, clk_q=500, setups=(("DI", 0),)):
    checks = "".join(
        f"      (SETUPHOLD (posedge {pin}) (posedge CLK) ({s}:{s}:{s}) (100:100:100))\n"
        f"      (SETUPHOLD (negedge {pin}) (posedge CLK) ({s}:{s}:{s}) (100:100:100))\n"
        for pin, s in setups
    )
    return (
        f'  (CELL\n    (CELLTYPE "TRELLIS_FF")\n    (INSTANCE {name})\n    (DELAY\n      (ABSOLUTE\n'
        f"        (IOPATH CLK Q ({clk_q}:{clk_q}:{clk_q}) ({clk_q}:{clk_q}:{clk_q}))\n      )\n    )\n"
        f"    (TIMINGCHECK\n{checks}    )\n    )\n"
    )


def lut(name, ins="ABCD", ps=240):
    paths = "".join(f"        (IOPATH {i} F (200:218:{ps}) (200:218:{ps}))\n" for i in ins)
    return f'  (CELL\n    (CELLTYPE "TRELLIS_COMB")\n    (INSTANCE {name})\n    (DELAY\n      (ABSOLUTE\n{paths}      )\n    )\n    )\n'


def wire(a, b, ps):
    return f"        (INTERCONNECT {a} {b} (0:0:{ps}) (0:0:{ps}))\n"


# sh_a, sh_b (harness, clock enabled) -> lut1 -> in_q (stage 1)
# in_q -> lut2 -> lut3 -> s2_q (stage 2); in_q -> s2_fast (stage 2, shorter)
# s2_q -> out_q with an LSR setup of 0.42 (stage 3)
SDF = (
    '(DELAYFILE\n  (SDFVERSION "3.0")\n  (DIVIDER /)\n  (TIMESCALE 1ps)\n'
    '  (CELL\n    (CELLTYPE "top")\n    (INSTANCE )\n    (DELAY\n      (ABSOLUTE\n'
    + wire("sh_a/Q", "lut1/A", 1000)
    + wire("sh_b/Q", "lut1/B", 3000)
    + wire("lut1/F", "in\\[0\\]\\$q/DI", 500)
    + wire("in\\[0\\]\\$q/Q", "lut2/A", 700)
    + wire("lut2/F", "lut3/C", 800)
    + wire("lut3/F", "s2_q/DI", 300)
    + wire("in\\[0\\]\\$q/Q", "s2_fast/DI", 200)
    + wire("s2_q/Q", "out_q/LSR", 1000)
    + wire("sh_a/Q", "sh_b/DI", 100)
    + "      )\n    )\n    )\n"
    + ff("sh_a", setups=(("DI", 0), ("CE", 0)))
    + ff("sh_b", setups=(("DI", 0), ("CE", 0)))
    + lut("lut1")
    + ff("in\\[0\\]\\$q")
    + lut("lut2")
    + lut("lut3")
    + ff("s2_q")
    + ff("s2_fast")
    + ff("out_q", setups=(("LSR", 420),))
    + ")\n"
)


def test_each_stage_is_its_slowest_path_worked_by_hand():
    rows = stage_timing.stages(SDF)
    assert [r["stage"] for r in rows] == [1, 2, 3]
    one, two, three = rows
    # sh_b's 3.0 ns wire beats sh_a's 1.0: 0.5 + 3.0 + 0.24 + 0.5.
    assert (one["from"], one["to"], one["ns"]) == ("sh_b", "in[0]$q", 4.24)
    # Through lut2 and lut3, not the direct wire to s2_fast: 0.5 + 0.7 + 0.24 + 0.8 + 0.24 + 0.3.
    assert (two["from"], two["to"], two["ns"]) == ("in[0]$q", "s2_q", 2.78)
    # Into a synchronous reset: its setup counts. 0.5 + 1.0 + 0.42.
    assert (three["from"], three["to"], three["ns"]) == ("s2_q", "out_q", 1.92)
    assert three["mhz"] == round(1000 / 1.92, 1)
    assert [(c, p) for c, p, _ in two["path"]] == [
        ("in[0]$q", "Q"), ("lut2", "A"), ("lut2", "F"), ("lut3", "C"), ("lut3", "F"), ("s2_q", "DI"),
    ]
    assert two["path"][-1][2] == 2.78
    assert "| 2 | 2.78 | 359.7 | `in[0]$q` | `s2_q` |" in stage_timing.markdown(rows)


def test_a_design_without_the_harness_or_flip_flops_is_refused():
    no_ce = SDF.replace("(SETUPHOLD (posedge CE)", "(SETUPHOLD (posedge DI)").replace(
        "(SETUPHOLD (negedge CE)", "(SETUPHOLD (negedge DI)"
    )
    with pytest.raises(ValueError, match="clock enable"):
        stage_timing.stages(no_ce)
    with pytest.raises(ValueError, match="no TRELLIS_FF"):
        stage_timing.stages(SDF.replace('"TRELLIS_FF"', '"TRELLIS_XX"'))

"""The FPGA flow's budget check fails on a regression and names it (the
synthesis itself runs in ./dev test: flows/fpga.py --configs unit --budget)."""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import fpga  # noqa: E402

BUDGET = pathlib.Path(__file__).resolve().parent / "fpga-budget.json"


def row(config, lut, ccu, ff):
    return {"config": config, "LUT4": lut, "CCU2C": ccu, "TRELLIS_FF": ff}


def test_within_budget_passes_and_over_budget_is_named():
    budget = json.loads(BUDGET.read_text())["unit"]
    ok = row("unit", budget["LUT4"], budget["CCU2C"], budget["TRELLIS_FF"])
    assert fpga.check_budget([ok], BUDGET) == []
    over = row("unit", budget["LUT4"] + 1, budget["CCU2C"], budget["TRELLIS_FF"] + 5)
    problems = fpga.check_budget([over], BUDGET)
    assert len(problems) == 2
    assert "LUT4" in problems[0] and "over its budget" in problems[0]
    assert "TRELLIS_FF" in problems[1]
    assert fpga.check_budget([row("radd_nx17", 1, 1, 1)], BUDGET) == [f"radd_nx17: no budget in {BUDGET}"]


def test_every_measured_configuration_has_a_budget():
    budget = json.loads(BUDGET.read_text())
    for config in ["unit", "radd_nx16", "rmax_nx16"]:
        assert set(budget[config]) == set(fpga.CELLS)

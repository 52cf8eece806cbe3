"""The FPGA flow's budget check fails on a regression and names it (the
synthesis itself runs in ./dev test: flows/fpga.py --budget)."""

import json
import pathlib
import re
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import fpga  # noqa: E402
from conftest import need_tool  # noqa: E402

BUDGET = pathlib.Path(__file__).resolve().parent / "fpga-budget.json"


def row(config, lut, ccu, ff, dsp=0):
    return {"config": config, "LUT4": lut, "CCU2C": ccu, "TRELLIS_FF": ff, "MULT18X18D": dsp}


def test_within_budget_passes_and_over_budget_is_named():
    budget = json.loads(BUDGET.read_text())["every1"]
    ok = row("every1", budget["LUT4"], budget["CCU2C"], budget["TRELLIS_FF"])
    assert fpga.check_budget([ok], BUDGET) == []
    over = row("every1", budget["LUT4"] + 1, budget["CCU2C"], budget["TRELLIS_FF"] + 5)
    problems = fpga.check_budget([over], BUDGET)
    assert len(problems) == 2
    assert "LUT4" in problems[0] and "over its budget" in problems[0]
    assert "TRELLIS_FF" in problems[1]
    assert fpga.check_budget([row("radd_nx17", 1, 1, 1)], BUDGET) == [f"radd_nx17: no budget in {BUDGET}"]


def test_every_measured_configuration_has_a_budget():
    budget = json.loads(BUDGET.read_text())
    configs = fpga.DEFAULT_CONFIGS.split(",")
    assert len(configs) == 25
    for config in configs:
        assert set(budget[config]) == set(fpga.CELLS), config


def uses_generated_modules(rtl, wrapper, modules):
    """Each module is one of the generated unit's (rtl: their files' text),
    the wrapper instantiates it, and connects every one of its ports by name
    (a port the generator added would otherwise float)."""
    for sub in modules:
        assert sub in wrapper and f"module {sub}(" in rtl, sub
        ports = re.search(r"module " + sub + r"\(([^)]*)\);", rtl).group(1).split(",")
        block = wrapper[wrapper.index(sub) :]
        block = block[: block.index(");")]
        for port in ports:
            assert f".{port}(" in block, f"{sub}: port {port} not connected"


def test_the_input_stage_is_the_default_units_own_modules_in_a_wrapper():
    files, module, tied = fpga.design("stage:input", fpga.RTL_DIR)
    assert module == "crosslane_input_stage" and tied is None
    assert files == [*fpga.components(fpga.RTL_DIR), fpga.HERE / "stage_fold.v", fpga.HERE / "input_stage.v"]
    rtl, wrapper = "".join(f.read_text() for f in files[:-2]), files[-1].read_text()
    assert f"module {module} (" in wrapper
    uses_generated_modules(rtl, wrapper, ("crosslane_op_decode", "crosslane_controls", "crosslane_leaf_key"))
    try:
        fpga.design("stage:output", fpga.RTL_DIR)
    except RuntimeError as e:
        assert "no stage 'output' (have: input, level3)" in str(e)
    else:
        raise AssertionError("an unknown stage must be refused")


def test_the_level_stage_is_level_3_of_the_default_unit():
    files, module, tied = fpga.design("stage:level3", fpga.RTL_DIR)
    assert module == "crosslane_level_stage" and tied is None
    assert files == [*fpga.components(fpga.RTL_DIR), fpga.HERE / "stage_fold.v", fpga.HERE / "level_stage.v"]
    wrapper = files[-1].read_text()
    rtl = "".join(f.read_text() for f in files[:-2]) + (fpga.RTL_DIR / "crosslane_reduce.v").read_text()
    assert f"module {module} (" in wrapper
    uses_generated_modules(rtl, wrapper, ("crosslane_op_decode", "crosslane_node_controls", "crosslane_tree_node"))

    # The wrapper's instances carry the parameters of the unit's own level 3
    # (which bits of the control word are level 3's, the nodes' widths), so
    # a change to the control layout or the nodes cannot leave it measuring
    # something else.
    def params(text, instance):
        found = re.findall(r"#\(((?:\s*\.\w+\([^()]*\),?)+)\s*\)\s*" + instance + r"\s*\(", text)
        assert found, instance
        return [re.sub(r"\s+", "", p) for p in found]

    assert params(wrapper, "l3_ctl") == params(rtl, "l3_ctl")
    units = set(params(rtl, r"l3_\d+"))
    assert len(units) == 1 and params(wrapper, "l3") == list(units)


def test_the_tied_tree_ratio_is_measured():
    rows = [row("every1:radd_nx16", 48, 287, 1593), row("handwritten:radd_nx16", 14, 287, 1079)]
    assert abs(fpga.ff_ratio(rows) - 1593 / 1079) < 1e-9
    assert fpga.ff_ratio(rows[:1]) is None
    assert 1593 / 1079 <= fpga.MAX_FF_RATIO < 1700 / 1079


def test_fmax_is_the_median_of_the_seeds_with_their_range():
    assert fpga.median([90.6]) == 90.6
    assert fpga.median([97.8, 86.9, 94.5]) == 94.5
    assert fpga.median([90.0, 92.0, 80.0, 100.0]) == 91.0
    one = {**row("every1", 1, 1, 1), "fmax_mhz": 90.6, "fmax_by_seed": [90.6]}
    assert fpga.fmax_cell(one) == "90.6"
    three = {**row("every1", 1, 1, 1), "fmax_mhz": 94.5, "fmax_by_seed": [86.9, 97.8, 94.5]}
    assert fpga.fmax_cell(three) == "94.5 (86.9–97.8)"
    assert fpga.fmax_cell(row("every1", 1, 1, 1)) == "not run"
    assert "| every1 | 1 | 1 | 1 | 0 | 94.5 (86.9–97.8) |" in fpga.markdown([three])


def test_no_seeds_is_refused_before_any_tool_runs():
    import subprocess

    run = subprocess.run(
        [sys.executable, str(pathlib.Path(fpga.__file__)), "--pnr", "--seeds", "0"], capture_output=True, text=True
    )
    assert run.returncode == 2
    assert "--seeds 0: at least 1" in run.stderr


def test_placement_runs_on_the_grade_asked_for_and_grade_6_by_default():
    default = fpga.nextpnr_args(1)
    assert default[default.index("--speed") + 1] == "6" == str(fpga.DEFAULT_SPEED)
    assert default[default.index("-l") + 1] == "pnr.log" and "--sdf" not in default
    fast = fpga.nextpnr_args(3, 8, sdf=True)
    assert fast[fast.index("--speed") + 1] == "8"
    assert fast[fast.index("-l") + 1] == "pnr-seed3.log" and fast[fast.index("--sdf") + 1] == "seed3.sdf"
    assert fast[: len(fpga.DEVICE)] == fpga.DEVICE
    try:
        fpga.nextpnr_args(1, 5)
    except RuntimeError as e:
        assert "speed grade 5" in str(e) and "6, 7, 8" in str(e)
    else:
        raise AssertionError("a grade the device does not come in must be refused")
    assert "grade 8" in fpga.markdown([row("every1", 1, 2, 3)], 8).splitlines()[0]


def test_the_docs_table_is_checked_against_synthesis_and_quoted_by_the_readme():
    """docs/fpga.md has a row for every budgeted configuration, each within
    its budget; ./dev test holds its cells to what synthesis gives
    (fpga.py --docs, checked here on made-up rows); the README quotes
    every1's."""
    budget = json.loads(BUDGET.read_text())
    docs = BUDGET.parents[1] / "docs" / "fpga.md"
    rows = fpga.docs_cells(docs.read_text())
    assert set(rows) == {k for k in budget if not k.startswith("_")}, sorted(rows)
    for config, figures in rows.items():
        for cell, figure in zip(fpga.CELLS, figures):
            assert figure <= budget[config][cell], (config, cell, figure)
    synthesized = [row(config, *figures) for config, figures in rows.items()]
    assert fpga.check_docs(synthesized, docs) == []
    drifted = [row("every1", rows["every1"][0] + 1, *rows["every1"][1:])]
    problems = fpga.check_docs(drifted, docs)
    assert len(problems) == 1 and problems[0].startswith("every1: ") and "synthesis gives" in problems[0]
    assert fpga.check_docs([row("every9", 1, 1, 1)], docs) == [f"every9: no row in {docs}"]
    readme = (BUDGET.parents[1] / "README.md").read_text()
    lut, ccu, ff = (f"{n:,}" for n in rows["every1"][:3])
    assert f"{lut} LUT4, {ccu} CCU2C, {ff} FF" in readme


def test_an_fp_unit_is_synthesized_in_its_own_harness():
    files, module, tied = fpga.design("fp:f32_add:2", fpga.RTL_DIR)
    assert module == "crosslane_f32_add_l2" and tied is None
    assert fpga.RTL_DIR / "crosslane_f32_add_l2.v" in files
    harness = fpga.fp_harness(fpga.RTL_DIR / "crosslane_f32_add_l2.v")
    assert "`DUT unit (.clk_i(clk), .a_i(sh[31:0]), .b_i(sh[63:32]), .sum_o(o_sum_o));" in harness, harness
    assert "reg [71:0] sh" in harness and "i < 32;" in harness
    harness = fpga.fp_harness(fpga.RTL_DIR / "crosslane_to_f32_l1.v")
    assert ".bits_i(sh[63:0]), .dtype_i(sh[67:64]), .f32_o(o_f32_o)" in harness, harness
    with pytest.raises(RuntimeError, match="no fp unit 'f32_add:9'"):
        fpga.design("fp:f32_add:9", fpga.RTL_DIR)


def test_the_engine_harness_shifts_every_output_out(tmp_path):
    # The engine writes its element 8 times across wr_data_o: an XOR fold of
    # the outputs cancels the copies and synthesis removes what drives them
    # (the first engine figures, 2,331 LUT4, were that). A toy with the same
    # shape: y_o is a_i 8 times. Folded, nothing of a_i reaches dout;
    # shifted out, all of it does.
    need_tool("yosys")
    toy = tmp_path / "toy.v"
    toy.write_text(
        "module toy(clk_i, a_i, y_o);\n    input wire  clk_i;\n    input wire  [7:0] a_i;\n"
        "    output wire  [63:0] y_o;\n    assign y_o = {8{a_i}};\nendmodule\n"
    )
    flip_flops = {}
    for shift_out in (False, True):
        harness = tmp_path / f"harness{int(shift_out)}.v"
        harness.write_text(fpga.fp_harness(toy, "toy", shift_out=shift_out))
        run = subprocess.run(
            ["yosys", "-q", "-p", f"read_verilog {toy}; read_verilog -DDUT=toy {harness}; "
             "synth -flatten -top crosslane_fpga_harness; tee -o /dev/stdout stat"],
            capture_output=True, text=True,
        )
        assert run.returncode == 0, run.stderr
        cells = re.findall(r"^\s+\$_S?DFF\w*\s+(\d+)\s*$", run.stdout, re.M)
        flip_flops[shift_out] = sum(map(int, cells))
    # Folded: only dout's 8 flip-flops stay (the shift register feeding a_i is removed).
    assert flip_flops[False] <= 8, flip_flops
    # Shifted out: a_i's 8 + the 64-bit output register stay.
    assert flip_flops[True] >= 64 + 8, flip_flops


def test_the_engines_are_the_16_and_8_lane_files_and_no_other():
    for config, module in (("engine", "crosslane_engine"), ("engine:8", "crosslane_engine_lanes8")):
        files, got, tied = fpga.design(config, fpga.RTL_DIR)
        assert (got, tied) == (module, None)
        assert [f.name for f in files] == [f"{module}.v"] and files[0].exists()
    with pytest.raises(RuntimeError, match="no engine of '4' lanes"):
        fpga.design("engine:4", fpga.RTL_DIR)
    # Neither engine is a component of the unit.
    assert not any(p.name.startswith("crosslane_engine") for p in fpga.components(fpga.RTL_DIR))

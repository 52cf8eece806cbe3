"""Runs cocotb/crosslane_cocotb.py on the checked-in RTL under Icarus and
Verilator (cocotb 1.9's Python runner), the other configurations under
Icarus, and a planted bug under Icarus, which must fail. The verdict comes
from cocotb's results file (its runner may return normally or exit when
tests fail, by version), and a run with no test in it fails.

    pytest cocotb            (with cocotb==1.9.2 and the crosslane package installed)
"""

import os
import pathlib

import pytest
from conftest import need_tool, rtl_components
from cocotb.runner import get_runner, get_results

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RTL = ROOT / "generated" / "rtl" / "crosslane_reduce.v"


def run(sim, rtl, build_dir, clocks, toplevel="crosslane_reduce"):
    """Run the bench on the top in `rtl` with the generated components."""
    need_tool("iverilog" if sim == "icarus" else "verilator")
    runner = get_runner(sim)
    build_args = ["-Wno-fatal", "-Wno-lint", "-Wno-style"] if sim == "verilator" else []
    runner.build(
        verilog_sources=[str(rtl), *map(str, rtl_components())],
        hdl_toplevel=toplevel,
        build_dir=str(build_dir),
        build_args=build_args,
        timescale=("1ns", "1ps"),
        always=True,
    )
    xml = build_dir / "results.xml"
    if xml.exists():
        xml.unlink()
    # cocotb 1.9 refuses an explicit results file under pytest (and would
    # otherwise write "<test>.None" into the source folder).
    current = os.environ.pop("PYTEST_CURRENT_TEST", None)
    try:
        runner.test(
            hdl_toplevel=toplevel,
            test_module="crosslane_cocotb",
            test_dir=str(HERE),
            build_dir=str(build_dir),
            results_xml=str(xml),
            extra_env={"CROSSLANE_COCOTB_CLOCKS": str(clocks)},
        )
    except SystemExit:
        pass  # cocotb 1.9's runner exits on failed tests; the results file tells
    finally:
        if current is not None:
            os.environ["PYTEST_CURRENT_TEST"] = current
    assert xml.is_file(), f"cocotb wrote no results file {xml}"
    return get_results(xml)


@pytest.mark.parametrize("sim", ["icarus", "verilator"])
def test_the_rtl_passes(sim, tmp_path):
    tests, failed = run(sim, RTL, tmp_path / sim, 4000)
    assert tests == 1, f"{tests} cocotb tests ran"
    assert failed == 0


@pytest.mark.parametrize("every", [2, 3])
def test_the_other_configurations_pass_under_icarus(every, tmp_path):
    module = f"crosslane_reduce_every{every}"
    tests, failed = run("icarus", RTL.with_name(f"{module}.v"), tmp_path / module, 4000, module)
    assert tests == 1, f"{tests} cocotb tests ran"
    assert failed == 0


def test_a_planted_bug_fails(tmp_path, wrong_stage_mutant):
    # Under Icarus only: the bench's verdict is the same Python under both
    # simulators, and a Verilator build costs half a minute of CI.
    mutant = tmp_path / "mutant.v"
    mutant.write_text(wrong_stage_mutant(RTL.read_text()))
    tests, failed = run("icarus", mutant, tmp_path / "icarus", 400)
    assert (tests, failed) == (1, 1)

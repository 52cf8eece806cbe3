"""Runs cocotb/crosslane_cocotb.py on the checked-in RTL under Icarus and
Verilator (cocotb 1.9's Python runner), the other configurations under
Icarus, and a planted bug under Icarus, which must fail; and
cocotb/crosslane_engine_cocotb.py on the RTL engine under Icarus (the spec's
exec examples and campaign cases from `crosslane cases`, scored by
crosslane.exec), and on a planted bug of the engine, which must fail. The verdict comes
from cocotb's results file (its runner may return normally or exit when
tests fail, by version), and a run with no test in it fails.

    pytest cocotb            (with cocotb==1.9.2 and the crosslane package installed)
"""

import os
import pathlib
import re
import subprocess

import pytest
from conftest import need_tool, rtl_components
from cocotb.runner import get_runner, get_results

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RTL = ROOT / "generated" / "rtl" / "crosslane_reduce.v"
ENGINE = ROOT / "generated" / "rtl" / "crosslane_engine.v"
CROSSLANE = ROOT / "target" / "release" / "crosslane"
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"


def run(sim, rtl, build_dir, clocks, toplevel="crosslane_reduce", module="crosslane_cocotb", env=None, sources=None):
    """Run the bench `module` on the top in `rtl` with the generated components
    (or with `sources` alone)."""
    need_tool("iverilog" if sim == "icarus" else "verilator")
    runner = get_runner(sim)
    build_args = ["-Wno-fatal", "-Wno-lint", "-Wno-style"] if sim == "verilator" else []
    runner.build(
        verilog_sources=[str(rtl), *map(str, rtl_components() if sources is None else sources)],
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
            test_module=module,
            test_dir=str(HERE),
            build_dir=str(build_dir),
            results_xml=str(xml),
            extra_env={"CROSSLANE_COCOTB_CLOCKS": str(clocks), **(env or {})},
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
    report = tmp_path / "coverage.txt"
    tests, failed = run(sim, RTL, tmp_path / sim, 4000, env={"CROSSLANE_COCOTB_COVERAGE": str(report)})
    assert tests == 1, f"{tests} cocotb tests ran"
    assert failed == 0
    # The run's coverage, by the golden model's bins, at its end.
    text = report.read_text()
    assert len([line for line in text.splitlines() if line.startswith("op ")]) == 94, text
    hit, reachable = (int(x) for x in re.search(r"coverage of the unit: (\d+) of (\d+)", text).groups())
    assert reachable > 1500 and hit > reachable // 2, text


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


def engine_cases(tmp_path):
    """The spec's exec examples and 12 campaign cases of at most 256 elements."""
    assert CROSSLANE.exists(), "build the binary first: cargo build --release"
    campaign = subprocess.run(
        [str(CROSSLANE), "cases", "--seed", "3", "--count", "12", "--max-work", "256"],
        capture_output=True, text=True, check=True,
    ).stdout
    path = tmp_path / "cases.jsonl"
    path.write_text((EXAMPLES / "exec-cases.jsonl").read_text() + campaign)
    return path


def run_engine(rtl, tmp_path, env=None):
    return run("icarus", rtl, tmp_path / "engine", 0, toplevel="crosslane_engine",
               module="crosslane_engine_cocotb",
               env={"CROSSLANE_COCOTB_CASES": str(engine_cases(tmp_path)), **(env or {})}, sources=[])


def test_the_engine_runs_instructions_as_crosslane_exec(tmp_path):
    report = tmp_path / "coverage.txt"
    tests, failed = run_engine(ENGINE, tmp_path, {"CROSSLANE_COCOTB_COVERAGE": str(report)})
    assert (tests, failed) == (1, 0)
    text = report.read_text()
    assert "coverage of the instruction: " in text and "inst reject" in text, text
    assert re.search(r"inst reject\s+([1-9]\d*)/13", text), text


def test_a_planted_engine_bug_fails(tmp_path):
    # A short beat's odd lane dropped (sim/tests/engine.rs plants it too).
    text = ENGINE.read_text()
    site = "sum_o = da_2_q;"
    assert text.count(site) == 1, "the engine changed: update the plant site"
    mutant = tmp_path / "crosslane_engine.v"
    mutant.write_text(text.replace(site, "sum_o = 32'h0;"))
    tests, failed = run_engine(mutant, tmp_path)
    assert (tests, failed) == (1, 1)

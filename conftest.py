"""pytest fixtures shared by python/tests, cocotb and flows (./dev test runs them together)."""

import os
import pathlib
import shutil
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "flows"))
import fpga  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent

# The environment variables that make a missing tool a failure: the same as
# testdata/tool_present.rs's REQUIRE_VARS for the Rust suites (a test holds them equal).
REQUIRE_VARS = ("CI", "CROSSLANE_REQUIRE_SIMULATORS")



def rtl_components():
    """The component modules' files under generated/rtl (crosslane_leaf_key.v, …),
    as the FPGA flow lists them (flows/fpga.py's components)."""
    files = fpga.components(ROOT / "generated" / "rtl")
    assert len(files) > 10, files
    return files


# The Debian package of each tool the Python suites run.
PACKAGES = {"iverilog": "iverilog", "vvp": "iverilog", "verilator": "verilator", "yosys": "yosys"}


def need_tool(tool):
    """The one "does this test have its tool" rule of the Python suites: a
    missing tool fails the test when CI (or CROSSLANE_REQUIRE_SIMULATORS) is
    set, and outside CI skips it."""
    if shutil.which(tool) is None:
        message = f"'{tool}' is not installed (apt-get install {PACKAGES.get(tool, tool)})"
        if any(os.environ.get(v) for v in REQUIRE_VARS):
            pytest.fail(message + "; CI requires it")
        pytest.skip(message)


@pytest.fixture
def wrong_stage_mutant():
    """A function planting testdata/wrong-stage-mutant.txt's bug in RTL text; its `from` must occur once."""
    fields = dict(
        line.split(" ", 1)
        for line in (ROOT / "testdata" / "wrong-stage-mutant.txt").read_text().splitlines()
        if line and not line.startswith("#")
    )

    def plant(text):
        assert text.count(fields["from"]) == 1, "the RTL changed: update testdata/wrong-stage-mutant.txt"
        return text.replace(fields["from"], fields["to"])

    return plant

"""The FuseSoC core (generated/crosslane.core): its lint target (Verilator -Wall) and
sim target (the self-checking testbench under Icarus) pass on the checked-in
RTL, and each fails on a planted defect, run through fusesoc 2.4.7.

    pytest flows        (with fusesoc==2.4.7 installed: ./dev python)
"""

import pathlib
import re
import shutil
import subprocess
import sys

import pytest
from conftest import need_tool

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The core is generated with the RTL: generated/crosslane.core.
GENERATED = ROOT / "generated"
CORE = "crosslane:ip:crosslane_reduce"


def fusesoc(cores_root, build_root, target, *params):
    need_tool("verilator" if target == "lint" else "iverilog")
    exe = pathlib.Path(sys.executable).with_name("fusesoc")
    assert exe.exists(), "fusesoc is not installed (pip install fusesoc==2.4.7)"
    run = subprocess.run(
        [str(exe), "--cores-root", str(cores_root), "run", "--build-root", str(build_root), "--target", target, CORE,
         *params],
        capture_output=True,
        text=True,
    )
    return run.returncode, run.stdout + run.stderr


def copy_core(tmp, mutate):
    """The core (generated/crosslane.core) and its files in tmp, the default
    unit's top changed by `mutate`; the cores root to give fusesoc."""
    shutil.copytree(GENERATED, tmp)
    rtl = (GENERATED / "rtl/crosslane_reduce.v").read_text()
    changed = mutate(rtl)
    assert changed != rtl, "the mutation changed nothing: update it"
    (tmp / "rtl/crosslane_reduce.v").write_text(changed)
    return tmp


@pytest.mark.parametrize("fast", ["0", "1"])
def test_lint_is_clean(tmp_path, fast):
    code, out = fusesoc(GENERATED, tmp_path, "lint", f"--FAST={fast}")
    assert code == 0, out
    assert "%Warning" not in out and "%Error" not in out, out


def test_lint_catches_a_warning(tmp_path):
    # In the top module: a truncating assignment to a signal nothing reads.
    planted = "    input wire  rst_ni;\n    wire [3:0] planted = 8'hff;\n"
    root = copy_core(tmp_path / "core", lambda v: v.replace("    input wire  rst_ni;\n", planted, 1))
    code, out = fusesoc(root, tmp_path / "build", "lint")
    assert code != 0 and "%Warning-WIDTH" in out and "planted" in out, out


@pytest.mark.parametrize("every,fast", [("1", "0"), ("3", "0"), ("2", "1")])
def test_sim_passes_every_vector(tmp_path, every, fast):
    code, out = fusesoc(GENERATED, tmp_path, "sim", f"--EVERY={every}", f"--FAST={fast}")
    assert code == 0, out
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    assert m and int(m.group(1)) > 3000 and m.group(2) == "0", out


def test_sim_fails_a_planted_bug(tmp_path, wrong_stage_mutant):
    root = copy_core(tmp_path / "core", wrong_stage_mutant)
    code, out = fusesoc(root, tmp_path / "build", "sim")
    assert code != 0, out
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    assert m and int(m.group(2)) > 0, out

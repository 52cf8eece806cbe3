"""Every example of the README and docs/ runs as written: each fenced block
marked `sh` runs under bash (set -euo pipefail) and each marked `python`
under this interpreter, from the repository root, and none may leave a file
that git neither tracks nor ignores. Blocks marked `console`, `text` or
nothing are shown, not run (commands that install, or take long: the two
commands, FuseSoC, cocotb).

    pytest tests        (after `cargo build --release`, with the Python package installed)
"""

import json
import re
import subprocess
import sys

import pytest
from conftest import ROOT, need_tool

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def blocks(kind):
    """(page, first line, text) of every block marked `kind`."""
    out = []
    for page in PAGES:
        text = page.read_text()
        for m in FENCE.finditer(text):
            if m.group(1) == kind:
                line = text.count("\n", 0, m.start()) + 1
                out.append((page.relative_to(ROOT), line, m.group(2)))
    return out


def untracked():
    run = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                         capture_output=True, text=True)
    if run.returncode != 0:
        pytest.fail(f"git status failed: {run.stderr.strip()}")
    return {line[3:] for line in run.stdout.splitlines() if line.startswith("??")}


def ids(found):
    return [f"{page}:{line}" for page, line, _ in found]


SH, PY = blocks("sh"), blocks("python")


def test_the_readme_builds_a_binary_the_workspace_has():
    # Shown, not run: the build would compile the binary again with features
    # resolved for crosslane-sim alone (a minute of CI); cargo test built it.
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"^cargo build --release -p (\S+) --bin (\S+)$", readme, re.M)
    assert m, "the README has no `cargo build --release -p PACKAGE --bin NAME` line"
    meta = subprocess.run(["cargo", "metadata", "--no-deps", "--format-version", "1"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    bins = {(p["name"], t["name"]) for p in json.loads(meta.stdout)["packages"]
            for t in p["targets"] if "bin" in t["kind"]}
    assert (m.group(1), m.group(2)) in bins, f"{m.group(0)}: no such package and binary in {sorted(bins)}"
    assert f"target/release/{m.group(2)} --help" in readme


def test_the_docs_have_runnable_examples():
    # The README's first steps and the hand-run RTL and DPI-C examples at least.
    assert len(SH) >= 5, ids(SH)
    assert len(PY) >= 2, ids(PY)
    assert any("crosslane eval" in b for _, _, b in SH)
    assert any("crosslane exec" in b for _, _, b in SH)
    assert any("crosslane verify" in b for _, _, b in SH)


@pytest.mark.parametrize("page,line,script", SH, ids=ids(SH))
def test_shell_example_runs(page, line, script):
    for tool in ("verilator", "iverilog", "vvp"):
        if tool in script or "verify" in script:
            need_tool(tool)
    binary = ROOT / "target" / "release" / "crosslane"
    assert binary.exists() or "cargo build" in script, "build the binary first: cargo build --release"
    before = untracked()
    run = subprocess.run(["bash", "-c", "set -euo pipefail\n" + script], cwd=ROOT, capture_output=True,
                         text=True, timeout=1200)
    assert run.returncode == 0, f"{page}:{line} failed (exit {run.returncode}):\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}"
    left = untracked() - before
    assert not left, f"{page}:{line} left untracked files (add them to .gitignore or write under target/): {sorted(left)}"


@pytest.mark.parametrize("page,line,script", PY, ids=ids(PY))
def test_python_example_runs(page, line, script):
    before = untracked()
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{page}:{line} failed (exit {run.returncode}):\n{run.stderr[-3000:]}"
    assert not untracked() - before, f"{page}:{line} left untracked files"

"""pytest fixtures shared by python/tests, cocotb and flows (./dev test runs them together)."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent


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

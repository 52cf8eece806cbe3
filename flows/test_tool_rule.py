"""The Rust and Python suites decide alike whether a missing tool fails a
test: conftest.py's REQUIRE_VARS are testdata/tool_present.rs's."""

import re

from conftest import REQUIRE_VARS, ROOT


def test_the_rust_and_python_rules_read_the_same_variables():
    text = (ROOT / "testdata" / "tool_present.rs").read_text()
    found = re.search(r"pub const REQUIRE_VARS: \[&str; \d+\] = \[([^\]]*)\];", text)
    assert found, "testdata/tool_present.rs has no REQUIRE_VARS"
    rust = tuple(re.findall(r'"([^"]+)"', found.group(1)))
    assert rust == REQUIRE_VARS
    assert "CI" in rust

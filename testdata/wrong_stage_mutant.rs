//! The one reader of testdata/wrong-stage-mutant.txt for the Rust suites
//! (sim/tests/prove.rs and dpi/tests/verilator_example.rs include it with
//! `#[path]`; the Python suites have the root conftest.py's fixture).

/// (from, to) of `root`/testdata/wrong-stage-mutant.txt: the planted bug every simulation suite must catch.
pub fn wrong_stage_mutant(root: &std::path::Path) -> (String, String) {
    let path = root.join("testdata/wrong-stage-mutant.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("{} has no '{key}' line", path.display()))
            .to_string()
    };
    (field("from"), field("to"))
}

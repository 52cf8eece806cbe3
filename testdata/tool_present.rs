//! The one "does this test have its tool" rule of the Rust suites
//! (hdl/tests, sim/tests/common and dpi/tests include it with `#[path]`; the
//! Python suites have the root conftest.py's `need_tool`, which a test holds
//! to the same variables): a missing tool fails the test when CI (or
//! CROSSLANE_REQUIRE_SIMULATORS) is set, and outside CI prints one SKIPPED
//! line.

/// The environment variables that make a missing tool a failure.
pub const REQUIRE_VARS: [&str; 2] = ["CI", "CROSSLANE_REQUIRE_SIMULATORS"];

/// Whether the test can go on: `check` is `Err(what is missing)` when a tool
/// is not installed; that fails the test when CI requires the tool.
pub fn tool_present(check: Result<(), String>) -> bool {
    match check {
        Ok(()) => true,
        Err(e) => {
            let required = REQUIRE_VARS.iter().any(|v| std::env::var_os(v).is_some());
            assert!(!required, "{e}; CI requires it");
            eprintln!("SKIPPED: {e}");
            false
        }
    }
}

/// `Err` naming the first of `tools` not on `$PATH` and the Debian package
/// that brings it.
pub fn on_path(tools: &[&str], package: &str) -> Result<(), String> {
    let found =
        |t: &str| std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(t).is_file()));
    match tools.iter().find(|t| !found(t)) {
        None => Ok(()),
        Some(t) => Err(format!("'{t}' is not installed (apt-get install {package})")),
    }
}

//! generated/ is what the generator makes, and the emitted RTL compiles
//! under Icarus (a standing smoke test until the generated testbenches land).

use crosslane_sim::generate;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated")
}

#[test]
fn generated_files_match_the_generator() {
    let stale = generate::check(&root()).unwrap();
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}; rerun: {}",
        generate::COMMAND
    );
    // And the generator is deterministic within a run too.
    let a: Vec<String> = generate::files()
        .unwrap()
        .into_iter()
        .map(|f| f.contents)
        .collect();
    let b: Vec<String> = generate::files()
        .unwrap()
        .into_iter()
        .map(|f| f.contents)
        .collect();
    assert_eq!(a, b);
}

#[test]
fn generated_rtl_compiles_under_icarus() {
    let found = std::process::Command::new("iverilog")
        .arg("-V")
        .output()
        .is_ok();
    if !found {
        let msg = "SKIPPED: iverilog is not installed (apt-get install iverilog)";
        assert!(
            std::env::var_os("CROSSLANE_REQUIRE_SIMULATORS").is_none(),
            "{msg}, and CROSSLANE_REQUIRE_SIMULATORS is set"
        );
        eprintln!("{msg}");
        return;
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("crosslane_reduce.vvp");
    let res = std::process::Command::new("iverilog")
        .args(["-g2012", "-o"])
        .arg(&out)
        .arg(root().join("rtl/crosslane_reduce.v"))
        .output()
        .expect("run iverilog");
    assert!(
        res.status.success(),
        "iverilog failed:\n{}",
        String::from_utf8_lossy(&res.stderr)
    );
    assert!(out.exists());
}

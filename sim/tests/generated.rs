//! generated/ is exactly what the generator makes (CI's regenerate-and-diff).

use crosslane_sim::generate;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated")
}

#[test]
fn generated_files_match_the_generator() {
    let stale = generate::check(&root()).unwrap();
    assert!(stale.is_empty(), "stale generated files {stale:?}; rerun: {}", generate::COMMAND);
    // And the generator is deterministic within a run too.
    let a: Vec<String> = generate::files().unwrap().into_iter().map(|f| f.contents).collect();
    let b: Vec<String> = generate::files().unwrap().into_iter().map(|f| f.contents).collect();
    assert_eq!(a, b);
}

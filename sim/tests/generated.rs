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

/// The README's table of configurations states each module's latency, line
/// count and module count as generated.
#[test]
fn readme_states_each_configuration_as_generated() {
    let readme = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap();
    for config in crosslane_hdl::Config::ALL {
        let module = config.module();
        let text = std::fs::read_to_string(root().join(generate::rtl_path(config))).unwrap();
        let (lines, modules) = crosslane_sim::postpass::counts(&text);
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| {} | `{module}` |", config.name())))
            .unwrap_or_else(|| panic!("README has no row for {module}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[4], config.latency().to_string(), "{module}: latency in {row}");
        assert_eq!(cells[5].replace(',', ""), lines.to_string(), "{module}: lines in {row}");
        assert_eq!(cells[6], modules.to_string(), "{module}: modules in {row}");
        assert!(text.contains(&format!("// Latency {}:", config.latency())), "{module}: header latency");
        assert!(text.contains("`timescale 1ns / 1ps"), "{module}: timescale");
    }
}

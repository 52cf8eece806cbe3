//! generated/ is exactly what the generator makes (CI's regenerate-and-diff).

use crosslane_sim::emit as generate;
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

/// The table of configurations in docs/architecture.md states each
/// configuration's latency, its top's line count and its number of files
/// (the top's and its components') as generated, and the README's states
/// each latency.
#[test]
fn the_docs_state_each_configuration_as_generated() {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let arch = std::fs::read_to_string(docs.join("docs/architecture.md")).unwrap();
    let readme = std::fs::read_to_string(docs.join("README.md")).unwrap();
    for config in crosslane_golden::Config::ALL {
        let module = config.module();
        let text = std::fs::read_to_string(root().join(generate::rtl_path(config))).unwrap();
        let (lines, modules) = crosslane_sim::emit::postpass::counts(&text);
        assert_eq!(modules, 1, "{module}: one module a file");
        let files = generate::rtl_set(config).unwrap().len();
        let row = arch
            .lines()
            .find(|l| l.starts_with(&format!("| {} | `{module}` |", config.name())))
            .unwrap_or_else(|| panic!("docs/architecture.md has no row for {module}"));
        let front = readme
            .lines()
            .find(|l| l.contains(&format!("| `{module}` |")))
            .unwrap_or_else(|| panic!("README has no row for {module}"));
        assert!(front.ends_with(&format!("| {} |", config.latency())), "{module}: latency in the README's {front}");
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[4], config.latency().to_string(), "{module}: latency in {row}");
        assert_eq!(cells[5].replace(',', ""), lines.to_string(), "{module}: lines in {row}");
        assert_eq!(cells[6], files.to_string(), "{module}: files in {row}");
        assert!(text.contains(&format!("// Latency {}:", config.latency())), "{module}: header latency");
        assert!(text.contains("`timescale 1ns / 1ps"), "{module}: timescale");
    }
}

/// The identifiers of a Verilog expression (no keywords occur in the
/// combinational block's right-hand sides but sized literals, skipped).
fn identifiers(expr: &str) -> Vec<&str> {
    expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\''))
        .filter(|t| t.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') && !t.contains('\''))
        .collect()
}

/// The top's wiring is continuous assignments only, each signal assigned
/// once, none read back by another: a combinational block that assigned a
/// child's input twice in one pass, or read it back, hung the Icarus engine
/// (an every1 unit whose level-1 nodes read their own operands, every2 /
/// every3 units whose operands were assigned and then overridden); the
/// post-pass writes the block as `assign`s (docs/decisions.md, D47) and
/// refuses any other shape. Checked for every configuration's top module.
#[test]
fn the_top_wiring_assigns_each_signal_once_and_reads_none_back() {
    for config in crosslane_golden::Config::ALL {
        let module = config.module();
        let text = std::fs::read_to_string(root().join(generate::rtl_path(config))).unwrap();
        let top = &text[text.find(&format!("module {module}(")).expect("the top module")..];
        let top = &top[..top.find("endmodule").unwrap()];
        assert!(!top.contains("always"), "{module}: the top has a procedural block");
        let mut assigned = std::collections::HashSet::new();
        let mut twice = Vec::new();
        let mut read = Vec::new();
        for line in top.lines().map(str::trim) {
            let assign = line.strip_prefix("assign ").and_then(|l| l.strip_suffix(';'));
            if let Some((lhs, rhs)) = assign.and_then(|l| l.split_once(" = ")) {
                if !assigned.insert(lhs.split('[').next().unwrap().to_string()) {
                    twice.push(line.to_string());
                }
                read.extend(identifiers(rhs).into_iter().map(|r| (r.to_string(), line.to_string())));
            }
        }
        assert!(assigned.len() > 1000, "{module}: only {} signals assigned: not the unit's block", assigned.len());
        assert!(twice.is_empty(), "{module}: assigned more than once: {:?}", &twice[..twice.len().min(5)]);
        let both: Vec<&(String, String)> = read.iter().filter(|(r, _)| assigned.contains(r)).collect();
        assert!(both.is_empty(), "{module}: the wiring reads what it assigns: {:?}", &both[..both.len().min(5)]);
    }
}

//! The crate's modules import one way: each only those declared before it
//! in src/lib.rs (tools, engine, wave, emit, engines, verify, prove, cost,
//! cli), so there is no cycle, and the engine interface and the tools import
//! none.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level modules in their order of declaration.
fn layers() -> Vec<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    lib.lines().filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';')).map(str::to_string).collect()
}

/// The Rust files of a top-level module (`name.rs`, or `name/` whole).
fn files(name: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let file = src().join(format!("{name}.rs"));
    let dir = src().join(name);
    let mut out = Vec::new();
    if file.is_file() {
        out.push(file);
    }
    if dir.is_dir() {
        walk(&dir, &mut out);
    }
    assert!(!out.is_empty(), "module {name} has no file");
    out
}

/// The top-level modules a text names as `crate::X`.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        assert!(!name.is_empty(), "a `crate::{{…}}` group import: name each module on its own line");
        out.insert(name);
    }
    out
}

#[test]
fn modules_import_only_those_declared_before_them() {
    let layers = layers();
    assert_eq!(layers.first().map(String::as_str), Some("tools"));
    assert!(layers.len() >= 9, "{layers:?}");
    let mut bad = Vec::new();
    for (i, module) in layers.iter().enumerate() {
        for f in files(module) {
            let text = std::fs::read_to_string(&f).unwrap();
            for used in imports(&text) {
                let at = layers.iter().position(|l| *l == used);
                if at.is_none_or(|at| at >= i) && used != *module {
                    bad.push(format!("{} ({module}) imports crate::{used}", f.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "imports against the layering of src/lib.rs:\n{}", bad.join("\n"));
}

#[test]
fn the_checker_sees_an_import() {
    assert_eq!(
        imports("use crate::engine::{A, B};\nlet x = crate::tools::tail(s, 2);"),
        ["engine", "tools"].map(String::from).into()
    );
    assert!(imports("use crosslane_golden::Case;").is_empty());
}

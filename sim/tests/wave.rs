//! `crosslane wave`: every kind of VCD the project writes is drawn, and the
//! README's picture is what the command makes today.

mod common;

use crosslane_golden::campaign::observed;
use crosslane_sim::engines::hdl as hdl_sim;
use crosslane_sim::engines::rtl::{self as simulators, Simulator};
use crosslane_sim::wave;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wave").join(name)
}

#[test]
fn a_rust_hdl_vcd_is_drawn() {
    let case = observed().into_iter().map(|o| o.case).find(|c| c.op.family.has_mask()).unwrap();
    let vcd = hdl_sim::trace_case(&case, &tmp("hdl"), crosslane_golden::Config::DEFAULT).unwrap();
    let svg = wave::beside(&vcd, 32).unwrap();
    let text = std::fs::read_to_string(svg).unwrap();
    assert!(text.contains(&case.op.name()), "the op is named");
    for port in wave::PORTS {
        assert!(text.contains(&format!(">{port}<")), "{port} is drawn");
    }
}

#[test]
fn an_icarus_vcd_is_drawn_and_the_readme_picture_is_current() {
    if !common::tool_present(simulators::available(Simulator::Icarus).map_err(|e| e.to_string())) {
        return;
    }
    let case = observed().into_iter().next().unwrap().case;
    let vcd = simulators::trace_case(&case, &tmp("icarus"), crosslane_golden::Config::DEFAULT, false).unwrap();
    let text = std::fs::read_to_string(wave::beside(&vcd, 32).unwrap()).unwrap();
    assert!(text.contains(&case.op.name()) && text.contains(">result_o<"));

    let out = tmp("readme.svg");
    let args = ["wave", "--run", "12", "--clocks", "24", "--out", out.to_str().unwrap()];
    let (code, stdout, err) = common::run(&args, b"");
    assert_eq!(code, 0, "{stdout}{err}");
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/wave.svg");
    let want = std::fs::read_to_string(&docs).unwrap_or_default();
    assert!(
        std::fs::read_to_string(&out).unwrap() == want,
        "docs/wave.svg is stale: run `crosslane wave --run 12 --clocks 24 --out docs/wave.svg`"
    );
}

#[test]
fn bad_input_is_an_error() {
    let (code, _, err) = common::run(&["wave"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("give a VCD or --run N"), "{err}");
    let (code, _, err) = common::run(&["wave", "/nonexistent.vcd"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent.vcd"), "{err}");
}

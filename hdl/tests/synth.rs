//! The unit's Verilog: rust-hdl's checks pass and yosys synthesizes it.
//! Needs yosys: skipped with a one-line reason outside CI, a failure when
//! CI or CROSSLANE_REQUIRE_SIMULATORS is set (CI and `./dev test`).

use crosslane_hdl::CrosslaneReduce;
use rust_hdl::prelude::*;

fn have(tool: &str) -> bool {
    let found = std::process::Command::new(tool).arg("-V").output().is_ok_and(|o| o.status.success());
    if !found {
        let msg = format!("SKIPPED: {tool} is not installed (apt-get install {tool})");
        if std::env::var_os("CI").is_some() || std::env::var_os("CROSSLANE_REQUIRE_SIMULATORS").is_some() {
            panic!("{msg}; CI requires it");
        }
        eprintln!("{msg}");
    }
    found
}

#[test]
fn unit_passes_rust_hdl_checks_and_synthesizes() {
    let mut uut = CrosslaneReduce::default();
    uut.connect_all();
    check_all(&uut).expect("rust-hdl's connection and latch checks");
    let vlog = generate_verilog(&uut);
    assert!(vlog.contains("module top"), "emitted Verilog has the top module");
    for port in ["clk_i", "rst_ni", "in_valid_i", "op_i", "vec_i", "vbool_i", "out_valid_o", "result_o", "mask_o"] {
        assert!(vlog.contains(port), "port {port} in the emitted Verilog");
    }
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("crosslane_reduce.v");
    std::fs::write(&out, &vlog).expect("write the emitted Verilog");
    if have("yosys") {
        yosys_validate("crosslane_reduce", &vlog).expect("yosys synthesizes the unit");
    }
}

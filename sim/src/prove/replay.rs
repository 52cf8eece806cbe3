//! Replay a counterexample: drive the RTL under Icarus with its inputs clock
//! by clock, the `pre` clocks before the checked one included (the start
//! state is the simulator's own: the RTL's `initial` values), read the
//! outputs `latency` edges after the checked clock, and hold them to the
//! golden model of its op and vector. A VCD of the run is kept
//! beside the proof's files.

use super::Cex;
use crosslane_golden::{Op, Vec512};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the RTL did on the counterexample, and what it should have done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    pub out_valid: bool,
    pub result: u32,
    pub mask: u64,
    pub want_valid: bool,
    pub want_result: u32,
    pub want_mask: u64,
    pub vcd: PathBuf,
    /// The VCD drawn (`crosslane wave`), or why it could not be.
    pub picture: Result<PathBuf, String>,
}

impl Replayed {
    /// The simulator shows the bug too: outputs differ from the golden model.
    pub fn confirms(&self) -> bool {
        self.out_valid != self.want_valid
            || (self.want_valid && (self.result != self.want_result || self.mask != self.want_mask))
    }

    pub fn describe(&self) -> String {
        format!(
            "Icarus: out_valid_o={} result_o={:08x} mask_o={:016x}; golden: out_valid_o={} result_o={:08x} mask_o={:016x} ({}); VCD {}; picture {}",
            self.out_valid as u8,
            self.result,
            self.mask,
            self.want_valid as u8,
            self.want_result,
            self.want_mask,
            if self.confirms() { "confirmed" } else { "NOT reproduced in simulation" },
            self.vcd.display(),
            match &self.picture {
                Ok(p) => p.display().to_string(),
                Err(e) => format!("not drawn: {e}"),
            }
        )
    }
}

/// The expected outputs: `live` and the golden result of the checked
/// clock, 0 and 0 for a code that is no op (D1).
pub fn expected(cex: &Cex) -> Result<(bool, u32, u64), String> {
    let c0 = cex.checked().ok_or("counterexample without its checked clock")?;
    let live = c0.in_valid && cex.clocks.iter().skip(cex.pre).take(cex.latency).all(|c| c.rst_n);
    Ok(match Op::from_code(c0.op) {
        Some(op) => {
            let out = op.eval(&Vec512(c0.vec), c0.vbool);
            (live, out.value, out.mask.unwrap_or(0))
        }
        None => (live, 0, 0),
    })
}

/// The replay testbench.
pub fn testbench(cex: &Cex, vcd: &Path, module: &str) -> String {
    let mut v = String::new();
    v.push_str("`timescale 1ns/1ps\nmodule crosslane_replay;\n");
    v.push_str(
        "  reg clk_i = 1'b0, rst_ni, in_valid_i;\n  reg [8:0] op_i;\n  reg [511:0] vec_i;\n  reg [63:0] vbool_i;\n",
    );
    v.push_str("  wire out_valid_o;\n  wire [31:0] result_o;\n  wire [63:0] mask_o;\n");
    let _ = writeln!(
        v,
        "  {module} dut(.clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid_i), .op_i(op_i), .vec_i(vec_i),"
    );
    v.push_str("    .vbool_i(vbool_i), .out_valid_o(out_valid_o), .result_o(result_o), .mask_o(mask_o));\n");
    let _ = writeln!(v, "  initial begin\n    $dumpfile(\"{}\");\n    $dumpvars(0, crosslane_replay);", vcd.display());
    for (k, c) in cex.clocks.iter().enumerate() {
        let _ = writeln!(
            v,
            "    // clock {k}\n    op_i = 9'h{:03x}; vec_i = 512'h{}; vbool_i = 64'h{:016x}; in_valid_i = {}; rst_ni = {};",
            c.op,
            Vec512(c.vec).to_hex(),
            c.vbool,
            c.in_valid as u8,
            c.rst_n as u8
        );
        if k < cex.clocks.len() - 1 {
            v.push_str("    #5 clk_i = 1'b1;\n    #5 clk_i = 1'b0;\n");
        }
    }
    v.push_str(
        "    #1 $display(\"replay %b %h %h\", out_valid_o, result_o, mask_o);\n    $finish;\n  end\nendmodule\n",
    );
    v
}

/// Run the counterexample through the unit in the files `rtl` under Icarus, in `dir`.
pub fn replay(rtl: &[PathBuf], cex: &Cex, dir: &Path, module: &str) -> Result<Replayed, String> {
    let (want_valid, want_result, want_mask) = expected(cex)?;
    let tb = dir.join("replay.v");
    let vcd = dir.join("counterexample.vcd");
    std::fs::write(&tb, testbench(cex, &vcd, module)).map_err(|e| format!("cannot write {}: {e}", tb.display()))?;
    let vvp = dir.join("replay.vvp");
    let out = Command::new("iverilog")
        .args(["-g2012", "-s", "crosslane_replay", "-o"])
        .arg(&vvp)
        .args(rtl)
        .arg(&tb)
        .output()
        .map_err(|e| format!("cannot run iverilog: {e}"))?;
    if !out.status.success() {
        return Err(format!("iverilog failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let out = Command::new("vvp").arg("-n").arg(&vvp).output().map_err(|e| format!("cannot run vvp: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("replay "))
        .ok_or_else(|| format!("the replay printed no outputs:\n{text}"))?;
    let f: Vec<&str> = line.split_whitespace().collect();
    let parse = |s: &str, radix| u64::from_str_radix(s, radix).map_err(|_| format!("the replay printed '{line}'"));
    match f[..] {
        [valid, result, mask] => Ok(Replayed {
            out_valid: parse(valid, 2)? == 1,
            result: parse(result, 16)? as u32,
            mask: parse(mask, 16)?,
            want_valid,
            want_result,
            want_mask,
            picture: crate::wave::beside(&vcd, 2 * cex.latency + 1),
            vcd,
        }),
        _ => Err(format!("the replay printed '{line}'")),
    }
}

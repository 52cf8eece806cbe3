//! `crosslane cost`: what each op costs in cells and flip-flops. The unit is
//! wrapped with `op_i` tied to one op's code, so yosys (`synth -flatten`)
//! prunes every path that op does not use; the remainder is that op's share
//! of the shared tree. Slow (tens of seconds per op): not part of the tests.

use crate::emit::{self, MODULE};
use crate::tools::write_atomic;
use crosslane_golden::Op;
use std::path::Path;
use std::process::Command;

/// Cells and flip-flops of one configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cost {
    pub cells: u64,
    pub flip_flops: u64,
}

/// Read `Number of cells` and the DFF counts from yosys' `stat`.
pub fn parse_stat(stat: &str) -> Option<Cost> {
    let mut cells = None;
    let mut flip_flops = 0;
    for line in stat.lines() {
        let t = line.trim();
        if let Some(n) = t.strip_prefix("Number of cells:") {
            cells = n.trim().parse().ok();
        } else if t.starts_with("$_DFF")
            || t.starts_with("$_SDFF")
            || t.starts_with("$_DFFE")
            || t.starts_with("$_SDFFE")
        {
            flip_flops += t.split_whitespace().nth(1)?.parse::<u64>().ok()?;
        }
    }
    Some(Cost { cells: cells?, flip_flops })
}

/// A wrapper that ties `op_i` to `op` (`None`: the op select stays a port).
fn wrapper(op: Option<Op>) -> String {
    let (ports, op_i) = match op {
        Some(op) => (String::new(), format!("9'h{:03x}", op.code())),
        None => (", input [8:0] op_i".to_string(), "op_i".to_string()),
    };
    format!(
        "module cost_top(input clk_i, input rst_ni, input in_valid_i, input [511:0] vec_i, input [63:0] vbool_i{ports},\n\
         \x20 output out_valid_o, output [31:0] result_o, output [63:0] mask_o);\n\
         \x20 {MODULE} u(.clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid_i), .op_i({op_i}), .vec_i(vec_i),\n\
         \x20   .vbool_i(vbool_i), .out_valid_o(out_valid_o), .result_o(result_o), .mask_o(mask_o));\n\
         endmodule\n"
    )
}

/// Synthesize the unit (for one op, or whole) with yosys in `dir`.
pub fn cost(op: Option<Op>, dir: &Path) -> Result<Cost, String> {
    // The checked-in RTL, which must match the generator (an error otherwise):
    // the default unit's top and the components it instantiates.
    crate::tools::require("crosslane cost", &["yosys"], "yosys")?;
    let set = emit::rtl_set(crosslane_golden::Config::DEFAULT)?;
    let rtl: Vec<_> = emit::checked_in()?.into_iter().filter(|f| set.contains(&f.path)).collect();
    if rtl.len() != set.len() {
        return Err(format!("{} of the unit's {} RTL files are generated", rtl.len(), set.len()));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let name = op.map(|o| o.name()).unwrap_or_else(|| "all".into());
    let mut reads = String::new();
    for f in &rtl {
        let path = dir.join(f.path.file_name().ok_or("an RTL file without a name")?);
        write_atomic(&path, f.contents.as_bytes())?;
        reads.push_str(&format!("read_verilog {}; ", path.display()));
    }
    let wrap_path = dir.join(format!("cost_{name}.v"));
    let stat_path = dir.join(format!("stat_{name}.txt"));
    write_atomic(&wrap_path, wrapper(op).as_bytes())?;
    let script = format!(
        "{reads}read_verilog {}; synth -flatten -top cost_top; tee -q -o {} stat",
        wrap_path.display(),
        stat_path.display()
    );
    let out =
        Command::new("yosys").args(["-q", "-p", &script]).output().map_err(|e| format!("cannot run yosys: {e}"))?;
    if !out.status.success() {
        return Err(format!("yosys failed for {name}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let stat = std::fs::read_to_string(&stat_path).map_err(|e| format!("yosys wrote no stat: {e}"))?;
    parse_stat(&stat).ok_or_else(|| format!("cannot read yosys' stat for {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_counts_cells_and_every_flip_flop_kind() {
        let stat = "   Number of cells:              71277\n     $_ANDNOT_  17825\n     $_DFF_P_  3868\n     $_SDFF_PN0_  161\n     $_SDFF_PP0_  2201\n";
        assert_eq!(parse_stat(stat), Some(Cost { cells: 71277, flip_flops: 6230 }));
        assert_eq!(parse_stat("nothing"), None);
    }

    #[test]
    fn wrapper_ties_the_op_select() {
        let w = wrapper(Op::from_name("rbmax_nx16"));
        assert!(w.contains(".op_i(9'h061)"), "{w}");
        assert!(wrapper(None).contains("input [8:0] op_i"));
    }
}

//! The fast simulation form of the unit: the same ports, latency and valid
//! pipeline as each configuration, written for simulators rather than for
//! synthesis. The input registers feed one `always @(*)` block with a
//! `case` on the registered op, each branch the op's fold as straight-line
//! code (the formal reference's, [`super::reference`]), so a clock runs one
//! op's logic instead of every node of the tree; the result then passes the
//! configuration's remaining pipeline registers. `crosslane prove --form
//! fast` proves it against the same reference as the synthesis form, op by
//! op and for the no-op codes, so the two are equal at the ports.

use super::reference;
use crosslane_golden::{Config, Op};
use std::collections::HashSet;
use std::fmt::Write;

/// The module of `config`'s fast simulation form.
pub fn module(config: Config) -> String {
    format!("{}_fast", config.module())
}

/// The shared core's module name.
pub const CORE: &str = "crosslane_reduce_fast_core";

/// An identifier token's characters.
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// `text` with each identifier in `names` prefixed by `prefix`.
fn rename(text: &str, names: &HashSet<String>, prefix: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        if names.contains(token.as_str()) {
            out.push_str(prefix);
        }
        out.push_str(token);
        token.clear();
    };
    // A based literal's digits (`16'h7fff`) follow a quote: never a name.
    let mut after_quote = false;
    for c in text.chars() {
        if ident_char(c) {
            token.push(c);
        } else {
            if after_quote {
                out.push_str(&token);
                token.clear();
            } else {
                flush(&mut token, &mut out);
            }
            after_quote = c == '\'';
            out.push(c);
        }
    }
    if after_quote {
        out.push_str(&token);
    } else {
        flush(&mut token, &mut out);
    }
    out
}

/// One op's fold as declarations (`reg` lines) and the statements of its
/// `case` branch, from the reference module's body; its locals prefixed.
fn branch(op: Op, index: usize) -> (Vec<String>, Vec<String>) {
    let text = reference::verilog(op);
    let prefix = format!("o{index}_");
    let body: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && (l.trim_start().starts_with("wire") || l.trim_start().starts_with("assign")))
        .collect();
    // Locals: the name before ` = ` of each `wire` line.
    let names: HashSet<String> = body
        .iter()
        .filter(|l| l.trim_start().starts_with("wire"))
        .filter_map(|l| l.split(" = ").next()?.split_whitespace().last().map(str::to_string))
        .collect();
    let (mut decls, mut stmts) = (Vec::new(), Vec::new());
    for line in body {
        let line = line.trim_start().trim_end_matches(';');
        let Some((lhs, rhs)) = line.split_once(" = ") else { continue };
        let rhs = rename(rhs, &names, &prefix);
        if let Some(decl) = lhs.strip_prefix("wire ") {
            let name = decl.split_whitespace().last().unwrap_or_default();
            let kind = decl[..decl.len() - name.len()].trim();
            let kind = if kind.is_empty() { String::new() } else { format!("{kind} ") };
            decls.push(format!("    reg {kind}{prefix}{name};"));
            stmts.push(format!("{prefix}{name} = {rhs};"));
        } else if let Some(port) = lhs.strip_prefix("assign ") {
            stmts.push(format!("o{index}_{port} = {rhs};"));
        }
    }
    (decls, stmts)
}

/// The core: `LATENCY` a parameter, the fold of every op.
pub fn core() -> String {
    let mut v = String::new();
    let _ = writeln!(
        v,
        "module {CORE} #(\n    parameter integer LATENCY = {}\n) (\n    input  wire         clk_i,\n    input  wire         rst_ni,\n\
         \x20   input  wire         in_valid_i,\n    input  wire [8:0]   op_i,\n    input  wire [511:0] vec_i,\n\
         \x20   input  wire [63:0]  vbool_i,\n    output wire         out_valid_o,\n    output wire [31:0]  result_o,\n\
         \x20   output wire [63:0]  mask_o\n);",
        Config::DEFAULT.latency()
    );
    v.push_str(
        "    // Clock 1: the inputs, registered.\n    reg [8:0] op = 9'd0;\n    reg [511:0] vec = 512'd0;\n\
         \x20   reg [63:0] vbool = 64'd0;\n    reg valid = 1'b0;\n    always @(posedge clk_i) begin\n\
         \x20       op <= op_i;\n        vec <= vec_i;\n        vbool <= vbool_i;\n        valid <= in_valid_i & rst_ni;\n    end\n",
    );
    // The fold of the registered op: each op's block computes only while
    // the op is selected (its temporaries are written before they are read,
    // in that branch alone) and is 0 otherwise; a clock runs one op's logic.
    v.push_str("    reg [31:0] result_d;\n    reg [63:0] mask_d;\n");
    let mut select = String::new();
    for (i, op) in Op::all().into_iter().enumerate() {
        let (decls, stmts) = branch(op, i);
        let _ = writeln!(
            v,
            "    // {} (op_i = 9'h{:03x})\n    reg [31:0] o{i}_result;\n    reg [63:0] o{i}_mask;",
            op.name(),
            op.code()
        );
        for d in decls {
            v.push_str(&d);
            v.push('\n');
        }
        let _ = writeln!(v, "    always @(*) begin\n        if (op == 9'h{:03x}) begin", op.code());
        for s in stmts {
            let _ = writeln!(v, "            {s}");
        }
        let _ = writeln!(v, "        end else begin\n            o{i}_result = 32'd0;\n            o{i}_mask = 64'd0;\n        end\n    end");
        let _ = writeln!(select, "            9'h{:03x}: begin\n                result_d = o{i}_result;\n                mask_d = o{i}_mask;\n            end", op.code());
    }
    v.push_str("    always @(*) begin\n        result_d = 32'd0;\n        mask_d = 64'd0;\n        case (op)\n");
    v.push_str(&select);
    v.push_str("            default: begin\n            end\n        endcase\n    end\n");
    // Clocks 2 .. LATENCY: valid, result and mask through LATENCY - 1 registers.
    v.push_str(
        "    // Clocks 2 .. LATENCY: the result through LATENCY - 1 registers; a reset empties them.\n\
         \x20   localparam integer W = 1 + 32 + 64;\n\
         \x20   reg [W*(LATENCY-1)-1:0] pipe = {W*(LATENCY-1){1'b0}};\n\
         \x20   reg [W*(LATENCY-1)-1:0] pipe_d;\n\
         \x20   integer k;\n\
         \x20   always @(*) begin\n\
         \x20       pipe_d[W-1:0] = {valid & rst_ni, result_d, mask_d};\n\
         \x20       for (k = 1; k < LATENCY - 1; k = k + 1) begin\n\
         \x20           pipe_d[k*W +: W] = {pipe[(k-1)*W + W-1] & rst_ni, pipe[(k-1)*W +: W-1]};\n\
         \x20       end\n\
         \x20   end\n\
         \x20   always @(posedge clk_i) begin\n        pipe <= pipe_d;\n    end\n\
         \x20   assign {out_valid_o, result_o, mask_o} = pipe[(LATENCY-2)*W +: W];\n\
         endmodule\n",
    );
    v
}

/// The fast simulation form, a module a file: the core, then each
/// configuration's module (module name, text).
pub fn modules() -> Vec<(String, String)> {
    let mut out = vec![(CORE.to_string(), core())];
    for config in Config::ALL {
        out.push((
            module(config),
            format!(
                "module {}(\n    input  wire         clk_i,\n    input  wire         rst_ni,\n\
                 \x20   input  wire         in_valid_i,\n    input  wire [8:0]   op_i,\n    input  wire [511:0] vec_i,\n\
                 \x20   input  wire [63:0]  vbool_i,\n    output wire         out_valid_o,\n    output wire [31:0]  result_o,\n\
                 \x20   output wire [63:0]  mask_o\n);\n    {CORE} #(.LATENCY({})) u_core (\n\
                 \x20       .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid_i), .op_i(op_i), .vec_i(vec_i),\n\
                 \x20       .vbool_i(vbool_i), .out_valid_o(out_valid_o), .result_o(result_o), .mask_o(mask_o)\n    );\nendmodule\n",
                module(config),
                config.latency()
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locals_are_renamed_and_literals_kept() {
        let names: HashSet<String> = ["lane_0", "x_1", "value"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            rename("lane_0 + x_1 ? 16'hvalue : value[3:0] + vec[15:0]", &names, "o2_"),
            "o2_lane_0 + o2_x_1 ? 16'hvalue : o2_value[3:0] + vec[15:0]"
        );
    }
}

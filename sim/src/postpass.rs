//! Mechanical passes over rust-hdl's emitted Verilog, so the checked-in RTL
//! is named for its users and lint-clean under `verilator -Wall`.
//!
//! - [`rename_top`]: rust-hdl names the top module `top` and its children
//!   `top$child`; users instantiate `crosslane_reduce`.
//! - [`size_replace_bit`]: rust-hdl emits `x.replace_bit(i, v)` as
//!   `(x & ~(1 << (i)) | ((v) << (i)))`, whose shifted operands are 1 bit
//!   wide (Verilator's WIDTH warning). The pass widens them to the width of
//!   `x`, which changes no value.

/// Connect every sub-block's clock port straight to the clock it is driven
/// from: rust-hdl routes clocks through a `reg x$clock` assigned in the
/// combinational block (`x$clock = clk_i;`), which makes simulators
/// re-evaluate that whole block on every clock edge. The pass removes those
/// assignments and registers and wires `.clock(clk_i)` directly.
pub fn direct_clocks(verilog: &str) -> String {
    let mut routed: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for line in verilog.lines() {
        let t = line.trim();
        if let Some((lhs, rhs)) = t.strip_suffix(';').and_then(|x| x.split_once(" = ")) {
            let ident = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
            if lhs.ends_with("$clock") && ident(lhs) && ident(rhs) && !rhs.contains('$') {
                routed.insert(lhs.to_string(), rhs.to_string());
            }
        }
    }
    let mut out = String::with_capacity(verilog.len());
    for line in verilog.split_inclusive('\n') {
        let t = line.trim();
        let assigned =
            t.strip_suffix(';').and_then(|x| x.split_once(" = ")).is_some_and(|(lhs, _)| routed.contains_key(lhs));
        let declared = t
            .strip_prefix("reg ")
            .and_then(|x| x.trim().strip_suffix(';'))
            .is_some_and(|name| routed.contains_key(name.trim()));
        if assigned || declared {
            continue;
        }
        match t.strip_prefix(".clock(").and_then(|x| x.strip_suffix(')')) {
            Some(sig) if routed.contains_key(sig) => {
                out.push_str(&line.replacen(sig, &routed[sig], 1));
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// Rename module `top` (and the `top$…` children) to `name`.
pub fn rename_top(verilog: &str, name: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    for line in verilog.split_inclusive('\n') {
        let line = if let Some(rest) = line.strip_prefix("module top(") {
            format!("module {name}({rest}")
        } else if line.trim_end() == "endmodule // top" {
            format!("endmodule // {name}\n")
        } else {
            line.to_string()
        };
        out.push_str(&replace_prefixed(&line, "top$", &format!("{name}$")));
    }
    out
}

/// Replace `from` where it starts an identifier (not preceded by an
/// identifier character).
fn replace_prefixed(line: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(pos) = rest.find(from) {
        let before = rest[..pos].chars().next_back();
        let starts_ident = !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        out.push_str(&rest[..pos]);
        out.push_str(if starts_ident { to } else { from });
        rest = &rest[pos + from.len()..];
    }
    out.push_str(rest);
    out
}

/// Declared widths of the module's signals: `reg  [63:0] keep1;` → 64.
fn declared_widths(verilog: &str) -> std::collections::HashMap<String, usize> {
    let mut widths = std::collections::HashMap::new();
    for line in verilog.lines() {
        let t = line.trim();
        let Some(rest) =
            ["reg ", "wire ", "output reg ", "output wire ", "input wire "].iter().find_map(|p| t.strip_prefix(p))
        else {
            continue;
        };
        let rest = rest.trim();
        let (width, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let Some((range, name)) = r.split_once(']') else {
                    continue;
                };
                let Some((hi, lo)) = range.split_once(':') else {
                    continue;
                };
                let (Ok(hi), Ok(lo)) = (hi.trim().parse::<usize>(), lo.trim().parse::<usize>()) else {
                    continue;
                };
                (hi.abs_diff(lo) + 1, name)
            }
            None => (1, rest),
        };
        let name = name.trim().trim_end_matches(';').trim();
        widths.insert(name.to_string(), width);
    }
    widths
}

/// Length of the balanced parenthesised text starting at `s` (which must
/// start just after an opening parenthesis), up to but excluding the
/// closing one.
fn balanced(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Rewrite one `(SIG & ~(1 << (IDX)) | ((VAL) << (IDX)))` starting at
/// `s`; returns the rewrite and the length consumed.
fn rewrite_one(s: &str, widths: &std::collections::HashMap<String, usize>) -> Option<(String, usize)> {
    let body = s.strip_prefix('(')?;
    let (sig, rest) = body.split_once(" & ~(1 << (")?;
    if sig.is_empty() || !sig.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
        return None;
    }
    let width = *widths.get(sig)?;
    let idx_len = balanced(rest)?;
    let idx = &rest[..idx_len];
    let rest = rest[idx_len..].strip_prefix(")) | ((")?;
    let val_len = balanced(rest)?;
    let val = &rest[..val_len];
    let tail = format!(") << ({idx})))");
    let rest = rest[val_len..].strip_prefix(tail.as_str())?;
    let consumed = s.len() - rest.len();
    let pad = width - 1;
    Some((
        format!("({sig} & ~({{{{{pad}{{1'b0}}}}, 1'b1}} << ({idx})) | ({{{{{pad}{{1'b0}}}}, {val}}} << ({idx})))"),
        consumed,
    ))
}

/// Widen the shifted operands of rust-hdl's replace_bit to their target's width.
pub fn size_replace_bit(verilog: &str) -> String {
    let widths = declared_widths(verilog);
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 8);
    let mut rest = verilog;
    while let Some(pos) = rest.find(" & ~(1 << (") {
        // The rewrite starts at the '(' before the signal name.
        let start = rest[..pos].rfind('(').unwrap_or(pos);
        match rewrite_one(&rest[start..], &widths) {
            Some((rewritten, consumed)) => {
                out.push_str(&rest[..start]);
                out.push_str(&rewritten);
                rest = &rest[start + consumed..];
            }
            None => {
                out.push_str(&rest[..pos + 1]);
                rest = &rest[pos + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_top_renames_the_module_and_its_children_only() {
        let v = "module top(a);\n  top$dec dec(.x(top_x));\n  wire laptop$y;\nendmodule // top\nmodule top$dec(x);\nendmodule // top$dec\n";
        assert_eq!(
            rename_top(v, "crosslane_reduce"),
            "module crosslane_reduce(a);\n  crosslane_reduce$dec dec(.x(top_x));\n  wire laptop$y;\nendmodule // crosslane_reduce\nmodule crosslane_reduce$dec(x);\nendmodule // crosslane_reduce$dec\n"
        );
    }

    #[test]
    fn replace_bit_shifts_take_the_target_width() {
        let v = "    reg  [63:0] keep1;\n    reg  [7:0] m;\n\
                 keep1 = (keep1 & ~(1 << ((32'h2 * 0 + 32'h1) * 32'h1 + 0)) | ((1'b0) << ((32'h2 * 0 + 32'h1) * 32'h1 + 0)));\n\
                 m = (m & ~(1 << (3)) | ((q[(2 * 1)]) << (3)));\n";
        let got = size_replace_bit(v);
        assert!(got.contains(
            "keep1 = (keep1 & ~({{63{1'b0}}, 1'b1} << ((32'h2 * 0 + 32'h1) * 32'h1 + 0)) | ({{63{1'b0}}, 1'b0} << ((32'h2 * 0 + 32'h1) * 32'h1 + 0)));"
        ), "{got}");
        assert!(got.contains("m = (m & ~({{7{1'b0}}, 1'b1} << (3)) | ({{7{1'b0}}, q[(2 * 1)]} << (3)));"), "{got}");
    }

    #[test]
    fn clocks_are_wired_directly() {
        let v =
            "    reg  a$clock;\n    reg  [3:0] a$d;\n    x$a a(\n        .d(a$d),\n        .clock(a$clock)\n    );\n\
                 always @(*) begin\n        a$clock = clk_i;\n        a$d = 4'h1;\n    end\n";
        assert_eq!(
            direct_clocks(v),
            "    reg  [3:0] a$d;\n    x$a a(\n        .d(a$d),\n        .clock(clk_i)\n    );\n\
             always @(*) begin\n        a$d = 4'h1;\n    end\n"
        );
    }

    #[test]
    fn unknown_shapes_are_left_alone() {
        let v = "x = (y & ~(1 << (2)) | ((z) << (2)));\n";
        // y is not declared: nothing is rewritten.
        assert_eq!(size_replace_bit(v), v);
        let w = "reg  [3:0] y;\nx = (y & ~(1 << (2)) | ((z) << (3)));\n";
        // The two indices differ: not rust-hdl's shape.
        assert_eq!(size_replace_bit(w), w);
    }
}

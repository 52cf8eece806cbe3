//! What the proof can reason about soundly, checked before it runs: RTL
//! outside it is refused with a message naming the construct and its line,
//! never proven.
//!
//! The proof reads the RTL through yosys, which ignores sensitivity lists,
//! defines `SYNTHESIS` and honours `translate_off`, and whose cut turns every
//! flip-flop into one pipeline step whatever its clock; a simulator does
//! neither. So: every procedural block is `always @(*)` (or `always_comb`)
//! or clocked on a rising edge; no text differs between synthesis and
//! simulation; after yosys' `proc` and `flatten` every state element is a
//! plain `$dff` on the rising edge of the top's `clk_i` itself (no reset
//! flop, no enable, no latch, no memory, no inverted or derived clock); the
//! top's ports are the contract's, by name, direction and width.

use super::unroll::{INPUTS, OUTPUTS};

/// Refuse RTL text the proof would read differently from a simulator:
/// `files` as (name, text).
pub fn check_text(files: &[(String, String)]) -> Result<(), String> {
    for (name, text) in files {
        for (i, line) in text.lines().enumerate() {
            let at = || format!("{name}:{}", i + 1);
            let code = line.split("//").next().unwrap_or("");
            for word in ["`ifdef", "`ifndef", "`elsif"] {
                if let Some(rest) = code.trim_start().strip_prefix(word) {
                    if rest.split_whitespace().next() == Some("SYNTHESIS") {
                        return Err(format!(
                            "{}: {word} SYNTHESIS: yosys reads other text than a simulator; the proof would not be of the RTL simulated",
                            at()
                        ));
                    }
                }
            }
            let lower = line.to_ascii_lowercase();
            if lower.contains("translate_off") || lower.contains("synthesis_off") {
                return Err(format!("{}: a `translate_off` pragma: yosys would skip text a simulator runs", at()));
            }
            let mut rest = code;
            while let Some(k) = rest.find("always") {
                let after = &rest[k + "always".len()..];
                rest = after;
                let t = after.trim_start();
                if after.starts_with("_comb") || after.starts_with("_ff") || after.starts_with("_latch") {
                    if after.starts_with("_latch") {
                        return Err(format!("{}: `always_latch`: a latch is outside the proof", at()));
                    }
                    continue;
                }
                if !after.starts_with(|c: char| c.is_whitespace() || c == '@') {
                    continue; // a longer identifier
                }
                let Some(list) = t.strip_prefix('@') else {
                    return Err(format!("{}: an `always` block without `@(…)`", at()));
                };
                let list = list.trim_start();
                if list.starts_with('*') || list.starts_with("(*)") || list.starts_with("( * )") {
                    continue;
                }
                let inner = list.strip_prefix('(').and_then(|l| l.split(')').next()).unwrap_or("");
                let edges: Vec<&str> = inner.split(" or ").flat_map(|p| p.split(',')).map(str::trim).collect();
                if edges.len() == 1 && edges[0].starts_with("posedge ") {
                    continue;
                }
                return Err(format!(
                    "{}: `always @({inner})`: only `always @(*)` and a single `posedge` clock are proven (yosys ignores a sensitivity list a simulator obeys)",
                    at()
                ));
            }
        }
    }
    Ok(())
}

/// The `src` attribute of a cell, for messages.
fn src(cell: &serde_json::Value) -> String {
    cell["attributes"]["src"].as_str().map_or_else(|| "(no source line)".into(), |s| s.to_string())
}

/// Refuse a flattened unit (yosys' JSON after `proc` and `flatten`) whose
/// state is not all rising-edge `$dff`s on `clk_i`, or whose ports are not
/// the contract's.
pub fn check_netlist(json: &str, top: &str) -> Result<(), String> {
    check_netlist_ports(json, top, &INPUTS, &OUTPUTS)
}

/// [`check_netlist`] against another contract: `clk_i` and the data
/// `inputs` and `outputs`, (port, width) each.
pub fn check_netlist_ports(
    json: &str,
    top: &str,
    inputs: &[(&str, usize)],
    outputs: &[(&str, usize)],
) -> Result<(), String> {
    let contract: Vec<(&str, usize, &str)> = std::iter::once(("clk_i", 1, "input"))
        .chain(inputs.iter().map(|&(n, w)| (n, w, "input")))
        .chain(outputs.iter().map(|&(n, w)| (n, w, "output")))
        .collect();
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("yosys wrote JSON that does not parse: {e}"))?;
    let m = &v["modules"][top];
    let ports = m["ports"].as_object().ok_or_else(|| format!("yosys' JSON has no module {top}"))?;
    for (name, port) in ports {
        let Some(&(_, width, dir)) = contract.iter().find(|c| c.0 == name) else {
            return Err(format!("{top} has a port {name} the contract does not: the proof would leave it free"));
        };
        let got = port["bits"].as_array().map_or(0, |b| b.len());
        if got != width || port["direction"] != dir {
            // Where the port is declared (its net's source), else the module's.
            let net = &m["netnames"][name.as_str()];
            let at = net["attributes"]["src"].as_str().or_else(|| m["attributes"]["src"].as_str()).unwrap_or(top);
            return Err(format!(
                "{at}: {top}: port {name} is {} [{got}]; the contract's is {dir} [{width}]",
                port["direction"].as_str().unwrap_or("?")
            ));
        }
    }
    for (name, width, _) in &contract {
        if !ports.contains_key(*name) {
            return Err(format!("{top} has no port {name} [{width}]"));
        }
    }
    let clk = ports["clk_i"]["bits"].clone();
    let cells = m["cells"].as_object().ok_or_else(|| format!("yosys' JSON has no cells in {top}"))?;
    const STATE: [&str; 12] = [
        "$dff", "$adff", "$sdff", "$aldff", "$dlatch", "$adlatch", "$sr", "$ff", "$mem", "$_DFF", "$_SDFF", "$_DLATCH",
    ];
    for (name, cell) in cells {
        let ty = cell["type"].as_str().unwrap_or("");
        let stateful = STATE.iter().any(|s| ty.starts_with(s)) || ty.starts_with("$_ALDFF") || ty.starts_with("$_SR");
        if !stateful {
            continue;
        }
        if ty != "$dff" {
            return Err(format!(
                "{}: {name} is a {ty} (a flip-flop with a reset, enable or set, a latch or a memory): only plain rising-edge flip-flops are proven",
                src(cell)
            ));
        }
        // yosys writes a parameter as a binary string ("000…001") or a number.
        let rising = match &cell["parameters"]["CLK_POLARITY"] {
            serde_json::Value::Number(n) => n.as_u64() == Some(1),
            serde_json::Value::String(p) => p.trim_start_matches('0') == "1",
            _ => false,
        };
        if !rising {
            return Err(format!(
                "{}: {name} is clocked on a falling edge: only rising edges of clk_i are proven",
                src(cell)
            ));
        }
        if cell["connections"]["CLK"] != clk {
            return Err(format!(
                "{}: {name} is clocked by another net than clk_i itself (an inverted or derived clock): not proven",
                src(cell)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Result<(), String> {
        check_text(&[("x.v".into(), t.into())])
    }

    #[test]
    fn text_the_simulators_read_otherwise_is_refused_with_its_line() {
        assert_eq!(
            text("always @(*) begin\n  y = a;\nend\nalways @(posedge clock) q <= d;\nalways_comb y = a;\n"),
            Ok(())
        );
        assert_eq!(text("always @* y = a;\n// always @(a) in a comment\nreg always_on;\n"), Ok(()));
        let e = text("wire a;\nalways @(a or b) y = a & b;\n").unwrap_err();
        assert!(e.starts_with("x.v:2: `always @(a or b)`"), "{e}");
        assert!(text("always @(posedge clk or negedge rst) q <= 0;\n").unwrap_err().starts_with("x.v:1:"));
        assert!(text("always @(negedge clk) q <= d;\n").is_err());
        let e = text("module m;\n`ifdef SYNTHESIS\n`endif\n").unwrap_err();
        assert!(e.starts_with("x.v:2: `ifdef SYNTHESIS:"), "{e}");
        assert!(text("  `ifndef SYNTHESIS\n").is_err());
        assert!(text("// synopsys translate_off\n").unwrap_err().contains("translate_off"));
        assert!(text("always_latch y = a;\n").is_err());
    }
}

//! `crosslane wave`: a VCD's unit ports as an SVG picture, one column per
//! clock.
//!
//! The unit is found by its ports: the first scope (in file order) with
//! `clk_i` and `out_valid_o` (the RTL's `dut` under the testbenches, the
//! rust-hdl unit in its own VCDs, the replayed counterexample's unit). Each
//! column is one rising edge of `clk_i` and shows every port's value after
//! that edge, settled (the value in effect just before the next edge).
//! `op_i` is labelled with the op's name. The picture is deterministic: the
//! same VCD gives the same bytes.

use crosslane_golden::Op;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The ports drawn, in order, when present.
pub const PORTS: [&str; 9] =
    ["clk_i", "rst_ni", "in_valid_i", "op_i", "vec_i", "vbool_i", "out_valid_o", "result_o", "mask_o"];

/// One drawn signal: its name, width and value (bits, MSB first, may hold
/// x/z) in each column.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub name: String,
    pub width: usize,
    pub columns: Vec<String>,
}

/// The unit's ports, sampled once per clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Waves {
    /// The scope the ports were found in, dotted.
    pub scope: String,
    pub traces: Vec<Trace>,
}

struct Var {
    id: String,
    name: String,
    width: usize,
    scope: Vec<String>,
}

/// Read the unit's ports out of VCD text.
pub fn read_vcd(text: &str) -> Result<Waves, String> {
    let (header, body) = text.split_once("$enddefinitions").ok_or("not a VCD, or one cut short: no $enddefinitions")?;
    let mut vars = Vec::new();
    let mut scope: Vec<String> = Vec::new();
    let mut words = header.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "$scope" => {
                let _kind = words.next();
                scope.push(words.next().ok_or("VCD: $scope without a name (cut short?)")?.to_string());
            }
            "$upscope" => {
                scope.pop();
            }
            "$var" => {
                let _kind = words.next();
                let width: usize =
                    words.next().and_then(|x| x.parse().ok()).ok_or("VCD: $var without a width (cut short?)")?;
                let id = words.next().ok_or("VCD: $var without an id (cut short?)")?.to_string();
                let name = words.next().ok_or("VCD: $var without a name (cut short?)")?.to_string();
                vars.push(Var { id, name, width, scope: scope.clone() });
            }
            _ => {}
        }
    }
    // The unit: the first scope with clk_i and out_valid_o.
    let unit = vars
        .iter()
        .filter(|v| v.name == "out_valid_o")
        .map(|v| v.scope.clone())
        .find(|s| vars.iter().any(|v| v.name == "clk_i" && &v.scope == s))
        .ok_or("the VCD has no scope with the unit's ports clk_i and out_valid_o")?;
    let chosen: Vec<&Var> =
        PORTS.iter().filter_map(|p| vars.iter().find(|v| v.name == *p && v.scope == unit)).collect();
    let index: HashMap<&str, usize> = chosen.iter().enumerate().map(|(i, v)| (v.id.as_str(), i)).collect();
    // Value changes of the chosen signals: (time, value).
    let mut changes: Vec<Vec<(u64, String)>> = vec![Vec::new(); chosen.len()];
    let mut now = 0u64;
    let mut words = body.split_whitespace();
    while let Some(w) = words.next() {
        let first = w.as_bytes()[0];
        match first {
            b'#' => now = w[1..].parse().map_err(|_| format!("VCD: bad time '{w}'"))?,
            b'b' | b'B' | b'r' | b'R' => {
                let id = words.next().ok_or("VCD: it ends inside a value change: cut short")?;
                if first != b'r' && first != b'R' {
                    if let Some(&i) = index.get(id) {
                        changes[i].push((now, w[1..].to_ascii_lowercase()));
                    }
                }
            }
            b'0' | b'1' | b'x' | b'X' | b'z' | b'Z' => {
                if let Some(&i) = index.get(&w[1..]) {
                    changes[i].push((now, w[..1].to_ascii_lowercase()));
                }
            }
            _ => {} // $dumpvars, $end, $comment …
        }
    }
    let clk = chosen.iter().position(|v| v.name == "clk_i").ok_or("no clk_i")?;
    let mut edges = Vec::new();
    let mut last = String::from("x");
    for (t, v) in &changes[clk] {
        if v == "1" && last != "1" {
            edges.push(*t);
        }
        last = v.clone();
    }
    if edges.is_empty() {
        return Err(if changes[clk].is_empty() {
            "clk_i never changes in the VCD: no value changes (cut short?)".into()
        } else {
            "clk_i never rises in the VCD".into()
        });
    }
    // Column k: the value in effect just before edge k+1 (after edge k for the last).
    let period = if edges.len() > 1 { edges[1] - edges[0] } else { 1 };
    let sample_at: Vec<u64> = (0..edges.len())
        .map(|k| edges.get(k + 1).map_or(edges[k] + period.max(1) - 1, |&next| next.saturating_sub(1)))
        .collect();
    let traces = chosen
        .iter()
        .zip(&changes)
        .map(|(v, ch)| {
            let columns = sample_at
                .iter()
                .map(|&t| {
                    let value = ch.iter().take_while(|(ct, _)| *ct <= t).last().map_or("x", |(_, v)| v.as_str());
                    // VCD drops leading zeros: pad to the width (x/z extend as themselves).
                    let pad = match value.as_bytes()[0] {
                        b'x' | b'z' => value[..1].to_string(),
                        _ => "0".to_string(),
                    };
                    pad.repeat(v.width.saturating_sub(value.len())) + value
                })
                .collect();
            Trace { name: v.name.clone(), width: v.width, columns }
        })
        .collect();
    Ok(Waves { scope: unit.join("."), traces })
}

/// Bits (MSB first) as hex, or "x" when any bit is unknown.
fn hex(bits: &str) -> String {
    if bits.bytes().any(|b| b != b'0' && b != b'1') {
        return "x".into();
    }
    let pad = (4 - bits.len() % 4) % 4;
    let bits = "0".repeat(pad) + bits;
    bits.as_bytes()
        .chunks(4)
        .map(|c| {
            let n = c.iter().fold(0u32, |a, &b| a * 2 + u32::from(b - b'0'));
            char::from_digit(n, 16).unwrap_or('?')
        })
        .collect()
}

fn label(trace: &Trace, bits: &str) -> String {
    let h = hex(bits);
    if trace.name == "op_i" && h != "x" {
        if let Some(op) = u16::from_str_radix(&h, 16).ok().and_then(Op::from_code) {
            return op.name();
        }
    }
    h
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

const NAME_W: usize = 96;
const COL_W: usize = 68;
const ROW_H: usize = 26;
const CHARS: usize = 9;

/// The SVG picture of columns `from .. from + clocks` of `waves`.
/// `command` is written into the file's header comment.
pub fn svg(waves: &Waves, from: usize, clocks: usize, command: &str, source: &str) -> String {
    let total = waves.traces.first().map_or(0, |t| t.columns.len());
    let from = from.min(total);
    let n = clocks.min(total - from);
    let width = NAME_W + n * COL_W + 8;
    let height = ROW_H * (waves.traces.len() + 1) + 8;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"monospace\" font-size=\"11\">"
    );
    let _ = writeln!(
        s,
        "<desc>Generated by `{}` from {} (unit scope {}): clocks {}..{} of {total}.</desc>",
        escape(command),
        escape(source),
        escape(&waves.scope),
        from,
        from + n
    );
    let _ = writeln!(s, "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>");
    // Header: clock numbers.
    for c in 0..n {
        let x = NAME_W + c * COL_W;
        let _ = writeln!(s, "<text x=\"{}\" y=\"16\" fill=\"#777777\">{}</text>", x + 4, from + c);
        let _ = writeln!(s, "<line x1=\"{x}\" y1=\"4\" x2=\"{x}\" y2=\"{}\" stroke=\"#eeeeee\"/>", height - 4);
    }
    for (r, trace) in waves.traces.iter().enumerate() {
        let top = ROW_H * (r + 1) + 4;
        let (hi, lo) = (top + 4, top + ROW_H - 6);
        let mid = (hi + lo) / 2;
        let _ = writeln!(s, "<text x=\"4\" y=\"{}\">{}</text>", mid + 4, escape(&trace.name));
        let cols = &trace.columns[from..from + n];
        if trace.name == "clk_i" {
            let mut pts = String::new();
            for c in 0..n {
                let x = NAME_W + c * COL_W;
                let _ =
                    write!(pts, "{x},{lo} {x},{hi} {},{hi} {},{lo} {},{lo} ", x + COL_W / 2, x + COL_W / 2, x + COL_W);
            }
            let _ = writeln!(s, "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f6fb2\"/>", pts.trim_end());
        } else if trace.width == 1 {
            let mut pts = String::new();
            for (c, v) in cols.iter().enumerate() {
                let x = NAME_W + c * COL_W;
                if v != "0" && v != "1" {
                    let _ = writeln!(
                        s,
                        "<rect x=\"{x}\" y=\"{hi}\" width=\"{COL_W}\" height=\"{}\" fill=\"#dddddd\"/>",
                        lo - hi
                    );
                }
                let y = if v == "1" { hi } else { lo };
                let _ = write!(pts, "{x},{y} {},{y} ", x + COL_W);
            }
            let _ = writeln!(s, "<polyline points=\"{}\" fill=\"none\" stroke=\"#1a7f37\"/>", pts.trim_end());
        } else {
            let mut c = 0;
            while c < n {
                let mut end = c + 1;
                while end < n && cols[end] == cols[c] {
                    end += 1;
                }
                let (x0, x1) = (NAME_W + c * COL_W, NAME_W + end * COL_W);
                let text = label(trace, &cols[c]);
                let fill = if text == "x" { "#dddddd" } else { "#f3f7fb" };
                let _ = writeln!(
                    s,
                    "<polygon points=\"{},{mid} {},{hi} {},{hi} {},{mid} {},{lo} {},{lo}\" fill=\"{fill}\" stroke=\"#555555\"><title>{}: {}</title></polygon>",
                    x0 + 1,
                    x0 + 4,
                    x1 - 4,
                    x1 - 1,
                    x1 - 4,
                    x0 + 4,
                    escape(&trace.name),
                    escape(&if text == hex(&cols[c]) { text.clone() } else { format!("{text} ({})", hex(&cols[c])) })
                );
                let room = CHARS * (end - c);
                let shown = if text.len() > room { format!("{}…", &text[..room.saturating_sub(1)]) } else { text };
                let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", x0 + 6, mid + 4, escape(&shown));
                c = end;
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The unit's ports in the VCD file `vcd`, and the file's name.
fn load(vcd: &Path) -> Result<(Waves, String), String> {
    let text = std::fs::read_to_string(vcd).map_err(|e| format!("cannot read {}: {e}", vcd.display()))?;
    let waves = read_vcd(&text).map_err(|e| format!("{}: {e}", vcd.display()))?;
    let name = vcd.file_name().map_or_else(|| vcd.display().to_string(), |n| n.to_string_lossy().into_owned());
    Ok((waves, name))
}

/// Refuse a picture that would replace its own VCD, or draw no clock.
fn check_picture(vcd: &Path, out: &Path, waves: &Waves, from: usize, clocks: usize) -> Result<(), String> {
    let same =
        vcd == out || matches!((std::fs::canonicalize(vcd), std::fs::canonicalize(out)), (Ok(a), Ok(b)) if a == b);
    if same {
        return Err(format!(
            "the picture would be written over its VCD {} (name the picture with --out, or the VCD .vcd)",
            vcd.display()
        ));
    }
    let total = waves.traces.first().map_or(0, |t| t.columns.len());
    if clocks == 0 {
        return Err("--clocks 0 draws no clock".into());
    }
    if from >= total {
        return Err(format!(
            "--from {from} is past the last clock: the VCD has {total} (0..{})",
            total.saturating_sub(1)
        ));
    }
    Ok(())
}

/// Render `vcd` (columns `from .. from + clocks`) to `out` atomically.
pub fn render(vcd: &Path, out: &Path, from: usize, clocks: usize, command: &str) -> Result<(), String> {
    let (waves, name) = load(vcd)?;
    check_picture(vcd, out, &waves, from, clocks)?;
    crate::tools::write_atomic(out, svg(&waves, from, clocks, command, &name).as_bytes())
}

/// The picture of a failing case's VCD, written beside it (`X.vcd` →
/// `X.svg`): its last `clocks` clocks, where the failure shows.
pub fn beside(vcd: &Path, clocks: usize) -> Result<PathBuf, String> {
    let (waves, name) = load(vcd)?;
    let from = waves.traces.first().map_or(0, |t| t.columns.len()).saturating_sub(clocks);
    let out = vcd.with_extension("svg");
    check_picture(vcd, &out, &waves, from, clocks)?;
    let command = format!("crosslane wave {name} --from {from} --clocks {clocks}");
    crate::tools::write_atomic(&out, svg(&waves, from, clocks, &command, &name).as_bytes())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VCD: &str = "$date today $end\n$scope module tb $end\n$var reg 1 ! clk $end\n$scope module dut $end\n\
        $var wire 1 ! clk_i $end\n$var wire 9 \" op_i [8:0] $end\n$var wire 1 # out_valid_o $end\n\
        $var wire 32 $ result_o [31:0] $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n\
        #0\n$dumpvars\n0!\nbx \"\n0#\nb0 $\n$end\n#5\n1!\nb1 \"\n#10\n0!\n#15\n1!\n1#\nb101 $\n#20\n0!\n#25\n1!\n";

    #[test]
    fn ports_are_sampled_once_per_rising_edge() {
        let w = read_vcd(VCD).unwrap();
        assert_eq!(w.scope, "tb.dut");
        let names: Vec<&str> = w.traces.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["clk_i", "op_i", "out_valid_o", "result_o"]);
        assert_eq!(w.traces[1].columns, ["000000001"; 3]);
        assert_eq!(w.traces[2].columns, ["0", "1", "1"]);
        assert_eq!(hex(&w.traces[3].columns[1]), "00000005");
        assert_eq!(label(&w.traces[1], &w.traces[1].columns[0]), Op::from_code(1).unwrap().name());
        assert_eq!(hex("1x"), "x");
    }

    #[test]
    fn the_picture_is_deterministic_and_labels_ops() {
        let w = read_vcd(VCD).unwrap();
        let a = svg(&w, 0, 10, "crosslane wave t.vcd", "t.vcd");
        assert_eq!(a, svg(&w, 0, 10, "crosslane wave t.vcd", "t.vcd"));
        assert!(a.starts_with("<svg") && a.ends_with("</svg>\n"));
        assert!(a.contains(&Op::from_code(1).unwrap().name()));
        assert!(a.contains("Generated by `crosslane wave t.vcd`"));
        assert_eq!(a.matches("<polygon").count(), 1 + 2, "op_i once, result_o twice");
    }

    #[test]
    fn a_vcd_without_the_unit_is_an_error() {
        assert!(read_vcd("nothing").unwrap_err().contains("no $enddefinitions"));
        let other = VCD.replace("out_valid_o", "other");
        assert!(read_vcd(&other).unwrap_err().contains("no scope with the unit's ports"));
        let still = VCD.replace("1!", "0!");
        assert!(read_vcd(&still).unwrap_err().contains("never rises"));
    }

    #[test]
    fn a_cut_short_vcd_says_so() {
        let defs = VCD.find("$enddefinitions").unwrap();
        assert!(read_vcd(&VCD[..defs]).unwrap_err().contains("cut short"));
        let body = VCD.find("#0").unwrap();
        assert!(read_vcd(&VCD[..body]).unwrap_err().contains("cut short"));
        let mid = VCD.find("b0 $").unwrap() + 2;
        assert!(read_vcd(&VCD[..mid]).unwrap_err().contains("cut short"), "{}", &VCD[..mid]);
    }

    #[test]
    fn a_picture_never_replaces_its_vcd_and_always_draws_a_clock() {
        let dir = std::env::temp_dir().join(format!("crosslane-wave-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let named_svg = dir.join("dump.svg");
        std::fs::write(&named_svg, VCD).unwrap();
        // The default picture of a VCD named .svg is the VCD itself: refused, the VCD kept.
        let e = beside(&named_svg, 32).unwrap_err();
        assert!(e.contains("over its VCD"), "{e}");
        let vcd = dir.join("dump.vcd");
        std::fs::write(&vcd, VCD).unwrap();
        assert!(render(&vcd, &vcd, 0, 32, "x").unwrap_err().contains("over its VCD"));
        assert!(render(&vcd, &dir.join("./dump.vcd"), 0, 32, "x").unwrap_err().contains("over its VCD"));
        assert_eq!(std::fs::read_to_string(&vcd).unwrap(), VCD);
        assert_eq!(std::fs::read_to_string(&named_svg).unwrap(), VCD);
        // Nothing to draw: refused, nothing written.
        let out = dir.join("p.svg");
        assert!(render(&vcd, &out, 0, 0, "x").unwrap_err().contains("--clocks 0"));
        let e = render(&vcd, &out, 3, 32, "x").unwrap_err();
        assert!(e.contains("--from 3 is past the last clock: the VCD has 3"), "{e}");
        assert!(!out.exists());
        render(&vcd, &out, 2, 32, "x").unwrap();
        assert!(out.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

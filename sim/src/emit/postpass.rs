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
    // Constants: `localparam  name = W'h…;`.
    for line in verilog.lines() {
        let Some((name, value)) = line.trim().strip_prefix("localparam ").and_then(|r| r.split_once(" = ")) else {
            continue;
        };
        if let Some(Ok(w)) = value.split_once('\'').map(|(w, _)| w.trim().parse::<usize>()) {
            widths.insert(name.trim().to_string(), w);
        }
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

/// rust-hdl emits `bit_cast::<M, N>(x)` as `((x) & M'hff…)`: the AND
/// widens `x` by context (Verilator's WIDTH warning). The pass writes the
/// zero extension out, `{{(M − N) zeros}, x}` (or `x` when the widths are
/// equal), where `x` is a signal or a constant part select (`s[(k)+:(n)]`)
/// whose width it can read from the module's declarations; any other cast
/// is left as it is (and lint names it). The same value.
pub fn zero_extend_casts(verilog: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    // Module by module: the same name may be declared at other widths elsewhere.
    for module in verilog.split_inclusive("endmodule") {
        let widths = declared_widths(module);
        let mut rest = module;
        while let Some(pos) = rest.find("((") {
            out.push_str(&rest[..pos]);
            rest = &rest[pos..];
            match zero_extension(rest, &widths) {
                Some((text, consumed)) => {
                    out.push_str(&text);
                    rest = &rest[consumed..];
                }
                None => {
                    out.push('(');
                    rest = &rest[1..];
                }
            }
        }
        out.push_str(rest);
    }
    out
}

/// At `s` (starting `((`): a cast `((x) & M'h<M ones>)` and its rewrite.
fn zero_extension(s: &str, widths: &std::collections::HashMap<String, usize>) -> Option<(String, usize)> {
    let inner_len = balanced(&s[2..])? + 1;
    let x = &s[2..1 + inner_len];
    let after = s[1 + inner_len..].strip_prefix(") & ")?;
    let (m, after) = after.split_once("'h")?;
    let m: usize = m.parse().ok()?;
    let hex_len = after.find(|c: char| !c.is_ascii_hexdigit())?;
    let hex = &after[..hex_len];
    // M ones: the top digit holds M mod 4 of them (or 4), every other is f.
    let top = match m % 4 {
        0 => 'f',
        1 => '1',
        2 => '3',
        _ => '7',
    };
    if m == 0 || hex.len() != m.div_ceil(4) || !hex.starts_with(top) || !hex[1..].chars().all(|c| c == 'f') {
        return None;
    }
    after[hex_len..].strip_prefix(')')?;
    let ident = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    let n = if ident(x) {
        *widths.get(x)?
    } else {
        // s[(32'hK)+:(N)]
        let (name, sel) = x.split_once("[(")?;
        let (_, n) = sel.strip_suffix(")]")?.split_once(")+:(")?;
        if !ident(name) || !widths.contains_key(name) {
            return None;
        }
        n.parse().ok()?
    };
    let consumed = s.len() - after[hex_len + 1..].len();
    match n.cmp(&m) {
        std::cmp::Ordering::Equal => Some((x.to_string(), consumed)),
        std::cmp::Ordering::Less => Some((format!("{{{}'b0, {x}}}", m - n), consumed)),
        std::cmp::Ordering::Greater => None,
    }
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

/// One module of an emitted file: its name and its text (from `module` to
/// `endmodule // name`).
struct Module<'a> {
    name: &'a str,
    text: &'a str,
}

/// Split a file into the text before its first module and its modules.
fn modules(verilog: &str) -> Result<(&str, Vec<Module<'_>>), String> {
    let mut starts: Vec<usize> = Vec::new();
    let mut pos = 0;
    for line in verilog.split_inclusive('\n') {
        if line.starts_with("module ") {
            starts.push(pos);
        }
        pos += line.len();
    }
    let Some(&first) = starts.first() else { return Err("no module in the emitted Verilog".into()) };
    let mut out = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(verilog.len());
        let text = verilog[start..end].trim_end();
        let name = text["module ".len()..]
            .split(|c: char| c == '(' || c.is_whitespace())
            .next()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| format!("a module without a name at byte {start}"))?;
        if !text.ends_with(&format!("endmodule // {name}")) {
            return Err(format!("module {name} has no `endmodule // {name}` line"));
        }
        out.push(Module { name, text });
    }
    Ok((&verilog[..first], out))
}

/// A module's constant declarations, `localparam  NAME = VALUE;`: each
/// line's (name, value).
fn localparams(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("localparam ")?.strip_suffix(';')?.split_once(" = "))
        .map(|(n, v)| (n.trim(), v.trim()))
        .collect()
}

/// The text with the values of its constant declarations taken out.
fn without_values(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line.trim().strip_prefix("localparam ").and_then(|r| r.split_once(" = ")) {
            Some((name, _)) => out.push_str(&format!("    localparam  {} = \u{1};\n", name.trim())),
            None => out.push_str(line),
        }
    }
    out
}

/// Designs folded together ([`fold_designs`]): each design's top (with the
/// text before it), and the shared component modules, each (name, text).
pub struct Folded {
    pub tops: Vec<String>,
    pub modules: Vec<(String, String)>,
}

/// Fold modules that are the same but for their name into one. rust-hdl
/// emits a module per instance (`top$l3$0`, `top$l3$1`, …); each group of
/// modules that differ only in their name and the values of their
/// constants becomes one module named by `name_of(first member's name, its
/// text)`. Constants whose values differ within a group become parameters
/// (the first member's values the defaults) and every instantiation gives
/// its own (`#(.live(32'h1ff))`). Two groups given the same name are an
/// error, as is a top that is not the first module.
pub fn fold_duplicates(verilog: &str, name_of: impl Fn(&str, &str) -> String) -> Result<String, String> {
    let folded = fold_designs(&[verilog], name_of)?;
    let mut out = folded.tops.concat();
    for (_, text) in folded.modules {
        out.push_str("\n\n");
        out.push_str(&text);
    }
    out.push('\n');
    Ok(out)
}

/// [`fold_duplicates`] over several designs at once (each its top first,
/// their children's names distinct): the children of all of them are
/// grouped together, so the designs share one module per component, with a
/// parameter for every constant that differs between any two instances of
/// any design.
pub fn fold_designs(designs: &[&str], name_of: impl Fn(&str, &str) -> String) -> Result<Folded, String> {
    let mut parsed = Vec::new();
    for d in designs {
        parsed.push(modules(d)?);
    }
    let mut tops = Vec::new();
    let mut children: Vec<&Module> = Vec::new();
    for (preamble, mods) in &parsed {
        let top = mods.first().ok_or("no top module")?;
        tops.push((*preamble, top));
        children.extend(&mods[1..]);
    }
    // Group the children by their text with the name and constant values
    // taken out and each child they instantiate written as its group: the
    // deepest first, so a module's children are grouped before it (a child
    // may differ only in what its own children are: a register or a wire).
    let original: std::collections::HashMap<&str, usize> =
        children.iter().enumerate().map(|(i, m)| (m.name, i)).collect();
    children.sort_by_key(|m| std::cmp::Reverse(m.name.matches('$').count()));
    let mut group_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let signature = |m: &Module, group_of: &std::collections::HashMap<&str, usize>| -> String {
        let mut t = String::with_capacity(m.text.len());
        for line in m.text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let word = trimmed.split(' ').next().unwrap_or("");
            match group_of.get(word) {
                Some(g) if !trimmed.starts_with("module ") => {
                    t.push_str(&line[..line.len() - trimmed.len()]);
                    t.push_str(&format!("\u{1}{g}"));
                    t.push_str(&trimmed[word.len()..]);
                }
                _ => t.push_str(line),
            }
        }
        t.replace(m.name, "\u{0}")
    };
    let mut groups: Vec<(String, Vec<&Module>)> = Vec::new();
    for m in children {
        let normal = without_values(&signature(m, &group_of));
        let g = match groups.iter().position(|g| g.0 == normal) {
            Some(g) => {
                groups[g].1.push(m);
                g
            }
            None => {
                groups.push((normal, vec![m]));
                groups.len() - 1
            }
        };
        group_of.insert(m.name, g);
    }
    // Old name → (new name, parameter overrides of that instance).
    let mut renamed: std::collections::HashMap<&str, (String, String)> = std::collections::HashMap::new();
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut folded = Vec::new();
    let top_signatures: Vec<String> = tops.iter().map(|(_, t)| signature(t, &group_of)).collect();
    for (_, members) in &groups {
        // Named for (and its text and defaults taken from) its member
        // nearest a top (the fewest instance names in its path, array
        // indices not counted), the first in the designs' order of those.
        let nesting = |m: &Module| m.name.split('$').filter(|s| !s.chars().all(|c| c.is_ascii_digit())).count();
        let first = *members.iter().min_by_key(|m| (nesting(m), original[m.name])).unwrap_or(&members[0]);
        // A child that is another design's top (an F32Add inside a
        // BeatSum) instantiates that top rather than a copy of it.
        let top = tops
            .iter()
            .zip(&top_signatures)
            .find(|(_, sig)| members.iter().all(|m| signature(m, &group_of) == **sig))
            .map(|((_, t), _)| t);
        if let Some(top) = top {
            for m in members {
                if renamed.insert(m.name, (top.name.to_string(), String::new())).is_some() {
                    return Err(format!("module {} is in two designs", m.name));
                }
            }
            continue;
        }
        let name = name_of(first.name, first.text);
        if !names.insert(name.clone()) {
            return Err(format!("two different modules would both be named {name} (one of them {})", first.name));
        }
        let defaults = localparams(first.text);
        let varying: Vec<&str> = defaults
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| {
                members.iter().any(|m| {
                    localparams(m.text)
                        .iter()
                        .any(|(k, v)| k == n && Some(v) != defaults.iter().find(|d| d.0 == *n).map(|d| &d.1))
                })
            })
            .collect();
        for m in members {
            if renamed.contains_key(m.name) {
                return Err(format!("module {} is in two designs", m.name));
            }
            let values = localparams(m.text);
            let overrides: Vec<String> = varying
                .iter()
                .map(|n| format!(".{n}({})", values.iter().find(|(k, _)| k == n).map_or("", |(_, v)| v)))
                .collect();
            let overrides = if overrides.is_empty() { String::new() } else { format!("#({}) ", overrides.join(", ")) };
            renamed.insert(m.name, (name.clone(), overrides));
        }
        folded.push((name, first, varying));
    }
    // Instantiations: a line whose first word is a child module's name.
    let rename_instances = |text: &str| -> String {
        let mut t = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let word = trimmed.split(' ').next().unwrap_or("");
            match renamed.get(word) {
                Some((new, overrides)) if !trimmed.starts_with("module ") => {
                    t.push_str(&line[..line.len() - trimmed.len()]);
                    t.push_str(new);
                    t.push(' ');
                    t.push_str(overrides);
                    t.push_str(trimmed[word.len()..].trim_start());
                }
                _ => t.push_str(line),
            }
        }
        t
    };
    // A module's own name last: its children's old names start with it
    // (`top$unpack$mini_f16` inside `top$unpack`).
    let module_text = |name: &str, first: &Module, varying: &[&str]| -> String {
        let mut text = String::with_capacity(first.text.len());
        for line in rename_instances(first.text).replace(first.name, name).split_inclusive('\n') {
            let declared = line.trim().strip_prefix("localparam ").and_then(|r| r.split_once(" = "));
            match declared {
                Some((n, _)) if varying.contains(&n.trim()) => {
                    text.push_str(&line.replacen("localparam  ", "parameter  ", 1));
                }
                _ => text.push_str(line),
            }
        }
        text
    };
    Ok(Folded {
        tops: tops.into_iter().map(|(pre, top)| format!("{pre}{}", rename_instances(top.text))).collect(),
        modules: folded.iter().map(|(n, first, varying)| (n.clone(), module_text(n, first, varying))).collect(),
    })
}

/// Take out of `top` the instances of `module` whose `used` parameter is 0,
/// with the signals only they read or drive: rust-hdl's structure is the
/// same for every configuration, so a component a configuration does not
/// use is still there with `used` = 0, its outputs held at 0. `module_text`
/// is that module's own text, which must assign each output 0 before its
/// `if (used)` (checked), so every read of an output becomes a constant 0
/// of its width. Returns the top unchanged when it has no such instance.
pub fn drop_unused(top: &str, module: &str, module_text: &str) -> Result<String, String> {
    let head = format!("{module} #(.used(1'b0)) ");
    if !top.contains(&head) {
        return Ok(top.to_string());
    }
    // The module's outputs, each held at 0 until `if (used)`.
    let body = module_text.split("if (used)").next().unwrap_or("");
    let outputs: Vec<&str> = module_text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("output reg  ")?.strip_suffix(';'))
        .map(|d| d.rsplit(' ').next().unwrap_or(d))
        .collect();
    if outputs.is_empty() || !module_text.contains("if (used)") {
        return Err(format!("{module} has no `if (used)` or no output: cannot take its unused instances out"));
    }
    for o in &outputs {
        if !body.contains(&format!("{o} = 1'b0;")) && !body.contains(&format!("{o} = 32'h0;")) {
            return Err(format!("{module} does not hold output {o} at 0 before `if (used)`"));
        }
    }
    // Instance names, and their blocks' lines.
    let lines: Vec<&str> = top.split_inclusive('\n').collect();
    let mut names = Vec::new();
    let mut drop = vec![false; lines.len()];
    let mut k = 0;
    while k < lines.len() {
        if let Some(rest) = lines[k].trim_start().strip_prefix(&head) {
            names.push(rest.trim_end().trim_end_matches('(').to_string());
            while k < lines.len() && lines[k].trim() != ");" {
                drop[k] = true;
                k += 1;
            }
            if k < lines.len() {
                drop[k] = true;
            }
        }
        k += 1;
    }
    let port_signal = |line: &str| -> Option<String> {
        // A declaration (`reg  [31:0] x;`, `wire  x;`) or an assignment (`x = …;`)
        let t = line.trim();
        let decl = t.strip_prefix("reg ").or_else(|| t.strip_prefix("wire ")).and_then(|d| d.strip_suffix(';'));
        if let Some(d) = decl {
            return d.rsplit(' ').next().map(str::to_string);
        }
        t.split_once(" = ").map(|(lhs, _)| lhs.to_string())
    };
    let ours = |sig: &str| names.iter().any(|n| sig.starts_with(&format!("{n}_")));
    let mut out = String::with_capacity(top.len());
    for (k, line) in lines.iter().enumerate() {
        if drop[k] {
            continue;
        }
        if port_signal(line).is_some_and(|s| ours(&s)) {
            continue;
        }
        // A read of a dropped instance's output: the constant it held.
        let mut l = line.to_string();
        if let Some((lhs, rhs)) = line.trim().strip_suffix(';').and_then(|t| t.split_once(" = ")) {
            if ours(rhs) && outputs.iter().any(|o| rhs.ends_with(&format!("_{o}"))) {
                let indent = &line[..line.len() - line.trim_start().len()];
                l = format!("{indent}{lhs} = 1'b0;\n");
            }
        }
        if names.iter().any(|n| l.contains(&format!("{n}_"))) {
            return Err(format!("a use of an unused {module} instance is left: {}", l.trim()));
        }
        out.push_str(&l);
    }
    Ok(out)
}

/// rust-hdl joins the path of a signal with `$` (`s3_val$0$q`); the pass
/// writes `_` instead (`s3_val_0_q`), and fails if two names would merge.
pub fn plain_names(verilog: &str) -> Result<String, String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let words = |text: &str| -> std::collections::HashSet<String> {
        text.split(|c: char| !ident(c)).filter(|w| !w.is_empty()).map(str::to_string).collect()
    };
    let before = words(verilog);
    let out = verilog.replace('$', "_");
    let after = words(&out);
    if before.len() != after.len() {
        let mut merged: Vec<String> =
            before.iter().filter(|w| w.contains('$') && before.contains(&w.replace('$', "_"))).cloned().collect();
        merged.sort();
        return Err(format!("writing `_` for `$` would merge names: {}", merged.join(", ")));
    }
    Ok(out)
}

/// rust-hdl writes a top's wiring as one `always @(*)` block of
/// assignments, each signal assigned once; the pass writes each as its own
/// `assign` (and declares its target `wire`), so that an event-driven
/// simulator re-evaluates one assignment when its inputs change rather than
/// the whole block (Icarus re-ran all of every1's 1,150 lines for every
/// change of any of them: docs/performance.md). The same logic: the block
/// holds nothing but `lhs = rhs;` lines with distinct, declared targets,
/// else the pass refuses.
pub fn continuous_wiring(verilog: &str) -> Result<String, String> {
    const OPEN: &str = "    always @(*) begin\n";
    const CLOSE: &str = "    end\n";
    let starts: Vec<usize> = verilog.match_indices(OPEN).map(|(i, _)| i).collect();
    let [start] = starts[..] else {
        return Err(format!("expected one top-level `always @(*)` block, found {}", starts.len()));
    };
    let body_at = start + OPEN.len();
    let body_len = verilog[body_at..].find(CLOSE).ok_or("the `always @(*)` block has no end")?;
    let body = &verilog[body_at..body_at + body_len];
    let mut targets = std::collections::HashSet::new();
    let mut assigns = String::with_capacity(body.len() + 16 * body.lines().count());
    for line in body.lines() {
        let stmt = line.strip_prefix("        ").and_then(|l| l.strip_suffix(';'));
        let Some((lhs, rhs)) = stmt.and_then(|t| t.split_once(" = ")) else {
            return Err(format!("the wiring block holds `{}`, not an assignment", line.trim()));
        };
        if !lhs.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || rhs.contains(';') {
            return Err(format!("the wiring block assigns `{lhs}`, not a plain signal"));
        }
        if !targets.insert(lhs) {
            return Err(format!("the wiring block assigns `{lhs}` twice"));
        }
        assigns.push_str(&format!("    assign {lhs} = {rhs};\n"));
    }
    let head = &verilog[..start];
    let mut out = String::with_capacity(verilog.len() + assigns.len());
    let mut declared = 0;
    for line in head.split_inclusive('\n') {
        let t = line.trim_end();
        // `reg  x;` and `output reg  x;` become `wire  x;` and `output wire  x;`.
        let kind = ["    reg  ", "    output reg  "].into_iter().find(|k| t.starts_with(k));
        let name = kind.and_then(|k| t[k.len()..].strip_suffix(';')).map(|d| d.rsplit(' ').next().unwrap_or(d));
        match (kind, name) {
            (Some(k), Some(n)) if targets.contains(n) => {
                out.push_str(&line.replacen(k, &k.replace("reg ", "wire "), 1));
                declared += 1;
            }
            _ => out.push_str(line),
        }
    }
    if declared != targets.len() {
        return Err(format!("{} wiring targets but {declared} of them declared `reg` in the module", targets.len()));
    }
    out.push_str(&assigns);
    out.push_str(&verilog[body_at + body_len + CLOSE.len()..]);
    Ok(out)
}

/// The line and module counts of a Verilog file (for the README).
pub fn counts(verilog: &str) -> (usize, usize) {
    (verilog.lines().count(), verilog.lines().filter(|l| l.starts_with("module ")).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_extend_casts_writes_the_extension_out() {
        let v = "module m(a,b);\n    input wire  [7:0] a;\n    reg  [30:0] w;\n    reg  [31:0] b;\n    always @(*) begin\n        \
                 w = ((a) & 31'h7fffffff) | ((b[(32'h3)+:(23)]) & 31'h7fffffff);\n        b = ((b) & 32'hffffffff);\n        \
                 w = ((a) & 31'h7ffffffe);\n        w = ((a + a) & 31'h7fffffff);\n    end\nendmodule\n";
        let out = zero_extend_casts(v);
        assert!(out.contains("w = {23'b0, a} | {8'b0, b[(32'h3)+:(23)]};"), "{out}");
        assert!(out.contains("b = b;"), "{out}");
        // Not all ones, or not a signal: left as they are.
        assert!(out.contains("w = ((a) & 31'h7ffffffe);"), "{out}");
        assert!(out.contains("w = ((a + a) & 31'h7fffffff);"), "{out}");
    }

    #[test]
    fn zero_extend_casts_take_wide_casts_and_instance_paths() {
        let ones512 = format!("512'h{}", "f".repeat(128));
        let v = format!(
            "module m(a);\n    wire  [5:0] m1$q;\n    always @(*) begin\n        w = ((m1$q) & {ones512}) << 3;\n        \
             w = ((m1$q) & 512'h{}e);\n    end\nendmodule\n",
            "f".repeat(127)
        );
        let out = zero_extend_casts(&v);
        assert!(out.contains("w = {506'b0, m1$q} << 3;"), "{out}");
        assert!(out.contains("w = ((m1$q) & 512'hfff"), "not all ones: left as it is: {out}");
        let v = "module m(a);\n    wire  [1:0] a;\n    assign x = ((a) & 5'h1f);\n    assign y = ((a) & 5'h0f);\nendmodule\n";
        let out = zero_extend_casts(v);
        assert!(out.contains("x = {3'b0, a};") && out.contains("y = ((a) & 5'h0f);"), "{out}");
    }

    #[test]
    fn zero_extend_casts_reads_widths_module_by_module() {
        let v = "module m(a);\n    input wire  [7:0] a;\nendmodule\nmodule n(a);\n    input wire  [15:0] a;\n    \
                 assign x = ((a) & 32'hffffffff);\nendmodule\n";
        assert!(zero_extend_casts(v).contains("x = {16'b0, a};"));
    }

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

    #[test]
    fn duplicate_modules_fold_into_one() {
        let v = "// head\nmodule top(a);\n    m$x$0 x$0(.a(a));\n    m$x$1 x$1(.a(a));\n    m$y y(.a(a));\nendmodule // top\n\n\
                 module m$x$0(a);\n    input wire a;\nendmodule // m$x$0\n\n\
                 module m$x$1(a);\n    input wire a;\nendmodule // m$x$1\n\n\
                 module m$y(a);\n    input wire a;\n    // other\nendmodule // m$y\n";
        let out = fold_duplicates(v, |first, _| first.replace("$0", "").replace('$', "_")).unwrap();
        assert!(
            out.starts_with("// head\nmodule top(a);\n    m_x x$0(.a(a));\n    m_x x$1(.a(a));\n    m_y y(.a(a));\n"),
            "{out}"
        );
        assert_eq!(out.matches("module m_x(a);").count(), 1, "{out}");
        assert!(out.contains("endmodule // m_x\n") && out.contains("module m_y(a);"), "{out}");
        assert_eq!(counts(&out), (15, 3));
        // Two different modules given one name are refused.
        let e = fold_duplicates(v, |_, _| "same".into()).unwrap_err();
        assert!(e.contains("same"), "{e}");
        assert!(fold_duplicates("no modules", |a, _| a.into()).is_err());
    }

    #[test]
    fn modules_differing_in_constants_fold_into_one_with_parameters() {
        let v = "module top(a);\n    m$l1 l1(.a(a));\n    m$l2 l2(.a(a));\nendmodule // top\n\n\
                 module m$l1(a);\n    localparam  live = 32'h1ff;\n    localparam  zero = 32'h0;\nendmodule // m$l1\n\n\
                 module m$l2(a);\n    localparam  live = 32'hffff;\n    localparam  zero = 32'h0;\nendmodule // m$l2\n";
        let out = fold_duplicates(v, |_, _| "node".into()).unwrap();
        assert!(out.contains("    node #(.live(32'h1ff)) l1(.a(a));\n"), "{out}");
        assert!(out.contains("    node #(.live(32'hffff)) l2(.a(a));\n"), "{out}");
        assert!(out.contains("    parameter  live = 32'h1ff;\n    localparam  zero = 32'h0;\n"), "{out}");
        assert_eq!(counts(&out).1, 2, "{out}");
    }

    #[test]
    fn a_child_that_is_another_designs_top_instantiates_that_top() {
        let add = "module add(a);\n    add$r r(.a(a));\nendmodule // add\n\nmodule add$r(a);\nendmodule // add$r\n";
        let tree = "module tree(a);\n    tree$n n(.a(a));\nendmodule // tree\n\n\
                    module tree$n(a);\n    tree$n$r r(.a(a));\nendmodule // tree$n\n\n\
                    module tree$n$r(a);\nendmodule // tree$n$r\n";
        let folded =
            fold_designs(&[add, tree], |n, _| if n.ends_with("$r") { "reg".into() } else { "node".into() }).unwrap();
        assert!(folded.tops[1].contains("    add n(.a(a));"), "{}", folded.tops[1]);
        assert_eq!(folded.modules.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["reg"]);
    }

    #[test]
    fn designs_fold_together_with_a_parameter_for_what_differs_between_them() {
        let a = "module a(x);\n    a$n n(.x(x));\nendmodule // a\n\n\
                 module a$n(x);\n    localparam  used = 1'b0;\nendmodule // a$n\n";
        let b = "module b(x);\n    b$n n(.x(x));\nendmodule // b\n\n\
                 module b$n(x);\n    localparam  used = 1'b1;\nendmodule // b$n\n";
        let f = fold_designs(&[a, b], |_, _| "node".into()).unwrap();
        assert_eq!(
            f.tops,
            [
                "module a(x);\n    node #(.used(1'b0)) n(.x(x));\nendmodule // a",
                "module b(x);\n    node #(.used(1'b1)) n(.x(x));\nendmodule // b"
            ]
        );
        assert_eq!(f.modules.len(), 1);
        assert_eq!(f.modules[0].1, "module node(x);\n    parameter  used = 1'b0;\nendmodule // node");
        // A module in two designs is refused.
        assert!(fold_designs(&[a, a], |_, _| "node".into()).is_err());
    }

    #[test]
    fn unused_instances_are_taken_out_with_their_signals() {
        let m = "module ahead(x_i, y_o);\n    output reg  y_o;\n    parameter  used = 1'b0;\n    always @(*) begin\n        y_o = 1'b0;\n        if (used) begin\n            y_o = x_i;\n        end\n    end\nendmodule // ahead";
        let top = "module t(a);\n    reg  [31:0] u_x_i;\n    wire  u_y_o;\n    reg  [31:0] v_x_i;\n    wire  v_y_o;\n    ahead #(.used(1'b0)) u(\n        .x_i(u_x_i),\n        .y_o(u_y_o)\n    );\n    ahead #(.used(1'b1)) v(\n        .x_i(v_x_i),\n        .y_o(v_y_o)\n    );\n    always @(*) begin\n        u_x_i = a;\n        v_x_i = a;\n        n_b = u_y_o;\n        n_c = v_y_o;\n    end\nendmodule // t\n";
        let out = drop_unused(top, "ahead", m).unwrap();
        assert!(!out.contains("u_"), "{out}");
        assert!(out.contains("        n_b = 1'b0;\n") && out.contains("        n_c = v_y_o;\n"), "{out}");
        assert!(out.contains("ahead #(.used(1'b1)) v("), "{out}");
        assert_eq!(drop_unused(&out, "ahead", m).unwrap(), out);
        // A module that does not hold its output at 0 when unused is refused.
        let bad = m.replace("        y_o = 1'b0;\n", "");
        assert!(drop_unused(top, "ahead", &bad).is_err());
    }

    #[test]
    fn wiring_becomes_continuous_assignments_or_is_refused() {
        let v = "module t(a, y);\n    input wire  [3:0] a;\n    output reg  [3:0] y;\n    reg  [3:0] u_i;\n    reg  v;\n    wire  [3:0] u_o;\n    u u(.i(u_i), .o(u_o));\n    always @(*) begin\n        u_i = a & 4'h3;\n        v = u_o[0];\n        y = u_o;\n    end\nendmodule\n";
        let got = continuous_wiring(v).unwrap();
        assert_eq!(
            got,
            "module t(a, y);\n    input wire  [3:0] a;\n    output wire  [3:0] y;\n    wire  [3:0] u_i;\n    wire  v;\n    wire  [3:0] u_o;\n    u u(.i(u_i), .o(u_o));\n    assign u_i = a & 4'h3;\n    assign v = u_o[0];\n    assign y = u_o;\nendmodule\n"
        );
        // Anything but single assignments of declared signals is refused.
        let twice = v.replace("        v = u_o[0];\n", "        v = u_o[0];\n        v = 1'b0;\n");
        assert!(continuous_wiring(&twice).unwrap_err().contains("twice"));
        let branch = v.replace("        v = u_o[0];\n", "        if (a[1]) begin\n");
        assert!(continuous_wiring(&branch).is_err());
        let undeclared = v.replace("    reg  v;\n", "");
        assert!(continuous_wiring(&undeclared).is_err());
        assert!(continuous_wiring(&format!("{v}{v}")).is_err());
        assert!(continuous_wiring("module t;\nendmodule\n").is_err());
    }

    #[test]
    fn dollar_names_become_underscores_unless_they_would_merge() {
        assert_eq!(plain_names("s3_val$0$q = l3$0$val_o;").unwrap(), "s3_val_0_q = l3_0_val_o;");
        let e = plain_names("a$b = a_b;").unwrap_err();
        assert!(e.contains("a$b"), "{e}");
    }
}

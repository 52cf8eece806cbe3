//! Just enough of the binary AIGER format (<https://fmv.jku.at/aiger/>) to
//! cofactor one big AIG into small ones.
//!
//! yosys builds one AIG of the unrolled unit with `op_checked` free and one
//! miter output per op; [`Aig::cofactor`] ties `op_checked` to an op's code,
//! keeps that op's output, folds the constants through and drops every gate
//! outside the output's cone. That is what yosys' `opt_expr` did per op on
//! the word level, at a small fraction of the time. The inputs keep their
//! numbers, so yosys' AIGER map still names them.

use std::collections::HashMap;

/// A combinational AIG: literals are `2 * var + negated`, var 0 is the
/// constant false, vars `1..=inputs` are the inputs, and and-gate `i` is
/// var `inputs + 1 + i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aig {
    pub inputs: usize,
    pub ands: Vec<(u32, u32)>,
    pub outputs: Vec<u32>,
}

fn number(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let start = *at;
    while *at < bytes.len() && bytes[*at].is_ascii_digit() {
        *at += 1;
    }
    std::str::from_utf8(&bytes[start..*at])
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("AIGER: a number was expected at byte {start}"))
}

fn expect(bytes: &[u8], at: &mut usize, c: u8) -> Result<(), String> {
    if bytes.get(*at) != Some(&c) {
        return Err(format!("AIGER: '{}' was expected at byte {}", c as char, *at));
    }
    *at += 1;
    Ok(())
}

fn varint(bytes: &[u8], at: &mut usize) -> Result<u32, String> {
    let mut x: u64 = 0;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*at).ok_or("AIGER: the and-gates end early")?;
        *at += 1;
        x |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
        if shift > 35 {
            return Err("AIGER: a delta is too long".into());
        }
    }
    u32::try_from(x).map_err(|_| "AIGER: a delta is too large".to_string())
}

fn put_varint(out: &mut Vec<u8>, mut x: u32) {
    while x >= 0x80 {
        out.push((x & 0x7f) as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

impl Aig {
    /// Read a binary AIGER file without latches (symbols and comments are
    /// skipped).
    pub fn parse(bytes: &[u8]) -> Result<Aig, String> {
        let mut at = 0;
        if !bytes.starts_with(b"aig ") {
            return Err("AIGER: not a binary AIGER file (no 'aig' header)".into());
        }
        at += 4;
        let mut head = [0u64; 5];
        for (i, h) in head.iter_mut().enumerate() {
            *h = number(bytes, &mut at)?;
            expect(bytes, &mut at, if i == 4 { b'\n' } else { b' ' })
                .map_err(|_| "AIGER: the header must be 'aig M I L O A' with no extensions".to_string())?;
        }
        let [m, i, l, o, a] = head;
        if l != 0 {
            return Err(format!("AIGER: {l} latches; only combinational AIGs are read"));
        }
        if m != i + a || m >= u64::from(u32::MAX / 2) {
            return Err(format!("AIGER: header M={m} is not I+A={}", i + a));
        }
        let mut outputs = Vec::with_capacity(o as usize);
        for _ in 0..o {
            let lit = number(bytes, &mut at)?;
            expect(bytes, &mut at, b'\n')?;
            if lit > 2 * m + 1 {
                return Err(format!("AIGER: output literal {lit} is beyond M={m}"));
            }
            outputs.push(lit as u32);
        }
        let mut ands = Vec::with_capacity(a as usize);
        for k in 0..a {
            let lhs = 2 * (i + 1 + k) as u32;
            let d0 = varint(bytes, &mut at)?;
            let d1 = varint(bytes, &mut at)?;
            let r0 = lhs.checked_sub(d0).filter(|&r| r < lhs).ok_or("AIGER: an and-gate's input is not before it")?;
            let r1 = r0.checked_sub(d1).ok_or("AIGER: an and-gate's inputs are out of order")?;
            ands.push((r0, r1));
        }
        Ok(Aig { inputs: i as usize, ands, outputs })
    }

    /// The binary AIGER text.
    pub fn write(&self) -> Vec<u8> {
        let mut out = format!(
            "aig {} {} 0 {} {}\n",
            self.inputs + self.ands.len(),
            self.inputs,
            self.outputs.len(),
            self.ands.len()
        )
        .into_bytes();
        for o in &self.outputs {
            out.extend_from_slice(format!("{o}\n").as_bytes());
        }
        for (k, &(r0, r1)) in self.ands.iter().enumerate() {
            let lhs = 2 * (self.inputs + 1 + k) as u32;
            put_varint(&mut out, lhs - r0);
            put_varint(&mut out, r0 - r1);
        }
        out
    }

    /// Output `output` with each `(input, value)` of `ties` made a
    /// constant: the same inputs (tied ones drive nothing), one output, only
    /// the gates it needs, constants folded and equal gates shared.
    pub fn cofactor(&self, ties: &[(usize, bool)], output: usize) -> Result<Aig, String> {
        let out = *self.outputs.get(output).ok_or_else(|| format!("AIG has no output {output}"))?;
        let n = self.inputs;
        // The old vars' new literals, in a graph built in order (so in topological order).
        let mut map: Vec<u32> = Vec::with_capacity(n + 1 + self.ands.len());
        map.push(0);
        map.extend((1..=n as u32).map(|v| 2 * v));
        for &(input, value) in ties {
            if input >= n {
                return Err(format!("AIG has no input {input}"));
            }
            map[input + 1] = u32::from(value);
        }
        let lit = |map: &[u32], l: u32| map[(l >> 1) as usize] ^ (l & 1);
        // Only the gates in the output's cone are rebuilt.
        let mut need = vec![false; n + 1 + self.ands.len()];
        need[(out >> 1) as usize] = true;
        for k in (0..self.ands.len()).rev() {
            if need[n + 1 + k] {
                let (a, b) = self.ands[k];
                need[(a >> 1) as usize] = true;
                need[(b >> 1) as usize] = true;
            }
        }
        let mut ands: Vec<(u32, u32)> = Vec::new();
        let mut shared: HashMap<(u32, u32), u32> = HashMap::new();
        for (k, &(a, b)) in self.ands.iter().enumerate() {
            if !need[n + 1 + k] {
                map.push(0);
                continue;
            }
            let (a, b) = (lit(&map, a), lit(&map, b));
            let (a, b) = if a >= b { (a, b) } else { (b, a) };
            let new = if b == 0 || a == b ^ 1 {
                0
            } else if b == 1 || a == b {
                a
            } else {
                *shared.entry((a, b)).or_insert_with(|| {
                    ands.push((a, b));
                    2 * (n + ands.len()) as u32
                })
            };
            map.push(new);
        }
        let top = lit(&map, out);
        // Folding made some rebuilt gates dead: keep the new output's cone only.
        let mut live = vec![false; n + 1 + ands.len()];
        live[(top >> 1) as usize] = true;
        for k in (0..ands.len()).rev() {
            if live[n + 1 + k] {
                let (a, b) = ands[k];
                live[(a >> 1) as usize] = true;
                live[(b >> 1) as usize] = true;
            }
        }
        let mut renumber: Vec<u32> = (0..=n as u32).map(|v| 2 * v).collect();
        let mut kept = Vec::new();
        for (k, &(a, b)) in ands.iter().enumerate() {
            if live[n + 1 + k] {
                let (a, b) = (lit(&renumber, a), lit(&renumber, b));
                kept.push((a.max(b), a.min(b)));
                renumber.push(2 * (n + kept.len()) as u32);
            } else {
                renumber.push(0);
            }
        }
        Ok(Aig { inputs: n, ands: kept, outputs: vec![lit(&renumber, top)] })
    }

    /// Evaluate every output on `inputs` (for tests).
    pub fn eval(&self, inputs: &[bool]) -> Vec<bool> {
        let mut v = vec![false];
        v.extend_from_slice(&inputs[..self.inputs]);
        let get = |v: &[bool], l: u32| v[(l >> 1) as usize] ^ (l & 1 == 1);
        for &(a, b) in &self.ands {
            let x = get(&v, a) && get(&v, b);
            v.push(x);
        }
        self.outputs.iter().map(|&o| get(&v, o)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// o0 = (x1 & x2) & !x3 ; o1 = x1 ^ x2 = !(!(x1 & !x2) & !(!x1 & x2)).
    fn sample() -> Aig {
        Aig { inputs: 3, ands: vec![(4, 2), (8, 7), (5, 2), (4, 3), (15, 13)], outputs: vec![10, 17] }
    }

    #[test]
    fn round_trips_through_the_binary_format() {
        let a = sample();
        let text = a.write();
        assert!(text.starts_with(b"aig 8 3 0 2 5\n10\n17\n"));
        assert_eq!(Aig::parse(&text).unwrap(), a);
        let mut with_symbols = text.clone();
        with_symbols.extend_from_slice(b"i0 x\nc\nmade by a test\n");
        assert_eq!(Aig::parse(&with_symbols).unwrap(), a);
    }

    #[test]
    fn cofactors_agree_with_the_whole_graph() {
        let a = sample();
        for (output, input, value) in [(0, 0, true), (0, 2, false), (0, 2, true), (1, 1, false), (1, 0, true)] {
            let c = a.cofactor(&[(input, value)], output).unwrap();
            assert_eq!(c.inputs, 3);
            assert!(c.ands.len() <= a.ands.len());
            let c = Aig::parse(&c.write()).unwrap();
            for bits in 0..8u32 {
                let mut x: Vec<bool> = (0..3).map(|i| bits >> i & 1 == 1).collect();
                x[input] = value;
                assert_eq!(c.eval(&x)[0], a.eval(&x)[output], "output {output} tie {input}={value} at {bits:03b}");
            }
        }
        // x3 = 1 makes o0 constant false: no gates left.
        let c = a.cofactor(&[(2, true)], 0).unwrap();
        assert_eq!((c.ands.len(), c.outputs[0]), (0, 0));
        assert!(a.cofactor(&[(3, true)], 0).unwrap_err().contains("no input 3"));
        assert!(a.cofactor(&[], 2).unwrap_err().contains("no output 2"));
    }

    #[test]
    fn malformed_files_are_errors() {
        assert!(Aig::parse(b"aag 1 1 0 1 0\n2\n").unwrap_err().contains("binary"));
        assert!(Aig::parse(b"aig 1 1 1 0 0\n").unwrap_err().contains("latches"));
        assert!(Aig::parse(b"aig 5 1 0 0 1\n").unwrap_err().contains("not I+A"));
        assert!(Aig::parse(b"aig 2 1 0 1 1\n4\n").unwrap_err().contains("end early"));
        assert!(Aig::parse(b"aig 2 1 0 1 1\n4\n\x05\x00").unwrap_err().contains("not before"));
    }
}

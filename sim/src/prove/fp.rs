//! `crosslane prove --fp`: each fp unit's emitted Verilog, built under
//! Verilator with its generated harness (`generated/tb/crosslane_<unit>_harness.cpp`),
//! run on every vector of its edge set and on random vectors, each result
//! compared by bits with golden's arithmetic (docs/fp-units.md).
//!
//! The vectors stream through the simulation: one thread makes them and
//! writes them to the harness, another reads the results and compares each
//! with golden's, so a campaign of 10^9 vectors needs no memory for them.
//! A run that checked no vector, or whose simulation answered fewer results
//! than it was sent, is an error, never a pass.

use crate::emit::{self, GeneratedFile};
use crate::engines::rtl::{cached_build, Cached, VERILATOR_BUILD};
use crate::tools::{generated_dir, require};
use crosslane_golden::campaign::SplitMix64;
use crosslane_golden::instruction::dtype::Dtype;
use crosslane_golden::instruction::exec::beat_tree_masked;
use crosslane_golden::instruction::fp::{self, edge_values, OperandPairs, ProductPairs};
use crosslane_hdl::fp_unit::FpUnit;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Records a chunk of the stream holds.
const CHUNK: usize = 1 << 16;

/// One vector the unit got wrong: its inputs, the unit's outputs and golden's,
/// each port's value (the low 64 bits of a wider port), and all of them
/// written out (`text`: `a_i=… b_i=… gave sum_o=…, golden sum_o=…`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub inputs: Vec<u64>,
    pub got: Vec<u64>,
    pub want: Vec<u64>,
    pub text: String,
}

impl Mismatch {
    fn new(unit: &FpUnit, rec: &[u8], got: &[u8], want: &[u8]) -> Self {
        Mismatch {
            inputs: values(unit.inputs, rec),
            got: values(unit.outputs, got),
            want: values(unit.outputs, want),
            text: format!(
                "{} gave {}, golden {}",
                port_text(unit.inputs, rec),
                port_text(unit.outputs, got),
                port_text(unit.outputs, want)
            ),
        }
    }
}

/// A record's ports written out in hex, each whole (any width).
fn port_text(ports: &[(&str, usize)], record: &[u8]) -> String {
    let mut at = 0;
    let mut out = Vec::new();
    for (n, w) in ports {
        let bytes = w.div_ceil(8);
        let hex: String = record[at..at + bytes].iter().rev().map(|b| format!("{b:02x}")).collect();
        // Whole bytes in hex: trim to the port's digits.
        out.push(format!("{n}={}", &hex[hex.len() - w.div_ceil(4)..]));
        at += bytes;
    }
    out.join(" ")
}

/// What a check of one unit at one latency found.
#[derive(Clone, Debug)]
pub struct FpCheck {
    pub unit: &'static FpUnit,
    pub latency: usize,
    /// Vectors compared (the edge set and the random ones).
    pub vectors: u64,
    /// Of them, the edge set's (every pair of edge values, …).
    pub edge_vectors: u64,
    pub mismatches: u64,
    /// The first vector that mismatched.
    pub first: Option<Mismatch>,
    pub secs: f64,
    pub build_secs: f64,
}

impl FpCheck {
    pub fn passed(&self) -> bool {
        self.mismatches == 0 && self.vectors > 0
    }

    /// One line: the unit, latency, and what was checked or the counterexample.
    pub fn line(&self) -> String {
        let what = format!("crosslane_{}_l{} on Verilator", self.unit.name, self.latency);
        match &self.first {
            None => format!(
                "{what}: {} vectors checked ({} edge, {} random), 0 mismatches, {:.1} s",
                self.vectors,
                self.edge_vectors,
                self.vectors - self.edge_vectors,
                self.secs
            ),
            Some(m) => format!(
                "{what}: {} mismatches in {} vectors; counterexample: {}",
                self.mismatches, self.vectors, m.text
            ),
        }
    }
}

/// Split a record into its ports' values (the low 64 bits of a wider port).
fn values(ports: &[(&str, usize)], record: &[u8]) -> Vec<u64> {
    let mut at = 0;
    ports
        .iter()
        .map(|(_, w)| {
            let n = w.div_ceil(8);
            let v = record[at..at + n.min(8)].iter().rev().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
            at += n;
            v
        })
        .collect()
}

/// A unit's vectors, as records: its edge set first, then random ones.
trait Vectors: Send {
    /// The edge set's size (it comes first).
    fn edges(&self) -> u64;
    /// Write the next record into `rec`; false when none is left.
    fn next(&mut self, rec: &mut [u8]) -> bool;
}

/// Golden's result of a record of a unit's inputs.
type Golden = fn(&[u8], &mut [u8]);

/// How a unit is checked: its vectors (`random` of them after the edge
/// set, from a seed), golden's model, and its SMT-LIB reference with the
/// words a proof line names it by (none for BeatSum: fifteen adders, each
/// the proven F32Add).
struct Wired {
    vectors: fn(u64, u64) -> Box<dyn Vectors>,
    golden: Golden,
    smt: Option<SmtReference>,
}

/// A unit's SMT-LIB reference: the words a proof line names it by, and
/// the Bool over its ports' names that holds when the outputs are right.
type SmtReference = (&'static str, fn() -> String);

/// The one place a unit's name is looked up.
fn wired(unit: &FpUnit) -> Result<Wired, String> {
    Ok(match unit.name {
        "f32_add" => Wired {
            vectors: |random, seed| Box::new(PairVectors::new(random, OperandPairs::new(seed))),
            golden: |rec, out| binary_golden(fp::add, rec, out),
            smt: Some(("SMT-LIB's (fp.add RNE a b), a NaN result as 7fc00000,", || {
                binary_reference("fp.add", "sum_o")
            })),
        },
        "f32_mul" => Wired {
            vectors: |random, seed| Box::new(PairVectors::new(random, ProductPairs::new(seed))),
            golden: |rec, out| binary_golden(fp::mul, rec, out),
            smt: Some(("SMT-LIB's (fp.mul RNE a b), a NaN result as 7fc00000,", || {
                binary_reference("fp.mul", "product_o")
            })),
        },
        "to_f32" => Wired {
            vectors: |random, seed| Box::new(ToF32Vectors::new(random, seed)),
            golden: to_f32_golden,
            smt: Some((
                "SMT-LIB's to_fp / to_fp_unsigned RNE (integers) and exact to_fp (FP32, BFLOAT16, FP16, FP8_EXP5; \
                 a NaN as 7fc00000) for every dtype but FP8_EXP4 and FP8_EXP3 (checked on every code),",
                to_f32_reference,
            )),
        },
        "from_f32" => Wired {
            vectors: |random, seed| Box::new(FromF32Vectors::new(random, seed)),
            golden: from_f32_golden,
            smt: Some((
                "SMT-LIB's roundToIntegral RNE then to_sbv / to_ubv with saturation (integers, a NaN as 0) and \
                 to_fp RNE (BFLOAT16, FP16, FP8_EXP5; a NaN as the format's quiet NaN; FP32 as itself), \
                 FP8_EXP4 and FP8_EXP3 by the IEEE formats of their precision (saturating, their NaN code),",
                from_f32_reference,
            )),
        },
        "beat_sum" => {
            Wired { vectors: |random, seed| Box::new(BeatVectors::new(random, seed)), golden: beat_golden, smt: None }
        }
        other => return Err(format!("no golden model is wired for fp unit {other}")),
    })
}

/// The little-endian 32-bit word of a record at byte `at`.
fn word(rec: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([rec[at], rec[at + 1], rec[at + 2], rec[at + 3]])
}

/// A binary32 operation's result of a record `{a, b}`.
fn binary_golden(op: fn(f32, f32) -> f32, rec: &[u8], out: &mut [u8]) {
    let (a, b) = (f32::from_bits(word(rec, 0)), f32::from_bits(word(rec, 4)));
    out[..4].copy_from_slice(&op(a, b).to_bits().to_le_bytes());
}

/// F32Add and F32Mul: every pair of [`edge_values`], then `random` pairs
/// of `pairs` ([`OperandPairs`], [`ProductPairs`]).
struct PairVectors<P> {
    edges: Vec<(u32, u32)>,
    at: usize,
    random: P,
    left: u64,
}

impl<P> PairVectors<P> {
    fn new(random: u64, pairs: P) -> Self {
        let e = edge_values();
        let edges = e.iter().flat_map(|&a| e.iter().map(move |&b| (a, b))).collect();
        PairVectors { edges, at: 0, random: pairs, left: random }
    }
}

impl<P: Iterator<Item = (u32, u32)> + Send> Vectors for PairVectors<P> {
    fn edges(&self) -> u64 {
        self.edges.len() as u64
    }

    fn next(&mut self, rec: &mut [u8]) -> bool {
        let (a, b) = if self.at < self.edges.len() {
            self.at += 1;
            self.edges[self.at - 1]
        } else if self.left > 0 {
            self.left -= 1;
            match self.random.next() {
                Some(p) => p,
                None => return false,
            }
        } else {
            return false;
        };
        rec[..4].copy_from_slice(&a.to_le_bytes());
        rec[4..8].copy_from_slice(&b.to_le_bytes());
        true
    }
}

/// ToF32: every code of every dtype of at most 16 bits (the bits above its
/// width random), then `random` inputs of any dtype: any bits, a leading
/// one at a random place with random or tie-making bits below.
struct ToF32Vectors {
    small: Vec<Dtype>,
    at: (usize, u64),
    rng: SplitMix64,
    left: u64,
}

impl ToF32Vectors {
    fn new(random: u64, seed: u64) -> Self {
        let small = Dtype::ALL.into_iter().filter(|d| (1..=2).contains(&d.size())).collect();
        ToF32Vectors { small, at: (0, 0), rng: SplitMix64(seed), left: random }
    }
}

impl Vectors for ToF32Vectors {
    fn edges(&self) -> u64 {
        self.small.iter().map(|d| 1u64 << (8 * d.size())).sum()
    }

    fn next(&mut self, rec: &mut [u8]) -> bool {
        let (bits, dtype) = if let Some(&d) = self.small.get(self.at.0) {
            let width = 8 * d.size();
            let code = self.at.1;
            self.at.1 += 1;
            if self.at.1 == 1 << width {
                self.at = (self.at.0 + 1, 0);
            }
            (code | (self.rng.next_u64() << width), d)
        } else if self.left > 0 {
            self.left -= 1;
            let d = Dtype::ALL[(self.rng.next_u64() % 16) as usize];
            let r = self.rng.next_u64();
            let shift = self.rng.next_u64() % 64;
            let bits = match self.rng.next_u64() % 3 {
                0 => r,
                1 => (1u64 << shift) | (r >> (63 - shift) >> 1),
                // A tie (or one off it) at binary32's rounding point.
                _ => (1u64 << shift) | (1u64 << shift.saturating_sub(24)) | (r & 1),
            };
            (bits, d)
        } else {
            return false;
        };
        rec[..8].copy_from_slice(&bits.to_le_bytes());
        rec[8] = dtype.code();
        true
    }
}

/// golden's `Dtype::to_f32` of a record `{bits, dtype}`.
fn to_f32_golden(rec: &[u8], out: &mut [u8]) {
    let mut b = [0u8; 8];
    b.copy_from_slice(&rec[..8]);
    let f = Dtype::from_code(rec[8] & 0xf).map_or(0, |d| d.to_f32(u64::from_le_bytes(b)).to_bits());
    out[..4].copy_from_slice(&f.to_le_bytes());
}

/// FromF32: every binary32 whose low 16 bits are 0 (every exponent, both
/// signs, the top 7 fraction bits) to every dtype, then `random` inputs to
/// a random dtype: any bits, every special class, and magnitudes about
/// each format's range with random fractions (ties among them).
struct FromF32Vectors {
    at: u64,
    rng: SplitMix64,
    pairs: OperandPairs,
    left: u64,
}

impl FromF32Vectors {
    /// High halves × dtypes.
    const EDGES: u64 = (1 << 16) * 16;

    fn new(random: u64, seed: u64) -> Self {
        FromF32Vectors { at: 0, rng: SplitMix64(seed), pairs: OperandPairs::new(seed ^ 0x5eed), left: random }
    }
}

impl Vectors for FromF32Vectors {
    fn edges(&self) -> u64 {
        Self::EDGES
    }

    fn next(&mut self, rec: &mut [u8]) -> bool {
        let (x, dtype) = if self.at < Self::EDGES {
            let (hi, d) = (self.at >> 4, self.at & 0xf);
            self.at += 1;
            ((hi as u32) << 16, d as u8)
        } else if self.left > 0 {
            self.left -= 1;
            let (a, b) = self.pairs.next().unwrap_or((0, 0));
            let r = self.rng.next_u64();
            let x = match r % 4 {
                0 | 1 => a,
                // Exponents 90 to 200: every format's subnormals, normals,
                // overflow and the integers' limits, a fraction that ties
                // at some position.
                2 => (b & 0x807f_ffff) | ((90 + (r >> 8) % 110) << 23) as u32,
                _ => (b & 0x8000_0000) | (((90 + (r >> 8) % 110) << 23) as u32) | (1 << ((r >> 16) % 23)),
            };
            (x, ((r >> 32) % 16) as u8)
        } else {
            return false;
        };
        rec[..4].copy_from_slice(&x.to_le_bytes());
        rec[4] = dtype;
        true
    }
}

/// golden's `Dtype::from_f32` of a record `{x, dtype}`.
fn from_f32_golden(rec: &[u8], out: &mut [u8]) {
    let x = f32::from_bits(word(rec, 0));
    let bits = Dtype::from_code(rec[4] & 0xf).map_or(0, |d| d.from_f32(x));
    out[..8].copy_from_slice(&bits.to_le_bytes());
}

/// BeatSum: first every pair of edge values (a, b) in alternate lanes of a
/// full beat, and every edge value in all lanes with every prefix mask;
/// then random beats (lanes of any bits, special values, values of one
/// magnitude that cancel, edge values), with every prefix mask (a short
/// beat of 0 to 16 lanes, the case the instruction makes) and random masks;
/// golden's `beat_tree_masked` the reference.
struct BeatVectors {
    edge: usize,
    rng: SplitMix64,
    pairs: OperandPairs,
    left: u64,
}

impl BeatVectors {
    fn new(random: u64, seed: u64) -> Self {
        BeatVectors { edge: 0, rng: SplitMix64(seed), pairs: OperandPairs::new(seed ^ 0xbea7), left: random }
    }
}

impl Vectors for BeatVectors {
    fn edges(&self) -> u64 {
        let n = edge_values().len() as u64;
        n * n + n * 17
    }

    fn next(&mut self, rec: &mut [u8]) -> bool {
        let edges = edge_values();
        let n = edges.len();
        if self.edge < n * n + n * 17 {
            let k = self.edge;
            self.edge += 1;
            let (lanes, mask): ([u32; 16], u16) = if k < n * n {
                (std::array::from_fn(|l| if l % 2 == 0 { edges[k / n] } else { edges[k % n] }), 0xffff)
            } else {
                let (e, len) = ((k - n * n) / 17, (k - n * n) % 17);
                ([edges[e]; 16], ((1u32 << len) - 1) as u16)
            };
            for (l, x) in lanes.iter().enumerate() {
                rec[4 * l..4 * l + 4].copy_from_slice(&x.to_le_bytes());
            }
            rec[64..66].copy_from_slice(&mask.to_le_bytes());
            return true;
        }
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        let kind = self.rng.next_u64();
        let base = self.pairs.next().unwrap_or((0, 0)).0;
        for l in 0..16 {
            let (a, b) = self.pairs.next().unwrap_or((0, 0));
            let r = self.rng.next_u64();
            let x = match kind % 4 {
                0 => a,
                1 => b,
                // One magnitude: sums that cancel and round.
                2 => (base & 0x7f80_0000) | (r as u32 & 0x807f_ffff),
                _ => {
                    if r.is_multiple_of(3) {
                        edges[(r >> 8) as usize % edges.len()]
                    } else {
                        a
                    }
                }
            };
            rec[4 * l..4 * l + 4].copy_from_slice(&x.to_le_bytes());
        }
        let n = (kind >> 8) % 17;
        let mask: u16 =
            if (kind >> 16).is_multiple_of(4) { self.rng.next_u64() as u16 } else { ((1u32 << n) - 1) as u16 };
        rec[64..66].copy_from_slice(&mask.to_le_bytes());
        true
    }
}

/// golden's `beat_tree_masked` of a record `{lanes, valid}`: `{sum, valid}`.
fn beat_golden(rec: &[u8], out: &mut [u8]) {
    let lanes: [u32; 16] = std::array::from_fn(|l| word(rec, 4 * l));
    let valid = u16::from_le_bytes([rec[64], rec[65]]);
    let sum = beat_tree_masked(&lanes.map(f32::from_bits), valid).map(f32::to_bits);
    out[..4].copy_from_slice(&sum.unwrap_or(0).to_le_bytes());
    out[4] = u8::from(sum.is_some());
}

/// The files the harness of `unit` builds from: the unit's RTL (the
/// wrapper, each latency's top and their components, as checked in unless
/// `rtl` replaces some of them: tests plant bugs this way) and its harness.
pub fn sources(unit: &FpUnit) -> Result<Vec<GeneratedFile>, String> {
    let rtl = emit::emitted()?;
    let mut names = vec![unit.wrapper()];
    for &l in unit.latencies {
        names.push(unit.module(l));
        names.extend(rtl.used_by_module(&unit.module(l)).into_iter().map(str::to_string));
    }
    names.sort();
    names.dedup();
    let root = generated_dir();
    let mut paths: Vec<PathBuf> = names.iter().map(|n| PathBuf::from(format!("rtl/{n}.v"))).collect();
    paths.push(emit::fp_harness_path(unit));
    // The checked-in files, which must be the generator's (a simulator never
    // runs other RTL than generated/'s); read once a process.
    static CHECKED: std::sync::OnceLock<Result<Vec<GeneratedFile>, String>> = std::sync::OnceLock::new();
    let checked = CHECKED.get_or_init(emit::checked_in).as_ref().map_err(Clone::clone)?;
    paths
        .into_iter()
        .map(|p| {
            checked
                .iter()
                .find(|f| f.path == p)
                .cloned()
                .ok_or_else(|| format!("{}: not a generated file", root.join(&p).display()))
        })
        .collect()
}

/// Build (or find in the cache) the Verilator harness of `unit` at `latency` over `files`.
pub fn build(unit: &FpUnit, latency: usize, files: &[GeneratedFile]) -> Result<Cached, String> {
    require("crosslane prove --fp", &["verilator"], "verilator")?;
    let top = unit.wrapper();
    let variant = format!("{}-l{latency}", unit.name);
    cached_build("verilator-fp", variant.as_bytes(), files, "harness", |dir| {
        let mut c = Command::new("verilator");
        c.args(VERILATOR_BUILD)
            .args(["-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", &top])
            .arg(format!("-GLATENCY={latency}"))
            .arg("-Mdir")
            .arg(dir.join("obj"))
            .arg("-o")
            .arg(dir.join("harness"))
            .args(
                files
                    .iter()
                    .filter(|f| f.path.extension().is_some_and(|e| e == "v" || e == "cpp"))
                    .map(|f| dir.join(&f.path)),
            )
            .args(["-CFLAGS", &format!("-O2 -DLATENCY={latency}")])
            // Code run once (construction, the first settle) unoptimized, as the unit's (D57).
            .args(["-MAKEFLAGS", "OPT_SLOW=-O0"]);
        c
    })
    .map_err(|e| e.0)
}

/// Check `unit` at `latency`: its edge set and `random` random vectors
/// from `seed`, on the checked-in RTL or on `files` (from [`sources`], some
/// of them changed).
pub fn check(
    unit: &'static FpUnit,
    latency: usize,
    random: u64,
    seed: u64,
    files: Option<Vec<GeneratedFile>>,
) -> Result<FpCheck, String> {
    if !unit.latencies.contains(&latency) {
        return Err(format!("{}: no latency {latency} (built: {:?})", unit.name, unit.latencies));
    }
    let files = match files {
        Some(f) => f,
        None => sources(unit)?,
    };
    let built = build(unit, latency, &files)?;
    let start = Instant::now();
    let w = wired(unit)?;
    let (vectors, edge_vectors, mismatches, first) = stream(unit, &built, (w.vectors)(random, seed), w.golden)?;
    Ok(FpCheck {
        unit,
        latency,
        vectors,
        edge_vectors,
        mismatches,
        first,
        secs: start.elapsed().as_secs_f64(),
        build_secs: built.build_secs,
    })
}

/// Run the harness on `model`'s vectors, each result compared with
/// `golden`'s; (vectors, edge vectors, mismatches, the first).
fn stream(
    unit: &FpUnit,
    built: &Cached,
    mut model: Box<dyn Vectors>,
    golden: Golden,
) -> Result<(u64, u64, u64, Option<Mismatch>), String> {
    let (in_bytes, out_bytes) = (unit.in_bytes(), unit.out_bytes());
    let edge_vectors = model.edges();
    let mut child = Command::new(&built.exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", built.exe.display()))?;
    let stdin = child.stdin.take().ok_or("the harness has no stdin")?;
    let stdout = child.stdout.take().ok_or("the harness has no stdout")?;
    // Chunks go to the harness and, through a bounded channel, to the comparer.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(4);
    let writer = std::thread::spawn(move || -> Result<(), String> {
        let mut out = BufWriter::with_capacity(1 << 20, stdin);
        loop {
            let mut chunk = vec![0u8; CHUNK * in_bytes];
            let mut n = 0;
            while n < CHUNK && model.next(&mut chunk[n * in_bytes..(n + 1) * in_bytes]) {
                n += 1;
            }
            chunk.truncate(n * in_bytes);
            if n > 0 {
                out.write_all(&chunk).map_err(|e| format!("writing to the harness: {e}"))?;
                if tx.send(chunk).is_err() {
                    return Ok(());
                }
            }
            if n < CHUNK {
                return out.flush().map_err(|e| format!("writing to the harness: {e}"));
            }
        }
    });
    let mut reader = BufReader::with_capacity(1 << 20, stdout);
    let (mut vectors, mut mismatches, mut first) = (0u64, 0u64, None);
    let mut got = vec![0u8; CHUNK * out_bytes];
    let mut want = vec![0u8; out_bytes];
    let mut short = None;
    for chunk in rx {
        let n = chunk.len() / in_bytes;
        if let Err(e) = reader.read_exact(&mut got[..n * out_bytes]) {
            short = Some(format!("the harness answered fewer results than it was sent vectors ({e})"));
            break;
        }
        for i in 0..n {
            let rec = &chunk[i * in_bytes..(i + 1) * in_bytes];
            let res = &got[i * out_bytes..(i + 1) * out_bytes];
            golden(rec, &mut want);
            if res != want.as_slice() {
                mismatches += 1;
                if first.is_none() {
                    first = Some(Mismatch::new(unit, rec, res, &want));
                }
            }
        }
        vectors += n as u64;
    }
    let written = writer.join().map_err(|_| "the vector writer panicked".to_string())?;
    let mut rest = Vec::new();
    let _ = reader.read_to_end(&mut rest);
    let out = child.wait_with_output().map_err(|e| format!("waiting for the harness: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(e) = short {
        return Err(format!("{e}; harness: {stderr}"));
    }
    written?;
    if !out.status.success() {
        return Err(format!("the harness exited with {}: {stderr}", out.status));
    }
    if !rest.is_empty() {
        return Err(format!("the harness answered {} bytes more than it was sent vectors", rest.len()));
    }
    if vectors == 0 {
        return Err("no vector was checked".into());
    }
    Ok((vectors, edge_vectors, mismatches, first))
}

/// What the SMT proof of a unit at a latency found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SmtVerdict {
    /// Equal to the reference for every input.
    Proven,
    /// The solver's counterexample: inputs, the RTL's outputs, golden's outputs.
    Counterexample(Mismatch),
    /// The solver did not finish within the time given.
    Timeout,
}

/// The SMT proof of one unit at one latency.
#[derive(Clone, Debug)]
pub struct SmtProof {
    pub unit: &'static FpUnit,
    pub latency: usize,
    /// The reference it was proven against, as its line names it.
    pub reference: &'static str,
    pub verdict: SmtVerdict,
    pub secs: f64,
}

impl SmtProof {
    pub fn line(&self) -> String {
        let what = format!("crosslane_{}_l{}", self.unit.name, self.latency);
        match &self.verdict {
            SmtVerdict::Proven => {
                format!("{what}: proven equal to {} for every input, bitwuzla, {:.1} s", self.reference, self.secs)
            }
            SmtVerdict::Timeout => format!("{what}: not proven within the time limit ({:.0} s)", self.secs),
            SmtVerdict::Counterexample(m) => format!("{what}: counterexample: {}", m.text),
        }
    }
}

// A unit's reference in SMT-LIB: a Bool over its inputs and outputs (named
// as its ports) that holds when the outputs are right.

/// `out = op(a_i, b_i)` rounded to nearest even, for `fp.add` / `fp.mul`.
/// Floats compare by bits: `=` on FloatingPoint is identity (+0 and −0
/// differ, and a non-NaN never equals a NaN); every NaN result is the
/// canonical quiet NaN (D50).
fn binary_reference(op: &str, out: &str) -> String {
    format!(
        "(let ((s ({op} RNE ((_ to_fp 8 24) a_i) ((_ to_fp 8 24) b_i)))) \
         (ite (fp.isNaN s) (= {out} #x7fc00000) (= ((_ to_fp 8 24) {out}) s)))"
    )
}

/// Integers by SMT-LIB's own conversions (RNE), FP32 and the IEEE formats
/// exactly (a NaN canonical); FP8_EXP4 and FP8_EXP3 are not IEEE formats
/// (no infinity, one NaN code) and are left true here: every one of their
/// codes is checked on Verilator.
fn to_f32_reference() -> String {
    let same = |x: &str| format!("(ite (fp.isNaN {x}) (= f32_o #x7fc00000) (= r {x}))");
    format!(
                "(let ((w32 ((_ extract 31 0) bits_i)) (w16 ((_ extract 15 0) bits_i)) (w8 ((_ extract 7 0) bits_i))) \
                 (let ((r ((_ to_fp 8 24) f32_o))) \
                 (ite (= dtype_i #x0) (= f32_o #x00000000) \
                 (ite (= dtype_i #x1) (= r ((_ to_fp_unsigned 8 24) RNE bits_i)) \
                 (ite (= dtype_i #x2) (= r ((_ to_fp 8 24) RNE w8)) \
                 (ite (= dtype_i #x3) (= r ((_ to_fp_unsigned 8 24) RNE w8)) \
                 (ite (= dtype_i #x4) (= r ((_ to_fp 8 24) RNE w16)) \
                 (ite (= dtype_i #x5) (= r ((_ to_fp_unsigned 8 24) RNE w16)) \
                 (ite (= dtype_i #x6) {} \
                 (ite (= dtype_i #x7) {} \
                 (ite (= dtype_i #x8) (= r ((_ to_fp 8 24) RNE w32)) \
                 (ite (= dtype_i #x9) (= r ((_ to_fp_unsigned 8 24) RNE w32)) \
                 (ite (or (= dtype_i #xa) (= dtype_i #xb)) (ite (fp.isNaN ((_ to_fp 8 24) w32)) (= f32_o #x7fc00000) (= f32_o w32)) \
                 (ite (= dtype_i #xc) (= r ((_ to_fp 8 24) RNE bits_i)) \
                 (ite (= dtype_i #xf) {} \
                 true)))))))))))))))",
                same("((_ to_fp 8 24) RNE ((_ to_fp 8 8) w16))"),
                same("((_ to_fp 8 24) RNE ((_ to_fp 5 11) w16))"),
                same("((_ to_fp 8 24) RNE ((_ to_fp 5 3) w8))"),
            )
}

/// Integers by roundToIntegral then to_sbv / to_ubv, saturation written
/// out; the IEEE formats by to_fp RNE; FP32 as itself; FP8_EXP4 and
/// FP8_EXP3 by [`no_inf_arm`].
fn from_f32_reference() -> String {
    let f = |bits: u32| format!("((_ to_fp 8 24) #x{bits:08x})");
    let zext = |n: u32, e: &str| if n == 64 { e.to_string() } else { format!("((_ zero_extend {}) {e})", 64 - n) };
    let mut arms = Vec::new();
    for (code, n, signed) in [
        (2u8, 8u32, true),
        (3, 8, false),
        (4, 16, true),
        (5, 16, false),
        (8, 32, true),
        (9, 32, false),
        (0xc, 64, true),
        (1, 64, false),
    ] {
        let arm = if signed {
            let hi = f((127 + n - 1) << 23);
            let lo = f(0x8000_0000 | ((127 + n - 1) << 23));
            format!(
                "(ite (fp.isNaN x) (= bits_o #x0000000000000000) (ite (fp.geq r {hi}) (= bits_o #x{:016x}) \
                         (ite (fp.lt r {lo}) (= bits_o #x{:016x}) (= bits_o {}))))",
                (1u64 << (n - 1)) - 1,
                1u64 << (n - 1),
                zext(n, &format!("((_ fp.to_sbv {n}) RTZ r)"))
            )
        } else {
            let hi = f((127 + n) << 23);
            format!(
                "(ite (fp.isNaN x) (= bits_o #x0000000000000000) (ite (fp.geq r {hi}) (= bits_o #x{:016x}) \
                         (ite (fp.lt r (_ +zero 8 24)) (= bits_o #x0000000000000000) (= bits_o {}))))",
                u64::MAX >> (64 - n),
                zext(n, &format!("((_ fp.to_ubv {n}) RTZ r)"))
            )
        };
        arms.push((code, arm));
    }
    for (code, eb, sb, qnan) in [(6u8, 8u32, 8u32, 0x7fc0u64), (7, 5, 11, 0x7e00), (0xf, 5, 3, 0x7e)] {
        let w = eb + sb;
        arms.push((
            code,
            format!(
                "(ite (fp.isNaN x) (= bits_o #x{qnan:016x}) (and (= ((_ extract 63 {w}) bits_o) (_ bv0 {})) \
                         (= ((_ to_fp {eb} {sb}) ((_ extract {} 0) bits_o)) ((_ to_fp {eb} {sb}) RNE x))))",
                64 - w,
                w - 1
            ),
        ));
    }
    for code in [0xau8, 0xb] {
        arms.push((
            code,
            "(ite (fp.isNaN x) (= bits_o #x000000007fc00000) (= bits_o (concat #x00000000 x_i)))".to_string(),
        ));
    }
    arms.push((0, "(= bits_o #x0000000000000000)".to_string()));
    for dtype in [Dtype::Fp8Exp4, Dtype::Fp8Exp3] {
        arms.push((dtype.code(), no_inf_arm(dtype)));
    }
    let mut e = "true".to_string();
    for (code, arm) in arms.iter().rev() {
        e = format!("(ite (= dtype_i #x{code:x}) {arm} {e})");
    }
    format!("(let ((x ((_ to_fp 8 24) x_i))) (let ((r (fp.roundToIntegral RNE x))) {e}))")
}

/// FromF32 to FP8_EXP4 or FP8_EXP3, formats SMT-LIB has not (no infinity;
/// the top exponent holds numbers, its all-ones code the one NaN), in
/// SMT-LIB's terms: below the smallest normal magnitude 2^(1 − bias) the
/// IEEE format of the same exponent width and precision rounds alike (same
/// bias, same subnormal quantum); from it up, one exponent bit more does
/// (same precision, the range to spare). A NaN gives the NaN code; a value
/// that rounds above the largest finite saturates to it, with x's sign;
/// otherwise `bits_o` is the code of the rounded value, compared by
/// identity once decoded to binary32 (−0 ≠ +0), the bits above 0.
fn no_inf_arm(dtype: Dtype) -> String {
    let m = dtype.minifloat().expect("a float dtype");
    let (e, p, w) = (m.exp_bits, m.man_bits + 1, m.bits());
    let min_normal = ((127 + 1 - m.bias) as u32) << 23;
    let max = m.decode(m.max_finite()).to_bits();
    let code = format!("((_ extract {} 0) bits_o)", w - 1);
    let field = format!("((_ extract {} {}) {code})", w - 2, m.man_bits);
    let man = format!("((_ extract {} 0) {code})", m.man_bits - 1);
    // A normal code's binary32: {sign, field + 127 − bias, man, zeros}.
    let normal = format!(
        "((_ to_fp 8 24) (concat ((_ extract {s} {s}) {code}) (bvadd ((_ zero_extend {}) {field}) #x{:02x}) {man} (_ bv0 {})))",
        8 - m.exp_bits,
        (127 - m.bias) as u8,
        23 - m.man_bits,
        s = w - 1
    );
    // A subnormal code: man × 2^(1 − bias − man_bits), the sign applied.
    let scale = ((127 + 1 - m.bias - m.man_bits as i32) as u32) << 23;
    let sub = format!("(fp.mul RNE ((_ to_fp_unsigned 8 24) RNE {man}) ((_ to_fp 8 24) #x{scale:08x}))");
    let sub = format!("(ite (= ((_ extract {s} {s}) {code}) #b1) (fp.neg {sub}) {sub})", s = w - 1);
    let decoded = format!("(ite (= {field} (_ bv0 {})) {sub} {normal})", m.exp_bits);
    let rounded = format!(
        "(ite (fp.lt (fp.abs x) ((_ to_fp 8 24) #x{min_normal:08x})) \
         ((_ to_fp 8 24) RNE ((_ to_fp {e} {p}) RNE x)) ((_ to_fp 8 24) RNE ((_ to_fp {} {p}) RNE x)))",
        e + 1
    );
    format!(
        "(ite (fp.isNaN x) (= bits_o #x{:016x}) (let ((q {rounded})) \
         (ite (fp.gt (fp.abs q) ((_ to_fp 8 24) #x{max:08x})) \
         (= bits_o (ite (fp.isNegative x) #x{:016x} #x{:016x})) \
         (and (= ((_ extract 63 {w}) bits_o) (_ bv0 {})) (= {decoded} q)))))",
        m.qnan(),
        m.max_finite() | (1 << (w - 1)),
        m.max_finite(),
        64 - w
    )
}

/// The Python program that runs bitwuzla on an SMT-LIB file (its argument)
/// and prints what the solver printed (`sat` / `unsat` and `get-value`'s model).
const BITWUZLA: &str = "import sys, bitwuzla as bw\n\
opts = bw.Options()\n\
opts.set(bw.Option.PRODUCE_MODELS, True)\n\
bw.Parser(bw.TermManager(), opts).parse(sys.argv[1])\n";

/// The Python that has bitwuzla: $CROSSLANE_PYTHON, else ./dev's venv
/// (the workspace's target/py), else python3.
fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("CROSSLANE_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/py/bin/python");
    if venv.is_file() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

/// Whether the SMT proof's solver can run: bitwuzla's Python module.
pub fn smt_available() -> Result<(), String> {
    let py = python();
    match Command::new(&py).args(["-c", "import bitwuzla"]).output() {
        Ok(o) if o.status.success() => Ok(()),
        _ => Err(format!("bitwuzla is not importable by {} (pip install bitwuzla; ./dev python does)", py.display())),
    }
}

/// Prove `unit` at `latency` equal to its SMT-LIB reference: yosys reads its
/// RTL (`files`, from [`sources`]) and writes it as an SMT-LIB transition
/// system (`write_smt2`); the miter chains `latency` transitions from a free
/// state, the inputs free at the first, and asks for outputs after the
/// last that the reference does not allow. RTL the model would read
/// otherwise than a simulator (a flop not a plain rising-edge `$dff` on
/// `clk_i`, an incomplete sensitivity list, …) is refused ([`super::sound`]).
pub fn smt_prove(
    unit: &'static FpUnit,
    latency: usize,
    files: &[GeneratedFile],
    limit: std::time::Duration,
) -> Result<SmtProof, String> {
    let w = wired(unit)?;
    let (reference_name, reference) = w.smt.ok_or_else(|| format!("{}: no SMT-LIB reference", unit.name))?;
    let reference = reference();
    require("crosslane prove --fp --smt", &["yosys"], "yosys")?;
    smt_available()?;
    let module = unit.module(latency);
    let text: Vec<(String, String)> = files
        .iter()
        .filter(|f| f.path.extension().is_some_and(|e| e == "v"))
        .map(|f| (f.path.display().to_string(), f.contents.clone()))
        .collect();
    super::sound::check_text(&text)?;
    let key =
        crate::tools::fnv1a(&[module.as_bytes(), text.iter().map(|(_, t)| t.as_str()).collect::<String>().as_bytes()]);
    let dir = crate::tools::cache_root().join(format!("fp-smt-{module}-{key:016x}"));
    let mut paths = Vec::new();
    for f in files.iter().filter(|f| f.path.extension().is_some_and(|e| e == "v")) {
        let p = dir.join(&f.path);
        crate::tools::write_atomic(&p, f.contents.as_bytes())?;
        paths.push(p.display().to_string());
    }
    let (json, smt2) = (dir.join("netlist.json"), dir.join("model.smt2"));
    let script = format!(
        "read_verilog {}; hierarchy -check -top {module}; proc; flatten; opt -nosdff -nodffe; opt_clean; \
         write_json {}; write_smt2 -wires {}",
        paths.join(" "),
        json.display(),
        smt2.display()
    );
    let out =
        Command::new("yosys").args(["-q", "-p", &script]).output().map_err(|e| format!("cannot run yosys: {e}"))?;
    if !out.status.success() {
        return Err(format!("yosys: {}", crate::tools::tail(&String::from_utf8_lossy(&out.stdout), 20)));
    }
    let netlist = std::fs::read_to_string(&json).map_err(|e| format!("{}: {e}", json.display()))?;
    super::sound::check_netlist_ports(&netlist, &module, unit.inputs, unit.outputs)?;
    let model = std::fs::read_to_string(&smt2).map_err(|e| format!("{}: {e}", smt2.display()))?;
    let miter = dir.join("miter.smt2");
    crate::tools::write_atomic(&miter, smt_miter(unit, &module, latency, &model, &reference).as_bytes())?;
    let start = Instant::now();
    let mut cmd = Command::new(python());
    cmd.args(["-c", BITWUZLA]).arg(&miter);
    let out = crate::tools::run_limited(&mut cmd, limit)?;
    let secs = start.elapsed().as_secs_f64();
    let Some(out) = out else {
        return Ok(SmtProof { unit, latency, reference: reference_name, verdict: SmtVerdict::Timeout, secs });
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "bitwuzla (through {}): {}{}",
            python().display(),
            crate::tools::tail(&String::from_utf8_lossy(&out.stderr), 10),
            crate::tools::tail(&stdout, 10)
        ));
    }
    let verdict = match stdout.lines().next().map(str::trim) {
        Some("unsat") => SmtVerdict::Proven,
        Some("sat") => {
            let inputs: Vec<u64> =
                unit.inputs.iter().map(|(p, _)| model_value(&stdout, p)).collect::<Result<_, _>>()?;
            let got: Vec<u64> = unit.outputs.iter().map(|(p, _)| model_value(&stdout, p)).collect::<Result<_, _>>()?;
            let mut rec = Vec::new();
            for ((_, w), v) in unit.inputs.iter().zip(&inputs) {
                rec.extend_from_slice(&v.to_le_bytes()[..w.div_ceil(8)]);
            }
            let mut want = vec![0u8; unit.out_bytes()];
            (w.golden)(&rec, &mut want);
            let mut got_rec = Vec::new();
            for ((_, w), v) in unit.outputs.iter().zip(&got) {
                got_rec.extend_from_slice(&v.to_le_bytes()[..w.div_ceil(8)]);
            }
            if want == got_rec {
                return Err(format!(
                    "the solver's counterexample {} gives golden's own result {}: the reference and golden disagree",
                    port_text(unit.inputs, &rec),
                    port_text(unit.outputs, &got_rec)
                ));
            }
            SmtVerdict::Counterexample(Mismatch::new(unit, &rec, &got_rec, &want))
        }
        other => return Err(format!("bitwuzla answered {other:?}")),
    };
    Ok(SmtProof { unit, latency, reference: reference_name, verdict, secs })
}

/// The miter: yosys' model, `latency + 1` states chained by its transition
/// relation, the inputs at the first, the outputs at the last.
fn smt_miter(unit: &FpUnit, module: &str, latency: usize, model: &str, reference: &str) -> String {
    let mut m = String::from("(set-logic ALL)\n");
    m.push_str(model);
    for k in 0..=latency {
        m.push_str(&format!("(declare-fun s{k} () |{module}_s|)\n(assert (|{module}_h| s{k}))\n"));
    }
    for k in 1..=latency {
        m.push_str(&format!("(assert (|{module}_t| s{} s{k}))\n", k - 1));
    }
    let mut names = Vec::new();
    for (p, w) in unit.inputs {
        m.push_str(&format!("(define-fun {p} () (_ BitVec {w}) (|{module}_n {p}| s0))\n"));
        names.push(*p);
    }
    for (p, w) in unit.outputs {
        m.push_str(&format!("(define-fun {p} () (_ BitVec {w}) (|{module}_n {p}| s{latency}))\n"));
        names.push(*p);
    }
    m.push_str(&format!("(assert (not {reference}))\n(check-sat)\n(get-value ({}))\n", names.join(" ")));
    m
}

/// A port's value in bitwuzla's `get-value` answer (`((a_i #b0101…) …)`).
fn model_value(answer: &str, port: &str) -> Result<u64, String> {
    let at = answer.find(&format!("({port} ")).ok_or_else(|| format!("the model has no {port}: {answer}"))?;
    let rest = &answer[at + port.len() + 2..];
    let lit = rest.split(|c: char| c == ')' || c.is_whitespace()).next().unwrap_or("");
    if let Some(b) = lit.strip_prefix("#b") {
        u64::from_str_radix(b, 2).map_err(|e| format!("{port} = {lit}: {e}"))
    } else if let Some(h) = lit.strip_prefix("#x") {
        u64::from_str_radix(h, 16).map_err(|e| format!("{port} = {lit}: {e}"))
    } else {
        Err(format!("{port} = {lit}: not a bit-vector literal"))
    }
}

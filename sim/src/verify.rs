//! `crosslane verify`: every engine against the golden model on the observed
//! vectors and a seeded corner-heavy campaign, one table row per engine and
//! op family.

use crate::engine::{Engine, EngineError, EngineKind};
use crosslane_golden::campaign::observed;
pub use crosslane_golden::campaign::{campaign as cases, Mixed};
use crosslane_golden::naive::naive;
use crosslane_golden::{Case, Family, Outcome};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One row of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub engine: EngineKind,
    pub family: Family,
    pub cases: usize,
    pub mismatches: usize,
    pub time: Duration,
}

/// A case an engine got wrong.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub engine: EngineKind,
    pub case: Case,
    pub want: Outcome,
    pub got: Outcome,
}

/// Everything a verify run found.
#[derive(Default, Debug)]
pub struct Report {
    pub rows: Vec<Row>,
    /// The first mismatches (at most 20 per engine), for the user.
    pub mismatches: Vec<Mismatch>,
}

impl Report {
    pub fn total_mismatches(&self) -> usize {
        self.rows.iter().map(|r| r.mismatches).sum()
    }

    pub fn render(&self) -> String {
        let mut s = format!("{:<10} {:<8} {:>10} {:>11} {:>10}\n", "engine", "family", "cases", "mismatches", "time");
        let mut engine = None;
        let (mut cases, mut bad, mut time) = (0usize, 0usize, Duration::ZERO);
        let flush = |s: &mut String, e: Option<EngineKind>, cases: usize, bad: usize, time: Duration| {
            if let Some(e) = e {
                s.push_str(&format!(
                    "{:<10} {:<8} {:>10} {:>11} {:>9.3}s\n",
                    e.name(),
                    "ALL",
                    cases,
                    bad,
                    time.as_secs_f64()
                ));
            }
        };
        for r in &self.rows {
            if engine != Some(r.engine) {
                flush(&mut s, engine, cases, bad, time);
                (cases, bad, time) = (0, 0, Duration::ZERO);
                engine = Some(r.engine);
            }
            cases += r.cases;
            bad += r.mismatches;
            time += r.time;
            s.push_str(&format!(
                "{:<10} {:<8} {:>10} {:>11} {:>9.3}s\n",
                r.engine.name(),
                r.family.name(),
                r.cases,
                r.mismatches,
                r.time.as_secs_f64()
            ));
        }
        flush(&mut s, engine, cases, bad, time);
        for m in &self.mismatches {
            s.push_str(&format!(
                "MISMATCH {}: {} vec {} vbool {:016x}: want {:08x} {:?}, got {:08x} {:?}\n",
                m.engine.name(),
                m.case.op.name(),
                m.case.vec,
                m.case.vbool,
                m.want.value,
                m.want.mask,
                m.got.value,
                m.got.mask
            ));
        }
        s
    }
}

/// Group `cases` by family, in table order.
/// Cases an engine runs at a time: memory stays bounded however long the
/// campaign.
pub const CHUNK: usize = 1 << 16;

/// Per-family tallies, kept in family order.
#[derive(Default)]
struct Tally(BTreeMap<Family, (usize, usize, Duration)>);

impl Tally {
    fn add(&mut self, family: Family, bad: bool, time: Duration) {
        let e = self.0.entry(family).or_default();
        e.0 += 1;
        e.1 += bad as usize;
        e.2 += time;
    }

    fn into_rows(self, engine: EngineKind, report: &mut Report) {
        for (family, (cases, mismatches, time)) in self.0 {
            report.rows.push(Row { engine, family, cases, mismatches, time });
        }
    }
}

/// The golden model against the naive second model on `cases` (streamed),
/// and against the spec's observed vectors.
pub fn verify_golden(cases: impl Iterator<Item = Case>, report: &mut Report, progress: &dyn Fn(u64)) {
    let mut tally = Tally::default();
    let mut n = 0;
    for c in cases {
        let start = Instant::now();
        let got = c.eval();
        let (value, mask) = naive(c.op, &c.vec, c.vbool);
        let want = Outcome { value, mask };
        if got != want {
            push_mismatch(report, EngineKind::Golden, c, want, got);
        }
        tally.add(c.op.family, got != want, start.elapsed());
        n += 1;
        if n % 4096 == 0 {
            progress(4096);
        }
    }
    for o in observed() {
        let got = o.case.eval();
        let want = Outcome { value: o.value, mask: o.mask };
        if got != want {
            push_mismatch(report, EngineKind::Golden, o.case, want, got);
        }
        tally.add(o.case.op.family, got != want, Duration::ZERO);
    }
    tally.into_rows(EngineKind::Golden, report);
}

fn push_mismatch(report: &mut Report, engine: EngineKind, case: Case, want: Outcome, got: Outcome) {
    if report.mismatches.iter().filter(|m| m.engine == engine).count() < 20 {
        report.mismatches.push(Mismatch { engine, case, want, got });
    }
}

/// An engine against the golden model on `cases`, streamed in chunks of
/// [`CHUNK`] cases, each chunk one run of the engine (ops mixed from one
/// clock to the next as the stream gives them).
pub fn verify_engine(
    engine: &mut dyn Engine,
    cases: impl Iterator<Item = Case>,
    report: &mut Report,
    progress: &dyn Fn(u64),
) -> Result<(), EngineError> {
    let kind = engine.kind();
    let mut tally = Tally::default();
    let mut cases = cases.peekable();
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut checked = 0usize;
    while cases.peek().is_some() {
        chunk.clear();
        chunk.extend(cases.by_ref().take(CHUNK));
        let start = Instant::now();
        let got = engine.run(&chunk)?;
        let each = start.elapsed() / chunk.len() as u32;
        if got.len() != chunk.len() {
            return Err(EngineError(format!(
                "engine '{}' returned {} results for {} cases",
                kind.name(),
                got.len(),
                chunk.len()
            )));
        }
        for (c, g) in chunk.iter().zip(got) {
            let want = c.eval();
            if g != want {
                push_mismatch(report, kind, *c, want, g);
            }
            tally.add(c.op.family, g != want, each);
        }
        checked += chunk.len();
        progress(chunk.len() as u64);
    }
    if checked == 0 {
        return Err(EngineError(format!("engine '{}' was given no case to check", kind.name())));
    }
    tally.into_rows(kind, report);
    Ok(())
}

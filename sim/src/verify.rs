//! `crosslane verify`: every engine against the golden model on the observed
//! vectors and a seeded corner-heavy campaign, one table row per engine and
//! op family.

use crate::engine::{Engine, EngineError, EngineKind};
pub use crosslane_golden::campaign::campaign as cases;
use crosslane_golden::campaign::observed;
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
fn by_family(cases: &[Case]) -> BTreeMap<Family, Vec<Case>> {
    let mut groups: BTreeMap<Family, Vec<Case>> = BTreeMap::new();
    for c in cases {
        groups.entry(c.op.family).or_default().push(*c);
    }
    groups
}

/// The golden model checked against the spec's observed results and the
/// naive second model.
pub fn verify_golden(cases: &[Case], report: &mut Report, progress: &dyn Fn(u64)) {
    let observed = observed();
    for (family, group) in by_family(cases) {
        let start = Instant::now();
        let mut bad = 0;
        for c in &group {
            let got = c.eval();
            let (value, mask) = naive(c.op, &c.vec, c.vbool);
            let want = Outcome { value, mask };
            if got != want {
                bad += 1;
                push_mismatch(report, EngineKind::Golden, *c, want, got);
            }
        }
        let mut n = group.len();
        for o in observed.iter().filter(|o| o.case.op.family == family) {
            n += 1;
            let got = o.case.eval();
            let want = Outcome { value: o.value, mask: o.mask };
            if got != want {
                bad += 1;
                push_mismatch(report, EngineKind::Golden, o.case, want, got);
            }
        }
        progress(group.len() as u64);
        report.rows.push(Row { engine: EngineKind::Golden, family, cases: n, mismatches: bad, time: start.elapsed() });
    }
}

fn push_mismatch(report: &mut Report, engine: EngineKind, case: Case, want: Outcome, got: Outcome) {
    if report.mismatches.iter().filter(|m| m.engine == engine).count() < 20 {
        report.mismatches.push(Mismatch { engine, case, want, got });
    }
}

/// Any engine checked against the golden model, family by family.
pub fn verify_engine(
    engine: &mut dyn Engine,
    cases: &[Case],
    report: &mut Report,
    progress: &dyn Fn(u64),
) -> Result<(), EngineError> {
    let kind = engine.kind();
    for (family, group) in by_family(cases) {
        let start = Instant::now();
        let got = engine.run(&group)?;
        let time = start.elapsed();
        if got.len() != group.len() {
            return Err(EngineError(format!(
                "engine '{}' returned {} results for {} cases",
                kind.name(),
                got.len(),
                group.len()
            )));
        }
        let mut bad = 0;
        for (c, g) in group.iter().zip(got) {
            let want = c.eval();
            if g != want {
                bad += 1;
                push_mismatch(report, kind, *c, want, g);
            }
        }
        progress(group.len() as u64);
        report.rows.push(Row { engine: kind, family, cases: group.len(), mismatches: bad, time });
    }
    Ok(())
}

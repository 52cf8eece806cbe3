//! `crosslane verify`: every engine against the golden model on the observed
//! vectors and a seeded corner-heavy campaign, one table row per engine and
//! op family.

use crate::engine::{Engine, EngineError, EngineKind, Runner};
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
    /// The coverage model over the cases the Verilator engine ran (the
    /// campaign's largest; crosslane_golden::coverage).
    pub coverage: crosslane_golden::coverage::Coverage,
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

/// `verify`'s cases an op on Verilator: over a million in all.
pub const DEFAULT_VERILATOR_PER_OP: usize = 10_640;

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
/// and, with `observed_too`, against the spec's observed vectors.
pub fn verify_golden(
    cases: impl Iterator<Item = Case>,
    observed_too: bool,
    report: &mut Report,
    progress: &dyn Fn(u64),
) {
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
    for o in observed().into_iter().filter(|_| observed_too) {
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

/// Campaign sizes of one verify run: random cases per op for each engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub golden: usize,
    pub hdl: usize,
    pub verilator: usize,
    pub icarus: usize,
}

impl Sizes {
    /// An engine given no case would be skipped while the run passed: refuse,
    /// naming the flag. The same for a shard that holds none of an engine's cases.
    pub fn check(&self, shard: Shard) -> Result<(), String> {
        for (flag, kind) in [
            ("--per-op", EngineKind::Golden),
            ("--hdl-per-op", EngineKind::Hdl),
            ("--verilator-per-op", EngineKind::Verilator),
            ("--icarus-per-op", EngineKind::Icarus),
        ] {
            let per_op = self.per_op(kind);
            if per_op == 0 {
                return Err(format!(
                    "{flag} 0 would check the {} engines on no case and pass: give at least 1",
                    kind.name()
                ));
            }
            let n = Mixed::new(0, per_op, true).len();
            if shard.is_empty(n) {
                return Err(format!(
                    "shard {shard} holds none of the {n} cases {flag} {per_op} gives the {} engines: fewer shards or more cases",
                    kind.name()
                ));
            }
        }
        Ok(())
    }

    pub fn per_op(&self, kind: EngineKind) -> usize {
        match kind.runner() {
            Runner::Golden => self.golden,
            Runner::Hdl => self.hdl,
            Runner::Verilator => self.verilator,
            Runner::Icarus => self.icarus,
        }
    }
}

/// One of `count` deterministic slices of a campaign (`index` from 1):
/// case `k` of an engine's campaign (from 0, in the campaign's order)
/// belongs to the shard with `k % count == index - 1`; the spec's observed
/// vectors belong to shard 1. The shards of a campaign are disjoint and
/// together are the whole campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// `i/n` with `1 <= i <= n`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}': expected i/n with 1 <= i <= n, e.g. 1/4");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) =
            (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// This shard's items of `items` (cases, or case indices): the k-th when
    /// k mod count = index − 1.
    pub fn of<T, I: Iterator<Item = T>>(self, items: I) -> impl Iterator<Item = T> {
        items.enumerate().filter(move |(k, _)| k % self.count == self.index - 1).map(|(_, c)| c)
    }

    /// How many of `total` cases this shard has.
    pub fn len(self, total: usize) -> usize {
        total / self.count + usize::from(total % self.count >= self.index)
    }

    pub fn is_empty(self, total: usize) -> bool {
        self.len(total) == 0
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The `format` field of a report: what `crosslane merge` reads.
pub const REPORT_FORMAT: &str = "crosslane-verify-report-2";

fn outcome_json(o: &Outcome) -> serde_json::Value {
    serde_json::json!({ "value": format!("{:08x}", o.value), "mask": o.mask.map(|m| format!("{m:016x}")) })
}

/// A verify run's report as JSON: campaign (seed, sizes, shard count), the
/// shards it covers, rows, totals and the first mismatches.
pub fn report_json(report: &Report, seed: u64, sizes: Sizes, count: usize, shards: &[usize]) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = report
        .rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "engine": r.engine.name(), "family": r.family.name(), "cases": r.cases,
                "mismatches": r.mismatches, "seconds": r.time.as_secs_f64(),
            })
        })
        .collect();
    let mismatches: Vec<serde_json::Value> = report
        .mismatches
        .iter()
        .map(|m| {
            serde_json::json!({
                "engine": m.engine.name(), "op": m.case.op.name(), "vec": m.case.vec.to_hex(),
                "vbool": format!("{:016x}", m.case.vbool), "want": outcome_json(&m.want), "got": outcome_json(&m.got),
            })
        })
        .collect();
    serde_json::json!({
        "format": REPORT_FORMAT,
        "seed": seed,
        "sizes": { "golden": sizes.golden, "hdl": sizes.hdl, "verilator": sizes.verilator, "icarus": sizes.icarus },
        "shard_count": count,
        "shards": shards,
        "cases": report.rows.iter().map(|r| r.cases).sum::<usize>(),
        "mismatches": report.total_mismatches(),
        "rows": rows,
        "first_mismatches": mismatches,
        "coverage": crate::coverage::to_json(&report.coverage),
    })
}

/// A report read back: the campaign it belongs to and what it found.
#[derive(Debug)]
pub struct ShardReport {
    pub seed: u64,
    pub sizes: Sizes,
    pub count: usize,
    /// The shards it covers (one, or several once merged).
    pub shards: Vec<usize>,
    pub report: Report,
}

fn field<'a>(v: &'a serde_json::Value, name: &str, what: &str) -> Result<&'a serde_json::Value, String> {
    v.get(name).ok_or_else(|| format!("{what}: no field '{name}'"))
}

fn usize_field(v: &serde_json::Value, name: &str, what: &str) -> Result<usize, String> {
    field(v, name, what)?
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("{what}: '{name}' is not a count"))
}

fn str_field<'a>(v: &'a serde_json::Value, name: &str, what: &str) -> Result<&'a str, String> {
    field(v, name, what)?.as_str().ok_or_else(|| format!("{what}: '{name}' is not a string"))
}

fn engine_field(v: &serde_json::Value, what: &str) -> Result<EngineKind, String> {
    let name = str_field(v, "engine", what)?;
    EngineKind::ALL.into_iter().find(|e| e.name() == name).ok_or_else(|| format!("{what}: no engine '{name}'"))
}

fn outcome_from(v: &serde_json::Value, what: &str) -> Result<Outcome, String> {
    let value = u32::from_str_radix(str_field(v, "value", what)?, 16).map_err(|e| format!("{what}: value: {e}"))?;
    let mask = match field(v, "mask", what)? {
        serde_json::Value::Null => None,
        m => Some(u64::from_str_radix(m.as_str().unwrap_or("?"), 16).map_err(|e| format!("{what}: mask: {e}"))?),
    };
    Ok(Outcome { value, mask })
}

/// Read a report written by `verify --json` (or `merge --json`); `what`
/// names it in errors.
pub fn parse_report(text: &str, what: &str) -> Result<ShardReport, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))?;
    if v.get("format").and_then(|f| f.as_str()) != Some(REPORT_FORMAT) {
        return Err(format!("{what}: not a verify report (no \"format\": \"{REPORT_FORMAT}\")"));
    }
    let seed = field(&v, "seed", what)?.as_u64().ok_or_else(|| format!("{what}: 'seed' is not a number"))?;
    let s = field(&v, "sizes", what)?;
    let sizes = Sizes {
        golden: usize_field(s, "golden", what)?,
        hdl: usize_field(s, "hdl", what)?,
        verilator: usize_field(s, "verilator", what)?,
        icarus: usize_field(s, "icarus", what)?,
    };
    let count = usize_field(&v, "shard_count", what)?;
    let listed = field(&v, "shards", what)?.as_array().ok_or_else(|| format!("{what}: 'shards' is not a list"))?;
    let shards: Vec<usize> = listed.iter().filter_map(|x| x.as_u64().and_then(|x| usize::try_from(x).ok())).collect();
    if count == 0 || shards.is_empty() || shards.len() != listed.len() || shards.iter().any(|&i| i == 0 || i > count) {
        return Err(format!("{what}: 'shards' must list shards between 1 and 'shard_count' ({count})"));
    }
    let mut report = Report::default();
    for (k, r) in
        field(&v, "rows", what)?.as_array().ok_or_else(|| format!("{what}: 'rows' is not a list"))?.iter().enumerate()
    {
        let w = format!("{what}: row {k}");
        let engine = engine_field(r, &w)?;
        let family_name = str_field(r, "family", &w)?;
        let family = Family::ALL
            .into_iter()
            .find(|f| f.name() == family_name)
            .ok_or_else(|| format!("{w}: no op family '{family_name}'"))?;
        let time = field(r, "seconds", &w)?
            .as_f64()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .ok_or_else(|| format!("{w}: 'seconds' is not a duration"))?;
        let (cases, mismatches) = (usize_field(r, "cases", &w)?, usize_field(r, "mismatches", &w)?);
        if mismatches > cases {
            return Err(format!("{w}: {mismatches} mismatches in {cases} cases cannot be"));
        }
        report.rows.push(Row { engine, family, cases, mismatches, time });
    }
    let listed = field(&v, "first_mismatches", what)?
        .as_array()
        .ok_or_else(|| format!("{what}: 'first_mismatches' is not a list"))?;
    for (k, m) in listed.iter().enumerate() {
        let w = format!("{what}: mismatch {k}");
        let engine = engine_field(m, &w)?;
        let op_name = str_field(m, "op", &w)?;
        let op = crosslane_golden::Op::from_name(op_name).ok_or_else(|| format!("{w}: no op '{op_name}'"))?;
        let vec = crosslane_golden::Vec512::from_hex(str_field(m, "vec", &w)?).map_err(|e| format!("{w}: vec: {e}"))?;
        let vbool = u64::from_str_radix(str_field(m, "vbool", &w)?, 16).map_err(|e| format!("{w}: vbool: {e}"))?;
        report.mismatches.push(Mismatch {
            engine,
            case: Case::new(op, vec, vbool),
            want: outcome_from(field(m, "want", &w)?, &w)?,
            got: outcome_from(field(m, "got", &w)?, &w)?,
        });
    }
    report.coverage = crate::coverage::from_json(field(&v, "coverage", what)?, &format!("{what}: coverage"))?;
    let total = checked_totals(&report.rows).map_err(|e| format!("{what}: {e}"))?;
    let claimed = usize_field(&v, "mismatches", what)?;
    if claimed != total.1 {
        return Err(format!("{what}: 'mismatches' says {claimed}, its rows add up to {}", total.1));
    }
    Ok(ShardReport { seed, sizes, count, shards, report })
}

/// The cases and mismatches of `rows` added up, or an error when a sum
/// does not fit: a report whose numbers cannot be true.
fn checked_totals(rows: &[Row]) -> Result<(usize, usize), String> {
    let mut total = (0usize, 0usize);
    for r in rows {
        total.0 = total.0.checked_add(r.cases).ok_or("its case counts add up past any true campaign")?;
        total.1 = total.1.checked_add(r.mismatches).ok_or("its mismatch counts add up past any true campaign")?;
    }
    Ok(total)
}

/// Combine the reports of one campaign's shards. Every shard must be there
/// exactly once, all of one campaign (seed, sizes, shard count): a missing
/// or doubled shard is an error naming it, never a smaller pass.
pub fn merge(parts: Vec<(String, ShardReport)>) -> Result<ShardReport, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("crosslane merge: no reports given".into());
    };
    let (seed, sizes, count) = (first.seed, first.sizes, first.count);
    for (name, p) in &parts {
        if (p.seed, p.sizes, p.count) != (seed, sizes, count) {
            return Err(format!(
                "{name} is of another campaign than {first_name} (seed {} vs {seed}, sizes {:?} vs {sizes:?}, {} vs {count} shards)",
                p.seed, p.sizes, p.count
            ));
        }
    }
    crate::tools::every_shard_once(parts.iter().map(|(name, p)| (name.as_str(), p.shards.as_slice())), count)?;
    let mut sums: BTreeMap<(usize, Family), (usize, usize, Duration)> = BTreeMap::new();
    let mut report = Report::default();
    for (_, p) in parts {
        for r in p.report.rows {
            let slot = EngineKind::ALL.iter().position(|e| *e == r.engine).unwrap_or(0);
            let e = sums.entry((slot, r.family)).or_default();
            let sum = (e.0.checked_add(r.cases), e.1.checked_add(r.mismatches), e.2.checked_add(r.time));
            let (Some(cases), Some(mismatches), Some(time)) = sum else {
                return Err(format!(
                    "the shards' {} {} rows add up past any true campaign (cases, mismatches or seconds)",
                    r.engine.name(),
                    r.family.name()
                ));
            };
            *e = (cases, mismatches, time);
        }
        for m in p.report.mismatches {
            push_mismatch(&mut report, m.engine, m.case, m.want, m.got);
        }
        report.coverage.merge(&p.report.coverage);
    }
    for ((slot, family), (cases, mismatches, time)) in sums {
        report.rows.push(Row { engine: EngineKind::ALL[slot], family, cases, mismatches, time });
    }
    checked_totals(&report.rows).map_err(|e| format!("the merged report: {e}"))?;
    Ok(ShardReport { seed, sizes, count, shards: (1..=count).collect(), report })
}

#[cfg(test)]
mod shard_tests {
    use super::*;

    #[test]
    fn shards_split_a_campaign_into_disjoint_parts_that_cover_it() {
        let whole: Vec<Case> = Mixed::new(7, 3, true).collect();
        for n in [1, 2, 5] {
            let mut parts: Vec<Case> = Vec::new();
            for i in 1..=n {
                let shard = Shard { index: i, count: n };
                let part: Vec<Case> = shard.of(Mixed::new(7, 3, true)).collect();
                assert_eq!(part.len(), shard.len(whole.len()), "shard {shard}");
                parts.extend(part);
            }
            assert_eq!(parts.len(), whole.len());
            let key = |c: &Case| (c.op.code(), c.vec.to_hex(), c.vbool);
            let mut a: Vec<_> = whole.iter().map(key).collect();
            let mut b: Vec<_> = parts.iter().map(key).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{n} shards");
        }
        // The same shard twice is the same cases.
        let s = Shard { index: 2, count: 3 };
        let k = |v: Vec<Case>| v.into_iter().map(|c| (c.op.code(), c.vbool)).collect::<Vec<_>>();
        assert_eq!(k(s.of(Mixed::new(7, 3, true)).collect()), k(s.of(Mixed::new(7, 3, true)).collect()));
    }

    #[test]
    fn no_engine_may_be_given_no_case() {
        let ok = Sizes { golden: 1, hdl: 1, verilator: 1, icarus: 1 };
        assert_eq!(ok.check(Shard::WHOLE), Ok(()));
        for (sizes, flag) in [
            (Sizes { golden: 0, ..ok }, "--per-op 0"),
            (Sizes { hdl: 0, ..ok }, "--hdl-per-op 0"),
            (Sizes { verilator: 0, ..ok }, "--verilator-per-op 0"),
            (Sizes { icarus: 0, ..ok }, "--icarus-per-op 0"),
        ] {
            let e = sizes.check(Shard::WHOLE).unwrap_err();
            assert!(e.starts_with(flag), "{e}");
        }
        let e = ok.check(Shard { index: 1000, count: 1000 }).unwrap_err();
        assert!(e.contains("holds none"), "{e}");
    }

    #[test]
    fn shard_syntax_is_checked() {
        assert_eq!(Shard::parse("2/4").unwrap(), Shard { index: 2, count: 4 });
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).unwrap_err().contains("expected i/n"), "{bad}");
        }
    }

    fn part(seed: u64, shard: Shard, bad: usize) -> (String, ShardReport) {
        let sizes = Sizes { golden: 2, hdl: 0, verilator: 0, icarus: 0 };
        let mut report = Report::default();
        report.rows.push(Row {
            engine: EngineKind::Golden,
            family: Family::ALL[0],
            cases: 10,
            mismatches: bad,
            time: Duration::from_millis(5),
        });
        if bad > 0 {
            let case = Mixed::new(1, 1, false).next().unwrap();
            push_mismatch(&mut report, EngineKind::Golden, case, case.eval(), Outcome { value: 1, mask: None });
        }
        let text = report_json(&report, seed, sizes, shard.count, &[shard.index]).to_string();
        (format!("shard{shard}"), parse_report(&text, "test").unwrap())
    }

    #[test]
    fn merge_adds_shards_up_and_refuses_gaps_doubles_and_strangers() {
        let s = |i| Shard { index: i, count: 3 };
        let m = merge(vec![part(1, s(1), 0), part(1, s(3), 2), part(1, s(2), 0)]).unwrap();
        assert_eq!(m.report.rows.len(), 1);
        assert_eq!((m.report.rows[0].cases, m.report.rows[0].mismatches), (30, 2));
        assert_eq!(m.report.mismatches.len(), 1);
        assert_eq!(m.shards, vec![1, 2, 3]);
        // A merged report reads back and merges as the whole campaign.
        let text = report_json(&m.report, 1, m.sizes, 3, &m.shards).to_string();
        let again = parse_report(&text, "merged").unwrap();
        assert_eq!(again.shards, vec![1, 2, 3]);
        assert!(merge(vec![part(1, s(1), 0), part(1, s(3), 0)]).unwrap_err().contains("shards missing: 2/3"));
        assert!(merge(vec![part(1, s(1), 0), part(1, s(1), 0), part(1, s(2), 0), part(1, s(3), 0)])
            .unwrap_err()
            .contains("shard 1/3 is in both"));
        assert!(merge(vec![part(1, s(1), 0), part(2, s(2), 0), part(1, s(3), 0)])
            .unwrap_err()
            .contains("another campaign"));
        assert!(merge(vec![]).unwrap_err().contains("no reports"));
        assert!(parse_report("{}", "x.json").unwrap_err().contains("not a verify report"));
        assert!(parse_report("nope", "x.json").unwrap_err().contains("not JSON"));
        let lying = report_json(&Report::default(), 1, part(1, s(1), 0).1.sizes, 3, &[1])
            .to_string()
            .replace("\"mismatches\":0", "\"mismatches\":3");
        assert!(parse_report(&lying, "x.json").unwrap_err().contains("add up to"));
    }

    /// `part`'s report text with its first row's field `key` set to `value`
    /// (and the top-level `mismatches` to `total`, when given).
    fn forged(shard: Shard, key: &str, value: &str, total: Option<&str>) -> String {
        let (_, p) = part(1, shard, 0);
        let mut v = report_json(&p.report, 1, p.sizes, shard.count, &[shard.index]);
        v["rows"][0][key] = serde_json::from_str(value).unwrap();
        if let Some(t) = total {
            v["mismatches"] = serde_json::from_str(t).unwrap();
        }
        v.to_string()
    }

    #[test]
    fn forged_numbers_are_errors_not_panics_or_wrapped_sums() {
        let s = |i| Shard { index: i, count: 2 };
        // A duration no Duration holds, or a negative one.
        for bad in ["1e300", "-1", "1e20"] {
            let e = parse_report(&forged(s(1), "seconds", bad, None), "x.json").unwrap_err();
            assert!(e.contains("'seconds' is not a duration"), "{bad}: {e}");
        }
        // Durations that fit alone but not added.
        let big = |i| parse_report(&forged(s(i), "seconds", "1.5e19", None), "x.json").unwrap();
        let e = merge(vec![("a".into(), big(1)), ("b".into(), big(2))]).unwrap_err();
        assert!(e.contains("add up past"), "{e}");
        // Counts that wrap when added: an error, never "0 mismatches".
        let max = usize::MAX.to_string();
        let huge = |i| {
            let text = forged(s(i), "cases", &max, None);
            let text = text.replace("\"mismatches\":0", &format!("\"mismatches\":{max}"));
            parse_report(&text, "x.json").unwrap()
        };
        assert_eq!(huge(1).report.rows[0].mismatches, usize::MAX);
        let e = merge(vec![("a".into(), huge(1)), ("b".into(), huge(2))]).unwrap_err();
        assert!(e.contains("add up past"), "{e}");
        // More mismatches than cases.
        let e = parse_report(&forged(s(1), "mismatches", "11", Some("11")), "x.json").unwrap_err();
        assert!(e.contains("cannot be"), "{e}");
    }

    #[test]
    fn a_forged_shard_count_is_refused_without_allocating_it() {
        for count in [1_000_000_000_000usize, usize::MAX] {
            let shard = Shard { index: 1, count };
            let (name, p) = part(1, shard, 0);
            let e = merge(vec![(name, p)]).unwrap_err();
            assert!(e.starts_with("shards missing: 2/"), "{e}");
            assert!(e.contains(" more"), "{e}");
        }
    }
}

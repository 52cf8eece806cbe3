//! Throughput of the engines that simulate the unit, each measured against a
//! same-run reference so that the machine's speed cancels out.
//!
//! The reference is the golden model evaluating the same cases one by one
//! (`Case::eval`, one core): a CPU-bound loop whose speed follows the
//! machine's as the simulators' does. A figure is kept as its *ratio* to the
//! reference measured just before it (each run of an engine has its own, so
//! a machine that slows down part way through a suite moves both);
//! `crosslane bench --suite --check FILE` fails when a ratio falls more than
//! [`ALLOWED_DROP`] below the one recorded in FILE (`sim/bench-ratios.json`,
//! written by `--record` as the median of [`RECORD_RUNS`] suites) and stays there when its engine is measured again
//! ([`RETRIES`] times: a regression reproduces, a busy neighbour does not).
//! A change to the golden model's speed moves every ratio: record them again
//! then, and say why in the commit.

use crate::engine::{EngineError, EngineKind, Runner};
use crate::engines::hdl::{run_cases, HdlSim};
use crate::engines::rtl::{self, Simulator};
use crate::verify;
use crosslane_golden::{Case, Config};
use std::collections::BTreeMap;
use std::time::Instant;

/// How far below its recorded ratio a figure may fall before `--check` fails.
/// Half: on a quiet machine of this kind the reference alone moved from
/// 37.2 to 19.9 million cases/s within a minute, and an engine's ratio by a
/// third (D65); a change that halves a simulator's speed still fails.
pub const ALLOWED_DROP: f64 = 0.5;

/// How many times `--record` measures the whole suite; the median ratio of
/// each figure is recorded (D65), never one lucky or unlucky minute.
pub const RECORD_RUNS: usize = 3;

/// How many times `--check` measures an engine again whose figure fell below
/// the allowance before it calls that a regression.
pub const RETRIES: usize = 2;

/// What was timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Span {
    /// From the first case handed to the engine to the last outcome read
    /// back (the simulator's start, the pipes and the parsing included;
    /// builds excluded).
    EndToEnd,
    /// The Verilator harness's clock loop alone (its own clock).
    ClockLoop,
}

impl Span {
    pub fn name(self) -> &'static str {
        match self {
            Span::EndToEnd => "end to end",
            Span::ClockLoop => "clock loop",
        }
    }
}

/// One measured figure.
#[derive(Clone, Debug)]
pub struct Figure {
    pub engine: EngineKind,
    pub span: Span,
    pub vectors: usize,
    /// The run with the best ratio to its reference: its time,
    pub secs: f64,
    /// and the golden reference measured just before it (vectors a second).
    pub reference: f64,
    /// Engine-specific detail (the rust-hdl simulation's passes a clock).
    pub note: String,
}

impl Figure {
    pub fn rate(&self) -> f64 {
        self.vectors as f64 / self.secs
    }

    /// The rate over the reference measured beside it.
    pub fn ratio(&self) -> f64 {
        self.rate() / self.reference
    }

    /// The key of this figure in a ratios file: `engine/span`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.engine.name(), self.span.name())
    }
}

/// The cases every measurement runs: corner-heavy cases of all 94 ops
/// (verify's generator, seed 7), `n` of them.
pub fn cases(n: usize) -> Vec<Case> {
    let per_op = n.div_ceil(crosslane_golden::OP_COUNT).max(1);
    let mut cases = verify::cases(7, per_op);
    cases.truncate(n);
    cases
}

/// The reference: the golden model on `cases`, one by one, repeated for at
/// least a fifth of a second; vectors a second, best of `runs`.
pub fn reference_rate(cases: &[Case], runs: usize) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let mut n = 0usize;
        let mut sink = 0u64;
        while n == 0 || start.elapsed().as_secs_f64() < 0.2 {
            for c in cases {
                let o = std::hint::black_box(c).eval();
                sink = sink.wrapping_add(o.value as u64 ^ o.mask.unwrap_or(0));
            }
            n += cases.len();
        }
        std::hint::black_box(sink);
        best = best.max(n as f64 / start.elapsed().as_secs_f64());
    }
    best
}

/// Run `kind` on `cases` `runs` times and keep the best time of each span.
/// Every run's outcomes are compared with the golden model's: a mismatch is
/// an error, not a figure.
pub fn measure(kind: EngineKind, cases: &[Case], runs: usize) -> Result<Vec<Figure>, EngineError> {
    if cases.is_empty() {
        return Err(EngineError("bench: no cases to run".into()));
    }
    let want: Vec<_> = cases.iter().map(Case::eval).collect();
    let check = |got: &[crosslane_golden::Outcome]| -> Result<(), EngineError> {
        let wrong = want.iter().zip(got).filter(|(w, g)| w != g).count();
        if got.len() != want.len() || wrong > 0 {
            return Err(EngineError(format!(
                "bench {}: {wrong} of {} results differ from the golden model ({} returned)",
                kind.name(),
                want.len(),
                got.len()
            )));
        }
        Ok(())
    };
    // Each span's best run as (seconds × its reference): the smallest is the best ratio.
    let mut end: Option<(f64, f64)> = None;
    let mut clock_loop: Option<(f64, f64)> = None;
    let keep = |best: &mut Option<(f64, f64)>, secs: f64, reference: f64| {
        if best.is_none_or(|(s, r)| secs * reference < s * r) {
            *best = Some((secs, reference));
        }
    };
    let mut note = String::new();
    let build = match kind.runner() {
        Runner::Verilator => Some(rtl::build_form(Simulator::Verilator, kind.config(), kind.fast())?),
        Runner::Icarus => Some(rtl::build_form(Simulator::Icarus, kind.config(), kind.fast())?),
        _ => None,
    };
    for _ in 0..runs.max(1) {
        // The reference just before the run, so that both see the machine as it is now.
        let reference = reference_rate(cases, 1);
        let start = Instant::now();
        match kind.runner() {
            Runner::Golden => check(&cases.iter().map(Case::eval).collect::<Vec<_>>())?,
            Runner::Hdl => {
                let mut sim = HdlSim::new(false, kind.config())?;
                let (settles, passes) = (sim.settles, sim.passes);
                let start = Instant::now();
                let out = run_cases(&mut sim, cases)?;
                keep(&mut end, start.elapsed().as_secs_f64(), reference);
                check(&out)?;
                let clocks = (sim.settles - settles) / 2;
                note = format!(
                    "{:.1} update passes a clock ({} settles of {:.2} passes)",
                    (sim.passes - passes) as f64 / clocks as f64,
                    sim.settles - settles,
                    (sim.passes - passes) as f64 / (sim.settles - settles) as f64
                );
                continue;
            }
            Runner::Verilator => {
                let run = rtl::run_ext(build.as_ref().expect("built above"), cases)?;
                check(&run.outcomes)?;
                let l = run.loop_secs.ok_or_else(|| {
                    EngineError(format!("bench {}: the harness did not report its clock loop's time", kind.name()))
                })?;
                keep(&mut clock_loop, l, reference);
            }
            Runner::Icarus => check(&rtl::run_dump(build.as_ref().expect("built above"), cases)?)?,
        }
        keep(&mut end, start.elapsed().as_secs_f64(), reference);
    }
    let mut out = Vec::new();
    for (span, best, note) in [(Span::EndToEnd, end, note), (Span::ClockLoop, clock_loop, String::new())] {
        if let Some((secs, reference)) = best {
            out.push(Figure { engine: kind, span, vectors: cases.len(), secs, reference, note });
        }
    }
    Ok(out)
}

/// The suite: every simulating engine, each configuration, with the case
/// counts that keep it to about a minute on this project's machine.
pub fn suite() -> Vec<(EngineKind, usize)> {
    let mut out = Vec::new();
    for config in Config::ALL {
        for (runner, fast, n) in [
            (Runner::Verilator, false, 1_000_000),
            (Runner::Verilator, true, 4_000_000),
            (Runner::Hdl, false, 4_000),
            (Runner::Icarus, false, 4_000),
            (Runner::Icarus, true, 20_000),
        ] {
            if let Some(kind) = EngineKind::of_form(runner, config, fast) {
                out.push((kind, n));
            }
        }
    }
    out
}

/// One figure of every engine and span of the suite, each 1 vector a
/// second: what a page is checked against before a run.
pub fn placeholder_figures() -> Vec<Figure> {
    let mut out = Vec::new();
    for (kind, _) in suite() {
        for span in [Span::EndToEnd, Span::ClockLoop] {
            if span == Span::EndToEnd || kind.runner() == Runner::Verilator {
                out.push(Figure { engine: kind, span, vectors: 1, secs: 1.0, reference: 1.0, note: String::new() });
            }
        }
    }
    out
}

/// A suite's result: the reference and every figure.
#[derive(Clone, Debug)]
pub struct SuiteRun {
    /// The fastest of the figures' references (the table's first row).
    pub reference: f64,
    pub figures: Vec<Figure>,
}

impl SuiteRun {
    pub fn ratios(&self) -> BTreeMap<String, f64> {
        self.figures.iter().map(|f| (f.key(), f.ratio())).collect()
    }

    /// Take the figures of an engine measured again where their ratio is
    /// better than the one held.
    pub fn keep_better(&mut self, again: Vec<Figure>) {
        for f in again {
            match self.figures.iter_mut().find(|g| g.key() == f.key()) {
                Some(g) if f.ratio() > g.ratio() => *g = f,
                Some(_) => {}
                None => self.figures.push(f),
            }
        }
    }

    /// The table for docs/performance.md.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        s.push_str("| engine | timed | vectors | vectors/s | × reference | notes |\n");
        s.push_str("|---|---|---|---|---|---|\n");
        s.push_str(&format!(
            "| golden `Case::eval` (the reference) | one by one | | {} | 1 | |\n",
            group(self.reference)
        ));
        for f in &self.figures {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.3e} | {} |\n",
                f.engine.name(),
                f.span.name(),
                group(f.vectors as f64),
                group(f.rate()),
                f.ratio(),
                f.note
            ));
        }
        s
    }
}

/// A whole number with thousands separators.
pub fn group(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Ratios recorded by `--record`, as JSON text.
pub fn ratios_json(ratios: &BTreeMap<String, f64>) -> String {
    let map: serde_json::Map<String, serde_json::Value> =
        ratios.iter().map(|(k, v)| (k.clone(), serde_json::json!(v))).collect();
    let value = serde_json::json!({
        "_comment": "Each engine's throughput over the golden reference's measured beside it, the median of 3 suites (crosslane bench --suite --record). --check fails below 50% of these after measuring a low engine twice more.",
        "ratios": map,
    });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}

/// Each figure's run of median ratio over several suites (the lower middle
/// of an even count), in the first suite's order.
pub fn median_run(runs: &[SuiteRun]) -> SuiteRun {
    let mut figures: Vec<Figure> = Vec::new();
    for f in runs.iter().flat_map(|r| &r.figures) {
        if figures.iter().any(|g| g.key() == f.key()) {
            continue;
        }
        let mut all: Vec<&Figure> = runs.iter().flat_map(|r| &r.figures).filter(|g| g.key() == f.key()).collect();
        all.sort_by(|a, b| a.ratio().total_cmp(&b.ratio()));
        figures.push(all[(all.len() - 1) / 2].clone());
    }
    let reference = figures.iter().map(|f| f.reference).fold(0.0, f64::max);
    SuiteRun { reference, figures }
}

/// Read a ratios file.
pub fn parse_ratios(text: &str) -> Result<BTreeMap<String, f64>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let map = v.get("ratios").and_then(|r| r.as_object()).ok_or("no \"ratios\" object")?;
    let mut out = BTreeMap::new();
    for (k, v) in map {
        let r = v.as_f64().filter(|r| r.is_finite() && *r > 0.0);
        out.insert(k.clone(), r.ok_or_else(|| format!("ratio of {k} is not a positive number"))?);
    }
    if out.is_empty() {
        return Err("no ratio recorded".into());
    }
    Ok(out)
}

/// The engines with a figure more than [`ALLOWED_DROP`] below its recorded
/// ratio: the ones `--check` measures again.
pub fn regressed_engines(run: &SuiteRun, recorded: &BTreeMap<String, f64>) -> Vec<EngineKind> {
    let mut out = Vec::new();
    for f in &run.figures {
        let low = recorded.get(&f.key()).is_some_and(|&was| f.ratio() < (1.0 - ALLOWED_DROP) * was);
        if low && !out.contains(&f.engine) {
            out.push(f.engine);
        }
    }
    out
}

/// The figures that fell more than [`ALLOWED_DROP`] below their recorded
/// ratio, and recorded figures the run did not measure: one line each.
pub fn regressions(run: &SuiteRun, recorded: &BTreeMap<String, f64>) -> Vec<String> {
    let now = run.ratios();
    let mut out = Vec::new();
    for (key, &was) in recorded {
        match now.get(key) {
            None => out.push(format!("{key}: recorded but not measured")),
            Some(&r) if r < (1.0 - ALLOWED_DROP) * was => {
                out.push(format!("{key}: {:.3e} × reference, {:.0}% of the recorded {:.3e}", r, 100.0 * r / was, was))
            }
            Some(_) => {}
        }
    }
    for key in now.keys() {
        if !recorded.contains_key(key) {
            out.push(format!("{key}: measured but no ratio recorded (run --record)"));
        }
    }
    out
}

/// The README's headline rows of the suite: (the row's first cell, the row).
pub fn headline_rows(run: &SuiteRun) -> Vec<(String, String)> {
    let fig = |kind: EngineKind, span: Span| {
        run.figures.iter().find(|f| f.engine == kind && f.span == span).map(|f| f.rate())
    };
    let m = |x: f64| format!("{:.2} M", x / 1e6);
    let mut rows = Vec::new();
    if let (Some(l), Some(e)) =
        (fig(EngineKind::Verilator, Span::ClockLoop), fig(EngineKind::Verilator, Span::EndToEnd))
    {
        rows.push(("Verilator engine".to_string(), format!("{} vectors/s (clock loop), {} end to end", m(l), m(e))));
    }
    if let (Some(l), Some(e)) =
        (fig(EngineKind::VerilatorFast, Span::ClockLoop), fig(EngineKind::VerilatorFast, Span::EndToEnd))
    {
        rows.push((
            "Verilator engine, fast form".to_string(),
            format!("{} vectors/s (clock loop), {} end to end", m(l), m(e)),
        ));
    }
    if let Some(e) = fig(EngineKind::Hdl, Span::EndToEnd) {
        rows.push(("rust-hdl engine".to_string(), format!("{} vectors/s", group(e))));
    }
    if let Some(e) = fig(EngineKind::Icarus, Span::EndToEnd) {
        rows.push(("Icarus engine".to_string(), format!("{} vectors/s end to end", group(e))));
    }
    if let Some(e) = fig(EngineKind::IcarusFast, Span::EndToEnd) {
        rows.push(("Icarus engine, fast form".to_string(), format!("{} vectors/s end to end", group(e))));
    }
    rows.into_iter()
        .map(|(what, figure)| (format!("| {what} |"), format!("| {what} | {figure} | `./dev bench` |")))
        .collect()
}

/// Write the suite's figures into a page: the table between
/// `<!-- bench:begin -->` and `<!-- bench:end -->`, and every headline row
/// ([`headline_rows`]) the page has, each replaced whole. A page with
/// neither is an error.
pub fn write_into(doc: &str, run: &SuiteRun) -> Result<String, String> {
    let mut out = if doc.contains("<!-- bench:") { splice(doc, &run.markdown())? } else { doc.to_string() };
    let mut rows = 0;
    for (key, row) in headline_rows(run) {
        let mut text = String::with_capacity(out.len());
        for line in out.split_inclusive('\n') {
            if line.starts_with(&key) {
                text.push_str(&row);
                text.push('\n');
                rows += 1;
            } else {
                text.push_str(line);
            }
        }
        out = text;
    }
    if rows == 0 && !doc.contains("<!-- bench:") {
        return Err("neither a <!-- bench:begin --> block nor a headline row to write".into());
    }
    Ok(out)
}

/// Replace the text between `<!-- bench:begin -->` and `<!-- bench:end -->`
/// in `doc` with `table`.
pub fn splice(doc: &str, table: &str) -> Result<String, String> {
    const BEGIN: &str = "<!-- bench:begin -->";
    const END: &str = "<!-- bench:end -->";
    let (Some(b), Some(e)) = (doc.find(BEGIN), doc.find(END)) else {
        return Err(format!("no {BEGIN} … {END} block"));
    };
    if e < b || doc.matches(BEGIN).count() != 1 || doc.matches(END).count() != 1 {
        return Err(format!("expected one {BEGIN} … {END} block"));
    }
    Ok(format!("{}{BEGIN}\n{table}{END}{}", &doc[..b], &doc[e + END.len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(ratio: f64) -> SuiteRun {
        SuiteRun {
            reference: 1000.0,
            figures: vec![Figure {
                engine: EngineKind::Hdl,
                span: Span::EndToEnd,
                vectors: 10,
                secs: 10.0 / (1000.0 * ratio),
                reference: 1000.0,
                note: String::new(),
            }],
        }
    }

    #[test]
    fn a_drop_beyond_the_allowance_is_a_regression_and_one_within_is_not() {
        let recorded = parse_ratios(&ratios_json(&run(0.5).ratios())).unwrap();
        assert!((recorded["hdl/end to end"] - 0.5).abs() < 1e-12);
        assert!(regressions(&run(0.5), &recorded).is_empty());
        assert!(regressions(&run(0.251), &recorded).is_empty());
        let r = regressions(&run(0.249), &recorded);
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(r[0].starts_with("hdl/end to end"), "{r:?}");
        // A figure recorded but not measured, or measured but not recorded, fails too.
        let mut other = recorded.clone();
        other.insert("icarus/end to end".into(), 0.1);
        assert_eq!(regressions(&run(0.5), &other).len(), 1);
        assert_eq!(regressions(&run(0.5), &BTreeMap::from([("x/y".to_string(), 1.0)])).len(), 2);
    }

    #[test]
    fn a_low_figure_measured_again_is_kept_only_when_better() {
        let recorded = parse_ratios(&ratios_json(&run(0.5).ratios())).unwrap();
        let mut low = run(0.2);
        assert_eq!(regressed_engines(&low, &recorded), vec![EngineKind::Hdl]);
        assert!(regressed_engines(&run(0.3), &recorded).is_empty());
        // Measured again, worse: the figure held stays; better: it replaces it.
        low.keep_better(run(0.1).figures);
        assert!((low.ratios()["hdl/end to end"] - 0.2).abs() < 1e-9);
        low.keep_better(run(0.45).figures);
        assert!((low.ratios()["hdl/end to end"] - 0.45).abs() < 1e-9);
        assert!(regressions(&low, &recorded).is_empty());
        // The ratio is to the figure's own reference, not the run's.
        let mut slow_machine = run(0.45);
        slow_machine.figures[0].reference /= 2.0;
        slow_machine.figures[0].secs *= 2.0;
        assert!((slow_machine.ratios()["hdl/end to end"] - 0.45).abs() < 1e-9);
    }

    #[test]
    fn the_median_of_the_suites_is_recorded_not_a_lucky_one() {
        let m = median_run(&[run(0.9), run(0.3), run(0.5)]).ratios();
        assert!((m["hdl/end to end"] - 0.5).abs() < 1e-9, "{m:?}");
        // An even count: the lower middle.
        let m = median_run(&[run(0.9), run(0.3)]).ratios();
        assert!((m["hdl/end to end"] - 0.3).abs() < 1e-9, "{m:?}");
        let back = parse_ratios(&ratios_json(&m)).unwrap();
        assert_eq!(back.len(), 1);
    }

    #[test]
    fn bad_ratio_files_are_refused() {
        assert!(parse_ratios("{}").is_err());
        assert!(parse_ratios(r#"{"ratios": {}}"#).is_err());
        assert!(parse_ratios(r#"{"ratios": {"a": -1}}"#).is_err());
        assert!(parse_ratios(r#"{"ratios": {"a": "x"}}"#).is_err());
        assert!(parse_ratios("not json").is_err());
    }

    #[test]
    fn the_table_goes_between_the_markers_and_nowhere_else() {
        let doc = "a\n<!-- bench:begin -->\nold\n<!-- bench:end -->\nb\n";
        assert_eq!(splice(doc, "new\n").unwrap(), "a\n<!-- bench:begin -->\nnew\n<!-- bench:end -->\nb\n");
        assert!(splice("a\n", "x").is_err());
        assert!(splice("<!-- bench:end --><!-- bench:begin -->", "x").is_err());
        assert!(splice("<!-- bench:begin --><!-- bench:begin --><!-- bench:end -->", "x").is_err());
    }

    #[test]
    fn headline_rows_are_replaced_whole_and_a_page_without_a_place_is_refused() {
        let mut r = run(0.5);
        r.figures[0].engine = EngineKind::Hdl;
        let doc = "| what | figure | made by |\n|---|---|---|\n| rust-hdl engine | 1 vectors/s | typed |\n| other | x | y |\n";
        let got = write_into(doc, &r).unwrap();
        assert_eq!(
            got,
            "| what | figure | made by |\n|---|---|---|\n| rust-hdl engine | 500 vectors/s | `./dev bench` |\n| other | x | y |\n"
        );
        assert!(write_into("no place\n", &r).is_err());
        let block = write_into("<!-- bench:begin -->\n<!-- bench:end -->\n", &r).unwrap();
        assert!(block.contains("| hdl | end to end | 10 | 500 |"), "{block}");
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(group(1234567.4), "1,234,567");
        assert_eq!(group(999.0), "999");
        assert_eq!(group(1000.0), "1,000");
    }
}

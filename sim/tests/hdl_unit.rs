//! The rust-hdl unit against the golden model in rust-hdl's cycle-accurate
//! simulation: every op on the observed vectors and 200 corner-heavy random
//! vectors, back to back; then valid gaps and a reset mid-stream, with each
//! result exactly the latency of its configuration after its input. A failing case leaves a
//! VCD whose path the assertion prints.

use crosslane_golden::campaign::{observed, random_cases};
use crosslane_golden::Config;
use crosslane_golden::{Case, Op};
use crosslane_sim::engine::to_outcome;
use crosslane_sim::engines::hdl::{run_cases, trace_case, Beat, HdlSim};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

const PER_OP: usize = 200;

fn vcd_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hdl-vcd")
}

fn check(cases: &[Case]) {
    let mut sim = HdlSim::new(false, Config::DEFAULT).unwrap();
    let got = run_cases(&mut sim, cases).unwrap();
    assert_eq!(got.len(), cases.len());
    for (c, g) in cases.iter().zip(&got) {
        let want = c.eval();
        if *g != want {
            let vcd =
                trace_case(c, &vcd_dir(), Config::DEFAULT).map(|p| p.display().to_string()).unwrap_or_else(|e| e.0);
            panic!("{} vec {} vbool {:016x}: golden {want:?}, hdl {g:?}; VCD: {vcd}", c.op.name(), c.vec, c.vbool);
        }
    }
}

#[test]
fn observed_vectors_match_golden_and_spec() {
    let rows = observed();
    let cases: Vec<Case> = rows.iter().map(|o| o.case).collect();
    let mut sim = HdlSim::new(false, Config::DEFAULT).unwrap();
    let got = run_cases(&mut sim, &cases).unwrap();
    for (row, g) in rows.iter().zip(got) {
        assert_eq!((g.value, g.mask), (row.value, row.mask), "{row:?}");
    }
}

/// One test per family so failures name the family; every op of the family
/// at every form, base and `_t`.
macro_rules! family_tests {
    ($($name:ident => $family:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let ops: Vec<Op> = Op::all().into_iter().filter(|o| o.family == crosslane_golden::Family::$family).collect();
            assert!(!ops.is_empty());
            let mut cases = Vec::new();
            for op in ops {
                cases.extend(random_cases(op, 0x4d1, PER_OP));
            }
            check(&cases);
        }
    )*};
}

family_tests! {
    radd => Add, raddu => AddU, radds => AddS, rmax => Max, rmin => Min, rmaxu => MaxU,
    rminu => MinU, rmaxnum => MaxNum, rminnum => MinNum, rand => And, ror => Or, rxor => Xor,
    rbmax => BMax, rbmin => BMin, rbmaxu => BMaxU, rbminu => BMinU, randb => AndB, rorb => OrB,
}

/// Random valid gaps and a reset in mid-stream: out_valid_o is high exactly
/// latency clocks after each accepted input and never else; inputs in flight
/// at a reset are dropped. Every configuration, each with its own latency.
#[rstest::rstest]
fn cycle_accuracy_with_gaps_and_reset(#[values(1, 2, 3)] every: usize) {
    let config = Config::every_nth(every).unwrap();
    let latency = config.latency();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let ops = Op::all();
    let mut beats: Vec<(Beat, bool)> = Vec::new();
    for i in 0..600 {
        let reset = i == 300 || i == 301;
        let beat = if rng.gen_bool(0.6) {
            let op = ops[rng.gen_range(0..ops.len())];
            Some(random_cases(op, i as u64, 1)[0])
        } else {
            None
        };
        beats.push((beat, reset));
    }
    let mut sim = HdlSim::new(false, config).unwrap();
    let obs = sim.run_beats(&beats).unwrap();
    assert_eq!(obs.len(), beats.len() + latency);
    // The output after clock t belongs to the input of clock t + 1 - latency.
    let mut checked = 0;
    for (t, o) in obs.iter().enumerate() {
        let src = (t + 1).checked_sub(latency);
        let expect = src.and_then(|s| {
            let (beat, _) = beats.get(s).copied()?;
            // A reset at any edge from the input's to the output's drops it.
            let dropped = (s..=t).any(|k| beats.get(k).is_some_and(|b| b.1));
            if dropped {
                None
            } else {
                beat
            }
        });
        match expect {
            Some(c) => {
                assert!(o.valid, "clock {t}: out_valid_o low, expected {}", c.op.name());
                assert_eq!(to_outcome(&c, *o), c.eval(), "clock {t}: {} vec {}", c.op.name(), c.vec);
                checked += 1;
            }
            None => assert!(!o.valid, "clock {t}: out_valid_o high with no input latency clocks before"),
        }
    }
    assert!(checked > 300, "only {checked} results checked");
}

/// The other configurations on every op: the observed vectors and 20 random
/// cases of each op, against golden.
#[rstest::rstest]
fn other_configurations_match_golden(#[values(2, 3)] every: usize) {
    let mut cases: Vec<Case> = observed().iter().map(|o| o.case).collect();
    for op in Op::all() {
        cases.extend(random_cases(op, 0x77 + every as u64, 20));
    }
    let mut sim = HdlSim::new(false, Config::every_nth(every).unwrap()).unwrap();
    let got = run_cases(&mut sim, &cases).unwrap();
    assert_eq!(got.len(), cases.len());
    for (c, g) in cases.iter().zip(&got) {
        assert_eq!(*g, c.eval(), "every{every}: {} vec {} vbool {:016x}", c.op.name(), c.vec, c.vbool);
    }
}

//! Every component of the engine (hdl/src/engine): a synthesis test
//! (rust-hdl's checks, then yosys reads and synthesizes its Verilog) and an
//! operation test in rust-hdl's simulation against golden's answer. The
//! whole engine is checked against golden in sim/tests/engine.rs.
//!
//! yosys is needed for the synthesis tests: outside CI a missing yosys
//! prints one SKIPPED line; with CI or CROSSLANE_REQUIRE_SIMULATORS set it
//! fails the test.

use crosslane_golden::instruction::exec::maximum_number;
use crosslane_golden::instruction::{fp, Dtype, RawInstruction, ReduceOp, Tensor4d, RULE_NAMES};
use crosslane_hdl::engine::check::{InstCheck, CHECK_LATENCY};
use crosslane_hdl::engine::fill::{BeatPack, LANES};
use crosslane_hdl::engine::fold::{FoldAcc, MaxNum2, FOLD_ADD, FOLD_MAX, FOLD_XOR};
use crosslane_hdl::engine::lane::{LaneConv, CONV_LATENCY, PRODUCT_LATENCY, RAW_LATENCY};
use crosslane_hdl::engine::walk::Walk4d;
use crosslane_hdl::with_unit_stack;
use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

#[path = "../../testdata/tool_present.rs"]
mod tool;

fn have_yosys() -> bool {
    tool::tool_present(tool::on_path(&["yosys"], "yosys"))
}

/// rust-hdl's checks pass and yosys synthesizes the component's Verilog.
fn synthesizes<B: Block>(name: &str, mut uut: B) {
    uut.connect_all();
    check_all(&uut).unwrap_or_else(|e| panic!("{name}: rust-hdl's checks: {e:?}"));
    let vlog = generate_verilog(&uut);
    if have_yosys() {
        yosys_validate(name, &vlog).unwrap_or_else(|e| panic!("{name}: yosys: {e:?}"));
    }
}

fn settle<B: Block>(uut: &mut B) {
    assert!(with_unit_stack(|| simulate(uut, 200)), "the component settles");
}

fn bits512(bytes: &[u8]) -> Bits<512> {
    BigUint::from_bytes_le(bytes).into()
}

fn bytes512(b: Bits<512>) -> Vec<u8> {
    let mut v = BigUint::from(b).to_bytes_le();
    v.resize(64, 0);
    v
}

/// One clock of a component whose clock is `clk`: inputs set by `set`
/// settle with the clock low, then the rising edge.
fn clock<B: Block>(uut: &mut B, clk: impl Fn(&mut B) -> &mut Signal<In, Clock>, set: impl FnOnce(&mut B)) {
    clk(uut).next = Clock { clk: false };
    set(uut);
    settle(uut);
    clk(uut).next = Clock { clk: true };
    settle(uut);
}

/// maximumNumber of two binary32 values, golden's.
fn max_num(a: u32, b: u32) -> u32 {
    maximum_number(&[f32::from_bits(a), f32::from_bits(b)]).to_bits()
}

#[test]
fn the_engine_components_synthesize() {
    synthesizes("walk4d", Walk4d::default());
    synthesizes("beat_pack", BeatPack::default());
    synthesizes("fold_acc", FoldAcc::default());
    synthesizes("max_num2", MaxNum2::default());
    synthesizes("lane_conv", LaneConv::new(5));
    synthesizes("inst_check", InstCheck::default());
}

fn tensor_bits(t: &Tensor4d) -> Bits<160> {
    let mut b = [0u8; 20];
    t.write(&mut b);
    BigUint::from_bytes_le(&b).into()
}

/// Walk4d's offsets, stepping `adv` elements of dimension 0 when its
/// stride is 1 (else 1), are golden's `Tensor4d::offsets` in order.
#[test]
fn walk4d_visits_golden_offsets_one_or_a_chunk_at_a_time() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for case in 0..40 {
        let lg = rng.gen_range(0..4u64);
        let num: [u16; 4] = std::array::from_fn(|_| rng.gen_range(1..5));
        let mut step: [i16; 4] = std::array::from_fn(|_| rng.gen_range(-3..4));
        let chunked = case % 2 == 0;
        if chunked {
            step[0] = 1;
        }
        let t = Tensor4d { start_addr: Tensor4d::immediate(3, 4096), step_elem: step, num_elem: num };
        let want: Vec<i64> = t.offsets(1 << lg).map(|o| o as i64).collect();
        let mut w = Walk4d::default();
        w.connect_all();
        w.tensor_i.next = tensor_bits(&t);
        w.lg_i.next = lg.into();
        w.adv_i.next = 1.into();
        clock(&mut w, |w| &mut w.clk_i, |w| w.load_i.next = true);
        let mut got = Vec::new();
        for _ in 0..want.len() {
            // A chunk: up to 3 elements of the run at once when the stride is 1.
            let k = if chunked { w.run_left_o.val().to_u64().min(3) } else { 1 };
            w.load_i.next = false;
            w.adv_i.next = k.into();
            settle(&mut w);
            for j in 0..k {
                got.push(w.offset_o.val().to_u64() as i64 + (j << lg) as i64);
            }
            let last = w.last_o.val();
            clock(&mut w, |w| &mut w.clk_i, |w| w.step_i.next = true);
            if last {
                break;
            }
        }
        assert_eq!(got, want, "case {case}: {t:?} lg {lg}");
    }
}

/// BeatPack puts value i of a fold in lane i mod 16 of beat i / 16 whatever
/// the chunks, and marks the first and last beats.
#[test]
fn beat_pack_cuts_a_fold_into_golden_beats_whatever_the_chunks() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut p = BeatPack::default();
    p.connect_all();
    let mut beats_seen = 0;
    for fold in 0..30 {
        let n = rng.gen_range(1..90usize);
        let values: Vec<u32> = (0..n).map(|i| (fold << 16 | i) as u32 | 0x8000_0000).collect();
        let mut got: Vec<(Vec<u32>, u16, bool, bool)> = Vec::new();
        let mut at = 0;
        let collect = |p: &BeatPack, got: &mut Vec<(Vec<u32>, u16, bool, bool)>| {
            if p.valid_o.val() {
                let b = bytes512(p.beat_o.val());
                let lanes = b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
                got.push((lanes, p.mask_o.val().to_u64() as u16, p.first_o.val(), p.last_o.val()));
            }
        };
        while at < n {
            let k = rng.gen_range(1..=16usize).min(n - at);
            let mut chunk = vec![0u8; 64];
            for j in 0..16 {
                // Lanes past the chunk hold junk: they must not land.
                let v = if j < k { values[at + j] } else { 0xdead_0000 | j as u32 };
                chunk[4 * j..4 * j + 4].copy_from_slice(&v.to_le_bytes());
            }
            let (first, last) = (at == 0, at + k == n);
            clock(
                &mut p,
                |p| &mut p.clk_i,
                |p| {
                    p.valid_i.next = true;
                    p.lanes_i.next = bits512(&chunk);
                    p.count_i.next = (k as u64).into();
                    p.first_i.next = first;
                    p.last_i.next = last;
                },
            );
            collect(&p, &mut got);
            at += k;
        }
        // Idle clocks: a spilled last beat leaves in the first.
        for _ in 0..3 {
            clock(&mut p, |p| &mut p.clk_i, |p| p.valid_i.next = false);
            collect(&p, &mut got);
        }
        let want_beats = n.div_ceil(LANES);
        assert_eq!(got.len(), want_beats, "fold {fold} of {n} values");
        for (b, (lanes, mask, first, last)) in got.iter().enumerate() {
            let filled = (n - 16 * b).min(16);
            assert_eq!(*mask as u32, (1u32 << filled) - 1, "fold {fold} beat {b}: mask");
            for l in 0..16 {
                let want = if l < filled { values[16 * b + l] } else { 0 };
                assert_eq!(lanes[l], want, "fold {fold} beat {b} lane {l}");
            }
            assert_eq!((*first, *last), (b == 0, b + 1 == want_beats), "fold {fold} beat {b}");
        }
        beats_seen += got.len();
    }
    assert!(beats_seen > 60);
}

/// LaneConv picks its element (of its lane, or of its own row), and its
/// raw bits, binary32 and product come out at their latencies as golden's.
#[test]
fn lane_conv_picks_and_converts_as_golden() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let dtypes = [Dtype::Int8, Dtype::Uint16, Dtype::Bfloat16, Dtype::Fp32, Dtype::Int64, Dtype::Fp8Exp4];
    for lane in [0usize, 3, 7, 15] {
        let mut u = LaneConv::new(lane);
        u.connect_all();
        for round in 0..12 {
            let dtype = dtypes[round % dtypes.len()];
            let size = dtype.size();
            let own = round % 3 == 0;
            let byte = if own { rng.gen_range(0..64 / size) * size } else { 0 };
            if !own && 64 / size <= lane {
                continue;
            }
            let row: Vec<u8> = (0..64).map(|_| rng.gen()).collect();
            let at = if own { byte } else { lane * size };
            let mut elem = [0u8; 8];
            elem[..size].copy_from_slice(&row[at..at + size]);
            let bits = u64::from_le_bytes(elem);
            let scale = 0.75f32;
            let conv = dtype.to_f32(bits).to_bits();
            let product = fp::mul(f32::from_bits(conv), scale).to_bits();
            let mut outs = Vec::new();
            for clk in 0..=PRODUCT_LATENCY {
                clock(
                    &mut u,
                    |u| &mut u.clk_i,
                    |u| {
                        u.row_i.next = bits512(&row);
                        u.byte_i.next = (byte as u64).into();
                        u.own_i.next = own;
                        u.lg_i.next = (size.trailing_zeros() as u64).into();
                        u.dtype_i.next = (dtype.code() as u64).into();
                        u.scale_i.next = (scale.to_bits() as u64).into();
                    },
                );
                let lane_of =
                    |b: Bits<512>| u32::from_le_bytes(bytes512(b)[4 * lane..4 * lane + 4].try_into().unwrap());
                outs.push((clk, lane_of(u.raw_o.val()), lane_of(u.conv_o.val()), lane_of(u.product_o.val())));
            }
            let at_latency = |l: usize| outs[l - 1];
            assert_eq!(at_latency(RAW_LATENCY).1, bits as u32, "lane {lane} {dtype:?} raw");
            assert_eq!(at_latency(CONV_LATENCY).2, conv, "lane {lane} {dtype:?} binary32 of {bits:#x}");
            assert_eq!(at_latency(PRODUCT_LATENCY).3, product, "lane {lane} {dtype:?} × {scale}");
        }
    }
}

/// FoldAcc combines a fold's beats in order, as golden's left-to-right fold.
#[test]
fn fold_acc_and_max_num2_combine_as_golden() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let specials = [0u32, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x3f80_0000, 0xbf80_0000, 1];
    let mut f = FoldAcc::default();
    f.connect_all();
    let mut m = MaxNum2::default();
    m.connect_all();
    for fold in 0..60 {
        let kind = [FOLD_ADD, FOLD_MAX, FOLD_XOR][fold % 3];
        let n = rng.gen_range(1..6);
        let vals: Vec<u32> = (0..n)
            .map(|_| if rng.gen_bool(0.3) { specials[rng.gen_range(0..specials.len())] } else { rng.gen() })
            .collect();
        let want = vals[1..].iter().fold(vals[0], |acc, &v| match kind {
            FOLD_ADD => fp::add(f32::from_bits(acc), f32::from_bits(v)).to_bits(),
            FOLD_MAX => max_num(acc, v),
            _ => acc ^ v,
        });
        let mut got = None;
        for (i, &v) in vals.iter().enumerate() {
            clock(
                &mut f,
                |f| &mut f.clk_i,
                |f| {
                    f.valid_i.next = true;
                    f.value_i.next = (v as u64).into();
                    f.first_i.next = i == 0;
                    f.last_i.next = i + 1 == n;
                    f.kind_i.next = kind.into();
                },
            );
            if i + 1 < n {
                assert!(!f.valid_o.val(), "fold {fold}: a result before its last beat");
            }
        }
        // The result: after the edge that took the last beat, and only then.
        if f.valid_o.val() {
            got = Some(f.value_o.val().to_u64() as u32);
        }
        clock(&mut f, |f| &mut f.clk_i, |f| f.valid_i.next = false);
        assert!(!f.valid_o.val(), "fold {fold}: a result twice");
        assert_eq!(got, Some(want), "fold {fold} kind {kind} of {vals:08x?}");
        // MaxNum2 alone, on the first two.
        if n >= 2 {
            m.a_i.next = (vals[0] as u64).into();
            m.b_i.next = (vals[1] as u64).into();
            settle(&mut m);
            assert_eq!(m.max_o.val().to_u64() as u32, max_num(vals[0], vals[1]));
        }
    }
}

/// InstCheck gives the first failing rule (golden's) or 0, CHECK_LATENCY
/// clocks after the instruction.
#[test]
fn inst_check_names_golden_first_failing_rule() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut c = InstCheck::default();
    c.connect_all();
    let mut rules = std::collections::BTreeSet::new();
    for i in 0..120 {
        let tensor = |p: usize, o: usize, num: [u16; 4]| Tensor4d {
            start_addr: Tensor4d::immediate(p, o),
            step_elem: [1, 4, 0, -1],
            num_elem: num,
        };
        let mut raw = RawInstruction {
            opcode: 0x7c,
            header: [0; 3],
            events: [0; 8],
            src: tensor(2, 256, [4, 2, 1, 1]),
            in_dtype: Dtype::Fp32.code(),
            out_dtype: Dtype::Fp16.code(),
            num_active_channels: 4,
            reduce_op: ReduceOp::Add as u8,
            reduce_axis: 0,
            reserved0: [0; 3],
            scale: 1f32.to_bits(),
            dst: tensor(9, 0, [1; 4]),
        };
        // Spoil one or two fields at random.
        for _ in 0..rng.gen_range(0..3) {
            match rng.gen_range(0..12) {
                0 => raw.opcode = rng.gen(),
                1 => raw.reserved0[1] = rng.gen(),
                2 => raw.in_dtype = rng.gen_range(0..16),
                3 => raw.out_dtype = rng.gen_range(0..20),
                4 => raw.reduce_op = rng.gen_range(0..8),
                5 => raw.reduce_axis = rng.gen_range(0..3),
                6 => raw.num_active_channels = rng.gen_range(0..140),
                7 => raw.src.start_addr |= 1 << 28,
                8 => raw.dst.start_addr |= 1 << 29,
                9 => raw.src.num_elem[rng.gen_range(0..4)] = rng.gen_range(0..3000),
                10 => raw.dst.num_elem[0] = rng.gen_range(0..3),
                _ => raw.opcode = 0x7d,
            }
        }
        let pb = 4096usize;
        let want = raw.validate(pb).err().map_or(0, |e| e.code());
        let inst = bits512(&raw.encode());
        for _ in 0..=CHECK_LATENCY {
            clock(
                &mut c,
                |c| &mut c.clk_i,
                |c| {
                    c.inst_i.next = inst;
                    c.pb_i.next = (pb as u64).into();
                },
            );
        }
        let got = c.rule_o.val().to_u64() as u8;
        assert_eq!(got, want, "case {i}: {raw:?}: engine {got}, golden {want}");
        rules.insert(want);
    }
    assert!(rules.len() >= 8, "rules seen: {rules:?} of {}", RULE_NAMES.len());
}

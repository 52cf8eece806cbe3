//! Every component of hdl/: a synthesis test (rust-hdl's connection and
//! latch checks, then yosys reads and synthesizes its Verilog) and an
//! operation test (its behaviour in rust-hdl's simulation against what the
//! golden model and the op table say it must do). The whole unit of every
//! configuration is checked against golden in sim/tests/hdl_unit.rs.
//!
//! yosys is needed for the synthesis tests: outside CI a missing yosys
//! prints one SKIPPED line; with CI or CROSSLANE_REQUIRE_SIMULATORS set it
//! fails the test.

use crosslane_golden::{Family, Fold, Form, Op, Vec512};
use crosslane_hdl::compare::{AheadCompare, WindowCompare, WindowSum};
use crosslane_hdl::decode::{
    node_control_bit, Control, Controls, NodeControls, OpDecode, CONTROL_BITS, CONTROL_NAMES, NODE_CONTROL_NAMES,
    OP_CONTROL_BITS,
};
use crosslane_hdl::format::ResultFormat;
use crosslane_hdl::leaf::LeafKey;
use crosslane_hdl::node::{sum_width_b8, sum_width_h16, TreeNode};
use crosslane_hdl::pipe::Pipe;
use crosslane_hdl::{Config, CrosslaneReduce, LEVELS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

#[path = "../../testdata/tool_present.rs"]
mod tool;

fn have_yosys() -> bool {
    tool::tool_present(tool::on_path(&["yosys"], "yosys"))
}

/// rust-hdl's checks pass and yosys synthesizes the component's Verilog.
fn synthesizes<B: Block>(name: &str, mut uut: B, must_contain: &[&str]) {
    uut.connect_all();
    check_all(&uut).unwrap_or_else(|e| panic!("{name}: rust-hdl's checks: {e:?}"));
    let vlog = generate_verilog(&uut);
    for s in must_contain {
        assert!(vlog.contains(s), "{name}: the Verilog has no '{s}'");
    }
    if have_yosys() {
        yosys_validate(name, &vlog).unwrap_or_else(|e| panic!("{name}: yosys: {e:?}"));
    }
}

fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 50), "the component settles");
}

fn form_bits(form: Form) -> (bool, bool, bool) {
    (form == Form::B8, form.lane_bits() == 16, form.lane_bits() == 32)
}

fn sext(x: u64, bits: usize) -> i64 {
    ((x << (64 - bits)) as i64) >> (64 - bits)
}

// ---- op decode ----

#[test]
fn decode_synthesizes() {
    synthesizes("crosslane_op_decode", OpDecode::default(), &["case (op_i)", "// rbmax_nx16", "case (op_i[7:3])"]);
    synthesizes("crosslane_controls", Controls::default(), &["predicated_o = ctrl_i[16]"]);
    for level in 1..=LEVELS {
        synthesizes(
            &format!("crosslane_node_controls_l{level}"),
            NodeControls::new(level),
            &["xor_o = ctrl_i[xor_at]"],
        );
    }
}

#[test]
fn every_op_decodes_to_its_fold_and_form_and_other_codes_to_nothing() {
    let mut dec = OpDecode::default();
    let mut ctl = Controls::default();
    dec.connect_all();
    ctl.connect_all();
    let ops = Op::all();
    for code in 0..512u16 {
        dec.op_i.next = (code as u64).into();
        settle(&mut dec);
        let Some(op) = ops.iter().copied().find(|o| o.code() == code) else {
            assert_eq!(dec.ctrl_o.val().to_u64(), 0, "code {code:#05x} is no op: controls all zero");
            continue;
        };
        assert_eq!(dec.ctrl_o.val().to_u64(), Control::of(op).word(), "{}", op.name());
        let op_controls = (1u64 << OP_CONTROL_BITS) - 1;
        assert_eq!(dec.leaf_o.val().to_u64(), Control::of(op).word() & op_controls, "{}: leaf_o", op.name());
        ctl.ctrl_i.next = dec.leaf_o.val();
        settle(&mut ctl);
        let row = op.name();
        let fold = op.family.fold();
        let (b8, h16, w32) = form_bits(op.form);
        assert_eq!((ctl.b8_o.val(), ctl.h16_o.val(), ctl.w32_o.val()), (b8, h16, w32), "form {row}");
        assert_eq!(ctl.k_sum_o.val(), matches!(fold, Fold::Sum { .. }), "k_sum {row}");
        assert_eq!(ctl.k_max_o.val(), matches!(fold, Fold::Extremum { .. } | Fold::Num { .. }), "k_max {row}");
        assert_eq!(ctl.k_and_o.val(), fold == Fold::And, "k_and {row}");
        assert_eq!(ctl.k_or_o.val(), fold == Fold::Or, "k_or {row}");
        assert_eq!(ctl.k_xor_o.val(), fold == Fold::Xor, "k_xor {row}");
        assert_eq!(ctl.sext_o.val(), matches!(fold, Fold::Sum { signed: true, .. }), "sext {row}");
        assert_eq!(ctl.saturate_o.val(), op.family == Family::AddS, "saturate {row}");
        assert_eq!(ctl.extremum_o.val(), matches!(fold, Fold::Extremum { .. }), "extremum {row}");
        assert_eq!(ctl.sflip_o.val(), matches!(fold, Fold::Extremum { signed: true, .. }), "sflip {row}");
        assert_eq!(
            ctl.minimum_o.val(),
            matches!(fold, Fold::Extremum { max: false, .. } | Fold::Num { max: false }),
            "minimum {row}"
        );
        assert_eq!(ctl.num_o.val(), matches!(fold, Fold::Num { .. }), "num {row}");
        assert_eq!(ctl.has_mask_o.val(), op.family.has_mask(), "has_mask {row}");
        assert_eq!(ctl.vbool_fold_o.val(), op.family.is_vbool_fold(), "vbool_fold {row}");
        assert_eq!(ctl.predicated_o.val(), op.predicated, "predicated {row}");
        // Each level's node controls: one-hot; 16- and 32-bit lanes only placed
        // side by side at level 1, 32-bit lanes at level 2; else the fold's operator.
        for level in 1..=LEVELS {
            let mut node = NodeControls::new(level);
            node.connect_all();
            node.ctrl_i.next = dec.ctrl_o.val();
            settle(&mut node);
            let got = [
                node.pass_o.val(),
                node.sum_o.val(),
                node.max_o.val(),
                node.and_o.val(),
                node.or_o.val(),
                node.xor_o.val(),
            ];
            let pass = (level == 1 && !b8) || (level == 2 && w32);
            let want = [
                pass,
                !pass && matches!(fold, Fold::Sum { .. }),
                !pass && matches!(fold, Fold::Extremum { .. } | Fold::Num { .. }),
                !pass && fold == Fold::And,
                !pass && fold == Fold::Or,
                !pass && fold == Fold::Xor,
            ];
            assert_eq!(got, want, "level {level} node controls {NODE_CONTROL_NAMES:?} of {row}");
            assert_eq!(got.iter().filter(|&&b| b).count(), 1, "level {level} of {row}: one-hot");
        }
    }
    assert_eq!(node_control_bit(1, 0), CONTROL_NAMES.len(), "the node controls follow the op's");
    assert_eq!(CONTROL_BITS, node_control_bit(LEVELS, NODE_CONTROL_NAMES.len()));
}

// ---- leaf key ----

fn drive_leaf(leaf: &mut LeafKey, op: Op, win: u32, vb: u8) {
    let c = Control::of(op);
    leaf.win_i.next = (win as u64).into();
    leaf.vb_i.next = (vb as u64).into();
    leaf.b8_i.next = c.b8;
    leaf.w32_i.next = c.w32;
    leaf.k_and_i.next = c.k_and;
    leaf.sext_i.next = c.sext;
    leaf.sflip_i.next = c.sflip;
    leaf.minimum_i.next = c.minimum;
    leaf.num_i.next = c.num;
    leaf.vbool_fold_i.next = c.vbool_fold;
    leaf.predicated_i.next = c.predicated;
    settle(leaf);
}

#[test]
fn leaf_key_synthesizes() {
    synthesizes("crosslane_leaf_key", LeafKey::default(), &["key_o", "act_o"]);
}

/// The keys order the lanes as golden does: for any two active lanes of a
/// window, the lane golden picks over just those two has the larger key
/// (max-tree keys; two NaNs give the quiet NaN). Inactive lanes hold the
/// identity; sums and bitwise folds keep the lane; vbool folds hold the
/// lane's predicate bit.
#[test]
fn leaf_keys_order_lanes_as_golden_does() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut leaf = LeafKey::default();
    leaf.connect_all();
    let mut pairs = 0;
    for op in Op::all() {
        let bits = op.form.lane_bits();
        let lanes = (32 / bits) as usize;
        let mask = op.form.lane_mask() as u64;
        let stride = bits as usize / 8; // slots per lane
        let lane = |x: u32, l: usize| (x as u64 >> (l as u32 * bits)) & mask;
        for _ in 0..60 {
            let mut win = 0u32;
            for l in 0..lanes {
                let v: u64 = match rng.gen_range(0..7) {
                    0 => 0,
                    1 => mask,
                    2 => 1 << (bits - 1),
                    3 => mask >> 1,
                    4 if bits == 16 => 0x7c00 | rng.gen_range(0..2) << 15,
                    4 => 0x7f80_0000 | rng.gen_range(0..2) << 31,
                    _ => rng.gen::<u64>() & mask,
                };
                win |= (v as u32) << (l as u32 * bits);
            }
            let vb: u8 = rng.gen_range(0..16);
            drive_leaf(&mut leaf, op, win, vb);
            let key = leaf.key_o.val().to_u64() as u32;
            let act = leaf.act_o.val().to_u64();
            for l in 0..lanes {
                let slot = l * stride;
                let active = op.family.is_vbool_fold() || !op.predicated || vb >> slot & 1 == 1;
                assert_eq!(act >> slot & 1 == 1, active, "{} act slot {slot}", op.name());
                for s in (slot + 1)..(slot + stride) {
                    assert_eq!(act >> s & 1, 0, "{} slot {s} starts no lane", op.name());
                }
                if op.family.is_vbool_fold() {
                    assert_eq!(lane(key, l), (vb >> slot & 1) as u64, "{} lane {l}", op.name());
                } else if matches!(op.family.fold(), Fold::Sum { signed: true, .. }) {
                    // Biased: lane ^ sign bit; an inactive lane is a biased 0.
                    let value = if active { lane(win, l) } else { 0 };
                    assert_eq!(lane(key, l), value ^ (1 << (bits - 1)), "{} lane {l} biased", op.name());
                } else if !active {
                    let identity = if op.family.fold() == Fold::And { mask } else { 0 };
                    assert_eq!(lane(key, l), identity, "{} inactive lane {l}", op.name());
                } else if matches!(op.family.fold(), Fold::Sum { .. } | Fold::And | Fold::Or | Fold::Xor) {
                    assert_eq!(lane(key, l), lane(win, l), "{} lane {l} keeps its value", op.name());
                }
            }
            if !matches!(op.family.fold(), Fold::Extremum { .. } | Fold::Num { .. }) {
                continue;
            }
            let base = Op::new(op.family, op.form, true);
            for i in 0..lanes {
                for j in (i + 1)..lanes {
                    let (si, sj) = (i * stride, j * stride);
                    if !(act >> si & 1 == 1 && act >> sj & 1 == 1) {
                        continue;
                    }
                    let mut vec = Vec512::ZERO;
                    vec.0[..4].copy_from_slice(&win.to_le_bytes());
                    let winner = base.eval(&vec, (1u64 << si) | (1u64 << sj)).value as u64;
                    let (ki, kj) = (lane(key, i), lane(key, j));
                    let (vi, vj) = (lane(win, i), lane(win, j));
                    let best = ki.max(kj);
                    if best == 0 {
                        assert_eq!(winner, base.identity() as u64, "{} two NaNs", op.name());
                    } else {
                        let picked = if ki == best { vi } else { vj };
                        assert_eq!(picked, winner, "{} lanes {vi:#x} {vj:#x}: keys {ki:#x} {kj:#x}", op.name());
                    }
                    pairs += 1;
                }
            }
        }
    }
    assert!(pairs > 1000, "only {pairs} lane pairs compared");
}

// ---- tree node ----

#[test]
fn tree_nodes_synthesize() {
    for level in 1..=LEVELS {
        synthesizes(&format!("crosslane_tree_node_l{level}"), TreeNode::new(level), &["val_o", "mask_o"]);
    }
}

/// Each node at each level: sums (unsigned: signed sums come biased) widen by one bit,
/// max keeps the larger key and the tie mask keeps both children's bits on
/// a tie, and forms whose lanes are wider than the level's children place
/// the children side by side.
#[test]
fn tree_nodes_fold_as_specified_at_every_level() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for level in 1..=LEVELS {
        let mut node = TreeNode::new(level);
        node.connect_all();
        let slots = 1usize << (level - 1);
        for form in [Form::B8, Form::H16, Form::W32] {
            let pass = (level == 1 && form != Form::B8) || (level == 2 && form == Form::W32);
            let child_bits = if level <= 2 { 8usize << (level - 1) } else { 32 };
            for kind in 0..5 {
                let w = if pass {
                    child_bits
                } else if kind == 0 {
                    match form {
                        Form::B8 => sum_width_b8(level),
                        Form::H16 => sum_width_h16(level),
                        _ => 32,
                    }
                } else {
                    form.lane_bits() as usize
                };
                let lim = if w >= 32 { u32::MAX as u64 } else { (1u64 << w) - 1 };
                for _ in 0..200 {
                    let pick = |rng: &mut ChaCha8Rng| match rng.gen_range(0..4) {
                        0 => lim,
                        1 => 0,
                        _ => rng.gen::<u64>() & lim,
                    };
                    let a = pick(&mut rng);
                    let b = if rng.gen_bool(0.2) { a } else { pick(&mut rng) };
                    let ma: u64 = rng.gen::<u64>() & ((1u64 << slots) - 1);
                    let mb: u64 = rng.gen::<u64>() & ((1u64 << slots) - 1);
                    node.a_i.next = a.into();
                    node.b_i.next = b.into();
                    node.ma_i.next = ma.into();
                    node.mb_i.next = mb.into();
                    // The level's node controls, one-hot: pass, else the operator.
                    node.pass_i.next = pass;
                    node.sum_i.next = !pass && kind == 0;
                    node.max_i.next = !pass && kind == 1;
                    node.and_i.next = !pass && kind == 2;
                    node.or_i.next = !pass && kind == 3;
                    node.xor_i.next = !pass && kind == 4;
                    // Level 2's compare comes from the keys (WindowCompare): given
                    // here as the children's compare; other levels ignore it.
                    let live = if level == 2 { (1u64 << 17) - 1 } else { u64::MAX };
                    node.b_wins_i.next = level == 2 && (b & live) > (a & live);
                    node.a_wins_i.next = level == 2 && (a & live) > (b & live);
                    settle(&mut node);
                    let val = node.val_o.val().to_u64();
                    let mask = node.mask_o.val().to_u64();
                    let row = format!("level {level} {form:?} kind {kind} a {a:#x} b {b:#x}");
                    if pass {
                        assert_eq!(val, a | b << child_bits, "{row}: side by side");
                        assert_eq!(mask, ma | mb << slots, "{row}: both masks");
                        continue;
                    }
                    let want = match kind {
                        0 => (a + b) & 0xffff_ffff,
                        1 => a.max(b),
                        2 => a & b,
                        3 => a | b,
                        _ => a ^ b,
                    };
                    assert_eq!(val, want, "{row}");
                    if kind == 1 {
                        let keep_a = if a >= b { ma } else { 0 };
                        let keep_b = if b >= a { mb << slots } else { 0 };
                        assert_eq!(mask, keep_a | keep_b, "{row}: tie mask");
                    }
                }
            }
        }
    }
}

// ---- level 2's compare ----

#[test]
fn window_compare_synthesizes() {
    synthesizes("crosslane_window_compare", WindowCompare::default(), &["b_wins_o", "a_wins_o"]);
}

/// The larger of bytes 2, 3 against the larger of bytes 0, 1 (level 1 folded
/// byte pairs), else the high half against the low half: both outcomes, ties
/// neither, as level 2 would compare level 1's results.
#[test]
fn window_compare_is_level_2_compare_of_level_1_results() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut cmp = WindowCompare::default();
    cmp.connect_all();
    for i in 0..4000u32 {
        // Corner-heavy bytes: equal ones, 0 and 0xff.
        let pick = |rng: &mut ChaCha8Rng| -> u32 {
            match rng.gen_range(0..4) {
                0 => 0,
                1 => 0xff,
                2 => 0x80,
                _ => rng.gen::<u32>() & 0xff,
            }
        };
        let mut bytes = [pick(&mut rng), pick(&mut rng), pick(&mut rng), pick(&mut rng)];
        if rng.gen_bool(0.3) {
            bytes[rng.gen_range(0..4)] = bytes[rng.gen_range(0..4)];
        }
        let key = bytes.iter().enumerate().fold(0u32, |k, (j, &b)| k | b << (8 * j));
        let pairs = i % 2 == 0;
        cmp.key_i.next = (key as u64).into();
        cmp.pairs_i.next = pairs;
        settle(&mut cmp);
        let (a, b) = if pairs { (bytes[0].max(bytes[1]), bytes[2].max(bytes[3])) } else { (key & 0xffff, key >> 16) };
        let row = format!("key {key:#010x} pairs {pairs}");
        assert_eq!(cmp.b_wins_o.val(), b > a, "{row}: b wins");
        assert_eq!(cmp.a_wins_o.val(), a > b, "{row}: a wins");
    }
}

// ---- level 2's sum ----

#[test]
fn window_sum_synthesizes() {
    synthesizes("crosslane_window_sum", WindowSum::default(), &["sum_o"]);
}

/// (k0 + k1) + (k2 + k3) for 8-bit lanes, else the two halves added, as
/// levels 1 and 2 would add them; 0 when the op is no sum.
#[test]
fn window_sum_is_level_2_sum_of_level_1_results() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut sum = WindowSum::default();
    sum.connect_all();
    for i in 0..4000u32 {
        // Corner-heavy keys: all ones (the largest sums), 0, random.
        let key: u32 = match rng.gen_range(0..4) {
            0 => u32::MAX,
            1 => 0,
            2 => 0x8080_8080,
            _ => rng.gen(),
        };
        let (pairs, on) = (i % 2 == 0, i % 5 != 0);
        sum.key_i.next = (key as u64).into();
        sum.pairs_i.next = pairs;
        sum.sum_i.next = on;
        settle(&mut sum);
        let byte = |j: u32| u64::from(key >> (8 * j) & 0xff);
        let want = match (on, pairs) {
            (false, _) => 0,
            (true, true) => (byte(0) + byte(1)) + (byte(2) + byte(3)),
            (true, false) => u64::from(key & 0xffff) + u64::from(key >> 16),
        };
        assert_eq!(sum.sum_o.val().to_u64(), want, "key {key:#010x} pairs {pairs} sum {on}");
    }
}

/// A node given its compare (levels 4 to 6 compared ahead) selects and masks
/// by the compare given, not by its children: told that the smaller child
/// wins, it returns the smaller one.
#[test]
fn tree_nodes_given_their_compare_follow_it() {
    for level in 4..=LEVELS {
        let mut node = TreeNode::with_compare_given(level, true);
        node.connect_all();
        node.max_i.next = true;
        node.a_i.next = 7u64.into();
        node.b_i.next = 9u64.into();
        node.ma_i.next = 1u64.into();
        node.mb_i.next = 1u64.into();
        let slots = 1u64 << (level - 1);
        for (b_wins, a_wins, val, mask) in
            [(true, false, 9, 1 << slots), (false, true, 7, 1), (false, false, 7, 1 | 1 << slots)]
        {
            node.b_wins_i.next = b_wins;
            node.a_wins_i.next = a_wins;
            settle(&mut node);
            let row = format!("level {level} given b_wins {b_wins} a_wins {a_wins}");
            assert_eq!(node.val_o.val().to_u64(), val, "{row}");
            assert_eq!(node.mask_o.val().to_u64(), mask, "{row}");
        }
    }
}

// ---- a compare one level ahead ----

#[test]
fn ahead_compare_synthesizes() {
    synthesizes("crosslane_ahead_compare", AheadCompare::new(true), &["b_wins_o", "a_wins_o", "used"]);
}

/// From the four grandchildren, both outcomes of the compare the node would
/// make of its children, the larger of each pair (ties neither): what a
/// level below that kept the larger key would hand it. Unused, both 0.
#[test]
fn ahead_compare_is_the_compare_of_the_larger_of_each_pair() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut used = AheadCompare::new(true);
    let mut unused = AheadCompare::new(false);
    used.connect_all();
    unused.connect_all();
    let (mut b_won, mut a_won, mut tied) = (0, 0, 0);
    for _ in 0..4000 {
        // Corner-heavy keys, often equal across or within the pairs.
        let pick = |rng: &mut ChaCha8Rng| -> u64 {
            match rng.gen_range(0..5) {
                0 => 0,
                1 => 0xffff_ffff,
                2 => 0x8000_0000,
                3 => rng.gen_range(0..4),
                _ => rng.gen::<u32>() as u64,
            }
        };
        let mut g = [pick(&mut rng), pick(&mut rng), pick(&mut rng), pick(&mut rng)];
        if rng.gen_bool(0.4) {
            g[rng.gen_range(0..4)] = g[rng.gen_range(0..4)];
        }
        for uut in [&mut used, &mut unused] {
            uut.l0_i.next = g[0].into();
            uut.l1_i.next = g[1].into();
            uut.r0_i.next = g[2].into();
            uut.r1_i.next = g[3].into();
            settle(uut);
        }
        let (a, b) = (g[0].max(g[1]), g[2].max(g[3]));
        let row = format!("grandchildren {g:#x?}");
        assert_eq!(used.b_wins_o.val(), b > a, "{row}: b wins");
        assert_eq!(used.a_wins_o.val(), a > b, "{row}: a wins");
        assert!(!unused.b_wins_o.val() && !unused.a_wins_o.val(), "{row}: unused");
        match a.cmp(&b) {
            std::cmp::Ordering::Less => b_won += 1,
            std::cmp::Ordering::Greater => a_won += 1,
            std::cmp::Ordering::Equal => tied += 1,
        }
    }
    // Every outcome was checked, ties included.
    assert!(b_won > 500 && a_won > 500 && tied > 100, "{b_won} {a_won} {tied}");
}

// ---- result format ----

#[test]
fn result_format_synthesizes() {
    synthesizes("crosslane_result_format", ResultFormat::default(), &["result_o", "mask_o"]);
}

/// The root of each op's tree to the port values golden gives: sums widened
/// or saturated from the root's width, keys back to lanes, no number to the
/// quiet NaN, the tie mask one bit per lane and only for rb* ops.
#[test]
fn result_format_gives_what_golden_gives() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut f = ResultFormat::default();
    f.connect_all();
    let above_root = LEVELS + 1;
    for op in Op::all() {
        let c = Control::of(op);
        let bits = op.form.lane_bits();
        let lane = op.form.lane_mask() as u64;
        let sign = 1u64 << (bits - 1);
        for _ in 0..100 {
            let x = rng.gen::<u64>() & lane;
            // (root, expected result)
            let (root, want): (u64, u64) = match op.family.fold() {
                Fold::Sum { signed, saturate } => {
                    let w = match op.form {
                        Form::B8 => sum_width_b8(above_root),
                        Form::H16 => sum_width_h16(above_root),
                        _ => 32,
                    };
                    // A signed sum's root is biased: the sum plus 2^(w-1) (w < 32).
                    let root = rng.gen::<u64>() & ((1u64 << w) - 1);
                    let s = if signed && w < 32 {
                        sext(root ^ (1 << (w - 1)), w)
                    } else if signed {
                        sext(root, w)
                    } else {
                        root as i64
                    };
                    let res_mask = (1u64 << op.result_bits()) - 1;
                    let want = if saturate { s.clamp(-32768, 32767) as u64 & 0xffff } else { s as u64 & res_mask };
                    (root, want)
                }
                Fold::Extremum { signed, max } => {
                    let key = x ^ if signed { sign } else { 0 } ^ if max { 0 } else { lane };
                    (key, x)
                }
                Fold::Num { max } => {
                    let exp = if bits == 16 { 0x7c00 } else { 0x7f80_0000 };
                    let nan = x & exp == exp && x & (lane >> 1) & !exp != 0;
                    if nan || rng.gen_bool(0.1) {
                        (0, op.identity() as u64)
                    } else {
                        // A number's key: sign bit set if positive, inverted if negative.
                        let key = if x & sign == 0 { x | sign } else { !x & lane };
                        (key ^ if max { 0 } else { lane }, x)
                    }
                }
                _ if op.family.is_vbool_fold() => {
                    let r = rng.gen::<u64>() & 1;
                    (r, r)
                }
                _ => (x, x),
            };
            let tie: u64 = rng.gen();
            f.root_i.next = root.into();
            // The unit gives `none_i` from level 6's children, both 0 exactly when the root is.
            f.none_i.next = root == 0;
            f.mask_i.next = tie.into();
            f.b8_i.next = c.b8;
            f.h16_i.next = c.h16;
            f.w32_i.next = c.w32;
            f.k_sum_i.next = c.k_sum;
            f.sext_i.next = c.sext;
            f.saturate_i.next = c.saturate;
            f.extremum_i.next = c.extremum;
            f.sflip_i.next = c.sflip;
            f.minimum_i.next = c.minimum;
            f.num_i.next = c.num;
            f.has_mask_i.next = c.has_mask;
            f.vbool_fold_i.next = c.vbool_fold;
            settle(&mut f);
            assert_eq!(f.result_o.val().to_u64(), want, "{} root {root:#x}", op.name());
            let stride = (bits / 8) as usize;
            let want_mask = if op.family.has_mask() {
                (0..op.lanes()).filter(|l| tie >> (l * stride) & 1 == 1).fold(0u64, |m, l| m | 1 << l)
            } else {
                0
            };
            assert_eq!(f.mask_o.val().to_u64(), want_mask, "{} mask", op.name());
        }
    }
}

// ---- pipeline boundary ----

#[test]
fn pipes_synthesize() {
    synthesizes("crosslane_pipe_reg", Pipe::<Bits<32>>::new(true), &["always @(posedge clock) q <= d;"]);
    synthesizes("crosslane_pipe_wire", Pipe::<Bits<32>>::new(false), &["always @(*) q = d;"]);
}

#[test]
fn a_registered_pipe_follows_at_the_edge_and_a_wire_at_once() {
    for registered in [true, false] {
        let mut p = Pipe::<Bits<8>>::new(registered);
        p.connect_all();
        p.d.next = 0x5au64.into();
        p.clock.next = Clock { clk: false };
        settle(&mut p);
        assert_eq!(p.q.val().to_u64(), if registered { 0 } else { 0x5a }, "registered {registered}");
        p.clock.next = Clock { clk: true };
        settle(&mut p);
        assert_eq!(p.q.val().to_u64(), 0x5a, "registered {registered}: after the rising edge");
    }
}

// ---- the top ----

#[test]
fn every_configuration_synthesizes() {
    for config in Config::ALL {
        synthesizes(
            &config.module(),
            CrosslaneReduce::new(config),
            &["clk_i", "rst_ni", "in_valid_i", "op_i", "vec_i", "vbool_i", "out_valid_o", "result_o", "mask_o"],
        );
    }
}

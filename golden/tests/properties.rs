//! Properties every op keeps, over arbitrary vectors and vbools.

use crosslane_golden::{Op, Vec512};
use proptest::prelude::*;

fn value_ops() -> Vec<Op> {
    Op::all().into_iter().filter(|o| !o.family.is_vbool_fold()).collect()
}

fn arb_vec() -> impl Strategy<Value = Vec512> {
    // Bytes from a small pool so ties and corners are common.
    prop::collection::vec(
        prop_oneof![Just(0u8), Just(0x80), Just(0x7f), Just(0xff), Just(0x7c), Just(0x01), any::<u8>()],
        64,
    )
    .prop_map(|b| Vec512(b.try_into().unwrap()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Permuting lanes permutes rb* masks and leaves every value unchanged.
    #[test]
    fn permuting_lanes_permutes_masks(vec in arb_vec(), rot in 0usize..64, op_i in 0usize..88) {
        let op = value_ops()[op_i];
        let bits = op.form.lane_bits();
        let n = op.lanes();
        let r = rot % n;
        // Lane l moves to lane (l + r) mod n; reversal as a second permutation.
        let mut rotated = Vec512::ZERO;
        let mut reversed = Vec512::ZERO;
        for l in 0..n {
            rotated.set_lane(bits, (l + r) % n, vec.lane(bits, l));
            reversed.set_lane(bits, n - 1 - l, vec.lane(bits, l));
        }
        let base = op.eval(&vec, u64::MAX);
        let rot_out = op.eval(&rotated, u64::MAX);
        let rev_out = op.eval(&reversed, u64::MAX);
        prop_assert_eq!(base.value, rot_out.value);
        prop_assert_eq!(base.value, rev_out.value);
        if let Some(m) = base.mask {
            let mut want_rot = 0u64;
            let mut want_rev = 0u64;
            for l in 0..n {
                if (m >> l) & 1 == 1 {
                    want_rot |= 1 << ((l + r) % n);
                    want_rev |= 1 << (n - 1 - l);
                }
            }
            prop_assert_eq!(rot_out.mask, Some(want_rot));
            prop_assert_eq!(rev_out.mask, Some(want_rev));
        }
    }

    /// A `_t` op with a full predicate equals its base op.
    #[test]
    fn full_predicate_equals_base(vec in arb_vec(), junk in any::<u64>(), op_i in 0usize..88) {
        let op = value_ops()[op_i];
        let base = Op::new(op.family, op.form, false);
        let t = Op::new(op.family, op.form, true);
        // Only the low bit of each group counts: the other bits are junk.
        let vbool = op.form.full_vbool() | junk;
        prop_assert_eq!(t.eval(&vec, vbool), base.eval(&vec, u64::MAX));
    }

    /// Masked lanes can be overwritten with anything without changing the result.
    #[test]
    fn masked_lanes_do_not_matter(vec in arb_vec(), other in arb_vec(), vbool in any::<u64>(), op_i in 0usize..88) {
        let op = value_ops()[op_i];
        let t = Op::new(op.family, op.form, true);
        let bits = op.form.lane_bits();
        let active = t.active_lanes(vbool);
        let mut mixed = vec;
        for l in 0..op.lanes() {
            if (active >> l) & 1 == 0 {
                mixed.set_lane(bits, l, other.lane(bits, l));
            }
        }
        prop_assert_eq!(t.eval(&vec, vbool), t.eval(&mixed, vbool));
    }

    /// No input makes any op panic, and results fit their width.
    #[test]
    fn results_fit_their_width(vec in any::<[u8; 64]>(), vbool in any::<u64>()) {
        for op in Op::all() {
            let out = op.eval(&Vec512(vec), vbool);
            prop_assert!(op.result_bits() == 32 || out.value >> op.result_bits() == 0);
            if let Some(m) = out.mask {
                prop_assert!(op.lanes() == 64 || m >> op.lanes() == 0);
            }
        }
    }
}

//! Every observed vector of ops.md §3 as a named row. A failure prints the
//! whole row: op, lanes, vbool, expected and got.

use crosslane_golden::{campaign, Op, Vec512};
use rstest::rstest;

/// Lanes from lane 0; the last value repeats up to the lane count.
fn fill(op: Op, lanes: &[i64]) -> Vec512 {
    let bits = op.form.lane_bits();
    let mut v = Vec512::ZERO;
    for l in 0..op.lanes() {
        let x = lanes.get(l).or(lanes.last()).copied().unwrap_or(0);
        v.set_lane(bits, l, x as u32);
    }
    v
}

#[rstest]
#[case::radd_nx16_ones("radd_nx16", &[1], "00000020")]
#[case::radd_nx16_int16_max("radd_nx16", &[32767], "000fffe0")]
#[case::radd_nx16_int16_min("radd_nx16", &[-32768], "fff00000")]
#[case::radd_nx16_mixed("radd_nx16", &[100, -50, 0], "00000032")]
#[case::raddu_nx16_all_ones("raddu_nx16", &[0xffff], "001fffe0")]
#[case::radd_2nx8_int8_max("radd_2nx8", &[127], "1fc0")]
#[case::radd_n_2x32_wraps("radd_n_2x32", &[0x1000_0000], "00000000")]
#[case::radds_nx16_saturates_high("radds_nx16", &[32767], "7fff")]
#[case::radds_nx16_saturates_low("radds_nx16", &[-32768], "8000")]
#[case::radds_nx16_in_range("radds_nx16", &[100, -50, 0], "0032")]
#[case::rmax_nx16_signed("rmax_nx16", &[-1, 1, -1000], "0001")]
#[case::rmaxu_nx16_unsigned("rmaxu_nx16", &[-1, 1, -1000], "ffff")]
#[case::rmin_nx16_signed("rmin_nx16", &[-1, 1, -1000], "fc18")]
#[case::rmax_nx16_int16_min("rmax_nx16", &[0x8000, 1, 0], "0001")]
#[case::rmaxu_nx16_int16_min("rmaxu_nx16", &[0x8000, 1, 0], "8000")]
fn observed_value(#[case] name: &str, #[case] lanes: &[i64], #[case] expected: &str) {
    let op = Op::from_name(name).expect("op in table");
    let vec = fill(op, lanes);
    let got = op.eval(&vec, u64::MAX);
    assert_eq!(
        got.result_hex(op),
        expected,
        "row: op {name}, lanes {lanes:?}, vec {vec}, expected {expected}, got {got:?}"
    );
    assert_eq!(got.mask, None, "row: {name} {lanes:?} has no mask");
}

#[rstest]
#[case::all_ones(0xffff_ffff_ffff_ffff, "1", "1")]
#[case::low_bits(0x5555_5555_5555_5555, "1", "1")]
#[case::high_bits_ignored(0xaaaa_aaaa_aaaa_aaaa, "0", "0")]
#[case::zero(0, "0", "0")]
#[case::lane0_both_bits(3, "0", "1")]
#[case::lane0_low_bit(1, "0", "1")]
fn observed_vbool_fold(#[case] vbool: u64, #[case] and: &str, #[case] or: &str) {
    for (name, expected) in [("randbn", and), ("rorbn", or)] {
        let op = Op::from_name(name).unwrap();
        let got = op.eval(&Vec512::ZERO, vbool);
        assert_eq!(
            got.result_hex(op),
            expected,
            "row: op {name}, vbool {vbool:016x}, expected {expected}, got {got:?}"
        );
    }
}

#[test]
fn observed_rbmax_tie_mask() {
    let op = Op::from_name("rbmax_nx16").unwrap();
    let mut lanes = [0i64; 32];
    lanes[3] = 5;
    lanes[9] = 5;
    let got = op.eval(&fill(op, &lanes), u64::MAX);
    assert_eq!(got.result_hex(op), "0005", "row: rbmax_nx16 5 at lanes 3 and 9: {got:?}");
    assert_eq!(got.mask_hex(op).as_deref(), Some("00000208"), "row: rbmax_nx16 mask: {got:?}");
}

/// The shared table of observed vectors (used by `verify` and the generated
/// testbenches) agrees with the model.
#[test]
fn observed_table_matches_model() {
    let rows = campaign::observed();
    assert_eq!(rows.len(), 28);
    for row in rows {
        let got = row.case.eval();
        assert_eq!((got.value, got.mask), (row.value, row.mask), "row: {row:?}");
    }
}

/// Details of ops.md §2 and the predicated examples of eval-cases.jsonl.
#[rstest]
#[case::rmax_t_empty_is_identity("rmax_nx16_t", &[7, 9, 3], 0, "8000", None)]
#[case::radd_t_two_lanes("radd_nx16_t", &[7, 9, 3], 0x5, "00000010", None)]
#[case::rminu_t_empty("rminu_2nx8_t", &[1], 0, "ff", None)]
#[case::rmin_t_empty("rmin_n_2x32_t", &[1], 0, "7fffffff", None)]
#[case::rmaxnum_t_empty("rmaxnum_nxf16_t", &[0x3c00], 0, "7e00", None)]
#[case::rminnum_t_empty("rminnum_n_2xf32_t", &[0x3f80_0000], 0, "7fc00000", None)]
#[case::rbmax_t_empty("rbmax_2nx8_t", &[1], 0, "80", Some("0000000000000000"))]
#[case::rbmin_t_masks_active_only("rbmin_nx16_t", &[5], 0x5, "0005", Some("00000003"))]
#[case::rbmaxu_ties_everywhere("rbmaxu_n_2x32", &[-1], u64::MAX, "ffffffff", Some("ffff"))]
#[case::rmaxnum_minus_zero_below_plus_zero("rmaxnum_nxf16", &[0x8000, 0x0000, 0x7e00], u64::MAX, "0000", None)]
#[case::rminnum_minus_zero_below_plus_zero("rminnum_nxf16", &[0x0000, 0x8000, 0x7e00], u64::MAX, "8000", None)]
#[case::rminnum_all_nan_is_canonical("rminnum_n_2xf32", &[0xffc0_0001], u64::MAX, "7fc00000", None)]
#[case::rmaxnum_snan_never_wins("rmaxnum_n_2xf32", &[0x7f80_0001, 0xff80_0000], u64::MAX, "ff800000", None)]
#[case::rxor_even_count_cancels("rxor_2nx8", &[0x5a], u64::MAX, "00", None)]
#[case::rand_2nx8("rand_2nx8", &[0xf3, 0x3f], u64::MAX, "33", None)]
fn spec_details(
    #[case] name: &str,
    #[case] lanes: &[i64],
    #[case] vbool: u64,
    #[case] expected: &str,
    #[case] mask: Option<&str>,
) {
    let op = Op::from_name(name).unwrap();
    let vec = fill(op, lanes);
    let got = op.eval(&vec, vbool);
    let row = format!("row: op {name}, lanes {lanes:?}, vbool {vbool:016x}, expected {expected} {mask:?}, got {got:?}");
    assert_eq!(got.result_hex(op), expected, "{row}");
    assert_eq!(got.mask_hex(op).as_deref(), mask, "{row}");
}

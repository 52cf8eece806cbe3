//! Exhaustive where small: every int8 pair, every fp16 pattern.

use crosslane_golden::{Family, Form, Op, Vec512};

/// Every pair of int8 values in lanes (i, j), the rest at the identity,
/// against the two-lane answer computed directly.
#[test]
fn every_int8_pair_in_two_lanes() {
    let ops: Vec<Op> =
        Op::all().into_iter().filter(|o| o.form == Form::B8 && !o.predicated && !o.family.is_vbool_fold()).collect();
    assert_eq!(ops.len(), 13);
    let mut checked = 0u64;
    for op in &ops {
        let id = op.identity();
        let mut vec = Vec512([id as u8; 64]);
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                vec.0[5] = a as u8;
                vec.0[60] = b as u8;
                let (sa, sb) = (a as u8 as i8 as i32, b as u8 as i8 as i32);
                use Family::*;
                let (value, mask) = match op.family {
                    Add => (((sa + sb) as u32) & 0xffff, None),
                    AddU => (a + b, None),
                    Max => ((sa.max(sb) as u32) & 0xff, None),
                    Min => ((sa.min(sb) as u32) & 0xff, None),
                    MaxU => (a.max(b), None),
                    MinU => (a.min(b), None),
                    And => (a & b, None),
                    Or => (a | b, None),
                    Xor => (a ^ b, None),
                    BMax | BMin | BMaxU | BMinU => {
                        let v = match op.family {
                            BMax => (sa.max(sb) as u32) & 0xff,
                            BMin => (sa.min(sb) as u32) & 0xff,
                            BMaxU => a.max(b),
                            _ => a.min(b),
                        };
                        // Identity lanes tie too when the winner equals the identity.
                        let mut m = 0u64;
                        for l in 0..64 {
                            if vec.0[l] as u32 == v {
                                m |= 1 << l;
                            }
                        }
                        (v, Some(m))
                    }
                    _ => unreachable!("{:?}", op.family),
                };
                let got = op.eval(&vec, u64::MAX);
                assert_eq!((got.value, got.mask), (value, mask), "{} a={a:#x} b={b:#x}", op.name());
                // And the predicated sibling with only those two lanes active.
                let t = Op::new(op.family, op.form, true);
                let got_t = t.eval(&vec, (1 << 5) | (1 << 60));
                let mask_t = mask.map(|m| m & ((1 << 5) | (1 << 60)));
                assert_eq!((got_t.value, got_t.mask), (value, mask_t), "{} a={a:#x} b={b:#x}", t.name());
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 13 * 65536);
}

fn f16_is_nan(x: u16) -> bool {
    (x & 0x7fff) > 0x7c00
}

/// Order of two non-NaN fp16 values, −0 below +0.
fn f16_less(a: u16, b: u16) -> bool {
    let key = |x: u16| -> i32 {
        let mag = (x & 0x7fff) as i32;
        if x & 0x8000 != 0 {
            -mag - 1
        } else {
            mag
        }
    };
    key(a) < key(b)
}

/// Every fp16 bit pattern against ±0, ±inf, qNaN, sNaN and 1.0.
#[test]
fn every_fp16_pattern_against_the_partners() {
    let partners: [u16; 8] = [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x3c00];
    let max = Op::from_name("rmaxnum_nxf16").unwrap();
    let min = Op::from_name("rminnum_nxf16").unwrap();
    let max_t = Op::from_name("rmaxnum_nxf16_t").unwrap();
    for p in partners {
        for x in 0..=0xffffu16 {
            // Lanes: x in lane 7, the partner in lane 20, every other lane inactive.
            let mut vec = Vec512::ZERO;
            for l in 0..32 {
                vec.set_lane(16, l, 0x7e00);
            }
            vec.set_lane(16, 7, x as u32);
            vec.set_lane(16, 20, p as u32);
            let (want_max, want_min) = match (f16_is_nan(x), f16_is_nan(p)) {
                (true, true) => (0x7e00, 0x7e00),
                (true, false) => (p, p),
                (false, true) => (x, x),
                (false, false) => {
                    if f16_less(x, p) {
                        (p, x)
                    } else {
                        (x, p)
                    }
                }
            };
            let row = format!("x={x:#06x} partner={p:#06x}");
            assert_eq!(max.eval(&vec, u64::MAX).value, want_max as u32, "rmaxnum {row}");
            assert_eq!(min.eval(&vec, u64::MAX).value, want_min as u32, "rminnum {row}");
            // Same answer when the other lanes hold junk but are masked off.
            let mut junk = vec;
            for l in (0..32).filter(|&l| l != 7 && l != 20) {
                junk.set_lane(16, l, 0x7bff);
            }
            let vb = (1u64 << 14) | (1u64 << 40);
            assert_eq!(max_t.eval(&junk, vb).value, want_max as u32, "rmaxnum_t {row}");
        }
    }
}

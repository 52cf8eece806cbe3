//! The vendored rust-hdl-core's patched operations (vendor/rust-hdl-core/
//! CROSSLANE.md) against plain integer arithmetic: shifts of short values
//! by every amount, and short fields of long values at every offset.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

fn shifts<const N: usize>(rng: &mut ChaCha8Rng) {
    let mask = (1u64 << N) - 1;
    for _ in 0..64 {
        let x = rng.gen::<u64>() & mask;
        let b: Bits<N> = x.into();
        for s in 0..80u64 {
            let right = if s >= 64 { 0 } else { (x >> s) & mask };
            let left = if s >= 64 { 0 } else { (x << s) & mask };
            assert_eq!((b >> s).to_u64(), right, "Bits<{N}> {x:#x} >> {s}");
            assert_eq!((b << s).to_u64(), left, "Bits<{N}> {x:#x} << {s}");
            // By a Bits amount too.
            let by: Bits<8> = (s % 256).into();
            assert_eq!((b >> by).to_u64(), right, "Bits<{N}> {x:#x} >> Bits {s}");
        }
    }
}

#[test]
fn short_shifts_are_integer_shifts() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    shifts::<1>(&mut rng);
    shifts::<4>(&mut rng);
    shifts::<8>(&mut rng);
    shifts::<17>(&mut rng);
    shifts::<31>(&mut rng);
    shifts::<32>(&mut rng);
}

fn fields<const N: usize, const M: usize>(rng: &mut ChaCha8Rng) {
    for _ in 0..16 {
        let words: Vec<u64> = (0..N.div_ceil(64)).map(|_| rng.gen()).collect();
        let mut big = num_bigint::BigUint::from_slice(
            &words.iter().flat_map(|w| [*w as u32, (*w >> 32) as u32]).collect::<Vec<u32>>(),
        );
        big &= (num_bigint::BigUint::from(1u8) << N) - 1u8;
        let b: Bits<N> = big.clone().into();
        for index in 0..=N {
            let want = (&big >> index) & ((num_bigint::BigUint::from(1u8) << M) - 1u8);
            let got: num_bigint::BigUint = b.get_bits::<M>(index).into();
            assert_eq!(got, want, "Bits<{N}>::get_bits::<{M}>({index})");
        }
    }
}

#[test]
fn short_fields_of_long_values_are_the_bits_at_their_offset() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    fields::<512, 32>(&mut rng);
    fields::<512, 4>(&mut rng);
    fields::<64, 32>(&mut rng);
    fields::<64, 1>(&mut rng);
    fields::<53, 17>(&mut rng);
    // Wider fields take upstream's path.
    fields::<512, 64>(&mut rng);
}

#[test]
fn every_patch_is_marked_and_documented() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../vendor/rust-hdl-core");
    let marks = |f: &str| std::fs::read_to_string(root.join(f)).unwrap().matches("// crosslane:").count();
    // lib.rs: the warnings; bits.rs: get_bits; short_bit_vec.rs: Shr, Shl.
    assert_eq!((marks("src/lib.rs"), marks("src/bits.rs"), marks("src/short_bit_vec.rs")), (1, 1, 2));
    let mut total = 0;
    for e in std::fs::read_dir(root.join("src")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            total += std::fs::read_to_string(&p).unwrap().matches("// crosslane:").count();
        }
    }
    assert_eq!(total, 4, "a `// crosslane:` change outside those CROSSLANE.md lists");
    let doc = std::fs::read_to_string(root.join("CROSSLANE.md")).unwrap();
    assert!(doc.contains("Three changes"), "CROSSLANE.md lists the changes");
}

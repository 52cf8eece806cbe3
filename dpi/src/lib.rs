//! The golden model behind a C ABI: `include/crosslane.h` for C and C++,
//! `sv/crosslane_dpi_pkg.sv` for SystemVerilog's `import "DPI-C"`.
//!
//! The vector crosses as sixteen 32-bit words, word 0 holding bits 31:0:
//! that is how a simulator passes an `input bit [511:0]` (`svBitVecVal*`),
//! and the natural layout for C. Every function checks its arguments and
//! returns an error code; none panics across the boundary.

use crosslane_golden::{Op, Vec512};
use std::ffi::{c_char, c_int, CString};
use std::sync::OnceLock;

/// Returned by [`crosslane_eval`] on success.
pub const CROSSLANE_OK: c_int = 0;
/// The op code names none of the 94 primitives.
pub const CROSSLANE_EUNKNOWN_OP: c_int = -1;
/// A pointer argument is null.
pub const CROSSLANE_ENULL: c_int = -2;

struct Table {
    /// The op of each 9-bit code.
    by_code: Vec<Option<Op>>,
    /// The 94 ops in table order.
    ops: Vec<Op>,
    /// Each code's name, NUL-terminated (empty for codes that name no op).
    names: Vec<CString>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let ops = Op::all();
        let mut by_code = vec![None; 1 << crosslane_golden::OP_SELECT_BITS];
        for &op in &ops {
            by_code[usize::from(op.code())] = Some(op);
        }
        let names = by_code
            .iter()
            .map(|op| CString::new(op.map(|o| o.name()).unwrap_or_default()).unwrap_or_default())
            .collect();
        Table { by_code, ops, names }
    })
}

fn op_of(code: c_int) -> Option<Op> {
    usize::try_from(code).ok().and_then(|c| table().by_code.get(c).copied().flatten())
}

/// The number of primitives (94).
#[no_mangle]
pub extern "C" fn crosslane_op_count() -> c_int {
    table().ops.len() as c_int
}

/// The op-select code of primitive `index` (0 ≤ index < count), in the
/// op table's order; -1 out of range.
#[no_mangle]
pub extern "C" fn crosslane_op_at(index: c_int) -> c_int {
    usize::try_from(index).ok().and_then(|i| table().ops.get(i)).map_or(-1, |op| c_int::from(op.code()))
}

/// The name of op code `code` (static, NUL-terminated), or "" when the code
/// names no primitive.
#[no_mangle]
pub extern "C" fn crosslane_op_name(code: c_int) -> *const c_char {
    static EMPTY: &[u8] = b"\0";
    usize::try_from(code).ok().and_then(|c| table().names.get(c)).map_or(EMPTY.as_ptr().cast(), |n| n.as_ptr())
}

/// The op code of `name` (e.g. "rbmax_nx16_t"), or -1.
///
/// # Safety
/// `name` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn crosslane_op_code(name: *const c_char) -> c_int {
    if name.is_null() {
        return -1;
    }
    // SAFETY: the caller passes a NUL-terminated string.
    let name = unsafe { std::ffi::CStr::from_ptr(name) };
    name.to_str().ok().and_then(Op::from_name).map_or(-1, |op| c_int::from(op.code()))
}

/// Width of op `code`'s result in bits (its low bits of `result`), or -1.
#[no_mangle]
pub extern "C" fn crosslane_result_bits(code: c_int) -> c_int {
    op_of(code).map_or(-1, |op| op.result_bits() as c_int)
}

/// The unit's register stages: an input sampled at rising edge k is on
/// `crosslane_reduce`'s outputs after edge k + latency − 1.
#[no_mangle]
pub extern "C" fn crosslane_latency() -> c_int {
    crosslane_golden::LATENCY as c_int
}

/// The register stages of the configuration whose module is `module`
/// (`crosslane_reduce`, `crosslane_reduce_every2`, `crosslane_reduce_every3`,
/// or `every1` … `every3`), as [`crosslane_latency`] gives the default's;
/// -1 for a null pointer or a name that is no configuration.
///
/// # Safety
/// `module` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn crosslane_module_latency(module: *const c_char) -> c_int {
    if module.is_null() {
        return -1;
    }
    // SAFETY: the caller passes a NUL-terminated string.
    let module = unsafe { std::ffi::CStr::from_ptr(module) };
    module.to_str().ok().and_then(crosslane_golden::Config::from_name).map_or(-1, |c| c.latency() as c_int)
}

/// Evaluate op `code` on `vec` (16 words, word 0 = bits 31:0) and `vbool`
/// as the unit's ports carry them: `*result` gets the result in its low
/// result-bits and 0 above, `*mask` the rb* lane mask (0 for other ops).
/// Returns [`CROSSLANE_OK`], [`CROSSLANE_EUNKNOWN_OP`] (outputs left alone)
/// or [`CROSSLANE_ENULL`].
///
/// # Safety
/// `vec` points to 16 readable `u32`; `result` and `mask` to writable ones.
#[no_mangle]
pub unsafe extern "C" fn crosslane_eval(
    code: c_int,
    vec: *const u32,
    vbool: u64,
    result: *mut u32,
    mask: *mut u64,
) -> c_int {
    if vec.is_null() || result.is_null() || mask.is_null() {
        return CROSSLANE_ENULL;
    }
    let Some(op) = op_of(code) else { return CROSSLANE_EUNKNOWN_OP };
    // SAFETY: the caller passes 16 readable words.
    let words = unsafe { std::slice::from_raw_parts(vec, 16) };
    let mut bytes = [0u8; 64];
    for (chunk, w) in bytes.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    let out = op.eval(&Vec512(bytes), vbool);
    // SAFETY: the caller passes writable outputs.
    unsafe {
        *result = out.value;
        *mask = out.mask.unwrap_or(0);
    }
    CROSSLANE_OK
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn eval(code: c_int, vec: &[u32; 16], vbool: u64) -> (c_int, u32, u64) {
        let (mut r, mut m) = (0xdead_beef, 0xdead_beef);
        // SAFETY: valid pointers.
        let rc = unsafe { crosslane_eval(code, vec.as_ptr(), vbool, &mut r, &mut m) };
        (rc, r, m)
    }

    #[test]
    fn every_op_matches_the_golden_model_through_the_words() {
        let mut rng = crosslane_golden::SplitMix64(5);
        assert_eq!(crosslane_op_count(), 94);
        for i in 0..crosslane_op_count() {
            let code = crosslane_op_at(i);
            let op = Op::from_code(code as u16).unwrap();
            // SAFETY: crosslane_op_name returns a static NUL-terminated string.
            let name = unsafe { CStr::from_ptr(crosslane_op_name(code)) }.to_str().unwrap();
            assert_eq!(name, op.name());
            let cname = CString::new(name).unwrap();
            // SAFETY: a NUL-terminated string.
            assert_eq!(unsafe { crosslane_op_code(cname.as_ptr()) }, code);
            assert_eq!(crosslane_result_bits(code), op.result_bits() as c_int);
            for _ in 0..50 {
                let words: [u32; 16] = std::array::from_fn(|_| rng.next_u64() as u32);
                let vbool = rng.next_u64();
                let mut bytes = [0u8; 64];
                for (k, w) in words.iter().enumerate() {
                    bytes[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
                }
                let want = op.eval(&Vec512(bytes), vbool);
                assert_eq!(eval(code, &words, vbool), (CROSSLANE_OK, want.value, want.mask.unwrap_or(0)), "{name}");
            }
        }
    }

    #[test]
    fn bad_arguments_are_error_codes() {
        let v = [0u32; 16];
        assert_eq!(eval(0x1ff, &v, 0), (CROSSLANE_EUNKNOWN_OP, 0xdead_beef, 0xdead_beef));
        assert_eq!(eval(-1, &v, 0).0, CROSSLANE_EUNKNOWN_OP);
        assert_eq!(eval(1 << 20, &v, 0).0, CROSSLANE_EUNKNOWN_OP);
        let mut r = 0;
        // SAFETY: null pointers are what is tested.
        assert_eq!(unsafe { crosslane_eval(1, v.as_ptr(), 0, &mut r, std::ptr::null_mut()) }, CROSSLANE_ENULL);
        // SAFETY: as above.
        assert_eq!(unsafe { crosslane_op_code(std::ptr::null()) }, -1);
        let bad = CString::new("radd_nx17").unwrap();
        // SAFETY: a NUL-terminated string.
        assert_eq!(unsafe { crosslane_op_code(bad.as_ptr()) }, -1);
        // SAFETY: a static NUL-terminated string.
        assert_eq!(unsafe { CStr::from_ptr(crosslane_op_name(0x1ff)) }.to_bytes(), b"");
        assert_eq!(unsafe { CStr::from_ptr(crosslane_op_name(-3)) }.to_bytes(), b"");
        assert_eq!((crosslane_op_at(94), crosslane_op_at(-1), crosslane_result_bits(0x1ff)), (-1, -1, -1));
        assert_eq!(crosslane_latency(), 7);
        let latency = |name: &str| {
            let name = CString::new(name).unwrap();
            // SAFETY: a NUL-terminated string.
            unsafe { crosslane_module_latency(name.as_ptr()) }
        };
        assert_eq!(
            ["crosslane_reduce", "crosslane_reduce_every2", "crosslane_reduce_every3", "every2"].map(latency),
            [7, 4, 3, 4]
        );
        assert_eq!(["crosslane_reduce_every4", "", "crosslane"].map(latency), [-1, -1, -1]);
        // SAFETY: a null pointer is what is tested.
        assert_eq!(unsafe { crosslane_module_latency(std::ptr::null()) }, -1);
    }
}

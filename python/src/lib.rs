//! The golden model from Python: `crosslane.eval`, `crosslane.eval_batch`
//! over numpy arrays, `crosslane.exec`, the op table and typed errors.
//! `python/crosslane/__init__.py` re-exports this module, `_crosslane`.

use crosslane_golden::coverage::{bins, Coverage, INSTRUCTION, UNIT};
use crosslane_golden::instruction::exec::{check_work, execute, Sbuf, SumOrder};
use crosslane_golden::instruction::{RawInstruction, PARTITIONS};
use crosslane_golden::{BatchOut, Op, Vec512};
use numpy::ndarray::Dimension;
use numpy::{
    Element, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::borrow::Cow;

create_exception!(_crosslane, CrosslaneError, PyValueError, "Any error of the crosslane model.");
create_exception!(
    _crosslane,
    UnknownOpError,
    CrosslaneError,
    "An op name or code that names none of the 94 primitives."
);
create_exception!(_crosslane, InputError, CrosslaneError, "An input of the wrong size, type or shape.");
create_exception!(
    _crosslane,
    InstructionError,
    CrosslaneError,
    "An instruction that validation refuses; `.rule` names the rule (instruction.md §3)."
);

/// An op given by name (`"rbmax_nx16_t"`) or op-select code.
fn op_of(op: &Bound<'_, PyAny>) -> PyResult<Op> {
    if let Ok(name) = op.extract::<String>() {
        return Op::from_name(&name).ok_or_else(|| UnknownOpError::new_err(format!("unknown op '{name}'")));
    }
    if let Ok(code) = op.extract::<i64>() {
        return u16::try_from(code)
            .ok()
            .and_then(Op::from_code)
            .ok_or_else(|| UnknownOpError::new_err(format!("no op has code {code:#x}")));
    }
    if op.is_instance_of::<pyo3::types::PyInt>() {
        // Past i64 (2**70): no op's code either.
        return Err(UnknownOpError::new_err(format!("no op has code {}", op.repr()?)));
    }
    Err(UnknownOpError::new_err(format!("an op is a name or a code, not {}", op.get_type().name()?)))
}

/// A 512-bit vector: 64 bytes (byte 0 = bits 7:0), a non-negative int below
/// 2^512, or a numpy uint8 array of 64.
fn vec_of(v: &Bound<'_, PyAny>) -> PyResult<Vec512> {
    if let Ok(b) = v.extract::<Vec<u8>>() {
        if let Ok(bytes) = <[u8; 64]>::try_from(b.as_slice()) {
            return Ok(Vec512(bytes));
        }
        return Err(InputError::new_err(format!("vec: {} bytes; a vector is 64", b.len())));
    }
    if v.is_instance_of::<pyo3::types::PyInt>() {
        let too_big = v.call_method1("bit_length", ())?.extract::<u64>()? > 512;
        let negative = v.lt(0)?;
        if negative || too_big {
            return Err(InputError::new_err("vec: an int vector must be in 0 .. 2**512"));
        }
        let b: Vec<u8> = v.call_method1("to_bytes", (64, "little"))?.extract()?;
        return Ok(Vec512(b.try_into().map_err(|_| InputError::new_err("vec: to_bytes gave the wrong length"))?));
    }
    Err(InputError::new_err(format!("vec: expected 64 bytes or an int, not {}", v.get_type().name()?)))
}

fn vbool_of(vbool: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match vbool {
        None => Ok(0),
        Some(v) => v.extract::<u64>().map_err(|_| InputError::new_err("vbool: expected an int in 0 .. 2**64")),
    }
}

/// eval(op, vec=None, vbool=None) -> (result, mask)
///
/// One primitive on one case, given as the eval protocol (and `crosslane
/// eval`) takes it: `op` a name or code; a vbool fold takes `vbool` (an int)
/// and no `vec`; a `_t` op takes `vec` (64 bytes or an int) and `vbool`, its
/// predicate; a base op takes `vec` only. Anything else is an InputError
/// naming what is missing or what the op does not take. Returns the result
/// (low result_bits bits, two's complement when signed) and, for rb* ops,
/// the lane mask of every active lane equal to the result (None for other
/// ops). `eval_ports` takes the unit's ports instead.
#[pyfunction]
#[pyo3(signature = (op, vec=None, vbool=None))]
fn eval(
    op: &Bound<'_, PyAny>,
    vec: Option<&Bound<'_, PyAny>>,
    vbool: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u32, Option<u64>)> {
    let op = op_of(op)?;
    let name = op.name();
    let refuse = |msg: String| Err(InputError::new_err(msg));
    let (v, vb) = if op.family.is_vbool_fold() {
        if vec.is_some() {
            return refuse(format!("{name} folds a vbool: give vbool, not vec"));
        }
        let Some(vb) = vbool else { return refuse(format!("{name} folds a vbool: give vbool")) };
        (Vec512::ZERO, vbool_of(Some(vb))?)
    } else {
        let Some(v) = vec else { return refuse(format!("{name} needs a vec")) };
        let v = vec_of(v)?;
        match (op.predicated, vbool) {
            (true, Some(vb)) => (v, vbool_of(Some(vb))?),
            (true, None) => return refuse(format!("{name} needs vbool, its predicate")),
            (false, None) => (v, u64::MAX),
            (false, Some(_)) => {
                return refuse(format!("{name} has no predicate (the predicated form is '{name}_t'): give no vbool"))
            }
        }
    };
    let out = op.eval(&v, vb);
    Ok((out.value, out.mask))
}

/// eval_ports(op, vec, vbool) -> (result, mask)
///
/// What the unit's ports give: `op` on `op_i`, `vec` on `vec_i` (64 bytes or
/// an int), `vbool` on `vbool_i` (an int), all three always, as a testbench
/// drives them. A base op ignores `vbool_i` and a vbool fold `vec_i`, as the
/// unit does.
#[pyfunction]
fn eval_ports(op: &Bound<'_, PyAny>, vec: &Bound<'_, PyAny>, vbool: &Bound<'_, PyAny>) -> PyResult<(u32, Option<u64>)> {
    let op = op_of(op)?;
    let out = op.eval(&vec_of(vec)?, vbool_of(Some(vbool))?);
    Ok((out.value, out.mask))
}

/// The elements of `a` in row-major (C) order: borrowed when its memory is
/// in that order (no copy), copied in that order otherwise. `as_slice`
/// alone would also lend a Fortran-ordered array's memory, column by column.
fn elements<'a, T: Element + Copy, D: Dimension>(a: &'a PyReadonlyArray<'_, T, D>) -> Cow<'a, [T]> {
    if a.is_c_contiguous() {
        if let Ok(s) = a.as_slice() {
            return Cow::Borrowed(s);
        }
    }
    Cow::Owned(a.as_array().iter().copied().collect())
}

/// What an argument is, for a message: "a int32 array of shape (3, 64)", or
/// its type's name.
fn described(a: &Bound<'_, PyAny>) -> String {
    if let (Ok(dtype), Ok(shape)) = (a.getattr("dtype"), a.getattr("shape")) {
        if let (Ok(d), Ok(s)) = (dtype.str(), shape.repr()) {
            return format!("a {d} array of shape {s}");
        }
    }
    a.get_type().name().map_or_else(|_| "that".to_string(), |n| n.to_string())
}

/// Argument `name` as a read-only numpy array (`want` says which), or an
/// InputError naming the argument and what it was.
fn array_arg<'py, T: Element, D: Dimension>(
    a: &Bound<'py, PyAny>,
    name: &str,
    want: &str,
) -> PyResult<PyReadonlyArray<'py, T, D>> {
    a.extract::<PyReadonlyArray<'py, T, D>>()
        .map_err(|_| InputError::new_err(format!("{name}: expected {want}, not {}", described(a))))
}

/// A batch's results and, for rb* ops, masks.
type Columns<'py> = (Bound<'py, PyArray1<u32>>, Option<Bound<'py, PyArray1<u64>>>);

/// eval_batch(op, vecs, vbools=None) -> (results, masks)
///
/// One primitive over many cases, without copying the inputs when they are
/// C-contiguous. `vecs`: uint8 array of shape (n, 64) (a vbool fold may pass
/// None). `vbools`: uint64 array of shape (n,), or None (every lane active;
/// required by vbool folds). Returns a uint32 array of n results and, for rb*
/// ops, a uint64 array of n masks (None otherwise). The GIL is released while
/// it runs.
#[pyfunction]
#[pyo3(signature = (op, vecs, vbools=None))]
fn eval_batch<'py>(
    py: Python<'py>,
    op: &Bound<'py, PyAny>,
    vecs: Option<Bound<'py, PyAny>>,
    vbools: Option<Bound<'py, PyAny>>,
) -> PyResult<Columns<'py>> {
    let op = op_of(op)?;
    let vecs: Option<PyReadonlyArray2<'py, u8>> =
        vecs.as_ref().map(|a| array_arg(a, "vecs", "a uint8 array of shape (n, 64)")).transpose()?;
    let vbools: Option<PyReadonlyArray1<'py, u64>> =
        vbools.as_ref().map(|a| array_arg(a, "vbools", "a uint64 array of shape (n,)")).transpose()?;
    if let Some(a) = &vecs {
        if a.shape()[1] != 64 {
            return Err(InputError::new_err(format!("vecs: shape {:?}; expected (n, 64) uint8", a.shape())));
        }
    }
    let bytes = vecs.as_ref().map(elements);
    let bytes: &[u8] = bytes.as_deref().unwrap_or(&[]);
    // SAFETY: Vec512 is repr(transparent) over [u8; 64] (size 64, align 1)
    // and `bytes` holds a whole number of 64-byte rows.
    let vectors: &[Vec512] = unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<Vec512>(), bytes.len() / 64) };
    let vb = vbools.as_ref().map(elements);
    let vb: Option<&[u64]> = vb.as_deref();
    if op.family.is_vbool_fold() && vb.is_none() {
        return Err(InputError::new_err(format!("{} folds vbools: pass vbools", op.name())));
    }
    if !op.family.is_vbool_fold() && vecs.is_none() {
        return Err(InputError::new_err(format!("{} needs vecs", op.name())));
    }
    let mut out = BatchOut::default();
    py.allow_threads(|| crosslane_golden::eval_batch_into(op, vectors, vb, &mut out))
        .map_err(|e| InputError::new_err(e.to_string()))?;
    let masks = op.family.has_mask().then(|| PyArray1::from_vec(py, std::mem::take(&mut out.masks)));
    Ok((PyArray1::from_vec(py, out.values), masks))
}

/// exec(inst, sbuf) -> sbuf
///
/// Run one 64-byte CrossLaneReduce instruction (bytes, or 128 hex digits) on
/// an SBUF given as a uint8 array of shape (128, partition_bytes). Returns
/// the SBUF after it (a new array; the argument is not changed). An
/// instruction validation refuses raises InstructionError with `.rule`; one
/// that would read more than 2**28 elements raises it with rule "work".
#[pyfunction]
#[pyo3(name = "exec")]
fn exec_instruction<'py>(
    py: Python<'py>,
    inst: &Bound<'py, PyAny>,
    sbuf: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let raw = raw_of(inst)?;
    let mut s = sbuf_of(&sbuf)?;
    let partition_bytes = s.partition_bytes;
    let refuse = |rule: String, message: String| -> PyErr {
        let err = InstructionError::new_err(message);
        let _ = err.value(py).setattr("rule", rule);
        err
    };
    let valid = raw.validate(partition_bytes).map_err(|e| refuse(e.rule(), e.to_string()))?;
    check_work(&valid).map_err(|e| refuse("work".into(), e))?;
    py.allow_threads(|| execute(&valid, &mut s, SumOrder::Tree)).map_err(|e| InputError::new_err(e.to_string()))?;
    let flat: Vec<u8> = (0..PARTITIONS).flat_map(|p| s.partition(p).iter().copied()).collect();
    let out = PyArray1::from_vec(py, flat);
    out.reshape([PARTITIONS, partition_bytes])
}

/// An instruction given as 64 bytes or 128 hex digits.
fn raw_of(inst: &Bound<'_, PyAny>) -> PyResult<RawInstruction> {
    if let Ok(text) = inst.extract::<String>() {
        return RawInstruction::from_hex(&text).map_err(|e| InputError::new_err(format!("inst: {e}")));
    }
    let b: Vec<u8> = inst.extract().map_err(|_| InputError::new_err("inst: expected 64 bytes or 128 hex digits"))?;
    let b: [u8; 64] = b
        .as_slice()
        .try_into()
        .map_err(|_| InputError::new_err(format!("inst: {} bytes; an instruction is 64", b.len())))?;
    Ok(RawInstruction::decode(&b))
}

/// An SBUF given as a uint8 array of shape (128, partition_bytes).
fn sbuf_of(sbuf: &Bound<'_, PyAny>) -> PyResult<Sbuf> {
    let sbuf: PyReadonlyArray2<'_, u8> = array_arg(sbuf, "sbuf", "a uint8 array of shape (128, partition_bytes)")?;
    let shape = sbuf.shape();
    if shape[0] != PARTITIONS || shape[1] == 0 {
        return Err(InputError::new_err(format!(
            "sbuf: shape {shape:?}; expected ({PARTITIONS}, partition_bytes) uint8"
        )));
    }
    let partition_bytes = shape[1];
    let mut s = Sbuf::new(partition_bytes);
    let bytes = elements(&sbuf);
    for (p, row) in bytes.chunks_exact(partition_bytes).enumerate() {
        s.write(p, 0, row).map_err(|e| InputError::new_err(e.to_string()))?;
    }
    Ok(s)
}

/// The golden model's coverage model (docs/coverage.md): the same bins as
/// `crosslane verify --coverage`, defined once in the Rust golden model.
///
///     cov = crosslane.Coverage()
///     cov.sample("rbmax_nx16", vec, vbool)   # a case of the reduce unit
///     cov.sample_exec(inst, sbuf)            # an instruction on its SBUF (before it runs)
///     print(cov.report())                    # groups, unhit bins by name, totals
#[pyclass(name = "Coverage")]
#[derive(Default)]
struct PyCoverage {
    inner: Coverage,
}

#[pymethods]
impl PyCoverage {
    #[new]
    fn new() -> Self {
        PyCoverage::default()
    }

    /// Sample one case of the reduce unit (arguments as eval's).
    #[pyo3(signature = (op, vec, vbool = None))]
    fn sample(
        &mut self,
        op: &Bound<'_, PyAny>,
        vec: &Bound<'_, PyAny>,
        vbool: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let (op, vec, vbool) = (op_of(op)?, vec_of(vec)?, vbool_of(vbool)?);
        self.inner.sample_case(op, &vec, vbool);
        Ok(())
    }

    /// Sample one instruction (as exec takes it) on the SBUF it runs on: a
    /// refused one counts its rule. The array is not changed.
    fn sample_exec(&mut self, inst: &Bound<'_, PyAny>, sbuf: &Bound<'_, PyAny>) -> PyResult<()> {
        let raw = raw_of(inst)?;
        let mut s = sbuf_of(sbuf)?;
        self.inner.sample_instruction(&raw, &mut s);
        Ok(())
    }

    /// Add another Coverage's counts.
    fn merge(&mut self, other: PyRef<'_, PyCoverage>) {
        self.inner.merge(&other.inner);
    }

    /// (reachable bins hit, reachable bins) of the groups whose name starts
    /// with `prefix` ("op " the unit, "inst " the instruction, "" all).
    #[pyo3(signature = (prefix = ""))]
    fn totals(&self, prefix: &str) -> (usize, usize) {
        self.inner.total(prefix)
    }

    /// Every bin as (group, bin, hits, why unreachable or None).
    fn counts(&self) -> Vec<(String, String, u64, Option<String>)> {
        bins()
            .iter()
            .zip(self.inner.counts())
            .map(|(b, &k)| (b.group.clone(), b.name.clone(), k, b.unreachable.clone()))
            .collect()
    }

    /// The report `crosslane verify --coverage` prints: a line a group with
    /// bins hit and the unhit ones by name, then the totals; `prefix` as in
    /// totals.
    #[pyo3(signature = (prefix = ""))]
    fn report(&self, prefix: &str) -> String {
        let mut s = self.inner.render(prefix);
        for (p, what) in [(UNIT, "the unit"), (INSTRUCTION, "the instruction")] {
            if p.starts_with(prefix) {
                s.push_str(&self.inner.total_line(p, what));
                s.push('\n');
            }
        }
        s
    }
}

/// ops() -> list of dicts: every primitive's name, code, family, lanes,
/// lane_bits, result_bits, predicated, has_mask (rb*), vbool_fold.
#[pyfunction]
fn ops(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for op in Op::all() {
        let d = PyDict::new(py);
        d.set_item("name", op.name())?;
        d.set_item("code", op.code())?;
        d.set_item("family", op.family.name())?;
        d.set_item("lanes", op.lanes())?;
        d.set_item("lane_bits", op.form.lane_bits())?;
        d.set_item("result_bits", op.result_bits())?;
        d.set_item("predicated", op.predicated)?;
        d.set_item("has_mask", op.family.has_mask())?;
        d.set_item("vbool_fold", op.family.is_vbool_fold())?;
        list.append(d)?;
    }
    Ok(list)
}

/// The 64 bytes of a vector given as an int (for building inputs).
#[pyfunction]
fn vec_bytes<'py>(py: Python<'py>, vec: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, &vec_of(vec)?.0))
}

#[pymodule]
fn _crosslane(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(eval_ports, m)?)?;
    m.add_function(wrap_pyfunction!(eval_batch, m)?)?;
    m.add_function(wrap_pyfunction!(exec_instruction, m)?)?;
    m.add_function(wrap_pyfunction!(ops, m)?)?;
    m.add_function(wrap_pyfunction!(vec_bytes, m)?)?;
    m.add_class::<PyCoverage>()?;
    m.add("LATENCY", crosslane_golden::LATENCY)?;
    let latencies = PyDict::new(m.py());
    for config in crosslane_golden::Config::ALL {
        latencies.set_item(config.module(), config.latency())?;
    }
    m.add("LATENCIES", latencies)?;
    m.add("PARTITIONS", PARTITIONS)?;
    // The rules of instruction.md §3 in order: rule n is RULE_NAMES[n - 1]
    // (what InstructionError.rule and the RTL engine's rule_o name).
    m.add("RULE_NAMES", crosslane_golden::instruction::RULE_NAMES.to_vec())?;
    m.add("CrosslaneError", m.py().get_type::<CrosslaneError>())?;
    m.add("UnknownOpError", m.py().get_type::<UnknownOpError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("InstructionError", m.py().get_type::<InstructionError>())?;
    Ok(())
}

"""The Python entry points on hostile arguments (hypothesis): every call
returns or raises a crosslane.CrosslaneError; nothing else escapes, nothing
crashes. Bounded here; CROSSLANE_FUZZ_CASES=N for a longer run."""

import os

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import crosslane

CASES = int(os.environ.get("CROSSLANE_FUZZ_CASES", "300"))
NAMES = [o["name"] for o in crosslane.ops()]

ops = st.one_of(
    st.sampled_from(NAMES),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.text(max_size=12),
    st.none(),
    st.floats(allow_nan=True),
)
vecs = st.one_of(
    st.none(),
    st.binary(max_size=70),
    st.integers(min_value=-(2**600), max_value=2**600),
    st.text(max_size=8),
    st.lists(st.integers(min_value=-5, max_value=300), max_size=70),
)
vbools = st.one_of(st.none(), st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=4), st.floats())
dtypes = st.sampled_from([np.uint8, np.int8, np.uint16, np.int32, np.uint64, np.float32, np.float64, np.bool_])
shapes = st.one_of(
    st.tuples(st.integers(0, 4), st.integers(0, 70)),
    st.tuples(st.integers(0, 70)),
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
)


def decides(call):
    """Run call: a result, or a CrosslaneError; anything else fails the test."""
    try:
        return call()
    except crosslane.CrosslaneError:
        return None


@settings(max_examples=CASES, deadline=None)
@given(op=ops, vec=vecs, vbool=vbools)
def test_eval_and_eval_ports_decide_on_anything(op, vec, vbool):
    out = decides(lambda: crosslane.eval(op, vec, vbool))
    if out is not None:
        assert isinstance(out[0], int) and (out[1] is None or isinstance(out[1], int))
    decides(lambda: crosslane.eval_ports(op, vec, vbool))


@settings(max_examples=CASES, deadline=None)
@given(op=ops, dtype=dtypes, shape=shapes, vb_dtype=dtypes, with_vbools=st.booleans(), fortran=st.booleans())
def test_eval_batch_decides_on_any_array(op, dtype, shape, vb_dtype, with_vbools, fortran):
    vecs = np.zeros(shape, dtype=dtype)
    if fortran:
        vecs = np.asfortranarray(vecs)
    vbools = np.zeros(shape[:1], dtype=vb_dtype) if with_vbools else None
    out = decides(lambda: crosslane.eval_batch(op, vecs, vbools))
    if out is not None:
        assert len(out[0]) == shape[0]


@settings(max_examples=CASES, deadline=None)
@given(
    inst=st.one_of(st.binary(max_size=70), st.text(alphabet="0123456789abcdefxz", max_size=130), st.integers()),
    rows=st.integers(0, 130),
    cols=st.integers(0, 200),
    dtype=dtypes,
)
def test_exec_decides_on_any_instruction_and_sbuf(inst, rows, cols, dtype):
    sbuf = np.zeros((rows, cols), dtype=dtype)
    out = decides(lambda: crosslane.exec(inst, sbuf))
    if out is not None:
        assert out.shape == (rows, cols) and out.dtype == np.uint8

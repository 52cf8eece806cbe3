"""The Python package against the spec's worked examples and the Rust model's
own batch/single agreement. Run: pytest python/tests (after installing the
package: pip install ./python)."""

import json
import pathlib

import numpy as np
import pytest

import crosslane

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / ".." / "shared" / "spec" / "examples"


def jsonl(name):
    path = EXAMPLES / name
    assert path.is_file(), f"{path} is missing: shared/ must sit beside the checkout"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_eval_reproduces_the_spec_examples():
    cases, expected = jsonl("eval-cases.jsonl"), jsonl("eval-expected.jsonl")
    assert len(cases) == len(expected) == 32
    for case, want in zip(cases, expected):
        op = case["op"]
        vec = int(case["vec"], 16) if "vec" in case else None
        given = case.get("pred") or case.get("vbool")
        value, mask = crosslane.eval(op, vec, None if given is None else int(given, 16))
        info = next(o for o in crosslane.ops() if o["name"] == op)
        assert f"{value:0{(info['result_bits'] + 3) // 4}x}" == want["result"], case
        if "mask" in want:
            assert mask is not None and f"{mask:0{info['lanes'] // 4}x}" == want["mask"], case
        else:
            assert mask is None, case


def test_the_op_table():
    table = crosslane.ops()
    assert len(table) == 94
    assert len({o["code"] for o in table}) == 94
    rbmax = next(o for o in table if o["name"] == "rbmax_nx16_t")
    assert rbmax["has_mask"] and rbmax["predicated"] and rbmax["lanes"] == 32 and rbmax["lane_bits"] == 16
    assert crosslane.LATENCY == 7 and crosslane.PARTITIONS == 128
    assert crosslane.RULE_NAMES[0] == "opcode" and crosslane.RULE_NAMES[12] == "bitvec_dtype"
    assert len(crosslane.RULE_NAMES) == 13
    assert crosslane.LATENCIES == {"crosslane_reduce": 7, "crosslane_reduce_every2": 4, "crosslane_reduce_every3": 3}
    # A code and a name are the same op.
    v = bytes(range(64))
    for o in table:
        assert crosslane.eval_ports(o["code"], v, 0x5555) == crosslane.eval_ports(o["name"], v, 0x5555)


def random_inputs(n, seed):
    rng = np.random.default_rng(seed)
    vecs = rng.integers(0, 256, (n, 64), dtype=np.uint8)
    # Corner-heavy: some rows of one repeated lane value (ties for rb*), all-ones predicates.
    vecs[::7] = vecs[::7, :1]
    vbools = rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, n, dtype=np.uint64)
    vbools[::5] = np.uint64(2**64 - 1)
    return vecs, vbools


@pytest.mark.parametrize("op", [o["name"] for o in crosslane.ops()])
def test_batch_agrees_with_single_eval(op):
    vecs, vbools = random_inputs(300, hash(op) % 2**32)
    results, masks = crosslane.eval_batch(op, vecs, vbools)
    assert results.dtype == np.uint32 and results.shape == (300,)
    info = next(o for o in crosslane.ops() if o["name"] == op)
    assert (masks is not None) == info["has_mask"]
    for k in range(300):
        value, mask = crosslane.eval_ports(op, vecs[k].tobytes(), int(vbools[k]))
        assert int(results[k]) == value, (op, k)
        if masks is not None:
            assert int(masks[k]) == mask, (op, k)


def test_batch_reads_strided_arrays_too():
    vecs, vbools = random_inputs(200, 3)
    wide = np.zeros((200, 128), dtype=np.uint8)
    wide[:, ::2] = vecs  # a non-contiguous view
    strided = wide[:, ::2]
    assert not strided.flags["C_CONTIGUOUS"]
    a = crosslane.eval_batch("rbmaxu_2nx8_t", vecs, vbools)
    b = crosslane.eval_batch("rbmaxu_2nx8_t", strided, vbools[::1].copy())
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    vb = np.zeros(400, dtype=np.uint64)
    vb[::2] = vbools
    c = crosslane.eval_batch("rbmaxu_2nx8_t", vecs, vb[::2])
    assert (a[0] == c[0]).all() and (a[1] == c[1]).all()


def test_fortran_ordered_arrays_are_read_in_their_logical_order():
    # The case: a (64, 3) array transposed is Fortran-ordered (3, 64).
    a = np.arange(192, dtype=np.uint8).reshape(64, 3).T
    assert a.flags["F_CONTIGUOUS"] and not a.flags["C_CONTIGUOUS"]
    results, _ = crosslane.eval_batch("raddu_2nx8", a)
    assert [int(r) for r in results] == [6048, 6112, 6176]
    assert [int(r) for r in results] == [int(row.astype(np.uint64).sum()) for row in a]
    vecs, vbools = random_inputs(50, 5)
    want = crosslane.eval_batch("rbmaxu_2nx8_t", vecs, vbools)
    got = crosslane.eval_batch("rbmaxu_2nx8_t", np.asfortranarray(vecs), vbools)
    assert (want[0] == got[0]).all() and (want[1] == got[1]).all()
    # exec reads a Fortran-ordered SBUF by partition and offset too: every
    # spec example that runs gives the same SBUF from either order.
    ran = 0
    for case in jsonl("exec-cases.jsonl"):
        if "inst" not in case or "sbuf" not in case:
            continue
        pb = case["sbuf"]["partition_bytes"]
        sbuf = np.zeros((crosslane.PARTITIONS, pb), dtype=np.uint8)
        for w in case["sbuf"]["writes"]:
            data = np.frombuffer(bytes.fromhex(w["hex"]), dtype=np.uint8)
            sbuf[w["partition"], w["offset"] : w["offset"] + len(data)] = data
        try:
            c = crosslane.exec(case["inst"], sbuf)
        except crosslane.CrosslaneError:
            continue
        f = crosslane.exec(case["inst"], np.asfortranarray(sbuf))
        assert (c == f).all(), case["id"]
        ran += 1
    assert ran >= 5


def test_vbool_folds_in_a_batch_need_only_vbools():
    _, vbools = random_inputs(100, 4)
    results, masks = crosslane.eval_batch("rorb2n", None, vbools)
    assert masks is None
    assert [int(r) for r in results] == [crosslane.eval("rorb2n", None, int(v))[0] for v in vbools]


def test_errors_are_typed_and_name_the_problem():
    with pytest.raises(crosslane.UnknownOpError, match="unknown op 'radd_nx17'"):
        crosslane.eval("radd_nx17", bytes(64))
    with pytest.raises(crosslane.UnknownOpError, match="no op has code 0x1ff"):
        crosslane.eval(0x1FF, bytes(64))
    with pytest.raises(crosslane.InputError, match="63 bytes"):
        crosslane.eval("radd_nx16", bytes(63))
    with pytest.raises(crosslane.InputError, match="2\\*\\*512"):
        crosslane.eval("radd_nx16", 1 << 512)
    with pytest.raises(crosslane.InputError, match="2\\*\\*512"):
        crosslane.eval("radd_nx16", -1)
    with pytest.raises(crosslane.InputError, match="needs a vec"):
        crosslane.eval("radd_nx16")
    with pytest.raises(crosslane.InputError, match="vbool"):
        crosslane.eval("radd_nx16_t", bytes(64), -1)
    # eval takes a case as `crosslane eval` does: what an op lacks or does not take is refused.
    with pytest.raises(crosslane.InputError, match="radd_nx16_t needs vbool, its predicate"):
        crosslane.eval("radd_nx16_t", bytes(64))
    with pytest.raises(crosslane.InputError, match="radd_nx16 has no predicate .*'radd_nx16_t'"):
        crosslane.eval("radd_nx16", bytes(64), vbool=1)
    with pytest.raises(crosslane.InputError, match="rorbn folds a vbool: give vbool"):
        crosslane.eval("rorbn")
    with pytest.raises(crosslane.InputError, match="rorbn folds a vbool: give vbool, not vec"):
        crosslane.eval("rorbn", bytes(64), 1)
    # eval_ports is the unit's: every port always, base ops ignore vbool_i.
    assert crosslane.eval_ports("radd_nx16", bytes(64), 0) == crosslane.eval("radd_nx16", bytes(64))
    assert crosslane.eval_ports("rorbn", bytes(64), 1) == crosslane.eval("rorbn", vbool=1)
    with pytest.raises(crosslane.InputError, match="expected \\(n, 64\\)"):
        crosslane.eval_batch("radd_nx16", np.zeros((3, 63), dtype=np.uint8))
    with pytest.raises(crosslane.InputError, match="vbools"):
        crosslane.eval_batch("radd_nx16_t", np.zeros((3, 64), dtype=np.uint8), np.zeros(2, dtype=np.uint64))
    with pytest.raises(crosslane.InputError, match="pass vbools"):
        crosslane.eval_batch("randbn", None)
    # The wrong dtype or number of dimensions names the argument (it was a bare TypeError).
    with pytest.raises(crosslane.InputError, match="vecs: expected a uint8 array of shape \\(n, 64\\), not a int32 array"):
        crosslane.eval_batch("radd_nx16", np.zeros((3, 64), dtype=np.int32))
    with pytest.raises(crosslane.InputError, match="vecs: expected .* not a uint8 array of shape \\(64,\\)"):
        crosslane.eval_batch("radd_nx16", np.zeros(64, dtype=np.uint8))
    with pytest.raises(crosslane.InputError, match="vbools: expected a uint64 array"):
        crosslane.eval_batch("radd_nx16_t", np.zeros((3, 64), dtype=np.uint8), [1, 2, 3])
    with pytest.raises(crosslane.InputError, match="sbuf: expected a uint8 array .* not a float64 array"):
        crosslane.exec("00" * 64, np.zeros((128, 64)))
    with pytest.raises(crosslane.UnknownOpError, match="no op has code 1180591620717411303424"):
        crosslane.eval(2**70, bytes(64))
    # Every error is a CrosslaneError, which is a ValueError.
    assert issubclass(crosslane.InstructionError, crosslane.CrosslaneError)
    assert issubclass(crosslane.CrosslaneError, ValueError)


def test_exec_reproduces_the_spec_examples():
    cases, expected = jsonl("exec-cases.jsonl"), jsonl("exec-expected.jsonl")
    checked = 0
    for case, want in zip(cases, expected):
        if "inst" not in case or "sbuf" not in case:
            continue  # protocol-level errors: the JSON front end's, not this API's
        pb = case["sbuf"]["partition_bytes"]
        sbuf = np.zeros((crosslane.PARTITIONS, pb), dtype=np.uint8)
        for w in case["sbuf"]["writes"]:
            data = np.frombuffer(bytes.fromhex(w["hex"]), dtype=np.uint8)
            sbuf[w["partition"], w["offset"] : w["offset"] + len(data)] = data
        before = sbuf.copy()
        try:
            after = crosslane.exec(case["inst"], sbuf)
        except crosslane.InstructionError as e:
            assert "error" in want, (case["id"], e)
            rule = want["error"].split(":")[0]
            assert e.rule == rule and str(e).startswith(rule + ":"), (case["id"], str(e))
            checked += 1
            continue
        except crosslane.InputError as e:
            assert "error" in want and want["error"] == "\u2026", (case["id"], e)
            checked += 1
            continue
        assert "read" in want, (case["id"], want)
        got = [after[r["partition"], r["offset"] : r["offset"] + r["len"]].tobytes().hex() for r in case["read"]]
        assert got == want["read"], case["id"]
        assert (sbuf == before).all(), "exec must not change its argument"
        # Bytes as well as hex.
        assert (crosslane.exec(bytes.fromhex(case["inst"]), sbuf) == after).all()
        checked += 1
    assert checked >= 12


def test_exec_refuses_bad_input_with_typed_errors():
    sbuf = np.zeros((128, 4096), dtype=np.uint8)
    with pytest.raises(crosslane.InputError, match="63 bytes"):
        crosslane.exec(bytes(63), sbuf)
    with pytest.raises(crosslane.InputError, match="shape"):
        crosslane.exec(bytes(64), np.zeros((127, 4096), dtype=np.uint8))
    with pytest.raises(crosslane.InstructionError) as e:
        crosslane.exec(bytes(64), sbuf)
    assert e.value.rule == "opcode"


def test_coverage_samples_with_the_golden_models_bins():
    cov = crosslane.Coverage()
    assert cov.totals() == (0, cov.totals()[1]) and cov.totals()[1] > 2000
    # A max whose two last lanes tie.
    lanes = [0] * 30 + [5, 5]
    vec = b"".join(x.to_bytes(2, "little") for x in lanes)
    cov.sample("rbmax_nx16", vec)
    hit = {(g, b) for g, b, k, _ in cov.counts() if k}
    assert ("op rbmax_nx16", "ties 2") in hit and ("op rbmax_nx16", "winner another lane") in hit
    assert all(g == "op rbmax_nx16" for g, _ in hit)
    # The spec's exec examples: each refused one counts its rule; the SBUF is not changed.
    rules = set()
    for case, want in zip(jsonl("exec-cases.jsonl"), jsonl("exec-expected.jsonl")):
        if "inst" not in case or "sbuf" not in case:
            continue
        pb = case["sbuf"]["partition_bytes"]
        sbuf = np.zeros((crosslane.PARTITIONS, pb), dtype=np.uint8)
        for w in case["sbuf"]["writes"]:
            data = np.frombuffer(bytes.fromhex(w["hex"]), dtype=np.uint8)
            sbuf[w["partition"], w["offset"] : w["offset"] + len(data)] = data
        before = sbuf.copy()
        cov.sample_exec(case["inst"], sbuf)
        assert (sbuf == before).all()
        if "error" in want and want["error"] != "\u2026":
            rules.add(want["error"].split(":")[0])
    reject = {b for g, b, k, _ in cov.counts() if g == "inst reject" and k}
    assert rules and rules <= reject, (rules, reject)
    report = cov.report("inst ")
    assert report.splitlines()[-1].startswith("coverage of the instruction: ")
    assert "op rbmax_nx16" not in report and "op rbmax_nx16" in cov.report()
    # Merged counts add up; unreachable bins say why.
    twice = crosslane.Coverage()
    twice.merge(cov)
    twice.merge(cov)
    assert sum(k for *_, k, _ in twice.counts()) == 2 * sum(k for *_, k, _ in cov.counts())
    assert any(why and "lanes sum to at most" in why for *_, why in cov.counts())


def test_coverage_refuses_bad_input_by_name():
    cov = crosslane.Coverage()
    with pytest.raises(crosslane.UnknownOpError):
        cov.sample("rnope", bytes(64))
    with pytest.raises(crosslane.InputError, match="sbuf"):
        cov.sample_exec(bytes(64), np.zeros((3, 64), dtype=np.uint8))
    with pytest.raises(crosslane.InputError, match="inst"):
        cov.sample_exec(b"short", np.zeros((128, 64), dtype=np.uint8))
    assert cov.totals()[0] == 0

"""A cocotb testbench of the RTL engine (generated/rtl/crosslane_engine.v)
that scores every instruction with the crosslane Python package's
crosslane.exec (the Rust golden model).

The testbench holds the SBUF (128 partitions, a numpy array): a read
requested in clock t (rd_valid_o bit j: partition rd_partition_o + j) and
taken (rd_ready_i high; it is low in CROSSLANE_COCOTB_READ_STALL percent of
the clocks, 25 unless set) is on rd_data_i's lane j for clock t+1
(READ_LATENCY 1) and returns the row as it was before that clock's write;
lanes not read return junk; a write is applied at the rising edge after it
is on the port. Each case (an `exec` JSON line from
CROSSLANE_COCOTB_CASES) is written into the SBUF, its instruction presented
on inst_i until taken, and the engine run to done_o. Then:
- crosslane.exec accepts it: accepted_o must be high and the whole SBUF
  (every byte of every partition, not only the case's read regions) equal
  to crosslane.exec's;
- crosslane.exec refuses it (InstructionError): accepted_o low,
  RULE_NAMES[rule_o - 1] == the error's rule, and the SBUF unchanged;
and never a write outside an instruction, in done_o's clock or before the
instruction's first read, never an access outside the SBUF, done_o within
CROSSLANE_COCOTB_CLOCK_LIMIT clocks. Instructions follow one another back to
back: the next one is on inst_i in the clock done_o is high (so a late write
of one is a write before the next one's first read), and after the last
one, 32 clocks without a write.
The test fails unless every case ran and at least one was accepted.
"""

import json
import os
import random

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

import crosslane
from crosslane_cocotb import report_coverage

ROW = 64
LANES = 16
# The clocks a case may take before the engine is called hung: the cases run
# here are small (the spec's examples, campaign cases of bounded work).
CLOCK_LIMIT = int(os.environ.get("CROSSLANE_COCOTB_CLOCK_LIMIT", "20000"))
# Percent of clocks the read port stalls (rd_ready_i low).
READ_STALL = int(os.environ.get("CROSSLANE_COCOTB_READ_STALL", "25"))
JUNK_ROW = int.from_bytes(b"\xa5" * ROW, "little")


def sbuf_of(case):
    pb = case["sbuf"].get("partition_bytes", 65536)
    sbuf = np.zeros((crosslane.PARTITIONS, pb), dtype=np.uint8)
    for w in case["sbuf"].get("writes", []):
        data = np.frombuffer(bytes.fromhex(w["hex"]), dtype=np.uint8)
        sbuf[w["partition"], w["offset"] : w["offset"] + len(data)] = data
    return sbuf


def golden(case, sbuf):
    """(True, the SBUF after) or (False, the rule's name)."""
    try:
        return True, crosslane.exec(case["inst"], sbuf)
    except crosslane.InstructionError as e:
        return False, e.rule


class Sbuf:
    """The SBUF as the engine's ports see it: rows of 64 bytes."""

    def __init__(self, data):
        self.data = data
        self.pb = data.shape[1]
        self.fault = None

    def read(self, p, r):
        if p >= crosslane.PARTITIONS or r * ROW >= self.pb:
            self.fault = self.fault or f"a read outside the SBUF ({p}, row {r})"
            return 0
        row = self.data[p, r * ROW : min((r + 1) * ROW, self.pb)].tobytes()
        return int.from_bytes(row.ljust(ROW, b"\0"), "little")

    def write(self, p, r, data, strb):
        if p >= crosslane.PARTITIONS or r * ROW >= self.pb:
            self.fault = self.fault or f"a write outside the SBUF ({p}, row {r})"
            return
        raw = data.to_bytes(ROW, "little")
        for b in range(ROW):
            if strb >> b & 1:
                if r * ROW + b >= self.pb:
                    self.fault = self.fault or f"a write outside the SBUF ({p}, byte {r * ROW + b})"
                else:
                    self.data[p, r * ROW + b] = raw[b]


class Harness:
    def __init__(self, dut):
        self.dut = dut
        self.pending = 0  # the row for the read of the clock before
        self.sbuf = None
        self.executing = False
        self.clocks = 0
        self.reads_taken = 0
        self.stalls = random.Random(7)

    async def clock(self):
        """The next falling edge: present the row read in the clock before,
        then serve this clock's read and write (the read sees the row before
        the write)."""
        dut = self.dut
        await FallingEdge(dut.clk_i)
        self.clocks += 1
        ready = self.stalls.randrange(100) >= READ_STALL
        dut.rd_ready_i.value = int(ready)
        lanes = int(dut.rd_valid_o.value) if ready else 0
        self.reads_taken += bool(lanes)
        read = (lanes, int(dut.rd_partition_o.value), int(dut.rd_row_o.value)) if lanes else None
        write = None
        if int(dut.wr_valid_o.value):
            write = (
                int(dut.wr_partition_o.value),
                int(dut.wr_row_o.value),
                int(dut.wr_data_o.value),
                int(dut.wr_strb_o.value),
            )
        dut.rd_data_i.value = self.pending
        self.pending = 0
        for j in range(LANES):
            self.pending |= JUNK_ROW << (512 * j)
        if self.sbuf is None:
            if read or write:
                raise AssertionError("an SBUF access with no case loaded")
            return
        if read:
            # Lane j reads partition p + j; its row in bits 512j+511..512j.
            lanes, p, r = read
            for j in range(LANES):
                if lanes >> j & 1:
                    mask = ((1 << 512) - 1) << (512 * j)
                    self.pending = (self.pending & ~mask) | (self.sbuf.read(p + j, r) << (512 * j))
        if write:
            if not self.executing:
                self.sbuf.fault = self.sbuf.fault or "a write outside an instruction"
            elif self.reads_taken == 0:
                self.sbuf.fault = self.sbuf.fault or "a write before the instruction's first read"
            self.sbuf.write(*write)

    async def run(self, case):
        """Run one case: ('ok', cycles) or ('reject', rule number, cycles), or
        raise on a protocol fault."""
        dut = self.dut
        self.sbuf = Sbuf(sbuf_of(case))
        inst = bytes.fromhex(case["inst"])
        while not int(dut.inst_ready_o.value):
            await self.clock()
        dut.pb_i.value = self.sbuf.pb
        dut.inst_i.value = int.from_bytes(inst, "little")
        dut.inst_valid_i.value = 1
        self.executing = True
        self.reads_taken = 0
        await self.clock()
        dut.inst_valid_i.value = 0
        limit = CLOCK_LIMIT
        cycles = 1
        while not int(dut.done_o.value):
            if cycles > limit:
                raise AssertionError(f"case {case.get('id')}: no done_o in {limit} clocks")
            await self.clock()
            cycles += 1
        accepted, rule = int(dut.accepted_o.value), int(dut.rule_o.value)
        if int(dut.wr_valid_o.value):
            raise AssertionError(f"case {case.get('id')}: a write in the done_o clock")
        self.executing = False
        # The engine stays in the done clock: the next instruction is taken in it.
        if self.sbuf.fault:
            raise AssertionError(f"case {case.get('id')}: {self.sbuf.fault}")
        return accepted, rule, cycles


@cocotb.test()
async def instructions_scored_by_crosslane_exec(dut):
    path = os.environ["CROSSLANE_COCOTB_CASES"]
    with open(path) as f:
        cases = [json.loads(line) for line in f if line.strip()]
    cases = [c for c in cases if isinstance(c, dict) and "inst" in c and "sbuf" in c]
    assert cases, f"no case in {path}"
    cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
    h = Harness(dut)
    dut.rst_ni.value = 0
    dut.inst_valid_i.value = 0
    dut.inst_i.value = 0
    dut.pb_i.value = 0
    dut.rd_data_i.value = 0
    dut.rd_ready_i.value = 1
    for _ in range(4):
        await h.clock()
    dut.rst_ni.value = 1
    await h.clock()
    accepted_n = rejected_n = 0
    coverage = crosslane.Coverage()
    for case in cases:
        before = sbuf_of(case)
        coverage.sample_exec(case["inst"], before)
        ok, want = golden(case, before)
        accepted, rule, cycles = await h.run(case)
        cid = case.get("id")
        if ok:
            assert accepted, f"case {cid}: golden accepts it, the engine rejects it by rule {rule}"
            diff = np.argwhere(h.sbuf.data != want)
            assert len(diff) == 0, (
                f"case {cid}: {len(diff)} SBUF bytes differ from crosslane.exec's, the first at "
                f"partition {diff[0][0]} byte {diff[0][1]}"
            )
            accepted_n += 1
        else:
            assert not accepted, f"case {cid}: golden rejects it by {want}, the engine accepts it"
            name = crosslane.RULE_NAMES[rule - 1] if 1 <= rule <= 13 else f"(rule {rule})"
            assert name == want, f"case {cid}: the engine rejects it by {name}, golden by {want}"
            assert (h.sbuf.data == before).all(), f"case {cid}: a rejected instruction changed the SBUF"
            rejected_n += 1
        dut._log.info(f"case {cid}: {'accepted' if ok else 'rejected by ' + want} in {cycles} clocks")
    # After the last done_o: nothing may be written.
    for _ in range(32):
        await h.clock()
        assert not int(dut.wr_valid_o.value), "a write after the last instruction's done_o"
    dut._log.info(f"{accepted_n} accepted, {rejected_n} rejected, all as crosslane.exec")
    report_coverage(dut, coverage, "inst ")
    assert accepted_n >= 1, "no case was accepted"
    assert accepted_n + rejected_n == len(cases)

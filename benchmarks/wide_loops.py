"""Print how long `sysr check` takes on wide buses and on loops in fns, against narrower peers.

A benchmark, not a test: `.venv/bin/python benchmarks/wide_loops.py [--rounds N]`. Each design
is checked N times (default 3), the designs of a family alternating so that the machine's load
falls on all alike; the median of each is printed with its ratio to the family's narrowest:

- `mux`: a multiplexer of 4-bit lanes picked by `sel` out of a bus of 64 to 4,096 bits
  (VerilogEval's mux256to1v is the 1,024-bit one), its output stated for every `sel`;
- `rule90`: the rule-90 cellular automaton on 64 to 1,024 cells (VerilogEval's rule90 has
  512), every cell's next value stated bit by bit;
- `crc`: a CRC-16 step written as a loop in a fn (§4.6) against the same step unrolled by
  hand, both proven equal to the byte-wide formula.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sysr.pipeline import Options, check  # noqa: E402


def mux(bits: int) -> str:
    lanes = bits // 4
    sw = max(1, (lanes - 1).bit_length())
    aw = (bits - 1).bit_length()
    return (f"module m(bus: in u{bits}, sel: in u{sw}, y: out u4) {{\n"
            f"  y = (bus >> ((sel as u{aw}) * 4))[3:0];\n"
            f"  ensures sel == 0 ==> y == bus[3:0];\n"
            f"  ensures sel == {lanes - 1} ==> y == bus[{bits - 1}:{bits - 4}];\n}}\n")


def rule90(cells: int) -> str:
    iw = (cells - 1).bit_length()
    hw = iw - 8
    index = "{h, i}" if hw > 0 else "i"
    quant = f"forall h: u{hw} :: forall i: u8 ::" if hw > 0 else f"forall i: u{iw} ::"
    return (f"module m(clk: clock, load: in bool, data: in u{cells}, q: out reg u{cells}) {{\n"
            f"  seq {{ q <= if load then data else (q >> 1) ^ (q << 1); }}\n"
            f"  ensures prev(load) ==> q == prev(data);\n"
            f"  ensures prev(!load) ==> {quant} q[{index}] == (prev({{false, q, false}})[{index} as u{iw + 1} + 2] "
            f"^ prev({{false, q, false}})[{index}]);\n}}\n")


CRC_WIDE = """fn wide(crc: u16, data: u8) -> u16 {
  let x1 = (crc >> 8) ^ (data as u16);
  let x = x1 ^ (x1 >> 4);
  (crc << 8) ^ (x << 12) ^ (x << 5) ^ x
}
module m(c: in u16, d: in u8, y: out u16) { y = step(c, d); ensures y == wide(c, d); }
"""
CRC_LOOP = """fn step(crc_in: u16, data: u8) -> u16 {
  let mut crc = crc_in;
  for i in 0..8 {
    let feedback = crc[15] ^ data[7 - i];
    crc = crc << 1;
    if feedback { crc = crc ^ 0x1021; }
  }
  crc
}
"""


def crc_by_hand() -> str:
    lets = []
    prev = "crc"
    for i in range(8):
        lets.append(f"  let c{i} = if {prev}[15] ^ data[{7 - i}] then ({prev} << 1) ^ 0x1021 else {prev} << 1;")
        prev = f"c{i}"
    return "fn step(crc: u16, data: u8) -> u16 {\n" + "\n".join(lets) + f"\n  {prev}\n}}\n"


FAMILIES = {
    "mux": [(f"{b} bits", mux(b)) for b in (64, 256, 1024, 4096)],
    "rule90": [(f"{c} cells", rule90(c)) for c in (64, 256, 512, 1024)],
    "crc": [("unrolled by hand", crc_by_hand() + CRC_WIDE), ("loop in a fn", CRC_LOOP + CRC_WIDE)],
}


def timed(text: str) -> float:
    t0 = time.perf_counter()
    out = check(text, Options())
    if not out.accepted:
        raise SystemExit(f"rejected: {[d.message for d in out.diagnostics][:3]}\n{text}")
    return time.perf_counter() - t0


def main(argv: list[str]) -> int:
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 3
    timed(mux(8))  # warm up: imports, z3's start, the parser's tables
    for family, designs in FAMILIES.items():
        times: dict[str, list[float]] = {name: [] for name, _ in designs}
        for _ in range(rounds):
            for name, text in designs:
                times[name].append(timed(text))
        base = statistics.median(times[designs[0][0]])
        print(f"{family} (median of {rounds}):")
        for name, _ in designs:
            t = statistics.median(times[name])
            print(f"  {name:18} {t:8.3f} s   x{t / base:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""What a Yosys log says, for the judge's Yosys stages: the elaboration's findings (latches,
logic loops with their lines, conflicting drivers) and a cell's count in `stat`.
"""

from __future__ import annotations


def elaboration_findings(log: str) -> tuple[list[str], list[str], list[str]]:
    """Yosys's latch, logic-loop (with the loop's indented lines) and conflicting-driver lines."""
    latches, loops, drivers = [], [], []
    in_loop = False
    for line in log.splitlines():
        if in_loop and line[:1].isspace() and line.strip():
            loops.append(line)
            continue
        in_loop = False
        if "Latch inferred for signal" in line:
            latches.append(line.strip())
        elif "found logic loop" in line:
            loops.append(line)
            in_loop = True
        elif "multiple conflicting drivers" in line or "conflicting driver" in line:
            drivers.append(line)
    return latches, loops, drivers


def last_count(stat: str, cell: str) -> int:
    """The last count of `cell` in Yosys's `stat` output (0 if it has none)."""
    got = 0
    for line in stat.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == cell and parts[1].isdigit() and line[:1].isspace():
            got = int(parts[1])
    return got

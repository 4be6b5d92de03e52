"""Which language a task's Verilog is read as, in every stage: the one place that says how.

This project's tasks are Verilog-2005 (`iverilog -g2005`, Yosys `read_verilog`). Tasks imported
from upstream suites are SystemVerilog, read as the upstream harness reads them (`iverilog
-g2012`) and by Yosys with `read_verilog -sv`; a candidate may also call the SystemVerilog
functions that both tools evaluate alike at elaboration (`$bits`, `$countones`, `$onehot`,
`$onehot0`). It is a setting of each task (`language` in task.json), never a global switch:
the preprocessor, the guard, Yosys and Icarus all take it from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .guard import ALLOWED_SYSTEM
from .tasks import Task

SV_SYSTEM = frozenset({"$bits", "$countones", "$onehot", "$onehot0"})


@dataclass(frozen=True)
class Dialect:
    name: str
    iverilog: str  # the language generation flag of iverilog (preprocessor and compiler)
    yosys_read: str  # the Yosys command that reads design.v
    system: frozenset[str]  # the system functions a candidate may call


VERILOG_2005 = Dialect("verilog-2005", "-g2005", "read_verilog", frozenset(ALLOWED_SYSTEM))
SYSTEMVERILOG = Dialect("systemverilog", "-g2012", "read_verilog -sv", frozenset(ALLOWED_SYSTEM) | SV_SYSTEM)


def of(task: Task) -> Dialect:
    return SYSTEMVERILOG if task.systemverilog else VERILOG_2005

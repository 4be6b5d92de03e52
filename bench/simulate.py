"""The simulation stage's plumbing: the verdict's nonce, and a run in which no hidden text is readable.

The testbench's verdict lines are rewritten to carry a per-run nonce (`PASS#<nonce>`,
`FAIL#<nonce> cycle ...`), and only a line with the nonce is believed, so a design that printed
`PASS` would not be. For that to hold even if a design got a system task past the guard, the
nonce must be in nothing the simulation can read:

- iverilog compiles in one folder (`compile/`: tb.v with the nonce, design.v); vvp runs in
  another (`run/`) that holds only a named pipe, `sim`, through which the scorer streams the
  compiled program. vvp reads it to the end before time 0; after that the pipe is empty, and a
  design that opens it waits forever (the simulation then times out).
- vvp's sandbox has no `/proc` (`bench.sandbox`), so a design cannot read its own memory,
  command line or file descriptors; the compile folder, tb.v and ref.v are not in it.
- The nonce is not passed as a `+plusarg`: `$value$plusargs` would read it back. (The guard
  rejects `$value$plusargs` like every system function, but the nonce is the wall for the day
  the guard misses one, so it must not depend on the guard.)

What remains is the nonce as constant operands of the testbench's `$display` calls inside vvp's
memory, which no Verilog construct can name.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import threading
from pathlib import Path

from .detail import verdict_line

PROGRAM = "sim"


def new_nonce() -> str:
    return secrets.token_hex(8)


def nonced(tb: str, nonce: str) -> str:
    """The testbench with its verdict strings carrying the nonce."""
    return tb.replace('"PASS"', f'"PASS#{nonce}"').replace('"FAIL cycle', f'"FAIL#{nonce} cycle')


def verdict(stdout: str, nonce: str) -> str | None:
    """The first verdict the testbench printed ("PASS" or its FAIL line, cut to size), or None."""
    m = re.search(rf"^(PASS#{nonce}|FAIL#{nonce} [^\n]*)$", stdout, re.M)
    if m is None:
        return None
    return verdict_line(m.group(1).replace(f"#{nonce}", "", 1))


class ProgramPipe:
    """The named pipe `run/sim` and the thread that streams the compiled program through it.

    Use as a context manager around the vvp run; on exit the thread is released even if vvp
    never opened the pipe.
    """

    def __init__(self, program: Path, run_dir: Path) -> None:
        run_dir.mkdir(exist_ok=True)
        self.program = program
        self.fifo = run_dir / PROGRAM
        os.mkfifo(self.fifo, 0o600)
        self.thread = threading.Thread(target=self._write, daemon=True)

    def __enter__(self) -> "ProgramPipe":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.thread.is_alive():
            # vvp never opened it, or stopped reading: be its reader for a moment, so the
            # writer's open returns and its writes fail once we close.
            fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
            os.close(fd)
        self.thread.join(10)

    def _write(self) -> None:
        try:
            with open(self.fifo, "wb") as out, open(self.program, "rb") as src:
                shutil.copyfileobj(src, out, 1 << 16)
        except OSError:  # the reader went away (vvp killed or done)
            pass

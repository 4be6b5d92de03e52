"""The simulation stage's plumbing: the verdict's nonce, and a run in which no hidden text is readable.

The testbench's verdict lines are rewritten to carry a per-run nonce (`PASS#<nonce>`,
`FAIL#<nonce> cycle ...`), and only a line with the nonce is believed, so a design that printed
`PASS` would not be. For that to hold even if a design got a system task past the guard, the
nonce must be in nothing the simulation can read. The candidate's tools share one sandbox
(`bench.judge.session`), whose work folder is all of the file system a tool can see besides the
system's software (`bench.judge.sandbox`); in it:

- iverilog compiles in `compile/` (tb.v with the nonce, design.v; its temporary files go there
  too). Before vvp starts, the scorer opens the compiled program and takes `compile/` whole
  out of the work folder (a rename to beside it, outside the sandbox's view; removed later in
  the background: `ProgramPipe`); nothing in the sandbox has any of it open then (the driver
  killed every process after the compile) and nothing in it can reach the scorer's descriptors.
- vvp runs in `run/`, which holds only a named pipe, `sim`, through which the scorer streams
  the program from the descriptor it kept. vvp reads it to the end before time 0; after that
  the pipe is empty, and a design that opens it waits forever (the simulation then times out).
  The rest of the work folder holds the candidate's own files (`front/`: its text, as given,
  preprocessed and as Yosys read it; for sysr its source and lowering), never tb.v or ref.v.
- The sandbox has no `/proc` (`bench.judge.sandbox`), so a design cannot read its own memory,
  command line or file descriptors, nor any other process's.
- The nonce is not passed as a `+plusarg`: `$value$plusargs` would read it back. (The guard
  rejects `$value$plusargs` like every system function, but the nonce is the wall for the day
  the guard misses one, so it must not depend on the guard.) Nor is it in any command the
  driver is given.

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

from . import scratch
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

    Made from the compile folder, which it takes out of the work folder (tb.v with the nonce, the
    design, the program) once it holds the program open. Use as a context manager around the vvp run; on exit the
    thread is released even if vvp never opened the pipe.
    """

    def __init__(self, compile_dir: Path, run_dir: Path) -> None:
        self.program = open(compile_dir / PROGRAM, "rb")
        _remove(compile_dir)
        run_dir.mkdir(exist_ok=True)
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
        self.program.close()

    def _write(self) -> None:
        try:
            with open(self.fifo, "wb") as out:
                shutil.copyfileobj(self.program, out, 1 << 16)
        except OSError:  # the reader went away (vvp killed or done)
            pass


def _remove(folder: Path) -> None:
    """Take `folder` out of the work folder at once (a rename beside it), and remove it in the background."""
    outside = folder.parent.parent / f"{folder.parent.name}-{folder.name}-{secrets.token_hex(4)}"
    try:
        folder.rename(outside)
    except OSError:  # another file system: remove it in place, now (an error stops the scoring)
        shutil.rmtree(folder)
        return
    scratch.discard(outside)

"""The sandbox Yosys, iverilog and vvp run in: the one place that knows how a tool runs isolated.

Threat model: a candidate is hostile text written to make the scorer say PASS, to read what it
must not see (the hidden testbench and reference, the verdict's nonce, the scorer's environment
with its API keys) or to write outside its folder. The guard (`bench.guard`) keeps every system
task but `$signed`, `$unsigned` and `$clog2` out of a candidate, so a design that gets through it
cannot open a file; the sandbox is the second wall, for the day the guard misses something or a
tool has a bug a design can reach. Every tool run on candidate-derived input goes through
bubblewrap (`bwrap`, Debian package `bubblewrap`):

- Readable: the system's software (`/usr`, and `/bin`, `/sbin`, `/lib`, `/lib64`... as the host
  has them: links into `/usr` on a merged-/usr system, read-only binds otherwise; and the
  dynamic linker's cache `/etc/ld.so.cache`), the install prefix of a tool that lives elsewhere
  (a `YOSYS=/opt/yosys/bin/yosys` binds `/opt/yosys`), and the stage's own work folder at
  `/job`, holding only what that stage needs. Nothing else of `/etc`, nor `/home`, `/root`,
  `/tmp`, the project, the tasks or other candidates' folders is there.
- Writable: `/job` only. The sandbox's root and its `/dev` are remounted read-only (writing
  to `/dev/null` still works).
- New user, pid, network, IPC, UTS and cgroup namespaces; the tool runs as uid and gid 65534 with
  no capabilities (as root outside, bwrap would otherwise leave them all), and dies with the
  scorer. It has no controlling terminal to reach (`bench.run` starts it in a session of its
  own, with stdin from /dev/null), so bwrap's `--new-session` is not needed. Its environment
  is cleared and set to PATH, HOME=/job, TMPDIR=/job, LANG=C and LC_ALL=C.
- No view of the scorer: the tool is process 1 of its own pid namespace (`--as-pid-1`: no init
  of bwrap's in there), so its parent is out of sight (`/proc/<ppid>/environ` does not exist)
  and the only processes it can see or signal are its own; when it ends, they all end. (As
  process 1 it ignores signals it sends itself; faults and the scorer's SIGKILL still end it.)
  `/proc` is mounted for Yosys only (it finds its share folder through `/proc/self/exe`);
  iverilog and vvp get none, so a simulation cannot read its own command line, memory or file
  descriptors.

Fails closed: when bwrap is missing or cannot make a sandbox here, `command` raises
`SandboxUnavailable` with what is missing, and the stage is a `tool-failure` (the CLI stops
before scoring). `BENCH_UNSANDBOXED=1` runs the tools without a sandbox, for people who know
what they are trusting; it is said on stderr and recorded (`status`).

Cost: one bwrap start per tool run (four per Verilog candidate), 3 to 5 ms each on a quiet
machine and 15 to 25 ms on a loaded one; `benchmarks/score_bench.py` prints the scorer's
overhead over the bare tools with and without it.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .tools import ToolMissing, find_tool, tool_env, tool_version

WORK = "/job"  # where the stage's work folder appears inside the sandbox
OPT_OUT = "BENCH_UNSANDBOXED"
NOBODY = "65534"
_SYSTEM = ("/usr",)
_SYSTEM_TOP = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_LD_CACHE = "/etc/ld.so.cache"  # the dynamic linker's index of /usr's libraries: faster starts
PROBE_TIMEOUT_S = 20


class SandboxUnavailable(Exception):
    """No sandbox can be made: the message says what is missing and how to get it."""


@dataclass(frozen=True)
class Jail:
    """How one stage's tool is shut in (besides what every sandbox has)."""

    proc: bool = False  # mount a /proc of the sandbox's own pid namespace (Yosys needs it)


def disabled() -> bool:
    """Whether the user asked, knowingly, for tools to run without a sandbox."""
    return os.environ.get(OPT_OUT, "") == "1"


def status() -> str:
    """What isolates the tools, for records: "bubblewrap 0.8.0", or that nothing does and why."""
    if disabled():
        return f"none ({OPT_OUT}=1)"
    try:
        _bwrap()
    except SandboxUnavailable as e:
        return f"unavailable: {e}"
    return tool_version("bwrap")


def ensure() -> None:
    """Raise SandboxUnavailable unless tools can run sandboxed (or the user opted out)."""
    if disabled():
        _warn_once()
    else:
        _bwrap()


def command(argv: list[str], work: Path, jail: Jail) -> list[str]:
    """The command line that runs argv (argv[0] an absolute path) in a sandbox around `work`.

    Inside, the working directory is /job, which is `work`; argv's other words must name files
    relative to it.
    """
    if disabled():
        _warn_once()
        return list(argv)
    return [_bwrap(), *_options(argv[0], work, jail), *argv]


def _options(tool: str, work: Path, jail: Jail) -> list[str]:
    prefix = _prefix(tool)
    path = ([f"{prefix}/bin"] if prefix else []) + ["/usr/bin", "/bin"]
    args = ["--unshare-all", "--as-pid-1", "--die-with-parent", "--cap-drop", "ALL",
            "--uid", NOBODY, "--gid", NOBODY, "--hostname", "sandbox", "--clearenv",
            "--setenv", "PATH", ":".join(path), "--setenv", "HOME", WORK, "--setenv", "TMPDIR", WORK,
            "--setenv", "LANG", "C", "--setenv", "LC_ALL", "C", *_system_mounts()]
    if prefix:
        args += ["--ro-bind", prefix, prefix]
    args += ["--dev", "/dev", "--bind", str(work.resolve()), WORK, "--chdir", WORK]
    if jail.proc:
        args += ["--proc", "/proc"]
    return args + ["--remount-ro", "/dev", "--remount-ro", "/"]


@functools.cache
def _system_mounts() -> tuple[str, ...]:
    args: list[str] = []
    for p in _SYSTEM:
        args += ["--ro-bind", p, p]
    for p in _SYSTEM_TOP:
        if os.path.islink(p):
            args += ["--symlink", os.readlink(p), p]
        elif os.path.isdir(p):
            args += ["--ro-bind", p, p]
    if os.path.isfile(_LD_CACHE):
        args += ["--ro-bind", _LD_CACHE, _LD_CACHE]
    return tuple(args)


def _prefix(tool: str) -> str:
    """The install prefix to bind for a tool outside the system folders ("" when inside them)."""
    real = os.path.realpath(tool)
    if any(real.startswith(p + "/") for p in _SYSTEM + _SYSTEM_TOP):
        return ""
    return os.path.dirname(os.path.dirname(real))


@functools.cache
def _bwrap() -> str:
    """bwrap's path, once it has been seen to make a sandbox here (a probe run of `sh -c :`)."""
    try:
        bwrap = find_tool("bwrap")
    except ToolMissing as e:
        raise SandboxUnavailable(f"the tools' sandbox needs bubblewrap: {e} To run the tools without "
                                 f"a sandbox, knowingly, set {OPT_OUT}=1.") from None
    try:
        with tempfile.TemporaryDirectory(prefix="bench-probe-") as d:
            probe = [bwrap, *_options("/bin/sh", Path(d), Jail(proc=True)), "/bin/sh", "-c", ":"]
            res = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                 errors="replace", env=tool_env(), timeout=PROBE_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SandboxUnavailable(f"bubblewrap at {bwrap} could not be run ({e}). To run the tools "
                                 f"without a sandbox, knowingly, set {OPT_OUT}=1.") from None
    if res.returncode != 0:
        why = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else f"exit status {res.returncode}"
        raise SandboxUnavailable(f"bubblewrap at {bwrap} cannot make a sandbox on this machine ({why}); "
                                 "it needs user and pid namespaces. To run the tools without a sandbox, "
                                 f"knowingly, set {OPT_OUT}=1.")
    return bwrap


_warned: list[bool] = []


def _warn_once() -> None:
    if not _warned:
        _warned.append(True)
        print(f"bench: {OPT_OUT}=1: Yosys, iverilog and vvp run WITHOUT a sandbox; a candidate can "
              "read and write whatever this user can", file=sys.stderr)

"""The sandbox Yosys, iverilog and vvp run in: the one place that knows how a tool runs isolated.

Threat model: a candidate is hostile text written to make the scorer say PASS, to read what it
must not see (the hidden testbench and reference, the verdict's nonce, the scorer's environment
with its API keys) or to write outside its folder. The guard (`bench.judge.guard`) keeps every system
task but `$signed`, `$unsigned` and `$clog2` out of a candidate, so a design that gets through it
cannot open a file; the sandbox is the second wall, for the day the guard misses something or a
tool has a bug a design can reach. Every tool run on candidate-derived input goes through
bubblewrap (`bwrap`, Debian package `bubblewrap`), one sandbox per candidate, started at its
first tool run and ended with it (`bench.judge.session` runs the tools in it one after the other):

- Readable: the system's software (`/usr`, and `/bin`, `/sbin`, `/lib`, `/lib64`... as the host
  has them: links into `/usr` on a merged-/usr system, read-only binds otherwise; and the
  dynamic linker's cache `/etc/ld.so.cache`), the install prefix of a tool that lives elsewhere
  (a `YOSYS=/opt/yosys/bin/yosys` binds `/opt/yosys`), `/dev/null`, and the candidate's work
  folder at `/job`, holding only what the stage running now needs (the scorer puts each file
  there when its stage comes and removes the compile folder before the simulation starts: see
  `bench.judge.simulate`). Nothing else of `/etc`, nor `/home`, `/root`, `/tmp`, the project, the
  tasks or other candidates' folders is there.
- Writable: `/job` only. The sandbox's root is remounted read-only (`/dev/null` is a bind of the
  host's device, which stays writable as every `/dev/null` is).
- New user, pid, network, IPC, UTS and cgroup namespaces; the tools run as uid and gid 65534
  with no capabilities (as root outside, bwrap would otherwise leave them all), and die with the
  scorer. They have no controlling terminal to reach (`bench.judge.session` starts bwrap in a session
  of its own, and every tool's stdin is /dev/null), so bwrap's `--new-session` is not needed.
  The environment is cleared and set to PATH, HOME and TMPDIR (the stage's folder), LANG=C and
  LC_ALL=C.
- No `/proc`: the sandbox's `/proc` is a read-only folder holding one link, `self/exe`, to
  Yosys's binary (Yosys finds its share folder through it, and reads nothing else there). So no
  tool can read its own or another process's memory, command line, environment or file
  descriptors (a simulation reading vvp's memory would find the nonce).
- No view of the scorer: process 1 of the sandbox's pid namespace is the session's driver (a
  POSIX shell reading the scorer's commands, `bench.judge.session`), whose environment is the one
  above. The tools are its children and see no process outside; the driver ignores their
  signals (it is its namespace's init), kills every other process in the sandbox after each tool
  run (so nothing of one stage lives on into the next), and when it ends, they all end.

Fails closed: when bwrap is missing or cannot make a sandbox here, `command` raises
`SandboxUnavailable` with what is missing, and the stage is a `tool-failure` (the CLI stops
before scoring). `BENCH_UNSANDBOXED=1` runs the tools without a sandbox, for people who know
what they are trusting; it is said on stderr and recorded (`status`).

Cost: one bwrap start per candidate (about 4 ms of CPU; 10 to 20 ms of wall time on a loaded
machine), then a fork of the driver per tool run; `benchmarks/score_bench.py` prints the
scorer's overhead over the bare tools with and without the sandbox.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .tools import ToolMissing, find_tool, tool_env, tool_version

WORK = "/job"  # where the candidate's work folder appears inside the sandbox
OPT_OUT = "BENCH_UNSANDBOXED"
NOBODY = "65534"
_SYSTEM = ("/usr",)
_SYSTEM_TOP = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_LD_CACHE = "/etc/ld.so.cache"  # the dynamic linker's index of /usr's libraries: faster starts
PROBE_TIMEOUT_S = 20


class SandboxUnavailable(Exception):
    """No sandbox can be made: the message says what is missing and how to get it."""


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
        warn_once()
    else:
        _bwrap()


def command(work: Path, tools: Sequence[str] = (), yosys: str = "") -> list[str]:
    """The command line that starts a sandbox around `work` (the program to run goes after it).

    Inside, the working directory is /job, which is `work`. `tools` are the absolute paths of the
    programs that will run in it (their install prefixes are bound when outside the system
    folders); `yosys` is Yosys's binary, for the one link of the sandbox's /proc. Raises
    SandboxUnavailable when no sandbox can be made (the caller asks `disabled` first).
    """
    return [_bwrap(), *_options(work, tools, yosys)]


def _options(work: Path, tools: Sequence[str], yosys: str) -> list[str]:
    prefixes = sorted({p for p in map(prefix, tools) if p})
    path = [f"{p}/bin" for p in prefixes] + ["/usr/bin", "/bin"]
    args = ["--unshare-all", "--as-pid-1", "--die-with-parent", "--cap-drop", "ALL",
            "--uid", NOBODY, "--gid", NOBODY, "--hostname", "sandbox", "--clearenv",
            "--setenv", "PATH", ":".join(path), "--setenv", "HOME", WORK, "--setenv", "TMPDIR", WORK,
            "--setenv", "LANG", "C", "--setenv", "LC_ALL", "C", *_system_mounts()]
    for p in prefixes:
        args += ["--ro-bind", p, p]
    # Not `--dev /dev` (a tmpfs with a dozen device binds and a devpts: a third of bwrap's start).
    args += ["--dev-bind", "/dev/null", "/dev/null", "--bind", str(work.resolve()), WORK, "--chdir", WORK]
    if yosys:
        args += ["--symlink", os.path.realpath(yosys), "/proc/self/exe"]
    return args + ["--remount-ro", "/"]


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


def prefix(tool: str) -> str:
    """The install prefix to bind for a tool outside the system folders ("" when inside them).

    PREFIX for PREFIX/bin/tool; never `/` (a tool in /opt/tool binds /opt, one in /tool itself only).
    """
    real = os.path.realpath(tool)
    if any(real.startswith(p + "/") for p in _SYSTEM + _SYSTEM_TOP):
        return ""
    for candidate in (os.path.dirname(os.path.dirname(real)), os.path.dirname(real)):
        if candidate != "/":
            return candidate
    return real


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
            probe = [bwrap, *_options(Path(d), (), "/bin/sh"), "/bin/sh", "-c", ":"]
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


def warn_once() -> None:
    if not _warned:
        _warned.append(True)
        print(f"bench: {OPT_OUT}=1: Yosys, iverilog and vvp run WITHOUT a sandbox; a candidate can "
              "read and write whatever this user can", file=sys.stderr)

"""Finding the external tools bench runs (Yosys, Icarus Verilog's iverilog and vvp; bubblewrap's
bwrap, which sandboxes them, and util-linux's prlimit, which sets their limits; for the formal
cross-check yosys-smtbmc and the z3 it drives; Verilator for the lint stage): the one place they
are looked up.

Each tool is taken from its environment variable (YOSYS, IVERILOG, VVP, BWRAP, PRLIMIT,
YOSYS_SMTBMC, Z3, VERILATOR) when that is set, else from PATH (z3 also next to the running Python: the
z3-solver package installs it). Nothing else in bench should call `shutil.which` or hard-code a tool path. `tool_env` gives
the minimal environment to run the tools in, so that no API keys or other secrets reach them.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys

# Tool name -> the environment variable that may point at its binary.
ENV_VARS: dict[str, str] = {"yosys": "YOSYS", "iverilog": "IVERILOG", "vvp": "VVP", "bwrap": "BWRAP",
                            "prlimit": "PRLIMIT", "yosys-smtbmc": "YOSYS_SMTBMC", "z3": "Z3",
                            "verilator": "VERILATOR"}
# Tool name -> the Debian package that has it.
PACKAGES: dict[str, str] = {"yosys": "yosys", "iverilog": "iverilog", "vvp": "iverilog", "bwrap": "bubblewrap",
                            "prlimit": "util-linux", "yosys-smtbmc": "yosys", "z3": "z3",
                            "verilator": "verilator"}

_INSTALL_HINT = (
    "Install with `apt-get install {package}` (Debian) or `make setup`, "
    "or set {var} to the path of the {name} binary."
)

# First-line patterns of `TOOL -V` output, giving the short version string.
_VERSION_RES: dict[str, re.Pattern[str]] = {
    "yosys": re.compile(r"^(Yosys \S+)"),
    "iverilog": re.compile(r"^(Icarus Verilog version \S+(?: \([^()]*\))?)"),
    "vvp": re.compile(r"^(Icarus Verilog runtime version \S+(?: \([^()]*\))?)"),
    "bwrap": re.compile(r"^(bubblewrap \S+)"),
    "prlimit": re.compile(r"^prlimit from (util-linux \S+)"),
    "verilator": re.compile(r"^(Verilator \S+)"),
}

VERSION_TIMEOUT_S = 10


class ToolMissing(Exception):
    """An external tool could not be found; the message says where we looked and how to install it."""

    def __init__(self, name: str, reason: str | None = None) -> None:
        var = ENV_VARS.get(name, name.upper())
        if reason is None:
            path = os.environ.get("PATH", "")
            reason = f"{name} not found: {var} is not set and {name} is not on PATH ({path})."
        hint = _INSTALL_HINT.format(package=PACKAGES.get(name, name), var=var, name=name)
        super().__init__(f"{reason} {hint}")
        self.name = name


def _env_var(name: str) -> str:
    try:
        return ENV_VARS[name]
    except KeyError:
        raise ValueError(f"unknown tool {name!r}; known tools: {', '.join(sorted(ENV_VARS))}") from None


def find_tool(name: str) -> str:
    """Return the path of tool `name` (a key of ENV_VARS), or raise ToolMissing.

    The environment variable (YOSYS, IVERILOG, VVP, BWRAP, PRLIMIT) wins when set; it must name an executable file.
    Otherwise the tool is looked up on PATH.
    """
    var = _env_var(name)
    override = os.environ.get(var)
    if override:
        if os.path.isfile(override) and os.access(override, os.X_OK):
            return override
        raise ToolMissing(name, f"{var} is set to {override!r}, which is not an executable file.")
    found = shutil.which(name)
    if found is None and name == "z3":  # the z3-solver wheel puts it beside the interpreter
        beside = os.path.join(os.path.dirname(sys.executable), "z3")
        found = beside if os.access(beside, os.X_OK) else None
    if found is None:
        raise ToolMissing(name)
    return os.path.abspath(found)


@functools.cache
def tool_version(name: str) -> str:
    """Return a short version string such as "Yosys 0.23" or "Icarus Verilog version 11.0 (stable)".

    Runs `TOOL -V` (`--version` for bwrap and prlimit) once per process (cached). Returns "unknown" when the tool
    runs but its output cannot be parsed or it does not answer within 10 s; raises ToolMissing
    when it is not found.
    """
    path = find_tool(name)
    try:
        proc = subprocess.run(
            [path, "--version" if name in ("bwrap", "prlimit", "verilator") else "-V"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            env=tool_env(),
            timeout=VERSION_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return "unknown"
    except OSError as exc:
        raise ToolMissing(name, f"{name} at {path!r} could not be run ({exc}).") from exc
    for line in proc.stdout.splitlines():
        line = line.strip()
        if not line:
            continue
        m = _VERSION_RES[name].match(line)
        return m.group(1) if m else "unknown"
    return "unknown"


def tool_env() -> dict[str, str]:
    """The environment to run tools in: PATH and a C locale only, so no API keys or secrets pass through."""
    return {"PATH": os.environ.get("PATH", os.defpath), "LANG": "C", "LC_ALL": "C"}

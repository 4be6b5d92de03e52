"""The `sysr` command line: `sysr check FILE` and `sysr lower [--formal] FILE`.

Exit status: 0 accepted, 1 rejected (diagnostics printed), 2 usage, tool or internal error.
An exception that escapes the checker is a bug: it is reported as one, with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from . import __version__
from .diagnostics import Severity, render
from .pipeline import Options, check


class InternalError(Exception):
    """A failure inside sysr that is not the input's fault."""


def _read(path: str) -> str:
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    data = p.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path} is not UTF-8 text (byte {e.start})") from None


def _summary(outcome) -> str:
    errors = sum(d.severity == Severity.ERROR for d in outcome.diagnostics)
    warnings = sum(d.severity == Severity.WARNING for d in outcome.diagnostics)
    if outcome.accepted:
        if outcome.verified:
            n = len(outcome.properties)
            what = f"{n} propert{'y' if n == 1 else 'ies'} proven" if n else "no properties to prove"
            return f"accepted: {what}" + (f", {warnings} warning(s)" if warnings else "")
        return "accepted by the static checks (proofs not run)"
    return f"rejected: {errors} error(s)" + (f", {warnings} warning(s)" if warnings else "")


def cmd_check(args) -> int:
    text = _read(args.file)
    opts = Options(depth=args.depth, induction=args.induction, timeout=args.timeout,
                   verify=not args.no_verify)
    t0 = time.perf_counter()
    outcome = check(text, opts)
    outcome.timing["total_s"] = time.perf_counter() - t0
    if args.vcd:
        _write_vcd(outcome, args.vcd)
    if args.json:
        print(json.dumps({
            "file": args.file,
            "accepted": outcome.accepted,
            "verified": outcome.verified,
            "diagnostics": [d.to_json() for d in outcome.diagnostics],
            "properties": outcome.properties,
            "timing": {k: round(v, 4) for k, v in outcome.timing.items()},
            "text": _human(outcome, args.file, text),
        }, indent=2))
    else:
        print(_human(outcome, args.file, text))
    return 0 if outcome.accepted else 1


def _human(outcome, filename: str, text: str) -> str:
    """What `sysr check` prints: every diagnostic rendered, then a one-line summary."""
    parts = [render(d, filename, text) + "\n" for d in outcome.diagnostics]
    return "\n".join(parts + [f"{filename}: {_summary(outcome)}"])


def _write_vcd(outcome, path: str) -> None:
    traces = [d.trace for d in outcome.diagnostics if d.trace is not None and d.code == "V002"]
    if not traces:
        return
    from .vcd import write_vcd
    with open(path, "w") as f:
        write_vcd(traces[0], f)


def cmd_lower(args) -> int:
    from .lower import FormalUnsupported, lower_text
    text = _read(args.file)
    try:
        code, diags = lower_text(text, Path(args.file).name, formal=args.formal)
    except FormalUnsupported as e:
        print(f"sysr: error: {args.file}: {e}", file=sys.stderr)
        return 2
    if code is None:
        for d in diags:
            print(render(d, args.file, text), file=sys.stderr)
            print(file=sys.stderr)
        print(f"{args.file}: not lowered: the design has errors", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(code)
    else:
        sys.stdout.write(code)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sysr", description="Check sysr designs and lower them to Verilog.")
    p.add_argument("--version", action="version", version=f"sysr {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="parse, check and prove a design",
                       description="Parse, check and prove a design. Exit 0 accepted, 1 rejected, "
                                   "2 usage or internal error.")
    c.add_argument("file")
    c.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    c.add_argument("--depth", type=int, default=20, metavar="K",
                   help="bounded model checking depth in cycles from reset (default 20)")
    c.add_argument("--induction", type=int, default=2, metavar="K",
                   help="k for k-induction (default 2)")
    c.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="time limit per solver query in seconds (default 30)")
    c.add_argument("--vcd", metavar="FILE", help="write the first counterexample trace as a VCD file")
    c.add_argument("--no-verify", action="store_true", help="run only the static checks")
    c.set_defaults(func=cmd_check)
    lo = sub.add_parser("lower", help="lower a design to Verilog-2005",
                        description="Lower a design to Verilog-2005. Refuses designs with errors "
                                    "(static checks only; run `sysr check` for the proofs).")
    lo.add_argument("file")
    lo.add_argument("-o", "--output", metavar="OUT.v", help="write here instead of standard output")
    lo.add_argument("--formal", action="store_true",
                    help="add the properties under `ifdef FORMAL, as immediate assume/assert for "
                         "`yosys read_verilog -formal` (SymbiYosys), with the checker's semantics")
    lo.set_defaults(func=cmd_lower)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    for name in ("depth", "induction"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name} must be at least 1")
    try:
        return args.func(args)
    except (FileNotFoundError, ValueError, IsADirectoryError, PermissionError) as e:
        print(f"sysr: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `sysr check f | head`: the reader went away; not an error of ours
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 1
    except Exception:
        import traceback
        print("sysr: internal error (this is a bug in sysr, not in your design):", file=sys.stderr)
        traceback.print_exc()
        return 2


if __name__ == "__main__":
    sys.exit(main())

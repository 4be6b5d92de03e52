"""The `sysr` command line: `sysr check FILE`, `sysr lower [--formal] FILE`, `sysr sim FILE`, `sysr explain CODE`,
`sysr server start|stop|status` and `sysr lsp`.

`python -m sysr.cli` always runs the command in its own process; `python -m sysr` (`bin/sysr`)
first offers `check`, `lower` and `explain` to a running check server (`sysr.server`).

`--top NAME` picks the top module of a file with several modules (`sysr.front.check.instances`);
`--param NAME=VALUE` sets a parameter of the top module (`sysr.front.check.params`).

Exit status: 0 accepted, 1 rejected (diagnostics printed), 2 usage or internal error. Whatever
a file holds is the design's: a file too large, not UTF-8 or past any of `sysr.limits` is
rejected with its diagnostic (exit 1). A path that is not a readable file is a usage error. An
exception that escapes the checker is a bug: it is reported as one, with exit status 2. With
`--json`, standard output is one JSON object in every case (see `sysr.report`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from . import __version__, limits
from .pipeline import Options, Outcome, check
from .report import error_report, human, json_report
from .report import summary as _summary  # noqa: F401  (the tests render summaries through here)
from .source import read_design


def cmd_check(args) -> int:
    if not args.no_verify:  # z3 and its first contexts made beside the parser (`sysr.smt.contexts`)
        from .smt import contexts
        contexts.start()
    if args.solver:
        from .smt import portfolio
        portfolio.choose(args.solver)
    src = read_design(args.file)
    opts = Options(depth=args.depth, induction=args.induction, timeout=args.timeout,
                   verify=not args.no_verify, time_limit=args.time_limit, top=args.top, params=args.param,
                   cover_traces=args.cover_traces)
    t0 = time.perf_counter()
    outcome = check(src.text, opts) if src.problem is None else Outcome(None, [src.problem])
    outcome.timing["total_s"] = time.perf_counter() - t0
    if args.vcd:
        _write_vcd(outcome, args.vcd)
    if args.json:
        print(json_report(outcome, args.file, src.text))
    else:
        print(human(outcome, args.file, src.text))
    return 0 if outcome.accepted else 1


def _write_vcd(outcome, path: str) -> None:
    traces = [d.trace for d in outcome.diagnostics if d.trace is not None and d.code == "V002"]
    traces = traces or [d.trace for d in outcome.diagnostics if d.trace is not None and d.code == "V010"]
    if not traces:
        return
    from .vcd import write_vcd
    with open(path, "w") as f:
        write_vcd(traces[0], f)


def cmd_lower(args) -> int:
    from .lower import FormalUnsupported, lower_text, needed_externs
    src = read_design(args.file)
    try:
        code, diags = (lower_text(src.text, Path(args.file).name, formal=args.formal, top=args.top,
                                  params=args.param)
                       if src.problem is None else (None, [src.problem]))
    except FormalUnsupported as e:
        print(f"sysr: error: {args.file}: {e}", file=sys.stderr)
        return 2
    if code is None:
        print(human(Outcome(None, diags), args.file, src.text).rsplit("\n", 1)[0], file=sys.stderr)
        print(f"{args.file}: not lowered: the design has errors", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(code)
    else:
        sys.stdout.write(code)
    externs = needed_externs(code)
    if externs:
        print(f"{args.file}: the Verilog instantiates extern modules that sysr does not write: "
              f"{', '.join(externs)}; compile their Verilog with it", file=sys.stderr)
    return 0


def cmd_sim(args) -> int:
    from .sim import SimOptions, StimulusError, render, simulate
    from .vcd import write_vcd
    src = read_design(args.file)
    if src.problem is not None:
        print(human(Outcome(None, [src.problem]), args.file, src.text))
        return 1
    stimulus = Path(args.stimulus).read_text() if args.stimulus else None
    opts = SimOptions(cycles=args.cycles, seed=args.seed, stimulus=stimulus, reset_rate=args.reset_rate,
                      radix=args.radix, top=args.top)
    try:
        result = simulate(src.text, opts)
    except StimulusError as e:
        print(f"sysr: error: {args.stimulus}: {e}", file=sys.stderr)
        return 2
    if result.diagnostics:
        print(human(Outcome(None, result.diagnostics), args.file, src.text).rsplit("\n", 1)[0])
        print(f"{args.file}: not simulated: the design has errors")
        return 1
    if args.vcd and result.trace is not None:
        with open(args.vcd, "w") as f:
            write_vcd(result.trace, f, scope=result.module or "trace")
    print(render(result, args.file, src.text, opts))
    return 0 if result.passed else 1


def cmd_explain(args) -> int:
    from .diagnostics import CODES
    from .explain import ReferenceMissing, explain, reference_text
    unknown = [c for c in args.codes if c.upper() not in CODES]
    if unknown:
        print(f"sysr: error: unknown diagnostic code(s) {', '.join(unknown)}; codes are a letter and three "
              "digits (P parse, N names, T types, A structure, S specifications, H holes, V proofs, "
              "L limits), as in `error[T003]`", file=sys.stderr)
        return 2
    try:
        text = reference_text()
    except ReferenceMissing as e:
        print(f"sysr: error: {e}", file=sys.stderr)
        return 2
    skip: set[str] = set()
    print("\n\n".join(explain(c, text, skip) for c in args.codes))
    return 0


def cmd_server(args) -> int:
    from .server import control
    return control.command(args, run)


def cmd_lsp(args) -> int:
    from .lsp import main as serve
    return serve()


TOP_HELP = ("the top module of a file with several (default: the one no other module instantiates); "
            "every module is checked, the top and what it instantiates are lowered")


PARAM_HELP = "set a parameter of the top module (§4.8); repeat for several"


def param_value(text: str) -> tuple[str, int]:
    """`NAME=VALUE` of `--param`: a name and a decimal, hex (`0x`) or binary (`0b`) integer."""
    name, eq, value = text.partition("=")
    try:
        number = int(value.replace("_", ""), 0)
    except ValueError:
        number = None
    if not eq or not name.strip() or number is None:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE with an integer VALUE (`--param W=16`), not `{text}`")
    return name.strip().removeprefix("r#"), number


class _Params(argparse.Action):
    """Collects repeated `--param NAME=VALUE` into a dict (the last value of a name wins)."""

    def __call__(self, parser, namespace, values, option_string=None):
        params = dict(getattr(namespace, self.dest) or {})
        name, value = values
        params[name] = value
        setattr(namespace, self.dest, params)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sysr", description="Check sysr designs and lower them to Verilog.")
    p.add_argument("--version", action="version", version=f"sysr {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="parse, check and prove a design",
                       description="Parse, check and prove a design. Exit 0 accepted, 1 rejected (a "
                                   "design past the checker's limits too: L codes), 2 usage error or a "
                                   "bug in sysr.")
    c.add_argument("file")
    c.add_argument("--json", action="store_true",
                   help=f"print one JSON object (at most {limits.MAX_JSON_BYTES // 1024} KiB) instead of text")
    c.add_argument("--depth", type=int, default=20, metavar="K",
                   help="bounded model checking depth in cycles from reset (default 20)")
    c.add_argument("--induction", type=int, default=2, metavar="K",
                   help="k for k-induction (default 2)")
    c.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="time limit per solver query in seconds (default 30)")
    c.add_argument("--time-limit", type=float, default=limits.DEFAULT_TIME_LIMIT_S, metavar="S",
                   help="time limit for all the proofs together, in seconds (default "
                        f"{limits.DEFAULT_TIME_LIMIT_S:g}); what is not decided by then is V003")
    c.add_argument("--vcd", metavar="FILE",
                   help="write the first counterexample trace as a VCD file (without one, with --cover-traces, "
                        "the first cover's)")
    c.add_argument("--cover-traces", action="store_true",
                   help="print the trace that reaches each `cover` (a V010 note each)")
    c.add_argument("--no-verify", action="store_true", help="run only the static checks")
    c.add_argument("--top", metavar="NAME", help=TOP_HELP)
    c.add_argument("--param", metavar="NAME=VALUE", type=param_value, action=_Params, default={}, help=PARAM_HELP)
    c.add_argument("--solver", choices=("z3", "portfolio"), default=None,
                   help="z3 alone (the default; or SYSR_SOLVER), or Bitwuzla first for each query and z3 "
                        "for what it does not refute (needs the bitwuzla package)")
    c.set_defaults(func=cmd_check)
    lo = sub.add_parser("lower", help="lower a design to Verilog-2005",
                        description="Lower a design to Verilog-2005. Refuses designs with errors "
                                    "(static checks only; run `sysr check` for the proofs).")
    lo.add_argument("file")
    lo.add_argument("-o", "--output", metavar="OUT.v", help="write here instead of standard output")
    lo.add_argument("--top", metavar="NAME", help=TOP_HELP)
    lo.add_argument("--param", metavar="NAME=VALUE", type=param_value, action=_Params, default={}, help=PARAM_HELP)
    lo.add_argument("--formal", action="store_true",
                    help="add the properties under `ifdef FORMAL, as immediate assume/assert for "
                         "`yosys read_verilog -formal` (SymbiYosys), with the checker's semantics")
    lo.set_defaults(func=cmd_lower)
    si = sub.add_parser("sim", help="simulate a design, checking every property in every cycle",
                        description="Simulate a design from reset on sysr's evaluator: inputs from a stimulus "
                                    "file or random within the `requires`; every property is checked in every "
                                    "cycle and the run stops at the first that fails. Exit 0 when all held, 1 "
                                    "when one failed (or the design has errors), 2 on usage errors.")
    si.add_argument("file")
    si.add_argument("--stimulus", metavar="FILE",
                    help="the inputs of each cycle as a table (docs/reference.md §6.7); inputs it leaves out "
                         "or marks `*` are random")
    si.add_argument("--cycles", type=int, metavar="N",
                    help="cycles to run (default: the stimulus's rows, or 100); past the stimulus, random")
    si.add_argument("--seed", type=int, default=1, metavar="S", help="the random seed (default 1)")
    si.add_argument("--reset-rate", type=float, default=0.02, metavar="P",
                    help="how often a random reset is active, 0 to 1 (default 0.02)")
    si.add_argument("--radix", choices=("hex", "dec", "bin"), default="hex",
                    help="how vectors are printed (default hex; booleans 0/1, enums by variant)")
    si.add_argument("--vcd", metavar="FILE", help="write the whole run as a VCD file")
    si.add_argument("--top", metavar="NAME", help=TOP_HELP)
    si.set_defaults(func=cmd_sim)
    ex = sub.add_parser("explain", help="explain a diagnostic code from the reference",
                        description="Print what the reference (docs/reference.md) says about diagnostic codes: "
                                    "the code's row of the code table, its minimal examples and the sections "
                                    "it names, whole (each section once).")
    ex.add_argument("codes", nargs="+", metavar="CODE", help="a code such as T003 or V007")
    ex.set_defaults(func=cmd_explain)
    sv = sub.add_parser("server", help="start, stop or ask the check server that makes `sysr check` start at once",
                        description="A check server keeps a process that has imported sysr and z3; `sysr check`, "
                                    "`sysr lower` and `sysr explain` (as `bin/sysr` runs them) hand their command "
                                    "to it when one runs for this checkout, and a child of it runs the command on "
                                    "their terminal, with their directory, environment and limits: the same "
                                    "output and exit status, without the start-up. SYSR_SERVER=0: never use one; "
                                    "SYSR_SERVER=1: start one when none runs. See docs/reference.md §6.8.")
    sv.add_argument("action", choices=("start", "stop", "status", "run"),
                    help="start it in the background, stop it, show it (exit 1: none runs), or run it in the "
                         "foreground")
    sv.add_argument("--idle", type=float, metavar="S",
                    help="end after S seconds without a command (default 900, or SYSR_SERVER_IDLE)")
    sv.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    sv.set_defaults(func=cmd_server)
    ls = sub.add_parser("lsp", help="run the language server (for editors) on standard input and output",
                        description="Run the sysr language server: the Language Server Protocol over "
                                    "standard input and output, for an editor to start. Diagnostics as "
                                    "you type (proofs after a pause or on save), hover, go to definition. "
                                    "See README.md for VS Code and Neovim.")
    ls.add_argument("--stdio", action="store_true", help="accepted for editors that pass it (stdio is the only transport)")
    ls.set_defaults(func=cmd_lsp)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    for name in ("depth", "induction"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name} must be at least 1")
    if getattr(args, "cycles", None) is not None and not 0 <= args.cycles <= 10_000_000:
        parser.error("--cycles must be 0 to 10,000,000")
    if not 0 <= getattr(args, "reset_rate", 0) <= 1:
        parser.error("--reset-rate must be 0 to 1")
    for name in ("timeout", "time_limit"):
        if not getattr(args, name, 1.0) > 0:
            parser.error(f"--{name.replace('_', '-')} must be more than 0")
    try:
        sys.stdout.reconfigure(errors="backslashreplace")
        sys.stderr.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError):  # not a text stream (redirected by a caller in-process)
        pass
    try:
        return args.func(args)
    except (FileNotFoundError, ValueError, IsADirectoryError, PermissionError) as e:
        print(f"sysr: error: {e}", file=sys.stderr)
        _json_error(args, str(e))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `sysr check f | head`: the reader went away; not an error of ours
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 1
    except Exception as e:
        import traceback
        print("sysr: internal error (this is a bug in sysr, not in your design):", file=sys.stderr)
        traceback.print_exc()
        _json_error(args, f"internal error (a bug in sysr, not in the design): {type(e).__name__}: {e}")
        return 2


def _json_error(args, message: str) -> None:
    """With --json, standard output still gets one JSON object saying what went wrong."""
    if getattr(args, "json", False):
        try:
            print(error_report(args.file, message))
        except Exception:  # pragma: no cover - nothing more can be reported
            pass


def run() -> None:
    """`main` as a command. After `check`, the output is flushed and the process ends at once:
    tearing down the interpreter would free every z3 context and object one by one (tens of
    milliseconds, for nothing: the process is ending). Other commands end the usual way."""
    code = main()
    if sys.argv[1:2] != ["check"]:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (ValueError, OSError):  # a reader that went away, a closed stream: nothing more to say
        pass
    os._exit(code)


if __name__ == "__main__":
    run()

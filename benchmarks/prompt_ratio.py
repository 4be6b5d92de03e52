"""The first prompt of every task in sysr and in Verilog: characters, and their ratio.

A sample's first request is the system prompt plus the first message (the task's prompt and
its starting file), as `bench loop` sends it and the relay backend writes it
(`bench.loop.conversation.first_prompt_chars`). Every sysr attempt pays the sysr system prompt, so
the ratio says what the language costs a model before it has written a line. Prints a table
per task (default and `--spec-stubs` starting files), the sizes of both system prompts and of
both references, and the headroom left under the bound of 3.0 that tests/test_prompts.py
asserts for the default starting files.

    .venv/bin/python benchmarks/prompt_ratio.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.loop.conversation import MODEL_REFERENCE, first_prompt_chars, system_prompt  # noqa: E402
from bench.judge.tasks import load_tasks  # noqa: E402

BOUND = 3.0


def main() -> int:
    tasks = load_tasks()
    print(f"{'task':14} {'verilog':>8} {'sysr':>8} {'ratio':>6} {'headroom':>9}   {'spec-stub':>9} {'ratio':>6}")
    ratios, spec = [], []
    for t in tasks:
        v, s = first_prompt_chars(t, "verilog"), first_prompt_chars(t, "sysr")
        ratios.append(s / v)
        line = f"{t.name:14} {v:8,} {s:8,} {s / v:6.2f} {int(BOUND * v - s):9,}"
        if t.has_spec_stub:
            ss = first_prompt_chars(t, "sysr", spec_stubs=True)
            spec.append(ss / v)
            line += f"   {ss:9,} {ss / v:6.2f}"
        print(line)
    total_v = sum(first_prompt_chars(t, "verilog") for t in tasks)
    total_s = sum(first_prompt_chars(t, "sysr") for t in tasks)
    print(f"\nall tasks: verilog {total_v:,}, sysr {total_s:,}, ratio {total_s / total_v:.2f}; "
          f"per task {min(ratios):.2f} to {max(ratios):.2f} (bound {BOUND})"
          + (f"; with spec stubs {min(spec):.2f} to {max(spec):.2f}" if spec else ""))
    print(f"system prompts: verilog {len(system_prompt('verilog')):,}, sysr {len(system_prompt('sysr')):,} characters")
    print(f"references: docs/reference.md {len((ROOT / 'docs' / 'reference.md').read_text()):,}, "
          f"docs/model-reference.md {len(MODEL_REFERENCE.read_text()):,} characters")
    return 0 if max(ratios) <= BOUND else 1


if __name__ == "__main__":
    sys.exit(main())

"""A run's record made fit to publish in this repository (results/runs/): what `bench summary`
and `bench catch --suite` read, without the upstream suites' text and without this machine's paths.

A run of an imported suite (its run.json names a `suite`) quotes the upstream problem in the
first message of every sample; upstream problems are never committed here, so that message is
replaced by a line giving its length and sha256 (rebuild it with `bench suite import` at the
commit each task records, then `bench loop`). A reply's line that the upstream prompt holds too
(of 24 characters or more: a submodule the task gives, copied back) is replaced by a marker line
in the reply and in the code taken from it. Everything else is kept: the model's own replies and
code, every stage's verdict and detail, tokens, times. The folder paths in
`suite` and in a relay model's name are reduced to their last component. A run of the
project's own tasks is kept whole, paths aside.

    .venv/bin/python benchmarks/publish_run.py RUN... --out results/runs
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

QUOTED = "// [a line of the upstream prompt, left out of the published record]"
LEFT_OUT = ("[the task's first message, left out of the published record: it quotes the upstream "
            "problem ({chars} characters, sha256:{digest})]")


def redact(record: dict) -> dict:
    """The record to publish: a copy, the upstream prompts and machine paths taken out."""
    out = json.loads(json.dumps(record))
    imported = bool(out.get("suite"))
    if imported:
        out["suite"] = Path(out["suite"]).name
    model = out.get("model", "")
    if model.startswith("relay:"):
        out["model"] = "relay:" + Path(model[len("relay:"):]).name
    if not imported:
        return out
    for task in out.get("tasks", {}).values():
        for sample in task.get("samples", []):
            attempts = sample.get("attempts", [])
            prompt = next((a.get("feedback") or "" for a in attempts if a.get("n") == 1), "")
            quoted = {line.strip() for line in prompt.splitlines() if len(line.strip()) >= 24}
            for attempt in attempts:
                if attempt.get("n") == 1 and attempt.get("feedback"):
                    text = attempt["feedback"]
                    attempt["feedback"] = LEFT_OUT.format(
                        chars=len(text), digest=hashlib.sha256(text.encode()).hexdigest())
                for field in ("reply", "code"):
                    if attempt.get(field):
                        attempt[field] = _unquote(attempt[field], quoted)
    return out


def _unquote(text: str, quoted: set[str]) -> str:
    return "\n".join(QUOTED if line.strip() in quoted else line for line in text.split("\n"))


def publish(run: Path, out_dir: Path, name: str | None = None) -> Path:
    src = run / "run.json" if run.is_dir() else run
    try:
        record = json.loads(src.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise SystemExit(f"publish_run: cannot read {src}: {e}")
    dest = out_dir / (name or src.parent.name)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "run.json").write_text(json.dumps(redact(record), indent=1) + "\n")
    return dest / "run.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path, metavar="RUN", help="run folders of bench loop")
    ap.add_argument("--out", type=Path, required=True, help="where each run's folder goes")
    args = ap.parse_args(argv)
    for run in args.runs:
        print(publish(run, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

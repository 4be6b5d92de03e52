"""Inspect AI logs of `sysr_bench` read back as the project's run records, for `bench summary`.

One log (a `.eval` or `.json` log file) is one run: its eval's model, the task's language,
budget and spec-stub setting (from the task's metadata), `--epochs` as the samples per task,
and each Inspect sample (task x epoch) as sample `epoch` of its task with the `Attempt`
records the solver stored (`STORE_KEY`), exactly as run.json holds them; with `--seed S`,
sample k's seed is S+k-1. A sample that errored (the model failed after Inspect's retries) is
unfinished, as a sample of `bench loop` stopped by a model error is; one that an Inspect limit
(`--time-limit`, `--token-limit`...) stopped is finished and unsolved, as Inspect scores it. A
folder is every sysr_bench log in it (newest first), each its own run. Reading logs needs the
`inspect` extra; nothing else here imports it.
"""

from __future__ import annotations

from pathlib import Path

from ..loop.records import Attempt, RunRecord, Sample, TaskRun

TASK = "sysr_bench"
STORE_KEY = "bench.attempts"  # where bench.inspect_eval.task keeps a sample's attempts


def _is_log_file(path: Path) -> bool:
    if path.suffix == ".eval":
        return True
    if path.suffix != ".json" or path.name == "run.json":
        return False
    with path.open("rb") as f:  # a JSON log's "eval" header comes first; a run record starts with its schema
        head = f.read(4096).decode("utf-8", "replace")
    return '"eval"' in head and '"schema_version"' not in head


def is_inspect_log(path: Path) -> bool:
    """A log file, or a folder (no run.json in it) holding log files."""
    if path.is_dir():
        return not (path / "run.json").exists() and any(
            _is_log_file(p) for pattern in ("*.eval", "*.json") for p in path.rglob(pattern) if p.is_file())
    return path.is_file() and _is_log_file(path)


def _inspect():
    try:
        import inspect_ai.log as log
    except ImportError:
        raise ValueError("reading an Inspect log needs inspect_ai: pip install 'sysr[inspect]'") from None
    return log


def load_logs(path: Path) -> list[tuple[str, RunRecord]]:
    """(label, record) for the log file, or for every sysr_bench log in the folder."""
    log = _inspect()
    try:
        return _load(log, path)
    except (OSError, ValueError):
        raise
    except Exception as e:  # a damaged zip, an unknown log version...: what Inspect says, not a traceback
        raise ValueError(f"not a readable Inspect log ({type(e).__name__}: {e})") from None


def _load(log, path: Path) -> list[tuple[str, RunRecord]]:
    if path.is_file():
        return [(path.stem, record(log.read_eval_log(str(path))))]
    found = []
    for info in log.list_eval_logs(str(path)):
        header = log.read_eval_log(info, header_only=True)
        if header.eval.task.split("/")[-1] == TASK and "bench" in (header.eval.metadata or {}):
            found.append((Path(info.name).stem, record(log.read_eval_log(info))))
    if not found:
        raise ValueError(f"{path} has no log of {TASK}")
    return found


def record(log) -> RunRecord:
    """The run record of one EvalLog of sysr_bench."""
    ev = log.eval
    meta = (ev.metadata or {}).get("bench")
    if not meta:
        raise ValueError(f"not a log of {TASK} (task {ev.task}: no bench metadata)")
    stats = log.stats
    rec = RunRecord(model=ev.model, lang=meta["lang"], budget=meta["budget"], spec_stubs=meta["spec_stubs"],
                    tool_versions=meta.get("tool_versions", {}), commit=meta.get("commit", "unknown"),
                    started=str(stats.started_at or ev.created),
                    ended=str(stats.completed_at) if log.status == "success" and stats.completed_at else None,
                    samples=ev.config.epochs or 1, temperature=ev.model_generate_config.temperature,
                    seed=ev.model_generate_config.seed, endpoint=ev.model_base_url,
                    suite=(ev.task_args or {}).get("suite") or None)  # as given to sysr_bench
    for s in log.samples or []:
        name = str((s.metadata or {}).get("task", s.id))
        tr = rec.tasks.setdefault(name, TaskRun(task=name))
        attempts = [Attempt.model_validate(a) for a in (s.store or {}).get(STORE_KEY, [])]
        tr.samples.append(Sample(k=s.epoch, seed=None if rec.seed is None else rec.seed + s.epoch - 1,
                                 attempts=attempts, solved=bool(attempts) and attempts[-1].result == "PASS",
                                 done=s.error is None))
    for tr in rec.tasks.values():
        tr.samples.sort(key=lambda x: x.k)
        tr.done = sum(x.done for x in tr.samples) == rec.samples
    return rec


"""bench on Inspect AI, offline: `sysr_bench` run by `inspect_ai.eval` with Inspect's mock model
(`mockllm/model` with scripted outputs, the same replies `scripted:FILE` gives `bench loop`).

The loop and the scorer in both languages, every attempt in the log (store, messages, score
metadata), epochs as samples and Inspect's pass@k reducer agreeing with bench's estimator, a
tool failure left out of the metrics, a model error leaving an unfinished sample, and `bench
summary` on a log giving the same counts as on the equivalent `bench loop` run; and once, the
`inspect eval` command line against a fake OpenAI-compatible server. Logs go under tmp_path.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fake_api import FakeServer, chat_completion
from inspect_ai import Epochs, eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from bench.cli.main import main as bench_main
from bench.loop.conversation import system_prompt, task_system_prompt
from bench.report.inspect_log import STORE_KEY, is_inspect_log, load_logs
from bench.inspect_eval.task import sysr_bench
from bench.loop.runs import Loop, Run, RunSpec
from bench.loop.models import approx_tokens
from bench.loop.models import get_model as bench_model
from bench.judge.score import Limits, Scorer
from bench.judge.tasks import load_task
from bench.judge.tasks import ROOT, TaskError, load_tasks

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning")

FIXTURE = Path(__file__).parent / "fixtures" / "toy"
GOOD_V = (FIXTURE / "ref.v").read_text()
WRONG_V = GOOD_V.replace("q + 4'd1", "q + 4'd2")
GOOD_S = (FIXTURE / "ref.sysr").read_text()
PROPERTY = "ensures prev(en) ==> q == prev(q) + 1;"
CAUGHT = GOOD_S.replace("q <= q + 1", "q <= q + 2")  # a wrong design, its property refuted
FALSE_ALARM = GOOD_S.replace(PROPERTY, "ensures prev(en) ==> q == prev(q) + 2;")  # a right design, a wrong property
MISSED = CAUGHT.replace(PROPERTY, "")  # a wrong design, nothing said about it


def block(code: str, tag: str) -> str:
    return f"Here is the design.\n\n```{tag}\n{code}```\n"


@pytest.fixture(scope="module")
def suite(two_toys) -> Path:
    """Two copies of the toy counter: `toy` and `toy2`."""
    return two_toys


def mock(script: dict, raise_on: tuple[str, int] | None = None):
    """mockllm/model replying as `scripted:FILE` does with the same script (task -> per-sample replies).

    A conversation's task is in its first message and its attempt is the number of user messages;
    samples of a task take the script's samples in the order they start (the evals here run one
    sample at a time). Token counts are the scripted backend's estimates, so totals agree.
    """
    started: dict[str, int] = {}

    def output(messages, tools, tool_choice, config) -> ModelOutput:
        users = [m.text for m in messages if m.role == "user"]
        task = users[0].split()[1]
        if len(users) == 1:
            started[task] = started.get(task, 0) + 1
        k, n = started[task], len(users)
        if raise_on == (task, n):
            raise RuntimeError("the model's server went away")
        text = script[task][k - 1][n - 1]
        out = ModelOutput.from_content("mockllm/model", text)
        prompt, completion = approx_tokens("".join(m.text for m in messages)), approx_tokens(text)
        out.usage = ModelUsage(input_tokens=prompt, output_tokens=completion, total_tokens=prompt + completion)
        return out

    return get_model("mockllm/model", custom_outputs=output, memoize=False)


def run_inspect(tmp_path: Path, task, script: dict, epochs: int | Epochs = 1, **kw):
    [log] = inspect_eval(task, model=mock(script, kw.pop("raise_on", None)), epochs=epochs, max_samples=1,
                         log_dir=str(tmp_path / "logs"), display="none", **kw)
    return log


def run_bench_loop(tmp_path: Path, suite: Path, script: dict, lang: str, samples: int, budget: int,
                   names: list[str]) -> Path:
    f = tmp_path / "script.json"
    f.write_text(json.dumps(script))
    run = Run.create(tmp_path / "run", RunSpec(f"scripted:{f}", lang, budget, samples=samples))
    Loop(run, bench_model(f"scripted:{f}"), load_tasks(names, suite), Scorer(Limits(sim_s=10)),
         log=lambda m: None).go()
    return tmp_path / "run"


def summary_json(capsys, path: Path) -> list[dict]:
    capsys.readouterr()
    assert bench_main(["summary", "--json", str(path)]) == 0
    return json.loads(capsys.readouterr().out)


def comparable(run: dict) -> dict:
    """A summary without what names the run or how tokens were counted (the scripted backend estimates)."""
    drop = ("label", "model", "approximate")
    out = {k: v for k, v in run.items() if k not in drop}
    out["per_task"] = [{k: v for k, v in t.items() if k not in drop} for t in run["per_task"]]
    return out


def conversations(attempts_by_sample) -> list:
    """(task, feedback and reply of every attempt) per sample, sorted: what the model was shown and said."""
    return sorted((task, [(a["feedback"], a["reply"]) for a in atts]) for task, atts in attempts_by_sample)


def metric(log, reducer: str, key: str):
    return next(s for s in log.results.scores if s.reducer == reducer and s.name == key)


VERILOG_SCRIPT = {  # budget 2, three samples per task
    "toy": [[block(GOOD_V, "verilog")], [block(WRONG_V, "verilog"), block(GOOD_V, "verilog")],
            [block(WRONG_V, "verilog"), block(WRONG_V, "verilog")]],  # n 3, c 2, first 1
    "toy2": [["I would use a counter.", block(GOOD_V, "v")], [block(WRONG_V, "verilog")] * 2,
             [block(WRONG_V, "verilog")] * 2],  # n 3, c 1, first 0
}


def test_verilog_loop_on_inspect_matches_bench_loop(tmp_path, suite, capsys) -> None:
    task = sysr_bench(lang="verilog", suite=str(suite), budget=2)
    log = run_inspect(tmp_path, task, VERILOG_SCRIPT, epochs=Epochs(3, ["pass_at_1", "pass_at_2", "pass_at_3"]))
    assert log.status == "success"
    assert sorted((s.id, s.epoch) for s in log.samples) == [(t, e) for t in ("toy", "toy2") for e in (1, 2, 3)]
    results = sorted((s.id, [a["result"] for a in s.store[STORE_KEY]]) for s in log.samples)
    assert results == [("toy", ["PASS"]), ("toy", ["wrong-output", "PASS"]), ("toy", ["wrong-output", "wrong-output"]),
                       ("toy2", ["no-code", "PASS"]), ("toy2", ["wrong-output", "wrong-output"]),
                       ("toy2", ["wrong-output", "wrong-output"])]
    for s in log.samples:  # every attempt: in the conversation, in the store, in the score's metadata
        done = s.store[STORE_KEY]
        assert [m.role for m in s.messages] == ["system"] + ["user", "assistant"] * len(done)
        assert s.messages[0].text == system_prompt("verilog")
        assert [m.text for m in s.messages[1:]] == [t for a in done for t in (a["feedback"], a["reply"])]
        score = s.scores["bench_scorer"]
        assert [a["result"] for a in score.metadata["attempts"]] == [a["result"] for a in done]
        assert score.metadata["stages"] == done[-1]["stages"] and score.metadata["result"] == done[-1]["result"]
        assert score.value == {"solved": "C" if done[-1]["result"] == "PASS" else "I",
                               "first_attempt": "C" if done[0]["result"] == "PASS" else "I"}
        stages = {st["stage"]: st for st in done[-1]["stages"]}
        assert stages["simulate"]["tool"] == "vvp" and stages["syntax"]["tool_version"].startswith("Yosys")
    repair = next(a for s in log.samples for a in s.store[STORE_KEY] if a["n"] == 2 and s.id == "toy")
    assert "Result: wrong-output" in repair["feedback"] and "FAIL cycle" in repair["feedback"]

    run = run_bench_loop(tmp_path, suite, VERILOG_SCRIPT, "verilog", 3, 2, ["toy", "toy2"])
    record = json.loads((run / "run.json").read_text())
    assert conversations((s.id, s.store[STORE_KEY]) for s in log.samples) == conversations(
        (t, s["attempts"]) for t, tr in record["tasks"].items() for s in tr["samples"])

    [from_log] = summary_json(capsys, Path(log.location))
    [from_run] = summary_json(capsys, run)
    assert comparable(from_log) == comparable(from_run)
    assert from_log["model"] == "mockllm/model" and from_log["approximate"] is False
    per = {t["task"]: t for t in from_log["per_task"]}
    assert [(per[t]["samples"], per[t]["solved_samples"], per[t]["solved_first_samples"]) for t in ("toy", "toy2")] \
        == [(3, 2, 1), (3, 1, 0)]
    # Inspect's reducers and metrics give the same pass@k as bench's estimator
    for k in ("1", "2", "3"):
        assert metric(log, f"pass_at_{k}", "solved").metrics["accuracy"].value == pytest.approx(from_log["pass_at"][k])
        assert metric(log, f"pass_at_{k}", "first_attempt").metrics["accuracy"].value \
            == pytest.approx(from_log["pass_at_first"][k])


SYSR_SCRIPT = {"toy": [[block(CAUGHT, "sysr"), block(GOOD_S, "sysr")],
                       [block(FALSE_ALARM, "sysr"), block(MISSED, "sysr")]]}


def test_sysr_loop_records_shadow_and_checker_and_matches_bench_loop(tmp_path, suite, capsys) -> None:
    log = run_inspect(tmp_path, sysr_bench(lang="sysr", suite=str(suite), tasks="toy", budget=2), SYSR_SCRIPT,
                      epochs=2)
    assert log.status == "success" and len(log.samples) == 2
    by_first = {s.store[STORE_KEY][0]["code"]: s for s in log.samples}
    caught, false_alarm = by_first[CAUGHT], by_first[FALSE_ALARM]
    meta = caught.scores["bench_scorer"].metadata
    assert [a["result"] for a in meta["attempts"]] == ["check-failed", "PASS"]
    assert meta["checker"] == ["caught", "agreed"] and meta["attempts"][0]["shadow"]["result"] == "wrong-output"
    assert meta["attempts"][0]["stages"][0]["codes"] == ["V002"] and meta["shadow"] is None
    meta = false_alarm.scores["bench_scorer"].metadata
    assert meta["checker"] == ["false_alarm", "missed"] and meta["attempts"][0]["shadow"]["result"] == "PASS"
    assert false_alarm.scores["bench_scorer"].value == {"solved": "I", "first_attempt": "I"}
    repair = caught.store[STORE_KEY][1]["feedback"]
    assert "V002" in repair and "FAIL" not in repair  # the model never sees the shadow
    toy = load_task(suite / "toy")
    assert caught.messages[0].text == task_system_prompt(toy, "sysr") and "stub.sysr" in caught.messages[1].text

    run = run_bench_loop(tmp_path, suite, SYSR_SCRIPT, "sysr", 2, 2, ["toy"])
    [from_log], [from_run] = summary_json(capsys, Path(log.location)), summary_json(capsys, run)
    assert comparable(from_log) == comparable(from_run)
    assert from_log["checker"] == {"caught": 1, "false_alarm": 1, "missed": 1, "agreed": 1, "static_rejected": 0,
                                   "unjudged": 0}


def test_a_tool_failure_is_left_out_of_the_metrics(tmp_path, suite, monkeypatch, capsys) -> None:
    broken = tmp_path / "vvp"
    broken.write_text("not a program")  # not executable: the simulator cannot run
    monkeypatch.setenv("VVP", str(broken))
    script = {"toy": [[block("module toy(input clk;\nendmodule\n", "verilog")]],  # fails in Yosys: a verdict
              "toy2": [[block(GOOD_V, "verilog")]]}  # reaches the simulator, which does not run: no verdict
    log = run_inspect(tmp_path, sysr_bench(lang="verilog", suite=str(suite), budget=1), script)
    scores = {s.id: s.scores["bench_scorer"] for s in log.samples}
    assert scores["toy"].value == {"solved": "I", "first_attempt": "I"}
    assert scores["toy"].metadata["result"] == "syntax"
    assert math.isnan(scores["toy2"].value) and scores["toy2"].reason == "scoring_failed"
    assert scores["toy2"].metadata["result"] == "tool-failure" and "VVP" in scores["toy2"].explanation
    solved = metric(log, "pass_at_1", "solved")
    assert (solved.scored_samples, solved.unscored_samples, solved.metrics["accuracy"].value) == (1, 1, 0.0)
    [s] = summary_json(capsys, Path(log.location))
    assert (s["samples"], s["tool_failed_samples"], s["pass_at"]) == (1, 1, {"1": 0.0})


def test_a_model_error_leaves_the_sample_unfinished_with_its_attempts(tmp_path, suite, capsys) -> None:
    script = {"toy": [[block(WRONG_V, "verilog"), block(GOOD_V, "verilog")]]}
    log = run_inspect(tmp_path, sysr_bench(lang="verilog", suite=str(suite), tasks="toy", budget=2), script,
                      raise_on=("toy", 2), fail_on_error=False)
    [sample] = log.samples
    assert sample.error is not None and "went away" in sample.error.message and not sample.scores
    assert [a["result"] for a in sample.store[STORE_KEY]] == ["wrong-output"]
    [s] = summary_json(capsys, Path(log.location))
    assert (s["samples"], s["unfinished_samples"], s["attempts"], s["pass_at"]) == (0, 1, 1, None)


def test_inspect_eval_command_line_against_an_openai_compatible_server(tmp_path, suite, capsys) -> None:
    """The README's command, `inspect eval bench/inspect_eval/task.py@sysr_bench -T ... --epochs 2`, with a
    fake OpenAI-compatible server (real HTTP): exact token counts from the server's usage, cache
    reads included; a relative suite taken from where the command was started; a JSON log."""
    shutil.copytree(suite, tmp_path / "mine")

    def respond(path: str, body: dict):
        n = sum(m["role"] == "user" for m in body["messages"])
        text = block(WRONG_V if n == 1 else GOOD_V, "verilog")
        return 200, chat_completion(body["model"], text, 1000 * n, 40 + n, 800 * (n - 1)), {}

    with FakeServer(respond) as srv:
        env = {**os.environ, "FAKE_API_KEY": "none", "FAKE_BASE_URL": f"{srv.url}/v1", "PWD": str(tmp_path)}
        done = subprocess.run(
            [str(Path(sys.executable).parent / "inspect"), "eval", f"{ROOT}/bench/inspect_eval/task.py@sysr_bench",
             "-T", "lang=verilog", "-T", "suite=mine", "-T", "tasks=toy", "-T", "budget=2",
             "--model", "openai-api/fake/tiny-coder", "--epochs", "2", "--epochs-reducer", "pass_at_1,pass_at_2",
             "--temperature", "0.5", "--seed", "7", "--log-dir", "logs", "--log-format", "json",
             "--display", "none"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        bodies = srv.bodies()
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(bodies) == 4 and all(b["temperature"] == 0.5 and b["model"] == "tiny-coder" for b in bodies)
    assert sorted(b["seed"] for b in bodies) == [7, 7, 8, 8]  # epoch k is sent seed 7+k-1
    assert all(b["messages"][0] == {"role": "system", "content": system_prompt("verilog")} for b in bodies)
    [log_file] = (tmp_path / "logs").glob("*.json")
    assert is_inspect_log(log_file) and is_inspect_log(tmp_path / "logs")
    [(label, rec)] = load_logs(tmp_path / "logs")
    assert label == log_file.stem and (rec.model, rec.lang, rec.budget, rec.samples) == \
        ("openai-api/fake/tiny-coder", "verilog", 2, 2)
    assert rec.tool_versions["yosys"].startswith("Yosys") and rec.temperature == 0.5 and rec.seed == 7
    assert [s.seed for s in rec.tasks["toy"].samples] == [7, 8]
    assert rec.suite == "mine"  # as given to sysr_bench, so that `bench catch` finds the tasks
    [s] = summary_json(capsys, log_file)
    assert s["cost_provider"] == "openai" and s["cost"] == (6000 - 1600) + 0.5 * 1600 + 4 * (4 * 40 + 6)
    assert (s["samples"], s["solved_samples"], s["solved_first_samples"], s["attempts"]) == (2, 2, 0, 4)
    assert (s["tokens_in"], s["tokens_out"], s["tokens_cached"], s["approximate"]) == (6000, 4 * 40 + 6, 1600, False)
    assert s["pass_at"] == {"1": 1.0, "2": 1.0} and s["pass_at_first"] == {"1": 0.0, "2": 0.0}
    capsys.readouterr()
    assert bench_main(["summary", str(tmp_path / "logs")]) == 0
    assert "samples solved (c)" in capsys.readouterr().out


def test_task_arguments_are_checked(suite) -> None:
    with pytest.raises(ValueError, match="lang must be sysr or verilog"):
        sysr_bench(lang="vhdl", suite=str(suite))
    with pytest.raises(ValueError, match="budget must be at least 1"):
        sysr_bench(budget=0, suite=str(suite))
    with pytest.raises(ValueError, match="score_jobs must be at least 1"):
        sysr_bench(score_jobs=0, suite=str(suite))
    with pytest.raises(ValueError, match="not a folder"):
        sysr_bench(suite="no/such/suite")
    with pytest.raises(TaskError, match="unknown task.*known: toy, toy2"):
        sysr_bench(suite=str(suite), tasks=["toy", "nope"])
    task = sysr_bench(lang="verilog", suite=str(suite), tasks="toy2, toy", spec_stubs=True)
    assert [s.id for s in task.dataset] == ["toy2", "toy"] and "iface.v" in task.dataset[0].input


def test_summary_refuses_what_is_not_a_bench_log(tmp_path, monkeypatch, capsys) -> None:
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"version": 2, "status": "success", "eval": {"task": "x"}}))
    assert bench_main(["summary", str(other)]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert bench_main(["summary", str(tmp_path / "empty")]) == 2  # neither a run folder nor a log folder
    assert "run.json" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)  # as if the inspect extra were not installed
    (tmp_path / "a.eval").write_bytes(b"")
    assert bench_main(["summary", str(tmp_path / "a.eval")]) == 2
    assert "pip install 'sysr[inspect]'" in capsys.readouterr().err

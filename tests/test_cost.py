"""Cost as a user pays it (bench/report/cost.py): `bench summary` weighs cache reads, cache writes
and output tokens per provider, in units of an uncached input token, and `--json` carries the
cost with the weights it used; `--weights FILE` replaces the defaults."""

from __future__ import annotations

import json

import pytest

from bench.cli.main import main as bench_main
from bench.loop.records import Attempt, RunRecord, Sample, TaskRun
from bench.report.cost import WEIGHTS, Weights, cost, provider
from bench.report.summary import counts, render


def _attempt(n: int, tin: int, tout: int, read: int = 0, write: int = 0, approx: bool = False) -> Attempt:
    return Attempt(n=n, feedback="", reply="", code=None, result="no-code", detail="", tokens_in=tin, tokens_out=tout,
                   tokens_cached=read, tokens_cache_write=write, tokens_approximate=approx, model_s=0, score_s=0)


def _record(model: str, attempts: list[Attempt]) -> RunRecord:
    return RunRecord(model=model, lang="sysr", budget=len(attempts), spec_stubs=False, tool_versions={}, commit="x",
                     started="now", tasks={"t": TaskRun(task="t", samples=[Sample(k=1, attempts=attempts, done=True)])})


def test_the_arithmetic():
    # 1,000 prompt tokens written to the cache, then read twice; 100 + 50 + 50 uncached; 300 out
    rec = _record("anthropic:claude-x", [_attempt(1, 1100, 100, write=1000), _attempt(2, 1050, 100, read=1000),
                                          _attempt(3, 1050, 100, read=1000)])
    c = counts(rec, "run")
    assert (c.tokens_in, c.tokens_cached, c.tokens_cache_write, c.tokens_out) == (3200, 2000, 1000, 300)
    assert c.cost == pytest.approx(200 + 0.1 * 2000 + 1.25 * 1000 + 5 * 300) == 3150
    assert c.cost_provider == "anthropic" and c.cost_weights == WEIGHTS["anthropic"]
    # the same requests without a cache pay every prompt token in full
    plain = counts(_record("anthropic:claude-x", [_attempt(1, 1100, 100), _attempt(2, 1050, 100),
                                                  _attempt(3, 1050, 100)]), "plain")
    assert plain.cost == 3200 + 5 * 300
    assert "cost, in uncached input tokens" in render([c, plain]) and "3,150 (anthropic: reads 0.1" in render([c])


def test_each_backend_takes_its_providers_weights():
    assert provider("openai:gpt-x", WEIGHTS) == "openai" and provider("anthropic:claude", WEIGHTS) == "anthropic"
    assert provider("relay:/runs/x", WEIGHTS) == "default" and provider("scripted:f.json", WEIGHTS) == "default"
    assert provider("openai/gpt-x", WEIGHTS) == "openai"  # an Inspect model name
    assert provider("openai-api/fake/tiny", WEIGHTS) == "openai" and provider("mockllm/model", WEIGHTS) == "default"
    assert cost(100, 10, 60, 0, Weights(cache_read=0.5, cache_write=1, output=4)) == 40 + 30 + 40


def test_summary_json_carries_the_cost_and_its_weights(tmp_path, capsys):
    rec = _record("openai:gpt-x", [_attempt(1, 1000, 10, read=800)])
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.json").write_text(rec.model_dump_json())
    assert bench_main(["summary", "--json", str(tmp_path / "run")]) == 0
    got = json.loads(capsys.readouterr().out)[0]
    assert got["cost"] == 200 + 0.5 * 800 + 4 * 10 and got["cost_provider"] == "openai"
    assert got["cost_weights"] == {"cache_read": 0.5, "cache_write": 1.0, "output": 4.0}
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({"openai": {"cache_read": 0.25, "cache_write": 1, "output": 8}}))
    assert bench_main(["summary", "--json", "--weights", str(weights), str(tmp_path / "run")]) == 0
    got = json.loads(capsys.readouterr().out)[0]
    assert got["cost"] == 200 + 0.25 * 800 + 8 * 10 and got["cost_weights"]["output"] == 8
    weights.write_text(json.dumps({"openai": {"cache_read": 0.25}}))
    assert bench_main(["summary", "--weights", str(weights), str(tmp_path / "run")]) == 2
    assert "--weights" in capsys.readouterr().err

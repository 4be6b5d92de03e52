"""Round 2 of the attacks on the scorer (issue 24), each scored through the real scorer with its
expected result (tests/attacks/round2.toml), and the loop's own process fed hostile replies and
responses.

For every attack, as in round 1 (tests/test_attacks.py): no PASS, no tool-failure, no detail
holding text of the hidden files or anything an attack lists in `not_in_detail`. Besides: the
constructs the two tools read alike still pass; a verdict counts its samples; the reply extractor
is linear; a malformed model response is a model error, never a traceback; a huge candidate file
is never read.
"""

from __future__ import annotations

import json
import shutil
import time
import tomllib
import tracemalloc
from pathlib import Path

import pytest
from fake_api import FakeServer, anthropic_message, chat_completion

from bench.cli.main import _candidate
from bench.judge import agree
from bench.judge.agree import Reading, check, disagreement
from bench.judge.detail import sim_output
from bench.judge.guard import CANDIDATE_LIMIT
from bench.judge.score import Failed, Limits, Scorer
from bench.judge.tasks import ROOT, load_tasks
from bench.loop.extract import extract_code
from bench.loop.models import Message, ModelError, get_model
from bench.loop.models.anthropic_backend import AnthropicModel
from bench.loop.models.openai_backend import OpenAIModel
from bench.loop.runs import Loop, Run, RunSpec

HERE = Path(__file__).parent
ATTACKS = HERE / "attacks"
TABLE = tomllib.loads((ATTACKS / "round2.toml").read_text())["attack"]
FIXTURES = ("toy", "calls", "mm", "hint")


@pytest.fixture(scope="module")
def tasks(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    for name in FIXTURES:
        shutil.copytree(HERE / "fixtures" / name, root / name)
    shutil.copytree(ROOT / "tasks" / "sync-ram", root / "sync-ram")
    return {t.name: t for t in load_tasks([*FIXTURES, "sync-ram"], root)}


def hidden_lines(task) -> list[str]:
    lines = []
    for name in ("tb.v", "ref.v"):
        lines += [line.strip() for line in task.text(name).splitlines() if len(line.strip()) > 24]
    return lines


def judged(scorer: Scorer, task, source: str, via: str, tmp_path: Path) -> tuple[str, list]:
    if via == "simulate":
        work = tmp_path / "work"
        work.mkdir()
        try:
            scorer.simulate(task, work, source)
            return "PASS", []
        except Failed as f:
            return f.stage.verdict, [f.stage]
    r = scorer.score(task, "verilog", source)
    return r.result, r.stages


@pytest.mark.parametrize("attack", TABLE, ids=[f"{a['name']}-{a['task']}" for a in TABLE])
def test_attack(attack, tasks, tmp_path) -> None:
    task = tasks[attack["task"]]
    source = (ATTACKS / attack["name"]).read_text().replace("@REF@", str(task.path("ref.v")))
    tracemalloc.start()
    try:
        result, stages = judged(Scorer(Limits(sim_s=20)), task, source, attack.get("via", "score"), tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    details = "\n".join(s.detail for s in stages)
    assert result == attack["result"], (result, details[:2000])
    for line in hidden_lines(task):
        assert line not in details, f"hidden text in a detail: {line!r}"
    for text in attack.get("not_in_detail", []):
        assert text not in details, f"{text!r} in the detail: {details}"
    assert peak < 32 * 1024**2, f"the scorer held {peak} bytes"


def test_forbidden_details_name_the_construct_and_its_line(tasks) -> None:
    scorer = Scorer(Limits(sim_s=20))
    want = {"r2-gen-signed-latch.v": "`'sh8000_0000`", "r2-gen-xz-latch.v": "`4'bx1x0`",
            "r2-fill-latch.v": "`'1`", "r2-delay-fraction.v": "`#1.5`", "r2-delay-zero.v": "`#0`",
            "r2-div-truth-latch.v": "divides"}
    for name, construct in want.items():
        r = scorer.score(tasks["toy"], "verilog", (ATTACKS / name).read_text())
        assert r.result == "forbidden" and construct in r.detail and r.detail.startswith("line "), (name, r.detail)
    r = scorer.score(tasks["mm"], "verilog", (ATTACKS / "r2-escaped-finish.v").read_text())
    assert r.result == "forbidden" and "`\\$finish`" in r.detail, r.detail


@pytest.mark.parametrize("source", [
    "module t(input clk, output reg [3:0] q); always @(posedge clk) q <= '1; endmodule",
    "module t(input [3:0] s, output reg q); always @* casez (s) 4'b1???: q = 1; default: q = 1'bx; endcase endmodule",
    "module t #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y); generate if (W % 2 == 0) begin : e "
    "assign y = a; end else begin : o assign y = ~a; end endgenerate endmodule",
    "module t(input a, output y); sub #(.W(1)) u(.a(a), .y(y)); endmodule",
    "module t(input [3:0] a, output y); assign y = (a / 4'd2) != 0 ? 1'b1 : 1'bz; endmodule",
    "module t(input [7:0] a, output [7:0] y); assign y = a < 32'sh8000_0000 ? {8{1'bx}} : '0; endmodule",
])
def test_what_both_tools_read_alike_is_not_refused(source) -> None:
    assert disagreement(source, systemverilog=False) is None
    assert disagreement(source, systemverilog=True) is None


def test_a_design_the_parse_cannot_read_whole_is_refused_if_yosys_reads_it(tasks, monkeypatch) -> None:
    """A syntax error stays `syntax` (Yosys's message); a design Yosys reads but pyslang does not
    read whole (so agree checked it in part) is refused after the syntax stage."""
    assert check("module m(input a, output y);\n  assign y = a +;\nendmodule\n", False) == \
        Reading(None, "line 2: expected expression")
    toy = tasks["toy"]
    broken = toy.text("ref.v").replace("endmodule", "  wire w = en +;\nendmodule")
    assert Scorer(Limits(sim_s=10)).score(toy, "verilog", broken).result == "syntax"
    monkeypatch.setattr(agree, "check", lambda text, sv: Reading(None, "line 3: as if pyslang could not"))
    r = Scorer(Limits(sim_s=10)).score(toy, "verilog", toy.text("ref.v"))
    assert r.result == "forbidden" and r.detail.startswith("line 3: as if pyslang could not")
    assert [s.stage for s in r.stages][-2:] == ["elaborate", "guard"]


def test_simulation_messages_name_no_testbench_scope() -> None:
    said = "WARNING: design.v:3: a warning of the design's\nVCD info: dumping tb.dut.q\nERROR: tb.v:12: the testbench's\n"
    assert sim_output(said) == "WARNING: design.v:3: a warning of the design's"


def test_verdicts_count_their_samples(tasks) -> None:
    """The fixtures' references pass, and so does another correct design (the same count); the
    reference's count is recorded from its own run."""
    scorer = Scorer(Limits(sim_s=20))
    other = "module TopModule(input clk, input [3:0] a, output [3:0] y);\n  assign y = {a[3:1], ~a[0]} ^ 4'd4;\nendmodule\n"
    for name in ("mm", "hint"):
        assert scorer.score(tasks[name], "verilog", other).result == "PASS"
        assert scorer.score(tasks[name], "verilog", tasks[name].text("ref.v")).result == "PASS"
    for name in ("calls", "toy"):
        assert scorer.score(tasks[name], "verilog", tasks[name].text("ref.v")).result == "PASS"


def test_early_finish_names_both_counts(tasks, tmp_path) -> None:
    source = (ATTACKS / "r2-early-finish.v").read_text()
    result, stages = judged(Scorer(Limits(sim_s=20)), tasks["mm"], source, "simulate", tmp_path)
    assert result == "wrong-output"
    assert "1 samples" in stages[-1].detail and "20" in stages[-1].detail, stages[-1].detail


def test_extractor_is_linear() -> None:
    unclosed = "```verilog\n" * 75_000
    long_reply = ("text " * 20 + "\n```\n") * 4_000 + "```verilog\nmodule m; endmodule\n```\n"
    for reply, want in ((unclosed, None), (long_reply, "module m; endmodule\n")):
        t0 = time.perf_counter()
        got = extract_code(reply, "verilog")
        assert time.perf_counter() - t0 < 5, "the extractor took seconds (the old regex took minutes)"
        if want is not None:
            assert got == want


def test_extractor_keeps_its_rules() -> None:
    assert extract_code("a\n```verilog\nA\n```\nb\n```sv\nB\n```\n", "verilog") == "B\n"
    assert extract_code("```\nshort\n```\n```python\nmuch longer\n```\n", "verilog") == "much longer\n"
    assert extract_code("````verilog\nA\n```\ninner\n````\n", "verilog") == "A\n```\ninner\n"
    assert extract_code("~~~sysr\nS\n~~~\n", "sysr") == "S\n"
    assert extract_code("```verilog\nnever closed\n", "verilog") is None


MSGS = [Message("user", "write it")]


def _openai_answer(srv_payload, monkeypatch) -> Exception:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with FakeServer(lambda path, body: (200, srv_payload, {})) as srv:
        model = OpenAIModel("tiny-coder", base_url=f"{srv.url}/v1", tries=1, base_s=0.01)
        with pytest.raises(ModelError) as e:
            model.complete("SYSTEM", MSGS, "toy", 1)
    return e.value


@pytest.mark.parametrize("change, words", [
    (lambda p: p["choices"][0]["message"].__setitem__("content", [{"type": "text", "text": "x"}]), "content"),
    (lambda p: p["choices"][0]["message"].__setitem__("content", 42), "content"),
    (lambda p: p["usage"].__setitem__("prompt_tokens", "lots"), "prompt_tokens"),
    (lambda p: p["usage"].__setitem__("completion_tokens", None), "completion_tokens"),
    (lambda p: p["usage"].__setitem__("completion_tokens", -5), "completion_tokens"),
])
def test_malformed_openai_response_is_a_model_error(change, words, monkeypatch) -> None:
    payload = chat_completion("tiny-coder", "```verilog\nmodule m; endmodule\n```", 10, 5)
    change(payload)
    err = _openai_answer(payload, monkeypatch)
    assert words in str(err) and "malformed" in str(err)


@pytest.mark.parametrize("usage, content, words", [
    ({"input_tokens": "34", "output_tokens": 5}, None, "input_tokens"),
    ({"input_tokens": 34, "output_tokens": None}, None, "output_tokens"),
    ({"input_tokens": 34, "output_tokens": 5}, [{"type": "text", "text": 7}], "text"),
])
def test_malformed_anthropic_response_is_a_model_error(usage, content, words, monkeypatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    payload = anthropic_message("claude-test", "```verilog\nmodule m; endmodule\n```", usage)
    if content is not None:
        payload["content"] = content
    with FakeServer(lambda path, body: (200, payload, {})) as srv:
        model = AnthropicModel("claude-test", base_url=srv.url, tries=1, base_s=0.01)
        with pytest.raises(ModelError) as e:
            model.complete("SYSTEM", MSGS, "toy", 1)
    assert words in str(e.value) and "malformed" in str(e.value)


@pytest.mark.parametrize("reply", [42, None, [1, 2], {"text": "x"}])
def test_scripted_reply_that_is_not_text_is_a_recorded_model_error(reply, tasks, tmp_path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"toy": [reply]}))
    model = get_model(f"scripted:{script}")
    with pytest.raises(ModelError) as e:
        model.complete("SYSTEM", MSGS, "toy", 1)
    assert "not text" in str(e.value)
    run = Run.create(tmp_path / "run", RunSpec(model=f"scripted:{script}", lang="verilog", budget=1))
    with pytest.raises(Exception) as stopped:
        Loop(run, model, [tasks["toy"]], Scorer(Limits(sim_s=10)), log=lambda m: None).go()
    assert "not text" in str(stopped.value) and "Traceback" not in str(stopped.value)
    assert (tmp_path / "run" / "run.json").is_file()


def test_huge_candidate_file_is_not_read(tasks, tmp_path) -> None:
    """A 1.5 GB sparse candidate: its size is checked before it is read."""
    folder = tmp_path / "candidates"
    folder.mkdir()
    with open(folder / "toy.v", "wb") as f:
        f.truncate(1536 * 1024**2)
    tracemalloc.start()
    try:
        source = _candidate(tasks["toy"], "verilog", folder)
        result = Scorer(Limits(sim_s=10)).score(tasks["toy"], "verilog", source)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.result == "too-large" and "1610612736 bytes" in result.detail, result.detail
    assert peak < 8 * CANDIDATE_LIMIT

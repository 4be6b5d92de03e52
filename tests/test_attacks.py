"""Every attack on the scorer from issue 11, scored through the real scorer with its expected result
(tests/attacks/expected.toml), and the loop fed a hostile reply.

For every attack, besides its result: no PASS, no tool-failure, no detail holding text of the
hidden files (tb.v, ref.v) or anything of an environment; attacks that write outside their folder
leave nothing there; a flooding simulation leaves the scorer's memory bounded; the guard is fast
on the input that made the old one quadratic.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import tomllib
import tracemalloc
from pathlib import Path

import pytest

from bench.loop.runs import Loop, Run, RunSpec
from bench.loop.models import get_model
from bench.judge.score import Failed, Limits, Scorer
from bench.judge.tasks import ROOT, load_tasks

HERE = Path(__file__).parent
ATTACKS = HERE / "attacks"
TABLE = tomllib.loads((ATTACKS / "expected.toml").read_text())["attack"]
TOY_HEADER = "module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);"
SYSR_HEADER = "module toy(clk: clock, rst: reset, en: in bool, q: out reg u4 = 0) {"
SYSR_BODY = "  seq { if en { q <= q + 1; } }"


def generated(kind: str) -> str:
    """The attacks whose originals are megabytes, made small where size is not the point."""
    if kind == "quadratic":  # 1 MB of `\"` pairs: the old guard's string regex was quadratic on it
        pairs = '\\"' * 499_900
        return f"{TOY_HEADER}\n  {pairs}\nendmodule\n"
    if kind == "too-large":
        return f"{TOY_HEADER}\n" + "  // padding\n" * 90_000 + "endmodule\n"
    if kind == "macro-bomb":  # each macro twice the one before: 2^24 words from 30 lines
        defs = "`define M0 wire_name\n" + "".join(f"`define M{i} `M{i - 1} `M{i - 1}\n" for i in range(1, 25))
        return f"{defs}{TOY_HEADER}\n  `M24\nendmodule\n"
    if kind == "yosys-xor":  # a 20,000-term XOR keeps Yosys's AST simplifier busy for minutes
        terms = " ^ ".join("en" if i % 2 else "rst" for i in range(20_000))
        return (f"{TOY_HEADER}\n  wire x = {terms};\n"
                "  always @(posedge clk) if (rst) q <= 4'd0; else if (x) q <= q + 4'd1;\nendmodule\n")
    if kind == "sysr-deep":  # 1,000 chained operators: past the checker's nesting limit (L003)
        return f"{SYSR_HEADER}\n  seq {{ if en {{ q <= q{' + 1' * 1000}; }} }}\n}}\n"
    if kind == "sysr-bigint":  # a 5,000-digit literal: past int()'s digit limit
        return f"{SYSR_HEADER}\n  seq {{ if en {{ q <= q + {'1' * 5000}; }} }}\n}}\n"
    if kind == "sysr-report":  # 3,000 undriven wires: a JSON report of about 1.6 MB
        return SYSR_HEADER + "\n" + "".join(f"  wire w{i}: u4;\n" for i in range(3000)) + SYSR_BODY + "\n}\n"
    if kind == "sysr-quantifiers":  # four nested quantifiers over u8: 2^32 cases to expand
        return (f"{SYSR_HEADER}\n{SYSR_BODY}\n  ensures forall a: u8 :: forall b: u8 :: forall c: u8 :: "
                "forall d: u8 :: (a ^ b ^ c ^ d) != 0 || q == q;\n}\n")
    raise KeyError(kind)


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(HERE / "fixtures" / "toy", root / "toy")
    shutil.copytree(ROOT / "tasks" / "counter", root / "counter")
    return root


@pytest.fixture(scope="module")
def tasks(tasks_dir):
    return {t.name: t for t in load_tasks(["toy", "counter"], tasks_dir)}


def source_of(attack: dict, task, outside: Path) -> str:
    name = attack["name"]
    if name.startswith("generated:"):
        return generated(name.split(":", 1)[1])
    text = (ATTACKS / name).read_text()
    return (text.replace("@REF@", str(task.path("ref.v"))).replace("@PID@", str(os.getpid()))
            .replace("@OUTSIDE@", str(outside)))


def hidden_lines(task) -> list[str]:
    """Distinctive lines of the hidden files, which no detail may hold."""
    lines = []
    for name in ("tb.v", "ref.v"):
        lines += [line.strip() for line in task.text(name).splitlines() if len(line.strip()) > 24]
    return lines


@pytest.mark.parametrize("attack", TABLE, ids=[a["name"] for a in TABLE])
def test_attack(attack, tasks, tmp_path) -> None:
    task = tasks[attack["task"]]
    limits = Limits(sim_s=10, tool_s=attack.get("tool_s", 60), check_s=attack.get("check_s", 60))
    scorer = Scorer(limits)
    outside = tmp_path / "outside"
    outside.mkdir()
    source = source_of(attack, task, outside)
    t0 = time.perf_counter()
    tracemalloc.start()
    try:
        if attack.get("via") == "simulate":
            work = tmp_path / "work"
            work.mkdir()
            try:
                scorer.simulate(task, work, source)
                result, stages = "PASS", []
            except Failed as f:
                result, stages = f.stage.verdict, [f.stage]
        else:
            r = scorer.score(task, attack.get("lang", "verilog"), source)
            result, stages = r.result, r.stages
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    spent = time.perf_counter() - t0
    expected = attack.get("results") or [attack["result"]]
    details = "\n".join(s.detail for s in stages)
    assert result in expected, (result, details[:2000])
    assert result not in ("PASS", "tool-failure")
    for line in hidden_lines(task):
        assert line not in details, f"hidden text in a detail: {line!r}"
    assert "PATH=" not in details and "HOME=" not in details
    assert not any(outside.iterdir()), "the candidate wrote outside its work folder"
    assert peak < 32 * 1024**2, f"the scorer held {peak} bytes"
    if attack["name"] == "generated:quadratic":
        assert spent < 60, f"the guard took {spent:.0f} s on 1 MB (the old one took over 400 s)"


def test_forbidden_messages_name_the_construct(tasks) -> None:
    scorer = Scorer(Limits(sim_s=10))
    task_of = {a["name"]: a["task"] for a in TABLE}
    want = {"forge-macro.v": "`$fopen`", "forge-paste.v": "`$fopen`", "forge-escaped-comment.v": "`\\hide/*`",
            "forge-escaped-string.v": "`\\q\"`", "forge-escaped-linecomment.v": "`\\w//`",
            "hier-escaped-disable.v": "`disable`", "hier-macro.v": "`tb.exp_q`", "full-case-latch.v": "`full_case`"}
    for name, construct in want.items():
        r = scorer.score(tasks[task_of[name]], "verilog", (ATTACKS / name).read_text())
        assert r.result == "forbidden" and construct in r.detail and r.detail.startswith("line "), (name, r.detail)


def test_loop_survives_a_hostile_reply(tasks, tmp_path) -> None:
    """A lone surrogate from a JSON escape and invalid UTF-8 from a relay reply are recorded as received."""
    good = (HERE / "fixtures" / "toy" / "ref.v").read_text()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"toy": ["```verilog\n// \ud800 lone\n" + good + "```\n"]}))
    run = Run.create(tmp_path / "run", RunSpec(model="scripted:x", lang="verilog", budget=1))
    rec = Loop(run, get_model(f"scripted:{script}"), [tasks["toy"]], Scorer(Limits(sim_s=10)),
               log=lambda m: None).go()
    attempt = rec.tasks["toy"].samples[0].attempts[0]
    assert attempt.result == "PASS" and "\ufffd" in attempt.reply
    saved = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert "\ufffd" in saved["tasks"]["toy"]["samples"][0]["attempts"][0]["reply"]

    relay = tmp_path / "relay"
    relay.mkdir()
    (relay / "toy-1.reply.txt").write_bytes(b"\xff\xfe no code \xc3\x28 here")
    run = Run.create(tmp_path / "run2", RunSpec(model=f"relay:{relay}", lang="verilog", budget=1))
    rec = Loop(run, get_model(f"relay:{relay}"), [tasks["toy"]], Scorer(Limits(sim_s=10)),
               log=lambda m: None).go()
    attempt = rec.tasks["toy"].samples[0].attempts[0]
    assert attempt.result == "no-code" and attempt.reply.startswith("\ufffd\ufffd no code")
    assert (tmp_path / "run2" / "run.json").is_file() and (tmp_path / "run2" / "toy.transcript.md").is_file()

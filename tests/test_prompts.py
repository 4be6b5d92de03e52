"""The prompts a model gets: their size, and what they say, in both languages.

- Every task's first sysr prompt (system prompt and first message, as the relay backend writes
  them) is at most 3.0 times its Verilog one: a property of the files, so a test (the figures:
  benchmarks/prompt_ratio.py).
- The sysr system prompt carries the compact reference (docs/model-reference.md, its notes for
  maintainers left out), not the full one; both system prompts say how a design is judged in
  the same words; the Verilog one states the scorer's rules as bench.judge.guard enforces them.
- A sysr repair message carries the full reference's explanation of each code the checker gave;
  a Verilog one carries the tools' messages only.
"""

from __future__ import annotations

import json
import re

import pytest

from bench.judge import guard
from bench.loop.conversation import MODEL_REFERENCE, Settings, first_message, first_prompt_chars, next_feedback, repair_message, system_prompt, template
from bench.loop.models import Message
from bench.loop.models.relay import RelayModel
from bench.loop.records import Attempt
from bench.judge.results import StageResult
from bench.judge.tasks import ROOT, load_tasks

BOUND = 3.0
TASKS = load_tasks()


@pytest.mark.parametrize("task", TASKS, ids=[t.name for t in TASKS])
def test_first_sysr_prompt_is_at_most_three_times_the_verilog_one(task):
    v, s = first_prompt_chars(task, "verilog"), first_prompt_chars(task, "sysr")
    assert s <= BOUND * v, f"{task.name}: sysr {s:,} characters, Verilog {v:,}: ratio {s / v:.2f} > {BOUND}"


def test_the_count_is_what_the_relay_backend_writes(tmp_path):
    task = next(t for t in TASKS if t.name == "prio-enc")
    for lang in ("sysr", "verilog"):
        folder = tmp_path / lang
        folder.mkdir()
        (folder / "prio-enc-1.reply.txt").write_text("no code")
        RelayModel(str(folder), timeout_s=5).complete(system_prompt(lang),
                                                      [Message("user", first_message(task, lang, False))],
                                                      "prio-enc", 1)
        sent = json.loads((folder / "prio-enc-1.prompt.json").read_text())
        assert len(sent["system"]) + sum(len(m["content"]) for m in sent["messages"]) == \
            first_prompt_chars(task, lang)


def test_the_sysr_system_prompt_carries_the_compact_reference():
    text = system_prompt("sysr")
    compact = re.sub(r"<!--.*?-->\n?", "", MODEL_REFERENCE.read_text(), flags=re.S).strip()
    assert compact.replace("// accept\n", "") in text and "<!--" not in text and "// accept" not in text
    assert "## 9. Diagnostics" not in text  # the full reference is for repairs, code by code
    assert len(text) < len((ROOT / "docs" / "reference.md").read_text()) / 5


def test_both_system_prompts_say_how_a_design_is_judged_in_the_same_words():
    judged = template("judged.md").substitute().strip()
    assert judged in system_prompt("sysr") and judged in system_prompt("verilog")
    assert "$" not in judged


def test_the_verilog_prompt_states_the_guards_rules():
    text = system_prompt("verilog")
    for name in sorted(guard.ALLOWED_SYSTEM) + sorted(guard.FORBIDDEN_WORDS):
        assert f"`{name}`" in text, name
    assert "`include" in text and "`timescale" in text and "`default_nettype" in text
    assert "-g2005" in text


def _attempt(result: str, detail: str, codes: list[str]) -> Attempt:
    stage = StageResult(stage="check", tool="sysr", tool_version="0", ran=True, verdict=result,
                        duration_s=0.0, detail=detail, codes=codes)
    return Attempt(n=1, feedback="", reply="", code="x", result=result, detail=detail, stages=[stage], tokens_in=1,
                   tokens_out=1, tokens_approximate=True, model_s=0.0, score_s=0.0)


def test_a_sysr_repair_carries_the_explanation_of_each_code():
    task = TASKS[0]
    detail = "candidate.sysr:3:5: error[T003]: ...\ncandidate.sysr:4:5: error[V007]: ..."
    done = [_attempt("check-failed", detail, ["T003", "V007", "T003"])]
    text = next_feedback(task, Settings("sysr", 4), done)
    assert detail in text
    assert "What the full reference says about T003, V007" in text
    assert "From the reference, §3.1 Literal typing" in text and "From the reference, §7.5 Fixing V007" in text
    assert text.count("T003: literal needs a type") == 1
    assert text.rstrip().endswith("in one fenced code block.")


def test_a_verilog_repair_carries_the_tools_messages_only():
    text = repair_message("verilog", "syntax", "design.v:3: syntax error", ["T003"])
    assert text == ("Your design did not pass. Result: syntax\n\ndesign.v:3: syntax error\n\n"
                    "Fix the design and reply with the whole corrected Verilog file in one fenced code block.\n")


def test_a_repair_without_codes_is_as_before():
    text = repair_message("sysr", "wrong-output", "FAIL cycle 3: y got 1 expected 2", [])
    assert "reference says" not in text and "FAIL cycle 3" in text

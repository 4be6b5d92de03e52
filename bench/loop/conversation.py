"""One sample of one task: the conversation in which a model writes, checks and repairs a design.

The same rules in both languages: the system prompt says how designs are judged (the same
words in both) and then gives the Verilog scorer's rules or the compact sysr reference
(docs/model-reference.md); attempt 1 shows the task's prompt and its starting file; after a
failure the model sees the result and its detail from the scorer (never the shadow
simulation), for sysr with the full reference's explanation of each diagnostic code in it
(`sysr explain`), and is asked for the whole corrected file; a sample ends at the first PASS or
when the budget is spent. `attempts(...)` is callable on its own (conversation in, attempts
out): given the attempts a sample already has, it yields each new one as it is scored, so the
loop can record it at once and another harness can drive a single sample.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Iterator

from sysr.diagnostics import CODES
from sysr.explain import explain_codes

from ..judge.detail import as_received
from .extract import extract_code
from .models import Message, Model
from .records import Attempt
from .sections import select
from ..judge.score import Scorer
from ..judge.tasks import ROOT, Task

PROMPTS = Path(__file__).parent / "prompts"
LANG_NAME = {"sysr": "sysr", "verilog": "Verilog"}
FENCE = {"sysr": "sysr", "verilog": "verilog"}


@dataclass(frozen=True)
class Settings:
    """What every sample of a run shares."""

    lang: str
    budget: int
    spec_stubs: bool = False
    temperature: float | None = None


def template(name: str) -> Template:
    return Template((PROMPTS / name).read_text())


MODEL_REFERENCE = ROOT / "docs" / "model-reference.md"


def model_reference(start: str | None = None, prompt: str | None = None) -> tuple[str, str]:
    """docs/model-reference.md as a model reads it, in two parts: the core every task gets, and
    the sections the starting file `start` needs or the task's text `prompt` asks for
    (`bench.loop.sections`; `start` None: every section);
    without the notes for maintainers (HTML comments, the section tags among them) and the test
    markers of its code blocks (`// accept`, a line of its own)."""
    return tuple(_for_model(part) for part in select(MODEL_REFERENCE.read_text(), start, prompt))


def _for_model(text: str) -> str:
    text = re.sub(r"<!--.*?-->\n?", "", text, flags=re.S)
    return re.sub(r"^// accept\n", "", text, flags=re.M)


class SystemPrompt(str):
    """A system prompt, with `parts`: the pieces it is the concatenation of, each the end of a
    prefix worth caching (the anthropic backend sends one cached block per part). For sysr: the
    part every task shares (how designs are judged, the core of the reference), then the
    sections this task needs."""

    parts: tuple[str, ...]

    def __new__(cls, *parts: str) -> "SystemPrompt":
        parts = tuple(p for p in parts if p)
        made = super().__new__(cls, "".join(parts))
        made.parts = parts
        return made


def system_prompt(lang: str, language: str = "verilog-2005", start: str | None = None,
                  prompt: str | None = None) -> SystemPrompt:
    """The system prompt: how designs are judged, then the Verilog scorer's rules, or for sysr the
    compact reference written for models, its sections those the starting file `start` needs
    (None: all). In Verilog it names the language the task is read as: SystemVerilog for tasks
    imported from upstream suites (`bench.judge.dialect`), whose hidden testbenches are their own
    and keep their own rules; the sysr prompt of such a task says so in as few words, in place
    of this project's testbench rules (`judged.md`). `prompt`, the task's text, can add sections
    (`bench.loop.sections.asks`)."""
    imported = language == "systemverilog"
    if lang == "verilog" and imported:
        return SystemPrompt(template("system-systemverilog.md").substitute())
    judged = template("judged-suite.md" if imported and lang == "sysr" else "judged.md").substitute().rstrip()
    if lang == "sysr":
        core, extra = model_reference(start, prompt)
        head = template("system-sysr.md").substitute(judged=judged, reference=core.strip())
        return SystemPrompt(head.rstrip() + "\n", "\n" + extra.strip() + "\n" if extra.strip() else "")
    return SystemPrompt(template("system-verilog.md").substitute(judged=judged))


def task_system_prompt(task: Task, lang: str, spec_stubs: bool = False) -> SystemPrompt:
    """The system prompt of `task`'s samples in `lang`."""
    if lang != "sysr":
        return system_prompt(lang, task.language)
    return system_prompt(lang, task.language, task.text(start_name(task, lang, spec_stubs)), task.prompt)


def lang_name(lang: str, task: Task) -> str:
    return "SystemVerilog" if lang == "verilog" and task.systemverilog else LANG_NAME[lang]


def start_name(task: Task, lang: str, spec_stubs: bool) -> str:
    if lang == "verilog":
        return "iface.v"
    return "spec-stub.sysr" if spec_stubs and task.has_spec_stub else "stub.sysr"


def sections_line(lang: str, start: str, prompt: str | None = None) -> str:
    """For sysr, a line naming the reference sections the system prompt carries beyond the core
    for this starting file (they differ between tasks: a model that read one task's system
    prompt is told where this one differs); "" when there are none, and in Verilog."""
    if lang != "sysr":
        return ""
    names = re.findall(r"(?m)^## (.+)$", model_reference(start, prompt)[1])
    if not names:
        return ""
    return "The system prompt adds the sections: " + ", ".join(names) + ".\n\n"


def first_message(task: Task, lang: str, spec_stubs: bool) -> str:
    name = start_name(task, lang, spec_stubs)
    start = task.text(name)
    return template("first.md").substitute(name=task.name, prompt=task.prompt, start_name=name,
                                           sections=sections_line(lang, start, task.prompt),
                                           start=start.rstrip(),
                                           fence="systemverilog" if lang_name(lang, task) == "SystemVerilog" else FENCE[lang],
                                           lang_name=lang_name(lang, task))


def first_prompt_chars(task: Task, lang: str, spec_stubs: bool = False) -> int:
    """Characters of a sample's first request, system prompt and message, as a backend sends
    them (and the relay backend writes them)."""
    return len(task_system_prompt(task, lang, spec_stubs)) + len(first_message(task, lang, spec_stubs))


def first_prompt_cost(task: Task, lang: str, spec_stubs: bool = False, cache_read: float = 0.1) -> float:
    """A sample's first request in units of uncached input characters, with the system prompt
    read from the prompt cache at `cache_read` of the price: what every request of a run pays
    once the cache holds it (in sysr, the core is the same for every task, and a run has only a
    few sets of sections, each written once)."""
    return cache_read * len(task_system_prompt(task, lang, spec_stubs)) + len(first_message(task, lang, spec_stubs))


def repair_message(lang: str, result: str, detail: str, codes: list[str] | tuple[str, ...] = (),
                   name: str | None = None) -> str:
    """What a model is told after a failed attempt: the result and its detail (the tools'
    messages); for sysr, also the full reference's explanation of each diagnostic code the
    checker gave (`sysr explain`), so that the first prompt can carry the compact reference.
    `name` is the language's name as the task uses it (SystemVerilog for imported tasks)."""
    name = name or LANG_NAME[lang]
    if result == "no-code":
        return template("no-code.md").substitute(lang_name=name)
    return template("repair.md").substitute(result=result, detail=detail.strip(), lang_name=name,
                                            explained=explained(codes) if lang == "sysr" else "")


def explained(codes) -> str:
    """The explanations of `codes` for a repair message, or "" when there are none."""
    distinct = list(dict.fromkeys(c for c in codes if c in CODES))
    if not distinct:
        return ""
    return template("explained.md").substitute(codes=", ".join(distinct),
                                               explanations=explain_codes(distinct)).rstrip() + "\n"


def failed_codes(attempt: Attempt) -> list[str]:
    """The checker's error codes of an attempt (its check stage), in the order given."""
    return [c for stage in attempt.stages for c in stage.codes]


def history(done: list[Attempt]) -> list[Message]:
    """The conversation so far, rebuilt from the record (so a resumed sample continues it)."""
    msgs: list[Message] = []
    for a in done:
        msgs += [Message("user", a.feedback), Message("assistant", a.reply)]
    return msgs


def next_feedback(task: Task, settings: Settings, done: list[Attempt]) -> str:
    if not done:
        return first_message(task, settings.lang, settings.spec_stubs)
    return repair_message(settings.lang, done[-1].result, done[-1].detail, failed_codes(done[-1]),
                          lang_name(settings.lang, task))


def finished(settings: Settings, done: list[Attempt]) -> bool:
    return (bool(done) and done[-1].result == "PASS") or len(done) >= settings.budget


def attempts(model: Model, scorer: Scorer, task: Task, settings: Settings, done: list[Attempt] | None = None,
             sample: int = 1, seed: int | None = None, system: str | None = None) -> Iterator[Attempt]:
    """The new attempts of one sample, each yielded once scored; a ModelError propagates."""
    done = list(done or [])
    system = system if system is not None else task_system_prompt(task, settings.lang, settings.spec_stubs)
    while not finished(settings, done):
        n = len(done) + 1
        feedback = next_feedback(task, settings, done)
        t0 = time.perf_counter()
        reply = model.complete(system, history(done) + [Message("user", feedback)], task.name, n,
                               sample=sample, temperature=settings.temperature, seed=seed)
        model_s = time.perf_counter() - t0
        text = as_received(reply.text)  # any bytes a model sent are recorded, never a crash
        code = extract_code(text, settings.lang)
        t1 = time.perf_counter()
        result = scorer.score(task, settings.lang, code)
        attempt = Attempt(n=n, feedback=feedback, reply=text, code=code, result=result.result,
                          detail=result.detail if code is not None else "the reply had no fenced code block",
                          stages=result.stages, shadow=result.shadow, tokens_in=reply.tokens_in,
                          tokens_out=reply.tokens_out, tokens_cached=reply.tokens_cached,
                          tokens_cache_write=reply.tokens_cache_write, tokens_approximate=reply.approximate,
                          model_s=round(model_s, 3), score_s=round(time.perf_counter() - t1, 3))
        done.append(attempt)
        yield attempt

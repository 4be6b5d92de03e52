"""Model backends behind one small protocol, registered by name and imported lazily.

A backend turns (system prompt, messages, task, attempt, sample, temperature, seed) into a
`Reply`. `get_model("kind:arg")` finds the backend: `openai:MODEL` (any OpenAI-compatible
chat-completions endpoint), `anthropic:MODEL_ID`, `scripted:FILE`, `relay:DIR`.

What a server or a file sends is untrusted: every backend reads the reply's text and token counts
through `text_of` and `count_of`, so content that is not text (a list, a number) or a count that is
not a whole number (a string, null) is a `ModelError` naming the field, which the loop records as
it records any model error, never a traceback.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Message:
    role: str  # "user" or "assistant"
    content: str


@dataclass(frozen=True)
class Reply:
    text: str
    tokens_in: int  # every prompt token, whether the server read it from a cache or not
    tokens_out: int
    approximate: bool = False  # token counts estimated (four characters a token)
    tokens_cached: int = 0  # of tokens_in: read from the server's prompt cache
    tokens_cache_write: int = 0  # of tokens_in: written to the prompt cache


class ModelError(Exception):
    """A backend could not produce a reply (no key, gave up after retries, relay timed out...).

    `fatal` errors (a refused key, an unknown model) would fail every other request the same
    way: the loop stops starting new work when it meets one.
    """

    def __init__(self, message: str, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


class Model(Protocol):
    name: str

    def complete(self, system: str, messages: list[Message], task: str, attempt: int, *,
                 sample: int = 1, temperature: float | None = None, seed: int | None = None) -> Reply: ...


# kind -> (module, class); imported only when used, so `scripted` needs no API package.
BACKENDS = {
    "openai": ("bench.loop.models.openai_backend", "OpenAIModel"),
    "anthropic": ("bench.loop.models.anthropic_backend", "AnthropicModel"),
    "scripted": ("bench.loop.models.scripted", "ScriptedModel"),
    "relay": ("bench.loop.models.relay", "RelayModel"),
}
TAKES_BASE_URL = ("openai", "anthropic")
SPECS = "openai:MODEL, anthropic:MODEL_ID, scripted:FILE, relay:DIR"


def get_model(spec: str, base_url: str | None = None) -> Model:
    kind, sep, arg = spec.partition(":")
    if not sep or not arg or kind not in BACKENDS:
        raise ModelError(f"unknown model {spec!r}; use one of: {SPECS}")
    module, cls = BACKENDS[kind]
    backend = getattr(importlib.import_module(module), cls)
    if base_url is None:
        return backend(arg)
    if kind not in TAKES_BASE_URL:
        raise ModelError(f"--base-url applies to openai: and anthropic: models, not {kind}:")
    return backend(arg, base_url=base_url)


def text_of(backend: str, field: str, value) -> str:
    """`value` if it is text, else a ModelError saying which field of the response was not."""
    if not isinstance(value, str):
        raise ModelError(f"{backend}: malformed response: {field} is {_shown(value)}, not text")
    return value


def count_of(backend: str, field: str, value) -> int:
    """`value` if it is a token count (a whole number, at least 0), else a ModelError naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ModelError(f"{backend}: malformed response: {field} is {_shown(value)}, not a token count")
    return value


def _shown(value) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def approx_tokens(text: str) -> int:
    return max(1, (len(text) + 3) // 4) if text else 0

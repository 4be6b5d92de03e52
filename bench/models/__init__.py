"""Model backends behind one small protocol, registered by name and imported lazily.

A backend turns (system prompt, messages, task, attempt) into a `Reply`. `get_model("kind:arg")`
finds the backend: `anthropic:MODEL_ID`, `scripted:FILE`, `relay:DIR`.
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
    tokens_in: int
    tokens_out: int
    approximate: bool = False  # token counts estimated (four characters a token)


class ModelError(Exception):
    """A backend could not produce a reply (no key, gave up after retries, relay timed out...)."""


class Model(Protocol):
    name: str

    def complete(self, system: str, messages: list[Message], task: str, attempt: int) -> Reply: ...


# kind -> (module, class); imported only when used, so `scripted` needs no API package.
BACKENDS = {
    "anthropic": ("bench.models.anthropic_backend", "AnthropicModel"),
    "scripted": ("bench.models.scripted", "ScriptedModel"),
    "relay": ("bench.models.relay", "RelayModel"),
}


def get_model(spec: str) -> Model:
    kind, sep, arg = spec.partition(":")
    if not sep or not arg or kind not in BACKENDS:
        raise ModelError(f"unknown model {spec!r}; use one of: anthropic:MODEL_ID, scripted:FILE, relay:DIR")
    module, cls = BACKENDS[kind]
    return getattr(importlib.import_module(module), cls)(arg)


def approx_tokens(text: str) -> int:
    return max(1, (len(text) + 3) // 4) if text else 0

"""What a run's tokens cost as a user pays them, in units of one uncached input token.

Providers price prompt-cache reads, cache writes and output tokens as multiples of an uncached
input token; the multiples differ by provider, so runs with and without caching (and runs of
different backends) compare only once weighted. `WEIGHTS` holds the defaults, per provider (the
part of the run's model spec before `:`; Inspect AI models name theirs after it), from the
providers' public price lists for their current models; `default` is for backends that report no
cache use (relay, scripted), and is Anthropic's, the family the project's relay runs use.
`bench summary --weights FILE` (a JSON object, provider -> {cache_read, cache_write, output})
replaces any of them.

    cost = uncached input + cache_read * cache reads + cache_write * cache writes + output * output tokens
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict


class Weights(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cache_read: float
    cache_write: float
    output: float


WEIGHTS = {
    "anthropic": Weights(cache_read=0.1, cache_write=1.25, output=5.0),  # 5-minute cache writes
    "openai": Weights(cache_read=0.5, cache_write=1.0, output=4.0),  # no charge for writing
    "default": Weights(cache_read=0.1, cache_write=1.25, output=5.0),
}


class CostError(ValueError):
    """A weights file that cannot be read as provider -> weights."""


def load_weights(path: Path) -> dict[str, Weights]:
    """The default table with the providers of `path` (JSON) replaced."""
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            raise ValueError("not an object of provider -> {cache_read, cache_write, output}")
        return {**WEIGHTS, **{k: Weights.model_validate(v) for k, v in data.items()}}
    except (OSError, ValueError) as e:
        raise CostError(f"{path}: {str(e).splitlines()[0]}") from None


def provider(model: str, table: dict[str, Weights]) -> str:
    """The provider whose weights a run's model spec takes."""
    kind, _, rest = model.partition(":")
    for name in (kind, rest.split("/", 1)[0], model.split("/", 1)[0]):  # Inspect: "openai/gpt-x"
        name = name.removesuffix("-api")  # Inspect's OpenAI-compatible servers: "openai-api/..."
        if name in table and name != "default":
            return name
    return "default"


def cost(tokens_in: int, tokens_out: int, cached: int, cache_write: int, w: Weights) -> float:
    """`tokens_in` counts every prompt token; `cached` and `cache_write` are parts of it."""
    uncached = tokens_in - cached - cache_write
    return round(uncached + w.cache_read * cached + w.cache_write * cache_write + w.output * tokens_out, 2)

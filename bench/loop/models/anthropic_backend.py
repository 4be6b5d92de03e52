"""The Anthropic backend: the Messages API through the `anthropic` package.

The key comes from the environment (ANTHROPIC_API_KEY); `ANTHROPIC_BASE_URL` or `--base-url`
points it elsewhere (the tests use a local fake server). The system prompt (for sysr, the compact
language reference) is sent as cached blocks, one per part of it (`SystemPrompt.parts`: for sysr,
the core that every task shares, then the sections a task needs), so every later request of a
run reads the core from the prompt cache, and the sections where an earlier task had the same.
Rate limits, overload and server errors are retried with bounded backoff
(`bench.loop.models.retry`); a refused key or an unknown model is a clear, fatal error. Token counts
come from the API's usage: `tokens_in` is every prompt token (uncached, cache reads and cache
writes), with the cache reads and writes recorded apart. Temperature is sent when given; the
API takes no seed.
"""

from __future__ import annotations

import os

from . import Message, ModelError, Reply, count_of, text_of
from .retry import BASE_S, TRIES, Retry, retrying, status_error

MAX_TOKENS = int(os.environ.get("BENCH_MAX_TOKENS", "8192"))


class AnthropicModel:
    def __init__(self, model_id: str, base_url: str | None = None, tries: int = TRIES,
                 base_s: float = BASE_S) -> None:
        import anthropic

        self.name = f"anthropic:{model_id}"
        self.model_id = model_id
        self._anthropic = anthropic
        if not os.environ.get("ANTHROPIC_API_KEY"):
            raise ModelError("ANTHROPIC_API_KEY is not set; the anthropic backend needs an API key", fatal=True)
        self.tries, self.base_s, self.base_url = tries, base_s, base_url
        self.client = anthropic.Anthropic(max_retries=0, timeout=600.0, base_url=base_url)

    def complete(self, system: str, messages: list[Message], task: str, attempt: int, *,
                 sample: int = 1, temperature: float | None = None, seed: int | None = None) -> Reply:
        # one cached block per part: for sysr the core every task shares, then the task's sections
        blocks = [{"type": "text", "text": part, "cache_control": {"type": "ephemeral"}}
                  for part in getattr(system, "parts", None) or (system,)]
        # the SDK in use has no temperature argument; the API still takes the field
        extra = {"temperature": temperature} if temperature is not None else None

        def request() -> Reply:
            resp = self._call(blocks, [{"role": m.role, "content": m.content} for m in messages], extra)
            parts = resp.content
            if not isinstance(parts, list):
                raise ModelError(f"{self.name}: malformed response: content is {type(parts).__name__}, not a list")
            text = "".join(text_of(self.name, f"content[{i}].text", b.text) for i, b in enumerate(parts)
                           if getattr(b, "type", None) == "text")
            u = resp.usage
            read = count_of(self.name, "usage.cache_read_input_tokens", getattr(u, "cache_read_input_tokens", 0) or 0)
            write = count_of(self.name, "usage.cache_creation_input_tokens",
                             getattr(u, "cache_creation_input_tokens", 0) or 0)
            return Reply(text, count_of(self.name, "usage.input_tokens", getattr(u, "input_tokens", None)) + read + write,
                         count_of(self.name, "usage.output_tokens", getattr(u, "output_tokens", None)),
                         tokens_cached=read, tokens_cache_write=write)

        return retrying(request, self.name, self.tries, self.base_s)

    def _call(self, system: list[dict], messages: list[dict], extra: dict | None):
        a = self._anthropic
        try:
            return self.client.messages.create(model=self.model_id, max_tokens=MAX_TOKENS, system=system,
                                               messages=messages, extra_body=extra)
        except a.APIStatusError as e:
            raise status_error(e, "anthropic", "ANTHROPIC_API_KEY", self.model_id) from None
        except a.APIConnectionError as e:
            raise Retry(f"connection failed: {e}") from None
        except a.APIError as e:  # an answer the client could not read
            raise Retry(f"unreadable answer: {e}") from None

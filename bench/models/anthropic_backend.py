"""The Anthropic backend: the Messages API through the `anthropic` package.

The key comes from the environment (ANTHROPIC_API_KEY). Rate limits, overload and server errors
are retried with exponential backoff (the SDK's own retries, then ours); token counts come from
the API's usage. `ANTHROPIC_BASE_URL` points it elsewhere (the tests use a local fake server).
"""

from __future__ import annotations

import os
import time

from . import Message, ModelError, Reply

MAX_TOKENS = int(os.environ.get("BENCH_MAX_TOKENS", "8192"))
RETRIES = 5


class AnthropicModel:
    def __init__(self, model_id: str) -> None:
        import anthropic

        self.name = f"anthropic:{model_id}"
        self.model_id = model_id
        self._anthropic = anthropic
        if not os.environ.get("ANTHROPIC_API_KEY"):
            raise ModelError("ANTHROPIC_API_KEY is not set; the anthropic backend needs an API key")
        self.client = anthropic.Anthropic(max_retries=2, timeout=600.0)

    def complete(self, system: str, messages: list[Message], task: str, attempt: int) -> Reply:
        a = self._anthropic
        delay = 2.0
        for i in range(RETRIES + 1):
            try:
                resp = self.client.messages.create(
                    model=self.model_id, max_tokens=MAX_TOKENS, system=system,
                    messages=[{"role": m.role, "content": m.content} for m in messages])
                text = "".join(getattr(b, "text", "") for b in resp.content)
                return Reply(text, resp.usage.input_tokens, resp.usage.output_tokens)
            except (a.RateLimitError, a.InternalServerError, a.APIConnectionError) as e:
                if i == RETRIES:
                    raise ModelError(f"anthropic: giving up after {RETRIES + 1} tries: {e}") from None
                time.sleep(delay)
                delay = min(delay * 2, 60.0)
            except a.APIStatusError as e:
                if e.status_code in (408, 409, 529) and i < RETRIES:
                    time.sleep(delay)
                    delay = min(delay * 2, 60.0)
                    continue
                raise ModelError(f"anthropic: {e.status_code}: {e.message}") from None
        raise ModelError("anthropic: unreachable")  # pragma: no cover

"""The OpenAI-compatible backend: chat completions through the `openai` package.

One backend for every server that speaks the protocol: vLLM, Ollama, llama.cpp's server,
OpenRouter, OpenAI. The endpoint is `--base-url` (or `OPENAI_BASE_URL`; default OpenAI's own).
The key is `OPENAI_API_KEY`; a server on this machine (localhost, 127.x, ::1) gets a
placeholder when it is unset, anywhere else an unset key is an error before any request.
Rate limits (429), server errors (5xx), timeouts and dropped connections are retried with
bounded backoff (`bench.loop.models.retry`); a refused key (401, 403) or an unknown model (404) is
a clear, fatal error. Token counts are the server's `usage`, with cached prompt tokens from
`prompt_tokens_details.cached_tokens`; a server that reports no usage gets estimates, marked
approximate. Temperature and seed are sent when given; `BENCH_MAX_TOKENS` caps the reply.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from . import Message, ModelError, Reply, approx_tokens, count_of, text_of
from .retry import BASE_S, TRIES, Retry, retrying, status_error

DEFAULT_BASE_URL = "https://api.openai.com/v1"
LOCAL_HOSTS = ("localhost", "::1")
TIMEOUT_S = float(os.environ.get("BENCH_REQUEST_TIMEOUT", "600"))


def is_local(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    return host in LOCAL_HOSTS or host.startswith("127.")


class OpenAIModel:
    def __init__(self, model_id: str, base_url: str | None = None, tries: int = TRIES,
                 base_s: float = BASE_S) -> None:
        import openai

        self._openai = openai
        self.model_id = model_id
        self.name = f"openai:{model_id}"
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        if urlparse(self.base_url).scheme not in ("http", "https"):
            raise ModelError(f"openai: base URL {self.base_url!r} is not an http(s) URL", fatal=True)
        key = os.environ.get("OPENAI_API_KEY")
        if not key:
            if not is_local(self.base_url):
                raise ModelError(f"OPENAI_API_KEY is not set; {self.base_url} needs a key (a server on "
                                 "this machine does not; for one elsewhere that takes none, set any value)",
                                 fatal=True)
            key = "none"
        self.tries, self.base_s = tries, base_s
        max_tokens = os.environ.get("BENCH_MAX_TOKENS")
        self.max_tokens = int(max_tokens) if max_tokens else None
        # our own retries only (bench.loop.models.retry), so the bound is the one documented
        self.client = openai.OpenAI(base_url=self.base_url, api_key=key, max_retries=0, timeout=TIMEOUT_S)

    def complete(self, system: str, messages: list[Message], task: str, attempt: int, *,
                 sample: int = 1, temperature: float | None = None, seed: int | None = None) -> Reply:
        body = [{"role": "system", "content": system}] + [{"role": m.role, "content": m.content} for m in messages]
        extra = {}
        if temperature is not None:
            extra["temperature"] = temperature
        if seed is not None:
            extra["seed"] = seed
        if self.max_tokens is not None:
            extra["max_tokens"] = self.max_tokens

        def request() -> Reply:
            resp = self._call(body, extra)
            if not resp.choices:  # OpenRouter passes a provider's failure on this way
                why = (resp.model_extra or {}).get("error")
                raise Retry(f"the server answered without a choice{f': {why}' if why else ''}")
            content = getattr(getattr(resp.choices[0], "message", None), "content", None)
            text = text_of(self.name, "choices[0].message.content", "" if content is None else content)
            usage = resp.usage
            if usage is None:
                prompt = system + "".join(m.content for m in messages)
                return Reply(text, approx_tokens(prompt), approx_tokens(text), approximate=True)
            details = getattr(usage, "prompt_tokens_details", None)
            cached = getattr(details, "cached_tokens", None) or 0
            return Reply(text, count_of(self.name, "usage.prompt_tokens", getattr(usage, "prompt_tokens", None)),
                         count_of(self.name, "usage.completion_tokens", getattr(usage, "completion_tokens", None)),
                         tokens_cached=count_of(self.name, "usage.prompt_tokens_details.cached_tokens", cached))

        return retrying(request, f"{self.name} at {self.base_url}", self.tries, self.base_s)

    def _call(self, body: list[dict], extra: dict):
        o = self._openai
        try:
            return self.client.chat.completions.create(model=self.model_id, messages=body, **extra)
        except o.APIStatusError as e:
            err = status_error(e, self.base_url, "OPENAI_API_KEY", self.model_id)
            if isinstance(err, ModelError) and e.status_code == 404:
                err = ModelError(f"{err}; check the name (and the --base-url: it usually ends in /v1)", fatal=True)
            raise err from None
        except o.APIConnectionError as e:  # includes timeouts
            raise Retry(f"connection failed: {e}") from None
        except o.APIError as e:  # an answer the client could not read
            raise Retry(f"unreadable answer: {e}") from None


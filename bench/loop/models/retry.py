"""Bounded retries with exponential backoff for the API backends.

A backend wraps one request in a function that raises `Retry` for what is worth trying again
(rate limits, overload, server errors, a dropped connection) and `ModelError` for what is not
(a refused key, an unknown model, a malformed request). `retrying` makes at most `tries`
requests, waiting `base_s`, then twice that, up to `MAX_WAIT_S` (or what the server's
`Retry-After` asks, within the same cap), and says on stderr why it waits.
"""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Callable, TypeVar

from . import ModelError

T = TypeVar("T")
TRIES = int(os.environ.get("BENCH_RETRIES", "6"))
BASE_S = float(os.environ.get("BENCH_RETRY_BASE_S", "2"))
MAX_WAIT_S = 120.0


class Retry(Exception):
    """A failed request worth repeating; `after` is the server's Retry-After in seconds, if any."""

    def __init__(self, message: str, after: float | None = None) -> None:
        super().__init__(message)
        self.after = after


def retry_after(headers) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (a number of seconds), when present."""
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) / scale)
        except ValueError:
            continue
    return None


def server_message(e: Exception) -> str:
    """The server's own error message from an SDK's status error, where the server sent one."""
    body = getattr(e, "body", None)
    if isinstance(body, dict):
        inner = body["error"] if isinstance(body.get("error"), dict) else body
        if inner.get("message"):
            return str(inner["message"])
    return str(getattr(e, "message", e))


def status_error(e, who: str, key_var: str, model_id: str) -> Exception:
    """What an SDK's HTTP status error means here: a Retry, or a ModelError (fatal for key or model)."""
    status, msg = e.status_code, server_message(e)
    if status == 401:
        return ModelError(f"{who} refused the key (401): check {key_var} ({msg})", fatal=True)
    if status == 403:
        return ModelError(f"{who} denied access (403): {msg}", fatal=True)
    if status == 404:
        return ModelError(f"{who} has no model {model_id!r} (404): {msg}", fatal=True)
    if status in (408, 409, 429) or status >= 500:
        return Retry(f"{status}: {msg}", retry_after(e.response.headers))
    return ModelError(f"{who}: the server answered {status}: {msg}")


def retrying(request: Callable[[], T], what: str, tries: int = TRIES, base_s: float = BASE_S,
             log: Callable[[str], None] | None = None, sleep: Callable[[float], None] = time.sleep) -> T:
    log = log or (lambda msg: print(msg, file=sys.stderr))
    tries, delay = max(1, tries), base_s
    for i in range(1, tries + 1):
        try:
            return request()
        except Retry as e:
            if i >= tries:
                raise ModelError(f"{what}: giving up after {tries} tries: {e}") from None
            wait = min(MAX_WAIT_S, e.after if e.after is not None else delay * (1 + random.random() / 4))
            log(f"{what}: {e}; retrying in {wait:.1f} s (try {i + 1} of {tries})")
            sleep(wait)
            delay = min(delay * 2, MAX_WAIT_S)
    raise AssertionError("unreachable")

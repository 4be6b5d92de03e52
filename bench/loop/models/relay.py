"""The relay backend: each prompt is written to a folder and the reply is waited for there.

For attempt n of a task it writes `DIR/<task>-<n>.prompt.json` (system prompt and messages)
and waits for `DIR/<task>-<n>.reply.txt`, saying on stderr what it waits for. Samples after the
first have their own names, `DIR/<task>-s<k>-<n>.prompt.json` and `.reply.txt`, so the names
of a one-sample run are unchanged. Temperature and seed are written into the prompt file for
whoever answers; token counts are approximate (four characters a token).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from . import Message, ModelError, Reply, approx_tokens

DEFAULT_TIMEOUT_S = float(os.environ.get("BENCH_RELAY_TIMEOUT", "3600"))
POLL_S = 0.2
REPLY_LIMIT = 16 * 1024**2  # bytes of one reply file: only this much is ever read


class RelayModel:
    def __init__(self, folder: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self.name = f"relay:{folder}"
        self.dir = Path(folder)
        self.timeout_s = timeout_s
        self.dir.mkdir(parents=True, exist_ok=True)

    def complete(self, system: str, messages: list[Message], task: str, attempt: int, *,
                 sample: int = 1, temperature: float | None = None, seed: int | None = None) -> Reply:
        stem = f"{task}-{attempt}" if sample == 1 else f"{task}-s{sample}-{attempt}"
        prompt = self.dir / f"{stem}.prompt.json"
        reply = self.dir / f"{stem}.reply.txt"
        tmp = prompt.with_suffix(".tmp")
        tmp.write_text(json.dumps({"task": task, "attempt": attempt, "sample": sample, "temperature": temperature,
                                   "seed": seed, "system": system,
                                   "messages": [{"role": m.role, "content": m.content} for m in messages]},
                                  indent=2))
        os.replace(tmp, prompt)
        print(f"relay: waiting up to {self.timeout_s:g} s for {reply} (prompt in {prompt})", file=sys.stderr)
        deadline = time.monotonic() + self.timeout_s
        while not reply.is_file():
            if time.monotonic() > deadline:
                raise ModelError(f"relay: no reply in {reply} after {self.timeout_s:g} s")
            time.sleep(POLL_S)
        time.sleep(POLL_S)  # let a writer that is not atomic finish
        try:
            with open(reply, "rb") as f:
                data = f.read(REPLY_LIMIT + 1)
        except OSError as e:
            raise ModelError(f"relay: cannot read {reply}: {e.strerror or e}") from None
        if len(data) > REPLY_LIMIT:
            raise ModelError(f"relay: {reply} is over {REPLY_LIMIT} bytes; a reply is at most that")
        text = data.decode("utf-8", errors="replace")
        return Reply(text, approx_tokens(system + "".join(m.content for m in messages)), approx_tokens(text),
                     approximate=True)

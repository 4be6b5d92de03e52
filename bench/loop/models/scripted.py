"""The scripted backend: replies read from a JSON file, for offline tests and demos.

The file maps a task name to a list of replies, one per attempt:
`{"pwm": ["first reply ...", "second reply ..."]}`, which every sample of the task gets, or to a
list of such lists, one per sample: `{"pwm": [["sample 1, attempt 1", ...], ["sample 2 ..."]]}`.
A missing reply is a ModelError.
Token counts are approximate (four characters a token).
"""

from __future__ import annotations

import json
from pathlib import Path

from . import Message, ModelError, Reply, approx_tokens, text_of


class ScriptedModel:
    def __init__(self, path: str) -> None:
        self.name = f"scripted:{path}"
        try:
            self.replies = json.loads(Path(path).read_bytes().decode("utf-8", errors="replace"))
        except (OSError, json.JSONDecodeError) as e:
            raise ModelError(f"cannot read scripted replies from {path}: {e}") from None

    def complete(self, system: str, messages: list[Message], task: str, attempt: int, *,
                 sample: int = 1, temperature: float | None = None, seed: int | None = None) -> Reply:
        replies = self.replies.get(task, []) if isinstance(self.replies, dict) else []
        if not isinstance(replies, list):
            raise ModelError(f"the script's replies for task {task!r} are not a list")
        if replies and all(isinstance(r, list) for r in replies):
            replies = replies[sample - 1] if sample <= len(replies) else []
        if attempt > len(replies):
            raise ModelError(f"the script has no reply for task {task!r}, sample {sample}, attempt {attempt}")
        text = text_of(self.name, f"the reply for task {task!r}, sample {sample}, attempt {attempt}",
                       replies[attempt - 1])
        prompt = system + "".join(m.content for m in messages)
        return Reply(text, approx_tokens(prompt), approx_tokens(text), approximate=True)

"""The scripted backend: replies read from a JSON file, for offline tests and demos.

The file maps a task name to a list of replies, one per attempt:
`{"pwm": ["first reply ...", "second reply ..."]}`. A missing reply is a ModelError.
Token counts are approximate (four characters a token).
"""

from __future__ import annotations

import json
from pathlib import Path

from . import Message, ModelError, Reply, approx_tokens


class ScriptedModel:
    def __init__(self, path: str) -> None:
        self.name = f"scripted:{path}"
        try:
            self.replies = json.loads(Path(path).read_bytes().decode("utf-8", errors="replace"))
        except (OSError, json.JSONDecodeError) as e:
            raise ModelError(f"cannot read scripted replies from {path}: {e}") from None

    def complete(self, system: str, messages: list[Message], task: str, attempt: int) -> Reply:
        replies = self.replies.get(task, [])
        if attempt > len(replies):
            raise ModelError(f"the script has no reply for task {task!r}, attempt {attempt}")
        text = replies[attempt - 1]
        prompt = system + "".join(m.content for m in messages)
        return Reply(text, approx_tokens(prompt), approx_tokens(text), approximate=True)

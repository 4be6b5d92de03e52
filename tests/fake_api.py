"""A fake model API on 127.0.0.1 for the backend and loop tests: real HTTP, scripted answers.

`FakeServer(respond)` serves every POST with `respond(path, body)`, which returns
(status, JSON payload, extra headers); every request is kept in `calls` as (path, headers with lower-case names,
body). Answers in the OpenAI chat-completions and Anthropic Messages shapes are built by
`chat_completion`, `anthropic_message` and `error`.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

Respond = Callable[[str, dict], tuple[int, dict, dict]]


class FakeServer:
    def __init__(self, respond: Respond) -> None:
        self.calls: list[tuple[str, dict, dict]] = []
        lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                with lock:
                    server.calls.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                status, payload, headers = respond(self.path, body)
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def bodies(self) -> list[dict]:
        return [b for _, _, b in self.calls]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "FakeServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def chat_completion(model: str, text: str, prompt: int, completion: int, cached: int | None = None) -> dict:
    usage: dict = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": usage}


def anthropic_message(model: str, text: str, usage: dict) -> dict:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": usage}


def error(kind: str, message: str) -> dict:
    """An error body both APIs would accept: {"type": "error", "error": {"type", "message"}}."""
    return {"type": "error", "error": {"type": kind, "message": message}}

"""The API backends against a fake server on 127.0.0.1 (real HTTP through the real client
libraries): retries on rate limits and server errors, bounded; clear, fatal errors for a
refused key and an unknown model; exact token counts with cached tokens; temperature and seed
reaching the server; the Anthropic system prompt sent as a cached block.
"""

from __future__ import annotations

import socket

import pytest
from fake_api import FakeServer, anthropic_message, chat_completion, error

from bench.loop.conversation import SystemPrompt
from bench.loop.models import Message, ModelError, get_model
from bench.loop.models.anthropic_backend import AnthropicModel
from bench.loop.models.openai_backend import OpenAIModel, is_local

MSGS = [Message("user", "write it")]


def answers(*replies):
    """A respond() giving these (status, payload[, headers]) in turn, then the last one forever."""
    seq = list(replies)

    def respond(path, body):
        r = seq.pop(0) if len(seq) > 1 else seq[0]
        return r if len(r) == 3 else (*r, {})

    return respond


def openai(server: FakeServer, tries: int = 3) -> OpenAIModel:
    return OpenAIModel("tiny-coder", base_url=f"{server.url}/v1", tries=tries, base_s=0.01)


def test_openai_retries_a_rate_limit_and_counts_tokens_exactly(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    ok = chat_completion("tiny-coder", "```verilog\nmodule m; endmodule\n```", 1234, 56, cached=1000)
    with FakeServer(answers((429, error("rate_limit", "slow down"), {"retry-after": "0"}), (200, ok))) as srv:
        reply = openai(srv).complete("SYSTEM", MSGS, "toy", 1, temperature=0.8, seed=7)
    assert (reply.tokens_in, reply.tokens_out, reply.tokens_cached, reply.approximate) == (1234, 56, 1000, False)
    assert "module m" in reply.text
    assert len(srv.calls) == 2  # the 429 was retried
    path, headers, body = srv.calls[-1]
    assert path == "/v1/chat/completions" and headers["authorization"] == "Bearer test-key"
    assert body["model"] == "tiny-coder" and body["temperature"] == 0.8 and body["seed"] == 7
    assert body["messages"] == [{"role": "system", "content": "SYSTEM"}, {"role": "user", "content": "write it"}]


def test_openai_sends_no_temperature_or_seed_unless_asked(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # a local server needs none
    with FakeServer(answers((200, chat_completion("tiny-coder", "hi", 10, 2)))) as srv:
        reply = openai(srv).complete("S", MSGS, "toy", 1)
    body = srv.bodies()[0]
    assert "temperature" not in body and "seed" not in body
    assert (reply.tokens_in, reply.tokens_out, reply.tokens_cached) == (10, 2, 0)


@pytest.mark.parametrize("status,kind,message,match", [
    (401, "invalid_api_key", "Incorrect API key provided", r"refused the key \(401\).*OPENAI_API_KEY.*Incorrect API key"),
    (403, "permission_denied", "not allowed", r"denied access \(403\): not allowed"),
    (404, "not_found", "model 'tiny-coder' not found", r"no model 'tiny-coder' \(404\).*not found.*--base-url"),
])
def test_openai_refused_key_or_unknown_model_is_fatal_and_not_retried(monkeypatch, status, kind, message,
                                                                      match) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    with FakeServer(answers((status, error(kind, message)))) as srv:
        with pytest.raises(ModelError, match=match) as e:
            openai(srv).complete("S", MSGS, "toy", 1)
    assert e.value.fatal and len(srv.calls) == 1


def test_openai_server_errors_are_retried_a_bounded_number_of_times(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    with FakeServer(answers((503, error("overloaded", "busy")))) as srv:
        with pytest.raises(ModelError, match="giving up after 3 tries: 503: busy") as e:
            openai(srv, tries=3).complete("S", MSGS, "toy", 1)
    assert not e.value.fatal and len(srv.calls) == 3


def test_openai_bad_request_is_not_retried(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    with FakeServer(answers((400, error("invalid_request_error", "context too long")))) as srv:
        with pytest.raises(ModelError, match="400: context too long") as e:
            openai(srv).complete("S", MSGS, "toy", 1)
    assert not e.value.fatal and len(srv.calls) == 1


def test_openai_connection_errors_are_retried(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    model = OpenAIModel("m", base_url=f"http://127.0.0.1:{port}/v1", tries=2, base_s=0.01)
    with pytest.raises(ModelError, match="giving up after 2 tries: connection failed"):
        model.complete("S", MSGS, "toy", 1)


def test_openai_without_usage_is_approximate(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    payload = chat_completion("tiny-coder", "abcdefgh", 1, 1)
    del payload["usage"]
    with FakeServer(answers((200, payload))) as srv:
        reply = openai(srv).complete("S", MSGS, "toy", 1)
    assert reply.approximate and reply.tokens_out == 2


def test_openai_key_needed_for_a_remote_server_only(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelError, match="OPENAI_API_KEY is not set; https://openrouter.ai/api/v1 needs a key"):
        get_model("openai:some/model", base_url="https://openrouter.ai/api/v1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
    assert get_model("openai:qwen2.5-coder").base_url == "http://localhost:11434/v1"
    assert is_local("http://127.0.0.1:8000/v1") and is_local("http://[::1]:8000/v1")
    assert not is_local("http://10.0.0.5:8000/v1")


def test_base_url_is_only_for_api_backends() -> None:
    with pytest.raises(ModelError, match="--base-url applies to openai: and anthropic:"):
        get_model("relay:/tmp/x", base_url="http://localhost:1/v1")


def test_anthropic_caches_the_system_prompt_and_counts_cache_tokens(monkeypatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    usage = {"input_tokens": 34, "output_tokens": 56, "cache_read_input_tokens": 1000,
             "cache_creation_input_tokens": 200}
    ok = anthropic_message("claude-test", "```verilog\nmodule m; endmodule\n```", usage)
    with FakeServer(answers((429, error("rate_limit_error", "slow down"), {"retry-after": "0"}), (200, ok))) as srv:
        model = AnthropicModel("claude-test", base_url=srv.url, base_s=0.01)
        reply = model.complete("SYSTEM", MSGS, "toy", 1, temperature=0.5, seed=3)
    assert (reply.tokens_in, reply.tokens_out, reply.tokens_cached, reply.tokens_cache_write) == (1234, 56, 1000, 200)
    assert not reply.approximate and "module m" in reply.text
    assert len(srv.calls) == 2
    body = srv.bodies()[-1]
    assert body["system"] == [{"type": "text", "text": "SYSTEM", "cache_control": {"type": "ephemeral"}}]
    assert body["model"] == "claude-test" and body["temperature"] == 0.5 and "seed" not in body


def test_anthropic_caches_each_part_of_a_sysr_system_prompt(monkeypatch) -> None:
    """The core every task shares, then the task's sections: each the end of a cached prefix."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    usage = {"input_tokens": 3, "output_tokens": 4}
    with FakeServer(answers((200, anthropic_message("claude-test", "no code", usage)))) as srv:
        AnthropicModel("claude-test", base_url=srv.url).complete(SystemPrompt("CORE", "SECTIONS"), MSGS, "toy", 1)
    assert srv.bodies()[-1]["system"] == [{"type": "text", "text": t, "cache_control": {"type": "ephemeral"}}
                                          for t in ("CORE", "SECTIONS")]


def test_anthropic_refused_key_is_fatal(monkeypatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "wrong")
    with FakeServer(answers((401, error("authentication_error", "invalid x-api-key")))) as srv:
        with pytest.raises(ModelError, match=r"refused the key \(401\).*invalid x-api-key") as e:
            AnthropicModel("claude-test", base_url=srv.url).complete("S", MSGS, "toy", 1)
    assert e.value.fatal and len(srv.calls) == 1


def test_anthropic_backend_needs_a_key(monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ModelError, match="ANTHROPIC_API_KEY"):
        get_model("anthropic:claude-test")


def test_openai_answer_without_choices_is_retried(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    broken = {"error": {"message": "provider returned error", "code": 502}}
    with FakeServer(answers((200, broken), (200, chat_completion("tiny-coder", "ok", 3, 1)))) as srv:
        reply = openai(srv).complete("S", MSGS, "toy", 1)
    assert reply.text == "ok" and len(srv.calls) == 2

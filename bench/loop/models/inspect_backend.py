"""The Inspect AI backend: the project's `Model` protocol over the model of a running Inspect eval.

`bench.inspect_eval.task` runs each sample's conversation (`bench.loop.conversation.attempts`, which is
synchronous) in a worker thread of the eval's event loop; `InspectModel.complete` sends each
request back to that loop with `anyio.from_thread.run`, through Inspect's own `Model.generate`,
so the eval's provider, `--temperature`, `--seed`, `--max-connections`, retries and limits apply
and every request is a model event in the log. It can only be called from such a worker thread,
so it is not one of `get_model`'s backends.

Token counts are Inspect's usage, exact: Inspect's `input_tokens` leaves out the prompt-cache
reads and writes, so `tokens_in` adds them back (every prompt token, as the other backends
count), with the reads and writes recorded apart. A provider that reports no usage gets
estimates, marked approximate. An error Inspect raises after its retries (or a limit it
enforces) propagates: the sample errors, as a `ModelError` stops a sample of `bench loop`.
"""

from __future__ import annotations

import anyio.from_thread
from inspect_ai.model import (ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, GenerateConfig, Model,
                              ModelOutput)

from . import Message, Reply, approx_tokens


class InspectModel:
    def __init__(self, model: Model) -> None:
        self.model = model
        self.name = str(model)
        self.outputs: list[ModelOutput] = []  # every output, in order, for the solver to show in the log

    def complete(self, system: str, messages: list[Message], task: str, attempt: int, *,
                 sample: int = 1, temperature: float | None = None, seed: int | None = None) -> Reply:
        chat = [ChatMessageSystem(content=system)]
        chat += [ChatMessageUser(content=m.content) if m.role == "user" else ChatMessageAssistant(content=m.content)
                 for m in messages]
        # only what this call sets; the eval's own generate config (temperature, seed...) fills the rest
        config = GenerateConfig(temperature=temperature, seed=seed)
        output: ModelOutput = anyio.from_thread.run(lambda: self.model.generate(chat, config=config))
        self.outputs.append(output)
        text = output.completion
        u = output.usage
        if u is None:
            prompt = system + "".join(m.content for m in messages)
            return Reply(text, approx_tokens(prompt), approx_tokens(text), approximate=True)
        read, write = u.input_tokens_cache_read or 0, u.input_tokens_cache_write or 0
        return Reply(text, u.input_tokens + read + write, u.output_tokens, tokens_cached=read,
                     tokens_cache_write=write)

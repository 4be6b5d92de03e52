"""Take the design out of a model's reply: the fenced code block that holds the file.

The last block tagged with the condition's language wins (`sysr`; `verilog`, `v`, `sv` or
`systemverilog`); failing that, the longest fenced block of any tag. No block: None, which the
loop records as `no-code`.

What a model sent is made safe to store by `bench.judge.detail.as_received`.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.S | re.M)
TAGS = {"sysr": {"sysr"}, "verilog": {"verilog", "v", "sv", "systemverilog"}}


def extract_code(reply: str, lang: str) -> str | None:
    blocks = [(m.group(2).lower(), m.group(3)) for m in _FENCE.finditer(reply)]
    tagged = [body for tag, body in blocks if tag in TAGS[lang]]
    if tagged:
        return tagged[-1]
    if blocks:
        return max((body for _, body in blocks), key=len)
    return None

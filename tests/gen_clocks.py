"""Several clocks and both edges in generated designs (reference §4.10), for the differential tests.

`with_clocks(text)` rewrites some generated single-clock modules, chosen by a generator of
its own seeded from the text (so the designs of every seed stay what they were, and the
choice is the same on every run), into one of:

- "falling": every `seq` block at the falling edge (`seq(falling clk)`): one clock, one edge;
- "two": a second clock `clk2`, each `seq` block on `clk`, `clk2` or `clk2`'s falling edge
  (the clocks then tick freely, and `clk2` may have a level), and a register `xb` at `clk2`'s
  falling edge that samples a register `xa` of `clk`'s (an output `yx` shows it): the edges of
  the two clocks may come at once, and `xb` must then take `xa`'s old value;
- "both": each `seq` block at one of `clk`'s two edges, and a register `rck` toggled at the
  falling edge that an output `yck` reads with the clock's level.

Some "two" designs with a reset also get a second reset `rst2` of a random kind, one per domain
(§4.10): the blocks on `clk` name the design's reset (`seq(clk, rst)`), those on `clk2` name
`rst2`, so each reset acts on its own registers only (`resets=False`: never, for the Amaranth
back end, which builds one reset).

Modules with instances or `prev`, `next`, `within` (one domain only, A008) are left alone, as are those
without a clock.
"""

from __future__ import annotations

import random
import re
import zlib

MODES = ("falling", "two", "both")


def with_clocks(text: str, rate: float = 0.35, resets: bool = True) -> str:
    rng = random.Random(zlib.crc32(text.encode()))
    temporal = re.search(r"\b(prev|next|within)\(", text)  # history registers: one domain only (A008)
    if "clk: clock" not in text or temporal or "inst " in text or rng.random() >= rate:
        return text
    mode = rng.choice(MODES)
    blocks = {"falling": ["seq(falling clk) {"], "two": ["seq(clk) {", "seq(clk2) {", "seq(falling clk2) {"],
              "both": ["seq(clk) {", "seq(falling clk) {"]}[mode]
    text = re.sub(r"(?<![\w#])seq \{", lambda m: rng.choice(blocks), text)  # (`match r#seq {` is no block)
    if mode == "two":  # and a register at `clk2`'s falling edge that samples one of `clk`'s
        text = text.replace("clk: clock", "clk: clock, clk2: clock, yx: out bool", 1)
        extra = ("  reg xa: bool initial false;\n  reg xb: bool initial false;\n  seq(clk) { xa <= !xa; }\n"
                 "  seq(falling clk2) { xb <= xa; }\n  yx = xb;\n")
        text = re.sub(r"\n\}\s*$", "\n" + extra + "}\n", text)
        reset = re.search(r"\b(\w+): (reset|reset_n|areset|areset_n)\b", text)
        if reset is not None and rng.random() < 0.6 and resets:  # one reset per domain
            kind = rng.choice(("reset", "reset_n", "areset", "areset_n"))
            text = text.replace(reset.group(0), f"{reset.group(0)}, rst2: {kind}", 1)
            text = re.sub(r"(?<![\w#])seq\((falling )?clk(2?)\) \{",
                          lambda m: f"seq({m.group(1) or ''}clk{m.group(2)}, {'rst2' if m.group(2) else reset.group(1)}) {{",
                          text)
    if mode == "both":  # and a register at the falling edge that `yck` reads with the level
        text = text.replace("clk: clock", "clk: clock, yck: out bool", 1)
        extra = "  reg rck: bool initial false;\n  seq(falling clk) { rck <= !rck; }\n  yck = clk != rck;\n"
        text = re.sub(r"\n\}\s*$", "\n" + extra + "}\n", text)
    return text

"""Reading a stimulus file for `sysr sim`: the inputs of each cycle, as a table.

The format (docs/reference.md, §6.7):

    # comment (also `// comment`); blank lines are skipped
    rst  en  d            <- the header: input names (the reset included), in any order
    1    0   0            <- cycle 0
    0    1   0x3f         <- cycle 1
    repeat 8: 0 1 *       <- the same row for 8 cycles; `*`: a random value within the `requires`

Values are decimal, `0x` hex, `0b` binary (`_` separates digits), `true`/`false`, a negative
decimal for a signed input, or an enum variant (`Op::Add`, or `Add`). An input the header does
not name is random in every cycle, like `*`. Errors are `StimulusError` with the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Design
from ..types import Ty, fits, mask

RANDOM = None  # a cell that the simulation fills with a random value within the requires


class StimulusError(ValueError):
    """A stimulus file that cannot be read, with the line it is about."""


@dataclass
class Row:
    values: dict[str, int | None]  # input -> value (None: random)
    line: int


def read_stimulus(text: str, design: Design, inputs: list[tuple[str, Ty]]) -> list[Row]:
    """The rows of a stimulus file, one per cycle (a `repeat` row expanded)."""
    types = dict(inputs)
    header: list[str] | None = None
    rows: list[Row] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = re.split(r"#|//", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        if header is None:
            header = [w.removeprefix("r#") for w in line.replace(",", " ").split()]
            for name in header:
                if name not in types:
                    known = ", ".join(n for n, _ in inputs) or "none"
                    raise StimulusError(f"line {n}: `{name}` is not an input of `{design.module.name}` "
                                        f"(its inputs: {known})")
            if len(set(header)) != len(header):
                raise StimulusError(f"line {n}: an input is named twice in the header")
            continue
        times = 1
        m = re.match(r"repeat\s+(\d+)\s*:\s*(.*)$", line)
        if m:
            times, line = int(m.group(1)), m.group(2)
            if not 1 <= times <= 1_000_000:
                raise StimulusError(f"line {n}: a repeat count of 1 to 1,000,000")
        cells = line.replace(",", " ").split()
        if len(cells) != len(header):
            raise StimulusError(f"line {n}: {len(cells)} values for {len(header)} inputs ({' '.join(header)})")
        values = {name: cell_value(cell, types[name], design, n) for name, cell in zip(header, cells)}
        rows += [Row(values, n)] * times
        if len(rows) > 1_000_000:
            raise StimulusError(f"line {n}: more than 1,000,000 cycles")
    if header is None:
        raise StimulusError("the file has no header line naming the inputs")
    return rows


def cell_value(cell: str, ty: Ty, design: Design, line: int) -> int | None:
    if cell in ("*", "-"):
        return RANDOM
    if ty.kind == "enum":
        info = design.enums[ty.enum]
        name = cell.split("::")[-1]
        if name in info.variants and (cell.count("::") == 0 or cell.split("::")[0] == info.name):
            return info.variants[name]
        raise StimulusError(f"line {line}: `{cell}` is not a variant of `{info.name}` "
                            f"({', '.join(info.variants)})")
    if cell in ("true", "false"):
        if ty.width != 1:
            raise StimulusError(f"line {line}: `{cell}` for an input of {ty.width} bits")
        return int(cell == "true")
    text = cell.replace("_", "")
    neg = text.startswith("-")
    try:
        value = int(text[1:] if neg else text, 0)
    except ValueError:
        raise StimulusError(f"line {line}: `{cell}` is not a value (decimal, 0x.., 0b.., true, false, "
                            "a variant or `*`)") from None
    based = text.lstrip("-")[:2].lower() in ("0x", "0b")
    if neg:
        value = -value
    if not fits(value, ty, based):
        raise StimulusError(f"line {line}: `{cell}` does not fit {ty}")
    return value & mask(ty.width)

"""`sysr explain CODE`: what the full reference says about a diagnostic code, like `rustc --explain`.

The explanation is taken from docs/reference.md, so that it cannot drift from the reference
(whose code blocks the tests check): the code's row of the code table in §9 (its title and the
typical cause and fix), the minimal examples of §9 that get the code (`// expect: CODE`), and
whole the sections that the row's `see` column names (`§4.3`). `explain_codes` joins the
explanations of several codes, each section once, within a size limit: bench's repair messages
append it to the checker's messages, so that a first prompt can carry only the compact
reference (docs/model-reference.md) and a repair gets the detail it needs.

The reference is read from the source checkout (docs/ beside the package), where `make setup`
installs sysr; `ReferenceMissing` says where it looked when it is not there.
"""

from __future__ import annotations

import re
from pathlib import Path

from .diagnostics import CODES

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "reference.md"
DEFAULT_LIMIT = 12_000  # characters of all explanations together, in a repair message

_HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? (.*)$")
_ROW = re.compile(r"^\| ([PNTASHVL]\d{3}) \| (.*?) \| (.*) \| (.*?) \|$")


class ReferenceMissing(Exception):
    """docs/reference.md is not beside the package (sysr is installed without its sources)."""


def reference_text(path: Path = REFERENCE) -> str:
    try:
        return path.read_text()
    except OSError as e:
        raise ReferenceMissing(f"cannot read the reference {path} ({e.strerror}); `sysr explain` needs sysr's "
                               "source checkout, where docs/reference.md is") from None


def sections(text: str) -> dict[str, tuple[str, str]]:
    """Section number ("4.3", "10") -> (heading, body) of every `##` and `###` section; a `##`
    section's body runs to the next `##` heading, taking its subsections with it."""
    lines = text.splitlines()
    heads = [(i, m) for i, line in enumerate(lines) if (m := _HEADING.match(line))]
    out = {}
    for k, (i, m) in enumerate(heads):
        level = len(m.group(1))
        end = next((j for j, n in heads[k + 1:] if len(n.group(1)) <= level), len(lines))
        out[m.group(2)] = (f"§{m.group(2)} {m.group(3)}", "\n".join(lines[i + 1:end]).strip())
    return out


def _row(text: str, code: str) -> tuple[str, str, str] | None:
    for line in text.splitlines():
        m = _ROW.match(line)
        if m and m.group(1) == code:
            return m.group(2), m.group(3).replace("\\|", "|"), m.group(4)
    return None


def see_sections(text: str, code: str) -> list[str]:
    """The section numbers the code table's `see` column names for `code`."""
    row = _row(text, code)
    return re.findall(r"§(\d+(?:\.\d+)?)", row[2]) if row else []


def examples(text: str, code: str) -> list[str]:
    """The minimal examples of §9 that get `code` (their marker line left out)."""
    body = sections(text).get("9", ("", ""))[1]
    out = []
    for block in re.findall(r"```sysr\n(.*?)```", body, re.S):
        first, _, rest = block.partition("\n")
        m = re.match(r"//\s*expect:\s*(.*)", first)
        if m and code in m.group(1).split():
            out.append(rest.rstrip())
    return out


def explain(code: str, text: str | None = None, skip: set[str] | None = None) -> str:
    """The explanation of one code; sections in `skip` are named but not repeated (and the ones
    shown are added to it)."""
    code = code.upper()
    if code not in CODES:
        raise KeyError(code)
    text = reference_text() if text is None else text
    row = _row(text, code)
    title, fix = (row[0], row[1]) if row else (CODES[code], "")
    parts = [f"{code}: {title}"]
    if fix:
        parts.append(f"Typical cause and fix: {fix}")
    for ex in examples(text, code):
        parts.append(f"A minimal file that gets {code}:\n```sysr\n{ex}\n```")
    known = sections(text)
    skip = set() if skip is None else skip
    for number in see_sections(text, code):
        if number not in known:
            continue
        heading, body = known[number]
        if number in skip:
            parts.append(f"({heading}: given above)")
            continue
        skip.add(number)
        parts.append(f"From the reference, {heading}:\n\n{body}")
    return "\n\n".join(parts)


def explain_codes(codes, text: str | None = None, limit: int = DEFAULT_LIMIT) -> str:
    """The explanations of the distinct known codes in `codes`, in order, each section once; cut
    at `limit` characters (whole explanations are left out, and the cut is said)."""
    text = reference_text() if text is None else text
    seen: list[str] = []
    for c in codes:
        if c in CODES and c not in seen:
            seen.append(c)
    shown, skip, size = [], set(), 0
    for i, c in enumerate(seen):
        trial = set(skip)
        part = explain(c, text, trial)
        if size + len(part) > limit and shown:
            rest = ", ".join(seen[i:])
            shown.append(f"(left out to keep this short: the explanation of {rest}; `sysr explain CODE` prints it)")
            break
        shown.append(part[:limit] if not shown else part)
        skip, size = trial, size + len(part)
    return "\n\n".join(shown)

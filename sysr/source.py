"""Reading a design file: its bytes to text, with the checks that come before any parsing.

A path that is not a readable regular file is the caller's mistake (an exception, which the
command line reports as a usage error). What the file holds is the design's: a file larger
than `limits.MAX_FILE_BYTES` is L001 without being read further, bytes that are not UTF-8
and NUL bytes are L002, each pointing at where the problem is. The text of such a file is
still returned (with replacement characters) so that the diagnostic can show the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import limits
from .diagnostics import Diagnostic, error
from .front.syntax import Span


@dataclass(frozen=True)
class Source:
    text: str
    problem: Diagnostic | None = None  # L001 or L002: the file cannot be checked


def read_design(path: str) -> Source:
    """The design at `path`. Raises FileNotFoundError, IsADirectoryError, PermissionError or
    ValueError (not a regular file) for a path that cannot be read as a design file."""
    p = Path(path)
    if p.is_dir():
        raise IsADirectoryError(f"{path} is a directory, not a design file")
    if not p.exists():
        raise FileNotFoundError(f"no such file: {path}")
    if not p.is_file():
        raise ValueError(f"{path} is not a regular file")
    with p.open("rb") as f:
        data = f.read(limits.MAX_FILE_BYTES + 1)
    if len(data) > limits.MAX_FILE_BYTES:
        return Source("", too_large(p.stat().st_size))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return Source(data.decode("utf-8", errors="replace"), not_utf8(data, e.start))
    return Source(text, text_problem(text))


def text_problem(text: str) -> Diagnostic | None:
    """L001 or L002 for text handed to the pipeline, or None when it can be parsed."""
    if len(text) > limits.MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > limits.MAX_FILE_BYTES:
        return too_large(len(text.encode("utf-8", "surrogatepass")))
    at = text.find("\x00")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        return error("L002", "the file holds a NUL byte here: it is not a text file", Span(line, column, line, column + 1),
                     "a design is UTF-8 text")
    return None


def too_large(size: int) -> Diagnostic:
    return error("L001", f"the file is {size:,} bytes; the checker reads designs of up to "
                         f"{limits.MAX_FILE_BYTES:,} bytes", Span(1, 1, 1, 2),
                 "a design this large is almost certainly generated or padded: keep the modules with their "
                 "fns and consts, and no long comments or repeated code")


def not_utf8(data: bytes, at: int) -> Diagnostic:
    line = data.count(b"\n", 0, at) + 1
    start = data.rfind(b"\n", 0, at) + 1
    column = len(data[start:at].decode("utf-8", errors="replace")) + 1
    return error("L002", f"the byte 0x{data[at]:02x} here is not UTF-8: the file is not a UTF-8 text file",
                 Span(line, column, line, column + 1),
                 "save the design as UTF-8 (comments may hold any UTF-8 text; the code itself is ASCII)")

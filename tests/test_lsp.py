"""`sysr lsp`: the language server, tested as an editor uses it and piece by piece.

A real JSON-RPC exchange over the server's standard input and output (`bin/sysr lsp` in a
subprocess): initialize, didOpen of a design with a width error and the publishDiagnostics
that carries T001 on the right (0-based) line, hover, go to definition, an edit whose proof
fails (V002 arrives after the pause), an edit that cancels a running proof (its process is
ended and its result never published), save, close, shutdown and exit. Then the pieces: span
to range conversion (1-based to 0-based, UTF-16 columns), the symbol under a position (raw
identifiers `r#match` too, over stdio and piece by piece), and settings.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

from sysr.lsp.convert import lsp_diagnostic, span_range
from sysr.lsp.server import Settings
from sysr.lsp.symbols import design_at, symbol_at
from sysr.pipeline import analyze

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///work/demo.sysr"


class Client:
    """A minimal LSP client: Content-Length framed JSON-RPC over a subprocess's pipes."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.inbox: queue.Queue = queue.Queue()
        self.notifications: list[dict] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                key, _, value = line.decode().partition(":")
                headers[key.strip().lower()] = value.strip()
            self.inbox.put(json.loads(out.read(int(headers["content-length"]))))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params, timeout: float = 30):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        msg = self._wait(lambda m: m.get("id") == self.next_id and "method" not in m, timeout)
        assert "error" not in msg, msg
        return msg["result"]

    def notification(self, method: str, where=lambda p: True, timeout: float = 30) -> dict:
        for i, m in enumerate(self.notifications):
            if m["method"] == method and where(m["params"]):
                return self.notifications.pop(i)["params"]
        return self._wait(lambda m: m.get("method") == method and where(m["params"]), timeout)["params"]

    def _wait(self, match, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no answer in {timeout} s; got {self.notifications}"
            try:
                msg = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            assert msg is not None, "the server closed its output: " + self.proc.stderr.read().decode()[-3000:]
            if match(msg):
                return msg
            if "method" in msg and "id" not in msg:
                self.notifications.append(msg)

    def published(self, version: int, timeout: float = 30) -> list[dict]:
        return self.notification("textDocument/publishDiagnostics",
                                 lambda p: p["uri"] == URI and p.get("version") == version, timeout)["diagnostics"]


WIDTH_ERROR = """// a width error on line 4
module m(clk: clock, rst: reset, a: in u8, y: out u16) {
  reg acc: u8 = 0;
  y = acc;
  seq { acc <= acc + a; }
}
"""
FAILING = """module m(a: in u8, y: out u8) {
  y = a + 1;
  ensures y > a;
}
"""
SLOW = """module m(a: in u32, b: in u32, y: out u64) {
  y = a as u64 * b as u64;  ensures y != 1000000016000000063; }
"""
FIXED = """module m(a: in u8, y: out u8) {
  y = a | 1;
  ensures y != 0;
}
"""


def proof_workers(pid: int) -> list[int]:
    """The server's running proof processes (children running sysr.lsp.prove)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"sysr.lsp.prove" in cmd:
            out.append(int(entry.name))
    return out


@pytest.fixture
def client():
    c = Client([str(ROOT / "bin" / "sysr"), "lsp"])
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
    c.proc.wait(timeout=10)


def change(client: Client, version: int, text: str) -> None:
    client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                             "contentChanges": [{"text": text}]})


def test_an_editor_session_over_stdio(client):
    caps = client.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {},
                                         "initializationOptions": {"proofDelay": 0.2, "timeout": 60}})
    assert caps["serverInfo"]["name"] == "sysr"
    assert caps["capabilities"]["hoverProvider"] and caps["capabilities"]["definitionProvider"]
    client.notify("initialized", {})

    # open: the checker's T001 on line 4 (0-based 3), at `acc`
    client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sysr", "version": 1,
                                                            "text": WIDTH_ERROR}})
    [diag] = client.published(1)
    assert diag["code"] == "T001" and diag["severity"] == 1 and diag["source"] == "sysr"
    assert diag["range"]["start"] == {"line": 3, "character": 6}
    assert "u16" in diag["message"] and "u8" in diag["message"]

    # hover and definition of `acc` where it is read on line 4
    got = client.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 3, "character": 7}})
    assert got["contents"]["value"] == "register `acc`: `u8` (8 bits, unsigned), reset value 0"
    assert got["range"] == {"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 9}}
    got = client.request("textDocument/definition", {"textDocument": {"uri": URI}, "position": {"line": 4, "character": 17}})
    assert got == {"uri": URI, "range": {"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 9}}}
    assert client.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                 "position": {"line": 0, "character": 3}}) is None  # a comment

    # an edit: no static error, so the proofs run after the pause and their V002 arrives
    change(client, 2, FAILING)
    assert client.published(2) == []
    [v002] = client.published(2)
    assert v002["code"] == "V002" and v002["range"]["start"]["line"] == 2
    assert "cycle" in v002["message"]  # the counterexample trace comes along

    # an edit starts a slow proof; the next edit ends it: its result is never published
    change(client, 3, SLOW)
    assert client.published(3) == []
    slow = wait_for_worker(client)
    change(client, 4, FIXED)
    assert client.published(4) == []
    assert client.published(4, timeout=30) == []  # the proofs of version 4: all proven
    assert not alive(slow)
    assert not [n for n in client.notifications if n["params"].get("version") == 3]

    # close clears the diagnostics
    client.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    assert client.notification("textDocument/publishDiagnostics", lambda p: p["uri"] == URI)["diagnostics"] == []

    assert client.request("shutdown", None) is None
    client.notify("exit", None)
    assert client.proc.wait(timeout=20) == 0


def start(client: Client, options: dict) -> None:
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                  "initializationOptions": options})
    client.notify("initialized", {})
    client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sysr", "version": 1,
                                                            "text": FAILING}})


def test_proofs_on_save_only(client):
    start(client, {"proofs": "save"})
    assert client.published(1) == []
    time.sleep(1.5)  # more than the pause: no proof without a save
    assert not proof_workers(client.proc.pid) and not client.notifications
    client.notify("textDocument/didSave", {"textDocument": {"uri": URI}})
    assert [d["code"] for d in client.published(1)] == ["V002"]
    client.request("shutdown", None)
    client.notify("exit", None)


def wait_for_worker(client: Client) -> list[int]:
    deadline = time.monotonic() + 20
    while not proof_workers(client.proc.pid):
        assert time.monotonic() < deadline, "the proof never started"
        time.sleep(0.05)
    return proof_workers(client.proc.pid)


def alive(pids: list[int]) -> list[int]:
    return [p for p in pids if Path(f"/proc/{p}").exists() and b"prove" in Path(f"/proc/{p}/cmdline").read_bytes()]


def test_no_proof_outlives_the_server(client):
    start(client, {"proofs": "save", "timeout": 120})
    change(client, 2, SLOW)
    client.notify("textDocument/didSave", {"textDocument": {"uri": URI}})
    workers = wait_for_worker(client)
    assert client.request("shutdown", None) is None
    client.notify("exit", None)
    assert client.proc.wait(timeout=20) == 0
    deadline = time.monotonic() + 10
    while alive(workers):
        assert time.monotonic() < deadline, "the proof worker is still running"
        time.sleep(0.05)


def test_proofs_off_publishes_static_diagnostics_only(client):
    start(client, {"proofs": "off", "proofDelay": 0})
    assert client.published(1) == []
    client.notify("textDocument/didSave", {"textDocument": {"uri": URI}})
    time.sleep(1.5)
    assert not proof_workers(client.proc.pid) and not client.notifications
    client.request("shutdown", None)
    client.notify("exit", None)


# ---- the pieces -------------------------------------------------------------------------------

def test_spans_are_1_based_and_ranges_0_based():
    r = span_range(4, 7, 4, 10)
    assert (r.start.line, r.start.character, r.end.line, r.end.character) == (3, 6, 3, 9)
    r = span_range(2, 5, 2, 5)  # an empty span still marks one character
    assert (r.start.character, r.end.character) == (4, 5)


def test_columns_after_non_ascii_text_are_utf16_code_units():
    text = "module m(a: in u8, y: out u16) {\n  /* \U0001f600 */ y = a;\n}\n"
    [d] = analyze(text).diagnostics
    assert (d.span.line, d.span.column) == (2, 15)  # characters: the emoji is one
    doc = TextDocument(URI, text, position_codec=PositionCodec(lsp.PositionEncodingKind.Utf16))
    got = lsp_diagnostic(doc, URI, d.to_json())
    assert got.range.start == lsp.Position(1, 15)  # UTF-16: the emoji is two code units
    assert got.code == "T001" and got.severity == lsp.DiagnosticSeverity.Error


DESIGN = """const N: u8 = 200;
enum Mode { Idle, Run }
fn clip(x: u8) -> u8 { if x < N then x else N }
module m(clk: clock, rst_n: reset_n, d: in s4, mode: in Mode, y: out u8) {
  reg mem: u8[4];
  wire w: u8 = clip(mem[0]);
  comb { let t: u8 = w + 1; y = t; for i in 0..4 { y = y ^ (i as u8); } }
  seq { if mode == Mode::Run { mem[1] <= y; } }
}
"""


def position(design: str, line: int, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, column) of the nth `needle` on a line of `design`, 1-based."""
    text = design.splitlines()[line - 1]
    col = -1
    for _ in range(nth + 1):
        col = text.index(needle, col + 1)
    return line, col + 1


def at(line: int, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, column) of the nth `needle` on a line of DESIGN, 1-based."""
    return position(DESIGN, line, needle, nth)


@pytest.mark.parametrize("where,text,definition", [
    (at(1, "N"), "const `N`: `u8` (8 bits, unsigned) = 200", at(1, "N")),
    (at(3, "N", 1), "const `N`: `u8` (8 bits, unsigned) = 200", at(1, "N")),
    (at(3, "x <"), "parameter `x`: `u8` (8 bits, unsigned)", at(3, "x:")),
    (at(6, "clip"), "fn `clip(x: u8) -> u8`", at(3, "clip")),
    (at(6, "mem"), "memory `mem`: 4 entries of `u8` (8 bits, unsigned)", at(5, "mem")),
    (at(7, "t;"), "let `t`: `u8` (8 bits, unsigned)", at(7, "t:")),
    (at(7, "i as"), "loop variable `i`: `u2` (2 bits, unsigned)", at(7, "i in")),
    (at(4, "d:"), "input `d`: `s4` (4 bits, signed)", at(4, "d:")),
    (at(4, "rst_n"), "reset `rst_n`: synchronous reset, active low: `bool` (1 bit)", at(4, "rst_n")),
    (at(8, "Mode::Run"), "variant `Mode::Run` = 1: `Mode` (enum, 1 bit)", at(2, "Run")),
    (at(4, "Mode"), "enum `Mode` (1 bit): Idle = 0, Run = 1", at(2, "Mode")),
    (at(6, "u8"), "type `u8` (8 bits, unsigned)", None),
    (at(7, "y ^"), "output `y`: `u8` (8 bits, unsigned)", at(4, "y:")),
    (at(8, "y;"), "output `y`: `u8` (8 bits, unsigned)", at(4, "y:")),
])
def test_the_symbol_under_a_position(where, text, definition):
    d = analyze(DESIGN).design
    sym = symbol_at(d, *where)
    assert sym is not None and sym.text == text
    got = None if sym.definition is None else (sym.definition.line, sym.definition.column)
    assert got == definition


RAW = """const r#const: u8 = 3;
enum r#enum { r#match, Other }
fn r#fn(r#in: u8, r#x: u8) -> u8 { r#in + r#x + r#const }
module m(clk: clock, arst: areset, e: in r#enum, a: in u8, r#match: out u8) {
  comb { let r#let: u8 = r#fn(a, 1); r#match = if e == r#enum::r#match then r#let else 0; }
}
"""


def raw_at(line: int, needle: str, nth: int = 0, offset: int = 0) -> tuple[int, int]:
    text = RAW.splitlines()[line - 1]
    col = -1
    for _ in range(nth + 1):
        col = text.index(needle, col + 1)
    return line, col + 1 + offset


def raw_span(line: int, needle: str, nth: int = 0, length: int | None = None) -> tuple[int, int, int]:
    """(line, column, end column) of the nth `needle` on a line of RAW (or its first `length` characters)."""
    _, col = raw_at(line, needle, nth)
    return line, col, col + (len(needle) if length is None else length)


PORT = raw_span(4, "r#match")
VARIANT = raw_span(2, "r#match")


@pytest.mark.parametrize("where,text,span,definition", [
    # on the `r#`, in the name and just after it: the raw identifier is one name
    (raw_at(5, "r#match", 0, 0), "output `r#match`: `u8` (8 bits, unsigned)", raw_span(5, "r#match"), PORT),
    (raw_at(5, "r#match", 0, 4), "output `r#match`: `u8` (8 bits, unsigned)", raw_span(5, "r#match"), PORT),
    (raw_at(5, "r#match", 0, 7), "output `r#match`: `u8` (8 bits, unsigned)", raw_span(5, "r#match"), PORT),
    (raw_at(4, "r#match", 0, 1), "output `r#match`: `u8` (8 bits, unsigned)", PORT, PORT),
    (raw_at(5, "r#fn"), "fn `r#fn(in: u8, x: u8) -> u8`", raw_span(5, "r#fn"), raw_span(3, "r#fn")),
    (raw_at(3, "r#in", 1), "parameter `in`: `u8` (8 bits, unsigned)", raw_span(3, "r#in", 1), raw_span(3, "r#in")),
    (raw_at(3, "r#in", 0, 3), "parameter `in`: `u8` (8 bits, unsigned)", raw_span(3, "r#in"), raw_span(3, "r#in")),
    (raw_at(3, "r#const"), "const `r#const`: `u8` (8 bits, unsigned) = 3", raw_span(3, "r#const"),
     raw_span(1, "r#const")),
    (raw_at(5, "r#let", 1), "let `r#let`: `u8` (8 bits, unsigned)", raw_span(5, "r#let", 1), raw_span(5, "r#let")),
    (raw_at(5, "r#enum::r#match"), "variant `r#enum::r#match` = 0: `r#enum` (enum, 1 bit)",
     raw_span(5, "r#enum::r#match"), VARIANT),
    (raw_at(2, "r#match", 0, 6), "variant `r#enum::r#match` = 0: `r#enum` (enum, 1 bit)", VARIANT, VARIANT),
    (raw_at(4, "r#enum"), "enum `r#enum` (1 bit): r#match = 0, Other = 1", raw_span(4, "r#enum"),
     raw_span(2, "r#enum")),
    (raw_at(4, "arst"), "asynchronous reset `arst`: active high, registers read as their reset values at once: "
                        "`bool` (1 bit)", raw_span(4, "arst"), raw_span(4, "arst")),
])
def test_raw_identifiers_under_a_position(where, text, span, definition):
    d = analyze(RAW).design
    sym = symbol_at(d, *where, RAW)
    assert sym is not None and sym.text == text
    assert (sym.span.line, sym.span.column, sym.span.end_column) == span
    assert (sym.definition.line, sym.definition.column, sym.definition.end_column) == definition


def test_hover_and_definition_of_a_raw_identifier_over_stdio(client):
    text = (ROOT / "examples" / "cam_match.sysr").read_text()
    lines = text.splitlines()
    use = next(i for i, ln in enumerate(lines) if "r#match = true" in ln)
    decl = next(i for i, ln in enumerate(lines) if "r#match: out bool" in ln)
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                  "initializationOptions": {"proofs": "off"}})
    client.notify("initialized", {})
    client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sysr", "version": 1,
                                                            "text": text}})
    assert client.published(1) == []
    col = lines[use].index("r#match = true")
    got = client.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                "position": {"line": use, "character": col + 3}})
    assert got["contents"]["value"] == "output `r#match`: `bool` (1 bit)"
    assert got["range"] == {"start": {"line": use, "character": col}, "end": {"line": use, "character": col + 7}}
    got = client.request("textDocument/definition", {"textDocument": {"uri": URI},
                                                     "position": {"line": use, "character": col}})
    start = lines[decl].index("r#match")
    assert got == {"uri": URI, "range": {"start": {"line": decl, "character": start},
                                         "end": {"line": decl, "character": start + 7}}}
    client.request("shutdown", None)
    client.notify("exit", None)


def test_no_symbol_in_comments_literals_or_keywords():
    d = analyze(DESIGN).design
    assert symbol_at(d, *at(1, "200")) is None and symbol_at(d, *at(8, "seq")) is None


def test_settings_ignore_what_they_do_not_know():
    s = Settings.from_options({"proofs": "save", "proofDelay": 0.5, "depth": 8, "timeout": "soon", "x": 1})
    assert (s.proofs, s.proof_delay, s.depth, s.timeout) == ("save", 0.5, 8, 30.0)
    assert Settings.from_options(None) == Settings()


RESET_LESS = """module m(clk: clock, d: in u8, q: out reg u8) {
  reg r: u8;
  ghost reg k: u8;
  seq { r <= d; q <= r; }
  ensures k == prev(k);
}
"""


@pytest.mark.parametrize("line,needle,text", [
    (4, "q <=", "registered output `q`: `u8` (8 bits, unsigned), no reset value (any value until written; the reset "
                "leaves it alone)"),
    (4, "r <=", "register `r`: `u8` (8 bits, unsigned), no reset value (any value until written; the reset leaves "
                "it alone)"),
    (5, "k ==", "ghost register `k`: `u8` (8 bits, unsigned), no reset value (any value until written; the reset "
                "leaves it alone)"),
])
def test_hover_says_a_register_has_no_reset_value(line, needle, text):
    col = RESET_LESS.splitlines()[line - 1].index(needle) + 1
    sym = symbol_at(analyze(RESET_LESS).design, line, col, RESET_LESS)
    assert sym is not None and sym.text == text


HIERARCHY = """module inc(x: in u8, y: out u8) {
  y = x + 1;
}

module top(x: in u16, y: out u8) {
  inst i = inc(x: x[7:0]);
  y = i.y;
}
"""


@pytest.mark.parametrize("line,needle,text,definition", [
    (2, "x + 1", "input `x`: `u8` (8 bits, unsigned)", (1, 12)),      # the child's `x`, not the top's
    (6, "x[7:0]", "input `x`: `u16` (16 bits, unsigned)", (5, 12)),   # the top's
    (7, "i.y", "output `y` of instance `i` (module `inc`): `u8` (8 bits, unsigned)", (1, 22)),
    (6, "inc(", "module `inc`: `x`, `y`", (1, 8)),
])
def test_hover_in_a_file_of_several_modules(line, needle, text, definition):
    h = analyze(HIERARCHY).hierarchy
    col = HIERARCHY.splitlines()[line - 1].index(needle) + 1
    sym = symbol_at(design_at(h, line, col), line, col, HIERARCHY)
    assert sym is not None and sym.text == text
    assert (sym.definition.line, sym.definition.column) == definition


CLOCKS = """module m(wclk: clock, rclk: clock, arst: areset, d: in bool, q: out bool, lvl: out bool) {
  reg a: bool = false;
  reg b: bool = false;
  seq(wclk) { a <= d; }
  seq(falling rclk) { b <= a; }
  q = b;
  lvl = rclk;
}
"""


@pytest.mark.parametrize("line,needle,text", [
    (4, "a <=", "register `a`: `bool` (1 bit), clocked by `wclk` at its rising edge, reset value 0"),
    (5, "b <=", "register `b`: `bool` (1 bit), clocked by `rclk` at its falling edge, reset value 0"),
    (7, "rclk;", "clock `rclk`: times the `seq` blocks at its falling edge; read as its level: `bool` (1 bit)"),
    (1, "wclk", "clock `wclk`: times the `seq` blocks at its rising edge"),
])
def test_hover_shows_each_register_s_clock_and_each_clock_s_edges(line, needle, text):
    col = CLOCKS.splitlines()[line - 1].index(needle) + 1
    sym = symbol_at(analyze(CLOCKS).design, line, col, CLOCKS)
    assert sym is not None and sym.text == text


RESETS = """module m(wclk: clock, rclk: clock, wrst_n: areset_n, rrst: reset, d: in bool, q: out bool) {
  reg a: bool = false;
  reg b: bool = false;
  seq(wclk, wrst_n) { a <= d; }
  seq(rclk, rrst) { b <= a; }
  q = b;
}
"""


@pytest.mark.parametrize("line,needle,text", [
    (4, "a <=", "register `a`: `bool` (1 bit), clocked by `wclk` at its rising edge, reset value 0 (by `wrst_n`)"),
    (4, "wrst_n)", "asynchronous reset `wrst_n`: active low, registers read as their reset values at once: "
                   "`bool` (1 bit); resets the registers of the blocks on `wclk`"),
    (5, "rrst)", "reset `rrst`: synchronous reset, active high: `bool` (1 bit); resets the registers of the blocks "
                 "on `rclk`"),
    (5, "rclk,", "clock `rclk`: times the `seq` blocks at its rising edge"),
])
def test_hover_shows_each_register_s_reset_and_each_reset_s_blocks(line, needle, text):
    """With a reset per domain (§4.10), a `seq` block's clock and reset can be hovered too."""
    col = RESETS.splitlines()[line - 1].index(needle) + 1
    sym = symbol_at(analyze(RESETS).design, line, col, RESETS)
    assert sym is not None and sym.text == text

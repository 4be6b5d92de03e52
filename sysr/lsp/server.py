"""The sysr language server (pygls): diagnostics as you type, hover, go to definition.

On open and on every change the static checks (`sysr.pipeline.analyze`: parse, names, types,
structure) run at once and their diagnostics are published. The proofs run after a pause
(`proofDelay` seconds without an edit, 1 by default) or at once on save, in a separate process
(`sysr.lsp.prove`): a new edit cancels the pending proof and ends a running one, so only the
proofs of the latest text are ever published. When they finish, the full set (static and proof
diagnostics) replaces the static one.

Settings come from the client's `initializationOptions`: `proofs` ("pause", the default,
"save" or "off"), `proofDelay` (seconds), `depth`, `induction` and `timeout` (as for
`sysr check`).
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..pipeline import Outcome, analyze
from .convert import diagnostic_json, lsp_diagnostic, of_span, to_client
from .symbols import design_at, symbol_at

PROOF_MODES = ("pause", "save", "off")


@dataclass
class Settings:
    proofs: str = "pause"
    proof_delay: float = 1.0
    depth: int = 20
    induction: int = 2
    timeout: float = 30.0

    @classmethod
    def from_options(cls, options) -> "Settings":
        o = options if isinstance(options, dict) else {}
        s = cls()
        if o.get("proofs") in PROOF_MODES:
            s.proofs = o["proofs"]
        for key, attr, kind in (("proofDelay", "proof_delay", float), ("depth", "depth", int),
                                ("induction", "induction", int), ("timeout", "timeout", float)):
            if isinstance(o.get(key), (int, float)) and o[key] >= 0:
                setattr(s, attr, kind(o[key]))
        return s


class ProofRunner:
    """Runs `sysr.lsp.prove` on a text after a delay; `cancel` stops it at any point."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.task: asyncio.Task | None = None
        self.text: str | None = None  # what it proves or proved
        self.started = False  # past the delay
        self.finished = False
        self.proc: asyncio.subprocess.Process | None = None

    def start(self, text: str, delay: float, done) -> None:
        """Cancel what runs and start over: `done(diagnostics_json | None, error | None)` at the end."""
        self.cancel()
        self.text, self.started, self.finished = text, False, False
        self.task = asyncio.get_running_loop().create_task(self._run(text, delay, done))

    def running(self) -> bool:
        return self.task is not None and not self.task.done() and self.started

    def cancel(self) -> None:
        """Stop the pending or running proof; the worker process is killed at once."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.text = None

    async def _run(self, text: str, delay: float, done) -> None:
        await asyncio.sleep(delay)
        self.started = True
        self.proc = proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        try:
            out, err = await proc.communicate(text.encode("utf-8"))
        except asyncio.CancelledError:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()
            raise
        self.finished = True
        if proc.returncode != 0:
            done(None, f"sysr: the proofs did not run (exit {proc.returncode}): "
                       f"{err.decode(errors='replace').strip()[-2000:]}")
            return
        try:
            done(json.loads(out), None)
        except ValueError:
            done(None, "sysr: the proof worker printed no diagnostics")


class SysrLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sysr", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self.analyses: dict[str, tuple[str, Outcome]] = {}
        self.runners: dict[str, ProofRunner] = {}

    def proof_command(self) -> list[str]:
        s = self.settings
        return [sys.executable, "-m", "sysr.lsp.prove", "--depth", str(s.depth),
                "--induction", str(s.induction), "--timeout", str(s.timeout)]

    def analysis(self, uri: str) -> Outcome:
        """The static analysis of the document's current text (cached by text)."""
        text = self.workspace.get_text_document(uri).source
        cached = self.analyses.get(uri)
        if cached is None or cached[0] != text:
            cached = (text, analyze(text))
            self.analyses[uri] = cached
        return cached[1]

    def publish(self, uri: str, version, diagnostics_json: list[dict]) -> None:
        doc = self.workspace.get_text_document(uri)
        diags = [lsp_diagnostic(doc, uri, j) for j in diagnostics_json]
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, diags, version))

    def checked(self, uri: str) -> None:
        """On open and change: static diagnostics now, the proofs after a pause."""
        doc = self.workspace.get_text_document(uri)
        outcome = self.analysis(uri)
        self.publish(uri, doc.version, [diagnostic_json(d) for d in outcome.diagnostics])
        self.runner(uri).cancel()
        if outcome.accepted and self.settings.proofs == "pause":
            self.prove(uri, self.settings.proof_delay)

    def saved(self, uri: str) -> None:
        """On save: the proofs now, unless those of this very text have run or are running."""
        text = self.workspace.get_text_document(uri).source
        runner = self.runner(uri)
        if self.settings.proofs == "off" or not self.analysis(uri).accepted:
            return
        if runner.text == text and (runner.running() or runner.finished):
            return
        self.prove(uri, 0.0)

    def runner(self, uri: str) -> ProofRunner:
        return self.runners.setdefault(uri, ProofRunner([]))

    def prove(self, uri: str, delay: float) -> None:
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        runner = self.runner(uri)
        runner.command = self.proof_command()

        def done(diagnostics, error) -> None:
            current = self.workspace.get_text_document(uri)
            if current.version != version or current.source != text:
                return  # an edit came in meanwhile: its own proofs will report
            if error is not None:
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, error))
                return
            self.publish(uri, version, diagnostics)

        runner.start(text, delay, done)

    def closed(self, uri: str) -> None:
        runner = self.runners.pop(uri, None)
        if runner is not None:
            runner.cancel()
        self.analyses.pop(uri, None)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    def symbol(self, uri: str, position: lsp.Position):
        outcome = self.analysis(uri)
        if outcome.design is None:
            return None, None
        doc = self.workspace.get_text_document(uri)
        p = doc.position_from_client_units(position)
        d = design_at(outcome.hierarchy, p.line + 1, p.character + 1) if outcome.hierarchy else outcome.design
        return symbol_at(d, p.line + 1, p.character + 1, doc.source), doc


server = SysrLanguageServer()


@server.feature(lsp.INITIALIZE)
def initialize(ls: SysrLanguageServer, params: lsp.InitializeParams) -> None:
    ls.settings = Settings.from_options(params.initialization_options)


@server.feature(lsp.SHUTDOWN)
def shutdown(ls: SysrLanguageServer, params) -> None:
    for runner in ls.runners.values():  # no proof outlives the server
        runner.cancel()


# Document events: open and change check now and prove after a pause, save proves now.
DOCUMENT_EVENTS = {lsp.TEXT_DOCUMENT_DID_OPEN: SysrLanguageServer.checked,
                   lsp.TEXT_DOCUMENT_DID_CHANGE: SysrLanguageServer.checked,
                   lsp.TEXT_DOCUMENT_DID_SAVE: SysrLanguageServer.saved,
                   lsp.TEXT_DOCUMENT_DID_CLOSE: SysrLanguageServer.closed}
for _event, _handler in DOCUMENT_EVENTS.items():
    server.feature(_event)(lambda ls, params, handler=_handler: handler(ls, params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: SysrLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    sym, doc = ls.symbol(params.text_document.uri, params.position)
    if sym is None:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, sym.text), to_client(doc, of_span(sym.span)))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: SysrLanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    sym, doc = ls.symbol(params.text_document.uri, params.position)
    if sym is None or sym.definition is None:
        return None
    return lsp.Location(params.text_document.uri, to_client(doc, of_span(sym.definition)))


def main() -> int:
    server.start_io()
    return 0

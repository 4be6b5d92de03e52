"""What `sysr check` prints: the human report and the `--json` report, both bounded.

At most `limits.MAX_DIAGNOSTICS` diagnostics are shown (errors before warnings, then in source
order) and the rest are counted; the JSON report shows at most `limits.MAX_PROPERTIES`
properties (the undecided and failed ones first), cuts its `text` field at
`limits.MAX_TEXT_CHARS`, and is never longer than `limits.MAX_JSON_BYTES`: when the parts
together would be, it drops traces from the properties (the diagnostics show them), then
traces after the first, then diagnostics from the end, then cuts the text, until it fits. It is
always one valid JSON object.
"""

from __future__ import annotations

import json

from . import limits
from .diagnostics import Diagnostic, Severity, clip, render


def shown(diags: list[Diagnostic]) -> tuple[list[Diagnostic], int]:
    """The diagnostics to show, in their order, and how many are left out."""
    if len(diags) <= limits.MAX_DIAGNOSTICS:
        return list(diags), 0
    ranked = sorted(range(len(diags)), key=lambda i: (-diags[i].severity, i))[:limits.MAX_DIAGNOSTICS]
    return [diags[i] for i in sorted(ranked)], len(diags) - limits.MAX_DIAGNOSTICS


def summary(outcome) -> str:
    errors = sum(d.severity == Severity.ERROR for d in outcome.diagnostics)
    warnings = sum(d.severity == Severity.WARNING for d in outcome.diagnostics)
    if outcome.accepted:
        if outcome.verified:
            n = sum(p.get("kind") != "cover" for p in outcome.properties)
            c = len(outcome.properties) - n
            what = f"{n} propert{'y' if n == 1 else 'ies'} proven" if n else "no properties to prove"
            what += f", {c} cover{'' if c == 1 else 's'} reached" if c else ""
            return f"accepted: {what}" + (f", {warnings} warning(s)" if warnings else "")
        return "accepted by the static checks (proofs not run)"
    return f"rejected: {errors} error(s)" + (f", {warnings} warning(s)" if warnings else "")


def human(outcome, filename: str, text: str) -> str:
    """Every diagnostic shown rendered, what was left out, then a one-line summary."""
    diags, omitted = shown(outcome.diagnostics)
    parts = [render(d, filename, text) + "\n" for d in diags]
    if omitted:
        parts.append(f"{filename}: {omitted} more diagnostic(s) not shown: the first "
                     f"{limits.MAX_DIAGNOSTICS} errors and warnings are, in source order; fix those first\n")
    return "\n".join(parts + [f"{filename}: {summary(outcome)}"])


def _properties(props: list[dict]) -> tuple[list[dict], int]:
    """The properties to list (the undecided and failed ones first when there are too many)."""
    keep = range(len(props))
    if len(props) > limits.MAX_PROPERTIES:
        ranked = sorted(keep, key=lambda i: (props[i].get("status") == "proven", i))
        keep = sorted(ranked[:limits.MAX_PROPERTIES])
    out = [{**props[i], "text": clip(str(props[i].get("text", "")))} for i in keep]
    return out, len(props) - len(out)


def _cut_text(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... the report is cut here: {len(text) - limit:,} more characters]"


def json_report(outcome, filename: str, text: str) -> str:
    """The `--json` report: one JSON object of at most `limits.MAX_JSON_BYTES` bytes."""
    diags, omitted = shown(outcome.diagnostics)
    ports = port_list(outcome.design)
    props, props_omitted = _properties(outcome.properties)
    report = {
        "file": clip(filename),
        "accepted": outcome.accepted,
        "verified": outcome.verified,
        "diagnostics": [d.to_json() for d in diags],
        "diagnostics_omitted": omitted,
        "properties": props,
        "properties_omitted": props_omitted,
        "ports": ports[:MAX_PORTS_SHOWN] if ports is not None else None,
        "ports_omitted": max(0, len(ports) - MAX_PORTS_SHOWN) if ports is not None else 0,
        "timing": {k: round(v, 4) for k, v in outcome.timing.items()},
        "text": _cut_text(human(outcome, filename, text), limits.MAX_TEXT_CHARS),
    }
    return fit(report)


MAX_PORTS_SHOWN = 512  # ports listed in the report; the rest are counted in `ports_omitted`


def port_list(design) -> list[dict] | None:
    """The module's interface, in source order (None when the file did not parse): each port's
    name (as in the Verilog; `r#match` is `match`), kind (`in`, `out`, `out_reg`, `clock`,
    `reset`, `reset_n`, `areset`, `areset_n`), type and width (None where the type has an error)."""
    if design is None:
        return None
    out = []
    for p in design.ports:
        sig = design.signals.get(p.name)
        ty = sig.ty if sig is not None and sig.decl is p else None
        width = 1 if p.kind == "clock" else (ty.width if ty is not None else None)
        out.append({"name": clip(p.name), "kind": p.kind, "type": str(ty) if ty is not None else None,
                    "width": width})
    return out


def error_report(filename: str, message: str) -> str:
    """The `--json` report when no check ran (a usage error, or a bug in sysr)."""
    return fit({"file": clip(filename), "accepted": False, "verified": False, "error": clip(message),
                "diagnostics": [], "diagnostics_omitted": 0, "ports": None, "ports_omitted": 0,
                "properties": [], "properties_omitted": 0, "timing": {}, "text": clip(message)})


_ESSENTIAL = ("code", "severity", "message", "span", "kind", "text", "status")


def _dumps(x) -> str:
    return json.dumps(x, indent=2)


def fit(report: dict) -> str:
    """The report as JSON, shrunk as the module docstring says until it fits: after the traces go,
    the largest of the diagnostics, the properties and the text is halved (and counted) in turn;
    a single entry too large by itself keeps only its code, message and place, then goes."""
    out = _dumps(report)
    if len(out) <= limits.MAX_JSON_BYTES:
        return out
    report = dict(report, properties=[_without(p, "trace") for p in report["properties"]])
    report["diagnostics"] = report["diagnostics"][:1] + [_without(d, "trace") for d in report["diagnostics"][1:]]
    while len(out := _dumps(report)) > limits.MAX_JSON_BYTES:
        sizes = {"diagnostics": len(_dumps(report["diagnostics"])), "properties": len(_dumps(report["properties"])),
                 "text": len(report["text"])}
        part = max(sizes, key=sizes.get)
        if sizes[part] <= 2:
            break  # nothing left to cut (the other fields are small)
        if part == "text":
            text = report["text"]
            report["text"] = _cut_text(text, len(text) // 2) if len(text) > 256 else ""
        elif len(report[part]) > 1:
            keep = len(report[part]) // 2
            report[part + "_omitted"] += len(report[part]) - keep
            report[part] = report[part][:keep]
        elif set(report[part][0]) - set(_ESSENTIAL):
            report[part] = [{k: v for k, v in report[part][0].items() if k in _ESSENTIAL}]
        else:
            report[part + "_omitted"] += 1
            report[part] = []
    return out


def _without(entry: dict, key: str) -> dict:
    return {k: v for k, v in entry.items() if k != key}

"""Which sections of the compact reference (docs/model-reference.md) a task's sysr prompt carries.

The reference is split at its `## ` headings. A section whose heading is followed by a tag line
(`<!-- when: TAG -->`) is sent only when the task's starting file uses TAG's constructs; the
text before the first heading and the untagged sections are the core, sent with every task.
What a starting file uses is read from a real parse (`sysr.front.parse`): its port kinds,
declarations and the syntax nodes it contains. Nothing is withheld on a guess: a starting
file that does not parse, one holding a construct this module does not know (a node type
added to the language later), or a tag this module does not know, gets every section.

The task's own text adds what its starting file cannot show (`asks`): a problem that asks for
submodules or instances, or gives modules of its own to build on, gets the instances section even
when its starting file has the top module only (ChipBench's not-self-contained problems).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from sysr.diagnostics import Severity
from sysr.front import syntax as S
from sysr.front.parse import parse

TAG = re.compile(r"^<!--\s*when:\s*([\w-]+)\s*-->\n?", re.M)

# Syntax node types whose meaning the rules below account for; any other means "send everything".
KNOWN = {"SourceFile", "Module", "Span", "TypeRef", "IntLit", "BoolLit", "Name", "Path", "Hole",
         "Unary", "Binary", "Cast", "IfExpr", "PatInt", "PatBool", "PatVariant", "PatWild", "ExprArm",
         "MatchExpr", "Index", "Slice", "Concat", "Call", "Quant", "InstPort", "LValue", "Assign",
         "NbAssign", "Let", "If", "StmtArm", "Match", "For", "Port", "RegDecl", "WireDecl", "ModAssign",
         "CombBlock", "SeqBlock", "SeqClock", "Spec", "ConstDecl", "Variant", "EnumDecl", "Param", "FnDecl",
         "Binding", "InstDecl", "ModParam", "ParamSet", "StructDecl", "StructField", "Field", "FieldBound",
         "FieldInit", "StructLit"}

# tag -> whether a starting file with these features needs the section
RULES = {
    "clocked": lambda f: bool(f & {"clock", "reset", "areset", "RegDecl", "SeqBlock", "prev"}),
    "async-reset": lambda f: "areset" in f,
    "proofs": lambda f: bool(f & {"clock", "SeqBlock", "RegDecl"}) and bool(f & {"Spec", "ghost", "prev"}),
    "instances": lambda f: bool(f & {"InstDecl", "InstPort", "modules"}),
    "names": lambda f: "raw-name" in f,
    "params": lambda f: "params" in f,
    "clocks": lambda f: bool(f & {"clocks", "SeqClock"}),
    "wide": lambda f: "wide" in f,
    "structs": lambda f: "StructDecl" in f,
}
WIDE = re.compile(r"[us]([0-9]+)$")  # a type over 64 bits: the wide-bus idioms
SUBMODULES = re.compile(r"(?i)\bsub-?modules?\b|\binstantiat|\binstances?\b")
GIVEN_MODULE = re.compile(r"(?m)^\s*module\s+(?!TopModule\b|RefModule\b)[A-Za-z_]\w*\s*(?:#\s*)?\(")


def asks(prompt: str | None) -> set[str]:
    """What a task's problem text asks for beyond its starting file: "modules" when it asks for
    submodules or instances, or gives a module (other than the top) to build on."""
    if prompt and (SUBMODULES.search(prompt) or GIVEN_MODULE.search(prompt)):
        return {"modules"}
    return set()


@dataclass(frozen=True)
class Section:
    title: str  # the heading line, "" for the text before the first heading
    tag: str | None  # None: the core
    text: str  # as written, heading and tag line included


def split(reference: str) -> list[Section]:
    """The reference's sections in order; their texts joined give it back unchanged."""
    parts = re.split(r"(?m)^(?=## )", reference)
    out = []
    for part in parts:
        title = part.splitlines()[0] if part.startswith("## ") else ""
        body = part[len(title) + 1:] if title else part
        m = TAG.match(body)
        out.append(Section(title, m.group(1) if m else None, part))
    return out


def features(start: str) -> set[str] | None:
    """What a starting file uses, or None when it cannot be told (it does not parse, or holds a
    construct this module does not know)."""
    tree, diags = parse(start)
    if tree is None or any(d.severity >= Severity.ERROR for d in diags):
        return None
    found: set[str] = set()
    if not _walk(tree, found):
        return None
    if sum(isinstance(i, S.Module) for i in tree.items) > 1:
        found.add("modules")
    if "r#" in start:
        found.add("raw-name")
    if re.search(r"seq\(\s*falling\b", start):  # an imported stub's comment names the falling edge's block
        found.add("clocks")
    return found


def _walk(node, found: set[str]) -> bool:
    if isinstance(node, (tuple, list)):
        return all(_walk(n, found) for n in node)
    if not dataclasses.is_dataclass(node):
        return True
    kind = type(node).__name__
    if kind not in KNOWN:
        return False
    found.add(kind)
    if isinstance(node, S.Module) and sum(p.kind == "clock" for p in node.ports) > 1:
        found.add("clocks")
    if isinstance(node, S.Port):
        found.add({"reset_n": "reset", "areset_n": "areset"}.get(node.kind, node.kind))
    if getattr(node, "ghost", False):
        found.add("ghost")
    if isinstance(node, S.Call) and node.func == "prev":
        found.add("prev")
    if isinstance(node, (S.ModParam, S.ParamSet)) or (isinstance(node, S.TypeRef) and
                                                      (node.name == "int" or node.width is not None)):
        found.add("params")
    if isinstance(node, S.TypeRef) and (m := WIDE.match(node.name)) and int(m.group(1)) > 64:
        found.add("wide")
    return all(_walk(getattr(node, f.name), found) for f in dataclasses.fields(node))


def wanted(section: Section, found: set[str] | None) -> bool:
    if section.tag is None or found is None or section.tag not in RULES:
        return True
    return RULES[section.tag](found)


def select(reference: str, start: str | None, prompt: str | None = None) -> tuple[str, str]:
    """(core, the sections `start` needs, and those the task's text `prompt` asks for), each as
    the reference writes it; `start` None: every section."""
    found = None if start is None else features(start)
    if found is not None:
        found |= asks(prompt)
    parts = split(reference)
    core = "".join(s.text for s in parts if s.tag is None)
    extra = "".join(s.text for s in parts if s.tag is not None and wanted(s, found))
    return core, extra


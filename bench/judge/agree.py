"""One text, one design: refuse what Yosys and Icarus would read as two different designs.

The scorer's stages split between two tools: Yosys judges the structure (ports, latches, loops,
drivers, the cells synthesis infers) and Icarus runs the testbench. For that split to judge one
design, both must elaborate the candidate alike. They do not on a few constructs, and a design
can use one to show each tool a different circuit (a generate-if on a condition they evaluate
differently hides a latch or a wrong block RAM from every Yosys stage while the testbench runs
the other branch; Yosys does not even resolve names in a branch it drops). Those constructs are
refused here, on a real parse of the candidate (pyslang, a SystemVerilog front end), before
any tool reads it; each was measured on the Yosys and Icarus this project pins:

- delays of any form (`#5`, `<= #5.5 d`, `#0`, `assign #1`, `wire #1`, gate delays, `##1`):
  Yosys ignores them, Icarus runs them (an `rv32i-ex` with no flip-flop passed with `<= #5.5`, a
  counter with a second flip-flop stage with `#0`);
- unsized signed based literals (`'sh8000_0000`): Yosys sizes them wider than 32 bits, so
  `'sh8000_0000 < 0` is false for Yosys and true for Icarus; a size (`32'sh8000_0000`) fixes it;
- the fill literals `'1`, `'x`, `'z` anywhere but as the whole value assigned (`q <= '1;`):
  `'1 == 1` is true for Yosys and false for Icarus; `'0` is the same in every width and allowed;
- x, z or ? digits in a condition (an `if`, `?:`, `case` selector, loop or generate condition), a
  parameter, a range or a replication count: `if (4'bx1x0)` takes the branch for Yosys and not
  for Icarus (case items keep them: that is what `casez` is for);
- strengths and pulls: `pullup` and `pulldown` (Yosys ignores them: a pulled-up net is undriven
  to Yosys and 1 to Icarus), and `tri0`, `tri1`, `trireg` nets and drive or charge strengths
  (`assign (weak0, weak1) ...`), which Icarus resolves and this Yosys does not even read: refused
  here too, so that a Yosys that reads them cannot be shown another design;
- division or modulo in the condition of an `if`, a loop or a generate-if unless a comparison,
  logical or reduction operator makes the condition one bit: `if ((4'd1 / 4'd0) | 4'b0100)` is
  an x with a one bit, true for Yosys and false for Icarus.

A refused design is `forbidden`, with the line and a way to write it that both tools read
alike. The parse reads what the tools are given (preprocessed, comments blanked), as Verilog-2005
keywords for a Verilog task and SystemVerilog for an imported one. A text the parse cannot read
whole (it recovers past an error, skipping what it could not read) is checked only in part, so
`check` says so (`Reading.unread`): the scorer then refuses the design if Yosys reads it (a
design with a plain syntax error stays a `syntax` failure, with Yosys's message). Every valid
reference of the 22 tasks, VerilogEval and ChipBench parses without an error.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyslang
import pyslang.syntax as S

K = S.SyntaxKind

_DELAYS = {K.DelayControl, K.Delay3, K.CycleDelay, K.OneStepDelay}
# Nodes whose expression children (not their statements or blocks) decide what is elaborated or run.
_DECIDING = {K.ConditionalPredicate, K.CaseStatement, K.CaseGenerate, K.IfGenerate, K.LoopGenerate,
             K.ForLoopStatement, K.LoopStatement, K.DoWhileStatement, K.ParameterDeclaration,
             K.ParameterValueAssignment, K.VariableDimension, K.ElementSelect}
_BODIES = {K.StandardCaseItem, K.DefaultCaseItem, K.PatternCaseItem, K.GenerateBlock}
_ONE_BIT = {K.EqualityExpression, K.InequalityExpression, K.CaseEqualityExpression, K.CaseInequalityExpression,
            K.WildcardEqualityExpression, K.WildcardInequalityExpression, K.LessThanExpression,
            K.LessThanEqualExpression, K.GreaterThanExpression, K.GreaterThanEqualExpression,
            K.LogicalAndExpression, K.LogicalOrExpression, K.UnaryLogicalNotExpression,
            K.UnaryBitwiseAndExpression, K.UnaryBitwiseOrExpression, K.UnaryBitwiseXorExpression,
            K.UnaryBitwiseNandExpression, K.UnaryBitwiseNorExpression, K.UnaryBitwiseXnorExpression}
_TRUTH = {K.ConditionalStatement, K.IfGenerate, K.ForLoopStatement, K.LoopStatement, K.DoWhileStatement,
          K.LoopGenerate}
_ASSIGNED = {K.AssignmentExpression, K.NonblockingAssignmentExpression}
_XZ = set("xXzZ?")
_PULLED = {"tri0", "tri1", "trireg", "pullup", "pulldown"}
_STRENGTHS = {K.DriveStrength, K.ChargeStrength, K.PullStrength}
_CHECKED = _DELAYS | _STRENGTHS | _TRUTH | {K.NetDeclaration, K.PrimitiveInstantiation, K.IntegerVectorExpression,
                                            K.UnbasedUnsizedLiteralExpression}
_VERILOG_2005 = '`begin_keywords "1364-2005"\n'


@dataclass(frozen=True)
class Reading:
    problem: str | None  # the first construct the tools read differently, as `line N: why`
    unread: str | None  # the parse's first error, as `line N: message`: the text was checked in part


def disagreement(text: str, systemverilog: bool) -> str | None:
    """The first construct of `text` that Yosys and Icarus read differently, as `line N: why`; or None."""
    return check(text, systemverilog).problem


def check(text: str, systemverilog: bool) -> Reading:
    """`text` parsed and walked: what the tools would read differently, and whether all was read."""
    head = "" if systemverilog else _VERILOG_2005

    def line(at: int) -> str:
        return f"line {text.count(chr(10), 0, max(at - len(head), 0)) + 1}"

    try:
        tree = S.SyntaxTree.fromText(head + text)
    except RuntimeError:  # slang stops at its nesting limit (about a thousand levels)
        return Reading("line 1: the candidate nests expressions or statements deeper than its parse allows "
                       "(about a thousand levels); no design needs that", None)
    memo: dict = {}  # node -> its answer to `_deciding` or `_whole_value`, so each walk up is done once
    for node in _nodes(tree.root):
        found = _problem(node, memo) if node.kind in _CHECKED else None
        if found:
            return Reading(f"{line(found[0])}: {found[1]}", None)
    errors = [d for d in tree.diagnostics if d.isError()]
    if not errors:
        return Reading(None, None)
    said = pyslang.DiagnosticEngine(tree.sourceManager).formatMessage(errors[0])
    return Reading(None, f"{line(errors[0].location.offset)}: {said}")


def _nodes(root):
    """Every syntax node under `root`, in source order, without recursion: a chain of a million
    operators is a million levels deep, and pyslang's own `visit` recurses (in C++) that far."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed([c for c in node if isinstance(c, S.SyntaxNode)]))


def _problem(node, memo: dict) -> tuple[int, str] | None:
    """(offset, why) if `node` is a construct the tools read differently."""
    kind = node.kind
    if kind in _DELAYS:
        return _at(node), (f"the delay `{_show(node)}` is not allowed in a candidate: Yosys ignores delays and "
                           "Icarus runs them, so the two would judge different designs (describe the timing "
                           "with clocked logic)")
    if kind in _STRENGTHS or (
            kind == K.NetDeclaration and _text(node.netType) in _PULLED) or (
            kind == K.PrimitiveInstantiation and _text(node.type) in _PULLED):
        return _at(node), (f"`{_show(node)}`: strengths, pulls and `tri0`/`tri1`/`trireg` nets are not "
                           "allowed: Icarus resolves them and Yosys drops them (use `wire` and plain drivers)")
    if kind == K.IntegerVectorExpression:
        if "s" in _text(node.base).lower() and not _text(node.size):
            return _at(node), (f"the unsized signed literal `{_show(node)}` is not allowed: Yosys and Icarus "
                               "give it different widths (write its size, as in 32'sh8000_0000)")
        if _XZ & set(_text(node.value)) and _deciding(node, memo):
            return _at(node), (f"the literal `{_show(node)}` has x, z or ? digits in a condition, parameter or "
                               "range: Yosys and Icarus evaluate it differently there (x and z belong in "
                               "assigned values and casez items)")
    if kind == K.UnbasedUnsizedLiteralExpression and _show(node) != "'0" and not _whole_value(node, memo):
        return _at(node), (f"`{_show(node)}` is allowed only as the whole value assigned (`q <= '1;`): inside "
                           "an expression Yosys and Icarus give it different widths (write the width: "
                           "{W{1'b1}})")
    if kind in _TRUTH:
        for cond in _conditions(node):
            top = _unparenthesized(cond)
            if top is not None and top.kind not in _ONE_BIT and _holds(top, (K.DivideExpression, K.ModExpression)):
                return _at(node), ("a condition divides inside a value whose truth is tested: a division by "
                                   "zero makes an x that Yosys and Icarus test differently (compare the value "
                                   "instead: `(...) != 0`)")
    return None


def _deciding(node, memo: dict) -> bool:
    """Whether the expression `node` is inside a condition, parameter, range or count (not a body)."""
    path, answer = [], False
    child, parent = node, node.parent
    while True:
        key = ("deciding", child)
        if key in memo:
            answer = memo[key]
            break
        path.append(key)  # every node on the way up has the answer the walk ends with
        if parent is None or child.kind in _BODIES or _is_statement(child):
            break
        if parent.kind in _DECIDING or (parent.kind == K.MultipleConcatenationExpression
                                         and parent.expression == child):
            answer = True
            break
        child, parent = parent, parent.parent
    for key in path:
        memo[key] = answer
    return answer


def _is_statement(node) -> bool:
    name = str(node.kind)
    return name.endswith("Statement") or name.endswith("Block") or node.kind in (K.ContinuousAssign,
                                                                                   K.NetDeclaration,
                                                                                   K.DataDeclaration)


def _whole_value(node, memo: dict) -> bool:
    """Whether a fill literal is the whole value assigned (through parentheses and `?:` branches)."""
    path, answer = [], None
    child, parent = node, node.parent
    while parent is not None and parent.kind in (K.ParenthesizedExpression, K.ConditionalExpression):
        key = ("whole", child)
        if key in memo:
            answer = memo[key]
            break
        path.append(key)
        if parent.kind == K.ConditionalExpression and child.kind == K.ConditionalPredicate:
            answer = False
            break
        child, parent = parent, parent.parent
    if answer is None:
        if parent is None:
            answer = False
        elif parent.kind in _ASSIGNED:
            answer = parent.right == child
        elif parent.kind == K.EqualsValueClause:
            owner = parent.parent.parent if parent.parent is not None else None
            answer = owner is not None and owner.kind != K.ParameterDeclaration
        else:
            answer = False
    for key in path:
        memo[key] = answer
    return answer


def _conditions(node) -> list:
    """The expressions whose truth a statement or generate construct tests."""
    if node.kind == K.ConditionalStatement:
        return [c for c in node.predicate.conditions if isinstance(c, S.SyntaxNode)]
    if node.kind == K.IfGenerate:
        return [node.condition]
    if node.kind in (K.ForLoopStatement, K.LoopGenerate):
        stop = getattr(node, "stopExpr", None)
        return [stop] if stop is not None else []
    if node.kind in (K.LoopStatement, K.DoWhileStatement):
        expr = getattr(node, "expr", None)
        return [expr] if expr is not None else []
    return []


def _unparenthesized(expr):
    while expr is not None and expr.kind in (K.ParenthesizedExpression, K.ConditionalPattern):
        expr = expr.expression if expr.kind == K.ParenthesizedExpression else expr.expr
    return expr


def _holds(node, kinds) -> bool:
    return any(n.kind in kinds for n in _nodes(node))


def _at(node) -> int:
    """Where a node starts: its first token's offset (a token never nests, so this never recurses far:
    the nodes asked about are literals, delays, declarations and statements)."""
    token = node.getFirstToken()
    return token.location.offset if token is not None else 0


def _text(token) -> str:
    return token.valueText if token is not None and hasattr(token, "valueText") else str(token or "").strip()


def _show(node) -> str:
    """A node's text, whitespace folded, cut at 60 characters; read token by token up to that."""
    text, end = "", None
    for token in _tokens(node):
        raw = token.rawText
        if not raw:
            continue
        at = token.location.offset
        text += (" " if end is not None and at > end else "") + raw
        end = at + len(raw)
        if len(text) > 60:
            return text[:57] + "..."
    return text


def _tokens(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, S.SyntaxNode):
            stack.extend(reversed(list(n)))
        else:
            yield n

"""`sysr lower --formal` of a whole file: every module the top reaches, and an extern module's model.

`lower_formal_hierarchy` writes each module with its formal section (`sysr.lower.formal`), the
top first. An extern module gets a model instead (reference §8.1, §4.9): its logic is Verilog that sysr does not write; `sysr check` takes it through
its contract. For the formal flow the lowering writes, in its place and under `ifdef FORMAL`,
a module of the same name and ports that means exactly that contract: every output is free
in every cycle (`(* anyseq *)`), its `ensures` are assumed and its `requires` asserted (what
its parents must meet), with its ghost state and logic and the history behind `prev` as any
module's formal section has them. So Yosys proves the design against the extern's contract,
as the checker does; to prove it with the real Verilog instead, delete the model and read that
Verilog (the model exists only with FORMAL defined).
"""

from __future__ import annotations

from ..model import Hierarchy
from .expr import _range
from .formal import FormalLowering
from .instances import extern_names
from .instances import lower_hierarchy as _lower_modules
from .ir import INDENT


class ExternModel(FormalLowering):
    """The formal model of one extern module (see the module docstring)."""

    def port(self, p) -> str:
        text = super().port(p)
        return text.replace("output reg ", "output wire ", 1)  # driven by a free value, not a register

    def check_kind(self, spec_kind: str) -> str:
        return "assert" if spec_kind == "requires" else "assume"

    def properties_head(self) -> str:
        return "// The contract, in every cycle: `ensures` assumed, `requires` asserted (its parent meets them)."

    def enum_checks(self) -> list:
        """An enum input must hold a variant (asserted: its parent's obligation); nothing is known
        of an enum output but what the `ensures` say."""
        return [c for s in self.signals if s.ty is not None and s.ty.kind == "enum" and s.is_input
                for c in self.variant_check(s, "assert")]

    def appendix(self) -> list[str]:
        free = []
        for p in self.d.ports:
            if p.kind in ("out", "out_reg"):
                sig = self.d.signals[p.name]
                name = self.name(sig)
                any_name = self.names.claim(("formal", "free", p.name), f"{name}_any")
                free += [f"(* anyseq *) reg {_range(sig.ty.width)}{any_name};", f"assign {name} = {any_name};"]
        section = super().appendix()  # ["", "`ifdef FORMAL", ..., "", "`endif"]: the whole model is one
        head = [INDENT + "// The outputs: any value in every cycle, as far as the `ensures` below allow."]
        return [""] + head + [INDENT + line for line in free] + section[4:-2]  # (without the intro)

    def run(self) -> str:
        text = super().run()
        note = (f"// `{self.d.module.name}` is an extern module: its Verilog is not sysr's. For the formal flow,"
                " this model\n// stands in for it: its outputs are any values its `ensures` allow (assumed), "
                "its `requires`\n// are asserted. Without FORMAL defined it does not exist.\n")
        return f"`ifdef FORMAL\n{note}{text.rstrip()}\n`endif\n"


def lower_formal_hierarchy(h: Hierarchy, source_name: str, source_text: str = "") -> str:
    """The `--formal` Verilog text of a file's top module and every module it instantiates (an
    extern module as its formal model, `ExternModel`)."""
    def one(d, names, first):
        if d.extern:
            return ExternModel(d, source_name, source_text, names, False, top=False).run()
        lowering = FormalLowering(d, source_name, source_text, names, first, top=d is h.top_design)
        if first:
            lowering.externs = extern_names(h)
        return lowering.run()
    return _lower_modules(h, source_name, one)

"""Every `bench` command's arguments in one place, thin over the packages: `main` (the entry
point, `bench score` and `bench seeded`), `loop` (`bench loop`, `bench summary`), `catch`
(`bench catch`, `bench mutants`), `suite` (`bench suite import`), `report` (`bench report`) and
`harness` (`bench-harness`, the RTL harness contract's console script).

The top of bench: may import every package; none imports it.
"""

from .main import main

__all__ = ["main"]

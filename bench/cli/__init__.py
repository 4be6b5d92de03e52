"""Every `bench` command's arguments in one place, thin over the packages: `main` (the entry
point, `bench score` and `bench seeded`), `loop` (`bench loop`, `bench summary`), `catch`
(`bench catch`, `bench mutants`) and `suite` (`bench suite import`).

The top of bench: may import every package; none imports it.
"""

from .main import main

__all__ = ["main"]

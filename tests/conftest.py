"""Shared test settings.

`SYSR_UPDATE=1 pytest` rewrites expected-output files instead of comparing against them; tests
that compare against such files take the `update_expected` fixture.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def update_expected() -> bool:
    """Whether this run rewrites expected outputs (`SYSR_UPDATE=1`)."""
    return os.environ.get("SYSR_UPDATE") == "1"

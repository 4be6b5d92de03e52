"""Shared test settings.

`SYSR_UPDATE=1 pytest` rewrites expected-output files instead of comparing against them; tests
that compare against such files take the `update_expected` fixture.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

TOY = Path(__file__).parent / "fixtures" / "toy"


@pytest.fixture(scope="session", autouse=True)
def _result_cache(tmp_path_factory):
    """`bench score` run by a test caches its results in a folder of this session (bench.judge.cache),
    never in the user's cache, and starts empty: every test scores for real the first time."""
    old = os.environ.get("BENCH_CACHE_DIR")
    os.environ["BENCH_CACHE_DIR"] = str(tmp_path_factory.mktemp("bench-cache"))
    yield
    if old is None:
        os.environ.pop("BENCH_CACHE_DIR", None)
    else:
        os.environ["BENCH_CACHE_DIR"] = old


@pytest.fixture
def update_expected() -> bool:
    """Whether this run rewrites expected outputs (`SYSR_UPDATE=1`)."""
    return os.environ.get("SYSR_UPDATE") == "1"


@pytest.fixture(scope="session")
def two_toys(tmp_path_factory) -> Path:
    """A suite folder with two copies of the toy counter task: `toy` and `toy2` (read only)."""
    root = tmp_path_factory.mktemp("two-toys")
    shutil.copytree(TOY, root / "toy")
    shutil.copytree(TOY, root / "toy2")
    meta = json.loads((root / "toy2" / "task.json").read_text())
    (root / "toy2" / "task.json").write_text(json.dumps({**meta, "name": "toy2"}))
    return root

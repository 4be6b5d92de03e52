"""`python -m bench.cli`: the `bench` command (bin/bench runs it this way)."""

import sys

from .main import main

sys.exit(main())

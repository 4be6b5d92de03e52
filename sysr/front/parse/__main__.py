"""`python -m sysr.front.parse [--quiet]`: write the parser tables cache now, and say where it is.

`make setup` runs it, so that the cache lies beside the package (`sysr/front/__pycache__/`) and
a run with an empty `HOME`, as the scorer's, still finds it (`sysr.front.tables`).
"""

from __future__ import annotations

import sys

from .. import tables
from .grammar import _parser, cache_key_parts


def main(argv: list[str] | None = None) -> int:
    """Write the parser cache now (at set-up), and say where it is."""
    quiet = "--quiet" in (sys.argv[1:] if argv is None else argv)
    parts = cache_key_parts()
    if parts is None:
        print("sysr: the parser's source cannot be read, so its tables are not cached", file=sys.stderr)
        return 0
    _parser()
    key = tables.cache_key(*parts)
    for d in tables.default_dirs():
        path = d / tables.cache_name(key)
        if tables.read_cache(path, key) is not None:
            if not quiet:
                print(f"sysr: parser tables cached in {path}")
            return 0
    print("sysr: could not write the parser tables cache (read-only folders); the parser will be built "
          "on every start", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

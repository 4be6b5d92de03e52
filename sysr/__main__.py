"""`python -m sysr` (what `bin/sysr` and the `sysr` script run): the command line, through the
check server when one runs.

`sysr check`, `sysr lower` and `sysr explain` are first offered to this checkout's check server
(`sysr.server.client`, which imports nothing heavy before it knows): when one runs, its child
runs the command on this process's standard streams and this process ends as the child ended.
Otherwise, and for every other command, the command runs here (`sysr.cli.run`), as
`python -m sysr.cli` runs it: the benchmark runs that module, which never looks for a server.
"""

import sys

SERVED = ("check", "lower", "explain")  # the commands a server may run


def main() -> None:
    if sys.argv[1:2] and sys.argv[1] in SERVED:
        from sysr.server import client
        result = client.through_server(sys.argv)
        if result is not None:
            client.finish(result)
    from sysr.cli import run
    run()


if __name__ == "__main__":
    main()

"""The walls around every tool run: the sandbox (what a tool can read, write and see) and the
limits of `run_bounded` (time, memory, file size, output read as a stream and capped).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench import sandbox
from bench.run import run_bounded
from bench.sandbox import Jail

SH = "/bin/sh"


def sh(script: str, work: Path, jail: Jail | None = Jail(proc=True), **kw):
    return run_bounded([SH, "-c", script], work, 30, jail=jail, **kw)


def test_a_sandboxed_tool_sees_only_its_folder_and_the_system(tmp_path) -> None:
    (tmp_path / "mine.txt").write_text("mine")
    res = sh("ls /; ls /etc; cat mine.txt; id -u; grep CapEff /proc/self/status; env | sort", tmp_path)
    assert res.returncode == 0, res.output
    listing, rest = res.stdout.split("mine", 1)  # / and /etc (which holds only ld.so.cache)
    assert set(listing.split()) <= {"bin", "dev", "etc", "job", "lib", "lib32", "lib64", "libx32", "proc", "sbin",
                                    "usr", "ld.so.cache"}
    assert "65534" in rest and "CapEff:\t0000000000000000" in rest
    env = {line.split("=", 1)[0] for line in rest.splitlines() if "=" in line}
    assert env <= {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "PWD", "SHLVL", "_", "OLDPWD"}


def test_the_scorers_environment_and_processes_are_out_of_sight(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BENCH_TEST_SECRET", "sk-not-for-candidates")
    res = sh("echo ppid=$PPID; cat /proc/$PPID/environ; echo; cat /proc/1/environ | tr '\\0' ' '; echo; "
             "ls /proc | grep '^[0-9]' | tr '\\n' ' '", tmp_path)
    lines = res.stdout.splitlines()
    assert lines[0] == "ppid=0"  # the tool is process 1: no parent in its world
    assert "sk-not-for-candidates" not in res.stdout and "BENCH_TEST_SECRET" not in res.stdout
    assert len(lines[-1].split()) <= 4  # the shell and its three-command pipeline: none of the host
    assert "No such file" in res.stderr  # /proc/0/environ


def test_nothing_outside_the_folder_is_readable_or_writable(tmp_path) -> None:
    project = Path(__file__).resolve().parent.parent
    script = (f"cat {project}/tasks/counter/tb.v; cat /etc/passwd; ls /root /tmp /home; "
              "for d in / /tmp /usr /dev /proc; do echo x > $d/written && echo WROTE $d; done; "
              "echo ok > /job/inside")
    res = sh(script, tmp_path)
    assert "module tb" not in res.stdout and "root:" not in res.stdout and "WROTE" not in res.stdout
    assert (tmp_path / "inside").read_text() == "ok\n"


def test_icarus_stages_get_no_proc(tmp_path) -> None:
    res = sh("ls /proc/self/environ", tmp_path, jail=Jail(proc=False))
    assert res.returncode != 0


def test_no_sandbox_is_a_clear_error_unless_opted_out(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BWRAP", "/nonexistent/bwrap")
    sandbox._bwrap.cache_clear()
    try:
        with pytest.raises(sandbox.SandboxUnavailable, match="bubblewrap.*BENCH_UNSANDBOXED=1"):
            sandbox.ensure()
        res = sh("true", tmp_path)
        assert not res.started and "bubblewrap" in res.error
        monkeypatch.setenv("BENCH_UNSANDBOXED", "1")
        assert sandbox.status() == "none (BENCH_UNSANDBOXED=1)"
        assert sh("true", tmp_path).returncode == 0
    finally:
        sandbox._bwrap.cache_clear()


def test_output_is_capped_while_it_is_read(tmp_path) -> None:
    res = sh("yes flood", tmp_path, output_limit=64 * 1024)
    assert res.limit == "output" and not res.ran and res.returncode is None
    assert len(res.stdout) < 64 * 1024 + 100 and "output cut at 65536 bytes" in res.stdout


def test_time_memory_and_file_limits_are_named(tmp_path) -> None:
    res = run_bounded([SH, "-c", "sleep 30"], tmp_path, 0.5, jail=Jail())
    assert res.limit == "time" and res.timed_out and res.duration_s < 10
    res = run_bounded([sys.executable, "-c", "x = bytearray(1 << 30)"], tmp_path, 30,
                      memory_bytes=256 * 1024**2)
    assert res.limit == "memory", res.output
    res = run_bounded([SH, "-c", "head -c 200000 /dev/zero > big"], tmp_path, 30, file_bytes=100_000, jail=Jail())
    assert res.limit == "file size", (res.returncode, res.output)
    res = sh("sh -c 'kill -SEGV $$'", tmp_path)  # a child: the tool itself is process 1, which ignores kill()
    assert res.crashed and not res.limit and "SIGSEGV" in res.error

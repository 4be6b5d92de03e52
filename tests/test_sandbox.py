"""The walls around every tool run: the sandbox (what a tool can read, write and see), the session
that runs a candidate's tools in one sandbox, and the limits of a run (time, memory, file size,
output read as a stream and capped), in the sandbox and in `run_bounded`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.judge import sandbox
from bench.judge.run import DEFAULT_FILE_BYTES, DEFAULT_MEMORY_BYTES, OUTPUT_LIMIT, run_bounded
from bench.judge.session import Session
from bench.judge.tools import find_tool

SH = "/bin/sh"


def sh(script: str, work: Path, timeout_s: float = 30, box: Session | None = None, **kw):
    """Run a shell script in a sandbox around `work` (`box`, or one of its own), as the scorer runs a tool."""
    limits = {"memory_bytes": DEFAULT_MEMORY_BYTES, "file_bytes": DEFAULT_FILE_BYTES, "output_limit": OUTPUT_LIMIT,
              **kw}
    if box is not None:
        return box.run([SH, "-c", script], work, timeout_s, **limits)
    with Session(work, yosys=find_tool("yosys")) as box:
        return box.run([SH, "-c", script], work, timeout_s, **limits)


def test_a_sandboxed_tool_sees_only_its_folder_and_the_system(tmp_path) -> None:
    (tmp_path / "mine.txt").write_text("mine")
    res = sh("ls /; ls /etc; cat mine.txt; id -u; setpriv -d; mount -t tmpfs none /job; env | sort", tmp_path)
    listing, rest = res.stdout.split("mine", 1)  # / and /etc (which holds only ld.so.cache)
    assert set(listing.split()) <= {"bin", "dev", "etc", "job", "lib", "lib32", "lib64", "libx32", "proc", "sbin",
                                    "usr", "ld.so.cache"}
    assert "65534" in rest and "Capability bounding set: [none]" in rest and "no_new_privs: 1" in rest
    assert "mount: " in res.stderr  # no capability to mount anything
    env = {line.split("=", 1)[0] for line in rest.splitlines() if "=" in line}
    assert env <= {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "PWD", "SHLVL", "_", "OLDPWD"}


def test_the_scorers_environment_and_processes_are_out_of_sight(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BENCH_TEST_SECRET", "sk-not-for-candidates")
    res = sh("echo ppid=$PPID; cat /proc/$PPID/environ; echo; cat /proc/1/environ | tr '\\0' ' '; echo; "
             "ls /proc | grep '^[0-9]' | tr '\\n' ' '; echo; kill -0 -1 && echo SIGNALLED", tmp_path)
    lines = res.stdout.splitlines()
    assert lines[0] == "ppid=1"  # its parent is the sandbox's driver, process 1 of its own namespace
    assert "sk-not-for-candidates" not in res.stdout and "BENCH_TEST_SECRET" not in res.stdout
    assert "SIGNALLED" not in res.stdout  # kill -1 finds no process to signal: none but itself and the driver
    assert lines[-1] == ""  # and /proc lists no process at all
    assert "No such file" in res.stderr  # /proc/1/environ


def test_nothing_outside_the_folder_is_readable_or_writable(tmp_path) -> None:
    project = Path(__file__).resolve().parent.parent
    script = (f"cat {project}/tasks/counter/tb.v; cat /etc/passwd; ls /root /tmp /home; "
              "for d in / /tmp /usr /dev /proc; do echo x > $d/written && echo WROTE $d; done; "
              "echo ok > /job/inside")
    res = sh(script, tmp_path)
    assert "module tb" not in res.stdout and "root:" not in res.stdout and "WROTE" not in res.stdout
    assert (tmp_path / "inside").read_text() == "ok\n"


def test_no_stage_gets_a_proc(tmp_path) -> None:
    """/proc holds one link, self/exe to Yosys, and nothing of any process (a simulation reading
    vvp's memory would find the nonce)."""
    res = sh("ls -A /proc /proc/self; cat /proc/self/environ /proc/self/cmdline; head -c 1 /proc/self/mem; "
             "ls /proc/self/fd /dev/fd", tmp_path)
    assert res.stdout.split() == ["/proc:", "self", "/proc/self:", "exe"], res.output
    assert res.stderr.count("No such file") == 5, res.stderr


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
    res = sh("sleep 30", tmp_path, 0.5)
    assert res.limit == "time" and res.timed_out and res.duration_s < 10
    for run in (run_bounded, None):
        argv = [sys.executable, "-c", "x = bytearray(1 << 30)"]
        if run is None:  # in the sandbox: the system's Python (the project's own may live outside /usr)
            res = sh("/usr/bin/python3 -c 'x = bytearray(1 << 30)'", tmp_path, memory_bytes=256 * 1024**2)
        else:
            res = run_bounded(argv, tmp_path, 30, memory_bytes=256 * 1024**2)
        assert res.limit == "memory", res.output
    res = sh("yes | head -c 200000 > big", tmp_path, file_bytes=100_000)
    assert res.limit == "file size", (res.returncode, res.output)
    res = run_bounded([SH, "-c", "head -c 200000 /dev/zero > big"], tmp_path, 30, file_bytes=100_000)
    assert res.limit == "file size", (res.returncode, res.output)
    res = sh("kill -SEGV $$", tmp_path)
    assert res.crashed and not res.limit and "SIGSEGV" in res.error


def test_nothing_of_one_run_outlives_it(tmp_path) -> None:
    """After each run the driver kills every other process in the sandbox: a stage cannot leave a
    process behind to read what a later stage brings (tb.v and its nonce) or to write into its output."""
    with Session(tmp_path) as box:
        first = sh("(sleep 2; echo LATE) & echo $!", tmp_path, box=box)
        pid = first.stdout.strip()
        assert first.returncode == 0 and pid.isdigit()
        second = sh(f"sleep 3; kill -0 {pid} && echo ALIVE; echo second", tmp_path, box=box)
    assert second.stdout == "second\n" and "LATE" not in first.stdout + second.stdout, second.output


def test_a_run_past_its_limit_ends_the_sandbox(tmp_path) -> None:
    with Session(tmp_path) as box:
        assert sh("echo one", tmp_path, box=box).stdout == "one\n"
        assert sh("sleep 30", tmp_path, 0.5, box=box).limit == "time"
        after = sh("echo two", tmp_path, box=box)
    assert not after.started and "time limit" in after.error


def test_a_candidate_has_one_sandbox(tmp_path, monkeypatch) -> None:
    """One bwrap start for all of a candidate's tool runs (preprocess, Yosys, lint, compile alone and with
    the testbench, simulation)."""
    from bench.judge.score import Scorer
    from bench.judge.tasks import load_tasks

    starts, runs = [], []
    start, run = Session._start, Session.run
    monkeypatch.setattr(Session, "_start", lambda self: starts.append(self.work) or start(self))
    monkeypatch.setattr(Session, "run", lambda self, argv, *a: runs.append(argv[0]) or run(self, argv, *a))
    (toy,) = load_tasks(["toy"], Path(__file__).parent / "fixtures")
    scorer = Scorer()
    scorer.iface_ports(toy)  # read once per process, in a sandbox of its own
    starts.clear(), runs.clear()
    r = scorer.score(toy, "verilog", toy.text("ref.v"))
    assert r.result == "PASS" and [Path(t).name for t in runs] == ["iverilog", "yosys", "verilator", "iverilog",
                                                                      "iverilog", "vvp"]
    assert len(starts) == 1


def test_a_tool_outside_the_system_folders_binds_its_prefix_never_the_root() -> None:
    assert sandbox.prefix("/usr/bin/yosys") == ""
    assert sandbox.prefix("/opt/yosys/bin/yosys") == "/opt/yosys"
    assert sandbox.prefix("/opt/yosys") == "/opt" and sandbox.prefix("/yosys") == "/yosys"

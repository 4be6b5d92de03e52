"""The check server (`sysr server`, sysr/server/): the same output as in process, or no server at all.

Each test runs `bin/sysr` as a user does, with a server started in a runtime folder of the test's
own (`SYSR_RUNTIME_DIR`), and compares with the same command run in process (`SYSR_SERVER=0`):
standard output (the JSON report without its timings), standard error, exit status and the files
written. The server's count of commands served shows which way each command went, so a test
that meant to go through the server cannot pass by running in process. Also: signals reach the
child, a client killed mid-check takes its child with it, a server refuses a client whose limits
it cannot give, a changed checkout never reaches an old server (which ends by itself, as an idle
one does), and the benchmark's way of running sysr never reaches a server.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sysr.server import place

ROOT = Path(__file__).resolve().parent.parent
SYSR = str(ROOT / "bin" / "sysr")
COUNTER = str(ROOT / "tasks" / "counter" / "ref.sysr")
OFF_BY_ONE = str(ROOT / "tests" / "verify" / "counter_off_by_one.sysr")
# Whether a 62-bit semiprime has factors below 2^31: z3 works on it far longer than any test waits.
SLOW = """module slow(a: in u32, b: in u32, y: out u64) {
  requires a > 1 && b > 1;
  comb { y = (a as u64) * (b as u64); }
  ensures y != 4611685975477714963;
}
"""


def start_server(folder: Path, preexec=None, env_extra: dict[str, str] | None = None) -> dict[str, str]:
    """Start a server whose socket is in `folder`; the environment of its clients."""
    folder.mkdir(mode=0o700, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYSR_SERVER")}
    env["SYSR_RUNTIME_DIR"] = str(folder)
    env.update(env_extra or {})
    r = subprocess.run([SYSR, "server", "start"], env=env, capture_output=True, text=True, timeout=120,
                       preexec_fn=preexec)
    assert r.returncode == 0, r.stderr
    assert "started" in r.stdout
    return env


def stop_server(env: dict[str, str]) -> None:
    subprocess.run([SYSR, "server", "stop"], env=env, capture_output=True, timeout=120)


def status(env: dict[str, str]) -> dict[str, str]:
    r = subprocess.run([SYSR, "server", "status"], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return dict(re.findall(r"(\w+)=(\S+)", r.stdout))


def served(env: dict[str, str]) -> int:
    return int(status(env)["served"])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = start_server(tmp_path_factory.mktemp("run") / "sysr")
    yield env
    stop_server(env)


def sysr(args: list[str], env: dict[str, str], through_server: bool, cwd=ROOT, **kw):
    """`bin/sysr ARGS`: through a running server (SYSR_SERVER unset), or in process (`0`)."""
    env = {k: v for k, v in env.items() if k != "SYSR_SERVER"} | ({} if through_server else {"SYSR_SERVER": "0"})
    return subprocess.run([SYSR, *args], env=env, cwd=cwd, capture_output=True, timeout=300, **kw)


def untimed(data):
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in ("timing", "time_s")}
    return [untimed(v) for v in data] if isinstance(data, list) else data


def comparable(stdout: bytes) -> bytes:
    """The output, with the JSON report's timings (different on every run) left out."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return stdout
    return json.dumps(untimed(data)).encode()


CASES = [
    ["check", COUNTER],  # accepted
    ["check", "--json", COUNTER],
    ["check", OFF_BY_ONE],  # rejected with a counterexample
    ["check", "--json", OFF_BY_ONE],
    ["check", "tests/cases/bad/P001-chained-comparison.sysr"],  # a parse error, a relative path
    ["check", "--no-verify", "tests/cases/bad/A003-comb-cycle.sysr"],
    ["check", "no/such/file.sysr"],
    ["check", "--json", "no/such/file.sysr"],
    ["check", "--depth", "0", COUNTER],  # a usage error (argparse, exit 2)
    ["check", "--no-such-option", COUNTER],
    ["check"],
    ["check", "--help"],
    ["lower", COUNTER],
    ["lower", "tests/cases/bad/A003-comb-cycle.sysr"],
    ["explain", "T003", "V002"],
    ["explain", "Z999"],
]


def test_every_command_gives_the_same_output_through_the_server_as_in_process(server) -> None:
    before = served(server)
    for args in CASES:
        alone = sysr(args, server, through_server=False)
        served_ = sysr(args, server, through_server=True)
        assert (served_.returncode, served_.stderr) == (alone.returncode, alone.stderr), args
        assert comparable(served_.stdout) == comparable(alone.stdout), args
        assert alone.stdout or alone.stderr
    assert served(server) - before == len(CASES)


def test_files_are_written_in_the_clients_directory_with_its_umask(server, tmp_path) -> None:
    """`--vcd` and `lower -o` name files relative to the client's directory; the child writes them
    there, with the client's umask."""
    before = served(server)
    for way in ("alone", "served"):
        (tmp_path / way).mkdir()
        kw = dict(cwd=tmp_path / way, preexec_fn=lambda: os.umask(0o077))
        r1 = sysr(["check", "--vcd", "trace.vcd", OFF_BY_ONE], server, way == "served", **kw)
        r2 = sysr(["lower", COUNTER, "-o", "counter.v"], server, way == "served", **kw)
        assert (r1.returncode, r2.returncode) == (1, 0)
    assert served(server) - before == 2
    for name in ("trace.vcd", "counter.v"):
        alone, via = tmp_path / "alone" / name, tmp_path / "served" / name
        assert via.read_bytes() == alone.read_bytes() and alone.stat().st_size > 0
        assert via.stat().st_mode & 0o777 == alone.stat().st_mode & 0o777 == 0o600


def test_the_clients_file_size_limit_holds_in_the_child(server, tmp_path) -> None:
    """RLIMIT_FSIZE (as `ulimit -f` or the benchmark's limits set it) stops a write in the child as
    in process: the same error, exit status and cut file."""
    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
    before = served(server)
    results = {}
    for way in ("alone", "served"):
        (tmp_path / way).mkdir()
        results[way] = sysr(["lower", COUNTER, "-o", "counter.v"], server, way == "served", cwd=tmp_path / way,
                            preexec_fn=small_files)
    assert served(server) - before == 1
    alone, via = results["alone"], results["served"]
    assert alone.returncode == 2 and b"File too large" in alone.stderr
    assert (via.returncode, via.stderr, via.stdout) == (alone.returncode, alone.stderr, alone.stdout)
    assert (tmp_path / "served" / "counter.v").stat().st_size == (tmp_path / "alone" / "counter.v").stat().st_size


def running_child(env: dict[str, str], timeout_s: float = 60.0) -> int:
    """The pid of the server's running child, once there is one."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        children = status(env)["children"]
        if children != "-":
            return int(children.split(",")[0])
        time.sleep(0.1)
    raise AssertionError("no child started")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_ctrl_c_reaches_the_check_and_it_ends_as_in_process(server, tmp_path) -> None:
    """SIGINT to the client is passed on: z3 gives up the query, which is V003 `interrupted from
    keyboard`, exit 1, as a Ctrl-C does to `sysr check` in process."""
    (tmp_path / "slow.sysr").write_text(SLOW)
    proc = subprocess.Popen([SYSR, "check", "--timeout", "120", str(tmp_path / "slow.sysr")], env=server,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        running_child(server)
        time.sleep(3.0)  # into z3's query
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 1
    assert b"error[V003]" in out and b"(interrupted from keyboard)" in out


def test_a_client_killed_mid_check_takes_its_child_with_it(server, tmp_path) -> None:
    (tmp_path / "slow.sysr").write_text(SLOW)
    proc = subprocess.Popen([SYSR, "check", "--timeout", "120", str(tmp_path / "slow.sysr")], env=server,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        child = running_child(server)
        assert alive(child)
        proc.send_signal(signal.SIGTERM)  # passed on: the child ends by it, and so does the client
        assert proc.wait(timeout=60) == -signal.SIGTERM
    finally:
        proc.kill()
    proc = subprocess.Popen([SYSR, "check", "--timeout", "120", str(tmp_path / "slow.sysr")], env=server,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = running_child(server)
    proc.kill()  # SIGKILL: nothing passed on; the server sees the connection close
    proc.wait()
    deadline = time.monotonic() + 30
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)
    assert status(server)["running"] == "0"


def test_a_server_refuses_a_client_whose_limits_it_cannot_give(tmp_path) -> None:
    """A server started under a lower hard limit cannot raise a child's to the client's: it refuses, and the client runs the command itself (same output); a client
    with the server's limits is served."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(hard, 4096) - 1

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (low, low))
    env = start_server(tmp_path / "sysr", preexec=lower)
    try:
        alone = sysr(["check", COUNTER], env, through_server=False)
        higher = sysr(["check", COUNTER], env, through_server=True)
        assert served(env) == 0
        assert (higher.returncode, higher.stdout, higher.stderr) == (alone.returncode, alone.stdout, alone.stderr)
        same = sysr(["check", COUNTER], env, through_server=True, preexec_fn=lower)
        assert served(env) == 1 and same.stdout == alone.stdout
    finally:
        stop_server(env)


def test_what_a_child_cannot_give_is_a_refusal(tmp_path) -> None:
    """The check itself: a hard limit above the server's, a folder it cannot enter."""
    from sysr.server import child
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    streams = [("utf-8", "strict", "")] * 3
    ok = child.Request("run", str(tmp_path).encode(), streams=streams, argv=["sysr", "check"],
                       limits=[("RLIMIT_NOFILE", 10, hard)])
    assert child.refusal(ok) is None
    above = child.Request("run", str(tmp_path).encode(), streams=streams, argv=["sysr", "check"],
                          limits=[("RLIMIT_NOFILE", 10, child.INFINITY if hard != child.INFINITY else 10)])
    if hard != child.INFINITY:
        assert "RLIMIT_NOFILE" in child.refusal(above)
    gone = child.Request("run", str(tmp_path / "gone").encode(), streams=streams, argv=["sysr", "check"])
    assert "directory" in child.refusal(gone)


def test_a_client_of_another_checkout_or_environment_never_reaches_the_server(server) -> None:
    """A `SYSR_*` variable that modules may read when imported is part of the key: a client that
    sets one looks for another server, finds none and runs in process."""
    before = served(server)
    r = sysr(["check", COUNTER], dict(server, SYSR_SOME_SETTING="1"), through_server=True)
    assert r.returncode == 0 and b"accepted" in r.stdout
    assert served(server) == before


def test_sysr_server_1_starts_a_server_for_the_next_command(tmp_path) -> None:
    """With SYSR_SERVER=1 and none running, the command runs in process and a server starts in the
    background; the next command goes through it."""
    folder = tmp_path / "sysr"
    folder.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYSR_SERVER")}
    env.update(SYSR_RUNTIME_DIR=str(folder), SYSR_SERVER="1")
    try:
        first = subprocess.run([SYSR, "check", COUNTER], env=env, capture_output=True, timeout=120)
        assert first.returncode == 0 and b"accepted" in first.stdout
        deadline = time.monotonic() + 60
        while subprocess.run([SYSR, "server", "status"], env=env, capture_output=True).returncode != 0:
            assert time.monotonic() < deadline, "no server started"
            time.sleep(0.1)
        assert served(env) == 0
        second = subprocess.run([SYSR, "check", COUNTER], env=env, capture_output=True, timeout=120)
        assert (second.returncode, second.stdout, second.stderr) == (0, first.stdout, first.stderr)
        assert served(env) == 1
    finally:
        stop_server(env)


def test_stop_also_stops_the_servers_of_this_checkout_under_another_key(tmp_path) -> None:
    """A server started before an edit (another key: no client reaches it) is stopped by `stop`."""
    env = start_server(tmp_path / "sysr")
    start_server(tmp_path / "sysr", env_extra={"SYSR_SOME_SETTING": "1"})
    assert len(list((tmp_path / "sysr").glob("*.sock"))) == 2
    r = subprocess.run([SYSR, "server", "stop"], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.count("stopping") == 2
    assert not list((tmp_path / "sysr").glob("*.sock"))


def test_a_server_ends_after_its_idle_time(tmp_path) -> None:
    folder = tmp_path / "sysr"
    folder.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYSR_SERVER")}
    env["SYSR_RUNTIME_DIR"] = str(folder)
    r = subprocess.run([SYSR, "server", "start", "--idle", "1"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    pid = int(status(env)["pid"])
    deadline = time.monotonic() + 30
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(pid) and not list(folder.glob("*.sock"))
    assert subprocess.run([SYSR, "server", "status"], env=env, capture_output=True).returncode == 1


def test_a_server_whose_package_changed_on_disk_stops(tmp_path) -> None:
    """A server whose key no longer matches the package's files (an edited checkout: its clients
    look for a new key) ends by itself; here with a key that never matched and the check due at
    once."""
    folder = tmp_path / "sysr"
    folder.mkdir(mode=0o700)
    code = ("import sys; from sysr.server import daemon; daemon.KEY_CHECK_S = 0; "
            f"s = daemon.Server({str(folder)!r}, 'stale', 900, None, log=sys.stdout); "
            "sys.exit(s.serve() if s.claim() else 3)")
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "the sysr package changed on disk; stopping" in r.stdout
    assert not (folder / "stale.sock").exists()


def test_the_key_follows_the_package_files(monkeypatch, tmp_path) -> None:
    """An edited, added or removed file of the package is a new key (a changed checkout never
    uses an old server); compiled bytecode is not part of it."""
    pkg = tmp_path / "sysr"
    (pkg / "front").mkdir(parents=True)
    (pkg / "__pycache__").mkdir()
    (pkg / "cli.py").write_text("x = 1\n")
    (pkg / "front" / "grammar.lark").write_text("start: x\n")
    monkeypatch.setattr(place, "PACKAGE", str(pkg))
    keys = [place.key()]
    (pkg / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"...")
    assert place.key() == keys[0]
    os.utime(pkg / "front" / "grammar.lark", ns=(0, 10**18))
    keys.append(place.key())
    (pkg / "new.py").write_text("")
    keys.append(place.key())
    (pkg / "cli.py").unlink()
    keys.append(place.key())
    assert len(set(keys)) == 4
    assert place.key({"SYSR_SOLVER": "portfolio"}) != place.key({}) == place.key({"SYSR_SERVER": "1", "HOME": "/x"})


def test_an_unsafe_runtime_folder_is_not_used(tmp_path) -> None:
    folder = tmp_path / "open"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    assert not place.usable_dir(str(folder))
    os.chmod(folder, 0o700)
    assert place.usable_dir(str(folder))
    (tmp_path / "link").symlink_to(folder)
    assert not place.usable_dir(str(tmp_path / "link"))


def test_the_benchmark_never_reaches_a_server(server, tmp_path) -> None:
    """The scorer runs `python -m sysr.cli` (never `python -m sysr`, the only way to the client),
    under its own environment; even given the server's environment and SYSR_SERVER=1 it runs in
    process."""
    from bench.judge.run import run_bounded
    from bench.judge.score import Scorer
    argv = Scorer().sysr
    assert argv[-2:] == ["-m", "sysr.cli"]
    before = served(server)
    (tmp_path / "candidate.sysr").write_text(Path(COUNTER).read_text())
    res = run_bounded([*argv, "check", "--json", "candidate.sysr"], tmp_path, 120)
    assert res.returncode == 0 and json.loads(res.stdout)["accepted"] is True
    res = run_bounded([*argv, "check", "--json", "candidate.sysr"], tmp_path, 120, env=dict(server, SYSR_SERVER="1"))
    assert res.returncode == 0 and json.loads(res.stdout)["accepted"] is True
    assert served(server) == before


def test_the_client_imports_nothing_heavy_before_it_hands_the_command_over(server) -> None:
    before = served(server)
    r = subprocess.run([sys.executable, "-X", "importtime", "-P", "-m", "sysr", "check", COUNTER], env=server,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "accepted" in r.stdout
    assert served(server) == before + 1
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "sysr.server.client" in imported
    assert not imported & {"z3", "lark", "sysr.cli", "sysr.pipeline", "argparse", "subprocess", "socket", "json"}

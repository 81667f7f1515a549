"""tests/quiet.py: a wall-clock measure pauses the suite's other workers, and they pause it only
for the test they are in. Three processes of one run (its own run id), as three xdist workers."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
import uuid

from tests import quiet

ROLE = """
import sys, time
from tests import quiet
role, hold = sys.argv[1], float(sys.argv[2])
if role == "test":
    with quiet.running():
        print("in", time.monotonic(), flush=True)
        time.sleep(hold)
    print("out", time.monotonic(), flush=True)
else:
    with quiet.running(), quiet.quiet() as waited:  # a measure is taken within its own test
        print("in", time.monotonic(), waited, flush=True)
        time.sleep(hold)
    print("out", time.monotonic(), flush=True)
"""


def _start(role: str, hold: float, run: str) -> subprocess.Popen:
    env = {**os.environ, "PYTEST_XDIST_TESTRUNUID": run}
    return subprocess.Popen(
        [sys.executable, "-c", ROLE, role, str(hold)], env=env, stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )


def _line(proc: subprocess.Popen) -> list[float]:
    return [float(x) for x in proc.stdout.readline().split()[1:]]


def _until_the_gate_is_shut(run: str) -> None:
    fd = os.open(quiet.path(run, "gate"), os.O_RDWR | os.O_CREAT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return
            fcntl.flock(fd, fcntl.LOCK_UN)
            time.sleep(0.01)
        raise AssertionError("the measure never shut the gate")
    finally:
        os.close(fd)


def test_a_measure_waits_for_the_other_workers_tests_and_holds_their_next_ones(real_clock):
    run = uuid.uuid4().hex
    neighbour = _start("test", 1.5, run)
    (neighbour_in,) = _line(neighbour)
    measure = _start("measure", 1.0, run)
    _until_the_gate_is_shut(run)  # the measure holds the gate: a test started now waits for it
    later = _start("test", 0.0, run)
    measure_in, waited = _line(measure)
    (later_in,) = _line(later)
    (neighbour_out,) = _line(neighbour)
    (measure_out,) = _line(measure)
    for p in (neighbour, measure, later):
        assert p.wait(timeout=10) == 0
    for name in quiet.NAMES:
        os.unlink(quiet.path(run, name))
    assert measure_in >= neighbour_out - 0.05 and waited >= 1.0  # it waited for the running test
    assert later_in >= measure_out - 0.05  # the next test waited for the measure to end
    assert neighbour_in < measure_in


def test_a_pytest_that_is_no_worker_takes_no_lock():
    """Without xdist (no run id), or in a pytest a worker's test would start (its environment
    inherited, but it is no worker)."""
    script = "import sys\nfrom tests import quiet\nwith quiet.running(worker=sys.argv[1] == 'worker'), quiet.quiet() as w: print(w)"
    without = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_TESTRUNUID"}
    inherited = {**os.environ, "PYTEST_XDIST_TESTRUNUID": uuid.uuid4().hex}
    for env, role in ((without, "worker"), (inherited, "no worker")):
        out = subprocess.run([sys.executable, "-c", script, role], env=env, capture_output=True, text=True, check=True)
        assert float(out.stdout) == 0.0
    assert not any(os.path.exists(quiet.path(inherited["PYTEST_XDIST_TESTRUNUID"], n)) for n in quiet.NAMES)

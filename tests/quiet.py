"""A wall-clock budget measured on a quiet machine.

``make test`` runs one pytest-xdist worker more than the machine has cores, so a test that times
something against a budget (issue 37: the reference client loads in under a second) shares the
cores with two other workers' tests. On two cores a page that loads in 0.3 s alone took 1.2 s beside
them: the measure was of the neighbours, not of the page.

``quiet()`` pauses the suite's other workers for the measure. Every test runs holding the *running*
lock shared (``pytest_runtest_protocol`` in tests/conftest.py). A measure takes the *gate* lock
exclusively, so that no other worker starts its next test, then the running lock exclusively, which
it gets once each other worker's current test has ended. It gives both back when the measure ends.
A test waiting at the gate holds no running lock, so the two locks cannot deadlock.

The locks are ``flock`` on two files named by the run's id (``PYTEST_XDIST_TESTRUNUID``; the
controller chooses it, ``name_the_run``, and removes the files when the run ends, ``remove``): a run
without xdist has nothing beside it and takes no lock. The kernel drops a lock when its process
dies, so a crashed worker leaves nothing held."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
import uuid
from collections.abc import Iterator

NAMES = ("gate", "running")
_held: dict[str, int] = {}  # this worker's open lock files, by name
_in_test = False  # this process holds the running lock (running() is entered)


def path(run: str, name: str) -> str:
    return os.path.join(tempfile.gettempdir(), f"rivals-tests-{run}.{name}.lock")


def name_the_run(config) -> None:
    """In the controller of an xdist run: the run's id chosen here (xdist's ``--testrunuid``, which
    it hands to each worker), so that ``remove`` knows the files' names at the end."""
    if not hasattr(config, "workerinput") and getattr(config.option, "testrunuid", "") is None:
        config.option.testrunuid = uuid.uuid4().hex


def remove(config) -> None:
    run = getattr(config.option, "testrunuid", None)
    if run and not hasattr(config, "workerinput"):
        for name in NAMES:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path(run, name))


def _fd(name: str) -> int | None:
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return None
    if name not in _held:
        _held[name] = os.open(path(run, name), os.O_RDWR | os.O_CREAT, 0o600)
    return _held[name]


@contextlib.contextmanager
def running(worker: bool = True) -> Iterator[None]:
    """Held around each test of an xdist ``worker``: passes the gate (waits while a measure runs),
    then holds the running lock shared until the test's teardown has ended. A pytest that is no
    worker takes no lock, though it inherits a worker's environment (a pytest a test would start)."""
    global _in_test
    gate, run = (_fd("gate"), _fd("running")) if worker else (None, None)
    if gate is None or run is None:
        yield
        return
    fcntl.flock(gate, fcntl.LOCK_SH)
    try:
        fcntl.flock(run, fcntl.LOCK_SH)
    finally:
        fcntl.flock(gate, fcntl.LOCK_UN)
    _in_test = True
    try:
        yield
    finally:
        _in_test = False
        fcntl.flock(run, fcntl.LOCK_UN)


@contextlib.contextmanager
def quiet() -> Iterator[float]:
    """The other workers paused for the block; yields the seconds waited for their current tests."""
    gate, run = (_fd("gate"), _fd("running")) if _in_test else (None, None)
    if gate is None or run is None:
        yield 0.0
        return
    start = time.monotonic()
    fcntl.flock(run, fcntl.LOCK_UN)  # this test's own shared hold, given back before the gate
    fcntl.flock(gate, fcntl.LOCK_EX)
    try:
        fcntl.flock(run, fcntl.LOCK_EX)
        try:
            yield time.monotonic() - start
        finally:
            fcntl.flock(run, fcntl.LOCK_SH)  # back to this test's shared hold (running() ends it)
    finally:
        fcntl.flock(gate, fcntl.LOCK_UN)

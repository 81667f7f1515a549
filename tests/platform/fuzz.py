"""How big the input fuzz tests are: the suite's size (seeded, a fixed number of examples), or the
larger, time-bounded run of ``make fuzz`` (README), which sets

- ``RIVALS_FUZZ_EXAMPLES`` — examples per test (per operation for schemathesis);
- ``RIVALS_FUZZ_SECONDS`` — the whole run's time: each test gets its ``share`` of it;
- ``RIVALS_FUZZ_RANDOM=1`` — fresh random seeds instead of the suite's fixed ones (hypothesis
  prints the seed of anything it finds).

The time bound never discards an example: a test runs hypothesis in consecutive runs ("chunks")
of whole examples — each a complete hypothesis run that generates, checks and, on a failure,
shrinks and reports as usual — and starts another only while its share of the time lasts (each
chunk sized from the examples' measured pace to fill at most half of what is left). An earlier
version discarded late examples with ``assume``: hypothesis then saw a failing example pass on
replay (``FlakyFailure``), gave up on tests whose every example was discarded
(``Unsatisfiable``), and generated ten times ``max_examples`` discarded examples before stopping,
which made the run overshoot its bound more than twentyfold.
"""

from __future__ import annotations

import functools
import inspect
import os
import time
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis.strategies import SearchStrategy

EXAMPLES = int(os.environ.get("RIVALS_FUZZ_EXAMPLES") or 0)
SECONDS = float(os.environ.get("RIVALS_FUZZ_SECONDS") or 0)
RANDOM = os.environ.get("RIVALS_FUZZ_RANDOM") == "1"
FIRST_CHUNK = 10  # examples of a bounded test's first run, which measures their pace


def _settings(max_examples: int, derandomize: bool) -> settings:
    return settings(
        max_examples=max_examples,
        derandomize=derandomize,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )


def run_examples(
    test: Callable[..., None],
    strategies: dict[str, SearchStrategy],
    *,
    examples: int,
    share: float,
    args: tuple = (),
    kwargs: dict[str, Any] | None = None,
) -> int:
    """Run ``test(*args, **kwargs, **drawn)`` on examples drawn from ``strategies``: ``examples``
    of them seeded (the suite), or up to ``RIVALS_FUZZ_EXAMPLES`` within ``share`` ×
    ``RIVALS_FUZZ_SECONDS`` (``make fuzz``). Returns the number of examples run."""
    kwargs = kwargs or {}
    total = EXAMPLES or examples
    if not SECONDS:
        _settings(total, derandomize=not RANDOM)(given(**strategies)(test))(*args, **kwargs)
        return total
    deadline = time.monotonic() + SECONDS * share
    done, chunk, run = 0, FIRST_CHUNK, 0
    while done < total and time.monotonic() < deadline:
        n = min(chunk, total - done)
        started = time.monotonic()
        bounded = _settings(n, derandomize=False)(given(**strategies)(test))
        if not RANDOM:  # reproducible, and each chunk draws other examples than the last
            bounded = seed(run)(bounded)
        bounded(*args, **kwargs)
        done, run = done + n, run + 1
        pace = (time.monotonic() - started) / n
        chunk = max(1, int((deadline - time.monotonic()) / 2 / pace)) if pace > 0 else total
    return done


def fuzz(*, examples: int, share: float, **strategies: SearchStrategy):
    """``@given(**strategies)`` for a pytest test, sized by ``run_examples``: the test's other
    arguments stay pytest fixtures."""

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        fixtures = [p for name, p in inspect.signature(test).parameters.items() if name not in strategies]

        @functools.wraps(test)
        def wrapper(*args, **kwargs):
            run_examples(test, strategies, examples=examples, share=share, args=args, kwargs=kwargs)

        wrapper.__signature__ = inspect.Signature(fixtures)  # what pytest injects
        return wrapper

    return decorate

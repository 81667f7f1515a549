"""How big the input fuzz tests are: the suite's size (seeded, a fixed number of examples), or the
larger, time-bounded run of ``make fuzz`` (README), which sets

- ``RIVALS_FUZZ_EXAMPLES`` — examples per test (per operation for schemathesis);
- ``RIVALS_FUZZ_SECONDS`` — the whole run's time: each test gets its share of it (schemathesis'
  share split over the operations); past it, later examples are discarded unseen, so the run
  ends on time whatever the example count;
- ``RIVALS_FUZZ_RANDOM=1`` — fresh random seeds instead of the suite's fixed ones (hypothesis
  prints the seed of anything it finds).
"""

from __future__ import annotations

import os
import time

from hypothesis import HealthCheck, assume, settings

EXAMPLES = int(os.environ.get("RIVALS_FUZZ_EXAMPLES") or 0)
SECONDS = float(os.environ.get("RIVALS_FUZZ_SECONDS") or 0)
RANDOM = os.environ.get("RIVALS_FUZZ_RANDOM") == "1"


def fuzz_settings(default_examples: int) -> settings:
    return settings(
        max_examples=EXAMPLES or default_examples,
        derandomize=not RANDOM,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )


class Budget:
    """``within(key)`` at the start of each example: past ``share`` × ``RIVALS_FUZZ_SECONDS`` since
    the first example of ``key``, the example is discarded (the first one always runs)."""

    def __init__(self, share: float):
        self.seconds = SECONDS * share
        self.started: dict[str, float] = {}

    def within(self, key: str) -> None:
        if self.seconds:
            start = self.started.setdefault(key, time.monotonic())
            assume(time.monotonic() - start < self.seconds)

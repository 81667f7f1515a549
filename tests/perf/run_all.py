"""Run every benchmark of tests/perf/ in turn (``make bench``; ``make bench BENCH_ARGS=--quick``).

Each ``bench_*.py`` (and ``load.py``, the production-shaped load run) is a script that prints its
own figures; a failing one is reported and the others still run. Not part of the test suite.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    extra = sys.argv[1:]
    only = [a for a in extra if not a.startswith("-")]
    flags = [a for a in extra if a.startswith("-")]
    failed = []
    for script in [*sorted(HERE.glob("bench_*.py")), HERE / "load.py"]:
        if only and not any(o in script.stem for o in only):
            continue
        print(f"\n=== {script.stem} ===", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, str(script), *flags], cwd=HERE.parents[1])
        print(f"--- {script.stem}: exit {rc} in {time.perf_counter() - t0:.1f}s", flush=True)
        if rc:
            failed.append(script.stem)
    if failed:
        print("failed:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

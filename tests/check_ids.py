"""No check lost (issue 32): every test id in ``tests/test_ids.txt`` is still collected.

    python tests/check_ids.py            # fails, naming them, when a listed test is no longer collected
    python tests/check_ids.py --update   # adds the tests collected and not yet listed

The list holds the suite's ids; a test removed or renamed on purpose keeps its line, as
``- <id>  # <reason>``, so that the list's change says what went and why. New tests need no line
(the suite may only grow); ``--update`` records them. ``.ci/run`` runs the check; it collects the
suite exactly as ``make test`` does (same ``testpaths`` and options), without running it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "tests" / "test_ids.txt"


def collected() -> set[str]:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    ids = {line.strip() for line in run.stdout.splitlines() if "::" in line}
    if run.returncode != 0 or not ids:
        sys.exit(f"collecting the suite failed (exit {run.returncode}):\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    return ids


def listed() -> tuple[list[str], set[str], set[str]]:
    """(the file's lines, the ids kept, the ids removed on purpose)."""
    lines = LIST.read_text().splitlines()
    kept, removed = set(), set()
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("- "):
            test_id, _, reason = line[2:].partition("  # ")
            if not reason.strip():
                sys.exit(f"{LIST.name}: a removed test needs its reason: {line}")
            removed.add(test_id.strip())
        else:
            kept.add(line.strip())
    return lines, kept, removed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="add the collected ids that are not listed")
    args = parser.parse_args()
    lines, kept, removed = listed()
    now = collected()
    missing = sorted(kept - now)
    new = sorted(now - kept - removed)
    if missing:
        print(f"{len(missing)} listed test(s) no longer collected — restore them, or mark each in {LIST.name}")
        print('as "- <id>  # <reason>":')
        for test_id in missing:
            print(f"  {test_id}")
        return 1
    if args.update and new:
        LIST.write_text("\n".join(lines + new) + "\n")
        print(f"{len(new)} new test id(s) added to {LIST.name}")
    print(f"every one of the {len(kept)} listed tests is collected ({len(now)} in all, {len(new)} not yet listed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Single Player levels (R-1, R-2): the fixed table of 11,000 levels shipped with the package.

R-1: a level is a fixed game code for every account, in every release. The table
``data/levels-v1.tsv.gz`` (gzipped TSV: level, code, layout, hard, difficulty) was produced once
by the version-1 generator (``level_generator``) and is read here; nothing is computed when a
level is served, so no later change to the solver or the deal generator can move a level.

Decision: the table is package data rather than database rows made on demand - a level is then
the same on every machine and in every database, before any batch job ran. The service still
copies the rows it serves into its ``Level`` table (the admin and the leaderboards join on it).

``python -m rivals.engine.levels`` re-runs the generator (``--check`` compares it with the
shipped table; ``--out`` writes the generated table).
"""

from __future__ import annotations

import argparse
import gzip
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

MAX_LEVEL = 11000
GENERATOR_VERSION = 1  # the generator that made the shipped table
TABLE_PATH = Path(__file__).with_name("data") / f"levels-v{GENERATOR_VERSION}.tsv.gz"
HEADER = "level\tcode\tlayout\thard\tdifficulty"


@dataclass(frozen=True)
class LevelInfo:
    level: int
    code: str
    layout: str
    hard: bool
    difficulty: float


def is_hard(n: int) -> bool:
    return n % 10 == 0  # every multiple of 10 is HARD


def format_row(li: LevelInfo) -> str:
    return f"{li.level}\t{li.code}\t{li.layout}\t{int(li.hard)}\t{li.difficulty}"


def parse_table(text: str) -> tuple[LevelInfo, ...]:
    """Rows of a level table (TSV with HEADER), checked: levels 1..MAX_LEVEL in order, the
    HARD flag per R-1, the layout that of the code."""
    lines = text.splitlines()
    if not lines or lines[0] != HEADER:
        raise ValueError("level table: bad header")
    rows = []
    for k, line in enumerate(lines[1:], start=1):
        level, code, layout, hard, difficulty = line.split("\t")
        li = LevelInfo(int(level), code, layout, hard == "1", float(difficulty))
        if li.level != k or hard not in ("0", "1") or li.hard != is_hard(k) or code[4:7] != layout:
            raise ValueError(f"level table: bad row {k}: {line!r}")
        rows.append(li)
    if len(rows) != MAX_LEVEL:
        raise ValueError(f"level table: {len(rows)} rows, expected {MAX_LEVEL}")
    return tuple(rows)


@lru_cache(maxsize=1)
def table() -> tuple[LevelInfo, ...]:
    """The shipped table, row n - 1 = level n (read once per process)."""
    with gzip.open(TABLE_PATH, "rt", encoding="utf-8") as fh:
        return parse_table(fh.read())


def level_info(n: int) -> LevelInfo:
    """R-1 / R-2: the level's fixed game code, layout, HARD flag and difficulty."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_LEVEL:
        raise ValueError(f"level must be an integer in 1..{MAX_LEVEL}")
    return table()[n - 1]


def _generated_row(n: int) -> str:
    from .level_generator import generate_level

    return format_row(generate_level(n))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m rivals.engine.levels", description="Re-run the level generator (R-1, R-2)."
    )
    ap.add_argument("--from", dest="start", type=int, default=1)
    ap.add_argument("--to", dest="end", type=int, default=MAX_LEVEL)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="write the generated table here (default: stdout)")
    ap.add_argument(
        "--check", action="store_true", help="compare the generated rows with the shipped table; exit 1 on a difference"
    )
    args = ap.parse_args(argv)
    if not 1 <= args.start <= args.end <= MAX_LEVEL:
        ap.error(f"need 1 <= --from <= --to <= {MAX_LEVEL}")
    levels = range(args.start, args.end + 1)
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            rows = pool.map(_generated_row, levels, chunksize=16)
    else:
        rows = [_generated_row(n) for n in levels]
    if args.check:
        shipped = table()
        bad = [n for n, row in zip(levels, rows, strict=True) if row != format_row(shipped[n - 1])]
        for n in bad[:20]:
            print(f"level {n}: generated {rows[n - args.start]!r}, shipped {format_row(shipped[n - 1])!r}")
        print(f"{len(rows)} levels generated, {len(bad)} differ from the shipped table")
        return 1 if bad else 0
    text = HEADER + "\n" + "\n".join(rows) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

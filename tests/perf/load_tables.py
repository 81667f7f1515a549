"""load.py's rows written per table per accepted intent, and how many of the UPDATEs were HOT
(heap-only tuples: the new row version on the same page, no index written) — deltas of
``pg_stat_user_tables`` over each closed-loop run — and the server's WAL per accepted intent
(``pg_current_wal_lsn()``; every session of the server: on a server shared with other runs it
counts theirs too).

PostgreSQL's cumulative statistics reach shared memory from a backend at most once a second while
it is busy, and from an idle one only after ten seconds (PGSTAT_IDLE_INTERVAL), so a snapshot
taken as a run ends would leave its last seconds to the next run: each snapshot after a run first
waits ``settle`` seconds with the clients stopped (``--stats-settle``; 0 measures at once and
smears the figures across neighbouring runs). The log's monthly partitions count as one table.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict

_PARTITION = re.compile(r"^(rivals_event)_(\d{4}_\d{2}|before|after)$")
SQL = (
    "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables "
    "UNION ALL SELECT '~wal', pg_current_wal_lsn() - '0/0'::pg_lsn, 0, 0, 0"
)


class Tables:
    def __init__(self, url: str, settle: float):
        self.url, self.settle = url, settle
        self.last: dict | None = None  # the snapshot after the previous run (nothing ran since)
        self.runs: list[dict] = []  # per_intent of each run, in order
        self.by_kind: dict[str, list[dict]] = defaultdict(list)

    def _read(self) -> dict[str, tuple[float, ...]]:
        import psycopg

        out: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
        with psycopg.connect(self.url, autocommit=True) as conn:
            for name, *counts in conn.execute(SQL).fetchall():
                m = _PARTITION.match(name)
                row = out[m.group(1) if m else name]
                for i, c in enumerate(counts):
                    row[i] += float(c)
        return {k: tuple(v) for k, v in out.items()}

    def begin(self) -> dict:
        if self.last is None:
            time.sleep(self.settle)
            self.last = self._read()
        return self.last

    def end(self) -> dict:
        time.sleep(self.settle)
        self.last = self._read()
        return self.last

    @staticmethod
    def per_intent(before: dict, after: dict, done: int) -> dict:
        """{table: (inserted, updated, HOT-updated, deleted) per accepted intent}, and ``~wal``."""
        out = {}
        for name, counts in after.items():
            c0 = before.get(name, (0.0, 0.0, 0.0, 0.0))
            delta = tuple((a - b) / done for a, b in zip(counts, c0, strict=True))
            if any(delta):
                out[name] = delta
        return out


def tables_report(runs_by_kind: dict[str, list[dict]], top: int = 10) -> None:
    """1t. per kind (the mean over its runs): the tables most written per accepted intent, with
    their HOT ratio (HOT updates / updates), the whole HOT ratio and the server's WAL."""
    for kind, runs in runs_by_kind.items():
        runs = [x for x in runs if x]
        if not runs:
            continue
        n = len(runs)
        merged: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
        for x in runs:
            for name, delta in x.items():
                for i, d in enumerate(delta):
                    merged[name][i] += d / n
        wal = merged.pop("~wal", [0.0])[0]
        upd = sum(v[1] for v in merged.values())
        hot = sum(v[2] for v in merged.values())
        written = sorted(merged.items(), key=lambda kv: -(kv[1][0] + kv[1][1] + kv[1][3]))
        print(
            f"1t. {kind}: {sum(v[0] + v[1] + v[3] for v in merged.values()):.2f} rows written per accepted "
            f"intent ({upd:.2f} updated, HOT {hot / upd * 100 if upd else 0:.0f} %); the server's WAL {wal:.0f} B"
        )
        for name, (ins, up, hot_, dele) in written[:top]:
            if ins + up + dele < 0.01:
                continue
            ratio = f"HOT {hot_ / up * 100:3.0f} %" if up else "         "
            print(f"      {ins:5.2f} ins  {up:5.2f} upd  {ratio}  {dele:5.2f} del  {name}")

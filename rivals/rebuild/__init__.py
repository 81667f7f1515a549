"""Rebuild every projection from the event log, beside live traffic.

1. **Build** (one REPEATABLE READ transaction: one snapshot of the log): the projection tables
   are created empty in the schema ``rivals_rebuild`` (``copies``), and each projection writes
   its state there from the log (``Projection.rebuild``: pages of events by position or by
   stream, rows folded in memory and written with COPY — no ORM round trip per event). Nothing
   live is locked: clients play on.
2. **Compare** (no lock): the events committed since the snapshot are applied to the copies
   (the catch-up) and every copy is compared with its live table.
3. **Swap** (one short READ COMMITTED transaction): the live projection tables and the event
   log are locked against writers (``EXCLUSIVE``: readers go on), the last events are caught
   up, the tables that differed (and those jobs write without events) are compared again and
   only the rows that differ are written. A table found equal stays equal meanwhile: each
   event since is applied to both sides by the same projection code. The lock waits at most
   ``lock_timeout`` (below PostgreSQL's deadlock timeout, so a client never loses a deadlock to
   the rebuild) and is retried; clients wait for the swap only.
4. The copies are dropped.

``verify_only`` stops after the comparison: a report of the differences, nothing written.
Inside a transaction already open (a test), all of it runs in that transaction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from django.db import OperationalError, connection, transaction

from rivals import direct
from rivals.rebuild import copies
from rivals.rebuild.copies import Difference, Table
from rivals.rebuild.log import EventLog, LogEvent

__all__ = ["Table", "Report", "RebuildBusy", "rebuild"]

REBUILD_LOCK = (0x52424C44, 1)  # ("RBLD", 1): one rebuild at a time
TAIL = 10_000  # events committed late (a smaller position than the newest seen) are looked for this far back
LOCK_TIMEOUT_MS = 500
SWAP_ATTEMPTS = 60


class RebuildBusy(Exception):
    pass


@dataclass
class Report:
    events: int = 0  # distinct events replayed by the build
    seconds: float = 0.0  # the whole rebuild
    build_seconds: float = 0.0
    precompare_seconds: float = 0.0  # catch-up and comparison before the lock
    swap_seconds: float = 0.0  # the locked transaction that succeeded
    caught_up: int = 0  # events the build's snapshot did not see, applied under the lock
    differences: list[Difference] = field(default_factory=list)
    written: int = 0  # live rows written by the swap
    swap_attempts: int = 0
    verified_only: bool = False

    @property
    def equal(self) -> bool:
        return not any(d.any for d in self.differences)

    @property
    def rate(self) -> float:
        return self.events / self.build_seconds if self.build_seconds else 0.0


def _projections():
    from rivals import projections

    return projections.registered()


def _tables(projs) -> list[Table]:
    seen, out = set(), []
    for p in projs:
        for t in p.tables:
            if t.name not in seen:
                seen.add(t.name)
                out.append(t)
    return out


def _build(projs, shapes, live: str, log: EventLog, *, progress: bool) -> int:
    from tqdm import tqdm

    copies.create_copies(shapes, live)
    types = sorted({t for p in projs for t in p.event_types})
    total = sum(log.count(p.rebuild_types) for p in projs)
    with tqdm(
        total=total, unit="ev", desc="rebuild", disable=not progress or None, leave=True, mininterval=0.5, smoothing=0.1
    ) as bar:
        log.tick = bar.update
        with copies.writing_copies():
            for p in projs:
                p.reset()
            for p in projs:
                bar.set_postfix_str(p.name, refresh=False)
                p.rebuild(log)
    log.tick = lambda n: None
    return log.count(types)


def _catch_up(projs, *, high: int, seen: set[int]) -> list[int]:
    """Apply (to the copies) the committed events not seen yet; returns their positions."""
    from rivals.projections import by_type

    types = sorted({t for p in projs for t in p.event_types})
    with connection.cursor() as cur:
        cur.execute(
            "SELECT position FROM rivals_event WHERE position > %s AND type = ANY(%s)", [max(0, high - TAIL), types]
        )
        positions = [row[0] for row in cur.fetchall() if row[0] not in seen]
    missed = EventLog.at(positions) if positions else []
    if missed:
        with copies.writing_copies():
            for event in missed:
                for p in by_type(event.type):
                    p.apply(event)
    return [e.position for e in missed]


def rebuild(*, verify_only: bool = False, progress: bool = False, between=None, only=None) -> Report:
    """``between``: called after the build, before the swap (tests: events the build never saw).
    ``only``: the names of the projections to rebuild (default every one) — for a caller that knows
    the others have neither events nor rows (the property tests, ``tests/projections.py``)."""
    report = Report(verified_only=verify_only)
    started = time.perf_counter()
    projs = _projections()
    if only is not None:
        unknown = set(only) - {p.name for p in projs}
        if unknown:
            raise ValueError(f"no such projection: {sorted(unknown)}")
        projs = [p for p in projs if p.name in only]
    if connection.in_atomic_block:
        _nested(report, projs, verify_only=verify_only, progress=progress)
    else:
        _beside_traffic(report, projs, verify_only=verify_only, progress=progress, between=between)
    report.seconds = time.perf_counter() - started
    return report


def _nested(report: Report, projs, *, verify_only: bool, progress: bool) -> None:
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", list(REBUILD_LOCK))
        if not cur.fetchone()[0]:
            raise RebuildBusy("another rebuild is running")
        live = copies.live_schema()
        shapes = copies.shapes(_tables(projs), live)
        t0 = time.perf_counter()
        report.events = _build(projs, shapes, live, EventLog(), progress=progress)
        report.build_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        report.differences = copies.compare(shapes, live)
        if not verify_only:
            report.written = copies.swap(shapes, report.differences, live)
        report.swap_seconds, report.swap_attempts = time.perf_counter() - t0, 1
        copies.drop_copies()


def _beside_traffic(report: Report, projs, *, verify_only: bool, progress: bool, between) -> None:
    # a session lock across the build's and the swap's transactions: on a direct connection of its
    # own (rivals/direct.py), which a pooler in transaction mode would not keep; closing it frees it
    lock = direct.connect(application_name="rivals-rebuild-lock")
    if not lock.execute("SELECT pg_try_advisory_lock(%s, %s)", list(REBUILD_LOCK)).fetchone()[0]:
        lock.close()
        raise RebuildBusy("another rebuild is running")
    try:
        t0 = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            live = copies.live_schema()
            shapes = copies.shapes(_tables(projs), live)
            cur.execute("SELECT COALESCE(max(position), 0) FROM rivals_event")
            high = cur.fetchone()[0]
            cur.execute("SELECT position FROM rivals_event WHERE position > %s", [max(0, high - TAIL)])
            seen = {row[0] for row in cur.fetchall()}
            report.events = _build(projs, shapes, live, EventLog(high=high), progress=progress)
        report.build_seconds = time.perf_counter() - t0
        if between is not None:
            between()
        _swap_with_retries(report, projs, shapes, live, high=high, seen=seen, verify_only=verify_only)
    finally:
        try:
            copies.drop_copies()
        finally:
            lock.close()  # the lock goes with its session


def _swap_with_retries(
    report: Report, projs, shapes, live: str, *, high: int, seen: set[int], verify_only: bool
) -> None:
    locked = ", ".join(f"{connection.ops.quote_name(live)}.{connection.ops.quote_name(s.table.name)}" for s in shapes)
    # First without the lock: catch up and compare every table. A table found equal stays equal
    # while the lock is taken — every event since is applied to both sides by the same projection
    # code — so under the lock only the tables that differed (and those that jobs write without
    # events: the rankings roll) are compared again: the lock is held for the catch-up of the last
    # events and for the rows that really differ.
    t0 = time.perf_counter()
    with transaction.atomic():
        applied = _catch_up(projs, high=high, seen=seen)
        unlocked = copies.compare(shapes, live)
    seen.update(applied)
    report.caught_up = len(applied)
    recheck = {d.table for d in unlocked if d.any} | {t.name for p in projs if p.written_by_jobs for t in p.tables}
    report.precompare_seconds = time.perf_counter() - t0
    for attempt in range(1, SWAP_ATTEMPTS + 1):
        report.swap_attempts = attempt
        t0 = time.perf_counter()
        try:
            with transaction.atomic(), connection.cursor() as cur:
                cur.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT_MS}ms'")
                # writers of the projections first, then of the log: a client holding a board's
                # row lock waits on us, never the other way round for long
                cur.execute(f"LOCK TABLE {locked}, {connection.ops.quote_name(live)}.rivals_event IN EXCLUSIVE MODE")
                late = _catch_up(projs, high=high, seen=seen)
                rechecked = {d.table: d for d in copies.compare([s for s in shapes if s.table.name in recheck], live)}
                report.differences = [rechecked.get(d.table, d) for d in unlocked]
                if not verify_only:
                    report.written = copies.swap(shapes, report.differences, live)
        except OperationalError as exc:
            if "lock timeout" not in str(exc) and getattr(exc.__cause__, "sqlstate", "") != "55P03":
                raise
            time.sleep(min(0.1 * attempt, 1.0))
            continue
        report.caught_up += len(late)
        report.swap_seconds = time.perf_counter() - t0
        return
    raise RebuildBusy(f"the live tables stayed busy: no lock after {SWAP_ATTEMPTS} attempts")


__all__ += ["EventLog", "LogEvent"]

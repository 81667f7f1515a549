"""The rankings projection of ``PointsAwarded`` (R-33, R-34), applied in the award's transaction.

One counting award of ``amount`` at instant ``t`` (Romanian day ``D``) adds ``amount`` to the
account's bucket of ``D``, to its week of ``D``'s Monday and to its AMR total, and moves the
account between the histogram rows of those three boards. The AMR total holds every bucket from
``RankingClock.window_start`` on (including days the roll has not reached yet, so an award just
after midnight counts at once); the roll job only subtracts days that leave the window.

Suspended and closed accounts (R-38) are absent from every board: ``RankingExclusion`` holds
them, their totals keep accruing but the histogram never counts them (an award skips the
histogram; a suspension takes the account's totals out of it, a lift puts them back).

One implementation: ``rankings.rules.step`` decides the effect of every event — which cells an
award touches, the histogram deltas, the exclusion transitions, the retention (awards of a day
before ``window_start`` are ignored, a week row exists only for weeks whose Monday is inside the
window). Only storage differs: live (``LiveStore``) it is commutative upserts — an award is one
round trip for its three totals, concurrency-safe without row locks; the rebuild (``FoldStore``)
keeps the same numbers in dicts and writes them with COPY. ``reset()`` keeps the clock, so a
rebuild replays the ledger against the same window and reproduces the live state exactly.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime

from django.db import connection

from rankings.rules import EVENT_TYPES, Cells, Deltas, Exclusion, first_window_start, step
from rivals.locks import pair_lock_sql, read_after_lock
from rivals.models import Event
from rivals.projections import Projection
from rivals.rebuild import Table

# Awards take this advisory lock shared, the roll exclusive: the window never moves under an award.
# The two-int form lives in another key space than points_award's one-bigint hashtext(key) locks.
ROLL_LOCK = (0x52414E4B, 1)  # ("RANK", 1)

_TABLES = (
    "rankings_dailypoints",
    "rankings_weeklypoints",
    "rankings_amrpoints",
    "rankings_pointshistogram",
    "rankings_rankingexclusion",
)


# --- live: SQL in the append's transaction --------------------------------------------------------

_UPSERT = """
WITH d AS (
    INSERT INTO rankings_dailypoints (account_id, day, points, reached_at) VALUES (%(a)s, %(day)s, %(amt)s, %(at)s)
    ON CONFLICT (day, account_id) DO UPDATE SET points = rankings_dailypoints.points + EXCLUDED.points,
        reached_at = GREATEST(rankings_dailypoints.reached_at, EXCLUDED.reached_at)
    RETURNING points
), w AS (
    INSERT INTO rankings_weeklypoints (account_id, week, points, reached_at)
    SELECT %(a)s, %(week)s, %(amt)s, %(at)s WHERE %(with_week)s
    ON CONFLICT (week, account_id) DO UPDATE SET points = rankings_weeklypoints.points + EXCLUDED.points,
        reached_at = GREATEST(rankings_weeklypoints.reached_at, EXCLUDED.reached_at)
    RETURNING points
), m AS (
    INSERT INTO rankings_amrpoints (account_id, points, reached_at) VALUES (%(a)s, %(amt)s, %(at)s)
    ON CONFLICT (account_id) DO UPDATE SET points = rankings_amrpoints.points + EXCLUDED.points,
        reached_at = GREATEST(rankings_amrpoints.reached_at, EXCLUDED.reached_at)
    RETURNING points
)
SELECT (SELECT points FROM d), (SELECT points FROM m), (SELECT points FROM w),
    EXISTS (SELECT 1 FROM rankings_rankingexclusion WHERE account_id = %(a)s)
"""

# every positive total of one account, as (board key, points), for a suspension or its lift
_TOTALS_OF = """
SELECT 'd:' || to_char(day, 'YYYY-MM-DD'), points FROM rankings_dailypoints WHERE account_id = %(a)s AND points > 0
UNION ALL SELECT 'w:' || to_char(week, 'YYYY-MM-DD'), points FROM rankings_weeklypoints
    WHERE account_id = %(a)s AND points > 0
UNION ALL SELECT 'amr', points FROM rankings_amrpoints WHERE account_id = %(a)s AND points > 0
"""


class LiveStore:
    """The rankings tables, written in place: commutative upserts (no row read first, no row
    lock) — concurrent awards of one account or one board add up."""

    def __init__(self, cur):
        self.cur = cur

    def window_start(self, day: date) -> date:
        cur = self.cur
        # the roll's lock, shared, and the clock: one round trip
        read_after_lock(
            cur,
            pair_lock_sql(shared=True),
            list(ROLL_LOCK),
            "SELECT window_start FROM rankings_rankingclock WHERE id = 1",
            [],
        )
        row = cur.fetchone()
        if row:
            return row[0]
        cur.execute(
            "INSERT INTO rankings_rankingclock (id, window_start) VALUES (1, %s) ON CONFLICT (id) DO NOTHING",
            [first_window_start(day)],
        )
        cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1")
        return cur.fetchone()[0]

    def add(self, account_id: int, cells: Cells, amount: int, at: datetime) -> tuple[list[int], bool]:
        self.cur.execute(
            _UPSERT,
            {
                "a": account_id,
                "day": cells.day,
                "week": cells.week,
                "amt": amount,
                "at": at,
                "with_week": cells.week is not None,
            },
        )
        daily, amr, weekly, excluded = self.cur.fetchone()
        return ([daily, amr] if cells.week is None else [daily, amr, weekly]), excluded

    def move(self, deltas: Deltas) -> None:
        rows = sorted((k, lvl, v, dn) for (k, lvl, v), dn in deltas.items() if dn)
        if not rows:
            return
        # Sorted rows: every writer locks histogram rows in the same order (no deadlocks).
        values = ", ".join(["(%s, %s, %s, %s)"] * len(rows))
        self.cur.execute(
            f"INSERT INTO rankings_pointshistogram (board_key, level, value, n) VALUES {values} "
            "ON CONFLICT (board_key, level, value) DO UPDATE SET n = rankings_pointshistogram.n + EXCLUDED.n",
            [x for row in rows for x in row],
        )

    def exclusion(self, account_id: int) -> Exclusion | None:
        self.cur.execute(
            "SELECT suspended, closed, since FROM rankings_rankingexclusion WHERE account_id = %s FOR UPDATE",
            [account_id],
        )
        row = self.cur.fetchone()
        return Exclusion(*row) if row else None

    def set_exclusion(self, account_id: int, row: Exclusion | None) -> None:
        if row is None:
            self.cur.execute("DELETE FROM rankings_rankingexclusion WHERE account_id = %s", [account_id])
            return
        self.cur.execute(
            "INSERT INTO rankings_rankingexclusion (account_id, suspended, closed, since) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (account_id) DO UPDATE SET suspended = EXCLUDED.suspended, closed = EXCLUDED.closed",
            [account_id, row.suspended, row.closed, row.since],
        )

    def totals(self, account_id: int) -> list[tuple[str, int]]:
        self.cur.execute(_TOTALS_OF, {"a": account_id})
        return self.cur.fetchall()


# --- the rebuild: the same steps on dicts, then COPY ------------------------------------------------


class FoldStore:
    """The rankings tables as dicts, for the rebuild's fold; ``copy()`` writes them."""

    def __init__(self, window_start: date | None):
        self.start = window_start  # the live clock (job state): the replay uses the same window
        self.cells: dict[int, dict[str, list]] = defaultdict(dict)  # account → board key → [points, reached_at]
        self.excluded: dict[int, Exclusion] = {}
        self.hist: Deltas = defaultdict(int)

    def window_start(self, day: date) -> date:
        if self.start is None:  # no clock yet: the window the first award makes (as live)
            self.start = first_window_start(day)
        return self.start

    def add(self, account_id: int, cells: Cells, amount: int, at: datetime) -> tuple[list[int], bool]:
        mine = self.cells[account_id]
        totals = []
        for key in cells.keys():
            cell = mine.get(key)
            if cell is None:
                mine[key] = cell = [0, at]
            cell[0] += amount
            cell[1] = max(cell[1], at)
            totals.append(cell[0])
        return totals, account_id in self.excluded

    def move(self, deltas: Deltas) -> None:
        for k, dn in deltas.items():
            self.hist[k] += dn

    def exclusion(self, account_id: int) -> Exclusion | None:
        return self.excluded.get(account_id)

    def set_exclusion(self, account_id: int, row: Exclusion | None) -> None:
        if row is None:
            self.excluded.pop(account_id, None)
        else:
            self.excluded[account_id] = row

    def totals(self, account_id: int) -> list[tuple[str, int]]:
        return [(key, points) for key, (points, _) in self.cells.get(account_id, {}).items() if points > 0]

    def copy(self) -> None:
        from rankings.models import AmrPoints, DailyPoints, PointsHistogram, RankingExclusion, WeeklyPoints
        from rivals.rawsql import copy_insert

        daily, weekly, amr = [], [], []
        for account_id, mine in self.cells.items():
            for key, (points, reached_at) in mine.items():
                if key == "amr":
                    amr.append(AmrPoints(account_id=account_id, points=points, reached_at=reached_at))
                elif key.startswith("w:"):
                    week = date.fromisoformat(key[2:])
                    weekly.append(WeeklyPoints(account_id=account_id, week=week, points=points, reached_at=reached_at))
                else:
                    day = date.fromisoformat(key[2:])
                    daily.append(DailyPoints(account_id=account_id, day=day, points=points, reached_at=reached_at))
        copy_insert(DailyPoints, daily)
        copy_insert(WeeklyPoints, weekly)
        copy_insert(AmrPoints, amr)
        copy_insert(
            PointsHistogram,
            [
                PointsHistogram(board_key=k, level=lvl, value=v, n=n)
                for (k, lvl, v), n in sorted(self.hist.items())
                if n
            ],
        )
        copy_insert(
            RankingExclusion,
            [
                RankingExclusion(account_id=a, suspended=x.suspended, closed=x.closed, since=x.since)
                for a, x in self.excluded.items()
            ],
        )


class RankingsProjection(Projection):
    name = "rankings"
    event_types = EVENT_TYPES
    # the clock is job state, not the projection's; histogram rows at zero are no state
    written_by_jobs = True  # the nightly roll
    tables = (
        Table("rankings_dailypoints"),
        Table("rankings_weeklypoints"),
        Table("rankings_amrpoints"),
        Table("rankings_pointshistogram", where="n <> 0"),
        Table("rankings_rankingexclusion"),
    )

    def apply(self, event: Event) -> None:
        with connection.cursor() as cur:
            step(LiveStore(cur), event)

    def rebuild(self, log) -> None:
        """The same steps as ``apply``, event by event, on totals in memory; then COPY."""
        with connection.cursor() as cur:
            cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1")
            row = cur.fetchone()
        store = FoldStore(row[0] if row else None)
        for event in log.events(self.event_types):
            step(store, event)
        store.copy()

    def reset(self) -> None:
        # The clock (window_start) is job state and stays: the replay uses the same window.
        with connection.cursor() as cur:
            # DELETE, not TRUNCATE: Django's FKs are deferred, and a rebuild runs in one transaction.
            for table in _TABLES:
                cur.execute(f"DELETE FROM {table}")


rankings_projection = RankingsProjection()

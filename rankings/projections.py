"""The rankings projection of ``PointsAwarded`` (R-33, R-34), applied in the award's transaction.

One counting award of ``amount`` at instant ``t`` (Romanian day ``D``) adds ``amount`` to the
account's bucket of ``D``, to its week of ``D``'s Monday and to its AMR total, and moves the
account between the histogram rows of those three boards. The AMR total holds every bucket from
``RankingClock.window_start`` on (including days the roll has not reached yet, so an award just
after midnight counts at once); the roll job only subtracts days that leave the window.

Suspended and closed accounts (R-38) are absent from every board: ``RankingExclusion`` holds
them, their totals keep accruing but the histogram never counts them (an award skips the
histogram; a suspension takes the account's totals out of it, a lift puts them back).

Retention, identical live and on rebuild: awards of a day before ``window_start`` are ignored
(they left the 365-day window), and a week row exists only for weeks whose Monday is inside the
window. ``reset()`` keeps the clock, so a rebuild replays the ledger against the same window and
reproduces the live state exactly.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db import connection
from django.utils.dateparse import parse_datetime

from rankings.days import amr_window_start, romanian_day, week_start
from rankings.models import HISTOGRAM_BUCKET
from rivals.models import Event
from rivals.projections import Projection
from rivals.rebuild import Table

# Awards take this advisory lock shared, the roll exclusive: the window never moves under an award.
# The two-int form lives in another key space than points_award's one-bigint hashtext(key) locks.
ROLL_LOCK = (0x52414E4B, 1)  # ("RANK", 1)


def board_key(board: str, day: date) -> str:
    if board == "amr":
        return "amr"
    if board == "weekly":
        return f"w:{week_start(day).isoformat()}"
    if board == "daily":
        return f"d:{day.isoformat()}"
    raise ValueError(f"unknown board {board!r}")


def histogram_deltas(key: str, old: int, new: int) -> dict[tuple[str, int, int], int]:
    """Histogram changes when one account's total on ``key`` goes from ``old`` to ``new``."""
    deltas: dict[tuple[str, int, int], int] = defaultdict(int)
    if old > 0:
        deltas[(key, 0, old)] -= 1
        deltas[(key, 1, old // HISTOGRAM_BUCKET)] -= 1
    if new > 0:
        deltas[(key, 0, new)] += 1
        deltas[(key, 1, new // HISTOGRAM_BUCKET)] += 1
    return deltas


def histogram_apply(cur, deltas: dict[tuple[str, int, int], int]) -> None:
    rows = sorted((k, lvl, v, dn) for (k, lvl, v), dn in deltas.items() if dn)
    if not rows:
        return
    # Sorted rows: every writer locks histogram rows in the same order (no deadlocks).
    values = ", ".join(["(%s, %s, %s, %s)"] * len(rows))
    cur.execute(
        f"INSERT INTO rankings_pointshistogram (board_key, level, value, n) VALUES {values} "
        "ON CONFLICT (board_key, level, value) DO UPDATE SET n = rankings_pointshistogram.n + EXCLUDED.n",
        [x for row in rows for x in row],
    )


def window_start_for_award(cur, day: date) -> date:
    """The AMR window start, created on the first award ever (window of the award's day)."""
    cur.execute("SELECT pg_advisory_xact_lock_shared(%s, %s)", list(ROLL_LOCK))
    cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1")
    row = cur.fetchone()
    if row:
        return row[0]
    cur.execute(
        "INSERT INTO rankings_rankingclock (id, window_start) VALUES (1, %s) ON CONFLICT (id) DO NOTHING",
        [amr_window_start(day)],
    )
    cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1")
    return cur.fetchone()[0]


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
SELECT (SELECT points FROM d), (SELECT points FROM w), (SELECT points FROM m),
    EXISTS (SELECT 1 FROM rankings_rankingexclusion WHERE account_id = %(a)s)
"""

# every positive total of one account, as (board key, points), for a suspension or its lift
_TOTALS_OF = """
SELECT 'd:' || to_char(day, 'YYYY-MM-DD'), points FROM rankings_dailypoints WHERE account_id = %(a)s AND points > 0
UNION ALL SELECT 'w:' || to_char(week, 'YYYY-MM-DD'), points FROM rankings_weeklypoints
    WHERE account_id = %(a)s AND points > 0
UNION ALL SELECT 'amr', points FROM rankings_amrpoints WHERE account_id = %(a)s AND points > 0
"""

EXCLUSION_EVENTS = frozenset({"AccountSuspended", "AccountSuspensionLifted", "AccountClosed"})


def exclusion_after(event_type: str, suspended: bool, closed: bool) -> tuple[bool, bool]:
    """R-38: an account's ``(suspended, closed)`` after one of the ``EXCLUSION_EVENTS``."""
    if event_type == "AccountSuspended":
        return True, closed
    if event_type == "AccountSuspensionLifted":
        return False, closed
    return suspended, True


class RankingsProjection(Projection):
    name = "rankings"
    event_types = frozenset({"PointsAwarded"}) | EXCLUSION_EVENTS
    # the clock is job state, not the projection's; histogram rows at zero are no state
    written_by_jobs = True  # the nightly roll
    tables = (
        Table("rankings_dailypoints"),
        Table("rankings_weeklypoints"),
        Table("rankings_amrpoints"),
        Table("rankings_pointshistogram", where="n <> 0"),
        Table("rankings_rankingexclusion"),
    )

    def rebuild(self, log) -> None:
        """The same steps as ``apply``, event by event, on totals in memory; then COPY."""
        from rankings.models import AmrPoints, DailyPoints, PointsHistogram, RankingExclusion, WeeklyPoints
        from rivals.rawsql import copy_insert

        with connection.cursor() as cur:
            cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1")
            row = cur.fetchone()
        start = row[0] if row else None
        totals: dict[int, dict[str, list]] = defaultdict(dict)  # account → board key → [points, reached_at]
        excluded: dict[int, list] = {}  # account → [suspended, closed, since]
        hist: dict[tuple[str, int, int], int] = defaultdict(int)

        def move(deltas):
            for k, dn in deltas.items():
                hist[k] += dn

        for event in log.events(self.event_types):
            d = event.data
            account_id = d["account_id"]
            if event.type in EXCLUSION_EVENTS:
                row = excluded.get(account_id)
                was = row is not None
                suspended, closed = exclusion_after(event.type, *((row[0], row[1]) if row else (False, False)))
                now = suspended or closed
                if now:
                    excluded[account_id] = [suspended, closed, row[2] if row else event.recorded_at]
                else:
                    excluded.pop(account_id, None)
                if was != now:
                    for key, (points, _) in totals[account_id].items():
                        if points > 0:
                            move(histogram_deltas(key, *((0, points) if not now else (points, 0))))
                continue
            amount = int(d["amount"])
            if not d.get("counts") or amount == 0:
                continue
            at = parse_datetime(d["awarded_at"])
            day = romanian_day(at)
            if start is None:  # no clock yet: the window of the first award (as the live path makes it)
                start = amr_window_start(day)
            if day < start:
                continue
            keys = [board_key("daily", day), board_key("amr", day)]
            if week_start(day) >= start:
                keys.append(board_key("weekly", day))
            mine = totals[account_id]
            news = []
            for key in keys:
                cell = mine.get(key)
                if cell is None:
                    mine[key] = cell = [0, at]
                cell[0] += amount
                cell[1] = max(cell[1], at)
                news.append((key, cell[0]))
            if account_id not in excluded:
                for key, new in news:
                    move(histogram_deltas(key, new - amount, new))
        daily, weekly, amr = [], [], []
        for account_id, mine in totals.items():
            for key, (points, reached_at) in mine.items():
                if key == "amr":
                    amr.append(AmrPoints(account_id=account_id, points=points, reached_at=reached_at))
                elif key.startswith("w:"):
                    weekly.append(
                        WeeklyPoints(
                            account_id=account_id,
                            week=date.fromisoformat(key[2:]),
                            points=points,
                            reached_at=reached_at,
                        )
                    )
                else:
                    daily.append(
                        DailyPoints(
                            account_id=account_id, day=date.fromisoformat(key[2:]), points=points, reached_at=reached_at
                        )
                    )
        copy_insert(DailyPoints, daily)
        copy_insert(WeeklyPoints, weekly)
        copy_insert(AmrPoints, amr)
        copy_insert(
            PointsHistogram,
            [PointsHistogram(board_key=k, level=lvl, value=v, n=n) for (k, lvl, v), n in sorted(hist.items()) if n],
        )
        copy_insert(
            RankingExclusion,
            [
                RankingExclusion(account_id=a, suspended=s, closed=c, since=since)
                for a, (s, c, since) in excluded.items()
            ],
        )

    def reset(self) -> None:
        # The clock (window_start) is job state and stays: the replay uses the same window.
        with connection.cursor() as cur:
            # DELETE, not TRUNCATE: Django's FKs are deferred, and a rebuild runs in one transaction.
            for table in (
                "rankings_dailypoints",
                "rankings_weeklypoints",
                "rankings_amrpoints",
                "rankings_pointshistogram",
                "rankings_rankingexclusion",
            ):
                cur.execute(f"DELETE FROM {table}")

    def apply(self, event: Event) -> None:
        if event.type in EXCLUSION_EVENTS:
            self._exclusion(event)
            return
        d = event.data
        amount = int(d["amount"])
        if not d.get("counts") or amount == 0:  # only counting entries rank
            return
        at = parse_datetime(d["awarded_at"])
        day = romanian_day(at)  # the Romanian day of the award instant
        with connection.cursor() as cur:
            start = window_start_for_award(cur, day)
            if day < start:  # already outside the 365-day window
                return
            week = week_start(day)
            with_week = week >= start
            cur.execute(
                _UPSERT,
                {"a": d["account_id"], "day": day, "week": week, "amt": amount, "at": at, "with_week": with_week},
            )
            daily, weekly, amr, excluded = cur.fetchone()
            if excluded:  # the totals accrue, the boards do not show them
                return
            deltas: dict[tuple[str, int, int], int] = defaultdict(int)
            changes = [(board_key("daily", day), daily), (board_key("amr", day), amr)]
            if with_week:
                changes.append((board_key("weekly", day), weekly))
            for key, new in changes:
                for k, dn in histogram_deltas(key, new - amount, new).items():
                    deltas[k] += dn
            histogram_apply(cur, deltas)

    @staticmethod
    def _exclusion(event: Event) -> None:
        account_id = event.data["account_id"]
        with connection.cursor() as cur:
            cur.execute(
                "SELECT suspended, closed FROM rankings_rankingexclusion WHERE account_id = %s FOR UPDATE", [account_id]
            )
            row = cur.fetchone()
            was = bool(row) and (row[0] or row[1])
            suspended, closed = exclusion_after(event.type, *((row[0], row[1]) if row else (False, False)))
            now = suspended or closed
            if now:
                cur.execute(
                    "INSERT INTO rankings_rankingexclusion (account_id, suspended, closed, since) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (account_id) DO UPDATE SET suspended = EXCLUDED.suspended, closed = EXCLUDED.closed",
                    [account_id, suspended, closed, event.recorded_at],
                )
            else:
                cur.execute("DELETE FROM rankings_rankingexclusion WHERE account_id = %s", [account_id])
            if was == now:
                return
            cur.execute(_TOTALS_OF, {"a": account_id})
            deltas: dict[tuple[str, int, int], int] = defaultdict(int)
            for key, points in cur.fetchall():
                old, new = (0, points) if not now else (points, 0)
                for k, dn in histogram_deltas(key, old, new).items():
                    deltas[k] += dn
            histogram_apply(cur, deltas)


rankings_projection = RankingsProjection()

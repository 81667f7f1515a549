"""Rankings services: the roll of the AMR window (R-34).

``rankings_roll`` is what the midnight job and the hourly catch-up job run. It moves the AMR
window to ``today − 364 … today`` (Romanian days): every day that left the window since the last
roll is subtracted from the AMR totals (with the histogram), and buckets, weeks and histogram
rows that left are pruned. Weekly and Daily need no reset: their boards are keyed by the Romanian
week/day, so a new day or a Monday starts an empty board at 00:00 Romanian time by itself.

Idempotent and catch-up by construction: the window start only moves forward, a second run for
the same day finds nothing to do, and a run after downtime subtracts every missed day at once.

Time applied three ways (R-34: every read applies the windows of its own instant): the midnight
job and its hourly catch-up, and every read of the AMR (``rankings_roll_if_due``, called by the
selectors) — so from 00:00:00 Romanian time day D−365 has left every board, profile and club sum
whether or not a job has run.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection, transaction
from django.utils import timezone

from rankings.days import amr_window_start, romanian_today
from rankings.models import HISTOGRAM_BUCKET
from rankings.projections import ROLL_LOCK
from rivals.locks import advisory_lock_pair
from rivals.replica import for_read


@dataclass(frozen=True)
class RollResult:
    today: date
    window_start: date
    previous_window_start: date | None
    rolled: bool
    accounts_changed: int = 0


_SUBTRACT = f"""
WITH leaving AS (
    SELECT account_id, SUM(points) AS s FROM rankings_dailypoints
    WHERE day >= %(old)s AND day < %(new)s GROUP BY account_id HAVING SUM(points) <> 0
), upd AS (
    UPDATE rankings_amrpoints a SET points = a.points - l.s FROM leaving l
    WHERE a.account_id = l.account_id
    RETURNING a.account_id, a.points + l.s AS old, a.points AS new
), shown AS (  -- R-38: suspended and closed accounts are not in the histogram
    SELECT old, new FROM upd
    WHERE NOT EXISTS (SELECT 1 FROM rankings_rankingexclusion x WHERE x.account_id = upd.account_id)
), changes AS (
    SELECT 0 AS level, old AS value, -1 AS dn FROM shown WHERE old > 0
    UNION ALL SELECT 0, new, 1 FROM shown WHERE new > 0
    UNION ALL SELECT 1, old / {HISTOGRAM_BUCKET}, -1 FROM shown WHERE old > 0
    UNION ALL SELECT 1, new / {HISTOGRAM_BUCKET}, 1 FROM shown WHERE new > 0
), hist AS (
    INSERT INTO rankings_pointshistogram (board_key, level, value, n)
    SELECT 'amr', level, value, SUM(dn) FROM changes GROUP BY level, value HAVING SUM(dn) <> 0
    ORDER BY level, value
    ON CONFLICT (board_key, level, value) DO UPDATE SET n = rankings_pointshistogram.n + EXCLUDED.n
)
SELECT COUNT(*) FROM upd
"""


def rankings_roll_if_due(*, today: date, now: datetime | None = None) -> bool:
    """Roll the AMR window to ``today`` if it is behind (one primary-key read when it is not).

    On a replica read (rivals.replica) the window is read there: a roll it calls for is decided
    again under the lock on the primary, and its commit sends the rest of the read to the primary."""
    with for_read().cursor() as cur:
        cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1")
        row = cur.fetchone()
    if row is None or row[0] >= amr_window_start(today):
        return False
    return rankings_roll(today=today, now=now).rolled


@transaction.atomic
def rankings_roll(*, today: date | None = None, now: datetime | None = None) -> RollResult:
    """Move the AMR window to the 365 Romanian days ending ``today`` (default: today of ``now``)."""
    today = today or romanian_today(now)
    new_start = amr_window_start(today)
    with connection.cursor() as cur:
        # Exclusive against awards (they hold it shared): the window never moves under an award.
        advisory_lock_pair(ROLL_LOCK)
        cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1 FOR UPDATE")
        row = cur.fetchone()
        old_start = row[0] if row else None
        if old_start is not None and new_start <= old_start:
            return RollResult(today, old_start, old_start, rolled=False)  # already rolled: no-op
        changed = 0
        if old_start is not None:
            cur.execute(_SUBTRACT, {"old": old_start, "new": new_start})
            changed = cur.fetchone()[0]
            # An AMR row goes with the last of its days inside the window, as on a rebuild (which
            # makes one for an account with a day inside it, even days that add up to 0).
            cur.execute(
                "DELETE FROM rankings_amrpoints a USING (SELECT DISTINCT account_id FROM rankings_dailypoints "
                "WHERE day >= %(old)s AND day < %(new)s) l WHERE a.account_id = l.account_id AND a.points = 0 "
                "AND NOT EXISTS (SELECT 1 FROM rankings_dailypoints d WHERE d.account_id = a.account_id "
                "AND d.day >= %(new)s)",
                {"old": old_start, "new": new_start},
            )
        # Prune what left the window (it can never come back: awards before window_start are ignored).
        cur.execute("DELETE FROM rankings_dailypoints WHERE day < %s", [new_start])
        cur.execute("DELETE FROM rankings_weeklypoints WHERE week < %s", [new_start])
        cur.execute(
            "DELETE FROM rankings_pointshistogram WHERE (board_key LIKE 'd:%%' AND board_key < %s) "
            "OR (board_key LIKE 'w:%%' AND board_key < %s) OR n = 0",
            [f"d:{new_start.isoformat()}", f"w:{new_start.isoformat()}"],
        )
        cur.execute(
            "INSERT INTO rankings_rankingclock (id, window_start, rolled_at) VALUES (1, %s, %s) "
            "ON CONFLICT (id) DO UPDATE SET window_start = EXCLUDED.window_start, rolled_at = EXCLUDED.rolled_at",
            [new_start, now or timezone.now()],
        )
    return RollResult(today, new_start, old_start, rolled=True, accounts_changed=changed)

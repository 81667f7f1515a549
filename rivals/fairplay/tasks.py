"""Celery tasks of fair play: thin — find the work, call the service (R-42's signals).

The signals of a rated result are scored by a worker, never in an intent's request: the beat
sweeper ``fairplay.signals_sweep`` finds the rated results of the last days that have no
``fairplay-<result>`` stream yet and scores them, a bounded batch per run (the oldest first);
``fairplay.score_result`` scores one (an operator's or a test's call). Exactly-once comes from
the service (the stream's head), so either may run twice or late.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

SWEEP_BATCH = 200
SWEEP_LOOKBACK = timedelta(days=3)

_DUE_SQL = (
    "SELECT substr(s.id, 8) FROM rivals_stream s WHERE s.type = 'rating' AND s.created_at >= %s "
    "AND s.created_at <= %s AND NOT EXISTS (SELECT 1 FROM rivals_stream f WHERE f.id = 'fairplay-' || substr(s.id, 8)) "
    "ORDER BY s.created_at, s.id LIMIT %s"
)


def results_due(*, now, limit: int = SWEEP_BATCH, lookback: timedelta | None = SWEEP_LOOKBACK) -> list[str]:
    """Rated results (``match:<id>``) of the last days (``lookback``; None: all) whose signals
    are not scored yet, the oldest first."""
    since = now - lookback if lookback is not None else timezone.make_aware(datetime.min.replace(year=1900))
    with connection.cursor() as cur:
        cur.execute(_DUE_SQL, [since, now, limit])
        return [row[0] for row in cur.fetchall()]


@shared_task(name="fairplay.signals_sweep", acks_late=True)
def signals_sweep(*, now: str | None = None) -> int:
    """Score the rated results not scored yet (a batch); returns how many were scored."""
    from rivals.fairplay.signals import fairplay_result_score

    at = parse_datetime(now) if now else timezone.now()
    return sum(fairplay_result_score(result=result, now=at) for result in results_due(now=at))


@shared_task(name="fairplay.score_result", acks_late=True)
def score_result(*, result: str) -> bool:
    from rivals.fairplay.signals import fairplay_result_score

    return fairplay_result_score(result=result)

"""Rankings jobs: thin Celery tasks calling the service (the service is idempotent)."""

from __future__ import annotations

from celery import shared_task

from rankings.services import rankings_roll
from rivals.jobs import job_now


@shared_task(name="rankings.roll")
def roll(now: str | None = None) -> dict:
    """Romanian-midnight roll and hourly catch-up (config/periodic.py): moves the AMR window to
    today's 365 days; a second run the same day is a no-op, a late run catches up every missed day."""
    result = rankings_roll(now=job_now(now))
    return {
        "today": result.today.isoformat(),
        "window_start": result.window_start.isoformat(),
        "rolled": result.rolled,
        "accounts_changed": result.accounts_changed,
    }

"""Tournament and pot jobs: thin Celery tasks (ids in, the idempotent service does the rest)."""

from __future__ import annotations

from celery import shared_task

from rivals.jobs import job_now


@shared_task(name="tournaments.tick", acks_late=True)
def tick(*, tournament_id: str) -> str:
    """Scheduled for the moment (start, end) and after every table's end: what is due, once."""
    from tournaments.services.play import tournament_tick

    return tournament_tick(tournament_id=tournament_id)


@shared_task(name="tournaments.sweep", acks_late=True)
def sweep(now: str | None = None) -> dict:
    """Beat safety net: starts, cancellations, next waves and finalizations that are due."""
    from tournaments.services.play import tournaments_sweep

    return tournaments_sweep(now=job_now(now))


@shared_task(name="tournaments.schedules_materialize", acks_late=True)
def schedules_materialize(now: str | None = None) -> int:
    """Create the instances of recurring schedules for the coming days (Romanian time)."""
    from tournaments.services.schedules import schedules_materialize as materialize

    return materialize(now=job_now(now))


@shared_task(name="tournaments.pot_tick", acks_late=True)
def pot_tick(*, pot_id: str) -> bool:
    from tournaments.services.pots import pot_finalize

    return pot_finalize(pot_id=pot_id)


@shared_task(name="tournaments.pots_sweep", acks_late=True)
def pots_sweep(now: str | None = None) -> int:
    """P-5: rank and pay every pot competition whose end time passed."""
    from tournaments.services.pots import pots_sweep as sweep_pots

    return sweep_pots(now=job_now(now))


@shared_task(name="tournaments.reminders", acks_late=True)
def reminders(now: str | None = None) -> int:
    """``tournament_starting`` notifications, 5 minutes before each tournament (idempotent)."""
    from tournaments.reminders import tournament_reminders_append

    return tournament_reminders_append(now=job_now(now))

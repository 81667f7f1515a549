from celery import shared_task

from rivals.jobs import job_now


@shared_task(name="live.tournament_reminders", acks_late=True)
def tournament_reminders(now: str | None = None) -> int:
    """``tournament_starting`` notifications, 5 minutes before each tournament (idempotent)."""
    from rivals.live.reminders import tournament_reminders_append

    return tournament_reminders_append(now=job_now(now))

"""Celery tasks of accounts: the outbox's delivery (R-36). Task names keep the ``rivals.`` prefix
the periodic tasks and queued messages already use."""

from __future__ import annotations

from celery import shared_task

from rivals.jobs import job_now


@shared_task(name="rivals.email_deliver")
def email_deliver(*, email_id: int) -> str:
    """R-36: send one outbox email after its transaction committed (retried by ``emails-retry``)."""
    from rivals.accounts.emails import email_deliver as deliver

    return deliver(email_id=email_id)


@shared_task(name="rivals.emails_retry")
def emails_retry(now: str | None = None) -> int:
    from rivals.accounts.emails import emails_retry_due

    return emails_retry_due(now=job_now(now))

"""Celery tasks of competitive play: thin — fetch by id, return if done, call a service.

Time is applied three ways; these are two of them: a task scheduled (after commit) for the
moment a round's deadline, a ticket's or a challenge's expiry falls due, and a beat sweeper
(``matches.sweep``, every 2 s) as the safety net. The third is every read and intent. Exactly-once
comes from the services (row lock + status check), so any of them may run twice or late.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.db import transaction

from rivals.dispatch import task_on_commit, task_send


def schedule_round_check(*, round_id, at: datetime) -> None:
    task_on_commit(round_end_check, eta=at, round_id=str(round_id))


def schedule_round_checks(checks: list[tuple]) -> None:
    """Many rounds' end checks (``[(round_id, at)]``, e.g. a tournament wave's tables, which
    share their first deadline): one task per distinct instant, sent after commit."""
    by_instant: dict[datetime, list[str]] = {}
    for round_id, at in checks:
        by_instant.setdefault(at, []).append(str(round_id))

    def publish():
        for at, round_ids in by_instant.items():
            if len(round_ids) == 1:
                task_send(round_end_check, eta=at, round_id=round_ids[0])
            else:
                task_send(rounds_end_check, eta=at, round_ids=round_ids)

    transaction.on_commit(publish)


def schedule_ticket_expiry(*, ticket_id, at: datetime) -> None:
    task_on_commit(queue_ticket_expire, eta=at, ticket_id=str(ticket_id))


def schedule_duel_expiry(*, duel_id, at: datetime) -> None:
    task_on_commit(duel_expire, eta=at, duel_id=str(duel_id))


@shared_task(name="matches.round_end_check", acks_late=True)
def round_end_check(*, round_id: str) -> bool:
    """R-17 at the round's deadline: end it if due, else re-arm for the deadline pairs moved to."""
    from rivals.matches.services.rounds import round_end_or_clock

    ended, rnd = round_end_or_clock(round_id=round_id, via="task")
    if not ended and rnd is not None and rnd.status == "running":  # the deadline its pairs moved it to
        task_send(round_end_check, eta=rnd.ends_at, round_id=round_id)
    return ended


@shared_task(name="matches.rounds_end_check", acks_late=True)
def rounds_end_check(*, round_ids: list[str]) -> int:
    """``round_end_check`` for many rounds that shared a deadline; each is re-armed on its own."""
    return sum(round_end_check(round_id=round_id) for round_id in round_ids)


@shared_task(name="matches.queue_ticket_expire", acks_late=True)
def queue_ticket_expire(*, ticket_id: str) -> bool:
    from rivals.matches.services import queue_ticket_expire_if_due

    return queue_ticket_expire_if_due(ticket_id=ticket_id)


@shared_task(name="matches.duel_expire", acks_late=True)
def duel_expire(*, duel_id: str) -> bool:
    from rivals.matches.services import duel_expire_if_due

    return duel_expire_if_due(duel_id=duel_id)


@shared_task(name="matches.sweep")
def sweep(now: str | None = None) -> dict:
    """The safety net: every round, ticket and challenge whose time has come; and a pairing pass
    of each queue (R-42: the windows that widened since the last join)."""
    from rivals.jobs import job_now
    from rivals.matches.services import duels_expire_due, queue_expire_due, queue_pair_due, rounds_end_due

    at = job_now(now)
    return {
        "rounds": rounds_end_due(now=at),
        "tickets": queue_expire_due(now=at),
        "duels": duels_expire_due(now=at),
        "paired": queue_pair_due(now=at),
    }

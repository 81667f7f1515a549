"""Celery tasks of competitive play: thin — fetch by id, return if done, call a service.

Time is applied three ways; these are two of them: a task scheduled (after commit) for the
moment a round's deadline, a ticket's or a challenge's expiry falls due, and a beat sweeper
(``matches.sweep``, every 2 s) as the safety net. The third is every read and intent. Exactly-once
comes from the services (row lock + status check), so any of them may run twice or late.
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial

from celery import shared_task
from django.db import transaction

log = logging.getLogger(__name__)


def _publish(task, *, at: datetime, **kwargs) -> None:
    """Send ``task`` for ``at``; a broker that cannot take it is logged: the sweeper covers it."""
    try:
        task.apply_async(kwargs=kwargs, eta=at)
    except Exception:  # noqa: BLE001 — never fail a committed request on the broker
        log.warning("could not schedule %s%s; the beat sweeper will apply it", task.name, kwargs, exc_info=True)


def schedule_round_check(*, round_id, at: datetime) -> None:
    transaction.on_commit(partial(_publish, round_end_check, at=at, round_id=str(round_id)))


def schedule_round_checks(checks: list[tuple]) -> None:
    """Many rounds' end checks (``[(round_id, at)]``, e.g. a tournament wave's tables, which
    share their first deadline): one task per distinct instant, sent after commit."""
    by_instant: dict[datetime, list[str]] = {}
    for round_id, at in checks:
        by_instant.setdefault(at, []).append(str(round_id))

    def publish():
        for at, round_ids in by_instant.items():
            if len(round_ids) == 1:
                _publish(round_end_check, at=at, round_id=round_ids[0])
            else:
                _publish(rounds_end_check, at=at, round_ids=round_ids)

    transaction.on_commit(publish)


def schedule_ticket_expiry(*, ticket_id, at: datetime) -> None:
    transaction.on_commit(partial(_publish, queue_ticket_expire, at=at, ticket_id=str(ticket_id)))


def schedule_duel_expiry(*, duel_id, at: datetime) -> None:
    transaction.on_commit(partial(_publish, duel_expire, at=at, duel_id=str(duel_id)))


@shared_task(name="matches.round_end_check", acks_late=True)
def round_end_check(*, round_id: str) -> bool:
    """R-17 at the round's deadline: end it if due, else re-arm for the deadline pairs moved to."""
    from rivals.matches.models import Round
    from rivals.matches.services import round_end_if_due

    if round_end_if_due(round_id=round_id, via="task"):
        return True
    rnd = Round.objects.filter(pk=round_id, status="running").only("ends_at").first()
    if rnd is not None:
        _publish(round_end_check, at=rnd.ends_at, round_id=round_id)
    return False


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
    """The safety net: every round, ticket and challenge whose time has come."""
    from rivals.jobs import job_now
    from rivals.matches.services import duels_expire_due, queue_expire_due, rounds_end_due

    at = job_now(now)
    return {"rounds": rounds_end_due(now=at), "tickets": queue_expire_due(now=at), "duels": duels_expire_due(now=at)}

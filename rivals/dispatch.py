"""Sending Celery tasks from services: after the transaction commits, with ids only, never failing
committed work because the broker cannot take a message (the beat sweepers apply what a lost
message would have: ARCHITECTURE.md, "Time is the server's, three ways")."""

from __future__ import annotations

import functools
import logging
from datetime import datetime

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)


def task_send(task, *, eta: datetime | None = None, **kwargs) -> None:
    """Send ``task`` (a task, or a task's name: sent by name, so the sending process need not
    have imported the module that defines it) for ``eta``; a broker outage is logged."""
    name = task if isinstance(task, str) else task.name
    if isinstance(task, str) and task in current_app.tasks:
        task = current_app.tasks[task]  # imported here: apply_async (which honours eager mode)
    try:
        if isinstance(task, str):
            current_app.send_task(task, kwargs=kwargs, eta=eta)
        else:
            task.apply_async(kwargs=kwargs, eta=eta)
    except Exception:  # never fail committed work on the broker: the sweeper covers it
        log.warning("could not send %s %s; the beat sweeper will apply it", name, kwargs, exc_info=True)


def task_on_commit(task, *, eta: datetime | None = None, **kwargs) -> None:
    """``task_send`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(functools.partial(task_send, task, eta=eta, **kwargs))

"""The Celery application. Settings come from Django settings under the ``CELERY_`` prefix.

Every task of the product is idempotent (a unique key or a state guard makes a second run a
no-op), so every task inherits the retry policy of ``Task``: a lost database connection (the
server restarting, a failover) is retried with exponential backoff instead of being dropped.
The backoff's ceiling stays far below the broker's visibility timeout (settings), so a retry
waiting for its countdown is never handed to a second worker meanwhile.
"""

import os

import psycopg
from celery import Celery
from celery import Task as CeleryTask
from django.db import InterfaceError, OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

DATABASE_CONNECTION_ERRORS = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)


class Task(CeleryTask):
    autoretry_for = DATABASE_CONNECTION_ERRORS
    retry_backoff = 1  # 1 s, 2 s, 4 s … (with jitter) up to retry_backoff_max
    retry_backoff_max = 60
    retry_jitter = True
    max_retries = 15  # ≈ 12 minutes of outage before a run is given up (and logged)


app = Celery("rivals", task_cls=Task)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# the terminal: the routine jobs' sends, receipts and successes at DEBUG only (issue 22); one clock,
# UTC with its zone, as the web's lines (issue 40)
from celery.signals import after_setup_logger, after_setup_task_logger  # noqa: E402

from config.logfilters import quiet_routine_tasks, utc_clock  # noqa: E402

after_setup_logger.connect(quiet_routine_tasks, weak=False, dispatch_uid="config.quiet_routine_tasks")
after_setup_logger.connect(utc_clock, weak=False, dispatch_uid="config.utc_clock")
after_setup_task_logger.connect(utc_clock, weak=False, dispatch_uid="config.utc_clock_tasks")
quiet_routine_tasks()

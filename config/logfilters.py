"""What the terminal of ``make run`` shows (issue 22): nothing a newcomer would read as a crash, and
not hundreds of routine lines a minute burying the one-time admin password.

- ``RoutineTasks``: beat's "Sending due task", a worker's "received" and "succeeded" lines of the
  routine jobs (``config.periodic.ROUTINE_TASKS``: the sweepers every 2–60 s, the game's timers)
  become DEBUG records — shown only when the logger is at DEBUG (``LOG_LEVEL=DEBUG``, or celery's
  ``--loglevel DEBUG``); failures and retries keep their level.
- ``OneLineForbidden``: a 403 (an operator opening a page that is read-only for everyone, such as
  an event's "add") is one line in the log, not the exception's 40-line traceback.
- One clock (issue 40): every line of web, worker and beat starts with the instant in UTC, the
  zone written (``UTCFormatter``: Django's ``LOGGING``, uvicorn's ``config/uvicorn_logging.json``,
  Celery's loggers through ``utc_clock``) — not the processes' local time, not no time at all.
- One line per request (issue 40): uvicorn's access line, except for static files and the favicon
  (``NoStaticFiles``: an admin page asks for ~20 of them).
"""

from __future__ import annotations

import logging
import time

from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS

BEAT_SENDING = "Scheduler: Sending due task %s (%s)"
ROUTINE_LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")


def _task_of(record: logging.LogRecord) -> str | None:
    if record.msg in (LOG_RECEIVED, LOG_SUCCESS) and isinstance(record.args, dict):
        return record.args.get("name")
    if record.msg == BEAT_SENDING and isinstance(record.args, tuple) and len(record.args) == 2:
        return str(record.args[1])
    return None


class RoutineTasks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        from config.periodic import ROUTINE_TASKS

        if record.levelno != logging.INFO or _task_of(record) not in ROUTINE_TASKS:
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


class OneLineForbidden(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info, record.exc_text = None, None
        return True


def quiet_routine_tasks(**_) -> None:
    """Put ``RoutineTasks`` on celery's loggers (Celery's ``after_setup_logger`` signal: worker and beat)."""
    for name in ROUTINE_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RoutineTasks) for f in logger.filters):
            logger.addFilter(RoutineTasks())


LOG_FORMAT = "%(asctime)s UTC %(levelname)s %(name)s: %(message)s"
UNLOGGED_PATHS = ("/static/", "/favicon.ico")


class UTCFormatter(logging.Formatter):
    """``2026-06-01 18:00:05.250 UTC INFO uvicorn.access: …``."""

    converter = time.gmtime
    default_msec_format = "%s.%03d"

    def __init__(self, fmt: str | None = None, datefmt: str | None = None, style: str = "%", **kwargs) -> None:
        super().__init__(fmt or LOG_FORMAT, datefmt, style)


class NoStaticFiles(logging.Filter):
    """uvicorn's access line (``'%s - "%s %s HTTP/%s" %d'``: client, method, path …) of a static
    file or the favicon is not shown."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3:
            return not str(args[2]).startswith(UNLOGGED_PATHS)
        return True


def utc_clock(logger=None, **_) -> None:
    """Celery's ``after_setup_logger`` / ``after_setup_task_logger``: its handlers write the one
    clock (worker and beat)."""
    for handler in getattr(logger, "handlers", []):
        handler.setFormatter(UTCFormatter())

"""Embedded defaults: a PostgreSQL from the ``pgserver`` package and a server-less broker.

Used only when ``DATABASE_URL`` / ``CELERY_BROKER_URL`` are not set, so that a fresh machine runs
the service with no database or broker server installed. Everything lives under ``.data/`` in the
project folder.
"""

from __future__ import annotations

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("RIVALS_DATA_DIR", BASE_DIR / ".data"))


def embedded_database_url() -> str:
    """Start (or join) the embedded PostgreSQL under ``.data/pg`` and return its URL.

    pgserver keeps one server per data directory and lets several processes share it, so the
    web server, the worker and beat all talk to one database.
    """
    import pgserver  # imported lazily: only needed without DATABASE_URL

    pgdata = DATA_DIR / "pg"
    pgdata.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(str(pgdata), cleanup_mode=None)
    return server.get_uri()


def filesystem_broker_folder() -> Path:
    """Folder of kombu's filesystem transport: a broker that needs no server.

    Producer and consumers on one machine exchange messages as files; good for development and
    a single-host install, not for production (use Redis or RabbitMQ there).
    """
    folder = DATA_DIR / "broker"
    for sub in ("in", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return folder


def stop_embedded_database() -> None:
    """Stop the embedded PostgreSQL (fast shutdown: SIGINT to the postmaster) if it runs."""
    import signal

    pidfile = DATA_DIR / "pg" / "postmaster.pid"
    try:
        pid = int(pidfile.read_text().split()[0])
        os.kill(pid, signal.SIGINT)
    except (OSError, ValueError, IndexError):
        pass  # not running

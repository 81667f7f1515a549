"""Embedded defaults: a PostgreSQL from the ``pgserver`` package and a server-less broker.

Used only when ``DATABASE_URL`` / ``CELERY_BROKER_URL`` are not set, so that a fresh machine runs
the service with no database or broker server installed. Everything lives under ``.data/`` in the
project folder.

Lifecycle of the embedded server: every process that needs it (``manage.py …``, pytest, the
benchmarks) registers its pid in ``.data/pg/.rivals-users`` and the last one to leave stops the
server — whoever started it, and whatever crashed in between (dead pids are pruned). Child
processes that get ``DATABASE_URL`` (gunicorn, the Celery worker and beat of ``serve``, the worker
of the Celery test) do not register: their parent holds the server for them. pgserver's own
reference counting is not used: it never forgets a killed process, and its exit hook logs into
streams that pytest has already closed.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import signal
import time
from pathlib import Path
from urllib.parse import quote

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("RIVALS_DATA_DIR", BASE_DIR / ".data"))
PGDATA = DATA_DIR / "pg"
_USERS = PGDATA / ".rivals-users"
_registered = False


@contextlib.contextmanager
def _locked():
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    with (DATA_DIR / ".pg.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _users() -> list[int]:
    try:
        pids = json.loads(_USERS.read_text())
    except (OSError, ValueError):
        return []
    return [p for p in pids if isinstance(p, int) and _alive(p)]


def _postmaster_pid() -> int | None:
    try:
        pid = int((PGDATA / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if _alive(pid) else None


def import_pgserver():
    """pgserver, imported lazily (only needed without ``DATABASE_URL``).

    platformdirs (imported by pgserver) warns when the login session has no runtime directory
    (root over ssh, CI, containers): it gets a private one under .data/ instead."""
    if not os.environ.get("XDG_RUNTIME_DIR"):
        runtime = DATA_DIR / "run"
        runtime.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    import pgserver

    return pgserver


def embedded_database_url() -> str:
    """Start (or join) the embedded PostgreSQL under ``.data/pg`` and return its URL."""
    global _registered
    pgserver = import_pgserver()
    PGDATA.mkdir(parents=True, exist_ok=True)
    with _locked():
        server = pgserver.get_server(str(PGDATA), cleanup_mode=None)
        # we count the users ourselves (module docstring): undo pgserver's bookkeeping and exit hook
        server.global_process_id_list.get_and_remove(os.getpid())
        atexit.unregister(server._cleanup)
        if not _registered:
            users = _users()
            if os.getpid() not in users:
                users.append(os.getpid())
            _USERS.write_text(json.dumps(users))
            _registered = True
            atexit.register(release_embedded_database)
        return server.get_uri()


def release_embedded_database() -> bool:
    """Leave the embedded server; stop it if no other live process uses it. True if stopped."""
    global _registered
    if not _registered:
        return False
    with _locked():
        users = [p for p in _users() if p != os.getpid()]
        _USERS.write_text(json.dumps(users))
        _registered = False
        if users:
            return False
        return stop_embedded_database()


def stop_embedded_database(timeout: float = 30) -> bool:
    """Fast shutdown of the embedded PostgreSQL (SIGINT to the postmaster), waiting until it is gone."""
    pid = _postmaster_pid()
    if pid is None:
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _alive(pid)


def database_url(settings_dict: dict) -> str:
    """A ``DATABASE_URL`` for child processes from a Django connection's settings.

    For a Unix socket django-environ leaves ``HOST`` empty and keeps the socket folder in
    ``OPTIONS["host"]``: both are honoured, so children reach the same server and database.
    """
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    name = quote(settings_dict["NAME"], safe="")
    options = settings_dict.get("OPTIONS") or {}
    host = settings_dict.get("HOST") or options.get("host") or ""
    port = settings_dict.get("PORT") or options.get("port") or ""
    auth = f"{user}:{password}@" if user else ""
    if not host or host.startswith("/"):
        query = f"?host={quote(host, safe='/')}" if host else ""
        if port:
            query += ("&" if query else "?") + f"port={port}"
        return f"postgresql://{auth}/{name}{query}"
    return f"postgresql://{auth}{host}:{port or 5432}/{name}"


def filesystem_broker_folder() -> Path:
    """Folder of kombu's filesystem transport: a broker that needs no server.

    Producer and consumers on one machine exchange messages as files; good for development and
    a single-host install, not for production (use Redis or RabbitMQ there).
    """
    folder = DATA_DIR / "broker"
    for sub in ("in", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return folder

"""A direct connection to PostgreSQL, for what needs a session of its own (config/pooler.py).

Behind a pooler in transaction mode (PgBouncer ``pool_mode = transaction``) the ``default``
alias lends a server connection for one transaction at a time; whatever outlives a transaction
on it — a session advisory lock, ``LISTEN``, a ``SET`` without ``LOCAL``, a prepared statement
— stays on a server connection that the next client gets, or is missing from the one this
client gets next. Those few places connect here instead: ``DATABASE_DIRECT_URL`` (the server
itself, or a pooler's session-mode pool) when it is set, else the ``default`` alias's own
parameters (no pooler: the same server).

Used by the live room (rivals/live/db.py: its relay's lock, LISTEN, prepared reads), beat's
leader election (config/beat.py) and the projections' rebuild lock (rivals/rebuild). Platform:
imports no feature.
"""

from __future__ import annotations

import psycopg
from django.conf import settings
from django.db import connections

# Django's options that are no libpq parameters (or that a direct connection sets itself)
_NOT_LIBPQ = ("cursor_factory", "context", "prepare_threshold", "server_side_binding", "pool", "isolation_level")


def conninfo() -> str:
    """libpq connection string of the direct connection."""
    url = getattr(settings, "DATABASE_DIRECT_URL", "")
    if url:
        import environ

        config = environ.Env.db_url_config(url)
        params = {
            "dbname": config.get("NAME") or None,
            "user": config.get("USER") or None,
            "password": config.get("PASSWORD") or None,
            "host": config.get("HOST") or None,
            "port": str(config["PORT"]) if config.get("PORT") else None,
            **{k: v for k, v in config.get("OPTIONS", {}).items() if k not in _NOT_LIBPQ},
        }
    else:
        params = connections["default"].get_connection_params()
    for key in _NOT_LIBPQ:
        params.pop(key, None)
    return psycopg.conninfo.make_conninfo("", **{k: v for k, v in params.items() if v is not None})


def connect(*, application_name: str, **kwargs) -> psycopg.Connection:
    """A synchronous direct connection in autocommit (a session's locks live as long as it)."""
    return psycopg.connect(conninfo(), autocommit=True, application_name=application_name, **kwargs)


async def connect_async(*, application_name: str, **kwargs) -> psycopg.AsyncConnection:
    return await psycopg.AsyncConnection.connect(
        conninfo(), autocommit=True, application_name=application_name, **kwargs
    )


def pooled() -> bool:
    """Whether the ``default`` alias goes through a pooler in transaction mode."""
    return getattr(settings, "DATABASE_POOLER", "") == "transaction"

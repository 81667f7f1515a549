"""The live room's own database connections: asyncio psycopg connections in autocommit, made
from Django's settings (the relay, the hubs and the PostgreSQL channel layer never block the
event loop on Django's synchronous connections)."""

from __future__ import annotations

import psycopg
from django.db import connections


def conninfo() -> str:
    params = connections["default"].get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold", "server_side_binding"):
        params.pop(key, None)
    return psycopg.conninfo.make_conninfo("", **params)


async def connect(*, application_name: str = "rivals-live") -> psycopg.AsyncConnection:
    return await psycopg.AsyncConnection.connect(conninfo(), autocommit=True, application_name=application_name)

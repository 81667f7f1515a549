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
    conn = await psycopg.AsyncConnection.connect(conninfo(), autocommit=True, application_name=application_name)
    # The live room reads the log by position, which prunes none of its monthly partitions
    # (migration 0011): planned afresh, such a read plans every partition each time (6 ms at 43
    # partitions); prepared at once and planned once, generically, it costs 0.1 ms.
    conn.prepare_threshold = 0
    await conn.execute("SET plan_cache_mode = force_generic_plan")
    return conn

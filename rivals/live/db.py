"""The live room's own database connections: asyncio psycopg connections in autocommit, made
from Django's settings (the relay, the hubs and the PostgreSQL channel layer never block the
event loop on Django's synchronous connections). They are direct connections (rivals/direct.py):
the relay's advisory lock, the layer's LISTEN and the prepared reads below are a session's, which
a pooler in transaction mode would not keep."""

from __future__ import annotations

import psycopg

from rivals import direct


def conninfo() -> str:
    return direct.conninfo()


async def connect(*, application_name: str = "rivals-live") -> psycopg.AsyncConnection:
    conn = await direct.connect_async(application_name=application_name)
    # The live room reads the log by position, which prunes none of its monthly partitions
    # (migration 0011): planned afresh, such a read plans every partition each time (6 ms at 43
    # partitions); prepared at once and planned once, generically, it costs 0.1 ms.
    conn.prepare_threshold = 0
    await conn.execute("SET plan_cache_mode = force_generic_plan")
    return conn

"""Advisory locks of PostgreSQL, held until the transaction ends: serialise work that has no row to
lock yet (a queue of one mode, an award key), by a name (hashed by the server) or a pair of ints."""

from __future__ import annotations

from django.db import connection


def advisory_lock(name: str) -> None:
    """Exclusive, for ``name`` (``hashtext``): another transaction taking it waits for this one."""
    with connection.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [name])


def advisory_lock_pair(key: tuple[int, int], *, shared: bool = False) -> None:
    """For a two-int key (its own key space, apart from the hashed names): exclusive, or shared
    (many holders at once, none with an exclusive holder)."""
    with connection.cursor() as cur:
        cur.execute(f"SELECT pg_advisory_xact_lock{'_shared' if shared else ''}(%s, %s)", list(key))

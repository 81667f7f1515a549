"""Advisory locks of PostgreSQL, held until the transaction ends: serialise work that has no row to
lock yet (a queue of one mode, an award key), by a name (hashed by the server) or a pair of ints."""

from __future__ import annotations

from django.db import connection

# The lock statements (for ``read_after_lock``); their parameters: the name, or the key's two ints.
NAMED_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext(%s))"


def pair_lock_sql(*, shared: bool = False) -> str:
    return f"SELECT pg_advisory_xact_lock{'_shared' if shared else ''}(%s, %s)"


def read_after_lock(cur, lock: str, lock_params: list, sql: str, params: list) -> None:
    """Take a lock (``NAMED_LOCK_SQL``, ``pair_lock_sql``) and run the read it guards, in one round
    trip; ``cur`` is left on the read's rows. In READ COMMITTED each statement takes its snapshot
    when it starts, so the read's follows the lock."""
    cur.execute(f"{lock}; {sql}", [*lock_params, *params])
    cur.nextset()


def advisory_lock(name: str) -> None:
    """Exclusive, for ``name`` (``hashtext``): another transaction taking it waits for this one."""
    with connection.cursor() as cur:
        cur.execute(NAMED_LOCK_SQL, [name])


def advisory_lock_pair(key: tuple[int, int], *, shared: bool = False) -> None:
    """For a two-int key (its own key space, apart from the hashed names): exclusive, or shared
    (many holders at once, none with an exclusive holder)."""
    with connection.cursor() as cur:
        cur.execute(pair_lock_sql(shared=shared), list(key))

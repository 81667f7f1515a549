"""A database of its own for a benchmark: created on the server of ``DATABASE_URL`` (else the
embedded PostgreSQL), ``DATABASE_URL`` pointed at it, dropped at the end whatever happens."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit


@contextmanager
def bench_database(prefix: str, base_url: str | None = None) -> Iterator[str]:
    """Yield the new database's name; ``django.setup()`` afterwards connects to it."""
    import psycopg

    if not base_url:
        from config.embedded import embedded_database_url

        base_url = embedded_database_url()
    parts = urlsplit(base_url)
    name = f"{prefix}_{os.getpid()}"
    admin_url = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # cleanup must not mask the error
            pass
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print(f"dropped {name}", flush=True)


def insert_accounts(cur, n: int) -> None:
    """Accounts 1 … ``n`` (``Player <id>``), in one statement, the id sequence moved past them.
    Every NOT NULL column without a database default is named here: a migration that adds one
    must add it here (the benchmarks that use it fail at once otherwise)."""
    cur.execute(
        "INSERT INTO rivals_account (id, password, is_superuser, username, is_staff, is_active, date_joined, "
        "email_verified, display_name, search_name, jokers, suspension_reason) SELECT g, '!', false, 'bench' || g, "
        "false, true, now(), false, 'Player ' || g, 'player ' || g, 0, '' FROM generate_series(1, %s) g",
        [n],
    )
    cur.execute("SELECT setval(pg_get_serial_sequence('rivals_account', 'id'), %s)", [n])

"""Bulk writes of a rebuild into its copies."""

from __future__ import annotations

from django.db import connection


def update_columns(table: str, key: str, columns: list[str], rows: list[tuple]) -> None:
    """``UPDATE table SET columns = …`` for many rows (``(key, *values)`` each) in three round
    trips: the rows travel by COPY into a temporary table shaped like ``table``."""
    if not rows:
        return
    q = connection.ops.quote_name
    names = [key, *columns]
    with connection.cursor() as cur:
        cur.execute(
            f"CREATE TEMP TABLE _rebuild_rows ON COMMIT DROP AS SELECT {', '.join(q(c) for c in names)} "
            f"FROM {q(table)} WITH NO DATA"
        )
        with cur.cursor.copy(f"COPY _rebuild_rows ({', '.join(q(c) for c in names)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        sets = ", ".join(f"{q(c)} = r.{q(c)}" for c in columns)
        cur.execute(
            f"UPDATE {q(table)} t SET {sets} FROM _rebuild_rows r WHERE t.{q(key)} = r.{q(key)}; "
            "DROP TABLE _rebuild_rows"
        )

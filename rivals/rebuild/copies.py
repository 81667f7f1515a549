"""Private copies of the projection tables, their comparison with the live tables, and the swap.

A rebuild writes into copies in the schema ``rivals_rebuild`` (same names, made with
``CREATE TABLE … (LIKE live INCLUDING …)``): the projections' own code runs unchanged with that
schema first on the ``search_path``, so their writes land in the copies while every table that
is not a projection's (the event log, the ranking clock …) is read where it lives.

The swap writes into the live tables only the rows that differ (usually none): rows keyed by a
primary key the events decide (a game's id …) are inserted, updated or deleted one by one;
tables keyed by a database-assigned id (the ledger's rows …) are compared as multisets of their
other columns and, when they differ, replaced whole.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection

SCHEMA = "rivals_rebuild"


@dataclass(frozen=True)
class Table:
    """A table a projection writes. ``columns``: the projection owns only these columns of rows
    that are not its own (the account's display name, jokers …); the copy starts as the live
    rows. ``ignore``: columns a replay does not reproduce (a cache), neither compared nor
    written on an update. ``where``: only the rows it selects are compared and copied back
    (histogram rows at zero are no state)."""

    name: str
    columns: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    where: str = ""


@dataclass
class Shape:
    """What the catalogue says of one live table."""

    table: Table
    columns: list[str]
    key: list[str]
    identity_key: bool  # the primary key is assigned by the database: compare without it
    compared: list[str] = field(default_factory=list)
    # columns holding another copied table's database-assigned ids (a table's wave): not compared
    id_refs: dict[str, str] = field(default_factory=dict)
    family: str = ""  # tables tied by such ids are compared apart and replaced together

    @property
    def as_multiset(self) -> bool:
        """Compared as a multiset of rows (no stable key), replaced whole when it differs."""
        return (self.identity_key or bool(self.id_refs)) and self.table.columns is None


@dataclass
class Difference:
    table: str
    only_live: int  # rows live that the rebuild does not have
    only_rebuilt: int  # rows the rebuild has that live does not
    changed: int  # rows with the same key and other values
    examples: list[str] = field(default_factory=list)  # a few changed rows: key and differing columns

    @property
    def any(self) -> bool:
        return bool(self.only_live or self.only_rebuilt or self.changed)


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def live_schema() -> str:
    with connection.cursor() as cur:
        cur.execute("SELECT current_schema()")
        return cur.fetchone()[0]


def shapes(tables: list[Table], live: str) -> list[Shape]:
    out = []
    with connection.cursor() as cur:
        for t in tables:
            cur.execute(
                "SELECT a.attname, a.attidentity <> '' OR pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%%', "
                "  COALESCE(a.attnum = ANY(i.indkey), false) "
                "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                "LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary "
                "WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
                [live, t.name],
            )
            rows = cur.fetchall()
            if not rows:
                raise LookupError(f"no table {live}.{t.name}")
            columns = [r[0] for r in rows]
            key = [r[0] for r in rows if r[2]]
            identity_key = any(r[1] for r in rows if r[2])
            owned = list(t.columns) if t.columns is not None else [c for c in columns if c not in key]
            compared = [c for c in owned if c not in t.ignore]
            cur.execute(
                "SELECT a.attname, cf.relname FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_class cf ON cf.oid = k.confrelid "
                "JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1] "
                "WHERE k.contype = 'f' AND n.nspname = %s AND c.relname = %s",
                [live, t.name],
            )
            fks = dict(cur.fetchall())
            out.append(
                Shape(table=t, columns=columns, key=key, identity_key=identity_key, compared=compared, id_refs=fks)
            )
    # only references to copied tables whose ids the database assigns (they differ in a rebuild)
    assigned = {s.table.name for s in out if s.identity_key and s.table.columns is None}
    family = {s.table.name: s.table.name for s in out}

    def root(name):
        while family[name] != name:
            name = family[name]
        return name

    for s in out:
        s.id_refs = {col: target for col, target in s.id_refs.items() if target in assigned}
        s.compared = [c for c in s.compared if c not in s.id_refs]
        for target in s.id_refs.values():
            family[root(s.table.name)] = root(target)
    for s in out:
        s.family = root(s.table.name)
    return out


def create_copies(shapes_: list[Shape], live: str) -> None:
    """The empty copies (rows of partly owned tables copied from live, in the caller's snapshot)."""
    with connection.cursor() as cur:
        cur.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE; CREATE SCHEMA {SCHEMA}")
        for s in shapes_:
            name = _q(s.table.name)
            cur.execute(
                f"CREATE TABLE {SCHEMA}.{name} (LIKE {_q(live)}.{name} INCLUDING DEFAULTS INCLUDING IDENTITY "
                "INCLUDING INDEXES INCLUDING CONSTRAINTS INCLUDING GENERATED)"
            )
            if s.table.columns is not None:
                cur.execute(f"INSERT INTO {SCHEMA}.{name} SELECT * FROM {_q(live)}.{name}")
            elif s.identity_key:  # the copy's ids come after every id live has handed out
                pk = s.key[0]
                cur.execute(
                    f"SELECT GREATEST((SELECT COALESCE(max({_q(pk)}), 0) FROM {_q(live)}.{name}), "
                    f"(SELECT last_value FROM {_sequence(cur, live, s)}))"
                )
                cur.execute(f"ALTER TABLE {SCHEMA}.{name} ALTER COLUMN {_q(pk)} RESTART WITH {cur.fetchone()[0] + 1}")


def _sequence(cur, live: str, s: Shape) -> str:
    cur.execute("SELECT pg_get_serial_sequence(%s, %s)", [f"{_q(live)}.{_q(s.table.name)}", s.key[0]])
    return cur.fetchone()[0]


def drop_copies() -> None:
    with connection.cursor() as cur:
        cur.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")


def _aborted() -> bool:
    import psycopg

    raw = connection.connection
    return raw is None or raw.info.transaction_status == psycopg.pq.TransactionStatus.INERROR


@contextmanager
def writing_copies():
    """The projections' code, while inside, reads and writes the copies (``search_path``).
    Inside a transaction only, and set for it only (``SET LOCAL``): a session's setting would stay
    on the server connection a pooler in transaction mode lends to the next client."""
    assert connection.in_atomic_block, "writing_copies() belongs inside a transaction"
    with connection.cursor() as cur:
        cur.execute("SELECT current_setting('search_path')")
        old = cur.fetchone()[0]
        cur.execute("SELECT set_config('search_path', %s, true)", [f"{SCHEMA}, {old}"])
    try:
        yield
    finally:
        if not _aborted():  # an aborted transaction takes the SET back with it
            with connection.cursor() as cur:
                cur.execute("SELECT set_config('search_path', %s, true)", [old])


def _row(alias: str, columns: list[str]) -> str:
    return "ROW(" + ", ".join(f"{alias}.{_q(c)}" for c in columns) + ")"


def _key_match(columns: list[str]) -> str:
    return " AND ".join(f"l.{_q(c)} = c.{_q(c)}" for c in columns)


def compare(shapes_: list[Shape], live: str) -> list[Difference]:
    out = []
    with connection.cursor() as cur:
        for s in shapes_:
            L, C = f"{_q(live)}.{_q(s.table.name)}", f"{SCHEMA}.{_q(s.table.name)}"
            if s.as_multiset:
                cols = ", ".join(_q(c) for c in s.compared)
                where = f" WHERE {s.table.where}" if s.table.where else ""
                cur.execute(
                    f"SELECT (SELECT count(*) FROM (SELECT {cols} FROM {L}{where} EXCEPT ALL SELECT {cols} FROM {C}{where}) x),"
                    f" (SELECT count(*) FROM (SELECT {cols} FROM {C}{where} EXCEPT ALL SELECT {cols} FROM {L}{where}) y)"
                )
                only_live, only_rebuilt = cur.fetchone()
                out.append(Difference(s.table.name, only_live, only_rebuilt, 0))
                continue
            match = _key_match(s.key)
            changed_sql = (
                (
                    f"SELECT count(*) FROM {C} c JOIN {L} l ON {match} "
                    f"WHERE {_row('l', s.compared)} IS DISTINCT FROM {_row('c', s.compared)}"
                )
                if s.compared
                else "SELECT 0"
            )
            if s.table.columns is not None:  # rows are not the projection's: only its columns count
                cur.execute(changed_sql)
                out.append(Difference(s.table.name, 0, 0, cur.fetchone()[0]))
                continue
            cur.execute(
                f"SELECT (SELECT count(*) FROM {L} l WHERE NOT EXISTS (SELECT 1 FROM {C} c WHERE {match})), "
                f"(SELECT count(*) FROM {C} c WHERE NOT EXISTS (SELECT 1 FROM {L} l WHERE {match})), "
                f"({changed_sql})"
            )
            out.append(Difference(s.table.name, *cur.fetchone()))
    for s, d in zip(shapes_, out, strict=True):
        if d.changed:
            d.examples = _examples(s, live)
    return out


def _examples(s: Shape, live: str, limit: int = 3) -> list[str]:
    """``key: column live→rebuilt, …`` for a few changed rows (what an operator looks at first)."""
    L, C = f"{_q(live)}.{_q(s.table.name)}", f"{SCHEMA}.{_q(s.table.name)}"
    cols = ", ".join(f"l.{_q(c)}, c.{_q(c)}" for c in s.compared)
    keys = ", ".join(f"l.{_q(c)}" for c in s.key)
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT {keys}, {cols} FROM {C} c JOIN {L} l ON {_key_match(s.key)} "
            f"WHERE {_row('l', s.compared)} IS DISTINCT FROM {_row('c', s.compared)} LIMIT {limit}"
        )
        rows = cur.fetchall()
    out = []
    for row in rows:
        key, values = row[: len(s.key)], row[len(s.key) :]
        diffs = [
            f"{c} {values[2 * i]!r:.60}→{values[2 * i + 1]!r:.60}"
            for i, c in enumerate(s.compared)
            if values[2 * i] != values[2 * i + 1]
        ]
        out.append(f"{'/'.join(map(str, key))}: {', '.join(diffs)}")
    return out


def swap(shapes_: list[Shape], differences: list[Difference], live: str) -> int:
    """Write the copies' rows into the live tables where they differ. Returns rows written."""
    written = 0
    by_name = {d.table: d for d in differences}
    replaced = {s.family for s in shapes_ if s.as_multiset and by_name[s.table.name].any}
    with connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL DEFERRED")
        for s in shapes_:
            d = by_name[s.table.name]
            L, C = f"{_q(live)}.{_q(s.table.name)}", f"{SCHEMA}.{_q(s.table.name)}"
            if s.as_multiset:
                if s.family not in replaced:
                    continue
                # replaced whole, with the copy's ids (after every live id: no clash), so that the
                # ids its family's rows hold stay right; the live sequence then moves past them
                cols = ", ".join(_q(c) for c in s.columns)
                where = f" WHERE {s.table.where}" if s.table.where else ""
                cur.execute(f"DELETE FROM {L}")
                cur.execute(f"INSERT INTO {L} ({cols}) SELECT {cols} FROM {C}{where}")
                written += cur.rowcount
                if s.identity_key:
                    pk = _q(s.key[0])
                    seq = _sequence(cur, live, s)
                    cur.execute(
                        f"SELECT setval(%s, GREATEST((SELECT COALESCE(max({pk}), 0) FROM {L}), "
                        f"(SELECT last_value FROM {seq})))",
                        [seq],
                    )
                continue
            if not d.any:
                continue
            match = _key_match(s.key)
            if s.table.columns is None:  # deleted first: a row's unique values may pass to another
                cur.execute(f"DELETE FROM {L} l WHERE NOT EXISTS (SELECT 1 FROM {C} c WHERE {match})")
                written += cur.rowcount
            if s.compared:
                sets = ", ".join(_q(c) for c in s.compared)
                cur.execute(
                    f"UPDATE {L} l SET ({sets}) = {_row('c', s.compared)} FROM {C} c "
                    f"WHERE {match} AND {_row('l', s.compared)} IS DISTINCT FROM {_row('c', s.compared)}"
                )
                written += cur.rowcount
            if s.table.columns is None:
                cols = ", ".join(_q(c) for c in s.columns)
                cur.execute(
                    f"INSERT INTO {L} ({cols}) SELECT {', '.join('c.' + _q(x) for x in s.columns)} FROM {C} c "
                    f"WHERE NOT EXISTS (SELECT 1 FROM {L} l WHERE {match})"
                )
                written += cur.rowcount
    return written

"""Model instances from raw cursor rows, for hot paths that send several statements in one round
trip (``cursor.execute("…; …")`` then ``cursor.nextset()``), where ``Model.objects.raw`` cannot.

Columns are matched by name, values converted by each field as the ORM does (``from_db_value``:
JSON columns arrive as text); columns that are not fields become plain attributes.
"""

from __future__ import annotations

from functools import cache

import psycopg
from django.db import connection
from psycopg.types.json import Jsonb


@cache
def _plan(model, names: tuple[str, ...]):
    by_column = {f.column: f for f in model._meta.concrete_fields}
    fields = [by_column.get(name) for name in names]
    order = {f.attname: i for i, f in enumerate(model._meta.concrete_fields)}
    converters = [(f.from_db_value if f is not None and hasattr(f, "from_db_value") else None) for f in fields]
    return fields, converters, order


def execute_prepared(django_cursor, sql: str, params) -> psycopg.Cursor:
    """Run one statement of the hot path with server-side binding on the cursor's connection: the
    parameters travel apart from the text (no client-side quoting) and psycopg has the server
    prepare a statement it has seen a few times, once per connection, so that the server neither
    parses nor plans it again. ``django_cursor`` (``connection.cursor()``) keeps Django's handling
    of the connection — its health check, and its errors as Django's (a lost connection is
    closed and answered 503) — around it. One statement only: no ``;``-separated lists."""
    cur = psycopg.Cursor(django_cursor.connection)
    with connection.wrap_database_errors:
        cur.execute(sql, params)
    return cur


@cache
def select_list(model, alias: str = "") -> str:
    """The model's columns, named (``a."id", a."email", …``): a prepared statement must not say
    ``*``, or a column added by a migration while it is cached fails it ("cached plan must not
    change result type") until the connection is replaced."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(f'{prefix}"{f.column}"' for f in model._meta.concrete_fields)


def column_names(cursor) -> tuple[str, ...]:
    """The current result's column names, straight from libpq: ``cursor.description`` builds a
    ``Column`` object per column and looks up its type on every call (rivals_game has 40)."""
    result = getattr(cursor, "cursor", cursor).pgresult
    return tuple(result.fname(i).decode() for i in range(result.nfields))


def models_from_rows(model, cursor, rows) -> list:
    """Instances of ``model`` from ``rows`` of the current result of ``cursor`` (a Django or
    psycopg cursor)."""
    return models_from_columns(model, column_names(cursor), rows)


def models_from_columns(model, names: tuple[str, ...], rows) -> list:
    """Instances of ``model`` from ``rows`` whose columns are ``names`` (a slice of a result that
    carries two models side by side: ``rivals.matches.services.round_reads``)."""
    fields, converters, order = _plan(model, names)
    concrete = model._meta.concrete_fields
    attnames = [f.attname for f in concrete]
    out = []
    for row in rows:
        values = [None] * len(concrete)
        extras = {}
        for name, field, convert, value in zip(names, fields, converters, row, strict=True):
            if convert is not None and value is not None:
                value = convert(value, None, connection)
            if field is None:
                extras[name] = value
            else:
                values[order[field.attname]] = value
        obj = model.from_db(connection.alias, attnames, values)
        for name, value in extras.items():
            setattr(obj, name, value)
        out.append(obj)
    return out


def copy_insert(model, objs, *, batch: int | None = None) -> None:
    """Insert many new rows with PostgreSQL's COPY (the bulk path of projections: a tournament
    wave's boards, a rebuild). Values are prepared by each field as ``save()`` would; an auto
    primary key left empty is filled by the database (and not read back). Much cheaper than
    ``bulk_create``, whose PostgreSQL path quotes every value of its UNNEST arrays client-side."""
    if not objs:
        return
    meta = model._meta
    fields = [
        f
        for f in meta.concrete_fields
        if not (f.primary_key and getattr(f, "db_returning", False) and getattr(objs[0], f.attname) is None)
    ]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    prepare = [(f.attname, _preparer(f)) for f in fields]
    with connection.cursor() as cur:
        with cur.cursor.copy(f"COPY {connection.ops.quote_name(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for obj in objs:
                copy.write_row([p(getattr(obj, name)) if p else getattr(obj, name) for name, p in prepare])
    for obj in objs:
        obj._state.adding = False
        obj._state.db = connection.alias


def _preparer(field):
    """How a value reaches COPY: JSON wrapped for jsonb, plain types as they are (psycopg adapts
    them), anything else through the field's own ``get_db_prep_save``."""
    from django.db.models import JSONField

    if isinstance(field, JSONField):
        return lambda value: None if value is None else Jsonb(value)
    if field.get_internal_type() in _PLAIN:
        return None
    return lambda value: field.get_db_prep_save(value, connection)


_PLAIN = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "BooleanField",
        "CharField",
        "DateTimeField",
        "FloatField",
        "ForeignKey",
        "IntegerField",
        "OneToOneField",
        "PositiveBigIntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SmallIntegerField",
        "TextField",
        "UUIDField",
    }
)

"""Model instances from raw cursor rows, for hot paths that send several statements in one round
trip (``cursor.execute("…; …")`` then ``cursor.nextset()``), where ``Model.objects.raw`` cannot.

Columns are matched by name, values converted by each field as the ORM does (``from_db_value``:
JSON columns arrive as text); columns that are not fields become plain attributes.
"""

from __future__ import annotations

from functools import lru_cache

from django.db import connection


@lru_cache(maxsize=None)
def _plan(model, names: tuple[str, ...]):
    by_column = {f.column: f for f in model._meta.concrete_fields}
    fields = [by_column.get(name) for name in names]
    order = {f.attname: i for i, f in enumerate(model._meta.concrete_fields)}
    converters = [
        (f.from_db_value if f is not None and hasattr(f, "from_db_value") else None) for f in fields
    ]
    return fields, converters, order


def models_from_rows(model, description, rows) -> list:
    names = tuple(d.name for d in description)
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

"""The one driver of the row projections (issue 33): a room's projection is a pure ``step(rows,
event)`` over a small object of rows (``TournamentRows``, ``MatchRows``); this module does the rest,
the same way for every room that keeps its state so:

- live, inside the append's transaction: the room loads the rows an event touches, then
  ``RowsDriver.apply(rows, step)`` snapshots them, steps, and writes what changed — the new rows in
  one INSERT per table, the changed columns of the others in one UPDATE per table and set of
  columns, the rows gone deleted;
- the rebuild: the room folds its streams into fresh rows in memory, then ``RowsDriver.copy``
  writes every table with COPY.

A room names its collections (``Rows``: an attribute of its rows object holding a ``{key: row}``
dict, or one row or None) with the model each holds, in the order they are written (parents first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rivals.projections import changed_fields, row_values, update_rows
from rivals.rawsql import copy_insert


@dataclass(frozen=True)
class Rows:
    """One collection of a rows object: ``attribute`` holds a ``{key: row}`` dict, or (``one``) a
    single row or None (keyed by its primary key); ``link`` sets a row's foreign keys from its
    parents' ids before it is written (``link(rows, key, row)``)."""

    attribute: str
    model: Any
    one: bool = False
    link: Callable[[Any, Any, Any], None] | None = None

    def items(self, rows: Any) -> dict:
        value = getattr(rows, self.attribute)
        if self.one:
            return {} if value is None else {value.pk: value}
        return value


# the caller writes these changed fields of this row itself (a locked row, written with the
# append's own statement): ``keep(row, fields) -> True``; and a new row, whole: ``keep(row, None)``
Keep = Callable[[Any, tuple[str, ...] | None], bool]


class RowsDriver:
    """Snapshot, step, write what changed (live); COPY (the rebuild)."""

    def __init__(self, collections: Iterable[Rows], *, batch_size: int = 5000):
        self.collections = tuple(collections)
        self.batch_size = batch_size

    def snapshot(self, rows: Any) -> dict[str, dict]:
        return {c.attribute: {k: row_values(o) for k, o in c.items(rows).items()} for c in self.collections}

    def apply(self, rows: Any, step: Callable[[Any], None], *, keep: Keep | None = None) -> None:
        """``step(rows)`` and write what it changed of ``rows`` (loaded by the room)."""
        before = self.snapshot(rows)
        step(rows)
        self.write_changes(before, rows, keep=keep)

    def write_changes(self, before: dict[str, dict], rows: Any, *, keep: Keep | None = None) -> None:
        """Insert the new rows, update the changed columns of the others, delete the rows gone."""
        for c in self.collections:
            old, now = before[c.attribute], c.items(rows)
            if not old and not now:
                continue
            if c.link is not None:
                for key, row in now.items():
                    c.link(rows, key, row)
            new = [o for k, o in now.items() if k not in old and not (keep is not None and keep(o, None))]
            if new:
                c.model.objects.bulk_create(new, batch_size=self.batch_size)
            changed: dict[tuple[str, ...], list] = {}
            for k, o in now.items():
                fields = changed_fields(old[k], o) if k in old else ()
                if fields and not (keep is not None and keep(o, fields)):
                    changed.setdefault(fields, []).append(o)
            for fields, objs in changed.items():
                update_rows(c.model, objs, list(fields))
            gone = [old[k][c.model._meta.pk.attname] for k in old if k not in now]
            if gone:
                c.model.objects.filter(pk__in=gone).delete()

    def copy(self, folded: Iterable[Any]) -> None:
        """COPY every row of these folded rows objects, table by table (parents first)."""
        folded = list(folded)
        for c in self.collections:
            objs = [o for rows in folded for o in c.items(rows).values()]
            if c.link is not None:
                for rows in folded:
                    for key, row in c.items(rows).items():
                        c.link(rows, key, row)
            copy_insert(c.model, objs)

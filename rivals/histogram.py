"""Places on a board through a two-level histogram (the ranking boards, R-35; the rating board,
R-41): a table of ``(level, value, n)`` rows (scoped, e.g. by a board key) counts how many shown
entries hold each value (level 0) and each block of ``block`` values (level 1, the value floor-
divided by ``block``). A place is 1 + the entries above a value, and a deep page starts at the
value the histogram finds for its offset — a few hundred index rows either way, whatever the
number of entries. Equal values share a place (1, 1, 3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Histogram:
    table: str
    block: int
    scope: str = ""  # an SQL condition on the table's rows with %(…)s parameters (e.g. the board key)

    def _where(self, level: int) -> str:
        return f"{self.scope + ' AND ' if self.scope else ''}level = {level}"

    def count_above(self, cur, value: int, params: dict[str, Any] | None = None) -> int:
        """How many entries hold more than ``value``."""
        block = value // self.block
        cur.execute(
            f"SELECT COALESCE((SELECT SUM(n) FROM {self.table} WHERE {self._where(1)} AND value > %(b)s), 0) "
            f"+ COALESCE((SELECT SUM(n) FROM {self.table} WHERE {self._where(0)} AND value > %(p)s "
            "AND value < %(hi)s), 0)",
            {**(params or {}), "b": block, "p": value, "hi": (block + 1) * self.block},
        )
        return int(cur.fetchone()[0])

    def total(self, cur, params: dict[str, Any] | None = None) -> int:
        cur.execute(f"SELECT COALESCE(SUM(n), 0) FROM {self.table} WHERE {self._where(1)}", params or {})
        return int(cur.fetchone()[0])

    def seek(self, cur, offset: int, params: dict[str, Any] | None = None) -> tuple[int | None, int]:
        """For a deep page: the highest value ``v`` with fewer than ``offset`` entries above it, and
        how many entries are above ``v`` — so the page is read from ``value <= v`` instead of
        skipping ``offset`` index entries. ``(None, offset)`` past the last entry."""
        params = params or {}
        cur.execute(
            f"SELECT value, n, SUM(n) OVER (ORDER BY value DESC) - n AS above FROM {self.table} "
            f"WHERE {self._where(1)} AND n <> 0 ORDER BY value DESC",
            params,
        )
        for block, n, above in cur.fetchall():
            if above + n > offset:
                cur.execute(
                    f"SELECT value, n, SUM(n) OVER (ORDER BY value DESC) - n FROM {self.table} "
                    f"WHERE {self._where(0)} AND value >= %(lo)s AND value < %(hi)s AND n <> 0 ORDER BY value DESC",
                    {**params, "lo": block * self.block, "hi": (block + 1) * self.block},
                )
                for value, vn, vabove in cur.fetchall():
                    if above + vabove + vn > offset:
                        return int(value), int(above + vabove)
                break
        return None, offset


def page_places(rows: list[tuple], *, offset: int, first_place) -> list[int]:
    """The places of a page's rows, ``(…, value)`` each in board order: equal values share a place;
    the first row's place is ``first_place(value)`` (1 + the entries above it), every later new
    value's is its position on the board."""
    places, place, previous = [], 0, None
    for i, row in enumerate(rows):
        value = row[-1]
        if value != previous:
            place = first_place(value) if i == 0 else offset + i + 1
            previous = value
        places.append(place)
    return places

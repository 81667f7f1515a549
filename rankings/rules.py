"""The rankings projection's one implementation (R-33, R-34, R-38): its rules and its step, pure.

``step(store, event)`` is the effect of one ``PointsAwarded`` or exclusion event, written once
and run by both storages of ``rankings.projections``: live (SQL, commutative upserts in the
append's transaction) and the rebuild (dicts in memory, then COPY). A storage only keeps
numbers — it adds an amount to cells, moves histogram rows, keeps exclusion rows; which cells,
which rows and when are decided here:

* R-33: only counting, non-zero entries rank (``counting_award``).
* R-34: an award belongs to the Romanian day of its instant; it adds to that day's bucket, to
  the AMR, and to its week's row only when that week's Monday is inside the AMR window; awards of
  a day before the window are ignored (they already left it); the first award ever makes the
  window (``first_window_start``) — the clock then belongs to the roll job (``award_cells``).
* The histogram counts each shown account once per positive total (``histogram_deltas``).
* R-38: a suspension or a closure takes the account's totals out of the histogram, a lift of
  the suspension of an account that is not closed puts them back; an excluded account's totals
  keep accruing unseen (``exclusion_step``, ``visibility_deltas``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from django.utils.dateparse import parse_datetime

from rankings.days import amr_window_start, romanian_day, week_start
from rankings.models import HISTOGRAM_BUCKET
from rivals.accounts.events import ACCOUNT_CLOSED
from rivals.fairplay.events import ACCOUNT_SUSPENDED, ACCOUNT_SUSPENSION_LIFTED
from rivals.points.events import POINTS_AWARDED

EXCLUSION_EVENTS = frozenset({ACCOUNT_SUSPENDED, ACCOUNT_SUSPENSION_LIFTED, ACCOUNT_CLOSED})
EVENT_TYPES = frozenset({POINTS_AWARDED}) | EXCLUSION_EVENTS

Deltas = dict[tuple[str, int, int], int]  # (board key, level, value) → change of the count


def board_key(board: str, day: date) -> str:
    if board == "amr":
        return "amr"
    if board == "weekly":
        return f"w:{week_start(day).isoformat()}"
    if board == "daily":
        return f"d:{day.isoformat()}"
    raise ValueError(f"unknown board {board!r}")


# --- awards -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Award:
    account_id: int
    amount: int
    at: datetime
    day: date  # the Romanian day of the award instant


def counting_award(data: dict) -> Award | None:
    """R-33: the award a ``PointsAwarded`` ranks, or None (not counting, or zero)."""
    amount = int(data["amount"])
    if not data.get("counts") or amount == 0:
        return None
    at = parse_datetime(data["awarded_at"])
    return Award(data["account_id"], amount, at, romanian_day(at))


def first_window_start(day: date) -> date:
    """The AMR window the first award ever makes: the 365 days ending on its day."""
    return amr_window_start(day)


@dataclass(frozen=True)
class Cells:
    """The totals one award adds to: its day's bucket, the AMR, and its week's row (``week``)
    when that week's Monday is inside the window (else None: the week started before it)."""

    day: date
    week: date | None

    def keys(self) -> list[str]:
        """Board keys, in the order a storage returns the new totals: daily, AMR, weekly."""
        keys = [f"d:{self.day.isoformat()}", "amr"]
        if self.week is not None:
            keys.append(f"w:{self.week.isoformat()}")
        return keys


def award_cells(day: date, window_start: date) -> Cells | None:
    """R-34: the cells an award of ``day`` touches inside the window, or None (before it)."""
    if day < window_start:
        return None
    week = week_start(day)
    return Cells(day, week if week >= window_start else None)


# --- the histogram ------------------------------------------------------------------------------


def histogram_deltas(key: str, old: int, new: int, into: Deltas | None = None) -> Deltas:
    """Histogram changes when one account's total on ``key`` goes from ``old`` to ``new``
    (only positive totals are counted), added to ``into``."""
    deltas: Deltas = defaultdict(int) if into is None else into
    if old > 0:
        deltas[(key, 0, old)] -= 1
        deltas[(key, 1, old // HISTOGRAM_BUCKET)] -= 1
    if new > 0:
        deltas[(key, 0, new)] += 1
        deltas[(key, 1, new // HISTOGRAM_BUCKET)] += 1
    return deltas


def award_deltas(totals: Iterable[tuple[str, int]], amount: int) -> Deltas:
    """A shown account's totals went up by ``amount`` to ``totals`` ((key, new total) each)."""
    deltas: Deltas = defaultdict(int)
    for key, new in totals:
        histogram_deltas(key, new - amount, new, deltas)
    return deltas


def visibility_deltas(totals: Iterable[tuple[str, int]], *, shown: bool) -> Deltas:
    """An account's totals ((key, points) each) enter the histogram (``shown``) or leave it."""
    deltas: Deltas = defaultdict(int)
    for key, points in totals:
        histogram_deltas(key, *((0, points) if shown else (points, 0)), deltas)
    return deltas


# --- exclusions (R-38) --------------------------------------------------------------------------


@dataclass(frozen=True)
class Exclusion:
    suspended: bool
    closed: bool
    since: datetime  # when the account left the boards


def exclusion_after(event_type: str, suspended: bool, closed: bool) -> tuple[bool, bool]:
    """R-38: an account's ``(suspended, closed)`` after one of the ``EXCLUSION_EVENTS``."""
    if event_type == ACCOUNT_SUSPENDED:
        return True, closed
    if event_type == ACCOUNT_SUSPENSION_LIFTED:
        return False, closed
    return suspended, True


def exclusion_step(row: Exclusion | None, event_type: str, at: datetime) -> Exclusion | None:
    """The account's exclusion after the event (None: on the boards); ``since`` is kept while it
    stays excluded."""
    suspended, closed = exclusion_after(event_type, *((row.suspended, row.closed) if row else (False, False)))
    if not (suspended or closed):
        return None
    return Exclusion(suspended, closed, row.since if row else at)


# --- the step -----------------------------------------------------------------------------------


class Store(Protocol):
    """What a storage of the rankings does: keep numbers, decide nothing."""

    def window_start(self, day: date) -> date:
        """The AMR window start; none yet: make it ``first_window_start(day)``."""

    def add(self, account_id: int, cells: Cells, amount: int, at: datetime) -> tuple[list[int], bool]:
        """Add ``amount`` to the cells (``reached_at``: the latest instant): the new totals in the
        order of ``cells.keys()``, and whether the account is excluded."""

    def move(self, deltas: Deltas) -> None:
        """Change the histogram counts."""

    def exclusion(self, account_id: int) -> Exclusion | None: ...

    def set_exclusion(self, account_id: int, row: Exclusion | None) -> None: ...

    def totals(self, account_id: int) -> list[tuple[str, int]]:
        """The account's positive totals, as (board key, points)."""


def step(store: Store, event) -> None:
    """The effect of one event of ``EVENT_TYPES`` on the rankings, through ``store``."""
    if event.type in EXCLUSION_EVENTS:
        account_id = event.data["account_id"]
        row = store.exclusion(account_id)
        new = exclusion_step(row, event.type, event.recorded_at)
        store.set_exclusion(account_id, new)
        if (row is None) != (new is None):
            store.move(visibility_deltas(store.totals(account_id), shown=new is None))
        return
    award = counting_award(event.data)
    if award is None:
        return
    cells = award_cells(award.day, store.window_start(award.day))
    if cells is None:
        return
    totals, excluded = store.add(award.account_id, cells, award.amount, award.at)
    if not excluded:  # the totals accrue, the boards do not show them
        store.move(award_deltas(zip(cells.keys(), totals, strict=True), award.amount))

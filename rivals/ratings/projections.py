"""The ratings projection (R-41, and R-38 for the board): ``Rating``, ``RatingChange`` and
``RatingHistogram`` from ``RatingsUpdated`` and the account events that take an account off
public lists.

Every number was decided by the service and is in the event (the before and after of each
player): a replay needs no mathematics. One implementation: ``step(rows, event, changes, deltas)``
is the pure effect of one event on the ``Rating`` rows it names. Live, the rows are the ones the
rating service loaded under its locks (``live.ratings``), or loaded here under the same locks
for an account event; what changed is written in one round trip. The rebuild folds the whole log
in memory and writes it with COPY.
"""

from __future__ import annotations

import json
from collections import defaultdict

from django.db import connection
from django.utils.dateparse import parse_datetime

from rivals.accounts.events import ACCOUNT_CLOSED
from rivals.fairplay.events import ACCOUNT_SUSPENDED, ACCOUNT_SUSPENSION_LIFTED
from rivals.projections import LiveRows, Projection, send_writes
from rivals.ratings.events import RATINGS_UPDATED
from rivals.ratings.models import HISTOGRAM_BLOCK, Rating, RatingChange, RatingHistogram
from rivals.ratings.skill import Skill, figure, provisional
from rivals.rawsql import copy_insert, models_from_rows, select_list
from rivals.rebuild import Table

EXCLUSION_EVENTS = frozenset({ACCOUNT_SUSPENDED, ACCOUNT_SUSPENSION_LIFTED, ACCOUNT_CLOSED})
EVENT_TYPES = frozenset({RATINGS_UPDATED}) | EXCLUSION_EVENTS
LOCK_SPACE = 0x52415445  # "RATE": the two-int advisory locks of one account's rating

Deltas = dict[tuple[int, int], int]  # (level, value) → change of the count


def touched(event) -> list[int]:
    """The accounts an event changes, in lock order."""
    if event.type == RATINGS_UPDATED:
        return sorted(p["account_id"] for p in event.data["players"])
    return [int(event.data["account_id"])]


def _count(deltas: Deltas, row: Rating, sign: int) -> None:
    if row.listed:
        deltas[(0, row.figure)] += sign
        deltas[(1, row.figure // HISTOGRAM_BLOCK)] += sign


def _relist(row: Rating) -> None:
    row.provisional = provisional(one_to_one=row.one_to_one, multi=row.multi)
    row.listed = not (row.provisional or row.suspended or row.closed)


def step(rows: dict[int, Rating], event, changes: list[RatingChange], deltas: Deltas) -> None:
    """The effect of one event on ``rows`` (every account it names present: new ones unsaved at
    their defaults); the history rows it adds go to ``changes``, the histogram's moves to ``deltas``."""
    d = event.data
    if event.type != RATINGS_UPDATED:
        row = rows[int(d["account_id"])]
        _count(deltas, row, -1)
        if event.type == ACCOUNT_SUSPENDED:
            row.suspended = True
        elif event.type == ACCOUNT_SUSPENSION_LIFTED:
            row.suspended = False
        else:
            row.closed = True
        _relist(row)
        _count(deltas, row, +1)
        return
    at = parse_datetime(d["rated_at"])
    everyone = [p["account_id"] for p in d["players"]]
    for p in d["players"]:
        row = rows[p["account_id"]]
        _count(deltas, row, -1)
        before, after = Skill(p["mu_before"], p["sigma_before"]), Skill(p["mu_after"], p["sigma_after"])
        row.mu, row.sigma, row.ordinal = after.mu, after.sigma, after.ordinal
        row.figure = figure(row.ordinal)
        if d["kind"] == "one_to_one":
            row.one_to_one += 1
        else:
            row.multi += 1
        _relist(row)
        row.last_opponents = [a for a in everyone if a != p["account_id"]]
        row.last_result = d["result"]
        row.rated_at = at
        _count(deltas, row, +1)
        changes.append(
            RatingChange(
                account_id=p["account_id"],
                position=event.position,
                result=d["result"],
                mode=d["mode"],
                kind=d["kind"],
                players=len(everyone),
                place=p["place"],
                rated_place=p["rated_place"],
                idle=p["idle"],
                mu_before=before.mu,
                sigma_before=before.sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
                ordinal_before=before.ordinal,
                ordinal_after=after.ordinal,
                rated_at=at,
            )
        )


# --- live ---------------------------------------------------------------------------------------


def ratings_locked(account_ids: list[int], *, stream: str | None = None) -> tuple[dict[int, Rating], bool]:
    """Lock the ratings of ``account_ids`` (advisory locks in account order: an account with no
    row yet is locked too) and read them — new ones at their defaults, unsaved — and whether the
    event stream ``stream`` exists. Every writer of a rating row holds these locks: the rating
    service and this projection."""
    ids = sorted(set(account_ids))
    with connection.cursor() as cur:
        # the statements of one round trip: the reads' snapshots are taken after the locks are held
        cur.execute(
            "SELECT pg_advisory_xact_lock(%s, (a %% 2147483647)::int) FROM unnest(%s::bigint[]) AS a; "
            f"SELECT {select_list(Rating)} FROM ratings_rating WHERE account_id = ANY(%s::bigint[]); "
            "SELECT EXISTS (SELECT 1 FROM rivals_stream WHERE id = %s)",
            [LOCK_SPACE, ids, ids, stream or ""],
        )
        cur.nextset()
        found = {r.account_id: r for r in models_from_rows(Rating, cur, cur.fetchall())}
        cur.nextset()
        exists = bool(cur.fetchone()[0])
    return {a: found.get(a) or Rating(account_id=a) for a in ids}, exists


_RATING_COLUMNS = tuple(f for f in Rating._meta.concrete_fields)


# ahead of its append's INSERT (``Projection.joins_append``): a change's position, read from it
_APPENDED_POSITION = "(SELECT position FROM appended WHERE version = %s::int)"


def _writes(
    rows: list[Rating], changes: list[RatingChange], deltas: Deltas, version: int | None = None
) -> list[tuple[str, list]]:
    """The statements that upsert the rows, add the history and move the histogram. ``version``:
    the changes' event has no position yet — each reads it from its append (``appended``)."""
    out: list[tuple[str, list]] = []
    if rows:
        params: list = []
        cols = [f.column for f in _RATING_COLUMNS]
        one = (
            "("
            + ", ".join("%s::jsonb" if f.get_internal_type() == "JSONField" else "%s" for f in _RATING_COLUMNS)
            + ")"
        )
        for row in rows:
            params += [
                json.dumps(getattr(row, f.attname)) if f.get_internal_type() == "JSONField" else getattr(row, f.attname)
                for f in _RATING_COLUMNS
            ]
        out.append(
            (
                f"INSERT INTO ratings_rating ({', '.join(cols)}) VALUES {', '.join([one] * len(rows))} "
                "ON CONFLICT (account_id) DO UPDATE SET "
                + ", ".join(f"{c} = EXCLUDED.{c}" for c in cols if c != "account_id"),
                params,
            )
        )
    if changes:
        fields = [f for f in RatingChange._meta.concrete_fields if not f.primary_key]
        one = (
            "("
            + ", ".join(_APPENDED_POSITION if version is not None and f.name == "position" else "%s" for f in fields)
            + ")"
        )
        params = []
        for change in changes:
            params += [
                version if version is not None and f.name == "position" else getattr(change, f.attname) for f in fields
            ]
        out.append(
            (
                f"INSERT INTO ratings_change ({', '.join(f.column for f in fields)}) VALUES "
                + ", ".join([one] * len(changes)),
                params,
            )
        )
    moves = sorted((level, value, n) for (level, value), n in deltas.items() if n)
    if moves:  # sorted: every writer takes the histogram's row locks in the same order
        out.append(
            (
                "INSERT INTO ratings_histogram (level, value, n) VALUES "
                + ", ".join(["(%s, %s, %s)"] * len(moves))
                + " ON CONFLICT (level, value) DO UPDATE SET n = ratings_histogram.n + EXCLUDED.n",
                [x for move in moves for x in move],
            )
        )
    return out


def _changed(before: dict[int, tuple], rows: dict[int, Rating]) -> list[Rating]:
    return [row for a, row in rows.items() if _values(row) != before.get(a)]


def _values(row: Rating) -> tuple:
    return tuple(getattr(row, f.attname) for f in _RATING_COLUMNS)


class RatingsProjection(Projection):
    name = "ratings"
    event_types = EVENT_TYPES
    uses_live = True
    joins_append = True  # a change's history row names its event's position
    tables = (Table("ratings_rating"), Table("ratings_change"), Table("ratings_histogram", where="n <> 0"))

    def apply(self, event, live: LiveRows | None = None) -> None:
        accounts = touched(event)
        held = live.ratings if live is not None else None
        rows = {a: held[a] for a in accounts} if held and all(a in held for a in accounts) else None
        if rows is None:
            rows, _ = ratings_locked(accounts)
        before = {a: _values(row) if not row._state.adding else None for a, row in rows.items()}
        changes: list[RatingChange] = []
        deltas: Deltas = defaultdict(int)
        step(rows, event, changes, deltas)
        if event.position is None and live is not None:  # ahead of the INSERT: in the append's statement
            live.after += _writes(_changed(before, rows), changes, deltas, version=event.version)
        else:
            send_writes(_writes(_changed(before, rows), changes, deltas))  # one round trip
        for row in rows.values():
            row._state.adding = False

    def rebuild(self, log) -> None:
        rows: dict[int, Rating] = {}
        changes: list[RatingChange] = []
        deltas: Deltas = defaultdict(int)
        for event in log.events(self.event_types):
            for a in touched(event):
                rows.setdefault(a, Rating(account_id=a))
            step(rows, event, changes, deltas)
        copy_insert(Rating, list(rows.values()))
        copy_insert(RatingChange, changes)
        copy_insert(RatingHistogram, [RatingHistogram(level=k[0], value=k[1], n=n) for k, n in deltas.items() if n])

    def reset(self) -> None:
        RatingHistogram.objects.all().delete()
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()


ratings_projection = RatingsProjection()

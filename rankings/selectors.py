"""Rankings reads (R-35): ranked pages, one account's place, profile totals, and the recompute.

Places: equal points share a place (1, 1, 3), so an account's place is 1 + the number of accounts
with more points on that board. That count comes from ``PointsHistogram``: the level-1 rows above
the account's 1024-point bucket plus the level-0 rows above its total inside that bucket — a few
hundred index rows at most, whatever the number of accounts. A page is an index range scan on
(board, points desc, reached_at, account) — R-35's display order.

Listed accounts: those with a positive total on the board, except suspended and closed ones
(R-38, ``RankingExclusion``: the histogram does not count them either). An account with zero (or a negative
operator-adjusted total) still gets ``/me``: placed right after every positive total.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db import connection

from rankings.days import amr_window_start, day_start_utc, romanian_day, romanian_today, week_start
from rankings.models import HISTOGRAM_BUCKET
from rankings.rules import board_key
from rankings.services import rankings_roll_if_due
from rivals.errors import NotAllowed, NotFound
from rivals.histogram import Histogram, page_places
from rivals.points.selectors import awards_pending
from rivals.replica import for_read

BOARDS = ("amr", "weekly", "daily")
SEEK_FROM_OFFSET = 1000  # deeper pages seek by points through the histogram instead of OFFSET

_TABLES = {
    # board → (table, key column or None)
    "amr": ("rankings_amrpoints", None),
    "weekly": ("rankings_weeklypoints", "week"),
    "daily": ("rankings_dailypoints", "day"),
}


def _today(now: datetime | None, day: date | None) -> date:
    """The Romanian day a read is for, with the AMR window applied for it first (R-34: every read
    applies the windows of its own instant, whether or not the nightly roll has run)."""
    day = day or romanian_today(now)
    rankings_roll_if_due(today=day, now=now)
    return day


def _key_value(board: str, day: date) -> date | None:
    return {"amr": None, "weekly": week_start(day), "daily": day}[board]


# the boards' histogram (rankings_pointshistogram), scoped by board key
HISTOGRAM = Histogram("rankings_pointshistogram", HISTOGRAM_BUCKET, scope="board_key = %(k)s")


def _count_above(cur, key: str, points: int) -> int:
    """How many accounts have more than ``points`` (> 0) on ``key``."""
    return HISTOGRAM.count_above(cur, points, {"k": key})


def _total_players(cur, key: str) -> int:
    return HISTOGRAM.total(cur, {"k": key})


def _points_of(cur, board: str, account_id: int, day: date) -> int:
    table, col = _TABLES[board]
    if col is None:
        cur.execute(f"SELECT points FROM {table} WHERE account_id = %s", [account_id])
    else:
        cur.execute(
            f"SELECT points FROM {table} WHERE {col} = %s AND account_id = %s", [_key_value(board, day), account_id]
        )
    row = cur.fetchone()
    return int(row[0]) if row else 0


def ranking_page(
    *, board: str, limit: int, offset: int, now: datetime | None = None, day: date | None = None
) -> dict[str, Any]:
    """``{"count", "results": [{"place", "player": {"id", "display_name"}, "points"}]}``."""
    day = _today(now, day)
    key = board_key(board, day)
    table, col = _TABLES[board]
    where = (
        "t.points > 0 AND NOT EXISTS (SELECT 1 FROM rankings_rankingexclusion x WHERE x.account_id = t.account_id)"
        + (f" AND t.{col} = %(kv)s" if col else "")
    )
    params: dict[str, Any] = {"kv": _key_value(board, day), "limit": limit}
    with for_read().cursor() as cur:
        count = _total_players(cur, key)
        if offset >= count:
            return {"count": count, "results": []}
        start_points, skipped = (None, 0)
        if offset >= SEEK_FROM_OFFSET:  # deep page: seek by points through the histogram, skip only ties
            start_points, skipped = HISTOGRAM.seek(cur, offset, {"k": key})
        if start_points is not None:
            where += " AND t.points <= %(sp)s"
            params["sp"] = start_points
        params["offset"] = offset - skipped
        cur.execute(
            f"SELECT t.account_id, a.display_name, t.points FROM {table} t "
            f"JOIN rivals_account a ON a.id = t.account_id WHERE {where} "
            "ORDER BY t.points DESC, t.reached_at, t.account_id LIMIT %(limit)s OFFSET %(offset)s",
            params,
        )
        rows = cur.fetchall()
        # equal points share a place (1, 1, 3)
        places = page_places(rows, offset=offset, first_place=lambda points: 1 + _count_above(cur, key, points))
        results = [
            {"place": place, "player": {"id": account_id, "display_name": name}, "points": points}
            for place, (account_id, name, points) in zip(places, rows, strict=True)
        ]
    return {"count": count, "results": results}


def ranking_period(*, board: str, on: date | None = None, now: datetime | None = None) -> dict[str, Any]:
    """The Romanian days a board read covers — ``{"day", "starts_on", "ends_on", "final"}``, ``day``
    being the one to read it for — and whether they have ended.

    R-34, past boards: ``on`` names a past Weekly (any day of the week) or Daily board. Its totals
    are those of the points awarded inside that period (a point belongs to the Romanian day of its
    instant, whenever it was recorded), final once the period ended and no round, arena, match,
    tournament or pot that may still pay into it is unresolved; places are shared as today's
    (R-35). Decision: an account suspended or closed now is absent from past boards too (R-38: it
    leaves every ranking until lifted). A period that has not started is 422; boards are kept for the
    AMR's 365 days (the nightly roll prunes older days and weeks), an older one is 404."""
    today = _today(now, None)
    if board == "amr" or on is None:
        starts = {"amr": amr_window_start(today), "weekly": week_start(today), "daily": today}[board]
        ends = starts + timedelta(days=6) if board == "weekly" else today
        return {"day": today, "starts_on": starts, "ends_on": ends, "final": False}
    starts = week_start(on) if board == "weekly" else on
    ends = starts + timedelta(days=6) if board == "weekly" else on
    if starts > (week_start(today) if board == "weekly" else today):
        raise NotAllowed(
            "that period has not started: its board does not exist yet",
            details={"starts_on": starts.isoformat(), "today": today.isoformat()},
        )
    kept = amr_window_start(today)
    if starts < kept:
        raise NotFound("boards are kept for the last 365 Romanian days", details={"kept_from": kept.isoformat()})
    # final once the period ended and nothing unresolved can still pay into it (a round
    # that time ended at its deadline inside the period but that is written later pays it)
    final = ends < today and not awards_pending(
        start=day_start_utc(starts), end=day_start_utc(ends + timedelta(days=1))
    )
    return {"day": starts, "starts_on": starts, "ends_on": ends, "final": final}


def ranking_me(*, board: str, account_id: int, now: datetime | None = None, day: date | None = None) -> dict[str, int]:
    """``{"place", "points", "total_players"}``; an unlisted account is placed after every listed one."""
    day = _today(now, day)
    key = board_key(board, day)
    with for_read().cursor() as cur:
        points = _points_of(cur, board, account_id, day)
        total = _total_players(cur, key)
        place = 1 + _count_above(cur, key, points) if points > 0 and not _excluded(cur, account_id) else total + 1
    return {"place": place, "points": points, "total_players": total}


def _excluded(cur, account_id: int) -> bool:
    cur.execute("SELECT 1 FROM rankings_rankingexclusion WHERE account_id = %s", [account_id])
    return cur.fetchone() is not None


def public_places(*, account_id: int, now: datetime | None = None) -> dict[str, Any]:
    """R-37: totals and places on the three boards; a place is None off the board (no points,
    or suspended: R-38)."""
    day = _today(now, None)
    points, places = {}, {}
    with for_read().cursor() as cur:
        excluded = _excluded(cur, account_id)
        for board in BOARDS:
            points[board] = _points_of(cur, board, account_id, day)
            places[board] = (
                1 + _count_above(cur, board_key(board, day), points[board])
                if points[board] > 0 and not excluded
                else None
            )
    return {"points": points, "places": places}


def points_of_accounts(account_ids: list[int], now: datetime | None = None) -> dict[int, dict[str, int]]:
    """Totals of many accounts at once (a club's members)."""
    day = _today(now, None)
    out = {a: dict.fromkeys(BOARDS, 0) for a in account_ids}
    if not account_ids:
        return out
    with for_read().cursor() as cur:
        cur.execute(
            "SELECT 'amr', account_id, points FROM rankings_amrpoints WHERE account_id = ANY(%(ids)s) "
            "UNION ALL SELECT 'weekly', account_id, points FROM rankings_weeklypoints "
            "WHERE week = %(week)s AND account_id = ANY(%(ids)s) "
            "UNION ALL SELECT 'daily', account_id, points FROM rankings_dailypoints "
            "WHERE day = %(day)s AND account_id = ANY(%(ids)s)",
            {"ids": list(account_ids), "week": week_start(day), "day": day},
        )
        for board, account_id, points in cur.fetchall():
            out[account_id][board] = int(points)
    return out


def account_points(*, account_id: int, now: datetime | None = None, day: date | None = None) -> dict[str, int]:
    day = _today(now, day)
    with for_read().cursor() as cur:
        return {board: _points_of(cur, board, account_id, day) for board in BOARDS}


# --- the state and its recompute from the ledger (tests, operators' checks) --------------------


@dataclass
class RankingsState:
    window_start: date | None
    daily: dict[tuple[date, int], tuple[int, datetime]]
    weekly: dict[tuple[date, int], tuple[int, datetime]]
    amr: dict[int, tuple[int, datetime]]
    histogram: dict[tuple[str, int, int], int]


def rankings_state() -> RankingsState:
    """The live projection (rows with a zero total and empty histogram rows left out)."""
    with connection.cursor() as cur:
        cur.execute("SELECT window_start FROM rankings_rankingclock WHERE id = 1")
        row = cur.fetchone()
        cur.execute("SELECT day, account_id, points, reached_at FROM rankings_dailypoints WHERE points <> 0")
        daily = {(d, a): (p, r) for d, a, p, r in cur.fetchall()}
        cur.execute("SELECT week, account_id, points, reached_at FROM rankings_weeklypoints WHERE points <> 0")
        weekly = {(w, a): (p, r) for w, a, p, r in cur.fetchall()}
        cur.execute("SELECT account_id, points, reached_at FROM rankings_amrpoints WHERE points <> 0")
        amr = {a: (p, r) for a, p, r in cur.fetchall()}
        cur.execute("SELECT board_key, level, value, n FROM rankings_pointshistogram WHERE n <> 0")
        hist = {(k, lvl, v): n for k, lvl, v, n in cur.fetchall()}
    return RankingsState(row[0] if row else None, daily, weekly, amr, hist)


def rankings_recomputed(*, window_start: date) -> RankingsState:
    """What the projection must hold for ``window_start``, computed afresh from the ledger in
    Python (zoneinfo for the Romanian day), independently of the projection's SQL.

    The oracle of the tests: it restates R-33, R-34 and R-38 on purpose and must not call
    ``rankings.rules`` (which both the live projection and its rebuild run), so that a wrong rule
    there shows up as a difference here."""
    from rivals.points.selectors import counted_awards

    def add(target, k, amount, at):
        points, reached = target.get(k, (0, at))
        target[k] = (points + amount, max(reached, at))

    daily: dict = {}
    weekly: dict = {}
    amr: dict = {}
    entries = counted_awards()
    for account_id, amount, at in entries.iterator(chunk_size=5000):
        day = romanian_day(at)
        if day < window_start:
            continue
        add(daily, (day, account_id), amount, at)
        add(amr, account_id, amount, at)
        if week_start(day) >= window_start:
            add(weekly, (week_start(day), account_id), amount, at)
    from django.db.models import Q

    from rivals.models import Account

    # suspended and closed accounts, from the accounts' own projection (not rankings' table)
    excluded = set(
        Account.objects.filter(Q(suspended_at__isnull=False) | Q(closed_at__isnull=False)).values_list("pk", flat=True)
    )
    hist: dict = defaultdict(int)
    for key_of, table in (
        (lambda k: f"d:{k[0].isoformat()}", daily),
        (lambda k: f"w:{k[0].isoformat()}", weekly),
        (lambda k: "amr", amr),
    ):
        for k, (points, _) in table.items():
            account_id = k if isinstance(k, int) else k[1]
            if points > 0 and account_id not in excluded:
                hist[(key_of(k), 0, points)] += 1
                hist[(key_of(k), 1, points // HISTOGRAM_BUCKET)] += 1
    strip = lambda t: {k: v for k, v in t.items() if v[0] != 0}  # noqa: E731
    return RankingsState(window_start, strip(daily), strip(weekly), strip(amr), dict(hist))

"""Read-side helpers for the API: the own profile, the public profile (R-37), points totals.

The accounts room imports no other room, and ``rivals`` never imports ``rankings`` or
``tournaments`` (dependencies point one way), so the rooms and apps that know more of a player
plug it in from their ``ready()`` (the club, the daily bonus, ratings, statistics, rankings,
trophies):
- ``register_profile_extension(fn)`` — ``fn(account) -> dict`` merged into the own profile
  (``GET /api/v1/account``);
- ``register_public_profile_extension(fn)`` — ``fn(account) -> dict`` merged into the public
  profile (``GET /api/v1/players/{id}``): only public data (ranking totals and places, trophies),
  never an email, a device id, an IP or a token;
- ``register_points_totals(fn)`` — ``fn(account_ids) -> {id: {"amr", "weekly", "daily"}}`` for
  many accounts at once (a club's summed points).

Who public lists show (``LISTED``, ``listed_players()``) and finding players by name
(``player_search``, R-39) are here too.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from rivals.errors import Invalid, NotFound
from rivals.models import Account
from rivals.names import search_key
from rivals.replica import for_read

Extension = Callable[[Account], dict[str, Any]]
PointsTotals = Callable[[list[int]], dict[int, dict[str, int]]]
ZERO_POINTS = {"amr": 0, "weekly": 0, "daily": 0}

_PROFILE_EXTENSIONS: list[Extension] = []
_PUBLIC_EXTENSIONS: list[Extension] = []
_POINTS_TOTALS: list[PointsTotals] = []


def _register(registry: list, fn) -> None:
    if fn not in registry:
        registry.append(fn)


def register_profile_extension(fn: Extension) -> None:
    _register(_PROFILE_EXTENSIONS, fn)


def register_public_profile_extension(fn: Extension) -> None:
    _register(_PUBLIC_EXTENSIONS, fn)


def register_points_totals(fn: PointsTotals) -> None:
    _register(_POINTS_TOTALS, fn)


def points_totals(account_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    ids = list(account_ids)
    totals = {i: dict(ZERO_POINTS) for i in ids}
    for fn in _POINTS_TOTALS:
        for account_id, points in fn(ids).items():
            totals[account_id] = {**totals[account_id], **points}
    return totals


def account_profile(*, account: Account) -> dict[str, Any]:
    profile: dict[str, Any] = {
        "account_id": account.pk,
        "display_name": account.display_name,
        "email": account.email,
        "email_verified": account.email_verified,
        "jokers": account.jokers,
        "points": dict(ZERO_POINTS),
        "trophies": [],
        "daily_bonus": None,  # the daily bonus room's extension: today's claim and streak
        "club": None,  # the clubs room's extension: the player's club
        "suspended": account.suspended_at is not None,
    }
    for extension in _PROFILE_EXTENSIONS:
        profile.update(extension(account))
    return profile


def player_profile(*, account_id) -> dict[str, Any]:
    """R-37: what anyone may see of a player — never an email, device id, IP or token. A closed
    account has no public page (404), nor an operator's (not a player: issue 22)."""
    account = None
    if isinstance(account_id, str) and account_id.isdigit() and len(account_id) <= 18:  # inside bigint
        account_id = int(account_id)
    if isinstance(account_id, int):
        account = Account.objects.filter(pk=account_id, closed_at__isnull=True, is_staff=False).first()
    if account is None:
        raise NotFound("no such player")
    profile: dict[str, Any] = {
        "id": account.pk,
        "display_name": account.display_name,
        "club": None,  # the clubs room's extension
        "trophies": [],  # tournaments adds cups and Champions copies (register_public_profile_extension)
        "points": dict(ZERO_POINTS),
        "places": {"amr": None, "weekly": None, "daily": None},
    }
    for extension in _PUBLIC_EXTENSIONS:
        profile.update(extension(account))
    return profile


def player_figures(*, account: Account) -> dict[str, Any]:
    """What the public profile's extensions say of any account (points and places, trophies,
    statistics), closed or suspended too: the admin's player page (issue 22)."""
    figures: dict[str, Any] = {}
    for extension in _PUBLIC_EXTENSIONS:
        figures.update(extension(account))
    return figures


# --- who public lists show, and finding them by name (R-38, R-39) ------------------------------

# The one definition of a listed player: not an operator, not suspended, not closed. The player
# search shows these only, through partial indexes over exactly these rows (migration 0010 states
# the same predicate in SQL: change them together — tests/accounts/test_search.py checks it).
LISTED = Q(is_staff=False, suspended_at__isnull=True, closed_at__isnull=True)


def listed_players() -> QuerySet[Account]:
    """The players public lists show (R-38: suspended and closed accounts are not listed; an
    operator's account is not a player)."""
    return Account.objects.filter(LISTED)


SEARCH_MIN = 2  # API.md: at least 2 characters
SEARCH_MAX = 200  # matches counted (and paged) at most: a query past it is refined, not paged through
SCAN_BUDGET = 40_000  # shuffled names a common query reads before it is served as a rare one
PIECES_USED = 3  # the rarest pieces of a query the GIN index is asked for (the name check is exact)
_SHARES_TTL_S = 600
_shares: dict[str, Any] = {}


@functools.cache
def _listed_sql() -> tuple[str, tuple]:
    """``LISTED`` as SQL over ``rivals_account`` (compiled once)."""
    qs = listed_players()
    compiler = qs.query.get_compiler(using=qs.db)
    sql, params = qs.query.where.as_sql(compiler, connection)
    return sql, tuple(params)


def _pieces(key: str) -> list[str]:
    """The pieces of the name index a query's matches must all contain (``rivals_name_grams``)."""
    return [key] if len(key) == 2 else sorted({key[i : i + 3] for i in range(len(key) - 2)})


def _piece_shares() -> tuple[dict[str, float], float, float]:
    """(share of listed names holding each common piece, the share below which the others lie,
    listed names) — what ANALYZE keeps of the name index, read at most every 10 minutes."""
    reader = for_read()
    cached = _shares.get(reader.alias)
    if cached and cached[0] > time.monotonic():
        return cached[1]
    with reader.cursor() as cur:
        cur.execute(
            "SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, greatest(c.reltuples, 0) "
            "FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = c.relname "
            "WHERE c.oid = to_regclass('account_search_grams')"
        )
        row = cur.fetchone()
    elems, freqs, rows = row or (None, None, 0)
    value = (dict(zip(elems, freqs, strict=False)), freqs[len(elems)], rows) if elems else ({}, 0.0, rows or 0)
    _shares[reader.alias] = (time.monotonic() + _SHARES_TTL_S, value)
    return value


def _like(key: str) -> str:
    return key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _matching_ids(key: str) -> list[int]:
    """The ids of up to ``SEARCH_MAX + 1`` listed players whose name contains ``key``, in the
    search's order: names that start with it (by name), then the others in a fixed shuffled order
    (``hashint8(id)``). Common and rare queries take different plans, each bounded:

    * the prefix matches: a range of the name index, at most ``SEARCH_MAX + 1`` entries;
    * a common query (its rarest piece is in more than one name in ``SCAN_BUDGET / SEARCH_MAX``)
      reads the shuffled index in order and stops at the matches it needs — at most
      ``SCAN_BUDGET`` entries (a common query needs far fewer);
    * a rare query (or a common one whose names were too few in its budget) takes its candidates
      from the GIN index of pieces — at most as many as hold its rarest piece — and sorts them.
    """
    where, params = _listed_sql()
    prefix, inside = _like(key) + "%", "%" + _like(key) + "%"
    with for_read().cursor() as cur:
        cur.execute(
            f"SELECT id FROM rivals_account WHERE {where} AND search_name LIKE %s ORDER BY search_name, id LIMIT %s",
            [*params, prefix, SEARCH_MAX + 1],
        )
        ids = [row[0] for row in cur.fetchall()]
        need = SEARCH_MAX + 1 - len(ids)
        if need <= 0:
            return ids
        shares, below, _ = _piece_shares()
        pieces = sorted(_pieces(key), key=lambda p: shares.get(p, below))
        if shares.get(pieces[0], below) * SCAN_BUDGET > SEARCH_MAX:  # common: the shuffled order
            cur.execute(
                f"SELECT id FROM (SELECT id, search_name FROM rivals_account WHERE {where} "
                "ORDER BY hashint8(id), id LIMIT %s) AS shuffled "
                "WHERE search_name LIKE %s AND search_name NOT LIKE %s LIMIT %s",
                [*params, SCAN_BUDGET, inside, prefix, need],
            )
            found = [row[0] for row in cur.fetchall()]
            if len(found) == need:
                return ids + found
        # rare: every candidate from the pieces' index (a bitmap scan: nothing else serves "@>"),
        # then sorted — OFFSET 0 keeps the planner from walking the shuffled order instead
        cur.execute(
            f"SELECT id FROM (SELECT id FROM rivals_account WHERE {where} AND "
            "rivals_name_grams(search_name) @> %s::text[] AND search_name LIKE %s AND search_name NOT LIKE %s "
            "OFFSET 0) AS candidates ORDER BY hashint8(id), id LIMIT %s",
            [*params, pieces[:PIECES_USED], inside, prefix, need],
        )
        return ids + [row[0] for row in cur.fetchall()]


def player_search(*, q: str, limit: int, offset: int) -> dict[str, Any]:
    """R-39: listed players whose display name contains ``q`` (case-insensitive, as
    ``rivals.names.search_key`` reads both). ``count`` is exact up to ``SEARCH_MAX`` (then
    ``count_capped``), and pages reach that far. A result shows what a public profile shows of a
    player: id, display name, club."""
    key = search_key(q)
    if len(key) < SEARCH_MIN:
        message = f"at least {SEARCH_MIN} characters (not counting spaces)"
        raise Invalid(f"q: {message}", details={"q": [message]})
    ids = _matching_ids(key)
    page = ids[:SEARCH_MAX][offset : offset + limit]
    rows = {}
    if page:
        with for_read().cursor() as cur:  # the page's names and clubs (clubs_* are the clubs room's tables)
            cur.execute(
                "SELECT a.id, a.display_name, c.id, c.name FROM rivals_account a "
                "LEFT JOIN clubs_member m ON m.account_id = a.id LEFT JOIN clubs_club c ON c.id = m.club_id "
                "WHERE a.id = ANY(%s)",
                [page],
            )
            rows = {
                pk: {"id": pk, "display_name": name, "club": {"id": str(club), "name": club_name} if club else None}
                for pk, name, club, club_name in cur.fetchall()
            }
    return {
        "count": min(len(ids), SEARCH_MAX),
        "count_capped": len(ids) > SEARCH_MAX,
        "results": [rows[pk] for pk in page if pk in rows],
    }

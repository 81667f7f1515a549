"""Ratings reads (R-41): one account's rating, the rating board, a rating's history, and what
matchmaking (R-42) needs of the waiting players.

The board lists the accounts whose rating is not provisional, except suspended and closed ones
(R-38, as the ranking boards), by the ordinal shown to two decimals (``figure``) — equal figures
share a place (1, 1, 3); ties are listed by account id. A place is 1 + the listed accounts above,
counted through ``RatingHistogram`` (``rivals.histogram``); a page is an index range scan of
``ratings_board`` — the ranking boards' way, at their speed.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection

from rivals.errors import NotFound
from rivals.histogram import Histogram, page_places
from rivals.models import Account
from rivals.ratings.models import HISTOGRAM_BLOCK, Rating, RatingChange
from rivals.ratings.skill import MU, Skill, figure
from rivals.rawsql import models_from_rows, select_list
from rivals.replica import for_read

HISTOGRAM = Histogram("ratings_histogram", HISTOGRAM_BLOCK)
SEEK_FROM_OFFSET = 1000  # deeper pages seek by figure through the histogram instead of OFFSET


def _shown(fig: int) -> float:
    """The public figure: the ordinal to two decimals (R-41)."""
    return fig / 100


def rating_shape(account: Account, row: Rating | None, place: int | None) -> dict[str, Any]:
    """``{"player", "mu", "sigma", "ordinal", "provisional", "rated": {"one_to_one", "multi"},
    "place"}`` — an account never rated has the package's starting rating, provisional."""
    row = row or Rating(account_id=account.pk)
    return {
        "player": {"id": account.pk, "display_name": account.display_name},
        "mu": row.mu,
        "sigma": row.sigma,
        "ordinal": _shown(figure(Skill(row.mu, row.sigma).ordinal)),
        "provisional": row.provisional,
        "rated": {"one_to_one": row.one_to_one, "multi": row.multi},
        "place": place,
    }


def _place(cur, row: Rating | None) -> int | None:
    return 1 + HISTOGRAM.count_above(cur, row.figure) if row is not None and row.listed else None


def account_rating(*, account: Account) -> dict[str, Any]:
    """One account's rating, whatever the account's state (the public profile's extension, the
    admin's player page)."""
    row = Rating.objects.filter(account_id=account.pk).first()
    with for_read().cursor() as cur:
        return rating_shape(account, row, _place(cur, row))


def rating_of(*, account_id) -> dict[str, Any]:
    """``GET /ratings/{account_id}``: a player's rating — 404 for what has no public page (a closed
    account, an operator: R-37). The account and its rating in one read, then its place."""
    if isinstance(account_id, str) and account_id.isdigit() and len(account_id) <= 18:  # inside bigint
        account_id = int(account_id)
    if not isinstance(account_id, int):
        raise NotFound("no such player")
    with for_read().cursor() as cur:
        cur.execute(
            f"SELECT a.id AS player_id, a.display_name, {select_list(Rating, 'r')} FROM rivals_account a "
            "LEFT JOIN ratings_rating r ON r.account_id = a.id "
            "WHERE a.id = %s AND a.closed_at IS NULL AND NOT a.is_staff",
            [account_id],
        )
        found = cur.fetchone()
        if found is None:
            raise NotFound("no such player")
        account = Account(pk=found[0], display_name=found[1])
        row = models_from_rows(Rating, cur, [found])[0] if found[2] is not None else None
        return rating_shape(account, row, _place(cur, row))


def rating_profile_extension(account: Account) -> dict[str, Any]:
    """R-37's public profile: ``rating``."""
    return {"rating": account_rating(account=account)}


def rating_board(*, limit: int, offset: int) -> dict[str, Any]:
    """``{"count", "results": [{"place", "player": {"id", "display_name"}, "ordinal"}]}``."""
    with for_read().cursor() as cur:
        count = HISTOGRAM.total(cur)
        if offset >= count:
            return {"count": count, "results": []}
        where, params = "r.listed", {"limit": limit}
        start, skipped = (None, 0)
        if offset >= SEEK_FROM_OFFSET:  # a deep page: seek by figure through the histogram, skip only ties
            start, skipped = HISTOGRAM.seek(cur, offset)
        if start is not None:
            where += " AND r.figure <= %(start)s"
            params["start"] = start
        params["offset"] = offset - skipped
        cur.execute(
            "SELECT r.account_id, a.display_name, r.figure FROM ratings_rating r "
            f"JOIN rivals_account a ON a.id = r.account_id WHERE {where} "
            "ORDER BY r.figure DESC, r.account_id LIMIT %(limit)s OFFSET %(offset)s",
            params,
        )
        rows = cur.fetchall()
        places = page_places(rows, offset=offset, first_place=lambda fig: 1 + HISTOGRAM.count_above(cur, fig))
    return {
        "count": count,
        "results": [
            {"place": place, "player": {"id": a, "display_name": name}, "ordinal": _shown(fig)}
            for place, (a, name, fig) in zip(places, rows, strict=True)
        ],
    }


def rating_history(*, account_id: int, limit: int = 50) -> list[RatingChange]:
    """The account's rated results, newest first (the admin's player page)."""
    return list(RatingChange.objects.filter(account_id=account_id).order_by("-position")[:limit])


def pairing_ratings(account_ids: list[int]) -> dict[int, tuple[float, tuple[int, ...]]]:
    """R-42: ``{account: (μ, the players of its last rated result)}`` — μ is the package's
    estimate of skill, what pairing brings close (an account never rated: the starting μ). One
    statement, the ids as one array, whatever their number (a pass may read thousands)."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT account_id, mu, last_opponents FROM ratings_rating WHERE account_id = ANY(%s::bigint[])",
            [list(account_ids)],
        )
        found = {a: (mu, tuple(last if isinstance(last, list) else json.loads(last))) for a, mu, last in cur.fetchall()}
    return {a: found.get(a, (MU, ())) for a in account_ids}

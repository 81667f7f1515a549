"""Read-side helpers for the API: the own profile, the public profile (R-37), points totals.

``rivals`` must not import ``rankings`` or ``tournaments`` (dependencies point one way), so those
apps plug their data in from their ``ready()``:
- ``register_profile_extension(fn)`` — ``fn(account) -> dict`` merged into the own profile
  (``GET /api/v1/account``);
- ``register_public_profile_extension(fn)`` — ``fn(account) -> dict`` merged into the public
  profile (``GET /api/v1/players/{id}``): only public data (ranking totals and places, trophies),
  never an email, a device id, an IP or a token;
- ``register_points_totals(fn)`` — ``fn(account_ids) -> {id: {"amr", "weekly", "daily"}}`` for
  many accounts at once (a club's summed points).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rivals.daily_bonus.services import daily_bonus_status
from rivals.errors import NotFound
from rivals.models import Account

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


def player_ref(account: Account) -> dict[str, Any]:
    return {"id": account.pk, "display_name": account.display_name}


def _club_of(account: Account) -> dict[str, Any] | None:
    from rivals.clubs.models import ClubMember

    member = ClubMember.objects.filter(account=account).select_related("club").first()
    return {"id": str(member.club_id), "name": member.club.name} if member else None


def account_profile(*, account: Account) -> dict[str, Any]:
    profile: dict[str, Any] = {
        "account_id": account.pk,
        "display_name": account.display_name,
        "email": account.email,
        "email_verified": account.email_verified,
        "jokers": account.jokers,
        "points": dict(ZERO_POINTS),
        "trophies": [],
        "daily_bonus": daily_bonus_status(account=account),
        "club": _club_of(account),
        "suspended": account.suspended_at is not None,
    }
    for extension in _PROFILE_EXTENSIONS:
        profile.update(extension(account))
    return profile


def player_profile(*, account_id) -> dict[str, Any]:
    """R-37: what anyone may see of a player — never an email, device id, IP or token. A closed
    account has no public page (404)."""
    account = None
    if isinstance(account_id, str) and account_id.isdigit() and len(account_id) <= 18:  # inside bigint
        account_id = int(account_id)
    if isinstance(account_id, int):
        account = Account.objects.filter(pk=account_id, closed_at__isnull=True).first()
    if account is None:
        raise NotFound("no such player")
    profile: dict[str, Any] = {
        "id": account.pk,
        "display_name": account.display_name,
        "club": _club_of(account),
        "trophies": [],  # tournaments adds cups and Champions copies (register_public_profile_extension)
        "points": dict(ZERO_POINTS),
        "places": {"amr": None, "weekly": None, "daily": None},
    }
    for extension in _PUBLIC_EXTENSIONS:
        profile.update(extension(account))
    return profile

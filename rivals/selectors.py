"""Read-side helpers for the API.

``rivals`` must not import ``rankings`` (dependencies point one way), so the rankings app plugs
its totals into the account profile through ``register_profile_extension`` in its ``ready()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rivals.models import Account
from rivals.services.daily_bonus import daily_bonus_status

_PROFILE_EXTENSIONS: list[Callable[[Account], dict[str, Any]]] = []


def register_profile_extension(fn: Callable[[Account], dict[str, Any]]) -> None:
    if fn not in _PROFILE_EXTENSIONS:
        _PROFILE_EXTENSIONS.append(fn)


def account_profile(*, account: Account) -> dict[str, Any]:
    profile: dict[str, Any] = {
        "account_id": account.pk,
        "display_name": account.display_name,
        "email": account.email,
        "jokers": account.jokers,
        "points": {"amr": 0, "weekly": 0, "daily": 0},
        "trophies": [],
        "daily_bonus": daily_bonus_status(account=account),
    }
    for extension in _PROFILE_EXTENSIONS:
        profile.update(extension(account))
    return profile

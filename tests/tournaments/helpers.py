"""Helpers for tournament tests: real services, real database, the server's clock passed as ``now``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rivals.models import Account
from tournaments.services.lifecycle import tournament_create
from tournaments.services.registration import tournament_register

T0 = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)  # a Monday, 21:00 Romanian time


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def players(n: int, prefix: str = "p") -> list[Account]:
    return [Account.objects.create_user(f"{prefix}{i}", None, display_name=f"{prefix.upper()}{i}") for i in range(n)]


def new_tournament(**kw):
    """Registration opens at T0, start at T0 + 10 min, end at T0 + 70 min (created at T0)."""
    settings = {"kind": "regular", "title": "Evening Cup", "starts_at": at(10), "ends_at": at(70), "min_players": 2,
                "prize_table": [100, 50, 25], "multipliers": [1, 2, 3], "registration_opens_at": at(0)}
    settings.update(kw)
    now = settings.pop("now", at(0))
    return tournament_create(actor="operator:test", now=now, **settings)


def register_all(t, accounts, start_minute: float = 1):
    """Register in list order, one second apart (R-26's registration time)."""
    return [tournament_register(tournament_id=t.pk, account=a, now=at(start_minute, i)) for i, a in enumerate(accounts)]


def result(account, score: int, completed: bool = False) -> dict:
    return {"account_id": account.pk if hasattr(account, "pk") else account, "score": score, "completed": completed}

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime

from rivals.models import Account
from rivals.points.services import points_award

_keys = itertools.count(1)


def utc(s: str) -> datetime:
    """``"2026-03-28T21:59:59Z"`` → aware UTC datetime."""
    return datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone(UTC)


def make_accounts(n: int, prefix: str = "p") -> list[Account]:
    return [Account.objects.create_user(f"{prefix}{i}", None, display_name=f"{prefix.upper()}{i}") for i in range(n)]


def award(account, amount: int, at: datetime, *, source: str = "single_player", counts: bool = True):
    return points_award(account=account, amount=amount, source=source, key=f"test:{next(_keys)}", at=at, counts=counts)


def d(s: str) -> date:
    return date.fromisoformat(s)

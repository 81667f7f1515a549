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
    settings = {
        "kind": "regular",
        "title": "Evening Cup",
        "starts_at": at(10),
        "ends_at": at(70),
        "min_players": 2,
        "prize_table": [100, 50, 25],
        "multipliers": [1, 2, 3],
        "registration_opens_at": at(0),
    }
    settings.update(kw)
    now = settings.pop("now", at(0))
    return tournament_create(actor="operator:test", now=now, **settings)


def register_all(t, accounts, start_minute: float = 1):
    """Register in list order, one second apart (R-26's registration time)."""
    return [tournament_register(tournament_id=t.pk, account=a, now=at(start_minute, i)) for i, a in enumerate(accounts)]


def result(account, score: int, completed: bool = False) -> dict:
    return {"account_id": account.pk if hasattr(account, "pk") else account, "score": score, "completed": completed}


def tables(t, wave: int | None = None):
    from tournaments.models import Table

    qs = Table.objects.filter(tournament=t).select_related("wave").order_by("wave__number", "number")
    return list(qs.filter(wave__number=wave) if wave else qs)


def seat_ids(table) -> list[int]:
    return list(table.seats.order_by("seat").values_list("account_id", flat=True))


def score_tables(t, wave: int, scores: dict[int, int], completed: set[int] = frozenset(), now=None):
    """End every table of ``wave`` with the given scores (account id → score) through the service
    the round_ended receiver calls."""
    from tournaments.services.tables import table_score

    for table in tables(t, wave):
        table_score(
            table_id=table.pk,
            reason="idle",
            now=now or at(20),
            results=[
                {"account_id": a, "score": scores.get(a, 0), "completed": a in completed} for a in seat_ids(table)
            ],
        )


def running_tournament(accounts, *, title: str = "Running", prize_table=(10,), now=None):
    """A tournament that started a moment ago with ``accounts`` registered and seated (its first
    wave's tables opened), for the operators' pages."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.services.play import tournament_tick
    from tournaments.services.registration import tournament_register

    now = now or timezone.now()
    t = tournament_create(
        actor="operator:test",
        kind="regular",
        title=title,
        starts_at=now + timedelta(seconds=1),
        ends_at=now + timedelta(hours=1),
        min_players=2,
        prize_table=list(prize_table),
        multipliers=[1],
        now=now,
    )
    for acc in accounts:
        tournament_register(tournament_id=t.pk, account=acc, now=now)
    tournament_tick(tournament_id=t.pk, now=now + timedelta(seconds=2))
    t.refresh_from_db()
    return t


# the admin's recurring-schedule form, filled (tests/tournaments, the browser tests)
SCHEDULE_FORM = {
    "title": "Nightly",
    "kind": "regular",
    "local_time": "20:00",
    "weekdays": list("0123456"),  # checkboxes: one value each
    "duration_minutes": "60",
    "registration_hours_before": "24",
    "min_players": "2",
    "prize_table": "50,20",
    "multipliers": "1,2",
    "days_ahead": "2",
}

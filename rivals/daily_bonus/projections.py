"""The daily bonus claims projection (R-30…R-32): one row per account and Romanian day."""

from __future__ import annotations

from datetime import date

from django.utils.dateparse import parse_date, parse_datetime

from rivals.daily_bonus.events import DAILY_BONUS_CLAIMED, DAILY_BONUS_DOUBLED
from rivals.daily_bonus.models import DailyBonusClaim
from rivals.models import Event
from rivals.projections import Projection
from rivals.rebuild import Table


class DailyBonusProjection(Projection):
    """``DailyBonusClaim`` rows: one per account and Romanian day."""

    name = "daily_bonus"
    event_types = frozenset({DAILY_BONUS_CLAIMED, DAILY_BONUS_DOUBLED})
    tables = (Table(DailyBonusClaim._meta.db_table),)

    def rebuild(self, log) -> None:
        from rivals.rawsql import copy_insert

        claims: dict[tuple[int, date], DailyBonusClaim] = {}
        for event in log.events(self.event_types):
            d = event.data
            day = parse_date(d["day"])
            if event.type == DAILY_BONUS_CLAIMED:
                claims[(d["account_id"], day)] = self._claim(d)
            elif (d["account_id"], day) in claims:
                claims[(d["account_id"], day)].doubled = True
        copy_insert(DailyBonusClaim, list(claims.values()))

    def reset(self) -> None:
        DailyBonusClaim.objects.all().delete()

    @staticmethod
    def _claim(d: dict) -> DailyBonusClaim:
        return DailyBonusClaim(
            account_id=d["account_id"],
            day=parse_date(d["day"]),
            streak=d["streak"],
            points=d["points"],
            jokers=d["jokers"],
            doubled=False,
            claimed_at=parse_datetime(d["claimed_at"]),
        )

    def apply(self, event: Event) -> None:
        d = event.data
        day = parse_date(d["day"])
        if event.type == DAILY_BONUS_CLAIMED:
            self._claim(d).save(force_insert=True)
        else:
            DailyBonusClaim.objects.filter(account_id=d["account_id"], day=day).update(doubled=True)


daily_bonus_projection = DailyBonusProjection()

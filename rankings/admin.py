"""Rankings admin: every model here is a projection or job state — read-only."""

from django.contrib import admin

from rankings.models import (
    AmrPoints,
    DailyPoints,
    PointsHistogram,
    RankingClock,
    WeeklyPoints,
)
from rivals.admin import ReadOnlyAdmin


class _BoardAdmin(ReadOnlyAdmin):
    list_select_related = ("account",)
    raw_id_fields = ("account",)
    search_fields = ("=account__id",)
    show_full_result_count = False
    list_per_page = 100


@admin.register(AmrPoints)
class AmrPointsAdmin(_BoardAdmin):
    list_display = ("account", "points", "reached_at")
    ordering = ("-points", "reached_at", "account_id")


@admin.register(WeeklyPoints)
class WeeklyPointsAdmin(_BoardAdmin):
    list_display = ("week", "account", "points", "reached_at")
    list_filter = ("week",)
    ordering = ("-week", "-points", "reached_at", "account_id")


@admin.register(DailyPoints)
class DailyPointsAdmin(_BoardAdmin):
    list_display = ("day", "account", "points", "reached_at")
    date_hierarchy = "day"
    ordering = ("-day", "-points", "reached_at", "account_id")


@admin.register(PointsHistogram)
class PointsHistogramAdmin(ReadOnlyAdmin):
    list_display = ("board_key", "level", "value", "n")
    search_fields = ("=board_key",)
    ordering = ("board_key", "level", "-value")
    show_full_result_count = False


@admin.register(RankingClock)
class RankingClockAdmin(ReadOnlyAdmin):
    list_display = ("window_start", "rolled_at")

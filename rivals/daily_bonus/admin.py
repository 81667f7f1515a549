"""Daily-bonus claims in the admin: read-only (a projection of the claims' events), by player."""

from __future__ import annotations

from django.contrib import admin

from rivals.admin_base import PlayerFilter, PlayerSearchMixin, ReadOnlyAdmin
from rivals.daily_bonus.models import DailyBonusClaim


@admin.register(DailyBonusClaim)
class DailyBonusClaimAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    list_display = ("day", "account", "streak", "points", "jokers", "doubled")
    list_filter = (PlayerFilter,)
    search_fields = ("account__username", "account__display_name")
    date_hierarchy = "day"

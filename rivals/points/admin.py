"""The points ledger in the admin: read-only (a projection of ``PointsAwarded``), searchable by player."""

from __future__ import annotations

from django.contrib import admin

from rivals.admin_base import PlayerFilter, PlayerSearchMixin, ReadOnlyAdmin
from rivals.points.models import PointsLedgerEntry


@admin.register(PointsLedgerEntry)
class PointsLedgerAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    list_display = ("awarded_at", "account", "amount", "source", "counts", "award_key")
    list_filter = (PlayerFilter, "source", "counts")
    search_fields = ("=award_key", "account__username", "account__display_name")
    date_hierarchy = "awarded_at"


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link

    entries = PointsLedgerEntry.objects.filter(account_id=account_id).count()
    return [(50, hub_link("points_pointsledgerentry", "points ledger", entries, player=account_id))]

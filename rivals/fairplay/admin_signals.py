"""R-42's signal windows in the admin, read-only (projections of ``FairPlaySignalsScored``): an
account's current window with its scores against players of the same rating, and the pairs of
accounts that shared deals with how alike their pairs were. Flags stay in the review queue."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html

from rivals.admin_base import ReadOnlyAdmin
from rivals.admin_display import account_link
from rivals.fairplay import scoring
from rivals.fairplay.admin_evidence import summary
from rivals.fairplay.models import FairPlayPair, FairPlayWindow
from rivals.fairplay.signals_projection import thresholds


@admin.register(FairPlayWindow)
class FairPlayWindowAdmin(ReadOnlyAdmin):
    list_display = ("account_link", "scored", "plan", "pace")
    search_fields = ("=account__id", "account__display_name")
    search_help_text = "a player's id or name"
    fields = ("account_link", "scored", "plan", "pace", "flagged")
    readonly_fields = fields
    list_select_related = ("account",)

    @admin.display(description="account")
    def account_link(self, obj: FairPlayWindow):
        return account_link(obj.account_id, {obj.account_id: str(obj.account)})

    def _scores(self, obj: FairPlayWindow) -> dict:
        return scoring.window_scores(obj.entries, obj.history or {}) if obj.entries else {}

    @admin.display(description="plan agreement (the window)")
    def plan(self, obj: FairPlayWindow) -> str:
        return summary("solver_assist", {"scores": self._scores(obj)})

    @admin.display(description="pace (the window)")
    def pace(self, obj: FairPlayWindow) -> str:
        return summary("pace", {"scores": self._scores(obj)})


@admin.register(FairPlayPair)
class FairPlayPairAdmin(ReadOnlyAdmin):
    list_display = ("key", "accounts", "shared_deals", "near_identical", "most_alike")
    search_fields = ("=key",)
    fields = ("accounts", "shared_deals", "near_identical", "most_alike", "shared")
    readonly_fields = fields

    @admin.display(description="accounts")
    def accounts(self, obj: FairPlayPair):
        return format_html("{} · {}", account_link(obj.account_a_id), account_link(obj.account_b_id))

    @admin.display(description="shared deals")
    def shared_deals(self, obj: FairPlayPair) -> int:
        return len(obj.shared)

    @admin.display(description="near-identical")
    def near_identical(self, obj: FairPlayPair) -> int:
        return sum(s[3] >= thresholds().collusion_similarity for s in obj.shared)

    @admin.display(description="most alike")
    def most_alike(self, obj: FairPlayPair) -> float:
        return max((s[3] for s in obj.shared), default=0.0)

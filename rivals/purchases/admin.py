"""Joker purchases and refunds in the admin (R-11): per player (the search box takes a name or
an id; ``?player=<id>``), refunds with a shortfall — jokers already spent when the store refunded
them — for operators to follow up. History: read-only; the balance changes are the account's
``JokersChanged`` events."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from rivals.admin_base import PlayerFilter, PlayerSearchMixin, ReadOnlyAdmin
from rivals.purchases.models import Purchase


class ShortfallFilter(admin.SimpleListFilter):
    title = "shortfall"
    parameter_name = "shortfall"

    def lookups(self, request, model_admin):
        return [("yes", "refunds that could not take every joker back")]

    def queryset(self, request, queryset):
        return queryset.filter(shortfall__gt=0) if self.value() == "yes" else queryset


@admin.register(Purchase)
class PurchaseAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    list_display = (
        "recorded_at",
        "account_link",
        "kind",
        "product",
        "jokers",
        "applied",
        "shortfall",
        "balance",
        "transaction_id",
    )
    list_filter = ("kind", ShortfallFilter, PlayerFilter)
    search_fields = ("=transaction_id", "product")
    search_help_text = "a transaction id, a product, or a player's name or id"
    list_select_related = ("account",)
    fields = list_display
    readonly_fields = fields

    @admin.display(description="account")
    def account_link(self, obj: Purchase):
        return format_html(
            '<a href="{}">{} (#{})</a>',
            reverse("admin:rivals_account_change", args=[obj.account_id]),
            obj.account,
            obj.account_id,
        )


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link

    return [(90, hub_link("purchases_purchase", "joker purchases", None, player=account_id))]

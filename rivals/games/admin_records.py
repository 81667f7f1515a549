"""Solo games' other records in the admin: levels and their best times, and the fair-play record
of refused intents (R-38). All read-only."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from rivals.admin_base import PlayerFilter, PlayerSearchMixin, ReadOnlyAdmin
from rivals.admin_display import account_link, data_html, url
from rivals.games.models import Level, LevelBest, RejectedIntent


@admin.register(Level)
class LevelAdmin(ReadOnlyAdmin):
    list_display = ("number", "code", "layout", "hard", "difficulty", "generated_at", "leaderboard")
    list_filter = ("hard", "layout")
    search_fields = ("=number", "=code")

    @admin.display(description="leaderboard")
    def leaderboard(self, obj):
        url = reverse("admin:games_levelbest_changelist") + f"?level={obj.number}"
        return format_html('<a href="{}">best times</a>', url)


@admin.register(LevelBest)
class LevelBestAdmin(ReadOnlyAdmin):
    list_display = ("level", "account", "best_ms", "achieved_at", "completions")
    list_filter = ("level",)
    search_fields = ("=level", "account__username", "account__display_name")
    ordering = ("level", "best_ms", "achieved_at")


@admin.register(RejectedIntent)
class RejectedIntentAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    """R-38: refused intents, for fair-play review — search by target id or by player (name or id)."""

    list_display = ("at", "player", "target", "code", "message")
    list_filter = (PlayerFilter, "code")
    search_fields = ("=target", "account__username", "account__display_name")
    search_help_text = "a target id (game id, round:…, sichuan:…) or a player's name or id"
    list_select_related = ("account",)
    date_hierarchy = "at"
    fields = ("at", "player", "target_link", "code", "message", "intent_view", "request_id")
    readonly_fields = fields

    @admin.display(description="player")
    def player(self, obj: RejectedIntent):
        return account_link(obj.account_id, {obj.account_id: str(obj.account)} if obj.account_id else {})

    @admin.display(description="target")
    def target_link(self, obj: RejectedIntent):
        target = obj.target
        kind, _, ref = target.partition(":")
        page = {"round": "admin:matches_round_change", "sichuan": "admin:sichuan_sichuantable_change"}.get(kind)
        link = url(page, ref) if page else url("admin:games_game_change", target)
        return format_html('<a href="{}">{}</a>', link, target) if link else target

    @admin.display(description="the intent as sent")
    def intent_view(self, obj: RejectedIntent):
        return data_html(obj.intent) if obj.intent is not None else "—"


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link
    from rivals.games.models import Game

    games = Game.objects.filter(account_id=account_id).count()
    refused = RejectedIntent.objects.filter(account_id=account_id).count()
    return [
        (10, hub_link("games_game", "games", games, account__id__exact=account_id)),
        (70, hub_link("games_rejectedintent", "rejected intents", refused, player=account_id)),
    ]


def player_last_move(account_id: int):
    """The last move on the player's most recently started game (its stream's last write)."""
    from rivals.games.models import Game
    from rivals.models import Stream

    game = Game.objects.filter(account_id=account_id).order_by("-started_at").values_list("pk", flat=True).first()
    return Stream.objects.filter(pk=f"game-{game}").values_list("updated_at", flat=True).first() if game else None

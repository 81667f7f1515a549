"""Ratings in the admin (R-41): every account's rating (search by name or id; ``?player=<id>``)
and the rating history — one row per player of each rated result, with its inputs and its before
and after. Read-only: ratings change only by results (``RatingsUpdated`` events). The player page
shows the rating and its latest changes (``rivals.accounts.admin_page``)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q
from django.utils.html import format_html, format_html_join

from rivals.admin_base import PlayerFilter, PlayerSearchMixin, ReadOnlyAdmin, stream_ids
from rivals.admin_display import account_link, when
from rivals.ratings.models import Rating, RatingChange
from rivals.ratings.selectors import rating_history


def rating_streams(account_ids: list[int]) -> Q:
    """The streams of the results the players were rated in (the admin's events of a player)."""
    return Q(stream_id__in=stream_ids(RatingChange.objects.filter(account_id__in=account_ids), "rating-", "result"))


def rating_history_table(account_id: int, limit: int = 10):
    """The player page's latest rating changes (newest first)."""
    changes = rating_history(account_id=account_id, limit=limit)
    if not changes:
        return "never rated"
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{} of {}{}</td><td>{} → {}</td><td>μ {} σ {}</td></tr>",
        (
            (
                when(c.rated_at),
                c.mode,
                c.place,
                c.players,
                " (idle: rated last)" if c.idle else "",
                *(f"{x:.2f}" for x in (c.ordinal_before, c.ordinal_after, c.mu_after, c.sigma_after)),
            )
            for c in changes
        ),
    )
    return format_html(
        '<table class="rating-history"><tr><th>rated</th><th>mode</th><th>place</th><th>ordinal</th>'
        "<th>after</th></tr>{}</table>",
        rows,
    )


@admin.register(Rating)
class RatingAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    list_display = ("account_col", "ordinal_col", "mu", "sigma", "one_to_one", "multi", "provisional", "listed")
    list_filter = ("provisional", "listed", "suspended", "closed", PlayerFilter)
    search_help_text = "a player's name or id"
    search_fields = ("=account__id",)
    ordering = ("-figure", "account_id")
    fields = (
        "account_col",
        "ordinal_col",
        "mu",
        "sigma",
        "one_to_one",
        "multi",
        "provisional",
        "suspended",
        "closed",
        "listed",
        "last_result",
        "last_opponents",
        "rated_at",
        "history",
    )
    readonly_fields = fields

    @admin.display(description="player")
    def account_col(self, obj: Rating):
        return account_link(obj.account_id)

    @admin.display(description="ordinal (μ − 3σ)", ordering="figure")
    def ordinal_col(self, obj: Rating):
        return f"{obj.figure / 100:.2f}"

    @admin.display(description="rating history (latest 10)")
    def history(self, obj: Rating):
        return rating_history_table(obj.account_id)


@admin.register(RatingChange)
class RatingChangeAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    list_display = (
        "rated_at",
        "account_col",
        "mode",
        "result",
        "place",
        "rated_place",
        "idle",
        "ordinal_before",
        "ordinal_after",
        "mu_after",
        "sigma_after",
    )
    list_filter = ("mode", "kind", "idle", PlayerFilter)
    search_fields = ("=result",)
    search_help_text = "a result (match:<id>), or a player's name or id"
    fields = list_display + ("position", "kind", "players", "mu_before", "sigma_before")
    readonly_fields = fields

    @admin.display(description="player")
    def account_col(self, obj: RatingChange):
        return account_link(obj.account_id)


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def _rating(rating: dict | None, account_id: int):
    """The rating's figures and its latest changes (the ratings room's history table)."""
    if not rating:
        return "—"
    rated = rating["rated"]
    return format_html(
        "ordinal <b>{}</b> (μ {}, σ {}) · {} · {} one-to-one, {} multi-player results · {}<br>{}",
        f"{rating['ordinal']:.2f}",
        f"{rating['mu']:.2f}",
        f"{rating['sigma']:.2f}",
        "provisional" if rating["provisional"] else "established",
        rated["one_to_one"],
        rated["multi"],
        f"place {rating['place']} on the rating board" if rating.get("place") else "not on the rating board",
        rating_history_table(account_id),
    )


def player_rating_figure(account, figures):
    return _rating(figures.get("rating"), account.pk)


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link

    return [(100, hub_link("ratings_ratingchange", "rating history", None, player=account_id))]

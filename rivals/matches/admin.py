"""Admin of competitive play: matches, rounds (every player's events side by side), the queue and
duels — projections, so read-only; the one operator action ("end this round now") calls the
service and appends ``RoundEnded`` with the operator as actor."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode

from rivals.admin import ReadOnlyAdmin
from rivals.admin_base import (
    PlayerFilter,
    ReadOnlyInline,
    register_player_commitments,
    register_player_streams,
    stream_ids,
)
from rivals.matches.models import Duel, Match, MatchPlayer, QueueTicket, Round
from rivals.matches.services import round_boards, round_end_now
from rivals.models import Event

EVENTS_SHOWN = 200  # a board has at most ~72 pairs plus clicks and jokers


def _events_url(stream_id: str) -> str:
    return reverse("admin:rivals_event_changelist") + "?" + urlencode({"q": stream_id})


def _short(data, limit: int = 90) -> str:
    text = ", ".join(f"{k}={v}" for k, v in data.items() if k not in ("faces", "round_id", "seq"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


class MatchPlayerInline(ReadOnlyInline):
    model = MatchPlayer
    fields = ("seat", "account", "total_score", "place", "prize")


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("link", "index", "status", "code", "starts_at", "ends_at", "ended_at", "end_reason")
    show_change_link = False

    @admin.display(description="round")
    def link(self, obj: Round):
        return format_html('<a href="{}">{}</a>', reverse("admin:matches_round_change", args=[obj.pk]), obj.pk)


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "mode", "status", "rounds_total", "created_at", "finished_at")
    list_filter = ("mode", "status")
    search_fields = ("=id", "players__account__username", "players__account__display_name")
    date_hierarchy = "created_at"
    inlines = [MatchPlayerInline, RoundInline]
    fields = (
        "id",
        "mode",
        "status",
        "rounds_total",
        "context",
        "standings",
        "prizes",
        "version",
        "created_at",
        "finished_at",
        "events_link",
    )
    readonly_fields = fields

    @admin.display(description="events")
    def events_link(self, obj: Match):
        return format_html('<a href="{}">{}</a>', _events_url(obj.stream_id), obj.stream_id)


@admin.action(description="End this round now (appends RoundEnded with you as actor)")
def end_round_now(modeladmin, request, queryset):
    ended = 0
    for rnd in queryset.order_by("pk"):
        ended += round_end_now(round_id=rnd.pk, actor=f"operator:{request.user.pk}")
    modeladmin.message_user(
        request, f"ended {ended} round(s); {queryset.count() - ended} had already ended", messages.SUCCESS
    )


class RoundPlayerFilter(PlayerFilter):
    def filter_player(self, queryset, account_id: int):
        return queryset.filter(players__contains=[account_id])


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("id", "match", "index", "mode", "status", "starts_at", "ends_at", "ended_at", "end_reason")
    list_filter = (RoundPlayerFilter, "status", "mode", "end_reason")
    search_fields = ("=id", "=match__id")
    date_hierarchy = "starts_at"
    list_select_related = ("match",)
    fields = (
        "id",
        "match",
        "index",
        "mode",
        "status",
        "players",
        "code",
        "layout",
        "starts_at",
        "hard_ends_at",
        "cutoff_at",
        "last_pair_at",
        "ends_at",
        "ended_at",
        "end_reason",
        "result",
        "version",
        "events_link",
        "boards",
    )
    readonly_fields = fields

    def get_actions(self, request):
        actions = super().get_actions(request)
        if request.user.is_staff:
            actions["end_round_now"] = (end_round_now, "end_round_now", end_round_now.short_description)
        return actions

    @admin.display(description="events")
    def events_link(self, obj: Round):
        return format_html('<a href="{}">{}</a>', _events_url(obj.stream_id), obj.stream_id)

    @admin.display(description="players' boards, side by side")
    def boards(self, obj: Round):
        """Every player's board events in one table: a column per player, a row per event in time order."""
        games = round_boards(obj)
        if not games:
            return "—"
        events = list(
            Event.objects.filter(stream_id__in=[g.stream_id for g in games])
            .order_by("position")
            .values_list("stream_id", "version", "type", "data", "recorded_at")[: EVENTS_SHOWN * len(games)]
        )
        column = {g.stream_id: i for i, g in enumerate(games)}
        head = format_html_join(
            "",
            '<th><a href="{}">{}</a> · score {} · {}</th>',
            ((reverse("admin:rivals_game_change", args=[g.pk]), g.account, g.score, g.status) for g in games),
        )
        rows = []
        for stream_id, version, type_, data, at in events:
            cells = [""] * len(games)
            cells[column[stream_id]] = format_html("<b>{}</b> v{}<br><code>{}</code>", type_, version, _short(data))
            rows.append(
                format_html(
                    "<tr><td>{}</td>{}</tr>",
                    at.strftime("%H:%M:%S.%f")[:-3],
                    format_html_join("", "<td>{}</td>", ((c,) for c in cells)),
                )
            )
        return format_html(
            "<table><tr><th>time</th>{}</tr>{}</table>", head, format_html_join("", "{}", ((r,) for r in rows))
        )


@admin.register(QueueTicket)
class QueueTicketAdmin(ReadOnlyAdmin):
    list_display = ("id", "account", "mode", "status", "match", "created_at", "expires_at", "closed_at")
    list_filter = ("mode", "status")
    search_fields = ("=id", "account__username", "account__display_name")
    list_select_related = ("account",)
    date_hierarchy = "created_at"


@admin.register(Duel)
class DuelAdmin(ReadOnlyAdmin):
    list_display = ("id", "challenger", "opponent", "status", "match", "created_at", "expires_at", "closed_at")
    list_filter = ("status",)
    search_fields = (
        "=id",
        "challenger__username",
        "challenger__display_name",
        "opponent__username",
        "opponent__display_name",
    )
    list_select_related = ("challenger", "opponent")
    date_hierarchy = "created_at"


def _match_streams(account_ids: list[int]) -> Q:
    """The rounds and matches they played."""
    q = Q(stream_id__in=stream_ids(MatchPlayer.objects.filter(account_id__in=account_ids), "match-", "match_id"))
    for a in account_ids:
        q |= Q(stream_id__in=stream_ids(Round.objects.filter(players__contains=[a]), "round-"))
    return q


register_player_streams(_match_streams)


def _commitments(account) -> list[str]:
    """What a suspension or a closure ends here (R-38: ``queue_tickets_end``, ``duels_end``)."""
    from django.db.models import Q as Either

    tickets = QueueTicket.objects.filter(account_id=account.pk, status="waiting").count()
    duels = Duel.objects.filter(
        Either(challenger_id=account.pk) | Either(opponent_id=account.pk), status="pending"
    ).count()
    running = Round.objects.filter(players__contains=[account.pk], status="running").count()
    lines = []
    if tickets:
        lines.append(f"{tickets} waiting queue ticket(s) end now (QueueLeft)")
    if duels:
        lines.append(f"{duels} pending duel challenge(s) end now (DuelDeclined by the server)")
    if running:
        lines.append(f"{running} round(s) it plays now go on; its intents are refused from now on")
    return lines


register_player_commitments(_commitments)

"""Admin of competitive play: matches, rounds (every player's events side by side), the queue and
duels — projections, so read-only; the one operator action ("end this round now") calls the
service and appends ``RoundEnded`` with the operator as actor."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join

from rivals.admin import ReadOnlyAdmin
from rivals.admin_actions import ObjectActionsMixin, Row, confirm_then_apply, permission_check
from rivals.admin_base import (
    PlayerFilter,
    ReadOnlyInline,
    register_player_commitments,
    register_player_streams,
    stream_ids,
)
from rivals.admin_display import (
    account_link,
    accounts_links,
    clock,
    data_html,
    names_of,
    stream_link,
    table_html,
    url,
    when,
)
from rivals.matches.models import Duel, Match, MatchPlayer, QueueTicket, Round
from rivals.matches.services import round_boards, round_end_now
from rivals.models import Event

EVENTS_SHOWN = 200  # a board has at most ~72 pairs plus clicks and jokers


def _places(rows: list[dict], *, pairs_left: bool) -> str:
    """Places of a result or a match's standings: the player by name, place, score, completion."""
    names = names_of(r.get("account_id") for r in rows)
    head = ["place", "player", "score", "completed", "pairs removed"] + (["pairs left"] if pairs_left else [])
    body = [
        [
            r.get("place"),
            account_link(r.get("account_id"), names),
            r.get("score"),
            "yes" if r.get("completed") else "no",
            r.get("pairs_removed", "—"),
            *([r.get("pairs_left", "—")] if pairs_left else []),
        ]
        for r in sorted(rows, key=lambda r: (r.get("place") or 0, r.get("account_id") or 0))
    ]
    return table_html(head, body, css="places")


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
        "played_for",
        "standings_view",
        "prizes_view",
        "version",
        "created_at",
        "finished_at",
        "events_link",
    )
    readonly_fields = fields

    @admin.display(description="events")
    def events_link(self, obj: Match):
        return stream_link(obj.stream_id)

    @admin.display(description="played for")
    def played_for(self, obj: Match):
        """A tournament table's match names its tournament, wave and table (``context``)."""
        ctx = obj.context or {}
        if ctx.get("tournament_id"):
            return format_html(
                '<a href="{}">a tournament</a>, wave {}, table {}',
                url("admin:tournaments_tournament_change", ctx["tournament_id"]),
                ctx.get("wave", "?"),
                ctx.get("table", "?"),
            )
        return data_html(ctx) if ctx else "itself"

    @admin.display(description="standings")
    def standings_view(self, obj: Match):
        return _places(obj.standings or [], pairs_left=False)

    @admin.display(description="prizes")
    def prizes_view(self, obj: Match):
        prizes = obj.prizes or []
        names = names_of(p.get("account_id") for p in prizes)
        rows = [[account_link(p.get("account_id"), names), p.get("points")] for p in prizes]
        return table_html(["player", "points"], rows, css="prizes")


class ConfirmForm(forms.Form):
    """Nothing to fill in: the rounds' service records the operator as the end's actor, no reason."""


def _end_rows(rnd: Round) -> Row:
    boards = round_boards(rnd)
    scores = ", ".join(f"{g.player_name or g.account_id} {g.score}" for g in boards) or "no board"
    late = rnd.status == "running" and timezone.now() >= rnd.clock_from(boards).ends_at
    lines = [
        f"ends with the result as it stands: {scores}"
        if not late
        else "its deadline passed: the clock's end is applied",
        "the places, prizes (and a tournament table's TP) follow from that result, as for any end",
    ]
    return Row(
        rnd,
        f"{rnd.get_mode_display()} round {rnd.index} ({rnd.pk})",
        lines,
        None if rnd.status == "running" else f"already {rnd.status}",
    )


@admin.action(description="End the round now", permissions=["end"])
def end_round_now(modeladmin, request, queryset):
    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="end_round_now",
        title="End rounds now",
        explain="Each running round below ends now, with you recorded as the one who ended it; a round whose "
        "deadline already passed ends as the clock ended it. It cannot be resumed.",
        form_class=ConfirmForm,
        rows=_end_rows,
        apply=lambda r, d, actor: "ended" if round_end_now(round_id=r.pk, actor=actor) else None,
        danger=True,
    )


class RoundPlayerFilter(PlayerFilter):
    def filter_player(self, queryset, account_id: int):
        return queryset.filter(players__contains=[account_id])


@admin.register(Round)
class RoundAdmin(ObjectActionsMixin, ReadOnlyAdmin):
    list_display = ("id", "match", "index", "mode", "status", "starts_at", "list_deadline", "ended_at", "end_reason")
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
        "players_view",
        "code",
        "layout",
        "starts_at",
        "hard_ends_at",
        "cutoff_at",
        "last_pair",
        "deadline_view",
        "ended_at",
        "end_reason",
        "result_view",
        "version",
        "events_link",
        "boards",
    )
    readonly_fields = fields

    object_actions = (("end_round_now", "End now…"),)
    actions = [end_round_now]
    has_end_permission = permission_check("matches.change_round")

    def object_action_shown(self, obj: Round, name: str) -> bool:
        return obj.status == "running"

    def get_queryset(self, request):
        return super().get_queryset(request).with_deadline()

    @admin.display(description="ends at", ordering="deadline_at")
    def list_deadline(self, obj: Round):
        return obj.ended_at if obj.status == "ended" else obj.deadline_at

    @staticmethod
    def _boards(obj: Round) -> list:
        """The round's boards, read once per page (the clock, its last pair and the boards' table)."""
        if "_page_boards" not in obj.__dict__:
            obj.__dict__["_page_boards"] = round_boards(obj)
            obj.clock_from(obj.__dict__["_page_boards"])
        return obj.__dict__["_page_boards"]

    @admin.display(description="last pair at")
    def last_pair(self, obj: Round):
        self._boards(obj)
        return obj.last_pair_at or "-"

    @admin.display(description="ends at")
    def deadline_view(self, obj: Round):
        """The deadline (R-17) from the boards' pairs while it runs; the end once ended."""
        if obj.status == "ended":
            return obj.ended_at
        self._boards(obj)
        return obj.ends_at

    @admin.display(description="events")
    def events_link(self, obj: Round):
        return stream_link(obj.stream_id)

    @admin.display(description="players")
    def players_view(self, obj: Round):
        return accounts_links(obj.players or [])

    @admin.display(description="result")
    def result_view(self, obj: Round):
        if not obj.result:
            return "—"
        r = obj.result
        return format_html(
            "{}<p>ended {} ({})</p>",
            _places(r.get("results") or [], pairs_left=True),
            when(parse_datetime(r["ended_at"])) if r.get("ended_at") else "—",
            r.get("reason", "?"),
        )

    @admin.display(description="players' boards, side by side (Romanian time)")
    def boards(self, obj: Round):
        """Every player's board events in one table: a column per player, a row per event in time order."""
        games = self._boards(obj)
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
            ((url("admin:games_game_change", g.pk), g.account, g.score, g.status) for g in games),
        )
        rows = []
        for stream_id, version, type_, data, at in events:
            cells = [""] * len(games)
            cells[column[stream_id]] = format_html("<b>{}</b> v{}<br><code>{}</code>", type_, version, _short(data))
            rows.append(
                format_html(
                    "<tr><td>{}</td>{}</tr>",
                    clock(at),
                    format_html_join("", "<td>{}</td>", ((c,) for c in cells)),
                )
            )
        return format_html(
            "<table><tr><th>Romanian time</th>{}</tr>{}</table>", head, format_html_join("", "{}", ((r,) for r in rows))
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
        lines.append(f"{tickets} waiting queue ticket(s) end now: the player leaves the queue")
    if duels:
        lines.append(f"{duels} pending duel challenge(s) end now, both players told")
    if running:
        lines.append(f"{running} round(s) it plays now go on; its intents are refused from now on")
    return lines


register_player_commitments(_commitments)


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link

    rounds = Round.objects.filter(players__contains=[account_id]).count()
    return [(20, hub_link("matches_round", "rounds", rounds, player=account_id))]

"""Games in the admin: read-only projections of their streams, each with a board replay — the
board drawn as server-rendered SVG after any of its events (``?at=<version>``), previous / next,
and the event list beside it. A round player's board is a game too (the round page links each)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from rivals.admin_base import PlayerSearchMixin, ReadOnlyAdmin, register_player_streams, stream_ids
from rivals.admin_display import account_link, events_url, when
from rivals.games.models import Game
from rivals.games.replay import board_svg, replay_frame


def _short(data: dict, limit: int = 48) -> str:
    text = ", ".join(f"{k}={v}" for k, v in data.items() if k not in ("faces", "round_id", "seq", "account_id"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


@admin.register(Game)
class GameAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    """Games are projections of their event streams: read-only; the page replays the board."""

    list_display = ("id", "account", "mode", "level", "code", "status", "score", "seq", "started_at", "events")
    list_filter = ("mode", "status", "ruleset")
    search_fields = ("=id", "=code", "account__username", "account__display_name")
    search_help_text = "a game id, a game code, or a player's name or id"
    # what an operator reads of a game (issue 40): not its storage (the faces, a bitset of the tiles
    # on the board, the undo stack) — the board itself is the replay above
    fields = (
        "player",
        "mode",
        "level",
        "code",
        "layout",
        "status",
        "score",
        "tiles_left",
        "started",
        "finished",
        "play_time",
        "aids",
        "round_link",
        "events",
    )
    readonly_fields = fields
    ordering = ("-started_at",)
    list_select_related = ("account",)
    change_form_template = "admin/rivals/game/change_form.html"

    @admin.display(description="player")
    def player(self, obj: Game):
        return account_link(obj.account_id)

    @admin.display(description="tiles left")
    def tiles_left(self, obj: Game) -> int:
        return bin(int(obj.present or "0", 16)).count("1")

    @admin.display(description="started")
    def started(self, obj: Game) -> str:
        return when(obj.started_at)

    @admin.display(description="finished")
    def finished(self, obj: Game) -> str:
        return when(obj.finished_at)

    @admin.display(description="play time")
    def play_time(self, obj: Game) -> str:
        if obj.completion_ms is None:
            return "—"
        seconds = obj.completion_ms / 1000
        return f"{int(seconds // 60)} min {seconds % 60:.1f} s"

    @admin.display(description="jokers, hints, undos, shuffles used")
    def aids(self, obj: Game) -> str:
        return f"{obj.jokers_used}, {obj.hints_used}, {obj.undos_used}, {obj.shuffles_used}"

    @admin.display(description="round")
    def round_link(self, obj: Game):
        if not obj.round_id:
            return "— (not a competition round)"
        return format_html('<a href="{}">the round</a>', reverse("admin:matches_round_change", args=[obj.round_id]))

    @admin.display(description="events")
    def events(self, obj):
        return format_html('<a href="{}">events</a>', events_url(obj.stream_id))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, object_id)
        if game is not None:
            at = request.GET.get("at", "")
            frame = replay_frame(game, int(at) if at.isdigit() else None)
            here = reverse("admin:games_game_change", args=[game.pk])
            last = frame.events[-1].version if frame.events else 0
            rows = [
                {
                    "version": e.version,
                    "type": e.type,
                    "at": e.recorded_at,
                    "data": _short(e.data),
                    "url": f"{here}?at={e.version}",
                    "current": e.version == frame.version,
                    "actor": (e.metadata or {}).get("actor"),
                }
                for e in frame.events
            ]
            extra_context = {
                **(extra_context or {}),
                "replay": {
                    "svg": mark_safe(board_svg(frame)),  # built from our own data, every text escaped
                    "version": frame.version,
                    "last": last,
                    "event": frame.event,
                    "rows": rows,
                    "previous": f"{here}?at={frame.version - 1}" if frame.version > 1 else None,
                    "next": f"{here}?at={frame.version + 1}" if frame.version < last else None,
                    "round": reverse("admin:matches_round_change", args=[game.round_id]) if game.round_id else None,
                },
            }
        return super().change_view(request, object_id, form_url, extra_context)


def _game_streams(account_ids: list[int]) -> Q:
    return Q(stream_id__in=stream_ids(Game.objects.filter(account_id__in=account_ids), "game-"))


register_player_streams(_game_streams)


from rivals.games import admin_records  # noqa: E402,F401  registers levels, best times, refused intents

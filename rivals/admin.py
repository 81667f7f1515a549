"""The operators' admin of the rivals app. The account page is the hub (``rivals.accounts.admin``);
games show a board replay (``rivals.games.admin``); periodic tasks say what they do and how they last
ran (``rivals.periodic.admin``). Events, streams and ledgers are read-only; operator actions call services
and append events with the operator as actor."""

from django.contrib import admin

from rivals.admin_base import PlayerFilter, ReadOnlyAdmin, player_streams_q, players_matching
from rivals.admin_display import actor_html, data_html, names_of, stream_link
from rivals.models import Event, IdempotencyRecord, Stream

__all__ = ["ReadOnlyAdmin"]

admin.site.site_header = "Mahjong Rivals — operators"
admin.site.site_title = "Mahjong Rivals operators"
admin.site.index_title = "Operating the game"


class EventPlayerFilter(PlayerFilter):
    def filter_player(self, queryset, account_id: int):
        return queryset.filter(player_streams_q([account_id]))


class ActorFilter(admin.SimpleListFilter):
    """``?actor=operator:<id>``: the events an operator wrote (the Operators page links here).
    Shown only while in use; it reads the log newest first until a page is full."""

    title = "actor"
    parameter_name = "actor"

    def lookups(self, request, model_admin):
        value = request.GET.get(self.parameter_name, "")
        return [(value, value)] if value else []

    def queryset(self, request, queryset):
        return queryset.filter(metadata__actor=self.value()) if self.value() else queryset


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """Search by exact stream id (``game-…``), by type, or by player — a name or an id: every
    stream of the matching players (their account, ledger, games, tables, rounds, matches). An
    event's page shows its data pretty-printed, the accounts, games, rounds, tournaments … it
    names linked to their pages, and its actor by name."""

    list_display = ("position", "stream_link", "version", "type", "recorded_at", "actor")
    list_filter = (EventPlayerFilter, ActorFilter, "stream_type", "type")
    search_fields = ("=stream_id", "type")
    search_help_text = "a stream id (game-…), an event type, or a player's name or id"
    ordering = ("-position",)
    list_per_page = 100
    show_full_result_count = False
    fields = (
        "position",
        "stream_link",
        "version",
        "type",
        "schema_version",
        "recorded_at",
        "actor",
        "data_view",
        "metadata_view",
    )
    readonly_fields = fields

    @admin.display(description="stream")
    def stream_link(self, obj: Event):
        return stream_link(obj.stream_id)

    def get_changelist_instance(self, request):
        """The page's actors named with one query (not one per row)."""
        cl = super().get_changelist_instance(request)
        actors = [str((e.metadata or {}).get("actor") or "") for e in cl.result_list]
        ids = [a.split(":", 1)[1] for a in actors if a.startswith(("operator:", "account:"))]
        names = names_of(ids)
        for event in cl.result_list:
            event.actor_names = names
        return cl

    @admin.display(description="actor")
    def actor(self, obj):
        return actor_html((obj.metadata or {}).get("actor"), getattr(obj, "actor_names", None))

    @admin.display(description="data")
    def data_view(self, obj: Event):
        return data_html(obj.data)

    @admin.display(description="metadata")
    def metadata_view(self, obj: Event):
        return data_html(obj.metadata)

    def get_search_results(self, request, queryset, search_term):
        results, duplicates = super().get_search_results(request, queryset, search_term)
        players = players_matching(search_term) if search_term else []
        if players:
            results = results | queryset.filter(player_streams_q(players))
        return results, duplicates


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = ("id", "type", "version", "updated_at")
    list_filter = ("type",)
    search_fields = ("=id",)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    """Fingerprints only (issue 19): the record's key and request are keyed fingerprints, and its
    stored answer is not shown (a sign-in's token was never stored)."""

    list_display = ("owner", "key", "method", "path", "status_code", "withheld", "created_at")
    fields = ("owner", "key", "fingerprint", "method", "path", "status_code", "withheld", "created_at")
    search_fields = ("=owner",)

from django.contrib import admin
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from rivals.admin import ReadOnlyAdmin
from rivals.admin_base import register_player_streams, stream_ids
from rivals.admin_display import clock, stream_link
from rivals.models import Event
from rivals.sichuan.models import SichuanTable

EVENTS_SHOWN = 400  # a deal has ~90–170 events


@admin.register(SichuanTable)
class SichuanTableAdmin(ReadOnlyAdmin):
    """Tables are a projection of their event stream: read-only; the events are linked."""

    list_display = ("id", "account", "status", "seq", "version", "scores", "created_at", "finished_at", "events_link")
    list_filter = ("status",)
    search_fields = ("=id", "=account__username", "account__display_name")
    list_select_related = ("account",)
    ordering = ("-created_at",)
    fields = (
        "id",
        "account",
        "human_seat",
        "seed",
        "dealer",
        "status",
        "seq",
        "version",
        "scores",
        "end_reason",
        "created_at",
        "updated_at",
        "finished_at",
        "events_link",
        "event_list",
    )
    readonly_fields = fields

    @admin.display(description="events")
    def events_link(self, obj: SichuanTable):
        return stream_link(obj.stream_id)

    @admin.display(description="event stream")
    def event_list(self, obj: SichuanTable):
        rows = (
            Event.objects.filter(stream_id=obj.stream_id)
            .order_by("version")
            .values_list("position", "version", "type", "data", "recorded_at")[:EVENTS_SHOWN]
        )
        body = format_html_join(
            "",
            '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>',
            (
                (reverse("admin:rivals_event_change", args=[pos]), version, type_, clock(at), _short(data))
                for pos, version, type_, data, at in rows
            ),
        )
        return format_html(
            "<table><tr><th>version</th><th>type</th><th>Romanian time</th><th>data</th></tr>{}</table>", body
        )


def _short(data, limit: int = 160) -> str:
    """An engine event's data on one line: ``seat 2, by discard, tile 17 …``."""
    text = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in data.items()) if isinstance(data, dict) else str(data)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _table_streams(account_ids: list[int]) -> Q:
    return Q(stream_id__in=stream_ids(SichuanTable.objects.filter(account_id__in=account_ids), "sichuan-"))


register_player_streams(_table_streams)


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link

    tables = SichuanTable.objects.filter(account_id=account_id).count()
    return [(30, hub_link("sichuan_sichuantable", "Sichuan tables", tables, account__id__exact=account_id))]

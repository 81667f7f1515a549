"""The Sichuan room's part of a player's export (``rivals.accounts.export``): the account's tables
and their events as its seat may see them (the AIs' hands only once a deal is over, S-18)."""

from __future__ import annotations

from rest_framework import serializers

from rivals.accounts.export import Subject, chunked
from rivals.eventstore import stream_filter
from rivals.models import Event
from rivals.sichuan.models import SichuanTable
from rivals.sichuan.selectors import visible_events
from rivals.sichuan.serializers import SichuanEventOut


class ExportedTable(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField(help_text="playing or finished")
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="per seat (seat 0 is yours; S-13…S-16)")
    end_reason = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    events = SichuanEventOut(many=True, help_text="the table's events as your seat may see them")


def tables(subject: Subject):
    for table in chunked(SichuanTable.objects.filter(account=subject.account), order=("created_at", "id"), size=50):
        rows = Event.objects.filter(**stream_filter(table.stream_id)).order_by("version")
        yield {
            "id": table.pk,
            "status": table.status,
            "scores": table.scores,
            "end_reason": table.end_reason or None,
            "created_at": table.created_at,
            "finished_at": table.finished_at,
            "events": visible_events(list(rows), seat=table.human_seat, over=table.status == "finished"),
        }


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="sichuan_tables",
        feature="sichuan",
        rows=tables,
        shape=ExportedTable,
        order=15,
        description="your Sichuan tables (S-17) with their events as your seat sees them",
    )

"""The tournaments room's part of a player's export (``rivals.accounts.export``): the tournaments
the account registered for, with its total TP, place and prize (R-26), and the pots it entered
(P-5)."""

from __future__ import annotations

from rest_framework import serializers

from rivals.accounts.export import Subject, chunked
from tournaments.models import PotEntrant, Registration
from tournaments.selectors import API_STATUS


class ExportedRegistration(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    title = serializers.CharField()
    kind = serializers.CharField(help_text="regular or champions")
    status = serializers.CharField(help_text="upcoming, running, finished or cancelled")
    starts_at = serializers.DateTimeField()
    registered_at = serializers.DateTimeField()
    tp = serializers.IntegerField(help_text="total table points (R-24, R-25)")
    tables_played = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True, help_text="final place (R-26)")
    prize = serializers.IntegerField(allow_null=True)


class ExportedPotEntry(serializers.Serializer):
    pot_id = serializers.UUIDField()
    title = serializers.CharField()
    entered_at = serializers.DateTimeField(allow_null=True)
    game_id = serializers.UUIDField(allow_null=True, help_text="your board (see games)")
    score = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(allow_null=True)


def tournaments(subject: Subject):
    registrations = Registration.objects.filter(account=subject.account).select_related("tournament")
    for reg in chunked(registrations, order=("registered_at", "id")):
        t = reg.tournament
        yield {
            "tournament_id": t.pk,
            "title": t.title,
            "kind": t.kind,
            "status": API_STATUS[t.status],
            "starts_at": t.starts_at,
            "registered_at": reg.registered_at,
            "tp": reg.tp,
            "tables_played": reg.tables_played,
            "place": reg.place,
            "prize": reg.prize,
        }


def pots(subject: Subject):
    for entry in chunked(PotEntrant.objects.filter(account=subject.account).select_related("pot"), order=("id",)):
        yield {
            "pot_id": entry.pot_id,
            "title": entry.pot.title,
            "entered_at": entry.entered_at,
            "game_id": entry.game_id,
            "score": entry.score,
            "place": entry.place,
            "prize": entry.prize,
        }


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="tournaments",
        feature="tournaments",
        rows=tournaments,
        shape=ExportedRegistration,
        order=25,
        description="the tournaments you registered for, with your TP, place and prize (R-26)",
    )
    register_export_part(
        name="pots",
        feature="tournaments",
        rows=pots,
        shape=ExportedPotEntry,
        order=26,
        description="the pot competitions you entered or were listed for (P-5)",
    )

"""The points room's part of a player's export (``rivals.accounts.export``): every award of the
ledger (R-33: what counts in rankings says ``counts``)."""

from __future__ import annotations

from rest_framework import serializers

from rivals.accounts.export import Subject, chunked
from rivals.points.models import PointsLedgerEntry


class ExportedAwardRef(serializers.Serializer):
    """What an award was for (``rivals.points.events.AwardRef``)."""

    game_id = serializers.UUIDField(required=False)
    level = serializers.IntegerField(required=False)
    time_ms = serializers.IntegerField(required=False)
    place = serializers.IntegerField(required=False)
    match_id = serializers.UUIDField(required=False)
    day = serializers.DateField(required=False)
    streak = serializers.IntegerField(required=False)
    tournament_id = serializers.UUIDField(required=False)
    title = serializers.CharField(required=False)
    tp = serializers.IntegerField(required=False)
    pot_id = serializers.UUIDField(required=False)
    score = serializers.IntegerField(required=False)


class ExportedAward(serializers.Serializer):
    amount = serializers.IntegerField()
    source = serializers.CharField(help_text="single_player, quick_match, arena, tournament_prize, daily_bonus …")
    counts = serializers.BooleanField(help_text="counts in the rankings (R-33)")
    awarded_at = serializers.DateTimeField()
    ref = ExportedAwardRef()


def points(subject: Subject):
    entries = PointsLedgerEntry.objects.filter(account=subject.account).values(
        "id", "amount", "source", "counts", "awarded_at", "ref"
    )
    for row in chunked(entries, order=("awarded_at", "id")):
        yield {k: row[k] for k in ("amount", "source", "counts", "awarded_at", "ref")}


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="points",
        feature="points",
        rows=points,
        shape=ExportedAward,
        order=30,
        description="every points award (levels, matches, prizes, daily bonuses), oldest first",
    )

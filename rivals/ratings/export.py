"""The ratings room's part of a player's export (``rivals.accounts.export``): every rated result of
the account, its rating before and after (R-41) — the opponents are not the player's data."""

from __future__ import annotations

from rest_framework import serializers

from rivals.accounts.export import Subject, chunked
from rivals.ratings.models import RatingChange


class ExportedRatingChange(serializers.Serializer):
    result = serializers.CharField(help_text="the rated result (match:<id>)")
    mode = serializers.CharField()
    place = serializers.IntegerField(help_text="your place in the result")
    idle = serializers.BooleanField(help_text="you removed no pair: rated as last (R-18a, R-41)")
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    ordinal_before = serializers.FloatField()
    ordinal_after = serializers.FloatField()
    rated_at = serializers.DateTimeField()


def rating_changes(subject: Subject):
    for change in chunked(RatingChange.objects.filter(account=subject.account), order=("position",)):
        yield {
            "result": change.result,
            "mode": change.mode,
            "place": change.place,
            "idle": change.idle,
            "mu_before": change.mu_before,
            "sigma_before": change.sigma_before,
            "mu_after": change.mu_after,
            "sigma_after": change.sigma_after,
            "ordinal_before": change.ordinal_before,
            "ordinal_after": change.ordinal_after,
            "rated_at": change.rated_at,
        }


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="ratings",
        feature="ratings",
        rows=rating_changes,
        shape=ExportedRatingChange,
        order=60,
        description="your skill rating after each rated result (R-41)",
    )

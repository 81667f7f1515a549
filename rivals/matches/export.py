"""The matches room's part of a player's export (``rivals.accounts.export``): every round the
account played and its result — the account's own place and score, and the round's places without
the other players (whose identity is theirs, not the player's data). The deal as the round's read
shows it (R-40)."""

from __future__ import annotations

from rest_framework import serializers

from rivals.accounts.export import Subject, batches, chunked
from rivals.deals.serializers import DealOut
from rivals.games.selectors import rounds_played
from rivals.matches.models import Round
from rivals.matches.selectors import round_deal, rounds_revealed
from rivals.matches.serializers import END_REASONS, ROUND_STATUSES

ROUNDS_PER_READ = 200


class ExportedPlace(serializers.Serializer):
    place = serializers.IntegerField()
    score = serializers.IntegerField()
    completed = serializers.BooleanField()
    you = serializers.BooleanField(help_text="this place is yours")


class ExportedRound(DealOut):
    id = serializers.UUIDField()
    match_id = serializers.UUIDField()
    mode = serializers.CharField(help_text="quick, duel, arena or tournament")
    index = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ROUND_STATUSES)
    layout = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    end_reason = serializers.ChoiceField(choices=END_REASONS, allow_null=True)
    players = serializers.IntegerField(help_text="how many played it")
    place = serializers.IntegerField(allow_null=True, help_text="yours (R-18), once it ended")
    score = serializers.IntegerField(allow_null=True)
    completed = serializers.BooleanField(allow_null=True)
    pairs_removed = serializers.IntegerField(allow_null=True)
    places = ExportedPlace(many=True, help_text="the round's places, best first (yours marked)")


def _row(rnd: Round, account_id: int, revealed: bool) -> dict:
    results = (rnd.result or {}).get("results", [])
    mine = next((r for r in results if r["account_id"] == account_id), None)
    return {
        "id": rnd.pk,
        "match_id": rnd.match_id,
        "mode": rnd.mode,
        "index": rnd.index,
        "status": rnd.status,
        "layout": rnd.layout,
        **round_deal(rnd, revealed),
        "starts_at": rnd.starts_at,
        "ended_at": rnd.ended_at,
        "end_reason": rnd.end_reason or None,
        "players": len(rnd.players),
        "place": mine["place"] if mine else None,
        "score": mine["score"] if mine else None,
        "completed": mine["completed"] if mine else None,
        "pairs_removed": mine.get("pairs_removed") if mine else None,
        "places": [
            {"place": r["place"], "score": r["score"], "completed": r["completed"], "you": r is mine} for r in results
        ],
    }


def rounds(subject: Subject):
    account_id = subject.account.pk
    rows = chunked(
        Round.objects.filter(pk__in=rounds_played(account_id)), order=("starts_at", "id"), size=ROUNDS_PER_READ
    )
    for batch in batches(rows, ROUNDS_PER_READ):
        revealed = rounds_revealed(batch)
        yield from (_row(r, account_id, r.pk in revealed) for r in batch)


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="rounds",
        feature="matches",
        rows=rounds,
        shape=ExportedRound,
        order=20,
        description="every round played (Quick Match, Duel, Arena, tournament tables) and its result",
    )

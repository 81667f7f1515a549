"""The games room's part of a player's export (``rivals.accounts.export``): every board the account
played — solo games and its boards of rounds and pots — with the board's events, as the API reads
them (R-40: a competition's deal stays hidden until the competition is over)."""

from __future__ import annotations

from collections import defaultdict

from rest_framework import serializers

from rivals.accounts.export import Subject, batches, chunked
from rivals.api.serializers import EventOut
from rivals.deals.serializers import DealOut
from rivals.games.models import Game
from rivals.games.selectors import board_event_views, boards_revealed, game_deal
from rivals.models import Event

BOARDS_PER_READ = 50  # boards whose events are read in one query


class ExportedGame(DealOut):
    id = serializers.UUIDField()
    mode = serializers.CharField()
    ruleset = serializers.CharField()
    level = serializers.IntegerField(allow_null=True)
    layout = serializers.CharField()
    status = serializers.CharField()
    score = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    completion_ms = serializers.IntegerField(allow_null=True)
    jokers_used = serializers.IntegerField()
    hints_used = serializers.IntegerField()
    undos_used = serializers.IntegerField()
    shuffles_used = serializers.IntegerField()
    round_id = serializers.UUIDField(allow_null=True, help_text="a round's board: the round (see rounds)")
    events = EventOut(many=True, help_text="the board's events, oldest first")


def _rows(games: list[Game]):
    revealed = boards_revealed(games)
    events: dict[str, list] = defaultdict(list)
    streams = [g.stream_id for g in games]
    since = min(g.started_at for g in games)
    for event in (
        Event.objects.filter(stream_id__in=streams, recorded_at__gte=since)
        .only("stream_id", "version", "type", "data", "recorded_at")
        .order_by("stream_id", "version")
    ):
        events[event.stream_id].append(event)
    for g in games:
        yield {
            "id": g.pk,
            "mode": g.mode,
            "ruleset": g.ruleset,
            "level": g.level,
            "layout": g.layout,
            **game_deal(g, g.pk in revealed),
            "status": g.status,
            "score": g.score,
            "started_at": g.started_at,
            "finished_at": g.finished_at,
            "completion_ms": g.completion_ms,
            "jokers_used": g.jokers_used,
            "hints_used": g.hints_used,
            "undos_used": g.undos_used,
            "shuffles_used": g.shuffles_used,
            "round_id": g.round_id,
            "events": board_event_views(g, events.pop(g.stream_id, []), g.pk in revealed),
        }


def games(subject: Subject):
    boards = Game.objects.filter(account=subject.account).defer("initial_faces", "faces", "removed", "plan")
    for batch in batches(chunked(boards, order=("started_at", "id"), size=BOARDS_PER_READ), BOARDS_PER_READ):
        yield from _rows(batch)


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="games",
        feature="games",
        rows=games,
        shape=ExportedGame,
        order=10,
        description="every board played — levels, classic and Pool games, rounds' and pots' boards — with its events",
    )

"""Who hears of a tournament's events, and what they read (API.md "Notifications"; registered in
``rivals.notices`` from the app's ``ready()``), with the facts these notices need of earlier
events: a wave's seating (``WaveSeated``), the registered accounts (``PlayerRegistered`` /
``PlayerUnregistered``)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rest_framework import serializers

from rivals.eventstore import STREAM_BOUND_SQL
from rivals.notices import Facts, FactSource, Notices, logged_data, stream_suffix
from tournaments import events as ev
from tournaments.events import (
    PLAYER_REGISTERED,
    PLAYER_UNREGISTERED,
    TABLES_OPENED,
    TOURNAMENT_CANCELLED,
    TOURNAMENT_FINALIZED,
    TOURNAMENT_STARTING_SOON,
    WAVE_SEATED,
)

# --- the data of each notification (rivals.notification_types) ---------------------------------------


class TournamentRegisteredData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    registered_at = serializers.DateTimeField(allow_null=True)


class TournamentRegistrationEndedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    reason = serializers.CharField(help_text="rescheduled: an operator moved a Champions start to another week (R-28)")
    starts_at = serializers.DateTimeField(allow_null=True, help_text="the new start")


class TournamentStartingData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    starts_at = serializers.DateTimeField()
    title = serializers.CharField(allow_null=True)


class TournamentSeatedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    wave = serializers.IntegerField()
    table = serializers.IntegerField()
    round_id = serializers.UUIDField(allow_null=True, help_text="play it at /api/v1/rounds/{round_id}")
    match_id = serializers.UUIDField(allow_null=True)


class TournamentFinishedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    place = serializers.IntegerField()
    tp = serializers.IntegerField()
    prize = serializers.IntegerField(allow_null=True, help_text="0 with no TP or while restricted (R-26, R-38)")


class TrophyAwardedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    account_id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["cup", "champions"], help_text="R-27, R-29")
    title = serializers.CharField()


class TournamentCancelledData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    reason = serializers.CharField(
        allow_null=True, help_text="operator, too_few_players, champions_too_few or not_started_before_end"
    )


SHAPES = {
    "tournament_registered": TournamentRegisteredData,
    "tournament_registration_ended": TournamentRegistrationEndedData,
    "tournament_starting": TournamentStartingData,
    "tournament_seated": TournamentSeatedData,
    "tournament_finished": TournamentFinishedData,
    "tournament_cancelled": TournamentCancelledData,
    "trophy_awarded": TrophyAwardedData,
}

# --- the facts: a wave's seating, the registered accounts ----------------------------------------------


class TournamentFacts:
    """A wave's seating (table → accounts), a tournament's registered accounts."""

    def seating(self, tournament_id: str, wave: int) -> dict[int, list[int]]:
        raise NotImplementedError

    def registered(self, tournament_id: str) -> list[int]:
        raise NotImplementedError


class FoldedTournamentFacts(TournamentFacts):
    """Folded from the log in position order (the rebuild)."""

    def __init__(self) -> None:
        self.seats: dict[tuple[str, int], dict[int, list[int]]] = {}
        self.registrations: dict[str, dict[int, None]] = defaultdict(dict)

    def learn(self, event: Any) -> None:
        tournament_id, d = stream_suffix(event.stream_id, "tournament-"), event.data
        if event.type == WAVE_SEATED:
            self.seats[(tournament_id, d["wave"])] = {row["table"]: list(row["account_ids"]) for row in d["tables"]}
        elif event.type == PLAYER_REGISTERED:
            self.registrations[tournament_id][d["account_id"]] = None
        elif event.type == PLAYER_UNREGISTERED:
            self.registrations[tournament_id].pop(d["account_id"], None)

    def seating(self, tournament_id: str, wave: int) -> dict[int, list[int]]:
        return self.seats.get((tournament_id, wave), {})

    def registered(self, tournament_id: str) -> list[int]:
        return list(self.registrations.get(tournament_id, {}))


class LogTournamentFacts(TournamentFacts):
    """Read from the tournament's stream, inside the append's transaction (live)."""

    def seating(self, tournament_id: str, wave: int) -> dict[int, list[int]]:
        data = logged_data(
            f"tournament-{tournament_id}",
            "type = %s AND data->'wave' = %s::jsonb ORDER BY version DESC",
            [WAVE_SEATED, str(int(wave))],
        )
        return {table["table"]: list(table["account_ids"]) for table in data["tables"]} if data else {}

    def registered(self, tournament_id: str) -> list[int]:
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute(
                f"SELECT type, (data->>'account_id')::bigint FROM rivals_event WHERE {STREAM_BOUND_SQL} "
                "AND type IN (%s, %s) ORDER BY version",
                [f"tournament-{tournament_id}"] * 2 + [PLAYER_REGISTERED, PLAYER_UNREGISTERED],
            )
            folded: dict[int, None] = {}
            for t, account in cur.fetchall():
                if t == PLAYER_REGISTERED:
                    folded[account] = None
                else:
                    folded.pop(account, None)
        return list(folded)


FACTS = FactSource(
    kind=TournamentFacts,
    live=LogTournamentFacts,
    folded=FoldedTournamentFacts,
    learns=frozenset({WAVE_SEATED, PLAYER_REGISTERED, PLAYER_UNREGISTERED}),
)

# --- who hears of what ---------------------------------------------------------------------------------


def _registered(event: Any, d: ev.PlayerRegisteredData, facts: Facts) -> Notices:
    tournament_id = event.stream_id.removeprefix("tournament-")  # its events are on its stream only
    data = {"tournament_id": tournament_id, "registered_at": d.get("registered_at")}
    return [(d["account_id"], "tournament_registered", data)]


def _unregistered(event: Any, d: ev.PlayerUnregisteredData, facts: Facts) -> Notices:
    tournament_id = event.stream_id.removeprefix("tournament-")
    if not d.get("reason"):  # ended for the player, not withdrawn
        return []
    data = {"tournament_id": tournament_id, "reason": d["reason"], "starts_at": d.get("starts_at")}
    return [(d["account_id"], "tournament_registration_ended", data)]


def _starting_soon(event: Any, d: ev.TournamentStartingSoonData, facts: Facts) -> Notices:
    data = {"tournament_id": d["tournament_id"], "starts_at": d["starts_at"], "title": d.get("title")}
    return [(a, "tournament_starting", data) for a in d["account_ids"]]


def _tables_opened(event: Any, d: ev.TablesOpenedData, facts: Facts) -> Notices:
    tournament_id = event.stream_id.removeprefix("tournament-")
    seats = facts.of(TournamentFacts).seating(tournament_id, d["wave"])
    out = []
    for table in d["tables"]:
        data = {
            "tournament_id": tournament_id,
            "wave": d["wave"],
            "table": table["table"],
            "round_id": table.get("round_id"),
            "match_id": table.get("match_id"),
        }
        out += [(a, "tournament_seated", data) for a in seats.get(table["table"], [])]
    return out


def _finalized(event: Any, d: ev.TournamentFinalizedData, facts: Facts) -> Notices:
    tournament_id = event.stream_id.removeprefix("tournament-")
    out: Notices = [
        (a, "tournament_finished", {"tournament_id": tournament_id, "place": place, "tp": tp, "prize": prize})
        for a, place, tp, prize in d["places"]
    ]
    trophy = d.get("trophy")
    if trophy:
        out.append((trophy["account_id"], "trophy_awarded", {"tournament_id": tournament_id, **trophy}))
    return out


def _cancelled(event: Any, d: ev.TournamentCancelledData, facts: Facts) -> Notices:
    tournament_id = event.stream_id.removeprefix("tournament-")
    data = {"tournament_id": tournament_id, "reason": d.get("reason")}
    return [(a, "tournament_cancelled", data) for a in facts.of(TournamentFacts).registered(tournament_id)]


TOLD = {
    PLAYER_REGISTERED: _registered,
    PLAYER_UNREGISTERED: _unregistered,
    TOURNAMENT_STARTING_SOON: _starting_soon,
    TABLES_OPENED: _tables_opened,
    TOURNAMENT_FINALIZED: _finalized,
    TOURNAMENT_CANCELLED: _cancelled,
}

"""Who hears of the queue's, the duels' and the rounds' events, and what they read (API.md
"Notifications"; registered in ``rivals.notices`` from the app's ``ready()``), with the facts
these notices need of earlier events: a duel's two accounts, a ticket's owner."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rivals.matches import events as ev
from rivals.matches.events import (
    DUEL_ACCEPTED,
    DUEL_CHALLENGED,
    DUEL_DECLINED,
    QUEUE_JOINED,
    QUEUE_MATCHED,
    ROUND_SCHEDULED,
)
from rivals.notices import Facts, FactSource, Notices, logged_data

# --- the data of each notification (rivals.notification_types) ---------------------------------------


class DuelChallengedData(serializers.Serializer):
    duel_id = serializers.UUIDField()
    challenger = serializers.IntegerField(help_text="the challenger's account id")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="when the challenge lapses (R-19)")


class DuelAcceptedData(serializers.Serializer):
    duel_id = serializers.UUIDField()
    match_id = serializers.UUIDField(allow_null=True, help_text="the duel's match: its round follows")


class DuelDeclinedData(serializers.Serializer):
    duel_id = serializers.UUIDField()
    by = serializers.ChoiceField(
        choices=["opponent", "challenger", "system"],
        help_text="who ended it: the opponent declined, the challenger withdrew, or the server (R-38)",
    )
    reason = serializers.CharField(allow_null=True, help_text="the server's reason (account_suspended …) or null")


class MatchFoundData(serializers.Serializer):
    ticket_id = serializers.UUIDField()
    match_id = serializers.UUIDField(help_text="comes before the match's round_started")


class RoundStartedData(serializers.Serializer):
    round_id = serializers.UUIDField()
    match_id = serializers.UUIDField()
    index = serializers.IntegerField(help_text="1 … 3 (an Arena's rounds, R-20)")
    mode = serializers.CharField(help_text="quick, duel, arena or tournament")
    starts_at = serializers.DateTimeField()


SHAPES = {
    "duel_challenged": DuelChallengedData,
    "duel_accepted": DuelAcceptedData,
    "duel_declined": DuelDeclinedData,
    "match_found": MatchFoundData,
    "round_started": RoundStartedData,
}

# --- the facts: a duel's accounts, a ticket's owner --------------------------------------------------


class MatchFacts:
    """A duel's two accounts, a ticket's owner."""

    def duel(self, duel_id: str) -> tuple[int, int] | None:
        raise NotImplementedError

    def ticket_owner(self, ticket_id: str) -> int | None:
        raise NotImplementedError


class FoldedMatchFacts(MatchFacts):
    """Folded from the log in position order (the rebuild)."""

    def __init__(self) -> None:
        self.duels: dict[str, tuple[int, int]] = {}
        self.tickets: dict[str, int] = {}

    def learn(self, event: Any) -> None:
        d = event.data
        if event.type == QUEUE_JOINED:
            self.tickets[d["ticket_id"]] = d["account_id"]
        elif event.type == DUEL_CHALLENGED:
            self.duels[d["duel_id"]] = (d["challenger_id"], d["opponent_id"])

    def duel(self, duel_id: str) -> tuple[int, int] | None:
        return self.duels.get(duel_id)

    def ticket_owner(self, ticket_id: str) -> int | None:
        return self.tickets.get(ticket_id)


class LogMatchFacts(MatchFacts):
    """Read from the log (the first event of the duel's or the ticket's stream), inside the
    append's transaction (live)."""

    @staticmethod
    def _first(stream_id: str) -> dict[str, Any] | None:
        return logged_data(stream_id, "version = 1", [])

    def duel(self, duel_id: str) -> tuple[int, int] | None:
        first = self._first(f"duel-{duel_id}")
        return (first["challenger_id"], first["opponent_id"]) if first else None

    def ticket_owner(self, ticket_id: str) -> int | None:
        first = self._first(f"queue-{ticket_id}")
        return first["account_id"] if first else None


FACTS = FactSource(
    kind=MatchFacts, live=LogMatchFacts, folded=FoldedMatchFacts, learns=frozenset({QUEUE_JOINED, DUEL_CHALLENGED})
)

# --- who hears of what ---------------------------------------------------------------------------------


def _duel_challenged(event: Any, d: ev.DuelChallengedData, facts: Facts) -> Notices:
    data = {"duel_id": d["duel_id"], "challenger": d["challenger_id"], "expires_at": d.get("expires_at")}
    return [(d["opponent_id"], "duel_challenged", data)]


def _duel_accepted(event: Any, d: ev.DuelAcceptedData, facts: Facts) -> Notices:
    pair = facts.of(MatchFacts).duel(d["duel_id"])
    if pair is None:
        return []
    return [(pair[0], "duel_accepted", {"duel_id": d["duel_id"], "match_id": d.get("match_id")})]


def _duel_declined(event: Any, d: ev.DuelDeclinedData, facts: Facts) -> Notices:
    pair = facts.of(MatchFacts).duel(d["duel_id"])
    if pair is None:
        return []
    challenger, opponent = pair
    by = d.get("by")
    data = {"duel_id": d["duel_id"], "by": by, "reason": d.get("reason")}
    # the other party hears of it: a decline by the opponent, a withdrawal by the challenger;
    # an end by the system reaches both
    to = {"opponent": [challenger], "challenger": [opponent]}.get(by or "", [challenger, opponent])
    return [(a, "duel_declined", data) for a in to]


def _queue_matched(event: Any, d: ev.QueueMatchedData, facts: Facts) -> Notices:
    # version 2 names the ticket's owner; version 1's is its QueueJoined's
    owner = d.get("account_id") or facts.of(MatchFacts).ticket_owner(d["ticket_id"])
    return [(owner, "match_found", {"ticket_id": d["ticket_id"], "match_id": d["match_id"]})] if owner else []


def _round_scheduled(event: Any, d: ev.RoundScheduledData, facts: Facts) -> Notices:
    data = {k: d.get(k) for k in ("round_id", "match_id", "index", "mode", "starts_at")}
    return [(a, "round_started", data) for a in d["players"]]


TOLD = {
    DUEL_CHALLENGED: _duel_challenged,
    DUEL_ACCEPTED: _duel_accepted,
    DUEL_DECLINED: _duel_declined,
    QUEUE_MATCHED: _queue_matched,
    ROUND_SCHEDULED: _round_scheduled,
}

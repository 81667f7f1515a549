"""Which event notifies whom (API.md "Notifications"): one pure mapping, used live (inside the
append's transaction) and by the rebuild. Events that do not name their accounts are completed by
``Facts`` — earlier events of the log (a ticket's ``QueueJoined``, a duel's ``DuelChallenged``, a
wave's ``WaveSeated``, a tournament's registrations) — read from the log live, folded in memory by
the rebuild: never another projection's tables, so the order of the rebuild does not matter."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

from rivals.player_notice import notice_data

# PointsAwarded sources that are prizes (R-12 Quick Match points, R-20 Arena, R-26 tournaments,
# P-5 pots); daily bonuses and levels are not prizes.
PRIZE_SOURCES = frozenset({"quick_match", "arena", "tournament_prize", "pool_pot"})

# the event types read for notifications, and those the rebuild's facts fold
NOTIFYING = frozenset(
    {
        "DuelChallenged",
        "DuelAccepted",
        "DuelDeclined",
        "QueueMatched",
        "RoundScheduled",
        "PlayerRegistered",
        "PlayerUnregistered",
        "TournamentStartingSoon",
        "TablesOpened",
        "TournamentFinalized",
        "TournamentCancelled",
        "PointsAwarded",
        "JokersChanged",
        "DisplayNameReset",
        "ClubRenamed",
        "AccountSuspended",
        "AccountSuspensionLifted",
        "RatingsUpdated",
    }
)
FACT_TYPES = frozenset({"QueueJoined", "DuelChallenged", "WaveSeated", "PlayerRegistered", "PlayerUnregistered"})
OPERATOR_CHANGES = ("operator_grant", "operator_correction")  # JokersChanged reasons an operator gives
OPERATOR_ONLY = frozenset({"note", "reason_code", "message"})  # the note; the rest is said by notice_data

# the notification types made here and the shape of each one's data: rivals.live.notice_shapes


class Facts(Protocol):
    def duel(self, duel_id: str) -> tuple[int, int] | None: ...
    def ticket_owner(self, ticket_id: str) -> int | None: ...
    def seating(self, tournament_id: str, wave: int) -> dict[int, list[int]]: ...
    def registered(self, tournament_id: str) -> list[int]: ...


def _suffix(stream_id: str, prefix: str) -> str:
    return stream_id[len(prefix) :] if stream_id.startswith(prefix) else ""


def _account_of(stream_id: str) -> int | None:
    tail = _suffix(stream_id, "account-")
    return int(tail) if tail.isdigit() else None


def _rating_changed(d: dict, p: dict) -> dict[str, Any]:
    from rivals.ratings.skill import Skill, figure

    before = Skill(p["mu_before"], p["sigma_before"]).ordinal
    after = Skill(p["mu_after"], p["sigma_after"]).ordinal
    return {
        "result": d["result"],
        "mode": d["mode"],
        "place": p["place"],
        "mu": p["mu_after"],
        "sigma": p["sigma_after"],
        "ordinal": figure(after) / 100,
        "ordinal_before": figure(before) / 100,
    }


Notices = list[tuple[int, str, dict[str, Any]]]


def _duel_challenged(event, d, facts: Facts) -> Notices:
    data = {"duel_id": d["duel_id"], "challenger": d["challenger_id"], "expires_at": d.get("expires_at")}
    return [(d["opponent_id"], "duel_challenged", data)]


def _duel_answered(event, d, facts: Facts) -> Notices:
    pair = facts.duel(d["duel_id"])
    if pair is None:
        return []
    challenger, opponent = pair
    if event.type == "DuelAccepted":
        return [(challenger, "duel_accepted", {"duel_id": d["duel_id"], "match_id": d.get("match_id")})]
    by = d.get("by")
    data = {"duel_id": d["duel_id"], "by": by, "reason": d.get("reason")}
    # the other party hears of it: a decline by the opponent, a withdrawal by the challenger;
    # an end by the system reaches both
    to = {"opponent": [challenger], "challenger": [opponent]}.get(by, [challenger, opponent])
    return [(a, "duel_declined", data) for a in to]


def _queue_matched(event, d, facts: Facts) -> Notices:
    owner = facts.ticket_owner(d["ticket_id"])
    return [(owner, "match_found", {"ticket_id": d["ticket_id"], "match_id": d["match_id"]})] if owner else []


def _round_scheduled(event, d, facts: Facts) -> Notices:
    data = {k: d.get(k) for k in ("round_id", "match_id", "index", "mode", "starts_at")}
    return [(a, "round_started", data) for a in d["players"]]


def _registered(event, d, facts: Facts) -> Notices:
    tournament_id = _suffix(event.stream_id, "tournament-")
    if not tournament_id:
        return []
    data = {"tournament_id": tournament_id, "registered_at": d.get("registered_at")}
    return [(d["account_id"], "tournament_registered", data)]


def _unregistered(event, d, facts: Facts) -> Notices:
    tournament_id = _suffix(event.stream_id, "tournament-")
    if not tournament_id or not d.get("reason"):  # ended for the player, not withdrawn
        return []
    data = {"tournament_id": tournament_id, "reason": d["reason"], "starts_at": d.get("starts_at")}
    return [(d["account_id"], "tournament_registration_ended", data)]


def _starting_soon(event, d, facts: Facts) -> Notices:
    data = {"tournament_id": d["tournament_id"], "starts_at": d["starts_at"], "title": d.get("title")}
    return [(a, "tournament_starting", data) for a in d["account_ids"]]


def _tables_opened(event, d, facts: Facts) -> Notices:
    tournament_id = _suffix(event.stream_id, "tournament-")
    if not tournament_id:
        return []
    seats = facts.seating(tournament_id, d["wave"])
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


def _finalized(event, d, facts: Facts) -> Notices:
    tournament_id = _suffix(event.stream_id, "tournament-")
    if not tournament_id:
        return []
    out = [
        (a, "tournament_finished", {"tournament_id": tournament_id, "place": place, "tp": tp, "prize": prize})
        for a, place, tp, prize in d["places"]
    ]
    trophy = d.get("trophy")
    if trophy:
        out.append((trophy["account_id"], "trophy_awarded", {"tournament_id": tournament_id, **trophy}))
    return out


def _cancelled(event, d, facts: Facts) -> Notices:
    tournament_id = _suffix(event.stream_id, "tournament-")
    if not tournament_id:
        return []
    data = {"tournament_id": tournament_id, "reason": d.get("reason")}
    return [(a, "tournament_cancelled", data) for a in facts.registered(tournament_id)]


def _ratings_updated(event, d, facts: Facts) -> Notices:  # each player's new rating
    return [(p["account_id"], "rating_changed", _rating_changed(d, p)) for p in d["players"]]


def _points_awarded(event, d, facts: Facts) -> Notices:
    if d.get("source") not in PRIZE_SOURCES or not d.get("amount"):
        return []
    data = {"source": d["source"], "amount": d["amount"], "ref": d.get("ref")}
    return [(d["account_id"], "prize_awarded", data)]


def _club_renamed(event, d, facts: Facts) -> Notices:
    if not d.get("owner_id"):  # its owner chose the name (version 2 names the owner)
        return []
    data = {"club_id": d["club_id"], "name": d["name"], **notice_data(d, default_code="abusive_name")}
    return [(d["owner_id"], "club_renamed", data)]


def _to_account(kind: str, view) -> Callable[[Any, dict[str, Any], Facts], Notices]:
    """An event of an account's stream, told to its account (issue 40: what an operator did to the
    account tells the player the reason code and the message written for them, never the
    operator's note — rivals.player_notice)."""

    def told(event, d, facts: Facts) -> Notices:
        account = _account_of(event.stream_id)
        return [] if account is None else [(account, kind, view(d))]

    return told


# the event types that notify someone, each with who and what
_NOTICES: dict[str, Callable[[Any, dict[str, Any], Facts], Notices]] = {
    "DuelChallenged": _duel_challenged,
    "DuelAccepted": _duel_answered,
    "DuelDeclined": _duel_answered,
    "QueueMatched": _queue_matched,
    "RoundScheduled": _round_scheduled,
    "PlayerRegistered": _registered,
    "PlayerUnregistered": _unregistered,
    "TournamentStartingSoon": _starting_soon,
    "TablesOpened": _tables_opened,
    "TournamentFinalized": _finalized,
    "TournamentCancelled": _cancelled,
    "RatingsUpdated": _ratings_updated,
    "PointsAwarded": _points_awarded,
    "ClubRenamed": _club_renamed,
    "JokersChanged": _to_account("jokers_changed", lambda d: _jokers(d)),
    # the neutral name an operator gave (the old one stays sealed)
    "DisplayNameReset": _to_account(
        "display_name_reset", lambda d: {"display_name": d["display_name"], **notice_data(d)}
    ),
    "AccountSuspended": _to_account("account_suspended", notice_data),
    "AccountSuspensionLifted": _to_account("account_suspension_lifted", notice_data),
}


def notices(event, facts: Facts) -> Notices:
    """``[(account_id, notification type, data)]`` for one event (none for most)."""
    told = _NOTICES.get(event.type)
    return told(event, event.data, facts) if told else []


def _jokers(d: dict[str, Any]) -> dict[str, Any]:
    """A joker change as the player reads it: the delta, the reason and its reference (a game, a
    day …); an operator's grant or correction says its reason code (a correction made before
    there were codes: ``correction``) and message, never the operator's note."""
    data = {k: v for k, v in d.items() if k not in OPERATOR_ONLY}
    if d.get("reason") in OPERATOR_CHANGES:
        default = "correction" if d["reason"] == "operator_correction" else "other"
        data.update(notice_data(d, default_code=default))
    return data


class FoldedFacts:
    """The facts folded from the log in position order (the rebuild's pass)."""

    def __init__(self) -> None:
        self.duels: dict[str, tuple[int, int]] = {}
        self.tickets: dict[str, int] = {}
        self.seats: dict[tuple[str, int], dict[int, list[int]]] = {}
        self.registrations: dict[str, dict[int, None]] = defaultdict(dict)

    def learn(self, event) -> None:
        t, d = event.type, event.data
        if t == "QueueJoined":
            self.tickets[d["ticket_id"]] = d["account_id"]
        elif t == "DuelChallenged":
            self.duels[d["duel_id"]] = (d["challenger_id"], d["opponent_id"])
        elif t == "WaveSeated":
            tid = _suffix(event.stream_id, "tournament-")
            self.seats[(tid, d["wave"])] = {row["table"]: list(row["account_ids"]) for row in d["tables"]}
        elif t == "PlayerRegistered":
            self.registrations[_suffix(event.stream_id, "tournament-")][d["account_id"]] = None
        elif t == "PlayerUnregistered":
            self.registrations[_suffix(event.stream_id, "tournament-")].pop(d["account_id"], None)

    def duel(self, duel_id):
        return self.duels.get(duel_id)

    def ticket_owner(self, ticket_id):
        return self.tickets.get(ticket_id)

    def seating(self, tournament_id, wave):
        return self.seats.get((tournament_id, wave), {})

    def registered(self, tournament_id):
        return list(self.registrations.get(tournament_id, {}))


class LogFacts:
    """The same facts read from the log itself, inside the append's transaction (live)."""

    @staticmethod
    def _events(sql: str, params: list) -> list[dict]:
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute(sql, params)
            return [row[0] if isinstance(row[0], dict) else json.loads(row[0]) for row in cur.fetchall()]

    def duel(self, duel_id):
        rows = self._events("SELECT data FROM rivals_event WHERE stream_id = %s AND version = 1", [f"duel-{duel_id}"])
        return (rows[0]["challenger_id"], rows[0]["opponent_id"]) if rows else None

    def ticket_owner(self, ticket_id):
        rows = self._events(
            "SELECT data FROM rivals_event WHERE stream_id = %s AND version = 1", [f"queue-{ticket_id}"]
        )
        return rows[0]["account_id"] if rows else None

    def seating(self, tournament_id, wave):
        rows = self._events(
            "SELECT data FROM rivals_event WHERE stream_id = %s AND type = 'WaveSeated' AND data->'wave' = %s::jsonb "
            "ORDER BY version DESC LIMIT 1",
            [f"tournament-{tournament_id}", str(int(wave))],
        )
        return {row["table"]: list(row["account_ids"]) for row in rows[0]["tables"]} if rows else {}

    def registered(self, tournament_id):
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute(
                "SELECT type, (data->>'account_id')::bigint FROM rivals_event WHERE stream_id = %s "
                "AND type IN ('PlayerRegistered', 'PlayerUnregistered') ORDER BY version",
                [f"tournament-{tournament_id}"],
            )
            folded: dict[int, None] = {}
            for t, account in cur.fetchall():
                if t == "PlayerRegistered":
                    folded[account] = None
                else:
                    folded.pop(account, None)
        return list(folded)

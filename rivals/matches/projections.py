"""The projection of competitive play: matches, their players, rounds, queue tickets and duels.

One projection for all of them, so that ``reset`` deletes in the order the foreign keys need.
Every decision (deadlines, places, prizes) was taken by the services and is in the events, so a
replay needs no engine and no clock. The hot path (a round's pair) changes the locked ``Round``
instance the caller hands over in ``live`` and writes it once per intent (``flush``).
"""

from __future__ import annotations

from django.db.models import F
from django.utils.dateparse import parse_datetime

from rivals.matches.models import Duel, Match, MatchPlayer, QueueTicket, Round
from rivals.models import Event
from rivals.projections import Projection, defer_write
from rivals.rawsql import copy_insert
from rivals.rebuild import Table


def _dt(value):
    return parse_datetime(value) if value else None


class MatchesProjection(Projection):
    name = "matches"
    event_types = frozenset(
        {
            "MatchCreated",
            "MatchFinished",
            "RoundScheduled",
            "RoundEnded",
            "QueueJoined",
            "QueueMatched",
            "QueueLeft",
            "QueueExpired",
            "DuelChallenged",
            "DuelAccepted",
            "DuelDeclined",
            "DuelExpired",
            # a pair removed in a round's board moves the round's idle deadline
            "PairRemoved",
            "JokerUsed",
        }
    )
    uses_live = True
    tables = tuple(Table(m._meta.db_table) for m in (Match, MatchPlayer, Round, QueueTicket, Duel))
    PAIRS = frozenset({"PairRemoved", "JokerUsed"})
    rebuild_types = event_types - PAIRS

    def rebuild(self, log) -> None:
        """Every row folded in memory, then COPY. A round's pairs only move its idle deadline: only
        each round's last pair is read (the database finds it)."""
        matches: dict[str, Match] = {}
        players: dict[tuple[str, int], MatchPlayer] = {}
        rounds: dict[str, Round] = {}
        tickets: dict[str, QueueTicket] = {}
        duels: dict[str, Duel] = {}
        for event in log.events(self.rebuild_types):
            d, t = event.data, event.type
            if t == "RoundScheduled":
                rounds[d["round_id"]] = self._round(event)
            elif t == "RoundEnded":
                rnd = rounds[d["round_id"]]
                rnd.status, rnd.ended_at, rnd.end_reason = "ended", _dt(d["ended_at"]), d["reason"]
                rnd.result, rnd.version = d, event.version
                for row in d["results"]:
                    players[(d["match_id"], row["account_id"])].total_score += row["score"]
            elif t == "MatchCreated":
                match, seats = self._match(event)
                matches[d["match_id"]] = match
                for p in seats:
                    players[(d["match_id"], p.account_id)] = p
            elif t == "MatchFinished":
                match = matches[d["match_id"]]
                match.status, match.standings, match.prizes = "finished", d["standings"], d["prizes"]
                match.finished_at, match.version = _dt(d["finished_at"]), event.version
                prizes = {p["account_id"]: p["points"] for p in d["prizes"]}
                for row in d["standings"]:
                    p = players[(d["match_id"], row["account_id"])]
                    p.place, p.prize = row["place"], prizes.get(row["account_id"])
            elif t == "QueueJoined":
                tickets[d["ticket_id"]] = self._ticket(event)
            elif t == "DuelChallenged":
                duels[d["duel_id"]] = self._duel(event)
            else:  # a ticket or a duel closed
                model, pk, fields = self._closing(event)
                row = (tickets if model is QueueTicket else duels)[pk]
                for name, value in fields.items():
                    setattr(row, name, value)
        last_pairs = log.latest(self.PAIRS, "data->>'round_id'", where="data->>'round_id' IS NOT NULL")
        for round_id, at in last_pairs.items():
            rnd = rounds.get(round_id)
            if rnd is None:
                raise ValueError(f"pairs of round {round_id}, which was never scheduled")
            rnd.last_pair_at = at
            rnd.ends_at = rnd.deadline()[0]
        copy_insert(Match, list(matches.values()))
        copy_insert(MatchPlayer, list(players.values()))
        copy_insert(Round, list(rounds.values()))
        copy_insert(QueueTicket, list(tickets.values()))
        copy_insert(Duel, list(duels.values()))

    def reset(self) -> None:
        Duel.objects.all().delete()
        QueueTicket.objects.all().delete()
        Round.objects.all().delete()
        MatchPlayer.objects.all().delete()
        Match.objects.all().delete()

    def apply(self, event: Event, live: dict | None = None) -> None:
        handler = getattr(self, f"_on_{event.type}")
        handler(event, live)

    def flush(self, live: dict) -> None:
        if live.pop("round_dirty", False):  # the hot path: sent with the board's own UPDATE
            rnd = live["round"]
            defer_write(
                live,
                "UPDATE matches_round SET last_pair_at = %s, ends_at = %s WHERE id = %s",
                [rnd.last_pair_at, rnd.ends_at, rnd.pk],
            )

    # --- rounds ----------------------------------------------------------------------------------

    def _on_PairRemoved(self, event: Event, live: dict | None) -> None:
        round_id = event.data.get("round_id")
        if round_id is None:
            return  # a solo game
        rnd = (live or {}).get("round")
        if rnd is not None and str(rnd.pk) == round_id:
            rnd.last_pair_at = event.recorded_at
            rnd.ends_at = rnd.deadline()[0]
            live["round_dirty"] = True
            return
        rnd = Round.objects.get(pk=round_id)
        rnd.last_pair_at = event.recorded_at
        rnd.ends_at = rnd.deadline()[0]
        rnd.save(update_fields=["last_pair_at", "ends_at"])

    _on_JokerUsed = _on_PairRemoved  # a joker removes a pair too: the round is not idle

    @staticmethod
    def _round(event: Event) -> Round:
        d = event.data
        rnd = Round(
            id=d["round_id"],
            match_id=d["match_id"],
            index=d["index"],
            mode=d["mode"],
            players=d["players"],
            code=d["code"],
            layout=d["layout"],
            starts_at=_dt(d["starts_at"]),
            hard_ends_at=_dt(d["hard_ends_at"]),
            cutoff_at=_dt(d.get("cutoff_at")),
            version=event.version,
        )
        rnd.ends_at = rnd.deadline()[0]
        return rnd

    def _on_RoundScheduled(self, event: Event, live: dict | None) -> None:
        self._round(event).save(force_insert=True)

    def apply_many(self, events: list[Event]) -> None:
        """New matches and rounds in bulk (a tournament wave); anything else one by one."""
        if any(e.type not in ("MatchCreated", "RoundScheduled") for e in events):
            return super().apply_many(events)
        matches = [self._match(e) for e in events if e.type == "MatchCreated"]
        copy_insert(Match, [m for m, _ in matches])
        copy_insert(MatchPlayer, [p for _, players in matches for p in players])
        copy_insert(Round, [self._round(e) for e in events if e.type == "RoundScheduled"])

    def _on_RoundEnded(self, event: Event, live: dict | None) -> None:
        d = event.data
        rnd = (live or {}).get("round")
        fields = {
            "status": "ended",
            "ended_at": _dt(d["ended_at"]),
            "end_reason": d["reason"],
            "result": d,
            "version": event.version,
        }
        if rnd is not None and str(rnd.pk) == d["round_id"]:
            for name, value in fields.items():
                setattr(rnd, name, value)
        Round.objects.filter(pk=d["round_id"]).update(**fields)
        for row in d["results"]:
            MatchPlayer.objects.filter(match_id=d["match_id"], account_id=row["account_id"]).update(
                total_score=F("total_score") + row["score"]
            )

    # --- matches ---------------------------------------------------------------------------------

    @staticmethod
    def _match(event: Event) -> tuple[Match, list[MatchPlayer]]:
        d = event.data
        match = Match(
            id=d["match_id"],
            mode=d["mode"],
            rounds_total=d["rounds_total"],
            context=d.get("context") or {},
            code=d.get("code") or "",
            version=event.version,
            created_at=event.recorded_at,
        )
        return match, [MatchPlayer(match=match, account_id=a, seat=seat) for seat, a in enumerate(d["players"])]

    def _on_MatchCreated(self, event: Event, live: dict | None) -> None:
        match, players = self._match(event)
        match.save(force_insert=True)
        MatchPlayer.objects.bulk_create(players)

    def _on_MatchFinished(self, event: Event, live: dict | None) -> None:
        d = event.data
        Match.objects.filter(pk=d["match_id"]).update(
            status="finished",
            standings=d["standings"],
            prizes=d["prizes"],
            finished_at=_dt(d["finished_at"]),
            version=event.version,
        )
        prizes = {p["account_id"]: p["points"] for p in d["prizes"]}
        for row in d["standings"]:
            MatchPlayer.objects.filter(match_id=d["match_id"], account_id=row["account_id"]).update(
                place=row["place"], prize=prizes.get(row["account_id"])
            )

    # --- the queue and duels: open requests that close once ---------------------------------------

    @staticmethod
    def _ticket(event: Event) -> QueueTicket:
        d = event.data
        return QueueTicket(
            id=d["ticket_id"],
            account_id=d["account_id"],
            mode=d["mode"],
            created_at=event.recorded_at,
            expires_at=_dt(d["expires_at"]),
            version=event.version,
        )

    @staticmethod
    def _duel(event: Event) -> Duel:
        d = event.data
        return Duel(
            id=d["duel_id"],
            challenger_id=d["challenger_id"],
            opponent_id=d["opponent_id"],
            created_at=event.recorded_at,
            expires_at=_dt(d["expires_at"]),
            version=event.version,
        )

    _CLOSED = {
        "QueueMatched": "matched",
        "QueueLeft": "left",
        "QueueExpired": "expired",
        "DuelAccepted": "accepted",
        "DuelDeclined": "declined",
        "DuelExpired": "expired",
    }

    @classmethod
    def _closing(cls, event: Event) -> tuple[type, str, dict]:
        """The model, id and changed fields of the ticket or duel an event closes."""
        d, t = event.data, event.type
        # a withdrawal by the challenger, or the server's end of it (R-38: a party suspended or closed)
        status = "cancelled" if t == "DuelDeclined" and d.get("by") in ("challenger", "system") else cls._CLOSED[t]
        fields = {"status": status, "closed_at": event.recorded_at, "version": event.version}
        if t in ("QueueMatched", "DuelAccepted"):
            fields["match_id"] = d["match_id"]
        if t.startswith("Queue"):
            return QueueTicket, d["ticket_id"], fields
        return Duel, d["duel_id"], fields

    def _on_QueueJoined(self, event: Event, live: dict | None) -> None:
        self._ticket(event).save(force_insert=True)

    def _on_DuelChallenged(self, event: Event, live: dict | None) -> None:
        self._duel(event).save(force_insert=True)

    def _closed(self, event: Event, live: dict | None) -> None:
        model, pk, fields = self._closing(event)
        model.objects.filter(pk=pk).update(**fields)

    _on_QueueMatched = _on_QueueLeft = _on_QueueExpired = _closed
    _on_DuelAccepted = _on_DuelDeclined = _on_DuelExpired = _closed


matches_projection = MatchesProjection()

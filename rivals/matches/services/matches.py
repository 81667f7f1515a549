"""Matches: a group of players and its rounds — Quick Match (R-12), Duel (R-19), Arena (R-20) and
the tables of tournaments (R-23; tournaments award their own TP and prizes).

A match is the stream ``match-<id>``: ``MatchCreated``, then ``MatchFinished`` with the standings
and prizes once its last round has ended. Prizes are ``PointsAwarded`` (sources ``quick_match``
and ``arena``) with one award key per match and account: exactly once, in the transaction of the
last ``RoundEnded``; so is the match's rating (R-41, ``RatingsUpdated``: ``rivals.ratings``).
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rivals.deals.services import SecretDeal, deal_new
from rivals.engine import scoring
from rivals.errors import Invalid
from rivals.eventstore import event_append, event_append_new_streams
from rivals.matches.events import match_created, match_finished
from rivals.matches.models import Match, Round
from rivals.matches.services.round_open import pairs_removed, round_schedule, round_streams
from rivals.models import Account
from rivals.points.services import points_award
from rivals.projections import LiveRows
from rivals.ratings.services import ratings_update

ROUNDS = {"quick": 1, "duel": 1, "arena": 3, "tournament": 1}
PLAYERS = {"quick": (2, 2), "duel": (2, 2), "arena": (4, 4), "tournament": (2, 4)}
ARENA_BREAK = timedelta(seconds=10)
PRIZE_SOURCES = {"quick": "quick_match", "arena": "arena"}  # R-33; duels and tables award none here


def match_create(
    *,
    mode: str,
    account_ids: list[int],
    context: dict | None = None,
    cutoff_at: datetime | None = None,
    starts_at: datetime | None = None,
    now: datetime | None = None,
    code: str | None = None,
    match_id: uuid.UUID | None = None,
) -> Match:
    """A match of ``mode`` for ``account_ids`` (seat order) and its first round, starting at
    ``starts_at`` (default now). ``cutoff_at`` cuts every round at that instant (R-17: a
    tournament's end time). ``code`` deals every round of the match that game code (operators,
    tests), with one salt (R-40); by default each round is a fresh deal. ``match_id``: the id the
    caller already announced (a queue's ``QueueMatched``, a duel's ``DuelAccepted``, appended
    first so that a player hears of the match before its first round: API.md Notifications)."""
    ((match_id, _),) = matches_create(
        mode=mode,
        match_ids=[match_id] if match_id else None,
        tables=[(account_ids, context)],
        cutoff_at=cutoff_at,
        starts_at=starts_at,
        now=now,
        secret=deal_new(code=code) if code else None,
    )
    return Match.objects.get(pk=match_id)


def matches_create(
    *,
    mode: str,
    tables: list[tuple[list[int], dict | None]],
    cutoff_at: datetime | None = None,
    starts_at: datetime | None = None,
    now: datetime | None = None,
    secret: SecretDeal | None = None,
    match_ids: list[uuid.UUID] | None = None,
    accounts_known: bool = False,
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """Many matches at once — e.g. every table of a tournament wave: ``tables`` is
    ``[(account_ids, context)]``; returns ``[(match_id, round_id)]`` in the same order. All
    their streams (match, round, boards) are opened in a few statements and projected in bulk;
    each round's end check is armed after commit. ``secret``: one deal every round of these
    matches plays (a wave's; R-40: secret until no match plays it), else a fresh deal per round.
    ``accounts_known``: the players are rows the caller read (the queue's tickets' accounts), not
    ids to check. Its one write is the event store's bulk append (a transaction of its own, or
    part of the caller's): no savepoint of its own, and a refused input is refused before it."""
    if mode not in ROUNDS:
        raise Invalid(f"unknown match mode {mode!r}", details={"mode": [f"one of {sorted(ROUNDS)}"]})
    low, high = PLAYERS[mode]
    groups = [[int(a) for a in ids] for ids, _ in tables]
    for ids in groups:
        if not low <= len(ids) <= high or len(set(ids)) != len(ids):
            raise Invalid(
                f"a {mode} match needs {low}–{high} distinct players",
                details={"players": [f"{low}–{high} distinct account ids"]},
            )
    everyone = {a for ids in groups for a in ids}
    if not accounts_known and Account.objects.filter(pk__in=everyone).count() != len(everyone):
        raise Invalid("unknown account in the players", details={"players": ["unknown account ids"]})
    now = now or timezone.now()
    starts_at = starts_at or now
    streams, out, rounds = [], [], []
    for i, (ids, (_, context)) in enumerate(zip(groups, tables, strict=True)):
        match_id = match_ids[i] if match_ids else uuid.uuid4()
        created = match_created(
            match_id=match_id,
            mode=mode,
            players=ids,
            rounds_total=ROUNDS[mode],
            context=context,
            **(secret.event_fields() if secret else {"code": None, "salt": None, "commitment": None}),
        )
        streams.append((f"match-{match_id}", "match", [created]))
        rnd, round_streams_ = round_streams(
            match_id=match_id,
            mode=mode,
            index=1,
            account_ids=ids,
            starts_at=starts_at,
            cutoff_at=cutoff_at,
            secret=secret,
        )
        streams += round_streams_
        rounds.append(rnd)
        out.append((match_id, rnd.pk))
    event_append_new_streams(streams=streams, actor="system", now=now)
    from rivals.matches.tasks import schedule_round_checks

    schedule_round_checks([(rnd.pk, rnd.ends_at) for rnd in rounds])
    return out


def match_after_round(*, match: Match, rnd: Round, now: datetime, locked_players: dict | None = None) -> None:
    """After a round's end (its transaction; the match row is locked): the next round of an arena
    after its break, or the match's standings and prizes. ``locked_players``: the match's players as the
    round's end locked them (``LiveRows.match_players``), stepped again rather than read again."""
    if rnd.index < match.rounds_total:
        # Decision: the 10-second break counts from the moment the end is recorded, so a
        # late end (a dead worker) never starts the next round in the past.
        round_schedule(
            match=match,
            index=rnd.index + 1,
            account_ids=list(rnd.players),
            starts_at=now + ARENA_BREAK,
            cutoff_at=rnd.cutoff_at,
            now=now,
            # a match's fixed deal keeps its salt (a match made before R-40 has none: a fresh one)
            secret=SecretDeal(code=match.code, salt=match.salt or deal_new().salt) if match.code else None,
        )
        return
    # a match of one round (Quick Match, Duel, a table) has this round's result only
    rounds = [rnd] if match.rounds_total == 1 else list(Round.objects.filter(match=match).order_by("index"))
    results = [r.result if r.pk != rnd.pk else rnd.result for r in rounds]
    players = list(rnd.players)
    standings, prizes = match_standings(
        mode=match.mode, players=players, results=results, ineligible=Account.objects.restricted_ids(players)
    )
    ended_at = results[-1]["ended_at"]
    event_append(
        stream_id=match.stream_id,
        stream_type="match",
        expected_version=match.version,
        actor="system",
        now=now,
        events=[match_finished(match_id=match.pk, standings=standings, prizes=prizes, finished_at=ended_at)],
        live=LiveRows(match=match, match_players=locked_players),  # the locked rows: read no more
    )
    # every finished match is rated once (a tournament table too: its places are the round's,
    # R-18 as R-24 orders them), in this transaction — whoever ended the last round
    ratings_update(
        result=f"match:{match.pk}",
        mode=match.mode,
        players=[(row["account_id"], row["place"], row["pairs_removed"] == 0) for row in _in_seats(standings, players)],
        at=parse_datetime(ended_at),
        now=now,
    )
    source = PRIZE_SOURCES.get(match.mode)
    for prize in prizes:
        if source and prize["points"] > 0:
            points_award(
                account=prize["account_id"],
                amount=prize["points"],
                source=source,
                key=f"{source}:{match.pk}:{prize['account_id']}",
                at=rnd.ended_at,
                ref={"match_id": str(match.pk)},
            )


def _in_seats(standings: list[dict], players: list[int]) -> list[dict]:
    by_account = {row["account_id"]: row for row in standings}
    return [by_account[a] for a in players]


def match_standings(
    *, mode: str, players: list[int], results: list[dict], ineligible: Collection[int] = ()
) -> tuple[list[dict], list[dict]]:
    """Standings and prizes of a finished match from its rounds' results.

    One round (Quick Match, Duel, a table): the round's places (R-18); Quick Match points by
    R-12. Arena: places by the sum of the three round scores, prizes 80 / 40 / 20 / 0 shared by
    tied players, rounded down (R-20). Standings are in place order, ties in seat order.

    R-18a: a player who removed no pair in the whole match earns nothing (their share is
    computed and not paid). R-38: ``ineligible`` accounts (suspended or closed when the match
    ends) keep their place and receive nothing; their share is not passed on either."""
    totals = dict.fromkeys(players, 0)
    completed = dict.fromkeys(players, False)
    removed = dict.fromkeys(players, 0)
    for result in results:
        for row in result["results"]:
            a = row["account_id"]
            totals[a] += row["score"]
            completed[a] = completed[a] or row["completed"]
            removed[a] += pairs_removed(row)
    if len(results) == 1:
        places = {row["account_id"]: row["place"] for row in results[0]["results"]}
    else:
        ranked = scoring.competition_places([totals[a] for a in players])
        places = dict(zip(players, ranked, strict=True))
    paid = [removed[a] > 0 and a not in ineligible for a in players]
    if mode == "quick":
        points = scoring.quick_match_points([(completed[a], totals[a]) for a in players], paid)
    elif mode == "arena":
        points = scoring.arena_prizes([totals[a] for a in players], paid)
    else:
        points = None
    standings = sorted(
        (
            {
                "account_id": a,
                "place": places[a],
                "score": totals[a],
                "completed": completed[a],
                "pairs_removed": removed[a],
            }
            for a in players
        ),
        key=lambda row: row["place"],
    )
    prizes = [] if points is None else [{"account_id": a, "points": p} for a, p in zip(players, points, strict=True)]
    return standings, prizes

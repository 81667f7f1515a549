"""Opening a round: its streams (``RoundScheduled`` and one board per player) and, for a running
match, its schedule with the end check armed. Matches open rounds here; the round's clock, end and
result are ``rivals.matches.services.rounds``, which continues the match after a round's end
(``matches.match_after_round``) — so this module is what both import, and neither imports the
other back."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from rivals import engine
from rivals.deals.services import SecretDeal, deal_new
from rivals.eventstore import event_append_new_streams
from rivals.games.services import new_board
from rivals.matches.events import round_scheduled
from rivals.matches.models import ROUND_DURATION, Match, Round

STREAM_TYPE = "round"


def round_streams(
    *,
    match_id,
    mode: str,
    index: int,
    account_ids: list[int],
    starts_at: datetime,
    cutoff_at: datetime | None,
    secret: SecretDeal | None = None,
) -> tuple[Round, list]:
    """The new streams of one round: ``RoundScheduled`` and a ``GameStarted`` board of the round's
    deal per player. ``secret``: the deal shared with other rounds (a tournament wave's, a match's
    fixed deal) with its salt; else a fresh deal of the round's own (R-40: from the CSPRNG, its
    commitment fixed now). Returns the round as it will be (not saved) and the
    ``(stream_id, stream_type, events)`` to append."""
    round_id = uuid.uuid4()
    secret = secret or deal_new()
    deal = engine.deal_from_code(secret.code)
    scheduled = round_scheduled(
        round_id=round_id,
        match_id=match_id,
        index=index,
        mode=mode,
        players=account_ids,
        code=deal.code,
        salt=secret.salt,
        commitment=secret.commitment,
        layout=deal.layout.id,
        starts_at=starts_at,
        hard_ends_at=starts_at + ROUND_DURATION,
        cutoff_at=cutoff_at,
    )
    streams = [(f"round-{round_id}", STREAM_TYPE, [scheduled])]
    for account_id in account_ids:
        stream_id, started = new_board(
            account_id=account_id, mode=mode, deal=deal, round_id=round_id, starts_at=starts_at, salt=secret.salt
        )
        streams.append((stream_id, "game", [started]))
    rnd = Round(id=round_id, starts_at=starts_at, hard_ends_at=starts_at + ROUND_DURATION, cutoff_at=cutoff_at)
    rnd.ends_at = rnd.deadline()[0]
    return rnd, streams


def round_schedule(
    *,
    match: Match,
    index: int,
    account_ids: list[int],
    starts_at: datetime,
    cutoff_at: datetime | None,
    now: datetime,
    secret: SecretDeal | None = None,
) -> Round:
    """Schedule one round of a running match (an arena's next round) and arm its end check."""
    rnd, streams = round_streams(
        match_id=match.pk,
        mode=match.mode,
        index=index,
        account_ids=account_ids,
        starts_at=starts_at,
        cutoff_at=cutoff_at,
        secret=secret,
    )
    event_append_new_streams(streams=streams, actor="system", now=now)
    from rivals.matches.tasks import schedule_round_check

    schedule_round_check(round_id=rnd.pk, at=rnd.ends_at)
    return Round.objects.get(pk=rnd.pk)


def pairs_removed(row: Mapping[str, Any]) -> int:
    """The pairs a player removed in a round (a ``RoundEnded`` result row). Rows recorded before
    the field existed count as a player who took part (R-18a came later; their prizes are paid)."""
    return int(row.get("pairs_removed", 1))

"""Rating a result (R-41): one ``RatingsUpdated`` per finished result, exactly once.

Called in the transaction that writes the result (a match's ``MatchFinished``, whoever ends its
last round: an intent, a read, the timer task, the sweeper, a job after an outage). The result's
key names its stream (``rating-<key>``): the players' ratings are locked (advisory locks in
account order, so that two results of one player are rated one after the other, each from the
other's after), and a stream that exists already means the result was rated — a second write
does nothing. The package computes; the event keeps its inputs and outputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from rivals.eventstore import event_append
from rivals.projections import LiveRows
from rivals.ratings import skill
from rivals.ratings.events import ratings_updated
from rivals.ratings.projections import ratings_locked

STREAM_TYPE = "rating"


def result_stream(result: str) -> str:
    return f"rating-{result}"


@transaction.atomic(savepoint=False)  # part of the result's transaction: no extra round trips
def ratings_update(
    *, result: str, mode: str, players: Sequence[tuple[int, int, bool]], at: datetime, now: datetime | None = None
) -> bool:
    """Rate the result ``result`` (``match:<id>``) once: ``players`` in seat order as
    ``(account_id, place, idle)`` — the result's places (ties equal) and R-18a's idle players,
    rated as last. Returns whether it was rated now (False: rated before, or nobody played)."""
    places = skill.rated_places(players)
    if places is None or len(players) < 2:
        return False
    rows, rated_before = ratings_locked([a for a, _, _ in players], stream=result_stream(result))
    if rated_before:
        return False
    before = [skill.Skill(rows[a].mu, rows[a].sigma) for a, _, _ in players]
    after = skill.rate(before, [places[a] for a, _, _ in players])
    event = ratings_updated(
        result=result,
        mode=mode,
        kind=skill.kind_of(len(players)),
        model=skill.MODEL_NAME,
        players=[
            {
                "account_id": a,
                "place": place,
                "idle": idle,
                "rated_place": places[a],
                "mu_before": b.mu,
                "sigma_before": b.sigma,
                "mu_after": s.mu,
                "sigma_after": s.sigma,
            }
            for (a, place, idle), b, s in zip(players, before, after, strict=True)
        ],
        rated_at=at,
    )
    event_append(
        stream_id=result_stream(result),
        stream_type=STREAM_TYPE,
        expected_version=0,
        actor="system",
        now=now or timezone.now(),
        events=[event],
        live=LiveRows(ratings=rows),
    )
    return True

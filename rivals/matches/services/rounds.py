"""Rounds (R-17, R-18): scheduling the players' boards, the server's clock, intents, the result.

The clock (R-17) ends a round at the first completion, 5 minutes after its start, 20 seconds
after the last pair any player removed (or after the start), or at the tournament's end time,
whichever comes first. A pair writes its own board only (issue 35): the idle deadline is derived
from the boards' own last pairs (``Round.clock_from``: the latest of them + 20 s) wherever it is
needed — the round's read, an intent, the timer task, the beat sweeper (in SQL:
``RoundQuerySet.with_deadline``) — never written on a pair, so the players of a round share no
lock while they play. ``Round.ends_at`` as stored is the deadline before any pair (a lower bound
of the current one). Time's decisions are applied three ways, all through ``round_end_if_due``:
every read and intent of the round first applies an end that is due; a Celery task runs at the
deadline (re-armed at the deadline pairs moved it to); a beat sweeper ends whatever a lost task
missed.

Exactly one ``RoundEnded`` per round: every end locks the round row, checks its status, then
locks every board of the round — waiting for the pairs in flight — and decides the deadline
from them; it appends with the round stream's expected version. Lock order: the round, then the
boards; a pair that cannot end the round locks its own board and nothing else of the round, and
reads the others as they were (their later pairs only move the deadline later). A pair that may
end the round — its board's last pair (a completion), an intent at or past the deadline, or
before the start — takes the end's order (round, then every board) from the start.

Decision (every player stuck): when every board of the round is stuck and nobody can still use
a joker (none in Quick Match; otherwise none left in the balance or 2 used), the round ends at
once (reason ``all_stuck``) instead of waiting for the 20-second rule — checked, after the pair
that left a board stuck, under the end's locks (taken after that pair's commit; inside an outer
transaction — an ``Idempotency-Key`` request — the round's lock is not waited for: whoever holds
it ends the round, else the idle rule does).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from rivals.engine.scoring import competition_places
from rivals.errors import NotFound
from rivals.eventstore import NewEvent, event_append
from rivals.games.events import game_ended
from rivals.games.models import Game
from rivals.games.services import MAX_JOKERS_PER_GAME
from rivals.matches import signals
from rivals.matches.events import round_ended
from rivals.matches.models import Match, Round
from rivals.matches.services.matches import match_after_round
from rivals.matches.services.round_open import STREAM_TYPE
from rivals.matches.services.round_reads import round_boards, round_row, round_with_boards
from rivals.models import Account
from rivals.projections import LiveRows


def round_read(*, account: Account, round_id, now: datetime | None = None) -> tuple[Round, list[Game]]:
    """A round and its boards as its player reads them — an end that is due is applied first
    (R-17: a client never sees a round that should be over)."""
    rnd, boards = round_with_boards(round_id, account=account)
    now = now or timezone.now()
    if rnd.status == "running" and now >= rnd.ends_at:
        round_end_if_due(round_id=rnd.pk, now=now, via="read")
        rnd, boards = round_with_boards(round_id, account=account)
    return rnd, boards


# --- the end (R-17, R-18) -------------------------------------------------------------------------


def round_end_if_due(*, round_id, now: datetime | None = None, via: str = "read") -> bool:
    """End the round if its deadline has passed. Idempotent: True only for the call that ended it.

    ``via`` (read / intent / task / sweeper) is kept in the event's metadata for operators; it
    never changes the result, which depends only on the boards at the deadline."""
    return round_end_or_clock(round_id=round_id, now=now, via=via)[0]


@transaction.atomic
def round_end_or_clock(*, round_id, now: datetime | None = None, via: str = "task") -> tuple[bool, Round | None]:
    """``round_end_if_due``, and the round as the check read it: ended by this call (True), else
    still running with its current deadline (``ends_at``, R-17) — what the timer task re-arms
    for, not read again — or over, or None when there is no such round."""
    now = now or timezone.now()
    try:
        rnd = round_row(round_id, lock=True)
    except NotFound:
        return False, None
    if rnd.status != "running":
        return False, rnd
    # the boards as they are: their pairs in flight can only move the deadline later, so a check
    # that is not due stops here without holding up a player
    if now < rnd.clock_from(round_boards(rnd)).ends_at:
        return False, rnd
    boards = round_boards(rnd, lock=True)  # waits for the pairs in flight: the deadline is theirs
    if now < rnd.clock_from(boards).ends_at:
        return False, rnd
    at, reason = rnd.deadline()
    round_end_locked(rnd, at=at, reason=reason, now=now, via=via, boards=boards)
    return True, rnd


@transaction.atomic
def round_end_now(*, round_id, actor: str, now: datetime | None = None) -> bool:
    """An operator's "end this round now": the result as it stands, with the operator as actor."""
    now = now or timezone.now()
    rnd = round_row(round_id, lock=True)
    if rnd.status != "running":
        return False
    boards = round_boards(rnd, lock=True)
    if now >= rnd.clock_from(boards).ends_at:  # the clock had already ended it: that end, not the operator's
        at, reason = rnd.deadline()
        round_end_locked(rnd, at=at, reason=reason, now=now, via="operator", boards=boards)
    else:
        round_end_locked(
            rnd, at=max(now, rnd.starts_at), reason="operator", now=now, actor=actor, via="operator", boards=boards
        )
    return True


def round_result(rnd: Round, boards: list[Game], *, at: datetime, reason: str) -> NewEvent:
    """The round's ``RoundEnded``. R-18: completion first, then score; equal (completion, score) share a place (1, 1, 3).
    Only a player who finished can have completed; a player who never played has 0.
    ``pairs_removed`` (by hand or with a joker; rounds have no undo) tells R-18a's idle players."""
    keys = [(g.status == "won", g.score) for g in boards]
    places = competition_places(keys)
    rows = []
    for g, place in zip(boards, places, strict=True):
        pairs_left = g.present_mask.bit_count() // 2
        rows.append(
            {
                "account_id": g.account_id,
                "place": place,
                "score": g.score,
                "completed": g.status == "won",
                "pairs_left": pairs_left,
                "pairs_removed": len(g.initial_faces) // 2 - pairs_left,
            }
        )
    rows.sort(key=lambda r: r["place"])  # stable: equal places stay in seat order
    return round_ended(
        round_id=rnd.pk, match_id=rnd.match_id, index=rnd.index, ended_at=at, reason=reason, results=rows
    )


def round_end_locked(
    rnd: Round,
    *,
    at: datetime,
    reason: str,
    now: datetime,
    actor: str = "system",
    via: str = "intent",
    boards: list[Game],
) -> dict:
    """Append the one ``RoundEnded`` (the round row is locked), end the unfinished boards, let the
    match go on, then tell the apps built on rounds (``round_ended``). ``boards``: the caller's
    locked boards (every end locks them after the round), changed in place."""
    ended = round_result(rnd, boards, at=at, reason=reason)
    result = ended.data
    live = LiveRows(round=rnd)
    event_append(
        stream_id=rnd.stream_id,
        stream_type=STREAM_TYPE,
        expected_version=rnd.version,
        actor=actor,
        now=now,
        events=[ended],
        live=live,
        metadata={"via": via},
    )
    play_ms = max(0, int((at - rnd.starts_at).total_seconds() * 1000))
    for game in boards:
        if game.status not in ("won", "ended"):
            event_append(
                stream_id=game.stream_id,
                stream_type="game",
                expected_version=game.version,
                actor=actor,
                now=now,
                live=LiveRows(game=game),
                events=[game_ended(reason="round_over", round_id=rnd.pk, play_ms=play_ms, score=game.score)],
            )
    match = Match.objects.select_for_update().get(pk=rnd.match_id)
    match_after_round(match=match, rnd=rnd, now=now, locked_players=live.match_players)
    signals.round_ended.send(sender=Round, round=rnd, match=match, result=result)
    return result


def nobody_can_play(rnd: Round, boards: list[Game]) -> bool:
    """Every board stuck, and no stuck player may still use a joker (R-9)."""
    if any(g.status != "stuck" for g in boards):
        return False
    if rnd.mode == "quick":
        return True
    may_joker = [g.account_id for g in boards if g.jokers_used < MAX_JOKERS_PER_GAME]
    return not Account.objects.filter(pk__in=may_joker, jokers__gt=0).exists()


def rounds_end_due(*, now: datetime | None = None) -> int:
    """Beat sweeper: end every running round whose deadline has passed (a lost task, a dead worker)."""
    now = now or timezone.now()
    due = Round.objects.due(now).order_by("deadline_at").values_list("pk", flat=True)
    return sum(round_end_if_due(round_id=pk, now=now, via="sweeper") for pk in list(due[:500]))


def round_board_of(*, account: Account, round_id) -> Game:
    """The caller's board of a round (404 for a round the account does not play)."""
    rnd = round_row(round_id, account=account)
    return Game.objects.get(round_id=rnd.pk, account=account)

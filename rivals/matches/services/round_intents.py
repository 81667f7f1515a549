"""A player's intent on their board of a round (R-17, R-38), on the round's clock — the hot path
of competitive play (issue 35: ``rivals.matches.services.rounds`` tells the clock and the locks).

A pair that cannot end the round locks its own board alone and reads the round and the other
boards' latest pair as they were (their later pairs only move the deadline later); one that may end it — its
board's last pair (a completion), an intent at or past the deadline, or before the start — takes
the end's locks (the round, then every board) from the start.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import connection, transaction
from django.utils import timezone

from rivals.errors import NotAllowed, NotFound, OutsideRoundTime
from rivals.games.services import INTENT_TYPES, game_intent_run
from rivals.games.services.modes import FINISHED
from rivals.intents import intent_envelope
from rivals.matches.models import Round
from rivals.matches.services.round_reads import round_boards, round_row, round_with_boards, round_with_own_board
from rivals.matches.services.rounds import nobody_can_play, round_end_locked
from rivals.models import Account
from rivals.romanian_time import iso_z

if TYPE_CHECKING:  # types only: the boards are read through round_reads
    from rivals.games.models import Game
    from rivals.games.services.intents import IntentResult


@dataclass
class RoundIntentResult:
    round: Round
    game: Game
    events: list = field(default_factory=list)
    # every player's board, the caller's included; None after a pair that read its own board alone
    # (issue 35): the whole answer reads them then (``round_view``), the compact one needs none
    boards: list[Game] | None = field(default_factory=list)
    # the caller's board before the intent (the compact answer names what changed: rivals.api.prefer)
    present_before: int = 0
    faces_before: list = field(default_factory=list)
    # set when the intent came after the end: the end is recorded (committed), the intent refused
    refused: NotAllowed | None = None
    now: datetime | None = None  # the intent's instant

    @classmethod
    def applied(
        cls, rnd: Round, game: Game, boards: list[Game] | None, result: IntentResult, now: datetime
    ) -> RoundIntentResult:
        """An accepted intent: ``result`` is the board's (``game_intent_run``)."""
        return cls(
            round=rnd,
            game=game,
            events=result.events,
            boards=boards,
            present_before=result.present_before,
            faces_before=result.faces_before,
            now=now,
        )


def _ms(delta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


class _Ending(Exception):
    """The pair's own-board path met an intent that may end the round: take the end's locks."""


_PAIR_KINDS = ("remove_pair", "joker")  # the intents that remove a pair, and so may complete a board


def round_intent_apply(*, account: Account, round_id, intent, now: datetime | None = None) -> RoundIntentResult:
    """Validate and apply one intent on the caller's board of a round, on the round's clock.

    Raises a ``DomainError`` (and writes nothing) when refused; an intent after the deadline ends
    the round first and is refused (R-38: outside the round's time). A pair that cannot end the
    round locks the caller's board alone (issue 35); one that may takes the end's locks."""
    kind, seq = intent_envelope(intent, INTENT_TYPES)
    try:
        with transaction.atomic():
            result = _own_board_intent(account=account, round_id=round_id, kind=kind, seq=seq, intent=intent, now=now)
    except _Ending:
        return _ending_intent(account=account, round_id=round_id, kind=kind, seq=seq, intent=intent, now=now)
    if result.game.status == "stuck":
        ended = _round_end_if_all_stuck(result.round.pk, now=result.now)
        if ended is not None:  # the answer tells the end: the round's and the boards' as recorded
            result.round, result.boards = ended
            result.game = next(g for g in result.boards if g.account_id == account.pk)
    return result


def _over(rnd: Round, game: Game, now: datetime) -> OutsideRoundTime:
    """R-38: an intent on a round already over is refused, saying by how much it came late."""
    return OutsideRoundTime(
        "the round is over",
        details={
            "status": "ended",
            "ended_at": iso_z(rnd.ended_at),
            "late_ms": _ms(now - rnd.ended_at),
            "round": str(rnd.pk),
            "game_id": str(game.pk),
        },
    )


def _own_board_intent(*, account: Account, round_id, kind: str, seq: int, intent, now) -> RoundIntentResult:
    rnd, game = round_with_own_board(round_id, account=account)
    now = now or timezone.now()  # once the board is locked: after every pair that held it
    if rnd.status == "ended":  # ended and committed (final): refused from this read, no lock taken
        raise _over(rnd, game, now)
    if (
        game.status in FINISHED  # the round is over (read running, ended since): every board ends with it
        or not rnd.starts_at <= now < rnd.ends_at  # the deadline as the boards tell it
        or (kind in _PAIR_KINDS and game.present_mask.bit_count() <= 2)  # the board's last pair
    ):
        raise _Ending
    result = game_intent_run(game=game, account=account, kind=kind, seq=seq, intent=intent, now=now)
    if game.status == "won":  # a pair that was not the last cannot complete a board
        raise AssertionError("a round's board completed outside the end's locks")
    # the round's clock as this pair leaves it: its board's new last pair beside the others' as read
    return RoundIntentResult.applied(rnd.clock_from([game], also=rnd.last_pair_at), game, None, result, now)


@transaction.atomic
def _ending_intent(*, account: Account, round_id, kind: str, seq: int, intent, now) -> RoundIntentResult:
    """An intent that may end the round, under the end's locks: the round, then every board."""
    rnd, boards = round_with_boards(round_id, account=account, lock=True)  # round first, then boards
    game = next(g for g in boards if g.account_id == account.pk)
    now = now or timezone.now()
    # an intent outside the round's time is refused and says by how much (fair-play review)
    where = {"round": str(rnd.pk), "game_id": str(game.pk)}
    if rnd.status == "ended":
        raise _over(rnd, game, now)
    if now >= rnd.ends_at:
        at, reason = rnd.deadline()
        round_end_locked(rnd, at=at, reason=reason, now=now, boards=boards)
        return RoundIntentResult(
            round=rnd,
            game=game,
            boards=boards,
            now=now,
            refused=OutsideRoundTime(
                "the round is over",
                details={"status": "ended", "ended_at": iso_z(at), "reason": reason, "late_ms": _ms(now - at), **where},
            ),
        )
    if now < rnd.starts_at:
        raise OutsideRoundTime(
            "the round has not started yet",
            details={"starts_at": iso_z(rnd.starts_at), "early_ms": _ms(rnd.starts_at - now), **where},
        )
    result = game_intent_run(game=game, account=account, kind=kind, seq=seq, intent=intent, now=now)
    rnd.clock_from(boards)
    if game.status == "won":  # the first completion ends the round
        round_end_locked(rnd, at=now, reason="completed", now=now, boards=boards)
    elif game.status == "stuck" and nobody_can_play(rnd, boards):
        round_end_locked(rnd, at=now, reason="all_stuck", now=now, boards=boards)
    return RoundIntentResult.applied(rnd, game, boards, result, now)


def _round_end_if_all_stuck(round_id, *, now: datetime) -> tuple[Round, list[Game]] | None:
    """After a pair that left its board stuck (committed): end the round if every board is stuck
    and nobody may use a joker (the decision in ``rounds``), at the last of those pairs; returns
    the ended round and its boards, or None."""
    outer = connection.in_atomic_block  # the caller's board stays locked: never wait for the round
    with transaction.atomic():
        try:
            rnd = round_row(round_id, lock=True, skip_locked=outer)
        except NotFound:
            return None
        if rnd.status != "running":
            return None
        boards = round_boards(rnd, lock=True)
        if not nobody_can_play(rnd, boards):
            return None
        rnd.clock_from(boards)
        round_end_locked(rnd, at=max(now, rnd.last_pair_at or now), reason="all_stuck", now=now, boards=boards)
        return rnd, boards

"""Fair play (R-38): plausibility signals that flag play for an operator's review, the review
itself, and suspension.

The signals come from the one intent entry point (``rivals.api.intents.IntentEndpoint``): after
an accepted intent its events are looked at (pairs faster than ``FAIRPLAY_FAST_PAIR_MS``), after
a refused one the refusal (too many refusals in a window; a round intent outside the round's time
beyond network latency). A flag refuses nothing: it is a ``FairPlayFlagged`` event on the
account's stream, raised at most once per account, kind and subject (a board, a round, a
window) — the database's unique key decides. Suspending is an operator's act
(``AccountSuspended``, with a reason): the account's intents are refused (403 ``forbidden``) and
it leaves rankings and leaderboards until ``AccountSuspensionLifted``.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from rivals.accounts.services import account_event
from rivals.errors import DomainError, NotAllowed, OutsideRoundTime, TooFast
from rivals.eventstore import STREAM_BOUND_SQL
from rivals.fairplay.events import (
    account_suspended,
    account_suspension_lifted,
    fair_play_flag_reviewed,
    fair_play_flagged,
)
from rivals.fairplay.models import FairPlayFlag
from rivals.fairplay.projections import flag_row
from rivals.games.events import PAIR_REMOVED
from rivals.games.models import RejectedIntent
from rivals.models import Account
from rivals.player_notice import notice_clean
from rivals.rawsql import execute_prepared
from rivals.signals import account_restricted
from rivals.text import clean_text

REVIEW_DECISIONS = ("dismissed", "confirmed")


def _rules() -> dict[str, Any]:
    return settings.RIVALS


def fairplay_flag(
    *,
    account_id: int,
    kind: str,
    subject: str,
    details: dict[str, Any],
    game_id: str | None = None,
    round_id: str | None = None,
    now: datetime | None = None,
) -> FairPlayFlag | None:
    """Raise one flag (``FairPlayFlagged``) unless this account, kind and subject has one; ``now``
    is the server clock of the play that raised it."""
    if FairPlayFlag.objects.filter(account_id=account_id, kind=kind, subject=subject).exists():
        return None
    flag_id = str(uuid.uuid4())
    flagged = fair_play_flagged(
        account_id=account_id,
        flag_id=flag_id,
        kind=kind,
        subject=subject,
        game_id=game_id,
        round_id=round_id,
        details=details,
    )
    try:
        with transaction.atomic():
            (event,) = account_event(Account(pk=account_id), flagged, actor="system", now=now)
    except IntegrityError:  # raised concurrently by another request: that one stands
        return None
    return flag_row(event)  # the row as the projection wrote it (not read back: issue 35)


# --- signals from intents ----------------------------------------------------------------------

_FLAGGED_BOARDS: OrderedDict[str, None] = OrderedDict()  # per process: boards known to be flagged
_FLAGGED_BOARDS_MAX = 10_000

# A prepared statement (``execute_prepared``: parsed and planned once per connection), bounded by
# the stream head's ``first_at`` (``rivals.eventstore.STREAM_BOUND_SQL``: ``stream_filter``'s bound
# in the same round trip): the executor prunes the log's monthly partitions older than the board
# (migration 0011) instead of probing every one. The type is tested as ``IS TRUE`` so that no plan reads the
# (type, position) index — every PairRemoved of the month — beside the stream's few events (the
# plan is made once per connection, on whatever statistics the tables had then).
_FAST_PAIRS_SQL = (
    f"SELECT (data->>'interval_ms')::bigint FROM rivals_event WHERE {STREAM_BOUND_SQL} "
    "AND (type = 'PairRemoved') IS TRUE AND (data->>'interval_ms')::bigint < %s ORDER BY version"
)


def _board_fast_pairs(
    *, account_id: int, stream_id: str, round_id: str | None, extra: int = 0, now: datetime | None = None
) -> None:
    if stream_id in _FLAGGED_BOARDS:
        return
    threshold, needed = _rules()["FAIRPLAY_FAST_PAIR_MS"], _rules()["FAIRPLAY_FAST_PAIRS"]
    with connection.cursor() as django_cursor:
        cur = execute_prepared(django_cursor, _FAST_PAIRS_SQL, [stream_id, stream_id, threshold])
        intervals = [row[0] for row in cur.fetchall()]
    if len(intervals) + extra < needed:
        return
    fairplay_flag(
        account_id=account_id,
        kind="fast_pairs",
        subject=stream_id,
        game_id=stream_id.removeprefix("game-"),
        round_id=round_id,
        now=now,
        details={
            "fast_pairs": len(intervals) + extra,
            "refused_too_fast": extra,
            "threshold_ms": threshold,
            "intervals_ms": intervals[:20],
        },
    )
    _FLAGGED_BOARDS[stream_id] = None
    while len(_FLAGGED_BOARDS) > _FLAGGED_BOARDS_MAX:
        _FLAGGED_BOARDS.popitem(last=False)


def fairplay_intent_accepted(*, account: Account, events) -> None:
    """Look at an accepted intent's events: pairs faster than the human minimum (R-38)."""
    threshold, needed = _rules()["FAIRPLAY_FAST_PAIR_MS"], _rules()["FAIRPLAY_FAST_PAIRS"]
    if not threshold:
        return
    for event in events:
        if event.type != PAIR_REMOVED:
            continue
        interval = event.data.get("interval_ms")
        if interval is None or interval >= threshold:
            continue
        # a board that has accepted fewer intents than the flag needs fast pairs cannot have them
        # yet: no need to read its events (a fast player's first pairs of every board)
        if event.data.get("seq", needed) < needed:
            continue
        _board_fast_pairs(
            account_id=account.pk,
            stream_id=event.stream_id,
            round_id=event.data.get("round_id"),
            now=event.recorded_at,
        )  # flagged at the instant of the pair


def fairplay_intent_refused(*, account: Account | None, exc: DomainError, now: datetime | None = None) -> None:
    """Look at a refused intent (already kept as a ``RejectedIntent``): too many refusals in a
    window, an intent outside a round's time, a pair refused as too fast."""
    if account is None or not account.is_authenticated:
        return
    now = now or timezone.now()
    rules = _rules()
    if isinstance(exc, OutsideRoundTime):
        off = max(exc.details.get("late_ms", 0), exc.details.get("early_ms", 0))
        if off > rules["FAIRPLAY_ROUND_GRACE_MS"]:
            fairplay_flag(
                account_id=account.pk,
                kind="outside_round_time",
                subject=f"round-{exc.details['round']}",
                round_id=exc.details["round"],
                game_id=exc.details.get("game_id"),
                now=now,
                details={k: v for k, v in exc.details.items() if k != "round"},
            )
    if isinstance(exc, TooFast) and rules["FAIRPLAY_FAST_PAIR_MS"] and exc.details.get("game_id"):
        _board_fast_pairs(
            account_id=account.pk,
            stream_id=f"game-{exc.details['game_id']}",
            round_id=exc.details.get("round_id"),
            extra=1,
            now=now,
        )
    window = rules["FAIRPLAY_REFUSED_WINDOW_S"]
    since = now - timedelta(seconds=window)
    refused = RejectedIntent.objects.filter(account=account, at__gte=since).count()
    if refused > rules["FAIRPLAY_REFUSED_MAX"]:
        bucket = int(now.timestamp() // window)
        fairplay_flag(
            account_id=account.pk,
            kind="refused_intents",
            subject=f"window-{bucket}",
            details={
                "refused": refused,
                "window_s": window,
                "max": rules["FAIRPLAY_REFUSED_MAX"],
                "since": since.isoformat(),
            },
            now=now,
        )


# --- operators ---------------------------------------------------------------------------------


@transaction.atomic
def fairplay_flag_review(*, flag: FairPlayFlag, decision: str, note: str, actor: str) -> FairPlayFlag:
    """An operator closes a flag as ``dismissed`` or ``confirmed`` (``FairPlayFlagReviewed``)."""
    if decision not in REVIEW_DECISIONS:
        raise NotAllowed(f"a review decides one of {REVIEW_DECISIONS}")
    flag = FairPlayFlag.objects.select_for_update().get(pk=flag.pk)
    if flag.status != "open":
        raise NotAllowed(f"the flag was already reviewed ({flag.status})")
    note = clean_text(note, field="note", max_length=300, min_length=0)
    reviewed = fair_play_flag_reviewed(account_id=flag.account_id, flag_id=flag.pk, decision=decision, note=note)
    account_event(Account(pk=flag.account_id), reviewed, actor=actor)
    flag.refresh_from_db()
    return flag


@transaction.atomic
def account_suspend(
    *, account: Account, reason: str, actor: str, reason_code: str = "fair_play", message: str = ""
) -> Account:
    """R-38: refuse the account's intents and take it out of rankings and leaderboards.
    ``reason``: the operator's note (kept from the player); the player is told ``reason_code``
    and ``message`` (``rivals.player_notice``)."""
    account = Account.objects.select_for_update().get(pk=account.pk)
    if account.suspended_at is not None:
        raise NotAllowed("the account is already suspended")
    reason = clean_text(reason, field="reason", max_length=300)
    reason_code, message = notice_clean(reason_code, message)
    suspended = account_suspended(account_id=account.pk, reason=reason, reason_code=reason_code, message=message)
    account_event(account, suspended, actor=actor)
    # its waiting queue tickets and pending duels end now, in this transaction
    account_restricted.send(
        sender=Account, account_id=account.pk, reason="account_suspended", actor=actor, now=timezone.now()
    )
    account.refresh_from_db()
    return account


@transaction.atomic
def account_suspension_lift(
    *, account: Account, reason: str, actor: str, reason_code: str = "other", message: str = ""
) -> Account:
    """The account plays again; as ``account_suspend``, the note for operators, the code and
    message for the player."""
    account = Account.objects.select_for_update().get(pk=account.pk)
    if account.suspended_at is None:
        raise NotAllowed("the account is not suspended")
    reason = clean_text(reason, field="reason", max_length=300)
    reason_code, message = notice_clean(reason_code, message)
    lifted = account_suspension_lifted(account_id=account.pk, reason=reason, reason_code=reason_code, message=message)
    account_event(account, lifted, actor=actor)
    account.refresh_from_db()
    return account

"""The events of fair play (R-38): flags, their review and suspension — one typed constructor
each (schema version 1).

They are events of the account's stream (``account-<id>``, appended through
``rivals.accounts.services.account_event``) and name its ``account_id``.
"""

from __future__ import annotations

from typing import TypedDict
from uuid import UUID

from rivals.event_types import Instant
from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
ACCOUNT_SUSPENDED = "AccountSuspended"
ACCOUNT_SUSPENSION_LIFTED = "AccountSuspensionLifted"
FAIR_PLAY_FLAG_REVIEWED = "FairPlayFlagReviewed"
FAIR_PLAY_FLAGGED = "FairPlayFlagged"
FAIR_PLAY_SIGNALS_SCORED = "FairPlaySignalsScored"

FAIRPLAY_EVENTS = frozenset(
    {FAIR_PLAY_FLAGGED, FAIR_PLAY_FLAG_REVIEWED, ACCOUNT_SUSPENDED, ACCOUNT_SUSPENSION_LIFTED, FAIR_PLAY_SIGNALS_SCORED}
)
# issue 40, version 2: what the player is told (``reason_code``, ``message``) beside the operator's
# note (``reason``); version 1 had the note only
SCHEMA_VERSIONS = {ACCOUNT_SUSPENDED: 2, ACCOUNT_SUSPENSION_LIFTED: 2}


class FlagScores(TypedDict, total=False):
    """A R-42 flag's numbers: an account's window (``solver_assist``, ``pace``: the keys of
    ``rivals.fairplay.scoring.window_scores``) or a pair of accounts' shared deals (``collusion``)."""

    results: int
    boards: int
    choices: int
    plan_hits: int
    plan_share: float
    plan_expected: float
    plan_z: float
    critical: int
    kept: int
    keep_share: float
    keep_expected: float
    keep_z: float
    pace_boards: int
    slowdown: float
    slowdown_expected: float
    pace_z: float
    intervals: int
    interval_spread: float
    faster_than_history: float
    shared_deals: int
    near_identical: int
    similarity_at_least: float
    mean_similarity: float


class FlagRound(TypedDict):
    """One board of the flagged window, with its own numbers and its rating band's rates."""

    round_id: str | None
    game_id: str | None
    layout: str | None
    choices: int
    plan_hits: int
    critical: int
    kept: int
    band_plan_rate: float
    band_keep_rate: float


class SharedDeal(TypedDict):
    """A deal both accounts of a collusion flag played: the result, each one's round, how alike
    their unforced pairs were (0–1)."""

    result: str
    round_id: str
    other_round_id: str
    similarity: float


class ScoredBoard(TypedDict):
    """One board of a scored result (``rivals.fairplay.analysis.BoardSignals`` and
    ``rivals.fairplay.scoring.board_entry``): its counts, its intervals at critical and other
    positions, the pairs the deal did not force, and what its rating band did on its layout."""

    account_id: int
    game_id: str
    round_id: str
    code: str
    layout: str
    band: int
    pairs: int
    choices: int
    plan_hits: int
    critical: int
    kept: int
    lost_at: int | None
    hard_ms: list[int]
    easy_ms: list[int]
    free_pairs: list[list[int]]
    plan_rate: float
    keep_rate: float
    pace_mean: float
    pace_sd: float
    pace_boards: int


class ScoredPair(TypedDict):
    """A board compared with an earlier board of the same deal by another account."""

    account_id: int
    other_id: int
    game_id: str
    other_game_id: str
    round_id: str
    other_round_id: str
    similarity: float


class FlagDetails(TypedDict, total=False):
    """The evidence of a flag, by ``kind``: ``fast_pairs`` (``fast_pairs``, ``refused_too_fast``,
    ``threshold_ms``, ``intervals_ms``), ``refused_intents`` (``refused``, ``window_s``, ``max``,
    ``since``), ``outside_round_time`` (the refusal's ``status``, ``ended_at``, ``starts_at``,
    ``reason``, ``late_ms`` or ``early_ms``, and the board: ``game_id``, ``round_id``)."""

    fast_pairs: int
    refused_too_fast: int
    threshold_ms: int
    intervals_ms: list[int]
    refused: int
    window_s: int
    max: int
    since: Instant
    status: str
    ended_at: Instant
    starts_at: Instant
    reason: str
    late_ms: int
    early_ms: int
    game_id: str
    round_id: str
    # R-42's kinds (``solver_assist``, ``pace``, ``collusion``): the reasons, the window's
    # numbers (``rivals.fairplay.scoring.window_scores``), the rounds that carry them, and for
    # collusion the other account and the shared deals
    why: list[str]
    scores: FlagScores
    rounds: list[FlagRound]
    partner_id: int
    shared: list[SharedDeal]


class FairPlayFlaggedData(TypedDict):
    account_id: int
    flag_id: str
    kind: str
    subject: str
    game_id: str | None
    round_id: str | None
    details: FlagDetails


def fair_play_flagged(
    *,
    account_id: int,
    flag_id: UUID | str,
    kind: str,
    subject: str,
    game_id: str | None,
    round_id: str | None,
    details: FlagDetails,
) -> NewEvent:
    """A plausibility signal for an operator's review, once per account, ``kind`` (``fast_pairs``,
    ``outside_round_time``, ``refused_intents``) and ``subject`` (a board, a round, a window)."""
    data: FairPlayFlaggedData = {
        "account_id": account_id,
        "flag_id": str(flag_id),
        "kind": kind,
        "subject": subject,
        "game_id": game_id,
        "round_id": round_id,
        "details": details,
    }
    return NewEvent(FAIR_PLAY_FLAGGED, data)


class FairPlayFlagReviewedData(TypedDict):
    account_id: int
    flag_id: str
    decision: str
    note: str


def fair_play_flag_reviewed(*, account_id: int, flag_id: UUID | str, decision: str, note: str) -> NewEvent:
    """``decision``: ``dismissed`` or ``confirmed``."""
    data: FairPlayFlagReviewedData = {
        "account_id": account_id,
        "flag_id": str(flag_id),
        "decision": decision,
        "note": note,
    }
    return NewEvent(FAIR_PLAY_FLAG_REVIEWED, data)


class AccountSuspendedData(TypedDict):
    """Version 2: ``reason_code`` and ``message`` (version 1 had the operator's note, ``reason``, only)."""

    account_id: int
    reason: str
    reason_code: str
    message: str


def account_suspended(*, account_id: int, reason: str, reason_code: str, message: str) -> NewEvent:
    """The account's intents are refused; it leaves rankings and leaderboards. ``reason``: the
    operator's note (operators only); the player is told ``reason_code`` and ``message`` ("" for
    none)."""
    data: AccountSuspendedData = {
        "account_id": account_id,
        "reason": reason,
        "reason_code": reason_code,
        "message": message,
    }
    return NewEvent(ACCOUNT_SUSPENDED, data, SCHEMA_VERSIONS[ACCOUNT_SUSPENDED])


class AccountSuspensionLiftedData(TypedDict):
    """Version 2: ``reason_code`` and ``message`` (version 1 had the operator's note, ``reason``, only)."""

    account_id: int
    reason: str
    reason_code: str
    message: str


def account_suspension_lifted(*, account_id: int, reason: str, reason_code: str, message: str) -> NewEvent:
    """As ``account_suspended``: the note for operators, the code and message for the player."""
    data: AccountSuspensionLiftedData = {
        "account_id": account_id,
        "reason": reason,
        "reason_code": reason_code,
        "message": message,
    }
    return NewEvent(ACCOUNT_SUSPENSION_LIFTED, data, SCHEMA_VERSIONS[ACCOUNT_SUSPENSION_LIFTED])


class FairPlaySignalsScoredData(TypedDict):
    result: str
    mode: str
    rated_at: Instant
    boards: list[ScoredBoard]
    pairs: list[ScoredPair]


def fair_play_signals_scored(
    *, result: str, mode: str, rated_at: Instant, boards: list[ScoredBoard], pairs: list[ScoredPair]
) -> NewEvent:
    """R-42: the signals of one rated result (``result``: the rating's key, ``match:<id>``), on the
    stream ``fairplay-<result>``. ``boards``: one entry per board of the result — ``account_id``,
    ``game_id``, ``round_id``, ``code`` and the numbers of ``rivals.fairplay.scoring.board_entry``
    (the board's counts, its intervals, its unforced pairs and what its rating band was expected
    to do at the time); ``pairs``: each comparison with an earlier board of the same deal
    (``account_id``, ``other_id``, ``game_id``, ``other_game_id``, ``round_id``, ``other_round_id``,
    ``similarity``)."""
    data: FairPlaySignalsScoredData = {
        "result": result,
        "mode": mode,
        "rated_at": rated_at,
        "boards": boards,
        "pairs": pairs,
    }
    return NewEvent(FAIR_PLAY_SIGNALS_SCORED, data)

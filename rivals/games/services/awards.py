"""Single player points (R-3, R-5, R-7): the first completion of a level and its time bonus, awarded
at the moment of completion, exactly once per award key."""

from __future__ import annotations

from datetime import datetime

from rivals.games.models import Game, LevelBest
from rivals.models import Account
from rivals.points.selectors import award_keys_present
from rivals.points.services import points_award

FIRST_COMPLETION_POINTS = 10
FIRST_PLACE_BONUS = 10
TOP10_BONUS = 5


def _award_key(kind: str, account_id: int, level: int) -> str:
    return f"single_player:{kind}:{account_id}:{level}"


def single_player_awards(*, game: Game, account: Account, now: datetime) -> list:
    """At the moment of completion: R-3 first completion (once), R-5 time bonus (≤ 1 per game).

    The place the new time takes is 1 + the number of *other* accounts whose best time is
    strictly shorter (equal times share a place). The first-place bonus (10) and the top-10 bonus
    (5) can each be earned once per account and level; after the 10 no time bonus at all.
    """
    level, time_ms = game.level, game.completion_ms
    awards = []
    ref = {"game_id": str(game.pk), "level": level, "time_ms": time_ms}
    first = points_award(
        account=account,
        amount=FIRST_COMPLETION_POINTS,
        source="single_player",
        key=_award_key("first_completion", account.pk, level),
        at=now,
        ref=ref,
    )
    if first:
        awards.append(first)
    earned = award_keys_present([_award_key("first_place", account.pk, level), _award_key("top10", account.pk, level)])
    if _award_key("first_place", account.pk, level) in earned:
        return awards  # after the 10, no further time bonus on this level
    # Decision: suspended and closed accounts are off the leaderboard, so they take no place
    place = 1 + (
        LevelBest.objects.filter(
            level=level, best_ms__lt=time_ms, account__suspended_at__isnull=True, account__closed_at__isnull=True
        )
        .exclude(account=account)
        .count()
    )
    bonus = None
    if place == 1:
        bonus = points_award(
            account=account,
            amount=FIRST_PLACE_BONUS,
            source="single_player",
            key=_award_key("first_place", account.pk, level),
            at=now,
            ref={**ref, "place": 1},
        )
    elif place <= 10 and _award_key("top10", account.pk, level) not in earned:
        bonus = points_award(
            account=account,
            amount=TOP10_BONUS,
            source="single_player",
            key=_award_key("top10", account.pk, level),
            at=now,
            ref={**ref, "place": place},
        )
    if bonus:
        awards.append(bonus)
    return awards

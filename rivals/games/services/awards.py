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
    ref = {"game_id": str(game.pk), "level": level, "time_ms": time_ms}
    keys = {kind: _award_key(kind, account.pk, level) for kind in ("first_completion", "first_place", "top10")}
    # one read of the three keys (issue 35: a level won again pays nothing and asks once); a key
    # the ledger holds stays held, and a missing one is checked again under ``points_award``'s lock
    earned = award_keys_present(keys.values())

    def award(kind: str, amount: int, extra: dict) -> list:
        entry = points_award(
            account=account, amount=amount, source="single_player", key=keys[kind], at=now, ref={**ref, **extra}
        )
        return [entry] if entry else []

    awards = [] if keys["first_completion"] in earned else award("first_completion", FIRST_COMPLETION_POINTS, {})
    if keys["first_place"] in earned:
        return awards  # after the 10, no further time bonus on this level
    # Decision: suspended and closed accounts are off the leaderboard, so they take no place
    place = 1 + (
        LevelBest.objects.filter(
            level=level, best_ms__lt=time_ms, account__suspended_at__isnull=True, account__closed_at__isnull=True
        )
        .exclude(account=account)
        .count()
    )
    if place == 1:
        return awards + award("first_place", FIRST_PLACE_BONUS, {"place": 1})
    if place <= 10 and keys["top10"] not in earned:
        return awards + award("top10", TOP10_BONUS, {"place": place})
    return awards

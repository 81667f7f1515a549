"""Write side of solo games: their life (lifecycle), their intents (intents, assists), the single
player points they award (awards) — and the one intent runner every competitive board shares."""

from rivals.games.levels import level_get, level_unlocked, levels_generate
from rivals.games.services.awards import single_player_awards
from rivals.games.services.intents import IntentResult, game_intent_apply, game_intent_run
from rivals.games.services.lifecycle import (
    game_board,
    game_create,
    game_expire_if_due,
    game_for_account,
    game_start,
    games_expire_due,
    games_locked,
    new_board,
)
from rivals.games.services.modes import (
    FINISHED,
    HOSTED_MODES,
    INTENT_TYPES,
    MAX_JOKERS_PER_GAME,
    MODE_INTENTS,
    MODES,
    ROUND_MODES,
)

__all__ = [
    "FINISHED",
    "HOSTED_MODES",
    "INTENT_TYPES",
    "IntentResult",
    "MAX_JOKERS_PER_GAME",
    "MODES",
    "MODE_INTENTS",
    "ROUND_MODES",
    "game_board",
    "game_create",
    "game_expire_if_due",
    "game_for_account",
    "game_intent_apply",
    "game_intent_run",
    "game_start",
    "games_expire_due",
    "games_locked",
    "level_get",
    "level_unlocked",
    "levels_generate",
    "new_board",
    "single_player_awards",
]

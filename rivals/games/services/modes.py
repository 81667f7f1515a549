"""The solo and round modes: their rulesets and the intents each allows (API.md, T-12, R-9, P-4)."""

from __future__ import annotations

MODES = {"single": "rivals", "classic": "classic", "pool_practice": "pool"}
# Modes another flow creates (a pot competition's entry, P-5), never ``POST /games`` directly.
HOSTED_MODES = {"pool_pot": "pool"}
MAX_JOKERS_PER_GAME = 2
FINISHED = ("won", "ended")

INTENT_TYPES = (
    "remove_pair",
    "click_blocked",
    "joker",
    "hint",
    "undo",
    "shuffle",
    "pause",
    "resume",
    "restart",
    "end",
)
# the boards of competitive rounds (rivals.matches): one Game per player and round
ROUND_MODES = ("quick", "duel", "arena", "tournament")
# which intents each mode allows (API.md; T-12 pause; R-9 jokers; P-4 restart only in practice).
# Rounds: no pause, undo, hint, shuffle, restart or end (T-12, API.md); jokers except in Quick
# Match (R-9 Decision).
MODE_INTENTS = {
    "single": set(INTENT_TYPES),
    "classic": set(INTENT_TYPES) - {"joker", "restart"},
    "pool_practice": set(INTENT_TYPES) - {"joker", "pause", "resume"},
    "pool_pot": set(INTENT_TYPES) - {"joker", "pause", "resume", "restart"},  # P-4: restart only in practice
    "quick": {"remove_pair", "click_blocked"},
    "duel": {"remove_pair", "click_blocked", "joker"},
    "arena": {"remove_pair", "click_blocked", "joker"},
    "tournament": {"remove_pair", "click_blocked", "joker"},
}

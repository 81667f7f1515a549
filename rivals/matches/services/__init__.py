"""Write side of competitive play: rounds and their clock, matches, the queue, duels."""

from rivals.matches.services.duels import (
    duel_accept,
    duel_challenge,
    duel_decline,
    duel_expire_if_due,
    duel_read,
    duels_end,
    duels_expire_due,
)
from rivals.matches.services.matches import match_create, match_standings, matches_create
from rivals.matches.services.queue import (
    queue_expire_due,
    queue_join,
    queue_leave,
    queue_pair,
    queue_pair_due,
    queue_ticket_expire_if_due,
    queue_ticket_read,
    queue_tickets_end,
)
from rivals.matches.services.round_intents import RoundIntentResult, round_intent_apply
from rivals.matches.services.round_open import pairs_removed
from rivals.matches.services.rounds import (
    round_board_of,
    round_boards,
    round_end_if_due,
    round_end_now,
    round_read,
    round_with_boards,
    rounds_end_due,
)

__all__ = [
    "duel_accept",
    "duel_challenge",
    "duel_decline",
    "duel_expire_if_due",
    "duel_read",
    "duels_end",
    "duels_expire_due",
    "match_create",
    "match_standings",
    "matches_create",
    "queue_expire_due",
    "queue_join",
    "queue_leave",
    "queue_pair",
    "queue_pair_due",
    "queue_ticket_expire_if_due",
    "queue_ticket_read",
    "queue_tickets_end",
    "pairs_removed",
    "RoundIntentResult",
    "round_board_of",
    "round_boards",
    "round_end_if_due",
    "round_end_now",
    "round_intent_apply",
    "round_read",
    "round_with_boards",
    "rounds_end_due",
]

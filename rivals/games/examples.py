"""The games room's documented examples (``rivals.api.examples``): a body per game mode and per
intent type, and a realistic answer of a move (one event, not the union)."""

from __future__ import annotations

from rivals.api.examples import answer_example, request_examples
from rivals.games.events import GAME_STARTED, PAIR_REMOVED

GAME_CREATE = request_examples(
    {
        "a single player level (R-1)": {"mode": "single", "level": 1},
        "a classic game on a random deal": {"mode": "classic"},
        "a classic game on a given deal (T-9)": {"mode": "classic", "code": "MJ1-L00-AAAAAAB"},
        "a Pool practice game (Part P)": {"mode": "pool_practice"},
    }
)

INTENTS = {
    "remove a pair (T-6, T-6a)": {"seq": 0, "type": "remove_pair", "tiles": [14, 21]},
    "tap a blocked tile (R-16)": {"seq": 0, "type": "click_blocked", "tile": 60},
    "use a joker on a free tile (R-8)": {"seq": 0, "type": "joker", "tile": 14},
    "ask for a hint (T-10)": {"seq": 0, "type": "hint"},
    "undo the last pair (T-11)": {"seq": 0, "type": "undo"},
    "shuffle the tiles left (T-14)": {"seq": 0, "type": "shuffle"},
    "pause (T-12)": {"seq": 0, "type": "pause"},
    "resume (T-12)": {"seq": 0, "type": "resume"},
    "restart the deal (R-10)": {"seq": 0, "type": "restart"},
    "end the game (P-4)": {"seq": 0, "type": "end"},
}
GAME_INTENTS = request_examples(INTENTS)

_ID = "6f1d2c3b-8a4e-4f5a-9b7c-1d2e3f4a5b6c"
PAIR = {
    "version": 18,
    "type": PAIR_REMOVED,
    "data": {
        "tiles": [3, 9],
        "faces": ["2B", "2B"],
        "play_ms": 47110,
        "interval_ms": 2380,
        "points": 100,
        "record_ms": None,
        "status": "playing",
        "seq": 16,
    },
    "recorded_at": "2026-12-05T18:50:53.241917Z",
}
_TILES = [
    {"id": 14, "x": 6, "y": 2, "z": 0, "face": "7D", "free": True},
    {"id": 21, "x": 10, "y": 4, "z": 0, "face": "7D", "free": True},
]
GAME = {
    "id": _ID,
    "mode": "classic",
    "ruleset": "classic",
    "level": None,
    "commitment": None,
    "code": "MJ1-L08-AAAAADX",
    "salt": None,
    "layout": "L08",
    "status": "playing",
    "score": 1700,
    "seq": 17,
    "elapsed_ms": 48210,
    "started_at": "2026-12-05T18:50:05.031624Z",
    "finished_at": None,
    "completion_ms": None,
    "tiles": _TILES,
    "tiles_left": 2,
    "removable_pairs": 1,
    "jokers_used": 0,
    "hints_used": 1,
    "undos_used": 0,
    "shuffles_used": 0,
    "time_limit_ms": None,
    "time_left_ms": None,
}
GAME_INTENT_ANSWERS = [
    answer_example(
        "a pair removed (the whole board)",
        {"accepted": True, "event": PAIR, "events": [PAIR], "game": GAME, "awarded": {"points": 0, "sources": []}},
    ),
    answer_example(
        "a pair removed, with Prefer: return=minimal (what changed)",
        {
            "accepted": True,
            "events": [PAIR],
            "seq": 17,
            "score": 1700,
            "status": "playing",
            "tiles_left": 2,
            "tiles": [{**_TILES[1], "free": True}],
            "removed": [3, 9],
            "awarded": {"points": 0, "sources": []},
        },
    ),
]
# an L08 deal: 36 faces, whole matching groups (T-4)
_FACES = ("2B 7D N Wh F1 9C 2B S3 R 7D N 4D Wh 9C F2 2B 4D R 7D S1 N Wh 9C 4D F3 2B R 7D S2 N Wh 9C 4D F4 R S4").split()
# (a list's example is one item: drf-spectacular shows it as the list of it)
GAME_EVENTS_ANSWER = [
    answer_example(
        "a game's first event: its deal",
        {
            "version": 1,
            "type": GAME_STARTED,
            "data": {
                "game_id": _ID,
                "account_id": 42,
                "mode": "classic",
                "ruleset": "classic",
                "level": None,
                "code": "MJ1-L08-AAAAADX",
                "layout": "L08",
                "faces": _FACES,
                "time_limit_ms": None,
                "salt": None,
                "commitment": None,
            },
            "recorded_at": "2026-12-05T18:50:05.031624Z",
        },
    )
]

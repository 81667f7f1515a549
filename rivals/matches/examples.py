"""The matches room's documented examples (``rivals.api.examples``)."""

from __future__ import annotations

from rivals.api.examples import SOME_ACCOUNT, answer_example, request_examples
from rivals.games.examples import GAME, INTENTS
from rivals.games.examples import PAIR as GAME_PAIR

QUEUE_JOIN = request_examples({"a Quick Match (R-12)": {"mode": "quick"}, "an Arena (R-20)": {"mode": "arena"}})
DUEL_CHALLENGE = request_examples({"challenge a player (R-19)": {"opponent": SOME_ACCOUNT}})
ROUND_INTENTS = request_examples(
    {title: body for title, body in INTENTS.items() if body["type"] in ("remove_pair", "click_blocked", "joker")}
)

_ROUND = "0b8c6a1e-3f2d-4c5b-9a8e-7d6c5b4a3f21"
_PAIR = {  # the games' example, on a round's board (R-14: a new speed record, 200)
    **GAME_PAIR,
    "version": 9,
    "data": {
        **GAME_PAIR["data"],
        "play_ms": 21950,
        "interval_ms": 2210,
        "points": 200,
        "record_ms": 2210,
        "record": True,
        "decisive": False,
        "seq": 8,
        "round_id": _ROUND,
    },
    "recorded_at": "2026-12-05T18:52:27.418530Z",
}
ROUND = {
    **GAME,
    "id": _ROUND,
    "mode": "quick",
    "ruleset": "rivals",
    "code": None,
    "salt": None,
    "commitment": "3b8f0c6e5d2a417c9e8b6a5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b",
    "score": 1400,
    "seq": 9,
    "elapsed_ms": 22040,
    "time_limit_ms": None,
    "time_left_ms": 277960,
    "started_at": "2026-12-05T18:52:05.468112Z",
    "round_id": _ROUND,
    "game_id": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
    "match_id": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
    "index": 1,
    "board_status": "playing",
    "status": "running",
    "starts_at": "2026-12-05T18:52:05.468112Z",
    "ends_at": "2026-12-05T18:52:47.418530Z",
    "ended_at": None,
    "end_reason": None,
    "opponents": [
        {
            "player": {"id": 43, "display_name": "Jade Dragon"},
            "score": 1100,
            "pairs_left": 7,
            "finished": False,
            "stuck": False,
        }
    ],
    "result": None,
}
ROUND_INTENT_ANSWERS = [
    answer_example(
        "a pair removed in a round (R-13, R-14: a new speed record)",
        {"accepted": True, "event": _PAIR, "events": [_PAIR], "game": ROUND},
    )
]
ROUND_EVENTS_ANSWER = [answer_example("your board's last event in a round", _PAIR)]  # (one item of the list)

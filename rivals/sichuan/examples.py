"""The Sichuan room's documented examples (``rivals.api.examples``): integers a browser keeps
exact (a seed below 2^53)."""

from __future__ import annotations

from rivals.api.examples import answer_example, request_examples
from rivals.sichuan.events import TILE_DISCARDED

TABLE_CREATE = request_examples({"a table dealt from a seed (S-2)": {"seed": 20261205}, "a random deal": {}})
INTENTS = request_examples(
    {
        "declare your missing suit (S-3)": {"seq": 0, "type": "declare_missing", "suit": "B"},
        "discard a tile (S-4)": {"seq": 0, "type": "discard", "tile": 17},
        "pong the discard (S-5)": {"seq": 0, "type": "pong"},
        "kong (S-6)": {"seq": 0, "type": "kong", "tile": 17},
        "win (S-10)": {"seq": 0, "type": "win"},
        "pass on a claim (S-5)": {"seq": 0, "type": "pass"},
    }
)
EVENTS_ANSWER = [
    answer_example(
        "a discard your seat saw",
        {  # (one item of the list)
            "index": 12,
            "type": TILE_DISCARDED,
            "data": {"seat": 2, "tile": 53},
            "recorded_at": "2026-12-05T19:02:11.504877Z",
        },
    )
]

"""How an ASGI process of this service is started (uvicorn on ``config.asgi:application``): the
WebSocket options every launcher passes — ``manage.py serve`` (``make run``), the tests' and the
benchmarks' servers; ``deploy/docker-compose.yml`` spells the same options out.

- ``websockets-sansio``: its writes wait for a slow socket (docs/api.md "Live updates").
- ``--ws-max-size``: a client's message is at most ``LIVE_MAX_FRAME_BYTES`` (issue 31; a
  subscribe is ~100 bytes). uvicorn refuses a bigger frame from its header, before reading it,
  and closes the socket with 1009; the consumer refuses one alike under a server started without
  the option (``rivals/live/consumers.py``). Read here without Django, for the launchers;
  ``settings.RIVALS["LIVE_MAX_FRAME_BYTES"]`` is this value.
"""

from __future__ import annotations

import os

LIVE_MAX_FRAME_BYTES = int(os.environ.get("RIVALS_LIVE_MAX_FRAME_BYTES", "4096"))


def uvicorn_ws_options() -> list[str]:
    return ["--ws", "websockets-sansio", "--ws-max-size", str(LIVE_MAX_FRAME_BYTES)]

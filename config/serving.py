"""How an ASGI process of this service is started (uvicorn on ``config.asgi:application``): the
WebSocket options every launcher passes — ``manage.py serve`` (``make run``), the tests' and the
benchmarks' servers; ``deploy/docker-compose.yml`` spells the same options out.

- ``websockets-sansio``: its writes wait for a slow socket (docs/api.md "Live updates").
- ``switch_interval``: how often a web process's threads hand the interpreter's lock over.
- ``--ws-max-size``: a client's message is at most ``LIVE_MAX_FRAME_BYTES`` (issue 31; a
  subscribe is ~100 bytes). uvicorn refuses a bigger frame from its header, before reading it,
  and closes the socket with 1009; the consumer refuses one alike under a server started without
  the option (``rivals/live/consumers.py``). Read here without Django, for the launchers;
  ``settings.RIVALS["LIVE_MAX_FRAME_BYTES"]`` is this value.
"""

from __future__ import annotations

import os
import sys

LIVE_MAX_FRAME_BYTES = int(os.environ.get("RIVALS_LIVE_MAX_FRAME_BYTES", "4096"))


def uvicorn_ws_options() -> list[str]:
    return ["--ws", "websockets-sansio", "--ws-max-size", str(LIVE_MAX_FRAME_BYTES)]


# Python's default is 5 ms. A request thread that comes back from the database waits for the
# interpreter's lock while another thread of its process computes — up to the whole interval, at
# each of its round trips (a round's end makes about 25). Measured at 1 ms against 5 ms on this
# service (docs/performance.md, issue 35): no difference beyond the runs' spread, so Python's own
# stays the default (0); the setting is here to measure it on other machines.
SWITCH_INTERVAL_MS = float(os.environ.get("RIVALS_SWITCH_INTERVAL_MS", "0"))


def switch_interval() -> None:
    """Set the web process's switch interval (``RIVALS_SWITCH_INTERVAL_MS``; 0: Python's own)."""
    if SWITCH_INTERVAL_MS > 0:
        sys.setswitchinterval(SWITCH_INTERVAL_MS / 1000)

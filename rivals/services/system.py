from __future__ import annotations

import os
import socket

from rivals.eventstore import ANY_VERSION, NewEvent, event_append

HEARTBEAT_STREAM = "system-heartbeat"


def system_heartbeat(*, source: str) -> int:
    (event,) = event_append(
        stream_id=HEARTBEAT_STREAM,
        stream_type="system",
        expected_version=ANY_VERSION,
        actor="system",
        events=[NewEvent("HeartbeatRecorded", {"source": source, "host": socket.gethostname(), "pid": os.getpid()})],
    )
    return event.position

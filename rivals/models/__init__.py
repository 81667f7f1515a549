"""The platform's models: accounts and their credentials, the event log, job runs. A room's
models live in its package (``rivals/games/models.py``, ``rivals/points/models.py`` …)."""

from .accounts import AccessToken, Account, AccountKey, Operator
from .events import Event, EventSeal, Heartbeat, IdempotencyRecord, Stream
from .jobs import JobRun

__all__ = [
    "AccessToken",
    "Account",
    "AccountKey",
    "JobRun",
    "Event",
    "EventSeal",
    "Heartbeat",
    "IdempotencyRecord",
    "Operator",
    "Stream",
]

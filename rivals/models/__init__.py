from .accounts import AccessToken, Account, AccountKey, Operator
from .events import Event, EventSeal, Heartbeat, IdempotencyRecord, Stream
from .games import Game, Level, LevelBest, RejectedIntent
from .jobs import JobRun
from .ledger import DailyBonusClaim, PointsLedgerEntry
from .mail import OutboundEmail

__all__ = [
    "AccessToken",
    "Account",
    "AccountKey",
    "JobRun",
    "Game",
    "Level",
    "LevelBest",
    "RejectedIntent",
    "DailyBonusClaim",
    "Event",
    "EventSeal",
    "Heartbeat",
    "IdempotencyRecord",
    "Operator",
    "OutboundEmail",
    "PointsLedgerEntry",
    "Stream",
]

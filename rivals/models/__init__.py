from .accounts import Account
from .events import Event, Heartbeat, IdempotencyRecord, Stream
from .games import Game, Level, LevelBest, RejectedIntent
from .ledger import DailyBonusClaim, PointsLedgerEntry

__all__ = ["Account", "Game", "Level", "LevelBest", "RejectedIntent", "DailyBonusClaim", "Event", "Heartbeat", "IdempotencyRecord", "PointsLedgerEntry", "Stream"]

from .accounts import Account
from .events import Event, IdempotencyRecord, Stream
from .games import Game, Level, LevelBest, RejectedIntent
from .ledger import DailyBonusClaim, PointsLedgerEntry

__all__ = ["Account", "Game", "Level", "LevelBest", "RejectedIntent", "DailyBonusClaim", "Event", "IdempotencyRecord", "PointsLedgerEntry", "Stream"]

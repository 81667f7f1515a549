from .accounts import Account
from .events import Event, IdempotencyRecord, Stream
from .ledger import DailyBonusClaim, PointsLedgerEntry

__all__ = ["Account", "DailyBonusClaim", "Event", "IdempotencyRecord", "PointsLedgerEntry", "Stream"]

from .accounts import Account
from .events import Event, IdempotencyRecord, Stream

__all__ = ["Account", "Event", "IdempotencyRecord", "Stream"]

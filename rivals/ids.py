"""Small helpers for ids sent by clients."""

from __future__ import annotations

import uuid


def is_uuid(value) -> bool:
    """True when ``value`` parses as a UUID (a malformed id is simply "not found" for the API)."""
    try:
        uuid.UUID(str(value))
        return True
    except ValueError:
        return False

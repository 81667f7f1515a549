"""The events of clubs (R-37): one typed constructor each (schema version 1).

Stream ``club-<id>`` (stream type ``club``).
"""

from __future__ import annotations

from uuid import UUID

from rivals.eventstore import NewEvent

CLUB_EVENTS = frozenset({"ClubFounded", "ClubJoined", "ClubLeft", "ClubOwnerChanged", "ClubClosed", "ClubRenamed"})


def club_founded(*, club_id: UUID | str, name: str, name_key: str, owner_id: int) -> NewEvent:
    """``name_key``: the name's skeleton, unique among open clubs."""
    return NewEvent("ClubFounded", {"club_id": str(club_id), "name": name, "name_key": name_key, "owner_id": owner_id})


def club_joined(*, club_id: UUID | str, account_id: int) -> NewEvent:
    return NewEvent("ClubJoined", {"club_id": str(club_id), "account_id": account_id})


def club_left(*, club_id: UUID | str, account_id: int) -> NewEvent:
    return NewEvent("ClubLeft", {"club_id": str(club_id), "account_id": account_id})


def club_owner_changed(*, club_id: UUID | str, owner_id: int, previous_owner_id: int, reason: str) -> NewEvent:
    """``reason``: ``handed_over`` or ``owner_left``."""
    return NewEvent(
        "ClubOwnerChanged",
        {"club_id": str(club_id), "owner_id": owner_id, "previous_owner_id": previous_owner_id, "reason": reason},
    )


def club_closed(*, club_id: UUID | str, reason: str) -> NewEvent:
    """``reason``: ``empty`` (its last member left)."""
    return NewEvent("ClubClosed", {"club_id": str(club_id), "reason": reason})


def club_renamed(
    *, club_id: UUID | str, name: str, name_key: str, previous_name: str, reason: str, report_id: str | None = None
) -> NewEvent:
    """R-39: an operator renamed the club, with a reason (and the report that asked for it)."""
    return NewEvent(
        "ClubRenamed",
        {
            "club_id": str(club_id),
            "name": name,
            "name_key": name_key,
            "previous_name": previous_name,
            "reason": reason,
            "report_id": report_id,
        },
    )

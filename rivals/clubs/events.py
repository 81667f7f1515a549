"""The events of clubs (R-37): one typed constructor each (schema version 1).

Stream ``club-<id>`` (stream type ``club``).
"""

from __future__ import annotations

from uuid import UUID

from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
CLUB_CLOSED = "ClubClosed"
CLUB_FOUNDED = "ClubFounded"
CLUB_JOINED = "ClubJoined"
CLUB_LEFT = "ClubLeft"
CLUB_OWNER_CHANGED = "ClubOwnerChanged"
CLUB_RENAMED = "ClubRenamed"

CLUB_EVENTS = frozenset({"ClubFounded", "ClubJoined", "ClubLeft", "ClubOwnerChanged", "ClubClosed", "ClubRenamed"})
# issue 40: ClubRenamed version 2 tells the owner (``owner_id``) the ``reason_code`` and ``message``
# of the rename, beside the operator's note (``reason``); version 1 had the note only
SCHEMA_VERSIONS = {"ClubRenamed": 2}


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
    *,
    club_id: UUID | str,
    name: str,
    name_key: str,
    previous_name: str,
    reason: str,
    report_id: str | None = None,
    owner_id: int,
    reason_code: str,
    message: str,
) -> NewEvent:
    """R-39: an operator renamed the club, with a note for operators (``reason``, and the report
    that asked for it); its owner is told (the ``club_renamed`` notification) the ``reason_code``
    and the ``message`` written for them ("" for none)."""
    return NewEvent(
        "ClubRenamed",
        {
            "club_id": str(club_id),
            "name": name,
            "name_key": name_key,
            "previous_name": previous_name,
            "reason": reason,
            "report_id": report_id,
            "owner_id": owner_id,
            "reason_code": reason_code,
            "message": message,
        },
        SCHEMA_VERSIONS["ClubRenamed"],
    )

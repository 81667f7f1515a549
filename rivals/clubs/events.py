"""The events of clubs (R-37): one typed constructor each (schema version 1).

Stream ``club-<id>`` (stream type ``club``).
"""

from __future__ import annotations

from typing import TypedDict
from uuid import UUID

from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
CLUB_CLOSED = "ClubClosed"
CLUB_FOUNDED = "ClubFounded"
CLUB_JOINED = "ClubJoined"
CLUB_LEFT = "ClubLeft"
CLUB_OWNER_CHANGED = "ClubOwnerChanged"
CLUB_RENAMED = "ClubRenamed"

CLUB_EVENTS = frozenset({CLUB_FOUNDED, CLUB_JOINED, CLUB_LEFT, CLUB_OWNER_CHANGED, CLUB_CLOSED, CLUB_RENAMED})
# issue 40: ClubRenamed version 2 tells the owner (``owner_id``) the ``reason_code`` and ``message``
# of the rename, beside the operator's note (``reason``); version 1 had the note only
SCHEMA_VERSIONS = {CLUB_RENAMED: 2}


class ClubFoundedData(TypedDict):
    club_id: str
    name: str
    name_key: str
    owner_id: int


def club_founded(*, club_id: UUID | str, name: str, name_key: str, owner_id: int) -> NewEvent:
    """``name_key``: the name's skeleton, unique among open clubs."""
    data: ClubFoundedData = {"club_id": str(club_id), "name": name, "name_key": name_key, "owner_id": owner_id}
    return NewEvent(CLUB_FOUNDED, data)


class ClubJoinedData(TypedDict):
    club_id: str
    account_id: int


def club_joined(*, club_id: UUID | str, account_id: int) -> NewEvent:
    data: ClubJoinedData = {"club_id": str(club_id), "account_id": account_id}
    return NewEvent(CLUB_JOINED, data)


class ClubLeftData(TypedDict):
    club_id: str
    account_id: int


def club_left(*, club_id: UUID | str, account_id: int) -> NewEvent:
    data: ClubLeftData = {"club_id": str(club_id), "account_id": account_id}
    return NewEvent(CLUB_LEFT, data)


class ClubOwnerChangedData(TypedDict):
    club_id: str
    owner_id: int
    previous_owner_id: int
    reason: str


def club_owner_changed(*, club_id: UUID | str, owner_id: int, previous_owner_id: int, reason: str) -> NewEvent:
    """``reason``: ``handed_over`` or ``owner_left``."""
    data: ClubOwnerChangedData = {
        "club_id": str(club_id),
        "owner_id": owner_id,
        "previous_owner_id": previous_owner_id,
        "reason": reason,
    }
    return NewEvent(CLUB_OWNER_CHANGED, data)


class ClubClosedData(TypedDict):
    club_id: str
    reason: str


def club_closed(*, club_id: UUID | str, reason: str) -> NewEvent:
    """``reason``: ``empty`` (its last member left)."""
    data: ClubClosedData = {"club_id": str(club_id), "reason": reason}
    return NewEvent(CLUB_CLOSED, data)


class ClubRenamedData(TypedDict):
    """Version 2: ``owner_id``, ``reason_code`` and ``message`` (version 1 had the operator's note, ``reason``,
    only)."""

    club_id: str
    name: str
    name_key: str
    previous_name: str
    reason: str
    report_id: str | None
    owner_id: int
    reason_code: str
    message: str


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
    data: ClubRenamedData = {
        "club_id": str(club_id),
        "name": name,
        "name_key": name_key,
        "previous_name": previous_name,
        "reason": reason,
        "report_id": report_id,
        "owner_id": owner_id,
        "reason_code": reason_code,
        "message": message,
    }
    return NewEvent(CLUB_RENAMED, data, SCHEMA_VERSIONS[CLUB_RENAMED])

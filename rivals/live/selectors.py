"""Reads of the live room: notifications (REST and the ``account`` topic's replay) and who may see
a topic — exactly as the REST reads decide (another account's round, match, ticket or duel does
not exist for the caller)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rivals import notification_types
from rivals.ids import is_uuid
from rivals.live.models import Notification
from rivals.romanian_time import iso_z

KINDS = ("account", "round", "match", "queue", "duel", "tournament")


def notification_view(n: Notification) -> dict[str, Any]:
    return {
        "position": n.position,
        "type": n.type,
        "at": iso_z(n.at),
        "data": notification_types.data_view(n.type, n.data),
    }


def notifications_page(*, account_id: int, since: int, limit: int) -> tuple[int, list[Notification]]:
    """The account's notifications after position ``since``, oldest first: (count after since, page)."""
    qs = Notification.objects.filter(account_id=account_id, position__gt=since).order_by("position", "id")
    return qs.count(), list(qs[:limit])


@dataclass
class Topic:
    """A topic the caller may see: its name, its kind and id, and what its views need."""

    name: str
    kind: str
    key: str  # the routing key of its events (rivals.live.topics)
    account_id: int
    streams: list[str] = field(default_factory=list)  # the streams whose events it replays
    players: dict[int, str] = field(default_factory=dict)  # a round's players: id → display name


def topic_parse(raw: Any) -> tuple[str, str] | None:
    """``(kind, id)`` of a well-formed topic name, else ``None`` (the message is invalid)."""
    if not isinstance(raw, str) or len(raw) > 80:
        return None
    kind, _, ident = raw.partition(":")
    if kind not in KINDS or (kind == "account") != (ident == ""):
        return None
    return kind, ident


def topic_authorize(*, account_id: int, kind: str, ident: str) -> Topic | None:
    """The topic as ``account_id`` may see it, or ``None`` (not found: missing or not theirs)."""
    from rivals.matches.selectors import topic_streams
    from rivals.models import Account, Stream

    name = kind if kind == "account" else f"{kind}:{ident}"
    if kind == "account":
        return Topic(name, kind, f"account:{account_id}", account_id)
    if not is_uuid(ident):
        return None
    key = f"{kind}:{ident}"
    if kind in ("round", "match", "queue", "duel"):  # the matches room's: its reads decide who sees them
        found = topic_streams(kind=kind, ident=ident, account_id=account_id)
        if found is None:
            return None
        streams, players = found
        names = dict(Account.objects.filter(pk__in=players).values_list("pk", "display_name")) if players else {}
        return Topic(name, kind, key, account_id, streams, names)
    # tournament: public (its events on the log say it exists)
    if not Stream.objects.filter(pk=f"tournament-{ident}").exists():
        return None
    return Topic(name, kind, key, account_id, [f"tournament-{ident}"])

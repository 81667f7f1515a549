"""The live room's part of a player's export (``rivals.accounts.export``): the account's
notifications, as ``GET /api/v1/notifications`` answers them."""

from __future__ import annotations

from rivals.accounts.export import Subject, chunked
from rivals.api.serializers import NotificationOut
from rivals.live.models import Notification
from rivals.live.selectors import notification_view


def notifications(subject: Subject):
    for note in chunked(Notification.objects.filter(account_id=subject.account.pk), order=("position", "id")):
        yield notification_view(note)


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="notifications",
        feature="live",
        rows=notifications,
        shape=NotificationOut,
        order=70,
        description="your notifications, oldest first (API.md Notifications)",
    )

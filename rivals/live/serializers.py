"""The shapes of the live room's HTTP answers (API.md "Live updates", "Notifications"): one named
component per shape, used by the views' schema; the suite checks every answer against it."""

from rest_framework import serializers

from rivals.api.serializers import NotificationOut, PageIn, QueryIn


class LiveTicketOut(serializers.Serializer):
    ticket = serializers.CharField(help_text="single use, valid 30 s, bound to the account")
    expires_at = serializers.DateTimeField()
    url = serializers.CharField(help_text="where to open the socket with it (an addition)")


class NotificationPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = NotificationOut(many=True)


class NotificationsIn(QueryIn):
    since = serializers.IntegerField(
        min_value=0, max_value=PageIn.MAX_OFFSET, default=0, help_text="the position after which to read"
    )
    limit = serializers.IntegerField(min_value=1, max_value=PageIn.MAX_LIMIT, default=50)

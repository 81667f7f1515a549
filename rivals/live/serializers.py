"""The shapes of the live room's HTTP answers (API.md "Live updates", "Notifications"): one named
component per shape, used by the views' schema; the suite checks every answer against it."""

from rest_framework import serializers

from rivals.api.serializers import PageIn, QueryIn
from rivals.live.notices import TYPES


class LiveTicketOut(serializers.Serializer):
    ticket = serializers.CharField(help_text="single use, valid 30 s, bound to the account")
    expires_at = serializers.DateTimeField()
    url = serializers.CharField(help_text="where to open the socket with it (an addition)")


class NotificationOut(serializers.Serializer):
    position = serializers.IntegerField(help_text="the event's position in the log (resume with since=)")
    type = serializers.ChoiceField(choices=TYPES)
    at = serializers.DateTimeField()
    data = serializers.DictField(
        help_text="free-form: what the notification's type names (a duel's id and challenger, a round's "
        "id, a tournament's id and title, a prize's source and amount …; API.md Notifications). What an "
        "operator did to the account (account_suspended, account_suspension_lifted, jokers_changed of an "
        "operator_grant or operator_correction, display_name_reset, club_renamed) carries reason_code "
        "(fair_play, abusive_name, terms, outage, goodwill, correction, other) and, only where the operator "
        "wrote one for the player, message — never the operator's own note"
    )


class NotificationPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = NotificationOut(many=True)


class NotificationsIn(QueryIn):
    since = serializers.IntegerField(
        min_value=0, max_value=PageIn.MAX_OFFSET, default=0, help_text="the position after which to read"
    )
    limit = serializers.IntegerField(min_value=1, max_value=PageIn.MAX_LIMIT, default=50)

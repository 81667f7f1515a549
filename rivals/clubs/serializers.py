"""The shapes of the clubs API (R-37)."""

from rest_framework import serializers

from rivals.accounts.serializers import PointsOut
from rivals.api.serializers import CleanTextField, PageIn, PlayerRefOut
from rivals.clubs.services import CLUB_NAME_MAX


class ClubCreateIn(serializers.Serializer):
    name = CleanTextField(max_length=CLUB_NAME_MAX)


class ClubOwnerIn(serializers.Serializer):
    owner = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="the member who becomes the owner")


class ClubPageIn(PageIn):
    q = serializers.CharField(
        required=False, allow_blank=True, max_length=CLUB_NAME_MAX, help_text="part of the name (case-insensitive)"
    )


class ClubSummaryOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "closed"])
    members_count = serializers.IntegerField()
    owner = PlayerRefOut(allow_null=True, help_text="null once the last member left (the club is closed)")
    created_at = serializers.DateTimeField()


class ClubMemberOut(serializers.Serializer):
    player = PlayerRefOut()
    joined_at = serializers.DateTimeField()
    owner = serializers.BooleanField()
    points = PointsOut()


class ClubOut(ClubSummaryOut):
    closed_at = serializers.DateTimeField(allow_null=True)
    points = PointsOut(help_text="summed over the members (a suspended member adds nothing, R-38)")
    members = ClubMemberOut(many=True)


class ClubPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = ClubSummaryOut(many=True)


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class ClubsNotAllowedDetails(serializers.Serializer):
    club = serializers.CharField(required=False, help_text="the club the caller is in")
    status = serializers.CharField(required=False, help_text="the club's status")
    owner = serializers.IntegerField(required=False)


class ClubsConflictDetails(serializers.Serializer):
    name = serializers.ListField(child=serializers.CharField(), required=False, help_text="the name is taken")


ERROR_DETAILS = {"not_allowed": ClubsNotAllowedDetails, "conflict": ClubsConflictDetails}

from rest_framework import serializers


class PageIn(serializers.Serializer):
    """``?limit=&offset=`` of every paginated list (API.md conventions)."""

    MAX_LIMIT = 100
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=50)
    offset = serializers.IntegerField(min_value=0, default=0)


class GuestSignInIn(serializers.Serializer):
    device_id = serializers.CharField(max_length=200)


class GuestSignInOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    token = serializers.CharField()
    created = serializers.BooleanField()


class PointsOut(serializers.Serializer):
    amr = serializers.IntegerField()
    weekly = serializers.IntegerField()
    daily = serializers.IntegerField()


class DailyBonusStateOut(serializers.Serializer):
    streak = serializers.IntegerField()
    claimed_today = serializers.BooleanField()
    doubled_today = serializers.BooleanField()


class AccountOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    display_name = serializers.CharField()
    email = serializers.EmailField(allow_null=True)
    jokers = serializers.IntegerField()
    points = PointsOut()
    trophies = serializers.ListField(child=serializers.DictField())
    daily_bonus = DailyBonusStateOut()


class AccountPatchIn(serializers.Serializer):
    display_name = serializers.CharField(max_length=200, trim_whitespace=True)


class ErrorBody(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class ErrorOut(serializers.Serializer):
    error = ErrorBody()

from rest_framework import serializers

from rivals.errors import Invalid
from rivals.services.accounts import DEVICE_ID_MAX, DISPLAY_NAME_MAX
from rivals.text import clean_text


class CleanTextField(serializers.CharField):
    """A client-chosen name or id, validated by ``rivals.text.clean_text`` (NFC, length, no
    control characters, BOMs or bidi overrides); the schema says the length limits."""

    def __init__(self, *, max_length: int, collapse_spaces: bool = True, **kwargs):
        self.collapse_spaces = collapse_spaces
        super().__init__(max_length=max_length, min_length=1, trim_whitespace=False, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return clean_text(
                value, field=self.field_name, max_length=self.max_length, collapse_spaces=self.collapse_spaces
            )
        except Invalid as exc:
            raise serializers.ValidationError(exc.details[self.field_name]) from None


class PageIn(serializers.Serializer):
    """``?limit=&offset=`` of every paginated list (API.md conventions)."""

    MAX_LIMIT = 100
    MAX_OFFSET = 1_000_000_000  # past any list we have; keeps the value inside PostgreSQL's bigint
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class GuestSignInIn(serializers.Serializer):
    device_id = CleanTextField(
        max_length=DEVICE_ID_MAX,
        collapse_spaces=False,
        help_text="a secret of the device: a new one has at least 16 characters; send 128 random bits "
        "(e.g. a random UUID). Unlinked by a password change or reset (then 401: sign in by email)",
    )


class GuestSignInOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    token = serializers.CharField(help_text="a new token of this device, shown once (stored hashed)")
    created = serializers.BooleanField()


class PointsOut(serializers.Serializer):
    amr = serializers.IntegerField()
    weekly = serializers.IntegerField()
    daily = serializers.IntegerField()


class DailyBonusStateOut(serializers.Serializer):
    streak = serializers.IntegerField()
    claimed_today = serializers.BooleanField()
    doubled_today = serializers.BooleanField()


class ClubRefOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()


class AccountOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    display_name = serializers.CharField()
    email = serializers.EmailField(allow_null=True)
    email_verified = serializers.BooleanField()
    jokers = serializers.IntegerField()
    points = PointsOut()
    trophies = serializers.ListField(child=serializers.DictField())
    daily_bonus = DailyBonusStateOut()
    club = ClubRefOut(allow_null=True)
    suspended = serializers.BooleanField()


class PlacesOut(serializers.Serializer):
    amr = serializers.IntegerField(allow_null=True)
    weekly = serializers.IntegerField(allow_null=True)
    daily = serializers.IntegerField(allow_null=True)


class PlayerOut(serializers.Serializer):
    """R-37: the public profile (no personal data). A place is null when the player is not on
    that board (no points there, or suspended)."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    club = ClubRefOut(allow_null=True)
    trophies = serializers.ListField(child=serializers.DictField())
    points = PointsOut()
    places = PlacesOut()


# Passwords are capped so that hashing one stays cheap (a megabyte password costs PBKDF2 dearly).
PASSWORD_MAX = 256


class EmailIn(serializers.Serializer):
    email = serializers.EmailField(max_length=254)


class LoginIn(EmailIn):
    password = serializers.CharField(max_length=PASSWORD_MAX, trim_whitespace=False)


class CredentialsIn(LoginIn):
    current_password = serializers.CharField(
        max_length=PASSWORD_MAX,
        trim_whitespace=False,
        required=False,
        help_text="required when the account already has a password (changing credentials, not adding them)",
    )


class LoginOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    token = serializers.CharField()


class TokenIn(serializers.Serializer):
    token = serializers.CharField(max_length=500)


class VerifiedOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    email_verified = serializers.BooleanField()


class PasswordChangeIn(serializers.Serializer):
    old_password = serializers.CharField(max_length=PASSWORD_MAX, trim_whitespace=False)
    new_password = serializers.CharField(max_length=PASSWORD_MAX, trim_whitespace=False)


class PasswordResetConfirmIn(TokenIn):
    password = serializers.CharField(max_length=PASSWORD_MAX, trim_whitespace=False)


class DetailOut(serializers.Serializer):
    detail = serializers.CharField()


class PasswordChangedOut(DetailOut):
    tokens_revoked = serializers.IntegerField()


class AccountPatchIn(serializers.Serializer):
    """Every field is optional: a PATCH with nothing to change changes nothing (200)."""

    display_name = CleanTextField(max_length=DISPLAY_NAME_MAX, required=False)


class ErrorBody(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class ErrorOut(serializers.Serializer):
    error = ErrorBody()

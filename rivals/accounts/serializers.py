"""The shapes of the accounts API (R-36, R-37): sign-in, credentials, the own and public profiles."""

from rest_framework import serializers

from rivals.accounts.services import DEVICE_ID_MAX, DISPLAY_NAME_MAX
from rivals.api.serializers import CleanTextField, DetailOut, PageIn, StrictCharField, StrictEmailField


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


class TrophyOut(serializers.Serializer):
    """R-27 a cup (one per won tournament, with its tournament); R-29 the Champions trophy, once,
    with its ``count``."""

    kind = serializers.ChoiceField(choices=["cup", "champions"])
    title = serializers.CharField()
    awarded_at = serializers.DateTimeField(help_text="the last one's, for the Champions trophy")
    tournament_id = serializers.UUIDField(required=False, help_text="a cup's tournament")
    count = serializers.IntegerField(required=False, min_value=1, help_text="Champions trophies won")


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
    trophies = TrophyOut(many=True)
    daily_bonus = DailyBonusStateOut()
    club = ClubRefOut(allow_null=True)
    suspended = serializers.BooleanField()


class PlacesOut(serializers.Serializer):
    amr = serializers.IntegerField(allow_null=True)
    weekly = serializers.IntegerField(allow_null=True)
    daily = serializers.IntegerField(allow_null=True)


class PublicProfileOut(serializers.Serializer):
    """R-37: the public profile (no personal data). A place is null when the player is not on
    that board (no points there, or suspended)."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    club = ClubRefOut(allow_null=True)
    trophies = TrophyOut(many=True)
    points = PointsOut()
    places = PlacesOut()
    # and what the rooms add to it (register_public_profile_field): stats, rating


def register_public_profile_field(name: str, field: serializers.Field) -> None:
    """A room's part of the public profile's shape (what its ``register_public_profile_extension``
    adds): statistics' ``stats``, ratings' ``rating``."""
    PublicProfileOut._declared_fields[name] = field


class PlayerSearchIn(PageIn):
    q = StrictCharField(
        min_length=2,
        max_length=64,
        trim_whitespace=False,
        help_text="part of the display name, case-insensitive: at least 2 characters once spaces and "
        "invisible characters are left out",
    )


class PlayerFoundOut(serializers.Serializer):
    """What a public profile shows of a player, and no more (R-37)."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    club = ClubRefOut(allow_null=True)


class PlayerSearchOut(serializers.Serializer):
    count = serializers.IntegerField(help_text="matching players, counted up to 200 (then count_capped)")
    count_capped = serializers.BooleanField(help_text="more players match than count: refine the query")
    results = PlayerFoundOut(many=True, help_text="names that start with q first (by name), then the others")


# Passwords are capped so that hashing one stays cheap (a megabyte password costs PBKDF2 dearly).
PASSWORD_MAX = 256


class EmailIn(serializers.Serializer):
    email = StrictEmailField(max_length=254)


class LoginIn(EmailIn):
    password = StrictCharField(max_length=PASSWORD_MAX, trim_whitespace=False)


class CredentialsIn(LoginIn):
    current_password = StrictCharField(
        max_length=PASSWORD_MAX,
        trim_whitespace=False,
        required=False,
        help_text="required when the account already has a password (changing credentials, not adding them)",
    )


class LoginOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    token = serializers.CharField()


class TokenIn(serializers.Serializer):
    token = StrictCharField(max_length=500)


class VerifiedOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    email_verified = serializers.BooleanField()


class PasswordChangeIn(serializers.Serializer):
    old_password = StrictCharField(max_length=PASSWORD_MAX, trim_whitespace=False)
    new_password = StrictCharField(max_length=PASSWORD_MAX, trim_whitespace=False)


class PasswordResetConfirmIn(TokenIn):
    password = StrictCharField(max_length=PASSWORD_MAX, trim_whitespace=False)


class PasswordChangedOut(DetailOut):
    tokens_revoked = serializers.IntegerField()


class AccountPatchIn(serializers.Serializer):
    """Every field is optional: a PATCH with nothing to change changes nothing (200)."""

    display_name = CleanTextField(max_length=DISPLAY_NAME_MAX, required=False)


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class AccountsNotAllowedDetails(serializers.Serializer):
    display_name = serializers.CharField(required=False)
    until = serializers.DateTimeField(required=False, help_text="R-39: the reset name is refused until then")
    closed_at = serializers.DateTimeField(required=False)
    jokers = serializers.IntegerField(required=False, help_text="the balance a correction cannot go below")


class AccountsConflictDetails(serializers.Serializer):
    token = serializers.ListField(child=serializers.CharField(), required=False)
    username = serializers.ListField(child=serializers.CharField(), required=False)


ERROR_DETAILS = {"not_allowed": AccountsNotAllowedDetails, "conflict": AccountsConflictDetails}

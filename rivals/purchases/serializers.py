"""The shapes of the store's purchase reports (R-11)."""

from django.core.validators import RegexValidator
from rest_framework import serializers

from rivals.api.serializers import StrictCharField

STORE_ID = r"^[\x21-\x7e]+$"  # printable ASCII, no space: store transaction and product ids


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer, and only that: a report saying ``"5"`` or ``true`` is a store's bug."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class PurchaseIn(serializers.Serializer):
    transaction_id = StrictCharField(
        max_length=200, validators=[RegexValidator(STORE_ID)], help_text="the store's transaction id: recorded once"
    )
    account_id = StrictIntegerField(min_value=1, max_value=2**63 - 1)
    product = StrictCharField(max_length=100, validators=[RegexValidator(STORE_ID)], help_text="the store's product id")
    jokers = StrictIntegerField(min_value=1, max_value=10_000, help_text="jokers bought, or refunded")
    kind = serializers.ChoiceField(choices=["purchase", "refund"])


class PurchaseOut(serializers.Serializer):
    account_id = serializers.IntegerField()
    jokers = serializers.IntegerField(help_text="the account's joker balance after this report (a replay: as then)")


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class PurchasesDetails(serializers.Serializer):
    account_id = serializers.IntegerField(required=False)


class PurchasesConflictDetails(serializers.Serializer):
    transaction_id = serializers.CharField(required=False, help_text="recorded with another report")


class PurchasesUnavailableDetails(serializers.Serializer):
    reason = serializers.CharField(required=False, help_text="not_configured: the webhook's secret is not set")


ERROR_DETAILS = {
    "not_allowed": PurchasesDetails,
    "not_found": PurchasesDetails,
    "conflict": PurchasesConflictDetails,
    "unavailable": PurchasesUnavailableDetails,
}

"""Who hears of a joker change and of a display name reset (API.md "Notifications"; registered in
``rivals.notices`` from the app's ``ready()``): the account. What an operator did says the reason
code and the message written for the player, never the operator's note (issue 40,
``rivals.player_notice``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rivals.accounts import events as ev
from rivals.accounts.events import DISPLAY_NAME_RESET, JOKERS_CHANGED
from rivals.notices import to_account
from rivals.player_notice import REASON_CODES, OperatorNoticeData, notice_data

OPERATOR_CHANGES = ("operator_grant", "operator_correction")  # JokersChanged reasons an operator gives
OPERATOR_ONLY = frozenset({"note", "reason_code", "message"})  # the note; the rest is said by notice_data


class JokersChangedData(serializers.Serializer):
    account_id = serializers.IntegerField()
    delta = serializers.IntegerField(help_text="the change of the balance (R-11)")
    reason = serializers.CharField(
        help_text="joker_used, daily_bonus, purchase, refund, operator_grant, operator_correction …"
    )
    game_id = serializers.UUIDField(required=False)
    day = serializers.DateField(required=False)
    streak = serializers.IntegerField(required=False)
    transaction_id = serializers.CharField(required=False)
    product = serializers.CharField(required=False)
    # an operator's grant or correction (issue 40): what the player is told, never the operator's note
    reason_code = serializers.ChoiceField(choices=list(REASON_CODES), required=False)
    message = serializers.CharField(required=False, help_text="written by the operator for the player")


class DisplayNameResetData(OperatorNoticeData):
    display_name = serializers.CharField(help_text="the neutral name an operator gave (R-39)")


SHAPES = {"jokers_changed": JokersChangedData, "display_name_reset": DisplayNameResetData}


def _jokers(d: ev.JokersChangedData) -> dict[str, Any]:
    """A joker change as the player reads it: the delta, the reason and its reference (a game, a
    day …); an operator's grant or correction says its reason code (a correction made before
    there were codes: ``correction``) and message, never the operator's note."""
    data = {k: v for k, v in d.items() if k not in OPERATOR_ONLY}
    if d.get("reason") in OPERATOR_CHANGES:
        default = "correction" if d["reason"] == "operator_correction" else "other"
        data.update(notice_data(d, default_code=default))
    return data


TOLD = {
    JOKERS_CHANGED: to_account("jokers_changed", _jokers),
    # the neutral name an operator gave (the old one stays sealed)
    DISPLAY_NAME_RESET: to_account(
        "display_name_reset", lambda d: {"display_name": d["display_name"], **notice_data(d)}
    ),
}

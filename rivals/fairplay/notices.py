"""Who hears of a suspension and its lift (API.md "Notifications", R-38; registered in
``rivals.notices`` from the app's ``ready()``): the account, told the reason code and the message
written for the player — never the operator's note (``rivals.player_notice``)."""

from __future__ import annotations

from rivals.fairplay.events import ACCOUNT_SUSPENDED, ACCOUNT_SUSPENSION_LIFTED
from rivals.notices import to_account
from rivals.player_notice import OperatorNoticeData, notice_data


class AccountSuspendedData(OperatorNoticeData):
    """The account is suspended (R-38): it can sign in and read, not play competitively."""


class AccountSuspensionLiftedData(OperatorNoticeData):
    """The suspension is lifted."""


SHAPES = {"account_suspended": AccountSuspendedData, "account_suspension_lifted": AccountSuspensionLiftedData}

TOLD = {
    ACCOUNT_SUSPENDED: to_account("account_suspended", notice_data),
    ACCOUNT_SUSPENSION_LIFTED: to_account("account_suspension_lifted", notice_data),
}

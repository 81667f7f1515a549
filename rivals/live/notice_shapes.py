"""The data of each notification the live room makes (``rivals.live.notices``), one typed shape per
type — registered in ``rivals.notification_types`` from the room's ``ready()``, so that the schema's
``Notification`` union and the socket's notifications say exactly this. A key ``notices`` writes
must be declared here (the suite's contract check refuses an undeclared one)."""

from __future__ import annotations

from rest_framework import serializers

from rivals.player_notice import REASON_CODES


class DuelChallengedData(serializers.Serializer):
    duel_id = serializers.UUIDField()
    challenger = serializers.IntegerField(help_text="the challenger's account id")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="when the challenge lapses (R-19)")


class DuelAcceptedData(serializers.Serializer):
    duel_id = serializers.UUIDField()
    match_id = serializers.UUIDField(allow_null=True, help_text="the duel's match: its round follows")


class DuelDeclinedData(serializers.Serializer):
    duel_id = serializers.UUIDField()
    by = serializers.ChoiceField(
        choices=["opponent", "challenger", "system"],
        help_text="who ended it: the opponent declined, the challenger withdrew, or the server (R-38)",
    )
    reason = serializers.CharField(allow_null=True, help_text="the server's reason (account_suspended …) or null")


class MatchFoundData(serializers.Serializer):
    ticket_id = serializers.UUIDField()
    match_id = serializers.UUIDField(help_text="comes before the match's round_started")


class RoundStartedData(serializers.Serializer):
    round_id = serializers.UUIDField()
    match_id = serializers.UUIDField()
    index = serializers.IntegerField(help_text="1 … 3 (an Arena's rounds, R-20)")
    mode = serializers.CharField(help_text="quick, duel, arena or tournament")
    starts_at = serializers.DateTimeField()


class TournamentRegisteredData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    registered_at = serializers.DateTimeField(allow_null=True)


class TournamentRegistrationEndedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    reason = serializers.CharField(help_text="rescheduled: an operator moved a Champions start to another week (R-28)")
    starts_at = serializers.DateTimeField(allow_null=True, help_text="the new start")


class TournamentStartingData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    starts_at = serializers.DateTimeField()
    title = serializers.CharField(allow_null=True)


class TournamentSeatedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    wave = serializers.IntegerField()
    table = serializers.IntegerField()
    round_id = serializers.UUIDField(allow_null=True, help_text="play it at /api/v1/rounds/{round_id}")
    match_id = serializers.UUIDField(allow_null=True)


class TournamentFinishedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    place = serializers.IntegerField()
    tp = serializers.IntegerField()
    prize = serializers.IntegerField(allow_null=True, help_text="0 with no TP or while restricted (R-26, R-38)")


class TrophyAwardedData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    account_id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["cup", "champions"], help_text="R-27, R-29")
    title = serializers.CharField()


class TournamentCancelledData(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    reason = serializers.CharField(
        allow_null=True, help_text="operator, too_few_players, champions_too_few or not_started_before_end"
    )


class PrizeRefData(serializers.Serializer):
    """What a prize was for (a match, a tournament, a pot)."""

    match_id = serializers.UUIDField(required=False)
    tournament_id = serializers.UUIDField(required=False)
    pot_id = serializers.UUIDField(required=False)
    title = serializers.CharField(required=False)
    place = serializers.IntegerField(required=False)
    tp = serializers.IntegerField(required=False)
    score = serializers.IntegerField(required=False)


class PrizeAwardedData(serializers.Serializer):
    source = serializers.ChoiceField(choices=["quick_match", "arena", "tournament_prize", "pool_pot"])
    amount = serializers.IntegerField()
    ref = PrizeRefData(allow_null=True)


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


class OperatorNoticeData(serializers.Serializer):
    """What a player is told of an operator's act on their account (issue 40): a reason code and,
    only where the operator wrote one for the player, a message — never the operator's own note."""

    reason_code = serializers.ChoiceField(choices=list(REASON_CODES))
    message = serializers.CharField(required=False, help_text="written by the operator for the player")


class DisplayNameResetData(OperatorNoticeData):
    display_name = serializers.CharField(help_text="the neutral name an operator gave (R-39)")


class AccountSuspendedData(OperatorNoticeData):
    """The account is suspended (R-38): it can sign in and read, not play competitively."""


class AccountSuspensionLiftedData(OperatorNoticeData):
    """The suspension is lifted."""


class ClubRenamedData(OperatorNoticeData):
    club_id = serializers.UUIDField()
    name = serializers.CharField(help_text="the name an operator gave the club (R-39)")


SHAPES = {
    "duel_challenged": DuelChallengedData,
    "duel_accepted": DuelAcceptedData,
    "duel_declined": DuelDeclinedData,
    "match_found": MatchFoundData,
    "round_started": RoundStartedData,
    "tournament_registered": TournamentRegisteredData,
    "tournament_registration_ended": TournamentRegistrationEndedData,
    "tournament_starting": TournamentStartingData,
    "tournament_seated": TournamentSeatedData,
    "tournament_finished": TournamentFinishedData,
    "tournament_cancelled": TournamentCancelledData,
    "prize_awarded": PrizeAwardedData,
    "trophy_awarded": TrophyAwardedData,
    "jokers_changed": JokersChangedData,
    "display_name_reset": DisplayNameResetData,
    "account_suspended": AccountSuspendedData,
    "account_suspension_lifted": AccountSuspensionLiftedData,
    "club_renamed": ClubRenamedData,
}

"""The shapes of the tournaments API (API.md "Tournaments", P-5 pots)."""

from rest_framework import serializers

from rivals.api.serializers import PageIn, PlayerRefOut
from rivals.deals.serializers import DealOut
from rivals.games.serializers import GameOut
from tournaments import selectors as sel
from tournaments.models import KINDS

CANCEL_REASONS = ["operator", "too_few_players", "champions_too_few", "not_started_before_end"]


class TournamentListIn(PageIn):
    status = serializers.ChoiceField(choices=sorted(sel.STATUS_FILTERS), required=False)


class TournamentOut(serializers.Serializer):
    """R-21: everything an operator set, and the registered count."""

    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=[k for k, _ in KINDS])
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=sorted(sel.STATUS_FILTERS))
    registration_opens_at = serializers.DateTimeField(help_text="R-28: never before the start's Monday (Champions)")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    min_players = serializers.IntegerField()
    prize_table = serializers.ListField(child=serializers.IntegerField(), help_text="points per final place")
    multipliers = serializers.ListField(child=serializers.IntegerField(), help_text="TP multiplier per wave")
    registered = serializers.IntegerField()
    current_wave = serializers.IntegerField()
    cancel_reason = serializers.ChoiceField(choices=CANCEL_REASONS, allow_null=True)
    cancelled_at = serializers.DateTimeField(allow_null=True, help_text="when it was cancelled (null unless cancelled)")
    finalized_at = serializers.DateTimeField(allow_null=True)


class TournamentListOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = TournamentOut(many=True)


class TournamentStandingOut(serializers.Serializer):
    place = serializers.IntegerField()
    player = PlayerRefOut()
    tp = serializers.IntegerField()
    tables_played = serializers.IntegerField(help_text="tables the player removed a pair at (R-37)")
    prize = serializers.IntegerField(required=False, help_text="once finished")


class TournamentSeatOut(serializers.Serializer):
    player = PlayerRefOut()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    tp = serializers.IntegerField(allow_null=True)


class TournamentTableOut(serializers.Serializer):
    wave = serializers.IntegerField()
    table = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["playing", "ended"])
    match_id = serializers.UUIDField(allow_null=True)
    round_id = serializers.UUIDField(allow_null=True, help_text="play it at /api/v1/rounds/{id}")
    seated_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    players = TournamentSeatOut(many=True)


class TournamentMeOut(serializers.Serializer):
    registered = serializers.BooleanField()
    registered_at = serializers.DateTimeField(allow_null=True)
    tp = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(allow_null=True)
    current_table = TournamentTableOut(allow_null=True)
    past_tables = TournamentTableOut(many=True)


class TournamentPageOut(TournamentOut):
    standings = TournamentStandingOut(
        many=True, help_text="by total TP (R-26); empty for a tournament cancelled before any table was played"
    )
    me = TournamentMeOut(allow_null=True, help_text="with a token")
    current_table = TournamentTableOut(allow_null=True, help_text="the caller's table now (as in me)")


class RegistrationOut(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    registered = serializers.BooleanField()
    registered_at = serializers.DateTimeField(allow_null=True)
    registered_count = serializers.IntegerField()


class PotEntrantOut(serializers.Serializer):
    player = PlayerRefOut()
    entered = serializers.BooleanField()
    game_id = serializers.UUIDField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(allow_null=True)


class PotOut(DealOut):
    """P-5: a pot; its deal's ``commitment`` from its creation, ``code`` and ``salt`` once it has
    closed (R-40)."""

    id = serializers.UUIDField()
    title = serializers.CharField()
    time_limit_s = serializers.IntegerField()
    open_entry = serializers.BooleanField()
    prize_split = serializers.ListField(child=serializers.IntegerField())
    counts = serializers.BooleanField(help_text="whether its prizes count in the rankings")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=["open", "finished"])
    entrants = PotEntrantOut(many=True)
    result = PotEntrantOut(many=True, allow_null=True)


class PotListIn(PageIn):
    status = serializers.ChoiceField(choices=list(sel.POT_PHASES), required=False)


class PotSummaryOut(serializers.Serializer):
    """P-5: a pot competition as the list shows it."""

    id = serializers.UUIDField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=list(sel.POT_PHASES))
    entry = serializers.ChoiceField(choices=["open", "listed"], help_text="anyone may enter, or the entry list only")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    time_limit_s = serializers.IntegerField(help_text="P-4: each entrant's game time")
    prize_split = serializers.ListField(child=serializers.IntegerField(), help_text="points per place")
    counts = serializers.BooleanField(help_text="whether its prizes count in the rankings")
    entrants = serializers.IntegerField(help_text="players listed or entered")


class PotListOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = PotSummaryOut(many=True)


class PotGameOut(serializers.Serializer):
    pot_id = serializers.UUIDField()
    game = GameOut()


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class TournamentsNotAllowedDetails(serializers.Serializer):
    status = serializers.CharField(required=False, help_text="the tournament's status")
    starts_at = serializers.DateTimeField(required=False)
    ends_at = serializers.DateTimeField(required=False)
    registration_opens_at = serializers.DateTimeField(required=False)
    registered = serializers.IntegerField(required=False)


class TournamentsConflictDetails(serializers.Serializer):
    registered_at = serializers.DateTimeField(required=False, help_text="already registered then")
    game_id = serializers.UUIDField(required=False, help_text="already entered: the pot game")


class TournamentsNotEligibleDetails(serializers.Serializer):
    weekly_prize_points = serializers.IntegerField(help_text="R-28: the caller's figure this week")
    required = serializers.IntegerField(help_text="R-28: 200")
    week_starts_at = serializers.DateTimeField(help_text="the Romanian week counted")


ERROR_DETAILS = {
    "not_allowed": TournamentsNotAllowedDetails,
    "conflict": TournamentsConflictDetails,
    "not_eligible": TournamentsNotEligibleDetails,
}

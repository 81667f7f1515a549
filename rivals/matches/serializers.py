"""The shapes of the competitive play API (API.md "Matches and rounds"): the queue, duels, matches
and rounds. A round is the caller's board as a game, plus the round; an opponent is a summary that
never carries tiles."""

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from rivals.api.serializers import EventOut, PageIn, PlayerRefOut
from rivals.deals.serializers import DealOut
from rivals.games.serializers import GAME_STATUSES, GameOut, TileOut
from rivals.matches.services.queue import GROUP as QUEUE_GROUP

MATCH_MODES = ["arena", "duel", "quick", "tournament"]
ROUND_STATUSES = ["scheduled", "running", "ended"]
END_REASONS = ["completed", "time_limit", "idle", "cutoff", "all_stuck", "operator"]


class QueueJoinIn(serializers.Serializer):
    mode = serializers.ChoiceField(choices=sorted(QUEUE_GROUP))


class DuelChallengeIn(serializers.Serializer):
    opponent = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="the challenged account's id")


class DuelPageIn(PageIn):
    limit = serializers.IntegerField(min_value=1, max_value=PageIn.MAX_LIMIT, default=20)


class TicketOut(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=sorted(QUEUE_GROUP))
    status = serializers.ChoiceField(choices=["waiting", "matched", "left", "expired"])
    match = serializers.UUIDField(allow_null=True)
    round = serializers.UUIDField(
        allow_null=True,
        help_text="an addition: the round of the match to play now (its first not yet over), so that a client goes "
        "straight to GET /rounds/{id}; null while waiting, and once the match is over",
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class PlacedOut(serializers.Serializer):
    """A player's place in a round or a match (R-18: completion first, then score; ties share)."""

    place = serializers.IntegerField()
    player = PlayerRefOut()
    score = serializers.IntegerField()
    completed = serializers.BooleanField()


class DuelResultOut(serializers.Serializer):
    standings = PlacedOut(many=True)
    winner = PlayerRefOut(allow_null=True, help_text="null when the two tied")


class DuelOut(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined", "cancelled", "expired"])
    challenger = PlayerRefOut()
    opponent = PlayerRefOut()
    match = serializers.UUIDField(allow_null=True)
    match_status = serializers.ChoiceField(choices=["running", "finished"], required=False)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    result = DuelResultOut(allow_null=True)


class DuelPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = DuelOut(many=True)


class MatchRoundOut(DealOut):
    id = serializers.UUIDField()
    index = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ROUND_STATUSES)
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="the current deadline; the end once ended")
    end_reason = serializers.ChoiceField(choices=END_REASONS, allow_null=True)


class PrizeOut(serializers.Serializer):
    player = PlayerRefOut()
    points = serializers.IntegerField(help_text="R-12 Quick Match points, R-20 Arena prize")


class MatchOut(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=MATCH_MODES)
    status = serializers.ChoiceField(choices=["running", "finished"])
    players = PlayerRefOut(many=True)
    rounds_total = serializers.IntegerField()
    rounds = MatchRoundOut(many=True)
    standings = PlacedOut(many=True)
    prizes = PrizeOut(many=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class MatchPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = MatchOut(many=True)


class OpponentOut(serializers.Serializer):
    """An opponent of the caller's round: a summary, never tiles (they play the same deal)."""

    player = PlayerRefOut()
    score = serializers.IntegerField()
    pairs_left = serializers.IntegerField()
    finished = serializers.BooleanField()
    stuck = serializers.BooleanField()


class RoundPlaceOut(PlacedOut):
    pairs_left = serializers.IntegerField()


class RoundResultOut(serializers.Serializer):
    reason = serializers.ChoiceField(choices=END_REASONS)
    ended_at = serializers.DateTimeField()
    places = RoundPlaceOut(many=True)


class RoundOut(GameOut):
    """The caller's board as a game (``id`` is the round's; the board's own state is
    ``board_status``), plus the round."""

    round_id = serializers.UUIDField()
    game_id = serializers.UUIDField()
    match_id = serializers.UUIDField()
    index = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ROUND_STATUSES)
    board_status = serializers.ChoiceField(choices=["playing", "paused", "won", "stuck", "ended"])
    starts_at = serializers.DateTimeField(help_text="the round's start (also started_at)")
    ends_at = serializers.DateTimeField(
        help_text="the round's end to show: its current deadline while scheduled or running (R-17: it moves "
        "with every pair; count down to it), the instant it ended once ended"
    )
    ended_at = serializers.DateTimeField(
        allow_null=True, help_text="when the round ended: null until then, then the same instant as ends_at"
    )
    finished_at = serializers.DateTimeField(
        allow_null=True,
        help_text="when the caller's own board closed (won, stuck or ended) — the board's, not the round's: "
        "a round's end is ends_at",
    )
    end_reason = serializers.ChoiceField(choices=END_REASONS, allow_null=True)
    opponents = OpponentOut(many=True)
    result = RoundResultOut(allow_null=True)


class RoundIntentAcceptedOut(serializers.Serializer):
    accepted = serializers.BooleanField()
    event = EventOut()
    events = EventOut(many=True)
    game = RoundOut()


class RoundIntentAcceptedMinimalOut(serializers.Serializer):
    """The answer to ``Prefer: return=minimal`` (RFC 7240, rivals.api.prefer): what the intent
    changed on the caller's board, and the round's status and deadline (the opponents' figures
    come with the round's read and over the live socket)."""

    accepted = serializers.BooleanField()
    events = EventOut(many=True)
    seq = serializers.IntegerField(help_text="intents accepted so far on the caller's board: the next intent's seq")
    score = serializers.IntegerField()
    board_status = serializers.ChoiceField(choices=GAME_STATUSES)
    status = serializers.ChoiceField(choices=ROUND_STATUSES)
    ends_at = serializers.DateTimeField(help_text="the current deadline; the end once ended")
    time_left_ms = serializers.IntegerField(allow_null=True)
    tiles_left = serializers.IntegerField()
    tiles = TileOut(many=True, help_text="the tiles on the board that appeared or whose free changed")
    removed = serializers.ListField(
        child=serializers.IntegerField(), help_text="the ids of the tiles that left the board"
    )


# the answer of an accepted round intent: the caller's board and the round, or what changed
ROUND_INTENT_ACCEPTED = PolymorphicProxySerializer(
    component_name="RoundIntentAnswer",
    serializers=[RoundIntentAcceptedOut, RoundIntentAcceptedMinimalOut],
    resource_type_field_name=None,
)


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class MatchesNotAllowedDetails(serializers.Serializer):
    status = serializers.CharField(required=False, help_text="the round's or the duel's status")
    ended_at = serializers.DateTimeField(required=False, help_text="R-38: the round ended then")
    late_ms = serializers.IntegerField(required=False, help_text="R-38: how late the intent was")
    starts_at = serializers.DateTimeField(required=False, help_text="the round starts then")
    early_ms = serializers.IntegerField(required=False, help_text="R-38: how early the intent was")
    reason = serializers.CharField(required=False, help_text="why the round ended")
    round = serializers.UUIDField(required=False)
    game_id = serializers.UUIDField(required=False, help_text="the caller's board of the round")
    opponent = serializers.IntegerField(required=False)
    challenger = serializers.IntegerField(required=False)
    match = serializers.UUIDField(required=False, help_text="the ticket's match: play it")


ERROR_DETAILS = {"not_allowed": MatchesNotAllowedDetails}

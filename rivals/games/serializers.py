"""The shapes of the games API (API.md "Boards and games"): one named component per shape, used by
the views' schema; the suite checks every answer against it (tests/contract.py)."""

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from rivals import engine
from rivals.api.serializers import EventOut, PlayerRefOut, StrictCharField
from rivals.deals.serializers import DealOut
from rivals.games.services import MODES, ROUND_MODES
from rivals.games.services.context import MAX_TILES
from rivals.games.services.modes import HOSTED_MODES

GAME_STATUSES = ["playing", "paused", "won", "stuck", "ended"]
GAME_MODES = sorted({*MODES, *HOSTED_MODES, *ROUND_MODES})


def _code_pattern() -> str:
    """T-9: ``MJ1-Lnn-XXXXXXX`` with one of the shipped layouts, case-insensitive."""
    layouts = "|".join(f"[Ll]{layout.id[1:]}" for layout in engine.all_layouts())
    return f"^[Mm][Jj]1-({layouts})-[A-Za-z2-7]{{7}}$"


@extend_schema_field({"type": "string", "pattern": _code_pattern(), "maxLength": 15})
class GameCodeField(StrictCharField):
    """A game code ``MJ1-Lnn-XXXXXXX`` (T-9), case-insensitive. The service parses it, so that a
    malformed code's 400 names the bad part."""


class SingleGameCreateIn(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["single"])
    level = serializers.IntegerField(
        min_value=1, max_value=11000, help_text="R-1: the level (open once the one before is won)"
    )


class CodeGameCreateIn(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["classic", "pool_practice"])
    code = GameCodeField(required=False, max_length=40, help_text="the deal's code; default a random deal")


_BY_MODE = {"single": SingleGameCreateIn, "classic": CodeGameCreateIn, "pool_practice": CodeGameCreateIn}
assert set(_BY_MODE) == set(MODES)

# the schema of POST /games: a single player game names a level, the others may name a deal
GAME_CREATE = PolymorphicProxySerializer(
    component_name="GameCreate", serializers=_BY_MODE, resource_type_field_name="mode"
)


class GameCreateIn(serializers.Serializer):
    """``POST /games`` read as GAME_CREATE states it: the mode picks the shape, and only that
    shape's properties are read (``level`` beside ``classic`` is ignored, as any undeclared property
    is, not validated)."""

    mode = serializers.ChoiceField(choices=sorted(MODES))

    def to_internal_value(self, data):
        mode = super().to_internal_value(data)["mode"]
        shape = _BY_MODE[mode](data=data)
        if not shape.is_valid():
            raise serializers.ValidationError(shape.errors)
        return dict(shape.validated_data)


class TileOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="the position's id in the layout")
    x = serializers.IntegerField(help_text="half-tile grid (T-4)")
    y = serializers.IntegerField()
    z = serializers.IntegerField(help_text="layer; 0 is the table")
    face = serializers.CharField(help_text="T-1 face code (1B … 9D, N S E W, R G Wh, F1 … F4, S1 … S4)")
    free = serializers.BooleanField(help_text="T-5 / T-6a: may be lifted now")


class GameOut(DealOut):
    """A board. A practice board shows its ``code`` (``commitment`` and ``salt`` null); a
    competition's board (a round's, a pot's) its deal's ``commitment``, and its ``code`` and
    ``salt`` once the competition is over (R-40)."""

    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=GAME_MODES)
    ruleset = serializers.ChoiceField(choices=["rivals", "classic", "pool"])
    level = serializers.IntegerField(allow_null=True)
    layout = serializers.CharField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    score = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="intents accepted so far: the next intent's seq")
    elapsed_ms = serializers.IntegerField(help_text="play time, pauses excluded (T-12)")
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    completion_ms = serializers.IntegerField(allow_null=True)
    tiles = TileOut(many=True, help_text="the tiles on the board (removed tiles are absent)")
    tiles_left = serializers.IntegerField()
    removable_pairs = serializers.IntegerField()
    jokers_used = serializers.IntegerField()
    hints_used = serializers.IntegerField()
    undos_used = serializers.IntegerField()
    shuffles_used = serializers.IntegerField()
    time_limit_ms = serializers.IntegerField(allow_null=True, help_text="pool games (P-4)")
    time_left_ms = serializers.IntegerField(allow_null=True)


class AwardOut(serializers.Serializer):
    source = serializers.CharField()
    award = serializers.CharField(help_text="first_completion, first_place, top10")
    points = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)


class AwardedOut(serializers.Serializer):
    points = serializers.IntegerField(help_text="total points this intent awarded (0 for most intents)")
    sources = AwardOut(many=True)


class IntentAcceptedOut(serializers.Serializer):
    accepted = serializers.BooleanField()
    event = EventOut(help_text="the intent's first event")
    events = EventOut(many=True)
    game = GameOut()
    awarded = AwardedOut()


class IntentAcceptedMinimalOut(serializers.Serializer):
    """The answer to ``Prefer: return=minimal`` (RFC 7240, rivals.api.prefer): what the intent
    changed. Applied to the board the client holds — drop ``removed``, put ``tiles`` in place — it
    gives the full answer's ``game.tiles``."""

    accepted = serializers.BooleanField()
    events = EventOut(many=True)
    seq = serializers.IntegerField(help_text="intents accepted so far: the next intent's seq")
    score = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    tiles_left = serializers.IntegerField()
    tiles = TileOut(many=True, help_text="the tiles on the board that appeared or whose free (or face) changed")
    removed = serializers.ListField(
        child=serializers.IntegerField(), help_text="the ids of the tiles that left the board"
    )
    awarded = AwardedOut()


# the answer of an accepted game intent: the whole game, or what changed (Prefer: return=minimal)
INTENT_ACCEPTED = PolymorphicProxySerializer(
    component_name="GameIntentAnswer",
    serializers=[IntentAcceptedOut, IntentAcceptedMinimalOut],
    resource_type_field_name=None,
)


def _intent(name: str, kind: str, **fields) -> type[serializers.Serializer]:
    attrs = {
        "seq": serializers.IntegerField(min_value=0, help_text="intents already accepted in this game"),
        "type": serializers.ChoiceField(choices=[kind]),
        **fields,
        "Meta": type("Meta", (), {"ref_name": name}),
    }
    return type(name, (serializers.Serializer,), attrs)


def _tile() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0, max_value=MAX_TILES - 1, help_text="a tile id (a position of the layout)"
    )


INTENTS = {
    "remove_pair": _intent(
        "RemovePairIntent",
        "remove_pair",
        tiles=serializers.ListField(child=_tile(), min_length=2, max_length=2, help_text="the pair [a, b]"),
    ),
    "click_blocked": _intent("ClickBlockedIntent", "click_blocked", tile=_tile()),
    "joker": _intent("JokerIntent", "joker", tile=_tile()),
    **{
        kind: _intent(f"{kind.title().replace('_', '')}Intent", kind)
        for kind in ("hint", "undo", "shuffle", "pause", "resume", "restart", "end")
    },
}


def intent_union(name: str, kinds) -> PolymorphicProxySerializer:
    """An intent body: one shape per ``type`` (a discriminated union)."""
    return PolymorphicProxySerializer(
        component_name=name,
        serializers={kind: INTENTS[kind] for kind in kinds},
        resource_type_field_name="type",
    )


class LevelOut(serializers.Serializer):
    level = serializers.IntegerField()
    code = serializers.CharField()
    layout = serializers.CharField()
    hard = serializers.BooleanField()
    difficulty = serializers.FloatField()
    unlocked = serializers.BooleanField(allow_null=True, help_text="with a token: may the caller play it")


class LeaderboardRowOut(serializers.Serializer):
    place = serializers.IntegerField()
    player = PlayerRefOut()
    time_ms = serializers.IntegerField()


class RecordOut(serializers.Serializer):
    game_id = serializers.UUIDField()
    time_ms = serializers.IntegerField()
    layout = serializers.CharField()
    code = serializers.CharField()
    mode = serializers.ChoiceField(choices=sorted(MODES))
    won_at = serializers.DateTimeField()


class LayoutOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    tiles = serializers.IntegerField()


# --- what this room's refusals carry in ``details`` (rivals.api.error_details) ---------------------


class GamesNotAllowedDetails(serializers.Serializer):
    status = serializers.CharField(required=False, help_text="the game's status (won, stuck, ended, paused …)")
    tiles = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="the refused pair")
    reason = serializers.CharField(required=False, help_text="no_match or not_free (a refused pair)")
    free = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="which of the pair is free"
    )
    tile = serializers.IntegerField(required=False)
    layout_tiles = serializers.IntegerField(required=False, help_text="the tiles of this game's layout")
    round = serializers.UUIDField(required=False, help_text="the board is a round's: play it there")
    level = serializers.IntegerField(required=False)
    requires = serializers.IntegerField(required=False, help_text="the level to win first (R-1)")
    game_id = serializers.UUIDField(required=False)
    interval_ms = serializers.IntegerField(required=False, help_text="a pair too fast (R-38): its interval")
    minimum_ms = serializers.IntegerField(required=False, help_text="the human minimum (R-38)")


class GamesLimitReachedDetails(serializers.Serializer):
    jokers_used = serializers.IntegerField(required=False, help_text="R-9: at most 2")
    hints_used = serializers.IntegerField(required=False, help_text="P-3: at most 5")
    undos_used = serializers.IntegerField(required=False, help_text="P-3: at most 5")
    shuffles_used = serializers.IntegerField(required=False, help_text="P-3: at most 5")


class GamesNoJokersDetails(serializers.Serializer):
    jokers = serializers.IntegerField(help_text="the balance (0)")


ERROR_DETAILS = {
    "not_allowed": GamesNotAllowedDetails,
    "limit_reached": GamesLimitReachedDetails,
    "no_jokers": GamesNoJokersDetails,
}

"""The events of a Sichuan table (SICHUAN.md S-1…S-19): one typed constructor each (schema
version 1).

Stream ``sichuan-<id>`` (stream type ``sichuan``). Two are the service's (``SERVICE_EVENTS``):
who opened the table, and each accepted human intent. The others are the engine's
(``ENGINE_EVENTS``: ``rivals.sichuan.engine`` emits them as dicts and folds them back with
``engine.replay``); ``engine_event`` turns one of its dicts into the store's event through its
constructor, which names the engine's ``from`` key ``from_seat``. Seats are 0…3 (the human is 0),
tiles 0…107.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict
from uuid import UUID

from rivals.event_types import constructor_name
from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
ADDED_KONG_DECLARED = "AddedKongDeclared"
CLAIM_DECLARED = "ClaimDeclared"
CLAIM_WINDOW_OPENED = "ClaimWindowOpened"
DEAL_ENDED = "DealEnded"
HAND_WON = "HandWon"
KONG_ROBBED = "KongRobbed"
KONGED = "Konged"
MISSING_SUIT_DECLARED = "MissingSuitDeclared"
MISSING_SUITS_REVEALED = "MissingSuitsRevealed"
PASSED = "Passed"
PONGED = "Ponged"
SETTLED = "Settled"
SICHUAN_INTENT_ACCEPTED = "SichuanIntentAccepted"
SICHUAN_TABLE_OPENED = "SichuanTableOpened"
TABLE_DEALT = "TableDealt"
TILE_DISCARDED = "TileDiscarded"
TILE_DRAWN = "TileDrawn"
WALL_EXHAUSTED = "WallExhausted"

SERVICE_EVENTS = frozenset({SICHUAN_TABLE_OPENED, SICHUAN_INTENT_ACCEPTED})
ENGINE_EVENTS = frozenset(
    {
        TABLE_DEALT,
        MISSING_SUIT_DECLARED,
        MISSING_SUITS_REVEALED,
        TILE_DRAWN,
        TILE_DISCARDED,
        ADDED_KONG_DECLARED,
        CLAIM_WINDOW_OPENED,
        CLAIM_DECLARED,
        PASSED,
        KONG_ROBBED,
        HAND_WON,
        PONGED,
        KONGED,
        SETTLED,
        WALL_EXHAUSTED,
        DEAL_ENDED,
    }
)
SICHUAN_EVENTS = SERVICE_EVENTS | ENGINE_EVENTS


class SichuanAction(TypedDict):
    """The human's action as the engine reads it: its ``type`` and, for ``declare_missing``, the
    ``suit``; for ``discard`` (and a ``kong`` naming which one) the ``tile``."""

    type: str
    suit: NotRequired[str]
    tile: NotRequired[int]


class SichuanRules(TypedDict, total=False):
    """The table's named settings (``rivals.sichuan.engine.rules.Rules``: SICHUAN.md's decisions)."""

    dealer_from_seed: bool
    turn_after_discard_win: str
    fan_cap: int
    self_draw_bonus: int
    exposed_kong_points: int
    added_kong_points: int
    concealed_kong_points: int
    flower_pig_points: int
    pig_pays_active_only: bool
    refund_by: str


class Claim(TypedDict):
    """S-5: a seat that may claim the tile, and how (``win``, ``pong``, ``kong``)."""

    seat: int
    options: list[str]


class Payment(TypedDict):
    """S-13…S-16: one payment between two seats."""

    reason: str
    payer: int
    payee: int
    amount: int


# --- the service's ----------------------------------------------------------------------------


class SichuanTableOpenedData(TypedDict):
    table_id: str
    account_id: int
    human_seat: int


def sichuan_table_opened(*, table_id: UUID | str, account_id: int, human_seat: int) -> NewEvent:
    data: SichuanTableOpenedData = {"table_id": str(table_id), "account_id": account_id, "human_seat": human_seat}
    return NewEvent(SICHUAN_TABLE_OPENED, data)


class SichuanIntentAcceptedData(TypedDict):
    seq: int
    seat: int
    action: SichuanAction


def sichuan_intent_accepted(*, seq: int, seat: int, action: SichuanAction) -> NewEvent:
    """The human's action (``{"type": "discard", "tile": 17}`` …) before the engine's events it caused."""
    data: SichuanIntentAcceptedData = {"seq": seq, "seat": seat, "action": action}
    return NewEvent(SICHUAN_INTENT_ACCEPTED, data)


# --- the engine's -----------------------------------------------------------------------------


class TableDealtData(TypedDict):
    seed: int
    dealer: int
    hands: list[list[int]]
    wall: list[int]
    rules: SichuanRules


def table_dealt(*, seed: int, dealer: int, hands: list[list[int]], wall: list[int], rules: SichuanRules) -> NewEvent:
    """S-2: the deal of ``seed`` under ``rules`` (the engine's rule options)."""
    data: TableDealtData = {"seed": seed, "dealer": dealer, "hands": hands, "wall": wall, "rules": rules}
    return NewEvent(TABLE_DEALT, data)


class MissingSuitDeclaredData(TypedDict):
    seat: int
    suit: str


def missing_suit_declared(*, seat: int, suit: str) -> NewEvent:
    """S-3: ``C``, ``D`` or ``B``."""
    data: MissingSuitDeclaredData = {"seat": seat, "suit": suit}
    return NewEvent(MISSING_SUIT_DECLARED, data)


class MissingSuitsRevealedData(TypedDict):
    suits: list[str]
    dealer: int


def missing_suits_revealed(*, suits: list[str], dealer: int) -> NewEvent:
    data: MissingSuitsRevealedData = {"suits": suits, "dealer": dealer}
    return NewEvent(MISSING_SUITS_REVEALED, data)


class TileDrawnData(TypedDict):
    seat: int
    tile: int
    replacement: bool


def tile_drawn(*, seat: int, tile: int, replacement: bool) -> NewEvent:
    """``replacement``: drawn from the wall's end after a kong."""
    data: TileDrawnData = {"seat": seat, "tile": tile, "replacement": replacement}
    return NewEvent(TILE_DRAWN, data)


class TileDiscardedData(TypedDict):
    seat: int
    tile: int


def tile_discarded(*, seat: int, tile: int) -> NewEvent:
    data: TileDiscardedData = {"seat": seat, "tile": tile}
    return NewEvent(TILE_DISCARDED, data)


class AddedKongDeclaredData(TypedDict):
    seat: int
    tile: int


def added_kong_declared(*, seat: int, tile: int) -> NewEvent:
    """S-7: an added kong, which the others may rob."""
    data: AddedKongDeclaredData = {"seat": seat, "tile": tile}
    return NewEvent(ADDED_KONG_DECLARED, data)


# the engine's key ``from`` is a keyword: these payloads are declared in TypedDict's functional syntax
ClaimWindowOpenedData = TypedDict(
    "ClaimWindowOpenedData", {"kind": str, "from": int, "tile": int, "claims": list[Claim]}
)


def claim_window_opened(*, kind: str, from_seat: int, tile: int, claims: list[Claim]) -> NewEvent:
    """S-5: who may claim ``tile`` (``kind``: ``discard`` or ``rob``): ``[{"seat", "options"}]``."""
    data: ClaimWindowOpenedData = {"kind": kind, "from": from_seat, "tile": tile, "claims": claims}
    return NewEvent(CLAIM_WINDOW_OPENED, data)


class ClaimDeclaredData(TypedDict):
    seat: int
    claim: str


def claim_declared(*, seat: int, claim: str) -> NewEvent:
    data: ClaimDeclaredData = {"seat": seat, "claim": claim}
    return NewEvent(CLAIM_DECLARED, data)


class PassedData(TypedDict):
    seat: int


def passed(*, seat: int) -> NewEvent:
    data: PassedData = {"seat": seat}
    return NewEvent(PASSED, data)


class KongRobbedData(TypedDict):
    seat: int
    tile: int
    winners: list[int]


def kong_robbed(*, seat: int, tile: int, winners: list[int]) -> NewEvent:
    data: KongRobbedData = {"seat": seat, "tile": tile, "winners": winners}
    return NewEvent(KONG_ROBBED, data)


HandWonData = TypedDict(
    "HandWonData",
    {
        "seat": int,
        "by": str,
        "from": int | None,
        "tile": int,
        "takes_tile": bool,
        "fan": int,
        "fans": list[str],
        "value": int,
    },
)


def hand_won(
    *,
    seat: int,
    by: str,
    from_seat: int | None,
    tile: int,
    takes_tile: bool,
    fan: int,
    fans: list[str],
    value: int,
) -> NewEvent:
    """S-10…S-14: ``by``: ``discard``, ``rob`` or ``self_draw``."""
    data: HandWonData = {
        "seat": seat,
        "by": by,
        "from": from_seat,
        "tile": tile,
        "takes_tile": takes_tile,
        "fan": fan,
        "fans": fans,
        "value": value,
    }
    return NewEvent(HAND_WON, data)


PongedData = TypedDict("PongedData", {"seat": int, "from": int, "tile": int, "tiles": list[int]})


def ponged(*, seat: int, from_seat: int, tile: int, tiles: list[int]) -> NewEvent:
    data: PongedData = {"seat": seat, "from": from_seat, "tile": tile, "tiles": tiles}
    return NewEvent(PONGED, data)


KongedData = TypedDict(
    "KongedData", {"seat": int, "kind": str, "from": int | None, "tile": int, "tiles": list[int] | None}
)


def konged(*, seat: int, kind: str, from_seat: int | None, tile: int, tiles: list[int] | None) -> NewEvent:
    """S-6: ``kind``: ``exposed``, ``concealed`` or ``added``."""
    data: KongedData = {"seat": seat, "kind": kind, "from": from_seat, "tile": tile, "tiles": tiles}
    return NewEvent(KONGED, data)


class SettledData(TypedDict):
    reason: str
    payments: list[Payment]


def settled(*, reason: str, payments: list[Payment]) -> NewEvent:
    """S-13, S-15, S-16: the payments of a win, a kong or the wall's end:
    ``[{"reason", "payer", "payee", "amount"}]``."""
    data: SettledData = {"reason": reason, "payments": payments}
    return NewEvent(SETTLED, data)


class WallExhaustedData(TypedDict):
    active: list[int]
    pigs: list[int]
    ready: list[list[int]]
    hands: list[list[int]]


def wall_exhausted(*, active: list[int], pigs: list[int], ready: list[list[int]], hands: list[list[int]]) -> NewEvent:
    """S-16: ``ready``: ``[[seat, value], …]`` of the ready hands."""
    data: WallExhaustedData = {"active": active, "pigs": pigs, "ready": ready, "hands": hands}
    return NewEvent(WALL_EXHAUSTED, data)


class DealEndedData(TypedDict):
    reason: str
    scores: list[int]
    hands: list[list[int]]


def deal_ended(*, reason: str, scores: list[int], hands: list[list[int]]) -> NewEvent:
    """S-9: ``reason``: ``three_won`` or ``wall_exhausted``."""
    data: DealEndedData = {"reason": reason, "scores": scores, "hands": hands}
    return NewEvent(DEAL_ENDED, data)


_ENGINE_CONSTRUCTORS = {name: globals()[constructor_name(name)] for name in ENGINE_EVENTS}


def engine_event(event: dict[str, Any]) -> NewEvent:
    """One of the engine's event dicts (``{"type": "TileDrawn", "seat": 1, …}``) as the store's
    event, through its constructor (an unknown type or key is a ``KeyError``/``TypeError``)."""
    kwargs = {("from_seat" if k == "from" else k): v for k, v in event.items() if k != "type"}
    return _ENGINE_CONSTRUCTORS[event["type"]](**kwargs)

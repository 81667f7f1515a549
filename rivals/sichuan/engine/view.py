"""What one seat may see (S-18, API "your view").

``seat_view`` copies the visible parts of a table into an immutable ``SeatView``: the seat's own
hand, all melds and discards, counts, missing suits once all four are declared, and (only after
the deal has ended) all hands.  A ``SeatView`` holds plain ints/strs/tuples and never a reference
to the Table, its wall or another seat's hand -- the AI receives only this object.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import SUITS, tile_kind


@dataclass(frozen=True, slots=True)
class MeldView:
    type: str  # "pong" | "kong"
    kong: str | None  # "exposed" | "added" | "concealed" | None
    tiles: tuple[int, ...]
    from_seat: int | None

    @property
    def kind(self) -> int:
        return tile_kind(self.tiles[0])


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    phase: str
    turn: int | None
    dealer: int
    hand: tuple[int, ...]
    drawn: int | None
    melds: tuple[tuple[MeldView, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    wall_count: int
    hand_sizes: tuple[int, ...]
    missing: tuple[str | None, ...]  # own suit always; others once all have declared
    active: tuple[bool, ...]
    wins: tuple[tuple | None, ...]  # (by, tile, value) per seat
    claim: tuple | None  # (kind, from_seat, tile) of an open claim window
    legal: tuple[dict, ...]
    scores: tuple[int, ...]
    over: bool
    revealed_hands: tuple[tuple[int, ...], ...] | None

    @property
    def missing_suit(self) -> int | None:
        m = self.missing[self.seat]
        return None if m is None else SUITS.index(m)

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "turn": self.turn,
            "dealer": self.dealer,
            "hand": list(self.hand),
            "drawn": self.drawn,
            "melds": [
                [{"type": m.type, "kong": m.kong, "tiles": list(m.tiles), "from": m.from_seat} for m in ms]
                for ms in self.melds
            ],
            "discards": [list(d) for d in self.discards],
            "wall_count": self.wall_count,
            "hand_sizes": list(self.hand_sizes),
            "missing": list(self.missing),
            "active": list(self.active),
            "wins": [list(w) if w else None for w in self.wins],
            "claim": list(self.claim) if self.claim else None,
            "legal_actions": [dict(a) for a in self.legal],
            "scores": list(self.scores),
            "over": self.over,
            "revealed_hands": [list(h) for h in self.revealed_hands] if self.revealed_hands else None,
        }


def seat_view(table, seat: int) -> SeatView:
    if seat not in (0, 1, 2, 3):
        raise ValueError("seat must be 0..3")
    missing = tuple(
        (SUITS[m] if m is not None else None) if (table.revealed or s == seat) else None
        for s, m in enumerate(table.missing)
    )
    claim = None
    if table.phase == "claims" and table.claim:
        claim = (table.claim["kind"], table.claim["from"], table.claim["tile"])
    drawn = table.drawn if table.turn == seat else None
    return SeatView(
        seat=seat,
        phase=table.phase,
        turn=table.turn,
        dealer=table.dealer,
        hand=tuple(sorted(table.hands[seat])),
        drawn=drawn,
        melds=tuple(
            tuple(MeldView(m["type"], m["kong"], tuple(m["tiles"]), m["from"]) for m in ms) for ms in table.melds
        ),
        discards=tuple(tuple(d) for d in table.discards),
        wall_count=len(table.wall),
        hand_sizes=tuple(len(h) for h in table.hands),
        missing=missing,
        active=tuple(table.active),
        wins=tuple((w["by"], w["tile"], w["value"]) if w else None for w in table.wins),
        claim=claim,
        legal=tuple(dict(a) for a in table.legal_actions(seat)),
        scores=tuple(table.scores),
        over=table.over,
        revealed_hands=tuple(tuple(sorted(h)) for h in table.hands) if table.over else None,
    )


def events_for_seat(events, seat: int) -> list[dict]:
    """Redact an event stream for one seat: others' dealt hands, draws and the wall order stay
    hidden, and others' missing-suit choices until ``MissingSuitsRevealed``; ``DealEnded`` and
    ``WallExhausted`` reveal all hands."""
    out = []
    for ev in events:
        t = ev["type"]
        if t == "TableDealt":
            ev = {
                **ev,
                "hands": [h if s == seat else None for s, h in enumerate(ev["hands"])],
                "hand_sizes": [len(h) for h in ev["hands"]],
                "wall": None,
                "wall_count": len(ev["wall"]),
            }
        elif t == "TileDrawn" and ev["seat"] != seat:
            ev = {**ev, "tile": None}
        elif t == "MissingSuitDeclared" and ev["seat"] != seat:
            ev = {**ev, "suit": None}
        out.append(ev)
    return out

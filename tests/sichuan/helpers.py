"""Scenario helpers: build a table from chosen hands by folding a crafted ``TableDealt``."""

from __future__ import annotations

from rivals.sichuan.engine import replay
from rivals.sichuan.engine.rules import Rules

SUITS = "CDB"


def kinds(spec: str) -> list[int]:
    """``"123C 55D"`` -> tile kinds."""
    out = []
    for tok in spec.split():
        s = SUITS.index(tok[-1])
        out.extend(9 * s + int(r) - 1 for r in tok[:-1])
    return out


def counts(spec: str) -> list[int]:
    c = [0] * 27
    for k in kinds(spec):
        c[k] += 1
    return c


def melds(spec: str) -> list[tuple[int, int]]:
    """``"555D 7777C"`` -> [(kind, 3), (kind, 4)]."""
    out = []
    for tok in spec.split():
        ks = kinds(tok)
        out.append((ks[0], len(ks)))
    return out


class Deck:
    def __init__(self):
        self.free = {k: [4 * k + i for i in range(4)] for k in range(27)}

    def take(self, spec: str) -> list[int]:
        return [self.free[k].pop(0) for k in kinds(spec)]

    def rest(self) -> list[int]:
        return sorted(t for ids in self.free.values() for t in ids)


def make_table(
    hands: list[str],
    front: str = "",
    back: str = "",
    dealer: int = 0,
    missing: str | None = "BBBB",
    fill: bool = True,
    rules: Rules | None = None,
):
    """Hands by face strings; the wall is ``front`` (drawn first) + the unused tiles (when
    ``fill``) + ``back`` (kong replacements come from the back, last listed first)."""
    deck = Deck()
    hs = [deck.take(h) for h in hands]
    f = deck.take(front)
    b = deck.take(back)
    middle = deck.rest() if fill else []
    wall = f + middle + list(reversed(b))
    t = replay(
        [
            {
                "type": "TableDealt",
                "seed": 0,
                "dealer": dealer,
                "hands": hs,
                "wall": wall,
                "rules": (rules or Rules()).to_dict(),
            }
        ]
    )
    if missing:
        for s in range(4):
            t.apply(s, {"type": "declare_missing", "suit": missing[s]})
    return t


def tile_of(t, seat: int, spec: str) -> int:
    """An id of kind ``spec`` (e.g. ``"5D"``) in the seat's hand."""
    k = kinds(spec)[0]
    return next(x for x in sorted(t.hands[seat]) if x >> 2 == k)


def discard(t, seat: int, spec: str):
    return t.apply(seat, {"type": "discard", "tile": tile_of(t, seat, spec)})


def types(events) -> list[str]:
    return [e["type"] for e in events]


def settled(events, reason=None) -> list[dict]:
    return [
        p for e in events if e["type"] == "Settled" and (reason is None or e["reason"] == reason) for p in e["payments"]
    ]


def pays(records) -> list[tuple[int, int, int]]:
    return [(r["payer"], r["payee"], r["amount"]) for r in records]

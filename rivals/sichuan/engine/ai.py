"""The Sichuan AI (S-18) and the random-legal baseline (S-19).

The AI acts on a ``SeatView`` only (see ``view.py``): this module never imports the table.
"""

from __future__ import annotations

from . import hands as H
from .tiles import SUITS, SplitMix64


def _counts(tiles):
    c = [0] * 27
    for t in tiles:
        c[t >> 2] += 1
    return c


def _strip(c, ms):
    """Counts without the missing suit (those tiles are on their way out, S-3)."""
    if ms is None:
        return c
    c = list(c)
    for k in range(9 * ms, 9 * ms + 9):
        c[k] = 0
    return c


def _visible(view):
    vis = _counts(view.hand)
    for ms in view.melds:
        for m in ms:
            for t in m.tiles:
                vis[t >> 2] += 1
    for d in view.discards:
        for t in d:
            vis[t >> 2] += 1
    return vis


def _own_melds(view):
    return len(view.melds[view.seat])


def _declare(view) -> dict:
    """S-18: declare the missing suit of least cost: the suit whose removal leaves the hand
    closest to ready, then the suit with fewest tiles."""
    c = _counts(view.hand)
    best = None
    for s in range(3):
        key = (H.shanten(_strip(c, s), 0), sum(c[9 * s : 9 * s + 9]), s)
        if best is None or key < best:
            best = key
    return {"type": "declare_missing", "suit": SUITS[best[2]]}


def _near(c, ms):
    """Kinds that can improve the hand: held kinds and their neighbours within 2."""
    out = set()
    for k in range(27):
        if c[k]:
            s, r = divmod(k, 9)
            if s == ms:
                continue
            for d in (-2, -1, 0, 1, 2):
                if 0 <= r + d < 9:
                    out.add(9 * s + r + d)
    return out


def _ukeire(c, nm, sh, live, ms):
    total = 0
    for j in _near(c, ms):
        if live[j] <= 0:
            continue
        c[j] += 1
        if H.shanten(c, nm) < sh:
            total += live[j]
        c[j] -= 1
    return total


def _fan_potential(c):
    suits = [sum(c[9 * s : 9 * s + 9]) for s in range(3)]
    pairs = sum(1 for x in c if x >= 2)
    return max(suits) * 2 + pairs


def _discard(view, discards) -> dict:
    ms = view.missing_suit
    hand = view.hand
    vis = _visible(view)
    miss = [a for a in discards if (a["tile"] >> 2) // 9 == ms]
    if miss:  # S-3 / S-18: missing-suit tiles first; the most visible (safest) first
        c = _counts(hand)
        return min(miss, key=lambda a: (c[a["tile"] >> 2], -vis[a["tile"] >> 2], a["tile"]))
    c = _strip(_counts(hand), ms)
    nm = _own_melds(view)
    live = [4 - v for v in vis]
    by_kind = {}
    for a in discards:
        by_kind.setdefault(a["tile"] >> 2, a)
    scored = []
    for k, a in by_kind.items():
        c[k] -= 1
        scored.append((H.shanten(c, nm), k, a))
        c[k] += 1
    best_sh = min(s for s, _, _ in scored)
    best = None
    for sh, k, a in scored:
        if sh != best_sh:
            continue
        c[k] -= 1
        uke = _ukeire(c, nm, sh, live, ms)
        fp = _fan_potential(c)
        c[k] += 1
        safety = vis[k]
        key = (-uke, -fp, -safety, k)
        if best is None or key < best[0]:
            best = (key, a)
    return best[1]


def _claim(view) -> dict:
    types = [a["type"] for a in view.legal]
    if "win" in types:  # S-18: always claims a win
        return {"type": "win"}
    ms = view.missing_suit
    tile = view.claim[2]
    k = tile >> 2
    c = _strip(_counts(view.hand), ms)
    nm = _own_melds(view)
    s0 = H.shanten(c, nm)
    if "kong" in types:
        c2 = list(c)
        c2[k] -= 3
        if H.shanten(c2, nm + 1) <= s0:  # S-18: only when not farther from ready
            return {"type": "kong"}
    if "pong" in types:
        c2 = list(c)
        c2[k] -= 2
        if H.shanten(c2, nm + 1) <= s0:
            return {"type": "pong"}
    return {"type": "pass"}


def ai_action(view) -> dict:
    """The AI's action for ``view.seat`` (S-18)."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to do")
    types = {a["type"] for a in legal}
    if "declare_missing" in types:
        return _declare(view)
    if view.phase == "claims":
        return _claim(view)
    if "win" in types:
        return {"type": "win"}
    kongs = [a for a in legal if a["type"] == "kong"]
    if kongs:
        ms = view.missing_suit
        c = _strip(_counts(view.hand), ms)
        nm = _own_melds(view)
        s0 = H.shanten(c, nm)
        own_pongs = {m.kind for m in view.melds[view.seat] if m.type == "pong"}
        for a in kongs:
            k = a["tile"] >> 2
            c2 = list(c)
            if k in own_pongs:
                c2[k] -= 1
                s1 = H.shanten(c2, nm)
            else:
                c2[k] -= 4
                s1 = H.shanten(c2, nm + 1)
            if s1 <= s0:  # S-18: kong only when not farther from ready
                return dict(a)
    discards = [a for a in legal if a["type"] == "discard"]
    return dict(_discard(view, discards))


class BaselinePlayer:
    """S-19 baseline: declares a random suit, always takes a win it is offered, and otherwise
    picks uniformly at random among its legal actions (so its discards are random but legal,
    S-3 obligation included, and pongs/kongs/passes are coin flips)."""

    def __init__(self, seed: int):
        self.rng = SplitMix64(seed)

    def __call__(self, view) -> dict:
        legal = view.legal
        for a in legal:
            if a["type"] == "win":
                return {"type": "win"}
        return dict(self.rng.choice(legal))

"""Winning hands, fan, value, waits and shanten (S-10 .. S-12).

Hands are handled as 27-entry count vectors (index = tile kind).  Every decomposition is done
per suit on a 9-entry vector and cached (``functools.lru_cache``), so a full-hand check only
combines three small cached sets.

Melds are given as ``(kind, size)`` pairs, size 3 (pong) or 4 (kong); all melds in this game
are pongs or kongs (there is no chow, S-4).
"""

from __future__ import annotations

from functools import cache

FAN_NAMES = (
    "basic",
    "all_pongs",
    "seven_pairs",
    "outside",
    "all_258_pongs",
    "full_flush",
    "single_wait",
    "root",
    "kong_replacement",
    "robbing_kong",
    "last_tile",
)
_FAN_VALUE = {
    "all_pongs": 1,
    "seven_pairs": 2,
    "outside": 2,
    "all_258_pongs": 3,
    "full_flush": 2,
    "single_wait": 1,
    "root": 1,
    "kong_replacement": 1,
    "robbing_kong": 1,
    "last_tile": 1,
}
EVENT_FANS = ("kong_replacement", "robbing_kong", "last_tile")

_I258 = (1, 4, 7)
_I19 = (0, 8)


# ---------------------------------------------------------------- per-suit winning forms
@cache
def _suit_forms(c: tuple) -> frozenset:
    """All feature tuples ``(has_pair, all_pong, all_258, outside)`` of the ways a 9-vector
    splits into pongs, runs and at most one pair.  Empty set: no split exists."""
    i = 0
    while i < 9 and not c[i]:
        i += 1
    if i == 9:
        return frozenset(((False, True, True, True),))
    out = set()
    r258 = i in _I258
    r19 = i in _I19
    lst = list(c)
    if c[i] >= 3:
        lst[i] -= 3
        for p, ap, a258, o in _suit_forms(tuple(lst)):
            out.add((p, ap, a258 and r258, o and r19))
        lst[i] += 3
    if c[i] >= 2:
        lst[i] -= 2
        for p, ap, a258, o in _suit_forms(tuple(lst)):
            if not p:
                out.add((True, ap, a258 and r258, o and r19))
        lst[i] += 2
    if i <= 6 and c[i + 1] and c[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        run_outside = i in (0, 6)
        for p, _ap, _a258, o in _suit_forms(tuple(lst)):
            out.add((p, False, False, o and run_outside))
    return frozenset(out)


def _suit_slices(counts) -> tuple:
    return (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))


def is_winning(counts, n_melds: int = 0) -> bool:
    """S-10: four sets + a pair (with ``n_melds`` declared sets) or seven pairs."""
    total = sum(counts)
    if total != 14 - 3 * n_melds:
        return False
    if n_melds == 0 and all(x % 2 == 0 for x in counts):
        return True  # S-10 seven pairs, a quad counts as two pairs
    pairs = 0
    for s in _suit_slices(counts):
        n = sum(s)
        if n == 0:
            continue
        r = n % 3
        if r == 1:
            return False
        forms = _suit_forms(s)
        if not forms:
            return False
        if r == 2:
            pairs += 1
    return pairs == 1


def _standard_feature_sets(counts):
    sl = _suit_slices(counts)
    per = []
    for s in sl:
        f = _suit_forms(s)
        if not f:
            return ()
        per.append(f)
    out = set()
    for f0 in per[0]:
        for f1 in per[1]:
            if f0[0] and f1[0]:
                continue
            for f2 in per[2]:
                if f0[0] + f1[0] + f2[0] != 1:
                    continue
                out.add((f0[1] and f1[1] and f2[1], f0[2] and f1[2] and f2[2], f0[3] and f1[3] and f2[3]))
    return out


def hand_fans(counts, melds=(), events=()) -> list[str] | None:
    """Best reading of a complete hand (S-10, S-11).

    ``counts``: concealed tiles including the winning tile; ``melds``: ``(kind, size)``;
    ``events``: win-event fans (``kong_replacement``, ``robbing_kong``, ``last_tile``).
    Returns the fan names (``root`` repeated per root) of the reading worth most, or None
    when the hand is not a winning hand."""
    n_melds = len(melds)
    if sum(counts) != 14 - 3 * n_melds:
        return None
    total = list(counts)
    for k, size in melds:
        total[k] += size
    suits_used = {k // 9 for k in range(27) if total[k]}
    common = []
    if len(suits_used) == 1:
        common.append("full_flush")
    roots = sum(1 for x in total if x == 4)
    common.extend(["root"] * roots)
    common.extend(events)
    candidates = []
    if n_melds == 0 and all(x % 2 == 0 for x in counts):
        candidates.append(["seven_pairs"])
    m_ap = True  # declared melds are always pongs or kongs
    m_258 = all((k % 9) in _I258 for k, _ in melds)
    m_19 = all((k % 9) in _I19 for k, _ in melds)
    for ap, a258, o in _standard_feature_sets(counts):
        fl = []
        ap = ap and m_ap
        if a258 and m_258 and ap:
            fl.append("all_258_pongs")  # S-11: 3, instead of all pongs
        elif ap:
            fl.append("all_pongs")
        if o and m_19:
            fl.append("outside")
        if n_melds == 4:
            fl.append("single_wait")  # S-11: single wait on the pair with four declared melds
        candidates.append(fl)
    if not candidates:
        return None
    best = max(candidates, key=lambda fl: sum(_FAN_VALUE[f] for f in fl))
    return (best + common) or ["basic"]


def fan_total(fans) -> int:
    return sum(_FAN_VALUE.get(f, 0) for f in fans)


def hand_value(fan: int, cap: int = 5) -> int:
    """S-12: 2^fan capped at ``cap`` fan (5 fan = 32 points)."""
    return 1 << min(fan, cap)


def score(counts, melds=(), events=(), cap: int = 5):
    """(fan, fans, value) of the best reading, or None if not a winning hand."""
    fans = hand_fans(counts, melds, events)
    if fans is None:
        return None
    fan = fan_total(fans)
    return fan, fans, hand_value(fan, cap)


def waits(counts, melds=(), missing_suit: int | None = None, exclude_exhausted: bool = True):
    """Kinds that would complete the hand (``counts`` holds 3n+1 concealed tiles).

    With ``exclude_exhausted`` a kind whose four copies all sit in this hand and melds is no
    wait (S-16.2).  A hand holding its missing suit waits on nothing (S-3)."""
    if missing_suit is not None and any(counts[9 * missing_suit : 9 * missing_suit + 9]):
        return []
    n_melds = len(melds)
    if sum(counts) != 13 - 3 * n_melds:
        return []
    own = list(counts)
    for k, size in melds:
        own[k] += size
    out = []
    c = list(counts)
    for k in range(27):
        if missing_suit is not None and k // 9 == missing_suit:
            continue
        if own[k] >= 4 and exclude_exhausted:
            continue
        # only a tile of a suit present, or completing seven pairs, can help
        c[k] += 1
        if is_winning(c, n_melds):
            out.append(k)
        c[k] -= 1
    return out


def best_ready_value(counts, melds=(), missing_suit=None, cap: int = 5):
    """S-16.2: the highest value the ready hand could win with over all its waits
    (no win-event fans, no self-draw bonus; roots included; capped).  0 when not ready."""
    best = 0
    c = list(counts)
    for k in waits(counts, melds, missing_suit):
        c[k] += 1
        r = score(c, melds, (), cap)
        c[k] -= 1
        if r and r[2] > best:
            best = r[2]
    return best


# ---------------------------------------------------------------- shanten
def _pareto(items):
    items = sorted(set(items), reverse=True)
    out = []
    for it in items:
        if not any(o[0] >= it[0] and o[1] >= it[1] and o[2] >= it[2] for o in out):
            out.append(it)
    return tuple(out)


@cache
def _suit_blocks(c: tuple) -> tuple:
    """Pareto set of (sets, partial sets, head pair) for one suit."""
    i = 0
    while i < 9 and not c[i]:
        i += 1
    if i == 9:
        return ((0, 0, 0),)
    res = []
    lst = list(c)
    lst[i] -= 1
    res.extend(_suit_blocks(tuple(lst)))  # tile i left isolated
    lst[i] += 1
    if c[i] >= 3:
        lst[i] -= 3
        res.extend((m + 1, t, p) for m, t, p in _suit_blocks(tuple(lst)))
        lst[i] += 3
    if c[i] >= 2:
        lst[i] -= 2
        for m, t, p in _suit_blocks(tuple(lst)):
            res.append((m, t + 1, p))
            if not p:
                res.append((m, t, 1))
        lst[i] += 2
    if i <= 7 and c[i + 1]:
        if i <= 6 and c[i + 2]:
            lst[i] -= 1
            lst[i + 1] -= 1
            lst[i + 2] -= 1
            res.extend((m + 1, t, p) for m, t, p in _suit_blocks(tuple(lst)))
            lst[i] += 1
            lst[i + 1] += 1
            lst[i + 2] += 1
        lst[i] -= 1
        lst[i + 1] -= 1
        res.extend((m, t + 1, p) for m, t, p in _suit_blocks(tuple(lst)))
        lst[i] += 1
        lst[i + 1] += 1
    if i <= 6 and c[i + 2]:
        lst[i] -= 1
        lst[i + 2] -= 1
        res.extend((m, t + 1, p) for m, t, p in _suit_blocks(tuple(lst)))
    return _pareto(res)


_SHANTEN_CACHE: dict = {}


def shanten(counts, n_melds: int = 0) -> int:
    """Distance to a ready hand: 0 = ready (with 3n+1 tiles), -1 = complete (3n+2 tiles).
    Standard form and, without melds, seven pairs (a quad is two pairs)."""
    key = (tuple(counts), n_melds)
    r = _SHANTEN_CACHE.get(key)
    if r is not None:
        return r
    a, b, c = (_suit_blocks(s) for s in _suit_slices(counts))
    best = 8
    for m0, t0, p0 in a:
        for m1, t1, p1 in b:
            for m2, t2, p2 in c:
                p = p0 + p1 + p2
                if p > 1:
                    continue
                m = m0 + m1 + m2 + n_melds
                t = t0 + t1 + t2
                if m + t > 4:
                    t = 4 - m
                s = 8 - 2 * m - t - p
                if s < best:
                    best = s
    if n_melds == 0:
        pairs = sum(x >> 1 for x in counts)
        s7 = 6 - min(7, pairs)
        if s7 < best:
            best = s7
    if len(_SHANTEN_CACHE) > 500_000:
        _SHANTEN_CACHE.clear()
    _SHANTEN_CACHE[key] = best
    return best

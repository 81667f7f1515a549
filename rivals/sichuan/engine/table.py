"""The Sichuan "Bloody Battle" table as an event-sourced state machine (S-1 .. S-9).

Every state change goes through ``Table._emit(event)``: the event (a JSON-serialisable dict) is
folded into the state by ``Table._on(event)`` and appended to ``Table.events``.  ``apply`` only
validates an action and decides which events follow; ``replay`` folds stored events into a fresh
table, so the state rebuilt from events is the live state by construction.
"""

from __future__ import annotations

from . import hands as H
from . import payments as P
from .rules import Rules
from .tiles import (
    N_TILES,
    SUIT_INDEX,
    SUITS,
    SplitMix64,
    counts_of,
    tile_kind,
    tile_suit,
)

SEATS = (0, 1, 2, 3)


def _matches(legal: dict, atype, action: dict) -> bool:
    """Is ``action`` (of type ``atype``) this legal action? A discard and a declaration name their
    tile or suit; a kong may name its tile (of the legal kong's kind); the others are their type."""
    if legal["type"] != atype:
        return False
    if atype == "discard":
        return legal["tile"] == action.get("tile")
    if atype == "kong" and "tile" in legal:
        t = action.get("tile")
        return t is None or (isinstance(t, int) and 0 <= t < N_TILES and tile_kind(t) == tile_kind(legal["tile"]))
    if atype == "declare_missing":
        return legal["suit"] == action.get("suit")
    return True


class IllegalAction(ValueError):
    """The action is not among the seat's legal actions."""


def _after(seat: int):
    """Seats in seating order after ``seat`` (S-5 claim order)."""
    return [(seat + i) % 4 for i in (1, 2, 3)]


class Table:
    def __init__(self, rules: Rules | None = None):
        self.rules = rules or Rules()
        self.seed: int | None = None
        self.dealer = 0
        self.wall: list[int] = []  # draws from the front, kong replacements from the back
        self.hands: list[list[int]] = [[], [], [], []]
        self.melds: list[list[dict]] = [[], [], [], []]
        self.discards: list[list[int]] = [[], [], [], []]
        self.missing: list[int | None] = [None] * 4  # suit index per seat
        self.revealed = False  # missing suits public (all four declared)
        self.active = [True] * 4
        self.wins: list[dict | None] = [None] * 4
        self.win_order: list[int] = []
        self.won_tiles: dict[int, int] = {}  # seat -> tile taken from a discard / robbed kong
        self.phase = "new"  # new, declare, turn, claims, kong, over
        self.turn: int | None = None
        self.drawn: int | None = None
        self.replacement = False
        self.after_pong = False
        self.claim: dict | None = None
        self.payments: list[dict] = []
        self.scores = [0, 0, 0, 0]
        self.events: list[dict] = []
        self.end_reason: str | None = None
        self._out: list[dict] | None = None

    # ------------------------------------------------------------------ event folding
    def _emit(self, ev: dict) -> None:
        self._on(ev)
        self.events.append(ev)
        if self._out is not None:
            self._out.append(ev)

    def _on(self, ev: dict) -> None:
        getattr(self, "_on_" + ev["type"])(ev)

    def _on_TableDealt(self, ev):
        self.seed = ev["seed"]
        self.rules = Rules.from_dict(ev.get("rules"))
        self.dealer = ev["dealer"]
        self.hands = [list(h) for h in ev["hands"]]
        self.wall = list(ev["wall"])
        self.phase = "declare"

    def _on_MissingSuitDeclared(self, ev):
        self.missing[ev["seat"]] = SUIT_INDEX[ev["suit"]]

    def _on_MissingSuitsRevealed(self, ev):
        self.revealed = True
        self.phase = "turn"
        self.turn = ev["dealer"]
        self.drawn = None
        self.replacement = False
        self.after_pong = False

    def _on_TileDrawn(self, ev):
        tile = ev["tile"]
        if ev["replacement"]:
            assert self.wall[-1] == tile
            self.wall.pop()
        else:
            assert self.wall[0] == tile
            self.wall.pop(0)
        self.hands[ev["seat"]].append(tile)
        self.phase = "turn"
        self.turn = ev["seat"]
        self.drawn = tile
        self.replacement = ev["replacement"]
        self.after_pong = False

    def _on_TileDiscarded(self, ev):
        seat, tile = ev["seat"], ev["tile"]
        self.hands[seat].remove(tile)
        self.discards[seat].append(tile)
        self.drawn = None
        self.replacement = False
        self.after_pong = False
        self.phase = "discarded"

    def _on_AddedKongDeclared(self, ev):
        self.phase = "kong"

    def _on_ClaimWindowOpened(self, ev):
        self.phase = "claims"
        self.claim = {
            "kind": ev["kind"],
            "from": ev["from"],
            "tile": ev["tile"],
            "options": {c["seat"]: list(c["options"]) for c in ev["claims"]},
            "decisions": {},
        }

    def _on_ClaimDeclared(self, ev):
        self.claim["decisions"][ev["seat"]] = ev["claim"]

    def _on_Passed(self, ev):
        self.claim["decisions"][ev["seat"]] = "pass"

    def _on_KongRobbed(self, ev):
        pass

    def _on_HandWon(self, ev):
        seat, tile = ev["seat"], ev["tile"]
        if ev["takes_tile"]:
            if ev["by"] == "discard":
                self.discards[ev["from"]].remove(tile)
            elif ev["by"] == "rob":
                self.hands[ev["from"]].remove(tile)
            self.won_tiles[seat] = tile
        self.active[seat] = False
        self.wins[seat] = {k: ev[k] for k in ("by", "tile", "from", "fan", "fans", "value")}
        self.win_order.append(seat)
        self.drawn = None

    def _on_Ponged(self, ev):
        seat, frm, tile = ev["seat"], ev["from"], ev["tile"]
        self.discards[frm].remove(tile)
        for t in ev["tiles"]:
            if t != tile:
                self.hands[seat].remove(t)
        self.melds[seat].append({"type": "pong", "kong": None, "tiles": list(ev["tiles"]), "from": frm})
        self.claim = None
        self.phase = "turn"
        self.turn = seat
        self.drawn = None
        self.replacement = False
        self.after_pong = True  # S-5: discard before any concealed/added kong

    def _on_Konged(self, ev):
        seat, kind = ev["seat"], ev["kind"]
        if kind == "exposed":
            self.discards[ev["from"]].remove(ev["tile"])
            for t in ev["tiles"]:
                if t != ev["tile"]:
                    self.hands[seat].remove(t)
            self.melds[seat].append({"type": "kong", "kong": "exposed", "tiles": list(ev["tiles"]), "from": ev["from"]})
        elif kind == "concealed":
            for t in ev["tiles"]:
                self.hands[seat].remove(t)
            self.melds[seat].append({"type": "kong", "kong": "concealed", "tiles": list(ev["tiles"]), "from": None})
        else:  # added
            self.hands[seat].remove(ev["tile"])
            k = tile_kind(ev["tile"])
            for m in self.melds[seat]:
                if m["type"] == "pong" and tile_kind(m["tiles"][0]) == k:
                    m["type"] = "kong"
                    m["kong"] = "added"
                    m["tiles"].append(ev["tile"])
                    break
            else:
                raise AssertionError("added kong without a pong")
        self.claim = None
        self.phase = "kong"
        self.turn = seat
        self.drawn = None

    def _on_Settled(self, ev):
        for rec in ev["payments"]:
            self.payments.append(dict(rec))
            self.scores[rec["payer"]] -= rec["amount"]
            self.scores[rec["payee"]] += rec["amount"]

    def _on_WallExhausted(self, ev):
        self.phase = "exhausted"

    def _on_DealEnded(self, ev):
        self.phase = "over"
        self.end_reason = ev["reason"]
        self.claim = None
        self.turn = None

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.phase == "over"

    def meld_shapes(self, seat: int):
        return [(tile_kind(m["tiles"][0]), len(m["tiles"])) for m in self.melds[seat]]

    def holds_missing(self, seat: int) -> bool:
        ms = self.missing[seat]
        return ms is not None and any(tile_suit(t) == ms for t in self.hands[seat])

    def can_win_with(self, seat: int, tile: int | None) -> bool:
        """S-3/S-10: complete hand with ``tile`` added (None: the hand as held)."""
        if self.holds_missing(seat):
            return False
        c = counts_of(self.hands[seat])
        if tile is not None:
            if tile_suit(tile) == self.missing[seat]:
                return False
            c[tile_kind(tile)] += 1
        return H.is_winning(c, len(self.melds[seat]))

    def pending_seats(self) -> list[int]:
        """Seats that must act now."""
        if self.phase == "declare":
            return [s for s in SEATS if self.missing[s] is None]
        if self.phase == "turn":
            return [self.turn]
        if self.phase == "claims":
            return [s for s in self.claim["options"] if s not in self.claim["decisions"]]
        return []

    def legal_actions(self, seat: int) -> list[dict]:
        if self.phase == "declare":
            if self.missing[seat] is None:
                return [{"type": "declare_missing", "suit": s} for s in SUITS]
            return []
        if self.phase == "claims":
            c = self.claim
            if seat in c["options"] and seat not in c["decisions"]:
                return [{"type": o} for o in c["options"][seat]] + [{"type": "pass"}]
            return []
        if self.phase != "turn" or seat != self.turn:
            return []
        hand = self.hands[seat]
        acts: list[dict] = []
        ms = self.missing[seat]
        if not self.after_pong:  # S-5: after a pong, discard first
            if self.can_win_with(seat, None):
                acts.append({"type": "win"})
            if self.wall:  # S-6: a kong needs a replacement tile
                c = counts_of(hand)
                for k in range(27):
                    if c[k] == 4 and k // 9 != ms:  # S-3 no kong of the missing suit
                        acts.append({"type": "kong", "tile": min(t for t in hand if t >> 2 == k)})
                for m in self.melds[seat]:
                    if m["type"] == "pong":
                        k = tile_kind(m["tiles"][0])
                        if c[k]:
                            acts.append({"type": "kong", "tile": min(t for t in hand if t >> 2 == k)})
        miss = [t for t in hand if tile_suit(t) == ms]
        for t in sorted(miss or hand):  # S-3: missing-suit tiles are discarded first
            acts.append({"type": "discard", "tile": t})
        return acts

    # ------------------------------------------------------------------ actions
    def deal(self, seed: int) -> list[dict]:
        """S-1, S-2: shuffle 108 distinct ids with SplitMix64; dealer from the seed."""
        if self.phase != "new":
            raise IllegalAction("already dealt")
        rng = SplitMix64(seed)
        wall = list(range(N_TILES))
        rng.shuffle(wall)
        dealer = rng.below(4) if self.rules.dealer_from_seed else 0
        hands = [[] for _ in SEATS]
        pos = 0
        for s in SEATS:
            n = 14 if s == dealer else 13
            hands[s] = wall[pos : pos + n]
            pos += n
        self._out = []
        self._emit(
            {
                "type": "TableDealt",
                "seed": seed,
                "dealer": dealer,
                "hands": hands,
                "wall": wall[pos:],
                "rules": self.rules.to_dict(),
            }
        )
        return self._flush()

    def _flush(self):
        out, self._out = self._out, None
        return out

    def apply(self, seat: int, action: dict) -> list[dict]:
        if self.phase == "over":
            raise IllegalAction("the deal is over")
        atype = action.get("type")
        match = next((a for a in self.legal_actions(seat) if _matches(a, atype, action)), None)
        if match is None:
            raise IllegalAction(f"seat {seat} may not {action!r} now")
        self._out = []
        try:
            if atype == "declare_missing":
                self._declare(seat, match["suit"])
            elif self.phase == "claims":
                self._decide(seat, atype)
            elif atype == "discard":
                self._discard(seat, match["tile"])
            elif atype == "win":
                self._self_draw_win(seat)
            elif atype == "kong":
                self._own_kong(seat, match["tile"])
            else:  # pragma: no cover
                raise IllegalAction(atype)
        except Exception:
            self._out = None
            raise
        return self._flush()

    # -- S-3
    def _declare(self, seat, suit):
        # S-3: declarations are simultaneous; the suit is revealed to others only when all
        # four have declared (MissingSuitsRevealed); services must hide this event's suit.
        self._emit({"type": "MissingSuitDeclared", "seat": seat, "suit": suit})
        if all(m is not None for m in self.missing):
            self._emit(
                {"type": "MissingSuitsRevealed", "suits": [SUITS[m] for m in self.missing], "dealer": self.dealer}
            )

    # -- S-4
    def _discard(self, seat, tile):
        self._emit({"type": "TileDiscarded", "seat": seat, "tile": tile})
        self._open_claims("discard", seat, tile)

    def _start_turn(self, seat):
        """S-4 draw, or the end when the wall is empty (S-9)."""
        if not self.wall:
            self._exhaust()
            return
        self._emit({"type": "TileDrawn", "seat": seat, "tile": self.wall[0], "replacement": False})

    def _replacement_draw(self, seat):
        # S-6: replacement tile from the back of the wall
        self._emit({"type": "TileDrawn", "seat": seat, "tile": self.wall[-1], "replacement": True})

    def _next_active(self, seat):
        for s in _after(seat):
            if self.active[s]:
                return s
        return None

    # -- S-5, S-7
    def _open_claims(self, kind, frm, tile):
        claims = []
        k = tile_kind(tile)
        for s in _after(frm):
            if not self.active[s]:  # S-8: winners no longer claim
                continue
            opts = []
            if self.can_win_with(s, tile):
                opts.append("win")
            # S-9: a discard on an empty wall can only be claimed for a win.
            if kind == "discard" and self.wall and tile_suit(tile) != self.missing[s]:
                n = sum(1 for t in self.hands[s] if t >> 2 == k)
                if n >= 2:
                    opts.append("pong")
                if n >= 3:
                    opts.append("kong")
            if opts:
                claims.append({"seat": s, "options": opts})
        if claims:
            self._emit({"type": "ClaimWindowOpened", "kind": kind, "from": frm, "tile": tile, "claims": claims})
        else:
            self._no_claim(kind, frm, tile)

    def _no_claim(self, kind, frm, tile):
        if kind == "discard":
            self._start_turn(self._next_active(frm))
        else:  # S-7: nobody robbed, the added kong stands
            self._complete_added_kong(frm, tile)

    def _decide(self, seat, choice):
        if choice == "pass":
            self._emit({"type": "Passed", "seat": seat})
        else:
            self._emit({"type": "ClaimDeclared", "seat": seat, "claim": choice})
        c = self.claim
        if len(c["decisions"]) == len(c["options"]):
            self._resolve_claims()

    def _resolve_claims(self):
        c = self.claim
        kind, frm, tile = c["kind"], c["from"], c["tile"]
        order = [s for s in _after(frm) if s in c["decisions"]]
        winners = [s for s in order if c["decisions"][s] == "win"]
        if winners:  # S-5: a win beats pong/kong; several winners all settle
            if kind == "rob":
                self._emit({"type": "KongRobbed", "seat": frm, "tile": tile, "winners": winners})
            for i, w in enumerate(winners):
                c_w = counts_of(self.hands[w])
                c_w[tile_kind(tile)] += 1
                events = ("robbing_kong",) if kind == "rob" else ()
                fan, fans, value = H.score(c_w, self.meld_shapes(w), events, self.rules.fan_cap)
                self._emit(
                    {
                        "type": "HandWon",
                        "seat": w,
                        "by": "discard" if kind == "discard" else "rob",
                        "from": frm,
                        "tile": tile,
                        "takes_tile": i == 0,
                        "fan": fan,
                        "fans": fans,
                        "value": value,
                    }
                )
                # S-13 (and S-7: the robbed player pays like a discarder)
                self._emit(
                    {
                        "type": "Settled",
                        "reason": "win_" + ("discard" if kind == "discard" else "rob"),
                        "payments": P.discard_win(frm, w, value, "win_discard" if kind == "discard" else "win_rob"),
                    }
                )
            if sum(self.active) <= 1:  # S-9: three players have won
                self._end("three_won")
                return
            ref = winners[-1] if self.rules.turn_after_discard_win == "last_winner" else winners[0]
            self._start_turn(self._next_active(ref))  # S-8 Decision
            return
        for s in order:  # S-5: seating order after the discarder among equal claims
            d = c["decisions"][s]
            if d == "kong":
                tiles = [t for t in self.hands[s] if tile_kind(t) == tile_kind(tile)][:3] + [tile]
                self._emit(
                    {"type": "Konged", "seat": s, "kind": "exposed", "from": frm, "tile": tile, "tiles": sorted(tiles)}
                )
                self._emit(
                    {
                        "type": "Settled",
                        "reason": "kong_exposed",
                        "payments": P.kong("exposed", s, [], discarder=frm, rules=self.rules),
                    }
                )  # S-15
                self._replacement_draw(s)
                return
            if d == "pong":
                tiles = [t for t in self.hands[s] if tile_kind(t) == tile_kind(tile)][:2] + [tile]
                self._emit({"type": "Ponged", "seat": s, "from": frm, "tile": tile, "tiles": sorted(tiles)})
                return
        self._no_claim(kind, frm, tile)

    # -- S-6
    def _own_kong(self, seat, tile):
        k = tile_kind(tile)
        in_hand = [t for t in self.hands[seat] if tile_kind(t) == k]
        opponents = [s for s in _after(seat) if self.active[s]]
        if len(in_hand) == 4:
            self._emit(
                {
                    "type": "Konged",
                    "seat": seat,
                    "kind": "concealed",
                    "from": None,
                    "tile": tile,
                    "tiles": sorted(in_hand),
                }
            )
            self._emit(
                {
                    "type": "Settled",
                    "reason": "kong_concealed",
                    "payments": P.kong("concealed", seat, opponents, rules=self.rules),
                }
            )  # S-15
            self._replacement_draw(seat)
            return
        # added kong: S-7, concealed kongs cannot be robbed but added ones can
        self._emit({"type": "AddedKongDeclared", "seat": seat, "tile": tile})
        self._open_claims("rob", seat, tile)

    def _complete_added_kong(self, seat, tile):
        opponents = [s for s in _after(seat) if self.active[s]]
        self._emit({"type": "Konged", "seat": seat, "kind": "added", "from": None, "tile": tile, "tiles": None})
        self._emit(
            {"type": "Settled", "reason": "kong_added", "payments": P.kong("added", seat, opponents, rules=self.rules)}
        )  # S-15
        self._replacement_draw(seat)

    # -- S-14
    def _self_draw_win(self, seat):
        events = []
        if self.replacement:
            events.append("kong_replacement")
        if self.drawn is not None and not self.wall:
            events.append("last_tile")
        fan, fans, value = H.score(
            counts_of(self.hands[seat]), self.meld_shapes(seat), tuple(events), self.rules.fan_cap
        )
        opponents = [s for s in _after(seat) if self.active[s]]
        self._emit(
            {
                "type": "HandWon",
                "seat": seat,
                "by": "self_draw",
                "from": None,
                "tile": self.drawn,
                "takes_tile": False,
                "fan": fan,
                "fans": fans,
                "value": value,
            }
        )
        self._emit(
            {"type": "Settled", "reason": "win_self_draw", "payments": P.self_draw(seat, value, opponents, self.rules)}
        )
        if sum(self.active) <= 1:
            self._end("three_won")
            return
        self._start_turn(self._next_active(seat))  # S-8

    # -- S-9, S-16
    def ready_value(self, seat) -> int:
        return H.best_ready_value(
            counts_of(self.hands[seat]), self.meld_shapes(seat), self.missing[seat], self.rules.fan_cap
        )

    def _exhaust(self):
        active = [s for s in SEATS if self.active[s]]
        pigs = [s for s in active if self.holds_missing(s)]
        ready = {s: self.ready_value(s) for s in active if s not in pigs}
        self._emit(
            {
                "type": "WallExhausted",
                "active": active,
                "pigs": pigs,
                "ready": [[s, v] for s, v in sorted(ready.items())],
                "hands": [sorted(h) for h in self.hands],
            }
        )
        if len(active) >= 2:
            steps = P.exhaustion(active, pigs, ready, self.payments, self.rules)
            for reason in ("flower_pig", "ready_check", "kong_refund"):
                if steps[reason]:
                    self._emit({"type": "Settled", "reason": reason, "payments": steps[reason]})
        self._end("wall_exhausted")

    def _end(self, reason):
        self._emit(
            {
                "type": "DealEnded",
                "reason": reason,
                "scores": list(self.scores),
                "hands": [sorted(h) for h in self.hands],
            }
        )

    # ------------------------------------------------------------------ integrity
    def tile_locations(self) -> dict[int, str]:
        """Where every physical tile is (wall, hand, meld, discard, won) -- for tests."""
        loc: dict[int, str] = {}

        def put(t, where):
            if t in loc:
                raise AssertionError(f"tile {t} in {loc[t]} and {where}")
            loc[t] = where

        for t in self.wall:
            put(t, "wall")
        for s in SEATS:
            for t in self.hands[s]:
                put(t, f"hand{s}")
            for m in self.melds[s]:
                for t in m["tiles"]:
                    put(t, f"meld{s}")
            for t in self.discards[s]:
                put(t, f"discard{s}")
        for s, t in self.won_tiles.items():
            put(t, f"won{s}")
        return loc

    def snapshot(self) -> dict:
        """Comparable state (used by replay tests)."""
        return {
            "seed": self.seed,
            "dealer": self.dealer,
            "wall": list(self.wall),
            "hands": [sorted(h) for h in self.hands],
            "melds": [list(m) for m in self.melds],
            "discards": [list(d) for d in self.discards],
            "missing": list(self.missing),
            "active": list(self.active),
            "wins": list(self.wins),
            "phase": self.phase,
            "turn": self.turn,
            "drawn": self.drawn,
            "after_pong": self.after_pong,
            "replacement": self.replacement,
            "claim": self.claim,
            "scores": list(self.scores),
            "payments": list(self.payments),
            "won_tiles": dict(self.won_tiles),
            "end_reason": self.end_reason,
            "rules": self.rules.to_dict(),
        }


def new_table(seed: int, rules: Rules | None = None) -> Table:
    t = Table(rules)
    t.deal(seed)
    return t


def replay(events, rules: Rules | None = None) -> Table:
    """Rebuild a table by folding its stored events (rules come from ``TableDealt``)."""
    t = Table(rules)
    for ev in events:
        t._on(ev)
        t.events.append(ev)
    return t

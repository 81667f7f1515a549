"""Property: any valid sequence of competitive play's events — matches of every mode created,
pairs, jokers, refused and late intents on their rounds, rounds ended by a completion, by the clock
(the sweeper), by an operator; arenas going on to their next rounds; queue tickets joined, matched,
left and expired; duels challenged, accepted, declined, withdrawn and expired; accounts suspended
(their tickets and duels ended by the server) — played through the real services, leaves the
live rows equal to ``rebuild_projections --verify``'s rebuild of the log."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rivals.errors import DomainError
from rivals.fairplay.services import account_suspend
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.matches import services as svc
from rivals.matches.models import Duel, Round
from tests.matches.helpers import accounts, at, intent_for
from tests.projections import assert_live_equals_rebuild, property_settings, rolled_back

PLAYERS = 5
SIZES = {"quick": 2, "duel": 2, "arena": 4, "tournament": 3}
_names = itertools.count()

player = st.integers(0, PLAYERS - 1)
seat = st.integers(0, 3)  # a player of the round (modulo its size)
an_intent = st.tuples(
    st.just("intent"),
    st.integers(0, 3),  # which match (of those created so far)
    seat,
    st.sampled_from(["pair", "pair", "pair", "bad_pair", "blocked", "joker", "hint"]),
    st.integers(0, 10_000),  # a choice among the options
)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("match"), st.sampled_from(sorted(SIZES)), st.permutations(range(PLAYERS))),
        an_intent,
        an_intent,  # intents are most of the log
        st.tuples(st.just("pairs"), st.integers(0, 3), seat, st.integers(1, 18)),  # a run of pairs, 1 s apart
        st.tuples(st.just("wait"), st.sampled_from([1, 2, 11, 21, 301, 601]) | st.floats(0.05, 30)),
        st.tuples(st.just("sweep")),  # the beat jobs: rounds, tickets and duels that are due
        st.tuples(st.just("end_now"), st.integers(0, 3)),  # an operator ends a match's round
        st.tuples(st.sampled_from(["queue_join", "queue_leave"]), player, st.sampled_from(["quick", "arena"])),
        st.tuples(st.just("challenge"), player, player),
        st.tuples(st.sampled_from(["accept", "decline"]), st.integers(0, 5), st.booleans()),
        st.tuples(st.just("suspend"), player),
    ),
    min_size=10,
    max_size=40,
)


class World:
    """One example's players and matches, and its clock (seconds from the helpers' T0)."""

    def __init__(self):
        self.players = accounts(PLAYERS, jokers=1, prefix=f"matches-property-{next(_names)}")
        self.match_ids: list = []  # in creation order (a queue's and a duel's matches too)
        self.duel_ids: list = []
        self.tickets: dict[int, object] = {}  # each player's last queue ticket
        self.t = 0.0

    def _round(self, i: int) -> Round | None:
        if not self.match_ids:
            return None
        return Round.objects.filter(match_id=self.match_ids[i % len(self.match_ids)]).order_by("-index").first()

    def _play(self, i: int, seat: int, kinds: list[str], choice: int) -> None:
        """Intents of one of the round's players, 1 s apart."""
        rnd = self._round(i)
        if rnd is None:
            return
        account = next(a for a in self.players if a.pk == rnd.players[seat % len(rnd.players)])
        for k, kind in enumerate(kinds):
            self.t += 1 if k else 0
            game = Game.objects.get(round_id=rnd.pk, account=account)
            body = intent_for(kind, game_board(game), choice, game.seq, otherwise="hint")
            svc.round_intent_apply(account=account, round_id=rnd.pk, intent=body, now=at(self.t))

    def _queue(self, kind, op, now) -> None:
        if kind == "queue_join":
            ticket, _ = svc.queue_join(account=self.players[op[1]], mode=op[2], now=now)
            self.tickets[op[1]] = ticket.pk
            if ticket.match_id is not None and ticket.match_id not in self.match_ids:
                self.match_ids.append(ticket.match_id)
        elif op[1] in self.tickets:
            svc.queue_leave(account=self.players[op[1]], ticket_id=self.tickets[op[1]], now=now)

    def _duel(self, kind, op, now) -> None:
        if kind == "challenge":
            duel, created = svc.duel_challenge(account=self.players[op[1]], opponent=self.players[op[2]].pk, now=now)
            if created:
                self.duel_ids.append(duel.pk)
            return
        if not self.duel_ids:
            return
        duel = Duel.objects.get(pk=self.duel_ids[op[1] % len(self.duel_ids)])
        if kind == "accept":
            self.match_ids.append(svc.duel_accept(account=duel.opponent, duel_id=duel.pk, now=now).match_id)
        else:  # the opponent declines, or the challenger withdraws
            svc.duel_decline(account=duel.opponent if op[2] else duel.challenger, duel_id=duel.pk, now=now)

    def run(self, op) -> None:
        kind, now = op[0], at(self.t)
        if kind == "match":
            mode, order = op[1], op[2]
            seated = [self.players[k].pk for k in order[: SIZES[mode]]]
            self.match_ids.append(svc.match_create(mode=mode, account_ids=seated, now=now).pk)
        elif kind == "intent":
            self._play(op[1], op[2], [op[3]], op[4])
        elif kind == "pairs":
            self._play(op[1], op[2], ["pair"] * op[3], 0)
        elif kind == "wait":
            self.t += op[1]
        elif kind == "sweep":
            svc.rounds_end_due(now=now)
            svc.queue_expire_due(now=now)
            svc.duels_expire_due(now=now)
        elif kind == "end_now":
            rnd = self._round(op[1])
            if rnd is not None:
                svc.round_end_now(round_id=rnd.pk, actor="operator:1", now=now)
        elif kind in ("queue_join", "queue_leave"):
            self._queue(kind, op, now)
        elif kind in ("challenge", "accept", "decline"):
            self._duel(kind, op, now)
        else:
            account_suspend(account=self.players[op[1]], reason="property", actor="operator:test")


@pytest.mark.django_db
@property_settings(15)
@given(ops=ops)
def test_any_sequence_of_competitive_play_rebuilds_to_the_live_state(ops):
    with rolled_back():
        world = World()
        for op in ops:
            try:
                world.run(op)
            except DomainError:
                pass  # refused (not valid now): nothing written
        assert_live_equals_rebuild()

"""Property: any valid sequence of a tournament's events — registrations and withdrawals, edits of
its rules, an operator's cancel, the start (or its cancel for too few players), waves seated and
their tables opened, tables scored by their rounds' ends (pairs played, an operator's end, the
clock) or directly, suspended players left out of later waves, the finalization with prizes and
a trophy — driven through the real services at any pace, leaves the live rows equal to
``rebuild_projections --verify``'s rebuild of the log."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rivals.errors import DomainError
from rivals.fairplay.services import account_suspend
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.matches import services as rounds
from tests.factories import AccountFactory
from tests.projections import assert_live_equals_rebuild, property_settings, rolled_back
from tests.tournaments.helpers import at, new_tournament
from tournaments.models import Table, Tournament
from tournaments.services.lifecycle import tournament_cancel, tournament_edit
from tournaments.services.play import tournament_tick, tournaments_sweep
from tournaments.services.registration import tournament_register, tournament_unregister
from tournaments.services.tables import table_score

PLAYERS = 7
_names = itertools.count()

player = st.integers(0, PLAYERS - 1)
table = st.integers(0, 3)  # a table of the current wave (modulo their number)
register = st.tuples(st.just("register"), player)
# before the start: registrations, withdrawals, edits of the rules (one every 30 s from 0.5 min)
registration = st.lists(
    st.one_of(
        register,
        register,
        register,
        st.tuples(st.just("unregister"), player),
        st.tuples(
            st.just("edit"),
            st.sampled_from(
                [
                    ("title", "Renamed Cup"),
                    ("min_players", 3),
                    ("min_players", 6),
                    ("prize_table", [40, 20, 10, 5]),
                    ("multipliers", [2, 6]),
                    ("ends_at", at(40)),
                    ("ends_at", at(12)),
                ]
            ),
        ),
        st.tuples(st.just("suspend"), player),
    ),
    max_size=9,
)
# from the start on
play = st.lists(
    st.one_of(
        st.tuples(st.just("tick"), st.booleans()),  # what is due: seat, open tables (or leave it), finalize
        st.tuples(st.just("sweep")),  # the beat jobs: tournaments and rounds that are due
        st.tuples(st.just("play"), table, st.integers(0, 3), st.integers(1, 18)),  # pairs at a table, 1 s apart
        st.tuples(st.just("play"), table, st.integers(0, 3), st.integers(1, 18)),
        st.tuples(st.just("end_table"), table),  # an operator ends a table's round
        st.tuples(st.just("score"), table, st.lists(st.integers(0, 900), min_size=4, max_size=4)),
        st.tuples(st.just("wait"), st.sampled_from([0.5, 1, 5, 10, 30]) | st.floats(0.05, 20)),
        st.tuples(st.just("suspend"), player),
        st.tuples(st.just("cancel"), st.integers(0, 9)),  # an operator cancels (once in ten)
    ),
    max_size=25,
)


@pytest.fixture(autouse=True)
def _small_round_deals(settings):
    """Tables deal the 36-tile Diamond (quick to play); the rules do not depend on the layout."""
    settings.RIVALS = {**settings.RIVALS, "ROUND_LAYOUTS": ["L08"]}


class World:
    """One example's tournament (start at 10 min, end at 70 min), its players and its clock (minutes)."""

    def __init__(self, min_players: int, prize_table: list[int], multipliers: list[int]):
        n = next(_names)
        self.players = [AccountFactory.create(device_id=f"tournament-property-{n}-{i}") for i in range(PLAYERS)]
        self.t = new_tournament(min_players=min_players, prize_table=prize_table, multipliers=multipliers)
        self.minute = 0.5

    def _table(self, i: int) -> Table | None:
        t = Tournament.objects.get(pk=self.t.pk)
        tables = list(Table.objects.filter(tournament=t, wave__number=t.current_wave).order_by("number"))
        return tables[i % len(tables)] if tables else None

    def run(self, op) -> None:
        try:
            self._run(op)
        except DomainError:
            pass  # refused (not valid now): nothing written

    def _run(self, op) -> None:
        kind, now = op[0], at(self.minute)
        if kind in ("register", "unregister"):
            service = tournament_register if kind == "register" else tournament_unregister
            service(tournament_id=self.t.pk, account=self.players[op[1]], now=now)
        elif kind == "edit":
            tournament_edit(tournament_id=self.t.pk, actor="operator:test", now=now, **dict([op[1]]))
        elif kind == "cancel":
            if op[1] == 0:
                tournament_cancel(tournament_id=self.t.pk, actor="operator:test", now=now)
        elif kind == "wait":
            self.minute += op[1]
        elif kind == "tick":
            tournament_tick(tournament_id=self.t.pk, now=now, open_tables=op[1])
        elif kind == "sweep":
            rounds.rounds_end_due(now=now)
            tournaments_sweep(now=now)
        elif kind == "suspend":
            account_suspend(account=self.players[op[1]], reason="property", actor="operator:test")
        else:
            self._at_table(op, now)

    def _at_table(self, op, now) -> None:
        x = self._table(op[1])
        if x is None:
            return
        seated = list(x.seats.order_by("seat").values_list("account_id", flat=True))
        if op[0] == "score":  # as the round's end reports it (tests/tournaments/helpers.score_tables)
            results = [
                {"account_id": a, "score": s, "completed": s > 800, "pairs_removed": s // 100}
                for a, s in zip(seated, op[2], strict=False)
            ]
            table_score(table_id=x.pk, results=results, reason="idle", now=now)
        elif x.round_id is None:
            return  # not opened yet
        elif op[0] == "end_table":
            rounds.round_end_now(round_id=x.round_id, actor="operator:test", now=now)
        else:  # play: pairs of a seated player on the table's round, 1 s apart
            account = next(a for a in self.players if a.pk == seated[op[2] % len(seated)])
            for k in range(op[3]):
                game = Game.objects.get(round_id=x.round_id, account=account)
                pairs = game_board(game).removable_pairs()
                if not pairs:
                    return
                self.minute += 1 / 60 if k else 0
                intent = {"seq": game.seq, "type": "remove_pair", "tiles": list(pairs[0])}
                rounds.round_intent_apply(account=account, round_id=x.round_id, intent=intent, now=at(self.minute))


@pytest.mark.django_db
@property_settings(15)
@given(
    rules=st.tuples(
        st.sampled_from([2, 3, 4]),  # min players
        st.sampled_from([[100, 50, 25], [30], [], [60, 60, 0, 10]]),  # prize table
        st.sampled_from([[1, 2, 3], [1], [6, 1]]),  # multipliers
    ),
    entrants=st.integers(0, PLAYERS),  # players who register first (too few: the start cancels)
    before=registration,
    late=st.sampled_from([0, 0.5, 5, 61]),  # minutes between the start time and its first tick
    during=play,
    finish=st.booleans(),  # then let the time pass the end: the last tables cut, the finalization
)
def test_any_sequence_of_tournament_events_rebuilds_to_the_live_state(rules, entrants, before, late, during, finish):
    with rolled_back():
        world = World(*rules)
        for op in [("register", i) for i in range(entrants)] + before:
            world.run(op)
            world.minute += 0.5
        world.minute = 10 + late
        for op in [("tick", True), *during]:
            world.run(op)
        if finish:
            world.minute = max(world.minute, 71)
            for op in (("sweep",), ("tick", True), ("sweep",)):
                world.run(op)
        assert_live_equals_rebuild()

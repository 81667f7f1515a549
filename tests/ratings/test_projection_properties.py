"""Property (R-41): any sequence of rated results — two to four players, any places with ties,
idle players, a result written twice — and of suspensions, lifts and closures, through the real
services, leaves the live ratings equal to ``rebuild_projections --verify``'s rebuild of the log,
each rating equal to the package's numbers replayed from the results alone, and the board's
places equal to a count of the listed ratings above."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from rivals.accounts.services import account_close
from rivals.errors import DomainError
from rivals.fairplay.services import account_suspend, account_suspension_lift
from rivals.models import Event
from rivals.ratings.models import Rating, RatingHistogram
from rivals.ratings.selectors import rating_board
from tests.factories import AccountFactory
from tests.projections import assert_live_equals_rebuild, property_settings, rolled_back

ACCOUNTS = 5
T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
_names = itertools.count()

a_result = st.tuples(
    st.just("rate"),
    st.lists(st.integers(0, ACCOUNTS - 1), min_size=2, max_size=4, unique=True),  # the players, seated
    st.lists(st.integers(1, 4), min_size=4, max_size=4),  # their places (ties: equal places)
    st.lists(st.booleans(), min_size=4, max_size=4),  # idle (R-18a)
)
ops = st.lists(
    st.one_of(
        a_result,
        a_result,
        a_result,  # results are most of the log
        st.tuples(st.just("again")),  # the last result written a second time: nothing happens
        st.tuples(st.sampled_from(["suspend", "lift", "close"]), st.integers(0, ACCOUNTS - 1)),
    ),
    min_size=5,
    max_size=30,
)


def _replayed() -> dict[int, tuple[float, float]]:
    """Every rating from the results' inputs alone, through the package (not the projection)."""
    model, skills = PlackettLuce(), {}
    for event in Event.objects.filter(type="RatingsUpdated").order_by("position"):
        players = event.data["players"]
        teams = [[model.rating(*skills.get(p["account_id"], (25.0, 25 / 3)))] for p in players]
        rated = model.rate(teams, ranks=[p["rated_place"] for p in players])
        for p, team in zip(players, rated, strict=True):
            skills[p["account_id"]] = (team[0].mu, team[0].sigma)
    return skills


@pytest.mark.django_db
@property_settings(25)
@given(ops=ops)
# a tie among everyone who played, an idle player, the same result again, a suspension in between
@example(ops=[("rate", [0, 1, 2], [1, 1, 1, 1], [False, False, True, False]), ("again",), ("suspend", 1)])
def test_any_sequence_of_results_and_suspensions_rebuilds_to_the_live_ratings(ops):
    from rivals.ratings.services import ratings_update

    with rolled_back():
        n = next(_names)
        accounts = [AccountFactory.create(device_id=f"ratings-property-{n}-{i}") for i in range(ACCOUNTS)]
        last = None
        for k, op in enumerate(ops):
            at = T0 + timedelta(minutes=k)
            try:
                if op[0] == "rate":
                    _, seats, places, idle = op
                    players = [(accounts[i].pk, places[j], idle[j]) for j, i in enumerate(seats)]
                    last = {"result": f"property-{n}-{k}", "mode": "arena", "players": players, "at": at}
                    ratings_update(**last)
                elif op[0] == "again" and last is not None:
                    assert ratings_update(**last) is False
                elif op[0] == "suspend":
                    account_suspend(account=accounts[op[1]], reason="property", actor="operator:test")
                elif op[0] == "lift":
                    account_suspension_lift(account=accounts[op[1]], reason="property", actor="operator:test")
                elif op[0] == "close":
                    account_close(account=accounts[op[1]], reason="property", actor="operator:test", erase=False)
            except DomainError:
                pass  # not valid now (not suspended, already closed): refused, nothing written
        assert_live_equals_rebuild()
        live = {r.account_id: (r.mu, r.sigma) for r in Rating.objects.filter(rated_at__isnull=False)}
        assert live == _replayed()
        listed = sorted(Rating.objects.filter(listed=True).values_list("figure", flat=True), reverse=True)
        assert sum(RatingHistogram.objects.filter(level=0).values_list("n", flat=True)) == len(listed)
        board = rating_board(limit=100, offset=0)
        assert [row["place"] for row in board["results"]] == [1 + sum(f > x for f in listed) for x in listed]

"""Property: any valid sequence of the rankings' events — counting and non-counting awards of any
sign, now or at past instants (inside the window, on its edges, before it), operators taking
awards back, the clock moving on by days, weeks and years (across DST days) with or without the
nightly roll, suspensions, lifts and closures, through the real services — leaves the live
rankings equal to ``rebuild_projections --verify``'s rebuild of the log and to the independent
recompute (``rankings_recomputed``)."""

from __future__ import annotations

import itertools
from datetime import date, timedelta

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rankings.days import day_start_utc
from rankings.selectors import rankings_recomputed, rankings_state
from rankings.services import rankings_roll
from rivals.accounts.services import account_close
from rivals.errors import DomainError
from rivals.fairplay.services import account_suspend, account_suspension_lift
from rivals.models import Account
from rivals.points.models import PointsLedgerEntry
from tests.factories import AccountFactory
from tests.projections import assert_live_equals_rebuild, property_settings, rolled_back
from tests.rankings.helpers import award

START = date(2025, 3, 27)  # a Thursday (windows start mid-week), 3 days before the clocks go forward
ACCOUNTS = 3
_names = itertools.count()

who = st.integers(0, ACCOUNTS - 1)
an_award = st.tuples(
    st.just("award"),
    who,
    # amounts that cancel out (operator adjustments may be negative), 0, and any
    st.sampled_from([10, -10, 300, 0]) | st.integers(-120, 2_000),
    st.booleans() | st.just(True),  # counts, mostly
    # days before today (jobs award past instants): at the window's edges, and any
    st.sampled_from([0, 0, 1, 7, 360, 364, 365]) | st.integers(0, 400),
    st.integers(0, 86_399),  # second of that day
)
ops = st.lists(
    st.one_of(
        an_award,
        an_award,  # awards are most of the log
        st.tuples(st.just("revert"), who),  # an operator takes the account's last award back
        st.tuples(st.sampled_from(["suspend", "lift", "suspend", "lift", "close"]), who),
        st.tuples(st.just("advance"), st.sampled_from([1, 3, 7, 364, 365]) | st.integers(1, 400)),
        st.tuples(st.just("roll")),  # the nightly job of today (it may also not run: reads do not need it)
    ),
    min_size=12,
    max_size=40,
)


def _run(op, accounts: list[Account], today: date) -> date:
    """Apply one operation through the services; returns the (new) day of the clock."""
    kind = op[0]
    try:
        if kind == "award":
            _, i, amount, counts, back, second = op
            at = day_start_utc(today - timedelta(days=back)) + timedelta(seconds=second)
            award(accounts[i], amount, at, counts=counts)
        elif kind == "revert":
            last = PointsLedgerEntry.objects.filter(account=accounts[op[1]]).order_by("-pk").first()
            if last is not None:
                at = last.awarded_at + timedelta(seconds=1)
                award(accounts[op[1]], -last.amount, at, source="operator_adjustment", counts=last.counts)
        elif kind == "advance":
            return today + timedelta(days=op[1])
        elif kind == "roll":
            rankings_roll(today=today)
        elif kind == "suspend":
            account_suspend(account=accounts[op[1]], reason="property", actor="operator:test")
        elif kind == "lift":
            account_suspension_lift(account=accounts[op[1]], reason="property", actor="operator:test")
        else:
            account_close(account=accounts[op[1]], reason="property", actor="operator:test", erase=False)
    except DomainError:
        pass  # not valid now (already suspended, not suspended, closed): refused, nothing written
    return today


@pytest.mark.django_db
@property_settings(20)
@given(ops=ops)
# the first award makes the window (today − 364, a Thursday): an award of its first day has no week row
@example(ops=[("award", 0, 10, True, 0, 0), ("award", 0, 10, True, 364, 0)])
# a day leaves the window of an account whose awards inside it add up to 0: the AMR row stays, at 0
@example(ops=[("award", 0, 10, True, 0, 0), ("advance", 365), ("award", 0, 5, True, 0, 0), ("revert", 0), ("roll",)])
def test_any_sequence_of_ranking_events_rebuilds_to_the_live_state(ops):
    with rolled_back():
        n = next(_names)
        accounts = [AccountFactory.create(device_id=f"rankings-property-{n}-{i}") for i in range(ACCOUNTS)]
        today = START
        for op in ops:
            today = _run(op, accounts, today)
        assert_live_equals_rebuild()
        live = rankings_state()
        if live.window_start is not None:
            expected = rankings_recomputed(window_start=live.window_start)
            assert (live.daily, live.weekly, live.amr, live.histogram) == (
                expected.daily,
                expected.weekly,
                expected.amr,
                expected.histogram,
            )

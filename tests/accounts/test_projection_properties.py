"""Property: any valid sequence of the account profile's events — guests signing in, renames
(any visible text, the same name again), joker changes of any sign, suspensions, lifts, closures
with and without erasure — through the real services leaves the live profile columns equal to
``rebuild_projections --verify``'s rebuild of the log (``rivals.accounts.projections.effect`` is
the one implementation both use)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rivals.accounts.services import account_close, account_guest_signin, account_jokers_change, account_rename
from rivals.errors import DomainError
from rivals.fairplay.services import account_suspend, account_suspension_lift
from tests.factories import device_id_for
from tests.projections import assert_live_equals_rebuild, property_settings, rolled_back

ACCOUNTS = 3
_names = itertools.count()

who = st.integers(0, ACCOUNTS - 1)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("rename"), who, st.sampled_from(["Lucky Tiger", "  Lucky   Tiger ", "Ana", "Zoë 7"])),
        st.tuples(st.just("jokers"), who, st.sampled_from([1, 3, -1, -2, 50])),
        st.tuples(st.sampled_from(["suspend", "lift", "suspend", "lift"]), who),
        st.tuples(st.just("close"), who, st.booleans()),
    ),
    min_size=5,
    max_size=30,
)


def _run(op, accounts) -> None:
    kind, account = op[0], accounts[op[1]]
    try:
        if kind == "rename":
            account_rename(account=account, display_name=op[2])
        elif kind == "jokers":
            account_jokers_change(account=account, delta=op[2], reason="property", actor="operator:test")
        elif kind == "suspend":
            account_suspend(account=account, reason="property", actor="operator:test")
        elif kind == "lift":
            account_suspension_lift(account=account, reason="property", actor="operator:test")
        else:
            account_close(account=account, reason="property", actor="operator:test", erase=op[2])
    except DomainError:
        pass  # not valid now (already suspended, closed …): refused, nothing written
    account.refresh_from_db()


@pytest.mark.django_db
@property_settings(15)
@given(ops=ops)
def test_any_sequence_of_account_events_rebuilds_to_the_live_profile(ops):
    with rolled_back():
        n = next(_names)
        accounts = [account_guest_signin(device_id=device_id_for(f"profile-{n}-{i}"))[0] for i in range(ACCOUNTS)]
        for op in ops:
            _run(op, accounts)
        assert_live_equals_rebuild()

"""Account and club writes take the server clock (``now=``) like every other service, so that a
job or the demo world (``manage.py simulate``) records them at its own instant."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rivals.accounts.services import account_guest_signin, account_rename
from rivals.clubs.models import ClubMember
from rivals.clubs.services import club_found, club_join
from rivals.models import Event
from tests.factories import device_id_for

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_signin_rename_and_clubs_are_recorded_at_the_given_instant():
    a, _, created = account_guest_signin(device_id=device_id_for("clock-a"), now=T0)
    b, _, _ = account_guest_signin(device_id=device_id_for("clock-b"), now=T0)
    assert created
    account_rename(account=a, display_name="Clocked", now=T0 + timedelta(minutes=1))
    club = club_found(account=a, name="Timekeepers", now=T0 + timedelta(minutes=2))
    club_join(account=b, club_id=club.pk, now=T0 + timedelta(minutes=3))
    assert Event.objects.get(stream_id=a.stream_id, type="AccountCreated").recorded_at == T0
    assert Event.objects.get(stream_id=a.stream_id, type="DisplayNameChanged").recorded_at == T0 + timedelta(minutes=1)
    assert club.created_at == T0 + timedelta(minutes=2)
    assert ClubMember.objects.get(account=b).joined_at == T0 + timedelta(minutes=3)
    _, _, again = account_guest_signin(device_id=device_id_for("clock-a"), now=T0 + timedelta(hours=1))
    assert not again
    assert Event.objects.get(stream_id=a.stream_id, type="SignedIn").recorded_at == T0 + timedelta(hours=1)


def test_r11_a_joker_change_is_recorded_at_the_instant_of_its_cause():
    from rivals.accounts.services import account_jokers_change
    from rivals.daily_bonus.models import DailyBonusClaim
    from rivals.daily_bonus.services import daily_bonus_claim

    a, _, _ = account_guest_signin(device_id=device_id_for("clock-j"), now=T0)
    account_jokers_change(account=a, delta=2, reason="operator_grant", actor="operator:test", now=T0)
    # the 10th consecutive day gives a joker — recorded on that day, not at the wall clock
    for k in range(10):
        daily_bonus_claim(account=a, now=T0 + timedelta(days=k))
    assert DailyBonusClaim.objects.get(account=a, streak=10).jokers == 1
    changes = Event.objects.filter(stream_id=a.stream_id, type="JokersChanged").order_by("position")
    assert [e.recorded_at for e in changes] == [T0, T0 + timedelta(days=9)]


def test_r38_a_fast_pairs_flag_is_raised_at_the_instant_of_the_pair_that_raised_it():
    from rivals import engine
    from rivals.fairplay.models import FairPlayFlag
    from rivals.fairplay.services import fairplay_intent_accepted
    from rivals.games.services import game_board, game_create, game_intent_apply

    a, _, _ = account_guest_signin(device_id=device_id_for("clock-f"), now=T0)
    game = game_create(account=a, mode="single", level=1, now=T0)
    now = T0
    for seq, pair in enumerate(engine.winning_plan(game_board(game))[:3]):
        now += timedelta(milliseconds=100)  # bot speed: under FAIRPLAY_FAST_PAIR_MS
        result = game_intent_apply(
            account=a, game_id=game.pk, now=now, intent={"seq": seq, "type": "remove_pair", "tiles": list(pair)}
        )
        fairplay_intent_accepted(account=a, events=result.events)
    flag = FairPlayFlag.objects.get(account=a, kind="fast_pairs")
    assert flag.flagged_at == now == T0 + timedelta(milliseconds=300)

"""R-21 settings, operator events, registration (R-26 time) and the Champions rules (R-28, R-29)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rivals.errors import Conflict, Invalid, NotAllowed, NotEligible
from rivals.models import Event
from rivals.points.services import points_award
from tests.tournaments.helpers import at, new_tournament, players, register_all
from tournaments.models import Registration, Tournament
from tournaments.selectors import tournament_summary
from tournaments.services.lifecycle import tournament_cancel, tournament_edit
from tournaments.services.play import tournament_start
from tournaments.services.registration import tournament_register, tournament_unregister, weekly_prize_points

pytestmark = pytest.mark.django_db


def events(t):
    return list(Event.objects.filter(stream_id=t.stream_id).order_by("version"))


def test_r21_created_edited_cancelled_are_events_with_the_operator_as_actor():
    t = new_tournament()
    tournament_edit(tournament_id=t.pk, actor="operator:7", now=at(1), title="Late Cup", multipliers=[2, 4])
    tournament_cancel(tournament_id=t.pk, actor="operator:8", now=at(2))
    created, edited, cancelled = events(t)
    assert (created.type, created.metadata["actor"]) == ("TournamentCreated", "operator:test")
    assert created.data["prize_table"] == [100, 50, 25] and created.data["multipliers"] == [1, 2, 3]
    assert (edited.type, edited.metadata["actor"], edited.data["changes"]) == (
        "TournamentEdited",
        "operator:7",
        {"title": "Late Cup", "multipliers": [2, 4]},
    )
    assert (cancelled.type, cancelled.metadata["actor"], cancelled.data["reason"]) == (
        "TournamentCancelled",
        "operator:8",
        "operator",
    )
    t.refresh_from_db()
    assert (t.title, t.multipliers, t.status) == ("Late Cup", [2, 4], "cancelled")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"multipliers": [1, 7]}, "multipliers"),
        ({"multipliers": [0]}, "multipliers"),
        ({"multipliers": ["x"]}, "multipliers"),
        ({"prize_table": [-5]}, "prize_table"),
        ({"min_players": 1}, "min_players"),
        ({"kind": "weekly"}, "kind"),
        ({"title": " "}, "title"),
        ({"ends_at": at(5)}, "ends_at"),
        ({"registration_opens_at": at(20)}, "registration_opens_at"),
        ({"starts_at": datetime(2026, 6, 1, 18, 20)}, "starts_at"),
    ],
)
def test_r21_bad_settings_are_refused_naming_the_field(changes, field):
    with pytest.raises(Invalid) as exc:
        new_tournament(**changes)
    assert field in exc.value.details
    assert not Tournament.objects.exists()


def test_r25_multiplier_schedule_per_wave_keeps_the_last_entry():
    t = new_tournament(multipliers=[1, 2, 6])
    assert [t.multiplier(w) for w in (1, 2, 3, 4, 9)] == [1, 2, 6, 6, 6]
    assert new_tournament(multipliers=[]).multiplier(3) == 1


def test_r21_a_started_tournament_cannot_be_edited():
    t = new_tournament()
    register_all(t, players(2))
    tournament_start(tournament_id=t.pk, now=at(10))
    with pytest.raises(NotAllowed):
        tournament_edit(tournament_id=t.pk, actor="operator:7", now=at(11), title="Changed")
    # also when the start is due but no job has run yet
    t2 = new_tournament()
    with pytest.raises(NotAllowed):
        tournament_edit(tournament_id=t2.pk, actor="operator:7", now=at(10), min_players=3)


def test_r26_registration_records_its_time_and_unregister_before_the_start():
    t = new_tournament()
    a, b = players(2)
    reg = tournament_register(tournament_id=t.pk, account=a, now=at(3, 1))
    assert reg.registered_at == at(3, 1)
    tournament_register(tournament_id=t.pk, account=b, now=at(4))
    tournament_unregister(tournament_id=t.pk, account=a, now=at(5))
    t.refresh_from_db()
    assert t.registered == 1
    assert [e.type for e in events(t)][1:] == ["PlayerRegistered", "PlayerRegistered", "PlayerUnregistered"]
    again = tournament_register(tournament_id=t.pk, account=a, now=at(6))
    assert again.registered_at == at(6)  # a new registration: the later time counts


def test_registration_bad_input():
    t = new_tournament(registration_opens_at=at(2))
    a, b = players(2)
    with pytest.raises(NotAllowed):  # not open yet
        tournament_register(tournament_id=t.pk, account=a, now=at(1))
    tournament_register(tournament_id=t.pk, account=a, now=at(3))
    with pytest.raises(Conflict):  # twice
        tournament_register(tournament_id=t.pk, account=a, now=at(4))
    with pytest.raises(NotAllowed):  # unregistering when not registered
        tournament_unregister(tournament_id=t.pk, account=b, now=at(4))
    with pytest.raises(NotAllowed):  # after the start (even before a job started it)
        tournament_register(tournament_id=t.pk, account=b, now=at(10))
    with pytest.raises(NotAllowed):
        tournament_unregister(tournament_id=t.pk, account=a, now=at(10))
    cancelled = new_tournament()
    tournament_cancel(tournament_id=cancelled.pk, actor="operator:1", now=at(1))
    with pytest.raises(NotAllowed, match="cancelled"):
        tournament_register(tournament_id=cancelled.pk, account=b, now=at(2))
    assert Registration.objects.filter(tournament=t).count() == 1


# --- start ----------------------------------------------------------------------------


def test_r22_fewer_than_the_minimum_is_cancelled_with_the_count():
    t = new_tournament(min_players=4)
    register_all(t, players(3))
    assert tournament_start(tournament_id=t.pk, now=at(10)) == "cancelled"
    t.refresh_from_db()
    assert (t.status, t.cancel_reason, t.waves.count()) == ("cancelled", "too_few_players", 0)
    cancelled = events(t)[-1]
    assert cancelled.data["registered"] == 3 and cancelled.data["minimum"] == 4
    assert cancelled.metadata["actor"] == "system"
    assert tournament_start(tournament_id=t.pk, now=at(11)) == "nothing"  # a second run does nothing


def _eligible(accounts, when):
    for a in accounts:
        points_award(account=a, amount=200, source="tournament_prize", key=f"test:elig:{a.pk}", at=when)


@pytest.mark.parametrize(("registered", "status"), [(15, "cancelled"), (16, "running")])
def test_r29_champions_needs_16_players(registered, status):
    t = new_tournament(kind="champions", min_players=2)
    accounts = players(registered)
    _eligible(accounts, at(0))
    register_all(t, accounts)
    tournament_start(tournament_id=t.pk, now=at(10))
    t.refresh_from_db()
    assert t.status == status
    if status == "cancelled":
        assert t.cancel_reason == "champions_too_few" and events(t)[-1].data["registered"] == 15
    else:
        assert sorted(len(x.seats.all()) for x in t.tables.all()) == [4, 4, 4, 4]


def test_start_job_after_the_end_time_cancels_and_never_seats():
    t = new_tournament()
    register_all(t, players(4))
    assert tournament_start(tournament_id=t.pk, now=at(71)) == "cancelled"
    t.refresh_from_db()
    assert (t.status, t.cancel_reason, t.tables.count()) == ("cancelled", "not_started_before_end", 0)


# --- R-28 eligibility -------------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "ok"), [(199, False), (200, True)])
def test_r28_champions_registration_needs_200_weekly_prize_points(points, ok):
    t = new_tournament(kind="champions")
    (a,) = players(1)
    points_award(account=a, amount=points - 50, source="tournament_prize", key="test:1", at=at(-60))
    points_award(account=a, amount=50, source="tournament_prize", key="test:2", at=at(-30))
    points_award(account=a, amount=500, source="single_player", key="test:3", at=at(-30))  # not a prize
    if ok:
        tournament_register(tournament_id=t.pk, account=a, now=at(1))
        return
    with pytest.raises(NotEligible) as exc:
        tournament_register(tournament_id=t.pk, account=a, now=at(1))
    assert exc.value.status_code == 403 and exc.value.code == "not_eligible"
    assert exc.value.details["weekly_prize_points"] == 199 and exc.value.details["required"] == 200


def _utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_r28_the_week_is_the_romanian_week_of_the_start_from_monday_0000():
    # Monday 2026-03-30 00:00 in Bucharest (summer time, +03:00) is 2026-03-29T21:00:00Z
    (a,) = players(1)
    monday_start = _utc(2026, 3, 30, 18, 0)  # a Champions Tournament starting Monday 21:00 Romanian time
    points_award(account=a, amount=200, source="tournament_prize", key="test:sunday", at=_utc(2026, 3, 29, 20, 59, 59))
    # Sunday 23:59:59 Romanian time is last week: it does not count for a tournament of this week
    assert weekly_prize_points(account_id=a.pk, starts_at=monday_start, now=_utc(2026, 3, 30, 12, 0)) == 0
    points_award(account=a, amount=200, source="tournament_prize", key="test:monday", at=_utc(2026, 3, 29, 21, 0, 0))
    assert weekly_prize_points(account_id=a.pk, starts_at=monday_start, now=_utc(2026, 3, 30, 12, 0)) == 200
    # the week of a start on Sunday 2026-04-05 23:59:59 Romanian time is the same week; the next Monday's is not
    assert weekly_prize_points(account_id=a.pk, starts_at=_utc(2026, 4, 5, 20, 59, 59), now=_utc(2026, 4, 5, 20)) == 200
    assert weekly_prize_points(account_id=a.pk, starts_at=_utc(2026, 4, 5, 21, 0, 0), now=_utc(2026, 4, 6, 20)) == 0
    t = new_tournament(
        kind="champions",
        now=_utc(2026, 3, 29, 20, 0),
        registration_opens_at=_utc(2026, 3, 29, 20, 0),
        starts_at=monday_start,
        ends_at=_utc(2026, 3, 30, 19, 0),
    )
    tournament_register(tournament_id=t.pk, account=a, now=_utc(2026, 3, 29, 21, 0, 0))


def test_r28_a_champions_registration_never_opens_before_the_monday_of_its_week():
    """A Monday Champions Tournament whose window was set to open on Sunday opens Monday 00:00
    Romanian time: a Sunday registration cannot qualify on last week's prizes."""
    (a,) = players(1)
    points_award(account=a, amount=300, source="tournament_prize", key="test:sunday", at=_utc(2026, 3, 29, 12, 0))
    t = new_tournament(
        kind="champions",
        now=_utc(2026, 3, 29, 10, 0),
        registration_opens_at=_utc(2026, 3, 29, 10, 0),  # Sunday 13:00 Romanian time
        starts_at=_utc(2026, 3, 30, 18, 0),
        ends_at=_utc(2026, 3, 30, 19, 0),
    )
    assert t.registration_opens_at == _utc(2026, 3, 29, 21, 0)  # moved to Monday 00:00 (+03:00)
    with pytest.raises(NotAllowed) as exc:
        tournament_register(tournament_id=t.pk, account=a, now=_utc(2026, 3, 29, 20, 59, 59))
    assert exc.value.details["registration_opens_at"] == "2026-03-29T21:00:00.000000Z"
    with pytest.raises(NotEligible) as exc:  # Monday: last week's 300 do not count
        tournament_register(tournament_id=t.pk, account=a, now=_utc(2026, 3, 29, 21, 0))
    assert exc.value.details["weekly_prize_points"] == 0
    # a regular tournament's window is left where the operator put it
    regular = new_tournament(
        now=_utc(2026, 3, 29, 10, 0),
        registration_opens_at=_utc(2026, 3, 29, 10, 0),
        starts_at=_utc(2026, 3, 30, 18, 0),
        ends_at=_utc(2026, 3, 30, 19, 0),
    )
    assert regular.registration_opens_at == _utc(2026, 3, 29, 10, 0)


def test_r28_prize_points_count_up_to_the_registration_instant():
    (a,) = players(1)
    t = new_tournament(
        kind="champions",
        now=_utc(2026, 3, 30, 6, 0),
        registration_opens_at=_utc(2026, 3, 30, 6, 0),
        starts_at=_utc(2026, 4, 2, 18, 0),
        ends_at=_utc(2026, 4, 2, 19, 0),
    )
    points_award(account=a, amount=200, source="tournament_prize", key="test:tue", at=_utc(2026, 3, 31, 12, 0))
    with pytest.raises(NotEligible) as exc:
        tournament_register(tournament_id=t.pk, account=a, now=_utc(2026, 3, 31, 11, 59, 59))
    assert exc.value.details["weekly_prize_points"] == 0
    tournament_register(tournament_id=t.pk, account=a, now=_utc(2026, 3, 31, 12, 0))


def test_r22_a_tournament_cancelled_before_any_table_answers_no_standings_and_when(api):
    """API.md Tournaments, a cancelled tournament: ``standings: []`` when no table was played (no
    place 1 for a player who never played) and ``cancelled_at``, as the admin shows."""
    t = new_tournament(min_players=4)
    register_all(t, players(3))
    assert tournament_start(tournament_id=t.pk, now=at(10)) == "cancelled"
    page = api.get(f"/api/v1/tournaments/{t.pk}").json()
    assert (page["status"], page["cancel_reason"]) == ("cancelled", "too_few_players")
    assert page["standings"] == [] and page["registered"] == 3
    assert page["cancelled_at"] == "2026-06-01T18:10:00.000000Z"  # the start job's instant (at(10))
    listed = api.get("/api/v1/tournaments?status=cancelled").json()["results"]
    assert [(x["id"], x["cancelled_at"]) for x in listed] == [(str(t.pk), page["cancelled_at"])]
    assert tournament_summary(new_tournament())["cancelled_at"] is None  # (read without its due start)

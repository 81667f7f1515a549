"""R-28's decision on a rescheduled Champions Tournament: an operator who moves its start into
another Romanian week ends every registration made before — a ``PlayerUnregistered`` each with
reason ``rescheduled``, the player notified — and registration reopens under that week's rule
(from its Monday 00:00 Romanian time, with that week's prize points)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from rivals.errors import NotAllowed, NotEligible
from rivals.live.models import Notification
from rivals.models import Account, Event
from rivals.points.services import points_award
from rivals.romanian_time import iso_z
from tests.factories import device_id_for
from tests.projections import assert_live_equals_rebuild
from tests.tournaments.helpers import new_tournament
from tournaments.models import Registration, Tournament
from tournaments.services.lifecycle import tournament_edit
from tournaments.services.registration import tournament_register, tournament_unregister

pytestmark = pytest.mark.django_db


def _utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


# the week of Monday 2026-03-30 (Romanian summer time, +03:00): it began 2026-03-29T21:00Z
THURSDAY = _utc(2026, 4, 2, 18, 0)  # 21:00 Romanian time
NEXT_MONDAY = _utc(2026, 4, 5, 21, 0)  # Monday 2026-04-06 00:00 Romanian time
NEXT_TUESDAY = _utc(2026, 4, 7, 18, 0)


def _players(n: int) -> list[tuple[APIClient, Account]]:
    out = []
    for i in range(n):
        client = APIClient()
        body = client.post("/api/v1/auth/guest", {"device_id": device_id_for(f"r28-move-{i}")}, format="json").json()
        client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
        out.append((client, Account.objects.get(pk=body["account_id"])))
    return out


def _champions(starts_at: datetime = THURSDAY, kind: str = "champions") -> Tournament:
    """Created on Monday 2026-03-30, registration asked to open then, one hour long (``kind``:
    a regular one, to compare)."""
    return new_tournament(
        kind=kind,
        min_players=16,
        now=_utc(2026, 3, 30, 6, 0),
        registration_opens_at=_utc(2026, 3, 30, 6, 0),
        starts_at=starts_at,
        ends_at=starts_at + timedelta(hours=1),
    )


def test_r28_moving_a_champions_start_into_another_week_ends_the_registrations_made_before():
    (ann_client, ann), (bob_client, bob), (cy_client, cy) = _players(3)
    for i, a in enumerate((ann, bob, cy)):
        points_award(account=a, amount=200, source="tournament_prize", key=f"r28:{i}", at=_utc(2026, 3, 31, 10, 0))
    t = _champions()
    for i, a in enumerate((ann, bob, cy)):
        tournament_register(tournament_id=t.pk, account=a, now=_utc(2026, 3, 31, 12, i))
    tournament_unregister(tournament_id=t.pk, account=cy, now=_utc(2026, 3, 31, 13, 0))  # her own withdrawal

    # within the same week: nothing ends
    tournament_edit(
        tournament_id=t.pk,
        actor="operator:7",
        now=_utc(2026, 4, 1, 9, 0),
        starts_at=_utc(2026, 4, 3, 18),
        ends_at=_utc(2026, 4, 3, 19),
    )
    assert Tournament.objects.get(pk=t.pk).registered == 2

    # into the next week: Ann's and Bob's registrations end, an event each, after the edit
    edited = tournament_edit(
        tournament_id=t.pk,
        actor="operator:7",
        now=_utc(2026, 4, 1, 10, 0),
        starts_at=NEXT_TUESDAY,
        ends_at=_utc(2026, 4, 7, 19, 0),
    )
    assert edited.registered == 0 and not Registration.objects.filter(tournament=t).exists()
    last = list(Event.objects.filter(stream_id=t.stream_id).order_by("-version")[:3])[::-1]
    assert [e.type for e in last] == ["TournamentEdited", "PlayerUnregistered", "PlayerUnregistered"]
    assert last[0].data["changes"] == {
        "registration_opens_at": NEXT_MONDAY.isoformat(),  # reopens under that week's rule
        "starts_at": NEXT_TUESDAY.isoformat(),
        "ends_at": "2026-04-07T19:00:00+00:00",
    }
    assert [(e.data, e.metadata["actor"]) for e in last[1:]] == [
        ({"account_id": a.pk, "reason": "rescheduled", "starts_at": NEXT_TUESDAY.isoformat()}, "operator:7")
        for a in (ann, bob)
    ]
    # each player is told (Cy, who withdrew herself, is not: nor for her own withdrawal)
    ended = Notification.objects.filter(type="tournament_registration_ended")
    assert sorted(ended.values_list("account_id", flat=True)) == sorted([ann.pk, bob.pk])
    page = ann_client.get("/api/v1/notifications").json()["results"]
    assert page[-1]["type"] == "tournament_registration_ended"
    assert page[-1]["data"] == {
        "tournament_id": str(t.pk),
        "reason": "rescheduled",
        "starts_at": iso_z(NEXT_TUESDAY),  # the API's one spelling (the event keeps its own)
    }
    assert (
        not cy_client.get("/api/v1/notifications").json()["results"][-1]["type"].startswith("tournament_registration")
    )

    # registration reopens under the new week's rule: from its Monday 00:00, with its prize points
    with pytest.raises(NotAllowed):
        tournament_register(tournament_id=t.pk, account=ann, now=_utc(2026, 4, 5, 20, 59, 59))
    with pytest.raises(NotEligible) as refused:
        tournament_register(tournament_id=t.pk, account=ann, now=NEXT_MONDAY)
    assert refused.value.details["weekly_prize_points"] == 0  # last week's 200 no longer count
    points_award(account=ann, amount=200, source="tournament_prize", key="r28:next", at=_utc(2026, 4, 6, 9, 0))
    tournament_register(tournament_id=t.pk, account=ann, now=_utc(2026, 4, 6, 9, 0))
    assert Tournament.objects.get(pk=t.pk).registered == 1
    assert_live_equals_rebuild()


def test_r28_moving_a_champions_start_into_an_earlier_week_reopens_from_that_monday():
    ((_, ann),) = _players(1)
    points_award(account=ann, amount=250, source="tournament_prize", key="r28:early", at=_utc(2026, 3, 30, 7, 0))
    t = _champions(NEXT_TUESDAY)
    assert t.registration_opens_at == NEXT_MONDAY  # clamped to its week's Monday
    edited = tournament_edit(
        tournament_id=t.pk,
        actor="operator:7",
        now=_utc(2026, 3, 30, 8, 0),
        starts_at=THURSDAY,
        ends_at=_utc(2026, 4, 2, 19),
    )
    assert (edited.starts_at, edited.registration_opens_at) == (THURSDAY, _utc(2026, 3, 29, 21, 0))
    tournament_register(tournament_id=t.pk, account=ann, now=_utc(2026, 3, 30, 9, 0))  # this week's 250 count


def test_r28_a_regular_tournament_moved_into_another_week_keeps_its_registrations():
    ((_, ann),) = _players(1)
    t = _champions(kind="regular")
    tournament_register(tournament_id=t.pk, account=ann, now=_utc(2026, 3, 31, 12, 0))
    edited = tournament_edit(
        tournament_id=t.pk, actor="operator:7", now=_utc(2026, 4, 1), starts_at=NEXT_TUESDAY, ends_at=_utc(2026, 4, 8)
    )
    assert edited.registered == 1
    assert not Event.objects.filter(stream_id=t.stream_id, type="PlayerUnregistered").exists()

"""Recurring schedules have a life (issue 22): created and edited as events; deactivating or
retiring asks whether to cancel the upcoming instances (as events) and never deletes; a
re-created schedule cannot duplicate an occurrence; reactivating creates the next ones again."""

from __future__ import annotations

import re
from datetime import time

import pytest

from rivals.models import Event
from tests.tournaments.helpers import SCHEDULE_FORM
from tournaments.models import RecurringSchedule, Tournament
from tournaments.services import schedules

pytestmark = pytest.mark.django_db
URL = "/admin/tournaments/recurringschedule/"


def _schedule(admin_client) -> RecurringSchedule:
    res = admin_client.post(f"{URL}add/", SCHEDULE_FORM)
    assert res.status_code == 302, res.content.decode()[:2000]
    return RecurringSchedule.objects.latest("pk")


def _upcoming(s: RecurringSchedule) -> list[Tournament]:
    return list(Tournament.objects.filter(schedule=s, status="scheduled").order_by("starts_at"))


def test_a_schedule_is_created_and_edited_as_events_and_never_deleted(admin_client, admin_user):
    s = _schedule(admin_client)
    created = Event.objects.get(stream_id=f"schedule-{s.pk}", type="ScheduleCreated")
    assert created.metadata["actor"] == f"operator:{admin_user.pk}" and created.data["local_time"] == "20:00"
    assert len(_upcoming(s)) in (2, 3)
    page = admin_client.get(f"{URL}{s.pk}/change/").content.decode()
    assert 'name="active"' not in page  # no checkbox that silently stops nothing
    assert "ScheduleCreated" in page and "Nightly" in page
    admin_client.post(f"{URL}{s.pk}/change/", {**SCHEDULE_FORM, "duration_minutes": "90"})
    edited = Event.objects.get(stream_id=f"schedule-{s.pk}", type="ScheduleEdited")
    assert edited.data["changes"] == {"duration_minutes": 90}
    assert admin_client.get(f"{URL}{s.pk}/delete/").status_code == 403
    assert "delete_selected" not in admin_client.get(URL).content.decode()


def test_deactivating_asks_about_the_upcoming_instances_and_leaves_them_unless_told(admin_client):
    s = _schedule(admin_client)
    upcoming = _upcoming(s)
    page = admin_client.post(URL, {"action": "deactivate_schedules", "_selected_action": [s.pk]}).content.decode()
    assert f"{len(upcoming)} upcoming instance(s)" in page and upcoming[0].title in page
    box = re.search(r'<input[^>]*name="cancel_upcoming"[^>]*>', page).group(0)
    assert "checked" not in box  # nothing irreversible is pre-ticked
    admin_client.post(
        URL, {"action": "deactivate_schedules", "_selected_action": [s.pk], "apply": "1", "reason": "pause"}
    )
    s.refresh_from_db()
    assert (s.active, s.retired_at) == (False, None)
    assert [t.status for t in _upcoming(s)] == ["scheduled"] * len(upcoming)  # left open, as chosen
    stopped = Event.objects.get(stream_id=f"schedule-{s.pk}", type="ScheduleDeactivated")
    assert stopped.data == {"schedule_id": s.pk, "reason": "pause", "cancelled": []}
    assert schedules.schedules_materialize() == 0  # an inactive schedule creates nothing
    admin_client.post(URL, {"action": "reactivate_schedules", "_selected_action": [s.pk], "apply": "1", "reason": "on"})
    s.refresh_from_db()
    assert s.active and Event.objects.filter(stream_id=f"schedule-{s.pk}", type="ScheduleReactivated").exists()


def test_retiring_with_cancellation_cancels_each_upcoming_instance_as_an_event(admin_client):
    s = _schedule(admin_client)
    upcoming = _upcoming(s)
    admin_client.post(
        URL,
        {
            "action": "retire_schedules",
            "_selected_action": [s.pk],
            "apply": "1",
            "reason": "the format ends",
            "cancel_upcoming": "on",
        },
    )
    s.refresh_from_db()
    assert s.retired_at is not None and not s.active and RecurringSchedule.objects.filter(pk=s.pk).exists()
    for t in upcoming:
        t.refresh_from_db()
        assert (t.status, t.cancel_reason) == ("cancelled", "operator")
        assert t.cancel_note == "its recurring schedule was retired: the format ends"
    retired = Event.objects.get(stream_id=f"schedule-{s.pk}", type="ScheduleRetired")
    assert sorted(retired.data["cancelled"]) == sorted(str(t.pk) for t in upcoming)
    page = admin_client.get(f"{URL}{s.pk}/change/").content.decode()
    assert 'name="title"' not in page and 'value="reactivate_schedules"' not in page  # history, read-only


def test_a_re_created_schedule_cannot_duplicate_an_occurrence(admin_client):
    first = _schedule(admin_client)
    kept = _upcoming(first)
    admin_client.post(URL, {"action": "retire_schedules", "_selected_action": [first.pk], "apply": "1", "reason": "x"})
    again = _schedule(admin_client)  # the same settings, a new schedule: its instances already exist
    assert _upcoming(again) == []
    starts = list(Tournament.objects.exclude(status="cancelled").values_list("kind", "starts_at"))
    assert len(starts) == len(set(starts)) == len(kept)
    # once the first one's instances are cancelled, the new schedule may hold those occurrences
    for t in kept:
        from tournaments.services.lifecycle import tournament_cancel

        tournament_cancel(tournament_id=t.pk, actor="operator:test", note="moved")
    assert schedules.schedule_materialize(schedule=again) == len(kept)


def test_the_service_refuses_what_the_schedule_cannot_do():
    from rivals.errors import NotAllowed

    s, _ = schedules.schedule_create(
        actor="operator:test",
        title="T",
        kind="regular",
        local_time=time(21),
        weekdays="0",
        duration_minutes=30,
        registration_hours_before=1,
        min_players=2,
        prize_table=[],
        multipliers=[],
        days_ahead=1,
    )
    with pytest.raises(NotAllowed):
        schedules.schedule_reactivate(schedule_id=s.pk, actor="operator:test", reason="x")  # active
    schedules.schedule_stop(schedule_id=s.pk, actor="operator:test", reason="x", retire=True, cancel_upcoming=False)
    for call in (
        lambda: schedules.schedule_reactivate(schedule_id=s.pk, actor="operator:test", reason="x"),
        lambda: schedules.schedule_stop(
            schedule_id=s.pk, actor="operator:test", reason="x", retire=True, cancel_upcoming=False
        ),
        lambda: schedules.schedule_edit(schedule_id=s.pk, actor="operator:test", title="U"),
    ):
        with pytest.raises(NotAllowed):
            call()

"""Periodic jobs as operators run them (issue 22): a pause is an event with a reason and survives
the next start (``setup_periodic_tasks``, which make run calls); the page says the declared
schedule; a job's result reads as words, not a Python repr."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_celery_beat.models import PeriodicTask

from rivals.jobs import readable
from rivals.models import Event

pytestmark = pytest.mark.django_db
URL = "/admin/django_celery_beat/periodictask/"


@pytest.fixture
def declared():
    call_command("setup_periodic_tasks", verbosity=0)
    return PeriodicTask.objects.get(name="matches-sweep")


def test_a_pause_is_an_event_and_survives_the_next_start(admin_client, admin_user, declared):
    page = admin_client.post(URL, {"action": "pause_jobs", "_selected_action": [declared.pk]}).content.decode()
    assert "beat stops sending it" in page and 'name="reason"' in page
    admin_client.post(
        URL, {"action": "pause_jobs", "_selected_action": [declared.pk], "apply": "1", "reason": "a stuck round"}
    )
    declared.refresh_from_db()
    assert declared.enabled is False
    paused = Event.objects.get(stream_id="job-matches-sweep", type="JobPaused")
    assert paused.data == {"job": "matches-sweep", "task": "matches.sweep", "reason": "a stuck round"}
    assert paused.metadata["actor"] == f"operator:{admin_user.pk}"
    call_command("setup_periodic_tasks", verbosity=0)  # what every make run does
    assert PeriodicTask.objects.get(name="matches-sweep").enabled is False
    assert PeriodicTask.objects.get(name="heartbeat").enabled is True
    listed = admin_client.get(URL).content.decode()
    assert "paused</b> by operator" in listed and "a stuck round" in listed
    admin_client.post(URL, {"action": "resume_jobs", "_selected_action": [declared.pk], "apply": "1", "reason": "ok"})
    call_command("setup_periodic_tasks", verbosity=0)
    assert PeriodicTask.objects.get(name="matches-sweep").enabled is True
    assert Event.objects.filter(stream_id="job-matches-sweep").count() == 2


def test_the_page_says_the_declared_schedule_and_edits_nothing(admin_client, declared):
    listed = admin_client.get(URL).content.decode()
    assert "every 2 seconds" in listed and "daily at 00:01 Romanian time" in listed and "hourly at :17" in listed
    page = admin_client.get(f"{URL}{declared.pk}/change/").content.decode()
    assert 'name="interval"' not in page and 'name="enabled"' not in page and 'value="pause_jobs"' in page
    assert admin_client.get(f"{URL}add/").status_code == 403
    for path in ("intervalschedule", "crontabschedule", "solarschedule", "clockedschedule"):
        assert admin_client.get(f"/admin/django_celery_beat/{path}/").status_code == 404  # not editable here
    assert admin_client.get("/admin/auth/group/").status_code == 404  # operators are superusers: no groups


def test_a_jobs_result_reads_as_words():
    assert readable({"rounds": 0, "tickets": 2, "duels": 0}) == "rounds 0, tickets 2, duels 0"
    assert readable({}) == "nothing to do" and readable(None) == "done" and readable(3) == "3"
    assert readable({"started": ["a", "b"], "cancelled_tournaments": []}) == "started a, b, cancelled tournaments none"


def test_the_routine_jobs_lines_are_debug_and_the_others_keep_their_level(caplog):
    import logging

    from config.logfilters import BEAT_SENDING

    beat = logging.getLogger("celery.beat")
    with caplog.at_level(logging.INFO, logger="celery.beat"):
        beat.info(BEAT_SENDING, "matches-sweep", "matches.sweep")  # every 2 s: routine
        beat.info(BEAT_SENDING, "rankings-roll", "rankings.roll")  # nightly: worth a line
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("INFO", "Scheduler: Sending due task rankings-roll (rankings.roll)")
    ]
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="celery.beat"):
        beat.info(BEAT_SENDING, "matches-sweep", "matches.sweep")
    assert [r.levelname for r in caplog.records] == ["DEBUG"]  # LOG_LEVEL=DEBUG shows it

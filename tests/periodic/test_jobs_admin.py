"""Periodic jobs as operators run them (issue 22): a pause is an event with a reason and survives
the next start (``setup_periodic_tasks``, which make run calls); the page says the declared
schedule; a job's result reads as words, not a Python repr. Issue 40: the health columns come
first; "last sent" stays true through a pause and a resume and is written when beat sends; a job
kept disabled is shown disabled; the pause form says monitoring will see it; the help texts are
the project's."""

from __future__ import annotations

import re

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
    assert admin_client.get("/admin/auth/group/").status_code == 404  # roles are code (rivals.accounts.roles)


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


def test_the_health_columns_come_first_and_the_help_texts_are_the_projects(admin_client, declared):
    listed = admin_client.get(URL).content.decode()
    start = listed.index("<thead>")
    head = listed[start : listed.index("</thead>", start)]
    columns = ["job", "state", "last_sent", "last_run", "last_result", "declared"]
    at = [re.search(rf'class="[^"]*column-{c}\b', head).start() for c in columns]
    assert at == sorted(at)
    page = admin_client.get(f"{URL}{declared.pk}/change/").content.decode()
    assert "Short Description For This Task" not in page and "The Name of the Celery Task" not in page
    assert "Ends competitive rounds whose deadline passed" in page


def test_the_pause_form_says_monitoring_will_see_it(admin_client, declared):
    heartbeat = PeriodicTask.objects.get(name="heartbeat")
    page = admin_client.post(URL, {"action": "pause_jobs", "_selected_action": [heartbeat.pk]}).content.decode()
    assert "monitoring sees it" in page and "/healthz answers" in page and "heartbeat goes stale" in page
    page = admin_client.post(URL, {"action": "pause_jobs", "_selected_action": [declared.pk]}).content.decode()
    assert "monitoring sees it" in page and "heartbeat goes stale" not in page


def test_last_sent_stays_true_through_a_pause_and_a_resume(admin_client, declared):
    from datetime import timedelta
    from types import SimpleNamespace

    from django.utils import timezone

    from config.beat import LeaderScheduler

    LeaderScheduler._record_sent(None, SimpleNamespace(name="matches-sweep"))  # what beat does as it sends
    sent = PeriodicTask.objects.get(pk=declared.pk).last_run_at
    assert sent is not None and timezone.now() - sent < timedelta(seconds=5)
    form = {"_selected_action": [declared.pk], "apply": "1", "reason": "looking"}
    admin_client.post(URL, {"action": "pause_jobs", **form})
    assert PeriodicTask.objects.get(pk=declared.pk).last_run_at == sent  # django-celery-beat forgot it: kept
    admin_client.post(URL, {"action": "resume_jobs", **form})
    resumed = PeriodicTask.objects.get(pk=declared.pk)
    assert resumed.enabled and resumed.last_run_at == sent
    page = admin_client.get(f"{URL}{declared.pk}/change/").content.decode()
    assert "never" not in page.split("Last sent by beat")[1][:300]


def test_a_job_kept_disabled_is_shown_disabled(admin_client, declared):
    from django_celery_beat.models import CrontabSchedule

    from config.celery import app

    assert app.conf.result_expires is None  # beat adds no celery.backend_cleanup of its own
    cron, _ = CrontabSchedule.objects.get_or_create(minute="0", hour="4")
    cleanup = PeriodicTask.objects.create(name="celery.backend_cleanup", task="celery.backend_cleanup", crontab=cron)
    call_command("setup_periodic_tasks", verbosity=0)
    assert PeriodicTask.objects.get(pk=cleanup.pk).enabled is False
    listed = admin_client.get(URL).content.decode()
    row = listed[listed.index("celery.backend_cleanup") :].split("</tr>")[0]
    assert "disabled (not declared)" in row and "running" not in row

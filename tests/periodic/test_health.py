"""``/healthz`` tells the truth (issue 40): 200 ``ok`` when every part is well; 200 ``degraded``,
naming the part, when the heartbeat is stale (or never beat) or a declared periodic job is late
beyond its interval, paused by an operator, or failed its last run; 503 ``down`` when the database
or the broker does not answer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from config.periodic import PERIODIC_TASKS
from rivals.models import JobRun
from rivals.system import jobs_status, system_heartbeat

pytestmark = pytest.mark.django_db


def _ran(task: str, ago: timedelta, *, ok: bool = True) -> None:
    at = timezone.now() - ago
    JobRun.objects.update_or_create(pk=task, defaults={"started_at": at, "finished_at": at, "ok": ok, "runs": 1})


@pytest.fixture
def all_well():
    """Every declared job ran a moment ago, the heartbeat included."""
    call_command("setup_periodic_tasks", verbosity=0)
    for spec in PERIODIC_TASKS:
        _ran(spec["task"], timedelta(seconds=1))
    system_heartbeat(source="celery")


def test_healthz_is_degraded_on_a_stale_heartbeat(client):
    system_heartbeat(source="celery", now=timezone.now() - timedelta(seconds=30))
    body = client.get("/healthz").json()
    assert (body["status"], body["degraded"], body["heartbeat"]["status"]) == ("ok", [], "ok")
    system_heartbeat(source="celery", now=timezone.now() - timedelta(minutes=10))
    res = client.get("/healthz")
    body = res.json()
    assert res.status_code == 200  # the web serves: a load balancer keeps it
    assert (body["status"], body["degraded"], body["heartbeat"]["status"]) == ("degraded", ["heartbeat"], "stale")


def test_a_heartbeat_that_never_beat_is_degraded_too(client):
    body = client.get("/healthz").json()
    assert body["heartbeat"]["status"] == "none" and body["status"] == "degraded"


def test_a_paused_late_or_failed_job_degrades_it_and_is_named(client, all_well):
    assert client.get("/healthz").json()["status"] == "ok"
    PeriodicTask.objects.filter(name="matches-sweep").update(enabled=False)  # as a pause leaves it
    body = client.get("/healthz").json()
    assert (body["status"], body["degraded"]) == ("degraded", ["jobs"])
    assert body["jobs"] == {"status": "degraded", "paused": ["matches-sweep"], "late": [], "failed": []}

    PeriodicTask.objects.filter(name="matches-sweep").update(enabled=True)
    _ran("rivals.idempotency_prune", timedelta(hours=1, minutes=50))  # hourly: due 50 min ago, within its hour
    _ran("rivals.rejected_intents_prune", timedelta(minutes=30))  # daily at 04:37: not due for hours, or just
    _ran("rivals.games_expire_due", timedelta(seconds=45))  # every 15 s: 30 s overdue, within the minute
    assert client.get("/healthz").json()["status"] == "ok"
    _ran("rivals.idempotency_prune", timedelta(hours=2, minutes=10))  # an hour past due and more
    _ran("rivals.rejected_intents_prune", timedelta(days=2))  # a night's run missed
    _ran("rivals.games_expire_due", timedelta(seconds=90))
    _ran("rivals.emails_retry", timedelta(seconds=5), ok=False)
    jobs = client.get("/healthz").json()["jobs"]
    assert jobs["late"] == ["games-expire-due", "idempotency-prune", "rejected-intents-prune"]
    assert jobs["failed"] == ["emails-retry"] and jobs["paused"] == []


def test_a_job_that_never_ran_is_not_called_late():
    call_command("setup_periodic_tasks", verbosity=0)
    assert jobs_status()["late"] == []  # nothing to measure from: the heartbeat says whether anything runs


def test_healthz_is_down_when_the_broker_does_not_answer(client, all_well):
    from config.celery import app

    before = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:9/0"  # nothing listens there
    try:
        res = client.get("/healthz")
    finally:
        app.conf.broker_url = before
    body = res.json()
    assert res.status_code == 503 and res["Retry-After"] == "5"
    assert body["status"] == "down" and body["broker"].startswith("error") and body["database"] == "ok"
    assert client.get("/healthz").status_code == 200

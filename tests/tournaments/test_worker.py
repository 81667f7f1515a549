"""Beat → broker → a real worker process → the tournaments sweep (no eager mode): a tournament
whose start is due is started and seated by the worker, on the real clock."""

from __future__ import annotations

import os
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from tests.platform.test_celery_worker import _spawn, _stop
from tests.tournaments.helpers import players
from tournaments.models import Tournament
from tournaments.services.lifecycle import tournament_create
from tournaments.services.registration import tournament_register


def _worker_database_url() -> str:
    """The test database's URL for the worker processes (``config.embedded.database_url`` once the
    hardening branch has it; until then the platform test's own helper)."""
    try:
        from config.embedded import database_url
    except ImportError:
        from tests.platform.test_celery_worker import _database_url

        return _database_url()
    return database_url(connection.settings_dict)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_r22_beat_and_a_real_worker_start_and_seat_a_due_tournament(tmp_path):
    call_command("setup_periodic_tasks")
    PeriodicTask.objects.exclude(name="tournaments-sweep").update(enabled=False)
    task = PeriodicTask.objects.get(name="tournaments-sweep")
    task.interval, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.SECONDS)
    task.save()
    now = timezone.now()
    t = tournament_create(
        actor="operator:test",
        kind="regular",
        title="Worker Cup",
        starts_at=now + timedelta(seconds=2),
        ends_at=now + timedelta(minutes=30),
        min_players=2,
        prize_table=[10],
        multipliers=[1],
        now=now,
    )
    for acc in players(3):
        tournament_register(tournament_id=t.pk, account=acc, now=now)

    env = {
        **os.environ,
        "DATABASE_URL": _worker_database_url(),
        "RIVALS_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.pop("CELERY_BROKER_URL", None)
    worker = _spawn(
        [
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-n",
            "tournaments-worker@%h",
        ],
        env,
        tmp_path / "worker.log",
    )
    beat = _spawn(["beat", "--loglevel", "INFO", "-s", str(tmp_path / "beat-schedule")], env, tmp_path / "beat.log")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            t.refresh_from_db()
            if t.status == "running" and t.tables.filter(round_id__isnull=False).exists():
                break
            if worker.poll() is not None or beat.poll() is not None:
                break
            time.sleep(0.5)
        logs = "\n".join(p.read_text(errors="replace")[-3000:] for p in tmp_path.glob("*.log"))
        t = Tournament.objects.get(pk=t.pk)
        assert t.status == "running", logs
        (table,) = t.tables.all()
        assert table.seats.count() == 3 and table.round_id is not None, logs
    finally:
        _stop(beat)
        _stop(worker)

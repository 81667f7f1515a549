"""R-17 with real processes: a round whose clients never call again is ended by the Celery task
scheduled for its deadline (worker only), and by the beat sweeper when that task is lost (worker
and beat) — no eager mode, no client."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from config.embedded import database_url
from rivals.matches import services as svc
from rivals.matches.models import Round
from rivals.models import Event
from tests.matches.helpers import accounts
from tests.platform.test_celery_worker import ROOT, _spawn, _stop

CREATE_ROUND = """
from datetime import timedelta
from django.utils import timezone
from rivals.matches.services import match_create
m = match_create(mode="quick", account_ids=[{a}, {b}], starts_at=timezone.now() - timedelta(seconds=18))
print(m.rounds.get().pk)
"""


def _wait_for_end(round_id, procs, seconds: float = 60) -> Event | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        event = Event.objects.filter(stream_id=f"round-{round_id}", type="RoundEnded").first()
        if event is not None or any(p.poll() is not None for p in procs):
            return event
        time.sleep(0.2)
    return None


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(240)
def test_r17_timeout_ended_by_the_scheduled_task_then_by_the_beat_sweeper(tmp_path):
    call_command("setup_periodic_tasks")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "RIVALS_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "RIVALS_ROUND_LAYOUTS": "L08",
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
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
            "clock-worker@%h",
        ],
        env,
        tmp_path / "worker.log",
    )
    beat = None
    try:
        # 1. the task path: a round created by another process (as a web worker would) schedules
        #    its end check on commit; only the worker runs (no beat)
        a, b = accounts(2, prefix="worker")
        out = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", CREATE_ROUND.format(a=a.pk, b=b.pk)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        round_id = out.stdout.strip().splitlines()[-1]
        event = _wait_for_end(round_id, [worker])
        logs = "\n".join(p.read_text(errors="replace")[-3000:] for p in tmp_path.glob("*.log"))
        assert event is not None, logs + out.stderr
        rnd = Round.objects.get(pk=round_id)
        assert event.metadata["via"] == "task" and rnd.end_reason == "idle"
        assert rnd.ended_at == rnd.starts_at + timedelta(seconds=20)
        assert event.recorded_at - rnd.ended_at < timedelta(seconds=5)

        # 2. the sweeper path: this round's task went nowhere (this test's broker is in memory:
        #    a lost task); beat runs the sweeper every second and the worker ends it
        task = PeriodicTask.objects.get(name="matches-sweep")
        task.interval, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.SECONDS)
        task.save()
        c, d = accounts(2, prefix="sweeper")
        lost = svc.match_create(
            mode="quick", account_ids=[c.pk, d.pk], starts_at=timezone.now() - timedelta(seconds=18)
        ).rounds.get()
        beat = _spawn(["beat", "--loglevel", "INFO", "-s", str(tmp_path / "beat-schedule")], env, tmp_path / "beat.log")
        event = _wait_for_end(lost.pk, [worker, beat])
        logs = "\n".join(p.read_text(errors="replace")[-3000:] for p in tmp_path.glob("*.log"))
        assert event is not None, logs
        assert event.metadata["via"] == "sweeper"
        lost.refresh_from_db()
        assert lost.end_reason == "idle" and lost.ended_at == lost.starts_at + timedelta(seconds=20)
        assert event.data["results"][0]["score"] == 0
    finally:
        if beat is not None:
            _stop(beat)
        _stop(worker)

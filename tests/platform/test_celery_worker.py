"""Beat → broker → a real worker process → database, end to end (no eager mode)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from config.embedded import database_url
from rivals.models import Event, Heartbeat

ROOT = Path(__file__).resolve().parents[2]


def _spawn(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", *args],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_beat_schedules_the_heartbeat_and_a_real_worker_records_it(tmp_path):
    call_command("setup_periodic_tasks")
    task = PeriodicTask.objects.get(name="heartbeat")
    assert task.task == "rivals.heartbeat"
    task.interval, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.SECONDS)
    task.save()

    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "RIVALS_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
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
            "test-worker@%h",
        ],
        env,
        tmp_path / "worker.log",
    )
    beat = _spawn(["beat", "--loglevel", "INFO", "-s", str(tmp_path / "beat-schedule")], env, tmp_path / "beat.log")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if Heartbeat.objects.filter(source="celery").exists():
                break
            if worker.poll() is not None or beat.poll() is not None:
                break
            time.sleep(0.5)
        row = Heartbeat.objects.filter(source="celery").first()
        logs = "\n".join(p.read_text(errors="replace")[-3000:] for p in tmp_path.glob("*.log"))
        assert row is not None, logs
        assert row.pid != os.getpid()  # written by the worker process, not by this test
        assert not Event.objects.exists()  # the heartbeat is no longer appended to the event log
    finally:
        _stop(beat)
        _stop(worker)

"""The beat's schedule (``config.periodic``) names only tasks a worker runs: a task renamed or
moved to another room (the tournament reminder, issue 33) must be renamed in the schedule too,
or beat would send a message no worker knows."""

from __future__ import annotations


def test_every_periodic_job_names_a_task_the_worker_knows():
    from config.celery import app
    from config.periodic import PERIODIC_TASKS

    app.loader.import_default_modules()  # what a worker imports at start (autodiscovery)
    named = {spec["task"] for spec in PERIODIC_TASKS}
    assert named and not named - set(app.tasks), sorted(named - set(app.tasks))
    assert "tournaments.reminders" in named

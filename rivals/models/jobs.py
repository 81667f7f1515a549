"""The last run of every Celery task, for the admin's periodic-tasks page (operators read what
each job did and when). Job state, not a domain fact: one row per task name, rewritten by each
run (``rivals.jobs``), never an event."""

from __future__ import annotations

from django.db import models


class JobRun(models.Model):
    task = models.CharField(max_length=200, primary_key=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ok = models.BooleanField(default=True)
    result = models.CharField(max_length=500, blank=True, default="")
    runs = models.BigIntegerField(default=0)
    failures = models.BigIntegerField(default=0)

    class Meta:
        db_table = "rivals_job_run"
        verbose_name = "job run"

    def __str__(self) -> str:
        return f"{self.task}: {'ok' if self.ok else 'failed'} at {self.finished_at}"

"""The Sichuan table (SICHUAN.md, API.md "Sichuan table").

A table is the event stream ``sichuan-<id>`` (stream type ``sichuan``): one ``SichuanTableOpened``
(who plays it) followed by the engine's events (``TableDealt`` … ``DealEnded``). ``SichuanTable``
is the projection of that stream (rebuilt by ``manage.py rebuild_projections``); the engine's
state itself is rebuilt per request by replaying the stream through ``engine.replay``.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


def _zero_scores() -> list[int]:
    return [0, 0, 0, 0]


class SichuanTable(models.Model):
    STATUSES = (("playing", "playing"), ("finished", "finished"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sichuan_tables")
    human_seat = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField(null=True, blank=True, help_text="from TableDealt (S-2)")
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=STATUSES, default="playing")
    seq = models.PositiveIntegerField(default=0, help_text="accepted human intents")
    version = models.PositiveIntegerField(default=0, help_text="stream version")
    scores = models.JSONField(default=_zero_scores, help_text="running points per seat (S-13…S-16, sum 0)")
    end_reason = models.CharField(max_length=20, blank=True, default="")
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "sichuan_table"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["account", "created_at"], name="sichuan_account_created")]

    def __str__(self) -> str:
        return f"Sichuan table {self.id} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"sichuan-{self.id}"

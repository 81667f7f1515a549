"""Retention jobs: idempotency records (48 h) and rejected intents (90 days) are pruned."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rivals.games.models import RejectedIntent
from rivals.games.services.rejections import rejected_intents_prune
from rivals.models import IdempotencyRecord
from rivals.system import idempotency_prune


@pytest.mark.django_db
def test_idempotency_records_older_than_48_hours_are_pruned(api):
    from rivals.secrets import fingerprint
    from tests.factories import device_id_for

    for key in ("old", "fresh"):
        api.post("/api/v1/auth/guest", {"device_id": device_id_for(key)}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    old, fresh = (fingerprint(key, purpose="idempotency-key") for key in ("old", "fresh"))
    IdempotencyRecord.objects.filter(key=old).update(created_at=timezone.now() - timedelta(hours=48, minutes=1))
    IdempotencyRecord.objects.filter(key=fresh).update(created_at=timezone.now() - timedelta(hours=47))
    assert idempotency_prune() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == [fresh]
    assert idempotency_prune() == 0


@pytest.mark.django_db
def test_rejected_intents_older_than_90_days_are_pruned(guest):
    client, _ = guest("retention")
    for _ in range(3):
        client.post("/api/v1/games/nope/intents", {"seq": 0, "type": "hint"}, format="json")
    old, *fresh = RejectedIntent.objects.order_by("pk")
    RejectedIntent.objects.filter(pk=old.pk).update(at=timezone.now() - timedelta(days=90, hours=1))
    RejectedIntent.objects.filter(pk=fresh[0].pk).update(at=timezone.now() - timedelta(days=89))
    assert rejected_intents_prune() == 1
    assert RejectedIntent.objects.count() == 2


def test_both_retention_jobs_are_scheduled():
    from config.periodic import PERIODIC_TASKS

    tasks = {spec["task"] for spec in PERIODIC_TASKS}
    assert {"rivals.idempotency_prune", "rivals.rejected_intents_prune"} <= tasks

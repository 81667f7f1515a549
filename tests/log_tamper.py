"""What the event log's owner can do to it (issue 31), for the tamper tests
(``tests/security/test_log_tamper.py``) and ``make security-probe`` (``tests/perf/probe_tamper.py``):
rewrite with the log's refusal triggers switched off (``session_replication_role = replica``,
which only a superuser — the tests' user, not the application's role — may set)."""

from __future__ import annotations

from django.db import connection
from django.utils import timezone


def owner(sql: str, params=None) -> None:
    """Switch the triggers off and rewrite."""
    with connection.cursor() as cur:
        cur.execute("SET session_replication_role = replica")
        cur.execute(sql, params)
        cur.execute("SET session_replication_role = DEFAULT")


def ev(stream_id: str, version: int):
    from rivals.models import Event

    return Event.objects.get(stream_id=stream_id, version=version)


def seal(stream_id: str, version: int) -> None:
    """As migration 0008 left a stream older than the chain: its history unlinked, its chain sealed."""
    sealed = bytes(ev(stream_id, version).chain)
    owner("UPDATE rivals_event SET chain = NULL WHERE stream_id = %s AND version <= %s", [stream_id, version])
    owner(
        "INSERT INTO rivals_event_seal (stream_id, version, chain, sealed_at) VALUES (%s, %s, %s, %s)",
        [stream_id, version, sealed, timezone.now()],
    )

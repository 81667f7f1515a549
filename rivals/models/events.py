"""The event store's tables: the append-only event log and the stream heads."""

from __future__ import annotations

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models


class Event(models.Model):
    """One immutable fact. UPDATE, DELETE and TRUNCATE are refused by PostgreSQL itself.

    Two walls (migration ``0004``): triggers that raise on UPDATE, DELETE and TRUNCATE whatever
    the session has set — plain PL/pgSQL, no ``pgtrigger.ignore`` escape a client could ``SET``;
    and, in production, an application role that has only SELECT and INSERT on this table and
    does not own it (``manage.py db_roles``; deploy/README.md).

    Partitioned by month of ``recorded_at`` (migration ``0011``): in the database the primary key
    is ``(position, recorded_at)`` and ``(stream_id, version)`` is unique per partition, and
    across partitions through the stream head's claim (an insert trigger); the model keeps
    declaring both as Django knows them (positions are unique: one identity sequence).
    """

    position = models.BigAutoField(primary_key=True)
    stream_id = models.CharField(max_length=120)
    stream_type = models.CharField(max_length=40)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=60)
    schema_version = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField(default=dict)
    # actor, request_id (server-made), idempotency_key (a fingerprint), … — never client text
    metadata = models.JSONField(default=dict)
    recorded_at = models.DateTimeField()
    # the keyed hash chained over this event and the previous one of its stream (rivals.eventchain);
    # NULL for the events written before migration 0008 (their chain is sealed in EventSeal)
    chain = models.BinaryField(null=True, editable=False)

    class Meta:
        db_table = "rivals_event"
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["stream_id", "version"], name="event_stream_version_unique"),
        ]
        indexes = [
            models.Index(fields=["type", "position"], name="event_type_position"),
            models.Index(fields=["stream_type", "position"], name="event_stype_position"),
        ]

    def __str__(self) -> str:
        return f"#{self.position} {self.stream_id}@{self.version} {self.type}"


class Stream(models.Model):
    """The head of one event stream: its type and current version (optimistic concurrency)."""

    id = models.CharField(max_length=120, primary_key=True)
    type = models.CharField(max_length=40)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    # the chain of the stream's last event, and the one its last append started from (an append
    # reads its first link here: rivals.eventchain)
    chain = models.BinaryField(null=True, editable=False)
    chain_base = models.BinaryField(null=True, editable=False)
    # the earliest ``recorded_at`` of the stream's events (each append lowers it to its instant):
    # a stream's reads plan only the log's partitions from that month on (``stream_filter``)
    first_at = models.DateTimeField(null=True, editable=False)
    # Two more columns live in the database only (migration 0011), written by the append's head
    # claim and read by the log's insert trigger: ``base_version`` (the version the last append
    # started from) and ``claimed_by`` (its transaction, xid8).

    class Meta:
        db_table = "rivals_stream"

    def __str__(self) -> str:
        return f"{self.id}@{self.version}"


class EventSeal(models.Model):
    """The chain of each stream's events written before the log was chained (migration 0008),
    computed once by that migration: append-only like the log (rivals.eventchain)."""

    stream_id = models.CharField(max_length=120, primary_key=True)
    version = models.PositiveIntegerField()
    chain = models.BinaryField()
    sealed_at = models.DateTimeField()

    class Meta:
        db_table = "rivals_event_seal"

    def __str__(self) -> str:
        return f"seal of {self.stream_id}@{self.version}"


class IdempotencyRecord(models.Model):
    """The stored response of a state-changing request sent with an ``Idempotency-Key``.

    Only fingerprints of what a replay compares (the key, the request) are kept; an answer that
    carried a secret (a sign-in's token) is kept without it (``withheld``), and a replay of it
    mints nothing (``rivals.api.idempotency``)."""

    owner = models.CharField(max_length=80)
    key = models.CharField(max_length=255, help_text="keyed fingerprint of the Idempotency-Key")
    fingerprint = models.CharField(max_length=64, help_text="keyed fingerprint of method, path and body")
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField(null=True, encoder=DjangoJSONEncoder)
    withheld = models.BooleanField(default=False, help_text="the answer carried a secret, not kept")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "rivals_idempotency"
        constraints = [models.UniqueConstraint(fields=["owner", "key"], name="idempotency_owner_key_unique")]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created_at")]  # retention job

    def __str__(self) -> str:
        return f"{self.method} {self.path} → {self.status_code}"


class Heartbeat(models.Model):
    """The last proof that beat → broker → worker → database works, one row per source.

    A liveness probe, not a domain fact: kept here (one row rewritten each minute) rather than as
    events in the immutable log; ``/healthz`` shows it."""

    source = models.CharField(max_length=40, primary_key=True)
    beat_at = models.DateTimeField()
    host = models.CharField(max_length=200)
    pid = models.IntegerField()
    beats = models.BigIntegerField(default=1)

    class Meta:
        db_table = "rivals_heartbeat"

    def __str__(self) -> str:
        return f"{self.source} at {self.beat_at:%Y-%m-%d %H:%M:%S}"

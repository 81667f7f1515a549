"""A player's own data (API.md Accounts: ``GET /api/v1/account/export``; GDPR Art. 15 and 20): one
JSON document of everything the service holds about the account, streamed.

**Parts.** Each room contributes the part it holds — its rows as the player may see them — with one
registration (``register_export_part``, from its app's ``ready()``): a name, a function of the
``Subject`` yielding the part's rows (or returning one object), and the serializer of a row (the
schema's ``AccountExport`` is made from them). Today: the account, its display names, its events,
its jokers (accounts); games with their boards' events (games); rounds and results (matches);
points (points); Sichuan tables (sichuan); reports filed (reports); notifications (live); clubs;
tournaments and pots (tournaments). A rating room adds ``ratings`` the same way.

**What a part never holds**: another player's personal data (other players appear by nothing but
the place they took, a notification's account id as the API shows it), any secret (no token, token
reference, password hash, device id or its digest, key), a competition's deal while it is secret
(R-40: the reads the API uses decide), an operator's own notes. Names sealed in the log are opened
with the account's key (``rivals.personal``).

**After an erasure** (the account closed with ``erase``) the document says so and holds nothing
personal: the account part's status, and every other part empty.

**Memory stays flat**: the document is written part by part, row by row, from querysets read in
keyset-ordered chunks (``chunked``) — the same with or without server-side cursors (a
transaction-mode pooler turns them off, config/pooler.py) — so a player with years of games is
streamed in the memory of one chunk.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Q, QuerySet
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from rivals.api.renderers import Encoder
from rivals.romanian_time import iso_z

FORMAT = "mahjong-rivals-account-export/1"
CHUNK = 500  # rows read per query


@dataclass(frozen=True)
class Subject:
    """Whose data, and how it is read: ``erased`` (nothing personal is left), ``now``."""

    account: Any  # rivals.models.Account
    now: datetime
    erased: bool = False


@dataclass(frozen=True)
class ExportPart:
    name: str
    feature: str
    rows: Callable[[Subject], Iterable[dict] | dict]
    shape: type[serializers.Serializer]  # one row (or the object, when ``many`` is false)
    description: str
    many: bool = True
    order: int = 100


_PARTS: dict[str, ExportPart] = {}


def register_export_part(
    *,
    name: str,
    feature: str,
    rows: Callable[[Subject], Iterable[dict] | dict],
    shape: type[serializers.Serializer],
    description: str,
    many: bool = True,
    order: int = 100,
) -> None:
    """Add a part to every export (a name another room registered is refused)."""
    part = ExportPart(name, feature, rows, shape, description, many, order)
    known = _PARTS.get(name)
    if known is not None and known != part:
        raise ImproperlyConfigured(f"export part {name!r} is registered by {known.feature} and {feature}")
    _PARTS[name] = part


def export_parts() -> list[ExportPart]:
    return sorted(_PARTS.values(), key=lambda p: (p.order, p.name))


def chunked(queryset: QuerySet, *, order: tuple[str, ...] = ("pk",), size: int = CHUNK) -> Iterator[Any]:
    """The rows of ``queryset`` in ``order`` (one or two fields, the last unique), read ``size`` at
    a time by keyset: each chunk a query of its own, none held open — flat memory whether or not
    server-side cursors are available."""
    last = None
    while True:
        qs = queryset.order_by(*order)
        if last is not None:
            if len(order) == 1:
                qs = qs.filter(**{f"{order[0]}__gt": last[0]})
            else:
                first, second = order
                qs = qs.filter(Q(**{f"{first}__gt": last[0]}) | Q(**{first: last[0], f"{second}__gt": last[1]}))
        page = list(qs[:size])
        yield from page
        if len(page) < size:
            return
        tail = page[-1]
        last = tuple(tail[k] if isinstance(tail, dict) else getattr(tail, k) for k in order)


def batches(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``rows`` in lists of ``size`` (the last may be shorter): for a part that asks one question
    of a batch of rows (which deals are still secret, a batch of boards' events)."""
    batch: list[Any] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _dumps(value: Any) -> str:
    return json.dumps(value, cls=Encoder, ensure_ascii=False, separators=(",", ":"))


def export_document(subject: Subject) -> Iterator[bytes]:
    """The document, in pieces: ``{"format", "exported_at", "account_id", "closed", "erased",
    <part>: …}`` — each part written as its rows are read."""
    account = subject.account
    head = {
        "format": FORMAT,
        "exported_at": iso_z(subject.now),
        "account_id": account.pk,
        "closed": account.closed_at is not None,
        "erased": subject.erased,
    }
    yield _dumps(head)[:-1].encode()
    for part in export_parts():
        if not part.many:
            yield f',"{part.name}":{_dumps(part.rows(subject))}'.encode()
            continue
        yield f',"{part.name}":['.encode()
        first = True
        if not subject.erased:
            for row in part.rows(subject):
                yield (("" if first else ",") + _dumps(row)).encode()
                first = False
        yield b"]"
    yield b"}"


# --- what the export is said to be in the schema ---------------------------------------------------


def export_schema_fields() -> dict[str, serializers.Field]:
    """The document's fields: its head, and one per registered part (its rows' shape)."""
    fields: dict[str, serializers.Field] = {
        "format": serializers.CharField(help_text=f"{FORMAT}"),
        "exported_at": serializers.DateTimeField(),
        "account_id": serializers.IntegerField(),
        "closed": serializers.BooleanField(help_text="the account is closed"),
        "erased": serializers.BooleanField(help_text="its personal data was erased: every part below is empty"),
    }
    for part in export_parts():
        fields[part.name] = part.shape(many=part.many, help_text=part.description)
    return fields


class AccountExportOut(serializers.Serializer):
    """The export document; in the schema, its fields are the registered parts' (``AccountExport``)."""


class AccountExportSchema(OpenApiSerializerExtension):
    target_class = AccountExportOut

    def map_serializer(self, auto_schema, direction):
        document = type("AccountExportDocument", (serializers.Serializer,), export_schema_fields())
        return auto_schema._map_serializer(document, direction, bypass_extensions=True)

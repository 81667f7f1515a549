"""``Idempotency-Key`` for state-changing requests (API.md "Conventions").

The first request with a key runs once, inside one transaction with the stored record; a replay
with the same body returns the stored response (``Idempotent-Replayed: true``); the same key with
another body is 409 ``conflict``. A concurrent duplicate waits on the record's unique key and then
replays. A request that fails with an exception stores nothing, so it may be retried.

Scope of a key: an authenticated caller's keys are theirs (``account:<id>``). An anonymous caller
has no identity but what it sends, so its key is scoped to the exact request (method, path and
body): the same request with the same key replays, and two devices that happen to pick the same
key for different sign-ins do not collide. Records are kept ``RIVALS["IDEMPOTENCY_RETENTION_H"]``
hours (the ``idempotency-prune`` job); a key is meant for retries, not for days later.
"""

from __future__ import annotations

import functools
import hashlib
import json

from django.db import IntegrityError, transaction
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from rivals.errors import Conflict, Invalid
from rivals.models import IdempotencyRecord
from rivals.text import storable_json, storable_text

HEADER = "Idempotency-Key"


def _owner(request, fingerprint: str) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"account:{user.pk}"
    return f"anonymous:{fingerprint[:32]}"


def _storable_response(data):
    """Exactly the JSON the client received (the renderer's datetime format included), as JSONB
    can store it (an error message may quote a client's U+0000; rare, so checked on the bytes)."""
    if data is None:
        return None
    rendered = JSONRenderer().render(data)
    stored = json.loads(rendered)
    return storable_json(stored) if b"\\u0000" in rendered else stored


def idempotent(view_method):
    @functools.wraps(view_method)
    def wrapper(self, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if not key:
            return view_method(self, request, *args, **kwargs)
        if len(key) > 255 or not key.isprintable():
            raise Invalid("Idempotency-Key must be at most 255 printable characters")
        fingerprint = hashlib.sha256(
            b"\0".join([request.method.encode(), request.path.encode("utf-8", "surrogatepass"), request.body or b""])
        ).hexdigest()
        owner = _owner(request, fingerprint)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        owner=owner,
                        key=key,
                        fingerprint=fingerprint,
                        method=request.method,
                        path=storable_text(request.path, 500),
                        status_code=0,
                    )
                    created = True
            except IntegrityError:
                record = IdempotencyRecord.objects.select_for_update().get(owner=owner, key=key)
                created = False
            if not created:
                if record.fingerprint != fingerprint:
                    raise Conflict(
                        "this Idempotency-Key was used with another request",
                        details={"idempotency_key": key},
                    )
                return Response(record.response, status=record.status_code, headers={"Idempotent-Replayed": "true"})
            response = view_method(self, request, *args, **kwargs)
            record.status_code = response.status_code
            record.response = _storable_response(response.data)
            record.save(update_fields=["status_code", "response"])
            return response

    return wrapper

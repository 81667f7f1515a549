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

No secret at rest (issue 19): the record keeps keyed fingerprints of the key and of the request
(``rivals.secrets.fingerprint``), never the key or the body; an answer that carries a secret
(``secret_fields``: a sign-in's token) is stored without it. Its replay either runs the operation
again for the secret alone (``reissue=True``: a guest sign-in — the same device signs in to the
same account again, as it could without the key, and the replay is the first answer with a fresh
token; a device id unlinked since is refused as any sign-in would be), or answers 409
``conflict`` with ``details.replayed`` and the answer's other fields (the client signs in again
without the key). The key is at most 255 printable characters (else 400);
while the operation runs, its fingerprint is what events carry in ``metadata.idempotency_key``.
Operations that are not decorated (not idempotent: ``/auth/logout``) ignore the header.
"""

from __future__ import annotations

import functools
import hashlib
import json

from django.db import IntegrityError, transaction
from rest_framework.response import Response

from rivals import context
from rivals.api.renderers import JSONRenderer
from rivals.errors import Conflict, Invalid
from rivals.models import IdempotencyRecord
from rivals.secrets import fingerprint
from rivals.text import storable_json, storable_text

HEADER = "Idempotency-Key"
KEY_MAX = 255


def request_fingerprint(request) -> str:
    """Keyed fingerprint of method, path and body (over their SHA-256, which records written
    before fingerprints were keyed kept: migration 0007 keyed them the same way)."""
    digest = hashlib.sha256(
        b"\0".join([request.method.encode(), request.path.encode("utf-8", "surrogatepass"), request.body or b""])
    ).hexdigest()
    return fingerprint(digest, purpose="idempotency-request")


def _owner(request, request_fp: str) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"account:{user.pk}"
    return f"anonymous:{request_fp}"


def _storable_response(data):
    """Exactly the JSON the client received (the renderer's datetime format included), as JSONB
    can store it (an error message may quote a client's U+0000; rare, so checked on the bytes)."""
    if data is None:
        return None
    rendered = JSONRenderer().render(data)
    stored = json.loads(rendered)
    return storable_json(stored) if b"\\u0000" in rendered else stored


def _withheld_replay(record: IdempotencyRecord):
    raise Conflict(
        "this request was answered once and its answer carried a secret that is not kept: "
        "send it again without this Idempotency-Key",
        details={"replayed": True, "status": record.status_code, **(record.response or {})},
    )


def idempotent(view_method=None, *, secret_fields: tuple[str, ...] = (), reissue: bool = False):
    """Decorate a view method (``@idempotent`` or ``@idempotent(secret_fields=("token",))``)."""
    if view_method is None:
        return functools.partial(idempotent, secret_fields=secret_fields, reissue=reissue)

    @functools.wraps(view_method)
    def wrapper(self, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if not key:
            return view_method(self, request, *args, **kwargs)
        if len(key) > KEY_MAX or not (key.isascii() and key.isprintable()):
            raise Invalid(
                f"{HEADER} must be at most {KEY_MAX} printable ASCII characters", details={"idempotency_key": []}
            )
        request_fp = request_fingerprint(request)
        owner = _owner(request, request_fp)
        key_fp = fingerprint(key, purpose="idempotency-key")
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        owner=owner,
                        key=key_fp,
                        fingerprint=request_fp,
                        method=request.method,
                        path=storable_text(request.path, 500),
                        status_code=0,
                    )
                    created = True
            except IntegrityError:
                record = IdempotencyRecord.objects.select_for_update().get(owner=owner, key=key_fp)
                created = False
            if not created:
                if record.fingerprint != request_fp:
                    raise Conflict(
                        "this Idempotency-Key was used with another request", details={"idempotency_key": []}
                    )
                replayed = {"Idempotent-Replayed": "true"}
                if record.withheld and reissue:
                    fresh = view_method(self, request, *args, **kwargs)
                    secrets_ = {f: fresh.data[f] for f in secret_fields if f in (fresh.data or {})}
                    return Response({**record.response, **secrets_}, status=record.status_code, headers=replayed)
                if record.withheld:
                    _withheld_replay(record)
                return Response(record.response, status=record.status_code, headers=replayed)
            token = context.idempotency_key.set(key_fp)
            try:
                response = view_method(self, request, *args, **kwargs)
            finally:
                context.idempotency_key.reset(token)
            stored = _storable_response(response.data)
            withheld = isinstance(stored, dict) and any(f in stored for f in secret_fields)
            if withheld:
                stored = {k: v for k, v in stored.items() if k not in secret_fields}
            record.status_code, record.response, record.withheld = response.status_code, stored, withheld
            record.save(update_fields=["status_code", "response", "withheld"])
            return response

    wrapper.idempotent = True  # the schema declares the Idempotency-Key header (rivals.api.schema)
    return wrapper

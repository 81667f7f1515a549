"""Request-scoped metadata that the event store copies into every event's ``metadata``."""

from __future__ import annotations

import contextvars
import uuid

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
idempotency_key: contextvars.ContextVar[str | None] = contextvars.ContextVar("idempotency_key", default=None)


class RequestContextMiddleware:
    """Gives every request an id (``X-Request-ID`` if the client sent a sane one) and echoes it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        rid = request.headers.get("X-Request-ID", "")
        if not rid or len(rid) > 64 or not rid.isprintable():
            rid = uuid.uuid4().hex
        token = request_id.set(rid)
        key_token = idempotency_key.set(request.headers.get("Idempotency-Key") or None)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
            idempotency_key.reset(key_token)
        response["X-Request-ID"] = rid
        return response
